/* MPI test: memory given back and taken again between large messages.
 *
 * A transport that caches memory registrations (verbs, UCX) must notice
 * when the application frees or unmaps a buffer: new memory at the same
 * address has other pages, and a stale registration would move the old
 * pages' bytes. Ranks 0 and 1, for each way of getting memory — malloc of a
 * large block (an mmap inside glibc), mmap (and again mmap at the same
 * address), heap memory (brk; freeing the heap top shrinks it) — run
 * rounds: rank 0 allocates, fills with the round's pattern and sends the
 * buffer twice (the second send finds the registration cached); rank 1
 * allocates its receive buffer anew each round and checks both messages;
 * both free at the end of the round. Every byte is checked. Which rounds
 * got the same address again is printed (it is what makes the test bite:
 * the mmap rounds get it by construction).
 * Argument: message size in bytes (default 1 MiB: above every eager limit). */
#include <malloc.h>
#include <sys/mman.h>

#include "test/mpi/p2p_common.c"

#define ROUNDS 3

enum { K_MALLOC, K_MMAP, K_HEAP, K_N };
static const char *kname[K_N] = {"malloc", "mmap", "heap"};

static void *get_mem(int kind, size_t n, void *want)
{
    void *p;
    switch (kind) {
    case K_MALLOC:
        return malloc(n);
    case K_MMAP:
        p = mmap(want, n, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS | (want ? MAP_FIXED_NOREPLACE : 0), -1, 0);
        if (p == MAP_FAILED && want) /* someone took it: anywhere */
            p = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        return p == MAP_FAILED ? NULL : p;
    default:
        return malloc(n); /* from the heap: see the mallopt calls */
    }
}

static void put_mem(int kind, void *p, size_t n)
{
    if (kind == K_MMAP)
        munmap(p, n);
    else
        free(p);
}

int main(int argc, char **argv)
{
    p2p_init(&argc, &argv);
    size_t n = argc > 1 ? (size_t)atol(argv[1]) : (size_t)1 << 20;
    if (p2p_size < 2 || p2p_rank > 1) {
        mt_ok(1, "rank %d idle", p2p_rank);
        MPI_Finalize();
        return mt_done();
    }
    for (int kind = 0; kind < K_N; kind++) {
        /* malloc: blocks this large always by mmap (no adaptive threshold);
         * heap: never by mmap, and a free heap top is always trimmed */
        if (kind == K_MALLOC) {
            mallopt(M_MMAP_THRESHOLD, 128 << 10);
        } else if (kind == K_HEAP) {
            mallopt(M_MMAP_THRESHOLD, 256 << 20);
            mallopt(M_TRIM_THRESHOLD, 0);
        }
        void *prev = NULL;
        int same = 0;
        for (int r = 0; r < ROUNDS; r++) {
            int tag = kind * 16 + r;
            unsigned char *b = get_mem(kind, n, kind == K_MMAP ? prev : NULL);
            mt_ok(b != NULL, "%s round %d: %zu bytes", kname[kind], r, n);
            if (!b)
                MPI_Abort(MPI_COMM_WORLD, 2);
            same += r > 0 && b == prev;
            prev = b;
            if (p2p_rank == 0) {
                p2p_fill(b, n, 0, tag, r);
                for (int k = 0; k < 2; k++)
                    mt_is_int(MPI_Send(b, (int)n, MPI_BYTE, 1, tag, MPI_COMM_WORLD), MPI_SUCCESS,
                              "%s round %d: send %d", kname[kind], r, k);
            } else {
                for (int k = 0; k < 2; k++) {
                    memset(b, 0xee, n);
                    MPI_Status st;
                    int c = -1;
                    mt_is_int(MPI_Recv(b, (int)n, MPI_BYTE, 0, tag, MPI_COMM_WORLD, &st), MPI_SUCCESS,
                              "%s round %d: receive %d", kname[kind], r, k);
                    MPI_Get_count(&st, MPI_BYTE, &c);
                    long long bad = p2p_check(b, n, 0, tag, r);
                    mt_ok(c == (int)n && bad < 0, "%s round %d, message %d: the round's %zu bytes (count %d, first "
                          "wrong byte %lld)", kname[kind], r, k, n, c, bad);
                }
            }
            put_mem(kind, b, n);
            p2p_sync(); /* both have freed before the next round allocates */
        }
        printf("# [rank %d] %s: %d of %d rounds got the previous round's address\n", p2p_rank, kname[kind], same,
               ROUNDS - 1);
        if (kind == K_MMAP)
            mt_is_int(same, ROUNDS - 1, "mmap: every round at the same address");
    }
    mallopt(M_MMAP_THRESHOLD, 128 << 10);
    mallopt(M_TRIM_THRESHOLD, 128 << 10);
    MPI_Finalize();
    return mt_done();
}

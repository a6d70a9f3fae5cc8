/* MPI test: MPI_Alloc_mem in node memory (runtime/rma/mem.c), and
 * windows made by MPI_Win_create over it, which node peers reach by loads
 * and stores and CPU atomics (test/mpi/rma_allocmem.sh checks the path
 * table: window 0, over malloc'd memory, by single copies; window 1, over
 * MPI_Alloc_mem memory, by loads and stores):
 *   - malloc semantics: any size (0 included), aligned to at least 64,
 *     writable to the end, blocks that do not overlap; a freed block is
 *     given again to the same request; large blocks (a chunk of their
 *     own) and more than a chunk of small ones;
 *   - the info key mpi_minimum_memory_alignment honoured (4096, 1 MiB),
 *     a value that is not a power of two ignored;
 *   - MPI_ERR_NO_MEM for an impossible size; MPI_Free_mem of a pointer it
 *     did not give, of one inside a block, twice: MPI_ERR_BASE; of NULL:
 *     fine;
 *   - a window over Alloc_mem memory: Put, Get, Fetch_and_op (int64, 300
 *     per rank on one counter), Accumulate of doubles (the lock word),
 *     Compare_and_swap, exclusive-lock increments: exact values; the same
 *     over a 2 MiB block (a chunk of its own);
 *   - element-wise atomicity where CPU atomics (integers of 4 and 8
 *     bytes, aligned) meet every other way of applying an accumulate, on a
 *     window over Alloc_mem memory and one from Win_allocate: every rank
 *     at once adds to 16 int64 counters by Fetch_and_op, Accumulate of 16
 *     elements and Get_accumulate of 4, takes the MAX of an int32 (a
 *     cmpxchg loop), and adds to an int64 at an odd address (the lock
 *     word): exact totals;
 *   - Put and Get of 100003 bytes between odd addresses on both sides
 *     (with RDMPI_RMA_NT_COPY, the non-temporal copy's ends): every byte;
 *   - 40 Gets of 256 KiB + 8 from rank 1 while it waits in MPI_Recv (with
 *     RDMPI_RMA_SPLIT_GET, where it copies their tails): every byte;
 *   - fork(): the child gets a copy of Alloc_mem memory, not a share. */
#include <stdint.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "test/mpi/mtest.h"

static int rank, size;

static void window_checks(int64_t *m, MPI_Aint n, const char *what)
{
    /* n int64 slots at every rank, all zero */
    MPI_Win win;
    int rc = MPI_Win_create(m, n * 8, 8, MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    mt_is_int(rc, MPI_SUCCESS, "%s: Win_create over Alloc_mem memory", what);
    /* Put slot rank of every target: 1000 * rank + target */
    MPI_Win_lock_all(0, win);
    for (int t = 0; t < size; t++) {
        int64_t v = 1000 * rank + t;
        MPI_Put(&v, 1, MPI_INT64_T, t, rank, 1, MPI_INT64_T, win);
    }
    MPI_Win_flush_all(win);
    MPI_Win_unlock_all(win);
    MPI_Barrier(MPI_COMM_WORLD);
    int good = 1;
    MPI_Win_lock(MPI_LOCK_SHARED, rank, 0, win);
    for (int r = 0; r < size; r++)
        good &= m[r] == 1000 * r + rank;
    MPI_Win_unlock(rank, win);
    mt_ok(good, "%s: Put from every rank, exact", what);
    MPI_Barrier(MPI_COMM_WORLD);
    /* Get my slot back from the right neighbour; a 64-slot Get */
    int right = (rank + 1) % size;
    int64_t got = -1, block[64];
    MPI_Win_lock_all(0, win);
    MPI_Get(&got, 1, MPI_INT64_T, right, rank, 1, MPI_INT64_T, win);
    MPI_Get(block, 64 < n ? 64 : (int)n, MPI_INT64_T, right, 0, 64 < n ? 64 : (int)n, MPI_INT64_T, win);
    MPI_Win_flush(right, win);
    MPI_Win_unlock_all(win);
    mt_is_int(got, 1000 * rank + right, "%s: Get of my slot at the right neighbour", what);
    good = 1;
    for (int r = 0; r < size; r++)
        good &= block[r] == 1000 * r + right;
    mt_ok(good, "%s: a Get of 64 slots", what);
    MPI_Barrier(MPI_COMM_WORLD);
    /* Fetch_and_op on slot 100 of rank 0, 300 increments per rank: the
     * fetched values rise, the total is exact */
    MPI_Win_lock_all(0, win);
    int64_t one = 1, prev = -1, old = 0;
    int rising = 1;
    for (int i = 0; i < 300; i++) {
        MPI_Fetch_and_op(&one, &old, MPI_INT64_T, 0, 100, MPI_SUM, win);
        MPI_Win_flush(0, win);
        rising &= old > prev;
        prev = old;
    }
    /* Accumulate of doubles on slot 101 (the accumulate lock word) */
    double half = 0.5;
    for (int i = 0; i < 300; i++)
        MPI_Accumulate(&half, 1, MPI_DOUBLE, 0, 101, 1, MPI_DOUBLE, MPI_SUM, win);
    MPI_Win_unlock_all(win);
    mt_ok(rising, "%s: Fetch_and_op fetches rising values", what);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
        MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win);
        double d;
        memcpy(&d, &m[101], 8);
        mt_is_int(m[100], 300 * size, "%s: Fetch_and_op: 300 increments from each rank, exact total", what);
        mt_ok(d == 150.0 * size, "%s: Accumulate of doubles: exact total", what);
        MPI_Win_unlock(0, win);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    /* exclusive lock: Get + Put increments of slot 102 of rank 0 */
    for (int i = 0; i < 100; i++) {
        int64_t x;
        MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win);
        MPI_Get(&x, 1, MPI_INT64_T, 0, 102, 1, MPI_INT64_T, win);
        MPI_Win_flush(0, win);
        x++;
        MPI_Put(&x, 1, MPI_INT64_T, 0, 102, 1, MPI_INT64_T, win);
        MPI_Win_unlock(0, win);
    }
    /* Compare_and_swap on slot 103 of the right neighbour: 0 -> rank + 1 */
    int64_t cmp = 0, nv = rank + 1, was = -1;
    MPI_Win_lock(MPI_LOCK_SHARED, right, 0, win);
    MPI_Compare_and_swap(&nv, &cmp, &was, MPI_INT64_T, right, 103, win);
    MPI_Win_unlock(right, win);
    mt_is_int(was, 0, "%s: Compare_and_swap fetches the old value", what);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_lock(MPI_LOCK_SHARED, rank, 0, win);
    if (rank == 0)
        mt_is_int(m[102], 100 * size, "%s: exclusive-lock increments from every rank, none lost", what);
    mt_is_int(m[103], (rank + size - 1) % size + 1, "%s: Compare_and_swap swapped in the left neighbour's value",
              what);
    MPI_Win_unlock(rank, win);
    MPI_Barrier(MPI_COMM_WORLD);
    rc = MPI_Win_free(&win);
    mt_is_int(rc, MPI_SUCCESS, "%s: Win_free", what);
}

/* mixed accumulates on m (at least 64 bytes + 8 int64 slots, zero) */
static void mixed_atomics(MPI_Win win, int64_t *m, const char *what)
{
    enum { ROUNDS = 200 };
    int64_t ones[16], got[16], old = 0, one = 1;
    for (int i = 0; i < 16; i++)
        ones[i] = 1;
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_lock_all(0, win);
    for (int i = 0; i < ROUNDS; i++) {
        MPI_Fetch_and_op(&one, &old, MPI_INT64_T, 0, i % 16, MPI_SUM, win);
        MPI_Accumulate(ones, 16, MPI_INT64_T, 0, 0, 16, MPI_INT64_T, MPI_SUM, win);
        MPI_Get_accumulate(ones, 4, MPI_INT64_T, got, 4, MPI_INT64_T, 0, 4, 4, MPI_INT64_T, MPI_SUM, win);
        int32_t v = rank * 1000 + i;
        MPI_Accumulate(&v, 1, MPI_INT32_T, 0, 32, 1, MPI_INT32_T, MPI_MAX, win); /* bytes 256.. */
        MPI_Win_flush(0, win);
    }
    MPI_Win_unlock_all(win);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
        MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win);
        int good = 1;
        for (int c = 0; c < 16; c++) {
            int64_t fops = (int64_t)size * (ROUNDS / 16 + (c < ROUNDS % 16));
            good &= m[c] == fops + (int64_t)size * ROUNDS * (1 + (c >= 4 && c < 8));
        }
        int32_t mx;
        memcpy(&mx, (char *)m + 256, 4);
        mt_ok(good, "%s: Fetch_and_op, Accumulate of 16 and Get_accumulate of 4 int64 at once: exact sums", what);
        mt_is_int(mx, (size - 1) * 1000 + ROUNDS - 1, "%s: MAX of int32 from every rank at once", what);
        MPI_Win_unlock(0, win);
    }
    MPI_Barrier(MPI_COMM_WORLD);
}

/* an int64 at an odd byte address: Fetch_and_op and Accumulate under the
 * lock word (disp_unit 1) */
static void unaligned_atomics(MPI_Win win, char *m, const char *what)
{
    int64_t one = 1, old, two = 2;
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_lock_all(0, win);
    for (int i = 0; i < 200; i++) {
        MPI_Fetch_and_op(&one, &old, MPI_INT64_T, 0, 301, MPI_SUM, win);
        MPI_Accumulate(&two, 1, MPI_INT64_T, 0, 301, 1, MPI_INT64_T, MPI_SUM, win);
        MPI_Win_flush(0, win);
    }
    MPI_Win_unlock_all(win);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
        int64_t v;
        MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win);
        memcpy(&v, m + 301, 8);
        MPI_Win_unlock(0, win);
        mt_is_int(v, 600 * size, "%s: Fetch_and_op and Accumulate on an unaligned int64: exact total", what);
    }
    MPI_Barrier(MPI_COMM_WORLD);
}

/* 100003 bytes from byte 3 of a buffer to byte 5 of the right
 * neighbour's window over m (2 MiB), and back from byte 7 */
static void odd_copies(unsigned char *m)
{
    enum { N = 100003 };
    unsigned char *src = malloc(N + 16), *back = malloc(N + 16);
    for (int i = 0; i < N + 16; i++)
        src[i] = (unsigned char)(i * 7 + rank), back[i] = 0;
    memset(m, 0, 2 << 20);
    MPI_Win win;
    MPI_Win_create(m, 2 << 20, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    MPI_Win_lock_all(0, win);
    MPI_Put(src + 3, N, MPI_BYTE, right, 5, N, MPI_BYTE, win);
    MPI_Win_flush_all(win);
    MPI_Win_unlock_all(win);
    MPI_Barrier(MPI_COMM_WORLD);
    int good = m[4] == 0 && m[5 + N] == 0;
    for (int i = 0; i < N; i++)
        good &= m[5 + i] == (unsigned char)((i + 3) * 7 + left);
    mt_ok(good, "Put of 100003 bytes between odd addresses: every byte, neighbours untouched");
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_lock_all(0, win);
    MPI_Get(back + 7, N - 2, MPI_BYTE, right, 7, N - 2, MPI_BYTE, win);
    MPI_Win_flush(right, win);
    MPI_Win_unlock_all(win);
    good = back[6] == 0 && back[7 + N - 2] == 0;
    for (int i = 0; i < N - 2; i++)
        good &= back[7 + i] == (unsigned char)((i + 5) * 7 + rank);
    mt_ok(good, "Get of 100001 bytes between odd addresses: every byte, neighbours untouched");
    MPI_Win_free(&win);
    free(src);
    free(back);
}

/* rank 0 Gets from rank 1's window (2 MiB, Win_allocate) while rank 1 waits in
 * MPI_Recv: a target that polls */
static void polled_gets(void)
{
    enum { N = (256 << 10) + 8, K = 40 };
    if (size < 2)
        return;
    unsigned char *m;
    MPI_Win win;
    MPI_Win_allocate(2 << 20, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &m, &win);
    for (int i = 0; i < (2 << 20); i++)
        m[i] = (unsigned char)(i * 13 + rank);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
        unsigned char *b = malloc(N);
        int good = 1;
        MPI_Win_lock_all(0, win);
        for (int k = 0; k < K; k++) {
            size_t off = (size_t)k * 40000;
            memset(b, 0, N);
            MPI_Get(b, N, MPI_BYTE, 1, (MPI_Aint)off, N, MPI_BYTE, win);
            MPI_Win_flush(1, win);
            for (int i = 0; i < N; i++)
                good &= b[i] == (unsigned char)((off + (size_t)i) * 13 + 1);
        }
        MPI_Win_unlock_all(win);
        MPI_Send(&good, 1, MPI_INT, 1, 9, MPI_COMM_WORLD);
        mt_ok(good, "40 Gets of 256 KiB + 8 from a rank waiting in MPI_Recv: every byte");
        free(b);
    } else if (rank == 1) {
        int good;
        MPI_Recv(&good, 1, MPI_INT, 0, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    MPI_Win_free(&win);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    mt_rank = rank;
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);

    /* window 0: user memory; window 1: Alloc_mem memory (both alive, so
     * that their ids differ in the path table) */
    int *um = calloc(64, sizeof(int));
    MPI_Win uw;
    MPI_Win_create(um, 64 * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &uw);
    MPI_Aint n = 128;
    int64_t *m = NULL;
    mt_is_int(MPI_Alloc_mem(n * 8, MPI_INFO_NULL, &m), MPI_SUCCESS, "Alloc_mem for a window");
    memset(m, 0, (size_t)n * 8);
    window_checks(m, n, "pool block");
    int v = 7 + rank, right = (rank + 1) % size;
    MPI_Win_fence(0, uw);
    MPI_Put(&v, 1, MPI_INT, right, rank, 1, MPI_INT, uw);
    MPI_Win_fence(0, uw);
    mt_is_int(um[(rank + size - 1) % size], 7 + (rank + size - 1) % size, "Put into a window over malloc'd memory");
    MPI_Win_free(&uw);
    free(um);
    mt_is_int(MPI_Free_mem(m), MPI_SUCCESS, "Free_mem of the window's memory");

    /* mixed and unaligned accumulates: over Alloc_mem memory, and over
     * Win_allocate's segment */
    {
        char *am = NULL, *wm = NULL;
        MPI_Win aw, ww, bw;
        MPI_Alloc_mem(4096, MPI_INFO_NULL, &am);
        memset(am, 0, 4096);
        MPI_Win_create(am, 4096, 8, MPI_INFO_NULL, MPI_COMM_WORLD, &aw);
        mixed_atomics(aw, (int64_t *)(void *)am, "Alloc_mem window");
        MPI_Win_free(&aw);
        MPI_Win_create(am, 4096, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &bw);
        unaligned_atomics(bw, am, "Alloc_mem window");
        MPI_Win_free(&bw);
        MPI_Free_mem(am);
        MPI_Win_allocate(4096, 8, MPI_INFO_NULL, MPI_COMM_WORLD, &wm, &ww);
        memset(wm, 0, 4096);
        mixed_atomics(ww, (int64_t *)(void *)wm, "Win_allocate window");
        MPI_Win_free(&ww);
        MPI_Win_allocate(4096, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &wm, &ww);
        memset(wm, 0, 4096);
        unaligned_atomics(ww, wm, "Win_allocate window");
        MPI_Win_free(&ww);
    }

    /* a 2 MiB block: a chunk of its own */
    int64_t *big = NULL;
    mt_is_int(MPI_Alloc_mem(2 << 20, MPI_INFO_NULL, &big), MPI_SUCCESS, "Alloc_mem 2 MiB");
    memset(big, 0, 2 << 20);
    window_checks(big, (2 << 20) / 8, "2 MiB block");
    odd_copies((unsigned char *)big);
    polled_gets();
    mt_is_int(MPI_Free_mem(big), MPI_SUCCESS, "Free_mem 2 MiB");

    /* sizes, alignment, every byte writable, no overlap */
    static const MPI_Aint sizes[] = {0, 1, 17, 100, 4096, 65536, 1 << 20, (1 << 20) + 1, 3 << 20};
    enum { NS = sizeof(sizes) / sizeof(sizes[0]) };
    unsigned char *p[NS];
    int good = 1, aligned = 1;
    for (int i = 0; i < NS; i++) {
        good &= MPI_Alloc_mem(sizes[i], MPI_INFO_NULL, &p[i]) == MPI_SUCCESS && p[i] != NULL;
        aligned &= (uintptr_t)p[i] % 64 == 0;
        if (p[i])
            memset(p[i], i + 1, (size_t)sizes[i]);
    }
    mt_ok(good, "Alloc_mem of 0, 1, 17, 100, 4096, 65536, 1 MiB, 1 MiB + 1, 3 MiB");
    mt_ok(aligned, "Alloc_mem: every block aligned to 64 bytes");
    good = 1;
    for (int i = 0; i < NS; i++)
        for (MPI_Aint b = 0; b < sizes[i]; b++)
            good &= p[i][b] == i + 1;
    mt_ok(good, "Alloc_mem: blocks written to their ends keep their bytes (no overlap)");
    good = 1;
    for (int i = 0; i < NS; i++)
        good &= MPI_Free_mem(p[i]) == MPI_SUCCESS;
    mt_ok(good, "Free_mem of every block");

    /* a freed block is given again */
    void *a = NULL, *b = NULL;
    MPI_Alloc_mem(4000, MPI_INFO_NULL, &a);
    MPI_Free_mem(a);
    MPI_Alloc_mem(4000, MPI_INFO_NULL, &b);
    mt_ok(a == b, "Free_mem then Alloc_mem of the same size: the same block again");
    MPI_Free_mem(b);

    /* more than a chunk (4 MiB) of blocks of 300 KiB */
    enum { NB = 40 };
    unsigned char *q[NB];
    good = 1;
    for (int i = 0; i < NB; i++) {
        good &= MPI_Alloc_mem(300 << 10, MPI_INFO_NULL, &q[i]) == MPI_SUCCESS;
        memset(q[i], 0x40 + i, 300 << 10);
    }
    for (int i = 0; i < NB; i++)
        for (int k = 0; k < (300 << 10); k += 997)
            good &= q[i][k] == 0x40 + i;
    for (int i = 0; i < NB; i += 2)
        good &= MPI_Free_mem(q[i]) == MPI_SUCCESS;
    for (int i = 0; i < NB; i += 2)
        good &= MPI_Alloc_mem(200 << 10, MPI_INFO_NULL, &q[i]) == MPI_SUCCESS;
    for (int i = 0; i < NB; i++)
        good &= MPI_Free_mem(q[i]) == MPI_SUCCESS;
    mt_ok(good, "12 MiB in blocks of 300 KiB (several chunks), half freed and taken again, all freed");

    /* the alignment info key */
    MPI_Info info;
    MPI_Info_create(&info);
    MPI_Info_set(info, "mpi_minimum_memory_alignment", "4096");
    mt_is_int(MPI_Alloc_mem(100, info, &a), MPI_SUCCESS, "Alloc_mem with mpi_minimum_memory_alignment 4096");
    mt_is_int((uintptr_t)a % 4096, 0, "mpi_minimum_memory_alignment 4096 honoured");
    MPI_Free_mem(a);
    MPI_Info_set(info, "mpi_minimum_memory_alignment", "1048576");
    mt_is_int(MPI_Alloc_mem(100, info, &a), MPI_SUCCESS, "Alloc_mem with mpi_minimum_memory_alignment 1 MiB");
    mt_is_int((uintptr_t)a % 1048576, 0, "mpi_minimum_memory_alignment 1 MiB honoured");
    memset(a, 1, 100);
    MPI_Free_mem(a);
    MPI_Info_set(info, "mpi_minimum_memory_alignment", "3");
    mt_is_int(MPI_Alloc_mem(100, info, &a), MPI_SUCCESS, "Alloc_mem with mpi_minimum_memory_alignment 3 (ignored)");
    mt_is_int((uintptr_t)a % 64, 0, "an alignment that is not a power of two is ignored: 64");
    MPI_Free_mem(a);
    MPI_Info_free(&info);

    /* errors */
    a = NULL;
    mt_is_int(MPI_Alloc_mem((MPI_Aint)(((uint64_t)1 << 63) - 1), MPI_INFO_NULL, &a), MPI_ERR_NO_MEM,
              "Alloc_mem of 2^63 - 1 bytes: MPI_ERR_NO_MEM");
    mt_is_int(MPI_Alloc_mem(-1, MPI_INFO_NULL, &a), MPI_ERR_SIZE, "Alloc_mem of -1 bytes: MPI_ERR_SIZE");
    void *mine = malloc(64);
    mt_is_int(MPI_Free_mem(mine), MPI_ERR_BASE, "Free_mem of malloc'd memory: MPI_ERR_BASE");
    free(mine);
    MPI_Alloc_mem(256, MPI_INFO_NULL, &a);
    mt_is_int(MPI_Free_mem((char *)a + 64), MPI_ERR_BASE, "Free_mem of a pointer inside a block: MPI_ERR_BASE");
    mt_is_int(MPI_Free_mem(a), MPI_SUCCESS, "Free_mem of the block itself");
    mt_is_int(MPI_Free_mem(a), MPI_ERR_BASE, "Free_mem twice: MPI_ERR_BASE");
    mt_is_int(MPI_Free_mem(NULL), MPI_SUCCESS, "Free_mem(NULL) does nothing");

    /* fork(): the child gets a copy of Alloc_mem memory, as of malloc's:
     * it sees the parent's bytes, its writes stay its own, and the
     * parent's writes after fork() returned do not reach it */
    {
        unsigned char *f = NULL, c = 0;
        int up[2], down[2], st = -1;
        MPI_Alloc_mem(8192, MPI_INFO_NULL, &f);
        memset(f, 0x11, 8192);
        mt_ok(pipe(up) == 0 && pipe(down) == 0, "fork: pipes");
        pid_t pid = fork();
        if (pid == 0) {
            int same = 1;
            for (int i = 0; i < 8192; i++)
                same &= f[i] == 0x11;
            memset(f, 0x22, 8192);
            c = (unsigned char)same;
            if (write(up[1], &c, 1) != 1 || read(down[0], &c, 1) != 1)
                _exit(3);
            same = 1;
            for (int i = 0; i < 8192; i++)
                same &= f[i] == 0x22;
            _exit(same ? 0 : 1);
        }
        mt_ok(pid > 0, "fork");
        mt_ok(read(up[0], &c, 1) == 1 && c == 1, "fork: the child sees the parent's bytes");
        good = 1;
        for (int i = 0; i < 8192; i++)
            good &= f[i] == 0x11;
        mt_ok(good, "fork: the child's writes do not reach the parent");
        memset(f, 0x33, 8192);
        mt_ok(write(down[1], &c, 1) == 1, "fork: the parent wrote");
        mt_ok(waitpid(pid, &st, 0) == pid && WIFEXITED(st), "fork: the child ended");
        mt_is_int(WEXITSTATUS(st), 0, "fork: the parent's writes after fork() do not reach the child");
        close(up[0]), close(up[1]), close(down[0]), close(down[1]);
        mt_is_int(MPI_Free_mem(f), MPI_SUCCESS, "fork: Free_mem in the parent");
    }

    MPI_Finalize();
    return mt_done();
}

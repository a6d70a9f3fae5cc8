/*
 * floor.c - the copy floor under the Allgather and Alltoall figures (no
 * MPI; a benchmark, not a test): the fastest these two collectives can be
 * on this machine, whatever the library.
 *
 *   floor [-n NPROC] [-t allgather,alltoall] [-s SIZES] [-r REPS] [-T MS]
 *
 * NPROC processes (default 2) are forked and pinned round-robin to the
 * cores. Every process's receive buffer lives in one shared mapping, so
 * that a process writes its blocks straight into the others' receive
 * buffers with memcpy: no system call, no page pinning, no handshake —
 * less than any MPI library can do, since each byte of the result is
 * copied exactly once, by plain user-space stores. One operation is:
 *
 *   allgather  copy the own SIZE-byte block into every receive buffer
 *              (its own included: MPI_Allgather copies the send buffer
 *              into slot `rank` of its own receive buffer too)
 *   alltoall   copy block j of the own send buffer into slot `rank` of
 *              process j's receive buffer, for every j (itself included)
 *
 * then a barrier (a shared counter; while waiting, a process yields its
 * core when processes outnumber cores), as a collective must end with
 * every block in place. The buffers are allocated and touched once per
 * size, as bench/coll/coll.c does; every operation rewrites the same ones.
 *
 * Process 0 prints, for each collective and size, one line
 *
 *   floor COLL SIZE MEDIAN MIN MAX ITERS
 *
 * in microseconds per operation (the slowest process's loop time /
 * iterations), MEDIAN, MIN and MAX over REPS repetitions (default 5) of
 * about MS milliseconds each (default 10), like coll.c's lines.
 */
#define _GNU_SOURCE
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../base.h"

enum { MAX_PROCS = 64, MAX_SIZES = 64 };

struct shared {
    _Alignas(64) _Atomic long arrived;
    _Alignas(64) _Atomic long generation;
    _Alignas(64) _Atomic long iters;   /* chosen by process 0 */
    _Alignas(64) double loop[MAX_PROCS];
};

static struct shared *sh;
static int nproc, me, yield_when_idle;

static void barrier(void)
{
    long gen = atomic_load_explicit(&sh->generation, memory_order_acquire);
    if (atomic_fetch_add_explicit(&sh->arrived, 1, memory_order_acq_rel) + 1 == nproc) {
        atomic_store_explicit(&sh->arrived, 0, memory_order_relaxed);
        atomic_store_explicit(&sh->generation, gen + 1, memory_order_release);
        return;
    }
    while (atomic_load_explicit(&sh->generation, memory_order_acquire) == gen)
        if (yield_when_idle)
            sched_yield();
}

static long parse_size(const char *s, char **end)
{
    long v = strtol(s, end, 10);
    if (**end == 'K' || **end == 'k')
        v <<= 10, (*end)++;
    else if (**end == 'M' || **end == 'm')
        v <<= 20, (*end)++;
    return v;
}

/* "8,64K,1M" or ranges "4-4M" (the powers of two between) */
static int parse_sizes(const char *arg, long *out)
{
    int n = 0;
    const char *p = arg;
    while (*p && n < MAX_SIZES) {
        char *e;
        long a = parse_size(p, &e);
        if (*e == '-') {
            long b = parse_size(e + 1, &e);
            for (long v = a; v <= b && n < MAX_SIZES; v *= 2)
                out[n++] = v;
        } else {
            out[n++] = a;
        }
        if (*e == ',')
            e++;
        else if (*e) {
            fprintf(stderr, "floor: bad size list '%s'\n", arg);
            exit(2);
        }
        p = e;
    }
    return n;
}

/* one operation of coll on blocks of `size` bytes */
static void op(int alltoall, long size, const char *sbuf, char *const *rbufs)
{
    for (int k = 0; k < nproc; k++) {
        int j = (me + k) % nproc;
        memcpy(rbufs[j] + (size_t)me * (size_t)size, sbuf + (alltoall ? (size_t)j * (size_t)size : 0),
               (size_t)size);
    }
    barrier();
}

/* n operations back to back: the slowest process's time, in seconds */
static double timed(int alltoall, long size, long n, const char *sbuf, char *const *rbufs)
{
    double t0 = now();
    for (long i = 0; i < n; i++)
        op(alltoall, size, sbuf, rbufs);
    sh->loop[me] = now() - t0;
    barrier();
    double slow = 0;
    for (int p = 0; p < nproc; p++)
        if (sh->loop[p] > slow)
            slow = sh->loop[p];
    barrier();
    return slow;
}

int main(int argc, char **argv)
{
    const char *colls = "allgather,alltoall", *sizearg = "4-4M";
    int reps = 5;
    double target = 0.010;
    nproc = 2;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-n") && i + 1 < argc)
            nproc = atoi(argv[++i]);
        else if (!strcmp(argv[i], "-t") && i + 1 < argc)
            colls = argv[++i];
        else if (!strcmp(argv[i], "-s") && i + 1 < argc)
            sizearg = argv[++i];
        else if (!strcmp(argv[i], "-r") && i + 1 < argc)
            reps = atoi(argv[++i]);
        else if (!strcmp(argv[i], "-T") && i + 1 < argc)
            target = atof(argv[++i]) / 1000.0;
        else {
            fprintf(stderr, "usage: floor [-n NPROC] [-t allgather,alltoall] [-s SIZES] [-r REPS] [-T MS]\n");
            return 2;
        }
    }
    if (nproc < 1 || nproc > MAX_PROCS || reps < 1 || reps > MAX_REPS) {
        fprintf(stderr, "floor: -n 1..%d, -r 1..%d\n", MAX_PROCS, MAX_REPS);
        return 2;
    }
    long sizes[MAX_SIZES];
    int nsizes = parse_sizes(sizearg, sizes);
    long maxsize = 1;
    for (int i = 0; i < nsizes; i++)
        if (sizes[i] > maxsize)
            maxsize = sizes[i];
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    yield_when_idle = nproc > cores;
    /* the control block and every receive buffer, shared by the processes
     * forked below */
    size_t rbytes = (size_t)maxsize * (size_t)nproc;
    sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    char *region = mmap(NULL, rbytes * (size_t)nproc, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (sh == MAP_FAILED || region == MAP_FAILED) {
        perror("floor: mmap");
        return 1;
    }
    printf("# floor procs=%d cores=%ld%s: every block copied once, by memcpy into shared memory\n", nproc,
           cores, yield_when_idle ? " (oversubscribed: waits yield)" : "");
    fflush(stdout);
    char *rbufs[MAX_PROCS];
    for (int p = 0; p < nproc; p++)
        rbufs[p] = region + (size_t)p * rbytes;

    pid_t kids[MAX_PROCS];
    me = 0;
    for (int i = 1; i < nproc; i++) {
        pid_t p = fork();
        if (p < 0) {
            perror("floor: fork");
            return 1;
        }
        if (p == 0) {
            me = i;
            break;
        }
        kids[i] = p;
    }
    if (!yield_when_idle) {
        cpu_set_t set;
        CPU_ZERO(&set);
        CPU_SET((int)(me % cores), &set);
        sched_setaffinity(0, sizeof(set), &set);
    }
    char *sbuf = malloc((size_t)maxsize * (size_t)nproc);
    if (!sbuf)
        return 1;

    char tc[256];
    snprintf(tc, sizeof(tc), "%s", colls);
    for (char *save, *c = strtok_r(tc, ",", &save); c; c = strtok_r(NULL, ",", &save)) {
        int alltoall = !strcmp(c, "alltoall");
        if (!alltoall && strcmp(c, "allgather")) {
            if (me == 0)
                fprintf(stderr, "floor: unknown collective %s\n", c);
            continue;
        }
        for (int si = 0; si < nsizes; si++) {
            long size = sizes[si];
            /* touch the buffers once (coll.c allocates and touches them per size) */
            memset(sbuf, me + 1, (size_t)size * (size_t)nproc);
            memset(rbufs[me], 0, (size_t)size * (size_t)nproc);
            barrier();
            /* warm-up batches of 1, 2, 4, ... until one of at least 4
             * operations (the first ones pay for cold caches and page
             * tables) lasts a tenth of the target; process 0 picks the
             * count for all */
            long iters = 1;
            for (long b = 1;; b *= 2) {
                double slow = timed(alltoall, size, b, sbuf, rbufs);
                if (b >= 4 && (slow >= target / 10 || b >= (1L << 24))) {
                    iters = (long)(b * target / (slow > 0 ? slow : 1e-9));
                    if (iters < 1)
                        iters = 1;
                    break;
                }
            }
            if (me == 0)
                atomic_store(&sh->iters, iters);
            barrier();
            iters = atomic_load(&sh->iters);
            double t[MAX_REPS];
            for (int r = 0; r < reps; r++) {
                barrier();
                t[r] = timed(alltoall, size, iters, sbuf, rbufs) / (double)iters * 1e6;
            }
            /* every block landed where it belongs */
            int bad = 0;
            for (int j = 0; j < nproc; j++)
                bad |= rbufs[me][(size_t)j * (size_t)size + (size_t)size - 1] != (char)(j + 1);
            if (bad)
                fprintf(stderr, "floor: process %d: wrong data after %s of %ld\n", me, c, size);
            if (me == 0) {
                qsort(t, (size_t)reps, sizeof(t[0]), cmp_double);
                printf("floor %s %ld %.4f %.4f %.4f %ld\n", c, size, t[reps / 2], t[0], t[reps - 1], iters);
                fflush(stdout);
            }
        }
    }
    free(sbuf);
    if (me != 0)
        _exit(0);
    int status = 0;
    for (int i = 1; i < nproc; i++) {
        int st;
        waitpid(kids[i], &st, 0);
        status |= !WIFEXITED(st) || WEXITSTATUS(st);
    }
    return status;
}

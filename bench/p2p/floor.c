/*
 * floor.c - the physical floor under the p2p figures (no MPI; a benchmark,
 * not a test): what the machine itself can do, measured in the same run.
 *
 *   floor [-r REPS] [-f FACTOR]
 *
 * Prints (lines starting with '#' are comments):
 *
 *   floor cacheline_us MEDIAN MIN MAX
 *       one-way hand-off of a cache line between two threads pinned to two
 *       different cores: ping-pong on one shared 64-byte line, half the
 *       round trip. No MPI latency between those cores can be lower.
 *   floor memcpy SIZE MEDIAN MIN MAX
 *       single-threaded memcpy of SIZE bytes (1 MiB: in cache; 16 MiB:
 *       mostly from memory), in MB/s (10^6 bytes copied per second), on the
 *       first core. A single-copy (CMA, XPMEM) transfer moves data at most
 *       this fast; a two-copy (bounce buffer) one at about half.
 *       (16 MiB cycles through 16 buffer pairs, 512 MiB, to defeat caches.)
 *
 * MEDIAN, MIN and MAX are over REPS repetitions (default 7).
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../base.h"

static int cpus[2];
static long hand_offs;
static double factor = 1.0;

static _Alignas(64) _Atomic uint64_t line; /* the shared cache line */
static _Alignas(64) char pad[64];           /* keep neighbours off it */

/* the second thread: answers each odd value with the next even one */
static void *ponger(void *arg)
{
    long n = *(long *)arg;
    pin_cpu(cpus[1], "floor");
    handoff_pong(&line, 0, n);
    return NULL;
}

/* one timed run: seconds per one-way hand-off */
static double pingpong(long n)
{
    pthread_t th;
    atomic_store(&line, 0);
    if (pthread_create(&th, NULL, ponger, &n) != 0) {
        perror("floor: pthread_create");
        exit(1);
    }
    /* let the other thread start and spin before timing */
    struct timespec ts = {0, 1000000};
    nanosleep(&ts, NULL);
    double t0 = now();
    handoff_ping(&line, 0, n);
    double t = now() - t0;
    pthread_join(th, NULL);
    return t / (2.0 * (double)n);
}

static void print(const char *what, double *v, int reps)
{
    double med, lo, hi;
    stats(v, reps, &med, &lo, &hi);
    printf("floor %s %.6g %.6g %.6g\n", what, med, lo, hi);
    fflush(stdout);
}

int main(int argc, char **argv)
{
    int reps = 7;
    double v[MAX_REPS];
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "-r"))
            reps = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "-f"))
            factor = atof(argv[i + 1]);
    }
    if (reps < 1 || reps > MAX_REPS || factor <= 0 || argc % 2 == 0) {
        fprintf(stderr, "usage: floor [-r REPS] [-f FACTOR]\n");
        return 2;
    }
    (void)pad;

    /* the first two CPUs we may run on */
    if (first_two_cpus(cpus) < 2) {
        printf("# floor: fewer than 2 CPUs available: no cache-line figure\n");
    } else {
        printf("# floor: cache-line ping-pong between CPUs %d and %d; memcpy on CPU %d\n",
               cpus[0], cpus[1], cpus[0]);
        pin_cpu(cpus[0], "floor");
        hand_offs = (long)(200000 * factor) + 1000;
        pingpong(hand_offs / 10); /* warm-up */
        for (int r = 0; r < reps; r++)
            v[r] = pingpong(hand_offs) * 1e6;
        print("cacheline_us", v, reps);
    }

    /* 1 MiB: one pair of buffers, in cache. 16 MiB: cycle through NBUF
     * pairs (512 MiB) so that each copy reads and writes memory, whatever
     * the size of the last-level cache (a VM may report the host's). */
    static const long sizes[] = {1L << 20, 16L << 20};
    static const int nbufs[] = {1, 16};
    for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++) {
        long size = sizes[s];
        int nbuf = nbufs[s];
        char *src = malloc((size_t)size * (size_t)nbuf), *dst = malloc((size_t)size * (size_t)nbuf);
        if (!src || !dst) {
            perror("floor: malloc");
            return 1;
        }
        memset(src, 1, (size_t)size * (size_t)nbuf); /* fault every page in */
        memset(dst, 2, (size_t)size * (size_t)nbuf);
        long n = (long)((double)(nbuf == 1 ? 1000 : 40) * factor) + 2;
        unsigned sum = 0;
        for (int r = -1; r < reps; r++) { /* r = -1: warm-up */
            double t0 = now();
            for (long i = 0; i < n; i++) {
                size_t off = (size_t)(i % nbuf) * (size_t)size;
                src[off + (size_t)(i % size)] = (char)i; /* a dependency the compiler keeps */
                memcpy(dst + off, src + off, (size_t)size);
                sum += (unsigned char)dst[off + (size_t)((i * 4099) % size)];
            }
            if (r >= 0)
                v[r] = (double)size * (double)n / (now() - t0) / 1e6;
        }
        char what[64];
        snprintf(what, sizeof what, "memcpy %ld", size);
        print(what, v, reps);
        if (sum == 1) /* never: keeps sum alive */
            printf("# %u\n", sum);
        free(src);
        free(dst);
    }
    return 0;
}

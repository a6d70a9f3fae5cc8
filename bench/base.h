/* base.h - what the benchmark programs share whether or not they use MPI
 * (p2p/floor.c, and through common.h p2p.c, coll.c, rma.c, pack.c): the
 * clock, the median of repetitions, pinning to a CPU, and the cache-line
 * hand-off that the floors of bench/p2p and bench/rma measure. A program
 * defines _GNU_SOURCE before its first #include (CPU affinity). */
#ifndef RD_BENCH_BASE_H
#define RD_BENCH_BASE_H

#ifndef _GNU_SOURCE
#error "define _GNU_SOURCE before the first #include (bench/base.h pins to CPUs)"
#endif

#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

enum { MAX_REPS = 101 }; /* the most timed repetitions of one figure */

/* seconds on the monotonic clock (the programs without MPI_Wtime) */
static inline double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static inline int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* MEDIAN (of the middle two for an even N), MIN and MAX of v[0..N-1]; sorts v */
static inline void stats(double *v, int n, double *med, double *lo, double *hi)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    *med = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
    *lo = v[0];
    *hi = v[n - 1];
}

/* the calling thread onto CPU (WHO names the program in the warning) */
static inline void pin_cpu(int cpu, const char *who)
{
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    if (sched_setaffinity(0, sizeof set, &set) != 0)
        fprintf(stderr, "%s: cannot pin to CPU %d (measuring unpinned)\n", who, cpu);
}

/* the first two CPUs this process may run on; returns how many there are (0-2) */
static inline int first_two_cpus(int cpus[2])
{
    cpu_set_t set;
    int found = 0;
    if (sched_getaffinity(0, sizeof set, &set) == 0)
        for (int c = 0; c < CPU_SETSIZE && found < 2; c++)
            if (CPU_ISSET(c, &set))
                cpus[found++] = c;
    return found;
}

/*
 * The cache-line hand-off: two parties on two cores bounce one 64-bit word.
 * In round i the pinger writes 2i+1 and spins until it reads 2i+2, which
 * the ponger writes when it reads 2i+1; half a round trip is one hand-off
 * of the line between the cores. Both spin without a pause instruction: the
 * floor is the fastest hand-off. handoff_ping and handoff_pong run rounds
 * FIRST .. FIRST+N-1 (the word starts at 2 * FIRST).
 */
static inline void handoff_ping(_Atomic uint64_t *line, uint64_t first, long n)
{
    for (uint64_t i = first; i < first + (uint64_t)n; i++) {
        atomic_store_explicit(line, 2 * i + 1, memory_order_release);
        while (atomic_load_explicit(line, memory_order_acquire) != 2 * i + 2)
            ;
    }
}

static inline void handoff_pong(_Atomic uint64_t *line, uint64_t first, long n)
{
    for (uint64_t i = first; i < first + (uint64_t)n; i++) {
        while (atomic_load_explicit(line, memory_order_acquire) != 2 * i + 1)
            ;
        atomic_store_explicit(line, 2 * i + 2, memory_order_release);
    }
}

#endif

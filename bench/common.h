/* common.h - what the MPI benchmark programs (p2p.c, coll.c, rma.c,
 * pack.c) share: the exit on error, page-aligned touched buffers, the
 * size-list syntax of their -s option and the options they all take, the
 * data pattern, the calibration of the timed loops, the result line and the
 * library's name; for the two-rank programs (p2p.c, rma.c) the pair's
 * synchronisation and the warm-up loop. Plain MPI, so each builds with any
 * MPI's wrapper. Before including it, a program defines _GNU_SOURCE (before
 * any #include: see base.h), BENCH_NAME (its name in messages) and, if it
 * takes sizes, BENCH_MAX_SIZE (the largest size -s accepts). It gives the
 * program `rank` (set it after MPI_Init) and `target` (the duration of one
 * timed repetition, in seconds; -T sets it). */
#ifndef RD_BENCH_COMMON_H
#define RD_BENCH_COMMON_H

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base.h"

#ifndef BENCH_MAX_SIZE
#define BENCH_MAX_SIZE (1L << 30)
#endif

enum { TAG_SYNC = 3, TAG_CTRL = 4 }; /* the pair's own tags (sync_pair, control) */

static int rank;
static double target = 0.010; /* seconds per timed repetition */

static inline void die(const char *msg)
{
    fprintf(stderr, "%s [rank %d]: %s\n", BENCH_NAME, rank, msg);
    MPI_Abort(MPI_COMM_WORLD, 1);
    exit(1);
}

static inline void *xmalloc(size_t n)
{
    void *p = NULL;
    if (posix_memalign(&p, 4096, n ? n : 1) != 0)
        die("out of memory");
    memset(p, 0, n ? n : 1); /* touch every page before timing */
    return p;
}

static inline long clampl(long v, long lo, long hi)
{
    return v < lo ? lo : v > hi ? hi : v;
}

/* a size: digits with an optional K or M suffix, at most BENCH_MAX_SIZE */
static inline long parse_size(const char *s, char **end)
{
    long v = strtol(s, end, 10);
    if (*end == s || v < 0 || v > BENCH_MAX_SIZE)
        return -1;
    switch (**end) {
    case 'k': case 'K': v <<= 10; (*end)++; break;
    case 'm': case 'M': v <<= 20; (*end)++; break;
    default: break;
    }
    return v > BENCH_MAX_SIZE ? -1 : v;
}

/* "0,8,4K" or "0-16M" (0 if asked, then the powers of two in the range)
 * or a mix; returns how many sizes (at most MAX), -1 if malformed */
static inline int parse_sizes(const char *arg, long *sizes, int max)
{
    int n = 0;
    const char *p = arg;
    while (*p) {
        char *end;
        long a = parse_size(p, &end), b;
        if (a < 0)
            return -1;
        if (*end == '-') {
            p = end + 1;
            b = parse_size(p, &end);
            if (b < a)
                return -1;
            if (a == 0 && n < max)
                sizes[n++] = 0;
            for (long s = 1; s <= b; s <<= 1)
                if (s >= a && n < max)
                    sizes[n++] = s;
        } else if (n < max) {
            sizes[n++] = a;
        }
        if (*end == ',')
            end++;
        else if (*end != '\0')
            return -1;
        p = end;
    }
    return n;
}

/* The options of the programs (after MPI_Init), each followed by its
 * value: -t LIST (into *LIST), -s SIZES (*NSIZES sizes into SIZES, at most
 * MAX), -r REPS (1 to MAX_REPS), -T MS (target), and those OTHER(OPT,
 * VALUE) accepts (it returns 0 for an option it does not know or a bad
 * value; OTHER may be NULL). On a bad command line rank 0 prints USAGE and
 * the program ends (MPI_Finalize, exit status 2). */
static inline void bench_options(int argc, char **argv, const char *usage, const char **list,
                                 long *sizes, int max, int *nsizes, int *reps,
                                 int (*other)(int opt, const char *val))
{
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;
        char *end;
        int ok = val != NULL && a[0] == '-' && a[1] != '\0' && a[2] == '\0';
        if (ok) {
            i++;
            switch (a[1]) {
            case 't': *list = val; break;
            case 's': ok = (*nsizes = parse_sizes(val, sizes, max)) > 0; break;
            case 'r': *reps = atoi(val); ok = *reps >= 1 && *reps <= MAX_REPS; break;
            case 'T': target = strtod(val, &end) / 1e3; ok = !*end && target > 0; break;
            default: ok = other && other(a[1], val);
            }
        }
        if (!ok) {
            if (rank == 0)
                fputs(usage, stderr);
            MPI_Finalize();
            exit(2);
        }
    }
}

/* byte I of the data sent by source FROM (never 0, so a cleared buffer fails a check) */
static inline unsigned char pattern(int from, long i)
{
    return (unsigned char)(1 + (i * 7 + from * 101) % 251);
}

static inline void fill(unsigned char *buf, long size, int from)
{
    for (long i = 0; i < size; i++)
        buf[i] = pattern(from, i);
}

/* the first line of the library's version string */
static inline const char *library_version(void)
{
    static char lib[MPI_MAX_LIBRARY_VERSION_STRING];
    int len;
    MPI_Get_library_version(lib, &len);
    char *nl = strchr(lib, '\n');
    if (nl)
        *nl = '\0';
    return lib;
}

/* rank 0 prints TEST SIZE MEDIAN MIN MAX ITERS, then WINDOW where it is
 * above 0 (sorts v) */
static inline void report(const char *test, long size, double *v, int reps, long iters, int window)
{
    if (rank != 0)
        return;
    double med, lo, hi;
    stats(v, reps, &med, &lo, &hi);
    printf("%s %ld %.6g %.6g %.6g %ld", test, size, med, lo, hi, iters);
    if (window > 0)
        printf(" %d", window);
    printf("\n");
    fflush(stdout);
}

/*
 * Calibration, rank 0's decision after warm-up batch number BATCH (from 1)
 * of N iterations that took T seconds: the size of the next batch (twice
 * N), or minus the iteration count of the timed repetitions. The first
 * batch pays for first-time costs and is never used; later ones may be
 * stretched by a preemption, so the fastest per iteration counts
 * (*PER_ITER keeps it, 0 at first). The warm-up ends when a batch from
 * number STOP_FROM on lasts a tenth of the target, or at HI iterations; the
 * repetitions then run as many iterations as last about the target, within
 * [LO, HI].
 */
static inline long calibrate(long n, double t, int batch, int stop_from, long lo, long hi,
                             double *per_iter)
{
    if (batch >= 2 && (*per_iter == 0 || t / (double)n < *per_iter))
        *per_iter = t / (double)n;
    if ((t >= target / 10 && batch >= stop_from) || n >= hi) {
        double it = *per_iter > 0 ? target / *per_iter : (double)hi;
        return -clampl(it < (double)hi ? (long)it : hi, lo, hi);
    }
    return n * 2;
}

/* ------------------------------------------------- two ranks (p2p, rma) */

static inline void sync_pair(void)
{
    char c = 0;
    int peer = 1 - rank;
    if (rank == 0) {
        MPI_Send(&c, 0, MPI_BYTE, peer, TAG_SYNC, MPI_COMM_WORLD);
        MPI_Recv(&c, 0, MPI_BYTE, peer, TAG_SYNC, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else {
        MPI_Recv(&c, 0, MPI_BYTE, peer, TAG_SYNC, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Send(&c, 0, MPI_BYTE, peer, TAG_SYNC, MPI_COMM_WORLD);
    }
}

/* rank 0 tells rank 1 what to do next */
static inline long control(long cmd)
{
    if (rank == 0)
        MPI_Send(&cmd, (int)sizeof cmd, MPI_BYTE, 1, TAG_CTRL, MPI_COMM_WORLD);
    else
        MPI_Recv(&cmd, (int)sizeof cmd, MPI_BYTE, 0, TAG_CTRL, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    return cmd;
}

/* Warm-up and calibration of a pair: batches of 1, 2, 4, ... iterations,
 * each run by BATCH(CTX, N) on both ranks (it returns rank 0's seconds),
 * until calibrate() stops (from the second batch); rank 0 decides and
 * tells rank 1. Returns the iteration count of the timed repetitions. */
static inline long warm_up_pair(double (*batch)(void *ctx, long n), void *ctx, long lo, long hi)
{
    long n = 1;
    double per_iter = 0; /* fastest seen, batches after the first */
    for (int b = 1;; b++) {
        long cmd = control(n);
        if (cmd < 0)
            return -cmd;
        double t = batch(ctx, cmd);
        if (rank == 0)
            n = calibrate(n, t, b, 2, lo, hi, &per_iter);
    }
}

#endif

/* common.h - what the benchmark programs (p2p.c, coll.c) share: the exit on
 * error, page-aligned touched buffers, and the size-list syntax of their -s
 * option. Plain MPI, so each builds with any MPI's wrapper. Before
 * including it, a program defines BENCH_NAME (its name in messages),
 * BENCH_MAX_SIZE (the largest size -s accepts) and MAX_SIZES, and has an
 * `int rank`. */
#ifndef RD_BENCH_COMMON_H
#define RD_BENCH_COMMON_H

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void die(const char *msg)
{
    fprintf(stderr, "%s [rank %d]: %s\n", BENCH_NAME, rank, msg);
    MPI_Abort(MPI_COMM_WORLD, 1);
    exit(1);
}

static void *xmalloc(size_t n)
{
    void *p = NULL;
    if (posix_memalign(&p, 4096, n ? n : 1) != 0)
        die("out of memory");
    memset(p, 0, n ? n : 1); /* touch every page before timing */
    return p;
}

static long clampl(long v, long lo, long hi)
{
    return v < lo ? lo : v > hi ? hi : v;
}

/* a size: digits with an optional K or M suffix, at most BENCH_MAX_SIZE */
static long parse_size(const char *s, char **end)
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
 * or a mix; returns how many sizes (at most MAX_SIZES), -1 if malformed */
static int parse_sizes(const char *arg, long *sizes)
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
            if (a == 0 && n < MAX_SIZES)
                sizes[n++] = 0;
            for (long s = 1; s <= b; s <<= 1)
                if (s >= a && n < MAX_SIZES)
                    sizes[n++] = s;
        } else if (n < MAX_SIZES) {
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

#endif

/*
 * pack.c - the cost of packing non-contiguous data (a benchmark, not a
 * test): 1 MiB of doubles at stride 2 (MPI_Type_vector(131072, 1, 2,
 * MPI_DOUBLE), spread over 2 MiB) packed with MPI_Pack and unpacked with
 * MPI_Unpack, against memcpy of the same 1 MiB (contiguous), in one
 * process. Standard MPI only, so the same source builds with rdmpicc,
 * mpicc.openmpi and mpicc.mpich.
 *
 *   pack [-r REPS] [-T MS] [-n DOUBLES] [-s STRIDE] [-b BLOCK]
 *
 * Each figure is the median of REPS repetitions (default 21) of a timed
 * loop lasting about MS milliseconds (default 20); the loop count is set
 * by a warm-up. Prints one line per figure:
 *
 *   pack|unpack|memcpy BYTES MEDIAN_US MIN_US MAX_US GBPS
 *
 * (microseconds per operation on BYTES bytes of data; GB/s = 10^9 B/s of
 * data moved). The packed data is checked after the warm-up.
 */
#define _GNU_SOURCE
#include <mpi.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BENCH_NAME "pack"
#include "../common.h"

static double sink;

/* 0: pack, 1: unpack, 2: memcpy; returns seconds for iters operations */
static double run(int what, long iters, double *src, char *packed, double *dst, int psize, MPI_Datatype t)
{
    double t0 = MPI_Wtime();
    for (long i = 0; i < iters; i++) {
        int pos = 0;
        if (what == 0)
            MPI_Pack(src, 1, t, packed, psize, &pos, MPI_COMM_SELF);
        else if (what == 1)
            MPI_Unpack(packed, psize, &pos, dst, 1, t, MPI_COMM_SELF);
        else
            memcpy(packed, src, (size_t)psize);
        __asm__ __volatile__("" ::: "memory"); /* the copies are not optimised away */
    }
    double t1 = MPI_Wtime();
    sink += packed[(size_t)iters % (size_t)psize];
    return t1 - t0;
}

int main(int argc, char **argv)
{
    int reps = 21, n = 131072, stride = 2, block = 1;
    double ms = 20;
    MPI_Init(&argc, &argv);
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-r") && i + 1 < argc)
            reps = atoi(argv[++i]);
        else if (!strcmp(argv[i], "-T") && i + 1 < argc)
            ms = atof(argv[++i]);
        else if (!strcmp(argv[i], "-n") && i + 1 < argc)
            n = atoi(argv[++i]);
        else if (!strcmp(argv[i], "-s") && i + 1 < argc)
            stride = atoi(argv[++i]);
        else if (!strcmp(argv[i], "-b") && i + 1 < argc)
            block = atoi(argv[++i]);
    }
    if (reps > MAX_REPS)
        reps = MAX_REPS;
    if (reps < 1)
        reps = 1;
    int nblocks = n / block;
    size_t span = (size_t)nblocks * (size_t)stride * (size_t)block;
    double *src = malloc(span * sizeof(double)), *dst = malloc(span * sizeof(double));
    MPI_Datatype t;
    MPI_Type_vector(nblocks, block, stride * block, MPI_DOUBLE, &t);
    MPI_Type_commit(&t);
    int psize = 0;
    MPI_Pack_size(1, t, MPI_COMM_SELF, &psize);
    char *packed = malloc((size_t)psize);
    for (size_t i = 0; i < span; i++)
        src[i] = (double)i, dst[i] = -1;

    printf("# pack: %d doubles in blocks of %d at stride %d (%d bytes of data), %d reps of ~%g ms; library=%s\n", n,
           block, stride * block, psize, reps, ms, library_version());

    const char *names[3] = {"pack", "unpack", "memcpy"};
    for (int what = 0; what < 3; what++) {
        /* warm-up: double the iterations until a batch lasts MS / 10 */
        long iters = 1;
        double s;
        while ((s = run(what, iters, src, packed, dst, psize, t)) < ms / 1e4 && iters < (1L << 30))
            iters *= 2;
        if (what == 0) { /* check the packed data */
            for (int i = 0; i < nblocks; i++)
                for (int b = 0; b < block; b++) {
                    double v;
                    memcpy(&v, packed + ((size_t)i * block + b) * 8, 8);
                    if (v != (double)((size_t)i * stride * block + b)) {
                        printf("# packed data wrong at block %d\n", i);
                        MPI_Abort(MPI_COMM_WORLD, 1);
                    }
                }
        }
        if (what == 1) {
            for (int i = 0; i < nblocks; i++)
                if (dst[(size_t)i * stride * block] != (double)((size_t)i * stride * block) ||
                    (stride > 1 && dst[(size_t)i * stride * block + block] != -1)) {
                    printf("# unpacked data wrong at block %d\n", i);
                    MPI_Abort(MPI_COMM_WORLD, 1);
                }
        }
        iters = (long)(iters * (ms / 1e3) / s) + 1;
        double us[MAX_REPS];
        for (int r = 0; r < reps; r++)
            us[r] = run(what, iters, src, packed, dst, psize, t) / (double)iters * 1e6;
        double med, lo, hi;
        stats(us, reps, &med, &lo, &hi);
        printf("%s %d %.3f %.3f %.3f %.2f\n", names[what], psize, med, lo, hi, psize / med / 1e3);
    }
    if (sink == 12345.678)
        printf("#\n");
    MPI_Type_free(&t);
    free(src);
    free(dst);
    free(packed);
    MPI_Finalize();
    return 0;
}

/*
 * coll.c - collective benchmarks on MPI_COMM_WORLD (a benchmark, not a
 * test): the time of one collective operation, per operation and message
 * size, as seen by the slowest rank.
 *
 * Plain MPI-3.1 C, so the same source builds with rdmpicc, mpicc.openmpi
 * and mpicc.mpich; pallreduce is MPI 4.0's MPI_Allreduce_init (Open MPI
 * 4.1: its MPIX_Allreduce_init extension).
 *
 *   coll [-t COLLS] [-s SIZES] [-r REPS] [-T MS]
 *
 *   -t COLLS  comma list of barrier, bcast, reduce, allreduce, allgather,
 *             alltoall, gather, scatter, reduce_scatter_block, iallreduce,
 *             pallreduce (default: all but pallreduce, in that order)
 *   -s SIZES  comma list of sizes and ranges in bytes: 8,64K,1M or 4-4M
 *             (the powers of two from 4 to 4 MiB; the default)
 *   -r REPS   timed repetitions per size; the median is reported (default 5)
 *   -T MS     target duration of one timed repetition (default 10 ms)
 *
 * Rank 0 prints, for each collective and size, one line
 *
 *   COLL SIZE MEDIAN MIN MAX ITERS
 *
 * where MEDIAN, MIN and MAX are over the REPS repetitions, in microseconds
 * per operation. barrier has one line, of size 0. Lines starting with '#'
 * are comments.
 *
 * What SIZE means (N ranks, root 0 where there is a root):
 *   bcast                 SIZE bytes (MPI_BYTE) from the root
 *   reduce, allreduce,    MPI_SUM of SIZE/4 MPI_FLOATs (at least 1)
 *   iallreduce            (Iallreduce immediately followed by Wait)
 *   pallreduce            (one persistent Allreduce made per size, outside
 *                         the timing: MPI_Start immediately followed by Wait)
 *   allgather, gather     SIZE bytes contributed by each rank (N*SIZE gathered)
 *   scatter               SIZE bytes received by each rank (N*SIZE at the root)
 *   alltoall              SIZE bytes from each rank to each rank (the block)
 *   reduce_scatter_block  MPI_SUM of SIZE/4 MPI_FLOATs received by each rank
 *                         (each rank contributes N*SIZE/4 floats)
 *
 * Timing: each size starts with uncounted warm-up batches of 1, 2, 4, ...
 * operations until a batch from the third on lasts a tenth of the target
 * (the fastest batch after the first is the calibration). Then REPS repetitions of MPI_Barrier followed
 * by a loop of ITERS operations, ITERS chosen so that one repetition lasts
 * about the target; a repetition's time per operation is the slowest rank's
 * loop time / ITERS (an MPI_Reduce MAX after the loop, outside the timed
 * part). After the warm-up every rank checks the data it received, so a
 * library that loses or garbles data cannot report a figure.
 *
 * The host's state: on 2 ranks, rank 0 also times a bare exchange with
 * rank 1 through a shared cache line (no MPI; PROBE_TRIPS round trips)
 * just before and just after every repetition, and prints
 *
 *   # state COLL SIZE T1 P1 T2 P2 ...
 *
 * per size: each repetition's time per operation T and the slower of its
 * two probes P (us per round trip). On a virtual machine the time of one
 * cache line between two cores can change several-fold for seconds at a
 * time (the host moves its CPUs); run.sh compares the libraries within
 * the same state with these lines.
 */
#define _GNU_SOURCE
#include <mpi.h>

#include <fcntl.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#if defined(OPEN_MPI) && OMPI_MAJOR_VERSION < 5
#include <mpi-ext.h>
#define Allreduce_init MPIX_Allreduce_init
#else
#define Allreduce_init MPI_Allreduce_init
#endif

enum { MAX_SIZES = 128 };

static int nranks;

#define BENCH_NAME "coll"
#define BENCH_MAX_SIZE (1L << 28) /* MPI counts are ints */
#include "../common.h"

/* ------------------------------------------------------------ utilities */

/* float I of a rank's reduction input: small integers, so sums are exact */
static float fvalue(int r, long i)
{
    return (float)(r + 1 + i % 7);
}

static float fsum(long i)
{
    return (float)(nranks * (nranks + 1) / 2 + nranks * (i % 7));
}

static void fail(const char *coll, long size, long at, double got, double want)
{
    char msg[200];
    snprintf(msg, sizeof msg, "%s: size %ld: wrong data at element %ld (%g, expected %g)", coll,
             size, at, got, want);
    die(msg);
}

static void check(const unsigned char *buf, long size, int from, const char *coll)
{
    for (long i = 0; i < size; i++)
        if (buf[i] != pattern(from, i))
            fail(coll, size, i, buf[i], pattern(from, i));
}

/* floats OFF .. OFF+COUNT-1 of the sum */
static void checkf(const float *buf, long count, long off, const char *coll, long size)
{
    for (long i = 0; i < count; i++)
        if (buf[i] != fsum(off + i))
            fail(coll, size, i, buf[i], fsum(off + i));
}

/* ---------------------------------------------------------- collectives */

enum coll {
    BARRIER, BCAST, REDUCE, ALLREDUCE, ALLGATHER, ALLTOALL, GATHER, SCATTER, REDSCAT, IALLREDUCE,
    PALLREDUCE, NCOLLS
};
static const char *const coll_name[NCOLLS] = {
    "barrier", "bcast", "reduce", "allreduce", "allgather",
    "alltoall", "gather", "scatter", "reduce_scatter_block", "iallreduce", "pallreduce",
};

/* What a collective works on. */
struct ctx {
    enum coll op;
    long size;     /* bytes, as given */
    int n;         /* MPI_BYTEs of a block, or MPI_FLOATs for reductions */
    void *sbuf, *rbuf;
    size_t slen, rlen; /* their lengths in bytes */
    MPI_Request preq;  /* pallreduce: made by setup, freed by teardown */
};

static int is_reduction(enum coll op)
{
    return op == REDUCE || op == ALLREDUCE || op == REDSCAT || op == IALLREDUCE || op == PALLREDUCE;
}

static void setup(struct ctx *c, enum coll op, long size)
{
    size_t N = (size_t)nranks, sz = (size_t)size;
    c->op = op;
    c->size = size;
    c->slen = c->rlen = 0;
    c->n = is_reduction(op) ? (int)(size / 4 > 0 ? size / 4 : 1) : (int)size;
    size_t fl = (size_t)c->n * sizeof(float);
    switch (op) {
    case BCAST: c->slen = sz; break; /* in place in sbuf */
    case REDUCE: case ALLREDUCE: case IALLREDUCE: case PALLREDUCE: c->slen = c->rlen = fl; break;
    case REDSCAT: c->slen = N * fl; c->rlen = fl; break;
    case ALLGATHER: c->slen = sz; c->rlen = N * sz; break;
    case GATHER: c->slen = sz; if (rank == 0) c->rlen = N * sz; break;
    case SCATTER: if (rank == 0) c->slen = N * sz; c->rlen = sz; break;
    case ALLTOALL: c->slen = c->rlen = N * sz; break;
    default: break;
    }
    c->sbuf = xmalloc(c->slen);
    c->rbuf = xmalloc(c->rlen);

    /* inputs; outputs stay cleared so that the check after the warm-up means something */
    float *f = c->sbuf;
    unsigned char *b = c->sbuf;
    switch (op) {
    case BCAST:
        if (rank == 0)
            fill(b, size, 0);
        break;
    case REDUCE: case ALLREDUCE: case IALLREDUCE: case PALLREDUCE: case REDSCAT:
        for (long i = 0; i < (long)(c->slen / sizeof(float)); i++)
            f[i] = fvalue(rank, i);
        break;
    case ALLGATHER: case GATHER:
        fill(b, size, rank);
        break;
    case SCATTER:
        if (rank == 0)
            for (int j = 0; j < nranks; j++)
                fill(b + (size_t)j * sz, size, j);
        break;
    case ALLTOALL: /* block j goes to rank j */
        for (int j = 0; j < nranks; j++)
            fill(b + (size_t)j * sz, size, rank * nranks + j);
        break;
    default: break;
    }
    c->preq = MPI_REQUEST_NULL;
    if (op == PALLREDUCE)
        Allreduce_init(c->sbuf, c->rbuf, c->n, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, &c->preq);
}

static void teardown(struct ctx *c)
{
    if (c->op == PALLREDUCE)
        MPI_Request_free(&c->preq);
    free(c->sbuf);
    free(c->rbuf);
}

/* ITERS operations */
static void kernel(const struct ctx *c, long iters)
{
    MPI_Comm w = MPI_COMM_WORLD;
    void *s = c->sbuf, *r = c->rbuf;
    int n = c->n;
    MPI_Request req;
    switch (c->op) {
    case BARRIER:
        for (long i = 0; i < iters; i++)
            MPI_Barrier(w);
        break;
    case BCAST:
        for (long i = 0; i < iters; i++)
            MPI_Bcast(s, n, MPI_BYTE, 0, w);
        break;
    case REDUCE:
        for (long i = 0; i < iters; i++)
            MPI_Reduce(s, r, n, MPI_FLOAT, MPI_SUM, 0, w);
        break;
    case ALLREDUCE:
        for (long i = 0; i < iters; i++)
            MPI_Allreduce(s, r, n, MPI_FLOAT, MPI_SUM, w);
        break;
    case IALLREDUCE:
        for (long i = 0; i < iters; i++) {
            MPI_Iallreduce(s, r, n, MPI_FLOAT, MPI_SUM, w, &req);
            MPI_Wait(&req, MPI_STATUS_IGNORE);
        }
        break;
    case PALLREDUCE:
        for (long i = 0; i < iters; i++) {
            req = c->preq;
            MPI_Start(&req);
            MPI_Wait(&req, MPI_STATUS_IGNORE);
        }
        break;
    case REDSCAT:
        for (long i = 0; i < iters; i++)
            MPI_Reduce_scatter_block(s, r, n, MPI_FLOAT, MPI_SUM, w);
        break;
    case ALLGATHER:
        for (long i = 0; i < iters; i++)
            MPI_Allgather(s, n, MPI_BYTE, r, n, MPI_BYTE, w);
        break;
    case GATHER:
        for (long i = 0; i < iters; i++)
            MPI_Gather(s, n, MPI_BYTE, r, n, MPI_BYTE, 0, w);
        break;
    case SCATTER:
        for (long i = 0; i < iters; i++)
            MPI_Scatter(s, n, MPI_BYTE, r, n, MPI_BYTE, 0, w);
        break;
    case ALLTOALL:
        for (long i = 0; i < iters; i++)
            MPI_Alltoall(s, n, MPI_BYTE, r, n, MPI_BYTE, w);
        break;
    default: break;
    }
}

/* every rank checks what it received */
static void verify(const struct ctx *c)
{
    const char *name = coll_name[c->op];
    const unsigned char *b = c->rbuf;
    size_t sz = (size_t)c->size;
    switch (c->op) {
    case BCAST:
        check(c->sbuf, c->size, 0, name);
        break;
    case REDUCE:
        if (rank == 0)
            checkf(c->rbuf, c->n, 0, name, c->size);
        break;
    case ALLREDUCE: case IALLREDUCE: case PALLREDUCE:
        checkf(c->rbuf, c->n, 0, name, c->size);
        break;
    case REDSCAT:
        checkf(c->rbuf, c->n, (long)rank * c->n, name, c->size);
        break;
    case ALLGATHER:
        for (int j = 0; j < nranks; j++)
            check(b + (size_t)j * sz, c->size, j, name);
        break;
    case GATHER:
        if (rank == 0)
            for (int j = 0; j < nranks; j++)
                check(b + (size_t)j * sz, c->size, j, name);
        break;
    case SCATTER:
        check(b, c->size, rank, name);
        break;
    case ALLTOALL: /* block j came from rank j */
        for (int j = 0; j < nranks; j++)
            check(b + (size_t)j * sz, c->size, j * nranks + rank, name);
        break;
    default: break;
    }
}

/* the slowest rank's T (rank 0's result; the other ranks get their own T) */
static double slowest(double t)
{
    double max = t;
    MPI_Reduce(&t, &max, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    return max;
}

/*
 * Warm-up and calibration: batches of 1, 2, 4, ... operations until a batch
 * (from the third) lasts a tenth of the target time for the slowest rank;
 * the timed repetitions then run enough operations to last about the
 * target, within [LO, HI]. Rank 0 decides and broadcasts its decision.
 * Returns the iteration count.
 */
static long warm_up(const struct ctx *c, long lo, long hi)
{
    long n = 1;
    double per_iter = 0; /* fastest seen, batches after the first */
    for (int batch = 1;; batch++) {
        MPI_Barrier(MPI_COMM_WORLD);
        double t0 = MPI_Wtime();
        kernel(c, n);
        double t = slowest(MPI_Wtime() - t0);
        /* never stop on the second batch either: it may pay for costs of
         * a buffer's second use (rdmpi maps large collective buffers then) */
        long next = rank == 0 ? calibrate(n, t, batch, 3, lo, hi, &per_iter) : 0;
        MPI_Bcast(&next, 1, MPI_LONG, 0, MPI_COMM_WORLD);
        if (next < 0)
            return -next;
        n = next;
    }
}

/* ------------------------------------------------------- the host probe */

enum { PROBE_TRIPS = 1000 };
static _Atomic uint64_t *probe_line; /* 2 ranks: [0] rank 0's, [16] rank 1's (own lines) */
static uint64_t probe_seq;

/* 2 ranks: map one shared page (rank 0 creates it and removes its name as
 * soon as rank 1 has it mapped, so nothing is left behind) */
static void probe_setup(void)
{
    char name[64];
    if (nranks != 2)
        return;
    if (rank == 0) {
        snprintf(name, sizeof name, "/rdmpi-coll-probe.%ld.%ld", (long)getpid(), (long)(MPI_Wtime() * 1e6));
        int fd = shm_open(name, O_CREAT | O_EXCL | O_RDWR, 0600);
        if (fd < 0 || ftruncate(fd, 4096) != 0)
            die("cannot create the probe's shared page");
        close(fd);
    }
    MPI_Bcast(name, sizeof name, MPI_CHAR, 0, MPI_COMM_WORLD);
    int fd = shm_open(name, O_RDWR, 0);
    void *p = fd < 0 ? MAP_FAILED : mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (fd >= 0)
        close(fd);
    int ok = p != MAP_FAILED, all = 0;
    MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
    if (rank == 0)
        shm_unlink(name);
    if (!all)
        die("cannot map the probe's shared page");
    probe_line = p;
}

/* PROBE_TRIPS round trips of one line each way between the two ranks; rank
 * 0 returns the time of one in us (rank 1: 0) */
static double probe(void)
{
    if (!probe_line)
        return 0;
    _Atomic uint64_t *mine = probe_line + 16 * rank, *peer = probe_line + 16 * (1 - rank);
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    for (int i = 0; i < PROBE_TRIPS; i++) {
        uint64_t s = ++probe_seq;
        if (rank == 0)
            atomic_store_explicit(mine, s, memory_order_release);
        for (long spins = 0; atomic_load_explicit(peer, memory_order_acquire) < s;)
            if (++spins % (1L << 24) == 0 && MPI_Wtime() - t0 > 60)
                die("the probe's peer does not answer");
        if (rank == 1)
            atomic_store_explicit(mine, s, memory_order_release);
    }
    return rank == 0 ? (MPI_Wtime() - t0) * 1e6 / PROBE_TRIPS : 0;
}

/* one collective at one size: warm up, check the data, time REPS repetitions */
static void run(enum coll op, long size, int reps)
{
    struct ctx c;
    double v[MAX_REPS];

    setup(&c, op, size);
    long iters = warm_up(&c, 3, 10000000);
    verify(&c);
    double p[MAX_REPS];
    for (int r = 0; r < reps; r++) {
        double p0 = probe();
        MPI_Barrier(MPI_COMM_WORLD);
        double t0 = MPI_Wtime();
        kernel(&c, iters);
        double t = MPI_Wtime() - t0;
        v[r] = slowest(t) * 1e6 / (double)iters;
        double p1 = probe();
        p[r] = p0 > p1 ? p0 : p1;
    }
    if (probe_line && rank == 0) {
        printf("# state %s %ld", coll_name[op], size);
        for (int r = 0; r < reps; r++)
            printf(" %.6g %.4g", v[r], p[r]);
        printf("\n");
    }
    report(coll_name[op], size, v, reps, iters, 0);
    teardown(&c);
}

/* ----------------------------------------------------------------- main */

static const char usage[] = "usage: coll [-t COLLS] [-s SIZES] [-r REPS] [-T MS]\n"
                            "  COLLS: comma list of barrier, bcast, reduce, allreduce, allgather,\n"
                            "         alltoall, gather, scatter, reduce_scatter_block, iallreduce,\n"
                            "         pallreduce\n"
                            "  SIZES: comma list of sizes (K, M suffixes) and ranges A-B (powers\n"
                            "         of two), default 4-4M\n";

int main(int argc, char **argv)
{
    static long sizes[MAX_SIZES];
    const char *colls = "barrier,bcast,reduce,allreduce,allgather,alltoall,gather,scatter,"
                        "reduce_scatter_block,iallreduce";
    int nsizes = parse_sizes("4-4M", sizes, MAX_SIZES), reps = 5;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nranks);

    bench_options(argc, argv, usage, &colls, sizes, MAX_SIZES, &nsizes, &reps, NULL);

    /* validate the whole list before measuring anything */
    char *list = strdup(colls), *save = NULL;
    enum coll todo[64];
    int ntodo = 0;
    for (char *t = strtok_r(list, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        int k = 0;
        while (k < NCOLLS && strcmp(t, coll_name[k]))
            k++;
        if (k == NCOLLS)
            die("unknown collective (barrier, bcast, reduce, allreduce, allgather, alltoall, "
                "gather, scatter, reduce_scatter_block, iallreduce, pallreduce)");
        if (ntodo < 64)
            todo[ntodo++] = (enum coll)k;
    }
    free(list);

    probe_setup();
    if (rank == 0) {
        printf("# coll colls=%s reps=%d target_ms=%g ranks=%d library=%s\n", colls, reps,
               target * 1e3, nranks, library_version());
        printf("# coll size median min max iters (us per operation, slowest rank)\n");
        fflush(stdout);
    }
    for (int k = 0; k < ntodo; k++) {
        if (todo[k] == BARRIER) {
            run(BARRIER, 0, reps);
            continue;
        }
        for (int i = 0; i < nsizes; i++)
            run(todo[k], sizes[i], reps);
    }
    MPI_Finalize();
    return 0;
}

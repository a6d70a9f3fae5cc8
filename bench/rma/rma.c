/*
 * rma.c - one-sided communication benchmarks between two MPI ranks (a
 * benchmark, not a test), over windows from MPI_Win_allocate, and the
 * physical floor under them measured by the same program without MPI.
 *
 *   rma [-t TESTS] [-s SIZES] [-r REPS] [-T MS]      (under a launcher, 2 ranks)
 *   rma -F [-r REPS]                                 (floor: no MPI, no launcher)
 *
 *   -t TESTS  comma list of put, get, acc, fop, cas, fence, lock, putbw, getbw
 *             (default: all)
 *   -s SIZES  sizes of putbw and getbw: 1K,64K or ranges 1K-4M (powers of
 *             two; the default is 1K-4M). The latency tests move 8 bytes.
 *   -r REPS   timed repetitions per figure; the median is reported (default 5)
 *   -T MS     target duration of one timed repetition (default 10 ms)
 *   -F        measure only the floor: fork a second process, pin the two to
 *             the first two CPUs, and bounce one cache line in a MAP_SHARED
 *             mapping made before the fork; MPI is never initialised
 *
 * Rank 0 (the origin) prints, for each test and size, one line
 *
 *   TEST SIZE MEDIAN MIN MAX ITERS WINDOW
 *
 * MEDIAN, MIN and MAX over the REPS repetitions, in microseconds per
 * operation for put, get, acc, fop, cas, fence and lock, in MB/s (10^6
 * bytes per second) for putbw and getbw. The floor prints
 *
 *   floor cacheline_us MEDIAN MIN MAX
 *
 * (one-way hand-off, half the round trip, in microseconds). Lines starting
 * with '#' are comments. Ranks beyond the first two only wait for
 * MPI_Finalize.
 *
 * What one operation is (rank 1, the target, waits in MPI_Recv for rank 0's
 * end-of-batch message while rank 0 works in passive mode, so a library
 * that needs the target's CPU gets it from inside an MPI call, as in the
 * OSU one-sided benchmarks):
 *   put    MPI_Put of 8 bytes to rank 1, then MPI_Win_flush(1), inside one
 *          MPI_Win_lock_all epoch that lasts the whole test
 *   get    MPI_Get of 8 bytes from rank 1, then MPI_Win_flush(1)
 *   acc    MPI_Accumulate of one 64-bit integer, MPI_SUM, then flush
 *   fop    MPI_Fetch_and_op of one 64-bit integer, MPI_SUM, then flush
 *   cas    MPI_Compare_and_swap of one 64-bit integer, then flush
 *   fence  MPI_Win_fence(0) with no operations, on both ranks
 *   lock   MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 1) then MPI_Win_unlock(1), no
 *          operations (outside any lock_all epoch)
 *   putbw  WINDOW Puts of SIZE bytes to distinct offsets, then one flush
 *          (WINDOW = 64 up to 128 KiB, then 8 MiB / SIZE, at least 2)
 *   getbw  the same with Gets into distinct local buffers
 *   putpp  half the round trip of a ping-pong of 8-byte Puts, each rank
 *          in a lock_all epoch polling its own window's word for the
 *          other's value (MPI_Win_sync and MPI_Iprobe every 64 loads, for
 *          libraries that need the CPU), each Put flushed: the one-sided
 *          counterpart of perftest's ib_write_lat (not in the default
 *          list; run-vm.sh runs it)
 *
 * Iteration counts as in bench/p2p: uncounted warm-up batches of 1, 2, 4,
 * ... iterations until a batch lasts a tenth of the target, then REPS
 * timed repetitions of as many iterations as fill the target. Every result
 * is checked: put and putbw data at the target after the warm-up, get and
 * getbw data at the origin, every value fop and cas fetch (each one is the
 * previous plus one), and the counter acc, fop and cas leave at the
 * target; a library that loses data cannot post a figure.
 */
#define _GNU_SOURCE
#include <mpi.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

enum { TAG_DONE = 5 };
enum { MAX_WINDOW = 64, MAX_SIZES = 64 };

#define WINDOW_BYTES (8L << 20) /* cap on the bytes of one window of ops */

#define BENCH_NAME "rma"
#define BENCH_MAX_SIZE (64L << 20)
#include "../common.h"

/* ------------------------------------------------------------ the floor */

/*
 * Two processes bounce one 64-byte line of a MAP_SHARED mapping made before
 * the fork: the parent writes 2i+1 and spins until it reads 2i+2, which the
 * child writes when it reads 2i+1. Half a round trip is one hand-off of the
 * line between the two cores: no one-sided operation between two processes
 * on those cores can complete faster.
 */
static int floor_main(int reps)
{
    enum { HAND_OFFS = 100000, LINES = 2 };
    int cpus[2];
    if (first_two_cpus(cpus) < 2) {
        printf("# floor: fewer than 2 CPUs available: no cache-line figure\n");
        return 0;
    }
    /* two lines: the flag, and a neighbour kept off it */
    _Atomic uint64_t *line = mmap(NULL, 64 * LINES, PROT_READ | PROT_WRITE,
                                  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (line == MAP_FAILED) {
        perror("rma -F: mmap");
        return 1;
    }
    atomic_store(line, 0);
    long total = (long)(reps + 1) * HAND_OFFS; /* one uncounted warm-up run */
    fflush(stdout);
    pid_t pid = fork();
    if (pid < 0) {
        perror("rma -F: fork");
        return 1;
    }
    if (pid == 0) {
        pin_cpu(cpus[1], "rma -F");
        handoff_pong(line, 0, total);
        _exit(0);
    }
    pin_cpu(cpus[0], "rma -F");
    printf("# floor: cache-line ping-pong between two processes on CPUs %d and %d (MAP_SHARED, fork)\n",
           cpus[0], cpus[1]);
    double v[MAX_REPS];
    uint64_t i = 0;
    for (int r = -1; r < reps; r++) {
        double t0 = now();
        handoff_ping(line, i, HAND_OFFS);
        i += HAND_OFFS;
        if (r >= 0)
            v[r] = (now() - t0) * 1e6 / (2.0 * HAND_OFFS);
    }
    int status;
    waitpid(pid, &status, 0);
    double med, lo, hi;
    stats(v, reps, &med, &lo, &hi);
    printf("floor cacheline_us %.6g %.6g %.6g\n", med, lo, hi);
    return 0;
}

/* ------------------------------------------------------------ utilities */

static void fail(const char *test, const char *what, long got, long want)
{
    char msg[200];
    snprintf(msg, sizeof msg, "%s: %s: got %ld, expected %ld", test, what, got, want);
    die(msg);
}

/* ---------------------------------------------------------------- tests */

enum kind { PUT, GET, ACC, FOP, CAS, FENCE, LOCK, PUTBW, GETBW, PUTPP, NKINDS };
static const char *const names[NKINDS] = {"put", "get", "acc", "fop", "cas", "fence", "lock", "putbw", "getbw",
                                          "putpp"};

/* What a test works on. The window's first 64 bytes hold the 64-bit
 * counter of acc, fop and cas and the 8 bytes of put and get; putbw and
 * getbw use offsets from 0 up to WINDOW * SIZE. */
struct ctx {
    enum kind kind;
    MPI_Win win;
    unsigned char *base; /* the window's memory at this rank */
    unsigned char *buf;  /* origin buffer: WINDOW * SIZE bytes */
    long size;
    int window;
    int64_t count;       /* fop, cas: the value the next op will fetch */
};

/* rank 0's operations, ITERS of them (or windows); rank 1 runs this only
 * for fence */
static void kernel(struct ctx *c, long iters)
{
    MPI_Win win = c->win;
    int n = (int)c->size;
    const int64_t one = 1;
    int64_t got;
    switch (c->kind) {
    case PUT:
        for (long i = 0; i < iters; i++) {
            MPI_Put(c->buf, 8, MPI_BYTE, 1, 0, 8, MPI_BYTE, win);
            MPI_Win_flush(1, win);
        }
        break;
    case GET:
        for (long i = 0; i < iters; i++) {
            MPI_Get(c->buf, 8, MPI_BYTE, 1, 0, 8, MPI_BYTE, win);
            MPI_Win_flush(1, win);
        }
        break;
    case ACC:
        for (long i = 0; i < iters; i++) {
            MPI_Accumulate(&one, 1, MPI_INT64_T, 1, 0, 1, MPI_INT64_T, MPI_SUM, win);
            MPI_Win_flush(1, win);
        }
        c->count += iters;
        break;
    case FOP:
        for (long i = 0; i < iters; i++) {
            MPI_Fetch_and_op(&one, &got, MPI_INT64_T, 1, 0, MPI_SUM, win);
            MPI_Win_flush(1, win);
            if (got != c->count)
                fail("fop", "fetched value", (long)got, (long)c->count);
            c->count++;
        }
        break;
    case CAS:
        for (long i = 0; i < iters; i++) {
            int64_t next = c->count + 1;
            MPI_Compare_and_swap(&next, &c->count, &got, MPI_INT64_T, 1, 0, win);
            MPI_Win_flush(1, win);
            if (got != c->count)
                fail("cas", "fetched value", (long)got, (long)c->count);
            c->count = next;
        }
        break;
    case FENCE:
        for (long i = 0; i < iters; i++)
            MPI_Win_fence(0, win);
        break;
    case LOCK:
        for (long i = 0; i < iters; i++) {
            MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 1, 0, win);
            MPI_Win_unlock(1, win);
        }
        break;
    case PUTBW:
        for (long i = 0; i < iters; i++) {
            for (int w = 0; w < c->window; w++)
                MPI_Put(c->buf + (size_t)w * (size_t)n, n, MPI_BYTE, 1, (MPI_Aint)w * n, n,
                        MPI_BYTE, win);
            MPI_Win_flush(1, win);
        }
        break;
    case GETBW:
        for (long i = 0; i < iters; i++) {
            for (int w = 0; w < c->window; w++)
                MPI_Get(c->buf + (size_t)w * (size_t)n, n, MPI_BYTE, 1, (MPI_Aint)w * n, n,
                        MPI_BYTE, win);
            MPI_Win_flush(1, win);
        }
        break;
    case PUTPP: {
        /* each rank's 8 bytes at offset 8 are what the other one writes */
        volatile int64_t *mine = (volatile int64_t *)(void *)(c->base + 8);
        int peer = 1 - rank, flag;
        for (long i = 0; i < iters; i++) {
            int64_t v = ++c->count;
            if (rank == 0) {
                MPI_Put(&v, 1, MPI_INT64_T, peer, 8, 1, MPI_INT64_T, win);
                MPI_Win_flush(peer, win);
            }
            /* the peer's value, polled in memory as ib_write_lat polls its
             * buffer; every 64 loads, Win_sync and Iprobe give a library
             * that needs this rank's CPU its progress */
            for (unsigned spins = 1; *mine != v; spins++)
                if (spins % 64 == 0) {
                    MPI_Win_sync(win);
                    MPI_Iprobe(peer, TAG_DONE, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
                }
            MPI_Win_sync(win);
            if (rank == 1) {
                MPI_Put(&v, 1, MPI_INT64_T, peer, 8, 1, MPI_INT64_T, win);
                MPI_Win_flush(peer, win);
            }
        }
        break;
    }
    default:
        break;
    }
}

/* one batch of ITERS: rank 0 works (rank 1 too for fence); in passive
 * mode rank 1 waits in MPI_Recv for the end of the batch. Returns rank 0's
 * time for the operations alone. */
static double batch(void *ctx, long iters)
{
    struct ctx *c = ctx;
    char d = 0;
    double t = 0;
    if (rank == 0 || c->kind == FENCE || c->kind == PUTPP) {
        double t0 = MPI_Wtime();
        kernel(c, iters);
        t = MPI_Wtime() - t0;
    }
    if (c->kind != FENCE && c->kind != PUTPP) {
        if (rank == 0)
            MPI_Send(&d, 0, MPI_BYTE, 1, TAG_DONE, MPI_COMM_WORLD);
        else
            MPI_Recv(&d, 0, MPI_BYTE, 0, TAG_DONE, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    return t;
}

/* rank 1 reads its own window under a shared lock on itself (the public
 * and private copies synchronised by MPI_Win_sync) */
static void target_read(struct ctx *c, void *dst, size_t off, size_t len)
{
    MPI_Win_lock(MPI_LOCK_SHARED, 1, 0, c->win);
    MPI_Win_sync(c->win);
    memcpy(dst, c->base + off, len);
    MPI_Win_unlock(1, c->win);
}

/* after the warm-up (put, putbw, get, getbw) or at the end (acc, fop, cas):
 * the data or the counter is what the operations made of it */
static void check(struct ctx *c)
{
    const char *test = names[c->kind];
    sync_pair(); /* rank 0's flushes are done */
    switch (c->kind) {
    case PUT:
    case PUTBW:
        if (rank == 1) {
            long len = c->kind == PUT ? 8 : (long)c->window * c->size;
            unsigned char *tmp = xmalloc((size_t)len);
            target_read(c, tmp, 0, (size_t)len);
            for (long i = 0; i < len; i++)
                if (tmp[i] != pattern(0, i))
                    fail(test, "a byte at the target", tmp[i], pattern(0, i));
            free(tmp);
        }
        break;
    case GET:
    case GETBW:
        if (rank == 0) {
            long len = c->kind == GET ? 8 : (long)c->window * c->size;
            for (long i = 0; i < len; i++)
                if (c->buf[i] != pattern(1, i))
                    fail(test, "a byte fetched", c->buf[i], pattern(1, i));
        }
        break;
    case ACC:
    case FOP:
    case CAS:
        if (rank == 0)
            MPI_Send(&c->count, 1, MPI_INT64_T, 1, TAG_CTRL, MPI_COMM_WORLD);
        else {
            int64_t want, have;
            MPI_Recv(&want, 1, MPI_INT64_T, 0, TAG_CTRL, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            target_read(c, &have, 0, sizeof have);
            if (have != want)
                fail(test, "the counter at the target", (long)have, (long)want);
        }
        break;
    default:
        break;
    }
    sync_pair();
}

static int window_for(enum kind k, long size)
{
    if (k != PUTBW && k != GETBW)
        return 1;
    return (int)clampl(WINDOW_BYTES / size, 2, MAX_WINDOW);
}

/* one test at one size over window WIN (of WINBYTES at each rank) */
static void run(enum kind k, long size, int reps, MPI_Win win, unsigned char *base, unsigned char *buf)
{
    int lat = k != PUTBW && k != GETBW, all = k != FENCE && k != LOCK; /* all: in lock_all */
    struct ctx c = {k, win, base, buf, lat ? 8 : size, window_for(k, size), 0};
    double v[MAX_REPS];
    long span = (long)c.window * c.size;

    /* the origin's data for put/putbw, the target's for get/getbw, a zero
     * counter for acc/fop/cas; written by each rank in its own window
     * under a lock on itself, so every library sees it */
    MPI_Win_lock(MPI_LOCK_EXCLUSIVE, rank, 0, win);
    memset(base, 0, (size_t)span > 64 ? (size_t)span : 64);
    if (rank == 1 && (k == GET || k == GETBW))
        for (long i = 0; i < span; i++)
            base[i] = pattern(1, i);
    MPI_Win_sync(win);
    MPI_Win_unlock(rank, win);
    for (long i = 0; i < span; i++)
        buf[i] = k == PUT || k == PUTBW ? pattern(0, i) : 0;
    sync_pair();

    if (all && (rank == 0 || k == PUTPP))
        MPI_Win_lock_all(0, win);
    long iters = warm_up_pair(batch, &c, lat ? 10 : 3, lat ? 10000000 : 1000000);
    if (k == PUT || k == PUTBW || k == GET || k == GETBW) {
        if (all && rank == 0)
            MPI_Win_unlock_all(win);
        check(&c);
        if (all && rank == 0)
            MPI_Win_lock_all(0, win);
    }
    for (int r = 0; r < reps; r++) {
        sync_pair();
        double t = batch(&c, iters);
        v[r] = lat ? t * 1e6 / (double)iters / (k == PUTPP ? 2 : 1) : (double)span * (double)iters / t / 1e6;
    }
    if (all && (rank == 0 || k == PUTPP))
        MPI_Win_unlock_all(win);
    if (k == FENCE) /* no epoch follows: locks may come next */
        MPI_Win_fence(MPI_MODE_NOSUCCEED, win);
    if (k == ACC || k == FOP || k == CAS)
        check(&c);
    report(names[k], lat ? (k == FENCE || k == LOCK ? 0 : 8) : size, v, reps, iters, c.window);
}

/* ----------------------------------------------------------------- main */

static const char usage[] = "usage: rma [-t put,get,acc,fop,cas,fence,lock,putbw,getbw,putpp] [-s SIZES] "
                            "[-r REPS] [-T MS]\n       rma -F [-r REPS]   (the floor, no MPI)\n";

int main(int argc, char **argv)
{
    static long sizes[MAX_SIZES];
    const char *tests = "put,get,acc,fop,cas,fence,lock,putbw,getbw";
    int nsizes, reps = 5, nranks;

    /* the floor: before (and without) MPI */
    if (argc >= 2 && !strcmp(argv[1], "-F")) {
        if (argc == 4 && !strcmp(argv[2], "-r"))
            reps = atoi(argv[3]);
        else if (argc != 2)
            reps = 0;
        if (reps < 1 || reps > MAX_REPS) {
            fprintf(stderr, "usage: rma -F [-r REPS]\n");
            return 2;
        }
        return floor_main(reps);
    }

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nranks);
    nsizes = parse_sizes("1K-4M", sizes, MAX_SIZES);
    bench_options(argc, argv, usage, &tests, sizes, MAX_SIZES, &nsizes, &reps, NULL);
    if (nranks < 2)
        die("needs 2 ranks");
    for (int i = 0; i < nsizes; i++)
        if (sizes[i] <= 0)
            die("bandwidth sizes must be at least 1 byte");

    /* one window for every test, as large as the largest window of ops */
    long winbytes = 64;
    for (int i = 0; i < nsizes; i++) {
        long span = (long)window_for(PUTBW, sizes[i]) * sizes[i];
        if (span > winbytes)
            winbytes = span;
    }
    MPI_Comm pair;
    MPI_Comm_split(MPI_COMM_WORLD, rank < 2 ? 0 : MPI_UNDEFINED, rank, &pair);

    if (rank == 0) {
        printf("# rma tests=%s reps=%d target_ms=%g ranks=%d window_bytes=%ld library=%s\n", tests,
               reps, target * 1e3, nranks, winbytes, library_version());
        printf("# test size median min max iters window (put..lock: us per op, putbw/getbw: MB/s)\n");
        fflush(stdout);
    }
    if (rank < 2) {
        unsigned char *base, *buf = xmalloc((size_t)winbytes);
        MPI_Win win;
        MPI_Win_allocate((MPI_Aint)winbytes, 1, MPI_INFO_NULL, pair, &base, &win);
        memset(base, 0, (size_t)winbytes); /* touch every page before timing */
        char *list = strdup(tests), *save = NULL;
        for (char *t = strtok_r(list, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
            int k = 0;
            while (k < NKINDS && strcmp(t, names[k]))
                k++;
            if (k == NKINDS)
                die("unknown test (put, get, acc, fop, cas, fence, lock, putbw, getbw, putpp)");
            if (k == PUTBW || k == GETBW)
                for (int i = 0; i < nsizes; i++)
                    run((enum kind)k, sizes[i], reps, win, base, buf);
            else
                run((enum kind)k, 8, reps, win, base, buf);
        }
        free(list);
        MPI_Win_free(&win);
        free(buf);
        MPI_Comm_free(&pair);
    }
    MPI_Finalize();
    return 0;
}

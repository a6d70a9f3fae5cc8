/*
 * p2p.c - point-to-point benchmarks between two MPI ranks (a benchmark, not
 * a test): ping-pong latency, unidirectional and bidirectional windowed
 * bandwidth, and message rate (two ways), over a list of message sizes.
 *
 * Uses only standard MPI-3.1 point-to-point calls (Send, Recv, Isend, Irecv,
 * Waitall) and MPI_Wtime, so the same source builds with rdmpicc,
 * mpicc.openmpi and mpicc.mpich. No collectives: ranks synchronise with a
 * zero-byte Send/Recv exchange.
 *
 *   p2p [-t lat,bw,bibw,rate,mr] [-s SIZES] [-r REPS] [-T MS] [-m RATE_MAX]
 *
 *   -t TESTS  comma list of lat, bw, bibw, rate, mr (default: all five)
 *   -s SIZES  comma list of sizes and ranges: 0,8,4K,1M or 0-16M (0, then
 *             the powers of two from 1 to 16 MiB; the default). bw and bibw
 *             skip size 0.
 *   -r REPS   timed repetitions per size; the median is reported (default 5)
 *   -T MS     target duration of one timed repetition (default 10 ms)
 *   -m BYTES  largest size measured by the rate and mr tests (default 64K)
 *
 * Rank 0 prints, for each test and size, one line
 *
 *   TEST SIZE MEDIAN MIN MAX ITERS WINDOW
 *
 * where MEDIAN, MIN and MAX are over the REPS repetitions and the unit is
 * that of the test: lat in microseconds (half a round trip), bw and bibw in
 * MB/s (10^6 bytes per second; bibw counts both directions), rate in
 * millions of messages per second (rate, mr). Lines starting with '#' are
 * comments.
 * Ranks beyond the first two only wait for MPI_Finalize.
 *
 * Methods (as in the OSU micro-benchmarks, with distinct receive buffers):
 *   lat   rank 0 Send, Recv; rank 1 Recv, Send; ITERS times.
 *   bw    rank 0 Isend of WINDOW messages, Waitall, Recv of a zero-byte
 *         ack; rank 1 Irecv of WINDOW messages into distinct buffers,
 *         Waitall, Send of the ack; ITERS windows.
 *   bibw  both ranks Irecv WINDOW messages, Isend WINDOW messages, Waitall.
 *   rate  as bw with a window of 64 whatever the size; messages per second.
 *   mr    the widely used pattern of osu_bw and osu_mbw_mr, counted in
 *         messages per second: rank 0 Isends a window of 64, Waitall, Recv
 *         of a 4-byte reply; rank 1 Irecvs the 64 into one buffer (as those
 *         benchmarks do), Waitall, Send of the 4-byte reply.
 * The send buffer is shared by the messages of a window (MPI-3 allows
 * concurrent reads of a send buffer); a window's receive buffers are
 * distinct, at most 8 MiB in all (WINDOW = 64 up to 128 KiB, then smaller,
 * at least 2).
 *
 * Iteration counts: each size starts with uncounted warm-up batches of 1, 2,
 * 4, ... iterations until a batch lasts a tenth of the target; the timed
 * repetitions then run as many iterations as fill the target duration
 * (at least 10 round trips or 3 windows), so counts fall with the size and
 * a slow library does not make the run long. After the warm-up the received
 * data is checked, so a library that loses or garbles data cannot report a
 * good figure.
 */
#define _GNU_SOURCE
#include <mpi.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { TAG_DATA = 1, TAG_ACK = 2 };
enum { MAX_WINDOW = 64, MAX_SIZES = 128 };

#define RECV_WINDOW_BYTES (8L << 20) /* cap on a window's receive buffers */

#define BENCH_NAME "p2p"
#define BENCH_MAX_SIZE (1L << 30) /* MPI counts are ints */
#include "../common.h"

/* ------------------------------------------------------------ utilities */

static void check(const unsigned char *buf, long size, int from, const char *test)
{
    for (long i = 0; i < size; i++)
        if (buf[i] != pattern(from, i)) {
            char msg[160];
            snprintf(msg, sizeof msg, "%s: size %ld: wrong data at byte %ld (%u, expected %u)",
                     test, size, i, buf[i], pattern(from, i));
            die(msg);
        }
}

static int window_for(long size)
{
    return (int)clampl(size ? RECV_WINDOW_BYTES / size : MAX_WINDOW, 2, MAX_WINDOW);
}

/* ---------------------------------------------------------------- tests */

struct ctx;
typedef void kernel_fn(const struct ctx *c, long iters);

/* What a test kernel works on. */
struct ctx {
    kernel_fn *kernel;
    unsigned char *sbuf, *rbuf; /* rbuf holds WINDOW messages */
    long size;
    int window;
};

/* lat: ITERS round trips */
static void pingpong(const struct ctx *c, long iters)
{
    int peer = 1 - rank, n = (int)c->size;
    for (long i = 0; i < iters; i++) {
        if (rank == 0) {
            MPI_Send(c->sbuf, n, MPI_BYTE, peer, TAG_DATA, MPI_COMM_WORLD);
            MPI_Recv(c->rbuf, n, MPI_BYTE, peer, TAG_DATA, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else {
            MPI_Recv(c->rbuf, n, MPI_BYTE, peer, TAG_DATA, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Send(c->sbuf, n, MPI_BYTE, peer, TAG_DATA, MPI_COMM_WORLD);
        }
    }
}

/* bw, rate: ITERS windows from rank 0 to rank 1, each acknowledged */
static void stream(const struct ctx *c, long iters)
{
    MPI_Request req[MAX_WINDOW];
    MPI_Status st[MAX_WINDOW];
    int n = (int)c->size;
    char ack = 0;
    for (long i = 0; i < iters; i++) {
        if (rank == 0) {
            for (int w = 0; w < c->window; w++)
                MPI_Isend(c->sbuf, n, MPI_BYTE, 1, TAG_DATA, MPI_COMM_WORLD, &req[w]);
            MPI_Waitall(c->window, req, st);
            MPI_Recv(&ack, 0, MPI_BYTE, 1, TAG_ACK, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else {
            for (int w = 0; w < c->window; w++)
                MPI_Irecv(c->rbuf + (size_t)w * (size_t)n, n, MPI_BYTE, 0, TAG_DATA,
                          MPI_COMM_WORLD, &req[w]);
            MPI_Waitall(c->window, req, st);
            MPI_Send(&ack, 0, MPI_BYTE, 0, TAG_ACK, MPI_COMM_WORLD);
        }
    }
}

/* mr: ITERS windows of 64 from rank 0 to rank 1, each answered with 4
 * bytes; the receives share one buffer (osu_bw, osu_mbw_mr) */
static void osu_window(const struct ctx *c, long iters)
{
    MPI_Request req[MAX_WINDOW];
    MPI_Status st[MAX_WINDOW];
    int n = (int)c->size;
    char reply[4] = {0};
    for (long i = 0; i < iters; i++) {
        if (rank == 0) {
            for (int w = 0; w < c->window; w++)
                MPI_Isend(c->sbuf, n, MPI_BYTE, 1, TAG_DATA, MPI_COMM_WORLD, &req[w]);
            MPI_Waitall(c->window, req, st);
            MPI_Recv(reply, 4, MPI_BYTE, 1, TAG_ACK, MPI_COMM_WORLD, &st[0]);
        } else {
            for (int w = 0; w < c->window; w++)
                MPI_Irecv(c->rbuf, n, MPI_BYTE, 0, TAG_DATA, MPI_COMM_WORLD, &req[w]);
            MPI_Waitall(c->window, req, st);
            MPI_Send(reply, 4, MPI_BYTE, 0, TAG_ACK, MPI_COMM_WORLD);
        }
    }
}

/* bibw: ITERS windows in both directions at once */
static void exchange(const struct ctx *c, long iters)
{
    MPI_Request req[2 * MAX_WINDOW];
    MPI_Status st[2 * MAX_WINDOW];
    int peer = 1 - rank, n = (int)c->size;
    for (long i = 0; i < iters; i++) {
        for (int w = 0; w < c->window; w++)
            MPI_Irecv(c->rbuf + (size_t)w * (size_t)n, n, MPI_BYTE, peer, TAG_DATA,
                      MPI_COMM_WORLD, &req[w]);
        for (int w = 0; w < c->window; w++)
            MPI_Isend(c->sbuf, n, MPI_BYTE, peer, TAG_DATA, MPI_COMM_WORLD, &req[c->window + w]);
        MPI_Waitall(2 * c->window, req, st);
    }
}

/* ITERS iterations of the test's kernel: seconds */
static double timed(void *ctx, long iters)
{
    const struct ctx *c = ctx;
    double t0 = MPI_Wtime();
    c->kernel(c, iters);
    return MPI_Wtime() - t0;
}

/* one test at one size: warm up, check the data, time REPS repetitions */
static void run(const char *test, long size, int reps)
{
    int lat = !strcmp(test, "lat"), bibw = !strcmp(test, "bibw"), mr = !strcmp(test, "mr");
    int rate = mr || !strcmp(test, "rate");
    kernel_fn *kernel = lat ? pingpong : bibw ? exchange : mr ? osu_window : stream;
    struct ctx c = {kernel, NULL, NULL, size, lat ? 1 : rate ? MAX_WINDOW : window_for(size)};
    double v[MAX_REPS];

    c.sbuf = xmalloc((size_t)size);
    c.rbuf = xmalloc((mr ? 1 : (size_t)c.window) * (size_t)size);
    fill(c.sbuf, size, rank);
    sync_pair();
    long iters = warm_up_pair(timed, &c, lat ? 10 : 3, lat ? 10000000 : 1000000);
    if (rank == 1 || lat || bibw)
        for (int w = 0; w < (mr ? 1 : c.window); w++)
            check(c.rbuf + (size_t)w * (size_t)size, size, 1 - rank, test);
    for (int r = 0; r < reps; r++) {
        sync_pair();
        double t = timed(&c, iters);
        double msgs = (double)c.window * (double)iters * (bibw ? 2.0 : 1.0);
        v[r] = lat ? t * 1e6 / (2.0 * (double)iters)
             : rate ? msgs / t / 1e6
                    : msgs * (double)size / t / 1e6;
    }
    report(test, size, v, reps, iters, c.window);
    free(c.sbuf);
    free(c.rbuf);
}

/* ----------------------------------------------------------------- main */

static long rate_max = 64L << 10;

/* -m BYTES */
static int rate_option(int opt, const char *val)
{
    char *end;
    return opt == 'm' && (rate_max = parse_size(val, &end)) >= 0 && !*end;
}

static const char usage[] = "usage: p2p [-t lat,bw,bibw,rate,mr] [-s SIZES] [-r REPS] "
                            "[-T MS] [-m RATE_MAX]\n  SIZES: comma list of sizes (K, M suffixes) and "
                            "ranges A-B (powers of two), default 0-16M\n";

int main(int argc, char **argv)
{
    static long sizes[MAX_SIZES];
    const char *tests = "lat,bw,bibw,rate,mr";
    int nsizes = parse_sizes("0-16M", sizes, MAX_SIZES), reps = 5, nranks;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nranks);

    bench_options(argc, argv, usage, &tests, sizes, MAX_SIZES, &nsizes, &reps, rate_option);
    if (nranks < 2)
        die("needs 2 ranks");

    if (rank == 0) {
        printf("# p2p tests=%s reps=%d target_ms=%g ranks=%d library=%s\n", tests, reps, target * 1e3,
               nranks, library_version());
        printf("# test size median min max iters window "
               "(lat: us, bw/bibw: MB/s, rate/mr: Mmsg/s)\n");
        fflush(stdout);
    }
    if (rank < 2) {
        char *list = strdup(tests), *save = NULL;
        for (char *t = strtok_r(list, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
            if (strcmp(t, "lat") && strcmp(t, "bw") && strcmp(t, "bibw") && strcmp(t, "rate") &&
                strcmp(t, "mr"))
                die("unknown test (lat, bw, bibw, rate, mr)");
            for (int i = 0; i < nsizes; i++) {
                if (sizes[i] == 0 && (!strcmp(t, "bw") || !strcmp(t, "bibw")))
                    continue; /* no bandwidth without bytes */
                if (sizes[i] > rate_max && (!strcmp(t, "rate") || !strcmp(t, "mr")))
                    continue;
                run(t, sizes[i], reps);
            }
        }
        free(list);
    }
    MPI_Finalize();
    return 0;
}

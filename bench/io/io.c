/*
 * io.c - MPI-IO benchmarks (a benchmark, not a test): the file-system
 * patterns of issue 22 through MPI_File, and the floor under them (one
 * process, plain pwrite/pread of the same bytes) measured by the same
 * program without MPI.
 *
 *   io -t TEST [-n N] [-d DIR] [-s BLOCKS]      (under a launcher, any ranks)
 *   io -F [-n N] [-d DIR] [-s CHUNK]            (floor: no MPI, no launcher)
 *
 *   -t TEST   bt, contig or strided (one per run)
 *   -n N      the data: N^3 doubles (default 256: 128 MiB; 512: 1 GiB)
 *   -d DIR    where the file lives (default .); the file is
 *             DIR/io-TEST.dat (DIR/io-floor.dat), removed at the end
 *   -s SIZES  strided: the block sizes (default 4K,256); floor: the size of
 *             one pwrite/pread (default 16M)
 *
 * The tests (P ranks, S = 8 N^3 bytes in all, every rank S/P of them):
 *   bt       a 3-D array of N^3 doubles in C order (z, y, x), block-
 *            distributed over the fastest dimensions (2 ranks 1x1x2, 4 ranks
 *            1x2x2, P ranks 1x(P/2)x2: rows of N/2 doubles interleave, as in
 *            BT-IO); filetype MPI_Type_create_subarray, MPI_File_set_view,
 *            then MPI_File_write_all / MPI_File_read_all
 *   contig   every rank one contiguous block of S/P bytes at rank x S/P,
 *            MPI_File_write_at_all / MPI_File_read_at_all (default view)
 *   strided  independent access: blocks of B bytes interleaved among the
 *            ranks (rank r has blocks r, r+P, r+2P ...), the view a
 *            MPI_Type_vector of doubles at displacement r x B, then
 *            MPI_File_write / MPI_File_read; once per block size B
 *
 * For each test (and block size) one run measures, in this order:
 *   TEST_w cache   MPI_File_open (create) + set_view + the write + close
 *   TEST_w disk    the same with MPI_File_sync before the close
 *   TEST_r cold    open + set_view + the read + close, after rank 0 drops
 *                  the file's pages (fsync, posix_fadvise DONTNEED on a
 *                  plain POSIX descriptor: no root needed)
 *   TEST_r warm    the same again, the file's pages now cached
 * Before each write rank 0 removes the file (dropping the last write's
 * dirty pages, so no writeback of it falls into the next figure). The
 * first write of a run is an untimed prime, the same write as "cache":
 * in this VM a page the guest has not touched lately costs a host fault
 * (measured: 128 MiB into fresh page-cache pages 1.3-1.5 s, into pages
 * just freed by an unlink 0.3-0.4 s), and the prime's pages, freed by the
 * unlink before the timed write, are what the timed writes reuse. It also
 * takes every library's first-call costs out of the figures. After
 * each write every rank checks its share of the file with plain pread
 * against the pattern (the double at file offset 8i is f(i) = i + 0.25);
 * after each read every rank checks its buffer. The time of a figure runs
 * from a barrier to the slowest rank's end (CLOCK_MONOTONIC, one node);
 * MB/s = 10^6 bytes per second of S. A run whose data is wrong prints
 * nothing but its error (exit status 1): a library that loses data posts
 * no figure.
 *
 * The floor (-F) writes and reads the same S bytes, one process, in
 * pwrite/pread calls of CHUNK bytes (after an untimed prime write, as
 * above), buffered: floor_w cache (open + the
 * writes + close), floor_w disk (+ fsync), floor_r cold (after fsync +
 * DONTNEED), floor_r warm; and with O_DIRECT where open(O_DIRECT) and an
 * aligned pwrite work in DIR (probed first; tmpfs may refuse): direct_w
 * cache (no fsync), direct_w disk (+ fsync), direct_r cold. Checked the
 * same way.
 *
 * Output (rank 0), one line a figure, after all of the run's checks passed:
 *
 *   TEST BLOCK KIND MBPS SECONDS BYTES
 *
 * BLOCK is the strided block size (0 for the other tests, the chunk for
 * the floor). Lines starting with '#' are comments.
 */
#define _GNU_SOURCE
#include <mpi.h>

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#define BENCH_NAME "io"
#include "../common.h"

enum { MAX_BLOCKS = 8, MAX_N = 2048 };

static int nranks = 1;
static int use_mpi; /* 0 in the floor: die() must not call MPI */
static char out[8192];       /* the figures, printed when every check passed */
static size_t outlen;

static void fail(const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (!use_mpi) {
        fprintf(stderr, "io: %s\n", msg);
        exit(1);
    }
    die(msg);
}

/* an MPI call that must succeed (file errors return by default) */
#define CHECK(call)                                                                    \
    do {                                                                               \
        int rc_ = (call);                                                              \
        if (rc_ != MPI_SUCCESS) {                                                      \
            char s_[MPI_MAX_ERROR_STRING];                                             \
            int l_ = 0;                                                                \
            MPI_Error_string(rc_, s_, &l_);                                            \
            fail("%s failed: %s", #call, s_);                                          \
        }                                                                              \
    } while (0)

static void figure(const char *test, long block, const char *kind, long bytes, double secs)
{
    if (rank != 0)
        return;
    int n = snprintf(out + outlen, sizeof out - outlen, "%s %ld %s %.1f %.6f %ld\n", test, block,
                     kind, (double)bytes / secs / 1e6, secs, bytes);
    if (n > 0 && (size_t)n < sizeof out - outlen)
        outlen += (size_t)n;
}

/* ---------------------------------------------------------- the pattern */

/* the double at file offset 8i: exact, distinct, never 0 */
static inline double f(long i)
{
    return (double)i + 0.25;
}

/*
 * Where element j of a rank's buffer lives in the file, as a global index
 * (file offset / 8), for each layout. A layout: the test, the rank's place
 * in it, and (strided) the block size in doubles.
 */
struct layout {
    int test;                /* BT, CONTIG, STRIDED */
    long n;                  /* bt: N */
    long nx, ny, x0, y0;     /* bt: the rank's block (all of z) */
    long count;              /* doubles per rank */
    long first;              /* contig: the rank's first index */
    long bd;                 /* strided: block size in doubles */
};
enum { BT, CONTIG, STRIDED };

static inline long where(const struct layout *l, long j)
{
    switch (l->test) {
    case BT: {
        long x = j % l->nx, y = (j / l->nx) % l->ny, z = j / (l->nx * l->ny);
        return (z * l->n + l->y0 + y) * l->n + l->x0 + x;
    }
    case CONTIG:
        return l->first + j;
    default: {
        long k = j / l->bd; /* the rank's k-th block: file block k P + rank */
        return (k * nranks + rank) * l->bd + j % l->bd;
    }
    }
}

static void fill_buf(double *buf, const struct layout *l)
{
    for (long j = 0; j < l->count; j++)
        buf[j] = f(where(l, j));
}

static void check_buf(const double *buf, const struct layout *l, const char *what)
{
    for (long j = 0; j < l->count; j++)
        if (buf[j] != f(where(l, j)))
            fail("%s: element %ld of the buffer (file index %ld) is %.17g, expected %.17g", what, j,
                 where(l, j), buf[j], f(where(l, j)));
}

/* The file's doubles [FIRST, FIRST + COUNT) against the pattern, by plain
 * pread; and its size is TOTAL bytes */
static void check_file(const char *path, long first, long count, long total, const char *what)
{
    enum { CH = 1 << 21 }; /* doubles per pread: 16 MiB */
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        fail("%s: open %s: %s", what, path, strerror(errno));
    struct stat st;
    if (fstat(fd, &st) != 0 || st.st_size != total)
        fail("%s: %s has %ld bytes, expected %ld", what, path, (long)st.st_size, total);
    double *b = xmalloc((size_t)CH * sizeof(double));
    for (long i = first; i < first + count;) {
        long m = first + count - i < CH ? first + count - i : CH;
        ssize_t got = pread(fd, b, (size_t)m * sizeof(double), (off_t)i * 8);
        if (got != (ssize_t)(m * 8))
            fail("%s: pread of %s at %ld: %s", what, path, i * 8, got < 0 ? strerror(errno) : "short");
        for (long k = 0; k < m; k++)
            if (b[k] != f(i + k))
                fail("%s: the file's double %ld (offset %ld) is %.17g, expected %.17g", what, i + k,
                     (i + k) * 8, b[k], f(i + k));
        i += m;
    }
    free(b);
    close(fd);
}

/* fsync the file and drop its pages from the page cache; warns (a '#'
 * line run.sh makes a note of) when more than a tenth of them stayed */
static void drop_cache(const char *path, const char *what)
{
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        fail("drop: open %s: %s", path, strerror(errno));
    if (fsync(fd) != 0)
        fail("drop: fsync %s: %s", path, strerror(errno));
    int e = posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
    if (e != 0)
        fail("drop: posix_fadvise %s: %s", path, strerror(e));
    struct stat st;
    long pg = sysconf(_SC_PAGESIZE);
    if (fstat(fd, &st) == 0 && st.st_size > 0) {
        void *m = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_SHARED, fd, 0);
        size_t np = (size_t)((st.st_size + pg - 1) / pg), in = 0;
        unsigned char *vec = malloc(np);
        if (m != MAP_FAILED && vec && mincore(m, (size_t)st.st_size, vec) == 0) {
            for (size_t i = 0; i < np; i++)
                in += vec[i] & 1;
            if (in * 10 > np)
                printf("# warning: %s: %zu of %zu pages still cached after fsync + DONTNEED\n", what,
                       in, np);
        }
        free(vec);
        if (m != MAP_FAILED)
            munmap(m, (size_t)st.st_size);
    }
    close(fd);
}

/* ------------------------------------------------------------ MPI tests */

static double t_start;

static void start(void)
{
    MPI_Barrier(MPI_COMM_WORLD);
    t_start = now();
}

/* from the earliest start to the latest end over the ranks */
static double stop(void)
{
    double t[2] = {-t_start, now()}, m[2];
    MPI_Allreduce(t, m, 2, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    return m[0] + m[1];
}

/* every rank done with the file (its checks too), then rank 0 removes it */
static void remove_file(const char *path)
{
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0 && unlink(path) != 0 && errno != ENOENT)
        fail("unlink %s: %s", path, strerror(errno));
    MPI_Barrier(MPI_COMM_WORLD);
}

/* the view (and for contig the offset) of the layout on FH */
static void set_view(MPI_File fh, const struct layout *l, MPI_Datatype ftype)
{
    if (l->test == BT)
        CHECK(MPI_File_set_view(fh, 0, MPI_DOUBLE, ftype, "native", MPI_INFO_NULL));
    else if (l->test == STRIDED)
        CHECK(MPI_File_set_view(fh, (MPI_Offset)rank * l->bd * 8, MPI_DOUBLE, ftype, "native",
                                MPI_INFO_NULL));
}

static void access_(MPI_File fh, const struct layout *l, double *buf, int write)
{
    int c = (int)l->count;
    MPI_Status st;
    int got = -1;
    switch (l->test) {
    case BT:
        CHECK(write ? MPI_File_write_all(fh, buf, c, MPI_DOUBLE, &st)
                    : MPI_File_read_all(fh, buf, c, MPI_DOUBLE, &st));
        break;
    case CONTIG: {
        MPI_Offset off = (MPI_Offset)l->first * 8;
        CHECK(write ? MPI_File_write_at_all(fh, off, buf, c, MPI_DOUBLE, &st)
                    : MPI_File_read_at_all(fh, off, buf, c, MPI_DOUBLE, &st));
        break;
    }
    default:
        CHECK(write ? MPI_File_write(fh, buf, c, MPI_DOUBLE, &st)
                    : MPI_File_read(fh, buf, c, MPI_DOUBLE, &st));
    }
    CHECK(MPI_Get_count(&st, MPI_DOUBLE, &got));
    if (got != c)
        fail("%s moved %d doubles, expected %d", write ? "the write" : "the read", got, c);
}

static void run_test(const struct layout *l, MPI_Datatype ftype, const char *name, long block,
                     const char *path, long total)
{
    char wname[32], rname[32], what[64];
    snprintf(wname, sizeof wname, "%s_w", name);
    snprintf(rname, sizeof rname, "%s_r", name);
    double *buf = xmalloc((size_t)l->count * sizeof(double));
    long share = total / 8 / nranks; /* doubles each rank checks in the file */
    MPI_File fh;

    /* disk -1: the untimed prime (see the header: "untimed prime") */
    for (int disk = -1; disk <= 1; disk++) {
        fill_buf(buf, l);
        remove_file(path);
        start();
        CHECK(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_WRONLY, MPI_INFO_NULL,
                            &fh));
        set_view(fh, l, ftype);
        access_(fh, l, buf, 1);
        if (disk > 0)
            CHECK(MPI_File_sync(fh));
        CHECK(MPI_File_close(&fh));
        double t = stop();
        if (disk < 0)
            continue;
        snprintf(what, sizeof what, "%s %s (block %ld)", wname, disk ? "disk" : "cache", block);
        check_file(path, rank * share, rank == nranks - 1 ? total / 8 - rank * share : share, total,
                   what);
        figure(wname, block, disk ? "disk" : "cache", total, t);
    }
    for (int warm = 0; warm <= 1; warm++) {
        /* every rank's check has read the file: drop it from the cache after them */
        MPI_Barrier(MPI_COMM_WORLD);
        if (!warm && rank == 0)
            drop_cache(path, rname);
        memset(buf, 0, (size_t)l->count * sizeof(double));
        start();
        CHECK(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_RDONLY, MPI_INFO_NULL, &fh));
        set_view(fh, l, ftype);
        access_(fh, l, buf, 0);
        CHECK(MPI_File_close(&fh));
        double t = stop();
        snprintf(what, sizeof what, "%s %s (block %ld)", rname, warm ? "warm" : "cold", block);
        check_buf(buf, l, what);
        figure(rname, block, warm ? "warm" : "cold", total, t);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    free(buf);
}

static void bt(long n, const char *path)
{
    if (nranks != 1 && nranks % 2)
        fail("bt needs 1 or an even number of ranks (1 x P/2 x 2 blocks)");
    int px = nranks > 1 ? 2 : 1, py = nranks / px;
    if (n % px || n % py)
        fail("bt: N = %ld does not divide into 1 x %d x %d blocks", n, py, px);
    struct layout l = {.test = BT, .n = n, .nx = n / px, .ny = n / py};
    l.x0 = (rank % px) * l.nx;
    l.y0 = (rank / px) * l.ny;
    l.count = n * l.nx * l.ny;
    int sizes[3] = {(int)n, (int)n, (int)n}, sub[3] = {(int)n, (int)l.ny, (int)l.nx},
        starts[3] = {0, (int)l.y0, (int)l.x0};
    MPI_Datatype ft;
    CHECK(MPI_Type_create_subarray(3, sizes, sub, starts, MPI_ORDER_C, MPI_DOUBLE, &ft));
    CHECK(MPI_Type_commit(&ft));
    run_test(&l, ft, "bt", 0, path, 8 * n * n * n);
    MPI_Type_free(&ft);
}

static void contig(long n, const char *path)
{
    long total = n * n * n; /* doubles */
    if (total % nranks)
        fail("contig: %ld doubles do not divide among %d ranks", total, nranks);
    struct layout l = {.test = CONTIG, .count = total / nranks};
    l.first = rank * l.count;
    run_test(&l, MPI_DATATYPE_NULL, "contig", 0, path, 8 * total);
}

static void strided(long n, long block, const char *path)
{
    long total = 8 * n * n * n;
    if (block % 8 || block <= 0 || total % (block * nranks))
        fail("strided: %ld bytes do not divide into blocks of %ld bytes over %d ranks", total, block,
             nranks);
    struct layout l = {.test = STRIDED, .bd = block / 8, .count = total / 8 / nranks};
    long nb = l.count / l.bd;
    if (nb > 2147483647L)
        fail("strided: too many blocks");
    MPI_Datatype ft;
    CHECK(MPI_Type_vector((int)nb, (int)l.bd, (int)(l.bd * nranks), MPI_DOUBLE, &ft));
    CHECK(MPI_Type_commit(&ft));
    run_test(&l, ft, "strided", block, path, total);
    MPI_Type_free(&ft);
}

/* ------------------------------------------------------------ the floor */

/* open PATH with FLAGS and move S bytes of BUF in CHUNK pieces; returns
 * the seconds from the open to the close (FSYNC: fsync before the close) */
static double posix_pass(const char *path, int flags, double *buf, long s, long chunk, int write,
                         int do_fsync)
{
    double t0 = now();
    int fd = open(path, flags, 0644);
    if (fd < 0)
        fail("floor: open %s: %s", path, strerror(errno));
    for (long off = 0; off < s; off += chunk) {
        long m = s - off < chunk ? s - off : chunk;
        ssize_t r = write ? pwrite(fd, (char *)buf + off, (size_t)m, off)
                          : pread(fd, (char *)buf + off, (size_t)m, off);
        if (r != m)
            fail("floor: %s of %s at %ld: %s", write ? "pwrite" : "pread", path, off,
                 r < 0 ? strerror(errno) : "short");
    }
    if (do_fsync && fsync(fd) != 0)
        fail("floor: fsync %s: %s", path, strerror(errno));
    if (close(fd) != 0)
        fail("floor: close %s: %s", path, strerror(errno));
    return now() - t0;
}

/* whether DIR takes O_DIRECT: an open and an aligned 4 KiB pwrite */
static int probe_direct(const char *path, char *why, size_t len)
{
    int fd = open(path, O_CREAT | O_WRONLY | O_TRUNC | O_DIRECT, 0644);
    if (fd < 0) {
        snprintf(why, len, "open(O_DIRECT): %s", strerror(errno));
        return 0;
    }
    void *b = xmalloc(4096);
    ssize_t r = pwrite(fd, b, 4096, 0);
    int e = errno;
    free(b);
    close(fd);
    unlink(path);
    if (r != 4096) {
        snprintf(why, len, "pwrite(O_DIRECT): %s", r < 0 ? strerror(e) : "short");
        return 0;
    }
    return 1;
}

static int floor_main(long n, long chunk, const char *dir)
{
    char path[4096], why[256];
    long s = 8 * n * n * n, count = s / 8;
    snprintf(path, sizeof path, "%s/io-floor.dat", dir);
    double *buf = xmalloc((size_t)s);
    struct layout l = {.test = CONTIG, .count = count, .first = 0};
    int direct = probe_direct(path, why, sizeof why);
    printf("# io -F: one process, %ld bytes in pwrite/pread of %ld bytes, in %s; O_DIRECT %s\n", s,
           chunk, dir, direct ? "works" : why);
    for (int d = 0; d <= direct; d++) {
        int of = d ? O_DIRECT : 0;
        const char *wn = d ? "direct_w" : "floor_w", *rn = d ? "direct_r" : "floor_r";
        for (int disk = d ? 0 : -1; disk <= 1; disk++) { /* -1: the untimed prime (buffered) */
            fill_buf(buf, &l);
            unlink(path);
            double t = posix_pass(path, O_CREAT | O_WRONLY | O_TRUNC | of, buf, s, chunk, 1, disk > 0);
            if (disk < 0)
                continue;
            check_file(path, 0, count, s, wn);
            figure(wn, chunk, disk ? "disk" : "cache", s, t);
        }
        for (int warm = 0; warm <= !d; warm++) {
            if (!warm)
                drop_cache(path, rn);
            memset(buf, 0, (size_t)s);
            double t = posix_pass(path, O_RDONLY | of, buf, s, chunk, 0, 0);
            check_buf(buf, &l, rn);
            figure(rn, chunk, warm ? "warm" : "cold", s, t);
        }
    }
    unlink(path);
    free(buf);
    fputs(out, stdout);
    return 0;
}

/* ----------------------------------------------------------------- main */

static const char usage[] =
    "usage: io -t bt|contig|strided [-n N] [-d DIR] [-s BLOCKS]   (under a launcher)\n"
    "       io -F [-n N] [-d DIR] [-s CHUNK]                       (the floor, no MPI)\n";

static long opt_n = 256;
static const char *opt_dir = ".";

static int other(int opt, const char *val)
{
    char *end;
    switch (opt) {
    case 'n':
        opt_n = strtol(val, &end, 10);
        return !*end && opt_n >= 2 && opt_n <= MAX_N;
    case 'd':
        opt_dir = val;
        return 1;
    default:
        return 0;
    }
}

int main(int argc, char **argv)
{
    long sizes[MAX_BLOCKS];
    const char *test = NULL;
    int nsizes = 0, reps = 1;
    char path[4096];

    /* the floor: before (and without) MPI; bench_options' bad-usage exit
     * calls MPI_Finalize, so the floor parses by hand */
    if (argc >= 2 && !strcmp(argv[1], "-F")) {
        long chunk = 16L << 20;
        int ok = 1;
        for (int i = 2; ok && i < argc; i += 2) {
            char *end = NULL;
            if (i + 1 >= argc || argv[i][0] != '-' || !argv[i][1] || argv[i][2] != '\0')
                ok = 0;
            else if (argv[i][1] == 's')
                chunk = parse_size(argv[i + 1], &end), ok = !*end && chunk > 0 && chunk % 4096 == 0;
            else
                ok = other(argv[i][1], argv[i + 1]);
        }
        if (!ok) {
            fputs(usage, stderr);
            fputs("(io -F: CHUNK is a positive multiple of 4 KiB)\n", stderr);
            return 2;
        }
        return floor_main(opt_n, chunk, opt_dir);
    }

    MPI_Init(&argc, &argv);
    use_mpi = 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nranks);
    nsizes = parse_sizes("4K,256", sizes, MAX_BLOCKS);
    bench_options(argc, argv, usage, &test, sizes, MAX_BLOCKS, &nsizes, &reps, other);
    if (!test)
        fail("no test (-t bt, contig or strided)");
    if (8 * opt_n * opt_n * opt_n / nranks / 8 > 2147483647L)
        fail("N = %ld is too large: a rank's count exceeds an int", opt_n);
    snprintf(path, sizeof path, "%s/io-%s.dat", opt_dir, test);
    if (rank == 0) {
        printf("# io test=%s N=%ld bytes=%ld ranks=%d dir=%s library=%s\n", test, opt_n,
               8 * opt_n * opt_n * opt_n, nranks, opt_dir, library_version());
        printf("# test block kind MB/s seconds bytes\n");
        fflush(stdout);
    }
    if (!strcmp(test, "bt"))
        bt(opt_n, path);
    else if (!strcmp(test, "contig"))
        contig(opt_n, path);
    else if (!strcmp(test, "strided"))
        for (int i = 0; i < nsizes; i++)
            strided(opt_n, sizes[i], path);
    else
        fail("unknown test %s (bt, contig, strided)", test);
    remove_file(path);
    if (rank == 0) {
        fputs(out, stdout);
        fflush(stdout);
    }
    MPI_Finalize();
    return 0;
}

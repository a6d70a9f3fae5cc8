/* MPI test: nonblocking collective file access (MPI_File_iwrite_all,
 * iread_all, iwrite_at_all, iread_at_all; runtime/io/coll.c) and the
 * split collectives that now run the same way, on 1-4 ranks:
 *   A. two-phase forced with 4 KiB rounds: a 2-D array of ints written by
 *      column blocks (the ranks' rows interleave in the file) while the
 *      ranks pass messages around a ring, then read back by row blocks;
 *   B. the automatic choice (per-rank contiguous blocks: each rank's own
 *      access, on the I/O thread), a read across the end of the file;
 *   C. two nonblocking collectives and a blocking one in flight on one
 *      file at once, waited for in reverse order;
 *   D. MPI_Request_free of one, then MPI_File_close;
 *   E. split collectives with communication between begin and end;
 *   F. errors: one rank's bad count (the others' waits fail with its
 *      class, naming it), every rank's (each at its call), a full device
 *      (every wait fails), and the file usable after each;
 *   G. hints changed by MPI_File_set_info while an access is pending:
 *      every rank plans it by the hints of its call;
 *   H. a rank that fails at its call and then only finalizes: the others'
 *      waits still end with its class.
 * Every file is checked byte by byte by POSIX pread against an image
 * computed here; every status count is checked. argv[1]: a directory
 * (io_nbcoll.sh). */
#include <fcntl.h>
#include <mpi.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "iotest.h"
#include "mtest.h"

static int rank, size;
static char dir[900];

static void path(char *out, const char *name)
{
    snprintf(out, 1024, "%s/%s", dir, name);
}

static int cls_of(int rc)
{
    int c = -1;
    if (rc != MPI_SUCCESS)
        MPI_Error_class(rc, &c);
    else
        c = MPI_SUCCESS;
    return c;
}

static int count_of(MPI_Status *st, MPI_Datatype t)
{
    int c = -7;
    MPI_Get_count(st, t, &c);
    return c;
}

/* a ring exchange of k rounds, checked: communication while a
 * nonblocking collective access is in flight (its progress comes from
 * these calls too) */
static int ring(int k)
{
    int good = 1;
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    for (int i = 0; i < k; i++) {
        int out[64], in[64];
        for (int j = 0; j < 64; j++)
            out[j] = rank * 100000 + i * 100 + j;
        MPI_Request q[2];
        MPI_Irecv(in, 64, MPI_INT, left, 70 + i, MPI_COMM_WORLD, &q[0]);
        MPI_Isend(out, 64, MPI_INT, right, 70 + i, MPI_COMM_WORLD, &q[1]);
        MPI_Waitall(2, q, MPI_STATUSES_IGNORE);
        for (int j = 0; j < 64; j++)
            good &= in[j] == left * 100000 + i * 100 + j;
    }
    return good;
}

/* ---- A. two phases, many rounds, overlapped with a ring */
#define ROWS 48
#define BW 40 /* columns a rank holds in the write */

static int cell(int i, int j, int cols)
{
    return i * cols + j + 1;
}

static void two_phase(void)
{
    char p[1024];
    path(p, "a");
    int cols = BW * size;
    MPI_Info info;
    MPI_Info_create(&info);
    MPI_Info_set(info, "romio_cb_write", "enable");
    MPI_Info_set(info, "romio_cb_read", "enable");
    MPI_Info_set(info, "cb_buffer_size", "4096");
    MPI_File fh;
    int rc = MPI_File_open(MPI_COMM_WORLD, p, MPI_MODE_CREATE | MPI_MODE_RDWR, info, &fh);
    MPI_Info_free(&info);
    mt_is_int(rc, MPI_SUCCESS, "A: open with two phases forced, 4 KiB rounds");
    if (rc != MPI_SUCCESS)
        return;
    int gs[2] = {ROWS, cols}, ss[2] = {ROWS, BW}, st0[2] = {0, rank * BW};
    MPI_Datatype cblk, rblk;
    MPI_Type_create_subarray(2, gs, ss, st0, MPI_ORDER_C, MPI_INT, &cblk);
    MPI_Type_commit(&cblk);
    MPI_File_set_view(fh, 0, MPI_INT, cblk, "native", MPI_INFO_NULL);
    int *buf = malloc(sizeof(int) * ROWS * BW);
    for (int i = 0; i < ROWS; i++)
        for (int j = 0; j < BW; j++)
            buf[i * BW + j] = cell(i, rank * BW + j, cols);
    MPI_Request req;
    rc = MPI_File_iwrite_all(fh, buf, ROWS * BW, MPI_INT, &req);
    mt_is_int(rc, MPI_SUCCESS, "A: iwrite_all of a column block starts");
    MPI_Offset pos = -1;
    MPI_File_get_position(fh, &pos);
    mt_is_int((int)pos, ROWS * BW, "A: the individual pointer moved at the call, past %d ints", ROWS * BW);
    mt_ok(ring(8), "A: 8 ring exchanges while the write is in flight, every value right");
    MPI_Status st;
    rc = MPI_Wait(&req, &st);
    mt_is_int(rc, MPI_SUCCESS, "A: its Wait succeeds");
    mt_is_int(count_of(&st, MPI_INT), ROWS * BW, "A: its status counts %d ints", ROWS * BW);
    MPI_Barrier(MPI_COMM_WORLD);
    long n = (long)ROWS * cols * (long)sizeof(int);
    int *img = malloc((size_t)n);
    for (int i = 0; i < ROWS; i++)
        for (int j = 0; j < cols; j++)
            img[i * cols + j] = cell(i, j, cols);
    mt_ok(io_file_is(p, (unsigned char *)img, n), "A: the file (%ld bytes) holds the whole array, by POSIX", n);

    /* read back by row blocks: another decomposition */
    int rows = ROWS / size, r0 = rank * rows;
    int ss2[2] = {rows, cols}, st2[2] = {r0, 0};
    MPI_Type_create_subarray(2, gs, ss2, st2, MPI_ORDER_C, MPI_INT, &rblk);
    MPI_Type_commit(&rblk);
    MPI_File_set_view(fh, 0, MPI_INT, rblk, "native", MPI_INFO_NULL);
    int *in = malloc(sizeof(int) * rows * cols);
    memset(in, 0, sizeof(int) * rows * cols);
    rc = MPI_File_iread_all(fh, in, rows * cols, MPI_INT, &req);
    mt_is_int(rc, MPI_SUCCESS, "A: iread_all of a row block starts");
    int flag = 0;
    while (!flag)
        MPI_Test(&req, &flag, &st);
    mt_is_int(count_of(&st, MPI_INT), rows * cols, "A: MPI_Test completes it, status counts %d ints", rows * cols);
    mt_ok(memcmp(in, img + (size_t)r0 * cols, sizeof(int) * rows * cols) == 0,
          "A: rows [%d, %d) read back right", r0, r0 + rows);
    MPI_File_close(&fh);
    MPI_Type_free(&cblk);
    MPI_Type_free(&rblk);
    free(in);
    free(img);
    free(buf);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0)
        unlink(p);
}

/* ---- B. the automatic choice: contiguous blocks, each rank's own access */
#define BLK 100000

static unsigned char pb(int r, long i)
{
    return (unsigned char)(i * 7 + (i >> 8) + 31 * r + 5);
}

static void own_access(void)
{
    char p[1024];
    path(p, "b");
    MPI_File fh;
    int rc = MPI_File_open(MPI_COMM_WORLD, p, MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL, &fh);
    mt_is_int(rc, MPI_SUCCESS, "B: open");
    if (rc != MPI_SUCCESS)
        return;
    unsigned char *b = malloc(2 * BLK);
    for (long i = 0; i < BLK; i++)
        b[i] = pb(rank, i);
    MPI_Request req;
    MPI_Status st;
    rc = MPI_File_iwrite_at_all(fh, (MPI_Offset)rank * BLK, b, BLK, MPI_BYTE, &req);
    mt_is_int(rc, MPI_SUCCESS, "B: iwrite_at_all of a %d-byte block at rank x %d starts", BLK, BLK);
    mt_ok(ring(2), "B: 2 ring exchanges meanwhile");
    rc = MPI_Wait(&req, &st);
    mt_ok(rc == MPI_SUCCESS && count_of(&st, MPI_BYTE) == BLK, "B: Wait: success, count %d", BLK);
    MPI_Barrier(MPI_COMM_WORLD);
    long n = (long)size * BLK;
    unsigned char *img = malloc((size_t)n);
    for (int r = 0; r < size; r++)
        for (long i = 0; i < BLK; i++)
            img[(long)r * BLK + i] = pb(r, i);
    mt_ok(io_file_is(p, img, n), "B: the file (%ld bytes), by POSIX", n);
    /* 2 blocks from rank x BLK: the last rank's read stops at the end */
    memset(b, 0, 2 * BLK);
    rc = MPI_File_iread_at_all(fh, (MPI_Offset)rank * BLK, b, 2 * BLK, MPI_BYTE, &req);
    mt_is_int(rc, MPI_SUCCESS, "B: iread_at_all of 2 blocks starts");
    rc = MPI_Wait(&req, &st);
    long want = rank == size - 1 ? BLK : 2 * BLK;
    mt_ok(rc == MPI_SUCCESS && count_of(&st, MPI_BYTE) == want, "B: Wait: success, count %ld (the end of the file)",
          want);
    mt_ok(memcmp(b, img + (long)rank * BLK, (size_t)want) == 0, "B: the bytes read are the file's");
    MPI_File_close(&fh);
    free(img);
    free(b);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0)
        unlink(p);
}

/* ---- C. several collectives in flight on one file; D. Request_free */
#define CB 4096

static void in_flight(void)
{
    char p[1024];
    path(p, "c");
    MPI_Info info;
    MPI_Info_create(&info);
    MPI_Info_set(info, "romio_cb_write", "enable");
    MPI_Info_set(info, "cb_buffer_size", "4096");
    MPI_File fh;
    int rc = MPI_File_open(MPI_COMM_WORLD, p, MPI_MODE_CREATE | MPI_MODE_WRONLY, info, &fh);
    MPI_Info_free(&info);
    mt_is_int(rc, MPI_SUCCESS, "C: open");
    if (rc != MPI_SUCCESS)
        return;
    /* three regions of size x CB bytes; in each, rank r's bytes are every
     * size-th byte from r (a vector view: the ranks interleave byte by
     * byte, so two phases are needed) */
    MPI_Datatype vec, ft;
    MPI_Type_vector(CB, 1, size, MPI_BYTE, &vec);
    MPI_Type_create_resized(vec, 0, (MPI_Aint)CB * size, &ft);
    MPI_Type_commit(&ft);
    MPI_File_set_view(fh, rank, MPI_BYTE, ft, "native", MPI_INFO_NULL);
    unsigned char *w = malloc(3 * CB);
    for (int k = 0; k < 3; k++)
        for (int i = 0; i < CB; i++)
            w[k * CB + i] = (unsigned char)(k * 60 + rank * 13 + i % 11 + 1);
    MPI_Request q[2];
    MPI_Status st[2];
    rc = MPI_File_iwrite_at_all(fh, 0, w, CB, MPI_BYTE, &q[0]);
    mt_is_int(rc, MPI_SUCCESS, "C: iwrite_at_all of region 0 starts");
    rc = MPI_File_write_at_all(fh, CB, w + CB, CB, MPI_BYTE, MPI_STATUS_IGNORE);
    mt_is_int(rc, MPI_SUCCESS, "C: a blocking write_at_all of region 1 meanwhile");
    rc = MPI_File_iwrite_at_all(fh, 2 * CB, w + 2 * CB, CB, MPI_BYTE, &q[1]);
    mt_is_int(rc, MPI_SUCCESS, "C: iwrite_at_all of region 2 starts");
    rc = MPI_Wait(&q[1], &st[1]);
    mt_ok(rc == MPI_SUCCESS && count_of(&st[1], MPI_BYTE) == CB, "C: region 2's Wait first: success, count %d", CB);
    rc = MPI_Wait(&q[0], &st[0]);
    mt_ok(rc == MPI_SUCCESS && count_of(&st[0], MPI_BYTE) == CB, "C: then region 0's: success, count %d", CB);
    MPI_Barrier(MPI_COMM_WORLD);
    long n = 3L * CB * size;
    unsigned char *img = malloc((size_t)n);
    for (long x = 0; x < n; x++) {
        long k = x / ((long)CB * size), i = (x % ((long)CB * size)) / size;
        int r = (int)(x % size);
        img[x] = (unsigned char)(k * 60 + r * 13 + i % 11 + 1);
    }
    mt_ok(io_file_is(p, img, n), "C: the file (%ld bytes, 3 regions, ranks interleaved byte by byte), by POSIX", n);

    /* D: a request freed in flight; close waits for it */
    for (int i = 0; i < CB; i++)
        w[i] = (unsigned char)(200 + rank + i % 7);
    rc = MPI_File_iwrite_at_all(fh, 3 * CB, w, CB, MPI_BYTE, &q[0]);
    mt_is_int(rc, MPI_SUCCESS, "D: iwrite_at_all of region 3 starts");
    rc = MPI_Request_free(&q[0]);
    mt_ok(rc == MPI_SUCCESS && q[0] == MPI_REQUEST_NULL, "D: MPI_Request_free of it");
    rc = MPI_File_close(&fh);
    mt_is_int(rc, MPI_SUCCESS, "D: MPI_File_close");
    MPI_Barrier(MPI_COMM_WORLD);
    img = realloc(img, (size_t)(n + (long)CB * size));
    for (long x = n; x < n + (long)CB * size; x++)
        img[x] = (unsigned char)(200 + x % size + ((x - n) / size) % 7);
    mt_ok(io_file_is(p, img, n + (long)CB * size), "D: region 3 is in the file after the close, by POSIX");
    MPI_Type_free(&vec);
    MPI_Type_free(&ft);
    free(img);
    free(w);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0)
        unlink(p);
}

/* ---- E. split collectives: begin, communication, end */
static void split(void)
{
    char p[1024];
    path(p, "e");
    MPI_File fh;
    MPI_Info info;
    MPI_Info_create(&info);
    MPI_Info_set(info, "romio_cb_write", "enable");
    MPI_Info_set(info, "romio_cb_read", "enable");
    int rc = MPI_File_open(MPI_COMM_WORLD, p, MPI_MODE_CREATE | MPI_MODE_RDWR, info, &fh);
    MPI_Info_free(&info);
    mt_is_int(rc, MPI_SUCCESS, "E: open");
    if (rc != MPI_SUCCESS)
        return;
    /* rank r's ints are r, r + size, ...: 1000 each */
    MPI_Datatype vec, ft;
    MPI_Type_vector(1000, 1, size, MPI_INT, &vec);
    MPI_Type_create_resized(vec, 0, (MPI_Aint)(1000 * size * sizeof(int)), &ft);
    MPI_Type_commit(&ft);
    MPI_File_set_view(fh, (MPI_Offset)(rank * sizeof(int)), MPI_INT, ft, "native", MPI_INFO_NULL);
    int w[1000], r[1000];
    for (int i = 0; i < 1000; i++)
        w[i] = (i * size + rank) * 3 + 7;
    rc = MPI_File_write_all_begin(fh, w, 1000, MPI_INT);
    mt_is_int(rc, MPI_SUCCESS, "E: write_all_begin");
    mt_ok(ring(3), "E: 3 ring exchanges between begin and end");
    MPI_Status st;
    rc = MPI_File_write_all_end(fh, w, &st);
    mt_ok(rc == MPI_SUCCESS && count_of(&st, MPI_INT) == 1000, "E: write_all_end: success, count 1000");
    rc = MPI_File_read_at_all_begin(fh, 0, r, 1000, MPI_INT);
    mt_is_int(rc, MPI_SUCCESS, "E: read_at_all_begin");
    rc = MPI_File_read_at_all_begin(fh, 0, r, 1000, MPI_INT);
    mt_is_int(cls_of(rc), MPI_ERR_IO, "E: a second begin while one is active: MPI_ERR_IO");
    mt_ok(ring(1), "E: a ring exchange");
    rc = MPI_File_read_at_all_end(fh, r, &st);
    mt_ok(rc == MPI_SUCCESS && count_of(&st, MPI_INT) == 1000 && memcmp(r, w, sizeof w) == 0,
          "E: read_at_all_end: success, count 1000, the ints written");
    MPI_Barrier(MPI_COMM_WORLD);
    long n = 1000L * size * (long)sizeof(int);
    int *img = malloc((size_t)n);
    for (int i = 0; i < 1000 * size; i++)
        img[i] = i * 3 + 7;
    mt_ok(io_file_is(p, (unsigned char *)img, n), "E: the file (%ld bytes), by POSIX", n);
    free(img);
    MPI_File_close(&fh);
    MPI_Type_free(&vec);
    MPI_Type_free(&ft);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0)
        unlink(p);
}

/* ---- F. errors */
static void errors(void)
{
    char p[1024];
    path(p, "f");
    MPI_File fh;
    int rc = MPI_File_open(MPI_COMM_WORLD, p, MPI_MODE_CREATE | MPI_MODE_WRONLY, MPI_INFO_NULL, &fh);
    mt_is_int(rc, MPI_SUCCESS, "F: open WRONLY");
    if (rc != MPI_SUCCESS)
        return;
    int b[256];
    for (int i = 0; i < 256; i++)
        b[i] = rank * 1000 + i;
    MPI_Request req = MPI_REQUEST_NULL;
    MPI_Status st;
    int bad = size - 1;
    /* one rank's bad count: it fails at its call, the others at their wait */
    rc = MPI_File_iwrite_at_all(fh, (MPI_Offset)rank * 1024, b, rank == bad ? -1 : 256, MPI_INT, &req);
    if (rank == bad) {
        ERR_IS(rc, MPI_ERR_COUNT, "MPI_File_iwrite_at_all", "count", "F: rank %d's count -1: MPI_ERR_COUNT at its call",
               bad);
        mt_ok(req == MPI_REQUEST_NULL, "F: no request made");
    } else {
        mt_is_int(rc, MPI_SUCCESS, "F: the other ranks' calls start");
        rc = MPI_Wait(&req, &st);
        char cause[64];
        snprintf(cause, sizeof cause, "rank %d", bad);
        ERR_IS(rc, MPI_ERR_COUNT, "MPI_Wait", cause, "F: their Wait fails with MPI_ERR_COUNT, naming rank %d", bad);
    }
    /* every rank's error at its call: reading a WRONLY file */
    rc = MPI_File_iread_all(fh, b, 256, MPI_INT, &req);
    ERR_IS(rc, MPI_ERR_ACCESS, "MPI_File_iread_all", "", "F: iread_all of a WRONLY file: MPI_ERR_ACCESS at every rank");
    rc = MPI_File_iwrite_all(fh, b, 256, MPI_INT, NULL);
    ERR_IS(rc, MPI_ERR_ARG, "MPI_File_iwrite_all", "request", "F: a NULL request: MPI_ERR_ARG at every rank");
    /* the file still works: the ranks' collectives are in step */
    rc = MPI_File_iwrite_at_all(fh, (MPI_Offset)rank * 1024, b, 256, MPI_INT, &req);
    mt_is_int(rc, MPI_SUCCESS, "F: then a good iwrite_at_all starts");
    rc = MPI_Wait(&req, &st);
    mt_ok(rc == MPI_SUCCESS && count_of(&st, MPI_INT) == 256, "F: and ends: success, count 256");
    MPI_Barrier(MPI_COMM_WORLD);
    long n = 1024L * size;
    int *img = malloc((size_t)n);
    for (int r = 0; r < size; r++)
        for (int i = 0; i < 256; i++)
            img[r * 256 + i] = r * 1000 + i;
    mt_ok(io_file_is(p, (unsigned char *)img, n), "F: the file (%ld bytes), by POSIX", n);
    free(img);
    MPI_File_close(&fh);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0)
        unlink(p);

    /* a device that is always full: every rank's wait fails, through the
     * file's handler (MPI_ERRORS_RETURN), and the program goes on */
    rc = MPI_File_open(MPI_COMM_WORLD, "/dev/full", MPI_MODE_WRONLY, MPI_INFO_NULL, &fh);
    mt_is_int(rc, MPI_SUCCESS, "F: open /dev/full");
    if (rc != MPI_SUCCESS)
        return;
    rc = MPI_File_iwrite_at_all(fh, (MPI_Offset)rank * 1024, b, 256, MPI_INT, &req);
    mt_is_int(rc, MPI_SUCCESS, "F: iwrite_at_all to /dev/full starts");
    rc = MPI_Wait(&req, &st);
    ERR_IS(rc, MPI_ERR_NO_SPACE, "MPI_Wait", "/dev/full", "F: its Wait fails with MPI_ERR_NO_SPACE, naming the file");
    MPI_Info info;
    MPI_Info_create(&info);
    MPI_Info_set(info, "romio_cb_write", "enable");
    MPI_File_set_info(fh, info);
    MPI_Info_free(&info);
    rc = MPI_File_iwrite_at_all(fh, (MPI_Offset)rank * 1024, b, 256, MPI_INT, &req);
    rc = rc == MPI_SUCCESS ? MPI_Wait(&req, &st) : rc;
    ERR_IS(rc, MPI_ERR_NO_SPACE, "MPI_Wait", "", "F: the same with two phases forced: MPI_ERR_NO_SPACE at every rank");
    rc = MPI_File_close(&fh);
    mt_is_int(rc, MPI_SUCCESS, "F: close /dev/full");
}

/* ---- G. the plan is the call's: hints changed while an access is pending.
 * In pairs of ranks (MPI_COMM_WORLD split by rank / 2): pair rank 0
 * starts an iwrite_all with two phases enabled, then MPI_File_set_info
 * disables them (the Bcast's root needs nobody), then lets pair rank 1
 * start; rank 1's MPI_Test finds the first exchange in before its own
 * set_info. Each rank must plan the access by the hints of its call:
 * one planning two phases and the other its own access wait for each
 * other's messages for ever. */
#define GN 1000

static int test_for(MPI_Request *req, MPI_Status *st, int *rc)
{
    int flag = 0;
    double t0 = MPI_Wtime();
    while (!flag && MPI_Wtime() - t0 < 30)
        *rc = MPI_Test(req, &flag, st);
    return flag;
}

static void plan_at_call(void)
{
    MPI_Comm pair;
    MPI_Comm_split(MPI_COMM_WORLD, rank / 2, rank, &pair);
    int pr, ps;
    MPI_Comm_rank(pair, &pr);
    MPI_Comm_size(pair, &ps);
    char p[1024], name[16];
    snprintf(name, sizeof name, "g%d", rank / 2);
    path(p, name);
    MPI_Info info;
    MPI_Info_create(&info);
    MPI_Info_set(info, "romio_cb_write", "enable");
    MPI_File fh;
    int rc = MPI_File_open(pair, p, MPI_MODE_CREATE | MPI_MODE_WRONLY, info, &fh);
    mt_is_int(rc, MPI_SUCCESS, "G: open");
    if (rc != MPI_SUCCESS) {
        MPI_Info_free(&info);
        MPI_Comm_free(&pair);
        return;
    }
    /* the pair's ints interleave: pair rank r's are r, r + ps, ... */
    MPI_Datatype vec, ft;
    MPI_Type_vector(GN, 1, ps, MPI_INT, &vec);
    MPI_Type_create_resized(vec, 0, (MPI_Aint)(GN * ps * sizeof(int)), &ft);
    MPI_Type_commit(&ft);
    MPI_File_set_view(fh, (MPI_Offset)(pr * sizeof(int)), MPI_INT, ft, "native", MPI_INFO_NULL);
    int w[GN];
    for (int i = 0; i < GN; i++)
        w[i] = (i * ps + pr) * 5 + 3;
    MPI_Info_set(info, "romio_cb_write", "disable");
    MPI_Request req = MPI_REQUEST_NULL;
    MPI_Status st;
    int token = 0, done = 0, trc = MPI_SUCCESS;
    if (pr == 0) {
        rc = MPI_File_iwrite_all(fh, w, GN, MPI_INT, &req);
        mt_is_int(rc, MPI_SUCCESS, "G: iwrite_all starts (two phases enabled)");
        rc = MPI_File_set_info(fh, info);
        mt_is_int(rc, MPI_SUCCESS, "G: set_info disables two phases while it is pending");
        if (ps > 1)
            MPI_Send(&token, 1, MPI_INT, 1, 90, pair);
    } else {
        MPI_Recv(&token, 1, MPI_INT, 0, 90, pair, MPI_STATUS_IGNORE);
        rc = MPI_File_iwrite_all(fh, w, GN, MPI_INT, &req);
        mt_is_int(rc, MPI_SUCCESS, "G: iwrite_all starts (two phases enabled)");
        trc = MPI_Test(&req, &done, &st);
        rc = MPI_File_set_info(fh, info);
        mt_is_int(rc, MPI_SUCCESS, "G: set_info disables two phases while it is pending");
    }
    if (!done)
        done = test_for(&req, &st, &trc);
    mt_ok(done, "G: the access ends within 30 s on every rank");
    if (!done) {
        printf("not ok [rank %d] G: hung; aborting\n", rank);
        fflush(stdout);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    mt_ok(trc == MPI_SUCCESS && count_of(&st, MPI_INT) == GN, "G: success, count %d", GN);
    MPI_Barrier(pair);
    long n = (long)GN * ps * (long)sizeof(int);
    int *img = malloc((size_t)n);
    for (int i = 0; i < GN * ps; i++)
        img[i] = i * 5 + 3;
    mt_ok(io_file_is(p, (unsigned char *)img, n), "G: the file (%ld bytes), by POSIX", n);
    free(img);
    MPI_Info_free(&info);
    MPI_File_close(&fh);
    MPI_Type_free(&vec);
    MPI_Type_free(&ft);
    MPI_Barrier(pair);
    if (pr == 0)
        unlink(p);
    MPI_Comm_free(&pair);
}

/* ---- H. a rank fails its own check, then calls MPI_Finalize and nothing
 * else: the others' waits still end with its class (MPI_Finalize finishes
 * the failing rank's part). The file is never closed (a close would move
 * the failing rank's part too): the handle is kept in a static, and the
 * name is removed at once. */
static MPI_File h_fh;

static void fail_then_finalize(void)
{
    char p[1024];
    path(p, "h");
    int rc = MPI_File_open(MPI_COMM_WORLD, p, MPI_MODE_CREATE | MPI_MODE_WRONLY, MPI_INFO_NULL, &h_fh);
    mt_is_int(rc, MPI_SUCCESS, "H: open");
    if (rc != MPI_SUCCESS)
        return;
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0)
        unlink(p);
    int bad = size - 1, b[4] = {1, 2, 3, 4};
    MPI_Request req = MPI_REQUEST_NULL;
    rc = MPI_File_iwrite_at_all(h_fh, (MPI_Offset)rank * 16, b, rank == bad ? -1 : 4, MPI_INT, &req);
    if (rank == bad) {
        mt_is_int(cls_of(rc), MPI_ERR_COUNT, "H: rank %d's count -1 fails at its call; it finalizes at once", bad);
        return;
    }
    rc = MPI_Wait(&req, MPI_STATUS_IGNORE);
    mt_is_int(cls_of(rc), MPI_ERR_COUNT, "H: the others' waits end with MPI_ERR_COUNT");
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    mt_rank = rank;
    if (argc < 2 || size > 4 || ROWS % size) {
        if (rank == 0)
            printf("not ok [rank 0] usage: io_nbcoll DIR, on 1-4 ranks\n");
        MPI_Finalize();
        return 1;
    }
    snprintf(dir, sizeof dir, "%s", argv[1]);
    two_phase();
    own_access();
    in_flight();
    split();
    errors();
    plan_at_call();
    MPI_Barrier(MPI_COMM_WORLD);
    fail_then_finalize();
    MPI_Finalize();
    return mt_done();
}

/* MPI test: nonblocking file access (runtime/io/PLAN.md stage 5) on 2
 * ranks. An 8 MiB iwrite_at reaches the file while the rank computes
 * without any MPI call (POSIX pread in a loop bounded by a deadline);
 * iwrite/iread with the individual pointer (moved at the call) overlapped
 * with a point-to-point exchange, completed by Waitall and Testany over
 * mixed requests; MPI_Request_free of I/O requests (the data is there
 * after waiting only for a later operation, then after close); MPI_Cancel
 * cancels nothing; short reads at the end of the file; status counts; the
 * classes of bad arguments at the call and of a failing device at the
 * wait (MPI_ERR_IN_STATUS in Waitall). Files' bytes are checked by POSIX
 * pread against images computed here. argv[1]: a directory (io_nb.sh). */
#include <fcntl.h>
#include <mpi.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "mtest.h"

static int rank, size, peer;
static char dir[900];

static void path(char *out, const char *name)
{
    snprintf(out, 1024, "%s/%s", dir, name);
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* byte i of a region of file `f`'s image, written by rank r */
static unsigned char pat(int f, int r, long i)
{
    return (unsigned char)(i * 13 + (i >> 9) + 41 * r + 97 * f + 1);
}

/* n bytes at off of the file p by POSIX: 1 if all are pat(f, r, i) */
static int region_is(const char *p, long off, long n, int f, int r, int quiet)
{
    int fd = open(p, O_RDONLY);
    if (fd < 0)
        return 0;
    unsigned char *b = malloc((size_t)n);
    long got = 0;
    while (got < n) {
        ssize_t k = pread(fd, b + got, (size_t)(n - got), off + got);
        if (k <= 0)
            break;
        got += k;
    }
    close(fd);
    int ok = got == n;
    for (long i = 0; ok && i < n; i++)
        if (b[i] != pat(f, r, i)) {
            if (!quiet)
                printf("# [rank %d] %s: byte %ld is %d, expected %d\n", rank, p, off + i, b[i], pat(f, r, i));
            ok = 0;
        }
    free(b);
    return ok;
}

static void fill(unsigned char *b, long n, int f, int r)
{
    for (long i = 0; i < n; i++)
        b[i] = pat(f, r, i);
}

static int count_of(MPI_Status *st, MPI_Datatype t)
{
    int c = -7;
    MPI_Get_count(st, t, &c);
    return c;
}

/* ---- 1. progress without MPI calls */
#define BIG (8L << 20)

static void no_mpi_progress(void)
{
    char p[1024];
    path(p, "big");
    MPI_File fh;
    int rc = MPI_File_open(MPI_COMM_WORLD, p, MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL, &fh);
    mt_is_int(rc, MPI_SUCCESS, "open big");
    int *buf = malloc(BIG);
    fill((unsigned char *)buf, BIG, 1, rank);
    MPI_Request r;
    rc = MPI_File_iwrite_at(fh, (MPI_Offset)rank * BIG, buf, (int)(BIG / sizeof(int)), MPI_INT, &r);
    mt_is_int(rc, MPI_SUCCESS, "iwrite_at of 8 MiB at rank * 8 MiB");
    /* no MPI call from here until the bytes are all in the file: only the
     * I/O thread can put them there */
    double end = now() + 60, t0 = now();
    unsigned long spin = 0, sum = 0;
    int there = 0, polls = 0;
    while (!there && now() < end) {
        for (int k = 0; k < 20000; k++) /* compute */
            sum += (unsigned long)k * spin++;
        polls++;
        there = region_is(p, (long)rank * BIG, BIG, 1, rank, 1);
    }
    mt_ok(there, "the 8 MiB reached the file with no MPI call (%d polls, %.3f s)", polls, now() - t0);
    MPI_Status st;
    rc = MPI_Wait(&r, &st);
    mt_ok(rc == MPI_SUCCESS && r == MPI_REQUEST_NULL, "Wait completes it and frees the request");
    mt_is_int(count_of(&st, MPI_INT), BIG / sizeof(int), "status: count in ints");
    int tc = -1;
    MPI_Test_cancelled(&st, &tc);
    mt_is_int(tc, 0, "not cancelled");
    MPI_File_close(&fh);
    free(buf);
    MPI_Barrier(MPI_COMM_WORLD);
    struct stat sb;
    mt_ok(stat(p, &sb) == 0 && sb.st_size == size * BIG, "after close and a barrier: the file is 2 x 8 MiB");
    mt_ok(region_is(p, (long)peer * BIG, BIG, 1, peer, 0), "and the peer's 8 MiB are there");
    if (rank == 0)
        unlink(p);
    (void)sum;
}

/* ---- 2. the individual pointer, overlapped with an exchange, mixed waits */
#define CH 300000L   /* bytes per chunk */
#define MSG (1 << 20)

static void pointer_and_p2p(void)
{
    char p[1024];
    path(p, "ptr");
    MPI_File fh;
    int rc = MPI_File_open(MPI_COMM_WORLD, p, MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL, &fh);
    mt_is_int(rc, MPI_SUCCESS, "open ptr");
    unsigned char *w = malloc(3 * CH), *rd = malloc(3 * CH);
    fill(w, 3 * CH, 2, rank);
    char *sbuf = malloc(MSG), *rbuf = malloc(MSG);
    for (int i = 0; i < MSG; i++)
        sbuf[i] = (char)(i * 3 + rank);
    memset(rbuf, 0, MSG);

    MPI_File_seek(fh, (MPI_Offset)rank * 3 * CH, MPI_SEEK_SET);
    MPI_Request q[5];
    MPI_Irecv(rbuf, MSG, MPI_CHAR, peer, 7, MPI_COMM_WORLD, &q[0]);
    MPI_Offset pos[3];
    for (int k = 0; k < 3; k++) {
        rc = MPI_File_iwrite(fh, w + k * CH, (int)CH, MPI_BYTE, &q[1 + k]);
        MPI_File_get_position(fh, &pos[k]);
        mt_ok(rc == MPI_SUCCESS && pos[k] == (MPI_Offset)rank * 3 * CH + (k + 1) * CH,
              "iwrite %d: the pointer moved past it at the call (%lld)", k, (long long)pos[k]);
    }
    MPI_Isend(sbuf, MSG, MPI_CHAR, peer, 7, MPI_COMM_WORLD, &q[4]);
    MPI_Status st[5];
    rc = MPI_Waitall(5, q, st);
    mt_is_int(rc, MPI_SUCCESS, "Waitall over a receive, three iwrites and a send");
    int good = 1;
    for (int i = 0; i < MSG && good; i++)
        good = rbuf[i] == (char)(i * 3 + peer);
    mt_ok(good, "the exchanged megabyte arrived");
    mt_is_int(count_of(&st[0], MPI_CHAR), MSG, "the receive's status counts its bytes");
    mt_ok(count_of(&st[1], MPI_BYTE) == CH && count_of(&st[2], MPI_BYTE) == CH &&
              count_of(&st[3], MPI_BYTE) == CH,
          "each iwrite's status counts its bytes");
    mt_ok(region_is(p, (long)rank * 3 * CH, 3 * CH, 2, rank, 0), "the three chunks are in the file, in order");

    /* read back by the pointer, exchange again, Testany until all done */
    MPI_File_seek(fh, (MPI_Offset)rank * 3 * CH, MPI_SEEK_SET);
    memset(rd, 0, 3 * CH);
    memset(rbuf, 0, MSG);
    MPI_Irecv(rbuf, MSG, MPI_CHAR, peer, 8, MPI_COMM_WORLD, &q[0]);
    for (int k = 0; k < 3; k++)
        MPI_File_iread(fh, rd + k * CH, (int)CH, MPI_BYTE, &q[1 + k]);
    MPI_File_get_position(fh, &pos[0]);
    mt_is_int(pos[0], (MPI_Offset)rank * 3 * CH + 3 * CH, "three iread calls moved the pointer past them");
    MPI_Isend(sbuf, MSG, MPI_CHAR, peer, 8, MPI_COMM_WORLD, &q[4]);
    int seen[5] = {0}, done = 0, bad = 0, cnt[5] = {0};
    double end = now() + 60;
    while (done < 5 && now() < end) {
        int idx = -1, flag = 0;
        MPI_Status s;
        rc = MPI_Testany(5, q, &idx, &flag, &s);
        if (rc != MPI_SUCCESS)
            bad++;
        if (flag && idx != MPI_UNDEFINED) {
            if (seen[idx]++)
                bad++;
            cnt[idx] = count_of(&s, MPI_BYTE);
            done++;
        }
    }
    mt_ok(done == 5 && bad == 0, "Testany over mixed requests gives each once (%d done, %d bad)", done, bad);
    mt_ok(cnt[1] == CH && cnt[2] == CH && cnt[3] == CH && cnt[0] == MSG, "with its own count");
    good = memcmp(rd, w, 3 * CH) == 0;
    mt_ok(good, "the iread chunks hold what was written");
    good = 1;
    for (int i = 0; i < MSG && good; i++)
        good = rbuf[i] == (char)(i * 3 + peer);
    mt_ok(good, "and the second exchange arrived");

    /* a read past the end of the file: the count of what was there */
    MPI_Barrier(MPI_COMM_WORLD); /* both ranks' chunks are written: the file is 2 * 3 * CH */
    MPI_Request r;
    MPI_Status s;
    rc = MPI_File_iread_at(fh, 2 * 3 * CH - 1000, rd, 4000, MPI_BYTE, &r);
    MPI_Wait(&r, &s);
    mt_is_int(count_of(&s, MPI_BYTE), 1000, "iread_at across the end of the file: count 1000");
    good = 1;
    for (int i = 0; i < 1000 && good; i++)
        good = rd[i] == pat(2, 1, 3 * CH - 1000 + i);
    mt_ok(good,
          "its bytes are the last 1000 of rank 1's chunks");
    rc = MPI_File_iread_at(fh, 10 * CH, rd, 10, MPI_BYTE, &r);
    MPI_Wait(&r, &s);
    mt_is_int(count_of(&s, MPI_BYTE), 0, "iread_at wholly past the end: count 0");
    MPI_Barrier(MPI_COMM_WORLD); /* before the file grows again */

    /* a derived type: ints in a vector (every other one) */
    MPI_Datatype vec;
    MPI_Type_vector(100, 1, 2, MPI_INT, &vec);
    MPI_Type_commit(&vec);
    int iv[200], ov[200];
    for (int i = 0; i < 200; i++)
        iv[i] = i * 1000 + rank, ov[i] = -1;
    MPI_Offset at = 2 * 3 * CH + rank * 400;
    rc = MPI_File_iwrite_at(fh, at, iv, 1, vec, &r);
    MPI_Type_free(&vec); /* the request holds it */
    MPI_Wait(&r, &s);
    mt_is_int(count_of(&s, MPI_INT), 100, "iwrite_at of a vector type (freed while pending): 100 ints");
    rc = MPI_File_iread_at(fh, at, ov, 100, MPI_INT, &r);
    MPI_Wait(&r, &s);
    good = 1;
    for (int i = 0; i < 100 && good; i++)
        good = ov[i] == i * 2000 + rank;
    mt_ok(good && ov[100] == -1, "read back contiguous: every other int of the source");
    MPI_File_close(&fh);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0)
        unlink(p);
    free(w);
    free(rd);
    free(sbuf);
    free(rbuf);
}

/* ---- 3. Request_free and Cancel */
#define FR (2L << 20)

static void freed_and_cancelled(void)
{
    char p[1024];
    char name[64];
    snprintf(name, sizeof name, "free.%d", rank);
    path(p, name);
    MPI_File fh;
    int rc = MPI_File_open(MPI_COMM_SELF, p, MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL, &fh);
    mt_is_int(rc, MPI_SUCCESS, "open %s on MPI_COMM_SELF", name);
    unsigned char *a = malloc(FR), *b = malloc(FR), *c = malloc(FR);
    fill(a, FR, 3, rank);
    fill(b, FR, 4, rank);
    fill(c, FR, 5, rank);
    MPI_Request r, other;
    rc = MPI_File_iwrite_at(fh, 0, a, (int)FR, MPI_BYTE, &r);
    int rc2 = MPI_Request_free(&r);
    mt_ok(rc == MPI_SUCCESS && rc2 == MPI_SUCCESS && r == MPI_REQUEST_NULL,
          "iwrite_at of 2 MiB, its request freed at once");
    /* wait only for a later operation: rdmpi runs a process's operations in
     * order, so the freed one is done when the later one is */
    char one = 'x';
    MPI_File_iwrite_at(fh, 3 * FR, &one, 1, MPI_CHAR, &other);
    MPI_Wait(&other, MPI_STATUS_IGNORE);
    mt_ok(region_is(p, 0, FR, 3, rank, 0), "the freed write's bytes are there once a later write is waited for");

    rc = MPI_File_iwrite_at(fh, FR, b, (int)FR, MPI_BYTE, &r);
    MPI_Request_free(&r);
    rc = MPI_File_iwrite_at(fh, 2 * FR, c, (int)FR, MPI_BYTE, &other);
    rc2 = MPI_Cancel(&other);
    MPI_Status st;
    MPI_Wait(&other, &st);
    int tc = -1;
    MPI_Test_cancelled(&st, &tc);
    mt_ok(rc2 == MPI_SUCCESS && tc == 0 && count_of(&st, MPI_BYTE) == FR,
          "MPI_Cancel of an I/O request cancels nothing: it completes with its count");
    rc = MPI_File_iwrite_at(fh, FR, b, (int)FR, MPI_BYTE, &r); /* again, freed, then close */
    MPI_Request_free(&r);
    rc = MPI_File_close(&fh);
    mt_is_int(rc, MPI_SUCCESS, "close with a freed write in flight");
    mt_ok(region_is(p, FR, FR, 4, rank, 0) && region_is(p, 2 * FR, FR, 5, rank, 0),
          "after close the freed and the cancelled writes' bytes are there");
    unlink(p);
    free(a);
    free(b);
    free(c);
}

/* ---- 4. errors */
static int cls_of(int rc)
{
    int c = -1;
    MPI_Error_class(rc, &c);
    return c;
}

static void errors(void)
{
    char p[1024], name[64];
    snprintf(name, sizeof name, "err.%d", rank);
    path(p, name);
    MPI_File wo, ro;
    MPI_File_open(MPI_COMM_SELF, p, MPI_MODE_CREATE | MPI_MODE_WRONLY, MPI_INFO_NULL, &wo);
    char b[64] = {0};
    MPI_File_write_at(wo, 0, b, 64, MPI_BYTE, MPI_STATUS_IGNORE);
    MPI_File_open(MPI_COMM_SELF, p, MPI_MODE_RDONLY, MPI_INFO_NULL, &ro);
    MPI_Request r = MPI_REQUEST_NULL;
    mt_is_int(cls_of(MPI_File_iwrite_at(ro, 0, b, 8, MPI_BYTE, &r)), MPI_ERR_READ_ONLY,
              "iwrite_at on a RDONLY file: MPI_ERR_READ_ONLY");
    mt_is_int(cls_of(MPI_File_iwrite(ro, b, 8, MPI_BYTE, &r)), MPI_ERR_READ_ONLY, "iwrite too");
    mt_is_int(cls_of(MPI_File_iread_at(wo, 0, b, 8, MPI_BYTE, &r)), MPI_ERR_ACCESS,
              "iread_at on a WRONLY file: MPI_ERR_ACCESS");
    mt_is_int(cls_of(MPI_File_iread(wo, b, 8, MPI_BYTE, &r)), MPI_ERR_ACCESS, "iread too");
    mt_is_int(cls_of(MPI_File_iread_at(ro, -1, b, 8, MPI_BYTE, &r)), MPI_ERR_ARG,
              "a negative offset: MPI_ERR_ARG");
    mt_is_int(cls_of(MPI_File_iread_at(ro, 0, b, -1, MPI_BYTE, &r)), MPI_ERR_COUNT,
              "a negative count: MPI_ERR_COUNT");
    mt_is_int(cls_of(MPI_File_iread_at(ro, 0, b, 8, MPI_DATATYPE_NULL, &r)), MPI_ERR_TYPE,
              "MPI_DATATYPE_NULL: MPI_ERR_TYPE");
    mt_is_int(cls_of(MPI_File_iread_at(ro, 0, b, 8, MPI_BYTE, NULL)), MPI_ERR_ARG,
              "a NULL request: MPI_ERR_ARG");
    mt_is_int(cls_of(MPI_File_iread(MPI_FILE_NULL, b, 8, MPI_BYTE, &r)), MPI_ERR_FILE,
              "MPI_FILE_NULL: MPI_ERR_FILE");
    mt_ok(r == MPI_REQUEST_NULL, "no request was made by the failing calls");
    MPI_File_close(&ro);
    MPI_File_close(&wo);
    unlink(p);

    MPI_File sq;
    path(p, name);
    MPI_File_open(MPI_COMM_SELF, p, MPI_MODE_CREATE | MPI_MODE_WRONLY | MPI_MODE_SEQUENTIAL |
                                        MPI_MODE_DELETE_ON_CLOSE, MPI_INFO_NULL, &sq);
    mt_is_int(cls_of(MPI_File_iwrite_at(sq, 0, b, 8, MPI_BYTE, &r)), MPI_ERR_UNSUPPORTED_OPERATION,
              "iwrite_at on a SEQUENTIAL file: MPI_ERR_UNSUPPORTED_OPERATION");
    MPI_File_close(&sq);

    /* a device that is always full: the error comes at the wait, through
     * the file's handler (MPI_ERRORS_RETURN) */
    MPI_File full;
    int rc = MPI_File_open(MPI_COMM_SELF, "/dev/full", MPI_MODE_WRONLY, MPI_INFO_NULL, &full);
    mt_is_int(rc, MPI_SUCCESS, "open /dev/full");
    if (rc != MPI_SUCCESS)
        return;
    rc = MPI_File_iwrite_at(full, 0, b, 64, MPI_BYTE, &r);
    mt_is_int(rc, MPI_SUCCESS, "iwrite_at to /dev/full starts");
    MPI_Status st;
    rc = MPI_Wait(&r, &st);
    mt_is_int(cls_of(rc), MPI_ERR_NO_SPACE, "its Wait returns MPI_ERR_NO_SPACE (the program goes on)");
    char msg[MPI_MAX_ERROR_STRING];
    int len = 0;
    MPI_Error_string(rc, msg, &len);
    mt_ok(strstr(msg, "MPI_Wait") && strstr(msg, "No space") && strstr(msg, "/dev/full"),
          "the message names the call, the cause and the file: %s", msg);
    MPI_Request q[2];
    char x[8];
    MPI_File_iwrite_at(full, 0, b, 64, MPI_BYTE, &q[0]);
    MPI_Irecv(x, 8, MPI_CHAR, MPI_PROC_NULL, 0, MPI_COMM_WORLD, &q[1]);
    MPI_Status sts[2];
    rc = MPI_Waitall(2, q, sts);
    mt_ok(cls_of(rc) == MPI_ERR_IN_STATUS && sts[0].MPI_ERROR == MPI_ERR_NO_SPACE &&
              sts[1].MPI_ERROR == MPI_SUCCESS,
          "Waitall with it and a receive: MPI_ERR_IN_STATUS, NO_SPACE in its status, SUCCESS in the other's");
    MPI_File_close(&full);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    mt_rank = rank;
    if (argc < 2 || size != 2) {
        if (rank == 0)
            printf("not ok [rank 0] usage: io_nb DIR, on 2 ranks\n");
        MPI_Finalize();
        return 1;
    }
    snprintf(dir, sizeof dir, "%s", argv[1]);
    peer = 1 - rank;
    no_mpi_progress();
    pointer_and_p2p();
    freed_and_cancelled();
    errors();
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return mt_done();
}

/* MPI test: the shared file pointer (runtime/io/shfp.c; test/mpi/
 * io_shared.sh runs it on 1-4 ranks, and with RDMPI_RMA_PATH=am, where
 * rank 0 answers the pointer's fetch-and-adds from its progress thread).
 * argv[1]: a directory for the files (made and removed by the script).
 * Every file is read back by POSIX pread at rank 0 and compared byte by
 * byte with what the program computes on its own. */
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "test/mpi/mtest.h"

static int rank, size;
static char dir[512];

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void path_of(char *out, const char *name)
{
    snprintf(out, 600, "%s/%s", dir, name);
}

/* The whole file by POSIX pread (malloc'd; *len its size; NULL: none). */
static unsigned char *slurp(const char *path, long *len)
{
    int fd = open(path, O_RDONLY);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0) {
        if (fd >= 0)
            close(fd);
        *len = -1;
        return NULL;
    }
    unsigned char *b = malloc((size_t)st.st_size + 1);
    long got = 0;
    while (b && got < st.st_size) {
        ssize_t n = pread(fd, b + got, (size_t)(st.st_size - got), got);
        if (n <= 0)
            break;
        got += n;
    }
    close(fd);
    *len = got;
    return b;
}

static long file_size(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 ? (long)st.st_size : -1;
}

/* ---- write_shared: records of distinct lengths, each once, no overlap.
 * Record (r, j) of rank r: its length, then bytes r, j, then a pattern. */
#define NREC 3
static int rec_len(int r, int j)
{
    return 7 + 5 * (r * NREC + j) + (r * NREC + j) % 3;
}

static unsigned char rec_byte(int r, int j, int i)
{
    if (i == 0)
        return (unsigned char)rec_len(r, j);
    if (i == 1)
        return (unsigned char)r;
    if (i == 2)
        return (unsigned char)j;
    return (unsigned char)(r * 31 + j * 17 + i * 7 + 3);
}

static void test_write_shared(void)
{
    char path[600];
    path_of(path, "records");
    MPI_File fh;
    int rc = MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_WRONLY, MPI_INFO_NULL, &fh);
    mt_is_int(rc, MPI_SUCCESS, "write_shared: open");
    MPI_Offset pos = -1;
    MPI_File_get_position_shared(fh, &pos);
    mt_is_int(pos, 0, "write_shared: a new file's shared pointer is at 0");
    MPI_Barrier(MPI_COMM_WORLD); /* (nobody moves it before all have looked) */
    int bad = 0, badcount = 0;
    for (int j = 0; j < NREC; j++) {
        unsigned char buf[256];
        int n = rec_len(rank, j);
        for (int i = 0; i < n; i++)
            buf[i] = rec_byte(rank, j, i);
        MPI_Status st;
        int cnt = -1;
        if (j < NREC - 1) {
            if (MPI_File_write_shared(fh, buf, n, MPI_BYTE, &st) != MPI_SUCCESS)
                bad++;
        } else {
            /* the last record by iwrite_shared */
            MPI_Request rq = MPI_REQUEST_NULL;
            if (MPI_File_iwrite_shared(fh, buf, n, MPI_BYTE, &rq) != MPI_SUCCESS || MPI_Wait(&rq, &st) != MPI_SUCCESS)
                bad++;
        }
        MPI_Get_count(&st, MPI_BYTE, &cnt);
        badcount += cnt != n;
    }
    mt_is_int(bad, 0, "write_shared: %d records of distinct lengths written (the last by iwrite_shared and MPI_Wait)",
              NREC);
    mt_is_int(badcount, 0, "write_shared: each status counts the record's bytes");
    long total = 0;
    for (int r = 0; r < size; r++)
        for (int j = 0; j < NREC; j++)
            total += rec_len(r, j);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_File_get_position_shared(fh, &pos);
    mt_is_int(pos, total, "write_shared: the pointer is past every rank's records");
    MPI_File_close(&fh);
    if (rank == 0) {
        long len;
        unsigned char *b = slurp(path, &len);
        mt_is_int(len, total, "write_shared: the file's size is the sum of the records' lengths");
        /* walk the file record by record: each (r, j) once, every byte its own */
        int seen[64][NREC];
        memset(seen, 0, sizeof(seen));
        long o = 0;
        int wrong = 0;
        while (b && o < len && !wrong) {
            int r = o + 2 < len ? b[o + 1] : -1, j = o + 2 < len ? b[o + 2] : -1;
            if (r < 0 || r >= size || j < 0 || j >= NREC || o + rec_len(r, j) > len) {
                wrong = 1;
                break;
            }
            for (int i = 0; i < rec_len(r, j); i++)
                if (b[o + i] != rec_byte(r, j, i))
                    wrong = 1;
            seen[r][j]++;
            o += rec_len(r, j);
        }
        int once = 1;
        for (int r = 0; r < size; r++)
            for (int j = 0; j < NREC; j++)
                once &= seen[r][j] == 1;
        mt_ok(!wrong && o == len, "write_shared: the file is whole records back to back, every byte as written");
        mt_ok(once, "write_shared: every rank's every record is in the file exactly once");
        free(b);
    }
    MPI_Barrier(MPI_COMM_WORLD);
}

/* ---- read_shared: a file of NBLK blocks of BLK bytes (block b: its
 * number, then a pattern) and a short tail, read in BLK-byte requests
 * by every rank until one comes back empty */
#define BLK 40
#define NBLK 23
#define TAIL 13
static unsigned char blk_byte(int b, int i)
{
    if (i < 4)
        return (unsigned char)(b >> (8 * i));
    return (unsigned char)(b * 13 + i * 5 + 1);
}

static void test_read_shared(void)
{
    char path[600];
    path_of(path, "blocks");
    long flen = (long)NBLK * BLK + TAIL;
    if (rank == 0) {
        unsigned char *img = malloc((size_t)flen);
        for (long o = 0; o < flen; o++)
            img[o] = blk_byte((int)(o / BLK), (int)(o % BLK));
        int fd = open(path, O_CREAT | O_TRUNC | O_WRONLY, 0644);
        mt_ok(fd >= 0 && pwrite(fd, img, (size_t)flen, 0) == flen, "read_shared: the file made by POSIX pwrite");
        close(fd);
        free(img);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_File fh;
    int rc = MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_RDONLY, MPI_INFO_NULL, &fh);
    mt_is_int(rc, MPI_SUCCESS, "read_shared: open");
    int got[NBLK + 2], ngot = 0, calls = 0, wrong = 0, tails = 0, err = 0;
    for (;;) {
        unsigned char buf[BLK];
        MPI_Status st;
        int cnt = -1;
        calls++;
        if (calls % 2) {
            if (MPI_File_read_shared(fh, buf, BLK, MPI_BYTE, &st) != MPI_SUCCESS) {
                err++;
                break;
            }
        } else {
            /* every other request by iread_shared and MPI_Wait */
            MPI_Request rq = MPI_REQUEST_NULL;
            if (MPI_File_iread_shared(fh, buf, BLK, MPI_BYTE, &rq) != MPI_SUCCESS || MPI_Wait(&rq, &st) != MPI_SUCCESS) {
                err++;
                break;
            }
        }
        MPI_Get_count(&st, MPI_BYTE, &cnt);
        if (cnt == 0)
            break;
        int b = buf[0] | buf[1] << 8 | buf[2] << 16 | buf[3] << 24;
        if (b < 0 || b > NBLK || (b < NBLK && cnt != BLK) || (b == NBLK && cnt != TAIL)) {
            wrong++;
            break;
        }
        tails += b == NBLK;
        for (int i = 0; i < cnt; i++)
            wrong += buf[i] != blk_byte(b, i);
        if (ngot < NBLK + 2)
            got[ngot++] = b;
    }
    mt_is_int(err, 0, "read_shared and iread_shared: every call succeeded");
    mt_is_int(wrong, 0, "read_shared: every block read whole (BLK bytes, the tail %d), every byte right", TAIL);
    /* every block, and the tail, read by exactly one rank */
    int counts[64], displs[64], all[64 * (NBLK + 2)];
    MPI_Gather(&ngot, 1, MPI_INT, counts, 1, MPI_INT, 0, MPI_COMM_WORLD);
    for (int r = 0, d = 0; rank == 0 && r < size; r++) {
        displs[r] = d;
        d += counts[r];
    }
    MPI_Gatherv(got, ngot, MPI_INT, all, counts, displs, MPI_INT, 0, MPI_COMM_WORLD);
    int tcalls = 0;
    MPI_Reduce(&calls, &tcalls, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Offset pos = -1;
    MPI_File_get_position_shared(fh, &pos);
    if (rank == 0) {
        int seen[NBLK + 1] = {0}, n = displs[size - 1] + counts[size - 1], once = 1;
        for (int i = 0; i < n; i++)
            if (all[i] >= 0 && all[i] <= NBLK)
                seen[all[i]]++;
        for (int b = 0; b <= NBLK; b++)
            once &= seen[b] == 1;
        mt_ok(once && n == NBLK + 1, "read_shared: each of the %d blocks and the tail read exactly once (%d reads)",
              NBLK, n);
        /* the pointer moved by every request, also those past the end */
        mt_is_int(pos, (long long)tcalls * BLK, "read_shared: the pointer moved by each request's %d bytes", BLK);
    }
    MPI_File_close(&fh);
    MPI_Barrier(MPI_COMM_WORLD);
}

/* ---- write/read_ordered (and their split forms): rank r's part of round
 * k is ord_len(r) bytes, in rank order */
static int ord_len(int r)
{
    return 10 + 3 * r;
}

static unsigned char ord_byte(int k, int r, int i)
{
    return (unsigned char)(k * 71 + r * 29 + i * 3 + 11);
}

static void test_ordered(void)
{
    char path[600];
    path_of(path, "ordered");
    MPI_File fh;
    int rc = MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL, &fh);
    mt_is_int(rc, MPI_SUCCESS, "ordered: open");
    long round = 0, before = 0;
    for (int r = 0; r < size; r++) {
        round += ord_len(r);
        if (r < rank)
            before += ord_len(r);
    }
    unsigned char buf[128];
    /* rounds 0 and 1 by write_ordered, round 2 by the split form */
    for (int k = 0; k < 3; k++) {
        int n = ord_len(rank), cnt = -1;
        for (int i = 0; i < n; i++)
            buf[i] = ord_byte(k, rank, i);
        MPI_Status st;
        if (k < 2) {
            rc = MPI_File_write_ordered(fh, buf, n, MPI_BYTE, &st);
            mt_is_int(rc, MPI_SUCCESS, "write_ordered: round %d", k);
        } else {
            rc = MPI_File_write_ordered_begin(fh, buf, n, MPI_BYTE);
            mt_is_int(rc, MPI_SUCCESS, "write_ordered_begin: round %d", k);
            rc = MPI_File_write_ordered_end(fh, buf, &st);
            mt_is_int(rc, MPI_SUCCESS, "write_ordered_end: round %d", k);
        }
        MPI_Get_count(&st, MPI_BYTE, &cnt);
        mt_is_int(cnt, n, "write_ordered: round %d's status counts %d bytes", k, n);
    }
    MPI_Offset pos = -1;
    MPI_File_get_position_shared(fh, &pos);
    mt_is_int(pos, 3 * round, "write_ordered: the pointer is past the three rounds");
    MPI_File_sync(fh);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
        long len;
        unsigned char *b = slurp(path, &len);
        mt_is_int(len, 3 * round, "write_ordered: the file holds three rounds of every rank's part");
        int wrong = 0;
        for (long o = 0, k = 0; b && len == 3 * round && k < 3; k++)
            for (int r = 0; r < size; r++)
                for (int i = 0; i < ord_len(r); i++, o++)
                    wrong += b[o] != ord_byte((int)k, r, i);
        mt_ok(b && len == 3 * round && !wrong, "write_ordered: in rank order, round after round, every byte as written");
        free(b);
    }
    /* read them back the same way */
    rc = MPI_File_seek_shared(fh, 0, MPI_SEEK_SET);
    mt_is_int(rc, MPI_SUCCESS, "seek_shared to 0 before reading");
    for (int k = 0; k < 3; k++) {
        int n = ord_len(rank), cnt = -1, wrong = 0;
        memset(buf, 0, sizeof(buf));
        MPI_Status st;
        if (k < 2) {
            rc = MPI_File_read_ordered(fh, buf, n, MPI_BYTE, &st);
            mt_is_int(rc, MPI_SUCCESS, "read_ordered: round %d", k);
        } else {
            rc = MPI_File_read_ordered_begin(fh, buf, n, MPI_BYTE);
            mt_is_int(rc, MPI_SUCCESS, "read_ordered_begin: round %d", k);
            rc = MPI_File_read_ordered_end(fh, buf, &st);
            mt_is_int(rc, MPI_SUCCESS, "read_ordered_end: round %d", k);
        }
        MPI_Get_count(&st, MPI_BYTE, &cnt);
        mt_is_int(cnt, n, "read_ordered: round %d's status counts %d bytes", k, n);
        for (int i = 0; i < n; i++)
            wrong += buf[i] != ord_byte(k, rank, i);
        mt_is_int(wrong, 0, "read_ordered: round %d gives this rank its own part (at %ld)", k, k * round + before);
    }
    /* past the end: nothing read, the pointer still moves */
    MPI_Status st;
    int cnt = -1;
    rc = MPI_File_read_ordered(fh, buf, ord_len(rank), MPI_BYTE, &st);
    MPI_Get_count(&st, MPI_BYTE, &cnt);
    mt_ok(rc == MPI_SUCCESS && cnt == 0, "read_ordered past the end: success, 0 bytes");
    MPI_File_get_position_shared(fh, &pos);
    mt_is_int(pos, 4 * round, "read_ordered past the end: the pointer moved by the requests");

    /* split forms: a second begin, an end without a begin */
    rc = MPI_File_read_ordered_begin(fh, buf, 1, MPI_BYTE);
    int rc2 = MPI_File_read_ordered_begin(fh, buf, 1, MPI_BYTE);
    int cls = -1;
    MPI_Error_class(rc2, &cls);
    mt_ok(rc == MPI_SUCCESS && cls == MPI_ERR_IO, "read_ordered_begin twice: MPI_ERR_IO the second time");
    rc = MPI_File_read_ordered_end(fh, buf, &st);
    mt_is_int(rc, MPI_SUCCESS, "read_ordered_end after the first begin");
    rc = MPI_File_write_ordered_end(fh, buf, &st);
    MPI_Error_class(rc, &cls);
    mt_is_int(cls, MPI_ERR_IO, "write_ordered_end without a begin: MPI_ERR_IO");
    MPI_File_close(&fh);
    MPI_Barrier(MPI_COMM_WORLD);
}

/* ---- seek_shared, get_position_shared, their errors */
static void test_seek(void)
{
    char path[600];
    path_of(path, "records"); /* written by test_write_shared */
    long len = file_size(path);
    MPI_File fh;
    int rc = MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_RDWR, MPI_INFO_NULL, &fh), cls = -1;
    mt_is_int(rc, MPI_SUCCESS, "seek_shared: open");
    MPI_Offset pos = -1;
    rc = MPI_File_seek_shared(fh, 5, MPI_SEEK_SET);
    MPI_File_get_position_shared(fh, &pos);
    mt_ok(rc == MPI_SUCCESS && pos == 5, "seek_shared(5, SEEK_SET): position 5 (got %lld)", (long long)pos);
    rc = MPI_File_seek_shared(fh, 3, MPI_SEEK_CUR);
    MPI_File_get_position_shared(fh, &pos);
    mt_ok(rc == MPI_SUCCESS && pos == 8, "seek_shared(3, SEEK_CUR): position 8 (got %lld)", (long long)pos);
    rc = MPI_File_seek_shared(fh, -2, MPI_SEEK_END);
    MPI_File_get_position_shared(fh, &pos);
    mt_ok(rc == MPI_SUCCESS && pos == len - 2, "seek_shared(-2, SEEK_END): position %ld (got %lld)", len - 2,
          (long long)pos);
    MPI_Barrier(MPI_COMM_WORLD); /* (every rank has looked before rank 0 reads) */
    /* a read at the pointer after the seek: the file's last 2 bytes */
    if (rank == 0) {
        unsigned char two[2] = {0, 0};
        MPI_Status st;
        int cnt = -1;
        rc = MPI_File_read_shared(fh, two, 2, MPI_BYTE, &st);
        MPI_Get_count(&st, MPI_BYTE, &cnt);
        long l2;
        unsigned char *b = slurp(path, &l2);
        mt_ok(rc == MPI_SUCCESS && cnt == 2 && b && l2 == len && two[0] == b[len - 2] && two[1] == b[len - 1],
              "read_shared after seek_shared(-2, SEEK_END): the file's last two bytes");
        free(b);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_File_get_position_shared(fh, &pos);
    mt_is_int(pos, len, "the pointer after that read: the end of the file");
    rc = MPI_File_seek_shared(fh, -1, MPI_SEEK_SET);
    MPI_Error_class(rc, &cls);
    mt_is_int(cls, MPI_ERR_ARG, "seek_shared(-1, SEEK_SET): MPI_ERR_ARG at every rank");
    rc = MPI_File_seek_shared(fh, 0, 12345);
    MPI_Error_class(rc, &cls);
    mt_is_int(cls, MPI_ERR_ARG, "seek_shared with a bad whence: MPI_ERR_ARG");
    MPI_File_get_position_shared(fh, &pos);
    mt_is_int(pos, len, "failed seeks leave the pointer alone");
    if (size > 1) {
        rc = MPI_File_seek_shared(fh, rank == size - 1 ? 1 : 0, MPI_SEEK_SET);
        MPI_Error_class(rc, &cls);
        mt_is_int(cls, MPI_ERR_NOT_SAME, "seek_shared with one rank's offset different: MPI_ERR_NOT_SAME");
        rc = MPI_File_seek_shared(fh, 0, rank == 0 ? MPI_SEEK_CUR : MPI_SEEK_SET);
        MPI_Error_class(rc, &cls);
        mt_is_int(cls, MPI_ERR_NOT_SAME, "seek_shared with rank 0's whence different: MPI_ERR_NOT_SAME");
        MPI_File_get_position_shared(fh, &pos);
        mt_is_int(pos, len, "after MPI_ERR_NOT_SAME the pointer is where it was");
    }
    MPI_File_close(&fh);

    /* read-only and write-only files */
    rc = MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_RDONLY, MPI_INFO_NULL, &fh);
    unsigned char c = 0;
    MPI_Status st;
    rc = MPI_File_write_shared(fh, &c, 1, MPI_BYTE, &st);
    MPI_Error_class(rc, &cls);
    mt_is_int(cls, MPI_ERR_READ_ONLY, "write_shared on a read-only file: MPI_ERR_READ_ONLY");
    rc = MPI_File_write_ordered(fh, &c, 1, MPI_BYTE, &st);
    MPI_Error_class(rc, &cls);
    mt_is_int(cls, MPI_ERR_READ_ONLY, "write_ordered on a read-only file: MPI_ERR_READ_ONLY");
    MPI_File_close(&fh);
    rc = MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_WRONLY, MPI_INFO_NULL, &fh);
    rc = MPI_File_read_shared(fh, &c, 1, MPI_BYTE, &st);
    MPI_Error_class(rc, &cls);
    mt_is_int(cls, MPI_ERR_ACCESS, "read_shared on a write-only file: MPI_ERR_ACCESS");
    rc = MPI_File_read_ordered(fh, &c, 1, MPI_BYTE, &st);
    MPI_Error_class(rc, &cls);
    mt_is_int(cls, MPI_ERR_ACCESS, "read_ordered on a write-only file: MPI_ERR_ACCESS");
    rc = MPI_File_read_shared(fh, &c, -1, MPI_BYTE, &st);
    MPI_Error_class(rc, &cls);
    mt_is_int(cls, MPI_ERR_COUNT, "read_shared with count -1: MPI_ERR_COUNT");
    rc = MPI_File_iwrite_shared(fh, &c, 1, MPI_BYTE, NULL);
    MPI_Error_class(rc, &cls);
    mt_is_int(cls, MPI_ERR_ARG, "iwrite_shared with a NULL request: MPI_ERR_ARG");
    MPI_Request rq = MPI_REQUEST_NULL;
    rc = MPI_File_iread_shared(fh, &c, 1, MPI_BYTE, &rq);
    MPI_Error_class(rc, &cls);
    mt_ok(cls == MPI_ERR_ACCESS && rq == MPI_REQUEST_NULL, "iread_shared on a write-only file: MPI_ERR_ACCESS, no request");
    rc = MPI_File_get_position_shared(fh, NULL);
    MPI_Error_class(rc, &cls);
    mt_is_int(cls, MPI_ERR_ARG, "get_position_shared with a NULL offset: MPI_ERR_ARG");
    MPI_File_close(&fh);
    rc = MPI_File_get_position_shared(MPI_FILE_NULL, &pos);
    MPI_Error_class(rc, &cls);
    mt_ok(rc != MPI_SUCCESS, "get_position_shared on MPI_FILE_NULL fails (class %d)", cls);
    MPI_Barrier(MPI_COMM_WORLD);
}

/* ---- MPI_MODE_APPEND: the pointer starts at the end */
static void test_append(void)
{
    char path[600];
    path_of(path, "append");
    if (rank == 0) {
        unsigned char head[100];
        for (int i = 0; i < 100; i++)
            head[i] = (unsigned char)(200 - i);
        int fd = open(path, O_CREAT | O_TRUNC | O_WRONLY, 0644);
        mt_ok(fd >= 0 && pwrite(fd, head, 100, 0) == 100, "append: 100 bytes made by POSIX pwrite");
        close(fd);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_File fh;
    int rc = MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_WRONLY | MPI_MODE_APPEND, MPI_INFO_NULL, &fh);
    mt_is_int(rc, MPI_SUCCESS, "append: open with MPI_MODE_APPEND");
    MPI_Offset pos = -1;
    MPI_File_get_position_shared(fh, &pos);
    mt_is_int(pos, 100, "append: the shared pointer starts at the end");
    unsigned char me[4] = {(unsigned char)rank, 1, 2, 3};
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Status st;
    rc = MPI_File_write_ordered(fh, me, 4, MPI_BYTE, &st);
    mt_is_int(rc, MPI_SUCCESS, "append: write_ordered");
    MPI_File_close(&fh);
    if (rank == 0) {
        long len;
        unsigned char *b = slurp(path, &len);
        int wrong = !b || len != 100 + 4 * size;
        for (int i = 0; !wrong && i < 100; i++)
            wrong += b[i] != (unsigned char)(200 - i);
        for (int r = 0; !wrong && r < size; r++)
            wrong += b[100 + 4 * r] != r || b[101 + 4 * r] != 1 || b[102 + 4 * r] != 2 || b[103 + 4 * r] != 3;
        mt_ok(!wrong, "append: the old 100 bytes untouched, every rank's 4 after them in rank order");
        free(b);
    }
    MPI_Barrier(MPI_COMM_WORLD);
}

/* ---- MPI_MODE_SEQUENTIAL: the shared-pointer calls only */
static void test_sequential(void)
{
    char path[600];
    path_of(path, "sequential");
    MPI_File fh;
    int rc = MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_WRONLY | MPI_MODE_SEQUENTIAL,
                           MPI_INFO_NULL, &fh), cls = -1;
    mt_is_int(rc, MPI_SUCCESS, "sequential: open");
    unsigned char me[3] = {(unsigned char)(rank + 1), (unsigned char)(rank + 2), (unsigned char)(rank + 3)};
    MPI_Status st;
    rc = MPI_File_write_ordered(fh, me, 3, MPI_BYTE, &st);
    mt_is_int(rc, MPI_SUCCESS, "sequential: write_ordered");
    rc = MPI_File_write_shared(fh, me, 1, MPI_BYTE, &st);
    mt_is_int(rc, MPI_SUCCESS, "sequential: write_shared");
    rc = MPI_File_seek_shared(fh, 0, MPI_SEEK_SET);
    MPI_Error_class(rc, &cls);
    mt_is_int(cls, MPI_ERR_UNSUPPORTED_OPERATION, "sequential: seek_shared is MPI_ERR_UNSUPPORTED_OPERATION");
    rc = MPI_File_write_at(fh, 0, me, 1, MPI_BYTE, &st);
    MPI_Error_class(rc, &cls);
    mt_is_int(cls, MPI_ERR_UNSUPPORTED_OPERATION, "sequential: write_at is MPI_ERR_UNSUPPORTED_OPERATION");
    MPI_Offset pos = -1;
    MPI_Barrier(MPI_COMM_WORLD);
    rc = MPI_File_get_position_shared(fh, &pos);
    mt_ok(rc == MPI_SUCCESS && pos == 4 * size, "sequential: get_position_shared %d (got %lld)", 4 * size,
          (long long)pos);
    MPI_File_close(&fh);
    if (rank == 0) {
        long len;
        unsigned char *b = slurp(path, &len);
        int wrong = !b || len != 4 * size, ones[64] = {0};
        for (int r = 0; !wrong && r < size; r++)
            wrong += b[3 * r] != r + 1 || b[3 * r + 1] != r + 2 || b[3 * r + 2] != r + 3;
        /* then one byte of each rank's, in some order */
        for (int i = 0; !wrong && i < size; i++) {
            int r = b[3 * size + i] - 1;
            if (r < 0 || r >= size)
                wrong++;
            else
                ones[r]++;
        }
        for (int r = 0; !wrong && r < size; r++)
            wrong += ones[r] != 1;
        mt_ok(!wrong, "sequential: the ordered parts in rank order, then one shared byte of each rank");
        free(b);
    }
    MPI_Barrier(MPI_COMM_WORLD);
}

/* ---- progress: rank 0 computes, no MPI call, while the others append
 * records with write_shared (with RDMPI_RMA_PATH=am rank 0 answers
 * their fetch-and-adds from its progress thread) */
static void test_progress(void)
{
    char path[600];
    path_of(path, "progress");
    MPI_File fh;
    int rc = MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_WRONLY, MPI_INFO_NULL, &fh);
    mt_is_int(rc, MPI_SUCCESS, "progress: open");
    long want = 0;
    for (int r = 1; r < size; r++)
        want += 8 * r;
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
        double t0 = now();
        long got = 0;
        while (now() - t0 < 60 && got < want)
            got = file_size(path);
        mt_is_int(got, want, "progress: every other rank's write_shared landed while rank 0 computed");
    } else {
        unsigned char b[64];
        memset(b, rank, sizeof(b));
        int bad = 0;
        for (int k = 0; k < rank; k++)
            bad += MPI_File_write_shared(fh, b, 8, MPI_BYTE, MPI_STATUS_IGNORE) != MPI_SUCCESS;
        mt_is_int(bad, 0, "progress: write_shared toward a computing rank 0");
    }
    MPI_File_close(&fh);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    mt_rank = rank;
    snprintf(dir, sizeof(dir), "%s", argc > 1 ? argv[1] : ".");
    test_write_shared();
    test_read_shared();
    test_ordered();
    test_seek();
    test_append();
    test_sequential();
    test_progress();
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
        const char *names[] = {"records", "blocks", "ordered", "append", "sequential", "progress"};
        int gone = 0;
        for (int i = 0; i < 6; i++) {
            char p[600];
            path_of(p, names[i]);
            gone += MPI_File_delete(p, MPI_INFO_NULL) == MPI_SUCCESS;
        }
        mt_is_int(gone, 6, "the test's six files deleted");
    }
    printf("done [rank %d] %d checks, %d failed\n", rank, mt_checks, mt_failed);
    MPI_Finalize();
    return 0;
}

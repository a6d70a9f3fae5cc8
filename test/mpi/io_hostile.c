/* MPI test: MPI-IO as a hostile or unlucky program uses it (issue 22,
 * runtime/io/PLAN.md 6), on 1 and 2 ranks, under MPI_FILE_NULL's default
 * handler (MPI_ERRORS_RETURN): paths that are no regular file (a FIFO, a
 * directory, /dev/null, a name longer than PATH_MAX), different files on
 * different ranks, offsets whose bytes pass the largest file offset,
 * seeks that overflow, garbage hint values, a communicator handle passed
 * as a file, the same file opened twice. Each error has its class and a
 * message naming the call and the cause; the program goes on. argv[1]: a
 * directory for the files (made by io_hostile.sh); argv[2], a mode whose
 * outcome io_hostile.sh checks: "fatal" (MPI_ERRORS_ARE_FATAL on
 * MPI_FILE_NULL, then rank 1 fails an open alone), "leak" (MPI_Finalize
 * with a file still open), "kill" (rank 1 killed by SIGKILL between a
 * collective open and the collective write and close). */
#include <limits.h>
#include <mpi.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "iotest.h"

static int rank, size;
static char dir[900];
/* "leak" mode's file, never closed: a static, so that the sanitizer
 * build's leak check (at exit, after main's frame is gone) still reaches
 * it; what is checked is MPI_Finalize with a file open, not a lost handle */
static MPI_File leaked = MPI_FILE_NULL;

static void path(char *out, const char *name)
{
    snprintf(out, 1024, "%s/%s", dir, name);
}

/* paths that are no regular file */
static void odd_paths(void)
{
    char p[1024];
    MPI_File fh = MPI_FILE_NULL;
    int rc;

    /* a FIFO: opening it must neither block (no writer, no reader) nor succeed */
    path(p, "fifo");
    if (rank == 0)
        mt_ok(mkfifo(p, 0600) == 0, "mkfifo %s", p);
    MPI_Barrier(MPI_COMM_WORLD);
    int modes[] = {MPI_MODE_RDONLY, MPI_MODE_WRONLY, MPI_MODE_RDWR};
    const char *names[] = {"RDONLY", "WRONLY", "RDWR"};
    for (int i = 0; i < 3; i++) {
        rc = MPI_File_open(MPI_COMM_WORLD, p, modes[i], MPI_INFO_NULL, &fh);
        ERR_IS(rc, MPI_ERR_BAD_FILE, "MPI_File_open", "FIFO", "open %s a FIFO: MPI_ERR_BAD_FILE, no hang", names[i]);
        mt_ok(fh == MPI_FILE_NULL, "the handle is left MPI_FILE_NULL");
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0)
        unlink(p);

    /* a directory, read-only and read-write */
    rc = MPI_File_open(MPI_COMM_WORLD, dir, MPI_MODE_RDONLY, MPI_INFO_NULL, &fh);
    ERR_IS(rc, MPI_ERR_BAD_FILE, "MPI_File_open", "directory", "open RDONLY a directory: MPI_ERR_BAD_FILE");
    rc = MPI_File_open(MPI_COMM_WORLD, dir, MPI_MODE_RDWR, MPI_INFO_NULL, &fh);
    ERR_IS(rc, MPI_ERR_BAD_FILE, "MPI_File_open", "directory", "open RDWR a directory: MPI_ERR_BAD_FILE");

    /* a name longer than PATH_MAX */
    size_t n = PATH_MAX + 100;
    char *lp = malloc(n + 1);
    memset(lp, 'x', n);
    lp[n] = 0;
    rc = MPI_File_open(MPI_COMM_WORLD, lp, MPI_MODE_RDWR | MPI_MODE_CREATE, MPI_INFO_NULL, &fh);
    ERR_IS(rc, MPI_ERR_BAD_FILE, "MPI_File_open", "too long", "a name longer than PATH_MAX: MPI_ERR_BAD_FILE");
    rc = MPI_File_delete(lp, MPI_INFO_NULL);
    ERR_IS(rc, MPI_ERR_BAD_FILE, "MPI_File_delete", "too long", "delete a name longer than PATH_MAX: MPI_ERR_BAD_FILE");
    free(lp);
    rc = MPI_File_delete("", MPI_INFO_NULL);
    ERR_IS(rc, MPI_ERR_NO_SUCH_FILE, "MPI_File_delete", "''", "delete '': MPI_ERR_NO_SUCH_FILE");

    /* /dev/null: a device, not refused; what is written goes, nothing is read */
    rc = MPI_File_open(MPI_COMM_WORLD, "/dev/null", MPI_MODE_RDWR, MPI_INFO_NULL, &fh);
    mt_ok(rc == MPI_SUCCESS, "open RDWR /dev/null");
    if (rc == MPI_SUCCESS) {
        char b[64] = "data";
        MPI_Status st;
        int cnt = -1;
        mt_ok(MPI_File_write_at(fh, 0, b, 64, MPI_CHAR, &st) == MPI_SUCCESS, "write 64 bytes to /dev/null");
        MPI_Get_count(&st, MPI_CHAR, &cnt);
        mt_ok(cnt == 64, "status: 64 written (got %d)", cnt);
        mt_ok(MPI_File_read_at(fh, 0, b, 64, MPI_CHAR, &st) == MPI_SUCCESS, "read /dev/null");
        MPI_Get_count(&st, MPI_CHAR, &cnt);
        mt_ok(cnt == 0, "status: 0 read (got %d)", cnt);
        MPI_Offset sz = -1;
        mt_ok(MPI_File_get_size(fh, &sz) == MPI_SUCCESS && sz == 0, "get_size of /dev/null: 0 (got %lld)",
              (long long)sz);
        mt_ok(MPI_File_close(&fh) == MPI_SUCCESS && fh == MPI_FILE_NULL, "close /dev/null");
    }
}

/* different files on different ranks: MPI_ERR_NOT_SAME on every rank */
static void different_files(void)
{
    char p[1024];
    MPI_File fh = MPI_FILE_NULL;
    if (size < 2)
        return;
    path(p, rank ? "other.dat" : "one.dat");
    /* each rank makes its own file first (so that no open fails for a missing file) */
    MPI_File s;
    mt_ok(MPI_File_open(MPI_COMM_SELF, p, MPI_MODE_CREATE | MPI_MODE_WRONLY, MPI_INFO_NULL, &s) == MPI_SUCCESS &&
              MPI_File_close(&s) == MPI_SUCCESS,
          "make %s alone", p);
    MPI_Barrier(MPI_COMM_WORLD);
    int rc = MPI_File_open(MPI_COMM_WORLD, p, MPI_MODE_RDWR, MPI_INFO_NULL, &fh);
    ERR_IS(rc, MPI_ERR_NOT_SAME, "MPI_File_open", rank ? "not the file rank 0 opened" : "rank 1 failed",
           "different files on different ranks: MPI_ERR_NOT_SAME");
    mt_ok(fh == MPI_FILE_NULL, "the handle is left MPI_FILE_NULL");
    MPI_Barrier(MPI_COMM_WORLD);
    unlink(p);

    /* a hard link to rank 0's file is the same file */
    char q[1024];
    path(p, "same.dat");
    path(q, "same.link");
    if (rank == 0) {
        mt_ok(MPI_File_open(MPI_COMM_SELF, p, MPI_MODE_CREATE | MPI_MODE_WRONLY, MPI_INFO_NULL, &s) == MPI_SUCCESS &&
                  MPI_File_close(&s) == MPI_SUCCESS && link(p, q) == 0,
              "make same.dat and a hard link to it");
    }
    MPI_Barrier(MPI_COMM_WORLD);
    rc = MPI_File_open(MPI_COMM_WORLD, rank ? q : p, MPI_MODE_RDWR | MPI_MODE_DELETE_ON_CLOSE, MPI_INFO_NULL, &fh);
    mt_ok(rc == MPI_SUCCESS, "a hard link on rank 1 to rank 0's file: the same file, opened");
    if (rc == MPI_SUCCESS)
        mt_ok(MPI_File_close(&fh) == MPI_SUCCESS, "close (rank 0 deletes same.dat)");
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0)
        mt_ok(unlink(q) == 0, "the link is left, same.dat is not (%d)", access(p, F_OK));
}

/* offsets and positions whose bytes pass the largest file offset */
static void huge_offsets(void)
{
    char p[1024];
    MPI_File fh;
    MPI_Status st;
    char b[16] = "0123456789abcdef";
    path(p, "huge.dat");
    int rc = MPI_File_open(MPI_COMM_WORLD, p, MPI_MODE_CREATE | MPI_MODE_RDWR | MPI_MODE_DELETE_ON_CLOSE,
                           MPI_INFO_NULL, &fh);
    mt_ok(rc == MPI_SUCCESS, "open huge.dat");
    if (rc != MPI_SUCCESS)
        return;
    ERR_IS(MPI_File_write_at(fh, INT64_MAX - 4, b, 16, MPI_CHAR, &st), MPI_ERR_ARG, "MPI_File_write_at",
           "largest file offset", "write_at INT64_MAX - 4, 16 bytes: MPI_ERR_ARG");
    ERR_IS(MPI_File_read_at(fh, INT64_MAX, b, 1, MPI_CHAR, &st), MPI_ERR_ARG, "MPI_File_read_at",
           "largest file offset", "read_at INT64_MAX, 1 byte: MPI_ERR_ARG");
    ERR_IS(MPI_File_write_at_all(fh, INT64_MAX - 4, b, 16, MPI_CHAR, &st), MPI_ERR_ARG, "MPI_File_write_at_all",
           "largest file offset", "write_at_all INT64_MAX - 4, 16 bytes: MPI_ERR_ARG");
    /* a seek past INT64_MAX, and an access from a position near it */
    mt_ok(MPI_File_seek(fh, INT64_MAX - 2, MPI_SEEK_SET) == MPI_SUCCESS, "seek to INT64_MAX - 2");
    ERR_IS(MPI_File_seek(fh, INT64_MAX, MPI_SEEK_CUR), MPI_ERR_ARG, "MPI_File_seek", "largest",
           "seek CUR by INT64_MAX from INT64_MAX - 2: MPI_ERR_ARG");
    MPI_Offset pos = -1;
    mt_ok(MPI_File_get_position(fh, &pos) == MPI_SUCCESS && pos == INT64_MAX - 2,
          "the position is unchanged (%lld)", (long long)pos);
    ERR_IS(MPI_File_write(fh, b, 16, MPI_CHAR, &st), MPI_ERR_ARG, "MPI_File_write", "largest file offset",
           "write 16 bytes at position INT64_MAX - 2: MPI_ERR_ARG");
    mt_ok(MPI_File_get_position(fh, &pos) == MPI_SUCCESS && pos == INT64_MAX - 2,
          "the position is unchanged after the failed write (%lld)", (long long)pos);
    /* the file is untouched */
    MPI_Offset sz = -1;
    mt_ok(MPI_File_get_size(fh, &sz) == MPI_SUCCESS && sz == 0, "the file is still empty (%lld)", (long long)sz);
    mt_ok(MPI_File_close(&fh) == MPI_SUCCESS, "close huge.dat");
}

/* garbage hint values are ignored (the defaults stay); foreign handles */
static void garbage(void)
{
    char p[1024];
    MPI_File fh;
    MPI_Info info;
    MPI_Info_create(&info);
    MPI_Info_set(info, "cb_buffer_size", "-5");
    MPI_Info_set(info, "ind_wr_buffer_size", "12abc");
    MPI_Info_set(info, "striping_unit", "99999999999999999999999");
    MPI_Info_set(info, "file_perm", "0999");
    MPI_Info_set(info, "access_style", "\x01\xff");
    MPI_Info_set(info, "romio_cb_write", "maybe");
    path(p, "hints.dat");
    int rc = MPI_File_open(MPI_COMM_WORLD, p, MPI_MODE_CREATE | MPI_MODE_RDWR | MPI_MODE_DELETE_ON_CLOSE, info, &fh);
    MPI_Info_free(&info);
    mt_ok(rc == MPI_SUCCESS, "open with garbage hint values");
    if (rc != MPI_SUCCESS)
        return;
    MPI_Info used;
    char v[MPI_MAX_INFO_VAL + 1] = "";
    int flag = 0;
    mt_ok(MPI_File_get_info(fh, &used) == MPI_SUCCESS, "get_info");
    MPI_Info_get(used, "cb_buffer_size", MPI_MAX_INFO_VAL, v, &flag);
    mt_ok(flag && !strcmp(v, "2097152"), "cb_buffer_size stays 2097152 (got %s)", v);
    MPI_Info_get(used, "ind_wr_buffer_size", MPI_MAX_INFO_VAL, v, &flag);
    mt_ok(flag && !strcmp(v, "524288"), "ind_wr_buffer_size stays 524288 (got %s)", v);
    MPI_Info_get(used, "striping_unit", MPI_MAX_INFO_VAL, v, &flag);
    mt_ok(!flag, "no striping_unit");
    MPI_Info_get(used, "file_perm", MPI_MAX_INFO_VAL, v, &flag);
    mt_ok(!flag, "no file_perm");
    MPI_Info_get(used, "romio_cb_write", MPI_MAX_INFO_VAL, v, &flag);
    mt_ok(flag && !strcmp(v, "automatic"), "romio_cb_write stays automatic (got %s)", v);
    MPI_Info_free(&used);

    /* a communicator handle passed as a file */
    MPI_Offset sz;
    ERR_IS(MPI_File_get_size((MPI_File)(void *)MPI_COMM_WORLD, &sz), MPI_ERR_FILE, "MPI_File_get_size",
           "invalid file handle", "MPI_COMM_WORLD as a file: MPI_ERR_FILE");
    /* MPI_DATATYPE_NULL, a negative count, an uncommitted type */
    char b[8];
    MPI_Datatype t;
    ERR_IS(MPI_File_write_at(fh, 0, b, 1, MPI_DATATYPE_NULL, MPI_STATUS_IGNORE), MPI_ERR_TYPE, "MPI_File_write_at",
           "invalid datatype", "MPI_DATATYPE_NULL: MPI_ERR_TYPE");
    ERR_IS(MPI_File_read_at(fh, 0, b, -1, MPI_CHAR, MPI_STATUS_IGNORE), MPI_ERR_COUNT, "MPI_File_read_at",
           "negative", "count -1: MPI_ERR_COUNT");
    MPI_Type_contiguous(2, MPI_CHAR, &t);
    ERR_IS(MPI_File_write_at(fh, 0, b, 1, t, MPI_STATUS_IGNORE), MPI_ERR_TYPE, "MPI_File_write_at",
           "not committed", "an uncommitted type: MPI_ERR_TYPE");
    MPI_Type_free(&t);

    /* the same file opened twice by the same ranks: both see one file */
    MPI_File fh2;
    rc = MPI_File_open(MPI_COMM_WORLD, p, MPI_MODE_RDWR, MPI_INFO_NULL, &fh2);
    mt_ok(rc == MPI_SUCCESS, "open hints.dat a second time");
    if (rc == MPI_SUCCESS) {
        int x = 1000 + rank, y = -1;
        mt_ok(MPI_File_write_at(fh, rank * 4, &x, 1, MPI_INT, MPI_STATUS_IGNORE) == MPI_SUCCESS, "write by the first");
        MPI_Barrier(MPI_COMM_WORLD);
        int other = (rank + 1) % size;
        mt_ok(MPI_File_read_at(fh2, other * 4, &y, 1, MPI_INT, MPI_STATUS_IGNORE) == MPI_SUCCESS && y == 1000 + other,
              "read by the second: %d (got %d)", 1000 + other, y);
        mt_ok(MPI_File_close(&fh2) == MPI_SUCCESS, "close the second");
    }
    mt_ok(MPI_File_close(&fh) == MPI_SUCCESS, "close the first (deletes hints.dat)");
}

/* One rank's bad arguments to a collective access: that rank reports its
 * own error, the others must not wait for it in the exchange (each
 * returns the same class, naming the rank) and no rank writes. Forced
 * two-phase, so that the others would wait in it. */
static void one_bad_rank(void)
{
    if (size < 2)
        return;
    char p[1024];
    MPI_File fh;
    MPI_Info info;
    MPI_Info_create(&info);
    MPI_Info_set(info, "romio_cb_write", "enable");
    MPI_Info_set(info, "romio_cb_read", "enable");
    path(p, "onebad.dat");
    int rc = MPI_File_open(MPI_COMM_WORLD, p, MPI_MODE_CREATE | MPI_MODE_RDWR | MPI_MODE_DELETE_ON_CLOSE, info, &fh);
    MPI_Info_free(&info);
    mt_is_int(rc, MPI_SUCCESS, "one bad rank: open");
    if (rc)
        return;
    int b[4] = {rank, rank, rank, rank};
    int bad = size - 1;
    rc = MPI_File_write_at_all(fh, rank * 4, b, rank == bad ? -1 : 4, MPI_INT, MPI_STATUS_IGNORE);
    mt_is_int(rc, MPI_ERR_COUNT, "one bad rank: write_at_all with count -1 on rank %d only: MPI_ERR_COUNT on "
              "rank %d, none waits", bad, rank);
    MPI_Offset sz = -1;
    MPI_File_get_size(fh, &sz);
    mt_ok(sz == 0, "one bad rank: nobody wrote (size %lld)", (long long)sz);
    MPI_Datatype unc;
    MPI_Type_contiguous(2, MPI_INT, &unc);
    rc = MPI_File_read_all(fh, b, 1, rank == 0 ? unc : MPI_INT, MPI_STATUS_IGNORE);
    mt_is_int(rc, MPI_ERR_TYPE, "one bad rank: read_all with an uncommitted type on rank 0 only: MPI_ERR_TYPE "
              "on rank %d", rank);
    MPI_Type_free(&unc);
    rc = MPI_File_write_all_begin(fh, b, 4, MPI_INT);
    mt_is_int(rc, MPI_SUCCESS, "one bad rank: write_all_begin");
    if (rank == bad)
        rc = MPI_File_write_all_begin(fh, b, 4, MPI_INT);
    else
        rc = MPI_File_read_all_begin(fh, b, 4, MPI_INT); /* erroneous too: a split is active */
    mt_is_int(rc, MPI_ERR_IO, "one bad rank: a second split begin: MPI_ERR_IO on rank %d, none waits", rank);
    rc = MPI_File_write_all_end(fh, b, MPI_STATUS_IGNORE);
    mt_is_int(rc, MPI_SUCCESS, "one bad rank: write_all_end after it");
    rc = MPI_File_close(&fh);
    mt_is_int(rc, MPI_SUCCESS, "one bad rank: close");
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    mt_rank = rank;
    if (argc < 2) {
        mt_ok(0, "usage: io_hostile DIR");
        mt_done();
        MPI_Finalize();
        return 1;
    }
    snprintf(dir, sizeof dir, "%s", argv[1]);
    char p[1024];
    MPI_File fh;
    if (argc > 2 && !strcmp(argv[2], "fatal")) {
        MPI_File_set_errhandler(MPI_FILE_NULL, MPI_ERRORS_ARE_FATAL);
        if (rank == 1) {
            path(p, "missing.dat");
            MPI_File_open(MPI_COMM_SELF, p, MPI_MODE_RDONLY, MPI_INFO_NULL, &fh);
            printf("# rank 1 went on after a fatal error\n");
            return 3;
        }
        MPI_Barrier(MPI_COMM_WORLD); /* never completes: the job ends */
        return 4;
    }
    if (argc > 2 && !strcmp(argv[2], "leak")) {
        /* 8 bytes a rank, never closed */
        path(p, "leak.dat");
        char b[8];
        memset(b, 'a' + rank, sizeof b);
        if (MPI_File_open(MPI_COMM_WORLD, p, MPI_MODE_CREATE | MPI_MODE_WRONLY, MPI_INFO_NULL, &leaked) != MPI_SUCCESS ||
            MPI_File_write_at_all(leaked, rank * 8, b, 8, MPI_CHAR, MPI_STATUS_IGNORE) != MPI_SUCCESS)
            return 2;
        return MPI_Finalize() == MPI_SUCCESS ? 0 : 5;
    }
    if (argc > 2 && !strcmp(argv[2], "kill")) {
        path(p, "kill.dat");
        char b[8] = "killkill";
        if (MPI_File_open(MPI_COMM_WORLD, p, MPI_MODE_CREATE | MPI_MODE_RDWR | MPI_MODE_DELETE_ON_CLOSE,
                          MPI_INFO_NULL, &fh) != MPI_SUCCESS)
            return 2;
        if (rank == 1)
            raise(SIGKILL);
        MPI_File_write_at_all(fh, rank * 8, b, 8, MPI_CHAR, MPI_STATUS_IGNORE);
        MPI_File_close(&fh); /* waits for rank 1: the job ends */
        return 4;
    }
    odd_paths();
    different_files();
    huge_offsets();
    garbage();
    one_bad_rank();
    int failed = mt_done();
    MPI_Finalize();
    return failed;
}

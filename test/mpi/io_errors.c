/* MPI test: the errors of the file object and contiguous access
 * (runtime/io/PLAN.md 6) on 1 and 2 ranks. Each class stage 1 can raise,
 * under the default handler of files (MPI_ERRORS_RETURN: none is set
 * here until the handler part), with a message that names the call and
 * the cause; a user handler on MPI_FILE_NULL called by a failing open and
 * delete and inherited by a new file; set/get/call_errhandler on a file.
 * The program goes on after each error. argv[1]: a directory for the
 * files (made by io_errors.sh). */
#include <errno.h>
#include <fcntl.h>
#include <mpi.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "iotest.h"

static int rank, size;
static char dir[900];

static void path(char *out, const char *name)
{
    snprintf(out, 1024, "%s/%s", dir, name);
}

/* ------------------------------------------------------------ a user handler */
static int calls, last_code;
static MPI_File last_file = (MPI_File)1;

static void handler(MPI_File *f, int *code, ...)
{
    calls++;
    last_code = *code;
    last_file = *f;
}

static void open_errors(void)
{
    char p[1024], q[1024];
    MPI_File fh = MPI_FILE_NULL;
    int rc;

    path(p, "none.dat");
    rc = MPI_File_open(MPI_COMM_WORLD, p, MPI_MODE_RDONLY, MPI_INFO_NULL, &fh);
    ERR_IS(rc, MPI_ERR_NO_SUCH_FILE, "MPI_File_open", "none.dat", "open RDONLY a missing file: MPI_ERR_NO_SUCH_FILE");
    mt_ok(fh == MPI_FILE_NULL, "the handle is left MPI_FILE_NULL");
    path(p, "no/such/dir/x.dat");
    rc = MPI_File_open(MPI_COMM_WORLD, p, MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL, &fh);
    ERR_IS(rc, MPI_ERR_NO_SUCH_FILE, "MPI_File_open", "No such file",
           "open CREATE in a missing directory: MPI_ERR_NO_SUCH_FILE");

    rc = MPI_File_open(MPI_COMM_WORLD, p, 0, MPI_INFO_NULL, &fh);
    ERR_IS(rc, MPI_ERR_AMODE, "MPI_File_open", "none of MPI_MODE_RDONLY", "amode 0: MPI_ERR_AMODE");
    rc = MPI_File_open(MPI_COMM_WORLD, p, MPI_MODE_RDONLY | MPI_MODE_RDWR, MPI_INFO_NULL, &fh);
    ERR_IS(rc, MPI_ERR_AMODE, "MPI_File_open", "more than one", "RDONLY|RDWR: MPI_ERR_AMODE");
    rc = MPI_File_open(MPI_COMM_WORLD, p, MPI_MODE_RDONLY | MPI_MODE_CREATE, MPI_INFO_NULL, &fh);
    ERR_IS(rc, MPI_ERR_AMODE, "MPI_File_open", "RDONLY with MPI_MODE_CREATE", "RDONLY|CREATE: MPI_ERR_AMODE");
    rc = MPI_File_open(MPI_COMM_WORLD, p, MPI_MODE_RDONLY | MPI_MODE_EXCL, MPI_INFO_NULL, &fh);
    ERR_IS(rc, MPI_ERR_AMODE, "MPI_File_open", "RDONLY with MPI_MODE_EXCL", "RDONLY|EXCL: MPI_ERR_AMODE");
    rc = MPI_File_open(MPI_COMM_WORLD, p, MPI_MODE_RDWR | MPI_MODE_SEQUENTIAL, MPI_INFO_NULL, &fh);
    ERR_IS(rc, MPI_ERR_AMODE, "MPI_File_open", "RDWR with MPI_MODE_SEQUENTIAL", "RDWR|SEQUENTIAL: MPI_ERR_AMODE");
    rc = MPI_File_open(MPI_COMM_WORLD, p, MPI_MODE_RDWR | 4096, MPI_INFO_NULL, &fh);
    ERR_IS(rc, MPI_ERR_AMODE, "MPI_File_open", "no MPI_MODE_", "an unknown amode bit: MPI_ERR_AMODE");

    /* an existing file with EXCL */
    path(p, "exists.dat");
    rc = MPI_File_open(MPI_COMM_WORLD, p, MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL, &fh);
    mt_is_int(rc, MPI_SUCCESS, "open CREATE a new file");
    MPI_File_close(&fh);
    rc = MPI_File_open(MPI_COMM_WORLD, p, MPI_MODE_CREATE | MPI_MODE_EXCL | MPI_MODE_RDWR, MPI_INFO_NULL, &fh);
    ERR_IS(rc, MPI_ERR_FILE_EXISTS, "MPI_File_open", "exists", "CREATE|EXCL of an existing file: MPI_ERR_FILE_EXISTS");
    /* a path through a regular file; a directory */
    path(q, "exists.dat/x");
    rc = MPI_File_open(MPI_COMM_WORLD, q, MPI_MODE_RDONLY, MPI_INFO_NULL, &fh);
    ERR_IS(rc, MPI_ERR_BAD_FILE, "MPI_File_open", "Not a directory", "a path through a file: MPI_ERR_BAD_FILE");
    rc = MPI_File_open(MPI_COMM_WORLD, dir, MPI_MODE_RDONLY, MPI_INFO_NULL, &fh);
    ERR_IS(rc, MPI_ERR_BAD_FILE, "MPI_File_open", "directory", "a directory: MPI_ERR_BAD_FILE");
    rc = MPI_File_open(MPI_COMM_WORLD, "", MPI_MODE_RDONLY, MPI_INFO_NULL, &fh);
    ERR_IS(rc, MPI_ERR_BAD_FILE, "MPI_File_open", "empty", "an empty name: MPI_ERR_BAD_FILE");
    rc = MPI_File_open(MPI_COMM_NULL, p, MPI_MODE_RDONLY, MPI_INFO_NULL, &fh);
    ERR_IS(rc, MPI_ERR_COMM, "MPI_File_open", "invalid communicator", "MPI_COMM_NULL: MPI_ERR_COMM");
    if (size > 1) {
        /* amodes that differ: rank 1 says RDONLY, rank 0 RDWR */
        rc = MPI_File_open(MPI_COMM_WORLD, p, rank ? MPI_MODE_RDONLY : MPI_MODE_RDWR, MPI_INFO_NULL, &fh);
        ERR_IS(rc, MPI_ERR_NOT_SAME, "MPI_File_open", rank ? "differs from rank 0" : "rank 1 failed",
               "amodes that differ between ranks: MPI_ERR_NOT_SAME on every rank");
        /* a failure on rank 1 only (a missing file for it): the same class on rank 0 */
        path(q, rank ? "none.dat" : "exists.dat");
        rc = MPI_File_open(MPI_COMM_WORLD, q, MPI_MODE_RDONLY, MPI_INFO_NULL, &fh);
        ERR_IS(rc, MPI_ERR_NO_SUCH_FILE, "MPI_File_open", rank ? "none.dat" : "rank 1 failed",
               "one rank's failure: its class on every rank");
        /* rank 0's failure reaches rank 1 */
        path(q, rank ? "exists.dat" : "none.dat");
        rc = MPI_File_open(MPI_COMM_WORLD, q, MPI_MODE_RDONLY, MPI_INFO_NULL, &fh);
        ERR_IS(rc, MPI_ERR_NO_SUCH_FILE, "MPI_File_open", rank ? "rank 0 failed" : "none.dat",
               "rank 0's failure: its class on every rank");
    }

    /* delete */
    path(q, "none.dat");
    ERR_IS(MPI_File_delete(q, MPI_INFO_NULL), MPI_ERR_NO_SUCH_FILE, "MPI_File_delete", "none.dat",
           "delete a missing file: MPI_ERR_NO_SUCH_FILE");
    path(q, "exists.dat/x");
    ERR_IS(MPI_File_delete(q, MPI_INFO_NULL), MPI_ERR_BAD_FILE, "MPI_File_delete", "Not a directory",
           "delete through a file: MPI_ERR_BAD_FILE");
    ERR_IS(MPI_File_delete(NULL, MPI_INFO_NULL), MPI_ERR_BAD_FILE, "MPI_File_delete", "NULL",
           "delete NULL: MPI_ERR_BAD_FILE");
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0)
        mt_is_int(MPI_File_delete(p, MPI_INFO_NULL), MPI_SUCCESS, "the program went on: delete works");
    MPI_Barrier(MPI_COMM_WORLD);
}

static void access_errors(void)
{
    char p[1024];
    MPI_File fh = MPI_FILE_NULL, ro = MPI_FILE_NULL, wo = MPI_FILE_NULL, sq = MPI_FILE_NULL;
    unsigned char b[64] = {0};
    MPI_Offset o;
    int rc;

    ERR_IS(MPI_File_get_size(MPI_FILE_NULL, &o), MPI_ERR_FILE, "MPI_File_get_size", "MPI_FILE_NULL",
           "get_size of MPI_FILE_NULL: MPI_ERR_FILE");
    ERR_IS(MPI_File_write_at(MPI_FILE_NULL, 0, b, 1, MPI_BYTE, MPI_STATUS_IGNORE), MPI_ERR_FILE, "MPI_File_write_at",
           "MPI_FILE_NULL", "write_at on MPI_FILE_NULL: MPI_ERR_FILE");
    MPI_File nf = MPI_FILE_NULL;
    ERR_IS(MPI_File_close(&nf), MPI_ERR_FILE, "MPI_File_close", "MPI_FILE_NULL", "close MPI_FILE_NULL: MPI_ERR_FILE");

    path(p, "acc.dat");
    MPI_File_open(MPI_COMM_WORLD, p, MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL, &fh);
    MPI_File_write_at(fh, rank * 64, b, 64, MPI_BYTE, MPI_STATUS_IGNORE);
    MPI_File_close(&fh);
    MPI_File_open(MPI_COMM_WORLD, p, MPI_MODE_RDONLY, MPI_INFO_NULL, &ro);
    MPI_File_open(MPI_COMM_WORLD, p, MPI_MODE_WRONLY, MPI_INFO_NULL, &wo);
    MPI_File_open(MPI_COMM_WORLD, p, MPI_MODE_RDWR, MPI_INFO_NULL, &fh);

    ERR_IS(MPI_File_write_at(ro, 0, b, 1, MPI_BYTE, MPI_STATUS_IGNORE), MPI_ERR_READ_ONLY, "MPI_File_write_at",
           "MPI_MODE_RDONLY", "write_at on a RDONLY file: MPI_ERR_READ_ONLY");
    ERR_IS(MPI_File_write_all(ro, b, 1, MPI_BYTE, MPI_STATUS_IGNORE), MPI_ERR_READ_ONLY, "MPI_File_write_all",
           "MPI_MODE_RDONLY", "write_all on a RDONLY file: MPI_ERR_READ_ONLY");
    ERR_IS(MPI_File_set_size(ro, 10), MPI_ERR_READ_ONLY, "MPI_File_set_size", "MPI_MODE_RDONLY",
           "set_size on a RDONLY file: MPI_ERR_READ_ONLY");
    ERR_IS(MPI_File_read_at(wo, 0, b, 1, MPI_BYTE, MPI_STATUS_IGNORE), MPI_ERR_ACCESS, "MPI_File_read_at",
           "MPI_MODE_WRONLY", "read_at on a WRONLY file: MPI_ERR_ACCESS");
    ERR_IS(MPI_File_read(wo, b, 1, MPI_BYTE, MPI_STATUS_IGNORE), MPI_ERR_ACCESS, "MPI_File_read", "MPI_MODE_WRONLY",
           "read on a WRONLY file: MPI_ERR_ACCESS");

    ERR_IS(MPI_File_read_at(fh, -1, b, 1, MPI_BYTE, MPI_STATUS_IGNORE), MPI_ERR_ARG, "MPI_File_read_at", "negative",
           "a negative offset: MPI_ERR_ARG");
    ERR_IS(MPI_File_seek(fh, -1, MPI_SEEK_SET), MPI_ERR_ARG, "MPI_File_seek", "before the start",
           "seek before 0: MPI_ERR_ARG");
    ERR_IS(MPI_File_seek(fh, 0, 601), MPI_ERR_ARG, "MPI_File_seek", "whence 601", "a bad whence: MPI_ERR_ARG");
    ERR_IS(MPI_File_get_byte_offset(fh, -5, &o), MPI_ERR_ARG, "MPI_File_get_byte_offset", "negative",
           "get_byte_offset of a negative offset: MPI_ERR_ARG");
    ERR_IS(MPI_File_read_at(fh, 0, b, -1, MPI_BYTE, MPI_STATUS_IGNORE), MPI_ERR_COUNT, "MPI_File_read_at",
           "count -1", "a negative count: MPI_ERR_COUNT");
    ERR_IS(MPI_File_write_at(fh, 0, b, 1, MPI_DATATYPE_NULL, MPI_STATUS_IGNORE), MPI_ERR_TYPE, "MPI_File_write_at",
           "invalid datatype", "MPI_DATATYPE_NULL: MPI_ERR_TYPE");
    MPI_Datatype unc;
    MPI_Type_contiguous(2, MPI_INT, &unc);
    ERR_IS(MPI_File_write_at(fh, 0, b, 1, unc, MPI_STATUS_IGNORE), MPI_ERR_TYPE, "MPI_File_write_at",
           "not committed", "an uncommitted type: MPI_ERR_TYPE");
    MPI_Type_free(&unc);
    ERR_IS(MPI_File_write_at(fh, 0, NULL, 4, MPI_BYTE, MPI_STATUS_IGNORE), MPI_ERR_BUFFER, "MPI_File_write_at",
           "NULL", "a NULL buffer: MPI_ERR_BUFFER");
    ERR_IS(MPI_File_set_size(fh, -3), MPI_ERR_ARG, "MPI_File_set_size", "negative", "a negative size: MPI_ERR_ARG");
    if (size > 1)
        ERR_IS(MPI_File_set_size(fh, 100 + rank), MPI_ERR_NOT_SAME, "MPI_File_set_size", "not the same",
               "sizes that differ between ranks: MPI_ERR_NOT_SAME");
    ERR_IS(MPI_File_preallocate(fh, -3), MPI_ERR_ARG, "MPI_File_preallocate", "negative",
           "preallocate a negative size: MPI_ERR_ARG");

    /* split collectives: one at a time, ends that match */
    ERR_IS(MPI_File_read_all_end(fh, b, MPI_STATUS_IGNORE), MPI_ERR_IO, "MPI_File_read_all_end", "no split",
           "an end without a begin: MPI_ERR_IO");
    rc = MPI_File_read_at_all_begin(fh, 0, b, 8, MPI_BYTE);
    mt_is_int(rc, MPI_SUCCESS, "read_at_all_begin");
    ERR_IS(MPI_File_write_all_begin(fh, b, 8, MPI_BYTE), MPI_ERR_IO, "MPI_File_write_all_begin",
           "MPI_File_read_at_all_begin", "a second begin: MPI_ERR_IO naming the active one");
    ERR_IS(MPI_File_read_all_end(fh, b, MPI_STATUS_IGNORE), MPI_ERR_IO, "MPI_File_read_all_end", "another call",
           "an end of another kind: MPI_ERR_IO");
    MPI_Status st;
    int cnt = -1;
    rc = MPI_File_read_at_all_end(fh, b, &st);
    MPI_Get_count(&st, MPI_BYTE, &cnt);
    mt_ok(rc == MPI_SUCCESS && cnt == 8, "the matching end still completes it (8 bytes)");

    /* SEQUENTIAL: no explicit offsets, no individual pointer */
    path(p, "seq.dat");
    MPI_File_open(MPI_COMM_WORLD, p, MPI_MODE_CREATE | MPI_MODE_WRONLY | MPI_MODE_SEQUENTIAL, MPI_INFO_NULL, &sq);
    ERR_IS(MPI_File_write_at(sq, 0, b, 1, MPI_BYTE, MPI_STATUS_IGNORE), MPI_ERR_UNSUPPORTED_OPERATION,
           "MPI_File_write_at", "MPI_MODE_SEQUENTIAL", "write_at on a SEQUENTIAL file: MPI_ERR_UNSUPPORTED_OPERATION");
    ERR_IS(MPI_File_write(sq, b, 1, MPI_BYTE, MPI_STATUS_IGNORE), MPI_ERR_UNSUPPORTED_OPERATION, "MPI_File_write",
           "MPI_MODE_SEQUENTIAL", "write (individual pointer) on a SEQUENTIAL file");
    ERR_IS(MPI_File_seek(sq, 0, MPI_SEEK_SET), MPI_ERR_UNSUPPORTED_OPERATION, "MPI_File_seek", "MPI_MODE_SEQUENTIAL",
           "seek on a SEQUENTIAL file");
    ERR_IS(MPI_File_get_position(sq, &o), MPI_ERR_UNSUPPORTED_OPERATION, "MPI_File_get_position",
           "MPI_MODE_SEQUENTIAL", "get_position on a SEQUENTIAL file");
    ERR_IS(MPI_File_set_size(sq, 0), MPI_ERR_UNSUPPORTED_OPERATION, "MPI_File_set_size", "MPI_MODE_SEQUENTIAL",
           "set_size on a SEQUENTIAL file");
    MPI_File_close(&sq);

    /* a device that is always full: pwrite fails with ENOSPC */
    MPI_File full;
    rc = MPI_File_open(MPI_COMM_SELF, "/dev/full", MPI_MODE_WRONLY, MPI_INFO_NULL, &full);
    mt_is_int(rc, MPI_SUCCESS, "open /dev/full WRONLY");
    if (rc == MPI_SUCCESS) {
        ERR_IS(MPI_File_write_at(full, 0, b, 64, MPI_BYTE, MPI_STATUS_IGNORE), MPI_ERR_NO_SPACE,
               "MPI_File_write_at", "No space left", "a write to /dev/full: MPI_ERR_NO_SPACE");
        MPI_File_close(&full);
    }

    /* after all that, the files still work */
    rc = MPI_File_read_at(fh, 0, b, 64, MPI_BYTE, &st);
    MPI_Get_count(&st, MPI_BYTE, &cnt);
    mt_ok(rc == MPI_SUCCESS && cnt == 64, "the program went on: read_at works");
    MPI_File_close(&ro);
    MPI_File_close(&wo);
    MPI_File_close(&fh);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
        path(p, "acc.dat");
        MPI_File_delete(p, MPI_INFO_NULL);
        path(p, "seq.dat");
        MPI_File_delete(p, MPI_INFO_NULL);
    }
    MPI_Barrier(MPI_COMM_WORLD);
}

static void handlers(void)
{
    char p[1024];
    MPI_Errhandler eh, got;
    MPI_File fh = MPI_FILE_NULL;
    unsigned char b[8] = {0};

    MPI_File_get_errhandler(MPI_FILE_NULL, &got);
    mt_ok(got == MPI_ERRORS_RETURN, "MPI_FILE_NULL's handler starts as MPI_ERRORS_RETURN");
    MPI_Errhandler_free(&got);
    mt_is_int(MPI_File_create_errhandler(handler, &eh), MPI_SUCCESS, "create_errhandler");
    mt_is_int(MPI_File_set_errhandler(MPI_FILE_NULL, eh), MPI_SUCCESS, "set it on MPI_FILE_NULL");

    path(p, "none.dat");
    calls = 0;
    int rc = MPI_File_open(MPI_COMM_WORLD, p, MPI_MODE_RDONLY, MPI_INFO_NULL, &fh);
    mt_ok(rc == MPI_ERR_NO_SUCH_FILE && calls == 1 && last_code == MPI_ERR_NO_SUCH_FILE && last_file == MPI_FILE_NULL,
          "a failing open calls MPI_FILE_NULL's handler with MPI_FILE_NULL and the class");
    calls = 0;
    rc = MPI_File_delete(p, MPI_INFO_NULL);
    mt_ok(rc == MPI_ERR_NO_SUCH_FILE && calls == 1 && last_code == MPI_ERR_NO_SUCH_FILE,
          "a failing delete calls it too");
    calls = 0;
    MPI_Offset o;
    MPI_File_get_size(MPI_FILE_NULL, &o);
    mt_ok(calls == 1 && last_code == MPI_ERR_FILE, "a call on MPI_FILE_NULL calls it with MPI_ERR_FILE");

    path(p, "h.dat");
    rc = MPI_File_open(MPI_COMM_WORLD, p, MPI_MODE_CREATE | MPI_MODE_RDWR,
                       MPI_INFO_NULL, &fh);
    mt_is_int(rc, MPI_SUCCESS, "open a new file");
    MPI_File_get_errhandler(fh, &got);
    mt_ok(got == eh, "the new file took MPI_FILE_NULL's handler");
    MPI_Errhandler_free(&got);
    calls = 0;
    rc = MPI_File_read_at(fh, -1, b, 1, MPI_BYTE, MPI_STATUS_IGNORE);
    mt_ok(rc == MPI_ERR_ARG && calls == 1 && last_file == fh && last_code == MPI_ERR_ARG,
          "an error on the file calls its handler with the file");
    calls = 0;
    mt_is_int(MPI_File_call_errhandler(fh, MPI_ERR_OTHER), MPI_SUCCESS, "call_errhandler returns MPI_SUCCESS");
    mt_ok(calls == 1 && last_code == MPI_ERR_OTHER && last_file == fh, "call_errhandler called it with the code");
    /* the file's own handler, apart from MPI_FILE_NULL's */
    mt_is_int(MPI_File_set_errhandler(fh, MPI_ERRORS_RETURN), MPI_SUCCESS, "set MPI_ERRORS_RETURN on the file");
    calls = 0;
    rc = MPI_File_read_at(fh, -1, b, 1, MPI_BYTE, MPI_STATUS_IGNORE);
    mt_ok(rc == MPI_ERR_ARG && calls == 0, "then the file's errors return without the handler");
    MPI_Errhandler ceh;
    MPI_Comm_create_errhandler((MPI_Comm_errhandler_function *)(void (*)(void))handler, &ceh);
    ERR_IS(MPI_File_set_errhandler(fh, ceh), MPI_ERR_ARG, "MPI_File_set_errhandler", "communicators",
           "a communicator's handler on a file: MPI_ERR_ARG");
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    ERR_IS(MPI_Comm_set_errhandler(MPI_COMM_SELF, eh), MPI_ERR_ARG, "MPI_Comm_set_errhandler", "files",
           "a file's handler on a communicator: MPI_ERR_ARG");
    MPI_Errhandler_free(&ceh);
    MPI_File_close(&fh);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0)
        MPI_File_delete(p, MPI_INFO_NULL);
    mt_is_int(MPI_File_set_errhandler(MPI_FILE_NULL, MPI_ERRORS_RETURN), MPI_SUCCESS,
              "MPI_FILE_NULL's handler back to MPI_ERRORS_RETURN");
    MPI_Errhandler_free(&eh);
    calls = 0;
    rc = MPI_File_open(MPI_COMM_WORLD, "", MPI_MODE_RDONLY, MPI_INFO_NULL, &fh);
    mt_ok(rc == MPI_ERR_BAD_FILE && calls == 0, "then a failing open returns without the freed handler");
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    mt_rank = rank;
    if (argc < 2) {
        printf("not ok [rank %d] usage: io_errors DIR\n", rank);
        MPI_Finalize();
        return 1;
    }
    snprintf(dir, sizeof dir, "%s", argv[1]);
    open_errors();
    access_errors();
    handlers();
    printf("done [rank %d] %d checks, %d failed\n", rank, mt_checks, mt_failed);
    MPI_Finalize();
    return mt_failed != 0;
}

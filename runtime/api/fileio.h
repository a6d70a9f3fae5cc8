/* fileio.h - what the file entry points share (runtime/api/file.c,
 * fileio.c, and the other parts' entry points: views, shared pointer,
 * nonblocking I/O): the handle check, the access checks, the state, the
 * status of an access. Every check returns MPI_SUCCESS or the class
 * raised through the right handler (the file's; MPI_FILE_NULL's for an
 * invalid handle), with a message naming the call and the cause. */
#ifndef RD_API_FILEIO_H
#define RD_API_FILEIO_H

#include <mpi.h>
#include <stddef.h>

#include "runtime/io/io_int.h"
#include "runtime/objects/datatype.h"
#include "runtime/objects/errhandler.h"
#include "runtime/objects/file.h"

/* the I/O state of a valid file */
static inline struct rd_io_file *rd_file_io(MPI_File fh)
{
    return (struct rd_io_file *)fh->io;
}

/* A live file: else MPI_ERR_FILE through MPI_FILE_NULL's handler. */
static inline int rd_check_file(const char *call, MPI_File fh)
{
    if (rd_file_valid(fh))
        return MPI_SUCCESS;
    return rd_err_raise_file(MPI_FILE_NULL, MPI_ERR_FILE, call, "%s",
                             fh == MPI_FILE_NULL ? "the file is MPI_FILE_NULL" : "invalid file handle");
}

/* Counts are MPI_Count: the large-count calls (MPI_File_read_c ...) are
 * their int twins' code. */

/* The checks of a data access of count elements of dt at buf, reading
 * (write 0) or writing: count (MPI_ERR_COUNT), the type (MPI_ERR_TYPE),
 * the buffer (MPI_ERR_BUFFER), the access mode (writing a RDONLY file:
 * MPI_ERR_READ_ONLY; reading a WRONLY one: MPI_ERR_ACCESS), whole etypes
 * (MPI_ERR_IO). Not the handle (rd_check_file first). */
int rd_file_check_access(const char *call, MPI_File fh, int write, const void *buf, MPI_Count count, MPI_Datatype dt);
/* A call that needs a file pointer of its own or an explicit offset, on
 * a file opened with MPI_MODE_SEQUENTIAL: MPI_ERR_UNSUPPORTED_OPERATION. */
int rd_file_check_not_seq(const char *call, MPI_File fh);
/* An explicit offset (etypes) must not be negative: MPI_ERR_ARG. */
int rd_file_check_offset(const char *call, MPI_File fh, MPI_Offset offset);
/* The access of count elements of dt at etype at (an explicit offset, or
 * the individual pointer) must end at a file offset (no wrap past
 * INT64_MAX): MPI_ERR_ARG. */
int rd_file_check_range(const char *call, MPI_File fh, int explicit, MPI_Offset at, MPI_Count count, MPI_Datatype dt);

/* The status of an access that moved bytes data bytes (NULL or
 * MPI_STATUS_IGNORE: nothing). */
void rd_file_status(MPI_Status *status, size_t bytes);

/* The split collectives (MPI-3.1 13.4.5): at most one active per file;
 * which begin made it (rd_io_file's split_op). */
enum rd_file_split_op {
    RD_IO_OP_NONE,
    RD_IO_OP_READ_AT_ALL,
    RD_IO_OP_WRITE_AT_ALL,
    RD_IO_OP_READ_ALL,
    RD_IO_OP_WRITE_ALL,
    RD_IO_OP_READ_ORDERED,  /* stage 4's */
    RD_IO_OP_WRITE_ORDERED,
};
/* A begin: MPI_ERR_IO if a split collective is already active. */
int rd_file_split_check_begin(const char *call, MPI_File fh);
/* A begin whose access is done (stage 1: inside the begin): remember it
 * and the access's status for the end. */
void rd_file_split_began(MPI_File fh, int op, size_t bytes);
/* An end: MPI_ERR_IO if the active split collective is not op's (or none
 * is); else the begin's status into status, and none is active. */
int rd_file_split_end(const char *call, MPI_File fh, int op, MPI_Status *status);

/* Raise a class the I/O floor described in why (call and rank added). */
static inline int rd_file_raise(MPI_File fh, int cls, const char *call, const rd_io_why *why)
{
    return rd_err_raise_file(fh, cls, call, "%s", why->msg[0] ? why->msg : "failed");
}

/* The nonblocking accesses' start (fileasync.c), also the split
 * collectives' begin (fileio.c): the checks of the access, each reported
 * (rc: the caller's own check before them, already reported), then the
 * access started (coll: rd_io_coll_start, else rd_file_async) and the
 * individual pointer moved past it. A collective call that fails its
 * checks meets the other ranks in later progress (rd_io_coll_abstain_nb). */
int rd_file_istart(const char *call, MPI_File fh, int explicit, MPI_Offset offset, int write, int coll, void *buf,
                   MPI_Count count, MPI_Datatype dt, MPI_Request *request, int rc);
/* Start a nonblocking access of (buf, count, dt) at stream byte at on the
 * I/O engine (runtime/api/fileasync.c; the arguments checked, big lock
 * held): *request completes with it. Returns a class, *why the cause. */
int rd_file_async(MPI_File fh, int write, MPI_Offset at, void *buf, MPI_Count count, MPI_Datatype dt,
                  MPI_Request *request, rd_io_why *why);

#endif

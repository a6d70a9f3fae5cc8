/* The data accesses with the shared file pointer (MPI-3.1 13.4.4):
 * read/write_shared, iread/iwrite_shared, read/write_ordered and their
 * split forms, seek_shared, get_position_shared; each a real PMPI_ with a
 * weak MPI_.
 * The pointer is runtime/io/shfp.c's; the checks and the split
 * collectives' bookkeeping are fileio.h's, as for the other accesses. */
#include <mpi.h>
#include <stdlib.h>

#include "runtime/api/check.h"
#include "runtime/api/fileio.h"
#include "runtime/base/state.h"
#include "runtime/io/io_int.h"
#include "runtime/objects/datatype.h"

/* read/write_shared (ordered 0) and read/write_ordered (ordered 1) */
static int shared_access(const char *call, MPI_File fh, int ordered, int write, void *buf, MPI_Count count,
                         MPI_Datatype dt, size_t *bytes)
{
    RD_API_READY(call);
    RD_TRY(rd_check_file(call, fh));
    RD_TRY(rd_file_check_access(call, fh, write, buf, count, dt));
    struct rd_io_file *io = rd_file_io(fh);
    rd_io_why why = {""};
    *bytes = 0;
    RD_LOCK();
    int cls = ordered ? rd_io_ordered(io, write, buf, (size_t)count, dt, bytes, &why)
                      : rd_io_shared(io, write, buf, (size_t)count, dt, bytes, &why);
    RD_UNLOCK();
    return cls == MPI_SUCCESS ? MPI_SUCCESS : rd_file_raise(fh, cls, call, &why);
}

static int shared_call(const char *call, MPI_File fh, int ordered, int write, void *buf, MPI_Count count,
                       MPI_Datatype dt, MPI_Status *status)
{
    size_t bytes;
    int rc = shared_access(call, fh, ordered, write, buf, count, dt, &bytes);
    if (rc == MPI_SUCCESS)
        rd_file_status(status, bytes);
    return rc;
}

/* every call with a count, with int counts and with MPI_Count ones
 * (MPI_File_read_shared_c ...) */
#define RD_STR(x) #x
#define RD_WEAK(NAME) _Pragma(RD_STR(weak MPI_File_##NAME = PMPI_File_##NAME))
#define RD_SHARED(NAME, ORDERED, WRITE, CB, SFX, CT)                                                     \
    RD_WEAK(NAME##SFX)                                                                                   \
    int PMPI_File_##NAME##SFX(MPI_File fh, CB void *buf, CT count, MPI_Datatype datatype, MPI_Status *status) \
    {                                                                                                    \
        return shared_call("MPI_File_" #NAME #SFX, fh, ORDERED, WRITE, (void *)buf, count, datatype, status); \
    }
#define RD_BOTH(M, NAME, A, B, CB) M(NAME, A, B, CB, , int) M(NAME, A, B, CB, _c, MPI_Count)
RD_BOTH(RD_SHARED, read_shared,   0, 0, )
RD_BOTH(RD_SHARED, write_shared,  0, 1, const)
RD_BOTH(RD_SHARED, read_ordered,  1, 0, )
RD_BOTH(RD_SHARED, write_ordered, 1, 1, const)

/* iread/iwrite_shared: the place is taken at the call (the pointer moves
 * then, MPI-3.1 13.4.4), the access is run by the I/O engine
 * (runtime/io/aio.c) on its thread, which touches only the file's
 * descriptor and view, the user's buffer and the datatype (held until
 * the request completes). */
static int shared_start(const char *call, MPI_File fh, int write, void *buf, MPI_Count count, MPI_Datatype dt,
                        MPI_Request *request)
{
    RD_API_READY(call);
    RD_TRY(rd_check_file(call, fh));
    if (!request)
        return rd_err_raise_file(fh, MPI_ERR_ARG, call, "request is NULL");
    RD_TRY(rd_file_check_access(call, fh, write, buf, count, dt));
    struct rd_io_file *io = rd_file_io(fh);
    rd_io_why why = {""};
    MPI_Offset at;
    RD_LOCK();
    int cls = rd_io_shfp_take(io, (size_t)count, dt, &at, &why);
    if (cls == MPI_SUCCESS)
        cls = rd_file_async(fh, write, at, buf, count, dt, request, &why);
    RD_UNLOCK();
    return cls == MPI_SUCCESS ? MPI_SUCCESS : rd_file_raise(fh, cls, call, &why);
}

#define RD_ISHARED(NAME, WRITE, UNUSED, CB, SFX, CT)                                                    \
    RD_WEAK(NAME##SFX)                                                                                   \
    int PMPI_File_##NAME##SFX(MPI_File fh, CB void *buf, CT count, MPI_Datatype datatype, MPI_Request *request) \
    {                                                                                                    \
        return shared_start("MPI_File_" #NAME #SFX, fh, WRITE, (void *)buf, count, datatype, request);  \
    }
RD_BOTH(RD_ISHARED, iread_shared,  0, 0, )
RD_BOTH(RD_ISHARED, iwrite_shared, 1, 0, const)

/* The split forms: the access is done in the begin (as the other split
 * collectives' for now), the end hands its status back. */
static int ordered_begin(const char *call, MPI_File fh, int write, int op, void *buf, MPI_Count count,
                         MPI_Datatype dt)
{
    RD_API_READY(call);
    RD_TRY(rd_check_file(call, fh));
    RD_TRY(rd_file_split_check_begin(call, fh));
    size_t bytes;
    RD_TRY(shared_access(call, fh, 1, write, buf, count, dt, &bytes));
    rd_file_split_began(fh, op, bytes);
    return MPI_SUCCESS;
}

static int ordered_end(const char *call, MPI_File fh, int op, MPI_Status *status)
{
    RD_API_READY(call);
    RD_TRY(rd_check_file(call, fh));
    return rd_file_split_end(call, fh, op, status);
}

#define RD_ORDERED_BEGIN(NAME, WRITE, OP, CB, SFX, CT)                                                   \
    RD_WEAK(NAME##_begin##SFX)                                                                           \
    int PMPI_File_##NAME##_begin##SFX(MPI_File fh, CB void *buf, CT count, MPI_Datatype datatype)        \
    {                                                                                                    \
        return ordered_begin("MPI_File_" #NAME "_begin" #SFX, fh, WRITE, OP, (void *)buf, count, datatype); \
    }
RD_BOTH(RD_ORDERED_BEGIN, read_ordered,  0, RD_IO_OP_READ_ORDERED,  )
RD_BOTH(RD_ORDERED_BEGIN, write_ordered, 1, RD_IO_OP_WRITE_ORDERED, const)

#pragma weak MPI_File_read_ordered_end = PMPI_File_read_ordered_end
int PMPI_File_read_ordered_end(MPI_File fh, void *buf, MPI_Status *status)
{
    (void)buf;
    return ordered_end("MPI_File_read_ordered_end", fh, RD_IO_OP_READ_ORDERED, status);
}

#pragma weak MPI_File_write_ordered_end = PMPI_File_write_ordered_end
int PMPI_File_write_ordered_end(MPI_File fh, const void *buf, MPI_Status *status)
{
    (void)buf;
    return ordered_end("MPI_File_write_ordered_end", fh, RD_IO_OP_WRITE_ORDERED, status);
}

/* Collective. The arguments are compared among the ranks inside (a bad
 * whence or a negative result is judged by rank 0, so every rank returns
 * the same class); seeking is not allowed on a MPI_MODE_SEQUENTIAL file
 * (ROMIO's choice, as for MPI_File_seek). */
#pragma weak MPI_File_seek_shared = PMPI_File_seek_shared
int PMPI_File_seek_shared(MPI_File fh, MPI_Offset offset, int whence)
{
    const char *call = "MPI_File_seek_shared";
    RD_API_READY(call);
    RD_TRY(rd_check_file(call, fh));
    RD_TRY(rd_file_check_not_seq(call, fh));
    rd_io_why why = {""};
    RD_LOCK();
    int cls = rd_io_seek_shared(rd_file_io(fh), offset, whence, &why);
    RD_UNLOCK();
    return cls == MPI_SUCCESS ? MPI_SUCCESS : rd_file_raise(fh, cls, call, &why);
}

#pragma weak MPI_File_get_position_shared = PMPI_File_get_position_shared
int PMPI_File_get_position_shared(MPI_File fh, MPI_Offset *offset)
{
    const char *call = "MPI_File_get_position_shared";
    RD_API_READY(call);
    RD_TRY(rd_check_file(call, fh));
    if (!offset)
        return rd_err_raise_file(fh, MPI_ERR_ARG, call, "offset is NULL");
    rd_io_why why = {""};
    RD_LOCK();
    int cls = rd_io_position_shared(rd_file_io(fh), offset, &why);
    RD_UNLOCK();
    return cls == MPI_SUCCESS ? MPI_SUCCESS : rd_file_raise(fh, cls, call, &why);
}

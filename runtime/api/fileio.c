/* The data accesses of files at explicit offsets and with the individual
 * file pointer: blocking, collective and split collective, written from
 * one table (positioning x collective x blocking) by macro, each a real
 * PMPI_ with a weak MPI_; and seek, get_position, get_byte_offset,
 * get_view, get_type_extent (runtime/io/PLAN.md 6; the shared pointer,
 * nonblocking accesses and views have entry points of their own). */
#include <mpi.h>
#include <stdint.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "runtime/api/check.h"
#include "runtime/api/fileio.h"
#include "runtime/base/state.h"
#include "runtime/io/io.h"
#include "runtime/objects/datatype.h"
#include "runtime/objects/file.h"
#include "runtime/p2p/request.h"

/* A collective access: two-phase I/O when the ranks' file extents
 * interleave (or the hints ask for it), else each rank's part through the
 * independent path (runtime/io/coll.c, stage 3); collective over the
 * file's communicator, every rank returning the same class. */
static int coll_access(MPI_File fh, int write, MPI_Offset o, void *buf, MPI_Count count, MPI_Datatype dt,
                       size_t *bytes, rd_io_why *why)
{
    RD_LOCK();
    int cls = rd_io_coll(rd_file_io(fh), fh->comm, write, o, buf, (size_t)count, dt, bytes, why);
    RD_UNLOCK();
    return cls;
}

/* The checks of one rank's access, each reported on failure. */
static int check_access(const char *call, MPI_File fh, int explicit, MPI_Offset offset, int write, void *buf,
                        MPI_Count count, MPI_Datatype dt)
{
    RD_TRY(rd_file_check_not_seq(call, fh));
    RD_TRY(rd_file_check_access(call, fh, write, buf, count, dt));
    if (explicit)
        RD_TRY(rd_file_check_offset(call, fh, offset));
    return rd_file_check_range(call, fh, explicit, explicit ? offset : rd_file_io(fh)->fp, count, dt);
}

int rd_file_check_range(const char *call, MPI_File fh, int explicit, MPI_Offset at, MPI_Count count, MPI_Datatype dt)
{
    struct rd_io_file *io = rd_file_io(fh);
    /* the last byte must be a file offset (off_t): no wrap past INT64_MAX */
    MPI_Offset first, last;
    if (__builtin_mul_overflow(at, (MPI_Offset)io->view.esize, &first) ||
        __builtin_add_overflow(first, io->view.disp, &last) ||
        __builtin_add_overflow(last, (MPI_Offset)((size_t)count * dt->size), &last))
        return rd_err_raise_file(fh, MPI_ERR_ARG, call,
                                 "%lld elements of %s at %s %lld pass the largest file offset (%lld)", (long long)count,
                                 dt->name, explicit ? "offset" : "position", (long long)at, (long long)INT64_MAX);
    return MPI_SUCCESS;
}

/* The checks and the access of every blocking call. explicit: at offset
 * (etypes), else at the individual pointer, which then moves past the
 * etypes moved. */
static int do_access(const char *call, MPI_File fh, int explicit, MPI_Offset offset, int write, int coll,
                     void *buf, MPI_Count count, MPI_Datatype dt, size_t *bytes)
{
    RD_API_READY(call);
    RD_TRY(rd_check_file(call, fh));
    *bytes = 0;
    int rc = check_access(call, fh, explicit, offset, write, buf, count, dt);
    if (rc != MPI_SUCCESS) {
        /* reported here; a collective call still meets the other ranks in
         * its first exchange, so that they return an error instead of
         * waiting for this rank */
        if (coll) {
            RD_LOCK();
            rd_io_coll_abstain(fh->comm, rc);
            RD_UNLOCK();
        }
        return rc;
    }
    struct rd_io_file *io = rd_file_io(fh);
    MPI_Offset at = explicit ? offset : io->fp;
    rd_io_why why = {""};
    int cls = coll ? coll_access(fh, write, at * (MPI_Offset)io->view.esize, buf, count, dt, bytes, &why)
                   : rd_io_indep(io, write, at * (MPI_Offset)io->view.esize, buf, (size_t)count, dt, bytes, &why);
    if (!explicit)
        io->fp += (MPI_Offset)(*bytes / io->view.esize);
    if (cls != MPI_SUCCESS)
        return rd_file_raise(fh, cls, call, &why);
    return MPI_SUCCESS;
}

static int access_call(const char *call, MPI_File fh, int explicit, MPI_Offset offset, int write, int coll,
                       void *buf, MPI_Count count, MPI_Datatype dt, MPI_Status *status)
{
    size_t bytes;
    int rc = do_access(call, fh, explicit, offset, write, coll, buf, count, dt, &bytes);
    if (rc == MPI_SUCCESS)
        rd_file_status(status, bytes);
    return rc;
}

/* ------------------------------------------------------------ split collectives */

int rd_file_split_check_begin(const char *call, MPI_File fh)
{
    static const char *const names[] = {
        [RD_IO_OP_READ_AT_ALL] = "MPI_File_read_at_all_begin", [RD_IO_OP_WRITE_AT_ALL] = "MPI_File_write_at_all_begin",
        [RD_IO_OP_READ_ALL] = "MPI_File_read_all_begin",       [RD_IO_OP_WRITE_ALL] = "MPI_File_write_all_begin",
        [RD_IO_OP_READ_ORDERED] = "MPI_File_read_ordered_begin",
        [RD_IO_OP_WRITE_ORDERED] = "MPI_File_write_ordered_begin"};
    int op = rd_file_io(fh)->split_op;
    if (op == RD_IO_OP_NONE)
        return MPI_SUCCESS;
    return rd_err_raise_file(fh, MPI_ERR_IO, call, "a split collective (%s) is already active on this file",
                             op > 0 && op < (int)(sizeof names / sizeof names[0]) ? names[op] : "?");
}

void rd_file_split_began(MPI_File fh, int op, size_t bytes)
{
    struct rd_io_file *io = rd_file_io(fh);
    io->split_op = op;
    memset(&io->split_status, 0, sizeof io->split_status);
    rd_file_status(&io->split_status, bytes);
}

int rd_file_split_end(const char *call, MPI_File fh, int op, MPI_Status *status)
{
    struct rd_io_file *io = rd_file_io(fh);
    if (io->split_op != op)
        return rd_err_raise_file(fh, MPI_ERR_IO, call, "%s",
                                 io->split_op == RD_IO_OP_NONE
                                     ? "no split collective is active on this file"
                                     : "the split collective active on this file was begun by another call");
    io->split_op = RD_IO_OP_NONE;
    size_t bytes = (size_t)io->split_status.rd_bytes;
    if (io->split != MPI_REQUEST_NULL) {
        /* the access began as a nonblocking collective: it ends here */
        struct rd_request_s *req = io->split;
        io->split = MPI_REQUEST_NULL;
        RD_LOCK();
        rd_req_wait(req);
        int err = req->error;
        char *why = req->why;
        req->why = NULL;
        bytes = (size_t)req->status.rd_bytes;
        rd_req_release(req);
        RD_UNLOCK();
        if (err != MPI_SUCCESS) {
            int rc = rd_err_raise_file(fh, err, call, "%s", why ? why : "the collective access failed");
            free(why);
            return rc;
        }
    }
    if (status)
        rd_file_status(status, bytes);
    return MPI_SUCCESS;
}

/* A split collective's begin (_all, _at_all): the checks, then the access
 * starts as MPI_File_iread_all's does (runtime/io/coll.c) and the end
 * waits for it, so the program computes while it runs. */
static int begin_call(const char *call, MPI_File fh, int explicit, MPI_Offset offset, int write, int op,
                      void *buf, MPI_Count count, MPI_Datatype dt)
{
    RD_API_READY(call);
    RD_TRY(rd_check_file(call, fh));
    MPI_Request req = MPI_REQUEST_NULL;
    RD_TRY(rd_file_istart(call, fh, explicit, offset, write, 1, buf, count, dt, &req,
                          rd_file_split_check_begin(call, fh)));
    rd_file_io(fh)->split = req;
    rd_file_split_began(fh, op, 0);
    return MPI_SUCCESS;
}

static int end_call(const char *call, MPI_File fh, int op, MPI_Status *status)
{
    RD_API_READY(call);
    RD_TRY(rd_check_file(call, fh));
    return rd_file_split_end(call, fh, op, status);
}

/* ------------------------------------------------------------ the table */
#define RD_STR(x) #x
#define RD_WEAK(NAME) _Pragma(RD_STR(weak MPI_File_##NAME = PMPI_File_##NAME))

/* explicit offsets: NAME, write, collective, the buffer's const; SFX and
 * CT: the int call ("", int) or its large-count twin (_c, MPI_Count) */
#define RD_FILE_AT(NAME, WRITE, COLL, CB, SFX, CT)                                     \
    RD_WEAK(NAME##SFX)                                                                 \
    int PMPI_File_##NAME##SFX(MPI_File fh, MPI_Offset offset, CB void *buf, CT count,  \
                              MPI_Datatype datatype, MPI_Status *status)               \
    {                                                                                  \
        return access_call("MPI_File_" #NAME #SFX, fh, 1, offset, WRITE, COLL, (void *)buf, count, \
                           datatype, status);                                          \
    }
/* the individual file pointer */
#define RD_FILE_PTR(NAME, WRITE, COLL, CB, SFX, CT)                                    \
    RD_WEAK(NAME##SFX)                                                                 \
    int PMPI_File_##NAME##SFX(MPI_File fh, CB void *buf, CT count, MPI_Datatype datatype, \
                              MPI_Status *status)                                      \
    {                                                                                  \
        return access_call("MPI_File_" #NAME #SFX, fh, 0, 0, WRITE, COLL, (void *)buf, count, datatype, \
                           status);                                                    \
    }
/* split collectives: begin (and its large-count twin), end */
#define RD_FILE_AT_BEGIN(NAME, WRITE, OP, CB, SFX, CT)                                 \
    RD_WEAK(NAME##_begin##SFX)                                                         \
    int PMPI_File_##NAME##_begin##SFX(MPI_File fh, MPI_Offset offset, CB void *buf, CT count, \
                                      MPI_Datatype datatype)                           \
    {                                                                                  \
        return begin_call("MPI_File_" #NAME "_begin" #SFX, fh, 1, offset, WRITE, OP, (void *)buf, count, \
                          datatype);                                                   \
    }
#define RD_FILE_PTR_BEGIN(NAME, WRITE, OP, CB, SFX, CT)                                \
    RD_WEAK(NAME##_begin##SFX)                                                         \
    int PMPI_File_##NAME##_begin##SFX(MPI_File fh, CB void *buf, CT count, MPI_Datatype datatype) \
    {                                                                                  \
        return begin_call("MPI_File_" #NAME "_begin" #SFX, fh, 0, 0, WRITE, OP, (void *)buf, count, \
                          datatype);                                                   \
    }
#define RD_FILE_END(NAME, OP, CB)                                                      \
    RD_WEAK(NAME##_end)                                                                \
    int PMPI_File_##NAME##_end(MPI_File fh, CB void *buf, MPI_Status *status)          \
    {                                                                                  \
        (void)buf;                                                                     \
        return end_call("MPI_File_" #NAME "_end", fh, OP, status);                     \
    }
#define RD_FILE_BOTH(M, NAME, WRITE, X, CB) M(NAME, WRITE, X, CB, , int) M(NAME, WRITE, X, CB, _c, MPI_Count)

/*                        name          write collective    buffer */
RD_FILE_BOTH(RD_FILE_AT,  read_at,      0,    0,            )
RD_FILE_BOTH(RD_FILE_AT,  write_at,     1,    0,            const)
RD_FILE_BOTH(RD_FILE_AT,  read_at_all,  0,    1,            )
RD_FILE_BOTH(RD_FILE_AT,  write_at_all, 1,    1,            const)
RD_FILE_BOTH(RD_FILE_PTR, read,         0,    0,            )
RD_FILE_BOTH(RD_FILE_PTR, write,        1,    0,            const)
RD_FILE_BOTH(RD_FILE_PTR, read_all,     0,    1,            )
RD_FILE_BOTH(RD_FILE_PTR, write_all,    1,    1,            const)
/*                              name          write split op               buffer */
RD_FILE_BOTH(RD_FILE_AT_BEGIN,  read_at_all,  0,    RD_IO_OP_READ_AT_ALL,  )
RD_FILE_BOTH(RD_FILE_AT_BEGIN,  write_at_all, 1,    RD_IO_OP_WRITE_AT_ALL, const)
RD_FILE_BOTH(RD_FILE_PTR_BEGIN, read_all,     0,    RD_IO_OP_READ_ALL,     )
RD_FILE_BOTH(RD_FILE_PTR_BEGIN, write_all,    1,    RD_IO_OP_WRITE_ALL,    const)
RD_FILE_END(read_at_all,  RD_IO_OP_READ_AT_ALL,  )
RD_FILE_END(write_at_all, RD_IO_OP_WRITE_AT_ALL, const)
RD_FILE_END(read_all,     RD_IO_OP_READ_ALL,     )
RD_FILE_END(write_all,    RD_IO_OP_WRITE_ALL,    const)

/* ------------------------------------------------------------ positions and the view */

/* The end of the file in etypes of the view (MPI_SEEK_END). */
static int end_etypes(MPI_File fh, MPI_Offset *out, rd_io_why *why)
{
    struct rd_io_file *io = rd_file_io(fh);
    MPI_Offset size;
    int cls = rd_io_get_size(io, &size, why);
    if (cls != MPI_SUCCESS)
        return cls;
    MPI_Offset data;
    if (io->view.contig)
        data = size > io->view.disp ? size - io->view.disp : 0;
    else /* the view's data bytes below the end */
        data = rd_io_view_below(&io->view, size);
    *out = data / (MPI_Offset)io->view.esize;
    return MPI_SUCCESS;
}

#pragma weak MPI_File_seek = PMPI_File_seek
int PMPI_File_seek(MPI_File fh, MPI_Offset offset, int whence)
{
    const char *call = "MPI_File_seek";
    RD_API_READY(call);
    RD_TRY(rd_check_file(call, fh));
    RD_TRY(rd_file_check_not_seq(call, fh));
    struct rd_io_file *io = rd_file_io(fh);
    MPI_Offset base = 0;
    rd_io_why why = {""};
    if (whence == MPI_SEEK_SET)
        base = 0;
    else if (whence == MPI_SEEK_CUR)
        base = io->fp;
    else if (whence == MPI_SEEK_END) {
        int cls = end_etypes(fh, &base, &why);
        if (cls != MPI_SUCCESS)
            return rd_file_raise(fh, cls, call, &why);
    } else
        return rd_err_raise_file(fh, MPI_ERR_ARG, call,
                                 "whence %d is none of MPI_SEEK_SET, MPI_SEEK_CUR, MPI_SEEK_END", whence);
    MPI_Offset pos;
    if (__builtin_add_overflow(base, offset, &pos))
        return rd_err_raise_file(fh, MPI_ERR_ARG, call, "%lld + %lld passes the largest position (%lld)",
                                 (long long)base, (long long)offset, (long long)INT64_MAX);
    if (pos < 0)
        return rd_err_raise_file(fh, MPI_ERR_ARG, call, "the position would be %lld, before the start of the view",
                                 (long long)pos);
    io->fp = pos;
    return MPI_SUCCESS;
}

#pragma weak MPI_File_get_position = PMPI_File_get_position
int PMPI_File_get_position(MPI_File fh, MPI_Offset *offset)
{
    const char *call = "MPI_File_get_position";
    RD_API_READY(call);
    RD_TRY(rd_check_file(call, fh));
    RD_TRY(rd_file_check_not_seq(call, fh));
    if (!offset)
        return rd_err_raise_file(fh, MPI_ERR_ARG, call, "offset is NULL");
    *offset = rd_file_io(fh)->fp;
    return MPI_SUCCESS;
}

#pragma weak MPI_File_get_byte_offset = PMPI_File_get_byte_offset
int PMPI_File_get_byte_offset(MPI_File fh, MPI_Offset offset, MPI_Offset *disp)
{
    const char *call = "MPI_File_get_byte_offset";
    RD_API_READY(call);
    RD_TRY(rd_check_file(call, fh));
    RD_TRY(rd_file_check_offset(call, fh, offset));
    if (!disp)
        return rd_err_raise_file(fh, MPI_ERR_ARG, call, "disp is NULL");
    struct rd_io_view *v = &rd_file_io(fh)->view;
    *disp = v->contig ? v->disp + offset * (MPI_Offset)v->esize : rd_io_view_offset(v, offset * (MPI_Offset)v->esize);
    return MPI_SUCCESS;
}

/* a type of the view for the caller: predefined as it is, derived a
 * duplicate the caller frees (MPI-3.1 13.3) */
static int view_type(MPI_Datatype t, MPI_Datatype *out)
{
    if (t->predefined) {
        *out = t;
        return MPI_SUCCESS;
    }
    return PMPI_Type_dup(t, out);
}

#pragma weak MPI_File_get_view = PMPI_File_get_view
int PMPI_File_get_view(MPI_File fh, MPI_Offset *disp, MPI_Datatype *etype, MPI_Datatype *filetype, char *datarep)
{
    const char *call = "MPI_File_get_view";
    RD_API_READY(call);
    RD_TRY(rd_check_file(call, fh));
    if (!disp || !etype || !filetype || !datarep)
        return rd_err_raise_file(fh, MPI_ERR_ARG, call, "%s is NULL",
                                 !disp ? "disp" : !etype ? "etype" : !filetype ? "filetype" : "datarep");
    struct rd_io_view *v = &rd_file_io(fh)->view;
    MPI_Datatype e, t;
    int rc = view_type(v->etype, &e);
    if (rc != MPI_SUCCESS)
        return rc;
    rc = view_type(v->filetype, &t);
    if (rc != MPI_SUCCESS) {
        if (e != v->etype)
            PMPI_Type_free(&e);
        return rc;
    }
    *disp = v->disp;
    *etype = e;
    *filetype = t;
    snprintf(datarep, MPI_MAX_DATAREP_STRING, "%s", v->datarep);
    return MPI_SUCCESS;
}

/* MPI_File_get_type_extent and its MPI_Count twin */
static int type_extent(const char *call, MPI_File fh, MPI_Datatype datatype, MPI_Aint *extent)
{
    RD_API_READY(call);
    RD_TRY(rd_check_file(call, fh));
    if (!rd_dt_valid(datatype))
        return rd_err_raise_file(fh, MPI_ERR_TYPE, call, "invalid datatype");
    if (!extent)
        return rd_err_raise_file(fh, MPI_ERR_ARG, call, "extent is NULL");
    struct rd_io_view *v = &rd_file_io(fh)->view;
    if (!v->rep) {
        *extent = datatype->extent; /* native */
        return MPI_SUCCESS;
    }
    rd_io_why why = {""};
    int cls = rd_io_datarep_extent(v->rep, datatype, extent, &why);
    return cls == MPI_SUCCESS ? MPI_SUCCESS : rd_file_raise(fh, cls, call, &why);
}

#pragma weak MPI_File_get_type_extent = PMPI_File_get_type_extent
int PMPI_File_get_type_extent(MPI_File fh, MPI_Datatype datatype, MPI_Aint *extent)
{
    return type_extent("MPI_File_get_type_extent", fh, datatype, extent);
}

#pragma weak MPI_File_get_type_extent_c = PMPI_File_get_type_extent_c
int PMPI_File_get_type_extent_c(MPI_File fh, MPI_Datatype datatype, MPI_Count *extent)
{
    MPI_Aint e = 0;
    RD_TRY(type_extent("MPI_File_get_type_extent_c", fh, datatype, extent ? &e : NULL));
    *extent = (MPI_Count)e;
    return MPI_SUCCESS;
}

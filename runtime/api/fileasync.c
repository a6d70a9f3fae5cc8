/* Nonblocking data access of files at explicit offsets and with the
 * individual file pointer: MPI_File_iread_at, iwrite_at, iread, iwrite
 * and their collective forms iread_at_all, iwrite_at_all, iread_all,
 * iwrite_all (MPI-3.1 13.4.2-13.4.3), each a real PMPI_ with a weak MPI_.
 * The collective ones are schedules (rd_io_coll_start, runtime/io/coll.c),
 * whose file accesses run on the I/O thread; the rest of this comment is
 * about the independent ones. The checks
 * are the blocking calls' (fileio.h); the access itself is rd_io_indep
 * run on the I/O thread (runtime/io/aio.c), on any view (but one of a
 * registered datarep: its conversions run in the call). What that thread
 * touches: the file's descriptor, path, view and hints (none of which may
 * change while an operation is pending: MPI_File_set_view, set_info and
 * close with requests pending are erroneous, and close waits for them),
 * the user's buffer, and the datatype, held by a reference until the
 * request completes. The individual pointer moves at the call, past
 * every etype the operation will access (13.4.3). */
#include <mpi.h>
#include <stdatomic.h>

#include "runtime/api/check.h"
#include "runtime/api/fileio.h"
#include "runtime/io/aio.h"
#include "runtime/io/io.h"
#include "runtime/objects/datatype.h"
#include "runtime/objects/file.h"

/* one nonblocking access: the engine's record, then the arguments of
 * rd_io_indep */
struct file_op {
    struct rd_aio_op op;
    struct rd_io_file *io;
    struct rd_io_file snap; /* io as at the call, for the I/O thread: its hints and atomicity
                             * may change meanwhile (set_info, set_atomicity) */
    int write;
    MPI_Offset at; /* stream offset, bytes */
    void *buf;
    size_t count;
    MPI_Datatype dt; /* held */
};

/* on the I/O thread */
static int file_op_run(struct rd_aio_op *op)
{
    struct file_op *p = (struct file_op *)op;
    return rd_io_indep(&p->snap, p->write, p->at, p->buf, p->count, p->dt, &op->bytes, &op->why);
}

/* on the completing thread, big lock held */
static void file_op_finish(struct rd_aio_op *op)
{
    struct file_op *p = (struct file_op *)op;
    rd_dt_release(p->dt);
    atomic_fetch_sub(&p->io->inflight, 1);
}

int rd_file_async(MPI_File fh, int write, MPI_Offset at, void *buf, MPI_Count count, MPI_Datatype dt,
                  MPI_Request *request, rd_io_why *why)
{
    struct rd_io_file *io = rd_file_io(fh);
    struct file_op *p = (struct file_op *)rd_aio_op_new(sizeof *p);
    if (!p)
        return rd_io_fail(why, MPI_ERR_NO_MEM, "out of memory for the operation");
    p->op.run = file_op_run;
    p->op.finish = file_op_finish;
    p->op.file = fh;
    /* a registered datarep's conversion functions are user code that may
     * call MPI (and datarep.c lets go of the big lock around them): not on
     * the I/O thread */
    p->op.in_call = io->view.rep && io->view.rep->kind == RD_REP_USER;
    p->io = io;
    p->snap = *io;
    p->write = write;
    p->at = at;
    p->buf = buf;
    p->count = (size_t)count;
    p->dt = dt;
    rd_dt_retain(dt);
    atomic_fetch_add(&io->inflight, 1);
    return rd_aio_start(&p->op, request, why); /* on failure p is finished and freed */
}

int rd_file_istart(const char *call, MPI_File fh, int explicit, MPI_Offset offset, int write, int coll, void *buf,
                   MPI_Count count, MPI_Datatype dt, MPI_Request *request, int rc)
{
    if (rc == MPI_SUCCESS && !request)
        rc = rd_err_raise_file(fh, MPI_ERR_ARG, call, "request is NULL");
    if (rc == MPI_SUCCESS)
        rc = rd_file_check_not_seq(call, fh);
    if (rc == MPI_SUCCESS)
        rc = rd_file_check_access(call, fh, write, buf, count, dt);
    if (rc == MPI_SUCCESS && explicit)
        rc = rd_file_check_offset(call, fh, offset);
    struct rd_io_file *io = rd_file_io(fh);
    MPI_Offset at = explicit ? offset : io->fp;
    if (rc == MPI_SUCCESS)
        rc = rd_file_check_range(call, fh, explicit, at, count, dt);
    if (rc != MPI_SUCCESS) {
        /* reported; a collective call still meets the other ranks in its
         * first exchange (in later progress), so that their requests end
         * with an error instead of waiting for this rank */
        if (coll) {
            RD_LOCK();
            rd_io_coll_abstain_nb(fh->comm, rc);
            RD_UNLOCK();
        }
        return rc;
    }
    rd_io_why why = {""};
    MPI_Offset o = at * (MPI_Offset)io->view.esize;
    RD_LOCK();
    int cls = coll ? rd_io_coll_start(io, fh, fh->comm, write, o, buf, (size_t)count, dt, request, &why)
                   : rd_file_async(fh, write, o, buf, count, dt, request, &why);
    RD_UNLOCK();
    if (cls != MPI_SUCCESS)
        return rd_file_raise(fh, cls, call, &why);
    if (!explicit) /* past every etype the operation will access */
        io->fp += (MPI_Offset)((size_t)count * dt->size / io->view.esize);
    return MPI_SUCCESS;
}

static int start_access(const char *call, MPI_File fh, int explicit, MPI_Offset offset, int write, int coll,
                        void *buf, MPI_Count count, MPI_Datatype dt, MPI_Request *request)
{
    RD_API_READY(call);
    RD_TRY(rd_check_file(call, fh));
    return rd_file_istart(call, fh, explicit, offset, write, coll, buf, count, dt, request, MPI_SUCCESS);
}

/* the eight, with int counts and with MPI_Count ones (MPI_File_iread_at_c ...);
 * the collective forms (MPI-3.1 13.4.2-13.4.3): two-phase I/O (or each
 * rank's own access) as a schedule (runtime/io/coll.c) */
#define RD_STR(x) #x
#define RD_WEAK(NAME) _Pragma(RD_STR(weak MPI_File_##NAME = PMPI_File_##NAME))
#define RD_IFILE_AT(NAME, WRITE, COLL, CB, SFX, CT)                                                      \
    RD_WEAK(NAME##SFX)                                                                                   \
    int PMPI_File_##NAME##SFX(MPI_File fh, MPI_Offset offset, CB void *buf, CT count, MPI_Datatype datatype, \
                              MPI_Request *request)                                                      \
    {                                                                                                    \
        return start_access("MPI_File_" #NAME #SFX, fh, 1, offset, WRITE, COLL, (void *)buf, count, datatype, \
                            request);                                                                    \
    }
#define RD_IFILE_PTR(NAME, WRITE, COLL, CB, SFX, CT)                                                     \
    RD_WEAK(NAME##SFX)                                                                                   \
    int PMPI_File_##NAME##SFX(MPI_File fh, CB void *buf, CT count, MPI_Datatype datatype, MPI_Request *request) \
    {                                                                                                    \
        return start_access("MPI_File_" #NAME #SFX, fh, 0, 0, WRITE, COLL, (void *)buf, count, datatype, request); \
    }
#define RD_IFILE_BOTH(M, NAME, WRITE, COLL, CB) M(NAME, WRITE, COLL, CB, , int) M(NAME, WRITE, COLL, CB, _c, MPI_Count)
RD_IFILE_BOTH(RD_IFILE_AT,  iread_at,      0, 0, )
RD_IFILE_BOTH(RD_IFILE_AT,  iwrite_at,     1, 0, const)
RD_IFILE_BOTH(RD_IFILE_PTR, iread,         0, 0, )
RD_IFILE_BOTH(RD_IFILE_PTR, iwrite,        1, 0, const)
RD_IFILE_BOTH(RD_IFILE_AT,  iread_at_all,  0, 1, )
RD_IFILE_BOTH(RD_IFILE_AT,  iwrite_at_all, 1, 1, const)
RD_IFILE_BOTH(RD_IFILE_PTR, iread_all,     0, 1, )
RD_IFILE_BOTH(RD_IFILE_PTR, iwrite_all,    1, 1, const)

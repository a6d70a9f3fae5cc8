/* Files: MPI_File_open, close, delete, set_size, preallocate, get_size,
 * get_group, get_amode, set_info, get_info, sync, and the file error
 * handlers (runtime/io/PLAN.md 6; the data accesses: api/fileio.c). The
 * agreement of the collective calls lives here, one rank's part on the I/O
 * floor (runtime/io/io.h). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/api/check.h"
#include "runtime/api/fileio.h"
#include "runtime/base/state.h"
#include "runtime/io/aio.h"
#include "runtime/io/io.h"
#include "runtime/objects/comm.h"
#include "runtime/objects/errhandler.h"
#include "runtime/objects/fhandle.h"
#include "runtime/objects/file.h"
#include "runtime/p2p/request.h"
#include "runtime/objects/info.h"

/* ------------------------------------------------------------ shared checks (fileio.h) */

int rd_file_check_access(const char *call, MPI_File fh, int write, const void *buf, MPI_Count count, MPI_Datatype dt)
{
    struct rd_io_file *io = rd_file_io(fh);
    if (count < 0)
        return rd_err_raise_file(fh, MPI_ERR_COUNT, call, "count %lld is negative", (long long)count);
    if (rd_dt_valid(dt) && dt->size > 0 && (uint64_t)count > (uint64_t)INT64_MAX / dt->size)
        return rd_err_raise_file(fh, MPI_ERR_COUNT, call, "count %lld of %zu-byte elements is more bytes than "
                                 "memory has", (long long)count, (size_t)dt->size);
    if (!rd_dt_valid(dt))
        return rd_err_raise_file(fh, MPI_ERR_TYPE, call, "invalid datatype");
    if (!dt->committed)
        return rd_err_raise_file(fh, MPI_ERR_TYPE, call, "datatype %s is not committed", dt->name);
    if (!buf && count > 0 && dt->size > 0 && dt->true_lb == 0)
        return rd_err_raise_file(fh, MPI_ERR_BUFFER, call, "buffer is NULL for %lld elements", (long long)count);
    if (write && (fh->amode & MPI_MODE_RDONLY))
        return rd_err_raise_file(fh, MPI_ERR_READ_ONLY, call, "'%s' was opened MPI_MODE_RDONLY", io->path);
    if (!write && (fh->amode & MPI_MODE_WRONLY))
        return rd_err_raise_file(fh, MPI_ERR_ACCESS, call, "'%s' was opened MPI_MODE_WRONLY", io->path);
    size_t bytes = (size_t)count * dt->size;
    if (io->view.esize > 1 && bytes % io->view.esize)
        return rd_err_raise_file(fh, MPI_ERR_IO, call,
                                 "%lld elements of %s are %zu bytes, not a whole number of etypes of %zu bytes",
                                 (long long)count, dt->name, bytes, io->view.esize);
    return MPI_SUCCESS;
}

int rd_file_check_not_seq(const char *call, MPI_File fh)
{
    if (fh->amode & MPI_MODE_SEQUENTIAL)
        return rd_err_raise_file(fh, MPI_ERR_UNSUPPORTED_OPERATION, call,
                                 "'%s' was opened MPI_MODE_SEQUENTIAL (only the shared file pointer may be used)",
                                 rd_file_io(fh)->path);
    return MPI_SUCCESS;
}

int rd_file_check_offset(const char *call, MPI_File fh, MPI_Offset offset)
{
    if (offset < 0)
        return rd_err_raise_file(fh, MPI_ERR_ARG, call, "offset %lld is negative", (long long)offset);
    return MPI_SUCCESS;
}

void rd_file_status(MPI_Status *status, size_t bytes)
{
    if (!status)
        return;
    status->MPI_SOURCE = MPI_ANY_SOURCE;
    status->MPI_TAG = MPI_ANY_TAG;
    status->rd_cancelled = 0;
    status->rd_bytes = (MPI_Count)bytes;
}

/* ------------------------------------------------------------ agreement */

/* One class for every rank of comm: the lowest failing rank's, with its
 * message (the others' message says which rank failed). cls, why: this
 * rank's; returns the agreed class (MPI_SUCCESS if no rank failed), or the
 * communication's failure (then *comm_rc is set). */
static int agree(MPI_Comm comm, int cls, rd_io_why *why, int *comm_rc)
{
    int size = comm->size, rank = comm->rank;
    int mine = cls != MPI_SUCCESS ? size - rank : 0, worst = 0;
    *comm_rc = PMPI_Allreduce(&mine, &worst, 1, MPI_INT, MPI_MAX, comm);
    if (*comm_rc != MPI_SUCCESS || !worst)
        return *comm_rc != MPI_SUCCESS ? *comm_rc : MPI_SUCCESS;
    int root = size - worst;
    struct {
        int cls;
        char msg[sizeof why->msg];
    } m;
    m.cls = cls;
    memcpy(m.msg, why->msg, sizeof m.msg);
    *comm_rc = PMPI_Bcast(&m, (int)sizeof m, MPI_BYTE, root, comm);
    if (*comm_rc != MPI_SUCCESS)
        return *comm_rc;
    if (rank != root) {
        m.msg[sizeof m.msg - 1] = 0;
        rd_io_fail(why, m.cls, "rank %d failed: %s", root, m.msg);
    }
    return m.cls;
}

/* ------------------------------------------------------------ open, close, delete */

#define RD_FILE_AMODES                                                                 \
    (MPI_MODE_CREATE | MPI_MODE_RDONLY | MPI_MODE_WRONLY | MPI_MODE_RDWR | MPI_MODE_DELETE_ON_CLOSE | \
     MPI_MODE_UNIQUE_OPEN | MPI_MODE_EXCL | MPI_MODE_APPEND | MPI_MODE_SEQUENTIAL)

/* the amode's own rules (MPI-3.1 13.2.1) */
static int amode_check(int amode, rd_io_why *why)
{
    int n = !!(amode & MPI_MODE_RDONLY) + !!(amode & MPI_MODE_WRONLY) + !!(amode & MPI_MODE_RDWR);
    if (amode & ~RD_FILE_AMODES)
        return rd_io_fail(why, MPI_ERR_AMODE, "amode %d has bits that are no MPI_MODE_* (0x%x)", amode,
                          (unsigned)(amode & ~RD_FILE_AMODES));
    if (n != 1)
        return rd_io_fail(why, MPI_ERR_AMODE, "amode %d has %s of MPI_MODE_RDONLY, MPI_MODE_WRONLY and MPI_MODE_RDWR",
                          amode, n ? "more than one" : "none");
    if ((amode & MPI_MODE_RDONLY) && (amode & (MPI_MODE_CREATE | MPI_MODE_EXCL)))
        return rd_io_fail(why, MPI_ERR_AMODE, "amode %d: MPI_MODE_RDONLY with MPI_MODE_%s", amode,
                          amode & MPI_MODE_CREATE ? "CREATE" : "EXCL");
    if ((amode & MPI_MODE_RDWR) && (amode & MPI_MODE_SEQUENTIAL))
        return rd_io_fail(why, MPI_ERR_AMODE, "amode %d: MPI_MODE_RDWR with MPI_MODE_SEQUENTIAL", amode);
    return MPI_SUCCESS;
}

#pragma weak MPI_File_open = PMPI_File_open
int PMPI_File_open(MPI_Comm comm, const char *filename, int amode, MPI_Info info, MPI_File *fh)
{
    const char *call = "MPI_File_open";
    RD_API_READY(call);
    /* errors of open go to MPI_FILE_NULL's handler (MPI-3.1 13.7) */
    if (!rd_comm_valid(comm))
        return rd_err_raise_file(MPI_FILE_NULL, MPI_ERR_COMM, call, "invalid communicator");
    if (comm->is_inter)
        return rd_err_raise_file(MPI_FILE_NULL, MPI_ERR_COMM, call, "a file needs an intracommunicator");
    if (!fh)
        return rd_err_raise_file(MPI_FILE_NULL, MPI_ERR_ARG, call, "fh is NULL");
    if (info != MPI_INFO_NULL && !rd_info_valid(info))
        return rd_err_raise_file(MPI_FILE_NULL, MPI_ERR_INFO, call, "invalid info");
    rd_io_why why = {""};
    int cls = MPI_SUCCESS;
    if (!filename)
        cls = rd_io_fail(&why, MPI_ERR_BAD_FILE, "filename is NULL");
    else if (!filename[0])
        cls = rd_io_fail(&why, MPI_ERR_BAD_FILE, "filename is empty");
    else
        cls = amode_check(amode, &why);
    struct rd_file_s *f = calloc(1, sizeof(*f));
    if (!f && cls == MPI_SUCCESS)
        cls = rd_io_fail(&why, MPI_ERR_NO_MEM, "out of memory");
    /* the file's own communicator (collective) */
    MPI_Comm dup = MPI_COMM_NULL;
    int rc = PMPI_Comm_dup(comm, &dup);
    if (rc != MPI_SUCCESS) {
        free(f);
        return rc;
    }
    /* rank 0 creates (or opens) first; its result, amode and hints reach
     * every rank, which then opens what it made (PLAN 6) */
    struct {
        int cls, amode;
        unsigned long long ino; /* the file rank 0 opened */
        struct rd_io_hints hints;
        char msg[sizeof why.msg];
    } r0;
    memset(&r0, 0, sizeof r0);
    struct rd_io_file *io = NULL;
    rd_io_hints_default(&r0.hints);
    if (dup->rank == 0) {
        rd_io_hints_parse(&r0.hints, info);
        if (cls == MPI_SUCCESS)
            cls = rd_io_file_open(filename, amode, 1, &r0.hints, &io, &why);
        r0.cls = cls;
        r0.amode = amode;
        if (io)
            r0.ino = io->ino;
        memcpy(r0.msg, why.msg, sizeof r0.msg);
    }
    rc = PMPI_Bcast(&r0, (int)sizeof r0, MPI_BYTE, 0, dup);
    if (rc == MPI_SUCCESS && dup->rank != 0) {
        r0.msg[sizeof r0.msg - 1] = 0;
        if (r0.cls != MPI_SUCCESS)
            cls = rd_io_fail(&why, r0.cls, "rank 0 failed: %s", r0.msg);
        else if (cls == MPI_SUCCESS && r0.amode != amode)
            cls = rd_io_fail(&why, MPI_ERR_NOT_SAME, "amode %d differs from rank 0's %d", amode, r0.amode);
        else if (cls == MPI_SUCCESS)
            cls = rd_io_file_open(filename, amode, 0, &r0.hints, &io, &why);
        /* the same file on every rank (a path of the same name may name
         * another file, e.g. in a directory private to each node; another
         * path may name the same file: a link). The inode number only: a
         * shared file system's device number differs between nodes, its
         * inode numbers do not */
        if (cls == MPI_SUCCESS && io->ino != r0.ino) {
            char sh[RD_IO_PATH_SHORT];
            cls = rd_io_fail(&why, MPI_ERR_NOT_SAME, "'%s' is not the file rank 0 opened",
                             rd_io_path_short(filename, sh));
        }
    }
    if (rc == MPI_SUCCESS && r0.cls == MPI_SUCCESS) {
        int crc;
        cls = agree(dup, cls, &why, &crc);
        rc = crc;
    }
    if (rc == MPI_SUCCESS && cls == MPI_SUCCESS) {
        /* the shared file pointer (runtime/io/shfp.c; collective, and
         * every rank fails alike) */
        RD_LOCK();
        cls = rd_io_shfp_open(io, dup, &why);
        RD_UNLOCK();
    }
    if (rc != MPI_SUCCESS || cls != MPI_SUCCESS) {
        rd_io_file_close(io, NULL);
        PMPI_Comm_free(&dup);
        free(f);
        if (rc != MPI_SUCCESS)
            return rd_err_raise_file(MPI_FILE_NULL, rc, call, "the agreement between the ranks failed");
        return rd_err_raise_file(MPI_FILE_NULL, cls, call, "%s", why.msg);
    }
    f->magic = RD_FILE_MAGIC;
    f->comm = dup;
    f->amode = amode;
    f->errh = rd_file_null_errh(); /* a new file takes MPI_FILE_NULL's handler */
    rd_errh_retain(f->errh);
    f->io = io;
    *fh = f;
    return MPI_SUCCESS;
}

#pragma weak MPI_File_close = PMPI_File_close
int PMPI_File_close(MPI_File *fh)
{
    const char *call = "MPI_File_close";
    RD_API_READY(call);
    if (!fh)
        return rd_err_raise_file(MPI_FILE_NULL, MPI_ERR_ARG, call, "fh is NULL");
    RD_TRY(rd_check_file(call, *fh));
    struct rd_file_s *f = *fh;
    struct rd_io_file *io = rd_file_io(f);
    rd_io_why why = {""};
    int del = (f->amode & MPI_MODE_DELETE_ON_CLOSE) != 0;
    char *path = del ? strdup(io->path) : NULL;
    int cls = del && !path ? rd_io_fail(&why, MPI_ERR_NO_MEM, "out of memory") : MPI_SUCCESS;
    /* the file's nonblocking operations finish (the program should have
     * completed them: MPI-3.1 13.2.2), then the shared file pointer
     * (collective) */
    RD_LOCK();
    rd_aio_drain(&io->inflight);
    if (io->split != MPI_REQUEST_NULL) { /* a split collective never ended: it has ended now */
        free(io->split->why);
        rd_req_release(io->split);
        io->split = MPI_REQUEST_NULL;
    }
    int c = rd_io_shfp_close(io, &why);
    RD_UNLOCK();
    if (cls == MPI_SUCCESS)
        cls = c;
    c = rd_io_file_close(io, &why);
    if (cls == MPI_SUCCESS)
        cls = c;
    f->io = NULL;
    if (del) {
        /* every rank has closed before rank 0 removes the file */
        int rc = PMPI_Barrier(f->comm);
        if (rc == MPI_SUCCESS && f->comm->rank == 0 && path) {
            c = rd_io_delete(path, &why);
            if (cls == MPI_SUCCESS)
                cls = c;
        }
        if (rc != MPI_SUCCESS && cls == MPI_SUCCESS)
            cls = rd_io_fail(&why, rc, "the barrier before deleting the file failed");
    }
    free(path);
    int ret = MPI_SUCCESS;
    if (cls != MPI_SUCCESS)
        ret = rd_err_raise_file(f, cls, call, "%s", why.msg);
    PMPI_Comm_free(&f->comm);
    rd_errh_release(f->errh);
    f->magic = 0;
    rd_fh_drop(RD_FH_FILE, &f->fidx);
    free(f);
    *fh = MPI_FILE_NULL;
    return ret;
}

#pragma weak MPI_File_delete = PMPI_File_delete
int PMPI_File_delete(const char *filename, MPI_Info info)
{
    const char *call = "MPI_File_delete";
    RD_API_READY(call);
    if (!filename)
        return rd_err_raise_file(MPI_FILE_NULL, MPI_ERR_BAD_FILE, call, "filename is NULL");
    if (info != MPI_INFO_NULL && !rd_info_valid(info))
        return rd_err_raise_file(MPI_FILE_NULL, MPI_ERR_INFO, call, "invalid info");
    rd_io_why why = {""};
    int cls = rd_io_delete(filename, &why);
    if (cls != MPI_SUCCESS)
        return rd_err_raise_file(MPI_FILE_NULL, cls, call, "%s", why.msg);
    return MPI_SUCCESS;
}

/* ------------------------------------------------------------ sizes */

/* set_size and preallocate: collective, the same size on every rank
 * (MPI_ERR_NOT_SAME), done by rank 0, its result agreed */
static int resize(const char *call, MPI_File fh, MPI_Offset size, int prealloc)
{
    RD_API_READY(call);
    RD_TRY(rd_check_file(call, fh));
    RD_TRY(rd_file_check_not_seq(call, fh));
    struct rd_io_file *io = rd_file_io(fh);
    rd_io_why why = {""};
    int cls = MPI_SUCCESS;
    if (size < 0)
        cls = rd_io_fail(&why, MPI_ERR_ARG, "size %lld is negative", (long long)size);
    else if (fh->amode & MPI_MODE_RDONLY)
        cls = rd_io_fail(&why, MPI_ERR_READ_ONLY, "'%s' was opened MPI_MODE_RDONLY", io->path);
    MPI_Offset mm[2] = {size, -size}, all[2];
    int rc = PMPI_Allreduce(mm, all, 2, MPI_OFFSET, MPI_MAX, fh->comm);
    if (rc != MPI_SUCCESS)
        return rd_err_raise_file(fh, rc, call, "the agreement between the ranks failed");
    if (cls == MPI_SUCCESS && (all[0] != size || -all[1] != size))
        cls = rd_io_fail(&why, MPI_ERR_NOT_SAME, "size %lld is not the same on every rank (from %lld to %lld)",
                         (long long)size, (long long)-all[1], (long long)all[0]);
    if (cls == MPI_SUCCESS && fh->comm->rank == 0)
        cls = prealloc ? rd_io_preallocate(io, size, &why) : rd_io_set_size(io, size, &why);
    int crc;
    cls = agree(fh->comm, cls, &why, &crc);
    if (crc != MPI_SUCCESS)
        return rd_err_raise_file(fh, crc, call, "the agreement between the ranks failed");
    if (cls != MPI_SUCCESS)
        return rd_err_raise_file(fh, cls, call, "%s", why.msg);
    return MPI_SUCCESS;
}

#pragma weak MPI_File_set_size = PMPI_File_set_size
int PMPI_File_set_size(MPI_File fh, MPI_Offset size)
{
    return resize("MPI_File_set_size", fh, size, 0);
}

#pragma weak MPI_File_preallocate = PMPI_File_preallocate
int PMPI_File_preallocate(MPI_File fh, MPI_Offset size)
{
    return resize("MPI_File_preallocate", fh, size, 1);
}

#pragma weak MPI_File_get_size = PMPI_File_get_size
int PMPI_File_get_size(MPI_File fh, MPI_Offset *size)
{
    const char *call = "MPI_File_get_size";
    RD_API_READY(call);
    RD_TRY(rd_check_file(call, fh));
    if (!size)
        return rd_err_raise_file(fh, MPI_ERR_ARG, call, "size is NULL");
    rd_io_why why = {""};
    int cls = rd_io_get_size(rd_file_io(fh), size, &why);
    return cls == MPI_SUCCESS ? MPI_SUCCESS : rd_file_raise(fh, cls, call, &why);
}

/* ------------------------------------------------------------ group, amode, info, sync */

#pragma weak MPI_File_get_group = PMPI_File_get_group
int PMPI_File_get_group(MPI_File fh, MPI_Group *group)
{
    const char *call = "MPI_File_get_group";
    RD_API_READY(call);
    RD_TRY(rd_check_file(call, fh));
    if (!group)
        return rd_err_raise_file(fh, MPI_ERR_ARG, call, "group is NULL");
    return PMPI_Comm_group(fh->comm, group);
}

#pragma weak MPI_File_get_amode = PMPI_File_get_amode
int PMPI_File_get_amode(MPI_File fh, int *amode)
{
    const char *call = "MPI_File_get_amode";
    RD_API_READY(call);
    RD_TRY(rd_check_file(call, fh));
    if (!amode)
        return rd_err_raise_file(fh, MPI_ERR_ARG, call, "amode is NULL");
    *amode = fh->amode;
    return MPI_SUCCESS;
}

#pragma weak MPI_File_set_info = PMPI_File_set_info
int PMPI_File_set_info(MPI_File fh, MPI_Info info)
{
    const char *call = "MPI_File_set_info";
    RD_API_READY(call);
    RD_TRY(rd_check_file(call, fh));
    if (info != MPI_INFO_NULL && !rd_info_valid(info))
        return rd_err_raise_file(fh, MPI_ERR_INFO, call, "invalid info");
    /* collective: rank 0's values (PLAN 5) */
    struct rd_io_file *io = rd_file_io(fh);
    struct rd_io_hints h = io->hints;
    if (fh->comm->rank == 0)
        rd_io_hints_parse(&h, info);
    int rc = PMPI_Bcast(&h, (int)sizeof h, MPI_BYTE, 0, fh->comm);
    if (rc != MPI_SUCCESS)
        return rd_err_raise_file(fh, rc, call, "the agreement between the ranks failed");
    io->hints = h;
    rd_io_hints_apply(io);
    return MPI_SUCCESS;
}

#pragma weak MPI_File_get_info = PMPI_File_get_info
int PMPI_File_get_info(MPI_File fh, MPI_Info *info_used)
{
    const char *call = "MPI_File_get_info";
    RD_API_READY(call);
    RD_TRY(rd_check_file(call, fh));
    if (!info_used)
        return rd_err_raise_file(fh, MPI_ERR_ARG, call, "info_used is NULL");
    MPI_Info info;
    int rc = PMPI_Info_create(&info);
    if (rc != MPI_SUCCESS)
        return rc;
    if (rd_io_hints_to_info(&rd_file_io(fh)->hints, info) != 0) {
        PMPI_Info_free(&info);
        return rd_err_raise_file(fh, MPI_ERR_NO_MEM, call, "out of memory");
    }
    *info_used = info;
    return MPI_SUCCESS;
}

#pragma weak MPI_File_sync = PMPI_File_sync
int PMPI_File_sync(MPI_File fh)
{
    const char *call = "MPI_File_sync";
    RD_API_READY(call);
    RD_TRY(rd_check_file(call, fh));
    rd_io_why why = {""};
    int cls = rd_io_sync(rd_file_io(fh), &why);
    return cls == MPI_SUCCESS ? MPI_SUCCESS : rd_file_raise(fh, cls, call, &why);
}

/* ------------------------------------------------------------ error handlers */

#pragma weak MPI_File_create_errhandler = PMPI_File_create_errhandler
int PMPI_File_create_errhandler(MPI_File_errhandler_function *fn, MPI_Errhandler *errhandler)
{
    const char *call = "MPI_File_create_errhandler";
    RD_API_READY(call);
    if (!fn || !errhandler)
        return rd_err_raise(MPI_COMM_WORLD, MPI_ERR_ARG, call, "%s is NULL", fn ? "errhandler" : "the function");
    if (rd_errh_new(NULL, NULL, errhandler) != RD_OK)
        return rd_err_raise(MPI_COMM_WORLD, MPI_ERR_NO_MEM, call, "out of memory");
    (*errhandler)->ffn = fn;
    return MPI_SUCCESS;
}

#pragma weak MPI_File_set_errhandler = PMPI_File_set_errhandler
int PMPI_File_set_errhandler(MPI_File file, MPI_Errhandler errhandler)
{
    const char *call = "MPI_File_set_errhandler";
    RD_API_READY(call);
    if (file != MPI_FILE_NULL)
        RD_TRY(rd_check_file(call, file));
    if (!rd_errh_valid(errhandler))
        return rd_err_raise_file(file, MPI_ERR_ARG, call, "invalid error handler");
    if ((errhandler->kind == RD_ERRH_USER || errhandler->kind == RD_ERRH_FUSER) && !errhandler->ffn)
        return rd_err_raise_file(file, MPI_ERR_ARG, call, "the error handler was made for %s",
                                 errhandler->wfn ? "windows (MPI_Win_create_errhandler)"
                                                 : "communicators (MPI_Comm_create_errhandler)");
    if (file == MPI_FILE_NULL) {
        rd_file_null_set_errh(errhandler);
        return MPI_SUCCESS;
    }
    MPI_Errhandler old = file->errh;
    rd_errh_retain(errhandler);
    file->errh = errhandler;
    rd_errh_release(old);
    return MPI_SUCCESS;
}

#pragma weak MPI_File_get_errhandler = PMPI_File_get_errhandler
int PMPI_File_get_errhandler(MPI_File file, MPI_Errhandler *errhandler)
{
    const char *call = "MPI_File_get_errhandler";
    RD_API_READY(call);
    if (file != MPI_FILE_NULL)
        RD_TRY(rd_check_file(call, file));
    if (!errhandler)
        return rd_err_raise_file(file, MPI_ERR_ARG, call, "errhandler is NULL");
    MPI_Errhandler eh = file == MPI_FILE_NULL ? rd_file_null_errh() : file->errh;
    rd_errh_retain(eh); /* the caller frees its reference */
    *errhandler = eh;
    return MPI_SUCCESS;
}

#pragma weak MPI_File_call_errhandler = PMPI_File_call_errhandler
int PMPI_File_call_errhandler(MPI_File fh, int errorcode)
{
    const char *call = "MPI_File_call_errhandler";
    RD_API_READY(call);
    if (fh != MPI_FILE_NULL)
        RD_TRY(rd_check_file(call, fh));
    if (rd_err_code_class(errorcode) < 0)
        return rd_err_raise_file(fh, MPI_ERR_ARG, call, "%d is not a valid error code", errorcode);
    rd_err_raise_file(fh, errorcode, call, "error code %d raised by the program", errorcode);
    /* the standard: returns MPI_SUCCESS if the handler returned */
    return MPI_SUCCESS;
}

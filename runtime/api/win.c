/* Windows: creation of every flavour (MPI_Win_create, allocate,
 * allocate_shared, create_dynamic), Win_free, Win_get_group, names and
 * error handlers (attributes: api/attr.c; the one-sided calls: api/rma.c,
 * on runtime/rma/). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/api/check.h"
#include "runtime/objects/attr.h"
#include "runtime/objects/errhandler.h"
#include "runtime/objects/info.h"
#include "runtime/objects/win.h"
#include "runtime/rma/rma.h"
#include "runtime/base/job.h"
#include "runtime/base/state.h"
#include "runtime/objects/comm.h"
#include "runtime/objects/fhandle.h"

/* Every flavour: the checks, the window's own communicator (a duplicate),
 * then the one-sided state in three steps around the exchange of each
 * rank's size, disp_unit and window id (rma.h). */
static int make_win(const char *call, int flavor, void *base, MPI_Aint size, MPI_Aint disp_unit, MPI_Info info,
                    MPI_Comm comm, void *baseptr, MPI_Win *win)
{
    RD_API_READY(call);
    RD_TRY(rd_check_comm(call, comm));
    if (comm->is_inter)
        return rd_err_raise(comm, MPI_ERR_COMM, call, "a window needs an intracommunicator");
    if (!win)
        return rd_err_raise(comm, MPI_ERR_ARG, call, "win is NULL");
    if (size < 0)
        return rd_err_raise(comm, MPI_ERR_SIZE, call, "size %lld is negative", (long long)size);
    if (disp_unit <= 0)
        return rd_err_raise(comm, MPI_ERR_DISP, call, "disp_unit %lld is not positive", (long long)disp_unit);
    if (flavor == MPI_WIN_FLAVOR_CREATE && size > 0 && !base)
        return rd_err_raise(comm, MPI_ERR_BASE, call, "base is NULL for %lld bytes", (long long)size);
    if ((flavor == MPI_WIN_FLAVOR_ALLOCATE || flavor == MPI_WIN_FLAVOR_SHARED) && !baseptr)
        return rd_err_raise(comm, MPI_ERR_ARG, call, "baseptr is NULL");
    if (info != MPI_INFO_NULL && !rd_info_valid(info))
        return rd_err_raise(comm, MPI_ERR_INFO, call, "invalid info");
    if (flavor == MPI_WIN_FLAVOR_SHARED) {
        int node = rd_job_node_of(rd_comm_world_rank(comm, 0));
        for (int r = 1; r < comm->size; r++)
            if (rd_job_node_of(rd_comm_world_rank(comm, r)) != node)
                return rd_err_raise(comm, MPI_ERR_RMA_SHARED, call,
                                    "ranks 0 and %d of the communicator are on different nodes", r);
    }
    struct rd_win_s *w = calloc(1, sizeof(*w));
    if (!w)
        return rd_err_raise(comm, MPI_ERR_NO_MEM, call, "out of memory");
    /* collective: the window's own communicator */
    int rc = PMPI_Comm_dup(comm, &w->comm);
    if (rc != MPI_SUCCESS) {
        free(w);
        return rc;
    }
    w->magic = RD_WIN_MAGIC;
    w->base = flavor == MPI_WIN_FLAVOR_DYNAMIC ? MPI_BOTTOM : base;
    w->size = size;
    w->disp_unit = disp_unit;
    w->disp_unit_attr = disp_unit > INT_MAX ? INT_MAX : (int)disp_unit;
    w->flavor = flavor;
    w->errh = MPI_ERRORS_ARE_FATAL;
    char why[RD_RMA_WHY] = "";
    struct rd_rma_info mine, *all = malloc((size_t)comm->size * sizeof(*all));
    RD_LOCK();
    rc = all ? rd_rma_win_open(w, flavor, info, &mine, why) : MPI_ERR_NO_MEM;
    RD_UNLOCK();
    if (rc == MPI_SUCCESS)
        rc = PMPI_Allgather(&mine, sizeof(mine), MPI_BYTE, all, sizeof(mine), MPI_BYTE, w->comm);
    if (rc == MPI_SUCCESS) {
        RD_LOCK();
        rc = rd_rma_win_table(w, all, why);
        RD_UNLOCK();
    }
    free(all);
    if (rc == MPI_SUCCESS && flavor == MPI_WIN_FLAVOR_SHARED) {
        int fd = -1;
        if (w->comm->rank == 0) {
            RD_LOCK();
            rc = rd_rma_shared_make(w, &fd, why);
            RD_UNLOCK();
        }
        /* rank 0's failure travels as fd -1: every rank fails alike */
        int brc = PMPI_Bcast(&fd, 1, MPI_INT, 0, w->comm);
        if (rc == MPI_SUCCESS && brc == MPI_SUCCESS) {
            RD_LOCK();
            rc = rd_rma_shared_map(w, fd, why);
            RD_UNLOCK();
        }
        if (rc == MPI_SUCCESS)
            rc = PMPI_Barrier(w->comm); /* every rank has opened rank 0's file */
    }
    if (rc != MPI_SUCCESS) {
        RD_LOCK();
        rd_rma_win_close(w);
        RD_UNLOCK();
        PMPI_Comm_free(&w->comm);
        w->magic = 0;
        free(w);
        return rd_err_raise(comm, rc, call, "%s", why[0] ? why : "the window's exchange failed");
    }
    if (baseptr)
        *(void **)baseptr = w->base;
    *win = w;
    return MPI_SUCCESS;
}

/* the three, with an int disp_unit and with an MPI_Aint one (MPI_Win_create_c ...) */
#define RD_WIN_ENTRIES(SFX, DT)                                                                                \
    int PMPI_Win_create##SFX(void *base, MPI_Aint size, DT disp_unit, MPI_Info info, MPI_Comm comm, MPI_Win *win) \
    {                                                                                                          \
        return make_win("MPI_Win_create" #SFX, MPI_WIN_FLAVOR_CREATE, base, size, disp_unit, info, comm, NULL, \
                        win);                                                                                  \
    }                                                                                                          \
    int PMPI_Win_allocate##SFX(MPI_Aint size, DT disp_unit, MPI_Info info, MPI_Comm comm, void *baseptr,       \
                               MPI_Win *win)                                                                   \
    {                                                                                                          \
        return make_win("MPI_Win_allocate" #SFX, MPI_WIN_FLAVOR_ALLOCATE, NULL, size, disp_unit, info, comm,   \
                        baseptr, win);                                                                         \
    }                                                                                                          \
    int PMPI_Win_allocate_shared##SFX(MPI_Aint size, DT disp_unit, MPI_Info info, MPI_Comm comm,               \
                                      void *baseptr, MPI_Win *win)                                             \
    {                                                                                                          \
        return make_win("MPI_Win_allocate_shared" #SFX, MPI_WIN_FLAVOR_SHARED, NULL, size, disp_unit, info,    \
                        comm, baseptr, win);                                                                   \
    }
#pragma weak MPI_Win_create = PMPI_Win_create
#pragma weak MPI_Win_allocate = PMPI_Win_allocate
#pragma weak MPI_Win_allocate_shared = PMPI_Win_allocate_shared
RD_WIN_ENTRIES(, int)
#pragma weak MPI_Win_create_c = PMPI_Win_create_c
#pragma weak MPI_Win_allocate_c = PMPI_Win_allocate_c
#pragma weak MPI_Win_allocate_shared_c = PMPI_Win_allocate_shared_c
RD_WIN_ENTRIES(_c, MPI_Aint)

#pragma weak MPI_Win_create_dynamic = PMPI_Win_create_dynamic
int PMPI_Win_create_dynamic(MPI_Info info, MPI_Comm comm, MPI_Win *win)
{
    return make_win("MPI_Win_create_dynamic", MPI_WIN_FLAVOR_DYNAMIC, NULL, 0, 1, info, comm, NULL, win);
}

#pragma weak MPI_Win_free = PMPI_Win_free
int PMPI_Win_free(MPI_Win *win)
{
    const char *call = "MPI_Win_free";
    RD_API_READY(call);
    if (!win)
        return rd_err_raise(MPI_COMM_WORLD, MPI_ERR_ARG, call, "win is NULL");
    RD_TRY(rd_check_win(call, *win));
    struct rd_win_s *w = *win;
    char why[RD_RMA_WHY] = "";
    RD_LOCK();
    int rc = rd_rma_win_can_free(w, why);
    RD_UNLOCK();
    if (rc != MPI_SUCCESS)
        return rd_err_raise_win(w, rc, call, "%s", why);
    /* collective: no rank lets go of the window while another may still use it */
    rc = PMPI_Barrier(w->comm);
    if (rc != MPI_SUCCESS)
        return rd_err_raise_win(w, rc, call, "the closing barrier failed");
    rc = rd_attr_delete_all_win(w);
    if (rc != MPI_SUCCESS)
        return rd_err_raise_win(w, rc, call, "an attribute delete callback failed");
    RD_LOCK();
    rd_rma_win_close(w);
    RD_UNLOCK();
    PMPI_Comm_free(&w->comm);
    rd_errh_release(w->errh);
    w->magic = 0;
    rd_fh_drop(RD_FH_WIN, &w->fidx);
    free(w);
    *win = MPI_WIN_NULL;
    return MPI_SUCCESS;
}

#pragma weak MPI_Win_get_group = PMPI_Win_get_group
int PMPI_Win_get_group(MPI_Win win, MPI_Group *group)
{
    RD_API_READY("MPI_Win_get_group");
    RD_TRY(rd_check_win("MPI_Win_get_group", win));
    if (!group)
        return rd_err_raise_win(win, MPI_ERR_ARG, "MPI_Win_get_group", "group is NULL");
    return PMPI_Comm_group(win->comm, group);
}

#pragma weak MPI_Win_set_name = PMPI_Win_set_name
int PMPI_Win_set_name(MPI_Win win, const char *name)
{
    RD_API_READY("MPI_Win_set_name");
    RD_TRY(rd_check_win("MPI_Win_set_name", win));
    if (!name)
        return rd_err_raise_win(win, MPI_ERR_ARG, "MPI_Win_set_name", "win_name is NULL");
    snprintf(win->name, sizeof(win->name), "%s", name);
    return MPI_SUCCESS;
}

#pragma weak MPI_Win_get_name = PMPI_Win_get_name
int PMPI_Win_get_name(MPI_Win win, char *name, int *len)
{
    RD_API_READY("MPI_Win_get_name");
    RD_TRY(rd_check_win("MPI_Win_get_name", win));
    if (!name || !len)
        return rd_err_raise_win(win, MPI_ERR_ARG, "MPI_Win_get_name", "%s is NULL", name ? "resultlen" : "win_name");
    snprintf(name, MPI_MAX_OBJECT_NAME, "%s", win->name);
    *len = (int)strlen(name);
    return MPI_SUCCESS;
}

#pragma weak MPI_Win_create_errhandler = PMPI_Win_create_errhandler
int PMPI_Win_create_errhandler(MPI_Win_errhandler_function *fn, MPI_Errhandler *errhandler)
{
    RD_API_READY("MPI_Win_create_errhandler");
    if (!fn || !errhandler)
        return rd_err_raise(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Win_create_errhandler", "%s is NULL",
                            fn ? "errhandler" : "the function");
    if (rd_errh_new(NULL, fn, errhandler) != RD_OK)
        return rd_err_raise(MPI_COMM_WORLD, MPI_ERR_NO_MEM, "MPI_Win_create_errhandler", "out of memory");
    return MPI_SUCCESS;
}

#pragma weak MPI_Win_set_errhandler = PMPI_Win_set_errhandler
int PMPI_Win_set_errhandler(MPI_Win win, MPI_Errhandler errhandler)
{
    RD_API_READY("MPI_Win_set_errhandler");
    RD_TRY(rd_check_win("MPI_Win_set_errhandler", win));
    if (!rd_errh_valid(errhandler))
        return rd_err_raise_win(win, MPI_ERR_ARG, "MPI_Win_set_errhandler", "invalid error handler");
    if ((errhandler->kind == RD_ERRH_USER || errhandler->kind == RD_ERRH_FUSER) && !errhandler->wfn)
        return rd_err_raise_win(win, MPI_ERR_ARG, "MPI_Win_set_errhandler",
                                "the error handler was made for communicators, not windows");
    MPI_Errhandler old = win->errh;
    rd_errh_retain(errhandler);
    win->errh = errhandler;
    rd_errh_release(old);
    return MPI_SUCCESS;
}

#pragma weak MPI_Win_get_errhandler = PMPI_Win_get_errhandler
int PMPI_Win_get_errhandler(MPI_Win win, MPI_Errhandler *errhandler)
{
    RD_API_READY("MPI_Win_get_errhandler");
    RD_TRY(rd_check_win("MPI_Win_get_errhandler", win));
    if (!errhandler)
        return rd_err_raise_win(win, MPI_ERR_ARG, "MPI_Win_get_errhandler", "errhandler is NULL");
    rd_errh_retain(win->errh); /* the caller frees its reference */
    *errhandler = win->errh;
    return MPI_SUCCESS;
}

#pragma weak MPI_Win_call_errhandler = PMPI_Win_call_errhandler
int PMPI_Win_call_errhandler(MPI_Win win, int errorcode)
{
    RD_API_READY("MPI_Win_call_errhandler");
    RD_TRY(rd_check_win("MPI_Win_call_errhandler", win));
    if (rd_err_code_class(errorcode) < 0)
        return rd_err_raise_win(win, MPI_ERR_ARG, "MPI_Win_call_errhandler", "%d is not a valid error code",
                                errorcode);
    rd_err_raise_win(win, errorcode, "MPI_Win_call_errhandler", "error code %d raised by the program", errorcode);
    return MPI_SUCCESS;
}

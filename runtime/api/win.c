/* Windows: MPI_Win_create, Win_free, Win_get_group, names and error
 * handlers (attributes: api/attr.c). The one-sided operations and their
 * synchronization are not provided yet; a window holds what they will need. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/api/check.h"
#include "runtime/objects/attr.h"
#include "runtime/objects/errhandler.h"
#include "runtime/objects/info.h"
#include "runtime/objects/win.h"

#pragma weak MPI_Win_create = PMPI_Win_create
int PMPI_Win_create(void *base, MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm, MPI_Win *win)
{
    const char *call = "MPI_Win_create";
    RD_API_READY(call);
    RD_TRY(rd_check_comm(call, comm));
    if (comm->is_inter)
        return rd_err_raise(comm, MPI_ERR_COMM, call, "a window needs an intracommunicator");
    if (!win)
        return rd_err_raise(comm, MPI_ERR_ARG, call, "win is NULL");
    if (size < 0)
        return rd_err_raise(comm, MPI_ERR_SIZE, call, "size %lld is negative", (long long)size);
    if (disp_unit <= 0)
        return rd_err_raise(comm, MPI_ERR_DISP, call, "disp_unit %d is not positive", disp_unit);
    if (size > 0 && !base)
        return rd_err_raise(comm, MPI_ERR_BASE, call, "base is NULL for %lld bytes", (long long)size);
    if (info != MPI_INFO_NULL && !rd_info_valid(info))
        return rd_err_raise(comm, MPI_ERR_INFO, call, "invalid info");
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
    w->base = base;
    w->size = size;
    w->disp_unit = disp_unit;
    w->errh = MPI_ERRORS_ARE_FATAL;
    *win = w;
    return MPI_SUCCESS;
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
    /* collective: no rank lets go of the window while another may still use it */
    int rc = PMPI_Barrier(w->comm);
    if (rc != MPI_SUCCESS)
        return rd_err_raise_win(w, rc, call, "the closing barrier failed");
    rc = rd_attr_delete_all_win(w);
    if (rc != MPI_SUCCESS)
        return rd_err_raise_win(w, rc, call, "an attribute delete callback failed");
    PMPI_Comm_free(&w->comm);
    rd_errh_release(w->errh);
    w->magic = 0;
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
    if (errhandler->kind == RD_ERRH_USER && !errhandler->wfn)
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
    if (!rd_err_class_string(errorcode))
        return rd_err_raise_win(win, MPI_ERR_ARG, "MPI_Win_call_errhandler", "%d is not a valid error code",
                                errorcode);
    rd_err_invoke_win(win, errorcode);
    return MPI_SUCCESS;
}

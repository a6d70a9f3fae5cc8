/* MPI_Error_string, MPI_Error_class, the classes, codes and strings a
 * program adds (MPI_Add_error_*, MPI_Remove_error_*; objects/errcode.c),
 * MPI_Comm_set_errhandler,
 * MPI_Comm_get_errhandler, MPI_Errhandler_free, MPI_Comm_create_errhandler
 * (and MPI-1's names of three of them). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/base/state.h"
#include "runtime/objects/comm.h"
#include "runtime/api/check.h"
#include "runtime/api/fspecial.h"
#include "runtime/objects/errhandler.h"

#pragma weak MPI_Error_string = PMPI_Error_string
int PMPI_Error_string(int errorcode, char *string, int *resultlen)
{
    if (!string || !resultlen)
        return rd_err_raise(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Error_string",
                            "%s is NULL", string ? "resultlen" : "string");
    const char *base = rd_err_class_string(errorcode);
    if (!base) {
        /* a class or code the program added: its string, or "" */
        if (!rd_err_user_string(errorcode, string, MPI_MAX_ERROR_STRING))
            return rd_err_raise(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Error_string",
                                "%d is not a valid error code", errorcode);
        *resultlen = (int)strlen(string);
        return MPI_SUCCESS;
    }
    const char *detail = rd_err_last_detail(errorcode);
    int n = detail ? snprintf(string, MPI_MAX_ERROR_STRING, "%s (%s)", base, detail)
                   : snprintf(string, MPI_MAX_ERROR_STRING, "%s", base);
    *resultlen = n < MPI_MAX_ERROR_STRING ? n : MPI_MAX_ERROR_STRING - 1;
    return MPI_SUCCESS;
}

#pragma weak MPI_Error_class = PMPI_Error_class
int PMPI_Error_class(int errorcode, int *errorclass)
{
    if (!errorclass)
        return rd_err_raise(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Error_class", "errorclass is NULL");
    int cls = rd_err_code_class(errorcode); /* every code rdmpi returns is a class */
    if (cls < 0)
        return rd_err_raise(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Error_class",
                            "%d is not a valid error code", errorcode);
    *errorclass = cls;
    return MPI_SUCCESS;
}

/* ------------------------------------------------------ classes and codes added at run time */

/* The registry's answer (objects/errcode.c) about value: rc, raised with
 * the cause ("<value> is not an error class") when it is an error. */
static int registry_result(const char *call, int rc, int value, const char *why)
{
    return rc == MPI_SUCCESS ? rc : rd_err_raise(MPI_COMM_WORLD, rc, call, "%d %s", value, why);
}

#pragma weak MPI_Add_error_class = PMPI_Add_error_class
int PMPI_Add_error_class(int *errorclass)
{
    const char *call = "MPI_Add_error_class", *why = "";
    RD_API_READY(call);
    if (!errorclass)
        return rd_err_raise(MPI_COMM_WORLD, MPI_ERR_ARG, call, "errorclass is NULL");
    int rc = rd_err_add(0, 0, errorclass, &why);
    return rc == MPI_SUCCESS ? rc : rd_err_raise(MPI_COMM_WORLD, rc, call, "%s", why);
}

#pragma weak MPI_Add_error_code = PMPI_Add_error_code
int PMPI_Add_error_code(int errorclass, int *errorcode)
{
    const char *call = "MPI_Add_error_code", *why = "";
    RD_API_READY(call);
    if (!errorcode)
        return rd_err_raise(MPI_COMM_WORLD, MPI_ERR_ARG, call, "errorcode is NULL");
    int rc = rd_err_add(1, errorclass, errorcode, &why);
    return registry_result(call, rc, errorclass, why);
}

#pragma weak MPI_Add_error_string = PMPI_Add_error_string
int PMPI_Add_error_string(int errorcode, const char *string)
{
    const char *call = "MPI_Add_error_string", *why = "";
    RD_API_READY(call);
    if (!string)
        return rd_err_raise(MPI_COMM_WORLD, MPI_ERR_ARG, call, "string is NULL");
    size_t len = strnlen(string, MPI_MAX_ERROR_STRING);
    if (len >= MPI_MAX_ERROR_STRING)
        return rd_err_raise(MPI_COMM_WORLD, MPI_ERR_ARG, call,
                            "the string is longer than MPI_MAX_ERROR_STRING - 1 (%d) characters",
                            MPI_MAX_ERROR_STRING - 1);
    int rc = rd_err_set_string(errorcode, string, &why);
    return registry_result(call, rc, errorcode, why);
}

/* MPI 4.1's removals: a class without codes, a code without a string, a string */
#pragma weak MPI_Remove_error_class = PMPI_Remove_error_class
int PMPI_Remove_error_class(int errorclass)
{
    const char *call = "MPI_Remove_error_class", *why = "";
    RD_API_READY(call);
    int rc = rd_err_remove(errorclass, 1, &why);
    return registry_result(call, rc, errorclass, why);
}

#pragma weak MPI_Remove_error_code = PMPI_Remove_error_code
int PMPI_Remove_error_code(int errorcode)
{
    const char *call = "MPI_Remove_error_code", *why = "";
    RD_API_READY(call);
    int rc = rd_err_remove(errorcode, 0, &why);
    return registry_result(call, rc, errorcode, why);
}

#pragma weak MPI_Remove_error_string = PMPI_Remove_error_string
int PMPI_Remove_error_string(int errorcode)
{
    const char *call = "MPI_Remove_error_string", *why = "";
    RD_API_READY(call);
    int rc = rd_err_remove_string(errorcode, &why);
    return registry_result(call, rc, errorcode, why);
}

/* The communicator's handler calls are shared by MPI-2's names and
 * MPI-1's (MPI_Errhandler_set, MPI_Errhandler_get, MPI_Errhandler_create,
 * removed in MPI-3.0): call is the name the program used. */
static int comm_set_errhandler(const char *call, MPI_Comm comm, MPI_Errhandler errhandler)
{
    if (!rd_ready())
        return rd_err_not_ready(call);
    if (!rd_comm_valid(comm))
        return rd_err_raise(comm, MPI_ERR_COMM, call, "invalid communicator");
    if (!rd_errh_valid(errhandler))
        return rd_err_raise(comm, MPI_ERR_ARG, call, "invalid error handler");
    if (errhandler->wfn || errhandler->ffn)
        return rd_err_raise(comm, MPI_ERR_ARG, call, "the error handler was made for %s",
                            errhandler->wfn ? "windows (MPI_Win_create_errhandler)"
                                            : "files (MPI_File_create_errhandler)");
    MPI_Errhandler old = comm->errh;
    rd_errh_retain(errhandler);
    comm->errh = errhandler;
    rd_errh_release(old);
    return MPI_SUCCESS;
}

static int comm_get_errhandler(const char *call, MPI_Comm comm, MPI_Errhandler *errhandler)
{
    if (!rd_ready())
        return rd_err_not_ready(call);
    if (!rd_comm_valid(comm))
        return rd_err_raise(comm, MPI_ERR_COMM, call, "invalid communicator");
    if (!errhandler)
        return rd_err_raise(comm, MPI_ERR_ARG, call, "errhandler is NULL");
    rd_errh_retain(comm->errh); /* the caller frees its reference */
    *errhandler = comm->errh;
    return MPI_SUCCESS;
}

static int comm_create_errhandler(const char *call, MPI_Comm_errhandler_function *fn, MPI_Errhandler *errhandler)
{
    if (!rd_ready())
        return rd_err_not_ready(call);
    if (!fn || !errhandler)
        return rd_err_raise(MPI_COMM_WORLD, MPI_ERR_ARG, call, "%s is NULL", fn ? "errhandler" : "the function");
    if (rd_errh_new(fn, NULL, errhandler) != RD_OK)
        return rd_err_raise(MPI_COMM_WORLD, MPI_ERR_NO_MEM, call, "out of memory");
    return MPI_SUCCESS;
}

#pragma weak MPI_Comm_set_errhandler = PMPI_Comm_set_errhandler
int PMPI_Comm_set_errhandler(MPI_Comm comm, MPI_Errhandler errhandler)
{
    return comm_set_errhandler("MPI_Comm_set_errhandler", comm, errhandler);
}

#pragma weak MPI_Comm_get_errhandler = PMPI_Comm_get_errhandler
int PMPI_Comm_get_errhandler(MPI_Comm comm, MPI_Errhandler *errhandler)
{
    return comm_get_errhandler("MPI_Comm_get_errhandler", comm, errhandler);
}

#pragma weak MPI_Errhandler_set = PMPI_Errhandler_set
int PMPI_Errhandler_set(MPI_Comm comm, MPI_Errhandler errhandler)
{
    return comm_set_errhandler("MPI_Errhandler_set", comm, errhandler);
}

#pragma weak MPI_Errhandler_get = PMPI_Errhandler_get
int PMPI_Errhandler_get(MPI_Comm comm, MPI_Errhandler *errhandler)
{
    return comm_get_errhandler("MPI_Errhandler_get", comm, errhandler);
}

#pragma weak MPI_Errhandler_create = PMPI_Errhandler_create
int PMPI_Errhandler_create(MPI_Handler_function *fn, MPI_Errhandler *errhandler)
{
    return comm_create_errhandler("MPI_Errhandler_create", fn, errhandler);
}

#pragma weak MPI_Errhandler_free = PMPI_Errhandler_free
int PMPI_Errhandler_free(MPI_Errhandler *errhandler)
{
    if (!rd_ready())
        return rd_err_not_ready("MPI_Errhandler_free");
    if (!errhandler || !rd_errh_valid(*errhandler))
        return rd_err_raise(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Errhandler_free",
                            "invalid error handler");
    rd_errh_release(*errhandler);
    *errhandler = MPI_ERRHANDLER_NULL;
    return MPI_SUCCESS;
}

#pragma weak MPI_Comm_create_errhandler = PMPI_Comm_create_errhandler
int PMPI_Comm_create_errhandler(MPI_Comm_errhandler_function *fn, MPI_Errhandler *errhandler)
{
    return comm_create_errhandler("MPI_Comm_create_errhandler", fn, errhandler);
}

/* The Fortran glue's MPI_COMM_CREATE_ERRHANDLER and
 * MPI_WIN_CREATE_ERRHANDLER: the handler just made from a Fortran
 * subroutine is called the Fortran way (objects/errhandler.c,
 * RD_ERRH_FUSER). The predefined communicators get their Fortran indices
 * first (PMPI_Comm_c2f does that once). */
void rd_mpi_f_errhandler(MPI_Errhandler eh)
{
    (void)PMPI_Comm_c2f(MPI_COMM_NULL);
    if (rd_errh_valid(eh) && eh->kind == RD_ERRH_USER)
        eh->kind = RD_ERRH_FUSER;
}

#pragma weak MPI_Comm_call_errhandler = PMPI_Comm_call_errhandler
int PMPI_Comm_call_errhandler(MPI_Comm comm, int errorcode)
{
    if (!rd_ready())
        return rd_err_not_ready("MPI_Comm_call_errhandler");
    if (!rd_comm_valid(comm))
        return rd_err_raise(comm, MPI_ERR_COMM, "MPI_Comm_call_errhandler", "invalid communicator");
    if (rd_err_code_class(errorcode) < 0)
        return rd_err_raise(comm, MPI_ERR_ARG, "MPI_Comm_call_errhandler",
                            "%d is not a valid error code", errorcode);
    rd_err_raise(comm, errorcode, "MPI_Comm_call_errhandler", "error code %d raised by the program", errorcode);
    /* the standard: returns MPI_SUCCESS if the handler returned */
    return MPI_SUCCESS;
}

/* Generalized requests (MPI-3.1 12.2): MPI_Grequest_start,
 * MPI_Grequest_complete, MPI_Status_set_cancelled (and MPI 4.1's
 * MPI_Status_get/set_source, _tag, _error), and the calls of the
 * user's callbacks for runtime/api/request.c (greq.h). A generalized
 * request is an RD_REQ_GREQ request that nothing in the library completes:
 * MPI_Grequest_complete sets its done flag (from any thread), so the
 * Wait/Test family waits for it as for any other. */
#include "runtime/api/greq.h"

#include <mpi.h>

#include "runtime/api/check.h"
#include "runtime/api/fspecial.h"
#include "runtime/p2p/p2p.h"

/* Callbacks written in Fortran (runtime/fortran/README.md, "Callbacks"):
 * every argument by reference, the extra state an
 * INTEGER(KIND=MPI_ADDRESS_KIND) holding the C void *'s bits, the status
 * the C status's bytes (MPI_STATUS_SIZE INTEGERs), COMPLETE a LOGICAL,
 * IERROR last. */
typedef void rd_greq_fquery(MPI_Aint *extra, MPI_Fint *status, MPI_Fint *ierr);
typedef void rd_greq_ffree(MPI_Aint *extra, MPI_Fint *ierr);
typedef void rd_greq_fcancel(MPI_Aint *extra, MPI_Fint *complete, MPI_Fint *ierr);

_Static_assert(sizeof(MPI_Status) == MPI_F_STATUS_SIZE * sizeof(MPI_Fint),
               "a Fortran status holds the C status's bytes");

/* The glue's MPI_GREQUEST_START: the request's callbacks are Fortran's. */
void rd_mpi_f_request(MPI_Request r)
{
    if (rd_req_valid(r) && r->kind == RD_REQ_GREQ)
        r->greq.fortran = 1;
}

int rd_greq_query(struct rd_request_s *req, MPI_Status *st)
{
    int err;
    rd_status_empty(st);
    RD_UNLOCK();
    if (req->greq.fortran) {
        MPI_Aint e = (MPI_Aint)req->greq.extra;
        MPI_Fint ierr = MPI_SUCCESS;
        ((rd_greq_fquery *)(void (*)(void))req->greq.query)(&e, (MPI_Fint *)st, &ierr);
        err = ierr;
    } else {
        err = req->greq.query(req->greq.extra, st);
    }
    RD_LOCK();
    return err;
}

int rd_greq_free(struct rd_request_s *req)
{
    int err;
    RD_UNLOCK();
    if (req->greq.fortran) {
        MPI_Aint e = (MPI_Aint)req->greq.extra;
        MPI_Fint ierr = MPI_SUCCESS;
        ((rd_greq_ffree *)(void (*)(void))req->greq.free)(&e, &ierr);
        err = ierr;
    } else {
        err = req->greq.free(req->greq.extra);
    }
    RD_LOCK();
    return err;
}

int rd_greq_collect(struct rd_request_s *req, MPI_Status *st)
{
    int err = rd_greq_query(req, st);
    int ferr = rd_greq_free(req);
    return err != MPI_SUCCESS ? err : ferr;
}

int rd_greq_cancel(struct rd_request_s *req, int complete)
{
    int err;
    RD_UNLOCK();
    if (req->greq.fortran) {
        MPI_Aint e = (MPI_Aint)req->greq.extra;
        MPI_Fint c = complete ? 1 : 0, ierr = MPI_SUCCESS; /* gfortran's .TRUE. is 1 */
        ((rd_greq_fcancel *)(void (*)(void))req->greq.cancel)(&e, &c, &ierr);
        err = ierr;
    } else {
        err = req->greq.cancel(req->greq.extra, complete);
    }
    RD_LOCK();
    return err;
}

#pragma weak MPI_Grequest_start = PMPI_Grequest_start
int PMPI_Grequest_start(MPI_Grequest_query_function *query_fn, MPI_Grequest_free_function *free_fn,
                        MPI_Grequest_cancel_function *cancel_fn, void *extra_state, MPI_Request *request)
{
    const char *call = "MPI_Grequest_start";
    RD_API_READY(call);
    if (!query_fn || !free_fn || !cancel_fn)
        return rd_err_raise(MPI_COMM_WORLD, MPI_ERR_ARG, call, "%s is NULL",
                            !query_fn ? "query_fn" : !free_fn ? "free_fn" : "cancel_fn");
    if (!request)
        return rd_err_raise(MPI_COMM_WORLD, MPI_ERR_ARG, call, "request pointer is NULL");
    RD_LOCK();
    struct rd_request_s *req = rd_req_alloc(RD_REQ_GREQ);
    RD_UNLOCK();
    if (!req)
        return rd_err_raise(MPI_COMM_WORLD, MPI_ERR_NO_MEM, call, "out of memory");
    req->greq.query = query_fn;
    req->greq.free = free_fn;
    req->greq.cancel = cancel_fn;
    req->greq.extra = extra_state;
    req->greq.fortran = 0;
    *request = req;
    return MPI_SUCCESS;
}

#pragma weak MPI_Grequest_complete = PMPI_Grequest_complete
int PMPI_Grequest_complete(MPI_Request request)
{
    const char *call = "MPI_Grequest_complete";
    RD_API_READY(call);
    if (!rd_req_valid(request))
        return rd_err_raise(MPI_COMM_WORLD, MPI_ERR_REQUEST, call, "invalid request");
    if (request->kind != RD_REQ_GREQ)
        return rd_err_raise(MPI_COMM_WORLD, MPI_ERR_REQUEST, call,
                            "the request is not a generalized request");
    int err = MPI_SUCCESS;
    RD_LOCK();
    if (rd_req_done(request)) {
        RD_UNLOCK();
        return rd_err_raise(MPI_COMM_WORLD, MPI_ERR_REQUEST, call,
                            "the generalized request is already complete");
    }
    if (request->user_freed) {
        /* MPI_Request_free came first: free_fn now, then the request goes */
        atomic_store_explicit(&request->done, 1, memory_order_release);
        err = rd_greq_free(request);
        rd_req_release(request);
    } else {
        atomic_store_explicit(&request->done, 1, memory_order_release);
    }
    RD_UNLOCK();
    if (err != MPI_SUCCESS)
        return rd_err_raise(MPI_COMM_WORLD, err, call,
                            "the freed generalized request's free_fn returned error %d", err);
    return MPI_SUCCESS;
}

#pragma weak MPI_Status_set_cancelled = PMPI_Status_set_cancelled
int PMPI_Status_set_cancelled(MPI_Status *status, int flag)
{
    if (!status)
        return rd_err_raise(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Status_set_cancelled", "status is NULL");
    status->rd_cancelled = flag != 0;
    return MPI_SUCCESS;
}

/* MPI 4.1: the status's public fields through calls, for bindings that
 * cannot reach them; a NULL status (or MPI_STATUS_IGNORE) is MPI_ERR_ARG. */
static int status_get(const char *call, const MPI_Status *status, const int *field, int *out)
{
    if (!status || !out)
        return rd_err_raise(MPI_COMM_WORLD, MPI_ERR_ARG, call, "%s is NULL", status ? "the result" : "status");
    *out = *field;
    return MPI_SUCCESS;
}

#pragma weak MPI_Status_get_source = PMPI_Status_get_source
int PMPI_Status_get_source(MPI_Status *status, int *source)
{
    return status_get("MPI_Status_get_source", status, status ? &status->MPI_SOURCE : NULL, source);
}

#pragma weak MPI_Status_get_tag = PMPI_Status_get_tag
int PMPI_Status_get_tag(MPI_Status *status, int *tag)
{
    return status_get("MPI_Status_get_tag", status, status ? &status->MPI_TAG : NULL, tag);
}

#pragma weak MPI_Status_get_error = PMPI_Status_get_error
int PMPI_Status_get_error(MPI_Status *status, int *error)
{
    return status_get("MPI_Status_get_error", status, status ? &status->MPI_ERROR : NULL, error);
}

static int status_set(const char *call, MPI_Status *status, int *field, int value)
{
    if (!status)
        return rd_err_raise(MPI_COMM_WORLD, MPI_ERR_ARG, call, "status is NULL");
    *field = value;
    return MPI_SUCCESS;
}

#pragma weak MPI_Status_set_source = PMPI_Status_set_source
int PMPI_Status_set_source(MPI_Status *status, int source)
{
    return status_set("MPI_Status_set_source", status, status ? &status->MPI_SOURCE : NULL, source);
}

#pragma weak MPI_Status_set_tag = PMPI_Status_set_tag
int PMPI_Status_set_tag(MPI_Status *status, int tag)
{
    return status_set("MPI_Status_set_tag", status, status ? &status->MPI_TAG : NULL, tag);
}

#pragma weak MPI_Status_set_error = PMPI_Status_set_error
int PMPI_Status_set_error(MPI_Status *status, int error)
{
    return status_set("MPI_Status_set_error", status, status ? &status->MPI_ERROR : NULL, error);
}

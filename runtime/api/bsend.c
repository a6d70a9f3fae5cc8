/* The buffers of buffered sends: MPI_Buffer_attach / detach, and MPI
 * 4.1's flushes and communicators' buffers (MPI_Comm_attach_buffer ...,
 * MPI_BUFFER_AUTOMATIC) and sessions' (MPI_Session_attach_buffer ...,
 * used by the communicators derived from the session): the checks; the buffers and their allocator
 * belong to the p2p engine (runtime/p2p/bsend.c). */
#include <limits.h>
#include <mpi.h>
#include <stdlib.h>

#include "runtime/api/check.h"
#include "runtime/objects/session.h"
#include "runtime/p2p/bsend.h"
#include "runtime/p2p/p2p.h"

/* Where errors go: a session's handler (ses), else comm's. */
#define RAISE(ses, comm, cls, call, ...)                                               \
    ((ses) ? rd_err_raise_session((ses), (cls), (call), __VA_ARGS__)                  \
           : rd_err_raise((comm), (cls), (call), __VA_ARGS__))

/* comm: where errors go, and (not MPI_COMM_NULL) the communicator whose
 * buffer *where is; MPI_COMM_NULL: the process's (errors to MPI_COMM_WORLD)
 * or, ses not NULL, the session's (errors to its handler). */
static int attach_to(const char *call, MPI_Session ses, MPI_Comm comm, struct rd_bsend_buf **where, void *buffer,
                     MPI_Count size)
{
    const char *whose = ses ? " to the session" : comm != MPI_COMM_NULL ? " to the communicator" : "";
    if (comm == MPI_COMM_NULL)
        comm = MPI_COMM_WORLD;
    if (buffer != MPI_BUFFER_AUTOMATIC) {
        if (size < 0)
            return RAISE(ses, comm, MPI_ERR_ARG, call, "size %lld is negative", size);
        if (!buffer && size > 0)
            return RAISE(ses, comm, MPI_ERR_BUFFER, call, "buffer is NULL");
    }
    if (rd_bsend_attached(*where))
        return RAISE(ses, comm, MPI_ERR_BUFFER, call, "a buffer is already attached%s (detach it first)", whose);
    RD_LOCK();
    rd_status st = rd_bsend_attach(where, buffer, (size_t)size);
    RD_UNLOCK();
    return st == RD_OK ? MPI_SUCCESS : RAISE(ses, comm, MPI_ERR_NO_MEM, call, "out of memory");
}

static int attach(const char *call, MPI_Comm comm, struct rd_bsend_buf **where, void *buffer, MPI_Count size)
{
    return attach_to(call, MPI_SESSION_NULL, comm, where, buffer, size);
}

static int detach_from(const char *call, MPI_Session ses, MPI_Comm comm, struct rd_bsend_buf **where,
                       void *buffer_addr, MPI_Count *size)
{
    int own = comm != MPI_COMM_NULL || ses;
    if (comm == MPI_COMM_NULL)
        comm = MPI_COMM_WORLD;
    if (!buffer_addr || !size)
        return RAISE(ses, comm, MPI_ERR_ARG, call, "%s is NULL", size ? "buffer_addr" : "size");
    if (own && !rd_bsend_attached(*where))
        return RAISE(ses, comm, MPI_ERR_BUFFER, call, "no buffer is attached to the %s",
                     ses ? "session" : "communicator");
    size_t bytes = 0;
    *(void **)buffer_addr = NULL;
    RD_LOCK();
    if (*where)
        rd_bsend_detach(where, (void **)buffer_addr, &bytes);
    RD_UNLOCK();
    *size = (MPI_Count)bytes;
    return MPI_SUCCESS;
}

static int detach(const char *call, MPI_Comm comm, struct rd_bsend_buf **where, void *buffer_addr,
                  MPI_Count *size)
{
    return detach_from(call, MPI_SESSION_NULL, comm, where, buffer_addr, size);
}

static int comm_ok(const char *call, MPI_Comm comm)
{
    RD_TRY(rd_check_comm(call, comm));
    return MPI_SUCCESS;
}

#pragma weak MPI_Buffer_attach = PMPI_Buffer_attach
int PMPI_Buffer_attach(void *buffer, int size)
{
    RD_API_READY("MPI_Buffer_attach");
    struct rd_bsend_buf *b = rd_bsend_process();
    return attach("MPI_Buffer_attach", MPI_COMM_NULL, &b, buffer, size);
}

#pragma weak MPI_Buffer_attach_c = PMPI_Buffer_attach_c
int PMPI_Buffer_attach_c(void *buffer, MPI_Count size)
{
    RD_API_READY("MPI_Buffer_attach_c");
    struct rd_bsend_buf *b = rd_bsend_process();
    return attach("MPI_Buffer_attach_c", MPI_COMM_NULL, &b, buffer, size);
}

#pragma weak MPI_Buffer_detach = PMPI_Buffer_detach
int PMPI_Buffer_detach(void *buffer_addr, int *size)
{
    RD_API_READY("MPI_Buffer_detach");
    struct rd_bsend_buf *b = rd_bsend_process();
    MPI_Count n = 0;
    if (!size)
        return rd_err_raise(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Buffer_detach", "size is NULL");
    RD_TRY(detach("MPI_Buffer_detach", MPI_COMM_NULL, &b, buffer_addr, &n));
    *size = n > INT_MAX ? INT_MAX : (int)n;
    return MPI_SUCCESS;
}

#pragma weak MPI_Buffer_detach_c = PMPI_Buffer_detach_c
int PMPI_Buffer_detach_c(void *buffer_addr, MPI_Count *size)
{
    RD_API_READY("MPI_Buffer_detach_c");
    struct rd_bsend_buf *b = rd_bsend_process();
    return detach("MPI_Buffer_detach_c", MPI_COMM_NULL, &b, buffer_addr, size);
}

#pragma weak MPI_Comm_attach_buffer = PMPI_Comm_attach_buffer
int PMPI_Comm_attach_buffer(MPI_Comm comm, void *buffer, int size)
{
    RD_API_READY("MPI_Comm_attach_buffer");
    RD_TRY(comm_ok("MPI_Comm_attach_buffer", comm));
    return attach("MPI_Comm_attach_buffer", comm, &comm->bsend, buffer, size);
}

#pragma weak MPI_Comm_attach_buffer_c = PMPI_Comm_attach_buffer_c
int PMPI_Comm_attach_buffer_c(MPI_Comm comm, void *buffer, MPI_Count size)
{
    RD_API_READY("MPI_Comm_attach_buffer_c");
    RD_TRY(comm_ok("MPI_Comm_attach_buffer_c", comm));
    return attach("MPI_Comm_attach_buffer_c", comm, &comm->bsend, buffer, size);
}

#pragma weak MPI_Comm_detach_buffer = PMPI_Comm_detach_buffer
int PMPI_Comm_detach_buffer(MPI_Comm comm, void *buffer_addr, int *size)
{
    RD_API_READY("MPI_Comm_detach_buffer");
    RD_TRY(comm_ok("MPI_Comm_detach_buffer", comm));
    if (!size)
        return rd_err_raise(comm, MPI_ERR_ARG, "MPI_Comm_detach_buffer", "size is NULL");
    MPI_Count n = 0;
    RD_TRY(detach("MPI_Comm_detach_buffer", comm, &comm->bsend, buffer_addr, &n));
    *size = n > INT_MAX ? INT_MAX : (int)n;
    return MPI_SUCCESS;
}

#pragma weak MPI_Comm_detach_buffer_c = PMPI_Comm_detach_buffer_c
int PMPI_Comm_detach_buffer_c(MPI_Comm comm, void *buffer_addr, MPI_Count *size)
{
    RD_API_READY("MPI_Comm_detach_buffer_c");
    RD_TRY(comm_ok("MPI_Comm_detach_buffer_c", comm));
    return detach("MPI_Comm_detach_buffer_c", comm, &comm->bsend, buffer_addr, size);
}

/* ------------------------------------------------------------ flushes */

static int flush(const char *call, MPI_Comm comm, struct rd_bsend_buf *b)
{
    RD_LOCK();
    rd_bsend_flush(b);
    RD_UNLOCK();
    (void)call;
    (void)comm;
    return MPI_SUCCESS;
}

/* The nonblocking flushes: requests that the progress hook completes
 * once their buffer is empty (messages sent later into the same buffer
 * make it wait for them too, which the standard allows). */
struct pending_flush {
    struct rd_request_s *req;
    struct rd_bsend_buf *const *where; /* (a communicator's may go meanwhile) */
    struct rd_bsend_buf *process;
    MPI_Comm comm;
    struct rd_session_s *session; /* a session's buffer: the session (a reference), or NULL */
    struct pending_flush *next;
};
static struct pending_flush *flushes;

static int flush_progress(void)
{
    int n = 0;
    for (struct pending_flush **pp = &flushes; *pp;) {
        struct pending_flush *f = *pp;
        struct rd_bsend_buf *b = f->process ? f->process : *f->where;
        if (rd_bsend_flushed(b)) {
            *pp = f->next;
            rd_req_complete(f->req);
            rd_comm_release(f->comm);
            rd_session_release(f->session);
            free(f);
            n++;
        } else {
            pp = &f->next;
        }
    }
    if (!flushes)
        rd_progress_remove(flush_progress);
    return n;
}

static int iflush(const char *call, MPI_Comm comm, struct rd_bsend_buf *const *where, MPI_Request *request)
{
    if (!request)
        return rd_err_raise(comm, MPI_ERR_ARG, call, "request pointer is NULL");
    RD_LOCK();
    struct rd_request_s *req = rd_req_alloc(RD_REQ_COLL);
    struct pending_flush *f = req ? malloc(sizeof(*f)) : NULL;
    if (!f || rd_progress_add(flush_progress) != 0) {
        if (req)
            rd_req_release(req);
        free(f);
        RD_UNLOCK();
        return rd_err_raise(comm, MPI_ERR_NO_MEM, call, "out of memory");
    }
    req->comm = comm;
    rd_comm_retain(comm);
    req->why = NULL;
    req->io.file = NULL;
    rd_status_empty(&req->status);
    f->req = req;
    f->where = where;
    f->process = where ? NULL : rd_bsend_process();
    f->comm = comm;
    rd_comm_retain(comm);
    f->session = NULL;
    f->next = flushes;
    flushes = f;
    flush_progress(); /* (done at once when the buffer is empty) */
    RD_UNLOCK();
    *request = req;
    return MPI_SUCCESS;
}

#pragma weak MPI_Buffer_flush = PMPI_Buffer_flush
int PMPI_Buffer_flush(void)
{
    RD_API_READY("MPI_Buffer_flush");
    return flush("MPI_Buffer_flush", MPI_COMM_WORLD, rd_bsend_process());
}

#pragma weak MPI_Buffer_iflush = PMPI_Buffer_iflush
int PMPI_Buffer_iflush(MPI_Request *request)
{
    RD_API_READY("MPI_Buffer_iflush");
    return iflush("MPI_Buffer_iflush", MPI_COMM_WORLD, NULL, request);
}

#pragma weak MPI_Comm_flush_buffer = PMPI_Comm_flush_buffer
int PMPI_Comm_flush_buffer(MPI_Comm comm)
{
    RD_API_READY("MPI_Comm_flush_buffer");
    RD_TRY(comm_ok("MPI_Comm_flush_buffer", comm));
    return flush("MPI_Comm_flush_buffer", comm, comm->bsend);
}

#pragma weak MPI_Comm_iflush_buffer = PMPI_Comm_iflush_buffer
int PMPI_Comm_iflush_buffer(MPI_Comm comm, MPI_Request *request)
{
    RD_API_READY("MPI_Comm_iflush_buffer");
    RD_TRY(comm_ok("MPI_Comm_iflush_buffer", comm));
    return iflush("MPI_Comm_iflush_buffer", comm, &comm->bsend, request);
}

/* ------------------------------------------------------------ a session's buffer (MPI 4.1) */

#pragma weak MPI_Session_attach_buffer = PMPI_Session_attach_buffer
int PMPI_Session_attach_buffer(MPI_Session session, void *buffer, int size)
{
    RD_TRY(rd_check_session("MPI_Session_attach_buffer", session));
    return attach_to("MPI_Session_attach_buffer", session, MPI_COMM_NULL, &session->bsend, buffer, size);
}

#pragma weak MPI_Session_attach_buffer_c = PMPI_Session_attach_buffer_c
int PMPI_Session_attach_buffer_c(MPI_Session session, void *buffer, MPI_Count size)
{
    RD_TRY(rd_check_session("MPI_Session_attach_buffer_c", session));
    return attach_to("MPI_Session_attach_buffer_c", session, MPI_COMM_NULL, &session->bsend, buffer, size);
}

#pragma weak MPI_Session_detach_buffer = PMPI_Session_detach_buffer
int PMPI_Session_detach_buffer(MPI_Session session, void *buffer_addr, int *size)
{
    RD_TRY(rd_check_session("MPI_Session_detach_buffer", session));
    if (!size)
        return rd_err_raise_session(session, MPI_ERR_ARG, "MPI_Session_detach_buffer", "size is NULL");
    MPI_Count n = 0;
    RD_TRY(detach_from("MPI_Session_detach_buffer", session, MPI_COMM_NULL, &session->bsend, buffer_addr, &n));
    *size = n > INT_MAX ? INT_MAX : (int)n;
    return MPI_SUCCESS;
}

#pragma weak MPI_Session_detach_buffer_c = PMPI_Session_detach_buffer_c
int PMPI_Session_detach_buffer_c(MPI_Session session, void *buffer_addr, MPI_Count *size)
{
    RD_TRY(rd_check_session("MPI_Session_detach_buffer_c", session));
    return detach_from("MPI_Session_detach_buffer_c", session, MPI_COMM_NULL, &session->bsend, buffer_addr, size);
}

#pragma weak MPI_Session_flush_buffer = PMPI_Session_flush_buffer
int PMPI_Session_flush_buffer(MPI_Session session)
{
    RD_TRY(rd_check_session("MPI_Session_flush_buffer", session));
    return flush("MPI_Session_flush_buffer", MPI_COMM_SELF, session->bsend);
}

#pragma weak MPI_Session_iflush_buffer = PMPI_Session_iflush_buffer
int PMPI_Session_iflush_buffer(MPI_Session session, MPI_Request *request)
{
    const char *call = "MPI_Session_iflush_buffer";
    RD_TRY(rd_check_session(call, session));
    if (!request)
        return rd_err_raise_session(session, MPI_ERR_ARG, call, "request pointer is NULL");
    RD_TRY(iflush(call, MPI_COMM_SELF, &session->bsend, request));
    RD_LOCK();
    for (struct pending_flush *f = flushes; f; f = f->next)
        if (f->req == *request) { /* (still pending: it holds the session, whose buffer it watches) */
            f->session = session;
            rd_session_retain(session);
        }
    RD_UNLOCK();
    return MPI_SUCCESS;
}

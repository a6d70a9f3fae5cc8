/* Point-to-point calls: the send modes, receives, sendrecv, probes and
 * matched probes. Argument checks here; the protocols live in runtime/p2p.
 * Each call with counts has its large-count twin (MPI_Send_c ...): the
 * same code, whose counts are MPI_Count (the int call's converted). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/api/check.h"
#include "runtime/base/job.h"
#include "runtime/base/params.h"
#include "runtime/base/report.h"
#include "runtime/p2p/bsend.h"
#include "runtime/p2p/p2p.h"
#include "runtime/p2p/pair.h"

static int engine_error(MPI_Comm comm, const char *call, rd_status st, int peer)
{
    return rd_err_raise(comm, rd_status_to_mpi(st), call, "%s (peer rank %d)", rd_status_string(st),
                        peer);
}

static void proc_null_status(MPI_Status *st)
{
    if (!st)
        return;
    st->MPI_SOURCE = MPI_PROC_NULL;
    st->MPI_TAG = MPI_ANY_TAG;
    st->rd_cancelled = 0;
    st->rd_bytes = 0;
}

/* One path for every send mode, blocking (reqp == NULL) or not; inlined
 * into each entry point, where the mode and whether there is a request
 * are constants (MPI_Isend: 392 -> 345 instructions a call). */
static inline __attribute__((always_inline)) int
send_common(const char *call, int mode, const void *buf, MPI_Count count, MPI_Datatype dt, int dest, int tag,
            MPI_Comm comm, MPI_Request *reqp)
{
    RD_API_READY(call);
    RD_TRY(rd_check_comm(call, comm));
    RD_TRY(rd_check_buf(call, comm, buf, count, dt));
    RD_TRY(rd_check_dest(call, comm, dest, tag));
    if (reqp == NULL && mode == RD_MODE_STANDARD && dest == MPI_PROC_NULL)
        return MPI_SUCCESS;
    struct rd_request_s *req;
    rd_status st = RD_OK;
    int err = MPI_SUCCESS;
    /* one critical section for the whole call: when the fast path cannot
     * take the message, the request path follows without unlocking */
    RD_LOCK();
    if (mode == RD_MODE_STANDARD && dest != MPI_PROC_NULL) {
        /* an eager message that leaves at once needs no request in flight:
         * a nonblocking one gets a request that is already complete */
        st = rd_p2p_send_fast(buf, count, dt, dest, tag, comm);
        if (st == RD_OK) {
            struct rd_request_s *done = NULL;
            if (reqp) {
                done = rd_req_alloc(RD_REQ_DONE);
                if (done) {
                    done->comm = comm;
                    rd_comm_retain(comm);
                    rd_status_empty(&done->status);
                    rd_req_complete(done);
                }
            }
            RD_UNLOCK();
            if (!reqp)
                return MPI_SUCCESS;
            if (!done)
                return rd_err_raise(comm, MPI_ERR_NO_MEM, call, "out of memory");
            *reqp = done;
            return MPI_SUCCESS;
        }
        if (st != RD_ERR_AGAIN) {
            RD_UNLOCK();
            return engine_error(comm, call, st, dest);
        }
        st = RD_OK;
    }
    if (mode == RD_MODE_BUFFERED) {
        if (dest != MPI_PROC_NULL)
            st = rd_bsend_start(buf, count, dt, dest, tag, comm, &err);
        req = reqp ? rd_req_alloc(RD_REQ_DONE) : NULL;
        RD_UNLOCK();
        if (st != RD_OK)
            return engine_error(comm, call, st, dest);
        if (err != MPI_SUCCESS) {
            if (req)
                rd_req_release(req);
            return rd_err_raise(comm, err, call,
                                "the attached buffer has no room for %zu bytes (+%d overhead)",
                                (size_t)count * dt->size, MPI_BSEND_OVERHEAD);
        }
        if (reqp) {
            if (!req)
                return rd_err_raise(comm, MPI_ERR_NO_MEM, call, "out of memory");
            req->comm = comm;
            rd_comm_retain(comm);
            rd_status_empty(&req->status);
            rd_req_complete(req);
            *reqp = req;
        }
        return MPI_SUCCESS;
    }
    req = rd_req_new(RD_REQ_SEND, mode, buf, count, dt, dest, tag, comm);
    if (!req) {
        RD_UNLOCK();
        return rd_err_raise(comm, MPI_ERR_NO_MEM, call, "out of memory");
    }
    if (dest == MPI_PROC_NULL) {
        proc_null_status(&req->status);
        rd_req_complete(req);
    } else if (mode == RD_MODE_STANDARD) {
        st = rd_p2p_start_send_missed(req); /* on from the fast path's miss */
    } else {
        st = rd_p2p_start_send(req);
    }
    if (st == RD_OK && !reqp) {
        rd_req_wait(req);
        err = req->error;
        rd_req_release(req);
    } else if (st == RD_OK) {
        *reqp = req;
    } else {
        rd_req_release(req); /* (not started) */
    }
    RD_UNLOCK();
    if (st != RD_OK)
        return engine_error(comm, call, st, dest);
    if (err != MPI_SUCCESS)
        return rd_err_raise(comm, err, call, "send to rank %d failed", dest);
    return MPI_SUCCESS;
}

static int check_reqp(const char *call, MPI_Comm comm, MPI_Request *r)
{
    return r ? MPI_SUCCESS : rd_err_raise(comm, MPI_ERR_REQUEST, call, "request pointer is NULL");
}

/* The eight send calls, with int counts and with MPI_Count ones (a ready
 * send may go as a standard one: its receive is posted). */
#define RD_SEND_ENTRIES(SFX, CT)                                                                          \
    int PMPI_Send##SFX(const void *buf, CT count, MPI_Datatype dt, int dest, int tag, MPI_Comm comm)     \
    {                                                                                                     \
        return send_common("MPI_Send" #SFX, RD_MODE_STANDARD, buf, count, dt, dest, tag, comm, NULL);    \
    }                                                                                                     \
    int PMPI_Ssend##SFX(const void *buf, CT count, MPI_Datatype dt, int dest, int tag, MPI_Comm comm)    \
    {                                                                                                     \
        return send_common("MPI_Ssend" #SFX, RD_MODE_SYNC, buf, count, dt, dest, tag, comm, NULL);       \
    }                                                                                                     \
    int PMPI_Rsend##SFX(const void *buf, CT count, MPI_Datatype dt, int dest, int tag, MPI_Comm comm)    \
    {                                                                                                     \
        return send_common("MPI_Rsend" #SFX, RD_MODE_STANDARD, buf, count, dt, dest, tag, comm, NULL);   \
    }                                                                                                     \
    int PMPI_Bsend##SFX(const void *buf, CT count, MPI_Datatype dt, int dest, int tag, MPI_Comm comm)    \
    {                                                                                                     \
        return send_common("MPI_Bsend" #SFX, RD_MODE_BUFFERED, buf, count, dt, dest, tag, comm, NULL);   \
    }                                                                                                     \
    int PMPI_Isend##SFX(const void *buf, CT count, MPI_Datatype dt, int dest, int tag, MPI_Comm comm,    \
                        MPI_Request *r)                                                                   \
    {                                                                                                     \
        RD_TRY(check_reqp("MPI_Isend" #SFX, comm, r));                                                   \
        return send_common("MPI_Isend" #SFX, RD_MODE_STANDARD, buf, count, dt, dest, tag, comm, r);      \
    }                                                                                                     \
    int PMPI_Issend##SFX(const void *buf, CT count, MPI_Datatype dt, int dest, int tag, MPI_Comm comm,   \
                         MPI_Request *r)                                                                  \
    {                                                                                                     \
        RD_TRY(check_reqp("MPI_Issend" #SFX, comm, r));                                                  \
        return send_common("MPI_Issend" #SFX, RD_MODE_SYNC, buf, count, dt, dest, tag, comm, r);         \
    }                                                                                                     \
    int PMPI_Irsend##SFX(const void *buf, CT count, MPI_Datatype dt, int dest, int tag, MPI_Comm comm,   \
                         MPI_Request *r)                                                                  \
    {                                                                                                     \
        RD_TRY(check_reqp("MPI_Irsend" #SFX, comm, r));                                                  \
        return send_common("MPI_Irsend" #SFX, RD_MODE_STANDARD, buf, count, dt, dest, tag, comm, r);     \
    }                                                                                                     \
    int PMPI_Ibsend##SFX(const void *buf, CT count, MPI_Datatype dt, int dest, int tag, MPI_Comm comm,   \
                         MPI_Request *r)                                                                  \
    {                                                                                                     \
        RD_TRY(check_reqp("MPI_Ibsend" #SFX, comm, r));                                                  \
        return send_common("MPI_Ibsend" #SFX, RD_MODE_BUFFERED, buf, count, dt, dest, tag, comm, r);     \
    }
#pragma weak MPI_Send = PMPI_Send
#pragma weak MPI_Ssend = PMPI_Ssend
#pragma weak MPI_Rsend = PMPI_Rsend
#pragma weak MPI_Bsend = PMPI_Bsend
#pragma weak MPI_Isend = PMPI_Isend
#pragma weak MPI_Issend = PMPI_Issend
#pragma weak MPI_Irsend = PMPI_Irsend
#pragma weak MPI_Ibsend = PMPI_Ibsend
RD_SEND_ENTRIES(, int)
#pragma weak MPI_Send_c = PMPI_Send_c
#pragma weak MPI_Ssend_c = PMPI_Ssend_c
#pragma weak MPI_Rsend_c = PMPI_Rsend_c
#pragma weak MPI_Bsend_c = PMPI_Bsend_c
#pragma weak MPI_Isend_c = PMPI_Isend_c
#pragma weak MPI_Issend_c = PMPI_Issend_c
#pragma weak MPI_Irsend_c = PMPI_Irsend_c
#pragma weak MPI_Ibsend_c = PMPI_Ibsend_c
RD_SEND_ENTRIES(_c, MPI_Count)

/* Copy a completed receive's outcome to the user's status. */
static int recv_error(MPI_Comm comm, const char *call, const struct rd_request_s *req)
{
    if (req->error == MPI_ERR_TRUNCATE)
        return rd_err_raise(comm, MPI_ERR_TRUNCATE, call,
                            "the message from rank %d (tag %d) is longer than the receive buffer "
                            "(%zu bytes)",
                            req->status.MPI_SOURCE, req->status.MPI_TAG, req->bytes);
    return rd_err_raise(comm, req->error, call, "receive from rank %d failed", req->status.MPI_SOURCE);
}

/* Inlined into each entry point, as send_common (MPI_Irecv: 232 -> 193
 * instructions a call). */
static inline __attribute__((always_inline)) int
recv_common(const char *call, void *buf, MPI_Count count, MPI_Datatype dt, int source, int tag, MPI_Comm comm,
            MPI_Status *status, MPI_Request *reqp)
{
    RD_API_READY(call);
    RD_TRY(rd_check_comm(call, comm));
    RD_TRY(rd_check_buf(call, comm, buf, count, dt));
    RD_TRY(rd_check_source(call, comm, source, tag));
    if (!reqp && source == MPI_PROC_NULL) {
        proc_null_status(status);
        return MPI_SUCCESS;
    }
    RD_LOCK();
    struct rd_request_s *req = rd_req_new(RD_REQ_RECV, 0, buf, count, dt, source, tag, comm);
    if (!req) {
        RD_UNLOCK();
        return rd_err_raise(comm, MPI_ERR_NO_MEM, call, "out of memory");
    }
    rd_status st = RD_OK;
    if (source == MPI_PROC_NULL) {
        proc_null_status(&req->status);
        rd_req_complete(req);
    } else {
        st = rd_p2p_start_recv(req);
    }
    if (st != RD_OK) {
        rd_req_release(req);
        RD_UNLOCK();
        return engine_error(comm, call, st, source);
    }
    if (reqp) {
        *reqp = req;
        RD_UNLOCK();
        return MPI_SUCCESS;
    }
    rd_req_wait(req);
    rd_status_out(status, &req->status);
    if (req->error == MPI_SUCCESS) {
        rd_req_release(req);
        RD_UNLOCK();
        return MPI_SUCCESS;
    }
    struct rd_request_s copy = *req;
    rd_req_release(req);
    RD_UNLOCK();
    return recv_error(comm, call, &copy);
}

#define RD_RECV_ENTRIES(SFX, CT)                                                                           \
    int PMPI_Recv##SFX(void *buf, CT count, MPI_Datatype dt, int source, int tag, MPI_Comm comm,          \
                       MPI_Status *status)                                                                 \
    {                                                                                                      \
        return recv_common("MPI_Recv" #SFX, buf, count, dt, source, tag, comm, status, NULL);             \
    }                                                                                                      \
    int PMPI_Irecv##SFX(void *buf, CT count, MPI_Datatype dt, int source, int tag, MPI_Comm comm,         \
                        MPI_Request *r)                                                                    \
    {                                                                                                      \
        RD_TRY(check_reqp("MPI_Irecv" #SFX, comm, r));                                                    \
        return recv_common("MPI_Irecv" #SFX, buf, count, dt, source, tag, comm, NULL, r);                 \
    }
#pragma weak MPI_Recv = PMPI_Recv
#pragma weak MPI_Irecv = PMPI_Irecv
RD_RECV_ENTRIES(, int)
#pragma weak MPI_Recv_c = PMPI_Recv_c
#pragma weak MPI_Irecv_c = PMPI_Irecv_c
RD_RECV_ENTRIES(_c, MPI_Count)

/* A posted receive whose send did not start: cancelled and waited for,
 * so that it does not stay posted. */
static void unpost(MPI_Request *rr)
{
    RD_LOCK();
    if (!rd_req_done(*rr))
        rd_p2p_cancel_recv(*rr);
    RD_UNLOCK();
    PMPI_Wait(rr, MPI_STATUS_IGNORE);
}

static int sendrecv_common(const char *call, const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                           int dest, int sendtag, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
                           int source, int recvtag, MPI_Comm comm, MPI_Status *status)
{
    MPI_Request rr = MPI_REQUEST_NULL;
    RD_API_READY(call);
    RD_TRY(rd_check_comm(call, comm));
    RD_TRY(rd_check_buf(call, comm, sendbuf, sendcount, sendtype));
    RD_TRY(rd_check_dest(call, comm, dest, sendtag));
    RD_TRY(recv_common(call, recvbuf, recvcount, recvtype, source, recvtag, comm, NULL, &rr));
    int rc = send_common(call, RD_MODE_STANDARD, sendbuf, sendcount, sendtype, dest, sendtag, comm, NULL);
    if (rc != MPI_SUCCESS) { /* (reported): the receive does not stay posted */
        unpost(&rr);
        return rc;
    }
    return PMPI_Wait(&rr, status);
}

/* Start the send of a packed copy (bytes bytes; the engine moves bytes):
 * the send half of the _replace calls. */
static int packed_send(const char *call, void *copy, size_t bytes, int dest, int tag, MPI_Comm comm,
                       MPI_Request *sr)
{
    RD_LOCK();
    struct rd_request_s *req = rd_req_new(RD_REQ_SEND, RD_MODE_STANDARD, copy, 0, MPI_BYTE, dest, tag, comm);
    rd_status st = RD_ERR_NOMEM;
    if (req && dest == MPI_PROC_NULL) {
        proc_null_status(&req->status);
        rd_req_complete(req);
        st = RD_OK;
    } else if (req) {
        req->raw = 1;
        req->bytes = bytes;
        st = rd_p2p_start_send(req);
    }
    if (st != RD_OK && req)
        rd_req_release(req);
    RD_UNLOCK();
    if (st != RD_OK)
        return engine_error(comm, call, st, dest);
    *sr = req;
    return MPI_SUCCESS;
}

/* The _replace calls' start: buf packed into *copy, the receive into buf
 * posted (*rr), then the copy's send started (*sr). On failure (reported)
 * nothing stays posted or allocated. */
static int replace_start(const char *call, void *buf, MPI_Count count, MPI_Datatype dt, int dest, int sendtag,
                         int source, int recvtag, MPI_Comm comm, void **copy, MPI_Request *sr, MPI_Request *rr)
{
    size_t bytes = (size_t)count * dt->size;
    *copy = malloc(bytes ? bytes : 1);
    if (!*copy)
        return rd_err_raise(comm, MPI_ERR_NO_MEM, call, "out of memory for %zu bytes", bytes);
    rd_dt_pack(buf, dt, 0, *copy, bytes);
    int rc = recv_common(call, buf, count, dt, source, recvtag, comm, NULL, rr);
    if (rc == MPI_SUCCESS) {
        rc = packed_send(call, *copy, bytes, dest, sendtag, comm, sr);
        if (rc != MPI_SUCCESS)
            unpost(rr);
    }
    if (rc != MPI_SUCCESS) {
        free(*copy);
        *copy = NULL;
    }
    return rc;
}

/* The nonblocking forms' end: one request for the started send sr and
 * receive rr (runtime/p2p/pair.c), copy (the _replace form's packed send
 * buffer) freed when both are done. */
static int pair_up(const char *call, MPI_Comm comm, MPI_Request sr, MPI_Request rr, void *copy,
                   MPI_Request *request)
{
    RD_LOCK();
    struct rd_request_s *u = rd_pair_start(comm, sr, rr, copy);
    RD_UNLOCK();
    if (!u) {
        PMPI_Wait(&sr, MPI_STATUS_IGNORE);
        PMPI_Wait(&rr, MPI_STATUS_IGNORE);
        free(copy);
        return rd_err_raise(comm, MPI_ERR_NO_MEM, call, "out of memory");
    }
    *request = u;
    return MPI_SUCCESS;
}

static int isendrecv_common(const char *call, const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                            int dest, int sendtag, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
                            int source, int recvtag, MPI_Comm comm, MPI_Request *request)
{
    RD_API_READY(call);
    RD_TRY(rd_check_comm(call, comm));
    RD_TRY(check_reqp(call, comm, request));
    RD_TRY(rd_check_buf(call, comm, sendbuf, sendcount, sendtype));
    RD_TRY(rd_check_dest(call, comm, dest, sendtag));
    MPI_Request rr = MPI_REQUEST_NULL, sr = MPI_REQUEST_NULL;
    RD_TRY(recv_common(call, recvbuf, recvcount, recvtype, source, recvtag, comm, NULL, &rr));
    int rc = send_common(call, RD_MODE_STANDARD, sendbuf, sendcount, sendtype, dest, sendtag, comm, &sr);
    if (rc != MPI_SUCCESS) {
        unpost(&rr);
        return rc;
    }
    return pair_up(call, comm, sr, rr, NULL, request);
}

static int isendrecv_replace_common(const char *call, void *buf, MPI_Count count, MPI_Datatype dt, int dest,
                                    int sendtag, int source, int recvtag, MPI_Comm comm, MPI_Request *request)
{
    RD_API_READY(call);
    RD_TRY(rd_check_comm(call, comm));
    RD_TRY(check_reqp(call, comm, request));
    RD_TRY(rd_check_buf(call, comm, buf, count, dt));
    RD_TRY(rd_check_dest(call, comm, dest, sendtag));
    RD_TRY(rd_check_source(call, comm, source, recvtag));
    void *copy;
    MPI_Request rr = MPI_REQUEST_NULL, sr = MPI_REQUEST_NULL;
    RD_TRY(replace_start(call, buf, count, dt, dest, sendtag, source, recvtag, comm, &copy, &sr, &rr));
    return pair_up(call, comm, sr, rr, copy, request);
}

static int sendrecv_replace_common(const char *call, void *buf, MPI_Count count, MPI_Datatype dt, int dest,
                                   int sendtag, int source, int recvtag, MPI_Comm comm, MPI_Status *status)
{
    RD_API_READY(call);
    RD_TRY(rd_check_comm(call, comm));
    RD_TRY(rd_check_buf(call, comm, buf, count, dt));
    RD_TRY(rd_check_dest(call, comm, dest, sendtag));
    RD_TRY(rd_check_source(call, comm, source, recvtag));
    void *copy;
    MPI_Request rr = MPI_REQUEST_NULL, sr = MPI_REQUEST_NULL;
    RD_TRY(replace_start(call, buf, count, dt, dest, sendtag, source, recvtag, comm, &copy, &sr, &rr));
    int rc = PMPI_Wait(&sr, MPI_STATUS_IGNORE);
    int rc2 = PMPI_Wait(&rr, status);
    free(copy);
    return rc != MPI_SUCCESS ? rc : rc2;
}

/* the four, with int counts and with MPI_Count ones */
#define RD_SENDRECV_ENTRIES(SFX, CT)                                                                          \
    int PMPI_Sendrecv##SFX(const void *sendbuf, CT sendcount, MPI_Datatype sendtype, int dest, int sendtag,  \
                           void *recvbuf, CT recvcount, MPI_Datatype recvtype, int source, int recvtag,      \
                           MPI_Comm comm, MPI_Status *status)                                                \
    {                                                                                                         \
        return sendrecv_common("MPI_Sendrecv" #SFX, sendbuf, sendcount, sendtype, dest, sendtag, recvbuf,    \
                               recvcount, recvtype, source, recvtag, comm, status);                          \
    }                                                                                                         \
    int PMPI_Isendrecv##SFX(const void *sendbuf, CT sendcount, MPI_Datatype sendtype, int dest, int sendtag, \
                            void *recvbuf, CT recvcount, MPI_Datatype recvtype, int source, int recvtag,     \
                            MPI_Comm comm, MPI_Request *request)                                             \
    {                                                                                                         \
        return isendrecv_common("MPI_Isendrecv" #SFX, sendbuf, sendcount, sendtype, dest, sendtag, recvbuf,  \
                                recvcount, recvtype, source, recvtag, comm, request);                        \
    }                                                                                                         \
    int PMPI_Sendrecv_replace##SFX(void *buf, CT count, MPI_Datatype dt, int dest, int sendtag, int source,  \
                                   int recvtag, MPI_Comm comm, MPI_Status *status)                           \
    {                                                                                                         \
        return sendrecv_replace_common("MPI_Sendrecv_replace" #SFX, buf, count, dt, dest, sendtag, source,   \
                                       recvtag, comm, status);                                               \
    }                                                                                                         \
    int PMPI_Isendrecv_replace##SFX(void *buf, CT count, MPI_Datatype dt, int dest, int sendtag, int source, \
                                    int recvtag, MPI_Comm comm, MPI_Request *request)                        \
    {                                                                                                         \
        return isendrecv_replace_common("MPI_Isendrecv_replace" #SFX, buf, count, dt, dest, sendtag, source, \
                                        recvtag, comm, request);                                             \
    }
#pragma weak MPI_Sendrecv = PMPI_Sendrecv
#pragma weak MPI_Isendrecv = PMPI_Isendrecv
#pragma weak MPI_Sendrecv_replace = PMPI_Sendrecv_replace
#pragma weak MPI_Isendrecv_replace = PMPI_Isendrecv_replace
RD_SENDRECV_ENTRIES(, int)
#pragma weak MPI_Sendrecv_c = PMPI_Sendrecv_c
#pragma weak MPI_Isendrecv_c = PMPI_Isendrecv_c
#pragma weak MPI_Sendrecv_replace_c = PMPI_Sendrecv_replace_c
#pragma weak MPI_Isendrecv_replace_c = PMPI_Isendrecv_replace_c
RD_SENDRECV_ENTRIES(_c, MPI_Count)

/* ------------------------------------------------------------ probes */

/* A blocking probe's wait, for a report (runtime/base/report.h). */
static struct {
    int source, tag;
    MPI_Comm comm;
} probing = {0, 0, MPI_COMM_NULL};

static void report_probe(struct rd_report_buf *b)
{
    if (probing.comm == MPI_COMM_NULL || probing.comm->magic != RD_COMM_MAGIC)
        return;
    char tag[32];
    if (probing.tag == MPI_ANY_TAG)
        snprintf(tag, sizeof(tag), "any tag");
    else
        snprintf(tag, sizeof(tag), "tag %d", probing.tag);
    if (probing.source == MPI_ANY_SOURCE)
        rd_report_printf(b, "I probe for a message from any rank, %s: none has come\n", tag);
    else
    {
        int w = rd_comm_peer_world(probing.comm, probing.source);
        rd_report_printf(b, "W %d to probe for a message from %d, %s\tprobe for a message from rank %d, "
                         "%s: none has come\n", w, w, tag, probing.source, tag);
    }
}

static void probe_waits(int source, int tag, MPI_Comm comm)
{
    rd_report_register(report_probe); /* (once: it keeps one of each) */
    probing.source = source;
    probing.tag = tag;
    probing.comm = comm;
}

static int probe_common(const char *call, int source, int tag, MPI_Comm comm, int blocking,
                        int *flag, MPI_Message *message, MPI_Status *status)
{
    RD_API_READY(call);
    RD_TRY(rd_check_comm(call, comm));
    RD_TRY(rd_check_source(call, comm, source, tag));
    if (source == MPI_PROC_NULL) {
        proc_null_status(status);
        if (flag)
            *flag = 1;
        if (message)
            *message = MPI_MESSAGE_NO_PROC;
        return MPI_SUCCESS;
    }
    struct rd_message_s *m = NULL;
    int found;
    long idle = 0;
    RD_LOCK();
    rd_report_poll(); /* an MPI_Iprobe loop is a wait too */
    rd_progress();
    while (!(found = rd_p2p_probe(source, tag, comm, status, message ? &m : NULL)) && blocking) {
        if (idle == 0)
            probe_waits(source, tag, comm);
        rd_wait_step(&idle);
    }
    probing.comm = MPI_COMM_NULL;
    RD_UNLOCK();
    if (flag)
        *flag = found;
    if (message)
        *message = found ? m : MPI_MESSAGE_NULL;
    return MPI_SUCCESS;
}

#pragma weak MPI_Probe = PMPI_Probe
int PMPI_Probe(int source, int tag, MPI_Comm comm, MPI_Status *status)
{
    return probe_common("MPI_Probe", source, tag, comm, 1, NULL, NULL, status);
}

#pragma weak MPI_Iprobe = PMPI_Iprobe
int PMPI_Iprobe(int source, int tag, MPI_Comm comm, int *flag, MPI_Status *status)
{
    if (!flag)
        return rd_err_raise(comm, MPI_ERR_ARG, "MPI_Iprobe", "flag is NULL");
    return probe_common("MPI_Iprobe", source, tag, comm, 0, flag, NULL, status);
}

#pragma weak MPI_Mprobe = PMPI_Mprobe
int PMPI_Mprobe(int source, int tag, MPI_Comm comm, MPI_Message *message, MPI_Status *status)
{
    if (!message)
        return rd_err_raise(comm, MPI_ERR_ARG, "MPI_Mprobe", "message is NULL");
    return probe_common("MPI_Mprobe", source, tag, comm, 1, NULL, message, status);
}

#pragma weak MPI_Improbe = PMPI_Improbe
int PMPI_Improbe(int source, int tag, MPI_Comm comm, int *flag, MPI_Message *message,
                 MPI_Status *status)
{
    if (!flag || !message)
        return rd_err_raise(comm, MPI_ERR_ARG, "MPI_Improbe", "%s is NULL", flag ? "message" : "flag");
    return probe_common("MPI_Improbe", source, tag, comm, 0, flag, message, status);
}

static int mrecv_common(const char *call, void *buf, MPI_Count count, MPI_Datatype dt, MPI_Message *message,
                        MPI_Status *status, MPI_Request *reqp)
{
    RD_API_READY(call);
    if (!message || (*message != MPI_MESSAGE_NO_PROC && !rd_p2p_message_valid(*message)))
        return rd_err_raise(MPI_COMM_WORLD, MPI_ERR_REQUEST, call, "invalid message handle");
    RD_TRY(rd_check_buf(call, MPI_COMM_WORLD, buf, count, dt));
    RD_LOCK();
    struct rd_request_s *req = rd_req_new(RD_REQ_RECV, 0, buf, count, dt, MPI_ANY_SOURCE, MPI_ANY_TAG,
                                       MPI_COMM_WORLD);
    if (!req) {
        RD_UNLOCK();
        return rd_err_raise(MPI_COMM_WORLD, MPI_ERR_NO_MEM, call, "out of memory");
    }
    rd_status st = RD_OK;
    if (*message == MPI_MESSAGE_NO_PROC) {
        proc_null_status(&req->status);
        rd_req_complete(req);
    } else {
        st = rd_p2p_start_mrecv(req, *message);
    }
    *message = MPI_MESSAGE_NULL;
    if (st != RD_OK) {
        rd_req_release(req);
        RD_UNLOCK();
        return engine_error(MPI_COMM_WORLD, call, st, -1);
    }
    if (reqp) {
        *reqp = req;
        RD_UNLOCK();
        return MPI_SUCCESS;
    }
    rd_req_wait(req);
    rd_status_out(status, &req->status);
    struct rd_request_s copy = *req;
    rd_req_release(req);
    RD_UNLOCK();
    return copy.error == MPI_SUCCESS ? MPI_SUCCESS : recv_error(MPI_COMM_WORLD, call, &copy);
}

#define RD_MRECV_ENTRIES(SFX, CT)                                                                          \
    int PMPI_Mrecv##SFX(void *buf, CT count, MPI_Datatype dt, MPI_Message *message, MPI_Status *status)   \
    {                                                                                                      \
        return mrecv_common("MPI_Mrecv" #SFX, buf, count, dt, message, status, NULL);                     \
    }                                                                                                      \
    int PMPI_Imrecv##SFX(void *buf, CT count, MPI_Datatype dt, MPI_Message *message, MPI_Request *r)      \
    {                                                                                                      \
        if (!r)                                                                                            \
            return rd_err_raise(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Imrecv" #SFX, "request pointer is NULL"); \
        return mrecv_common("MPI_Imrecv" #SFX, buf, count, dt, message, NULL, r);                         \
    }
#pragma weak MPI_Mrecv = PMPI_Mrecv
#pragma weak MPI_Imrecv = PMPI_Imrecv
RD_MRECV_ENTRIES(, int)
#pragma weak MPI_Mrecv_c = PMPI_Mrecv_c
#pragma weak MPI_Imrecv_c = PMPI_Imrecv_c
RD_MRECV_ENTRIES(_c, MPI_Count)

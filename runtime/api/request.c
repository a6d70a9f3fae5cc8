/* Requests: Wait/Test and their all/any/some forms, Request_free,
 * Request_get_status, Cancel, Test_cancelled, persistent requests. */
#include <mpi.h>
#include <stdlib.h>

#include "collectives/persist.h"
#include "runtime/api/check.h"
#include "runtime/api/greq.h"
#include "runtime/base/report.h"
#include "runtime/objects/file.h"
#include "runtime/p2p/bsend.h"
#include "runtime/p2p/p2p.h"
#include "runtime/p2p/part.h"

/* The nonblocking calls progress once; a program that loops on them waits
 * as much as in MPI_Wait, so they answer a hung-job report too. */
static inline void rd_test_progress(void)
{
    rd_report_poll();
    rd_progress();
}

/* ------------------------------------------------------------ helpers */

/* An inactive request: null, or persistent and not started. */
static inline int inactive(MPI_Request r)
{
    return r == MPI_REQUEST_NULL || (r->persistent && !r->active);
}

static int check_req(const char *call, MPI_Request r)
{
    if (r != MPI_REQUEST_NULL && !rd_req_valid(r))
        return rd_err_raise(MPI_COMM_WORLD, MPI_ERR_REQUEST, call, "invalid request");
    return MPI_SUCCESS;
}

static int check_array(const char *call, int count, MPI_Request reqs[])
{
    if (count < 0)
        return rd_err_raise(MPI_COMM_WORLD, MPI_ERR_COUNT, call, "count %d is negative", count);
    if (count > 0 && !reqs)
        return rd_err_raise(MPI_COMM_WORLD, MPI_ERR_ARG, call, "requests array is NULL");
    for (int i = 0; i < count; i++)
        if (reqs[i] != MPI_REQUEST_NULL && !rd_req_valid(reqs[i]))
            return rd_err_raise(MPI_COMM_WORLD, MPI_ERR_REQUEST, call, "request %d is invalid", i);
    return MPI_SUCCESS;
}

/* Why the nonblocking collective or file operation this thread collected
 * last failed (the reason its request carried), for raise_req_error. */
static _Thread_local char *coll_why;
/* The request this thread collected last was a generalized one (its error
 * is its callbacks'), for raise_req_error. */
static _Thread_local int greq_failed;
/* The file of the request this thread collected last, when it was a failed
 * file operation (MPI_FILE_NULL otherwise): its error goes to the file's
 * handler (files default to MPI_ERRORS_RETURN), not a communicator's. */
static _Thread_local MPI_File collected_file;

/* Collect a completed request: status out, free or deactivate it. Returns
 * its error class; *comm gets its communicator for error reporting. When
 * the operation failed, *comm holds a reference of its own (the request
 * may have held the last one: the user may have freed the communicator
 * while the operation was pending), which raise_failed drops. */
static inline int collect(MPI_Request *rp, MPI_Status *st, MPI_Comm *comm)
{
    struct rd_request_s *req = *rp;
    int err = req->error;
    if (req->kind == RD_REQ_GREQ) /* query_fn fills the status, then free_fn */
        err = rd_greq_collect(req, &req->status);
    collected_file = err != MPI_SUCCESS && (req->kind == RD_REQ_IO || req->kind == RD_REQ_COLL) && req->io.file
                         ? (MPI_File)req->io.file
                         : MPI_FILE_NULL;
    if (err != MPI_SUCCESS) {
        free(coll_why);
        coll_why = NULL;
        greq_failed = req->kind == RD_REQ_GREQ;
        if (req->kind == RD_REQ_COLL || req->kind == RD_REQ_IO) {
            coll_why = req->why;
            req->why = NULL;
        }
    }
    rd_status_out(st, &req->status);
    *comm = req->comm ? req->comm : MPI_COMM_WORLD;
    if (err != MPI_SUCCESS)
        rd_comm_retain(*comm);
    if (req->persistent) {
        req->active = 0;
        atomic_store_explicit(&req->done, 0, memory_order_relaxed);
    } else {
        rd_req_release(req);
        *rp = MPI_REQUEST_NULL;
    }
    return err;
}

static int raise_req_error(MPI_Comm comm, MPI_File file, const char *call, int err, const MPI_Status *st)
{
    if (file != MPI_FILE_NULL) { /* a file operation's (an invalid file: MPI_FILE_NULL's handler) */
        int cls = rd_err_raise_file(rd_file_valid(file) ? file : MPI_FILE_NULL, err, call, "%s",
                                    coll_why ? coll_why : "the file operation failed");
        free(coll_why);
        coll_why = NULL;
        return cls;
    }
    if (coll_why) { /* a collective's */
        int cls = rd_err_raise(comm, err, call, "%s", coll_why);
        free(coll_why);
        coll_why = NULL;
        return cls;
    }
    if (greq_failed) {
        greq_failed = 0;
        return rd_err_raise(comm, err, call, "a generalized request's query_fn or free_fn returned error %d",
                            err);
    }
    if (err == MPI_ERR_TRUNCATE)
        return rd_err_raise(comm, err, call, "the message from rank %d (tag %d) is longer than the receive buffer",
                            st ? st->MPI_SOURCE : -1, st ? st->MPI_TAG : -1);
    return rd_err_raise(comm, err, call, "the operation failed");
}

/* Raise the error of a failed request through its communicator's handler
 * (a file operation's: its file's), then drop the reference collect took. */
static int raise_failed(MPI_Comm comm, MPI_File file, const char *call, int err, const MPI_Status *st)
{
    int rc = err != MPI_ERR_IN_STATUS ? raise_req_error(comm, file, call, err, st)
             : file != MPI_FILE_NULL
                 ? rd_err_raise_file(rd_file_valid(file) ? file : MPI_FILE_NULL, err, call,
                                     "a request failed (see the statuses)")
                 : rd_err_raise(comm, err, call, "a request failed (see the statuses)");
    RD_LOCK();
    rd_comm_release(comm);
    RD_UNLOCK();
    return rc;
}

/* Wait until some request of the array completes (any != 0) or all do.
 * Waiting for all, requests found complete are not looked at again. */
static void wait_array(int count, MPI_Request reqs[], int any)
{
    long idle = 0;
    int first = 0; /* all: every request before it is complete or inactive */
    for (;;) {
        /* read before the requests are looked at: a finish after it wakes
         * an I/O sleep (rd_wait_step_io) */
        uint32_t seq = atomic_load(&rd_io_seq);
        int io_only = 1; /* every pending request is a file operation's */
        if (any) {
            int pending = 0;
            for (int i = 0; i < count; i++) {
                if (inactive(reqs[i]))
                    continue;
                if (rd_req_done(reqs[i]))
                    return;
                pending++;
                io_only &= reqs[i]->kind == RD_REQ_IO;
            }
            if (pending == 0)
                return;
        } else {
            while (first < count && (inactive(reqs[first]) || rd_req_done(reqs[first])))
                first++;
            if (first == count)
                return;
            for (int i = first; i < count && io_only; i++)
                io_only = inactive(reqs[i]) || rd_req_done(reqs[i]) || reqs[i]->kind == RD_REQ_IO;
        }
        if (io_only)
            rd_wait_step_io(&idle, seq);
        else
            rd_wait_step(&idle);
    }
}

/* ------------------------------------------------------------ wait / test */

#pragma weak MPI_Wait = PMPI_Wait
int PMPI_Wait(MPI_Request *r, MPI_Status *status)
{
    MPI_Comm comm;
    RD_API_READY("MPI_Wait");
    if (!r)
        return rd_err_raise(MPI_COMM_WORLD, MPI_ERR_REQUEST, "MPI_Wait", "request pointer is NULL");
    RD_TRY(check_req("MPI_Wait", *r));
    if (inactive(*r)) {
        rd_status_empty(status);
        return MPI_SUCCESS;
    }
    RD_LOCK();
    if ((*r)->pcoll && !rd_req_done(*r))
        rd_pcoll_poll(*r);
    rd_req_wait(*r);
    MPI_Status tmp;
    int err = collect(r, &tmp, &comm);
    MPI_File file = collected_file;
    RD_UNLOCK();
    if (status)
        rd_status_out(status, &tmp);
    return err == MPI_SUCCESS ? MPI_SUCCESS : raise_failed(comm, file, "MPI_Wait", err, &tmp);
}

#pragma weak MPI_Test = PMPI_Test
int PMPI_Test(MPI_Request *r, int *flag, MPI_Status *status)
{
    MPI_Comm comm;
    RD_API_READY("MPI_Test");
    if (!r)
        return rd_err_raise(MPI_COMM_WORLD, MPI_ERR_REQUEST, "MPI_Test", "request pointer is NULL");
    if (!flag)
        return rd_err_raise(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Test", "flag is NULL");
    RD_TRY(check_req("MPI_Test", *r));
    if (inactive(*r)) {
        *flag = 1;
        rd_status_empty(status);
        return MPI_SUCCESS;
    }
    RD_LOCK();
    if (!rd_req_done(*r))
        rd_test_progress();
    *flag = rd_req_done(*r);
    int err = MPI_SUCCESS;
    MPI_Status tmp;
    MPI_File file = MPI_FILE_NULL;
    if (*flag) {
        err = collect(r, &tmp, &comm);
        file = collected_file;
    }
    RD_UNLOCK();
    if (*flag && status)
        rd_status_out(status, &tmp);
    return err == MPI_SUCCESS ? MPI_SUCCESS : raise_failed(comm, file, "MPI_Test", err, &tmp);
}

/* Collect every completed request of the array into statuses; returns
 * MPI_ERR_IN_STATUS when one failed (then every status says how it went,
 * and *errcomm, the first failed one's communicator, holds a reference;
 * *errfile: its file if it was a file operation's). */
static int collect_all(int count, MPI_Request reqs[], MPI_Status statuses[], int only_done,
                       MPI_Comm *errcomm, MPI_File *errfile)
{
    int errs[count > 0 ? count : 1];
    int any_err = 0;
    for (int i = 0; i < count; i++) {
        MPI_Status *st = statuses ? &statuses[i] : NULL;
        errs[i] = MPI_SUCCESS;
        if (inactive(reqs[i])) {
            rd_status_empty(st);
            continue;
        }
        if (only_done && !rd_req_done(reqs[i])) {
            errs[i] = MPI_ERR_PENDING;
            continue;
        }
        MPI_Comm c;
        errs[i] = collect(&reqs[i], st, &c);
        if (errs[i] != MPI_SUCCESS && !any_err) {
            any_err = 1;
            *errcomm = c;
            *errfile = collected_file;
        } else if (errs[i] != MPI_SUCCESS) {
            rd_comm_release(c);
        }
    }
    if (!any_err)
        return MPI_SUCCESS;
    if (statuses)
        for (int i = 0; i < count; i++)
            statuses[i].MPI_ERROR = errs[i];
    return MPI_ERR_IN_STATUS;
}

#pragma weak MPI_Waitall = PMPI_Waitall
int PMPI_Waitall(int count, MPI_Request reqs[], MPI_Status statuses[])
{
    MPI_Comm comm = MPI_COMM_WORLD;
    MPI_File file = MPI_FILE_NULL;
    RD_API_READY("MPI_Waitall");
    RD_TRY(check_array("MPI_Waitall", count, reqs));
    RD_LOCK();
    wait_array(count, reqs, 0);
    int err = collect_all(count, reqs, statuses, 0, &comm, &file);
    RD_UNLOCK();
    return err == MPI_SUCCESS ? MPI_SUCCESS : raise_failed(comm, file, "MPI_Waitall", err, NULL);
}

#pragma weak MPI_Testall = PMPI_Testall
int PMPI_Testall(int count, MPI_Request reqs[], int *flag, MPI_Status statuses[])
{
    MPI_Comm comm = MPI_COMM_WORLD;
    MPI_File file = MPI_FILE_NULL;
    RD_API_READY("MPI_Testall");
    if (!flag)
        return rd_err_raise(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Testall", "flag is NULL");
    RD_TRY(check_array("MPI_Testall", count, reqs));
    RD_LOCK();
    rd_test_progress();
    int all = 1;
    for (int i = 0; i < count && all; i++)
        if (!inactive(reqs[i]) && !rd_req_done(reqs[i]))
            all = 0;
    *flag = all;
    int err = all ? collect_all(count, reqs, statuses, 0, &comm, &file) : MPI_SUCCESS;
    RD_UNLOCK();
    return err == MPI_SUCCESS ? MPI_SUCCESS : raise_failed(comm, file, "MPI_Testall", err, NULL);
}

static int any_common(const char *call, int count, MPI_Request reqs[], int *index, int *flag,
                      MPI_Status *status, int blocking)
{
    MPI_Comm comm = MPI_COMM_WORLD;
    RD_API_READY(call);
    if (!index)
        return rd_err_raise(MPI_COMM_WORLD, MPI_ERR_ARG, call, "index is NULL");
    RD_TRY(check_array(call, count, reqs));
    RD_LOCK();
    if (blocking)
        wait_array(count, reqs, 1);
    else
        rd_test_progress();
    int active = 0, err = MPI_SUCCESS;
    MPI_Status tmp;
    MPI_File file = MPI_FILE_NULL;
    *index = MPI_UNDEFINED;
    for (int i = 0; i < count; i++) {
        if (inactive(reqs[i]))
            continue;
        active++;
        if (rd_req_done(reqs[i])) {
            *index = i;
            err = collect(&reqs[i], &tmp, &comm);
            file = collected_file;
            break;
        }
    }
    RD_UNLOCK();
    if (flag)
        *flag = active == 0 || *index != MPI_UNDEFINED;
    if (active == 0)
        rd_status_empty(status);
    else if (*index != MPI_UNDEFINED && status)
        rd_status_out(status, &tmp);
    return err == MPI_SUCCESS ? MPI_SUCCESS : raise_failed(comm, file, call, err, &tmp);
}

#pragma weak MPI_Waitany = PMPI_Waitany
int PMPI_Waitany(int count, MPI_Request reqs[], int *index, MPI_Status *status)
{
    return any_common("MPI_Waitany", count, reqs, index, NULL, status, 1);
}

#pragma weak MPI_Testany = PMPI_Testany
int PMPI_Testany(int count, MPI_Request reqs[], int *index, int *flag, MPI_Status *status)
{
    if (!flag)
        return rd_err_raise(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Testany", "flag is NULL");
    return any_common("MPI_Testany", count, reqs, index, flag, status, 0);
}

static int some_common(const char *call, int count, MPI_Request reqs[], int *outcount,
                       int indices[], MPI_Status statuses[], int blocking)
{
    MPI_Comm comm = MPI_COMM_WORLD;
    RD_API_READY(call);
    if (!outcount || (count > 0 && !indices))
        return rd_err_raise(MPI_COMM_WORLD, MPI_ERR_ARG, call, "%s is NULL", outcount ? "indices" : "outcount");
    RD_TRY(check_array(call, count, reqs));
    RD_LOCK();
    if (blocking)
        wait_array(count, reqs, 1);
    else
        rd_test_progress();
    int active = 0, n = 0, errs = 0;
    MPI_File file = MPI_FILE_NULL;
    int err_of[count > 0 ? count : 1];
    for (int i = 0; i < count; i++) {
        if (inactive(reqs[i]))
            continue;
        active++;
        if (!rd_req_done(reqs[i]))
            continue;
        MPI_Comm c;
        int e = collect(&reqs[i], statuses ? &statuses[n] : NULL, &c);
        err_of[n] = e;
        if (e != MPI_SUCCESS && !errs++) {
            comm = c;
            file = collected_file;
        } else if (e != MPI_SUCCESS) {
            rd_comm_release(c);
        }
        indices[n++] = i;
    }
    RD_UNLOCK();
    *outcount = active == 0 ? MPI_UNDEFINED : n;
    if (!errs)
        return MPI_SUCCESS;
    if (statuses)
        for (int i = 0; i < n; i++)
            statuses[i].MPI_ERROR = err_of[i];
    return raise_failed(comm, file, call, MPI_ERR_IN_STATUS, NULL);
}

#pragma weak MPI_Waitsome = PMPI_Waitsome
int PMPI_Waitsome(int incount, MPI_Request reqs[], int *outcount, int indices[], MPI_Status statuses[])
{
    return some_common("MPI_Waitsome", incount, reqs, outcount, indices, statuses, 1);
}

#pragma weak MPI_Testsome = PMPI_Testsome
int PMPI_Testsome(int incount, MPI_Request reqs[], int *outcount, int indices[], MPI_Status statuses[])
{
    return some_common("MPI_Testsome", incount, reqs, outcount, indices, statuses, 0);
}

/* ------------------------------------------------------------ request management */

#pragma weak MPI_Request_free = PMPI_Request_free
int PMPI_Request_free(MPI_Request *r)
{
    RD_API_READY("MPI_Request_free");
    if (!r || !rd_req_valid(*r))
        return rd_err_raise(MPI_COMM_WORLD, MPI_ERR_REQUEST, "MPI_Request_free", "invalid request");
    struct rd_request_s *req = *r;
    if (req->kind == RD_REQ_GREQ) {
        /* free_fn now if MPI_Grequest_complete was called, else there */
        int err = MPI_SUCCESS;
        RD_LOCK();
        if (rd_req_done(req)) {
            err = rd_greq_free(req);
            rd_req_release(req);
        } else {
            req->user_freed = 1;
        }
        RD_UNLOCK();
        *r = MPI_REQUEST_NULL;
        return err == MPI_SUCCESS ? MPI_SUCCESS
                                  : rd_err_raise(MPI_COMM_WORLD, err, "MPI_Request_free",
                                                 "the generalized request's free_fn returned error %d", err);
    }
    RD_LOCK();
    if ((inactive(req) || rd_req_done(req)) && (req->kind == RD_REQ_COLL || req->kind == RD_REQ_IO)) {
        free(req->why);
        req->why = NULL;
    }
    if ((inactive(req) || rd_req_done(req)) && req->pcoll)
        rd_pcoll_free(req);
    if ((inactive(req) || rd_req_done(req)) && req->part)
        rd_part_free(req);
    if (inactive(req) || rd_req_done(req))
        rd_req_release(req);
    else
        req->user_freed = 1; /* released when the operation completes */
    RD_UNLOCK();
    *r = MPI_REQUEST_NULL;
    return MPI_SUCCESS;
}

/* What a completed request says without being collected (the
 * MPI_Request_get_status family): its status into st (NULL: ignored; a
 * generalized request's from its query_fn); an error class when query_fn
 * failed. Lock held. */
static int peek(MPI_Request r, MPI_Status *st)
{
    if (r->kind == RD_REQ_GREQ) { /* query_fn only: the request stays */
        MPI_Status tmp;
        int err = rd_greq_query(r, &tmp);
        rd_status_out(st, &tmp);
        return err;
    }
    rd_status_out(st, &r->status);
    return MPI_SUCCESS;
}

static int query_failed(const char *call, int err)
{
    return rd_err_raise(MPI_COMM_WORLD, err, call, "the generalized request's query_fn returned error %d", err);
}

/* The all and some forms: errs statuses hold a query_fn's error. */
static int queries_failed(const char *call, int errs)
{
    return errs ? rd_err_raise(MPI_COMM_WORLD, MPI_ERR_IN_STATUS, call,
                               "a generalized request's query_fn failed (see the statuses)")
                : MPI_SUCCESS;
}

#pragma weak MPI_Request_get_status = PMPI_Request_get_status
int PMPI_Request_get_status(MPI_Request r, int *flag, MPI_Status *status)
{
    RD_API_READY("MPI_Request_get_status");
    if (!flag)
        return rd_err_raise(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Request_get_status", "flag is NULL");
    RD_TRY(check_req("MPI_Request_get_status", r));
    if (inactive(r)) {
        *flag = 1;
        rd_status_empty(status);
        return MPI_SUCCESS;
    }
    RD_LOCK();
    if (!rd_req_done(r))
        rd_test_progress();
    *flag = rd_req_done(r);
    int err = *flag ? peek(r, status) : MPI_SUCCESS;
    RD_UNLOCK();
    return err == MPI_SUCCESS ? MPI_SUCCESS : query_failed("MPI_Request_get_status", err);
}

/* MPI 4.1: the any, all and some forms, which leave the requests as they
 * are (the completed ones are still to be waited for, or freed). */
#pragma weak MPI_Request_get_status_any = PMPI_Request_get_status_any
int PMPI_Request_get_status_any(int count, const MPI_Request reqs[], int *index, int *flag, MPI_Status *status)
{
    const char *call = "MPI_Request_get_status_any";
    RD_API_READY(call);
    if (!index || !flag)
        return rd_err_raise(MPI_COMM_WORLD, MPI_ERR_ARG, call, "%s is NULL", index ? "flag" : "index");
    RD_TRY(check_array(call, count, (MPI_Request *)reqs));
    RD_LOCK();
    rd_test_progress();
    int active = 0, err = MPI_SUCCESS;
    *index = MPI_UNDEFINED;
    for (int i = 0; i < count && *index == MPI_UNDEFINED; i++) {
        if (inactive(reqs[i]))
            continue;
        active++;
        if (rd_req_done(reqs[i])) {
            *index = i;
            err = peek(reqs[i], status);
        }
    }
    RD_UNLOCK();
    *flag = active == 0 || *index != MPI_UNDEFINED;
    if (active == 0)
        rd_status_empty(status);
    return err == MPI_SUCCESS ? MPI_SUCCESS : query_failed(call, err);
}

#pragma weak MPI_Request_get_status_all = PMPI_Request_get_status_all
int PMPI_Request_get_status_all(int count, const MPI_Request reqs[], int *flag, MPI_Status statuses[])
{
    const char *call = "MPI_Request_get_status_all";
    RD_API_READY(call);
    if (!flag)
        return rd_err_raise(MPI_COMM_WORLD, MPI_ERR_ARG, call, "flag is NULL");
    RD_TRY(check_array(call, count, (MPI_Request *)reqs));
    RD_LOCK();
    rd_test_progress();
    int all = 1, errs = 0;
    for (int i = 0; i < count && all; i++)
        all = inactive(reqs[i]) || rd_req_done(reqs[i]);
    for (int i = 0; i < count && all; i++) {
        MPI_Status *st = statuses ? &statuses[i] : NULL;
        if (inactive(reqs[i])) {
            rd_status_empty(st);
            continue;
        }
        int e = peek(reqs[i], st);
        if (st)
            st->MPI_ERROR = e;
        errs += e != MPI_SUCCESS;
    }
    RD_UNLOCK();
    *flag = all;
    return queries_failed(call, errs);
}

#pragma weak MPI_Request_get_status_some = PMPI_Request_get_status_some
int PMPI_Request_get_status_some(int incount, const MPI_Request reqs[], int *outcount, int indices[],
                                 MPI_Status statuses[])
{
    const char *call = "MPI_Request_get_status_some";
    RD_API_READY(call);
    if (!outcount || (incount > 0 && !indices))
        return rd_err_raise(MPI_COMM_WORLD, MPI_ERR_ARG, call, "%s is NULL", outcount ? "indices" : "outcount");
    RD_TRY(check_array(call, incount, (MPI_Request *)reqs));
    RD_LOCK();
    rd_test_progress();
    int active = 0, n = 0, errs = 0;
    for (int i = 0; i < incount; i++) {
        if (inactive(reqs[i]))
            continue;
        active++;
        if (!rd_req_done(reqs[i]))
            continue;
        MPI_Status *st = statuses ? &statuses[n] : NULL;
        int e = peek(reqs[i], st);
        if (st)
            st->MPI_ERROR = e;
        errs += e != MPI_SUCCESS;
        indices[n++] = i;
    }
    RD_UNLOCK();
    *outcount = active == 0 ? MPI_UNDEFINED : n;
    return queries_failed(call, errs);
}

#pragma weak MPI_Cancel = PMPI_Cancel
int PMPI_Cancel(MPI_Request *r)
{
    RD_API_READY("MPI_Cancel");
    if (!r || !rd_req_valid(*r))
        return rd_err_raise(MPI_COMM_WORLD, MPI_ERR_REQUEST, "MPI_Cancel", "invalid request");
    if ((*r)->persistent && !(*r)->active)
        return rd_err_raise((*r)->comm, MPI_ERR_REQUEST, "MPI_Cancel", "the persistent request is not active");
    RD_LOCK();
    int err = MPI_SUCCESS;
    /* a receive not yet matched is cancelled; a send always goes out
     * (MPI allows that: Test_cancelled then says false); a generalized
     * request's cancel_fn is told whether it is complete */
    if ((*r)->kind == RD_REQ_RECV && !rd_req_done(*r))
        rd_p2p_cancel_recv(*r);
    else if ((*r)->kind == RD_REQ_GREQ)
        err = rd_greq_cancel(*r, rd_req_done(*r));
    RD_UNLOCK();
    return err == MPI_SUCCESS ? MPI_SUCCESS
                              : rd_err_raise(MPI_COMM_WORLD, err, "MPI_Cancel",
                                             "the generalized request's cancel_fn returned error %d", err);
}

#pragma weak MPI_Test_cancelled = PMPI_Test_cancelled
int PMPI_Test_cancelled(const MPI_Status *status, int *flag)
{
    RD_API_READY("MPI_Test_cancelled");
    if (!status || !flag)
        return rd_err_raise(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Test_cancelled", "%s is NULL", status ? "flag" : "status");
    *flag = status->rd_cancelled != 0;
    return MPI_SUCCESS;
}

/* ------------------------------------------------------------ persistent requests */

static int init_common(const char *call, int kind, int mode, const void *buf, MPI_Count count,
                       MPI_Datatype dt, int peer, int tag, MPI_Comm comm, MPI_Request *r)
{
    RD_API_READY(call);
    RD_TRY(rd_check_comm(call, comm));
    if (!r)
        return rd_err_raise(comm, MPI_ERR_ARG, call, "request pointer is NULL");
    RD_TRY(rd_check_buf(call, comm, buf, count, dt));
    if (kind == RD_REQ_SEND)
        RD_TRY(rd_check_dest(call, comm, peer, tag));
    else
        RD_TRY(rd_check_source(call, comm, peer, tag));
    RD_LOCK();
    struct rd_request_s *req = rd_req_new(kind, mode, buf, count, dt, peer, tag, comm);
    RD_UNLOCK();
    if (!req)
        return rd_err_raise(comm, MPI_ERR_NO_MEM, call, "out of memory");
    req->persistent = 1;
    *r = req;
    return MPI_SUCCESS;
}

/* The five, with int counts and with MPI_Count ones (MPI_Send_init_c ...) */
#define RD_INIT_ENTRIES(SFX, CT)                                                                                \
    int PMPI_Send_init##SFX(const void *buf, CT count, MPI_Datatype dt, int dest, int tag, MPI_Comm comm,      \
                            MPI_Request *r)                                                                    \
    {                                                                                                          \
        return init_common("MPI_Send_init" #SFX, RD_REQ_SEND, RD_MODE_STANDARD, buf, count, dt, dest, tag,     \
                           comm, r);                                                                           \
    }                                                                                                          \
    int PMPI_Ssend_init##SFX(const void *buf, CT count, MPI_Datatype dt, int dest, int tag, MPI_Comm comm,     \
                             MPI_Request *r)                                                                   \
    {                                                                                                          \
        return init_common("MPI_Ssend_init" #SFX, RD_REQ_SEND, RD_MODE_SYNC, buf, count, dt, dest, tag, comm,  \
                           r);                                                                                 \
    }                                                                                                          \
    int PMPI_Rsend_init##SFX(const void *buf, CT count, MPI_Datatype dt, int dest, int tag, MPI_Comm comm,     \
                             MPI_Request *r)                                                                   \
    {                                                                                                          \
        return init_common("MPI_Rsend_init" #SFX, RD_REQ_SEND, RD_MODE_READY, buf, count, dt, dest, tag, comm, \
                           r);                                                                                 \
    }                                                                                                          \
    int PMPI_Bsend_init##SFX(const void *buf, CT count, MPI_Datatype dt, int dest, int tag, MPI_Comm comm,     \
                             MPI_Request *r)                                                                   \
    {                                                                                                          \
        return init_common("MPI_Bsend_init" #SFX, RD_REQ_SEND, RD_MODE_BUFFERED, buf, count, dt, dest, tag,    \
                           comm, r);                                                                           \
    }                                                                                                          \
    int PMPI_Recv_init##SFX(void *buf, CT count, MPI_Datatype dt, int source, int tag, MPI_Comm comm,          \
                            MPI_Request *r)                                                                    \
    {                                                                                                          \
        return init_common("MPI_Recv_init" #SFX, RD_REQ_RECV, RD_MODE_STANDARD, buf, count, dt, source, tag,   \
                           comm, r);                                                                           \
    }
#pragma weak MPI_Send_init = PMPI_Send_init
#pragma weak MPI_Ssend_init = PMPI_Ssend_init
#pragma weak MPI_Rsend_init = PMPI_Rsend_init
#pragma weak MPI_Bsend_init = PMPI_Bsend_init
#pragma weak MPI_Recv_init = PMPI_Recv_init
RD_INIT_ENTRIES(, int)
#pragma weak MPI_Send_init_c = PMPI_Send_init_c
#pragma weak MPI_Ssend_init_c = PMPI_Ssend_init_c
#pragma weak MPI_Rsend_init_c = PMPI_Rsend_init_c
#pragma weak MPI_Bsend_init_c = PMPI_Bsend_init_c
#pragma weak MPI_Recv_init_c = PMPI_Recv_init_c
RD_INIT_ENTRIES(_c, MPI_Count)

/* Start one persistent request (lock held). */
static int start_one(const char *call, struct rd_request_s *req)
{
    req->active = 1;
    req->error = MPI_SUCCESS;
    /* (relaxed: nothing else looks at an inactive request; a sequentially
     * consistent store costs a small persistent collective measurably) */
    atomic_store_explicit(&req->done, 0, memory_order_relaxed);
    if (req->pcoll) { /* a persistent collective (collectives/persist.c; its status stays empty) */
        int err = rd_pcoll_start(req);
        if (err != MPI_SUCCESS) {
            req->active = 0;
            return rd_err_raise(req->comm, err, call, "the persistent collective could not start");
        }
        return MPI_SUCCESS;
    }
    if (req->part) { /* a partitioned send or receive (runtime/p2p/part.c) */
        int err = rd_part_start(req);
        if (err != MPI_SUCCESS) {
            req->active = 0;
            return rd_err_raise(req->comm, err, call, "the partitioned %s could not start",
                                rd_part_kind(req) ? "send" : "receive");
        }
        return MPI_SUCCESS;
    }
    rd_status_empty(&req->status);
    if (req->peer == MPI_PROC_NULL) {
        req->status.MPI_SOURCE = MPI_PROC_NULL;
        rd_req_complete(req);
        return MPI_SUCCESS;
    }
    rd_status st;
    if (req->kind == RD_REQ_RECV) {
        st = rd_p2p_start_recv(req);
    } else if (req->mode == RD_MODE_BUFFERED) {
        /* copy into the attached buffer and send from there; this request
         * is done as soon as the copy is made */
        int err;
        st = rd_bsend_start(req->buf, req->count, req->dt, req->peer, req->tag, req->comm, &err);
        if (st == RD_OK && err != MPI_SUCCESS) {
            req->active = 0;
            return rd_err_raise(req->comm, err, call,
                                "the attached buffer has no room for %zu bytes (+%d overhead)",
                                (size_t)req->count * req->dt->size, MPI_BSEND_OVERHEAD);
        }
        rd_req_complete(req);
    } else {
        st = rd_p2p_start_send(req);
    }
    if (st != RD_OK)
        return rd_err_raise(req->comm, rd_status_to_mpi(st), call, "%s (peer rank %d)",
                            rd_status_string(st), req->peer);
    return MPI_SUCCESS;
}

#pragma weak MPI_Start = PMPI_Start
int PMPI_Start(MPI_Request *r)
{
    RD_API_READY("MPI_Start");
    if (!r || !rd_req_valid(*r) || !(*r)->persistent)
        return rd_err_raise(MPI_COMM_WORLD, MPI_ERR_REQUEST, "MPI_Start", "not a persistent request");
    if ((*r)->active)
        return rd_err_raise((*r)->comm, MPI_ERR_REQUEST, "MPI_Start", "the request is already active");
    RD_LOCK();
    int rc = start_one("MPI_Start", *r);
    RD_UNLOCK();
    return rc;
}

#pragma weak MPI_Startall = PMPI_Startall
int PMPI_Startall(int count, MPI_Request reqs[])
{
    RD_API_READY("MPI_Startall");
    RD_TRY(check_array("MPI_Startall", count, reqs));
    for (int i = 0; i < count; i++) {
        if (!rd_req_valid(reqs[i]) || !reqs[i]->persistent)
            return rd_err_raise(MPI_COMM_WORLD, MPI_ERR_REQUEST, "MPI_Startall",
                                "request %d is not a persistent request", i);
        if (reqs[i]->active)
            return rd_err_raise(reqs[i]->comm, MPI_ERR_REQUEST, "MPI_Startall",
                                "request %d is already active", i);
    }
    RD_LOCK();
    int rc = MPI_SUCCESS;
    for (int i = 0; i < count && rc == MPI_SUCCESS; i++)
        rc = start_one("MPI_Startall", reqs[i]);
    RD_UNLOCK();
    return rc;
}

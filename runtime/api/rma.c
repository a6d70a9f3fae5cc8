/* One-sided communication's entry points: argument checks and error
 * reporting; the work is runtime/rma/'s (rma.h), the collective steps
 * (fence's barrier) are run here. */
#include "config.h"

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "runtime/api/check.h"
#include "runtime/base/state.h"
#include "runtime/objects/errhandler.h"
#include "runtime/objects/group.h"
#include "runtime/objects/info.h"
#include "runtime/objects/op.h"
#include "runtime/objects/win.h"
#include "runtime/p2p/p2p.h"
#include "runtime/rma/rma.h"

static int check_dt(const char *call, MPI_Win win, MPI_Count count, MPI_Datatype dt, const char *what)
{
    if (count < 0)
        return rd_err_raise_win(win, MPI_ERR_COUNT, call, "%s count %lld is negative", what, (long long)count);
    if (!rd_dt_valid(dt))
        return rd_err_raise_win(win, MPI_ERR_TYPE, call, "invalid %s datatype", what);
    if (!dt->committed)
        return rd_err_raise_win(win, MPI_ERR_TYPE, call, "the %s datatype %s is not committed", what, dt->name);
    if (dt->size > 0 && (uint64_t)count > (uint64_t)INT64_MAX / dt->size)
        return rd_err_raise_win(win, MPI_ERR_COUNT, call, "%s count %lld of %zu-byte elements is more bytes than "
                                "memory has", what, (long long)count, (size_t)dt->size);
    return MPI_SUCCESS;
}

/* Run one call of the rma floor under the lock; raise what it returns. */
#define RMA_CALL(call, win, expr)                                                      \
    do {                                                                               \
        char why[RD_RMA_WHY] = "";                                                     \
        RD_LOCK();                                                                     \
        int rc_ = (expr);                                                              \
        RD_UNLOCK();                                                                   \
        if (rc_ != MPI_SUCCESS)                                                        \
            return rd_err_raise_win(win, rc_, call, "%s", why);                        \
        return MPI_SUCCESS;                                                            \
    } while (0)

/* (not inlined: the entry points' fast paths stay small, without this
 * frame's buffers) */
static __attribute__((noinline)) int op(const char *call, MPI_Win win, struct rd_rma_call *o, MPI_Request *reqp)
{
    RD_API_READY(call);
    if (reqp)
        *reqp = MPI_REQUEST_NULL;
    RD_TRY(rd_check_win(call, win));
    if (o->kind == RD_RMA_PUT || o->kind == RD_RMA_ACC || (o->kind == RD_RMA_GACC && o->op != MPI_NO_OP))
        RD_TRY(check_dt(call, win, o->ocount, o->odt, "origin"));
    if (o->kind == RD_RMA_GET || o->kind == RD_RMA_GACC || o->kind == RD_RMA_CAS)
        RD_TRY(check_dt(call, win, o->rcount, o->rdt, o->kind == RD_RMA_GET ? "origin" : "result"));
    RD_TRY(check_dt(call, win, o->tcount, o->tdt, "target"));
    if ((o->kind == RD_RMA_ACC || o->kind == RD_RMA_GACC) && !rd_op_valid(o->op))
        return rd_err_raise_win(win, MPI_ERR_OP, call, "invalid op");
    if (o->kind == RD_RMA_GACC && o->op == MPI_NO_OP) {
        o->odt = o->rdt; /* not read */
        o->ocount = o->rcount;
    }
    if (!reqp)
        RMA_CALL(call, win, rd_rma_do(win, o, NULL, why));
    /* the R-forms: a request completed when the operation is complete at
     * the origin (passive-target epochs only, MPI-4.1 12.3.5) */
    char why[RD_RMA_WHY] = "";
    RD_LOCK();
    int rc = MPI_SUCCESS;
    struct rd_request_s *req = NULL;
    if (o->target != MPI_PROC_NULL && !rd_rma_passive(win, o->target)) {
        rc = MPI_ERR_RMA_SYNC;
        snprintf(why, sizeof(why), "no passive-target epoch (lock or lock_all) to rank %d is open", o->target);
    } else if (!(req = rd_req_alloc(RD_REQ_DONE))) {
        rc = MPI_ERR_NO_MEM;
        snprintf(why, sizeof(why), "out of memory");
    } else {
        req->comm = win->comm;
        rd_comm_retain(win->comm);
        rd_status_empty(&req->status);
        rc = rd_rma_do(win, o, req, why);
        if (rc != MPI_SUCCESS) {
            rd_req_release(req);
            req = NULL;
        }
    }
    RD_UNLOCK();
    if (rc != MPI_SUCCESS)
        return rd_err_raise_win(win, rc, call, "%s", why);
    *reqp = req;
    return MPI_SUCCESS;
}

/* Put, Get, Accumulate and Get_accumulate, with int counts and with
 * MPI_Count ones (MPI_Put_c ...): the node fast path first
 * (runtime/rma/fast.c), which does the common case or leaves everything
 * to the general call, checks included */
#define RD_RMA_ENTRIES(SFX, CT)                                                                                  \
    int PMPI_Put##SFX(const void *obuf, CT ocount, MPI_Datatype odt, int target, MPI_Aint tdisp, CT tcount,     \
                      MPI_Datatype tdt, MPI_Win win)                                                             \
    {                                                                                                            \
        if (rd_ready() && rd_win_valid(win) &&                                                                   \
            rd_rma_put_fast(win, obuf, ocount, odt, target, tdisp, tcount, tdt) == MPI_SUCCESS)                  \
            return MPI_SUCCESS;                                                                                  \
        struct rd_rma_call o = {.kind = RD_RMA_PUT, .obuf = obuf, .ocount = ocount, .odt = odt,                  \
                                .target = target, .tdisp = tdisp, .tcount = tcount, .tdt = tdt};                 \
        return op("MPI_Put" #SFX, win, &o, NULL);                                                                \
    }                                                                                                            \
    int PMPI_Get##SFX(void *obuf, CT ocount, MPI_Datatype odt, int target, MPI_Aint tdisp, CT tcount,           \
                      MPI_Datatype tdt, MPI_Win win)                                                             \
    {                                                                                                            \
        if (rd_ready() && rd_win_valid(win) &&                                                                   \
            rd_rma_get_fast(win, obuf, ocount, odt, target, tdisp, tcount, tdt) == MPI_SUCCESS)                  \
            return MPI_SUCCESS;                                                                                  \
        struct rd_rma_call o = {.kind = RD_RMA_GET, .rbuf = obuf, .rcount = ocount, .rdt = odt,                  \
                                .target = target, .tdisp = tdisp, .tcount = tcount, .tdt = tdt};                 \
        return op("MPI_Get" #SFX, win, &o, NULL);                                                                \
    }                                                                                                            \
    int PMPI_Accumulate##SFX(const void *obuf, CT ocount, MPI_Datatype odt, int target, MPI_Aint tdisp,          \
                             CT tcount, MPI_Datatype tdt, MPI_Op mop, MPI_Win win)                              \
    {                                                                                                            \
        if (rd_ready() && rd_win_valid(win) &&                                                                   \
            rd_rma_acc_fast(win, obuf, ocount, odt, NULL, 0, MPI_DATATYPE_NULL, target, tdisp, tcount, tdt,      \
                            mop) == MPI_SUCCESS)                                                                 \
            return MPI_SUCCESS;                                                                                  \
        struct rd_rma_call o = {.kind = RD_RMA_ACC, .obuf = obuf, .ocount = ocount, .odt = odt,                  \
                                .target = target, .tdisp = tdisp, .tcount = tcount, .tdt = tdt, .op = mop};      \
        return op("MPI_Accumulate" #SFX, win, &o, NULL);                                                         \
    }                                                                                                            \
    int PMPI_Get_accumulate##SFX(const void *obuf, CT ocount, MPI_Datatype odt, void *rbuf, CT rcount,           \
                                 MPI_Datatype rdt, int target, MPI_Aint tdisp, CT tcount, MPI_Datatype tdt,      \
                                 MPI_Op mop, MPI_Win win)                                                        \
    {                                                                                                            \
        if (rd_ready() && rd_win_valid(win) &&                                                                   \
            rd_rma_acc_fast(win, obuf, ocount, odt, rbuf, rcount, rdt, target, tdisp, tcount, tdt, mop) ==       \
                MPI_SUCCESS)                                                                                     \
            return MPI_SUCCESS;                                                                                  \
        struct rd_rma_call o = {.kind = RD_RMA_GACC, .obuf = obuf, .ocount = ocount, .odt = odt, .rbuf = rbuf,   \
                                .rcount = rcount, .rdt = rdt, .target = target, .tdisp = tdisp,                  \
                                .tcount = tcount, .tdt = tdt, .op = mop};                                        \
        return op("MPI_Get_accumulate" #SFX, win, &o, NULL);                                                     \
    }
#pragma weak MPI_Put = PMPI_Put
#pragma weak MPI_Get = PMPI_Get
#pragma weak MPI_Accumulate = PMPI_Accumulate
#pragma weak MPI_Get_accumulate = PMPI_Get_accumulate
RD_RMA_ENTRIES(, int)
#pragma weak MPI_Put_c = PMPI_Put_c
#pragma weak MPI_Get_c = PMPI_Get_c
#pragma weak MPI_Accumulate_c = PMPI_Accumulate_c
#pragma weak MPI_Get_accumulate_c = PMPI_Get_accumulate_c
RD_RMA_ENTRIES(_c, MPI_Count)

#pragma weak MPI_Fetch_and_op = PMPI_Fetch_and_op
int PMPI_Fetch_and_op(const void *obuf, void *rbuf, MPI_Datatype dt, int target, MPI_Aint tdisp, MPI_Op mop,
                      MPI_Win win)
{
    if (rd_ready() && rd_win_valid(win) && rd_rma_fop_fast(win, obuf, rbuf, dt, target, tdisp, mop) == MPI_SUCCESS)
        return MPI_SUCCESS;
    struct rd_rma_call o = {.kind = RD_RMA_GACC, .obuf = obuf, .ocount = 1, .odt = dt, .rbuf = rbuf,
                          .rcount = 1, .rdt = dt, .target = target, .tdisp = tdisp, .tcount = 1, .tdt = dt,
                          .op = mop};
    return op("MPI_Fetch_and_op", win, &o, NULL);
}

#pragma weak MPI_Compare_and_swap = PMPI_Compare_and_swap
int PMPI_Compare_and_swap(const void *obuf, const void *cbuf, void *rbuf, MPI_Datatype dt, int target,
                          MPI_Aint tdisp, MPI_Win win)
{
    if (rd_ready() && rd_win_valid(win) &&
        rd_rma_cas_fast(win, obuf, cbuf, rbuf, dt, target, tdisp) == MPI_SUCCESS)
        return MPI_SUCCESS;
    struct rd_rma_call o = {.kind = RD_RMA_CAS, .obuf = obuf, .ocount = 1, .odt = dt, .cbuf = cbuf, .rbuf = rbuf,
                          .rcount = 1, .rdt = dt, .target = target, .tdisp = tdisp, .tcount = 1, .tdt = dt};
    return op("MPI_Compare_and_swap", win, &o, NULL);
}

/* the R-forms: op() with the request they must be given */
static int rop(const char *name, MPI_Win win, struct rd_rma_call *o, MPI_Request *req)
{
    if (!req)
        return rd_err_raise_win(win, MPI_ERR_ARG, name, "request is NULL");
    return op(name, win, o, req);
}

/* the R-forms, with int counts and with MPI_Count ones */
#define RD_RRMA_ENTRIES(SFX, CT)                                                                                 \
    int PMPI_Rput##SFX(const void *obuf, CT ocount, MPI_Datatype odt, int target, MPI_Aint tdisp, CT tcount,    \
                       MPI_Datatype tdt, MPI_Win win, MPI_Request *req)                                          \
    {                                                                                                            \
        struct rd_rma_call o = {.kind = RD_RMA_PUT, .obuf = obuf, .ocount = ocount, .odt = odt,                  \
                                .target = target, .tdisp = tdisp, .tcount = tcount, .tdt = tdt};                 \
        return rop("MPI_Rput" #SFX, win, &o, req);                                                               \
    }                                                                                                            \
    int PMPI_Rget##SFX(void *obuf, CT ocount, MPI_Datatype odt, int target, MPI_Aint tdisp, CT tcount,          \
                       MPI_Datatype tdt, MPI_Win win, MPI_Request *req)                                          \
    {                                                                                                            \
        struct rd_rma_call o = {.kind = RD_RMA_GET, .rbuf = obuf, .rcount = ocount, .rdt = odt,                  \
                                .target = target, .tdisp = tdisp, .tcount = tcount, .tdt = tdt};                 \
        return rop("MPI_Rget" #SFX, win, &o, req);                                                               \
    }                                                                                                            \
    int PMPI_Raccumulate##SFX(const void *obuf, CT ocount, MPI_Datatype odt, int target, MPI_Aint tdisp,         \
                              CT tcount, MPI_Datatype tdt, MPI_Op mop, MPI_Win win, MPI_Request *req)           \
    {                                                                                                            \
        struct rd_rma_call o = {.kind = RD_RMA_ACC, .obuf = obuf, .ocount = ocount, .odt = odt,                  \
                                .target = target, .tdisp = tdisp, .tcount = tcount, .tdt = tdt, .op = mop};      \
        return rop("MPI_Raccumulate" #SFX, win, &o, req);                                                        \
    }                                                                                                            \
    int PMPI_Rget_accumulate##SFX(const void *obuf, CT ocount, MPI_Datatype odt, void *rbuf, CT rcount,          \
                                  MPI_Datatype rdt, int target, MPI_Aint tdisp, CT tcount, MPI_Datatype tdt,     \
                                  MPI_Op mop, MPI_Win win, MPI_Request *req)                                     \
    {                                                                                                            \
        struct rd_rma_call o = {.kind = RD_RMA_GACC, .obuf = obuf, .ocount = ocount, .odt = odt, .rbuf = rbuf,   \
                                .rcount = rcount, .rdt = rdt, .target = target, .tdisp = tdisp,                  \
                                .tcount = tcount, .tdt = tdt, .op = mop};                                        \
        return rop("MPI_Rget_accumulate" #SFX, win, &o, req);                                                    \
    }
#pragma weak MPI_Rput = PMPI_Rput
#pragma weak MPI_Rget = PMPI_Rget
#pragma weak MPI_Raccumulate = PMPI_Raccumulate
#pragma weak MPI_Rget_accumulate = PMPI_Rget_accumulate
RD_RRMA_ENTRIES(, int)
#pragma weak MPI_Rput_c = PMPI_Rput_c
#pragma weak MPI_Rget_c = PMPI_Rget_c
#pragma weak MPI_Raccumulate_c = PMPI_Raccumulate_c
#pragma weak MPI_Rget_accumulate_c = PMPI_Rget_accumulate_c
RD_RRMA_ENTRIES(_c, MPI_Count)

/* ------------------------------------------------------------ synchronisation */

#pragma weak MPI_Win_fence = PMPI_Win_fence
int PMPI_Win_fence(int assert, MPI_Win win)
{
    const char *call = "MPI_Win_fence";
    RD_API_READY(call);
    RD_TRY(rd_check_win(call, win));
    char why[RD_RMA_WHY] = "";
    RD_LOCK();
    int rc = rd_rma_fence(win, assert, why);
    RD_UNLOCK();
    if (rc != MPI_SUCCESS && rc != MPI_ERR_RMA_RANGE && rc != MPI_ERR_OP)
        return rd_err_raise_win(win, rc, call, "%s", why);
    /* my operations are done at their targets: after the barrier, everybody's are */
    int brc = PMPI_Barrier(win->comm);
    if (brc != MPI_SUCCESS)
        return rd_err_raise_win(win, brc, call, "the barrier failed");
    RD_LOCK();
    rd_rma_fence_end(win, assert);
    RD_UNLOCK();
    if (rc != MPI_SUCCESS)
        return rd_err_raise_win(win, rc, call, "%s", why);
    return MPI_SUCCESS;
}

#pragma weak MPI_Win_lock = PMPI_Win_lock
int PMPI_Win_lock(int type, int rank, int assert, MPI_Win win)
{
    RD_API_READY("MPI_Win_lock");
    RD_TRY(rd_check_win("MPI_Win_lock", win));
    if (rd_rma_lock_fast(win, type, rank, assert) == MPI_SUCCESS)
        return MPI_SUCCESS;
    RMA_CALL("MPI_Win_lock", win, rd_rma_lock(win, type, rank, assert, why));
}

#pragma weak MPI_Win_unlock = PMPI_Win_unlock
int PMPI_Win_unlock(int rank, MPI_Win win)
{
    RD_API_READY("MPI_Win_unlock");
    RD_TRY(rd_check_win("MPI_Win_unlock", win));
    if (rd_rma_unlock_fast(win, rank) == MPI_SUCCESS)
        return MPI_SUCCESS;
    RMA_CALL("MPI_Win_unlock", win, rd_rma_unlock(win, rank, why));
}

#pragma weak MPI_Win_lock_all = PMPI_Win_lock_all
int PMPI_Win_lock_all(int assert, MPI_Win win)
{
    RD_API_READY("MPI_Win_lock_all");
    RD_TRY(rd_check_win("MPI_Win_lock_all", win));
    RMA_CALL("MPI_Win_lock_all", win, rd_rma_lock_all(win, assert, why));
}

#pragma weak MPI_Win_unlock_all = PMPI_Win_unlock_all
int PMPI_Win_unlock_all(MPI_Win win)
{
    RD_API_READY("MPI_Win_unlock_all");
    RD_TRY(rd_check_win("MPI_Win_unlock_all", win));
    RMA_CALL("MPI_Win_unlock_all", win, rd_rma_unlock_all(win, why));
}

/* flush_local completes at the origin only; on the active-message path
 * that is the same wait (the answers are the only completion events).
 * Nothing pending (every node target, the direct paths): a fence. */
#define FLUSH(NAME, RANK)                                                              \
    RD_API_READY("MPI_" NAME);                                                         \
    RD_TRY(rd_check_win("MPI_" NAME, win));                                            \
    if (rd_rma_flush_fast(win, (RANK)) == MPI_SUCCESS)                                 \
        return MPI_SUCCESS;                                                            \
    RMA_CALL("MPI_" NAME, win, rd_rma_flush(win, (RANK), why))

#pragma weak MPI_Win_flush = PMPI_Win_flush
int PMPI_Win_flush(int rank, MPI_Win win)
{
    FLUSH("Win_flush", rank);
}

#pragma weak MPI_Win_flush_all = PMPI_Win_flush_all
int PMPI_Win_flush_all(MPI_Win win)
{
    FLUSH("Win_flush_all", RD_RMA_ALL);
}

#pragma weak MPI_Win_flush_local = PMPI_Win_flush_local
int PMPI_Win_flush_local(int rank, MPI_Win win)
{
    FLUSH("Win_flush_local", rank);
}

#pragma weak MPI_Win_flush_local_all = PMPI_Win_flush_local_all
int PMPI_Win_flush_local_all(MPI_Win win)
{
    FLUSH("Win_flush_local_all", RD_RMA_ALL);
}

#pragma weak MPI_Win_sync = PMPI_Win_sync
int PMPI_Win_sync(MPI_Win win)
{
    RD_API_READY("MPI_Win_sync");
    RD_TRY(rd_check_win("MPI_Win_sync", win));
    /* the unified model: public and private copies are one memory; order
     * this rank's loads and stores against the others' */
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    return MPI_SUCCESS;
}

static int check_group(const char *call, MPI_Win win, MPI_Group g)
{
    if (!rd_group_valid(g))
        return rd_err_raise_win(win, MPI_ERR_GROUP, call, "invalid group");
    return MPI_SUCCESS;
}

#pragma weak MPI_Win_post = PMPI_Win_post
int PMPI_Win_post(MPI_Group g, int assert, MPI_Win win)
{
    RD_API_READY("MPI_Win_post");
    RD_TRY(rd_check_win("MPI_Win_post", win));
    RD_TRY(check_group("MPI_Win_post", win, g));
    RMA_CALL("MPI_Win_post", win, rd_rma_post(win, g, assert, why));
}

#pragma weak MPI_Win_start = PMPI_Win_start
int PMPI_Win_start(MPI_Group g, int assert, MPI_Win win)
{
    RD_API_READY("MPI_Win_start");
    RD_TRY(rd_check_win("MPI_Win_start", win));
    RD_TRY(check_group("MPI_Win_start", win, g));
    RMA_CALL("MPI_Win_start", win, rd_rma_start(win, g, assert, why));
}

#pragma weak MPI_Win_complete = PMPI_Win_complete
int PMPI_Win_complete(MPI_Win win)
{
    RD_API_READY("MPI_Win_complete");
    RD_TRY(rd_check_win("MPI_Win_complete", win));
    RMA_CALL("MPI_Win_complete", win, rd_rma_complete(win, why));
}

#pragma weak MPI_Win_wait = PMPI_Win_wait
int PMPI_Win_wait(MPI_Win win)
{
    RD_API_READY("MPI_Win_wait");
    RD_TRY(rd_check_win("MPI_Win_wait", win));
    RMA_CALL("MPI_Win_wait", win, rd_rma_wait(win, 1, NULL, why));
}

#pragma weak MPI_Win_test = PMPI_Win_test
int PMPI_Win_test(MPI_Win win, int *flag)
{
    RD_API_READY("MPI_Win_test");
    RD_TRY(rd_check_win("MPI_Win_test", win));
    if (!flag)
        return rd_err_raise_win(win, MPI_ERR_ARG, "MPI_Win_test", "flag is NULL");
    RMA_CALL("MPI_Win_test", win, rd_rma_wait(win, 0, flag, why));
}

/* ------------------------------------------------------------ memory, info */

static int shared_query(const char *call, MPI_Win win, int rank, MPI_Aint *size, MPI_Aint *disp_unit,
                        void *baseptr)
{
    RD_API_READY(call);
    RD_TRY(rd_check_win(call, win));
    if (!size || !disp_unit || !baseptr)
        return rd_err_raise_win(win, MPI_ERR_ARG, call, "an output argument is NULL");
    RMA_CALL(call, win, rd_rma_shared_query(win, rank, size, disp_unit, baseptr, why));
}

#pragma weak MPI_Win_shared_query = PMPI_Win_shared_query
int PMPI_Win_shared_query(MPI_Win win, int rank, MPI_Aint *size, int *disp_unit, void *baseptr)
{
    MPI_Aint du = 0;
    RD_TRY(shared_query("MPI_Win_shared_query", win, rank, size, disp_unit ? &du : NULL, baseptr));
    *disp_unit = du > INT_MAX ? INT_MAX : (int)du; /* (a unit beyond an int: MPI_Win_shared_query_c's) */
    return MPI_SUCCESS;
}

#pragma weak MPI_Win_shared_query_c = PMPI_Win_shared_query_c
int PMPI_Win_shared_query_c(MPI_Win win, int rank, MPI_Aint *size, MPI_Aint *disp_unit, void *baseptr)
{
    return shared_query("MPI_Win_shared_query_c", win, rank, size, disp_unit, baseptr);
}

#pragma weak MPI_Win_attach = PMPI_Win_attach
int PMPI_Win_attach(MPI_Win win, void *base, MPI_Aint size)
{
    RD_API_READY("MPI_Win_attach");
    RD_TRY(rd_check_win("MPI_Win_attach", win));
    if (size < 0)
        return rd_err_raise_win(win, MPI_ERR_SIZE, "MPI_Win_attach", "size %lld is negative", (long long)size);
    if (!base && size > 0)
        return rd_err_raise_win(win, MPI_ERR_BASE, "MPI_Win_attach", "base is NULL");
    RMA_CALL("MPI_Win_attach", win, rd_rma_attach(win, base, size, why));
}

#pragma weak MPI_Win_detach = PMPI_Win_detach
int PMPI_Win_detach(MPI_Win win, const void *base)
{
    RD_API_READY("MPI_Win_detach");
    RD_TRY(rd_check_win("MPI_Win_detach", win));
    RMA_CALL("MPI_Win_detach", win, rd_rma_detach(win, base, why));
}

#pragma weak MPI_Win_get_info = PMPI_Win_get_info
int PMPI_Win_get_info(MPI_Win win, MPI_Info *info)
{
    RD_API_READY("MPI_Win_get_info");
    RD_TRY(rd_check_win("MPI_Win_get_info", win));
    if (!info)
        return rd_err_raise_win(win, MPI_ERR_ARG, "MPI_Win_get_info", "info_used is NULL");
    RMA_CALL("MPI_Win_get_info", win, rd_rma_get_info(win, info, why));
}

#pragma weak MPI_Win_set_info = PMPI_Win_set_info
int PMPI_Win_set_info(MPI_Win win, MPI_Info info)
{
    RD_API_READY("MPI_Win_set_info");
    RD_TRY(rd_check_win("MPI_Win_set_info", win));
    if (info != MPI_INFO_NULL && !rd_info_valid(info))
        return rd_err_raise_win(win, MPI_ERR_INFO, "MPI_Win_set_info", "invalid info");
    RMA_CALL("MPI_Win_set_info", win, rd_rma_set_info(win, info, why));
}

#pragma weak MPI_Alloc_mem = PMPI_Alloc_mem
int PMPI_Alloc_mem(MPI_Aint size, MPI_Info info, void *baseptr)
{
    RD_API_READY("MPI_Alloc_mem");
    if (size < 0)
        return rd_err_raise(MPI_COMM_WORLD, MPI_ERR_SIZE, "MPI_Alloc_mem", "size %lld is negative", (long long)size);
    if (!baseptr)
        return rd_err_raise(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Alloc_mem", "baseptr is NULL");
    if (info != MPI_INFO_NULL && !rd_info_valid(info))
        return rd_err_raise(MPI_COMM_WORLD, MPI_ERR_INFO, "MPI_Alloc_mem", "invalid info");
    /* node memory (runtime/rma/mem.c): windows over it are reached by
     * the node's ranks with loads and stores */
    void *p = NULL;
    char why[RD_RMA_WHY] = "";
    RD_LOCK();
    int rc = rd_rma_alloc_mem(size, info, &p, why);
    RD_UNLOCK();
    if (rc != MPI_SUCCESS)
        return rd_err_raise(MPI_COMM_WORLD, rc, "MPI_Alloc_mem", "%s", why);
    *(void **)baseptr = p;
    return MPI_SUCCESS;
}

#pragma weak MPI_Free_mem = PMPI_Free_mem
int PMPI_Free_mem(void *base)
{
    RD_API_READY("MPI_Free_mem");
    char why[RD_RMA_WHY] = "";
    RD_LOCK();
    int rc = rd_rma_free_mem(base, why);
    RD_UNLOCK();
    if (rc != MPI_SUCCESS)
        return rd_err_raise(MPI_COMM_WORLD, rc, "MPI_Free_mem", "%s", why);
    return MPI_SUCCESS;
}

/* Collectives: argument checks, then one schedule per call
 * (collectives/). Blocking and nonblocking forms share everything but the
 * last step: run the schedule, or start it and hand back a request. */
#include <mpi.h>

#include "collectives/algorithms.h"
#include "collectives/persist.h"
#include "runtime/api/check.h"
#include "runtime/objects/info.h"
#include "runtime/objects/op.h"

/* ------------------------------------------------------------ checks */

static int check_type(const char *call, MPI_Comm comm, MPI_Datatype dt, const char *what)
{
    if (!rd_dt_valid(dt))
        return rd_err_raise(comm, MPI_ERR_TYPE, call, "invalid %s", what);
    if (!dt->committed)
        return rd_err_raise(comm, MPI_ERR_TYPE, call, "%s %s is not committed", what, dt->name);
    return MPI_SUCCESS;
}

static int check_buf(const char *call, MPI_Comm comm, const void *buf, int count, MPI_Datatype dt,
                     const char *what)
{
    if (count < 0)
        return rd_err_raise(comm, MPI_ERR_COUNT, call, "%s count %d is negative", what, count);
    RD_TRY(check_type(call, comm, dt, what));
    if (buf == MPI_IN_PLACE)
        return rd_err_raise(comm, MPI_ERR_BUFFER, call, "MPI_IN_PLACE is not allowed as the %s", what);
    if (!buf && count > 0 && dt->size > 0 && dt->true_lb == 0)
        return rd_err_raise(comm, MPI_ERR_BUFFER, call, "%s is NULL for %d elements", what, count);
    return MPI_SUCCESS;
}

static int check_counts(const char *call, MPI_Comm comm, const int *counts, const void *displs,
                        int n, const char *what)
{
    if (n > 0 && (!counts || !displs))
        return rd_err_raise(comm, MPI_ERR_ARG, call, "%s counts or displacements array is NULL", what);
    for (int i = 0; i < n; i++)
        if (counts[i] < 0)
            return rd_err_raise(comm, MPI_ERR_COUNT, call, "%s count %d (of rank %d) is negative", what,
                                counts[i], i);
    return MPI_SUCCESS;
}

static int check_comm(const char *call, MPI_Comm comm)
{
    return rd_check_comm(call, comm);
}

static int check_root(const char *call, MPI_Comm comm, int root)
{
    if (comm->is_inter) {
        if (root == MPI_ROOT || root == MPI_PROC_NULL || (root >= 0 && root < comm->remote_size))
            return MPI_SUCCESS;
        return rd_err_raise(comm, MPI_ERR_ROOT, call,
                            "root %d is not MPI_ROOT, MPI_PROC_NULL nor a rank of the remote group [0, %d)",
                            root, comm->remote_size);
    }
    if (root < 0 || root >= comm->size)
        return rd_err_raise(comm, MPI_ERR_ROOT, call, "root %d is not in [0, %d)", root, comm->size);
    return MPI_SUCCESS;
}

static int check_op(const char *call, MPI_Comm comm, MPI_Op op, MPI_Datatype dt)
{
    if (!rd_op_valid(op))
        return rd_err_raise(comm, MPI_ERR_OP, call, "invalid operation");
    if (rd_op_check(op, dt) != MPI_SUCCESS)
        return rd_err_raise(comm, MPI_ERR_OP, call, "the operation is not defined on datatype %s", dt->name);
    return MPI_SUCCESS;
}

/* Rooted collectives: is this rank the root (on an intercommunicator: it
 * passed MPI_ROOT), and does it contribute data (on an intercommunicator:
 * a rank of the other group)? */
static int is_root(MPI_Comm comm, int root)
{
    return comm->is_inter ? root == MPI_ROOT : comm->rank == root;
}

static int contributes(MPI_Comm comm, int root)
{
    return comm->is_inter ? root != MPI_ROOT && root != MPI_PROC_NULL : 1;
}

/* Ranks that per-rank arrays (counts, displacements, types) describe. */
static int peers(MPI_Comm comm)
{
    return comm->is_inter ? comm->remote_size : comm->size;
}

static int check_intra(const char *call, MPI_Comm comm)
{
    return comm->is_inter ? rd_err_raise(comm, MPI_ERR_COMM, call, "not defined on an intercommunicator")
                          : MPI_SUCCESS;
}

static int check_req(const char *call, MPI_Comm comm, MPI_Request *req)
{
    return req ? MPI_SUCCESS : rd_err_raise(comm, MPI_ERR_ARG, call, "request pointer is NULL");
}

/* sendbuf and recvbuf may not be the same memory (MPI_IN_PLACE says so) */
static int check_alias(const char *call, MPI_Comm comm, const void *sbuf, const void *rbuf, int count)
{
    if (sbuf == rbuf && sbuf && count > 0)
        return rd_err_raise(comm, MPI_ERR_BUFFER, call,
                            "sendbuf and recvbuf are the same buffer (use MPI_IN_PLACE)");
    return MPI_SUCCESS;
}

static int check_topo(const char *call, MPI_Comm comm)
{
    if (!comm->cart && !comm->graph && !comm->dgraph)
        return rd_err_raise(comm, MPI_ERR_TOPOLOGY, call, "the communicator has no topology");
    return MPI_SUCCESS;
}

/* ------------------------------------------------------------ running */

/* Report a collective that failed: with the reason it found (counts that
 * do not match: collectives/algorithms.h), else in general terms. */
static int failed(MPI_Comm comm, int err, const char *call)
{
    const char *why = rd_coll_reason();
    return rd_err_raise(comm, err, call, "%s", why ? why : "the collective failed");
}

/* How a call runs: blocking (how NULL), started at once (a nonblocking
 * call: NB), or made into a persistent request (an init: PERSISTENT),
 * whose algorithm and schedule are chosen and built now, once
 * (collectives/persist.c). */
struct how {
    MPI_Request *req;
    int persistent;
};
#define NB(r) (&(const struct how){.req = (r)})
#define PERSISTENT(r) (&(const struct how){.req = (r), .persistent = 1})

static int run(const char *call, int kind, struct rd_coll_args *a, const struct how *how)
{
    MPI_Comm comm = a->comm;
    int err = MPI_SUCCESS;
    RD_LOCK();
    if (how && how->persistent) {
        err = rd_pcoll_init(kind, a, how->req);
        RD_UNLOCK();
        return err == MPI_SUCCESS ? MPI_SUCCESS : failed(comm, err, call);
    }
    if (!how && rd_coll_node(kind, a, &err)) {
        RD_UNLOCK();
        return err == MPI_SUCCESS ? MPI_SUCCESS : failed(comm, err, call);
    }
    struct rd_sched *s = rd_sched_new(comm);
    if (!s) {
        RD_UNLOCK();
        return rd_err_raise(comm, MPI_ERR_NO_MEM, call, "out of memory");
    }
    rd_status st = rd_coll_build(kind, s, a);
    if (st != RD_OK) {
        rd_sched_discard(s);
        RD_UNLOCK();
        return rd_err_raise(comm, rd_status_to_mpi(st), call, "%s", rd_status_string(st));
    }
    if (how) {
        st = rd_sched_start(s, how->req);
        if (st != RD_OK)
            err = rd_status_to_mpi(st);
    } else {
        err = rd_sched_run(s);
    }
    RD_UNLOCK();
    if (err != MPI_SUCCESS)
        return failed(comm, err, call);
    return MPI_SUCCESS;
}

/* The short ways' tests of the handles: a valid communicator that already
 * has its node table (collectives/algorithms.h); a valid committed type. */
static int on_node(MPI_Comm comm)
{
    return rd_ready() && rd_comm_valid(comm) && comm->coll_node;
}

static int plain_type(MPI_Datatype dt)
{
    return rd_dt_valid(dt) && dt->committed;
}

/* The short way of a blocking collective of a node's ranks whose
 * arguments are plainly valid, as the caller found: straight to the
 * communicator's node paths (its node table, chosen when it claimed its
 * slot), past the checks, which were about half of an 8-byte
 * collective's instructions on 2 ranks. Returns 1 with the call's result
 * in *rc when it ran; 0: take the general way, which comes to the same
 * table first (so ranks may differ in which way they take). */
static inline __attribute__((always_inline)) int short_way(const char *call, int kind, const struct rd_coll_args *a,
                                                         int *rc)
{
    int err = MPI_SUCCESS;
    RD_LOCK();
    int done = rd_coll_node_run(kind, a, &err);
    RD_UNLOCK();
    if (done)
        *rc = err == MPI_SUCCESS ? MPI_SUCCESS : failed(a->comm, err, call);
    return done;
}

/* The short way of Allgather and Alltoall: blocks of both sides, not in
 * place. */
static int short_blocks(const char *call, int kind, const void *sbuf, int scount, MPI_Datatype sdt, void *rbuf,
                        int rcount, MPI_Datatype rdt, MPI_Comm comm, int *rc)
{
    struct rd_coll_args a = {.comm = comm, .sbuf = sbuf, .scount = scount, .sdt = sdt, .rbuf = rbuf,
                             .rcount = rcount, .rdt = rdt};
    return scount > 0 && rcount > 0 && sbuf && rbuf && sbuf != MPI_IN_PLACE && rbuf != MPI_IN_PLACE &&
           on_node(comm) && plain_type(sdt) && plain_type(rdt) && short_way(call, kind, &a, rc);
}

/* ------------------------------------------------------------ barrier, bcast */

static int barrier(const char *call, MPI_Comm comm, const struct how *how)
{
    RD_API_READY(call);
    RD_TRY(check_comm(call, comm));
    struct rd_coll_args a = {.comm = comm};
    return run(call, RD_COLL_BARRIER, &a, how);
}

#pragma weak MPI_Barrier = PMPI_Barrier
int PMPI_Barrier(MPI_Comm comm)
{
    int rc;
    struct rd_coll_args a = {.comm = comm};
    if (on_node(comm) && short_way("MPI_Barrier", RD_COLL_BARRIER, &a, &rc))
        return rc;
    return barrier("MPI_Barrier", comm, NULL);
}

#pragma weak MPI_Ibarrier = PMPI_Ibarrier
int PMPI_Ibarrier(MPI_Comm comm, MPI_Request *req)
{
    RD_TRY(check_req("MPI_Ibarrier", comm, req));
    return barrier("MPI_Ibarrier", comm, NB(req));
}

static int bcast(const char *call, void *buf, int count, MPI_Datatype dt, int root, MPI_Comm comm,
                 const struct how *how)
{
    RD_API_READY(call);
    RD_TRY(check_comm(call, comm));
    RD_TRY(check_root(call, comm, root));
    if (root != MPI_PROC_NULL)
        RD_TRY(check_buf(call, comm, buf, count, dt, "buffer"));
    struct rd_coll_args a = {.comm = comm, .rbuf = buf, .count = count, .dt = dt, .root = root};
    return run(call, RD_COLL_BCAST, &a, how);
}

#pragma weak MPI_Bcast = PMPI_Bcast
int PMPI_Bcast(void *buf, int count, MPI_Datatype dt, int root, MPI_Comm comm)
{
    int rc;
    struct rd_coll_args a = {.comm = comm, .rbuf = buf, .count = count, .dt = dt, .root = root};
    if (count > 0 && buf && on_node(comm) && root >= 0 && root < comm->size && plain_type(dt) &&
        short_way("MPI_Bcast", RD_COLL_BCAST, &a, &rc))
        return rc;
    return bcast("MPI_Bcast", buf, count, dt, root, comm, NULL);
}

#pragma weak MPI_Ibcast = PMPI_Ibcast
int PMPI_Ibcast(void *buf, int count, MPI_Datatype dt, int root, MPI_Comm comm, MPI_Request *req)
{
    RD_TRY(check_req("MPI_Ibcast", comm, req));
    return bcast("MPI_Ibcast", buf, count, dt, root, comm, NB(req));
}

/* ------------------------------------------------------------ reductions */

/* The checks of the reduction family; in_place_ok: where MPI_IN_PLACE may
 * stand for sendbuf. */
static int reduction_args(const char *call, const void *sbuf, void *rbuf, int count, MPI_Datatype dt,
                          MPI_Op op, MPI_Comm comm, int in_place_ok, int sbuf_used, int rbuf_used)
{
    RD_API_READY(call);
    RD_TRY(check_comm(call, comm));
    if (sbuf == MPI_IN_PLACE && sbuf_used) {
        if (!in_place_ok)
            return rd_err_raise(comm, MPI_ERR_BUFFER, call, "MPI_IN_PLACE is not allowed here%s",
                                comm->is_inter ? " (an intercommunicator)" : ", only at the root");
    } else if (sbuf_used) {
        RD_TRY(check_buf(call, comm, sbuf, count, dt, "send buffer"));
    } else {
        RD_TRY(check_type(call, comm, dt, "datatype"));
    }
    if (rbuf_used) {
        RD_TRY(check_buf(call, comm, rbuf, count, dt, "receive buffer"));
        RD_TRY(check_alias(call, comm, sbuf, rbuf, count));
    } else if (count < 0) {
        return rd_err_raise(comm, MPI_ERR_COUNT, call, "count %d is negative", count);
    }
    return check_op(call, comm, op, dt);
}

static int reduce(const char *call, const void *sbuf, void *rbuf, int count, MPI_Datatype dt, MPI_Op op,
                  int root, MPI_Comm comm, const struct how *how)
{
    RD_API_READY(call);
    RD_TRY(check_comm(call, comm));
    RD_TRY(check_root(call, comm, root));
    int at_root = is_root(comm, root);
    RD_TRY(reduction_args(call, sbuf, rbuf, count, dt, op, comm, at_root && !comm->is_inter,
                          contributes(comm, root), at_root));
    struct rd_coll_args a = {.comm = comm, .sbuf = sbuf, .rbuf = rbuf, .count = count, .dt = dt,
                             .op = op, .root = root};
    return run(call, RD_COLL_REDUCE, &a, how);
}

#pragma weak MPI_Reduce = PMPI_Reduce
int PMPI_Reduce(const void *sbuf, void *rbuf, int count, MPI_Datatype dt, MPI_Op op, int root, MPI_Comm comm)
{
    return reduce("MPI_Reduce", sbuf, rbuf, count, dt, op, root, comm, NULL);
}

#pragma weak MPI_Ireduce = PMPI_Ireduce
int PMPI_Ireduce(const void *sbuf, void *rbuf, int count, MPI_Datatype dt, MPI_Op op, int root, MPI_Comm comm,
                 MPI_Request *req)
{
    RD_TRY(check_req("MPI_Ireduce", comm, req));
    return reduce("MPI_Ireduce", sbuf, rbuf, count, dt, op, root, comm, NB(req));
}

static int allred(const char *call, int kind, const void *sbuf, void *rbuf, int count, MPI_Datatype dt,
                  MPI_Op op, MPI_Comm comm, const struct how *how)
{
    RD_API_READY(call);
    RD_TRY(check_comm(call, comm));
    if (kind == RD_COLL_SCAN || kind == RD_COLL_EXSCAN)
        RD_TRY(check_intra(call, comm));
    RD_TRY(reduction_args(call, sbuf, rbuf, count, dt, op, comm, !comm->is_inter, 1, 1));
    struct rd_coll_args a = {.comm = comm, .sbuf = sbuf, .rbuf = rbuf, .count = count, .dt = dt, .op = op};
    return run(call, kind, &a, how);
}

#pragma weak MPI_Allreduce = PMPI_Allreduce
int PMPI_Allreduce(const void *sbuf, void *rbuf, int count, MPI_Datatype dt, MPI_Op op, MPI_Comm comm)
{
    /* A small Allreduce of a node's ranks is where codes wait most, and
     * its own instructions were half its time on 2 ranks: with arguments
     * that are plainly valid it skips the checks (anything else, errors
     * included, takes the general way, which comes to the same table; an
     * op not defined on dt is found there, collectives/shmcoll.c). */
    if (count > 0 && sbuf && rbuf && sbuf != rbuf && rbuf != MPI_IN_PLACE && on_node(comm) && plain_type(dt) &&
        rd_op_valid(op)) {
        int rc;
        /* only what the reductions' paths read (comm, buffers, count, dt,
         * op, root: collectives/algorithms.h); the other fields stay unset,
         * as zeroing the whole struct was 20 of its instructions */
        struct rd_coll_args a;
        a.comm = comm;
        a.sbuf = sbuf;
        a.rbuf = rbuf;
        a.count = count;
        a.dt = dt;
        a.op = op;
        a.root = 0;
        if (short_way("MPI_Allreduce", RD_COLL_ALLREDUCE, &a, &rc))
            return rc;
    }
    return allred("MPI_Allreduce", RD_COLL_ALLREDUCE, sbuf, rbuf, count, dt, op, comm, NULL);
}

#pragma weak MPI_Iallreduce = PMPI_Iallreduce
int PMPI_Iallreduce(const void *sbuf, void *rbuf, int count, MPI_Datatype dt, MPI_Op op, MPI_Comm comm,
                    MPI_Request *req)
{
    RD_TRY(check_req("MPI_Iallreduce", comm, req));
    return allred("MPI_Iallreduce", RD_COLL_ALLREDUCE, sbuf, rbuf, count, dt, op, comm, NB(req));
}

#pragma weak MPI_Scan = PMPI_Scan
int PMPI_Scan(const void *sbuf, void *rbuf, int count, MPI_Datatype dt, MPI_Op op, MPI_Comm comm)
{
    return allred("MPI_Scan", RD_COLL_SCAN, sbuf, rbuf, count, dt, op, comm, NULL);
}

#pragma weak MPI_Iscan = PMPI_Iscan
int PMPI_Iscan(const void *sbuf, void *rbuf, int count, MPI_Datatype dt, MPI_Op op, MPI_Comm comm,
               MPI_Request *req)
{
    RD_TRY(check_req("MPI_Iscan", comm, req));
    return allred("MPI_Iscan", RD_COLL_SCAN, sbuf, rbuf, count, dt, op, comm, NB(req));
}

#pragma weak MPI_Exscan = PMPI_Exscan
int PMPI_Exscan(const void *sbuf, void *rbuf, int count, MPI_Datatype dt, MPI_Op op, MPI_Comm comm)
{
    return allred("MPI_Exscan", RD_COLL_EXSCAN, sbuf, rbuf, count, dt, op, comm, NULL);
}

#pragma weak MPI_Iexscan = PMPI_Iexscan
int PMPI_Iexscan(const void *sbuf, void *rbuf, int count, MPI_Datatype dt, MPI_Op op, MPI_Comm comm,
                 MPI_Request *req)
{
    RD_TRY(check_req("MPI_Iexscan", comm, req));
    return allred("MPI_Iexscan", RD_COLL_EXSCAN, sbuf, rbuf, count, dt, op, comm, NB(req));
}

static int redscat(const char *call, const void *sbuf, void *rbuf, const int *rcounts, int block,
                   MPI_Datatype dt, MPI_Op op, MPI_Comm comm, const struct how *how)
{
    RD_API_READY(call);
    RD_TRY(check_comm(call, comm));
    int n = comm->size, total = 0, mine;
    if (rcounts) {
        RD_TRY(check_counts(call, comm, rcounts, rcounts, n, "receive"));
        for (int i = 0; i < n; i++)
            total += rcounts[i];
        mine = rcounts[comm->rank];
    } else {
        if (block < 0)
            return rd_err_raise(comm, MPI_ERR_COUNT, call, "recvcount %d is negative", block);
        total = block * n;
        mine = block;
    }
    RD_TRY(check_type(call, comm, dt, "datatype"));
    if (sbuf == MPI_IN_PLACE && comm->is_inter)
        return rd_err_raise(comm, MPI_ERR_BUFFER, call, "MPI_IN_PLACE is not allowed on an intercommunicator");
    if (sbuf != MPI_IN_PLACE)
        RD_TRY(check_buf(call, comm, sbuf, total, dt, "send buffer"));
    RD_TRY(check_buf(call, comm, rbuf, sbuf == MPI_IN_PLACE ? total : mine, dt, "receive buffer"));
    RD_TRY(check_alias(call, comm, sbuf, rbuf, total));
    RD_TRY(check_op(call, comm, op, dt));
    struct rd_coll_args a = {.comm = comm, .sbuf = sbuf, .rbuf = rbuf, .count = block, .dt = dt,
                             .op = op, .rcounts = rcounts};
    return run(call, rcounts ? RD_COLL_REDUCE_SCATTER : RD_COLL_REDUCE_SCATTER_BLOCK, &a, how);
}

#pragma weak MPI_Reduce_scatter = PMPI_Reduce_scatter
int PMPI_Reduce_scatter(const void *sbuf, void *rbuf, const int rcounts[], MPI_Datatype dt, MPI_Op op,
                        MPI_Comm comm)
{
    if (!rcounts && rd_comm_valid(comm))
        return rd_err_raise(comm, MPI_ERR_ARG, "MPI_Reduce_scatter", "recvcounts is NULL");
    return redscat("MPI_Reduce_scatter", sbuf, rbuf, rcounts, 0, dt, op, comm, NULL);
}

#pragma weak MPI_Ireduce_scatter = PMPI_Ireduce_scatter
int PMPI_Ireduce_scatter(const void *sbuf, void *rbuf, const int rcounts[], MPI_Datatype dt, MPI_Op op,
                         MPI_Comm comm, MPI_Request *req)
{
    RD_TRY(check_req("MPI_Ireduce_scatter", comm, req));
    if (!rcounts && rd_comm_valid(comm))
        return rd_err_raise(comm, MPI_ERR_ARG, "MPI_Ireduce_scatter", "recvcounts is NULL");
    return redscat("MPI_Ireduce_scatter", sbuf, rbuf, rcounts, 0, dt, op, comm, NB(req));
}

#pragma weak MPI_Reduce_scatter_block = PMPI_Reduce_scatter_block
int PMPI_Reduce_scatter_block(const void *sbuf, void *rbuf, int rcount, MPI_Datatype dt, MPI_Op op,
                              MPI_Comm comm)
{
    return redscat("MPI_Reduce_scatter_block", sbuf, rbuf, NULL, rcount, dt, op, comm, NULL);
}

#pragma weak MPI_Ireduce_scatter_block = PMPI_Ireduce_scatter_block
int PMPI_Ireduce_scatter_block(const void *sbuf, void *rbuf, int rcount, MPI_Datatype dt, MPI_Op op,
                               MPI_Comm comm, MPI_Request *req)
{
    RD_TRY(check_req("MPI_Ireduce_scatter_block", comm, req));
    return redscat("MPI_Ireduce_scatter_block", sbuf, rbuf, NULL, rcount, dt, op, comm, NB(req));
}

/* ------------------------------------------------------------ gather, scatter */

static int gather(const char *call, const void *sbuf, int scount, MPI_Datatype sdt, void *rbuf, int rcount,
                  const int *rcounts, const int *displs, MPI_Datatype rdt, int root, MPI_Comm comm,
                  const struct how *how)
{
    RD_API_READY(call);
    RD_TRY(check_comm(call, comm));
    RD_TRY(check_root(call, comm, root));
    int at_root = is_root(comm, root), v = displs != NULL || rcounts != NULL;
    if (sbuf == MPI_IN_PLACE) {
        if (!at_root || comm->is_inter)
            return rd_err_raise(comm, MPI_ERR_BUFFER, call, "MPI_IN_PLACE is only allowed at the root");
    } else if (contributes(comm, root)) {
        RD_TRY(check_buf(call, comm, sbuf, scount, sdt, "send buffer"));
    }
    if (at_root) {
        if (v) {
            RD_TRY(check_counts(call, comm, rcounts, displs, peers(comm), "receive"));
            RD_TRY(check_type(call, comm, rdt, "receive type"));
            int any = 0;
            for (int i = 0; i < peers(comm); i++)
                any |= rcounts[i] > 0;
            RD_TRY(check_buf(call, comm, rbuf, any, rdt, "receive buffer"));
        } else {
            RD_TRY(check_buf(call, comm, rbuf, rcount, rdt, "receive buffer"));
        }
    }
    struct rd_coll_args a = {.comm = comm, .sbuf = sbuf, .scount = scount, .rbuf = rbuf,
                             .rcount = rcount, .rdt = at_root ? rdt : MPI_DATATYPE_NULL,
                             .sdt = contributes(comm, root) ? sdt : MPI_DATATYPE_NULL,
                             .rcounts = rcounts, .rdispls = displs, .root = root};
    return run(call, v ? RD_COLL_GATHERV : RD_COLL_GATHER, &a, how);
}

#pragma weak MPI_Gather = PMPI_Gather
int PMPI_Gather(const void *sbuf, int scount, MPI_Datatype sdt, void *rbuf, int rcount, MPI_Datatype rdt,
                int root, MPI_Comm comm)
{
    return gather("MPI_Gather", sbuf, scount, sdt, rbuf, rcount, NULL, NULL, rdt, root, comm, NULL);
}

#pragma weak MPI_Igather = PMPI_Igather
int PMPI_Igather(const void *sbuf, int scount, MPI_Datatype sdt, void *rbuf, int rcount, MPI_Datatype rdt,
                 int root, MPI_Comm comm, MPI_Request *req)
{
    RD_TRY(check_req("MPI_Igather", comm, req));
    return gather("MPI_Igather", sbuf, scount, sdt, rbuf, rcount, NULL, NULL, rdt, root, comm, NB(req));
}

#pragma weak MPI_Gatherv = PMPI_Gatherv
int PMPI_Gatherv(const void *sbuf, int scount, MPI_Datatype sdt, void *rbuf, const int rcounts[],
                 const int displs[], MPI_Datatype rdt, int root, MPI_Comm comm)
{
    static const int none[1];
    return gather("MPI_Gatherv", sbuf, scount, sdt, rbuf, 0, rcounts ? rcounts : none, displs, rdt, root, comm,
                  NULL);
}

#pragma weak MPI_Igatherv = PMPI_Igatherv
int PMPI_Igatherv(const void *sbuf, int scount, MPI_Datatype sdt, void *rbuf, const int rcounts[],
                  const int displs[], MPI_Datatype rdt, int root, MPI_Comm comm, MPI_Request *req)
{
    static const int none[1];
    RD_TRY(check_req("MPI_Igatherv", comm, req));
    return gather("MPI_Igatherv", sbuf, scount, sdt, rbuf, 0, rcounts ? rcounts : none, displs, rdt, root, comm,
                  NB(req));
}

static int scatter(const char *call, const void *sbuf, int scount, const int *scounts, const int *displs,
                   MPI_Datatype sdt, void *rbuf, int rcount, MPI_Datatype rdt, int root, MPI_Comm comm,
                   const struct how *how)
{
    RD_API_READY(call);
    RD_TRY(check_comm(call, comm));
    RD_TRY(check_root(call, comm, root));
    int at_root = is_root(comm, root), v = scounts != NULL;
    if (rbuf == MPI_IN_PLACE) {
        if (!at_root || comm->is_inter)
            return rd_err_raise(comm, MPI_ERR_BUFFER, call, "MPI_IN_PLACE is only allowed at the root");
    } else if (contributes(comm, root)) {
        RD_TRY(check_buf(call, comm, rbuf, rcount, rdt, "receive buffer"));
    }
    if (at_root) {
        if (v) {
            RD_TRY(check_counts(call, comm, scounts, displs, peers(comm), "send"));
            RD_TRY(check_type(call, comm, sdt, "send type"));
        } else {
            RD_TRY(check_buf(call, comm, sbuf, scount, sdt, "send buffer"));
        }
    }
    struct rd_coll_args a = {.comm = comm, .sbuf = sbuf, .scount = scount,
                             .sdt = at_root ? sdt : MPI_DATATYPE_NULL, .rbuf = rbuf, .rcount = rcount,
                             .rdt = rbuf == MPI_IN_PLACE || !contributes(comm, root) ? MPI_DATATYPE_NULL : rdt,
                             .scounts = scounts,
                             .sdispls = displs, .root = root};
    return run(call, v ? RD_COLL_SCATTERV : RD_COLL_SCATTER, &a, how);
}

#pragma weak MPI_Scatter = PMPI_Scatter
int PMPI_Scatter(const void *sbuf, int scount, MPI_Datatype sdt, void *rbuf, int rcount, MPI_Datatype rdt,
                 int root, MPI_Comm comm)
{
    return scatter("MPI_Scatter", sbuf, scount, NULL, NULL, sdt, rbuf, rcount, rdt, root, comm, NULL);
}

#pragma weak MPI_Iscatter = PMPI_Iscatter
int PMPI_Iscatter(const void *sbuf, int scount, MPI_Datatype sdt, void *rbuf, int rcount, MPI_Datatype rdt,
                  int root, MPI_Comm comm, MPI_Request *req)
{
    RD_TRY(check_req("MPI_Iscatter", comm, req));
    return scatter("MPI_Iscatter", sbuf, scount, NULL, NULL, sdt, rbuf, rcount, rdt, root, comm, NB(req));
}

#pragma weak MPI_Scatterv = PMPI_Scatterv
int PMPI_Scatterv(const void *sbuf, const int scounts[], const int displs[], MPI_Datatype sdt, void *rbuf,
                  int rcount, MPI_Datatype rdt, int root, MPI_Comm comm)
{
    static const int none[1];
    return scatter("MPI_Scatterv", sbuf, 0, scounts ? scounts : none, displs, sdt, rbuf, rcount, rdt, root,
                   comm, NULL);
}

#pragma weak MPI_Iscatterv = PMPI_Iscatterv
int PMPI_Iscatterv(const void *sbuf, const int scounts[], const int displs[], MPI_Datatype sdt, void *rbuf,
                   int rcount, MPI_Datatype rdt, int root, MPI_Comm comm, MPI_Request *req)
{
    static const int none[1];
    RD_TRY(check_req("MPI_Iscatterv", comm, req));
    return scatter("MPI_Iscatterv", sbuf, 0, scounts ? scounts : none, displs, sdt, rbuf, rcount, rdt, root,
                   comm, NB(req));
}

/* ------------------------------------------------------------ allgather, alltoall */

/* Number of in/out neighbours of this rank (neighbourhood collectives). */
static void degrees(MPI_Comm comm, int *in, int *out)
{
    if (comm->cart) {
        *in = *out = 2 * comm->cart->ndims;
    } else if (comm->graph) {
        *in = *out = comm->graph->index[comm->rank] - (comm->rank ? comm->graph->index[comm->rank - 1] : 0);
    } else {
        *in = comm->dgraph->indegree;
        *out = comm->dgraph->outdegree;
    }
}

static int allgather(const char *call, int kind, const void *sbuf, int scount, MPI_Datatype sdt, void *rbuf,
                     int rcount, const int *rcounts, const int *displs, MPI_Datatype rdt, MPI_Comm comm,
                     const struct how *how)
{
    RD_API_READY(call);
    RD_TRY(check_comm(call, comm));
    int nbr = kind == RD_COLL_NEIGHBOR_ALLGATHER || kind == RD_COLL_NEIGHBOR_ALLGATHERV;
    if (nbr)
        RD_TRY(check_topo(call, comm));
    if (sbuf == MPI_IN_PLACE && (nbr || comm->is_inter))
        return rd_err_raise(comm, MPI_ERR_BUFFER, call, "MPI_IN_PLACE is not allowed here");
    if (sbuf != MPI_IN_PLACE)
        RD_TRY(check_buf(call, comm, sbuf, scount, sdt, "send buffer"));
    if (rcounts) {
        int n = peers(comm);
        int nout;
        if (nbr)
            degrees(comm, &n, &nout);
        RD_TRY(check_counts(call, comm, rcounts, displs, n, "receive"));
        RD_TRY(check_type(call, comm, rdt, "receive type"));
    } else {
        RD_TRY(check_buf(call, comm, rbuf, rcount, rdt, "receive buffer"));
    }
    struct rd_coll_args a = {.comm = comm, .sbuf = sbuf, .scount = scount, .sdt = sdt, .rbuf = rbuf,
                             .rcount = rcount, .rdt = rdt, .rcounts = rcounts, .rdispls = displs};
    return run(call, kind, &a, how);
}

#pragma weak MPI_Allgather = PMPI_Allgather
int PMPI_Allgather(const void *sbuf, int scount, MPI_Datatype sdt, void *rbuf, int rcount, MPI_Datatype rdt,
                   MPI_Comm comm)
{
    int rc;
    if (short_blocks("MPI_Allgather", RD_COLL_ALLGATHER, sbuf, scount, sdt, rbuf, rcount, rdt, comm, &rc))
        return rc;
    return allgather("MPI_Allgather", RD_COLL_ALLGATHER, sbuf, scount, sdt, rbuf, rcount, NULL, NULL, rdt, comm,
                     NULL);
}

#pragma weak MPI_Iallgather = PMPI_Iallgather
int PMPI_Iallgather(const void *sbuf, int scount, MPI_Datatype sdt, void *rbuf, int rcount, MPI_Datatype rdt,
                    MPI_Comm comm, MPI_Request *req)
{
    RD_TRY(check_req("MPI_Iallgather", comm, req));
    return allgather("MPI_Iallgather", RD_COLL_ALLGATHER, sbuf, scount, sdt, rbuf, rcount, NULL, NULL, rdt, comm,
                     NB(req));
}

#pragma weak MPI_Allgatherv = PMPI_Allgatherv
int PMPI_Allgatherv(const void *sbuf, int scount, MPI_Datatype sdt, void *rbuf, const int rcounts[],
                    const int displs[], MPI_Datatype rdt, MPI_Comm comm)
{
    static const int none[1];
    return allgather("MPI_Allgatherv", RD_COLL_ALLGATHERV, sbuf, scount, sdt, rbuf, 0, rcounts ? rcounts : none,
                     displs, rdt, comm, NULL);
}

#pragma weak MPI_Iallgatherv = PMPI_Iallgatherv
int PMPI_Iallgatherv(const void *sbuf, int scount, MPI_Datatype sdt, void *rbuf, const int rcounts[],
                     const int displs[], MPI_Datatype rdt, MPI_Comm comm, MPI_Request *req)
{
    static const int none[1];
    RD_TRY(check_req("MPI_Iallgatherv", comm, req));
    return allgather("MPI_Iallgatherv", RD_COLL_ALLGATHERV, sbuf, scount, sdt, rbuf, 0,
                     rcounts ? rcounts : none, displs, rdt, comm, NB(req));
}

#pragma weak MPI_Neighbor_allgather = PMPI_Neighbor_allgather
int PMPI_Neighbor_allgather(const void *sbuf, int scount, MPI_Datatype sdt, void *rbuf, int rcount,
                            MPI_Datatype rdt, MPI_Comm comm)
{
    return allgather("MPI_Neighbor_allgather", RD_COLL_NEIGHBOR_ALLGATHER, sbuf, scount, sdt, rbuf, rcount, NULL,
                     NULL, rdt, comm, NULL);
}

#pragma weak MPI_Ineighbor_allgather = PMPI_Ineighbor_allgather
int PMPI_Ineighbor_allgather(const void *sbuf, int scount, MPI_Datatype sdt, void *rbuf, int rcount,
                             MPI_Datatype rdt, MPI_Comm comm, MPI_Request *req)
{
    RD_TRY(check_req("MPI_Ineighbor_allgather", comm, req));
    return allgather("MPI_Ineighbor_allgather", RD_COLL_NEIGHBOR_ALLGATHER, sbuf, scount, sdt, rbuf, rcount,
                     NULL, NULL, rdt, comm, NB(req));
}

#pragma weak MPI_Neighbor_allgatherv = PMPI_Neighbor_allgatherv
int PMPI_Neighbor_allgatherv(const void *sbuf, int scount, MPI_Datatype sdt, void *rbuf, const int rcounts[],
                             const int displs[], MPI_Datatype rdt, MPI_Comm comm)
{
    static const int none[1];
    return allgather("MPI_Neighbor_allgatherv", RD_COLL_NEIGHBOR_ALLGATHERV, sbuf, scount, sdt, rbuf, 0,
                     rcounts ? rcounts : none, displs, rdt, comm, NULL);
}

#pragma weak MPI_Ineighbor_allgatherv = PMPI_Ineighbor_allgatherv
int PMPI_Ineighbor_allgatherv(const void *sbuf, int scount, MPI_Datatype sdt, void *rbuf, const int rcounts[],
                              const int displs[], MPI_Datatype rdt, MPI_Comm comm, MPI_Request *req)
{
    static const int none[1];
    RD_TRY(check_req("MPI_Ineighbor_allgatherv", comm, req));
    return allgather("MPI_Ineighbor_allgatherv", RD_COLL_NEIGHBOR_ALLGATHERV, sbuf, scount, sdt, rbuf, 0,
                     rcounts ? rcounts : none, displs, rdt, comm, NB(req));
}

/* Alltoall in all its forms: block (counts NULL), v (counts, displs,
 * one type each side) and w (types arrays; displs in bytes, int or Aint). */
struct a2a {
    const void *sbuf;
    int scount;
    const int *scounts, *sdispls;
    const MPI_Aint *sadispls;
    MPI_Datatype sdt;
    const MPI_Datatype *sdts;
    void *rbuf;
    int rcount;
    const int *rcounts, *rdispls;
    const MPI_Aint *radispls;
    MPI_Datatype rdt;
    const MPI_Datatype *rdts;
};

static int check_side(const char *call, MPI_Comm comm, int n, const void *buf, int count, const int *counts,
                      const void *displs, MPI_Datatype dt, const MPI_Datatype *dts, const char *what)
{
    if (!counts)
        return check_buf(call, comm, buf, count, dt, what);
    RD_TRY(check_counts(call, comm, counts, displs, n, what));
    if (dts) {
        for (int i = 0; i < n; i++)
            RD_TRY(check_type(call, comm, dts[i], what));
    } else {
        RD_TRY(check_type(call, comm, dt, what));
    }
    return MPI_SUCCESS;
}

static int alltoall(const char *call, int kind, const struct a2a *x, MPI_Comm comm, const struct how *how)
{
    RD_API_READY(call);
    RD_TRY(check_comm(call, comm));
    int nbr = kind >= RD_COLL_NEIGHBOR_ALLTOALL, nin = peers(comm), nout = peers(comm);
    if (nbr) {
        RD_TRY(check_topo(call, comm));
        degrees(comm, &nin, &nout);
    }
    int w = x->sdts != NULL || x->rdts != NULL;
    if ((x->sdts == NULL) != (x->rdts == NULL) && x->sbuf != MPI_IN_PLACE)
        return rd_err_raise(comm, MPI_ERR_ARG, call, "datatype array is NULL");
    if (x->sbuf == MPI_IN_PLACE) {
        if (nbr || comm->is_inter)
            return rd_err_raise(comm, MPI_ERR_BUFFER, call, "MPI_IN_PLACE is not allowed here");
    } else {
        const void *sd = x->sadispls ? (const void *)x->sadispls : (const void *)x->sdispls;
        RD_TRY(check_side(call, comm, nout, x->sbuf, x->scount, x->scounts, sd, x->sdt, w ? x->sdts : NULL,
                          "send buffer"));
    }
    const void *rd = x->radispls ? (const void *)x->radispls : (const void *)x->rdispls;
    RD_TRY(check_side(call, comm, nin, x->rbuf, x->rcount, x->rcounts, rd, x->rdt, w ? x->rdts : NULL,
                      "receive buffer"));
    struct rd_coll_args a = {.comm = comm, .sbuf = x->sbuf, .scount = x->scount, .sdt = x->sdt,
                             .rbuf = x->rbuf, .rcount = x->rcount, .rdt = x->rdt, .scounts = x->scounts,
                             .sdispls = x->sdispls, .rcounts = x->rcounts, .rdispls = x->rdispls,
                             .sdts = x->sdts, .rdts = x->rdts, .sadispls = x->sadispls,
                             .radispls = x->radispls};
    return run(call, kind, &a, how);
}

#pragma weak MPI_Alltoall = PMPI_Alltoall
int PMPI_Alltoall(const void *sbuf, int scount, MPI_Datatype sdt, void *rbuf, int rcount, MPI_Datatype rdt,
                  MPI_Comm comm)
{
    int rc;
    if (short_blocks("MPI_Alltoall", RD_COLL_ALLTOALL, sbuf, scount, sdt, rbuf, rcount, rdt, comm, &rc))
        return rc;
    struct a2a x = {.sbuf = sbuf, .scount = scount, .sdt = sdt, .rbuf = rbuf, .rcount = rcount, .rdt = rdt};
    return alltoall("MPI_Alltoall", RD_COLL_ALLTOALL, &x, comm, NULL);
}

#pragma weak MPI_Ialltoall = PMPI_Ialltoall
int PMPI_Ialltoall(const void *sbuf, int scount, MPI_Datatype sdt, void *rbuf, int rcount, MPI_Datatype rdt,
                   MPI_Comm comm, MPI_Request *req)
{
    struct a2a x = {.sbuf = sbuf, .scount = scount, .sdt = sdt, .rbuf = rbuf, .rcount = rcount, .rdt = rdt};
    RD_TRY(check_req("MPI_Ialltoall", comm, req));
    return alltoall("MPI_Ialltoall", RD_COLL_ALLTOALL, &x, comm, NB(req));
}

#define A2AV_ARGS                                                                      \
    const void *sbuf, const int scounts[], const int sdispls[], MPI_Datatype sdt, void *rbuf, \
        const int rcounts[], const int rdispls[], MPI_Datatype rdt, MPI_Comm comm
#define A2AV_INIT                                                                      \
    static const int none[1];                                                          \
    struct a2a x = {.sbuf = sbuf, .scounts = scounts ? scounts : none, .sdispls = sdispls, .sdt = sdt,   \
                    .rbuf = rbuf, .rcounts = rcounts ? rcounts : none, .rdispls = rdispls, .rdt = rdt}

#pragma weak MPI_Alltoallv = PMPI_Alltoallv
int PMPI_Alltoallv(A2AV_ARGS)
{
    A2AV_INIT;
    return alltoall("MPI_Alltoallv", RD_COLL_ALLTOALLV, &x, comm, NULL);
}

#pragma weak MPI_Ialltoallv = PMPI_Ialltoallv
int PMPI_Ialltoallv(A2AV_ARGS, MPI_Request *req)
{
    A2AV_INIT;
    RD_TRY(check_req("MPI_Ialltoallv", comm, req));
    return alltoall("MPI_Ialltoallv", RD_COLL_ALLTOALLV, &x, comm, NB(req));
}

#pragma weak MPI_Neighbor_alltoallv = PMPI_Neighbor_alltoallv
int PMPI_Neighbor_alltoallv(A2AV_ARGS)
{
    A2AV_INIT;
    return alltoall("MPI_Neighbor_alltoallv", RD_COLL_NEIGHBOR_ALLTOALLV, &x, comm, NULL);
}

#pragma weak MPI_Ineighbor_alltoallv = PMPI_Ineighbor_alltoallv
int PMPI_Ineighbor_alltoallv(A2AV_ARGS, MPI_Request *req)
{
    A2AV_INIT;
    RD_TRY(check_req("MPI_Ineighbor_alltoallv", comm, req));
    return alltoall("MPI_Ineighbor_alltoallv", RD_COLL_NEIGHBOR_ALLTOALLV, &x, comm, NB(req));
}

#define A2AW_ARGS(D)                                                                   \
    const void *sbuf, const int scounts[], const D sdispls[], const MPI_Datatype sdts[], void *rbuf, \
        const int rcounts[], const D rdispls[], const MPI_Datatype rdts[], MPI_Comm comm
#pragma weak MPI_Alltoallw = PMPI_Alltoallw
int PMPI_Alltoallw(A2AW_ARGS(int))
{
    static const int none[1];
    static const MPI_Datatype nonet[1] = {MPI_BYTE};
    struct a2a x = {.sbuf = sbuf, .scounts = scounts ? scounts : none, .sdispls = sdispls,
                    .sdts = sdts ? sdts : nonet, .rbuf = rbuf, .rcounts = rcounts ? rcounts : none,
                    .rdispls = rdispls, .rdts = rdts ? rdts : nonet};
    return alltoall("MPI_Alltoallw", RD_COLL_ALLTOALLW, &x, comm, NULL);
}

#pragma weak MPI_Ialltoallw = PMPI_Ialltoallw
int PMPI_Ialltoallw(A2AW_ARGS(int), MPI_Request *req)
{
    static const int none[1];
    static const MPI_Datatype nonet[1] = {MPI_BYTE};
    struct a2a x = {.sbuf = sbuf, .scounts = scounts ? scounts : none, .sdispls = sdispls,
                    .sdts = sdts ? sdts : nonet, .rbuf = rbuf, .rcounts = rcounts ? rcounts : none,
                    .rdispls = rdispls, .rdts = rdts ? rdts : nonet};
    RD_TRY(check_req("MPI_Ialltoallw", comm, req));
    return alltoall("MPI_Ialltoallw", RD_COLL_ALLTOALLW, &x, comm, NB(req));
}

#pragma weak MPI_Neighbor_alltoallw = PMPI_Neighbor_alltoallw
int PMPI_Neighbor_alltoallw(A2AW_ARGS(MPI_Aint))
{
    static const int none[1];
    static const MPI_Datatype nonet[1] = {MPI_BYTE};
    struct a2a x = {.sbuf = sbuf, .scounts = scounts ? scounts : none, .sadispls = sdispls,
                    .sdts = sdts ? sdts : nonet, .rbuf = rbuf, .rcounts = rcounts ? rcounts : none,
                    .radispls = rdispls, .rdts = rdts ? rdts : nonet};
    return alltoall("MPI_Neighbor_alltoallw", RD_COLL_NEIGHBOR_ALLTOALLW, &x, comm, NULL);
}

#pragma weak MPI_Ineighbor_alltoallw = PMPI_Ineighbor_alltoallw
int PMPI_Ineighbor_alltoallw(A2AW_ARGS(MPI_Aint), MPI_Request *req)
{
    static const int none[1];
    static const MPI_Datatype nonet[1] = {MPI_BYTE};
    struct a2a x = {.sbuf = sbuf, .scounts = scounts ? scounts : none, .sadispls = sdispls,
                    .sdts = sdts ? sdts : nonet, .rbuf = rbuf, .rcounts = rcounts ? rcounts : none,
                    .radispls = rdispls, .rdts = rdts ? rdts : nonet};
    RD_TRY(check_req("MPI_Ineighbor_alltoallw", comm, req));
    return alltoall("MPI_Ineighbor_alltoallw", RD_COLL_NEIGHBOR_ALLTOALLW, &x, comm, NB(req));
}

#pragma weak MPI_Neighbor_alltoall = PMPI_Neighbor_alltoall
int PMPI_Neighbor_alltoall(const void *sbuf, int scount, MPI_Datatype sdt, void *rbuf, int rcount,
                           MPI_Datatype rdt, MPI_Comm comm)
{
    struct a2a x = {.sbuf = sbuf, .scount = scount, .sdt = sdt, .rbuf = rbuf, .rcount = rcount, .rdt = rdt};
    return alltoall("MPI_Neighbor_alltoall", RD_COLL_NEIGHBOR_ALLTOALL, &x, comm, NULL);
}

#pragma weak MPI_Ineighbor_alltoall = PMPI_Ineighbor_alltoall
int PMPI_Ineighbor_alltoall(const void *sbuf, int scount, MPI_Datatype sdt, void *rbuf, int rcount,
                            MPI_Datatype rdt, MPI_Comm comm, MPI_Request *req)
{
    struct a2a x = {.sbuf = sbuf, .scount = scount, .sdt = sdt, .rbuf = rbuf, .rcount = rcount, .rdt = rdt};
    RD_TRY(check_req("MPI_Ineighbor_alltoall", comm, req));
    return alltoall("MPI_Ineighbor_alltoall", RD_COLL_NEIGHBOR_ALLTOALL, &x, comm, NB(req));
}

/* ------------------------------------------------------------ persistent */

/* The inits check what the nonblocking calls check, and the info (no
 * hint of theirs is read yet); the algorithm and its schedule are chosen
 * and built once (run: PERSISTENT), and every MPI_Start runs them. */
static int check_init(const char *call, MPI_Comm comm, MPI_Info info, MPI_Request *req)
{
    RD_TRY(check_req(call, comm, req));
    if (info != MPI_INFO_NULL && !rd_info_valid(info))
        return rd_err_raise(comm, MPI_ERR_INFO, call, "invalid info");
    return MPI_SUCCESS;
}

#pragma weak MPI_Barrier_init = PMPI_Barrier_init
int PMPI_Barrier_init(MPI_Comm comm, MPI_Info info, MPI_Request *req)
{
    RD_TRY(check_init("MPI_Barrier_init", comm, info, req));
    return barrier("MPI_Barrier_init", comm, PERSISTENT(req));
}

#pragma weak MPI_Bcast_init = PMPI_Bcast_init
int PMPI_Bcast_init(void *buf, int count, MPI_Datatype dt, int root, MPI_Comm comm, MPI_Info info, MPI_Request *req)
{
    RD_TRY(check_init("MPI_Bcast_init", comm, info, req));
    return bcast("MPI_Bcast_init", buf, count, dt, root, comm, PERSISTENT(req));
}

#pragma weak MPI_Reduce_init = PMPI_Reduce_init
int PMPI_Reduce_init(const void *sbuf, void *rbuf, int count, MPI_Datatype dt, MPI_Op op, int root, MPI_Comm comm,
                     MPI_Info info, MPI_Request *req)
{
    RD_TRY(check_init("MPI_Reduce_init", comm, info, req));
    return reduce("MPI_Reduce_init", sbuf, rbuf, count, dt, op, root, comm, PERSISTENT(req));
}

#pragma weak MPI_Allreduce_init = PMPI_Allreduce_init
int PMPI_Allreduce_init(const void *sbuf, void *rbuf, int count, MPI_Datatype dt, MPI_Op op, MPI_Comm comm,
                        MPI_Info info, MPI_Request *req)
{
    RD_TRY(check_init("MPI_Allreduce_init", comm, info, req));
    return allred("MPI_Allreduce_init", RD_COLL_ALLREDUCE, sbuf, rbuf, count, dt, op, comm, PERSISTENT(req));
}

#pragma weak MPI_Scan_init = PMPI_Scan_init
int PMPI_Scan_init(const void *sbuf, void *rbuf, int count, MPI_Datatype dt, MPI_Op op, MPI_Comm comm, MPI_Info info,
                   MPI_Request *req)
{
    RD_TRY(check_init("MPI_Scan_init", comm, info, req));
    return allred("MPI_Scan_init", RD_COLL_SCAN, sbuf, rbuf, count, dt, op, comm, PERSISTENT(req));
}

#pragma weak MPI_Exscan_init = PMPI_Exscan_init
int PMPI_Exscan_init(const void *sbuf, void *rbuf, int count, MPI_Datatype dt, MPI_Op op, MPI_Comm comm, MPI_Info info,
                     MPI_Request *req)
{
    RD_TRY(check_init("MPI_Exscan_init", comm, info, req));
    return allred("MPI_Exscan_init", RD_COLL_EXSCAN, sbuf, rbuf, count, dt, op, comm, PERSISTENT(req));
}

#pragma weak MPI_Reduce_scatter_init = PMPI_Reduce_scatter_init
int PMPI_Reduce_scatter_init(const void *sbuf, void *rbuf, const int rcounts[], MPI_Datatype dt, MPI_Op op,
                             MPI_Comm comm, MPI_Info info, MPI_Request *req)
{
    RD_TRY(check_init("MPI_Reduce_scatter_init", comm, info, req));
    if (!rcounts && rd_comm_valid(comm))
        return rd_err_raise(comm, MPI_ERR_ARG, "MPI_Reduce_scatter_init", "recvcounts is NULL");
    return redscat("MPI_Reduce_scatter_init", sbuf, rbuf, rcounts, 0, dt, op, comm, PERSISTENT(req));
}

#pragma weak MPI_Reduce_scatter_block_init = PMPI_Reduce_scatter_block_init
int PMPI_Reduce_scatter_block_init(const void *sbuf, void *rbuf, int rcount, MPI_Datatype dt, MPI_Op op, MPI_Comm comm,
                                   MPI_Info info, MPI_Request *req)
{
    RD_TRY(check_init("MPI_Reduce_scatter_block_init", comm, info, req));
    return redscat("MPI_Reduce_scatter_block_init", sbuf, rbuf, NULL, rcount, dt, op, comm, PERSISTENT(req));
}

#pragma weak MPI_Gather_init = PMPI_Gather_init
int PMPI_Gather_init(const void *sbuf, int scount, MPI_Datatype sdt, void *rbuf, int rcount, MPI_Datatype rdt, int root,
                     MPI_Comm comm, MPI_Info info, MPI_Request *req)
{
    RD_TRY(check_init("MPI_Gather_init", comm, info, req));
    return gather("MPI_Gather_init", sbuf, scount, sdt, rbuf, rcount, NULL, NULL, rdt, root, comm, PERSISTENT(req));
}

#pragma weak MPI_Gatherv_init = PMPI_Gatherv_init
int PMPI_Gatherv_init(const void *sbuf, int scount, MPI_Datatype sdt, void *rbuf, const int rcounts[],
                      const int displs[], MPI_Datatype rdt, int root, MPI_Comm comm, MPI_Info info, MPI_Request *req)
{
    static const int none[1];
    RD_TRY(check_init("MPI_Gatherv_init", comm, info, req));
    return gather("MPI_Gatherv_init", sbuf, scount, sdt, rbuf, 0, rcounts ? rcounts : none, displs, rdt, root, comm,
                  PERSISTENT(req));
}

#pragma weak MPI_Scatter_init = PMPI_Scatter_init
int PMPI_Scatter_init(const void *sbuf, int scount, MPI_Datatype sdt, void *rbuf, int rcount, MPI_Datatype rdt,
                      int root, MPI_Comm comm, MPI_Info info, MPI_Request *req)
{
    RD_TRY(check_init("MPI_Scatter_init", comm, info, req));
    return scatter("MPI_Scatter_init", sbuf, scount, NULL, NULL, sdt, rbuf, rcount, rdt, root, comm, PERSISTENT(req));
}

#pragma weak MPI_Scatterv_init = PMPI_Scatterv_init
int PMPI_Scatterv_init(const void *sbuf, const int scounts[], const int displs[], MPI_Datatype sdt, void *rbuf,
                       int rcount, MPI_Datatype rdt, int root, MPI_Comm comm, MPI_Info info, MPI_Request *req)
{
    static const int none[1];
    RD_TRY(check_init("MPI_Scatterv_init", comm, info, req));
    return scatter("MPI_Scatterv_init", sbuf, 0, scounts ? scounts : none, displs, sdt, rbuf, rcount, rdt, root,
                   comm, PERSISTENT(req));
}

#pragma weak MPI_Allgather_init = PMPI_Allgather_init
int PMPI_Allgather_init(const void *sbuf, int scount, MPI_Datatype sdt, void *rbuf, int rcount, MPI_Datatype rdt,
                        MPI_Comm comm, MPI_Info info, MPI_Request *req)
{
    RD_TRY(check_init("MPI_Allgather_init", comm, info, req));
    return allgather("MPI_Allgather_init", RD_COLL_ALLGATHER, sbuf, scount, sdt, rbuf, rcount, NULL, NULL, rdt, comm,
                     PERSISTENT(req));
}

#pragma weak MPI_Allgatherv_init = PMPI_Allgatherv_init
int PMPI_Allgatherv_init(const void *sbuf, int scount, MPI_Datatype sdt, void *rbuf, const int rcounts[],
                         const int displs[], MPI_Datatype rdt, MPI_Comm comm, MPI_Info info, MPI_Request *req)
{
    static const int none[1];
    RD_TRY(check_init("MPI_Allgatherv_init", comm, info, req));
    return allgather("MPI_Allgatherv_init", RD_COLL_ALLGATHERV, sbuf, scount, sdt, rbuf, 0,
                     rcounts ? rcounts : none, displs, rdt, comm, PERSISTENT(req));
}

#pragma weak MPI_Neighbor_allgather_init = PMPI_Neighbor_allgather_init
int PMPI_Neighbor_allgather_init(const void *sbuf, int scount, MPI_Datatype sdt, void *rbuf, int rcount,
                                 MPI_Datatype rdt, MPI_Comm comm, MPI_Info info, MPI_Request *req)
{
    RD_TRY(check_init("MPI_Neighbor_allgather_init", comm, info, req));
    return allgather("MPI_Neighbor_allgather_init", RD_COLL_NEIGHBOR_ALLGATHER, sbuf, scount, sdt, rbuf, rcount,
                     NULL, NULL, rdt, comm, PERSISTENT(req));
}

#pragma weak MPI_Neighbor_allgatherv_init = PMPI_Neighbor_allgatherv_init
int PMPI_Neighbor_allgatherv_init(const void *sbuf, int scount, MPI_Datatype sdt, void *rbuf, const int rcounts[],
                                  const int displs[], MPI_Datatype rdt, MPI_Comm comm, MPI_Info info, MPI_Request *req)
{
    static const int none[1];
    RD_TRY(check_init("MPI_Neighbor_allgatherv_init", comm, info, req));
    return allgather("MPI_Neighbor_allgatherv_init", RD_COLL_NEIGHBOR_ALLGATHERV, sbuf, scount, sdt, rbuf, 0,
                     rcounts ? rcounts : none, displs, rdt, comm, PERSISTENT(req));
}

#pragma weak MPI_Alltoall_init = PMPI_Alltoall_init
int PMPI_Alltoall_init(const void *sbuf, int scount, MPI_Datatype sdt, void *rbuf, int rcount, MPI_Datatype rdt,
                       MPI_Comm comm, MPI_Info info, MPI_Request *req)
{
    struct a2a x = {.sbuf = sbuf, .scount = scount, .sdt = sdt, .rbuf = rbuf, .rcount = rcount, .rdt = rdt};
    RD_TRY(check_init("MPI_Alltoall_init", comm, info, req));
    return alltoall("MPI_Alltoall_init", RD_COLL_ALLTOALL, &x, comm, PERSISTENT(req));
}

#pragma weak MPI_Alltoallv_init = PMPI_Alltoallv_init
int PMPI_Alltoallv_init(A2AV_ARGS, MPI_Info info, MPI_Request *req)
{
    A2AV_INIT;
    RD_TRY(check_init("MPI_Alltoallv_init", comm, info, req));
    return alltoall("MPI_Alltoallv_init", RD_COLL_ALLTOALLV, &x, comm, PERSISTENT(req));
}

#pragma weak MPI_Neighbor_alltoallv_init = PMPI_Neighbor_alltoallv_init
int PMPI_Neighbor_alltoallv_init(A2AV_ARGS, MPI_Info info, MPI_Request *req)
{
    A2AV_INIT;
    RD_TRY(check_init("MPI_Neighbor_alltoallv_init", comm, info, req));
    return alltoall("MPI_Neighbor_alltoallv_init", RD_COLL_NEIGHBOR_ALLTOALLV, &x, comm, PERSISTENT(req));
}

#pragma weak MPI_Alltoallw_init = PMPI_Alltoallw_init
int PMPI_Alltoallw_init(A2AW_ARGS(int), MPI_Info info, MPI_Request *req)
{
    static const int none[1];
    static const MPI_Datatype nonet[1] = {MPI_BYTE};
    struct a2a x = {.sbuf = sbuf, .scounts = scounts ? scounts : none, .sdispls = sdispls,
                    .sdts = sdts ? sdts : nonet, .rbuf = rbuf, .rcounts = rcounts ? rcounts : none,
                    .rdispls = rdispls, .rdts = rdts ? rdts : nonet};
    RD_TRY(check_init("MPI_Alltoallw_init", comm, info, req));
    return alltoall("MPI_Alltoallw_init", RD_COLL_ALLTOALLW, &x, comm, PERSISTENT(req));
}

#pragma weak MPI_Neighbor_alltoallw_init = PMPI_Neighbor_alltoallw_init
int PMPI_Neighbor_alltoallw_init(A2AW_ARGS(MPI_Aint), MPI_Info info, MPI_Request *req)
{
    static const int none[1];
    static const MPI_Datatype nonet[1] = {MPI_BYTE};
    struct a2a x = {.sbuf = sbuf, .scounts = scounts ? scounts : none, .sadispls = sdispls,
                    .sdts = sdts ? sdts : nonet, .rbuf = rbuf, .rcounts = rcounts ? rcounts : none,
                    .radispls = rdispls, .rdts = rdts ? rdts : nonet};
    RD_TRY(check_init("MPI_Neighbor_alltoallw_init", comm, info, req));
    return alltoall("MPI_Neighbor_alltoallw_init", RD_COLL_NEIGHBOR_ALLTOALLW, &x, comm, PERSISTENT(req));
}

#pragma weak MPI_Neighbor_alltoall_init = PMPI_Neighbor_alltoall_init
int PMPI_Neighbor_alltoall_init(const void *sbuf, int scount, MPI_Datatype sdt, void *rbuf, int rcount,
                                MPI_Datatype rdt, MPI_Comm comm, MPI_Info info, MPI_Request *req)
{
    struct a2a x = {.sbuf = sbuf, .scount = scount, .sdt = sdt, .rbuf = rbuf, .rcount = rcount, .rdt = rdt};
    RD_TRY(check_init("MPI_Neighbor_alltoall_init", comm, info, req));
    return alltoall("MPI_Neighbor_alltoall_init", RD_COLL_NEIGHBOR_ALLTOALL, &x, comm, PERSISTENT(req));
}

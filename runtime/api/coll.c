/* Collectives: argument checks, then one schedule per call
 * (collectives/). Blocking and nonblocking forms share everything but the
 * last step: run the schedule, or start it and hand back a request. */
#include <mpi.h>
#include <stdint.h>

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

/* Whether n blocks of count (>= 0) elements of dt make fewer than 2^63
 * bytes (a large count, or an int count of a huge type, may not): the
 * checks' MPI_ERR_COUNT, and the short ways' test before they skip them. */
static inline int bytes_fit(MPI_Count count, MPI_Datatype dt, int n)
{
    int64_t bytes;
    return !__builtin_mul_overflow(count, (int64_t)dt->size, &bytes) &&
           !__builtin_mul_overflow(bytes, (int64_t)n, &bytes);
}

static int check_buf(const char *call, MPI_Comm comm, const void *buf, MPI_Count count, MPI_Datatype dt,
                     const char *what)
{
    if (count < 0)
        return rd_err_raise(comm, MPI_ERR_COUNT, call, "%s count %lld is negative", what, count);
    RD_TRY(check_type(call, comm, dt, what));
    if (buf == MPI_IN_PLACE)
        return rd_err_raise(comm, MPI_ERR_BUFFER, call, "MPI_IN_PLACE is not allowed as the %s", what);
    if (!buf && count > 0 && dt->size > 0 && dt->true_lb == 0)
        return rd_err_raise(comm, MPI_ERR_BUFFER, call, "%s is NULL for %lld elements", what, count);
    if (!bytes_fit(count, dt, 1))
        return rd_err_raise(comm, MPI_ERR_COUNT, call, "%s: %lld elements of %s are more than 2^63 bytes", what,
                            count, dt->name);
    return MPI_SUCCESS;
}

/* A block form's buffer of count elements of dt per rank: the algorithms
 * move and allocate up to as many blocks as the communicator has ranks
 * (a subtree's, a root's whole buffer, the node's areas), so their bytes
 * must stay under 2^63 (dt valid; a correct program's do: some root's
 * buffer holds them all). */
static int check_blocks(const char *call, MPI_Comm comm, MPI_Count count, MPI_Datatype dt, const char *what)
{
    int n = comm->size > comm->remote_size ? comm->size : comm->remote_size;
    if (!bytes_fit(count, dt, n))
        return rd_err_raise(comm, MPI_ERR_COUNT, call, "%s: %d blocks of %lld elements of %s pass 2^63 bytes", what, n,
                            count, dt->name);
    return MPI_SUCCESS;
}

/* counts: MPI_Counts when wide (a `_c` call), else ints */
static int check_counts(const char *call, MPI_Comm comm, const void *counts, int wide, const void *displs,
                        int n, const char *what)
{
    if (n > 0 && (!counts || !displs))
        return rd_err_raise(comm, MPI_ERR_ARG, call, "%s counts or displacements array is NULL", what);
    for (int i = 0; i < n; i++)
        if (rd_count_at(counts, wide, i) < 0)
            return rd_err_raise(comm, MPI_ERR_COUNT, call, "%s count %lld (of rank %d) is negative", what,
                                rd_count_at(counts, wide, i), i);
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
static int check_alias(const char *call, MPI_Comm comm, const void *sbuf, const void *rbuf, MPI_Count count)
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
static int short_blocks(const char *call, int kind, const void *sbuf, MPI_Count scount, MPI_Datatype sdt,
                        void *rbuf, MPI_Count rcount, MPI_Datatype rdt, MPI_Comm comm, int *rc)
{
    struct rd_coll_args a = {.comm = comm, .sbuf = sbuf, .scount = scount, .sdt = sdt, .rbuf = rbuf,
                             .rcount = rcount, .rdt = rdt};
    return scount > 0 && rcount > 0 && sbuf && rbuf && sbuf != MPI_IN_PLACE && rbuf != MPI_IN_PLACE &&
           on_node(comm) && plain_type(sdt) && plain_type(rdt) && bytes_fit(scount, sdt, comm->size) &&
           bytes_fit(rcount, rdt, comm->size) && short_way(call, kind, &a, rc);
}

/* ------------------------------------------------------------ entry points
 *
 * Every collective but the barrier comes in six entry points: blocking,
 * nonblocking, persistent, and the three large-count `_c` forms. One
 * common function per family serves all six: it takes MPI_Count counts,
 * and per-rank arrays as `const void *` with a flag that says whether
 * they hold ints or MPI_Counts (displacements: ints or MPI_Aints), which
 * the algorithms read through rd_count_at / rd_displ_at
 * (collectives/algorithms.h). The macros below make the entry points of
 * one form (suffix S: empty or _c) from the family's parameter list and
 * the call of its common function, CALL(name, how). */

#define RD_STR(x) #x
#define RD_WEAK(NAME) _Pragma(RD_STR(weak MPI_##NAME = PMPI_##NAME))
#define RD_PARAMS(...) __VA_ARGS__

/* The nonblocking and persistent forms of NAME (INAME: its nonblocking
 * name, MPI_Ineighbor_... for MPI_Neighbor_...). */
#define RD_COLL_NB_FORMS(NAME, INAME, S, PARAMS, CALL)                                                    \
    RD_WEAK(INAME##S)                                                                                     \
    int PMPI_##INAME##S(RD_PARAMS PARAMS, MPI_Request *req)                                               \
    {                                                                                                     \
        RD_TRY(check_req("MPI_" #INAME #S, comm, req));                                                   \
        return CALL("MPI_" #INAME #S, NB(req));                                                           \
    }                                                                                                     \
    RD_WEAK(NAME##_init##S)                                                                               \
    int PMPI_##NAME##_init##S(RD_PARAMS PARAMS, MPI_Info info, MPI_Request *req)                          \
    {                                                                                                     \
        RD_TRY(check_init("MPI_" #NAME "_init" #S, comm, info, req));                                     \
        return CALL("MPI_" #NAME "_init" #S, PERSISTENT(req));                                            \
    }

/* All three forms, the blocking one without a short way. */
#define RD_COLL_FORMS(NAME, INAME, S, PARAMS, CALL)                                                       \
    RD_WEAK(NAME##S)                                                                                      \
    int PMPI_##NAME##S(RD_PARAMS PARAMS) { return CALL("MPI_" #NAME #S, NULL); }                          \
    RD_COLL_NB_FORMS(NAME, INAME, S, PARAMS, CALL)

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

/* ------------------------------------------------------------ barrier */

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

#pragma weak MPI_Barrier_init = PMPI_Barrier_init
int PMPI_Barrier_init(MPI_Comm comm, MPI_Info info, MPI_Request *req)
{
    RD_TRY(check_init("MPI_Barrier_init", comm, info, req));
    return barrier("MPI_Barrier_init", comm, PERSISTENT(req));
}

/* ------------------------------------------------------------ bcast */

static int bcast(const char *call, void *buf, MPI_Count count, MPI_Datatype dt, int root, MPI_Comm comm,
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

#define BCAST_CALL(call, how) bcast(call, buf, count, dt, root, comm, how)
#define BCAST_ENTRIES(S, C)                                                                               \
    RD_WEAK(Bcast##S)                                                                                     \
    int PMPI_Bcast##S(void *buf, C count, MPI_Datatype dt, int root, MPI_Comm comm)                       \
    {                                                                                                     \
        int rc;                                                                                           \
        struct rd_coll_args a = {.comm = comm, .rbuf = buf, .count = count, .dt = dt, .root = root};      \
        if (count > 0 && buf && on_node(comm) && root >= 0 && root < comm->size && plain_type(dt) &&      \
            bytes_fit(count, dt, 1) && short_way("MPI_Bcast" #S, RD_COLL_BCAST, &a, &rc)) \
            return rc;                                                                                    \
        return BCAST_CALL("MPI_Bcast" #S, NULL);                                                          \
    }                                                                                                     \
    RD_COLL_NB_FORMS(Bcast, Ibcast, S, (void *buf, C count, MPI_Datatype dt, int root, MPI_Comm comm),    \
                     BCAST_CALL)
BCAST_ENTRIES(, int)
BCAST_ENTRIES(_c, MPI_Count)

/* ------------------------------------------------------------ reductions */

/* The checks of the reduction family; in_place_ok: where MPI_IN_PLACE may
 * stand for sendbuf. */
static int reduction_args(const char *call, const void *sbuf, void *rbuf, MPI_Count count, MPI_Datatype dt,
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
        return rd_err_raise(comm, MPI_ERR_COUNT, call, "count %lld is negative", count);
    }
    return check_op(call, comm, op, dt);
}

static int reduce(const char *call, const void *sbuf, void *rbuf, MPI_Count count, MPI_Datatype dt, MPI_Op op,
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

#define REDUCE_CALL(call, how) reduce(call, sbuf, rbuf, count, dt, op, root, comm, how)
#define REDUCE_PARAMS(C) (const void *sbuf, void *rbuf, C count, MPI_Datatype dt, MPI_Op op, int root, MPI_Comm comm)
RD_COLL_FORMS(Reduce, Ireduce, , REDUCE_PARAMS(int), REDUCE_CALL)
RD_COLL_FORMS(Reduce, Ireduce, _c, REDUCE_PARAMS(MPI_Count), REDUCE_CALL)

/* Allreduce, Scan, Exscan */
static int allred(const char *call, int kind, const void *sbuf, void *rbuf, MPI_Count count, MPI_Datatype dt,
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

#define ALLRED_PARAMS(C) (const void *sbuf, void *rbuf, C count, MPI_Datatype dt, MPI_Op op, MPI_Comm comm)
#define ALLREDUCE_CALL(call, how) allred(call, RD_COLL_ALLREDUCE, sbuf, rbuf, count, dt, op, comm, how)
#define SCAN_CALL(call, how) allred(call, RD_COLL_SCAN, sbuf, rbuf, count, dt, op, comm, how)
#define EXSCAN_CALL(call, how) allred(call, RD_COLL_EXSCAN, sbuf, rbuf, count, dt, op, comm, how)

/* A small Allreduce of a node's ranks is where codes wait most, and its
 * own instructions were half its time on 2 ranks: with arguments that are
 * plainly valid it skips the checks (anything else, errors included,
 * takes the general way, which comes to the same table; an op not
 * defined on dt is found there, collectives/shmcoll.c). Only what the
 * reductions' paths read is set (comm, buffers, count, dt, op, root:
 * collectives/algorithms.h); zeroing the whole struct was 20 of its
 * instructions. */
#define ALLREDUCE_ENTRIES(S, C)                                                                           \
    RD_WEAK(Allreduce##S)                                                                                 \
    int PMPI_Allreduce##S(const void *sbuf, void *rbuf, C count, MPI_Datatype dt, MPI_Op op, MPI_Comm comm) \
    {                                                                                                     \
        if (count > 0 && sbuf && rbuf && sbuf != rbuf && rbuf != MPI_IN_PLACE && on_node(comm) &&         \
            plain_type(dt) && bytes_fit(count, dt, 1) && rd_op_valid(op)) {                                \
            int rc;                                                                                       \
            struct rd_coll_args a;                                                                        \
            a.comm = comm;                                                                                \
            a.sbuf = sbuf;                                                                                \
            a.rbuf = rbuf;                                                                                \
            a.count = count;                                                                              \
            a.dt = dt;                                                                                    \
            a.op = op;                                                                                    \
            a.root = 0;                                                                                   \
            if (short_way("MPI_Allreduce" #S, RD_COLL_ALLREDUCE, &a, &rc))                                \
                return rc;                                                                                \
        }                                                                                                 \
        return ALLREDUCE_CALL("MPI_Allreduce" #S, NULL);                                                  \
    }                                                                                                     \
    RD_COLL_NB_FORMS(Allreduce, Iallreduce, S, ALLRED_PARAMS(C), ALLREDUCE_CALL)
ALLREDUCE_ENTRIES(, int)
ALLREDUCE_ENTRIES(_c, MPI_Count)
RD_COLL_FORMS(Scan, Iscan, , ALLRED_PARAMS(int), SCAN_CALL)
RD_COLL_FORMS(Scan, Iscan, _c, ALLRED_PARAMS(MPI_Count), SCAN_CALL)
RD_COLL_FORMS(Exscan, Iexscan, , ALLRED_PARAMS(int), EXSCAN_CALL)
RD_COLL_FORMS(Exscan, Iexscan, _c, ALLRED_PARAMS(MPI_Count), EXSCAN_CALL)

/* Reduce_scatter (vform; rcounts: ints, or MPI_Counts when wide) and
 * Reduce_scatter_block (block each) */
static int redscat(const char *call, int vform, const void *sbuf, void *rbuf, const void *rcounts, int wide,
                   MPI_Count block, MPI_Datatype dt, MPI_Op op, MPI_Comm comm, const struct how *how)
{
    RD_API_READY(call);
    RD_TRY(check_comm(call, comm));
    int n = comm->size;
    MPI_Count total = 0, mine;
    if (vform) {
        if (!rcounts)
            return rd_err_raise(comm, MPI_ERR_ARG, call, "recvcounts is NULL");
        RD_TRY(check_counts(call, comm, rcounts, wide, rcounts, n, "receive"));
        for (int i = 0; i < n; i++)
            if (__builtin_add_overflow(total, rd_count_at(rcounts, wide, i), &total))
                return rd_err_raise(comm, MPI_ERR_COUNT, call, "the sum of recvcounts overflows");
        mine = rd_count_at(rcounts, wide, comm->rank);
    } else {
        if (block < 0)
            return rd_err_raise(comm, MPI_ERR_COUNT, call, "recvcount %lld is negative", block);
        if (__builtin_mul_overflow(block, (MPI_Count)n, &total))
            return rd_err_raise(comm, MPI_ERR_COUNT, call, "recvcount %lld times %d ranks overflows", block, n);
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
                             .op = op, .rcounts = rcounts, .wide_counts = (unsigned char)wide};
    return run(call, vform ? RD_COLL_REDUCE_SCATTER : RD_COLL_REDUCE_SCATTER_BLOCK, &a, how);
}

#define REDSCAT_CALL(call, how)                                                                           \
    redscat(call, 1, sbuf, rbuf, rcounts, sizeof(*rcounts) > sizeof(int), 0, dt, op, comm, how)
#define REDSCAT_PARAMS(C) (const void *sbuf, void *rbuf, const C rcounts[], MPI_Datatype dt, MPI_Op op, MPI_Comm comm)
RD_COLL_FORMS(Reduce_scatter, Ireduce_scatter, , REDSCAT_PARAMS(int), REDSCAT_CALL)
RD_COLL_FORMS(Reduce_scatter, Ireduce_scatter, _c, REDSCAT_PARAMS(MPI_Count), REDSCAT_CALL)

#define REDSCAT_BLOCK_CALL(call, how) redscat(call, 0, sbuf, rbuf, NULL, 0, rcount, dt, op, comm, how)
#define REDSCAT_BLOCK_PARAMS(C) (const void *sbuf, void *rbuf, C rcount, MPI_Datatype dt, MPI_Op op, MPI_Comm comm)
RD_COLL_FORMS(Reduce_scatter_block, Ireduce_scatter_block, , REDSCAT_BLOCK_PARAMS(int), REDSCAT_BLOCK_CALL)
RD_COLL_FORMS(Reduce_scatter_block, Ireduce_scatter_block, _c, REDSCAT_BLOCK_PARAMS(MPI_Count), REDSCAT_BLOCK_CALL)

/* ------------------------------------------------------------ gather, scatter */

/* The v forms' arrays: rcounts (or scounts) and displs, of ints or, when
 * wide, of MPI_Counts and MPI_Aints; counts NULL for the block forms. */
static int gather(const char *call, int vform, const void *sbuf, MPI_Count scount, MPI_Datatype sdt, void *rbuf,
                  MPI_Count rcount, const void *rcounts, const void *displs, int wide, MPI_Datatype rdt, int root,
                  MPI_Comm comm, const struct how *how)
{
    RD_API_READY(call);
    RD_TRY(check_comm(call, comm));
    RD_TRY(check_root(call, comm, root));
    int at_root = is_root(comm, root);
    if (sbuf == MPI_IN_PLACE) {
        if (!at_root || comm->is_inter)
            return rd_err_raise(comm, MPI_ERR_BUFFER, call, "MPI_IN_PLACE is only allowed at the root");
    } else if (contributes(comm, root)) {
        RD_TRY(check_buf(call, comm, sbuf, scount, sdt, "send buffer"));
        RD_TRY(check_blocks(call, comm, scount, sdt, "send buffer"));
    }
    if (at_root) {
        if (vform) {
            RD_TRY(check_counts(call, comm, rcounts, wide, displs, peers(comm), "receive"));
            RD_TRY(check_type(call, comm, rdt, "receive type"));
            int any = 0;
            for (int i = 0; i < peers(comm); i++)
                any |= rd_count_at(rcounts, wide, i) > 0;
            RD_TRY(check_buf(call, comm, rbuf, any, rdt, "receive buffer"));
        } else {
            RD_TRY(check_buf(call, comm, rbuf, rcount, rdt, "receive buffer"));
            RD_TRY(check_blocks(call, comm, rcount, rdt, "receive buffer"));
        }
    }
    struct rd_coll_args a = {.comm = comm, .sbuf = sbuf, .scount = scount, .rbuf = rbuf,
                             .rcount = rcount, .rdt = at_root ? rdt : MPI_DATATYPE_NULL,
                             .sdt = contributes(comm, root) ? sdt : MPI_DATATYPE_NULL,
                             .rcounts = rcounts, .rdispls = displs, .wide_counts = (unsigned char)wide,
                             .wide_displs = (unsigned char)wide, .root = root};
    return run(call, vform ? RD_COLL_GATHERV : RD_COLL_GATHER, &a, how);
}

#define GATHER_CALL(call, how) gather(call, 0, sbuf, scount, sdt, rbuf, rcount, NULL, NULL, 0, rdt, root, comm, how)
#define GATHER_PARAMS(C)                                                                                  \
    (const void *sbuf, C scount, MPI_Datatype sdt, void *rbuf, C rcount, MPI_Datatype rdt, int root, MPI_Comm comm)
RD_COLL_FORMS(Gather, Igather, , GATHER_PARAMS(int), GATHER_CALL)
RD_COLL_FORMS(Gather, Igather, _c, GATHER_PARAMS(MPI_Count), GATHER_CALL)

#define GATHERV_CALL(call, how)                                                                           \
    gather(call, 1, sbuf, scount, sdt, rbuf, 0, rcounts, displs, sizeof(*rcounts) > sizeof(int), rdt, root, comm, how)
#define GATHERV_PARAMS(C, D)                                                                              \
    (const void *sbuf, C scount, MPI_Datatype sdt, void *rbuf, const C rcounts[], const D displs[], MPI_Datatype rdt, \
     int root, MPI_Comm comm)
RD_COLL_FORMS(Gatherv, Igatherv, , GATHERV_PARAMS(int, int), GATHERV_CALL)
RD_COLL_FORMS(Gatherv, Igatherv, _c, GATHERV_PARAMS(MPI_Count, MPI_Aint), GATHERV_CALL)

static int scatter(const char *call, int vform, const void *sbuf, MPI_Count scount, const void *scounts,
                   const void *displs, int wide, MPI_Datatype sdt, void *rbuf, MPI_Count rcount, MPI_Datatype rdt,
                   int root, MPI_Comm comm, const struct how *how)
{
    RD_API_READY(call);
    RD_TRY(check_comm(call, comm));
    RD_TRY(check_root(call, comm, root));
    int at_root = is_root(comm, root);
    if (rbuf == MPI_IN_PLACE) {
        if (!at_root || comm->is_inter)
            return rd_err_raise(comm, MPI_ERR_BUFFER, call, "MPI_IN_PLACE is only allowed at the root");
    } else if (contributes(comm, root)) {
        RD_TRY(check_buf(call, comm, rbuf, rcount, rdt, "receive buffer"));
        RD_TRY(check_blocks(call, comm, rcount, rdt, "receive buffer"));
    }
    if (at_root) {
        if (vform) {
            RD_TRY(check_counts(call, comm, scounts, wide, displs, peers(comm), "send"));
            RD_TRY(check_type(call, comm, sdt, "send type"));
        } else {
            RD_TRY(check_buf(call, comm, sbuf, scount, sdt, "send buffer"));
            RD_TRY(check_blocks(call, comm, scount, sdt, "send buffer"));
        }
    }
    struct rd_coll_args a = {.comm = comm, .sbuf = sbuf, .scount = scount,
                             .sdt = at_root ? sdt : MPI_DATATYPE_NULL, .rbuf = rbuf, .rcount = rcount,
                             .rdt = rbuf == MPI_IN_PLACE || !contributes(comm, root) ? MPI_DATATYPE_NULL : rdt,
                             .scounts = scounts, .sdispls = displs, .wide_counts = (unsigned char)wide,
                             .wide_displs = (unsigned char)wide, .root = root};
    return run(call, vform ? RD_COLL_SCATTERV : RD_COLL_SCATTER, &a, how);
}

#define SCATTER_CALL(call, how) scatter(call, 0, sbuf, scount, NULL, NULL, 0, sdt, rbuf, rcount, rdt, root, comm, how)
RD_COLL_FORMS(Scatter, Iscatter, , GATHER_PARAMS(int), SCATTER_CALL)
RD_COLL_FORMS(Scatter, Iscatter, _c, GATHER_PARAMS(MPI_Count), SCATTER_CALL)

#define SCATTERV_CALL(call, how)                                                                          \
    scatter(call, 1, sbuf, 0, scounts, displs, sizeof(*scounts) > sizeof(int), sdt, rbuf, rcount, rdt, root, comm, how)
#define SCATTERV_PARAMS(C, D)                                                                             \
    (const void *sbuf, const C scounts[], const D displs[], MPI_Datatype sdt, void *rbuf, C rcount, MPI_Datatype rdt, \
     int root, MPI_Comm comm)
RD_COLL_FORMS(Scatterv, Iscatterv, , SCATTERV_PARAMS(int, int), SCATTERV_CALL)
RD_COLL_FORMS(Scatterv, Iscatterv, _c, SCATTERV_PARAMS(MPI_Count, MPI_Aint), SCATTERV_CALL)

/* ------------------------------------------------------------ allgather */

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

static int allgather(const char *call, int kind, const void *sbuf, MPI_Count scount, MPI_Datatype sdt, void *rbuf,
                     MPI_Count rcount, const void *rcounts, const void *displs, int wide, MPI_Datatype rdt,
                     MPI_Comm comm, const struct how *how)
{
    RD_API_READY(call);
    RD_TRY(check_comm(call, comm));
    int nbr = kind == RD_COLL_NEIGHBOR_ALLGATHER || kind == RD_COLL_NEIGHBOR_ALLGATHERV;
    int vform = kind == RD_COLL_ALLGATHERV || kind == RD_COLL_NEIGHBOR_ALLGATHERV;
    if (nbr)
        RD_TRY(check_topo(call, comm));
    if (sbuf == MPI_IN_PLACE && (nbr || comm->is_inter))
        return rd_err_raise(comm, MPI_ERR_BUFFER, call, "MPI_IN_PLACE is not allowed here");
    if (sbuf != MPI_IN_PLACE) {
        RD_TRY(check_buf(call, comm, sbuf, scount, sdt, "send buffer"));
        RD_TRY(check_blocks(call, comm, scount, sdt, "send buffer"));
    }
    if (vform) {
        int n = peers(comm);
        int nout;
        if (nbr)
            degrees(comm, &n, &nout);
        RD_TRY(check_counts(call, comm, rcounts, wide, displs, n, "receive"));
        RD_TRY(check_type(call, comm, rdt, "receive type"));
    } else {
        RD_TRY(check_buf(call, comm, rbuf, rcount, rdt, "receive buffer"));
        RD_TRY(check_blocks(call, comm, rcount, rdt, "receive buffer"));
    }
    struct rd_coll_args a = {.comm = comm, .sbuf = sbuf, .scount = scount, .sdt = sdt, .rbuf = rbuf,
                             .rcount = rcount, .rdt = rdt, .rcounts = rcounts, .rdispls = displs,
                             .wide_counts = (unsigned char)wide, .wide_displs = (unsigned char)wide};
    return run(call, kind, &a, how);
}

#define ALLGATHER_PARAMS(C) (const void *sbuf, C scount, MPI_Datatype sdt, void *rbuf, C rcount, MPI_Datatype rdt, MPI_Comm comm)
#define ALLGATHER_CALL(call, how)                                                                         \
    allgather(call, RD_COLL_ALLGATHER, sbuf, scount, sdt, rbuf, rcount, NULL, NULL, 0, rdt, comm, how)
#define ALLGATHER_ENTRIES(S, C)                                                                           \
    RD_WEAK(Allgather##S)                                                                                 \
    int PMPI_Allgather##S(const void *sbuf, C scount, MPI_Datatype sdt, void *rbuf, C rcount, MPI_Datatype rdt, \
                          MPI_Comm comm)                                                                  \
    {                                                                                                     \
        int rc;                                                                                           \
        if (short_blocks("MPI_Allgather" #S, RD_COLL_ALLGATHER, sbuf, scount, sdt, rbuf, rcount, rdt, comm, &rc)) \
            return rc;                                                                                    \
        return ALLGATHER_CALL("MPI_Allgather" #S, NULL);                                                  \
    }                                                                                                     \
    RD_COLL_NB_FORMS(Allgather, Iallgather, S, ALLGATHER_PARAMS(C), ALLGATHER_CALL)
ALLGATHER_ENTRIES(, int)
ALLGATHER_ENTRIES(_c, MPI_Count)

#define NALLGATHER_CALL(call, how)                                                                        \
    allgather(call, RD_COLL_NEIGHBOR_ALLGATHER, sbuf, scount, sdt, rbuf, rcount, NULL, NULL, 0, rdt, comm, how)
RD_COLL_FORMS(Neighbor_allgather, Ineighbor_allgather, , ALLGATHER_PARAMS(int), NALLGATHER_CALL)
RD_COLL_FORMS(Neighbor_allgather, Ineighbor_allgather, _c, ALLGATHER_PARAMS(MPI_Count), NALLGATHER_CALL)

#define ALLGATHERV_PARAMS(C, D)                                                                           \
    (const void *sbuf, C scount, MPI_Datatype sdt, void *rbuf, const C rcounts[], const D displs[], MPI_Datatype rdt, \
     MPI_Comm comm)
#define ALLGATHERV_CALL(call, how)                                                                        \
    allgather(call, RD_COLL_ALLGATHERV, sbuf, scount, sdt, rbuf, 0, rcounts, displs, sizeof(*rcounts) > sizeof(int), \
              rdt, comm, how)
#define NALLGATHERV_CALL(call, how)                                                                       \
    allgather(call, RD_COLL_NEIGHBOR_ALLGATHERV, sbuf, scount, sdt, rbuf, 0, rcounts, displs,                  \
              sizeof(*rcounts) > sizeof(int), rdt, comm, how)
RD_COLL_FORMS(Allgatherv, Iallgatherv, , ALLGATHERV_PARAMS(int, int), ALLGATHERV_CALL)
RD_COLL_FORMS(Allgatherv, Iallgatherv, _c, ALLGATHERV_PARAMS(MPI_Count, MPI_Aint), ALLGATHERV_CALL)
RD_COLL_FORMS(Neighbor_allgatherv, Ineighbor_allgatherv, , ALLGATHERV_PARAMS(int, int), NALLGATHERV_CALL)
RD_COLL_FORMS(Neighbor_allgatherv, Ineighbor_allgatherv, _c, ALLGATHERV_PARAMS(MPI_Count, MPI_Aint),
              NALLGATHERV_CALL)

/* ------------------------------------------------------------ alltoall */

/* Alltoall in all its forms: block (counts NULL), v (counts, displs,
 * one type each side) and w (types arrays; displs in bytes). Counts are
 * ints, or MPI_Counts when wide_counts; displacements ints, or MPI_Aints
 * when wide_displs (the `_c` forms, and MPI_Neighbor_alltoallw's). */
struct a2a {
    const void *sbuf;
    MPI_Count scount;
    const void *scounts, *sdispls;
    MPI_Datatype sdt;
    const MPI_Datatype *sdts;
    void *rbuf;
    MPI_Count rcount;
    const void *rcounts, *rdispls;
    MPI_Datatype rdt;
    const MPI_Datatype *rdts;
    int vform, wide_counts, wide_displs;
};

/* One side's arguments: of n ranks; vform: counts and displs arrays; w:
 * and a datatypes array. */
static int check_side(const char *call, MPI_Comm comm, int n, int vform, int w, const void *buf, MPI_Count count,
                      const void *counts, int wide, const void *displs, MPI_Datatype dt, const MPI_Datatype *dts,
                      const char *what)
{
    if (!vform) {
        RD_TRY(check_buf(call, comm, buf, count, dt, what));
        return check_blocks(call, comm, count, dt, what);
    }
    RD_TRY(check_counts(call, comm, counts, wide, displs, n, what));
    if (!w)
        return check_type(call, comm, dt, what);
    if (n == 0)
        return MPI_SUCCESS;
    if (!dts)
        return rd_err_raise(comm, MPI_ERR_ARG, call, "%s datatypes array is NULL", what);
    for (int i = 0; i < n; i++)
        RD_TRY(check_type(call, comm, dts[i], what));
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
    int w = kind == RD_COLL_ALLTOALLW || kind == RD_COLL_NEIGHBOR_ALLTOALLW;
    if (x->sbuf == MPI_IN_PLACE) {
        if (nbr || comm->is_inter)
            return rd_err_raise(comm, MPI_ERR_BUFFER, call, "MPI_IN_PLACE is not allowed here");
    } else {
        RD_TRY(check_side(call, comm, nout, x->vform, w, x->sbuf, x->scount, x->scounts, x->wide_counts, x->sdispls,
                          x->sdt, x->sdts, "send buffer"));
    }
    RD_TRY(check_side(call, comm, nin, x->vform, w, x->rbuf, x->rcount, x->rcounts, x->wide_counts, x->rdispls,
                      x->rdt, x->rdts, "receive buffer"));
    struct rd_coll_args a = {.comm = comm, .sbuf = x->sbuf, .scount = x->scount, .sdt = x->sdt,
                             .rbuf = x->rbuf, .rcount = x->rcount, .rdt = x->rdt, .scounts = x->scounts,
                             .sdispls = x->sdispls, .rcounts = x->rcounts, .rdispls = x->rdispls,
                             .sdts = x->sdts, .rdts = x->rdts, .wide_counts = (unsigned char)x->wide_counts,
                             .wide_displs = (unsigned char)x->wide_displs};
    return run(call, kind, &a, how);
}

#define A2A_CALL(call, how)                                                                               \
    alltoall(call, RD_COLL_ALLTOALL,                                                                      \
             &(const struct a2a){.sbuf = sbuf, .scount = scount, .sdt = sdt, .rbuf = rbuf, .rcount = rcount, \
                                 .rdt = rdt},                                                             \
             comm, how)
#define NA2A_CALL(call, how)                                                                              \
    alltoall(call, RD_COLL_NEIGHBOR_ALLTOALL,                                                             \
             &(const struct a2a){.sbuf = sbuf, .scount = scount, .sdt = sdt, .rbuf = rbuf, .rcount = rcount, \
                                 .rdt = rdt},                                                             \
             comm, how)
#define ALLTOALL_ENTRIES(S, C)                                                                            \
    RD_WEAK(Alltoall##S)                                                                                  \
    int PMPI_Alltoall##S(const void *sbuf, C scount, MPI_Datatype sdt, void *rbuf, C rcount, MPI_Datatype rdt, \
                         MPI_Comm comm)                                                                   \
    {                                                                                                     \
        int rc;                                                                                           \
        if (short_blocks("MPI_Alltoall" #S, RD_COLL_ALLTOALL, sbuf, scount, sdt, rbuf, rcount, rdt, comm, &rc)) \
            return rc;                                                                                    \
        return A2A_CALL("MPI_Alltoall" #S, NULL);                                                         \
    }                                                                                                     \
    RD_COLL_NB_FORMS(Alltoall, Ialltoall, S, ALLGATHER_PARAMS(C), A2A_CALL)
ALLTOALL_ENTRIES(, int)
ALLTOALL_ENTRIES(_c, MPI_Count)
RD_COLL_FORMS(Neighbor_alltoall, Ineighbor_alltoall, , ALLGATHER_PARAMS(int), NA2A_CALL)
RD_COLL_FORMS(Neighbor_alltoall, Ineighbor_alltoall, _c, ALLGATHER_PARAMS(MPI_Count), NA2A_CALL)

/* (the v and w forms' arrays may be NULL where they describe no rank: a
 * neighbourhood of none) */
#define A2AV_PARAMS(C, D)                                                                                 \
    (const void *sbuf, const C scounts[], const D sdispls[], MPI_Datatype sdt, void *rbuf, const C rcounts[], \
     const D rdispls[], MPI_Datatype rdt, MPI_Comm comm)
#define A2AV_X(KIND, call, how)                                                                           \
    alltoall(call, KIND,                                                                                  \
             &(const struct a2a){.vform = 1, .sbuf = sbuf, .scounts = scounts, .sdispls = sdispls, .sdt = sdt, \
                                 .rbuf = rbuf, .rcounts = rcounts, .rdispls = rdispls, .rdt = rdt,        \
                                 .wide_counts = sizeof(*scounts) > sizeof(int),               \
                                 .wide_displs = sizeof(*sdispls) > sizeof(int)},                          \
             comm, how)
#define A2AV_CALL(call, how) A2AV_X(RD_COLL_ALLTOALLV, call, how)
#define NA2AV_CALL(call, how) A2AV_X(RD_COLL_NEIGHBOR_ALLTOALLV, call, how)
RD_COLL_FORMS(Alltoallv, Ialltoallv, , A2AV_PARAMS(int, int), A2AV_CALL)
RD_COLL_FORMS(Alltoallv, Ialltoallv, _c, A2AV_PARAMS(MPI_Count, MPI_Aint), A2AV_CALL)
RD_COLL_FORMS(Neighbor_alltoallv, Ineighbor_alltoallv, , A2AV_PARAMS(int, int), NA2AV_CALL)
RD_COLL_FORMS(Neighbor_alltoallv, Ineighbor_alltoallv, _c, A2AV_PARAMS(MPI_Count, MPI_Aint), NA2AV_CALL)

#define A2AW_PARAMS(C, D)                                                                                 \
    (const void *sbuf, const C scounts[], const D sdispls[], const MPI_Datatype sdts[], void *rbuf,          \
     const C rcounts[], const D rdispls[], const MPI_Datatype rdts[], MPI_Comm comm)
#define A2AW_X(KIND, call, how)                                                                           \
    alltoall(call, KIND,                                                                                  \
             &(const struct a2a){.vform = 1, .sbuf = sbuf, .scounts = scounts, .sdispls = sdispls, .sdts = sdts, \
                                 .rbuf = rbuf, .rcounts = rcounts, .rdispls = rdispls, .rdts = rdts,      \
                                 .wide_counts = sizeof(*scounts) > sizeof(int), \
                                 .wide_displs = sizeof(*sdispls) > sizeof(int)},                          \
             comm, how)
#define A2AW_CALL(call, how) A2AW_X(RD_COLL_ALLTOALLW, call, how)
#define NA2AW_CALL(call, how) A2AW_X(RD_COLL_NEIGHBOR_ALLTOALLW, call, how)
RD_COLL_FORMS(Alltoallw, Ialltoallw, , A2AW_PARAMS(int, int), A2AW_CALL)
RD_COLL_FORMS(Alltoallw, Ialltoallw, _c, A2AW_PARAMS(MPI_Count, MPI_Aint), A2AW_CALL)
/* (MPI_Neighbor_alltoallw's displacements are MPI_Aints in both forms) */
RD_COLL_FORMS(Neighbor_alltoallw, Ineighbor_alltoallw, , A2AW_PARAMS(int, MPI_Aint), NA2AW_CALL)
RD_COLL_FORMS(Neighbor_alltoallw, Ineighbor_alltoallw, _c, A2AW_PARAMS(MPI_Count, MPI_Aint), NA2AW_CALL)

/* inter.c - collectives on intercommunicators (MPI-3.1 5.2.2).
 *
 * Steps within a group run on the intercommunicator's `local`
 * intracommunicator (its library context), steps across on the
 * intercommunicator's own library context, where ranks name the remote
 * group; rd_sched_on() switches between the two while a builder runs, so
 * the intracommunicator algorithms serve the group phases unchanged. The
 * leaders are rank 0 of each group. */
#include "config.h"

#include "collectives/algorithms.h"
#include "runtime/objects/comm.h"

/* The arguments of a phase within the local group. */
static struct rd_coll_args local_args(const struct rd_coll_args *a)
{
    struct rd_coll_args b = *a;
    b.comm = a->comm->local;
    return b;
}

#define ACROSS(s, a) rd_sched_on((s), (a)->comm->coll)
#define WITHIN(s, a) rd_sched_on((s), (a)->comm->local->coll)

static rd_status barrier(struct rd_sched *s, const struct rd_coll_args *a)
{
    struct rd_coll_args b = local_args(a);
    WITHIN(s, a);
    RD_TRY(rd_barrier_dissemination(s, &b));
    RD_TRY(rd_sched_wait(s));
    if (a->comm->rank == 0) {
        ACROSS(s, a);
        RD_TRY(rd_sched_send(s, NULL, 0, MPI_BYTE, 0));
        RD_TRY(rd_sched_recv(s, NULL, 0, MPI_BYTE, 0));
        RD_TRY(rd_sched_wait(s));
    }
    /* nobody leaves before its leader has met the other group's */
    WITHIN(s, a);
    return rd_barrier_dissemination(s, &b);
}

static rd_status bcast(struct rd_sched *s, const struct rd_coll_args *a)
{
    if (a->root == MPI_PROC_NULL || a->count == 0)
        return RD_OK;
    if (a->root == MPI_ROOT) {
        ACROSS(s, a);
        return rd_sched_send(s, a->rbuf, a->count, a->dt, 0);
    }
    if (a->comm->rank == 0) {
        ACROSS(s, a);
        RD_TRY(rd_sched_recv(s, a->rbuf, a->count, a->dt, a->root));
        RD_TRY(rd_sched_wait(s));
    }
    struct rd_coll_args b = local_args(a);
    b.root = 0;
    WITHIN(s, a);
    return rd_bcast_binomial(s, &b);
}

/* The group's reduction of (sbuf, count, dt) at its leader: into *out
 * (scratch) there, NULL elsewhere. */
static rd_status reduce_to_leader(struct rd_sched *s, const struct rd_coll_args *a, void **out)
{
    struct rd_coll_args b = local_args(a);
    b.root = 0;
    b.rbuf = NULL;
    if (a->comm->rank == 0) {
        b.rbuf = rd_sched_tmp(s, a->count, a->dt);
        RD_CNEW(b.rbuf);
    }
    WITHIN(s, a);
    RD_TRY(rd_reduce_binomial(s, &b));
    RD_TRY(rd_sched_wait(s));
    *out = b.rbuf;
    return RD_OK;
}

static rd_status reduce(struct rd_sched *s, const struct rd_coll_args *a)
{
    if (a->root == MPI_PROC_NULL || a->count == 0)
        return RD_OK;
    if (a->root == MPI_ROOT) {
        ACROSS(s, a);
        return rd_sched_recv(s, a->rbuf, a->count, a->dt, 0);
    }
    void *part;
    RD_TRY(reduce_to_leader(s, a, &part));
    if (a->comm->rank == 0) {
        ACROSS(s, a);
        RD_TRY(rd_sched_send(s, part, a->count, a->dt, a->root));
    }
    return RD_OK;
}

static rd_status allreduce(struct rd_sched *s, const struct rd_coll_args *a)
{
    if (a->count == 0)
        return RD_OK;
    void *part;
    RD_TRY(reduce_to_leader(s, a, &part));
    if (a->comm->rank == 0) {
        ACROSS(s, a);
        RD_TRY(rd_sched_send(s, part, a->count, a->dt, 0));
        RD_TRY(rd_sched_recv(s, a->rbuf, a->count, a->dt, 0));
        RD_TRY(rd_sched_wait(s));
    }
    struct rd_coll_args b = local_args(a);
    b.root = 0;
    WITHIN(s, a);
    return rd_bcast_binomial(s, &b);
}

/* Reduce_scatter(_block): this group's vector (cnt summed over this
 * group... as the standard has it, n * recvcount or the sum of recvcounts
 * of the local group) is reduced at the leader and sent across; the
 * leader scatters what the other group sent among its own ranks. */
static rd_status reduce_scatter(struct rd_sched *s, const struct rd_coll_args *a)
{
    int n = a->comm->size, r = a->comm->rank;
    MPI_Count *cnt = rd_sched_alloc(s, (size_t)n * sizeof(MPI_Count));
    RD_CNEW(cnt);
    MPI_Count total = 0;
    for (int i = 0; i < n; i++) {
        cnt[i] = a->rcounts ? rd_coll_cnt(a, a->rcounts, i) : a->count;
        total += cnt[i];
    }
    if (total == 0)
        return RD_OK;
    struct rd_coll_args b = *a;
    b.count = total;
    void *part;
    RD_TRY(reduce_to_leader(s, &b, &part));
    void *theirs = NULL;
    if (r == 0) {
        theirs = rd_sched_tmp(s, total, a->dt);
        RD_CNEW(theirs);
        ACROSS(s, a);
        RD_TRY(rd_sched_send(s, part, total, a->dt, 0));
        RD_TRY(rd_sched_recv(s, theirs, total, a->dt, 0));
        RD_TRY(rd_sched_wait(s));
    }
    WITHIN(s, a);
    if (r == 0) {
        MPI_Count off = 0;
        for (int i = 0; i < n; i++) {
            if (i == 0)
                RD_TRY(rd_sched_copy(s, theirs, cnt[0], a->dt, a->rbuf, cnt[0], a->dt));
            else
                RD_TRY(rd_sched_send(s, rd_coll_at(theirs, off, a->dt), cnt[i], a->dt, i));
            off += cnt[i];
        }
        return RD_OK;
    }
    return rd_sched_recv(s, a->rbuf, cnt[r], a->dt, 0);
}

static rd_status gather(struct rd_sched *s, const struct rd_coll_args *a, int v)
{
    if (a->root == MPI_PROC_NULL)
        return RD_OK;
    ACROSS(s, a);
    if (a->root != MPI_ROOT)
        return rd_sched_send(s, a->sbuf, a->scount, a->sdt, a->root);
    for (int i = 0; i < a->comm->remote_size; i++) {
        if (v)
            RD_TRY(rd_sched_recv(s, rd_coll_at(a->rbuf, rd_coll_displ(a, a->rdispls, i), a->rdt), rd_coll_cnt(a, a->rcounts, i), a->rdt, i));
        else
            RD_TRY(rd_sched_recv(s, rd_coll_at(a->rbuf, (MPI_Aint)i * a->rcount, a->rdt), a->rcount, a->rdt, i));
    }
    return RD_OK;
}

static rd_status scatter(struct rd_sched *s, const struct rd_coll_args *a, int v)
{
    if (a->root == MPI_PROC_NULL)
        return RD_OK;
    ACROSS(s, a);
    if (a->root != MPI_ROOT)
        return rd_sched_recv(s, a->rbuf, a->rcount, a->rdt, a->root);
    for (int i = 0; i < a->comm->remote_size; i++) {
        if (v)
            RD_TRY(rd_sched_send(s, rd_coll_at(a->sbuf, rd_coll_displ(a, a->sdispls, i), a->sdt), rd_coll_cnt(a, a->scounts, i), a->sdt, i));
        else
            RD_TRY(rd_sched_send(s, rd_coll_at(a->sbuf, (MPI_Aint)i * a->scount, a->sdt), a->scount, a->sdt, i));
    }
    return RD_OK;
}

/* Allgather(v): every rank sends its block to every remote rank and
 * receives theirs, in staggered order. */
static rd_status allgather(struct rd_sched *s, const struct rd_coll_args *a, int v)
{
    int m = a->comm->remote_size, r = a->comm->rank;
    ACROSS(s, a);
    for (int k = 0; k < m; k++) {
        int i = (r + k) % m;
        if (v)
            RD_TRY(rd_sched_recv(s, rd_coll_at(a->rbuf, rd_coll_displ(a, a->rdispls, i), a->rdt), rd_coll_cnt(a, a->rcounts, i), a->rdt, i));
        else
            RD_TRY(rd_sched_recv(s, rd_coll_at(a->rbuf, (MPI_Aint)i * a->rcount, a->rdt), a->rcount, a->rdt, i));
    }
    for (int k = 0; k < m; k++)
        RD_TRY(rd_sched_send(s, a->sbuf, a->scount, a->sdt, (r + k) % m));
    return RD_OK;
}

/* Alltoall(v,w): block i goes to remote rank i, block i comes from it. */
static rd_status alltoall(struct rd_sched *s, const struct rd_coll_args *a)
{
    int m = a->comm->remote_size, r = a->comm->rank;
    ACROSS(s, a);
    for (int k = 0; k < m; k++) {
        int i = (r + k) % m;
        if (a->rdts)
            RD_TRY(rd_sched_recv(s, (char *)a->rbuf + rd_coll_displ(a, a->rdispls, i), rd_coll_cnt(a, a->rcounts, i), a->rdts[i], i));
        else if (a->rcounts)
            RD_TRY(rd_sched_recv(s, rd_coll_at(a->rbuf, rd_coll_displ(a, a->rdispls, i), a->rdt), rd_coll_cnt(a, a->rcounts, i), a->rdt, i));
        else
            RD_TRY(rd_sched_recv(s, rd_coll_at(a->rbuf, (MPI_Aint)i * a->rcount, a->rdt), a->rcount, a->rdt, i));
    }
    for (int k = 0; k < m; k++) {
        int i = (r + k) % m;
        if (a->sdts)
            RD_TRY(rd_sched_send(s, (const char *)a->sbuf + rd_coll_displ(a, a->sdispls, i), rd_coll_cnt(a, a->scounts, i), a->sdts[i], i));
        else if (a->scounts)
            RD_TRY(rd_sched_send(s, rd_coll_at(a->sbuf, rd_coll_displ(a, a->sdispls, i), a->sdt), rd_coll_cnt(a, a->scounts, i), a->sdt, i));
        else
            RD_TRY(rd_sched_send(s, rd_coll_at(a->sbuf, (MPI_Aint)i * a->scount, a->sdt), a->scount, a->sdt, i));
    }
    return RD_OK;
}

rd_status rd_inter_build(int kind, struct rd_sched *s, const struct rd_coll_args *a)
{
    switch (kind) {
    case RD_COLL_BARRIER: return barrier(s, a);
    case RD_COLL_BCAST: return bcast(s, a);
    case RD_COLL_REDUCE: return reduce(s, a);
    case RD_COLL_ALLREDUCE: return allreduce(s, a);
    case RD_COLL_GATHER: return gather(s, a, 0);
    case RD_COLL_GATHERV: return gather(s, a, 1);
    case RD_COLL_SCATTER: return scatter(s, a, 0);
    case RD_COLL_SCATTERV: return scatter(s, a, 1);
    case RD_COLL_ALLGATHER: return allgather(s, a, 0);
    case RD_COLL_ALLGATHERV: return allgather(s, a, 1);
    case RD_COLL_ALLTOALL:
    case RD_COLL_ALLTOALLV:
    case RD_COLL_ALLTOALLW: return alltoall(s, a);
    case RD_COLL_REDUCE_SCATTER:
    case RD_COLL_REDUCE_SCATTER_BLOCK: return reduce_scatter(s, a);
    default: return RD_ERR_ARG; /* the API layer lets no other through */
    }
}

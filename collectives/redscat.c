/* redscat.c - MPI_Reduce_scatter and MPI_Reduce_scatter_block. The block
 * form is the general one with equal counts. */
#include "config.h"

#include "collectives/algorithms.h"
#include "runtime/objects/comm.h"
#include "runtime/objects/op.h"

static rd_status displs_of(struct rd_sched *s, const MPI_Count *cnt, int n, MPI_Count **displ,
                           MPI_Count *total)
{
    MPI_Count *d = rd_sched_alloc(s, (size_t)n * sizeof(MPI_Count));
    RD_CNEW(d);
    MPI_Count off = 0;
    for (int i = 0; i < n; i++) {
        d[i] = off;
        off += cnt[i];
    }
    *displ = d;
    *total = off;
    return RD_OK;
}

/* Pairwise exchange: in step i, rank r sends the block of rank r + i and
 * receives its own block's contribution from rank r - i. Commutative ops. */
static rd_status pairwise(struct rd_sched *s, const struct rd_coll_args *a, const MPI_Count *cnt)
{
    int n = a->comm->size, r = a->comm->rank;
    MPI_Datatype dt = a->dt;
    MPI_Count *displ, total;
    RD_TRY(displs_of(s, cnt, n, &displ, &total));
    const void *mine = a->sbuf == MPI_IN_PLACE ? a->rbuf : a->sbuf;
    if (total == 0)
        return RD_OK;
    void *acc = rd_sched_tmp(s, cnt[r], dt), *tmp = rd_sched_tmp(s, cnt[r], dt);
    RD_CNEW(acc);
    RD_CNEW(tmp);
    RD_TRY(rd_sched_copy(s, rd_coll_at(mine, displ[r], dt), cnt[r], dt, acc, cnt[r], dt));
    for (int i = 1; i < n; i++) {
        int to = (r + i) % n, from = (r - i + n) % n;
        RD_TRY(rd_sched_send(s, rd_coll_at(mine, displ[to], dt), cnt[to], dt, to));
        RD_TRY(rd_sched_recv(s, tmp, cnt[r], dt, from));
        RD_TRY(rd_sched_wait(s));
        RD_TRY(rd_sched_reduce(s, tmp, acc, cnt[r], dt, a->op));
    }
    RD_TRY(rd_sched_wait(s));
    return rd_sched_copy(s, acc, cnt[r], dt, a->rbuf, cnt[r], dt);
}

/* Reduce the whole vector to rank 0, which sends each rank its block: any
 * op, in rank order. */
static rd_status reduce_then_scatter(struct rd_sched *s, const struct rd_coll_args *a, const MPI_Count *cnt)
{
    int n = a->comm->size, r = a->comm->rank;
    MPI_Datatype dt = a->dt;
    MPI_Count *displ, total;
    RD_TRY(displs_of(s, cnt, n, &displ, &total));
    if (total == 0)
        return RD_OK;
    struct rd_coll_args b = *a;
    b.count = total;
    b.root = 0;
    b.sbuf = a->sbuf == MPI_IN_PLACE ? a->rbuf : a->sbuf;
    b.rbuf = r == 0 ? rd_sched_tmp(s, total, dt) : NULL;
    if (r == 0)
        RD_CNEW(b.rbuf);
    RD_TRY(rd_reduce_binomial(s, &b));
    RD_TRY(rd_sched_wait(s));
    if (r == 0) {
        for (int i = 1; i < n; i++)
            RD_TRY(rd_sched_send(s, rd_coll_at(b.rbuf, displ[i], dt), cnt[i], dt, i));
        return rd_sched_copy(s, b.rbuf, cnt[0], dt, a->rbuf, cnt[0], dt);
    }
    return rd_sched_recv(s, a->rbuf, cnt[r], dt, 0);
}

/* The counts of the blocks, as MPI_Counts: recvcounts (of either width),
 * or the block form's count n times. */
static const MPI_Count *block_counts(struct rd_sched *s, const struct rd_coll_args *a)
{
    int n = a->comm->size;
    MPI_Count *c = rd_sched_alloc(s, (size_t)n * sizeof(MPI_Count));
    if (c)
        for (int i = 0; i < n; i++)
            c[i] = a->rcounts ? rd_coll_cnt(a, a->rcounts, i) : a->count;
    return c;
}

rd_status rd_reduce_scatter_pairwise(struct rd_sched *s, const struct rd_coll_args *a)
{
    const MPI_Count *c = block_counts(s, a);
    RD_CNEW(c);
    return pairwise(s, a, c);
}

rd_status rd_reduce_scatter_reduce_scatterv(struct rd_sched *s, const struct rd_coll_args *a)
{
    const MPI_Count *c = block_counts(s, a);
    RD_CNEW(c);
    return reduce_then_scatter(s, a, c);
}

rd_status rd_reduce_scatter_block_pairwise(struct rd_sched *s, const struct rd_coll_args *a)
{
    return rd_reduce_scatter_pairwise(s, a);
}

rd_status rd_reduce_scatter_block_reduce_scatter(struct rd_sched *s, const struct rd_coll_args *a)
{
    return rd_reduce_scatter_reduce_scatterv(s, a);
}

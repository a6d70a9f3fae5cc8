/* scan.c - MPI_Scan and MPI_Exscan algorithms. */
#include "config.h"

#include "collectives/algorithms.h"
#include "runtime/objects/comm.h"
#include "runtime/objects/op.h"


/* Recursive doubling. `partial` is the reduction of the aligned block of
 * ranks this rank has heard from so far; `result` only of those below it
 * (and itself, for an inclusive scan). Data from a lower partner goes on
 * the left of both. */
static rd_status scan_rd(struct rd_sched *s, const struct rd_coll_args *a, int inclusive)
{
    int n = a->comm->size, r = a->comm->rank;
    MPI_Count count = a->count;
    MPI_Datatype dt = a->dt;
    MPI_Op op = a->op;
    if (count == 0)
        return RD_OK;
    const void *mine = a->sbuf == MPI_IN_PLACE ? a->rbuf : a->sbuf;
    void *partial = rd_sched_tmp(s, count, dt), *tmp = rd_sched_tmp(s, count, dt);
    RD_CNEW(partial);
    RD_CNEW(tmp);
    RD_TRY(rd_sched_copy(s, mine, count, dt, partial, count, dt));
    int have = inclusive; /* result holds something yet */
    if (inclusive)
        RD_TRY(rd_sched_copy(s, mine, count, dt, a->rbuf, count, dt));
    for (int mask = 1; mask < n; mask <<= 1) {
        int peer = r ^ mask;
        if (peer >= n)
            continue;
        RD_TRY(rd_sched_send(s, partial, count, dt, peer));
        RD_TRY(rd_sched_recv(s, tmp, count, dt, peer));
        RD_TRY(rd_sched_wait(s));
        if (peer < r) {
            if (have) {
                RD_TRY(rd_sched_reduce(s, tmp, a->rbuf, count, dt, op));
            } else {
                RD_TRY(rd_sched_copy(s, tmp, count, dt, a->rbuf, count, dt));
                have = 1;
            }
            RD_TRY(rd_sched_reduce(s, tmp, partial, count, dt, op));
        } else if (op->commute) {
            RD_TRY(rd_sched_reduce(s, tmp, partial, count, dt, op));
        } else {
            RD_TRY(rd_sched_reduce(s, partial, tmp, count, dt, op));
            RD_SWAP(partial, tmp);
        }
    }
    return RD_OK;
}

/* Linear chain: rank r waits for the prefix of ranks < r from r - 1,
 * combines and passes the prefix on. n - 1 steps; any op. */
static rd_status scan_linear(struct rd_sched *s, const struct rd_coll_args *a, int inclusive)
{
    int n = a->comm->size, r = a->comm->rank;
    MPI_Count count = a->count;
    MPI_Datatype dt = a->dt;
    if (count == 0)
        return RD_OK;
    const void *mine = a->sbuf == MPI_IN_PLACE ? a->rbuf : a->sbuf;
    void *prefix = rd_sched_tmp(s, count, dt); /* ranks 0..r inclusive */
    RD_CNEW(prefix);
    if (r == 0) {
        RD_TRY(rd_sched_copy(s, mine, count, dt, prefix, count, dt));
        if (inclusive)
            RD_TRY(rd_sched_copy(s, mine, count, dt, a->rbuf, count, dt));
    } else {
        void *below = rd_sched_tmp(s, count, dt);
        RD_CNEW(below);
        RD_TRY(rd_sched_copy(s, mine, count, dt, prefix, count, dt));
        RD_TRY(rd_sched_recv(s, below, count, dt, r - 1));
        RD_TRY(rd_sched_wait(s));
        RD_TRY(rd_sched_reduce(s, below, prefix, count, dt, a->op));
        RD_TRY(rd_sched_copy(s, inclusive ? prefix : below, count, dt, a->rbuf, count, dt));
    }
    if (r + 1 < n)
        RD_TRY(rd_sched_send(s, prefix, count, dt, r + 1));
    return RD_OK;
}

rd_status rd_scan_recursive_doubling(struct rd_sched *s, const struct rd_coll_args *a)
{
    return scan_rd(s, a, 1);
}

rd_status rd_scan_linear(struct rd_sched *s, const struct rd_coll_args *a)
{
    return scan_linear(s, a, 1);
}

rd_status rd_exscan_recursive_doubling(struct rd_sched *s, const struct rd_coll_args *a)
{
    return scan_rd(s, a, 0);
}

rd_status rd_exscan_linear(struct rd_sched *s, const struct rd_coll_args *a)
{
    return scan_linear(s, a, 0);
}

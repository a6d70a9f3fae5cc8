/* reduce.c - MPI_Reduce and MPI_Allreduce algorithms.
 *
 * Order matters for non-commutative operations: MPI defines the result as
 * d0 op d1 op ... op d(n-1). rd_op_apply(op, in, inout) computes
 * inout = in op inout, so the lower ranks' partial result must be `in`.
 * Where a tree keeps contiguous rank ranges, the builders keep that order
 * and swap buffers instead of copying. */
#include "config.h"

#include "collectives/algorithms.h"
#include "runtime/objects/comm.h"
#include "runtime/objects/op.h"


/* Binomial tree. Commutative ops: rooted at the root (ranks renumbered).
 * Otherwise rooted at rank 0 on the real ranks, so that every subtree is a
 * contiguous range of ranks, and rank 0 sends the result to the root. */
rd_status rd_reduce_binomial(struct rd_sched *s, const struct rd_coll_args *a)
{
    int n = a->comm->size, r = a->comm->rank, root = a->root;
    int commute = a->op->commute;
    int v = commute ? (r - root + n) % n : r;
    MPI_Count count = a->count;
    MPI_Datatype dt = a->dt;
    const void *mine = a->sbuf == MPI_IN_PLACE ? a->rbuf : a->sbuf;
    if (count == 0)
        return RD_OK;
#define REALV(x) (commute ? ((x) + root) % n : (x))
    const void *cur = mine; /* this rank's partial result so far */
    void *acc = NULL, *tmp = NULL;
    int mask = 1;
    while (mask < n) {
        if (v & mask) {
            RD_TRY(rd_sched_send(s, cur, count, dt, REALV(v - mask)));
            break;
        }
        if (v + mask < n) {
            if (!acc) {
                acc = (v == 0 && r == root) ? a->rbuf : rd_sched_tmp(s, count, dt);
                RD_CNEW(acc);
                RD_TRY(rd_sched_copy(s, mine, count, dt, acc, count, dt));
                tmp = rd_sched_tmp(s, count, dt);
                RD_CNEW(tmp);
                cur = acc;
            }
            RD_TRY(rd_sched_recv(s, tmp, count, dt, REALV(v + mask)));
            RD_TRY(rd_sched_wait(s));
            if (commute) {
                RD_TRY(rd_sched_reduce(s, tmp, acc, count, dt, a->op));
            } else {
                RD_TRY(rd_sched_reduce(s, acc, tmp, count, dt, a->op));
                RD_SWAP(acc, tmp);
                cur = acc;
            }
        }
        mask <<= 1;
    }
    if (v == 0) {
        if (r == root) {
            RD_TRY(rd_sched_copy(s, cur, count, dt, a->rbuf, count, dt));
        } else {
            /* non-commutative, root != 0: hand the result over */
            RD_TRY(rd_sched_send(s, cur, count, dt, root));
        }
    } else if (r == root) {
        RD_TRY(rd_sched_wait(s));
        RD_TRY(rd_sched_recv(s, a->rbuf, count, dt, 0));
    }
#undef REALV
    return RD_OK;
}

/* Linear: the root takes every contribution in turn, from the highest rank
 * down, so that any operation is applied in rank order. */
rd_status rd_reduce_linear(struct rd_sched *s, const struct rd_coll_args *a)
{
    int n = a->comm->size, r = a->comm->rank, root = a->root;
    MPI_Count count = a->count;
    MPI_Datatype dt = a->dt;
    const void *mine = a->sbuf == MPI_IN_PLACE ? a->rbuf : a->sbuf;
    if (count == 0)
        return RD_OK;
    if (r != root)
        return rd_sched_send(s, mine, count, dt, root);
    void *acc = rd_sched_tmp(s, count, dt), *tmp = rd_sched_tmp(s, count, dt);
    RD_CNEW(acc);
    RD_CNEW(tmp);
    if (n - 1 == root)
        RD_TRY(rd_sched_copy(s, mine, count, dt, acc, count, dt));
    else
        RD_TRY(rd_sched_recv(s, acc, count, dt, n - 1));
    for (int i = n - 2; i >= 0; i--) {
        const void *in = mine;
        if (i != root) {
            RD_TRY(rd_sched_recv(s, tmp, count, dt, i));
            in = tmp;
        }
        RD_TRY(rd_sched_wait(s));
        RD_TRY(rd_sched_reduce(s, in, acc, count, dt, a->op));
    }
    RD_TRY(rd_sched_wait(s));
    return rd_sched_copy(s, acc, count, dt, a->rbuf, count, dt);
}

/* ------------------------------------------------------------ allreduce */

/* The rank's data goes to rbuf first (unless in place): rbuf is the
 * accumulator everywhere. */
static rd_status start_in_rbuf(struct rd_sched *s, const struct rd_coll_args *a)
{
    if (a->sbuf == MPI_IN_PLACE)
        return RD_OK;
    return rd_sched_copy(s, a->sbuf, a->count, a->dt, a->rbuf, a->count, a->dt);
}

/* Ranks beyond the largest power of two p2: the first 2 * rem ranks pair
 * up, the even one hands its data to the odd one and waits for the result.
 * Returns the rank's number among the p2 (or -1 if it sits out). */
static rd_status fold_in(struct rd_sched *s, const struct rd_coll_args *a, void *tmp, int *newr)
{
    int n = a->comm->size, r = a->comm->rank;
    int p2 = rd_coll_pow2_floor(n), rem = n - p2;
    if (r < 2 * rem) {
        if (r % 2 == 0) {
            RD_TRY(rd_sched_send(s, a->rbuf, a->count, a->dt, r + 1));
            *newr = -1;
        } else {
            RD_TRY(rd_sched_recv(s, tmp, a->count, a->dt, r - 1));
            RD_TRY(rd_sched_wait(s));
            RD_TRY(rd_sched_reduce(s, tmp, a->rbuf, a->count, a->dt, a->op));
            *newr = r / 2;
        }
    } else {
        *newr = r - rem;
    }
    return RD_OK;
}

static rd_status fold_out(struct rd_sched *s, const struct rd_coll_args *a)
{
    int n = a->comm->size, r = a->comm->rank;
    int rem = n - rd_coll_pow2_floor(n);
    if (r >= 2 * rem)
        return RD_OK;
    RD_TRY(rd_sched_wait(s));
    if (r % 2 == 0)
        return rd_sched_recv(s, a->rbuf, a->count, a->dt, r + 1);
    return rd_sched_send(s, a->rbuf, a->count, a->dt, r - 1);
}

static inline int real_of(int newr, int rem)
{
    return newr < rem ? 2 * newr + 1 : newr + rem;
}

/* Recursive doubling: log2 p2 exchanges of the whole vector. Best for
 * small vectors; keeps rank order, so it serves non-commutative ops. */
rd_status rd_allreduce_recursive_doubling(struct rd_sched *s, const struct rd_coll_args *a)
{
    int n = a->comm->size;
    MPI_Count count = a->count;
    MPI_Datatype dt = a->dt;
    if (count == 0)
        return RD_OK;
    RD_TRY(start_in_rbuf(s, a));
    if (n == 1)
        return RD_OK;
    int p2 = rd_coll_pow2_floor(n), rem = n - p2, newr;
    void *tmp = rd_sched_tmp(s, count, dt);
    RD_CNEW(tmp);
    RD_TRY(fold_in(s, a, tmp, &newr));
    if (newr >= 0) {
        void *acc = a->rbuf;
        for (int mask = 1; mask < p2; mask <<= 1) {
            int pn = newr ^ mask, peer = real_of(pn, rem);
            RD_TRY(rd_sched_send(s, acc, count, dt, peer));
            RD_TRY(rd_sched_recv(s, tmp, count, dt, peer));
            RD_TRY(rd_sched_wait(s));
            if (pn < newr || a->op->commute) {
                RD_TRY(rd_sched_reduce(s, tmp, acc, count, dt, a->op));
            } else {
                RD_TRY(rd_sched_reduce(s, acc, tmp, count, dt, a->op));
                RD_SWAP(acc, tmp);
            }
        }
        RD_TRY(rd_sched_copy(s, acc, count, dt, a->rbuf, count, dt));
    }
    return fold_out(s, a);
}

/* Rabenseifner: reduce-scatter by recursive halving, then allgather by
 * recursive doubling; each rank moves about 2 * count elements. For
 * commutative ops and count >= the power of two (select.c checks). */
rd_status rd_allreduce_rabenseifner(struct rd_sched *s, const struct rd_coll_args *a)
{
    int n = a->comm->size;
    MPI_Count count = a->count;
    MPI_Datatype dt = a->dt;
    void *acc = a->rbuf;
    if (count == 0)
        return RD_OK;
    int p2 = rd_coll_pow2_floor(n), rem = n - p2, newr;
    /* With no ranks to fold in, the first step reads the send buffer
     * directly (sends its far half, reduces into the received near half
     * in rbuf): no copy of the whole vector first. Commutative ops only,
     * so the operands' order does not matter. */
    if (n == 1)
        return start_in_rbuf(s, a);
    const void *src = a->sbuf != MPI_IN_PLACE && rem == 0 ? a->sbuf : a->rbuf;
    if (src == a->rbuf)
        RD_TRY(start_in_rbuf(s, a));
    void *tmp = rd_sched_tmp(s, count, dt);
    RD_CNEW(tmp);
    RD_TRY(fold_in(s, a, tmp, &newr));
    if (newr >= 0) {
        MPI_Count *cnt, *displ;
        RD_TRY(rd_coll_split(s, count, p2, &cnt, &displ));
#define RUN(b0, b1) (displ[(b1) - 1] + cnt[(b1) - 1] - displ[b0])
        for (int mask = p2 / 2; mask >= 1; mask >>= 1) {
            int pn = newr ^ mask, peer = real_of(pn, rem);
            int lo = newr & ~(2 * mask - 1), mid = lo + mask, hi = lo + 2 * mask;
            int k0 = newr < pn ? lo : mid, k1 = newr < pn ? mid : hi; /* kept */
            int s0 = newr < pn ? mid : lo, s1 = newr < pn ? hi : mid; /* sent */
            int first = mask == p2 / 2 && src != a->rbuf;
            RD_TRY(rd_sched_send(s, rd_coll_at(first ? src : acc, displ[s0], dt), RUN(s0, s1), dt, peer));
            if (first) {
                /* the partner's near half lands in rbuf; ours is added to it */
                RD_TRY(rd_sched_recv(s, rd_coll_at(acc, displ[k0], dt), RUN(k0, k1), dt, peer));
                RD_TRY(rd_sched_wait(s));
                RD_TRY(rd_sched_reduce(s, rd_coll_at(src, displ[k0], dt), rd_coll_at(acc, displ[k0], dt),
                                        RUN(k0, k1), dt, a->op));
                continue;
            }
            RD_TRY(rd_sched_recv(s, rd_coll_at(tmp, displ[k0], dt), RUN(k0, k1), dt, peer));
            RD_TRY(rd_sched_wait(s));
            RD_TRY(rd_sched_reduce(s, rd_coll_at(tmp, displ[k0], dt), rd_coll_at(acc, displ[k0], dt),
                                    RUN(k0, k1), dt, a->op));
        }
        for (int mask = 1; mask < p2; mask <<= 1) {
            int pn = newr ^ mask, peer = real_of(pn, rem);
            int lo = newr & ~(mask - 1), plo = pn & ~(mask - 1);
            RD_TRY(rd_sched_send(s, rd_coll_at(acc, displ[lo], dt), RUN(lo, lo + mask), dt, peer));
            RD_TRY(rd_sched_recv(s, rd_coll_at(acc, displ[plo], dt), RUN(plo, plo + mask), dt, peer));
            RD_TRY(rd_sched_wait(s));
        }
#undef RUN
    }
    return fold_out(s, a);
}

/* Ring: reduce-scatter round the ring, then allgather round it; 2(n-1)
 * steps of count/n elements. Bandwidth-optimal for any n; commutative ops. */
rd_status rd_allreduce_ring(struct rd_sched *s, const struct rd_coll_args *a)
{
    int n = a->comm->size, r = a->comm->rank;
    MPI_Count count = a->count;
    MPI_Datatype dt = a->dt;
    void *acc = a->rbuf;
    if (count == 0)
        return RD_OK;
    RD_TRY(start_in_rbuf(s, a));
    if (n == 1)
        return RD_OK;
    MPI_Count *cnt, *displ;
    RD_TRY(rd_coll_split(s, count, n, &cnt, &displ));
    void *tmp = rd_sched_tmp(s, cnt[0], dt);
    RD_CNEW(tmp);
    int right = (r + 1) % n, left = (r - 1 + n) % n;
    for (int i = 0; i < n - 1; i++) {
        int sb = (r - i + n) % n, rb = (r - i - 1 + n) % n;
        RD_TRY(rd_sched_send(s, rd_coll_at(acc, displ[sb], dt), cnt[sb], dt, right));
        RD_TRY(rd_sched_recv(s, tmp, cnt[rb], dt, left));
        RD_TRY(rd_sched_wait(s));
        RD_TRY(rd_sched_reduce(s, tmp, rd_coll_at(acc, displ[rb], dt), cnt[rb], dt, a->op));
    }
    for (int i = 0; i < n - 1; i++) {
        int sb = (r + 1 - i + n) % n, rb = (r - i + n) % n;
        RD_TRY(rd_sched_send(s, rd_coll_at(acc, displ[sb], dt), cnt[sb], dt, right));
        RD_TRY(rd_sched_recv(s, rd_coll_at(acc, displ[rb], dt), cnt[rb], dt, left));
        RD_TRY(rd_sched_wait(s));
    }
    return RD_OK;
}

/* Reduce to rank 0, then broadcast from it. */
rd_status rd_allreduce_reduce_bcast(struct rd_sched *s, const struct rd_coll_args *a)
{
    if (a->count == 0)
        return RD_OK;
    struct rd_coll_args b = *a;
    b.root = 0;
    RD_TRY(rd_reduce_binomial(s, &b));
    RD_TRY(rd_sched_wait(s));
    b.sbuf = NULL;
    return rd_bcast_binomial(s, &b);
}

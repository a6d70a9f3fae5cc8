/* bcast.c - MPI_Bcast algorithms. Ranks are renumbered relative to the
 * root (v = rank - root mod n) so that every tree is rooted at v = 0. */
#include "config.h"

#include <limits.h>

#include "collectives/algorithms.h"
#include "runtime/base/params.h"
#include "runtime/objects/comm.h"

#define REAL(v) (((v) + a->root) % n)

/* Binomial tree: v receives from v minus its lowest set bit, then sends to
 * v + 2^k for every 2^k below that bit, farthest first. */
rd_status rd_bcast_binomial(struct rd_sched *s, const struct rd_coll_args *a)
{
    int n = a->comm->size, v = (a->comm->rank - a->root + n) % n;
    if (a->count == 0 || n == 1)
        return RD_OK;
    int mask = 1;
    while (mask < n) {
        if (v & mask) {
            RD_TRY(rd_sched_recv(s, a->rbuf, a->count, a->dt, REAL(v - mask)));
            RD_TRY(rd_sched_wait(s));
            break;
        }
        mask <<= 1;
    }
    for (mask >>= 1; mask > 0; mask >>= 1)
        if (v + mask < n)
            RD_TRY(rd_sched_send(s, a->rbuf, a->count, a->dt, REAL(v + mask)));
    return RD_OK;
}

/* Scatter then allgather (van de Geijn): the root scatters n chunks down a
 * binomial tree, then a ring passes every chunk round. Each rank moves
 * about 2 * count elements whatever n, instead of count * log2 n. */
static rd_status scatter_allgather(struct rd_sched *s, const struct rd_coll_args *a)
{
    int n = a->comm->size, v = (a->comm->rank - a->root + n) % n;
    if (a->count == 0 || n == 1)
        return RD_OK;
    MPI_Count *cnt, *displ;
    RD_TRY(rd_coll_split(s, a->count, n, &cnt, &displ));
    void *buf = a->rbuf;
    MPI_Datatype dt = a->dt;
    /* chunks [c0, c1) as one run of elements */
#define RANGE_COUNT(c0, c1) (displ[(c1) - 1] + cnt[(c1) - 1] - displ[c0])
    /* scatter: v holds chunks [v, v + its subtree) */
    int mask = 1;
    while (mask < n) {
        if (v & mask) {
            int hi = v + mask < n ? v + mask : n;
            RD_TRY(rd_sched_recv(s, rd_coll_at(buf, displ[v], dt), RANGE_COUNT(v, hi), dt,
                                  REAL(v - mask)));
            RD_TRY(rd_sched_wait(s));
            break;
        }
        mask <<= 1;
    }
    for (mask >>= 1; mask > 0; mask >>= 1) {
        int c = v + mask;
        if (c < n) {
            int hi = c + mask < n ? c + mask : n;
            RD_TRY(rd_sched_send(s, rd_coll_at(buf, displ[c], dt), RANGE_COUNT(c, hi), dt,
                                  REAL(c)));
        }
    }
    RD_TRY(rd_sched_wait(s));
    /* ring allgather of the chunks */
    int right = REAL((v + 1) % n), left = REAL((v - 1 + n) % n);
    for (int i = 0; i < n - 1; i++) {
        int sc = (v - i + n) % n, rc = (v - i - 1 + n) % n;
        RD_TRY(rd_sched_send(s, rd_coll_at(buf, displ[sc], dt), cnt[sc], dt, right));
        RD_TRY(rd_sched_recv(s, rd_coll_at(buf, displ[rc], dt), cnt[rc], dt, left));
        RD_TRY(rd_sched_wait(s));
    }
#undef RANGE_COUNT
    return RD_OK;
}

/* Pipelined chain: segments flow root -> v1 -> v2 ...; while a rank
 * receives segment j it forwards segment j - 1. */
static rd_status pipeline(struct rd_sched *s, const struct rd_coll_args *a)
{
    int n = a->comm->size, v = (a->comm->rank - a->root + n) % n;
    if (a->count == 0 || n == 1)
        return RD_OK;
    size_t seg_bytes = (size_t)rd_param.coll_segment;
    MPI_Count seg = a->dt->size ? (MPI_Count)(seg_bytes / a->dt->size) : a->count;
    if (seg < 1)
        seg = 1;
    MPI_Count nseg = (a->count + seg - 1) / seg;
    int prev = v > 0 ? REAL(v - 1) : MPI_PROC_NULL;
    int next = v < n - 1 ? REAL(v + 1) : MPI_PROC_NULL;
    for (MPI_Count j = 0; j <= nseg; j++) {
        if (j < nseg) {
            MPI_Count c = j == nseg - 1 ? a->count - j * seg : seg;
            RD_TRY(rd_sched_recv(s, rd_coll_at(a->rbuf, (MPI_Aint)j * seg, a->dt), c, a->dt, prev));
        }
        if (j > 0) {
            MPI_Count c = j - 1 == nseg - 1 ? a->count - (j - 1) * seg : seg;
            RD_TRY(rd_sched_send(s, rd_coll_at(a->rbuf, (MPI_Aint)(j - 1) * seg, a->dt), c, a->dt,
                                  next));
        }
        RD_TRY(rd_sched_wait(s));
    }
    return RD_OK;
}

/* The algorithms that cut the vector in pieces cut its bytes: ranks may
 * describe the same bytes with different (count, type) pairs (MPI asks
 * only for the same type signature), and pieces of elements would not
 * match. A rank whose layout is not one run of bytes works in packed
 * scratch (the root packs first, the others unpack at the end). */
static rd_status in_bytes(struct rd_sched *s, const struct rd_coll_args *a,
                          rd_status (*alg)(struct rd_sched *, const struct rd_coll_args *))
{
    size_t bytes = (size_t)a->count * a->dt->size;
    struct rd_coll_args b = *a;
    b.count = (MPI_Count)bytes;
    b.dt = MPI_BYTE;
    int root = a->comm->rank == a->root;
    if (a->dt->contig) {
        b.rbuf = (char *)a->rbuf + a->dt->true_lb;
        return alg(s, &b);
    }
    b.rbuf = rd_sched_alloc(s, bytes ? bytes : 1);
    RD_CNEW(b.rbuf);
    if (root)
        RD_TRY(rd_sched_copy(s, a->rbuf, a->count, a->dt, b.rbuf, b.count, MPI_BYTE));
    RD_TRY(alg(s, &b));
    if (root)
        return RD_OK;
    RD_TRY(rd_sched_wait(s));
    return rd_sched_copy(s, b.rbuf, b.count, MPI_BYTE, a->rbuf, a->count, a->dt);
}

rd_status rd_bcast_scatter_allgather(struct rd_sched *s, const struct rd_coll_args *a)
{
    return in_bytes(s, a, scatter_allgather);
}

rd_status rd_bcast_pipeline(struct rd_sched *s, const struct rd_coll_args *a)
{
    return in_bytes(s, a, pipeline);
}

/* Linear: the root sends to every rank. */
rd_status rd_bcast_linear(struct rd_sched *s, const struct rd_coll_args *a)
{
    int n = a->comm->size, r = a->comm->rank;
    if (a->count == 0 || n == 1)
        return RD_OK;
    if (r == a->root) {
        for (int i = 1; i < n; i++)
            RD_TRY(rd_sched_send(s, a->rbuf, a->count, a->dt, REAL(i)));
    } else {
        RD_TRY(rd_sched_recv(s, a->rbuf, a->count, a->dt, a->root));
    }
    return RD_OK;
}

/* gather.c - MPI_Gather(v), MPI_Scatter(v), MPI_Allgather(v).
 *
 * The binomial trees move packed bytes (MPI_BYTE): a rank knows only its
 * own side's datatype, and a subtree's blocks travel as one message. */
#include "config.h"

#include "collectives/algorithms.h"
#include "runtime/objects/comm.h"

static inline int lowbit_subtree(int v, int n)
{
    /* ranks in v's subtree of the binomial tree rooted at 0: v .. v+m-1 */
    if (v == 0)
        return n;
    int m = v & -v;
    return v + m < n ? m : n - v;
}

/* ------------------------------------------------------------ gather */

rd_status rd_gather_binomial(struct rd_sched *s, const struct rd_coll_args *a)
{
    int n = a->comm->size, r = a->comm->rank, root = a->root;
    int v = (r - root + n) % n;
    int inplace = a->sbuf == MPI_IN_PLACE;
    size_t B = r == root ? (size_t)a->rcount * a->rdt->size : (size_t)a->scount * a->sdt->size;
    if (B == 0)
        return RD_OK;
    int m = lowbit_subtree(v, n);
    int parent = v ? ((v - (v & -v)) + root) % n : -1;
    if (m == 1 && v != 0)
        return rd_sched_send(s, a->sbuf, a->scount, a->sdt, parent);
    char *tmp = rd_sched_alloc(s, (size_t)m * B);
    RD_CNEW(tmp);
    if (inplace)
        RD_TRY(rd_sched_copy(s, rd_coll_at(a->rbuf, (MPI_Aint)r * a->rcount, a->rdt), a->rcount,
                              a->rdt, tmp, (MPI_Count)B, MPI_BYTE));
    else
        RD_TRY(rd_sched_copy(s, a->sbuf, a->scount, a->sdt, tmp, (MPI_Count)B, MPI_BYTE));
    for (int mask = 1; mask < m; mask <<= 1) {
        int c = v + mask;
        int cm = c + mask <= v + m ? mask : v + m - c;
        RD_TRY(rd_sched_recv(s, tmp + (size_t)mask * B, (MPI_Count)((size_t)cm * B), MPI_BYTE, (c + root) % n));
    }
    RD_TRY(rd_sched_wait(s));
    if (v != 0)
        return rd_sched_send(s, tmp, (MPI_Count)((size_t)m * B), MPI_BYTE, parent);
    for (int i = inplace ? 1 : 0; i < n; i++)
        RD_TRY(rd_sched_copy(s, tmp + (size_t)i * B, (MPI_Count)B, MPI_BYTE,
                              rd_coll_at(a->rbuf, (MPI_Aint)((i + root) % n) * a->rcount, a->rdt),
                              a->rcount, a->rdt));
    return RD_OK;
}

rd_status rd_gather_linear(struct rd_sched *s, const struct rd_coll_args *a)
{
    int n = a->comm->size, r = a->comm->rank, root = a->root;
    if (r != root)
        return rd_sched_send(s, a->sbuf, a->scount, a->sdt, root);
    for (int i = 0; i < n; i++) {
        void *at = rd_coll_at(a->rbuf, (MPI_Aint)i * a->rcount, a->rdt);
        if (i == r) {
            if (a->sbuf != MPI_IN_PLACE)
                RD_TRY(rd_sched_copy(s, a->sbuf, a->scount, a->sdt, at, a->rcount, a->rdt));
        } else {
            RD_TRY(rd_sched_recv(s, at, a->rcount, a->rdt, i));
        }
    }
    return RD_OK;
}

rd_status rd_gatherv_linear(struct rd_sched *s, const struct rd_coll_args *a)
{
    int n = a->comm->size, r = a->comm->rank, root = a->root;
    if (r != root)
        return rd_sched_send(s, a->sbuf, a->scount, a->sdt, root);
    for (int i = 0; i < n; i++) {
        void *at = rd_coll_at(a->rbuf, rd_coll_displ(a, a->rdispls, i), a->rdt);
        if (i == r) {
            if (a->sbuf != MPI_IN_PLACE)
                RD_TRY(rd_sched_copy(s, a->sbuf, a->scount, a->sdt, at, rd_coll_cnt(a, a->rcounts, i), a->rdt));
        } else {
            RD_TRY(rd_sched_recv(s, at, rd_coll_cnt(a, a->rcounts, i), a->rdt, i));
        }
    }
    return RD_OK;
}

/* ------------------------------------------------------------ scatter */

rd_status rd_scatter_binomial(struct rd_sched *s, const struct rd_coll_args *a)
{
    int n = a->comm->size, r = a->comm->rank, root = a->root;
    int v = (r - root + n) % n;
    int inplace = a->rbuf == MPI_IN_PLACE; /* at the root only */
    size_t B = r == root ? (size_t)a->scount * a->sdt->size : (size_t)a->rcount * a->rdt->size;
    if (B == 0)
        return RD_OK;
    int m = lowbit_subtree(v, n);
    int parent = v ? ((v - (v & -v)) + root) % n : -1;
    if (m == 1 && v != 0)
        return rd_sched_recv(s, a->rbuf, a->rcount, a->rdt, parent);
    char *tmp = rd_sched_alloc(s, (size_t)m * B);
    RD_CNEW(tmp);
    if (v == 0) {
        for (int i = 1; i < n; i++)
            RD_TRY(rd_sched_copy(s, rd_coll_at(a->sbuf, (MPI_Aint)((i + root) % n) * a->scount, a->sdt),
                                  a->scount, a->sdt, tmp + (size_t)i * B, (MPI_Count)B, MPI_BYTE));
        if (!inplace)
            RD_TRY(rd_sched_copy(s, rd_coll_at(a->sbuf, (MPI_Aint)r * a->scount, a->sdt), a->scount,
                                  a->sdt, a->rbuf, a->rcount, a->rdt));
    } else {
        RD_TRY(rd_sched_recv(s, tmp, (MPI_Count)((size_t)m * B), MPI_BYTE, parent));
        RD_TRY(rd_sched_wait(s));
        RD_TRY(rd_sched_copy(s, tmp, (MPI_Count)B, MPI_BYTE, a->rbuf, a->rcount, a->rdt));
    }
    int top = 1;
    while (top < m)
        top <<= 1;
    for (int mask = top >> 1; mask >= 1; mask >>= 1) {
        int c = v + mask;
        if (mask >= m)
            continue;
        int cm = c + mask <= v + m ? mask : v + m - c;
        RD_TRY(rd_sched_send(s, tmp + (size_t)mask * B, (MPI_Count)((size_t)cm * B), MPI_BYTE, (c + root) % n));
    }
    return RD_OK;
}

rd_status rd_scatter_linear(struct rd_sched *s, const struct rd_coll_args *a)
{
    int n = a->comm->size, r = a->comm->rank, root = a->root;
    if (r != root)
        return rd_sched_recv(s, a->rbuf, a->rcount, a->rdt, root);
    for (int i = 0; i < n; i++) {
        const void *at = rd_coll_at(a->sbuf, (MPI_Aint)i * a->scount, a->sdt);
        if (i == r) {
            if (a->rbuf != MPI_IN_PLACE)
                RD_TRY(rd_sched_copy(s, at, a->scount, a->sdt, a->rbuf, a->rcount, a->rdt));
        } else {
            RD_TRY(rd_sched_send(s, at, a->scount, a->sdt, i));
        }
    }
    return RD_OK;
}

rd_status rd_scatterv_linear(struct rd_sched *s, const struct rd_coll_args *a)
{
    int n = a->comm->size, r = a->comm->rank, root = a->root;
    if (r != root)
        return rd_sched_recv(s, a->rbuf, a->rcount, a->rdt, root);
    for (int i = 0; i < n; i++) {
        const void *at = rd_coll_at(a->sbuf, rd_coll_displ(a, a->sdispls, i), a->sdt);
        if (i == r) {
            if (a->rbuf != MPI_IN_PLACE)
                RD_TRY(rd_sched_copy(s, at, rd_coll_cnt(a, a->scounts, i), a->sdt, a->rbuf, a->rcount, a->rdt));
        } else {
            RD_TRY(rd_sched_send(s, at, rd_coll_cnt(a, a->scounts, i), a->sdt, i));
        }
    }
    return RD_OK;
}

/* ------------------------------------------------------------ allgather */

static rd_status own_block(struct rd_sched *s, const struct rd_coll_args *a, void *at, MPI_Count rcount)
{
    if (a->sbuf == MPI_IN_PLACE)
        return RD_OK;
    return rd_sched_copy(s, a->sbuf, a->scount, a->sdt, at, rcount, a->rdt);
}

#define BLOCK(b) rd_coll_at(a->rbuf, (MPI_Aint)(b) * a->rcount, a->rdt)

/* Ring: n - 1 steps, each passing one block to the right. */
rd_status rd_allgather_ring(struct rd_sched *s, const struct rd_coll_args *a)
{
    int n = a->comm->size, r = a->comm->rank;
    RD_TRY(own_block(s, a, BLOCK(r), a->rcount));
    int right = (r + 1) % n, left = (r - 1 + n) % n;
    for (int i = 0; i < n - 1; i++) {
        int sb = (r - i + n) % n, rb = (r - i - 1 + n) % n;
        RD_TRY(rd_sched_send(s, BLOCK(sb), a->rcount, a->rdt, right));
        RD_TRY(rd_sched_recv(s, BLOCK(rb), a->rcount, a->rdt, left));
        RD_TRY(rd_sched_wait(s));
    }
    return RD_OK;
}

/* Recursive doubling (n a power of two): log2 n exchanges of doubling
 * runs of blocks. */
rd_status rd_allgather_recursive_doubling(struct rd_sched *s, const struct rd_coll_args *a)
{
    int n = a->comm->size, r = a->comm->rank;
    RD_TRY(own_block(s, a, BLOCK(r), a->rcount));
    for (int mask = 1; mask < n; mask <<= 1) {
        int peer = r ^ mask, lo = r & ~(mask - 1), plo = peer & ~(mask - 1);
        RD_TRY(rd_sched_send(s, BLOCK(lo), mask * a->rcount, a->rdt, peer));
        RD_TRY(rd_sched_recv(s, BLOCK(plo), mask * a->rcount, a->rdt, peer));
        RD_TRY(rd_sched_wait(s));
    }
    return RD_OK;
}

/* Bruck: ceil(log2 n) steps for any n, into a buffer rotated so that this
 * rank's block comes first; rotated back at the end. */
rd_status rd_allgather_bruck(struct rd_sched *s, const struct rd_coll_args *a)
{
    int n = a->comm->size, r = a->comm->rank;
    MPI_Count rc = a->rcount;
    MPI_Datatype dt = a->rdt;
    if (n == 1)
        return own_block(s, a, BLOCK(r), rc);
    void *tmp = rd_sched_tmp(s, n * rc, dt);
    RD_CNEW(tmp);
    if (a->sbuf == MPI_IN_PLACE)
        RD_TRY(rd_sched_copy(s, BLOCK(r), rc, dt, tmp, rc, dt));
    else
        RD_TRY(rd_sched_copy(s, a->sbuf, a->scount, a->sdt, tmp, rc, dt));
    for (int k = 1; k < n; k <<= 1) {
        int cnt = k < n - k ? k : n - k;
        RD_TRY(rd_sched_send(s, tmp, cnt * rc, dt, (r - k + n) % n));
        RD_TRY(rd_sched_recv(s, rd_coll_at(tmp, (MPI_Aint)k * rc, dt), cnt * rc, dt, (r + k) % n));
        RD_TRY(rd_sched_wait(s));
    }
    /* tmp block i is rank (r + i) mod n's */
    RD_TRY(rd_sched_copy(s, tmp, (n - r) * rc, dt, BLOCK(r), (n - r) * rc, dt));
    if (r > 0)
        RD_TRY(rd_sched_copy(s, rd_coll_at(tmp, (MPI_Aint)(n - r) * rc, dt), r * rc, dt, BLOCK(0),
                              r * rc, dt));
    return RD_OK;
}
#undef BLOCK

#define VBLOCK(b) rd_coll_at(a->rbuf, rd_coll_displ(a, a->rdispls, b), a->rdt)
#define VCOUNT(b) rd_coll_cnt(a, a->rcounts, b)

rd_status rd_allgatherv_ring(struct rd_sched *s, const struct rd_coll_args *a)
{
    int n = a->comm->size, r = a->comm->rank;
    RD_TRY(own_block(s, a, VBLOCK(r), VCOUNT(r)));
    int right = (r + 1) % n, left = (r - 1 + n) % n;
    for (int i = 0; i < n - 1; i++) {
        int sb = (r - i + n) % n, rb = (r - i - 1 + n) % n;
        RD_TRY(rd_sched_send(s, VBLOCK(sb), VCOUNT(sb), a->rdt, right));
        RD_TRY(rd_sched_recv(s, VBLOCK(rb), VCOUNT(rb), a->rdt, left));
        RD_TRY(rd_sched_wait(s));
    }
    return RD_OK;
}

/* Linear: every rank sends its block to every other rank at once. */
rd_status rd_allgatherv_linear(struct rd_sched *s, const struct rd_coll_args *a)
{
    int n = a->comm->size, r = a->comm->rank;
    RD_TRY(own_block(s, a, VBLOCK(r), VCOUNT(r)));
    const void *mine = a->sbuf == MPI_IN_PLACE ? VBLOCK(r) : a->sbuf;
    MPI_Count mc = a->sbuf == MPI_IN_PLACE ? VCOUNT(r) : a->scount;
    MPI_Datatype mdt = a->sbuf == MPI_IN_PLACE ? a->rdt : a->sdt;
    for (int i = 1; i < n; i++) {
        int from = (r - i + n) % n, to = (r + i) % n;
        RD_TRY(rd_sched_recv(s, VBLOCK(from), VCOUNT(from), a->rdt, from));
        RD_TRY(rd_sched_send(s, mine, mc, mdt, to));
    }
    return RD_OK;
}
#undef VBLOCK
#undef VCOUNT

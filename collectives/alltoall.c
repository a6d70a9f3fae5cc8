/* alltoall.c - MPI_Alltoall(v,w). In place, the data to send is first
 * copied aside (the receive buffer is overwritten as blocks arrive). */
#include "config.h"

#include <string.h>

#include "collectives/algorithms.h"
#include "runtime/objects/comm.h"

/* The send side: (buf, count, dt) of block i, in any form. */
struct side {
    const void *buf;
    MPI_Count count;
    MPI_Datatype dt;
    const void *counts, *displs;   /* v: element displacements; w: bytes */
    const MPI_Datatype *dts;       /* w */
    const struct rd_coll_args *a;  /* how wide counts and displs are */
};

static const void *sblock(const struct side *x, int i, MPI_Count *count, MPI_Datatype *dt)
{
    if (x->dts) {
        *count = rd_coll_cnt(x->a, x->counts, i);
        *dt = x->dts[i];
        return (const char *)x->buf + rd_coll_displ(x->a, x->displs, i);
    }
    *dt = x->dt;
    if (x->counts) {
        *count = rd_coll_cnt(x->a, x->counts, i);
        return rd_coll_at(x->buf, rd_coll_displ(x->a, x->displs, i), x->dt);
    }
    *count = x->count;
    return rd_coll_at(x->buf, (MPI_Aint)i * x->count, x->dt);
}

static struct side recv_side(const struct rd_coll_args *a)
{
    struct side x = {a->rbuf, a->rcount, a->rdt, a->rcounts, a->rdispls, a->rdts, a};
    return x;
}

/* The send side, copying the receive buffer aside when in place. */
static rd_status send_side(struct rd_sched *s, const struct rd_coll_args *a, struct side *out)
{
    struct side x = {a->sbuf, a->scount, a->sdt, a->scounts, a->sdispls, a->sdts, a};
    if (a->sbuf != MPI_IN_PLACE) {
        *out = x;
        return RD_OK;
    }
    /* the extent of the receive buffer: the furthest byte any block uses */
    struct side rs = recv_side(a);
    int n = a->comm->size;
    MPI_Aint lo = 0, hi = 0;
    for (int i = 0; i < n; i++) {
        MPI_Count c;
        MPI_Datatype dt;
        const char *p = sblock(&rs, i, &c, &dt);
        if (c == 0)
            continue;
        MPI_Aint b0 = (p - (const char *)a->rbuf) + dt->true_lb;
        MPI_Aint b1 = b0 + dt->true_extent + (MPI_Aint)(c - 1) * dt->extent;
        if (i == 0 || b0 < lo)
            lo = b0;
        if (b1 > hi)
            hi = b1;
    }
    char *copy = rd_sched_alloc(s, (size_t)(hi - lo));
    RD_CNEW(copy);
    RD_TRY(rd_sched_copy(s, (char *)a->rbuf + lo, (MPI_Count)(hi - lo), MPI_BYTE, copy, (MPI_Count)(hi - lo), MPI_BYTE));
    x = rs;
    x.buf = copy - lo;
    *out = x;
    return RD_OK;
}

static rd_status own(struct rd_sched *s, const struct side *sx, const struct side *rx, int r)
{
    MPI_Count sc, rc;
    MPI_Datatype sdt, rdt;
    const void *sp = sblock(sx, r, &sc, &sdt);
    void *rp = (void *)sblock(rx, r, &rc, &rdt);
    return rd_sched_copy(s, sp, sc, sdt, rp, rc, rdt);
}

/* Pairwise: in step i, send to r + i and receive from r - i; one pair of
 * messages in flight per rank. For large blocks. */
static rd_status pairwise(struct rd_sched *s, const struct rd_coll_args *a)
{
    int n = a->comm->size, r = a->comm->rank;
    struct side sx, rx = recv_side(a);
    RD_TRY(send_side(s, a, &sx));
    RD_TRY(own(s, &sx, &rx, r));
    for (int i = 1; i < n; i++) {
        int to = (r + i) % n, from = (r - i + n) % n;
        MPI_Count c;
        MPI_Datatype dt;
        const void *p = sblock(&sx, to, &c, &dt);
        RD_TRY(rd_sched_send(s, p, c, dt, to));
        p = sblock(&rx, from, &c, &dt);
        RD_TRY(rd_sched_recv(s, (void *)p, c, dt, from));
        RD_TRY(rd_sched_wait(s));
    }
    return RD_OK;
}

/* Linear: every send and receive posted at once, in staggered order. */
static rd_status linear(struct rd_sched *s, const struct rd_coll_args *a)
{
    int n = a->comm->size, r = a->comm->rank;
    struct side sx, rx = recv_side(a);
    RD_TRY(send_side(s, a, &sx));
    RD_TRY(own(s, &sx, &rx, r));
    for (int i = 1; i < n; i++) {
        int from = (r - i + n) % n;
        MPI_Count c;
        MPI_Datatype dt;
        const void *p = sblock(&rx, from, &c, &dt);
        RD_TRY(rd_sched_recv(s, (void *)p, c, dt, from));
    }
    for (int i = 1; i < n; i++) {
        int to = (r + i) % n;
        MPI_Count c;
        MPI_Datatype dt;
        const void *p = sblock(&sx, to, &c, &dt);
        RD_TRY(rd_sched_send(s, p, c, dt, to));
    }
    return RD_OK;
}

rd_status rd_alltoall_pairwise(struct rd_sched *s, const struct rd_coll_args *a) { return pairwise(s, a); }
rd_status rd_alltoall_linear(struct rd_sched *s, const struct rd_coll_args *a) { return linear(s, a); }
rd_status rd_alltoallv_pairwise(struct rd_sched *s, const struct rd_coll_args *a) { return pairwise(s, a); }
rd_status rd_alltoallv_linear(struct rd_sched *s, const struct rd_coll_args *a) { return linear(s, a); }
rd_status rd_alltoallw_pairwise(struct rd_sched *s, const struct rd_coll_args *a) { return pairwise(s, a); }
rd_status rd_alltoallw_linear(struct rd_sched *s, const struct rd_coll_args *a) { return linear(s, a); }

/* Bruck: ceil(log2 n) steps for small blocks. Blocks are handled packed
 * (B bytes each) in a buffer rotated so that block i is the one for rank
 * r + i; in step k every block whose index has bit k set moves k ranks on. */
rd_status rd_alltoall_bruck(struct rd_sched *s, const struct rd_coll_args *a)
{
    int n = a->comm->size, r = a->comm->rank;
    struct side sx, rx = recv_side(a);
    RD_TRY(send_side(s, a, &sx));
    size_t B = (size_t)a->rcount * a->rdt->size;
    if (n == 1)
        return own(s, &sx, &rx, r);
    if (B == 0)
        return RD_OK;
    char *tmp = rd_sched_alloc(s, (size_t)n * B);
    char *sendb = rd_sched_alloc(s, (size_t)((n + 1) / 2) * B);
    char *recvb = rd_sched_alloc(s, (size_t)((n + 1) / 2) * B);
    RD_CNEW(tmp);
    RD_CNEW(sendb);
    RD_CNEW(recvb);
    for (int i = 0; i < n; i++) {
        MPI_Count c;
        MPI_Datatype dt;
        const void *p = sblock(&sx, (r + i) % n, &c, &dt);
        RD_TRY(rd_sched_copy(s, p, c, dt, tmp + (size_t)i * B, (MPI_Count)B, MPI_BYTE));
    }
    for (int k = 1; k < n; k <<= 1) {
        int nb = 0;
        for (int i = 0; i < n; i++)
            if (i & k)
                RD_TRY(rd_sched_copy(s, tmp + (size_t)i * B, (MPI_Count)B, MPI_BYTE, sendb + (size_t)nb++ * B,
                                      (MPI_Count)B, MPI_BYTE));
        RD_TRY(rd_sched_send(s, sendb, (MPI_Count)(nb * B), MPI_BYTE, (r + k) % n));
        RD_TRY(rd_sched_recv(s, recvb, (MPI_Count)(nb * B), MPI_BYTE, (r - k + n) % n));
        RD_TRY(rd_sched_wait(s));
        nb = 0;
        for (int i = 0; i < n; i++)
            if (i & k)
                RD_TRY(rd_sched_copy(s, recvb + (size_t)nb++ * B, (MPI_Count)B, MPI_BYTE, tmp + (size_t)i * B,
                                      (MPI_Count)B, MPI_BYTE));
    }
    /* tmp block i now holds what rank r - i sent to r */
    for (int i = 0; i < n; i++) {
        MPI_Count c;
        MPI_Datatype dt;
        void *p = (void *)sblock(&rx, (r - i + n) % n, &c, &dt);
        RD_TRY(rd_sched_copy(s, tmp + (size_t)i * B, (MPI_Count)B, MPI_BYTE, p, c, dt));
    }
    return RD_OK;
}

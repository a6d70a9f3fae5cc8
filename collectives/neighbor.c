/* neighbor.c - neighbourhood collectives on Cartesian, graph and
 * distributed-graph communicators.
 *
 * In-neighbours and out-neighbours in the standard's order. On a Cartesian
 * grid a rank can be the same neighbour twice (a periodic dimension of size
 * 1 or 2), so each message carries a sub-tag naming the direction it
 * travels in, and a receive expects the opposite direction. */
#include "config.h"

#include "collectives/algorithms.h"
#include "runtime/objects/comm.h"

struct nbrs {
    int nin, nout;
    int *in, *out;       /* ranks (MPI_PROC_NULL allowed) */
    int *insub, *outsub; /* sub-tags */
};

static rd_status neighbors(struct rd_sched *s, MPI_Comm comm, struct nbrs *nb)
{
    if (comm->cart) {
        const struct rd_cart *c = comm->cart;
        int k = 2 * c->ndims;
        int *m = rd_sched_alloc(s, 4 * (size_t)(k ? k : 1) * sizeof(int));
        RD_CNEW(m);
        nb->nin = nb->nout = k;
        nb->in = nb->out = m;
        nb->insub = m + k;
        nb->outsub = m + 2 * k;
        long stride = 1;
        for (int d = c->ndims - 1; d >= 0; d--) {
            int dim = c->dims[d], co = (int)((comm->rank / stride) % dim);
            for (int sgn = 0; sgn < 2; sgn++) {
                int x = co + (sgn ? 1 : -1), j = 2 * d + sgn;
                if (c->periods[d])
                    x = (x + dim) % dim;
                m[j] = (x < 0 || x >= dim) ? MPI_PROC_NULL : (int)(comm->rank + (long)(x - co) * stride);
                nb->outsub[j] = j;
                nb->insub[j] = 2 * d + (1 - sgn);
            }
            stride *= dim;
        }
        return RD_OK;
    }
    if (comm->graph) {
        const struct rd_graph *g = comm->graph;
        int r = comm->rank, lo = r ? g->index[r - 1] : 0, k = g->index[r] - lo;
        int *z = rd_sched_alloc(s, (size_t)(k ? k : 1) * sizeof(int));
        RD_CNEW(z);
        for (int i = 0; i < k; i++)
            z[i] = 0;
        nb->nin = nb->nout = k;
        nb->in = nb->out = g->edges + lo;
        nb->insub = nb->outsub = z;
        return RD_OK;
    }
    const struct rd_dgraph *g = comm->dgraph;
    int k = g->indegree > g->outdegree ? g->indegree : g->outdegree;
    int *z = rd_sched_alloc(s, (size_t)(k ? k : 1) * sizeof(int));
    RD_CNEW(z);
    for (int i = 0; i < k; i++)
        z[i] = 0;
    nb->nin = g->indegree;
    nb->nout = g->outdegree;
    nb->in = g->sources;
    nb->out = g->destinations;
    nb->insub = nb->outsub = z;
    return RD_OK;
}

rd_status rd_neighbor_allgather(struct rd_sched *s, const struct rd_coll_args *a)
{
    struct nbrs nb;
    RD_TRY(neighbors(s, a->comm, &nb));
    for (int i = 0; i < nb.nin; i++)
        RD_TRY(rd_sched_recv_sub(s, rd_coll_at(a->rbuf, (MPI_Aint)i * a->rcount, a->rdt), a->rcount,
                                  a->rdt, nb.in[i], nb.insub[i]));
    for (int i = 0; i < nb.nout; i++)
        RD_TRY(rd_sched_send_sub(s, a->sbuf, a->scount, a->sdt, nb.out[i], nb.outsub[i]));
    return RD_OK;
}

rd_status rd_neighbor_allgatherv(struct rd_sched *s, const struct rd_coll_args *a)
{
    struct nbrs nb;
    RD_TRY(neighbors(s, a->comm, &nb));
    for (int i = 0; i < nb.nin; i++)
        RD_TRY(rd_sched_recv_sub(s, rd_coll_at(a->rbuf, rd_coll_displ(a, a->rdispls, i), a->rdt), rd_coll_cnt(a, a->rcounts, i), a->rdt,
                                  nb.in[i], nb.insub[i]));
    for (int i = 0; i < nb.nout; i++)
        RD_TRY(rd_sched_send_sub(s, a->sbuf, a->scount, a->sdt, nb.out[i], nb.outsub[i]));
    return RD_OK;
}

rd_status rd_neighbor_alltoall(struct rd_sched *s, const struct rd_coll_args *a)
{
    struct nbrs nb;
    RD_TRY(neighbors(s, a->comm, &nb));
    for (int i = 0; i < nb.nin; i++)
        RD_TRY(rd_sched_recv_sub(s, rd_coll_at(a->rbuf, (MPI_Aint)i * a->rcount, a->rdt), a->rcount,
                                  a->rdt, nb.in[i], nb.insub[i]));
    for (int i = 0; i < nb.nout; i++)
        RD_TRY(rd_sched_send_sub(s, rd_coll_at(a->sbuf, (MPI_Aint)i * a->scount, a->sdt), a->scount,
                                  a->sdt, nb.out[i], nb.outsub[i]));
    return RD_OK;
}

rd_status rd_neighbor_alltoallv(struct rd_sched *s, const struct rd_coll_args *a)
{
    struct nbrs nb;
    RD_TRY(neighbors(s, a->comm, &nb));
    for (int i = 0; i < nb.nin; i++)
        RD_TRY(rd_sched_recv_sub(s, rd_coll_at(a->rbuf, rd_coll_displ(a, a->rdispls, i), a->rdt), rd_coll_cnt(a, a->rcounts, i), a->rdt,
                                  nb.in[i], nb.insub[i]));
    for (int i = 0; i < nb.nout; i++)
        RD_TRY(rd_sched_send_sub(s, rd_coll_at(a->sbuf, rd_coll_displ(a, a->sdispls, i), a->sdt), rd_coll_cnt(a, a->scounts, i), a->sdt,
                                  nb.out[i], nb.outsub[i]));
    return RD_OK;
}

rd_status rd_neighbor_alltoallw(struct rd_sched *s, const struct rd_coll_args *a)
{
    struct nbrs nb;
    RD_TRY(neighbors(s, a->comm, &nb));
    for (int i = 0; i < nb.nin; i++)
        RD_TRY(rd_sched_recv_sub(s, (char *)a->rbuf + rd_coll_displ(a, a->rdispls, i), rd_coll_cnt(a, a->rcounts, i), a->rdts[i], nb.in[i],
                                  nb.insub[i]));
    for (int i = 0; i < nb.nout; i++)
        RD_TRY(rd_sched_send_sub(s, (const char *)a->sbuf + rd_coll_displ(a, a->sdispls, i), rd_coll_cnt(a, a->scounts, i), a->sdts[i],
                                  nb.out[i], nb.outsub[i]));
    return RD_OK;
}

/* hier.c - collectives of communicators that span nodes, in two levels:
 * a step among the ranks of each node (messages between them go over the
 * shm transport), and a step among one leader per node (over the network).
 * Barrier, Bcast, and Reduce and Allreduce with commutative ops: each
 * byte crosses the network once per node instead of once per rank, and
 * the network rounds grow with the number of nodes, not of ranks.
 *
 * The hierarchy of a communicator is computed once, from the node of each
 * of its ranks (rd_job_node_of: PMIx's node ids, the same on every rank,
 * or RDMPI_COLL_FAKE_NODES for tests on one machine), and kept on it. The
 * leader of a node is its lowest rank, except on the root's node in a
 * rooted collective, where it is the root. Nodes are numbered by their
 * lowest rank. */
#include "config.h"

#include <stdlib.h>

#include "collectives/algorithms.h"
#include "runtime/base/job.h"
#include "runtime/base/log.h"
#include "runtime/objects/comm.h"
#include "runtime/objects/op.h"

struct rd_coll_hier {
    int nnodes;
    int *node;      /* comm rank -> node number */
    int *first;     /* node number -> its lowest comm rank */
    int *members;   /* this rank's node: its comm ranks, ascending */
    int nmembers;
    int me;         /* this rank's index in members */
    int useful;     /* more than one node, and some node with more than one rank */
};

void rd_coll_init(void)
{
    rd_comm_on_free(rd_coll_hier_free);
    rd_coll_select_init();
}

void rd_coll_hier_free(MPI_Comm comm)
{
    struct rd_coll_hier *h = comm->hier;
    if (!h)
        return;
    free(h->node);
    free(h->first);
    free(h->members);
    free(h);
    comm->hier = NULL;
}

/* The communicator's hierarchy, computed on first use; NULL when the
 * nodes are not known (then no rank uses it: the job's data is the same
 * everywhere) or out of memory. */
static struct rd_coll_hier *hier_of(MPI_Comm comm)
{
    if (comm->hier)
        return comm->hier;
    int n = comm->size;
    struct rd_coll_hier *h = calloc(1, sizeof(*h));
    int *ids = malloc(sizeof(int) * (size_t)n);
    if (!h || !ids)
        goto fail;
    h->node = malloc(sizeof(int) * (size_t)n);
    h->first = malloc(sizeof(int) * (size_t)n);
    h->members = malloc(sizeof(int) * (size_t)n);
    if (!h->node || !h->first || !h->members)
        goto fail;
    for (int r = 0; r < n; r++) {
        ids[r] = rd_job_node_of(rd_comm_world_rank(comm, r));
        if (ids[r] < 0)
            goto fail;
        int k = 0;
        while (k < h->nnodes && ids[h->first[k]] != ids[r])
            k++;
        if (k == h->nnodes)
            h->first[h->nnodes++] = r;
        h->node[r] = k;
    }
    int mine = h->node[comm->rank], biggest = 0;
    for (int r = 0; r < n; r++)
        if (h->node[r] == mine) {
            if (r == comm->rank)
                h->me = h->nmembers;
            h->members[h->nmembers++] = r;
        }
    for (int k = 0; k < h->nnodes; k++) {
        int c = 0;
        for (int r = 0; r < n; r++)
            c += h->node[r] == k;
        biggest = c > biggest ? c : biggest;
    }
    h->useful = h->nnodes > 1 && biggest > 1;
    rd_debug("coll", "communicator of %d ranks over %d node%s: %s collectives", n, h->nnodes, h->nnodes > 1 ? "s" : "",
             h->useful ? "two-level" : "flat");
    free(ids);
    comm->hier = h;
    return h;
fail:
    free(ids);
    if (h) {
        free(h->node);
        free(h->first);
        free(h->members);
        free(h);
    }
    return NULL;
}

int rd_coll_hier_useful(const struct rd_coll_args *a)
{
    struct rd_coll_hier *h = hier_of(a->comm);
    return h && h->useful;
}

/* ---- the two groups of one call: comm ranks in order, and this rank's
 * index in each (-1: not in it) */
struct groups {
    int *local, nlocal, ilocal, rlocal; /* this node's ranks; rlocal: index of the leader */
    int *lead, nlead, ilead, rlead;     /* one leader per node; rlead: index of the root's node */
};

/* The groups for a collective rooted at `root` (-1: none). */
static rd_status groups(struct rd_sched *s, struct rd_coll_hier *h, MPI_Comm comm, int root, struct groups *g)
{
    int rnode = root >= 0 ? h->node[root] : -1;
    g->local = h->members;
    g->nlocal = h->nmembers;
    g->ilocal = h->me;
    g->rlocal = 0;
    if (rnode == h->node[comm->rank])
        for (int i = 0; i < h->nmembers; i++)
            if (h->members[i] == root)
                g->rlocal = i;
    g->lead = rd_sched_alloc(s, sizeof(int) * (size_t)h->nnodes);
    RD_CNEW(g->lead);
    g->nlead = h->nnodes;
    g->ilead = -1;
    g->rlead = rnode >= 0 ? rnode : 0;
    for (int k = 0; k < h->nnodes; k++) {
        g->lead[k] = k == rnode ? root : h->first[k];
        if (g->lead[k] == comm->rank)
            g->ilead = k;
    }
    return RD_OK;
}

/* The communicator's hierarchy and this call's groups. */
static rd_status two_levels(struct rd_sched *s, const struct rd_coll_args *a, int root, struct groups *g)
{
    struct rd_coll_hier *h = hier_of(a->comm);
    RD_CNEW(h);
    return groups(s, h, a->comm, root, g);
}

/* Binomial broadcast of (buf, count, dt) over group grp (m ranks, this
 * one at index i) from index ri. Zero-count messages are sent too (the
 * barrier's fan-out). */
static rd_status grp_bcast(struct rd_sched *s, void *buf, MPI_Count count, MPI_Datatype dt, const int *grp, int m, int i,
                           int ri)
{
    int v = (i - ri + m) % m, mask = 1;
#define GREAL(x) grp[((x) + ri) % m]
    while (mask < m) {
        if (v & mask) {
            RD_TRY(rd_sched_recv(s, buf, count, dt, GREAL(v - mask)));
            RD_TRY(rd_sched_wait(s));
            break;
        }
        mask <<= 1;
    }
    for (mask >>= 1; mask > 0; mask >>= 1)
        if (v + mask < m)
            RD_TRY(rd_sched_send(s, buf, count, dt, GREAL(v + mask)));
    return RD_OK;
}

/* Binomial reduction (a commutative op) over group grp to index ri:
 * `mine` is this rank's contribution; at ri the result lands in `out`
 * (which may be mine). Zero counts still exchange messages (the
 * barrier's fan-in). */
static rd_status grp_reduce(struct rd_sched *s, const void *mine, void *out, MPI_Count count, MPI_Datatype dt, MPI_Op op,
                            const int *grp, int m, int i, int ri)
{
    int v = (i - ri + m) % m;
    const void *cur = mine;
    void *acc = NULL, *tmp = NULL;
    for (int mask = 1; mask < m; mask <<= 1) {
        if (v & mask) {
            RD_TRY(rd_sched_send(s, cur, count, dt, GREAL(v - mask)));
            RD_TRY(rd_sched_wait(s));
            return RD_OK;
        }
        if (v + mask < m) {
            if (!acc && count > 0) {
                acc = v == 0 ? out : rd_sched_tmp(s, count, dt);
                tmp = rd_sched_tmp(s, count, dt);
                RD_CNEW(acc);
                RD_CNEW(tmp);
                if (acc != mine)
                    RD_TRY(rd_sched_copy(s, mine, count, dt, acc, count, dt));
                cur = acc;
            }
            RD_TRY(rd_sched_recv(s, tmp, count, dt, GREAL(v + mask)));
            RD_TRY(rd_sched_wait(s));
            if (count > 0)
                RD_TRY(rd_sched_reduce(s, tmp, acc, count, dt, op));
        }
    }
#undef GREAL
    /* index ri: the result in out (already there if it had children) */
    if (cur != out && count > 0)
        RD_TRY(rd_sched_copy(s, cur, count, dt, out, count, dt));
    return RD_OK;
}

/* ------------------------------------------------------------ algorithms */

/* Barrier: fan-in to each node's leader, a dissemination barrier among
 * the leaders, fan-out from them. */
rd_status rd_barrier_hier(struct rd_sched *s, const struct rd_coll_args *a)
{
    struct groups g;
    RD_TRY(two_levels(s, a, -1, &g));
    RD_TRY(grp_reduce(s, NULL, NULL, 0, MPI_BYTE, MPI_OP_NULL, g.local, g.nlocal, g.ilocal, g.rlocal));
    if (g.ilead >= 0) {
        int L = g.nlead, i = g.ilead;
        for (int k = 1; k < L; k <<= 1) {
            RD_TRY(rd_sched_send(s, NULL, 0, MPI_BYTE, g.lead[(i + k) % L]));
            RD_TRY(rd_sched_recv(s, NULL, 0, MPI_BYTE, g.lead[(i - k + L) % L]));
            RD_TRY(rd_sched_wait(s));
        }
    }
    return grp_bcast(s, NULL, 0, MPI_BYTE, g.local, g.nlocal, g.ilocal, g.rlocal);
}

/* Bcast: among the leaders from the root, then within each node. */
rd_status rd_bcast_hier(struct rd_sched *s, const struct rd_coll_args *a)
{
    if (a->count == 0)
        return RD_OK;
    struct groups g;
    RD_TRY(two_levels(s, a, a->root, &g));
    if (g.ilead >= 0)
        RD_TRY(grp_bcast(s, a->rbuf, a->count, a->dt, g.lead, g.nlead, g.ilead, g.rlead));
    return grp_bcast(s, a->rbuf, a->count, a->dt, g.local, g.nlocal, g.ilocal, g.rlocal);
}

/* Reduce (commutative ops): within each node to its leader, then among
 * the leaders to the root. */
rd_status rd_reduce_hier(struct rd_sched *s, const struct rd_coll_args *a)
{
    if (a->count == 0)
        return RD_OK;
    struct groups g;
    RD_TRY(two_levels(s, a, a->root, &g));
    const void *mine = a->sbuf == MPI_IN_PLACE ? a->rbuf : a->sbuf;
    int root = a->comm->rank == a->root;
    void *part = NULL; /* the node's partial result, at its leader */
    if (g.ilead >= 0) {
        part = root ? a->rbuf : rd_sched_tmp(s, a->count, a->dt);
        RD_CNEW(part);
    }
    RD_TRY(grp_reduce(s, mine, part, a->count, a->dt, a->op, g.local, g.nlocal, g.ilocal, g.rlocal));
    if (g.ilead >= 0)
        RD_TRY(grp_reduce(s, part, root ? a->rbuf : part, a->count, a->dt, a->op, g.lead, g.nlead, g.ilead,
                           g.rlead));
    return RD_OK;
}

/* Allreduce (commutative ops): within each node to its leader, among the
 * leaders (reduce to the first, broadcast back), then within each node. */
rd_status rd_allreduce_hier(struct rd_sched *s, const struct rd_coll_args *a)
{
    if (a->count == 0)
        return RD_OK;
    struct groups g;
    RD_TRY(two_levels(s, a, -1, &g));
    const void *mine = a->sbuf == MPI_IN_PLACE ? a->rbuf : a->sbuf;
    RD_TRY(grp_reduce(s, mine, a->rbuf, a->count, a->dt, a->op, g.local, g.nlocal, g.ilocal, g.rlocal));
    if (g.ilead >= 0) {
        RD_TRY(grp_reduce(s, a->rbuf, a->rbuf, a->count, a->dt, a->op, g.lead, g.nlead, g.ilead, 0));
        RD_TRY(grp_bcast(s, a->rbuf, a->count, a->dt, g.lead, g.nlead, g.ilead, 0));
    }
    return grp_bcast(s, a->rbuf, a->count, a->dt, g.local, g.nlocal, g.ilocal, g.rlocal);
}

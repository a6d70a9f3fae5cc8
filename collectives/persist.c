/* persist.c - persistent collectives: the choice and the building done
 * once, at MPI_*_init; each MPI_Start runs what was built.
 *
 * Two ways, chosen at the init the same on every rank:
 *
 *   - by schedule (every collective): the algorithm is chosen and its
 *     schedule built once (collectives/sched.h, rd_sched_new_kept), with
 *     its scratch buffers and a tag of its own that it keeps until the
 *     request is freed, so that starts need not come in the same order on
 *     every rank (MPI_Startall starts in any order). A start rewinds the
 *     schedule and runs it as a nonblocking collective would: no choice,
 *     no build, no allocation.
 *
 *   - through a slot of the node's memory of its own (a small Allreduce
 *     of a communicator whose ranks all live on this node, where the
 *     blocking call would take the areas, collectives/shmcoll.c): rank 0
 *     claims a slot at the init, while enough stay free for communicators,
 *     and the request runs the areas' protocol on it, collective number
 *     k at its k-th start, independent of the communicator's own
 *     collectives: a start leaves this rank's vector in its area and posts
 *     it; the request completes when every rank has posted, each rank
 *     reducing the vectors in rank order (the same bits everywhere, as
 *     MPI_Allreduce's node path). Nothing waits inside MPI_Start: the
 *     guard (a reader of start k - D still reading) and the others' posts
 *     are looked at by the progress hook and by MPI_Wait's first spin
 *     (rd_pcoll_poll), so a start costs a copy and a store.
 *
 * Ranks whose counts do not match (an erroneous program) find out as the
 * blocking calls do: MPI_ERR_TRUNCATE with the reason, nobody waits for
 * what will not come. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "collectives/persist.h"
#include "collectives/shmcoll.h"
#include "runtime/base/nodemem.h"
#include "runtime/base/params.h"
#include "runtime/objects/comm.h"
#include "runtime/objects/op.h"
#include "runtime/p2p/p2p.h"

struct pcoll {
    struct rd_sched *s; /* by schedule (s->arg is this), else NULL */
    /* through a slot of its own */
    int slot, n, rank;
    uint64_t seq;       /* starts so far: the collective number of the last */
    uint64_t d;         /* what this rank posts (path and bytes) */
    size_t bytes;
    int fits;           /* this rank's vector fits an area */
    int posted;         /* the current start's vector is posted */
    int next;           /* the first rank not yet seen to have posted it */
    const void *mine;
    void *rbuf;
    MPI_Count count;
    MPI_Datatype dt;
    MPI_Op op;
    rd_kernel k;
    size_t per;
    struct rd_request_s *req;
    struct pcoll *link; /* started, not finished */
    uint64_t done[];    /* per rank: how far it was last seen to have read */
};

/* (node_progress stays registered while it finds work: adding and
 * removing it at every start was measurable on a small Allreduce) */
static struct pcoll *started;

/* ------------------------------------------------------------ through a slot */

/* Allreduce of a node's ranks where the blocking call would take the
 * areas (the node table's node_small under the current parameters). */
static int node_candidate(int kind, const struct rd_coll_args *a)
{
    MPI_Comm comm = a->comm;
    const struct rd_coll_alg *paths[RD_COLL_NODE_MAX + 1];
    if (kind != RD_COLL_ALLREDUCE || !rd_param.coll_shm || comm->is_inter || !rd_nc_local(comm))
        return 0;
    rd_coll_node_choose(kind, comm->size, paths);
    for (int i = 0; paths[i]; i++)
        if (paths[i]->run == rd_nc_reduce_small)
            return 1;
    return 0;
}

static void node_free(struct pcoll *p)
{
    rd_node_slot_release(p->slot, p->n);
    rd_dt_release(p->dt);
    rd_op_release(p->op);
    free(p);
}

/* Post this rank's vector once the guard lets it (0: not yet). */
static int node_post(struct pcoll *p)
{
    if (!p->posted) {
        /* (what a rank was seen to have read is kept: its done word's
         * line is written at every start, and loading it each time cost
         * a trip between the cores) */
        if (p->seq > RD_NODE_DEPTH)
            for (int j = 0; j < p->n; j++)
                if (j != p->rank && p->done[j] < p->seq - RD_NODE_DEPTH &&
                    (p->done[j] = atomic_load_explicit(rd_node_done(p->slot, j), memory_order_acquire)) <
                        p->seq - RD_NODE_DEPTH)
                    return 0;
        struct rd_node_area *ar = rd_node_area(p->slot, p->rank, p->seq);
        if (p->fits && p->bytes)
            memcpy(ar->data, (const char *)p->mine + p->dt->true_lb, p->bytes);
        ar->desc = p->d;
        atomic_store_explicit(&ar->seq, p->seq, memory_order_release); /* the desc and the data first */
        p->posted = 1;
    }
    return 1;
}

/* Post if not yet done, then look for the others' posts: 1 when every
 * rank has posted the current start. */
static int node_step(struct pcoll *p)
{
    if (!p->posted && !node_post(p))
        return 0;
    for (; p->next < p->n; p->next++)
        if (p->next != p->rank &&
            atomic_load_explicit(&rd_node_area(p->slot, p->next, p->seq)->seq, memory_order_acquire) < p->seq)
            return 0;
    return 1;
}

/* Every rank has posted: reduce, say so, complete the request. */
static void node_finish(struct pcoll *p)
{
    struct rd_request_s *req = p->req;
    int err = MPI_SUCCESS, odd = p->fits ? -1 : 0;
    if (p->fits && p->count > 0)
        odd = rd_nc_reduce_areas(p->slot, p->n, p->seq, p->d, p->rbuf, 0, p->count, p->dt, p->op, p->k, p->per);
    else if (p->fits)
        for (int j = 0; j < p->n && odd < 0; j++)
            if (rd_node_area(p->slot, j, p->seq)->desc != p->d)
                odd = j;
    if (odd >= 0)
        err = rd_nc_differ(odd, rd_node_area(p->slot, odd, p->seq)->desc, p->bytes, "");
    atomic_store_explicit(rd_node_done(p->slot, p->rank), p->seq, memory_order_release);
    p->req = NULL;
    req->error = err;
    if (err != MPI_SUCCESS && !req->user_freed) {
        const char *why = rd_coll_reason();
        req->why = why ? strdup(why) : NULL;
    }
    if (req->user_freed)
        node_free(p);
    rd_req_complete(req);
}

static void unlink_started(struct pcoll *p)
{
    for (struct pcoll **q = &started; *q; q = &(*q)->link)
        if (*q == p) {
            *q = p->link;
            return;
        }
}

static int node_progress(void)
{
    int n = 0;
    struct pcoll **q = &started;
    while (*q) {
        struct pcoll *p = *q;
        if (node_step(p)) {
            *q = p->link;
            node_finish(p);
            n++;
        } else {
            q = &p->link;
        }
    }
    if (!started)
        rd_progress_remove(node_progress);
    return n;
}

static int node_start(struct pcoll *p, struct rd_request_s *req)
{
    p->seq++;
    p->posted = 0;
    p->next = 0;
    p->req = req;
    /* post, but do not look at the others' posts yet: they come later
     * than a start returns, and a load of a line another core is about
     * to write only delays its write */
    node_post(p);
    if (rd_progress_add(node_progress) != 0) { /* (a no-op while it is there) */
        p->req = NULL;
        p->seq--;
        return MPI_ERR_INTERN; /* (a bug: more progress hooks than slots) */
    }
    p->link = started;
    started = p;
    return MPI_SUCCESS;
}

/* ------------------------------------------------------------ the calls */

int rd_pcoll_init(int kind, const struct rd_coll_args *a, struct rd_request_s **reqp)
{
    MPI_Comm comm = a->comm;
    struct pcoll *p = calloc(1, sizeof(*p) + sizeof(uint64_t) * (size_t)comm->size);
    struct rd_request_s *req = p ? rd_req_alloc(RD_REQ_COLL) : NULL;
    if (!req) {
        free(p);
        return MPI_ERR_NO_MEM;
    }
    p->slot = -1;
    if (node_candidate(kind, a)) {
        /* rank 0's arguments decide; a rank whose vector does not fit
         * (its count differs: erroneous) posts its size and fails */
        p->bytes = (size_t)a->count * a->dt->size;
        p->fits = rd_nc_reduce_fits(kind, a);
        p->slot = rd_nc_claim(comm, p->fits, 1);
    }
    if (p->slot >= 0) {
        p->n = comm->size;
        p->rank = comm->rank;
        p->d = rd_nc_desc(RD_NC_SMALL, 0, p->bytes);
        p->mine = a->sbuf == MPI_IN_PLACE ? a->rbuf : a->sbuf;
        p->rbuf = a->rbuf;
        p->count = a->count;
        p->dt = a->dt;
        p->op = a->op;
        rd_dt_retain(p->dt);
        rd_op_retain(p->op);
        p->k = rd_op_kernel(p->op, p->dt, &p->per);
    } else {
        struct rd_sched *s = rd_sched_new_kept(comm);
        rd_status st = s ? rd_coll_build(kind, s, a) : RD_ERR_NOMEM;
        if (st != RD_OK) {
            if (s)
                rd_sched_free_kept(s);
            free(p);
            rd_req_release(req);
            return rd_status_to_mpi(st);
        }
        s->arg = p;
        p->s = s;
    }
    req->persistent = 1;
    req->comm = comm;
    rd_comm_retain(comm);
    req->why = NULL;
    req->io.file = NULL;
    req->pcoll = p;
    rd_status_empty(&req->status);
    *reqp = req;
    return MPI_SUCCESS;
}

int rd_pcoll_start(struct rd_request_s *req)
{
    struct pcoll *p = req->pcoll;
    req->why = NULL;
    if (p->s) {
        rd_sched_restart(p->s, req);
        return MPI_SUCCESS;
    }
    return node_start(p, req);
}

void rd_pcoll_poll(struct rd_request_s *req)
{
    struct pcoll *p = req->pcoll;
    if (p->s || p->req != req)
        return;
    for (int i = 0; i < 256; i++)
        if (node_step(p)) {
            unlink_started(p); /* (the hook goes when it next finds nothing) */
            node_finish(p);
            return;
        }
}

void rd_pcoll_free(struct rd_request_s *req)
{
    struct pcoll *p = req->pcoll;
    req->pcoll = NULL;
    if (!p)
        return;
    if (p->s)
        rd_sched_free_kept(p->s); /* (p goes with it) */
    else
        node_free(p);
}

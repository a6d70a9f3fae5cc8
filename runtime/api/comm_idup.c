/* MPI_Comm_idup (and MPI_Comm_idup_with_info): MPI_Comm_dup without
 * blocking. The new communicator is made at once (attributes, topology,
 * error handler and name copied then, as the standard asks); its context
 * pair is agreed by a schedule (an allreduce of reserved windows of free
 * pairs, comm.h) that the progress engine runs, and is set when the
 * request completes.
 *
 * The windows of one round need not meet: ranks that are members of
 * different communicators have different pairs free, and concurrent
 * agreements (many idups outstanding on one parent or several) hold
 * different windows on ranks that started or finished them at different
 * moments. So the schedule runs again (another round on the same tag)
 * until the ranks find a common pair, with windows taken when each round
 * starts, twice as large when every rank offered some. The flags word,
 * ANDed with the windows, says whether every rank offered some pairs, has
 * any unused pair at all, and offered all it has: the agreement fails
 * (MPI_ERR_INTERN) only when no pair is free on every rank. Every rank
 * sees the same AND, so all decide alike.
 *
 * Agreements that need more rounds take turns: only the one with the
 * lowest key (the parent's context id and the collective's tag, the same
 * on every rank) among those retrying on a rank offers a window there,
 * the others offer none, so that they cannot keep taking each other's
 * pairs in a different order on each rank (with every retry offering a
 * window, 48 idups over 3 parents started in opposite orders went round
 * for ever). Its ranks all started it (its first round ended), so its
 * rounds never wait for a rank that has not: it gets a window on every
 * rank, then a window of all that rank's free pairs, and ends.
 *
 * From Fortran (MPI_COMM_IDUP), the user's handle is the glue's Fortran
 * INTEGER, which outlives the call as the standard asks of a nonblocking
 * call's arguments: idup writes the new communicator's Fortran handle into
 * it at the call, and MPI_COMM_NULL's if the agreement fails at completion
 * (runtime/fortran/README.md, "MPI_COMM_IDUP"). */
#include <mpi.h>
#include <stdlib.h>
#include <string.h>

#include "collectives/agree.h"
#include "runtime/api/check.h"
#include "runtime/api/fspecial.h"
#include "runtime/api/topo.h"
#include "runtime/objects/attr.h"
#include "runtime/objects/comm.h"
#include "runtime/objects/info.h"

/* the windows and, in their last word, this rank's RD_CTX_F_* flags */
#define NW (RD_CTX_WORDS + 1)

struct idup {
    uint64_t win[NW];    /* this rank's offer */
    uint64_t agreed[NW]; /* the AND over the ranks (of this group) */
    uint64_t theirs[NW]; /* intercommunicator: the other group's AND */
    int n;               /* pairs a window may hold this round */
    uint64_t key;        /* the parent's context id, the collective's tag */
    struct idup *next;   /* in the retrying list */
    int retrying;
    MPI_Comm newcomm;
    MPI_Comm *out;       /* the user's handle: MPI_COMM_NULL on failure */
    MPI_Fint *fout;      /* or Fortran's (MPI_COMM_IDUP): fnull on failure */
    MPI_Fint fnull;
};

/* The Fortran glue's handles (fspecial.h, rd_mpi_f_idup_out): the C one
 * its call passes, the Fortran one behind it, whether an idup took it. */
static _Thread_local struct {
    MPI_Comm *c;
    MPI_Fint *f;
    int taken;
} fglue;

void rd_mpi_f_idup_out(MPI_Comm *c, MPI_Fint *f)
{
    fglue.c = c;
    fglue.f = f;
    fglue.taken = 0;
}

int rd_mpi_f_idup_taken(void)
{
    int t = fglue.taken;
    rd_mpi_f_idup_out(NULL, NULL);
    return t;
}

/* Write the user's handle: C's, or the Fortran glue's (the glue's C
 * variable is gone by completion). */
static void set_out(struct idup *d, MPI_Comm c)
{
    if (d->fout)
        *d->fout = c == MPI_COMM_NULL ? d->fnull : PMPI_Comm_c2f(c);
    else
        *d->out = c;
}

/* Agreements of this rank that needed more than one round. */
static struct idup *retrying;

/* This round's window (lock held): n pairs at most, none when another
 * retrying agreement has the turn. */
static void offer(struct idup *d)
{
    int n = d->n;
    for (struct idup *o = retrying; o && d->retrying; o = o->next)
        if (o->key < d->key)
            n = 0;
    d->win[RD_CTX_WORDS] = rd_comm_ctx_reserve(d->win, n);
    memcpy(d->agreed, d->win, sizeof(d->win));
}

static void retrying_drop(struct idup *d)
{
    for (struct idup **p = &retrying; d->retrying && *p; p = &(*p)->next)
        if (*p == d) {
            *p = d->next;
            break;
        }
}

static void idup_done(struct rd_sched *s)
{
    struct idup *d = s->arg;
    rd_comm_ctx_unreserve(d->win);
    uint32_t ctx, lctx = 0;
    int ok = s->error == MPI_SUCCESS;
    if (ok && d->newcomm->is_inter) /* free in both groups */
        for (int i = 0; i < NW; i++)
            d->agreed[i] &= d->theirs[i];
    ok = ok && rd_comm_lowest_ctx(d->agreed, UINT32_MAX, &ctx) == RD_OK;
    /* an intercommunicator's local group gets the next pair */
    if (ok && d->newcomm->is_inter)
        ok = rd_comm_lowest_ctx(d->agreed, ctx, &lctx) == RD_OK;
    uint64_t flags = d->agreed[RD_CTX_WORDS];
    if (!ok && s->error == MPI_SUCCESS && (flags & RD_CTX_F_FREE) && !(flags & RD_CTX_F_ALL)) {
        /* no common pair among these windows, but there may be among
         * others: another round */
        if ((flags & RD_CTX_F_OFFERED) && d->n < RD_CTX_WORDS * 64)
            d->n *= 2;
        if (!d->retrying) {
            d->retrying = 1;
            d->next = retrying;
            retrying = d;
        }
        offer(d);
        s->again = 1;
        return;
    }
    retrying_drop(d);
    if (ok) {
        rd_comm_set_ctx(d->newcomm, ctx);
        if (d->newcomm->is_inter)
            rd_comm_set_ctx(d->newcomm->local, lctx);
    } else {
        if (s->error == MPI_SUCCESS)
            s->error = MPI_ERR_INTERN; /* no pair free on every rank among the offers */
        rd_attr_delete_all(d->newcomm);
        rd_comm_release(d->newcomm);
        set_out(d, MPI_COMM_NULL);
    }
    free(d);
}

/* The new intercommunicator (taking lw over), both its pairs pending. */
static rd_status new_inter(MPI_Comm comm, int *lw, MPI_Comm *out)
{
    int *lw2 = rd_comm_world_ranks_copy(comm), *rw = malloc(sizeof(int) * (size_t)comm->remote_size);
    MPI_Comm lc = MPI_COMM_NULL;
    rd_status st = lw2 && rw ? RD_OK : RD_ERR_NOMEM;
    if (st == RD_OK)
        st = rd_comm_new(comm->rank, comm->size, lw2, RD_CTX_PENDING, &lc);
    if (st != RD_OK) {
        free(lw);
        free(lw2);
        free(rw);
        return st;
    }
    for (int i = 0; i < comm->remote_size; i++)
        rw[i] = rd_comm_peer_world(comm, i);
    st = rd_comm_new_inter(comm->rank, comm->size, lw, comm->remote_size, rw, RD_CTX_PENDING, lc, out);
    if (st != RD_OK) {
        free(lw);
        free(rw);
        rd_comm_release(lc);
    }
    return st;
}

/* The agreement, built by agree.h's builders as the blocking one is: the
 * AND of the windows (the collectives' recursive-doubling allreduce,
 * BAND); on an intercommunicator within each group, then the leaders swap
 * their group's result and broadcast the other's in their group. */
static rd_status build(struct rd_sched *s, MPI_Comm comm, struct idup *d)
{
    if (!comm->is_inter)
        return rd_agree_and(s, comm, NULL, comm->size, comm->rank, d->agreed, NW);
    rd_sched_on(s, comm->local->coll);
    RD_TRY(rd_agree_and(s, comm->local, NULL, comm->size, comm->rank, d->agreed, NW));
    RD_TRY(rd_sched_wait(s));
    return rd_agree_leader(s, comm->local, 0, comm, 0, s->tag, d->agreed, sizeof(d->agreed), d->theirs,
                           sizeof(d->theirs));
}

static int idup(const char *call, MPI_Comm comm, MPI_Comm *newcomm, MPI_Request *req)
{
    if (!newcomm || !req)
        return rd_err_raise(comm, MPI_ERR_ARG, call, "%s is NULL", newcomm ? "request" : "newcomm");
    struct idup *d = calloc(1, sizeof(*d));
    int *ranks = NULL;
    if (!d)
        return rd_err_raise(comm, MPI_ERR_NO_MEM, call, "out of memory");
    if (comm->world_ranks || comm->is_inter) {
        ranks = rd_comm_world_ranks_copy(comm);
        if (!ranks) {
            free(d);
            return rd_err_raise(comm, MPI_ERR_NO_MEM, call, "out of memory");
        }
    }
    RD_LOCK();
    MPI_Comm nc;
    rd_status st = comm->is_inter ? new_inter(comm, ranks, &nc)
                                  : rd_comm_new(comm->rank, comm->size, ranks, RD_CTX_PENDING, &nc);
    if (st != RD_OK) {
        RD_UNLOCK();
        if (!comm->is_inter)
            free(ranks); /* new_inter frees what it was given */
        free(d);
        return rd_err_raise(comm, MPI_ERR_NO_MEM, call, "out of memory");
    }
    rd_comm_inherit(comm, nc);
    RD_UNLOCK();
    int rc = rd_topo_copy(comm, nc);
    if (rc == MPI_SUCCESS)
        rc = rd_attr_dup(comm, nc);
    if (rc != MPI_SUCCESS) {
        rd_attr_delete_all(nc);
        RD_LOCK();
        rd_comm_release(nc);
        RD_UNLOCK();
        free(d);
        return rd_err_raise(comm, rc, call, "copying the topology or an attribute failed");
    }
    d->newcomm = nc;
    d->out = newcomm;
    if (fglue.c && fglue.c == newcomm) {
        /* from Fortran: the new communicator's Fortran handle, now */
        d->fout = fglue.f;
        d->fnull = PMPI_Comm_c2f(MPI_COMM_NULL);
        fglue.taken = 1;
        fglue.c = NULL;
    }
    *newcomm = nc;
    set_out(d, nc);
    RD_LOCK();
    d->n = RD_CTX_WINDOW;
    offer(d);
    struct rd_sched *s = rd_sched_new(comm);
    if (s)
        d->key = (uint64_t)comm->ctx << 32 | (uint32_t)s->tag;
    st = s ? build(s, comm, d) : RD_ERR_NOMEM;
    if (st == RD_OK) {
        s->on_done = idup_done;
        s->arg = d;
        st = rd_sched_start(s, req);
        RD_UNLOCK();
        if (st != RD_OK)
            return rd_err_raise(comm, rd_status_to_mpi(st), call, "%s", rd_status_string(st));
        return MPI_SUCCESS;
    }
    if (s)
        rd_sched_discard(s);
    rd_comm_ctx_unreserve(d->win);
    rd_comm_release(nc);
    RD_UNLOCK();
    *newcomm = MPI_COMM_NULL;
    set_out(d, MPI_COMM_NULL);
    free(d);
    return rd_err_raise(comm, rd_status_to_mpi(st), call, "%s", rd_status_string(st));
}

#pragma weak MPI_Comm_idup = PMPI_Comm_idup
int PMPI_Comm_idup(MPI_Comm comm, MPI_Comm *newcomm, MPI_Request *req)
{
    RD_API_READY("MPI_Comm_idup");
    RD_TRY(rd_check_comm("MPI_Comm_idup", comm));
    return idup("MPI_Comm_idup", comm, newcomm, req);
}

#pragma weak MPI_Comm_idup_with_info = PMPI_Comm_idup_with_info
int PMPI_Comm_idup_with_info(MPI_Comm comm, MPI_Info info, MPI_Comm *newcomm, MPI_Request *req)
{
    const char *call = "MPI_Comm_idup_with_info";
    RD_API_READY(call);
    RD_TRY(rd_check_comm(call, comm));
    /* MPI_INFO_NULL: no hints; no hint changes how rdmpi communicates yet */
    if (info != MPI_INFO_NULL && !rd_info_valid(info))
        return rd_err_raise(comm, MPI_ERR_INFO, call, "invalid info");
    return idup(call, comm, newcomm, req);
}

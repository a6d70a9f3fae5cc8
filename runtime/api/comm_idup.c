/* MPI_Comm_idup: MPI_Comm_dup without blocking. The new communicator is
 * made at once (attributes, topology, error handler and name copied then,
 * as the standard asks); its context pair is agreed by a schedule (an
 * allreduce of reserved windows of free pairs, comm.h) that the progress
 * engine runs, and is set when the request completes. */
#include <mpi.h>
#include <stdlib.h>
#include <string.h>

#include "collectives/coll.h"
#include "runtime/api/check.h"
#include "runtime/attr.h"
#include "runtime/comm.h"

struct idup {
    uint64_t win[RD_CTX_WORDS];    /* this rank's offer */
    uint64_t agreed[RD_CTX_WORDS]; /* the AND over the ranks */
    MPI_Comm newcomm;
    MPI_Comm *out;                 /* the user's handle: MPI_COMM_NULL on failure */
};

static void idup_done(struct rd_sched *s)
{
    struct idup *d = s->arg;
    rd_comm_ctx_unreserve(d->win);
    uint32_t ctx;
    if (s->error == MPI_SUCCESS && rd_comm_ctx_lowest(d->agreed, &ctx)) {
        rd_comm_set_ctx(d->newcomm, ctx);
    } else {
        if (s->error == MPI_SUCCESS)
            s->error = MPI_ERR_INTERN; /* no pair free on every rank among the offers */
        rd_attr_delete_all(d->newcomm);
        rd_comm_release(d->newcomm);
        *d->out = MPI_COMM_NULL;
    }
    free(d);
}

#pragma weak MPI_Comm_idup = PMPI_Comm_idup
int PMPI_Comm_idup(MPI_Comm comm, MPI_Comm *newcomm, MPI_Request *req)
{
    const char *call = "MPI_Comm_idup";
    RD_API_READY(call);
    RD_TRY(rd_check_comm(call, comm));
    if (!newcomm || !req)
        return rd_err_raise(comm, MPI_ERR_ARG, call, "%s is NULL", newcomm ? "request" : "newcomm");
    struct idup *d = calloc(1, sizeof(*d));
    int *ranks = NULL;
    if (!d)
        return rd_err_raise(comm, MPI_ERR_NO_MEM, call, "out of memory");
    if (comm->world_ranks) {
        ranks = malloc(sizeof(int) * (size_t)comm->size);
        if (!ranks) {
            free(d);
            return rd_err_raise(comm, MPI_ERR_NO_MEM, call, "out of memory");
        }
        memcpy(ranks, comm->world_ranks, sizeof(int) * (size_t)comm->size);
    }
    RD_LOCK();
    MPI_Comm nc;
    rd_status st = rd_comm_new(comm->rank, comm->size, ranks, RD_CTX_PENDING, &nc);
    if (st != RD_OK) {
        RD_UNLOCK();
        free(ranks);
        free(d);
        return rd_err_raise(comm, MPI_ERR_NO_MEM, call, "out of memory");
    }
    nc->errh = comm->errh;
    if (!nc->errh->predefined)
        atomic_fetch_add(&nc->errh->refs, 1);
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
    *newcomm = nc;
    RD_LOCK();
    rd_comm_ctx_reserve(d->win);
    memcpy(d->agreed, d->win, sizeof(d->win));
    struct rd_sched *s = rd_sched_new(comm);
    struct rd_coll_args a = {.comm = comm, .sbuf = MPI_IN_PLACE, .rbuf = d->agreed,
                             .count = RD_CTX_WORDS, .dt = MPI_UINT64_T, .op = MPI_BAND};
    st = s ? rd_allreduce_recursive_doubling(s, &a) : RD_ERR_NOMEM;
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
    free(d);
    return rd_err_raise(comm, rd_status_to_mpi(st), call, "%s", rd_status_string(st));
}

/* counter.c - an internal 64-bit counter for the floors above (the I/O
 * floor's shared file pointer, runtime/io/PLAN.md 4.5): an 8-byte
 * MPI_Win_allocate window at rank 0 of a communicator, made by the
 * creation sequence of runtime/api/win.c without a user-visible object
 * (the window borrows the caller's communicator: active messages name
 * window ids, not contexts, and its collective steps go over that
 * communicator's library context). A lock_all epoch with MPI_MODE_NOCHECK
 * stays open for the counter's life; fetch-and-add is rma's atomic path:
 * one CPU atomic on a node (NODE, SELF), the device's atomic over RDMA
 * (HW_ATOMIC), else an active message answered by rank 0's progress, for
 * which rank 0 then runs rma's progress thread. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collectives/algorithms.h"
#include "runtime/base/log.h"
#include "runtime/base/state.h"
#include "runtime/rma/rma_int.h"

struct rd_rma_counter {
    struct rd_win_s win; /* internal: never handed to the user, no magic */
};

/* One allreduce (MPI_MAX) of two ints among the counter's ranks: what
 * every rank must know of the others' local steps. */
static int agree(MPI_Comm comm, int v[2], char *why)
{
    int in[2] = {v[0], v[1]};
    struct rd_coll_args a = {.comm = comm, .sbuf = in, .rbuf = v, .count = 2, .dt = MPI_INT, .op = MPI_MAX};
    int rc = rd_coll_run(RD_COLL_ALLREDUCE, &a);
    if (rc != MPI_SUCCESS)
        snprintf(why, RD_RMA_WHY, "the counter's agreement among the ranks failed");
    return rc;
}

int rd_rma_counter_open(MPI_Comm comm, int64_t init, struct rd_rma_counter **out, char *why)
{
    *out = NULL;
    struct rd_rma_counter *c = calloc(1, sizeof(*c));
    struct rd_rma_info mine, *all = malloc((size_t)comm->size * sizeof(*all));
    MPI_Win w = c ? &c->win : NULL;
    int rc = MPI_ERR_NO_MEM;
    if (!c || !all)
        snprintf(why, RD_RMA_WHY, "out of memory");
    else {
        w->comm = comm;
        w->size = comm->rank == 0 ? 8 : 0;
        w->disp_unit = 8;
        w->disp_unit_attr = 8;
        w->flavor = MPI_WIN_FLAVOR_ALLOCATE;
        rc = rd_rma_win_open(w, MPI_WIN_FLAVOR_ALLOCATE, MPI_INFO_NULL, &mine, why);
        if (rc == MPI_SUCCESS && comm->rank == 0)
            memcpy(w->base, &init, 8);
    }
    /* 1. every rank could make its part (else every rank fails alike) */
    int v[2] = {rc, 0};
    int arc = agree(comm, v, why);
    if (arc == MPI_SUCCESS && v[0] != MPI_SUCCESS && rc == MPI_SUCCESS)
        snprintf(why, RD_RMA_WHY, "another rank could not make the counter's window");
    rc = arc != MPI_SUCCESS ? arc : v[0];
    /* 2. the exchange of each rank's window info, the paths to each rank,
     * the epoch of the counter's life */
    if (rc == MPI_SUCCESS) {
        struct rd_coll_args a = {.comm = comm, .sbuf = &mine, .scount = (int)sizeof(mine), .sdt = MPI_BYTE,
                                 .rbuf = all, .rcount = (int)sizeof(mine), .rdt = MPI_BYTE};
        rc = rd_coll_run(RD_COLL_ALLGATHER, &a);
        if (rc != MPI_SUCCESS) {
            snprintf(why, RD_RMA_WHY, "the counter's exchange failed");
        } else {
            rc = rd_rma_win_table(w, all, why);
            if (rc == MPI_SUCCESS)
                rc = rd_rma_lock_all(w, MPI_MODE_NOCHECK, why);
        }
        /* 3. every rank has its table (so rank 0 answers from now on); and
         * whether some rank reaches rank 0 by a path that needs rank 0's
         * progress (every path but SELF and NODE) */
        v[0] = rc;
        v[1] = 0;
        if (rc == MPI_SUCCESS) {
            int p0 = rma_of(w)->peers[0].path;
            v[1] = p0 != RMA_PATH_SELF && p0 != RMA_PATH_NODE;
        }
        arc = agree(comm, v, why);
        if (arc == MPI_SUCCESS && v[0] != MPI_SUCCESS && rc == MPI_SUCCESS)
            snprintf(why, RD_RMA_WHY, "another rank could not set the counter's window up");
        rc = arc != MPI_SUCCESS ? arc : v[0];
    }
    free(all);
    if (rc != MPI_SUCCESS) {
        if (w && w->rma)
            rd_rma_win_close(w);
        free(c);
        return rc;
    }
    if (comm->rank == 0 && v[1]) {
        rd_debug("rma", "counter: some rank reaches rank 0 by messages: its progress thread runs");
        rd_rma_progress_need();
    }
    *out = c;
    return MPI_SUCCESS;
}

int rd_rma_counter_fetch_add(struct rd_rma_counter *c, int64_t add, int64_t *old, char *why)
{
    MPI_Win w = &c->win;
    if (rd_rma_fop_fast(w, &add, old, MPI_INT64_T, 0, 0, MPI_SUM) == MPI_SUCCESS)
        return MPI_SUCCESS;
    struct rd_rma_call o = {.kind = RD_RMA_GACC, .obuf = &add, .ocount = 1, .odt = MPI_INT64_T, .rbuf = old,
                            .rcount = 1, .rdt = MPI_INT64_T, .target = 0, .tdisp = 0, .tcount = 1,
                            .tdt = MPI_INT64_T, .op = MPI_SUM};
    int rc = rd_rma_do(w, &o, NULL, why);
    if (rc == MPI_SUCCESS)
        rc = rd_rma_flush(w, 0, why);
    return rc;
}

int rd_rma_counter_store(struct rd_rma_counter *c, int64_t v, char *why)
{
    MPI_Win w = &c->win;
    /* an accumulate with MPI_REPLACE: atomic with the fetch-and-adds
     * (one type, one path), wherever they come from */
    struct rd_rma_call o = {.kind = RD_RMA_ACC, .obuf = &v, .ocount = 1, .odt = MPI_INT64_T, .target = 0,
                            .tdisp = 0, .tcount = 1, .tdt = MPI_INT64_T, .op = MPI_REPLACE};
    int rc = rd_rma_do(w, &o, NULL, why);
    if (rc == MPI_SUCCESS)
        rc = rd_rma_flush(w, 0, why);
    return rc;
}

int rd_rma_counter_close(struct rd_rma_counter *c, char *why)
{
    if (!c)
        return MPI_SUCCESS;
    MPI_Win w = &c->win;
    int rc = rd_rma_unlock_all(w, why);
    int rc2 = rd_rma_win_can_free(w, why);
    if (rc == MPI_SUCCESS)
        rc = rc2;
    /* rank 0's memory stays until no rank can still reach it */
    struct rd_coll_args a = {.comm = w->comm};
    int brc = rd_coll_run(RD_COLL_BARRIER, &a);
    if (rc == MPI_SUCCESS && brc != MPI_SUCCESS) {
        rc = brc;
        snprintf(why, RD_RMA_WHY, "the counter's closing barrier failed");
    }
    rd_rma_win_close(w);
    free(c);
    return rc;
}

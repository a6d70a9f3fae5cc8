/* barrier.c - MPI_Barrier algorithms. */
#include "config.h"

#include "collectives/algorithms.h"
#include "runtime/objects/comm.h"

/* Dissemination: in round k every rank signals rank + 2^k and waits for
 * rank - 2^k; ceil(log2 n) rounds for any n. */
rd_status rd_barrier_dissemination(struct rd_sched *s, const struct rd_coll_args *a)
{
    int n = a->comm->size, r = a->comm->rank;
    for (int k = 1; k < n; k <<= 1) {
        RD_TRY(rd_sched_recv(s, NULL, 0, MPI_BYTE, (r - k + n) % n));
        RD_TRY(rd_sched_send(s, NULL, 0, MPI_BYTE, (r + k) % n));
        RD_TRY(rd_sched_wait(s));
    }
    return RD_OK;
}

/* Linear: everyone signals rank 0, which then releases everyone. */
rd_status rd_barrier_linear(struct rd_sched *s, const struct rd_coll_args *a)
{
    int n = a->comm->size, r = a->comm->rank;
    if (r == 0) {
        for (int i = 1; i < n; i++)
            RD_TRY(rd_sched_recv(s, NULL, 0, MPI_BYTE, i));
        RD_TRY(rd_sched_wait(s));
        for (int i = 1; i < n; i++)
            RD_TRY(rd_sched_send(s, NULL, 0, MPI_BYTE, i));
    } else {
        RD_TRY(rd_sched_send(s, NULL, 0, MPI_BYTE, 0));
        RD_TRY(rd_sched_recv(s, NULL, 0, MPI_BYTE, 0));
    }
    return RD_OK;
}

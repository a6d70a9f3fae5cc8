/* coll.c again, with every blocking collective it calls done by its MPI
 * 4.0 persistent form (collectives/persist.c): MPI_X_init, then MPI_Start
 * and MPI_Wait twice where a second run leaves the same result (not in
 * place where in place reduces or exchanges again; the same number on
 * every rank: Reduce, in place at the root alone, runs once), then
 * MPI_Request_free;
 * an error of the init is the call's. So every collective, every count,
 * type, root and algorithm that coll.c checks is checked built once and
 * run by starts. (coll_persist.sh; test/mpi/pcoll.c has what only
 * persistent requests do.) */
#include <mpi.h>

static MPI_Request pb_req;

static int pb_run(int rc, int twice)
{
    if (rc != MPI_SUCCESS)
        return rc;
    for (int k = 0; k < 1 + twice && rc == MPI_SUCCESS; k++) {
        rc = MPI_Start(&pb_req);
        if (rc == MPI_SUCCESS)
            rc = MPI_Wait(&pb_req, MPI_STATUS_IGNORE);
    }
    MPI_Request_free(&pb_req);
    return rc;
}

#define PB_NOT_IN_PLACE(s) ((const void *)(s) != MPI_IN_PLACE)
#define MPI_Barrier(cm) pb_run(MPI_Barrier_init(cm, MPI_INFO_NULL, &pb_req), 1)
#define MPI_Bcast(b, c, d, r, cm) pb_run(MPI_Bcast_init(b, c, d, r, cm, MPI_INFO_NULL, &pb_req), 1)
#define MPI_Reduce(s, b, c, d, o, r, cm)                                                                     \
    pb_run(MPI_Reduce_init(s, b, c, d, o, r, cm, MPI_INFO_NULL, &pb_req), 0)
#define MPI_Allreduce(s, b, c, d, o, cm)                                                                     \
    pb_run(MPI_Allreduce_init(s, b, c, d, o, cm, MPI_INFO_NULL, &pb_req), PB_NOT_IN_PLACE(s))
#define MPI_Scan(s, b, c, d, o, cm)                                                                          \
    pb_run(MPI_Scan_init(s, b, c, d, o, cm, MPI_INFO_NULL, &pb_req), PB_NOT_IN_PLACE(s))
#define MPI_Exscan(s, b, c, d, o, cm)                                                                        \
    pb_run(MPI_Exscan_init(s, b, c, d, o, cm, MPI_INFO_NULL, &pb_req), PB_NOT_IN_PLACE(s))
#define MPI_Reduce_scatter(s, b, rc, d, o, cm)                                                               \
    pb_run(MPI_Reduce_scatter_init(s, b, rc, d, o, cm, MPI_INFO_NULL, &pb_req), PB_NOT_IN_PLACE(s))
#define MPI_Reduce_scatter_block(s, b, rc, d, o, cm)                                                         \
    pb_run(MPI_Reduce_scatter_block_init(s, b, rc, d, o, cm, MPI_INFO_NULL, &pb_req), PB_NOT_IN_PLACE(s))
#define MPI_Gather(s, sc, sd, b, rc, rd, r, cm)                                                              \
    pb_run(MPI_Gather_init(s, sc, sd, b, rc, rd, r, cm, MPI_INFO_NULL, &pb_req), 1)
#define MPI_Gatherv(s, sc, sd, b, rcs, ds, rd, r, cm)                                                        \
    pb_run(MPI_Gatherv_init(s, sc, sd, b, rcs, ds, rd, r, cm, MPI_INFO_NULL, &pb_req), 1)
#define MPI_Scatter(s, sc, sd, b, rc, rd, r, cm)                                                             \
    pb_run(MPI_Scatter_init(s, sc, sd, b, rc, rd, r, cm, MPI_INFO_NULL, &pb_req), 1)
#define MPI_Scatterv(s, scs, ds, sd, b, rc, rd, r, cm)                                                       \
    pb_run(MPI_Scatterv_init(s, scs, ds, sd, b, rc, rd, r, cm, MPI_INFO_NULL, &pb_req), 1)
#define MPI_Allgather(s, sc, sd, b, rc, rd, cm)                                                              \
    pb_run(MPI_Allgather_init(s, sc, sd, b, rc, rd, cm, MPI_INFO_NULL, &pb_req), 1)
#define MPI_Allgatherv(s, sc, sd, b, rcs, ds, rd, cm)                                                        \
    pb_run(MPI_Allgatherv_init(s, sc, sd, b, rcs, ds, rd, cm, MPI_INFO_NULL, &pb_req), 1)
#define MPI_Alltoall(s, sc, sd, b, rc, rd, cm)                                                               \
    pb_run(MPI_Alltoall_init(s, sc, sd, b, rc, rd, cm, MPI_INFO_NULL, &pb_req), PB_NOT_IN_PLACE(s))
#define MPI_Alltoallv(s, scs, sds, sd, b, rcs, rds, rd, cm)                                                  \
    pb_run(MPI_Alltoallv_init(s, scs, sds, sd, b, rcs, rds, rd, cm, MPI_INFO_NULL, &pb_req), PB_NOT_IN_PLACE(s))
#define MPI_Alltoallw(s, scs, sds, sts, b, rcs, rds, rts, cm)                                                \
    pb_run(MPI_Alltoallw_init(s, scs, sds, sts, b, rcs, rds, rts, cm, MPI_INFO_NULL, &pb_req), PB_NOT_IN_PLACE(s))
#define MPI_Neighbor_allgather(s, sc, sd, b, rc, rd, cm)                                                     \
    pb_run(MPI_Neighbor_allgather_init(s, sc, sd, b, rc, rd, cm, MPI_INFO_NULL, &pb_req), 1)
#define MPI_Neighbor_allgatherv(s, sc, sd, b, rcs, ds, rd, cm)                                               \
    pb_run(MPI_Neighbor_allgatherv_init(s, sc, sd, b, rcs, ds, rd, cm, MPI_INFO_NULL, &pb_req), 1)
#define MPI_Neighbor_alltoall(s, sc, sd, b, rc, rd, cm)                                                      \
    pb_run(MPI_Neighbor_alltoall_init(s, sc, sd, b, rc, rd, cm, MPI_INFO_NULL, &pb_req), 1)
#define MPI_Neighbor_alltoallv(s, scs, sds, sd, b, rcs, rds, rd, cm)                                         \
    pb_run(MPI_Neighbor_alltoallv_init(s, scs, sds, sd, b, rcs, rds, rd, cm, MPI_INFO_NULL, &pb_req), 1)
#define MPI_Neighbor_alltoallw(s, scs, sds, sts, b, rcs, rds, rts, cm)                                       \
    pb_run(MPI_Neighbor_alltoallw_init(s, scs, sds, sts, b, rcs, rds, rts, cm, MPI_INFO_NULL, &pb_req), 1)

#include "coll.c"

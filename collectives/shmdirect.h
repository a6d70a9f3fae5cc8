/* shmdirect.h - what the parts of the direct node collectives share
 * (shmdirect.c: lending, Allgather, Alltoall, the staged paths and the
 * choice of path; shmdirect_reduce.c: Allreduce, Reduce, Reduce_scatter;
 * shmdirect_rooted.c: Gather, Scatter, Bcast). Inside collectives/ only. */
#ifndef RD_COLL_SHMDIRECT_H
#define RD_COLL_SHMDIRECT_H

#include <mpi.h>
#include <stdint.h>

#include "collectives/shmcoll.h"
#include "runtime/base/nodemem.h"
#include "runtime/objects/comm.h"


/* What a rank lends for one collective number (in its area, posted as
 * RD_NC_DIRECT): where its incoming blocks land and where its outgoing
 * ones are, and the bytes of one block of each (they differ between ranks
 * only when the counts do not match, and every copy takes the smaller);
 * how many blocks have landed in it and left it so far; and, per source
 * rank, whether somebody has taken the block from that rank to this one. */
struct lend {
    uint64_t pid;
    uint64_t land; /* 0: this rank cannot take part */
    uint64_t out;
    uint64_t lbytes, obytes;
    struct rd_node_xkey kland, kout; /* land and out exposed for direct mapping */
    _Atomic uint32_t landed;
    _Atomic uint32_t sent;
    _Atomic uint32_t taken[];
};

static inline struct lend *sd_lend_of(MPI_Comm comm, int j, uint64_t s)
{
    return (struct lend *)(void *)rd_nc_data(comm, j, s);
}

/* Rank j's lending for s (no waiting): 1 lent (*l), 0 not posted yet, -1
 * posted something else (it took another path: its counts differ). */
static inline int sd_lent(MPI_Comm comm, int j, uint64_t s, struct lend **l)
{
    if (!rd_nc_posted(comm, j, s))
        return 0;
    if (rd_nc_path(rd_nc_desc_of(comm, j, s)) != RD_NC_DIRECT)
        return -1;
    *l = sd_lend_of(comm, j, s);
    return 1;
}

/* The geometry of one exchange: block k of rank j's result comes from
 * rank k (Allgather: k's one block; Alltoall: k's block j). */
struct xgeo {
    size_t bytes;   /* one block received */
    size_t sbytes;  /* one block sent (the same unless the counts do not match) */
    int all2all;
    int inplace;    /* (Allgather only) */
    const char *sb; /* what this rank sends: in sdt, Alltoall's blocks sstride apart */
    MPI_Datatype sdt;
    MPI_Aint sstride, rstride;
};

/* Lend for s (shmdirect.c): nland bytes at land in blocks of lbytes,
 * nout at out in blocks of obytes; posted as `desc`. */
void sd_lend(MPI_Comm comm, uint64_t s, const void *land, size_t nland, const void *out, size_t nout,
             uint64_t desc, size_t lbytes, size_t obytes);
/* Copy block src -> dst unless somebody has (1 copied here, 0 not, < 0 an
 * MPI error). */
int sd_take(MPI_Comm comm, const struct xgeo *g, int src, int dst, struct lend *ls, struct lend *ld);
/* Wait until rank j says its part is done: MPI_ERR_OTHER if it failed. */
int sd_wait_landed(struct lend *lj);

/* shmdirect_reduce.c */
int sd_allreduce(MPI_Comm comm, const struct rd_coll_args *a);
int sd_stage_allreduce_fits(const struct rd_coll_args *a);
int sd_stage_allreduce(MPI_Comm comm, const struct rd_coll_args *a);
int sd_reduce(MPI_Comm comm, const struct rd_coll_args *a);
int sd_reduce_scatter(MPI_Comm comm, const struct rd_coll_args *a);

/* shmdirect_rooted.c */
int sd_rooted_root(MPI_Comm comm, const struct rd_coll_args *a, int gather);
int sd_gather_send(MPI_Comm comm, const struct rd_coll_args *a);
int sd_scatter_follow(MPI_Comm comm, const struct rd_coll_args *a, uint64_t s);
int sd_mapped_bcast_fits(const struct rd_coll_args *a);
int sd_mapped_bcast(MPI_Comm comm, const struct rd_coll_args *a);
int sd_mapped_bcast_follow(MPI_Comm comm, const struct rd_coll_args *a, uint64_t s);

#endif

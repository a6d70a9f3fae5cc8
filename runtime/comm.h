/* comm.h - communicators.
 *
 * Context ids come in pairs: a communicator matches its users' messages in
 * context 2k and the library's own traffic for it (agreeing on new context
 * ids, exchanging split colours; later the collectives) in 2k + 1, through
 * its `coll` twin, so the two can never match each other. */
#ifndef RD_COMM_H
#define RD_COMM_H

#include <mpi.h>
#include <stdatomic.h>
#include <stdint.h>

#include "runtime/error.h"

#define RD_COMM_MAGIC 0x436f6d6du /* "Comm" */

struct rd_comm_s {
    uint32_t magic;         /* RD_COMM_MAGIC while the object is alive */
    int rank, size;
    uint32_t ctx;           /* context id: messages match only within it */
    int *world_ranks;       /* comm rank -> world rank; NULL: the identity */
    MPI_Errhandler errh;
    struct rd_comm_s *coll; /* the same ranks in context ctx + 1, for the library */
    int predefined;
    _Atomic int refs;       /* the handle + pending requests (derived comms) */
    struct rd_attr *attrs;  /* cached attributes (attr.c) */
    struct rd_cart *cart;   /* Cartesian topology, or NULL (api/cart.c) */
    struct rd_graph *graph; /* graph topology, or NULL (api/graph.c) */
    struct rd_dgraph *dgraph; /* distributed graph topology, or NULL (api/graph.c) */
    char name[MPI_MAX_OBJECT_NAME];
    uint32_t coll_seq;      /* collectives started on it: their tags (collectives/sched.c) */
    /* collectives through the node's memory (collectives/shmcoll.c) */
    int node_slot;          /* 0: not decided; -1: not used; k + 1: slot k of rd_node_arena */
    uint64_t node_seq;      /* such collectives run so far */
    uint64_t *node_known;   /* per rank: highest sequence number seen posted */
};

/* Set up MPI_COMM_WORLD and MPI_COMM_SELF from the job facts. */
void rd_comm_init_predefined(void);
void rd_comm_fini(void);

#define RD_CTX_WORLD 0u
#define RD_CTX_SELF 2u

static inline int rd_comm_world_rank(MPI_Comm comm, int rank)
{
    return comm->world_ranks ? comm->world_ranks[rank] : rank;
}

static inline int rd_comm_valid(MPI_Comm comm)
{
    return comm != MPI_COMM_NULL && comm->magic == RD_COMM_MAGIC;
}

/* A new communicator of `size` ranks, this rank being `rank`, with
 * world_ranks (taken over; NULL only for the identity) in context ctx. */
rd_status rd_comm_new(int rank, int size, int *world_ranks, uint32_t ctx, MPI_Comm *out);
/* Agree with every rank of parent on a free context pair (collective). */
rd_status rd_comm_agree_ctx(MPI_Comm parent, uint32_t *ctx);
/* The same among some ranks of parent only: members[i] are parent ranks
 * (NULL: all of them), this rank is members[me]; tag keeps concurrent
 * agreements apart. */
rd_status rd_comm_agree_ctx_among(MPI_Comm parent, const int *members, int n, int me, int tag,
                                  uint32_t *ctx);
#define RD_TAG_CREATE_GROUP_BASE 16

/* Nonblocking agreement (MPI_Comm_idup): a communicator made with ctx
 * RD_CTX_PENDING gets its pair later from rd_comm_set_ctx. Each rank
 * reserves a window of up to RD_CTX_WINDOW free pairs (bits of a map of
 * RD_CTX_WORDS words), the ranks AND their windows, and each takes the
 * lowest common pair; reserved pairs are offered to no other agreement
 * until unreserved. */
#define RD_CTX_PENDING UINT32_MAX
#define RD_CTX_WORDS 64 /* 4096 pairs */
#define RD_CTX_WINDOW 256
void rd_comm_ctx_reserve(uint64_t win[RD_CTX_WORDS]);
void rd_comm_ctx_unreserve(const uint64_t win[RD_CTX_WORDS]);
/* The lowest pair of map as a context id: 0 if map is empty. */
int rd_comm_ctx_lowest(const uint64_t map[RD_CTX_WORDS], uint32_t *ctx);
void rd_comm_set_ctx(MPI_Comm comm, uint32_t ctx); /* + the user's tag (>= 0) */
/* Blocking exchange on comm's library context: used by comm creation. */
rd_status rd_comm_allgather(MPI_Comm comm, const void *mine, size_t bytes, void *all);

static inline void rd_comm_retain(MPI_Comm comm)
{
    if (!comm->predefined)
        atomic_fetch_add_explicit(&comm->refs, 1, memory_order_relaxed);
}
void rd_comm_release(MPI_Comm comm);

/* A graph topology (MPI_Graph_create): index[nnodes], edges[nedges]. */
struct rd_graph {
    int nnodes, nedges;
    int *index, *edges;
};

/* This rank's part of a distributed graph. */
struct rd_dgraph {
    int indegree, outdegree, weighted;
    int *sources, *sourceweights, *destinations, *destweights;
};

void rd_topo_free(MPI_Comm comm);
/* Copy from's topology to to (MPI_Comm_dup); an MPI error class. */
int rd_topo_copy(MPI_Comm from, MPI_Comm to);

/* A Cartesian topology: ndims, then dims[ndims] and periods[ndims]. */
struct rd_cart {
    int ndims;
    int *dims, *periods;
};

#endif

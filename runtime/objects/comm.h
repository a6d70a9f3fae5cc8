/* comm.h - communicators.
 *
 * Context ids come in pairs: a communicator matches its users' messages in
 * context 2k and the library's own traffic for it (agreeing on new context
 * ids, exchanging split colours; later the collectives) in 2k + 1, through
 * its `coll` twin, so the two can never match each other.
 *
 * Intercommunicators (is_inter): rank, size and world_ranks describe the
 * local group, remote_size and remote_world_ranks the remote group, and
 * every rank named in a point-to-point call (dest, source, MPI_SOURCE)
 * is a rank of the remote group. An intracommunicator's remote group is
 * itself: remote_size == size and remote_world_ranks == world_ranks (an
 * alias, not owned), so that the engine always translates through the
 * remote fields, with no test of is_inter on the send path. `local` is
 * an intracommunicator of the local group with a context pair of its own
 * (agreement steps inside one group, and intercommunicator collectives).
 *
 * Tags on a library context, fixed tags of the blocking schedules of
 * communicator creation (collectives/agree.c, rd_sched_new_tagged): RD_TAG_CTX
 * (1) and RD_TAG_GATHER (2), RD_TAG_BCAST (3) and RD_TAG_INTER (4) for the broadcasts and
 * leader exchanges of intercommunicator creation, RD_TAG_CREATE_GROUP_BASE
 * + t (16 and up) for Comm_create_group, and rd_comm_intercomm_tag(t)
 * (0 or negative) for the leaders of MPI_Intercomm_create on peer_comm. */
#ifndef RD_COMM_H
#define RD_COMM_H

#include <limits.h>
#include <mpi.h>
#include <stdatomic.h>
#include <stdint.h>

#include "runtime/base/error.h"

#define RD_COMM_MAGIC 0x436f6d6du /* "Comm" */

struct rd_bsend_buf;

struct rd_comm_s {
    uint32_t magic;         /* RD_COMM_MAGIC while the object is alive */
    int rank, size;
    uint32_t ctx;           /* context id: messages match only within it */
    int *world_ranks;       /* comm rank -> world rank; NULL: the identity */
    int remote_size;        /* size of the group that p2p ranks name */
    int *remote_world_ranks; /* its rank -> world rank; NULL: the identity */
    int is_inter;           /* an intercommunicator */
    struct rd_comm_s *local; /* intercomm: its local group as an intracomm (owned); else NULL */
    MPI_Errhandler errh;
    struct rd_comm_s *coll; /* the same ranks in context ctx + 1, for the library */
    int predefined;
    _Atomic int refs;       /* the handle + pending requests (derived comms) */
    _Atomic int32_t fidx;   /* its Fortran handle's index, 0: none (objects/fhandle.h) */
    struct rd_attr *attrs;  /* cached attributes (attr.c) */
    struct rd_cart *cart;   /* Cartesian topology, or NULL (api/cart.c) */
    struct rd_graph *graph; /* graph topology, or NULL (api/graph.c) */
    struct rd_dgraph *dgraph; /* distributed graph topology, or NULL (api/graph.c) */
    char name[MPI_MAX_OBJECT_NAME];
    uint32_t coll_seq;      /* collectives started on it: their tags (collectives/sched.c) */
    uint32_t pcoll_seq;     /* persistent collectives made on it: their tags (the same) */
    uint8_t no_any_source;  /* hints in use (MPI_Comm_dup_with_info): mpi_assert_no_any_source, */
    uint8_t no_any_tag;     /* mpi_assert_no_any_tag: its matching in lanes (runtime/p2p/engine.h) */
    uint32_t part_seq;      /* partitions of partitioned sends made on it: their tags (runtime/p2p/part.c) */
    struct rd_bsend_buf *bsend; /* MPI_Comm_attach_buffer's (runtime/p2p/bsend.c), or NULL */
    struct rd_session_s *session; /* the session it derives from (a reference: its buffer for
                                   * buffered sends, objects/session.h), or NULL */
    /* what MPI_Comm_split_type says of it (MPI_Comm_get_info): an info key
     * ("mpi_hw_resource_type", "mpi_pset_name"; static) and its value
     * (owned), or NULL (runtime/api/splittype.c) */
    const char *split_key;
    char *split_value;
    /* collectives through the node's memory (collectives/shmcoll.c) */
    int node_slot;          /* 0: not decided; -1: not used; k + 1: slot k of rd_node_arena */
    uint64_t node_seq;      /* such collectives run so far */
    uint64_t *node_known;   /* per rank: highest sequence number seen posted */
    uint64_t node_staged;   /* the last of them that left blocks in this rank's stage */
    struct rd_coll_node_table *coll_node; /* its node paths, once it has a slot (collectives/select.c) */
    struct rd_coll_hier *hier; /* its ranks by node, once a collective asked (collectives/hier.c) */
};

/* What a floor above keeps on a communicator (a topology: runtime/api;
 * the node hierarchy: collectives/hier.c) is freed by a hook that floor
 * registers at MPI_Init, called when the communicator is released and,
 * for MPI_COMM_WORLD and MPI_COMM_SELF, at MPI_Finalize. */
typedef void (*rd_comm_hook)(MPI_Comm comm);
void rd_comm_on_free(rd_comm_hook fn);

/* Set up MPI_COMM_WORLD and MPI_COMM_SELF from the job facts. */
void rd_comm_init_predefined(void);
void rd_comm_fini(void);

#define RD_CTX_WORLD 0u
#define RD_CTX_SELF 2u

static inline int rd_comm_world_rank(MPI_Comm comm, int rank)
{
    return comm->world_ranks ? comm->world_ranks[rank] : rank;
}

/* The world rank of a point-to-point peer: a rank of the remote group. */
static inline int rd_comm_peer_world(MPI_Comm comm, int rank)
{
    return comm->remote_world_ranks ? comm->remote_world_ranks[rank] : rank;
}

static inline int rd_comm_valid(MPI_Comm comm)
{
    return comm != MPI_COMM_NULL && comm->magic == RD_COMM_MAGIC;
}

/* A new communicator of `size` ranks, this rank being `rank`, with
 * world_ranks (taken over; NULL only for the identity) in context ctx. */
rd_status rd_comm_new(int rank, int size, int *world_ranks, uint32_t ctx, MPI_Comm *out);
/* A new communicator takes its parent's error handler. */
void rd_comm_inherit(MPI_Comm parent, MPI_Comm c);
/* A malloc'd copy of comm's local group as world ranks (NULL: no memory). */
int *rd_comm_world_ranks_copy(MPI_Comm comm);
/* A new intercommunicator in context ctx: this rank is `rank` of the local
 * group (size, world_ranks), whose intracommunicator `local` is taken
 * over; remote_world_ranks[remote_size] is the remote group. The arrays
 * are taken over (never NULL). */
rd_status rd_comm_new_inter(int rank, int size, int *world_ranks, int remote_size,
                            int *remote_world_ranks, uint32_t ctx, MPI_Comm local, MPI_Comm *out);
#define RD_TAG_CREATE_GROUP_BASE 16 /* + the user's tag (>= 0) */
#define RD_TAG_BCAST 3
#define RD_TAG_INTER 4
/* The collectives' tags are [INT_MIN, RD_TAG_COLL_END) (collectives/
 * sched.c). A collective's message may carry RD_TAG_POISON besides: its
 * sender found that the ranks' counts do not match, so what it passes on
 * is not right; the message still matches the receive posted for the tag
 * without it (the receiver learns it from the status's tag). */
#define RD_TAG_COLL_END (INT_MIN + (1 << 28))
#define RD_TAG_POISON (1 << 28)
/* Communicators made from groups (MPI_Comm_create_from_group,
 * MPI_Intercomm_create_from_groups; runtime/api/comm.c): the agreement of
 * the group's members runs on MPI_COMM_WORLD's library context with a tag
 * from [RD_TAG_FROM_GROUP_BASE, + RD_TAG_FROM_GROUP_SPAN), 64 apart (the
 * schedules' sub-tags), chosen by a hash of the string tag
 * (rd_comm_from_group_tag): between the partitioned messages' tags
 * (runtime/p2p/part.h) and MPI_Intercomm_create's. The leaders of an
 * intercommunicator's two groups talk with that tag + 32. */
#define RD_TAG_FROM_GROUP_BASE (INT_MIN + 3 * (1 << 28))
#define RD_TAG_FROM_GROUP_SPAN ((1 << 28) - 64)
int rd_comm_from_group_tag(const char *stringtag);

/* The library tag of MPI_Intercomm_create's tag t (0 <= t <= INT_MAX) on
 * peer_comm: in [-2^30 - 1, -2], never MPI_ANY_TAG, and apart from the
 * collectives' tags (from INT_MIN up, collectives/sched.c), so that it
 * meets no other library message (two concurrent creations whose tags
 * differ by a multiple of 2^30 would share one). */
static inline int rd_comm_intercomm_tag(int t)
{
    return -2 - (t & 0x3fffffff);
}

/* The context pairs free on every rank of comm (an intracommunicator),
 * as a bitmap of RD_CTX_WORDS words; collective over comm. */
#define RD_CTX_WORDS 64
rd_status rd_comm_free_map(MPI_Comm comm, uint64_t *map);
/* The context-id bitmaps: RD_CTX_WORDS words of 64 pairs. */
#define RD_CTX_WORDS 64
/* The lowest pair set in map other than `except` (a context id, or
 * UINT32_MAX); RD_ERR_NOMEM when none. */
rd_status rd_comm_lowest_ctx(const uint64_t *map, uint32_t except, uint32_t *ctx);

/* Nonblocking agreement (MPI_Comm_idup): a communicator made with ctx
 * RD_CTX_PENDING gets its pair later from rd_comm_set_ctx. It runs in
 * rounds: each rank reserves a window of its lowest free pairs (bits of a
 * map of RD_CTX_WORDS words) that no other agreement here is offering,
 * the ranks AND their windows, and each takes the lowest common pair;
 * reserved pairs are offered to no other agreement until unreserved. When
 * the windows have no pair in common (the ranks' states differ, or other
 * agreements hold the pairs), the agreement runs another round with fresh
 * windows, twice as large when every rank offered some (runtime/api/
 * comm_idup.c). The first round's window is RD_CTX_WINDOW pairs.
 * rd_comm_ctx_reserve returns RD_CTX_F_* flags describing the offer. */
#define RD_CTX_PENDING UINT32_MAX
#define RD_CTX_WINDOW 64
#define RD_CTX_F_OFFERED 1u /* the window is not empty */
#define RD_CTX_F_FREE 2u    /* some pair is unused here */
#define RD_CTX_F_ALL 4u     /* the window is every pair unused here */
uint64_t rd_comm_ctx_reserve(uint64_t win[RD_CTX_WORDS], int n);
void rd_comm_ctx_unreserve(const uint64_t win[RD_CTX_WORDS]);
void rd_comm_set_ctx(MPI_Comm comm, uint32_t ctx);
/* Around every call that agrees on context pairs by blocking exchanges
 * (MPI_Comm_dup, split, create, create_group, Intercomm_create, merge):
 * rd_comm_creating(1) on entry, (0) on return. Until the outermost such
 * call returns, the pairs its agreements offered are offered to no
 * nonblocking agreement (whose later rounds start inside rd_progress(),
 * so inside the call's waits): the call's pick is marked used only when
 * its communicator is made. Blocking agreements never offer a rank's
 * RD_CTX_NB_KEEP highest free pairs, so that a nonblocking agreement
 * always has some to offer meanwhile: the call may be waiting for ranks
 * that wait for that agreement to end. */
void rd_comm_creating(int enter);
#define RD_CTX_NB_KEEP 64
/* This rank's offer to a blocking agreement (it takes the lock): its free
 * pairs but the RD_CTX_NB_KEEP highest, which stay offered by blocking
 * agreements until the outermost rd_comm_creating(0). */
void rd_comm_ctx_offer(uint64_t mine[RD_CTX_WORDS]);
/* A blocking agreement's pick, held against the other blocking agreements
 * of this process (threads) while its peers confirm it: 1 if it was free
 * here and is now held, 0 if another holds or uses it. Unclaim: given back
 * (the peers did not all confirm). Held ones are let go when no blocking
 * creation is left (rd_comm_creating), by then used or not needed. */
int rd_comm_ctx_claim(uint32_t ctx);
void rd_comm_ctx_unclaim(uint32_t ctx);

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


/* A Cartesian topology: ndims, then dims[ndims] and periods[ndims]. */
struct rd_cart {
    int ndims;
    int *dims, *periods;
};

#endif

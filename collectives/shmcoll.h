/* shmcoll.h - collectives of node-local communicators through the node's
 * memory (runtime/base/nodemem.h): the steps on a communicator's slot of the
 * arena (shmcoll.c), shared by the small collectives there and the direct
 * single-copy ones (shmdirect.c).
 *
 * Collective number s (comm->node_seq counts them): rd_nc_guard(s) before a
 * rank overwrites its area for s; the rank writes its area
 * (rd_nc_data(comm, rank, s)) and rd_nc_post(s, desc); readers
 * rd_nc_wait_posted(j, s), check what j says (rd_nc_desc_of), read, and
 * rd_nc_finish(s) ("I have read everything up to s"); rd_nc_wait_done(s)
 * waits until every other rank has finished s.
 *
 * What a rank posts says how it moves the data (its path: the areas, the
 * stage, direct copies or messages) and how many bytes it has, so that
 * ranks whose counts do not match (an erroneous program), which may then
 * also choose different paths, find out before anything is copied and
 * nobody waits for what will never come (shmcoll.c). */
#ifndef RD_SHMCOLL_H
#define RD_SHMCOLL_H

#include <stdint.h>

#include "collectives/algorithms.h"
#include "runtime/objects/op.h"

/* The paths, in the top byte of what a rank posts; the next byte holds
 * the algorithm of the message path (its index in the menu); the rest
 * the bytes (per block, vector or stream, as each collective says). */
enum {
    RD_NC_SMALL = 1, /* the data in the areas */
    RD_NC_STAGED,    /* in the rank's stage */
    RD_NC_DIRECT,    /* lent for single copies (shmdirect.c's struct lend in the area) */
    RD_NC_P2P,       /* by messages */
    RD_NC_FAIL,      /* a root that found a mismatch: nobody moves anything */
};
#define RD_NC_BYTES ((UINT64_C(1) << 48) - 1)
static inline uint64_t rd_nc_desc(int path, int alg, uint64_t bytes)
{
    return (uint64_t)path << 56 | (uint64_t)(alg & 0xff) << 48 | (bytes < RD_NC_BYTES ? bytes : RD_NC_BYTES);
}
static inline int rd_nc_path(uint64_t d)
{
    return (int)(d >> 56);
}
static inline int rd_nc_alg(uint64_t d)
{
    return (int)(d >> 48 & 0xff);
}
static inline uint64_t rd_nc_bytes(uint64_t d)
{
    return d & RD_NC_BYTES;
}

/* First use of comm: 1 if it goes through the node's memory (a slot is
 * claimed, collectively), else 0 for good. */
int rd_nc_setup(MPI_Comm comm);
/* Whether comm's ranks may share a slot (an arena, 2 ranks or more, all
 * on this node): the same answer on every rank. */
int rd_nc_local(MPI_Comm comm);
/* Collective over comm (rd_nc_local): rank 0 claims a free slot of the
 * arena if `want` (its own arguments allow), clears it, and tells the
 * others by message; the slot, or -1 on every rank. for_request: for a
 * persistent collective (collectives/persist.c), which takes one only
 * while several stay free for communicators. Let it go with
 * rd_node_slot_release(slot, comm->size) on every rank. */
int rd_nc_claim(MPI_Comm comm, int want, int for_request);
/* Elements [e0, e1) of the n ranks' vectors posted as d for collective s
 * in slot's areas, reduced in rank order into rbuf (a contiguous type) by
 * the op's loop k (per: its elements per element of dt; NULL: by
 * rd_op_apply); the first rank that posted something else, or -1. */
int rd_nc_reduce_areas(int slot, int n, uint64_t s, uint64_t d, void *rbuf, long e0, long e1, MPI_Datatype dt,
                       MPI_Op op, rd_kernel k, size_t per);
void rd_nc_guard(MPI_Comm comm, uint64_t s);
unsigned char *rd_nc_data(MPI_Comm comm, int j, uint64_t s);
void rd_nc_post(MPI_Comm comm, uint64_t s, uint64_t desc);
int rd_nc_posted(MPI_Comm comm, int j, uint64_t s);
void rd_nc_wait_posted(MPI_Comm comm, int j, uint64_t s);
/* Around a wait for the other ranks' parts of collective s (a report then
 * names the ranks that have not arrived at it). */
void rd_nc_wait_any(MPI_Comm comm, uint64_t s);
void rd_nc_wait_end(void);
/* What rank j posted for s (once it has). */
uint64_t rd_nc_desc_of(MPI_Comm comm, int j, uint64_t s);
void rd_nc_finish(MPI_Comm comm, uint64_t s);
void rd_nc_wait_done(MPI_Comm comm, uint64_t s);

/* The reason when another rank posted `theirs` where this rank has
 * `mine` bytes (a different path or count): "rank j sends ... bytes";
 * each: " per rank" where the counts are per block. MPI_ERR_TRUNCATE. */
int rd_nc_differ(int j, uint64_t theirs, uint64_t mine, const char *each);
/* The same for a rank that sends to the root (Gather, Reduce), which
 * posted `root` where this rank sends `mine`. */
int rd_nc_root_differs(uint64_t root, uint64_t mine, const char *each);

/* The node paths, entries of the collectives' menus (select.c), each a
 * usable() check and a run (algorithms.h: struct rd_coll_alg); every one
 * of a collective begins with a post at the same collective number, so
 * the ranks learn each other's paths and counts:
 *   node (Barrier): the done words alone;
 *   node_follow (Bcast, Scatter): a rank other than the root takes the
 *     root's path, whatever it is;
 *   node_small: the data in the areas (rd_nc_small_fits: this rank's
 *     bytes fit; Reduce and Allreduce have their own pair, which looks the
 *     op's loop up once per call, and so do Allgather and Alltoall: no
 *     dispatch by kind on the small calls that are most frequent);
 *   node_messages: the ranks agree on the algorithm and counts through the
 *     areas, then run it by messages (always usable: the last).
 * shmdirect.c's rd_shmdirect_eligible / rd_shmdirect_run are node_direct. */
int rd_nc_barrier(int kind, const struct rd_coll_args *a);
int rd_nc_not_root(int kind, const struct rd_coll_args *a);
int rd_nc_follow(int kind, const struct rd_coll_args *a);
int rd_nc_small_fits(int kind, const struct rd_coll_args *a);
int rd_nc_small(int kind, const struct rd_coll_args *a);
int rd_nc_reduce_fits(int kind, const struct rd_coll_args *a);
int rd_nc_reduce_small(int kind, const struct rd_coll_args *a);
int rd_nc_exchange_fits(int kind, const struct rd_coll_args *a);
int rd_nc_exchange_small(int kind, const struct rd_coll_args *a);
int rd_nc_messages(int kind, const struct rd_coll_args *a);
/* A reduction's op defined on its type (MPI_ERR_OP, with the reason,
 * before anything is posted), for the paths beyond the areas, which
 * MPI_Allreduce's short way reaches past the API's checks. */
int rd_nc_op_check(int kind, const struct rd_coll_args *a);

/* Gather and Scatter: the bytes of one block, from whichever side of the
 * call counts on this rank (a Gather's receive side at the root and send
 * side elsewhere; the reverse for Scatter). */
size_t rd_nc_rooted_block(int kind, const struct rd_coll_args *a);
/* Reduce_scatter(_block): rank r's block is elements [*e0, *e1) of the
 * whole vector, of *total elements (rcounts, or count each for the block
 * form). */
void rd_nc_redscat_block(const struct rd_coll_args *a, int r, long *e0, long *e1, long *total);

/* The direct collectives (shmdirect.c; the menus' node_direct, on
 * communicators of up to 64 ranks): whether this rank's side of the call
 * goes that way (by its own arguments: ranks whose counts do not match may
 * answer differently, which what they post shows), and running it on a
 * communicator that has a slot (returns the MPI error class; for Bcast and
 * Scatter, the root's side). */
int rd_shmdirect_eligible(int kind, const struct rd_coll_args *a);
/* Whether the node's stages are used (RDMPI_COLL_SHM_STAGED; auto: when
 * ranks outnumber cores); the same on every rank. */
int rd_shmdirect_staging(void);
int rd_shmdirect_run(int kind, const struct rd_coll_args *a);
/* A rank of a Bcast or Scatter other than the root, whose root posted
 * `desc` (RD_NC_DIRECT or RD_NC_STAGED) for collective number s: it
 * follows the root's path, taking what fits its buffer. */
int rd_shmdirect_follow(int kind, const struct rd_coll_args *a, uint64_t s, uint64_t desc);

#endif

/* agree.h - the library's own small exchanges for making communicators
 * (agree.c): context-id agreement and the exchanges of communicator
 * creation, as schedule builders (sched.h) that a blocking call runs to
 * completion and MPI_Comm_idup builds into its own nonblocking schedule. */
#ifndef RD_COLL_AGREE_H
#define RD_COLL_AGREE_H

#include <stddef.h>
#include <stdint.h>

#include "collectives/sched.h"
#include "runtime/objects/comm.h"

/* ---- builders: they append to s, on its current library context and
 * tag (rd_sched_on, rd_sched_on_tag) unless said otherwise */

/* The AND of count words at map over ranks of comm, into map on each:
 * members[i] are ranks of comm, this rank being members[me]; members NULL:
 * all ranks of comm (n its size, me its rank), by the collectives' own
 * recursive-doubling allreduce (BAND), as for any MPI_Allreduce. With a
 * member list (MPI_Comm_create_group: the others take no part) the same
 * recursive doubling over the list, the members beyond the largest power
 * of two folding into the first ones and back. */
rd_status rd_agree_and(struct rd_sched *s, MPI_Comm comm, const int *members, int n, int me,
                       uint64_t *map, int count);
/* Broadcast bytes from root over comm (the collectives' binomial tree). */
rd_status rd_agree_bcast(struct rd_sched *s, MPI_Comm comm, int root, void *buf, size_t bytes);
/* Gather bytes from every rank of comm into all, in rank order (the
 * collectives' ring allgather). */
rd_status rd_agree_allgather(struct rd_sched *s, MPI_Comm comm, const void *mine, size_t bytes,
                             void *all);
/* Leader exchange for intercommunicators: rank `leader` of the
 * intracommunicator `group` sends mine (mine_bytes) to rank `rleader` of
 * `bridge` and receives theirs_bytes, on bridge's library context with
 * tag btag; then theirs is broadcast in group (on group's library context
 * with the tag s had on entry). Collective over group. */
rd_status rd_agree_leader(struct rd_sched *s, MPI_Comm group, int leader, MPI_Comm bridge, int rleader,
                          int btag, const void *mine, size_t mine_bytes, void *theirs,
                          size_t theirs_bytes);

/* ---- blocking: each builds one schedule with a fixed tag of comm.h's
 * scheme (rd_sched_new_tagged: no collective tag is taken, so that ranks
 * that do not join in stay in step) and runs it to completion */

/* Agree with every rank of parent on a free context pair (collective). */
rd_status rd_comm_agree_ctx(MPI_Comm parent, uint32_t *ctx);
/* The same among some ranks of parent only: members[i] are parent ranks
 * (NULL: all of them), this rank is members[me]; tag keeps concurrent
 * agreements apart. */
rd_status rd_comm_agree_ctx_among(MPI_Comm parent, const int *members, int n, int me, int tag,
                                  uint32_t *ctx);
/* The context pairs free on every rank of comm (an intracommunicator),
 * as a bitmap of RD_CTX_WORDS words; collective over comm. The last
 * word's top bit (a pair no offer holds: rd_comm_ctx_offer keeps the
 * highest back) says that no rank of comm runs threads: read it, and
 * clear it before picking, with rd_ctx_map_single. */
rd_status rd_comm_free_map(MPI_Comm comm, uint64_t *map);
#define RD_CTX_THREADED_BIT (1ULL << 63)
static inline int rd_ctx_map_single(uint64_t *map)
{
    int single = (map[RD_CTX_WORDS - 1] & RD_CTX_THREADED_BIT) != 0;
    map[RD_CTX_WORDS - 1] &= ~RD_CTX_THREADED_BIT;
    return single;
}
/* AND map (RD_CTX_WORDS words) over every rank of comm. */
rd_status rd_comm_and(MPI_Comm comm, uint64_t *map);
/* The k-th free pair of map, k from seed, below min(free pairs, 16): what
 * agreements pick again after a clash, so that they most likely pick
 * apart (every member computes the same from the same seed). */
rd_status rd_comm_spread_ctx(const uint64_t *map, uint32_t seed, uint32_t *ctx);
/* One blocking exchange on comm's library context: send sn bytes to dst
 * and receive rn bytes from src (either < 0: none), both with tag. */
rd_status rd_comm_sendrecv(MPI_Comm comm, const void *sb, size_t sn, int dst, void *rb, size_t rn,
                           int src, int tag);
/* Broadcast bytes from root over comm's library context. */
rd_status rd_comm_bcast(MPI_Comm comm, int root, void *buf, size_t bytes);
/* rd_agree_leader, blocking: tag on bridge, RD_TAG_BCAST in group. */
rd_status rd_comm_leader_exchange(MPI_Comm group, int leader, MPI_Comm bridge, int rleader, int tag,
                                  const void *mine, size_t mine_bytes, void *theirs,
                                  size_t theirs_bytes);
/* The context pair of a new communicator across two groups: *ctx free on
 * every rank of both, and (lctx not NULL) *lctx, another, free on every
 * rank of the local group (the new intercommunicator's local
 * intracommunicator). The local group `group` agrees through its leader,
 * which talks to the other group's leader rleader over bridge with btag
 * (rd_comm_leader_exchange); collective over both groups. After the pick
 * both groups learn whether every rank of either picked (a group out of
 * local pairs fails both with RD_ERR_NOMEM) and, when a rank of either
 * runs threads, every rank claims the picks (rd_comm_ctx_claim) and all
 * must hold them, else the holders give them back and both groups pick
 * again, apart (as rd_comm_agree_ctx_among). salt: the same on every rank
 * of both groups, different for agreements that may run at once (the
 * intercommunicator's context, the bridge's and tag), so that two that
 * clashed pick apart. */
rd_status rd_comm_agree_ctx_inter(MPI_Comm group, int leader, MPI_Comm bridge, int rleader, int btag,
                                  uint32_t salt, uint32_t *ctx, uint32_t *lctx);
/* Allgather of bytes over comm's library context: used by comm creation. */
rd_status rd_comm_allgather(MPI_Comm comm, const void *mine, size_t bytes, void *all);

#endif

/* agree.h - the library's own small exchanges for making communicators
 * (agree.c): context-id agreement and the exchanges of communicator
 * creation, by blocking messages on a communicator's library context. */
#ifndef RD_COLL_AGREE_H
#define RD_COLL_AGREE_H

#include <stddef.h>
#include <stdint.h>

#include "runtime/objects/comm.h"

/* Agree with every rank of parent on a free context pair (collective). */
rd_status rd_comm_agree_ctx(MPI_Comm parent, uint32_t *ctx);
/* The same among some ranks of parent only: members[i] are parent ranks
 * (NULL: all of them), this rank is members[me]; tag keeps concurrent
 * agreements apart. */
rd_status rd_comm_agree_ctx_among(MPI_Comm parent, const int *members, int n, int me, int tag,
                                  uint32_t *ctx);
/* The context pairs free on every rank of comm (an intracommunicator),
 * as a bitmap of RD_CTX_WORDS words; collective over comm. */
rd_status rd_comm_free_map(MPI_Comm comm, uint64_t *map);
/* One blocking exchange on comm's library context: send sn bytes to dst
 * and receive rn bytes from src (either < 0: none), both with tag. */
rd_status rd_comm_sendrecv(MPI_Comm comm, const void *sb, size_t sn, int dst, void *rb, size_t rn,
                           int src, int tag);
/* Broadcast bytes from root over comm's library context (binomial tree). */
rd_status rd_comm_bcast(MPI_Comm comm, int root, void *buf, size_t bytes);
/* Leader exchange for intercommunicators: rank `leader` of the
 * intracommunicator `group` sends mine (mine_bytes) to rank `rleader` of
 * `bridge` and receives theirs_bytes, with library tag `tag` on bridge's
 * library context; then theirs is broadcast in group. Collective over group. */
rd_status rd_comm_leader_exchange(MPI_Comm group, int leader, MPI_Comm bridge, int rleader, int tag,
                                  const void *mine, size_t mine_bytes, void *theirs,
                                  size_t theirs_bytes);
/* For a new communicator made from intercommunicator inter: the pairs
 * free on every rank of both groups (both) and on every rank of the local
 * group (local_only). Collective over both groups. */
rd_status rd_comm_inter_free_maps(MPI_Comm inter, uint64_t *both, uint64_t *local_only);
/* Blocking exchange on comm's library context: used by comm creation. */
rd_status rd_comm_allgather(MPI_Comm comm, const void *mine, size_t bytes, void *all);

#endif

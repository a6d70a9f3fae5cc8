/* part.h - partitioned communication (MPI_Psend_init, MPI_Precv_init,
 * MPI_Pready*, MPI_Parrived): part.c. The API checks the arguments and
 * holds the big lock. */
#ifndef RD_PART_H
#define RD_PART_H

#include <mpi.h>
#include <stddef.h>

#include "runtime/p2p/request.h"

/* Tags of the partitions' messages on a communicator's library twin:
 * [RD_TAG_PART_BASE, RD_TAG_PART_BASE + RD_TAG_PART_SPAN), apart from the
 * collectives' (and their poisoned copies) below and MPI_Intercomm_create's
 * above (runtime/objects/comm.h). A sender takes one tag per partition
 * from its communicator's counter (comm->part_seq), so the RD_TAG_PART_SPAN-th
 * partition made after a request's own takes its tag again. */
#define RD_TAG_PART_BASE (INT_MIN + (1 << 29))
#define RD_TAG_PART_SPAN (1 << 28)

/* A persistent partitioned request (inactive): send (1) or receive (0) of
 * `parts` partitions of `count` elements of dt each at buf, to or from
 * `peer` (a rank of comm's remote group, or MPI_PROC_NULL) with `tag`.
 * An error class (nothing made) and *why on failure. */
int rd_part_init(int send, const void *buf, int parts, MPI_Count count, MPI_Datatype dt, int peer, int tag,
                 MPI_Comm comm, struct rd_request_s **out, const char **why);
/* MPI_Start of one (the caller marked it active). */
int rd_part_start(struct rd_request_s *req);
/* Whether req is a partitioned send (1), receive (0), or neither (-1). */
int rd_part_kind(const struct rd_request_s *req);
/* Its number of partitions. */
int rd_part_count(const struct rd_request_s *req);
/* Whether partition p of an active send was marked ready this round. */
int rd_part_is_ready(const struct rd_request_s *req, int p);
/* Mark partition p of an active send ready: its data leaves now. */
void rd_part_ready(struct rd_request_s *req, int p);
/* Whether partition p of a receive has arrived (an inactive one: yes). */
int rd_part_arrived(struct rd_request_s *req, int p);
/* MPI_Request_free of an inactive one (or a completed one): its state goes. */
void rd_part_free(struct rd_request_s *req);
/* A sender's announcement (an active message of the engine, match.c). */
void rd_part_am(int wsrc, const void *hdr, size_t hlen);

#endif

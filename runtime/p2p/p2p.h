/* p2p.h - the point-to-point engine (runtime/p2p/engine.c and the files
 * engine.h lists), as the API layer and the collectives use it. Callers
 * have checked the arguments and hold the big lock; requests come from
 * rd_req_new() (or rd_req_alloc() with buf/count/dt/comm/peer/tag filled
 * in). The engine picks each peer's transport and protocols (eager;
 * rendezvous by get, put, split, pipeline or the transport's own) once,
 * when the peer is first used; a send's flags (request.h, RD_SEND_*) say
 * what the caller knows of the traffic, never a protocol. */
#ifndef RD_P2P_H
#define RD_P2P_H

#include <mpi.h>

#include "runtime/base/error.h"
#include "runtime/p2p/request.h"

/* Open the transports, exchange addresses (one PMIx fence), attach. */
rd_status rd_p2p_init(void);
/* Finish pending traffic and close the transports. */
rd_status rd_p2p_finalize(void);
/* After the closing fence: release what the engine still holds. */
void rd_p2p_close(void);

/* Start a send / receive described by req (peer != MPI_PROC_NULL). */
rd_status rd_p2p_start_send(struct rd_request_s *req);
rd_status rd_p2p_start_recv(struct rd_request_s *req);

/* Standard send without a request when the message can leave at once
 * (eager, contiguous, nothing queued before it). Otherwise RD_ERR_AGAIN,
 * and the engine keeps what it looked up (the peer, the message's size,
 * whether it fits the eager limit): the caller makes a request for the
 * same message and starts it with rd_p2p_start_send_missed(req) in the
 * same critical section, with no engine call in between, so that the
 * request path does not look the peer up or test the eager limit again.
 * (Kept in the engine, not handed back through an argument: a seventh
 * argument costs the caller of every fast send 6 instructions.) */
rd_status rd_p2p_send_fast(const void *buf, MPI_Count count, MPI_Datatype dt, int dest, int tag,
                           MPI_Comm comm);
rd_status rd_p2p_start_send_missed(struct rd_request_s *req);

/* Look for a matching message that has arrived (no progress made here).
 * Fills status; with take != NULL, removes it and returns it there. */
int rd_p2p_probe(int source, int tag, MPI_Comm comm, MPI_Status *status, struct rd_message_s **take);
/* Whether m is a message that probe took and nobody received yet. */
int rd_p2p_message_valid(struct rd_message_s *m);
/* Receive a message taken by probe into req (a receive request). */
rd_status rd_p2p_start_mrecv(struct rd_request_s *req, struct rd_message_s *msg);

/* A communicator's hints that rule out wildcards in its receives and
 * probes (mpi_assert_no_any_source: no_src; mpi_assert_no_any_tag:
 * no_tag): its context's matching looks only where a match can be (lanes,
 * engine.h). Call before the program holds the communicator (its dup with
 * info): the messages already there move to their lanes. The API refuses
 * the wildcards the hints rule out. rd_p2p_ctx_plain: back to one queue
 * (the communicator freed: its context may serve another). */
rd_status rd_p2p_ctx_hints(uint32_t ctx, int no_src, int no_tag);
void rd_p2p_ctx_plain(uint32_t ctx);

/* Cancel a receive that has not matched yet: returns 1 if cancelled. */
int rd_p2p_cancel_recv(struct rd_request_s *req);

/* Active messages for the floors above the engine (runtime/rma/): ids
 * from RD_P2P_AM_FIRST up (below RD_AM_RNDV) go to the handler set in
 * rd_p2p_am_hook (set at MPI_Init), called with the
 * sender's world rank. Handlers never call a transport: what they answer
 * goes through rd_p2p_am_post, which queues it. rd_p2p_am_post sends now
 * (nothing queued for that peer, not in a handler) or queues a copy in the
 * peer's FIFO of pending work, behind everything else sent to it; one
 * sender's active messages arrive in the order they were posted. hlen is at
 * most RD_P2P_AM_HDR bytes, hlen + len at most rd_p2p_am_max(world_rank). */
#define RD_P2P_AM_FIRST 32u
/* The engine's floor's own: partitioned communication's announcement
 * (part.c), not the hook's (ids from RD_P2P_AM_FIRST below it are). */
#define RD_P2P_AM_PART 96u
#define RD_P2P_AM_HDR 64u
typedef void (*rd_p2p_am_fn)(int wsrc, unsigned id, const void *hdr, size_t hlen, const void *data,
                             size_t len);
extern rd_p2p_am_fn rd_p2p_am_hook;
rd_status rd_p2p_am_post(int world_rank, unsigned id, const void *hdr, size_t hlen, const void *data,
                         size_t len);
/* The largest hlen + len one active message to world_rank carries (connects it). */
size_t rd_p2p_am_max(int world_rank);

/* The empty status (null and inactive requests; also the starting point
 * of a request's own status): MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_SUCCESS,
 * count 0, not cancelled. */
static inline void rd_status_empty(MPI_Status *st)
{
    if (!st)
        return;
    st->MPI_SOURCE = MPI_ANY_SOURCE;
    st->MPI_TAG = MPI_ANY_TAG;
    /* part of the empty status (MPI-4.1 3.7.3), so also from the calls
     * that otherwise leave MPI_ERROR alone (Wait, Test, Request_get_status) */
    st->MPI_ERROR = MPI_SUCCESS;
    st->rd_cancelled = 0;
    st->rd_bytes = 0;
}

#endif

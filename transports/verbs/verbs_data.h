/*
 * verbs_data.h - what the files of the verbs data path share (private to
 * them; verbs.h declares what verbs.c and the wire-up call).
 *
 *   verbs_buf.c     registered eager buffers: the shared receive queue's,
 *                   and the send buffers of messages too long to go inline
 *   verbs_sq.c      the send queue: posting a work request (vb_post, here),
 *                   its completion, and vb_fatal
 *   verbs_am.c      active messages: eager sends under credits, receives,
 *                   credit returns, iWARP's first messages (hellos)
 *   verbs_rma.c     RDMA read and write, atomics, and the registrations
 *                   they use (through the cache, verbs_rcache.c)
 *   verbs_data.c    set-up and close, and progress: what is polled when,
 *                   asynchronous device events
 *   verbs_report.c  what the data path holds, for a hung job's report
 *
 * A file calls only files listed before it (verbs_report.c none); progress
 * (verbs_data.c) is the one that calls them all. So there is no circle
 * among them (test/unit/layers.sh checks with test/tools/cycles.sh), and
 * each can be read alone. transports/README.md ("How verbs works") explains
 * the design.
 */
#ifndef RD_VERBS_DATA_H
#define RD_VERBS_DATA_H

#include <errno.h>
#include <string.h>

#include "transports/verbs/verbs.h"

#define VB_POLL_BATCH 16 /* completions taken per poll of a CQ */
#define VB_RECV_BATCH 32 /* receive buffers posted in one chain */

/* ------------------------------------------------------------ verbs_buf.c */

/* Page-aligned memory (never NULL for 0 bytes); NULL when there is none. */
void *vb_chunk_alloc(size_t bytes);
/* Deregister and free a list of buffer blocks. */
void vb_chunks_free(vb_chunk *c);
/* A free send buffer (more are registered while under sbuf_max); NULL:
 * none now. */
struct vb_sbuf *vb_sbuf_get(vb_tl *tl);

/* ------------------------------------------------------------ verbs_sq.c */

/* What a send queue entry was, for messages: "<what> rank N failed". */
const char *vb_sqe_what(const struct vb_sqe *e);
/* Take the send queue's completions: give back slots and send buffers,
 * finish RDMA operations and atomics. How many were taken. */
int vb_poll_send(vb_tl *tl);

static inline int vb_sq_room(const vb_tl *tl, const vb_ep *ep)
{
    return ep->sq_head - ep->sq_tail < tl->sq_depth && tl->scq_out < tl->scq_size;
}

/* Post one work request on ep's send queue (room checked by the caller). */
static inline void vb_post(vb_tl *tl, vb_ep *ep, int op, struct ibv_send_wr *wr, struct vb_sbuf *sb,
                        struct vb_rma *rma, struct vb_atomic *atom, int force_signal)
{
    uint32_t pos = ep->sq_head;
    int sig = force_signal || ++ep->unsignalled >= tl->sig_every;
    struct vb_sqe *e = &ep->sq[pos % tl->sq_depth];
    e->sbuf = sb;
    e->rma = rma;
    e->atom = atom;
    e->op = (uint8_t)op;
    e->sig = (uint8_t)sig;
    e->done = 0;
    wr->wr_id = ((uint64_t)(uint32_t)ep->base.peer << 32) | pos;
    if (sig)
        wr->send_flags |= IBV_SEND_SIGNALED;
    struct ibv_send_wr *bad;
    int rc = tl->dev.kernel_tx ? vb_post_send_nosigpipe(ep->qp, wr, &bad) : ibv_post_send(ep->qp, wr, &bad);
    if (rc != 0) {
        /* an errno value; some providers (siw, its device being removed)
         * return -1 and set errno, or a negated errno */
        int err = rc > 0 ? rc : rc == -1 ? errno : -rc;
        vb_fatal(tl, ep->base.peer, "%s rank %d failed: ibv_post_send: %s", vb_sqe_what(e), ep->base.peer,
                 strerror(err));
    }
    ep->sq_head++;
    tl->sq_out++;
    if (sig) {
        ep->unsignalled = 0;
        ep->sig_out++;
        tl->scq_out++;
    }
}

/* ------------------------------------------------------------ verbs_am.c */

/* Take the receive queue's completions: hand each message to the engine,
 * count it for credits, repost the buffers. How many were taken. */
int vb_poll_recv(vb_tl *tl);
/* Tell the peer how many of its messages we have handled (RDMA write of
 * the count into its credit word for us). force: ask for a completion.
 * 1 if it was posted. */
int vb_credit_write(vb_tl *tl, vb_ep *ep, int force);
/* Credits owed: return them by RDMA write where no message carried them. */
int vb_return_credits(vb_tl *tl);
/* Hellos that could not go yet, or are due again. */
int vb_hello_retry(vb_tl *tl);

/* ------------------------------------------------------------ verbs_rma.c */

/* Post what the endpoints' waiting RDMA operations have room for now. */
int vb_rma_retry(vb_tl *tl);
/* The registration cache's callbacks (vb_data_open makes the cache). */
void *vb_reg_cb(void *arg, void *addr, size_t len);
void vb_dereg_cb(void *arg, void *handle);

#endif

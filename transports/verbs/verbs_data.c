/*
 * verbs_data.c - the verbs data path's set-up and close, and progress.
 *
 * The data path's files (verbs_data.h lists them) each do one job; this
 * one makes and frees what they share (protection domain, completion
 * queues, the shared receive queue, credit words, the registration cache)
 * and decides what progress polls when: the receive queue every call, the
 * send queue every VB_SEND_POLL_EVERY calls unless RDMA operations wait
 * for their completions, and asynchronous device events (and rdma_cm's,
 * through the wire-up's hook) every VB_SLOW_EVERY calls.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/base/log.h"
#include "runtime/base/params.h"
#include "transports/verbs/verbs_data.h"

#define VB_SLOW_EVERY 256 /* progress calls between looks at async and rdma_cm events */
#define VB_SEND_POLL_EVERY 16 /* progress calls between polls of the send CQ with no RDMA out */

static void async_events(vb_tl *tl)
{
    struct ibv_async_event ae;
    while (ibv_get_async_event(tl->dev.ctx, &ae) == 0) {
        enum ibv_event_type t = ae.event_type;
        struct ibv_qp *qp = NULL;
        if (t == IBV_EVENT_QP_FATAL || t == IBV_EVENT_QP_REQ_ERR || t == IBV_EVENT_QP_ACCESS_ERR ||
            t == IBV_EVENT_PATH_MIG_ERR)
            qp = ae.element.qp;
        ibv_ack_async_event(&ae);
        switch (t) {
        case IBV_EVENT_QP_FATAL:
        case IBV_EVENT_QP_REQ_ERR:
        case IBV_EVENT_QP_ACCESS_ERR:
        case IBV_EVENT_PATH_MIG_ERR: {
            int peer = -1;
            for (int r = 0; r < tl->size; r++)
                if (tl->eps[r] && tl->eps[r]->qp == qp)
                    peer = r;
            vb_fatal(tl, peer, "the QP to rank %d failed: %s", peer, ibv_event_type_str(t));
        }
        case IBV_EVENT_CQ_ERR:
        case IBV_EVENT_SRQ_ERR:
        case IBV_EVENT_DEVICE_FATAL:
        case IBV_EVENT_PORT_ERR:
            vb_fatal(tl, -1, "%s on port %d", ibv_event_type_str(t), tl->dev.port);
        default:
            rd_debug("verbs", "async event: %s", ibv_event_type_str(t));
            break;
        }
    }
    if (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)
        vb_fatal(tl, -1, "ibv_get_async_event: %s (device gone?)", strerror(errno));
}

int vb_progress(rd_tl *base)
{
    vb_tl *tl = (vb_tl *)base;
    int n = vb_poll_recv(tl);
    /* Sends' completions only give back slots and buffers (the send
     * paths poll themselves when short of them), so the send queue is
     * polled every VB_SEND_POLL_EVERY calls, except while RDMA operations
     * wait for theirs; also while only unsignalled work is out: a failed
     * one completes (with its error) all the same. (Each poll takes the
     * CQ's lock: on rxe, polling both CQs on every call cost a visible
     * share of the small-message latency.) */
    if (tl->sq_out && (tl->inflight || ++tl->sq_tick >= VB_SEND_POLL_EVERY)) {
        tl->sq_tick = 0;
        n += vb_poll_send(tl);
    }
    if (tl->nrma_wait)
        n += vb_rma_retry(tl);
    if (tl->nowe)
        n += vb_return_credits(tl);
    if (tl->nhello)
        n += vb_hello_retry(tl);
    if (++tl->tick >= VB_SLOW_EVERY || tl->nconnecting) {
        if (tl->tick >= VB_SLOW_EVERY) {
            tl->tick = 0;
            async_events(tl);
        }
        if (tl->ch)
            n += tl->cm_progress(tl);
    }
    return n;
}

int vb_busy(rd_tl *base)
{
    vb_tl *tl = (vb_tl *)base;
    int busy = tl->inflight > 0 || tl->nrma_wait > 0;
    for (int r = 0; r < tl->size; r++) {
        vb_ep *ep = tl->eps[r];
        if (!ep || ep->sq_head == ep->sq_tail || ep->state == VB_EP_FAILED)
            continue;
        busy = 1;
        /* only unsignalled work left: ask for a completion to see it leave */
        if (ep->sig_out == 0)
            vb_credit_write(tl, ep, 1);
    }
    return busy;
}

/* ------------------------------------------------------------ set-up */

rd_status vb_data_open(vb_tl *tl)
{
    const vb_dev *d = &tl->dev;
    tl->pd = ibv_alloc_pd(d->ctx);
    if (!tl->pd) {
        rd_error("verbs", "ibv_alloc_pd on %s: %s", d->name, strerror(errno));
        return RD_ERR_IO;
    }
    int nserved = 0;
    for (int r = 0; r < tl->size; r++)
        nserved += tl->serves[r];
    uint64_t want = (uint64_t)tl->credits * (uint64_t)(nserved ? nserved : 1);
    tl->srq_max = (uint32_t)(want < (uint64_t)d->attr.max_srq_wr ? want : (uint64_t)d->attr.max_srq_wr);
    if ((int)tl->srq_max >= d->attr.max_cqe)
        tl->srq_max = (uint32_t)d->attr.max_cqe - 1;
    tl->scq_size = d->attr.max_cqe < 4096 ? (uint32_t)d->attr.max_cqe : 4096;
    tl->scq = ibv_create_cq(d->ctx, (int)tl->scq_size, NULL, NULL, 0);
    tl->rcq = ibv_create_cq(d->ctx, (int)tl->srq_max + 1, NULL, NULL, 0);
    if (!tl->scq || !tl->rcq) {
        rd_error("verbs", "ibv_create_cq on %s: %s", d->name, strerror(errno));
        return RD_ERR_IO;
    }
    struct ibv_srq_init_attr sa = {.attr = {.max_wr = tl->srq_max, .max_sge = 1}};
    tl->srq = ibv_create_srq(tl->pd, &sa);
    if (!tl->srq) {
        rd_error("verbs", "ibv_create_srq (%u entries) on %s: %s", tl->srq_max, d->name, strerror(errno));
        return RD_ERR_IO;
    }
    tl->rwr = calloc(VB_RECV_BATCH, sizeof(*tl->rwr));
    tl->rsge = calloc(VB_RECV_BATCH, sizeof(*tl->rsge));
    tl->owe = calloc((size_t)tl->size, sizeof(*tl->owe));
    tl->rma_wait = calloc((size_t)tl->size, sizeof(*tl->rma_wait));
    tl->cw = vb_chunk_alloc((size_t)tl->size * 8);
    if (!tl->rwr || !tl->rsge || !tl->owe || !tl->rma_wait || !tl->cw)
        return RD_ERR_NOMEM;
    memset(tl->cw, 0, (size_t)tl->size * 8);
    tl->cw_mr = ibv_reg_mr(tl->pd, tl->cw, (size_t)tl->size * 8, IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE);
    if (!tl->cw_mr) {
        rd_error("verbs", "registering the credit words: %s", strerror(errno));
        return RD_ERR_IO;
    }
    tl->max_msg = d->port_attr.max_msg_sz ? d->port_attr.max_msg_sz : (1u << 30);
    if (tl->max_msg > (1u << 30))
        tl->max_msg = 1u << 30;
    int fl = fcntl(d->ctx->async_fd, F_GETFL);
    if (fl < 0 || fcntl(d->ctx->async_fd, F_SETFL, fl | O_NONBLOCK) < 0) {
        rd_error("verbs", "async event fd: %s", strerror(errno));
        return RD_ERR_IO;
    }
    const char *mode;
    rd_status st = vb_rcache_create((size_t)rd_param.verbs_rcache_max, 1, vb_reg_cb, vb_dereg_cb, tl, &tl->rcache, &mode);
    if (st != RD_OK)
        return st;
    rd_debug("verbs", "registration: %s", mode);
    return RD_OK;
}

void vb_data_close(vb_tl *tl)
{
    if (tl->srq)
        ibv_destroy_srq(tl->srq);
    if (tl->scq)
        ibv_destroy_cq(tl->scq);
    if (tl->rcq)
        ibv_destroy_cq(tl->rcq);
    vb_chunks_free(tl->rchunks);
    vb_chunks_free(tl->schunks);
    tl->rchunks = tl->schunks = NULL;
    if (tl->cw_mr)
        ibv_dereg_mr(tl->cw_mr);
    free(tl->cw);
    if (tl->rcache) {
        struct vb_rcache_stats rs;
        vb_rcache_stats(tl->rcache, &rs);
        rd_debug("verbs", "registration cache: %lu hits, %lu misses, %lu invalidated, %lu evicted", rs.hits,
                 rs.misses, rs.invalidated, rs.evicted);
    }
    vb_rcache_destroy(tl->rcache);
    while (tl->rma_free) {
        struct vb_rma *x = tl->rma_free;
        tl->rma_free = x->next;
        free(x);
    }
    while (tl->atom_free) {
        struct vb_atomic *a = tl->atom_free;
        tl->atom_free = a->next;
        free(a);
    }
    free(tl->rwr);
    free(tl->rsge);
    free(tl->owe);
    free(tl->rma_wait);
    if (tl->pd)
        ibv_dealloc_pd(tl->pd);
}

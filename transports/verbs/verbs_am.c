/*
 * verbs_am.c - the verbs transport's active messages: eager sends under
 * credits, receives, credit returns, and iWARP's first messages.
 *
 * Every QP shares one receive queue (SRQ) of registered buffers
 * (verbs_buf.c). A sender may have at most `credits` messages that the
 * receiver has not taken off its SRQ yet, so the SRQ never runs dry and
 * the receiver is never overrun (no RNR). The receiver tells the sender
 * how many it has handled: in every message it sends back (the count
 * rides in our 16-byte header), and, when it has nothing to send, by an
 * RDMA write of the count into a word the sender owns (credit words: no
 * receive buffer is consumed by a credit return, so returning credits can
 * never itself run out of credits). Messages up to the QP's inline size go
 * inline from the caller's buffers; larger ones are copied into a
 * registered send buffer. The receive queue is polled in batches and its
 * buffers are reposted in one chain per batch. Nothing on the eager path
 * allocates or takes a lock.
 */
#include "config.h"

#include <errno.h>
#include <string.h>
#include <time.h>

#include "runtime/base/log.h"
#include "transports/verbs/verbs_data.h"

/* Post one message (the endpoint is ready). */
static rd_status am_post(vb_tl *tl, vb_ep *ep, unsigned id, unsigned flags, const void *hdr, size_t hlen,
                         const void *data, size_t len)
{
    rd_ep *base = &ep->base;
    size_t total = sizeof(struct vb_hdr) + hlen + len;
    if (total > tl->buf_size || hlen > RD_AM_HDR_MAX)
        return RD_ERR_ARG;
    if ((uint32_t)(ep->sent - ep->peer_consumed) >= tl->credits) {
        uint32_t w = __atomic_load_n(&tl->cw[base->peer], __ATOMIC_ACQUIRE);
        if ((int32_t)(w - ep->peer_consumed) > 0)
            ep->peer_consumed = w;
        if ((uint32_t)(ep->sent - ep->peer_consumed) >= tl->credits)
            return RD_ERR_AGAIN;
    }
    if (!vb_sq_room(tl, ep)) {
        vb_poll_send(tl);
        if (!vb_sq_room(tl, ep))
            return RD_ERR_AGAIN;
    }
    struct vb_hdr h = {(uint32_t)tl->rank, ep->consumed, (uint16_t)id, (uint8_t)hlen, (uint8_t)flags, 0};
    struct ibv_sge sge[3];
    struct ibv_send_wr wr = {.sg_list = sge, .opcode = IBV_WR_SEND};
    struct vb_sbuf *sb = NULL;
    if (total <= tl->max_inline) {
        int n = 0;
        sge[n++] = (struct ibv_sge){.addr = (uintptr_t)&h, .length = sizeof(h)};
        if (hlen)
            sge[n++] = (struct ibv_sge){.addr = (uintptr_t)hdr, .length = (uint32_t)hlen};
        if (len)
            sge[n++] = (struct ibv_sge){.addr = (uintptr_t)data, .length = (uint32_t)len};
        wr.num_sge = n;
        wr.send_flags = IBV_SEND_INLINE;
    } else {
        sb = vb_sbuf_get(tl);
        if (!sb) {
            vb_poll_send(tl);
            if (!(sb = vb_sbuf_get(tl)))
                return RD_ERR_AGAIN;
        }
        memcpy(sb->buf, &h, sizeof(h));
        memcpy(sb->buf + sizeof(h), hdr, hlen);
        if (len)
            memcpy(sb->buf + sizeof(h) + hlen, data, len);
        sge[0] = (struct ibv_sge){.addr = (uintptr_t)sb->buf, .length = (uint32_t)total, .lkey = sb->lkey};
        wr.num_sge = 1;
    }
    vb_post(tl, ep, VB_OP_SEND, &wr, sb, NULL, NULL, 0);
    ep->sent++;
    ep->consumed_reported = ep->consumed;
    ep->hello_owed = 0; /* any message does what a hello would */
    return RD_OK;
}

rd_status vb_am_send(rd_ep *base, unsigned id, const void *hdr, size_t hlen, const void *data, size_t len)
{
    vb_ep *ep = (vb_ep *)base;
    if (ep->state != VB_EP_READY)
        return ep->state == VB_EP_FAILED ? RD_ERR_PEER : RD_ERR_AGAIN;
    return am_post((vb_tl *)base->tl, ep, id, 0, hdr, hlen, data, len);
}

static uint64_t now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

/* One look at ep's hellos; returns 1 when it has none left to do. */
static int hello_step(vb_tl *tl, vb_ep *ep)
{
    if (ep->hello_wait && ep->heard)
        ep->hello_wait = 0;
    if (ep->hello_wait && !ep->hello_owed) {
        uint64_t now = now_ms();
        if (now >= ep->hello_next_ms) {
            rd_debug("verbs", "rdma_cm: nothing from rank %d %u ms after the last hello: hello again", ep->base.peer,
                     ep->hello_gap_ms);
            ep->hello_owed = 1;
            ep->hello_gap_ms = ep->hello_gap_ms < 1000 ? ep->hello_gap_ms * 2 : 1000;
            ep->hello_next_ms = now + ep->hello_gap_ms;
        }
    }
    if (ep->hello_owed && ep->state == VB_EP_READY)
        am_post(tl, ep, 0, VB_HDR_HELLO, NULL, 0, NULL, 0); /* (RD_ERR_AGAIN: later) */
    return !ep->hello_owed && !ep->hello_wait;
}

void vb_hello_start(vb_tl *tl, vb_ep *ep, int repeat)
{
    if (!ep->hello_owed && !ep->hello_wait)
        tl->nhello++;
    ep->hello_owed = 1;
    ep->hello_wait = repeat;
    ep->hello_gap_ms = 10;
    ep->hello_next_ms = now_ms() + ep->hello_gap_ms;
    if (hello_step(tl, ep))
        tl->nhello--;
}

int vb_hello_retry(vb_tl *tl)
{
    int n = 0;
    for (int r = 0; r < tl->size && tl->nhello; r++) {
        vb_ep *ep = tl->eps[r];
        if (ep && (ep->hello_owed || ep->hello_wait) && hello_step(tl, ep)) {
            tl->nhello--;
            n++;
        }
    }
    return n;
}

int vb_credit_write(vb_tl *tl, vb_ep *ep, int force)
{
    if (ep->state != VB_EP_READY || !vb_sq_room(tl, ep))
        return 0;
    uint32_t *src = &tl->cw[tl->size + ep->base.peer];
    *src = ep->consumed;
    struct ibv_sge sge = {.addr = (uintptr_t)src, .length = 4, .lkey = tl->cw_mr->lkey};
    struct ibv_send_wr wr = {.sg_list = &sge, .num_sge = 1, .opcode = IBV_WR_RDMA_WRITE,
                             .send_flags = tl->max_inline >= 4 ? IBV_SEND_INLINE : 0};
    wr.wr.rdma.remote_addr = ep->remote_cw;
    wr.wr.rdma.rkey = ep->remote_cw_rkey;
    vb_post(tl, ep, VB_OP_CREDIT, &wr, NULL, NULL, NULL, force);
    ep->consumed_reported = ep->consumed;
    return 1;
}

static vb_ep *ep_of_qpn(vb_tl *tl, uint32_t qpn)
{
    for (int r = 0; r < tl->size; r++)
        if (tl->eps[r] && tl->eps[r]->qp && tl->eps[r]->qp->qp_num == qpn)
            return tl->eps[r];
    return NULL;
}

static void owe(vb_tl *tl, vb_ep *ep)
{
    if (!ep->owes) {
        ep->owes = 1;
        tl->owe[tl->nowe++] = ep;
    }
}

int vb_poll_recv(vb_tl *tl)
{
    struct ibv_wc wc[VB_POLL_BATCH];
    int n = ibv_poll_cq(tl->rcq, VB_POLL_BATCH, wc);
    if (n <= 0) {
        if (n < 0)
            vb_fatal(tl, -1, "ibv_poll_cq (receive queue): %d", n);
        return 0;
    }
    uint32_t thresh = tl->credits / 4 ? tl->credits / 4 : 1;
    for (int i = 0; i < n; i++) {
        struct vb_rbuf *b = (struct vb_rbuf *)(uintptr_t)wc[i].wr_id;
        if (wc[i].status != IBV_WC_SUCCESS) {
            vb_ep *ep = ep_of_qpn(tl, wc[i].qp_num);
            vb_fatal(tl, ep ? ep->base.peer : -1, "receive from rank %d failed: %s (vendor error 0x%x, QP %u)",
                     ep ? ep->base.peer : -1, ibv_wc_status_str(wc[i].status), wc[i].vendor_err, wc[i].qp_num);
        }
        struct vb_hdr h;
        if (wc[i].byte_len < sizeof(h))
            vb_fatal(tl, -1, "a %u-byte message, shorter than the verbs header", wc[i].byte_len);
        memcpy(&h, b->buf, sizeof(h));
        vb_ep *ep = h.src < (uint32_t)tl->size ? tl->eps[h.src] : NULL;
        if (!ep || sizeof(h) + h.hlen > wc[i].byte_len)
            vb_fatal(tl, (int)h.src, "a malformed message from rank %d (%u bytes)", (int)h.src, wc[i].byte_len);
        if ((int32_t)(h.credits - ep->peer_consumed) > 0)
            ep->peer_consumed = h.credits;
        if (!ep->heard) {
            ep->heard = 1;
            if (ep->state == VB_EP_WAIT_FIRST) {
                ep->state = VB_EP_READY;
                rd_debug("verbs", "rdma_cm: rank %d's first message is here: this side may send", (int)h.src);
                vb_hello_start(tl, ep, 0);
            }
        }
        const unsigned char *p = b->buf + sizeof(h);
        if (!(h.flags & VB_HDR_HELLO))
            tl->handler(tl->harg, (int)h.src, h.id, p, h.hlen, p + h.hlen, wc[i].byte_len - sizeof(h) - h.hlen);
        ep->consumed++;
        if ((uint32_t)(ep->consumed - ep->consumed_reported) >= thresh)
            owe(tl, ep);
        tl->rsge[i] = (struct ibv_sge){.addr = (uintptr_t)b->buf, .length = (uint32_t)tl->buf_size,
                                       .lkey = b->lkey};
        tl->rwr[i] = (struct ibv_recv_wr){.wr_id = (uintptr_t)b, .sg_list = &tl->rsge[i], .num_sge = 1,
                                          .next = i + 1 < n ? &tl->rwr[i + 1] : NULL};
    }
    struct ibv_recv_wr *bad;
    if (ibv_post_srq_recv(tl->srq, tl->rwr, &bad) != 0)
        vb_fatal(tl, -1, "ibv_post_srq_recv: %s", strerror(errno));
    return n;
}

int vb_return_credits(vb_tl *tl)
{
    uint32_t thresh = tl->credits / 4 ? tl->credits / 4 : 1;
    int keep = 0, n = 0;
    for (int i = 0; i < tl->nowe; i++) {
        vb_ep *ep = tl->owe[i];
        if ((uint32_t)(ep->consumed - ep->consumed_reported) < thresh) {
            ep->owes = 0; /* a message back carried them */
            continue;
        }
        if (vb_credit_write(tl, ep, 0)) {
            ep->owes = 0;
            n++;
        } else {
            tl->owe[keep++] = ep;
        }
    }
    tl->nowe = keep;
    return n;
}

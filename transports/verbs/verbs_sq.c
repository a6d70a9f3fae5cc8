/*
 * verbs_sq.c - the verbs send queue: completions of what vb_post
 * (verbs_data.h) posted, and the end of the job on errors.
 *
 * Signalling: one send in sig_every asks for a completion, and so do every
 * RDMA operation's last piece and every RDMA read; a completion also
 * completes the unsignalled sends and writes posted before it, but not an
 * earlier read (iWARP completes a read when its response has been placed,
 * after the sends behind it). A slot, and its send buffer, goes back once
 * it and every slot before it are done; an RDMA operation's or an atomic's
 * done() runs at its own completion.
 *
 * Errors (a failed completion, an asynchronous QP or device event, an
 * rdma_cm failure) are reported with the peer's rank and the verbs status
 * text, and end the job through the launcher (rd_job_abort): vb_fatal.
 */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>

#include "runtime/base/job.h"
#include "runtime/base/log.h"
#include "transports/verbs/verbs_data.h"

_Noreturn void vb_fatal(vb_tl *tl, int peer, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    (void)peer;
    rd_error("verbs", "%s (device %s)", msg, tl->dev.name);
    rd_job_abort(rd_status_to_mpi(RD_ERR_PEER), msg);
}

const char *vb_sqe_what(const struct vb_sqe *e)
{
    switch (e->op) {
    case VB_OP_READ: return "RDMA read from";
    case VB_OP_WRITE: return "RDMA write to";
    case VB_OP_CREDIT: return "credit return (RDMA write) to";
    case VB_OP_ATOMIC: return "atomic operation on";
    default: return "send to";
    }
}

int vb_poll_send(vb_tl *tl)
{
    struct ibv_wc wc[VB_POLL_BATCH];
    int total = 0;
    for (;;) {
        int n = ibv_poll_cq(tl->scq, VB_POLL_BATCH, wc);
        if (n < 0)
            vb_fatal(tl, -1, "ibv_poll_cq (send queue): %d", n);
        for (int i = 0; i < n; i++) {
            int peer = (int)(wc[i].wr_id >> 32);
            uint32_t pos = (uint32_t)wc[i].wr_id;
            vb_ep *ep = peer >= 0 && peer < tl->size ? tl->eps[peer] : NULL;
            if (!ep)
                vb_fatal(tl, peer, "a completion for an unknown QP (rank %d)", peer);
            if (wc[i].status != IBV_WC_SUCCESS) {
                struct vb_sqe *e = &ep->sq[pos % tl->sq_depth];
                rd_error("verbs", "%s rank %d failed: %s (vendor error 0x%x, QP %u)", vb_sqe_what(e), peer,
                         ibv_wc_status_str(wc[i].status), wc[i].vendor_err, wc[i].qp_num);
                ep->state = VB_EP_FAILED;
                if (e->rma) { /* the engine says which transfer and ends the job */
                    tl->inflight--;
                    e->rma->op->done(e->rma->op, RD_ERR_PEER);
                }
                vb_fatal(tl, peer, "%s rank %d failed: %s", vb_sqe_what(e), peer, ibv_wc_status_str(wc[i].status));
            }
            struct vb_sqe *e = &ep->sq[pos % tl->sq_depth];
            if ((uint32_t)(pos - ep->sq_tail) >= (uint32_t)(ep->sq_head - ep->sq_tail) || !e->sig || e->done)
                vb_fatal(tl, peer, "the QP to rank %d completed send-queue slot %u, which waits for no completion "
                         "(slots %u to %u are posted)", peer, pos, ep->sq_tail, ep->sq_head - 1);
            tl->scq_out--;
            ep->sig_out--;
            e->done = 1;
            /* The unsignalled requests before it have left too: sends and
             * writes complete in the order they were posted. Not so RDMA
             * reads: on iWARP (siw) a read completes when its response has
             * been placed, after the sends and writes posted behind it,
             * which complete once TCP has them. So every read asks for its
             * own completion, and a slot is given back only when it and
             * every slot before it are done. */
            for (uint32_t j = ep->sq_tail; j != pos; j++) {
                struct vb_sqe *f = &ep->sq[j % tl->sq_depth];
                if (!f->sig)
                    f->done = 1;
            }
            if (e->rma) {
                struct vb_rma *x = e->rma;
                e->rma = NULL;
                tl->inflight--;
                rd_rma_op *op = x->op;
                x->next = tl->rma_free;
                tl->rma_free = x;
                op->done(op, RD_OK);
            }
            if (e->atom) {
                struct vb_atomic *a = e->atom;
                e->atom = NULL;
                tl->inflight--;
                rd_atomic_op *op = a->op;
                a->next = tl->atom_free;
                tl->atom_free = a;
                op->done(op, RD_OK);
            }
            while (ep->sq_tail != ep->sq_head) {
                struct vb_sqe *f = &ep->sq[ep->sq_tail % tl->sq_depth];
                if (!f->done)
                    break;
                f->done = 0;
                ep->sq_tail++;
                tl->sq_out--;
                if (f->sbuf) {
                    f->sbuf->next = tl->sfree;
                    tl->sfree = f->sbuf;
                    f->sbuf = NULL;
                }
            }
        }
        total += n;
        if (n < VB_POLL_BATCH)
            return total;
    }
}

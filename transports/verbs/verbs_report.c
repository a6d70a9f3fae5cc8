/*
 * verbs_report.c - what the verbs data path holds, for a hung job's report
 * (runtime/base/report.h): one line for the transport, one per endpoint
 * (its connection, credits, send queue by kind of work, RDMA operations
 * waiting). It reads the state and changes nothing.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "runtime/base/report.h"
#include "transports/verbs/verbs_data.h"

static const char *ep_state_str(int s)
{
    switch (s) {
    case VB_EP_INIT: return "not connected yet";
    case VB_EP_CONNECTING: return "connecting (rdma_cm)";
    case VB_EP_READY: return "connected";
    case VB_EP_WAIT_FIRST: return "connected, waiting for its first message before sending (iWARP: the side that accepted may not send first)";
    default: return "failed";
    }
}

static const char *qp_state_str(enum ibv_qp_state s)
{
    switch (s) {
    case IBV_QPS_RESET: return "RESET";
    case IBV_QPS_INIT: return "INIT";
    case IBV_QPS_RTR: return "RTR";
    case IBV_QPS_RTS: return "RTS";
    case IBV_QPS_SQD: return "SQD";
    case IBV_QPS_SQE: return "SQE";
    case IBV_QPS_ERR: return "ERR";
    default: return "?";
    }
}

void vb_report(vb_tl *tl, struct rd_report_buf *b)
{
    uint32_t sfree = 0;
    for (const struct vb_sbuf *s = tl->sfree; s; s = s->next)
        sfree++;
    rd_report_printf(b, "I verbs on %s, %s wire-up: %u receive buffers on the shared receive queue; %u work "
                     "requests posted and not seen complete, %u of them signalled (the send CQ holds %u); %ld "
                     "RDMA operations in flight, %d endpoints with RDMA operations waiting for send-queue room; "
                     "%u of %u send buffers in use; %d endpoints owe credits\n",
                     tl->dev.name, tl->cm == VB_CM_RDMACM ? "rdma_cm" : "PMIx", tl->srq_posted, tl->sq_out,
                     tl->scq_out, tl->scq_size, tl->inflight, tl->nrma_wait, tl->nsbuf - sfree, tl->sbuf_max,
                     tl->nowe);
    for (int r = 0; tl->eps && r < tl->size; r++) {
        const vb_ep *ep = tl->eps[r];
        if (!ep)
            continue;
        unsigned nop[VB_OP_N] = {0}, ndone = 0;
        for (uint32_t i = ep->sq_tail; i != ep->sq_head; i++) {
            nop[ep->sq[i % tl->sq_depth].op % VB_OP_N]++;
            ndone += ep->sq[i % tl->sq_depth].done;
        }
        unsigned queued = 0;
        for (const struct vb_rma *x = ep->rma_head; x; x = x->next)
            queued++;
        char qp[160] = "no QP";
        if (ep->qp) {
            struct ibv_qp_attr qa;
            struct ibv_qp_init_attr ia;
            /* (siw answers without the state: iWARP's states are its own) */
            if (ibv_query_qp(ep->qp, &qa, IBV_QP_STATE | IBV_QP_MAX_QP_RD_ATOMIC | IBV_QP_MAX_DEST_RD_ATOMIC, &ia) == 0)
                snprintf(qp, sizeof(qp), "QP %u%s%s, RDMA reads at most %u out and %u in (as the device says)",
                         ep->qp->qp_num,
                         tl->dev.iwarp ? "" : " in ", tl->dev.iwarp ? "" : qp_state_str(qa.qp_state),
                         qa.max_rd_atomic, qa.max_dest_rd_atomic);
            else
                snprintf(qp, sizeof(qp), "QP %u (ibv_query_qp: %s)", ep->qp->qp_num, strerror(errno));
        }
        uint32_t w = __atomic_load_n(&tl->cw[r], __ATOMIC_ACQUIRE);
        rd_report_printf(b, "I verbs to rank %d: %s, %s; credits: %u of %u in use (rank %d's credit word says %u "
                         "taken of our %u sent), %u of its messages handled and not yet reported; send queue %u of "
                         "%u (sends %u, RDMA reads %u, writes %u, credit returns %u, atomics %u; %u signalled, %u done "
                         "behind one that is not), %u RDMA operations waiting for room\n",
                         r, ep_state_str(ep->state), qp, (uint32_t)(ep->sent - ep->peer_consumed), tl->credits, r,
                         w, ep->sent, (uint32_t)(ep->consumed - ep->consumed_reported), ep->sq_head - ep->sq_tail,
                         tl->sq_depth, nop[VB_OP_SEND], nop[VB_OP_READ], nop[VB_OP_WRITE], nop[VB_OP_CREDIT],
                         nop[VB_OP_ATOMIC], ep->sig_out, ndone, queued);
    }
}

/* progress.c - the peers' FIFOs of pending work, completion, and
 * rd_progress().
 *
 * Anything an active-message handler needs to send or start (ACK, CTS,
 * FIN, a get, fragments) and any send a transport had no room for
 * (RD_ERR_AGAIN) waits in its peer's FIFO, in order; the peers that have
 * some are listed, and the list is flushed at the end of every progress
 * call (and after a receive took an unexpected message). */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "runtime/base/job.h"
#include "runtime/base/log.h"
#include "runtime/objects/datatype.h"
#include "runtime/p2p/engine.h"

/* ------------------------------------------------------------ queueing */

rd_status rd_eng_queue_ctrl(int w, unsigned id, const struct rd_wire_ctrl *c, const void *data, size_t len)
{
    struct rd_pend *pd = calloc(1, sizeof(*pd));
    if (!pd)
        return RD_ERR_NOMEM;
    pd->kind = PEND_CTRL;
    pd->id = id;
    pd->hlen = sizeof(*c);
    memcpy(pd->hdr, c, sizeof(*c));
    if (len) {
        pd->own_data = malloc(len);
        if (!pd->own_data) {
            free(pd);
            return RD_ERR_NOMEM;
        }
        memcpy(pd->own_data, data, len);
        pd->data = pd->own_data;
        pd->len = len;
    }
    rd_eng_pend_push(w, pd);
    return RD_OK;
}

rd_status rd_eng_queue_req(int w, int kind, struct rd_request_s *req)
{
    struct rd_pend *pd = calloc(1, sizeof(*pd));
    if (!pd)
        return RD_ERR_NOMEM;
    pd->kind = kind;
    pd->req = req;
    rd_eng_pend_push(w, pd);
    return RD_OK;
}

rd_status rd_eng_pend_copy(int w, const struct rd_pend *pd)
{
    struct rd_pend *q = malloc(sizeof(*q));
    if (!q)
        return RD_ERR_NOMEM;
    *q = *pd;
    rd_eng_pend_push(w, q);
    return RD_OK;
}

/* ------------------------------------------------------------ other floors' messages */

rd_p2p_am_fn rd_p2p_am_hook;

size_t rd_p2p_am_max(int w)
{
    rd_status st;
    struct rd_peer *p = rd_eng_peer(w, &st);
    return st == RD_OK ? p->ep->tl->caps.am_max : 0;
}

rd_status rd_p2p_am_post(int w, unsigned id, const void *hdr, size_t hlen, const void *data, size_t len)
{
    rd_status st;
    struct rd_peer *p = rd_eng_peer(w, &st);
    if (st != RD_OK)
        return st;
    if (hlen > RD_AM_HDR_MAX || id < RD_P2P_AM_FIRST || id >= RD_AM_RNDV)
        return RD_ERR_INTERNAL;
    if (!p->pend_head && !rd_eng.in_handler) {
        st = p->ep->tl->ops->am_send(p->ep, id, hdr, hlen, data, len);
        if (st != RD_ERR_AGAIN)
            return st;
    }
    struct rd_wire_ctrl none;
    memset(&none, 0, sizeof(none));
    st = rd_eng_queue_ctrl(w, id, &none, data, len);
    if (st != RD_OK)
        return st;
    memcpy(p->pend_tail->hdr, hdr, hlen);
    p->pend_tail->hlen = hlen;
    return RD_OK;
}

/* ------------------------------------------------------------ completion */

void rd_eng_finish_send(struct rd_request_s *req)
{
    if (req->mr) {
        rd_ep *ep = rd_eng.peers[req->wpeer].ep;
        req->rma.done = NULL;
        ep->tl->ops->mem_dereg(ep->tl, req->mr);
        req->mr = NULL;
    }
    free(req->tmp);
    req->tmp = NULL;
    free(req->rkey); /* put: the receiver's key, from its CTS */
    req->rkey = NULL;
    rd_req_complete(req);
}

void rd_eng_finish_recv(struct rd_request_s *req)
{
    if (req->tmp) {
        rd_dt_unpack(req->buf, req->dt, 0, req->tmp, req->xfer);
        free(req->tmp);
        req->tmp = NULL;
    }
    if (req->mr) {
        rd_ep *ep = rd_eng.peers[req->wpeer].ep;
        ep->tl->ops->mem_dereg(ep->tl, req->mr);
        req->mr = NULL;
    }
    free(req->rkey);
    req->rkey = NULL;
    req->status.rd_bytes = (MPI_Count)req->xfer;
    rd_req_complete(req);
}

/* ------------------------------------------------------------ flushing */

/* Run one pending item; RD_ERR_AGAIN leaves it at the head. */
static rd_status run_pending(struct rd_peer *p, struct rd_pend *pd)
{
    rd_ep *ep = p->ep;
    const struct rd_transport *ops = ep->tl->ops;
    struct rd_request_s *req = pd->req;
    rd_status st;
    switch (pd->kind) {
    case PEND_CTRL:
        return ops->am_send(ep, pd->id, pd->hdr, pd->hlen, pd->data, pd->len);
    case PEND_MSG:
        st = ops->am_send(ep, pd->id, pd->hdr, pd->hlen, pd->data, pd->len);
        if (st == RD_OK && pd->id == RD_AM_EAGER)
            rd_eng_finish_send(req);
        return st;
    case PEND_GET:
        req->rma.done = rd_eng_rma_done;
        req->rma.arg = req;
        return ops->get(ep, &req->rma);
    case PEND_PUT:
        req->rma.done = rd_eng_rma_done;
        req->rma.arg = req;
        return ops->put(ep, &req->rma);
    case PEND_TL_SEND:
        return ops->rndv_send(ep, pd->id, pd->hdr, pd->hlen, &req->rma);
    case PEND_TL_RECV:
        req->rma.done = rd_eng_tl_rndv_done;
        req->rma.arg = req;
        return ops->rndv_recv(ep->tl, (void *)(uintptr_t)req->remote, &req->rma);
    case PEND_TL_DROP:
        ops->rndv_drop(ep->tl, (void *)pd->data);
        return RD_OK;
    case PEND_FRAGS:
        return rd_eng_send_frags(ep, req);
    }
    return RD_ERR_INTERNAL;
}

static int flush_peer(int w)
{
    struct rd_peer *p = &rd_eng.peers[w];
    int n = 0;
    while (p->pend_head) {
        struct rd_pend *pd = p->pend_head;
        rd_status st = run_pending(p, pd);
        if (st == RD_ERR_AGAIN)
            break;
        if (st != RD_OK) {
            rd_error("p2p", "sending to rank %d failed: %s", w, rd_status_string(st));
            rd_job_abort(rd_status_to_mpi(st), "point-to-point engine failure");
        }
        p->pend_head = pd->next;
        if (!p->pend_head)
            p->pend_tail = NULL;
        free(pd->own_data);
        free(pd);
        n++;
    }
    return n;
}

int rd_eng_flush_all(void)
{
    int n = 0, keep = 0, listed = rd_eng.nflush;
    for (int i = 0; i < listed; i++) {
        int w = rd_eng.flush_list[i];
        n += flush_peer(w);
        if (rd_eng.peers[w].pend_head)
            rd_eng.flush_list[keep++] = w;
        else
            rd_eng.peers[w].listed = 0;
    }
    /* peers listed while flushing sit behind the first `listed` entries */
    for (int i = listed; i < rd_eng.nflush; i++)
        rd_eng.flush_list[keep++] = rd_eng.flush_list[i];
    rd_eng.nflush = keep;
    return n;
}

int rd_progress(void)
{
    int n = 0;
    /* only the transports that may have work: one whose backlog says it
     * has none (self, idle) costs a load, not a call */
    for (int i = rd_eng.ntls - 1; i >= 0; i--) {
        rd_tl *tl = rd_eng.tls[i];
        if (tl->caps.backlog && *tl->caps.backlog == 0)
            continue;
        n += tl->ops->progress(tl);
    }
    if (rd_eng.nflush)
        n += rd_eng_flush_all();
    if (rd_progress_nhooks)
        for (int i = 0; i < RD_PROGRESS_HOOKS_MAX; i++)
            if (rd_progress_hooks[i])
                n += rd_progress_hooks[i]();
    return n;
}

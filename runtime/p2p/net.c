/* net.c - the network transport's direct operations for the floor above
 * (net.h): which transport and endpoint reach a peer, registration, and
 * get/put/atomic posted with the caller's completion callback, progressed
 * by the engine's progress like the rendezvous' own get/put. */
#include "config.h"

#include <stdlib.h>

#include "runtime/base/job.h"
#include "runtime/p2p/engine.h"
#include "runtime/p2p/net.h"
#include "runtime/p2p/request.h"

/* endpoints the network transport gives beside the engine's choice
 * (node peers the engine sends by shm, this rank itself), by world rank */
static rd_ep **extra;
static int nextra;

rd_tl *rd_net_tl(void)
{
    for (int i = 0; i < rd_eng.ntls; i++) {
        rd_tl *tl = rd_eng.tls[i];
        if (tl->ops->network && tl->caps.rma && tl->ops->get && tl->ops->put && tl->ops->mem_reg)
            return tl;
    }
    return NULL;
}

rd_ep *rd_net_ep(int w, int any)
{
    rd_tl *tl = rd_net_tl();
    if (!tl || w < 0)
        return NULL;
    if (w != rd_job.rank) {
        rd_status st;
        struct rd_peer *p = rd_eng_peer(w, &st);
        if (st != RD_OK)
            return NULL;
        if (p->ep->tl == tl)
            return p->ep;
    }
    if (!any)
        return NULL;
    if (!extra) {
        extra = calloc((size_t)rd_job.size, sizeof(*extra));
        if (!extra)
            return NULL;
        nextra = rd_job.size;
    }
    if (w >= nextra)
        return NULL;
    if (!extra[w]) {
        /* (reachable() answers for the engine, which never asks a
         * network transport for this rank itself: connect() says) */
        if ((w != rd_job.rank && !tl->ops->reachable(tl, w)) || tl->ops->connect(tl, w, &extra[w]) != RD_OK) {
            extra[w] = NULL;
            return NULL;
        }
    }
    return extra[w];
}

rd_status rd_net_mem_reg(void *addr, size_t len, rd_mr **mr, void *rkey, size_t *rkey_len)
{
    rd_tl *tl = rd_net_tl();
    if (!tl)
        return RD_ERR_UNSUPPORTED;
    size_t dummy = 0;
    return tl->ops->mem_reg(tl, addr, len, mr, rkey, rkey_len ? rkey_len : &dummy);
}

void rd_net_mem_dereg(rd_mr *mr)
{
    rd_tl *tl = rd_net_tl();
    if (tl && mr)
        tl->ops->mem_dereg(tl, mr);
}

/* RD_ERR_AGAIN (no room in the send queue now): progress, then again */
#define RETRY(call)                          \
    do {                                     \
        long idle = 0;                       \
        rd_status st_;                       \
        while ((st_ = (call)) == RD_ERR_AGAIN) \
            rd_wait_step(&idle);             \
        return st_;                          \
    } while (0)

rd_status rd_net_get(rd_ep *ep, rd_rma_op *op)
{
    RETRY(ep->tl->ops->get(ep, op));
}

rd_status rd_net_put(rd_ep *ep, rd_rma_op *op)
{
    RETRY(ep->tl->ops->put(ep, op));
}

rd_status rd_net_atomic(rd_ep *ep, rd_atomic_op *op)
{
    if (!ep->tl->caps.atomics || !ep->tl->ops->atomic)
        return RD_ERR_UNSUPPORTED;
    RETRY(ep->tl->ops->atomic(ep, op));
}

void rd_net_reset(void)
{
    free(extra);
    extra = NULL;
    nextra = 0;
}

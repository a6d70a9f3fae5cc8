/*
 * self.c - the self transport: a rank talking to itself.
 *
 * am_send copies header and data into a queued message (recycled through a
 * free list) and progress() delivers queued messages in order, so the
 * handler never runs inside am_send. get/put are memcpy, completed inline.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "runtime/base/log.h"
#include "transports/transport.h"

#define SELF_AM_MAX ((size_t)64 * 1024) /* the engine sizes a scratch buffer by am_max */
#define SELF_EAGER_DEFAULT 16384
#define SELF_POLL_MAX 64 /* messages delivered per progress call */
#define SELF_LATENCY_NS 20
#define SELF_BANDWIDTH_MBS 20000

typedef struct self_msg {
    struct self_msg *next;
    unsigned id;
    size_t hlen, len, cap;
    _Alignas(8) unsigned char hdr[RD_AM_HDR_MAX]; /* aligned for the engine (transport.h) */
    unsigned char *data; /* cap bytes */
} self_msg;

typedef struct self_tl {
    rd_tl base;
    rd_am_handler handler;
    void *handler_arg;
    int rank;
    rd_ep ep;
    self_msg *head, *tail; /* queued, oldest first */
    self_msg *free;
    size_t queued;
} self_tl;

static rd_mr *const self_dummy_mr = (rd_mr *)&self_dummy_mr;

static const struct rd_transport *self_ops(void);

static rd_status self_open(const struct rd_job *job, const unsigned char *peers, rd_am_handler handler,
                           void *handler_arg, rd_tl **out)
{
    (void)peers; /* (this rank only) */
    self_tl *tl = calloc(1, sizeof(*tl));
    if (!tl)
        return RD_ERR_NOMEM;
    tl->base.ops = self_ops();
    tl->base.caps.am_max = SELF_AM_MAX;
    tl->base.caps.eager_limit = SELF_EAGER_DEFAULT;
    tl->base.caps.rma = 1;
    tl->base.caps.needs_reg = 0;
    tl->base.caps.rkey_max = 0;
    tl->base.caps.latency_ns = SELF_LATENCY_NS;
    tl->base.caps.bandwidth_mbs = SELF_BANDWIDTH_MBS;
    tl->base.caps.backlog = &tl->queued; /* polled only while a message waits */
    tl->handler = handler;
    tl->handler_arg = handler_arg;
    tl->rank = job->rank;
    tl->ep.tl = &tl->base;
    tl->ep.peer = job->rank;
    *out = &tl->base;
    return RD_OK;
}

static int self_reachable(rd_tl *base, int peer)
{
    return peer == ((self_tl *)base)->rank;
}

static rd_status self_connect(rd_tl *base, int peer, rd_ep **ep)
{
    self_tl *tl = (self_tl *)base;
    if (peer != tl->rank) {
        rd_error("self", "rank %d: the self transport reaches only itself, not rank %d", tl->rank,
                 peer);
        return RD_ERR_UNREACH;
    }
    *ep = &tl->ep;
    return RD_OK;
}

static rd_status self_am_send(rd_ep *ep, unsigned id, const void *hdr, size_t hlen,
                              const void *data, size_t len)
{
    self_tl *tl = (self_tl *)ep->tl;
    self_msg *m;
    if (hlen > RD_AM_HDR_MAX || hlen + len > SELF_AM_MAX) {
        rd_error("self", "am_send: header %zu + data %zu bytes exceeds the limits "
                 "(header <= %d, total <= %zu)", hlen, len, RD_AM_HDR_MAX, SELF_AM_MAX);
        return RD_ERR_ARG;
    }
    if (tl->free) {
        m = tl->free;
        tl->free = m->next;
    } else {
        m = calloc(1, sizeof(*m));
        if (!m)
            return RD_ERR_NOMEM;
    }
    if (len > m->cap) {
        unsigned char *d = realloc(m->data, len);
        if (!d) {
            m->next = tl->free;
            tl->free = m;
            return RD_ERR_NOMEM;
        }
        m->data = d;
        m->cap = len;
    }
    m->id = id;
    m->hlen = hlen;
    m->len = len;
    if (hlen)
        memcpy(m->hdr, hdr, hlen);
    if (len)
        memcpy(m->data, data, len);
    m->next = NULL;
    if (tl->tail)
        tl->tail->next = m;
    else
        tl->head = m;
    tl->tail = m;
    tl->queued++;
    return RD_OK;
}

static int self_progress(rd_tl *base)
{
    self_tl *tl = (self_tl *)base;
    /* only what was queued before this call: a handler may send again */
    size_t n = tl->queued < SELF_POLL_MAX ? tl->queued : SELF_POLL_MAX;
    int events = 0;
    while ((size_t)events < n) {
        self_msg *m = tl->head;
        tl->head = m->next;
        if (!tl->head)
            tl->tail = NULL;
        tl->queued--;
        tl->handler(tl->handler_arg, tl->rank, m->id, m->hdr, m->hlen, m->data, m->len);
        m->next = tl->free;
        tl->free = m;
        events++;
    }
    return events;
}

static rd_status self_mem_reg(rd_tl *base, void *addr, size_t len, rd_mr **mr, void *rkey,
                              size_t *rkey_len)
{
    *mr = self_dummy_mr;
    if (rkey_len)
        *rkey_len = 0;
    return RD_OK;
}

static void self_mem_dereg(rd_tl *base, rd_mr *mr)
{
}

static rd_status self_get(rd_ep *ep, rd_rma_op *op)
{
    if (op->len)
        memmove(op->local, (const void *)(uintptr_t)op->remote_addr, op->len);
    op->done(op, RD_OK);
    return RD_OK;
}

static rd_status self_put(rd_ep *ep, rd_rma_op *op)
{
    if (op->len)
        memmove((void *)(uintptr_t)op->remote_addr, op->local, op->len);
    op->done(op, RD_OK);
    return RD_OK;
}

static void self_free_list(self_msg *m)
{
    while (m) {
        self_msg *next = m->next;
        free(m->data);
        free(m);
        m = next;
    }
}

static void self_close(rd_tl *base)
{
    self_tl *tl = (self_tl *)base;
    if (!tl)
        return;
    if (tl->queued)
        rd_debug("self", "closing with %zu undelivered messages", tl->queued);
    self_free_list(tl->head);
    self_free_list(tl->free);
    free(tl);
}

const struct rd_transport rd_transport_self = {
    .size = sizeof(struct rd_transport),
    .name = "self",
    .open = self_open,
    .activate = NULL,
    .reachable = self_reachable,
    .connect = self_connect,
    .am_send = self_am_send,
    .mem_reg = self_mem_reg,
    .mem_dereg = self_mem_dereg,
    .get = self_get,
    .put = self_put,
    .progress = self_progress,
    .close = self_close,
};

static const struct rd_transport *self_ops(void)
{
    return &rd_transport_self;
}

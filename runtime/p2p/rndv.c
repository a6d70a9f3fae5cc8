/* rndv.c - rendezvous, on both sides, and the control messages.
 *
 * The sender's protocol comes from its peer's table (rd_proto_rndv) and
 * travels in the RTS; the receiver runs what the RTS offers, except that a
 * non-contiguous receive asks for fragments (rd_proto_answer); a CTS
 * carries the receiver's address when it runs put or split, none when it
 * asks for fragments. Protocols (wire.h): get, put, split, pipeline, and
 * the transport's own. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/base/job.h"
#include "runtime/base/log.h"
#include "runtime/objects/datatype.h"
#include "runtime/p2p/engine.h"

/* A rendezvous transfer failed: the job cannot go on. The message names
 * what failed (the operation, the peer, the transport: "a rendezvous read
 * (get) of a message from rank 2 over shm failed: peer failed"); the
 * transport has already logged its own call and error. */
_Noreturn static void transfer_failed(struct rd_request_s *req, const char *what, rd_status st)
{
    char msg[256];
    const struct rd_peer *p = &rd_eng.peers[req->wpeer];

    snprintf(msg, sizeof(msg), "%s of a message %s rank %d over %s failed: %s", what,
             req->kind == RD_REQ_RECV ? "from" : "to", req->wpeer,
             p->ep != NULL ? p->ep->tl->ops->name : "?", rd_status_string(st));
    rd_error("p2p", "%s", msg);
    rd_job_abort(MPI_ERR_OTHER, msg);
}

/* The transport's own rendezvous moved the data (either side). */
void rd_eng_tl_rndv_done(rd_rma_op *op, rd_status st)
{
    struct rd_request_s *req = op->arg;
    if (st != RD_OK)
        transfer_failed(req, "the transport's rendezvous", st);
    if (req->kind == RD_REQ_RECV)
        rd_eng_finish_recv(req);
    else
        rd_eng_finish_send(req);
}

/* Describe the RMA of a rendezvous (get on the receiving side, put on
 * the sending side): len bytes between local and the peer's remote
 * address, with the peer's packed key from its RTS or CTS (rkey_len bytes,
 * none on transports without registration) kept in req->rkey, freed when
 * the request finishes. The one place a remote key is copied. */
static rd_status rma_prepare(struct rd_request_s *req, void *local, size_t len, uint64_t remote,
                             const void *rkey, size_t rkey_len)
{
    if (rkey_len) {
        req->rkey = malloc(rkey_len);
        if (!req->rkey)
            return RD_ERR_NOMEM;
        memcpy(req->rkey, rkey, rkey_len);
        req->rkey_len = rkey_len;
    }
    req->rma.local = local;
    req->rma.len = len;
    req->rma.lmr = req->mr;
    req->rma.remote_addr = remote;
    req->rma.rkey = req->rkey;
    req->rma.rkey_len = req->rkey_len;
    return RD_OK;
}

/* ------------------------------------------------------------ sender */

rd_status rd_eng_rndv_start(struct rd_request_s *req, struct rd_peer *p)
{
    struct rd_pend pd_local, *pd = &pd_local;
    memset(&pd_local, 0, sizeof(pd_local));
    struct rd_wire_rts *h = (void *)pd->hdr;
    rd_tl *tl = p->ep->tl;
    int proto = rd_proto_rndv(&p->proto, req->bytes, req->flags, req->dt->contig);
    h->env.ctx = req->comm->ctx;
    h->env.src = req->comm->rank;
    h->env.tag = req->tag;
    h->env.seq = p->send_seq++;
    h->env.len = req->bytes;
    h->sreq = (uint64_t)(uintptr_t)req;
    h->proto = (uint32_t)proto;
    req->proto = (uint8_t)proto;
    pd->req = req;
    pd->id = RD_AM_RTS;
    pd->hlen = sizeof(*h);
    if (proto == RD_RNDV_TRANSPORT) {
        /* the RTS goes by the transport's rndv_send, which keeps the data
         * where it is until the receiver asks for it */
        req->rma.local = (char *)req->buf + req->dt->true_lb;
        req->rma.len = req->bytes;
        req->rma.lmr = NULL;
        req->rma.done = rd_eng_tl_rndv_done;
        req->rma.arg = req;
        pd->kind = PEND_TL_SEND;
        if (!p->pend_head) {
            rd_status st = tl->ops->rndv_send(p->ep, pd->id, pd->hdr, pd->hlen, &req->rma);
            if (st != RD_ERR_AGAIN)
                return st;
        }
        return rd_eng_pend_copy(req->wpeer, pd);
    }
    pd->kind = PEND_MSG;
    req->pending = 2; /* split: own write + the receiver's FIN */
    /* pipeline of non-contiguous data: fragments packed straight from the
     * user's buffer (no address) */
    const void *src = req->dt->contig ? (const char *)req->buf + req->dt->true_lb : NULL;
    h->addr = (uint64_t)(uintptr_t)src;
    if (tl->caps.needs_reg && proto != RD_RNDV_PIPELINE) {
        unsigned char kbuf[256];
        size_t klen = 0;
        rd_status st = tl->ops->mem_reg(tl, (void *)src, req->bytes, &req->mr, kbuf, &klen);
        if (st != RD_OK)
            return st;
        if (klen) {
            pd->own_data = malloc(klen);
            if (!pd->own_data)
                return RD_ERR_NOMEM;
            memcpy(pd->own_data, kbuf, klen);
            pd->data = pd->own_data;
            pd->len = klen;
        }
    }
    if (!p->pend_head) {
        rd_status st = tl->ops->am_send(p->ep, pd->id, pd->hdr, pd->hlen, pd->data, pd->len);
        if (st == RD_OK) {
            free(pd->own_data);
            return RD_OK;
        }
        if (st != RD_ERR_AGAIN)
            return st;
    }
    return rd_eng_pend_copy(req->wpeer, pd);
}

rd_status rd_eng_send_frags(rd_ep *ep, struct rd_request_s *req)
{
    size_t room = ep->tl->caps.am_max - sizeof(struct rd_wire_ctrl);
    if (room > rd_eng.scratch_len)
        room = rd_eng.scratch_len;
    while (req->frag_off < req->xfer) {
        size_t n = req->xfer - req->frag_off;
        if (n > room)
            n = room;
        const void *d;
        if (req->tmp) {
            d = (const char *)req->tmp + req->frag_off;
        } else if (req->dt->contig) {
            d = (const char *)req->buf + req->dt->true_lb + req->frag_off;
        } else {
            rd_dt_pack(req->buf, req->dt, req->frag_off, rd_eng.scratch, n);
            d = rd_eng.scratch;
        }
        struct rd_wire_ctrl c = {.req = req->remote, .addr = req->frag_off};
        rd_status st = ep->tl->ops->am_send(ep, RD_AM_FRAG, &c, sizeof(c), d, n);
        if (st != RD_OK)
            return st;
        req->frag_off += n;
    }
    rd_eng_finish_send(req);
    return RD_OK;
}

/* ------------------------------------------------------------ receiver */

/* Where rendezvous data lands: the user's buffer when contiguous. */
static void *recv_target(struct rd_request_s *req)
{
    if (req->dt->contig)
        return (char *)req->buf + req->dt->true_lb;
    req->tmp = malloc(req->xfer ? req->xfer : 1);
    return req->tmp;
}

/* The transport's own rendezvous: fetch the whole message into the user's
 * buffer (contiguous, big enough) or a packed copy, unpacked when it is
 * there; a receive that takes nothing declines the data. data holds the
 * transport's descriptor. */
static rd_status deliver_tl_rndv(struct rd_request_s *req, const struct rd_message_s *m,
                                 const void *data)
{
    void *desc;
    memcpy(&desc, data, sizeof(desc));
    if (req->xfer == 0) {
        struct rd_pend *pd = calloc(1, sizeof(*pd));
        if (!pd)
            return RD_ERR_NOMEM;
        pd->kind = PEND_TL_DROP;
        pd->data = desc;
        rd_eng_pend_push(m->wsrc, pd);
        rd_eng_finish_recv(req);
        return RD_OK;
    }
    void *target;
    if (req->dt->contig && req->xfer == m->len) {
        target = (char *)req->buf + req->dt->true_lb;
    } else {
        req->tmp = malloc(m->len);
        if (!req->tmp)
            return RD_ERR_NOMEM;
        target = req->tmp;
    }
    req->remote = (uint64_t)(uintptr_t)desc;
    req->rma.local = target;
    req->rma.len = m->len;
    req->rma.lmr = NULL;
    return rd_eng_queue_req(m->wsrc, PEND_TL_RECV, req);
}

rd_status rd_eng_rndv_deliver(struct rd_request_s *req, const struct rd_message_s *m, const void *data,
                              size_t data_len)
{
    struct rd_wire_ctrl c = {.req = m->sreq, .other = (uint64_t)(uintptr_t)req};
    int proto = rd_proto_answer((int)m->proto, req->dt->contig);
    req->remote = m->sreq;
    req->proto = (uint8_t)proto;
    if (proto == RD_RNDV_TRANSPORT)
        return deliver_tl_rndv(req, m, data);
    if (req->xfer == 0) { /* nothing fits: release the sender */
        rd_eng_finish_recv(req);
        c.other = 0;
        return rd_eng_queue_ctrl(m->wsrc, RD_AM_FIN, &c, NULL, 0);
    }
    c.len = req->xfer;
    if (proto == RD_RNDV_PIPELINE) {
        /* the fragments come to the request (CTS without an address), each
         * unpacked in place at its offset */
        req->frag_off = 0;
        return rd_eng_queue_ctrl(m->wsrc, RD_AM_CTS, &c, NULL, 0);
    }
    void *target = recv_target(req);
    if (!target)
        return RD_ERR_NOMEM;
    rd_ep *ep = rd_eng.peers[m->wsrc].ep;
    unsigned char kbuf[256];
    size_t klen = 0;
    if (ep->tl->caps.needs_reg) {
        rd_status st = ep->tl->ops->mem_reg(ep->tl, target, req->xfer, &req->mr, kbuf, &klen);
        if (st != RD_OK)
            return st;
    }
    switch (proto) {
    case RD_RNDV_GET: {
        rd_status st = rma_prepare(req, target, req->xfer, m->addr, data, data_len);
        return st != RD_OK ? st : rd_eng_queue_req(m->wsrc, PEND_GET, req);
    }
    case RD_RNDV_PUT: /* our address (and key) in the CTS */
        c.addr = (uint64_t)(uintptr_t)target;
        return rd_eng_queue_ctrl(m->wsrc, RD_AM_CTS, &c, kbuf, klen);
    case RD_RNDV_SPLIT: {
        /* tell the sender where to write its part first, then read ours */
        uint64_t h = rd_rndv_split_point(req->xfer);
        c.addr = (uint64_t)(uintptr_t)target;
        rd_status st = rd_eng_queue_ctrl(m->wsrc, RD_AM_CTS, &c, NULL, 0);
        if (st != RD_OK)
            return st;
        st = rma_prepare(req, target, h, m->addr, data, data_len);
        if (st != RD_OK)
            return st;
        req->pending = 2; /* our read + the sender's FIN */
        return rd_eng_queue_req(m->wsrc, PEND_GET, req);
    }
    default:
        return RD_ERR_INTERNAL;
    }
}

/* ------------------------------------------------------------ control messages */

/* One of the two events a split transfer waits for, on either side. */
static void split_event(struct rd_request_s *req)
{
    if (--req->pending == 0) {
        if (req->kind == RD_REQ_SEND)
            rd_eng_finish_send(req);
        else
            rd_eng_finish_recv(req);
    }
}

/* Our part of a rendezvous moved (a get on the receiving side, a put on
 * the sending side): tell the peer with FIN, then complete (or, split,
 * count the event). */
void rd_eng_rma_done(rd_rma_op *op, rd_status st)
{
    struct rd_request_s *req = op->arg;
    struct rd_wire_ctrl c = {.req = req->remote};
    if (st != RD_OK)
        transfer_failed(req, req->kind == RD_REQ_RECV ? "a rendezvous read (get)" : "a rendezvous write (put)", st);
    if (rd_eng_queue_ctrl(req->wpeer, RD_AM_FIN, &c, NULL, 0) != RD_OK)
        rd_job_abort(MPI_ERR_NO_MEM, "out of memory");
    if (req->proto == RD_RNDV_SPLIT)
        split_event(req);
    else if (req->kind == RD_REQ_RECV)
        rd_eng_finish_recv(req);
    else
        rd_eng_finish_send(req);
}

void rd_eng_control(int wsrc, unsigned id, const struct rd_wire_ctrl *c, const void *data, size_t len)
{
    struct rd_request_s *req = (struct rd_request_s *)(uintptr_t)c->req;
    rd_status st = RD_OK;
    switch (id) {
    case RD_AM_ACK: /* a synchronous eager send was matched */
        rd_eng_finish_send(req);
        break;
    case RD_AM_FIN:
        if (req->proto == RD_RNDV_SPLIT && req->xfer > 0)
            split_event(req);
        else if (req->kind == RD_REQ_SEND)
            rd_eng_finish_send(req); /* get: the receiver has read our data */
        else
            rd_eng_finish_recv(req); /* put or empty: the data is in place */
        break;
    case RD_AM_CTS:
        req->remote = c->other;
        req->xfer = (size_t)c->len;
        /* the receiver runs what we offered (put or split: its address)
         * or asks for fragments (no address) */
        if (!c->addr)
            req->proto = RD_RNDV_PIPELINE;
        if (req->proto == RD_RNDV_PUT || req->proto == RD_RNDV_SPLIT) {
            /* split: we write the part after the split point */
            uint64_t h = req->proto == RD_RNDV_SPLIT ? rd_rndv_split_point(req->xfer) : 0;
            st = rma_prepare(req, (req->tmp ? (char *)req->tmp : (char *)req->buf + req->dt->true_lb) + h,
                             req->xfer - h, c->addr + h, data, len);
            if (st == RD_OK)
                st = rd_eng_queue_req(wsrc, PEND_PUT, req);
        } else {
            req->proto = RD_RNDV_PIPELINE;
            req->frag_off = 0;
            st = rd_eng_queue_req(wsrc, PEND_FRAGS, req);
        }
        break;
    case RD_AM_FRAG: {
        size_t off = (size_t)c->addr;
        if (off < req->xfer) {
            size_t n = len < req->xfer - off ? len : req->xfer - off;
            rd_dt_unpack(req->buf, req->dt, off, data, n);
        }
        req->frag_off += len;
        if (req->frag_off >= req->xfer)
            rd_eng_finish_recv(req);
        break;
    }
    default:
        rd_error("p2p", "unknown message id %u from rank %d", id, wsrc);
        st = RD_ERR_INTERNAL;
    }
    if (st != RD_OK)
        rd_job_abort(rd_status_to_mpi(st), "point-to-point engine failure");
}

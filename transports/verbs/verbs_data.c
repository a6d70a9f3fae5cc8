/*
 * verbs_data.c - the verbs data path: eager active messages, RDMA read and
 * write, atomics, completions and errors.
 *
 * Eager: every QP shares one receive queue (SRQ) of registered buffers of
 * buf_size bytes; each peer that gets a QP adds `credits` buffers to it. A
 * sender may have at most `credits` messages that the receiver has not
 * taken off its SRQ yet, so the SRQ never runs dry and the receiver is
 * never overrun (no RNR). The receiver tells the sender how many it has
 * handled: in every message it sends back (the count rides in our 16-byte
 * header), and, when it has nothing to send, by an RDMA write of the count
 * into a word the sender owns (credit words: no receive buffer is consumed
 * by a credit return, so returning credits can never itself run out of
 * credits). Messages up to the QP's inline size go inline from the caller's
 * buffers; larger ones are copied into a registered send buffer.
 *
 * Signalling: one send in sig_every asks for a completion, and so do every
 * RDMA operation's last piece and every RDMA read; a completion also
 * completes the unsignalled sends and writes posted before it, but not an
 * earlier read (iWARP completes a read when its response has been placed,
 * after the sends behind it). A slot, and its send buffer, goes back once
 * it and every slot before it are done. Completion queues are polled in
 * batches; receive buffers are reposted in one chain per batch. Nothing on
 * the eager path allocates or takes a lock.
 *
 * RDMA read/write of a rendezvous: pieces of at most the port's max_msg_sz,
 * posted as send-queue room allows (the rest waits on the endpoint and is
 * posted from progress); done() runs on the last piece's completion.
 *
 * Errors (a failed completion, an asynchronous QP or device event, an
 * rdma_cm failure) are reported with the peer's rank and the verbs status
 * text, and end the job through the launcher (rd_job_abort).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "runtime/base/job.h"
#include "runtime/base/log.h"
#include "runtime/base/params.h"
#include "runtime/base/report.h"
#include "transports/verbs/verbs.h"

#define VB_POLL_BATCH 16
#define VB_RECV_BATCH 32
#define VB_SBUF_CHUNK 32
#define VB_SLOW_EVERY 256 /* progress calls between looks at async and rdma_cm events */
#define VB_SEND_POLL_EVERY 16 /* progress calls between polls of the send CQ with no RDMA out */

struct vb_rkey {
    uint32_t rkey;
};

static inline vb_rreg *reg_of(rd_mr *m)
{
    return (vb_rreg *)(void *)m;
}

static inline uint32_t lkey_of(rd_mr *m)
{
    return ((struct ibv_mr *)reg_of(m)->handle)->lkey;
}

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

/* ------------------------------------------------------------ buffers */

static void *chunk_alloc(size_t bytes)
{
    void *p = NULL;
    if (posix_memalign(&p, 4096, bytes ? bytes : 1) != 0)
        return NULL;
    return p;
}

/* One block of n registered buffers; descs gets n descriptors of dsize. */
static vb_chunk *chunk_new(vb_tl *tl, uint32_t n, size_t dsize)
{
    vb_chunk *c = calloc(1, sizeof(*c));
    if (!c)
        return NULL;
    c->mem = chunk_alloc((size_t)n * tl->buf_size);
    c->descs = calloc(n, dsize);
    if (c->mem && c->descs)
        c->mr = ibv_reg_mr(tl->pd, c->mem, (size_t)n * tl->buf_size, IBV_ACCESS_LOCAL_WRITE);
    if (!c->mr) {
        rd_error("verbs", "registering %u eager buffers of %zu bytes: %s%s", n, tl->buf_size,
                 strerror(errno), errno == ENOMEM ? " (ulimit -l too low?)" : "");
        free(c->mem);
        free(c->descs);
        free(c);
        return NULL;
    }
    return c;
}

static void chunks_free(vb_chunk *c)
{
    while (c) {
        vb_chunk *n = c->next;
        ibv_dereg_mr(c->mr);
        free(c->mem);
        free(c->descs);
        free(c);
        c = n;
    }
}

rd_status vb_srq_grow(vb_tl *tl)
{
    uint32_t n = tl->credits;
    if (tl->srq_posted + n > tl->srq_max) {
        rd_error("verbs", "the shared receive queue is full (%u buffers): %u more for a new peer do not fit "
                 "(device limit %d; lower RDMPI_VERBS_CREDITS)", tl->srq_posted, n, tl->dev.attr.max_srq_wr);
        return RD_ERR_NOMEM;
    }
    vb_chunk *c = chunk_new(tl, n, sizeof(struct vb_rbuf));
    if (!c)
        return RD_ERR_NOMEM;
    struct vb_rbuf *d = c->descs;
    for (uint32_t i = 0; i < n; i++) {
        d[i].buf = c->mem + (size_t)i * tl->buf_size;
        d[i].lkey = c->mr->lkey;
    }
    uint32_t done = 0;
    while (done < n) {
        uint32_t k = n - done < VB_RECV_BATCH ? n - done : VB_RECV_BATCH;
        for (uint32_t i = 0; i < k; i++) {
            struct vb_rbuf *b = &d[done + i];
            tl->rsge[i] = (struct ibv_sge){.addr = (uintptr_t)b->buf, .length = (uint32_t)tl->buf_size,
                                           .lkey = b->lkey};
            tl->rwr[i] = (struct ibv_recv_wr){.wr_id = (uintptr_t)b, .sg_list = &tl->rsge[i], .num_sge = 1,
                                              .next = i + 1 < k ? &tl->rwr[i + 1] : NULL};
        }
        struct ibv_recv_wr *bad;
        if (ibv_post_srq_recv(tl->srq, tl->rwr, &bad) != 0) {
            rd_error("verbs", "ibv_post_srq_recv: %s", strerror(errno));
            c->next = tl->rchunks;
            tl->rchunks = c;
            return RD_ERR_IO;
        }
        done += k;
    }
    c->next = tl->rchunks;
    tl->rchunks = c;
    tl->srq_posted += n;
    tl->sbuf_max += n; /* send buffers: at most the credits we can hold */
    return RD_OK;
}

static struct vb_sbuf *sbuf_get(vb_tl *tl)
{
    if (!tl->sfree && tl->nsbuf < tl->sbuf_max) {
        vb_chunk *c = chunk_new(tl, VB_SBUF_CHUNK, sizeof(struct vb_sbuf));
        if (!c)
            return NULL;
        struct vb_sbuf *d = c->descs;
        for (int i = VB_SBUF_CHUNK - 1; i >= 0; i--) {
            d[i].buf = c->mem + (size_t)i * tl->buf_size;
            d[i].lkey = c->mr->lkey;
            d[i].next = tl->sfree;
            tl->sfree = &d[i];
        }
        c->next = tl->schunks;
        tl->schunks = c;
        tl->nsbuf += VB_SBUF_CHUNK;
    }
    struct vb_sbuf *s = tl->sfree;
    if (s)
        tl->sfree = s->next;
    return s;
}

/* ------------------------------------------------------------ posting */

static inline int sq_room(const vb_tl *tl, const vb_ep *ep)
{
    return ep->sq_head - ep->sq_tail < tl->sq_depth && tl->scq_out < tl->scq_size;
}

/* What a send queue entry was, for messages: "<what> rank N failed". */
static const char *sqe_what(const struct vb_sqe *e)
{
    switch (e->op) {
    case VB_OP_READ: return "RDMA read from";
    case VB_OP_WRITE: return "RDMA write to";
    case VB_OP_CREDIT: return "credit return (RDMA write) to";
    case VB_OP_ATOMIC: return "atomic operation on";
    default: return "send to";
    }
}

/* Post one work request on ep's send queue (room checked by the caller). */
static inline void post(vb_tl *tl, vb_ep *ep, int op, struct ibv_send_wr *wr, struct vb_sbuf *sb,
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
    int rc = ibv_post_send(ep->qp, wr, &bad);
    if (rc != 0) {
        /* an errno value; some providers (siw, its device being removed)
         * return -1 and set errno, or a negated errno */
        int err = rc > 0 ? rc : rc == -1 ? errno : -rc;
        vb_fatal(tl, ep->base.peer, "%s rank %d failed: ibv_post_send: %s", sqe_what(e), ep->base.peer,
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

static int poll_send(vb_tl *tl);

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
    if (!sq_room(tl, ep)) {
        poll_send(tl);
        if (!sq_room(tl, ep))
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
        sb = sbuf_get(tl);
        if (!sb) {
            poll_send(tl);
            if (!(sb = sbuf_get(tl)))
                return RD_ERR_AGAIN;
        }
        memcpy(sb->buf, &h, sizeof(h));
        memcpy(sb->buf + sizeof(h), hdr, hlen);
        if (len)
            memcpy(sb->buf + sizeof(h) + hlen, data, len);
        sge[0] = (struct ibv_sge){.addr = (uintptr_t)sb->buf, .length = (uint32_t)total, .lkey = sb->lkey};
        wr.num_sge = 1;
    }
    post(tl, ep, VB_OP_SEND, &wr, sb, NULL, NULL, 0);
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

static int hello_retry(vb_tl *tl)
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

/* Tell the peer how many of its messages we have handled (RDMA write of
 * the count into its credit word for us). force: ask for a completion. */
static int credit_write(vb_tl *tl, vb_ep *ep, int force)
{
    if (ep->state != VB_EP_READY || !sq_room(tl, ep))
        return 0;
    uint32_t *src = &tl->cw[tl->size + ep->base.peer];
    *src = ep->consumed;
    struct ibv_sge sge = {.addr = (uintptr_t)src, .length = 4, .lkey = tl->cw_mr->lkey};
    struct ibv_send_wr wr = {.sg_list = &sge, .num_sge = 1, .opcode = IBV_WR_RDMA_WRITE,
                             .send_flags = tl->max_inline >= 4 ? IBV_SEND_INLINE : 0};
    wr.wr.rdma.remote_addr = ep->remote_cw;
    wr.wr.rdma.rkey = ep->remote_cw_rkey;
    post(tl, ep, VB_OP_CREDIT, &wr, NULL, NULL, NULL, force);
    ep->consumed_reported = ep->consumed;
    return 1;
}

/* ------------------------------------------------------------ RDMA */

static int rma_post(vb_tl *tl, vb_ep *ep, struct vb_rma *x)
{
    rd_rma_op *op = x->op;
    struct vb_rkey k;
    memcpy(&k, op->rkey, sizeof(k));
    while (x->off < op->len) {
        if (!sq_room(tl, ep))
            return 0;
        size_t n = op->len - x->off;
        if (n > tl->max_msg)
            n = tl->max_msg;
        int last = x->off + n == op->len;
        struct ibv_sge sge = {.addr = (uintptr_t)op->local + x->off, .length = (uint32_t)n,
                              .lkey = lkey_of(op->lmr)};
        struct ibv_send_wr wr = {.sg_list = &sge, .num_sge = 1,
                                 .opcode = x->is_put ? IBV_WR_RDMA_WRITE : IBV_WR_RDMA_READ};
        wr.wr.rdma.remote_addr = op->remote_addr + x->off;
        wr.wr.rdma.rkey = k.rkey ^ x->rkey_xor;
        /* every read asks for its completion (see poll_send) */
        post(tl, ep, x->is_put ? VB_OP_WRITE : VB_OP_READ, &wr, NULL, last ? x : NULL, NULL, last || !x->is_put);
        x->off += n;
    }
    return 1;
}

static void rma_wait(vb_tl *tl, vb_ep *ep, struct vb_rma *x)
{
    x->next = NULL;
    if (ep->rma_tail)
        ep->rma_tail->next = x;
    else
        ep->rma_head = x;
    ep->rma_tail = x;
    if (!ep->rma_listed) {
        ep->rma_listed = 1;
        tl->rma_wait[tl->nrma_wait++] = ep;
    }
}

/* RDMPI_VERBS_FAULT (tests): break this rank's first RDMA operation. */
static void inject_fault(vb_tl *tl, vb_ep *ep, uint32_t *rkey_xor)
{
    int f = tl->fault;
    tl->fault = VB_FAULT_NONE;
    rd_warn("verbs", "RDMPI_VERBS_FAULT: %s on the QP to rank %d",
            f == VB_FAULT_QP_ERROR ? "error state" : f == VB_FAULT_BAD_RKEY ? "a wrong remote key" : "a lost peer",
            ep->base.peer);
    if (f == VB_FAULT_QP_ERROR) {
        struct ibv_qp_attr qa = {.qp_state = IBV_QPS_ERR};
        ibv_modify_qp(ep->qp, &qa, IBV_QP_STATE);
    } else if (f == VB_FAULT_BAD_RKEY) {
        *rkey_xor = 0x00a5a500;
    } else if (tl->dev.iwarp) {
        rdma_disconnect(ep->cm_id); /* iWARP: the connection goes */
    } else if (tl->lose_qp(tl, ep) != RD_OK) {
        vb_fatal(tl, ep->base.peer, "RDMPI_VERBS_FAULT=lost_peer: no QP to lose rank %d with", ep->base.peer);
    }
}

static rd_status rma(rd_ep *base, rd_rma_op *op, int is_put)
{
    vb_ep *ep = (vb_ep *)base;
    vb_tl *tl = (vb_tl *)base->tl;
    if (op->rkey_len != sizeof(struct vb_rkey) || !op->lmr)
        return RD_ERR_INTERNAL;
    if (ep->state != VB_EP_READY)
        return ep->state == VB_EP_FAILED ? RD_ERR_PEER : RD_ERR_AGAIN;
    uint32_t rkey_xor = 0;
    if (tl->fault)
        inject_fault(tl, ep, &rkey_xor);
    if (op->len == 0) {
        op->done(op, RD_OK);
        return RD_OK;
    }
    struct vb_rma *x = tl->rma_free;
    if (x)
        tl->rma_free = x->next;
    else if (!(x = malloc(sizeof(*x))))
        return RD_ERR_NOMEM;
    x->op = op;
    x->off = 0;
    x->is_put = is_put;
    x->rkey_xor = rkey_xor;
    tl->inflight++;
    if (ep->rma_head || !rma_post(tl, ep, x))
        rma_wait(tl, ep, x);
    return RD_OK;
}

rd_status vb_get(rd_ep *ep, rd_rma_op *op)
{
    return rma(ep, op, 0);
}

rd_status vb_put(rd_ep *ep, rd_rma_op *op)
{
    return rma(ep, op, 1);
}

rd_status vb_atomic(rd_ep *base, rd_atomic_op *op)
{
    vb_ep *ep = (vb_ep *)base;
    vb_tl *tl = (vb_tl *)base->tl;
    if (!tl->base.caps.atomics)
        return RD_ERR_UNSUPPORTED;
    if (op->rkey_len != sizeof(struct vb_rkey) || !op->lmr || (op->remote_addr & 7) ||
        (op->kind != RD_ATOMIC_FADD && op->kind != RD_ATOMIC_CSWAP))
        return RD_ERR_ARG;
    if (ep->state != VB_EP_READY)
        return ep->state == VB_EP_FAILED ? RD_ERR_PEER : RD_ERR_AGAIN;
    if (!sq_room(tl, ep) || ep->rma_head) {
        poll_send(tl);
        if (!sq_room(tl, ep) || ep->rma_head)
            return RD_ERR_AGAIN;
    }
    struct vb_atomic *a = tl->atom_free;
    if (a)
        tl->atom_free = a->next;
    else if (!(a = malloc(sizeof(*a))))
        return RD_ERR_NOMEM;
    a->op = op;
    struct vb_rkey k;
    memcpy(&k, op->rkey, sizeof(k));
    struct ibv_sge sge = {.addr = (uintptr_t)op->result, .length = 8, .lkey = lkey_of(op->lmr)};
    struct ibv_send_wr wr = {.sg_list = &sge, .num_sge = 1,
                             .opcode = op->kind == RD_ATOMIC_FADD ? IBV_WR_ATOMIC_FETCH_AND_ADD
                                                                  : IBV_WR_ATOMIC_CMP_AND_SWP};
    wr.wr.atomic.remote_addr = op->remote_addr;
    wr.wr.atomic.rkey = k.rkey;
    wr.wr.atomic.compare_add = op->kind == RD_ATOMIC_FADD ? op->operand : op->compare;
    wr.wr.atomic.swap = op->operand;
    tl->inflight++;
    post(tl, ep, VB_OP_ATOMIC, &wr, NULL, NULL, a, 1);
    return RD_OK;
}

/* ------------------------------------------------------------ registration */

static void *reg_cb(void *arg, void *addr, size_t len)
{
    vb_tl *tl = arg;
    int acc = IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_READ | IBV_ACCESS_REMOTE_WRITE |
              (tl->base.caps.atomics ? IBV_ACCESS_REMOTE_ATOMIC : 0);
    struct ibv_mr *m = ibv_reg_mr(tl->pd, addr, len, acc);
    if (!m && (errno == EFAULT || errno == EACCES || errno == EPERM))
        m = ibv_reg_mr(tl->pd, addr, len, IBV_ACCESS_REMOTE_READ); /* read-only memory: send side only */
    return m;
}

static void dereg_cb(void *arg, void *handle)
{
    (void)arg;
    int rc = ibv_dereg_mr(handle);
    if (rc)
        rd_warn("verbs", "ibv_dereg_mr: %s", strerror(rc));
}

rd_status vb_mem_reg(rd_tl *base, void *addr, size_t len, rd_mr **out, void *rkey, size_t *rkey_len)
{
    vb_tl *tl = (vb_tl *)base;
    static char one;
    vb_rreg *r;
    rd_status st = vb_rcache_get(tl->rcache, len ? addr : &one, len ? len : 1, &r);
    if (st != RD_OK) {
        rd_error("verbs", "ibv_reg_mr of %zu bytes at %p: %s%s", len, addr, strerror(errno),
                 errno == ENOMEM ? " (locked-memory limit, ulimit -l?)" : "");
        return st;
    }
    if (rkey) {
        struct vb_rkey k = {((struct ibv_mr *)r->handle)->rkey};
        memcpy(rkey, &k, sizeof(k));
        *rkey_len = sizeof(k);
    }
    *out = (rd_mr *)(void *)r;
    return RD_OK;
}

void vb_mem_dereg(rd_tl *base, rd_mr *mr)
{
    vb_tl *tl = (vb_tl *)base;
    vb_rcache_put(tl->rcache, reg_of(mr));
}

/* ------------------------------------------------------------ completions */

static int poll_send(vb_tl *tl)
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
                rd_error("verbs", "%s rank %d failed: %s (vendor error 0x%x, QP %u)", sqe_what(e), peer,
                         ibv_wc_status_str(wc[i].status), wc[i].vendor_err, wc[i].qp_num);
                ep->state = VB_EP_FAILED;
                if (e->rma) { /* the engine says which transfer and ends the job */
                    tl->inflight--;
                    e->rma->op->done(e->rma->op, RD_ERR_PEER);
                }
                vb_fatal(tl, peer, "%s rank %d failed: %s", sqe_what(e), peer, ibv_wc_status_str(wc[i].status));
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

static int poll_recv(vb_tl *tl)
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

/* Credits owed: return them by RDMA write where no message carried them. */
static int return_credits(vb_tl *tl)
{
    uint32_t thresh = tl->credits / 4 ? tl->credits / 4 : 1;
    int keep = 0, n = 0;
    for (int i = 0; i < tl->nowe; i++) {
        vb_ep *ep = tl->owe[i];
        if ((uint32_t)(ep->consumed - ep->consumed_reported) < thresh) {
            ep->owes = 0; /* a message back carried them */
            continue;
        }
        if (credit_write(tl, ep, 0)) {
            ep->owes = 0;
            n++;
        } else {
            tl->owe[keep++] = ep;
        }
    }
    tl->nowe = keep;
    return n;
}

static int rma_retry(vb_tl *tl)
{
    int keep = 0, n = 0;
    for (int i = 0; i < tl->nrma_wait; i++) {
        vb_ep *ep = tl->rma_wait[i];
        while (ep->rma_head && rma_post(tl, ep, ep->rma_head)) {
            ep->rma_head = ep->rma_head->next;
            n++;
        }
        if (ep->rma_head) {
            tl->rma_wait[keep++] = ep;
        } else {
            ep->rma_tail = NULL;
            ep->rma_listed = 0;
        }
    }
    tl->nrma_wait = keep;
    return n;
}

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
    int n = poll_recv(tl);
    /* Sends' completions only give back slots and buffers (the send
     * paths poll themselves when short of them), so the send queue is
     * polled every VB_SEND_POLL_EVERY calls, except while RDMA operations
     * wait for theirs; also while only unsignalled work is out: a failed
     * one completes (with its error) all the same. (Each poll takes the
     * CQ's lock: on rxe, polling both CQs on every call cost a visible
     * share of the small-message latency.) */
    if (tl->sq_out && (tl->inflight || ++tl->sq_tick >= VB_SEND_POLL_EVERY)) {
        tl->sq_tick = 0;
        n += poll_send(tl);
    }
    if (tl->nrma_wait)
        n += rma_retry(tl);
    if (tl->nowe)
        n += return_credits(tl);
    if (tl->nhello)
        n += hello_retry(tl);
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
            credit_write(tl, ep, 1);
    }
    return busy;
}

/* ------------------------------------------------------------ report */

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
    tl->cw = chunk_alloc((size_t)tl->size * 8);
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
    rd_status st = vb_rcache_create((size_t)rd_param.verbs_rcache_max, 1, reg_cb, dereg_cb, tl, &tl->rcache, &mode);
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
    chunks_free(tl->rchunks);
    chunks_free(tl->schunks);
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

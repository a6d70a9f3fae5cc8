/*
 * verbs_rma.c - RDMA read and write, atomics, and the memory registration
 * they use.
 *
 * RDMA read/write of a rendezvous: pieces of at most the port's
 * max_msg_sz, posted as send-queue room allows (the rest waits on the
 * endpoint and is posted from progress, vb_rma_retry); done() runs on the
 * last piece's completion (verbs_sq.c). A write of at most the inline
 * size (RDMPI_VERBS_INLINE) goes inline, its data copied into the
 * request at posting, as perftest's latency tests do. Registrations go through the
 * registration cache (verbs_rcache.c); a registration is the rd_mr the
 * engine holds, and its rkey the 4 bytes of struct vb_rkey.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/base/log.h"
#include "transports/verbs/verbs_data.h"

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

static int rma_post(vb_tl *tl, vb_ep *ep, struct vb_rma *x)
{
    rd_rma_op *op = x->op;
    struct vb_rkey k;
    memcpy(&k, op->rkey, sizeof(k));
    while (x->off < op->len) {
        if (!vb_sq_room(tl, ep))
            return 0;
        size_t n = op->len - x->off;
        if (n > tl->max_msg)
            n = tl->max_msg;
        int last = x->off + n == op->len;
        struct ibv_sge sge = {.addr = (uintptr_t)op->local + x->off, .length = (uint32_t)n,
                              .lkey = lkey_of(op->lmr)};
        struct ibv_send_wr wr = {.sg_list = &sge, .num_sge = 1,
                                 .opcode = x->is_put ? IBV_WR_RDMA_WRITE : IBV_WR_RDMA_READ};
        if (x->is_put && n <= tl->max_inline)
            wr.send_flags = IBV_SEND_INLINE; /* (a small write's data go in the request: no fetch by the device) */
        wr.wr.rdma.remote_addr = op->remote_addr + x->off;
        wr.wr.rdma.rkey = k.rkey ^ x->rkey_xor;
        /* every read asks for its completion (see vb_poll_send) */
        vb_post(tl, ep, x->is_put ? VB_OP_WRITE : VB_OP_READ, &wr, NULL, last ? x : NULL, NULL, last || !x->is_put);
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
    if (!vb_sq_room(tl, ep) || ep->rma_head) {
        vb_poll_send(tl);
        if (!vb_sq_room(tl, ep) || ep->rma_head)
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
    vb_post(tl, ep, VB_OP_ATOMIC, &wr, NULL, NULL, a, 1);
    return RD_OK;
}

int vb_rma_retry(vb_tl *tl)
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

/* ------------------------------------------------------------ registration */

void *vb_reg_cb(void *arg, void *addr, size_t len)
{
    vb_tl *tl = arg;
    int acc = IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_READ | IBV_ACCESS_REMOTE_WRITE |
              (tl->base.caps.atomics ? IBV_ACCESS_REMOTE_ATOMIC : 0);
    struct ibv_mr *m = ibv_reg_mr(tl->pd, addr, len, acc);
    if (!m && (errno == EFAULT || errno == EACCES || errno == EPERM))
        m = ibv_reg_mr(tl->pd, addr, len, IBV_ACCESS_REMOTE_READ); /* read-only memory: send side only */
    return m;
}

void vb_dereg_cb(void *arg, void *handle)
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

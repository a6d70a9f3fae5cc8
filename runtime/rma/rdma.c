/* rdma.c - the network's direct paths: windows mapped onto the network
 * transport's RDMA write, read and atomics (the RDMA and HW_ATOMIC
 * entries of the path table), through the engine's service
 * runtime/p2p/net.h.
 *
 * At creation (create and allocate windows) each rank registers its
 * window memory on the network transport and, where the window may go by
 * the device's atomics, a small control block whose first word is its
 * passive-target lock word; the creation exchange carries the addresses
 * and packed keys (struct rd_rma_info). Put and Get of each contiguous
 * run of the target layout are one transport put/get between a
 * registered bounce buffer (the origin's data copied in: Put is complete
 * at the origin in the call, as on the AM path) and the target's window:
 * for runs of up to POOL_BYTES a slot of the window's pool, registered
 * once on first use, for longer ones (or with every slot in flight) a
 * buffer registered for the transfer (the registration cache's hit);
 * every one counts in the target's `pending` until its done() has run,
 * which on every transport means "in place at the target" for a put
 * (transport.h), so flush, unlock, complete and fence wait for the same
 * count as on the AM path.
 *
 * The device's atomics (HW_ATOMIC) are not atomic with the CPU's (rxe:
 * the kernel applies them under its own lock; IBV_ATOMIC_HCA devices in
 * general), so a window uses them only where no CPU ever applies an
 * accumulate that they must be atomic with: every rank of the window
 * reaches every rank, itself included (a loopback endpoint), by RDMA on a
 * transport with atomics (each says so in hw_ok; the window goes by the
 * device only if all do). Then every accumulate-type operation whose
 * element is 8 bytes wide (and 8-byte aligned at the target) goes by the
 * device, from every origin, with any predefined op: MPI_SUM on integers
 * as fetch-and-add, MPI_NO_OP as fetch-and-add of 0, Compare_and_swap as
 * compare-and-swap, every other op (MPI_REPLACE, MAX, sums of doubles,
 * ...) as a compare-and-swap loop; accumulates on other element types go
 * by active messages. Which way an element goes depends only on its type
 * and its target address, the same on every origin, and the standard
 * promises atomicity only among accumulates with the same predefined
 * type: so every set of accesses that must be atomic with each other
 * takes one path. The passive-target locks of such a window are atomics
 * on the target's lock word (fetch-and-add for shared, compare-and-swap
 * for exclusive, back-off with progress): lock, Put, Get and unlock need
 * no target CPU. Device atomics are waited for in the call (one round
 * trip each), so their results are in place when it returns. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/base/job.h"
#include "runtime/base/log.h"
#include "runtime/base/params.h"
#include "runtime/objects/comm.h"
#include "runtime/objects/datatype.h"
#include "runtime/objects/op.h"
#include "runtime/p2p/net.h"
#include "runtime/p2p/request.h"
#include "runtime/rma/rma_int.h"

/* A target reached by RDMA (or, on a HW window, the rank itself by its
 * loopback endpoint). */
struct rma_net_peer {
    rd_ep *ep;
    uint64_t base;  /* its window memory's address */
    uint64_t ctl;   /* its lock word's address */
    size_t rkey_len, ctl_rkey_len;
    unsigned char rkey[RD_RMA_RKEY_MAX], ctl_rkey[RD_RMA_RKEY_MAX];
};

struct xfer;

struct rma_net {
    rd_mr *mr;      /* the window memory (NULL: none, size 0) */
    int mr_chunk;   /* mr is MPI_Alloc_mem's chunk's (mem.c keeps it) */
    /* small Puts' and Gets' bounce buffers, registered once (on first
     * use): POOL_SLOTS of them, bit i of pool_free set while slot i is free */
    char *pool;
    rd_mr *pool_mr;
    uint64_t pool_free;
    int pool_failed;
    rd_mr *ctl_mr;  /* the control block */
    uint64_t *ctl;  /* [0] the lock word others reach; [1..63] where my device atomics land */
    uint64_t slots; /* bit i: ctl[i] is taken by an atomic in flight (waits let other threads in) */
    int hw;         /* -1: not decided yet; 1: accumulates on 8-byte elements and locks by the device */
    struct rma_net_peer *peers; /* by rank */
};

/* The bounce pool: 64 transfers of at most POOL_BYTES each */
#define POOL_SLOTS 64
#define POOL_BYTES 256

/* The lock word: the writer bit, or the number of readers. */
#define HW_WRITER (1ull << 40)
/* The control block: the lock word, then 63 result words */
#define HW_CTL 512

static int node_peer(struct rd_rma_win *rw, int t)
{
    int me = rd_job_node_of(rd_comm_world_rank(rw->win->comm, rw->rank));
    int it = rd_job_node_of(rd_comm_world_rank(rw->win->comm, t));
    return me >= 0 && it == me;
}

/* The endpoint by which this rank reaches target t by RDMA, or NULL:
 * auto, the network transport when the engine carries t by it and t is
 * not on this node (node peers keep their node paths); RDMPI_RMA_PATH=rdma,
 * whenever the network transport reaches t. The rank itself: its
 * loopback endpoint (used only on HW windows, for accumulates and locks). */
static rd_ep *reach(struct rd_rma_win *rw, int t)
{
    int w = rd_comm_world_rank(rw->win->comm, t);
    if (t == rw->rank || rd_param.rma_path == RD_RMA_PATH_RDMA)
        return rd_net_ep(w, 1);
    return node_peer(rw, t) ? NULL : rd_net_ep(w, 0);
}

int rma_net_open(struct rd_rma_win *rw, struct rd_rma_info *mine, char *why)
{
    (void)why;
    mine->net = 0;
    mine->hw_ok = 0;
    if (rd_param.rma_path == RD_RMA_PATH_AM)
        return MPI_SUCCESS;
    /* dynamic windows stay on active messages: only the target knows what
     * is attached (a key per region, learned lazily, is for later);
     * shared windows are one node's memory */
    if (rw->flavor != MPI_WIN_FLAVOR_CREATE && rw->flavor != MPI_WIN_FLAVOR_ALLOCATE)
        return MPI_SUCCESS;
    rd_tl *tl = rd_net_tl();
    if (!tl || tl->caps.rkey_max > RD_RMA_RKEY_MAX)
        return MPI_SUCCESS;
    int any = 0, hw = rd_param.rma_hw_atomics == RD_RMA_HW_ATOMICS_AUTO && tl->caps.atomics;
    /* (the rank itself last, and only while device atomics are still
     * possible: its loopback endpoint is made on first use) */
    for (int i = 1; i <= rw->size; i++) {
        int t = (rw->rank + i) % rw->size;
        rd_ep *ep = t == rw->rank && !hw ? NULL : reach(rw, t);
        if (hw && (!ep || !ep->tl->caps.atomics)) {
            rd_debug("rma", "window %u: rank %d is not reached by RDMA with atomics: no device atomics here",
                     rw->id, t);
            hw = 0;
        }
        if (ep && t != rw->rank)
            any = 1;
    }
    if (!any)
        return MPI_SUCCESS; /* nobody comes here by RDMA (the others decide alike) */
    struct rma_net *n = calloc(1, sizeof(*n));
    struct rma_net_peer *np = calloc((size_t)rw->size, sizeof(*np));
    if (!n || !np) {
        free(n);
        free(np);
        return MPI_SUCCESS; /* (active messages, then) */
    }
    n->peers = np;
    n->hw = -1;
    size_t klen = 0;
    /* MPI_Alloc_mem's memory is registered already, its chunk whole (mem.c) */
    if (rw->win->size > 0 && rma_mem_net(rw->win->base, (size_t)rw->win->size, &n->mr, mine->rkey, &klen)) {
        n->mr_chunk = 1;
        rd_debug("rma", "window %u: its memory is MPI_Alloc_mem's, registered with its chunk", rw->id);
    } else if (rw->win->size > 0 &&
               rd_net_mem_reg(rw->win->base, (size_t)rw->win->size, &n->mr, mine->rkey, &klen) != RD_OK) {
        rd_debug("rma", "window %u: cannot register its %lld bytes on %s: active messages", rw->id,
                 (long long)rw->win->size, tl->ops->name);
        free(np);
        free(n);
        return MPI_SUCCESS;
    }
    mine->rkey_len = (uint16_t)klen;
    if (hw) {
        void *c = NULL;
        klen = 0;
        if (posix_memalign(&c, 64, HW_CTL) == 0) {
            memset(c, 0, HW_CTL);
            if (rd_net_mem_reg(c, HW_CTL, &n->ctl_mr, mine->ctl_rkey, &klen) == RD_OK) {
                n->ctl = c;
                mine->ctl = (uint64_t)(uintptr_t)c;
                mine->ctl_rkey_len = (uint16_t)klen;
            } else {
                free(c);
            }
        }
        hw = n->ctl != NULL;
        if (!hw)
            rd_debug("rma", "window %u: cannot register a lock word: no device atomics here", rw->id);
    }
    mine->net = 1;
    mine->hw_ok = (uint8_t)hw;
    rw->net = n;
    return MPI_SUCCESS;
}

int rma_net_peer(struct rd_rma_win *rw, int t, const struct rd_rma_info *all)
{
    struct rma_net *n = rw->net;
    if (!n)
        return 0;
    if (n->hw < 0) {
        /* by the device only if every rank reaches every rank by it */
        n->hw = 1;
        for (int r = 0; r < rw->size; r++)
            if (!all[r].hw_ok)
                n->hw = 0;
        if (!n->hw && n->ctl) {
            rd_net_mem_dereg(n->ctl_mr);
            free(n->ctl);
            n->ctl = NULL;
            n->ctl_mr = NULL;
        }
    }
    if (t == 0)
        rd_debug("rma", "window %u: RDMA by %s (atomics: %s), accumulates and locks by %s", rw->id,
                 rd_net_tl()->ops->name, rd_net_tl()->caps.atomics ? "yes" : "no",
                 n->hw ? "the device's atomics" : "active messages");
    int me = t == rw->rank;
    if (!all[t].net || (me && !n->hw))
        return 0;
    rd_ep *ep = reach(rw, t);
    if (!ep)
        return 0;
    struct rma_net_peer *np = &n->peers[t];
    np->ep = ep;
    np->base = all[t].base;
    np->rkey_len = all[t].rkey_len;
    memcpy(np->rkey, all[t].rkey, np->rkey_len);
    np->ctl = all[t].ctl;
    np->ctl_rkey_len = all[t].ctl_rkey_len;
    memcpy(np->ctl_rkey, all[t].ctl_rkey, np->ctl_rkey_len);
    struct rma_peer *p = &rw->peers[t];
    p->net = np;
    if (me)
        return 0; /* Put and Get stay in place; accumulates and locks by the device */
    p->path = n->hw ? RMA_PATH_HW_ATOMIC : RMA_PATH_RDMA;
    return 1;
}

void rma_net_close(struct rd_rma_win *rw)
{
    struct rma_net *n = rw->net;
    if (!n)
        return;
    if (!n->mr_chunk)
        rd_net_mem_dereg(n->mr);
    if (n->pool) {
        rd_net_mem_dereg(n->pool_mr);
        free(n->pool);
    }
    if (n->ctl) {
        rd_net_mem_dereg(n->ctl_mr);
        free(n->ctl);
    }
    free(n->peers);
    free(n);
    rw->net = NULL;
}

/* ------------------------------------------------------------ Put and Get */

/* One RDMA read or write in flight. */
struct xfer {
    rd_rma_op op;
    struct rd_rma_win *rw;
    int t, put;
    int slot;   /* its slot in the window's bounce pool, or -1 (malloc'd, registered alone) */
    rd_mr *mr;
    uint64_t rec, ooff;
    size_t n;
    char buf[]; /* the bounce buffer, registered */
};

static void net_error(struct rd_rma_win *rw, int t, const char *what)
{
    if (rw->err == MPI_SUCCESS) {
        rw->err = MPI_ERR_OTHER;
        snprintf(rw->errwhy, sizeof(rw->errwhy), "rank %d: the network transport's %s failed", t, what);
    }
}

/* the pool's slot i */
static inline struct xfer *pool_slot(struct rma_net *n, int i)
{
    return (struct xfer *)(void *)(n->pool + (size_t)i * (sizeof(struct xfer) + POOL_BYTES));
}

/* A transfer of n bytes: a free slot of the pool (registered on first
 * use), else its own buffer, registered now; NULL if neither. */
static struct xfer *xfer_new(struct rma_net *net, size_t n)
{
    if (n <= POOL_BYTES && !net->pool && !net->pool_failed) {
        size_t len = POOL_SLOTS * (sizeof(struct xfer) + POOL_BYTES);
        void *c = NULL;
        if (posix_memalign(&c, 64, len) == 0 && rd_net_mem_reg(c, len, &net->pool_mr, NULL, NULL) == RD_OK) {
            net->pool = c;
            net->pool_free = ~0ull;
        } else {
            free(c);
            net->pool_failed = 1; /* (each transfer registers its own) */
        }
    }
    if (n <= POOL_BYTES && net->pool_free) {
        int i = __builtin_ctzll(net->pool_free);
        net->pool_free &= ~(1ull << i);
        struct xfer *x = pool_slot(net, i);
        x->slot = i;
        x->mr = net->pool_mr;
        return x;
    }
    struct xfer *x = malloc(sizeof(*x) + (n ? n : 1));
    if (x && rd_net_mem_reg(x->buf, n, &x->mr, NULL, NULL) != RD_OK) {
        free(x);
        return NULL;
    }
    if (x)
        x->slot = -1;
    return x;
}

static void xfer_free(struct rma_net *net, struct xfer *x)
{
    if (x->slot >= 0) {
        net->pool_free |= 1ull << x->slot;
        return;
    }
    rd_net_mem_dereg(x->mr);
    free(x);
}

static void xfer_done(rd_rma_op *op, rd_status st)
{
    struct xfer *x = op->arg;
    struct rd_rma_win *rw = x->rw;
    if (st != RD_OK)
        net_error(rw, x->t, x->put ? "put" : "get");
    if (x->put)
        rw->peers[x->t].pending--;
    else /* (the data unpacked into the origin's buffer, the count taken down) */
        rma_resp_arrived(rw, x->t, x->rec, x->ooff, x->buf, st == RD_OK ? x->n : 0, x->n);
    xfer_free(rw->net, x);
}

int rma_net_put_placed(void)
{
    const rd_tl *tl = rd_net_tl();
    return tl && !tl->caps.put_sent_only;
}

void rma_net_piece(struct rd_rma_win *rw, int t, int put, uint64_t addr, const void *src, size_t n,
                   uint64_t rec, uint64_t ooff)
{
    struct rma_net_peer *np = rw->peers[t].net;
    struct xfer *x = xfer_new(rw->net, n);
    if (!x) {
        net_error(rw, t, "registration");
        if (!put) { /* (the record still waits for these bytes) */
            rw->peers[t].pending++;
            rma_resp_arrived(rw, t, rec, ooff, NULL, 0, n);
        }
        return;
    }
    x->rw = rw;
    x->t = t;
    x->put = put;
    x->rec = rec;
    x->ooff = ooff;
    x->n = n;
    if (put)
        memcpy(x->buf, src, n);
    x->op = (rd_rma_op){.local = x->buf, .len = n, .lmr = x->mr, .remote_addr = np->base + addr,
                        .rkey = np->rkey, .rkey_len = np->rkey_len, .done = xfer_done, .arg = x};
    rw->peers[t].pending++;
    rd_status st = put ? rd_net_put(np->ep, &x->op) : rd_net_get(np->ep, &x->op);
    if (st != RD_OK) /* (not posted: done() has not run) */
        xfer_done(&x->op, st);
}

/* ------------------------------------------------------------ the device's atomics */

struct hw_wait {
    int done;
    rd_status st;
};

static void atom_done(rd_atomic_op *op, rd_status st)
{
    struct hw_wait *w = op->arg;
    w->st = st;
    w->done = 1;
}

/* One 64-bit atomic on target t, waited for: on its window memory at
 * offset off, or (ctl) on its lock word. Returns the old value; *ok 0 if
 * the transport failed. */
static uint64_t hw_atomic(struct rd_rma_win *rw, int t, int ctl, uint64_t off, int kind, uint64_t operand,
                          uint64_t compare, int *ok)
{
    struct rma_net *n = rw->net;
    struct rma_net_peer *np = rw->peers[t].net;
    struct hw_wait w = {0, RD_OK};
    /* a result word of my own (another thread may be waiting for one too) */
    long idle = 0;
    int slot;
    while ((slot = __builtin_ffsll((long long)~n->slots & ~1ll) - 1) < 0)
        rd_wait_step(&idle);
    n->slots |= 1ull << slot;
    volatile uint64_t *res = &n->ctl[slot];
    *res = 0;
    rd_atomic_op a = {.kind = kind, .operand = operand, .compare = compare, .result = &n->ctl[slot],
                      .lmr = n->ctl_mr, .remote_addr = ctl ? np->ctl : np->base + off,
                      .rkey = ctl ? np->ctl_rkey : np->rkey, .rkey_len = ctl ? np->ctl_rkey_len : np->rkey_len,
                      .done = atom_done, .arg = &w};
    rd_status st = rd_net_atomic(np->ep, &a);
    idle = 0;
    while (st == RD_OK && !w.done)
        rd_wait_step(&idle);
    if (st == RD_OK)
        st = w.st;
    __atomic_thread_fence(__ATOMIC_ACQUIRE);
    uint64_t old = *res;
    n->slots &= ~(1ull << slot);
    if (st != RD_OK) {
        *ok = 0;
        net_error(rw, t, "atomic");
        return 0;
    }
    return old;
}

int rma_hw_locks(struct rd_rma_win *rw, int t)
{
    return rw->net && rw->net->hw == 1 && rw->peers[t].net;
}

int rma_hw_lock_try(struct rd_rma_win *rw, int t, int type)
{
    int ok = 1;
    if (type == MPI_LOCK_EXCLUSIVE)
        return hw_atomic(rw, t, 1, 0, RD_ATOMIC_CSWAP, HW_WRITER, 0, &ok) == 0 && ok;
    uint64_t old = hw_atomic(rw, t, 1, 0, RD_ATOMIC_FADD, 1, 0, &ok);
    if (!ok)
        return 0;
    if (!(old & HW_WRITER))
        return 1;
    hw_atomic(rw, t, 1, 0, RD_ATOMIC_FADD, (uint64_t)-1, 0, &ok); /* a writer holds it: take back */
    return 0;
}

void rma_hw_lock_release(struct rd_rma_win *rw, int t, int type)
{
    int ok = 1;
    hw_atomic(rw, t, 1, 0, RD_ATOMIC_FADD, type == MPI_LOCK_EXCLUSIVE ? -HW_WRITER : (uint64_t)-1, 0, &ok);
}

int rma_hw_fetch(struct rd_rma_win *rw, int t, uint64_t off, int cas, uint64_t operand, uint64_t compare,
                 void *old)
{
    if (!rma_hw_locks(rw, t) || (rw->peers[t].net->base + off) % 8)
        return 0;
    int ok = 1;
    uint64_t v = hw_atomic(rw, t, 0, off, cas ? RD_ATOMIC_CSWAP : RD_ATOMIC_FADD, operand, compare, &ok);
    memcpy(old, &v, 8);
    return 1;
}

/* An accumulate-type call's target runs: all 8-byte aligned? */
struct hw_walk {
    struct rd_rma_win *rw;
    const struct rd_rma_call *o;
    MPI_Datatype e;
    int t, ok, err;
    uint64_t base;          /* the target's address of displacement tb */
    int64_t tb;
    const uint64_t *in;     /* packed origin elements (or NULL) */
    uint64_t *out;          /* packed old values (or NULL) */
    size_t i;               /* the next element */
};

static int hw_check(void *arg, MPI_Aint disp, size_t len)
{
    struct hw_walk *k = arg;
    if ((k->base + (uint64_t)disp) % 8 || len % 8)
        k->ok = 0;
    return 0;
}

/* One element at target offset off: v the origin's, cmp the compare
 * value (CAS); returns the old value. */
static uint64_t hw_elem(struct hw_walk *k, uint64_t off, uint64_t v, uint64_t cmp)
{
    int ok = 1;
    MPI_Op op = k->o->op;
    uint64_t old;
    if (k->o->kind == RD_RMA_CAS) {
        old = hw_atomic(k->rw, k->t, 0, off, RD_ATOMIC_CSWAP, v, cmp, &ok);
    } else if (op == MPI_NO_OP) {
        old = hw_atomic(k->rw, k->t, 0, off, RD_ATOMIC_FADD, 0, 0, &ok);
    } else if (op == MPI_SUM && rd_op_check(MPI_BAND, k->e) == MPI_SUCCESS) {
        old = hw_atomic(k->rw, k->t, 0, off, RD_ATOMIC_FADD, v, 0, &ok); /* (two's complement: signed too) */
    } else {
        /* read (a compare-and-swap that changes nothing), then swap in the
         * result until nobody came between */
        uint64_t cur = hw_atomic(k->rw, k->t, 0, off, RD_ATOMIC_CSWAP, 0, 0, &ok);
        for (;;) {
            uint64_t nv = v;
            if (op != MPI_REPLACE) {
                nv = cur;
                if (rd_op_apply(op, &v, &nv, 1, k->e) != MPI_SUCCESS) {
                    k->err = MPI_ERR_OP;
                    return cur;
                }
            }
            uint64_t got = hw_atomic(k->rw, k->t, 0, off, RD_ATOMIC_CSWAP, nv, cur, &ok);
            if (!ok || got == cur)
                break;
            cur = got;
        }
        old = cur;
    }
    if (!ok && k->err == MPI_SUCCESS)
        k->err = MPI_ERR_OTHER;
    return old;
}

static int hw_run(void *arg, MPI_Aint disp, size_t len)
{
    struct hw_walk *k = arg;
    for (size_t j = 0; j < len / 8 && k->err == MPI_SUCCESS; j++, k->i++) {
        uint64_t v = k->in ? k->in[k->i] : 0, cmp = 0;
        if (k->o->kind == RD_RMA_CAS)
            memcpy(&cmp, k->o->cbuf, 8);
        uint64_t old = hw_elem(k, (uint64_t)(k->tb + disp) + 8 * j, v, cmp);
        if (k->out)
            k->out[k->i] = old;
    }
    return 0;
}

int rma_hw_do(struct rd_rma_win *rw, const struct rd_rma_call *o, MPI_Datatype e, int64_t tb,
              struct rd_request_s *req, int *err)
{
    int t = o->target, kind = o->kind;
    if (!rma_hw_locks(rw, t) || (kind != RD_RMA_ACC && kind != RD_RMA_GACC && kind != RD_RMA_CAS) || !e ||
        e->size != 8 || e->extent != 8)
        return 0;
    struct hw_walk k = {.rw = rw, .o = o, .e = e, .t = t, .ok = 1, .err = MPI_SUCCESS,
                        .base = rw->peers[t].net->base + (uint64_t)tb, .tb = tb};
    rd_dt_segments(o->tdt, (size_t)o->tcount, hw_check, &k);
    if (!k.ok)
        return 0; /* (not aligned: by active messages, as every origin decides) */
    size_t tbytes = (size_t)o->tcount * o->tdt->size;
    uint64_t *in = NULL, *out = NULL;
    int sends = kind == RD_RMA_CAS || o->op != MPI_NO_OP;
    if (kind == RD_RMA_ACC && o->op == MPI_NO_OP) {
        if (req)
            rd_req_complete(req);
        *err = MPI_SUCCESS;
        return 1;
    }
    if ((sends && !(in = malloc(tbytes))) || (kind != RD_RMA_ACC && !(out = malloc(tbytes)))) {
        free(in);
        *err = MPI_ERR_NO_MEM;
        return 1;
    }
    if (sends)
        rd_dt_pack(o->obuf, o->odt, 0, in, tbytes);
    k.in = in;
    k.out = out;
    rd_dt_segments(o->tdt, (size_t)o->tcount, hw_run, &k);
    if (out && k.err == MPI_SUCCESS)
        rd_dt_unpack(o->rbuf, o->rdt, 0, out, tbytes);
    free(in);
    free(out);
    if (req)
        rd_req_complete(req);
    *err = k.err;
    return 1;
}

/*
 * shm.c - the shared-memory transport: the node segment (shm_segment.c),
 * one SPSC ring per ordered pair of local ranks (shm_ring.h) for active
 * messages, and Cross Memory Attach (shm_cma.c) for get/put.
 *
 * Wire-up: every rank publishes "rd.shm.seg" = "<pid> <probe address>
 * [<segment name>]" in open() (local rank 0, the creator, adds the name of
 * the segment it created). After the fence, activate() attaches the others
 * to the segment and checks whether CMA is permitted by reading a peer's
 * probe word.
 *
 * Progress: a sender adds itself to the receiver's active list in the
 * segment on its first send; the receiver polls only the rings of senders
 * in that list, in turn, with a bounded number of records per call.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "runtime/base/log.h"
#include "runtime/base/nodemem.h"
#include "runtime/base/params.h"
#include "transports/shm/shm_cma.h"
#include "transports/shm/shm_ring.h"
#include "transports/shm/shm_segment.h"
#include "transports/shm/shm_xmap.h"
#include "transports/transport.h"

#define SHM_KEY "rd.shm.seg"
/* chosen from bench/p2p: at 8-32 KiB an eager copy through the ring beat
 * the rendezvous on latency and bandwidth (e.g. 8 KiB: 0.32 vs 0.63 us) */
#define SHM_EAGER_DEFAULT 32768
#define SHM_POLL_PER_RING 16 /* records from one ring per progress call */
#define SHM_POLL_MAX 64      /* records per progress call */
#define SHM_LATENCY_NS 200
#define SHM_BANDWIDTH_MBS 8000

struct shm_tl;

/* Receive side of one ring into this rank. */
typedef struct shm_rx {
    rd_shm_ring_rx ring;
    struct shm_tl *tl;
    int src; /* world rank of the sender */
} shm_rx;

typedef struct shm_ep {
    rd_ep base;
    int lpeer;     /* the peer's local rank */
    int announced; /* we are in its active list */
    pid_t pid;
    rd_shm_ring_tx tx;
} shm_ep;

typedef struct shm_tl {
    rd_tl base;
    rd_am_handler handler;
    void *handler_arg;
    int rank, local_rank, local_size, world_size;
    int *local_peers;  /* world rank of each local rank */
    int *world_local;  /* local rank of each world rank, -1: elsewhere */
    int have_seg;
    rd_shm_seg seg;
    size_t ring_size;
    shm_ep **eps;      /* by local rank, created by connect */
    shm_rx *rx;        /* by sender local rank */
    rd_shm_active *active; /* this rank's active-sender list */
    int *senders;      /* local ranks seen in the active list, in order */
    int nsenders;
    int next;          /* where the next progress call starts */
    char *creator_key; /* local rank 0's published value, read in activate */
    int xmap;          /* shm_xmap.c is on */
    struct rd_node_mem node; /* what it lends the collectives (caps.node_mem) */
} shm_tl;

static rd_mr *const shm_dummy_mr = (rd_mr *)&shm_dummy_mr;

static rd_status shm_get_key(int world_rank, char **val)
{
    void *data = NULL;
    size_t len = 0;
    rd_status st = rd_job_get(world_rank, SHM_KEY, &data, &len);
    if (st != RD_OK)
        return st;
    char *s = malloc(len + 1);
    if (!s) {
        free(data);
        return RD_ERR_NOMEM;
    }
    memcpy(s, data, len);
    s[len] = '\0';
    free(data);
    *val = s;
    return RD_OK;
}

/* "<pid> <probe address> [<name>]" */
static int shm_parse_key(const char *val, pid_t *pid, uint64_t *addr, char *name, size_t namelen)
{
    long p;
    unsigned long long a;
    int off = 0;
    if (sscanf(val, "%ld %llx %n", &p, &a, &off) < 2)
        return -1;
    *pid = (pid_t)p;
    *addr = a;
    if (name)
        snprintf(name, namelen, "%s", val + off);
    return 0;
}

static void shm_free(shm_tl *tl)
{
    if (tl->eps)
        for (int i = 0; i < tl->local_size; i++)
            free(tl->eps[i]);
    free(tl->eps);
    free(tl->rx);
    free(tl->senders);
    free(tl->local_peers);
    free(tl->world_local);
    free(tl->creator_key);
    free(tl);
}

static const struct rd_transport *shm_ops(void);

static rd_status shm_open_tl(const struct rd_job *job, const unsigned char *peers, rd_am_handler handler,
                             void *handler_arg, rd_tl **out)
{
    (void)peers; /* (the segment serves the node whoever carries its ranks) */
    rd_status st = RD_ERR_NOMEM;
    char key[RD_SHM_SEG_NAME_MAX + 64];
    shm_tl *tl = calloc(1, sizeof(*tl));
    if (!tl)
        return RD_ERR_NOMEM;
    tl->base.ops = shm_ops();
    tl->handler = handler;
    tl->handler_arg = handler_arg;
    tl->rank = job->rank;
    tl->local_rank = job->local_rank;
    tl->local_size = job->local_size;
    tl->world_size = job->size;
    tl->ring_size = rd_shm_ring_size_round(rd_param.shm_ring_size > 0
                                               ? (size_t)rd_param.shm_ring_size
                                               : 0);
    tl->local_peers = malloc(sizeof(int) * (size_t)tl->local_size);
    tl->world_local = malloc(sizeof(int) * (size_t)tl->world_size);
    tl->eps = calloc((size_t)tl->local_size, sizeof(*tl->eps));
    tl->rx = calloc((size_t)tl->local_size, sizeof(*tl->rx));
    tl->senders = calloc((size_t)tl->local_size, sizeof(int));
    if (!tl->local_peers || !tl->world_local || !tl->eps || !tl->rx || !tl->senders)
        goto err_free;
    for (int i = 0; i < tl->world_size; i++)
        tl->world_local[i] = -1;
    for (int i = 0; i < tl->local_size; i++) {
        int r = job->local_peers[i];
        if (r < 0 || r >= tl->world_size) {
            rd_error("shm", "local peer %d of rank %d out of range", r, tl->rank);
            st = RD_ERR_INTERNAL;
            goto err_free;
        }
        tl->local_peers[i] = r;
        tl->world_local[r] = i;
    }

    tl->base.caps.am_max = rd_shm_ring_am_max(tl->ring_size);
    tl->base.caps.eager_limit = SHM_EAGER_DEFAULT < tl->base.caps.am_max
                                    ? SHM_EAGER_DEFAULT
                                    : tl->base.caps.am_max;
    tl->base.caps.rma = 0; /* decided in activate() */
    tl->base.caps.needs_reg = 0;
    tl->base.caps.rkey_max = 0;
    tl->base.caps.latency_ns = SHM_LATENCY_NS;
    tl->base.caps.bandwidth_mbs = SHM_BANDWIDTH_MBS;

    if (tl->local_size < 2) { /* alone on this node: nothing to share */
        *out = &tl->base;
        return RD_OK;
    }
    if (tl->local_rank == 0) {
        st = rd_shm_seg_create(&tl->seg, job->nspace, tl->local_size, tl->ring_size, (int)rd_param.shm_memfd);
        if (st != RD_OK)
            goto err_free;
        tl->have_seg = 1;
        atomic_store_explicit(&rd_shm_seg_info(&tl->seg, 0)->probe_addr,
                              (uint64_t)(uintptr_t)&rd_shm_cma_probe_word, memory_order_relaxed);
    }
    snprintf(key, sizeof(key), "%ld %" PRIx64 " %s", (long)getpid(),
             (uint64_t)(uintptr_t)&rd_shm_cma_probe_word, tl->have_seg ? tl->seg.name : "");
    st = rd_job_put(SHM_KEY, key, strlen(key) + 1);
    if (st != RD_OK)
        goto err_seg;
    *out = &tl->base;
    return RD_OK;

err_seg:
    if (tl->have_seg)
        rd_shm_seg_close(&tl->seg);
err_free:
    shm_free(tl);
    return st;
}

static void shm_decide_cma(shm_tl *tl, pid_t pid, uint64_t addr, int peer)
{
    if (!rd_param.shm_cma) {
        rd_debug("shm", "CMA off (RDMPI_SHM_CMA=0): large messages go through the rings");
        return;
    }
    rd_status st = rd_shm_cma_probe(pid, addr);
    tl->base.caps.rma = st == RD_OK;
    if (st == RD_OK)
        rd_debug("shm", "CMA works (probe of rank %d): single-copy get/put", peer);
    else
        rd_debug("shm", "CMA not permitted (probe of rank %d: %s): large messages go through "
                 "the rings", peer, rd_status_string(st));
}

static rd_status shm_activate(rd_tl *base)
{
    shm_tl *tl = (shm_tl *)base;
    rd_status st;
    char *val = NULL;
    char name[RD_SHM_SEG_NAME_MAX];
    pid_t pid;
    uint64_t addr;

    if (tl->local_size < 2)
        return RD_OK;
    /* the creator probes local rank 1; the others probe the creator */
    int probe_peer = tl->local_peers[tl->local_rank == 0 ? 1 : 0];
    st = shm_get_key(probe_peer, &val);
    if (st != RD_OK)
        return st;
    if (shm_parse_key(val, &pid, &addr, name, sizeof(name)) != 0) {
        rd_error("shm", "rank %d published a malformed %s: '%s'", probe_peer, SHM_KEY, val);
        st = RD_ERR_INTERNAL;
        goto out;
    }
    if (tl->local_rank != 0) {
        st = rd_shm_seg_attach(&tl->seg, name, tl->local_rank, tl->local_size);
        if (st != RD_OK)
            goto out;
        tl->have_seg = 1;
        atomic_store_explicit(&rd_shm_seg_info(&tl->seg, tl->local_rank)->probe_addr,
                              (uint64_t)(uintptr_t)&rd_shm_cma_probe_word, memory_order_relaxed);
    }
    tl->ring_size = tl->seg.ring_size;
    tl->active = rd_shm_seg_active(&tl->seg, tl->local_rank);
    for (int s = 0; s < tl->local_size; s++) {
        rd_shm_ring_rx_init(&tl->rx[s].ring, rd_shm_seg_ring(&tl->seg, s, tl->local_rank),
                            tl->seg.ring_size, rd_shm_seg_ctl(&tl->seg, s, tl->local_rank));
        tl->rx[s].tl = tl;
        tl->rx[s].src = tl->local_peers[s];
    }
    shm_decide_cma(tl, pid, addr, probe_peer);
    if (tl->seg.coll_slots > 0) {
        tl->node = (struct rd_node_mem){
            .base = tl->seg.base + tl->seg.coll_off,
            .nslots = tl->seg.coll_slots,
            .local_size = tl->local_size,
            .data = RD_SHM_COLL_DATA,
            .stage = RD_SHM_COLL_STAGE,
            .write = tl->base.caps.rma ? rd_shm_cma_write : NULL,
            .read = tl->base.caps.rma ? rd_shm_cma_read : NULL,
        };
        tl->base.caps.node_mem = &tl->node;
        const char *why = "off (RDMPI_SHM_XMAP=0)";
        if (tl->base.caps.rma && rd_param.shm_xmap &&
            rd_shm_xmap_init((size_t)rd_param.shm_xmap_min, (size_t)rd_param.shm_xmap_cache, &why)) {
            tl->xmap = 1;
            tl->node.expose = rd_shm_xmap_expose;
            tl->node.attach = rd_shm_xmap_attach;
            rd_debug("shm", "direct mapping of large collective buffers on");
        } else {
            rd_debug("shm", "direct mapping of collective buffers %s", tl->base.caps.rma ? why : "off (no CMA)");
        }
    }
out:
    free(val);
    return st;
}

static int shm_reachable(rd_tl *base, int peer)
{
    shm_tl *tl = (shm_tl *)base;
    return tl->have_seg && peer >= 0 && peer < tl->world_size && tl->world_local[peer] >= 0;
}

static rd_status shm_connect(rd_tl *base, int peer, rd_ep **out)
{
    shm_tl *tl = (shm_tl *)base;
    if (!shm_reachable(base, peer)) {
        rd_error("shm", "rank %d cannot reach rank %d through shared memory (not on this node)",
                 tl->rank, peer);
        return RD_ERR_UNREACH;
    }
    int lp = tl->world_local[peer];
    if (tl->eps[lp]) {
        *out = &tl->eps[lp]->base;
        return RD_OK;
    }
    shm_ep *ep = calloc(1, sizeof(*ep));
    if (!ep)
        return RD_ERR_NOMEM;
    ep->base.tl = base;
    ep->base.peer = peer;
    ep->lpeer = lp;
    rd_shm_ring_tx_init(&ep->tx, rd_shm_seg_ring(&tl->seg, tl->local_rank, lp), tl->seg.ring_size,
                        rd_shm_seg_ctl(&tl->seg, tl->local_rank, lp));
    ep->pid = atomic_load_explicit(&rd_shm_seg_info(&tl->seg, lp)->pid, memory_order_acquire);
    if (ep->pid == 0) { /* it has not attached yet: its published value says */
        char *val = NULL;
        uint64_t addr;
        rd_status st = shm_get_key(peer, &val);
        if (st == RD_OK && shm_parse_key(val, &ep->pid, &addr, NULL, 0) != 0)
            st = RD_ERR_INTERNAL;
        free(val);
        if (st != RD_OK) {
            free(ep);
            return st;
        }
    }
    tl->eps[lp] = ep;
    *out = &ep->base;
    return RD_OK;
}

/* First send to a peer: join its active-sender list. */
static void shm_announce(shm_tl *tl, shm_ep *ep)
{
    rd_shm_active *a = rd_shm_seg_active(&tl->seg, ep->lpeer);
    uint32_t idx = atomic_fetch_add_explicit(&a->count, 1, memory_order_relaxed);
    atomic_store_explicit(&a->slot[idx], (uint32_t)tl->local_rank + 1, memory_order_release);
    ep->announced = 1;
}

static rd_status shm_am_send(rd_ep *base, unsigned id, const void *hdr, size_t hlen,
                             const void *data, size_t len)
{
    shm_ep *ep = (shm_ep *)base;
    shm_tl *tl = (shm_tl *)base->tl;
    if (__builtin_expect(hlen > RD_AM_HDR_MAX || hlen + len > tl->base.caps.am_max || id > 0xffff,
                         0)) {
        rd_error("shm", "am_send to rank %d: id %u, header %zu + data %zu bytes exceeds the "
                 "limits (id < 65536, header <= %d, total <= %zu)", base->peer, id, hlen, len,
                 RD_AM_HDR_MAX, tl->base.caps.am_max);
        return RD_ERR_ARG;
    }
    rd_status st = rd_shm_ring_send(&ep->tx, id, hdr, hlen, data, len);
    if (__builtin_expect(!ep->announced, 0) && st == RD_OK)
        shm_announce(tl, ep);
    return st;
}

static void shm_deliver(void *arg, unsigned id, const void *hdr, size_t hlen, const void *data,
                        size_t len)
{
    shm_rx *rx = arg;
    rx->tl->handler(rx->tl->handler_arg, rx->src, id, hdr, hlen, data, len);
}

static int shm_progress(rd_tl *base)
{
    shm_tl *tl = (shm_tl *)base;
    int events = 0;
    if (!tl->active)
        return 0;
    /* senders that joined since the last call */
    uint32_t count = atomic_load_explicit(&tl->active->count, memory_order_acquire);
    while ((uint32_t)tl->nsenders < count && tl->nsenders < tl->local_size) {
        uint32_t s = atomic_load_explicit(&tl->active->slot[tl->nsenders], memory_order_acquire);
        if (s == 0)
            break; /* still being written */
        tl->senders[tl->nsenders++] = (int)s - 1;
    }
    int n = tl->nsenders;
    if (n == 0)
        return 0;
    int i = tl->next < n ? tl->next : 0;
    for (int k = 0; k < n && events < SHM_POLL_MAX; k++) {
        int budget = SHM_POLL_MAX - events;
        shm_rx *rx = &tl->rx[tl->senders[i]];
        events += rd_shm_ring_poll(&rx->ring, budget < SHM_POLL_PER_RING ? budget
                                                                         : SHM_POLL_PER_RING,
                                   shm_deliver, rx);
        if (++i == n)
            i = 0;
    }
    tl->next = tl->next + 1 < n ? tl->next + 1 : 0;
    return events;
}

static rd_status shm_mem_reg(rd_tl *base, void *addr, size_t len, rd_mr **mr, void *rkey,
                             size_t *rkey_len)
{
    *mr = shm_dummy_mr;
    if (rkey_len)
        *rkey_len = 0;
    return RD_OK;
}

static void shm_mem_dereg(rd_tl *base, rd_mr *mr)
{
}

static rd_status shm_rma(rd_ep *base, rd_rma_op *op, int write)
{
    shm_ep *ep = (shm_ep *)base;
    rd_status st = RD_OK;
    if (!base->tl->caps.rma) {
        rd_error("shm", "%s to rank %d: CMA is off or not permitted (caps.rma = 0)",
                 write ? "put" : "get", base->peer);
        return RD_ERR_UNSUPPORTED;
    }
    if (op->len > 0)
        st = write ? rd_shm_cma_write(ep->pid, base->peer, op->local, op->remote_addr, op->len)
                   : rd_shm_cma_read(ep->pid, base->peer, op->local, op->remote_addr, op->len);
    op->done(op, st);
    return RD_OK;
}

static rd_status shm_get(rd_ep *base, rd_rma_op *op)
{
    return shm_rma(base, op, 0);
}

static rd_status shm_put(rd_ep *base, rd_rma_op *op)
{
    return shm_rma(base, op, 1);
}

static void shm_close(rd_tl *base)
{
    shm_tl *tl = (shm_tl *)base;
    if (!tl)
        return;
    if (tl->have_seg) {
        if (tl->xmap)
            rd_shm_xmap_fini();
        rd_shm_seg_close(&tl->seg);
    }
    shm_free(tl);
}

const struct rd_transport rd_transport_shm = {
    .size = sizeof(struct rd_transport),
    .name = "shm",
    .open = shm_open_tl,
    .activate = shm_activate,
    .reachable = shm_reachable,
    .connect = shm_connect,
    .am_send = shm_am_send,
    .mem_reg = shm_mem_reg,
    .mem_dereg = shm_mem_dereg,
    .get = shm_get,
    .put = shm_put,
    .progress = shm_progress,
    .close = shm_close,
};

static const struct rd_transport *shm_ops(void)
{
    return &rd_transport_shm;
}

/*
 * ofi.c - the libfabric transport: an RDM endpoint (FI_EP_RDM) under the
 * transport contract (transport.h).
 *
 * fi_getinfo picks the provider (tcp;ofi_rxm here, verbs;ofi_rxm on an
 * RDMA cluster; RDMPI_OFI_PROVIDER forces one, and the FI_* variables of
 * libfabric apply); one fabric, domain, address vector (table), completion
 * queue and endpoint per process; the endpoint's name is published through
 * PMIx and inserted into the address vector on first use of a peer.
 *
 * Active messages are tagged-less messages: a pool of receive buffers of
 * am_max bytes each stays posted; a send copies header and data into a
 * buffer freed when its completion arrives (RD_ERR_AGAIN when the provider
 * has no room).
 *
 * The order of active messages per pair is the transport's own:
 * FI_ORDER_SAS orders only the matching of messages to receive buffers,
 * not their completions, and rxm completes a message it segments (SAR,
 * above its eager size of ~16 KiB; FI_OFI_RXM_BUFFER_SIZE) when its last
 * segment arrives, after smaller ones sent behind it. So every message
 * carries a sequence number per (sender, receiver); a message that
 * completes before its turn keeps its receive buffer (not reposted) until
 * the ones before it have been delivered. No copy, and no deadlock: with
 * SAS, a message that completed was matched after every earlier one of
 * its sender, so those sit in buffers of ours already and complete
 * without another posted receive.
 *
 * get/put are fi_read/fi_write on memory registered with
 * fi_mr_reg; both registration modes are served: offsets and user keys
 * (FI_MR_SCALABLE) or virtual addresses and provider keys (FI_MR_VIRT_ADDR,
 * FI_MR_PROV_KEY), with FI_MR_ENDPOINT binding when asked. The packed key
 * is the MR key and the registered base. Writes ask for delivery
 * completion (FI_DELIVERY_COMPLETE), so done() means the data is in place at
 * the target (the contract's remote completion): tcp;ofi_rxm then waits for
 * the target's acknowledgement (without the flag, the contract test's
 * remote-completion points fail on it); over verbs;ofi_rxm it is the RC
 * write's completion, as in the verbs transport.
 *
 * Atomics (caps.atomics): the endpoint gets FI_ATOMIC when the provider and
 * domain already chosen offer it (a second fi_getinfo pinned to them, so
 * the choice never changes for it), and fi_query_atomic and the
 * endpoint's *atomicvalid calls say 64-bit FI_SUM (fetching) and FI_CSWAP
 * work: fi_fetch_atomic and fi_compare_atomic. Here fi_query_atomic says
 * yes for every provider installed (tcp;ofi_rxm, udp;ofi_rxd, shm,
 * sockets); rxm and rxd emulate them with messages that the target's
 * progress runs.
 *
 * Providers that need local buffers registered too (FI_MR_LOCAL, e.g.
 * verbs;ofi_rxm) get descriptors for everything: the receive pool is one
 * registered block, sends go from a registered pool of OFI_NSEND buffers
 * (RD_ERR_AGAIN when all are in flight; the engine queues), and RMA uses the
 * engine's registration of the user buffer. RDMPI_OFI_MR_LOCAL=1 takes this
 * path with any provider (how the tests cover it without such hardware).
 */
#include "config.h"

#include <rdma/fabric.h>
#include <rdma/fi_atomic.h>
#include <rdma/fi_cm.h>
#include <rdma/fi_domain.h>
#include <rdma/fi_endpoint.h>
#include <rdma/fi_errno.h>
#include <rdma/fi_rma.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/base/log.h"
#include "runtime/base/params.h"
#include "transports/transport.h"

#define OFI_KEY "rdmpi.ofi.name"
#define OFI_AM_MAX 65536 /* receive buffers: header + data */
#define OFI_NRECV 64
#define OFI_EAGER 8192
#define OFI_CQ_BATCH 16
#define OFI_NSEND 64 /* registered send buffers (FI_MR_LOCAL) */
#define OFI_NAMO 256 /* atomics in flight at once */

struct ofi_hdr {
    int32_t src;
    uint32_t id;
    uint32_t hlen;
    uint32_t seq; /* per (sender, receiver), from 0, wrapping */
};

/* what a completion's context points at */
enum { OFI_CTX_RECV = 1, OFI_CTX_SEND, OFI_CTX_RMA, OFI_CTX_AMO };
struct ofi_ctx {
    struct fi_context fictx; /* FI_CONTEXT mode: the provider's scratch */
    int kind;
};

struct ofi_recv {
    struct ofi_ctx c;
    struct ofi_recv *next; /* held: completed before its turn */
    size_t len;            /* held: bytes received */
    unsigned char buf[sizeof(struct ofi_hdr) + RD_AM_HDR_MAX + OFI_AM_MAX];
};

struct ofi_send {
    struct ofi_ctx c;
    struct ofi_send *next; /* pool free list (FI_MR_LOCAL) */
    int pooled;
    unsigned char buf[];
};
/* One pool buffer: a send of the largest active message. */
#define OFI_SEND_SIZE (sizeof(struct ofi_send) + sizeof(struct ofi_hdr) + RD_AM_HDR_MAX + OFI_AM_MAX)

struct ofi_rma {
    struct ofi_ctx c;
    rd_rma_op *op;
};

/* An atomic in flight: its operands live here, in a block registered
 * when the provider wants descriptors for local buffers (FI_MR_LOCAL). */
struct ofi_amo {
    struct ofi_ctx c;
    struct ofi_amo *next; /* free list */
    rd_atomic_op *op;
    uint64_t operand, compare;
};

typedef struct ofi_ep {
    rd_ep base;
    fi_addr_t addr;
    uint32_t tx_seq; /* the next message's sequence number */
} ofi_ep;

typedef struct ofi_tl {
    rd_tl base;
    struct fi_info *info;
    struct fid_fabric *fabric;
    struct fid_domain *domain;
    struct fid_av *av;
    struct fid_cq *cq;
    struct fid_ep *ep;
    rd_am_handler handler;
    void *harg;
    int rank, size;
    int virt_addr, prov_key, mr_endpoint;
    int mr_local;                     /* local buffers need descriptors too */
    struct fid_mr *recv_mr, *send_mr; /* the pools' registrations (mr_local) */
    void *recv_desc, *send_desc;
    unsigned char *send_pool;
    struct ofi_send *send_free;
    uint64_t next_key;
    ofi_ep **eps;
    struct ofi_recv *recvs;
    uint32_t *rx_seq;       /* per sender: the sequence number delivered next */
    struct ofi_recv *held;  /* completed before their turn (any sender) */
    long nheld, held_total; /* held now; ever (reported at close) */
    long inflight; /* sends and RMA operations not completed */
    struct ofi_amo *amos, *amo_free; /* atomics' operands (caps.atomics) */
    struct fid_mr *amo_mr;
    void *amo_desc;
} ofi_tl;

struct rd_mr {
    struct fid_mr *mr;
    uint64_t base;
};

/* the packed key */
struct ofi_rkey {
    uint64_t key;
    uint64_t base;
};

static const struct rd_transport *ofi_ops(void);

/* Register a block the provider uses locally (and binds, if it asks). */
static int reg_local(ofi_tl *tl, void *addr, size_t len, struct fid_mr **mr, void **desc)
{
    int rc = fi_mr_reg(tl->domain, addr, len, FI_SEND | FI_RECV | FI_READ | FI_WRITE, 0,
                       tl->prov_key ? 0 : tl->next_key++, 0, mr, NULL);
    if (!rc && tl->mr_endpoint) {
        rc = fi_mr_bind(*mr, &tl->ep->fid, 0);
        if (!rc)
            rc = fi_mr_enable(*mr);
    }
    if (rc) {
        rd_error("ofi", "fi_mr_reg of a %zu-byte buffer pool: %s", len, fi_strerror(-rc));
        if (*mr)
            fi_close(&(*mr)->fid);
        *mr = NULL;
        return rc;
    }
    *desc = fi_mr_desc(*mr);
    return 0;
}

/* FI_MR_LOCAL: register the receive pool and build the send pool. */
static rd_status setup_local_pools(ofi_tl *tl)
{
    if (reg_local(tl, tl->recvs, sizeof(*tl->recvs) * OFI_NRECV, &tl->recv_mr, &tl->recv_desc))
        return RD_ERR_IO;
    tl->send_pool = calloc(OFI_NSEND, OFI_SEND_SIZE);
    if (!tl->send_pool)
        return RD_ERR_NOMEM;
    if (reg_local(tl, tl->send_pool, OFI_NSEND * OFI_SEND_SIZE, &tl->send_mr, &tl->send_desc))
        return RD_ERR_IO;
    for (int i = OFI_NSEND - 1; i >= 0; i--) {
        struct ofi_send *s = (struct ofi_send *)(tl->send_pool + (size_t)i * OFI_SEND_SIZE);
        s->pooled = 1;
        s->next = tl->send_free;
        tl->send_free = s;
    }
    return RD_OK;
}

/* Whether the endpoint can do 64-bit fetch-and-add and compare-and-swap:
 * opened with FI_ATOMIC, and the provider says both are valid. */
static int atomics_usable(ofi_tl *tl)
{
    if (!(tl->info->caps & FI_ATOMIC))
        return 0;
    struct fi_atomic_attr attr;
    size_t n1 = 0, n2 = 0;
    int rc;
    const char *what = "fi_query_atomic(FI_SUM)";
    if ((rc = fi_query_atomic(tl->domain, FI_UINT64, FI_SUM, &attr, FI_FETCH_ATOMIC)) ||
        (what = "fi_query_atomic(FI_CSWAP)",
         rc = fi_query_atomic(tl->domain, FI_UINT64, FI_CSWAP, &attr, FI_COMPARE_ATOMIC)) ||
        (what = "fi_fetch_atomicvalid", rc = fi_fetch_atomicvalid(tl->ep, FI_UINT64, FI_SUM, &n1)) ||
        (what = "fi_compare_atomicvalid", rc = fi_compare_atomicvalid(tl->ep, FI_UINT64, FI_CSWAP, &n2)) ||
        (what = "a count of 0", rc = n1 < 1 || n2 < 1 ? -FI_EOPNOTSUPP : 0)) {
        rd_debug("ofi", "no atomics on %s: %s: %s", tl->info->fabric_attr->prov_name, what, fi_strerror(-rc));
        return 0;
    }
    return 1;
}

/* The atomics' operand slots, registered when local buffers must be. */
static rd_status setup_atomics(ofi_tl *tl)
{
    tl->amos = calloc(OFI_NAMO, sizeof(*tl->amos));
    if (!tl->amos)
        return RD_ERR_NOMEM;
    if (tl->mr_local && reg_local(tl, tl->amos, OFI_NAMO * sizeof(*tl->amos), &tl->amo_mr, &tl->amo_desc))
        return RD_ERR_IO;
    for (int i = OFI_NAMO - 1; i >= 0; i--) {
        tl->amos[i].c.kind = OFI_CTX_AMO;
        tl->amos[i].next = tl->amo_free;
        tl->amo_free = &tl->amos[i];
    }
    return RD_OK;
}

static rd_status post_recv(ofi_tl *tl, struct ofi_recv *r)
{
    r->c.kind = OFI_CTX_RECV;
    ssize_t rc;
    while ((rc = fi_recv(tl->ep, r->buf, sizeof(r->buf), tl->recv_desc, FI_ADDR_UNSPEC, &r->c)) ==
           -FI_EAGAIN)
        fi_cq_read(tl->cq, NULL, 0);
    if (rc) {
        rd_error("ofi", "fi_recv: %s", fi_strerror((int)-rc));
        return RD_ERR_IO;
    }
    return RD_OK;
}

/* The same provider, fabric and domain as info, with FI_ATOMIC added to the
 * capabilities, if it offers them (rxm, over tcp or verbs, and rxd emulate
 * atomics with their messages; shm does them with the CPU): asked after the
 * choice, so that asking for atomics never changes which provider the
 * transport runs on. Returns the info to use (info itself without). */
static struct fi_info *with_atomics(struct fi_info *hints, struct fi_info *info)
{
    struct fi_info *h = fi_dupinfo(hints), *a = NULL;
    if (!h)
        return info;
    h->caps |= FI_ATOMIC;
    free(h->fabric_attr->prov_name);
    h->fabric_attr->prov_name = strdup(info->fabric_attr->prov_name);
    free(h->fabric_attr->name);
    h->fabric_attr->name = info->fabric_attr->name ? strdup(info->fabric_attr->name) : NULL;
    free(h->domain_attr->name);
    h->domain_attr->name = strdup(info->domain_attr->name);
    int rc = h->fabric_attr->prov_name && h->domain_attr->name &&
                     (h->fabric_attr->name || !info->fabric_attr->name)
                 ? fi_getinfo(FI_VERSION(1, 9), NULL, NULL, 0, h, &a)
                 : -FI_ENOMEM;
    fi_freeinfo(h);
    if (rc || !(a->caps & FI_ATOMIC)) {
        rd_debug("ofi", "%s offers no atomics: %s", info->fabric_attr->prov_name,
                 rc ? fi_strerror(-rc) : "FI_ATOMIC not in its capabilities");
        if (!rc)
            fi_freeinfo(a);
        return info;
    }
    if (a->next) { /* (the first only) */
        fi_freeinfo(a->next);
        a->next = NULL;
    }
    fi_freeinfo(info);
    return a;
}

static rd_status ofi_open(const struct rd_job *job, const unsigned char *peers, rd_am_handler handler, void *harg,
                          rd_tl **out)
{
    (void)peers; /* (no per-peer resources at open) */
    struct fi_info *hints = fi_allocinfo();
    if (!hints)
        return RD_ERR_NOMEM;
    hints->ep_attr->type = FI_EP_RDM;
    hints->caps = FI_MSG | FI_RMA | FI_READ | FI_WRITE | FI_REMOTE_READ | FI_REMOTE_WRITE;
    hints->mode = FI_CONTEXT;
    hints->domain_attr->mr_mode =
        FI_MR_LOCAL | FI_MR_VIRT_ADDR | FI_MR_ALLOCATED | FI_MR_PROV_KEY | FI_MR_ENDPOINT;
    hints->domain_attr->threading = FI_THREAD_DOMAIN;
    hints->tx_attr->msg_order = FI_ORDER_SAS;
    hints->rx_attr->msg_order = FI_ORDER_SAS;
    if (rd_param.ofi_provider[0])
        hints->fabric_attr->prov_name = strdup(rd_param.ofi_provider);
    ofi_tl *tl = calloc(1, sizeof(*tl));
    struct fi_info *info = NULL;
    int rc = tl ? fi_getinfo(FI_VERSION(1, 9), NULL, NULL, 0, hints, &info) : -FI_ENOMEM;
    if (rc) {
        fi_freeinfo(hints);
        rd_debug("ofi", "fi_getinfo: %s", fi_strerror(-rc));
        free(tl);
        return rc == -FI_ENOMEM ? RD_ERR_NOMEM : RD_ERR_UNSUPPORTED;
    }
    info = with_atomics(hints, info);
    fi_freeinfo(hints);
    tl->info = info;
    tl->base.ops = ofi_ops();
    tl->handler = handler;
    tl->harg = harg;
    tl->rank = job->rank;
    tl->size = job->size;
    tl->virt_addr = (info->domain_attr->mr_mode & FI_MR_VIRT_ADDR) != 0;
    tl->prov_key = (info->domain_attr->mr_mode & FI_MR_PROV_KEY) != 0;
    tl->mr_endpoint = (info->domain_attr->mr_mode & FI_MR_ENDPOINT) != 0;
    tl->mr_local = (info->domain_attr->mr_mode & FI_MR_LOCAL) != 0 || rd_param.ofi_mr_local;
    tl->next_key = ((uint64_t)job->rank << 32) + 1;
    struct fi_av_attr av = {.type = FI_AV_TABLE};
    struct fi_cq_attr cq = {.format = FI_CQ_FORMAT_MSG, .size = 0};
    const char *what = "fi_fabric";
    if ((rc = fi_fabric(info->fabric_attr, &tl->fabric, NULL)) ||
        (what = "fi_domain", rc = fi_domain(tl->fabric, info, &tl->domain, NULL)) ||
        (what = "fi_av_open", rc = fi_av_open(tl->domain, &av, &tl->av, NULL)) ||
        (what = "fi_cq_open", rc = fi_cq_open(tl->domain, &cq, &tl->cq, NULL)) ||
        (what = "fi_endpoint", rc = fi_endpoint(tl->domain, info, &tl->ep, NULL)) ||
        (what = "fi_ep_bind(av)", rc = fi_ep_bind(tl->ep, &tl->av->fid, 0)) ||
        (what = "fi_ep_bind(cq)", rc = fi_ep_bind(tl->ep, &tl->cq->fid, FI_TRANSMIT | FI_RECV)) ||
        (what = "fi_enable", rc = fi_enable(tl->ep))) {
        rd_error("ofi", "%s (%s): %s", what, info->fabric_attr->prov_name, fi_strerror(-rc));
        tl->base.ops->close(&tl->base);
        return RD_ERR_IO;
    }
    char name[256];
    size_t nlen = sizeof(name);
    if ((rc = fi_getname(&tl->ep->fid, name, &nlen))) {
        rd_error("ofi", "fi_getname: %s", fi_strerror(-rc));
        tl->base.ops->close(&tl->base);
        return RD_ERR_IO;
    }
    tl->eps = calloc((size_t)job->size, sizeof(*tl->eps));
    tl->rx_seq = calloc((size_t)job->size, sizeof(*tl->rx_seq));
    tl->recvs = calloc(OFI_NRECV, sizeof(*tl->recvs));
    if (!tl->eps || !tl->rx_seq || !tl->recvs) {
        tl->base.ops->close(&tl->base);
        return RD_ERR_NOMEM;
    }
    if (tl->mr_local) {
        rd_status pst = setup_local_pools(tl);
        if (pst != RD_OK) {
            tl->base.ops->close(&tl->base);
            return pst;
        }
    }
    if (atomics_usable(tl) && setup_atomics(tl) != RD_OK) { /* (then without them) */
        if (tl->amo_mr)
            fi_close(&tl->amo_mr->fid);
        tl->amo_mr = NULL;
        free(tl->amos);
        tl->amos = tl->amo_free = NULL;
    }
    for (int i = 0; i < OFI_NRECV; i++)
        if (post_recv(tl, &tl->recvs[i]) != RD_OK) {
            tl->base.ops->close(&tl->base);
            return RD_ERR_IO;
        }
    rd_status st = rd_job_put(OFI_KEY, name, nlen);
    if (st != RD_OK) {
        tl->base.ops->close(&tl->base);
        return st;
    }
    rd_debug("ofi", "provider %s, domain %s, mr_mode 0x%x%s%s", info->fabric_attr->prov_name,
             info->domain_attr->name, (unsigned)info->domain_attr->mr_mode,
             tl->mr_local ? ", local buffers registered" : "", tl->amos ? ", atomics" : ", no atomics");
    tl->base.caps.am_max = OFI_AM_MAX;
    tl->base.caps.eager_limit = OFI_EAGER;
    tl->base.caps.rma = 1;
    tl->base.caps.needs_reg = 1;
    tl->base.caps.rkey_max = sizeof(struct ofi_rkey);
    tl->base.caps.atomics = tl->amos != NULL;
    tl->base.caps.latency_ns = 10000;
    tl->base.caps.bandwidth_mbs = 1000;
    *out = &tl->base;
    return RD_OK;
}

static int ofi_reachable(rd_tl *base, int peer)
{
    (void)base, (void)peer;
    return 1;
}

static rd_status ofi_connect(rd_tl *base, int peer, rd_ep **out)
{
    ofi_tl *tl = (ofi_tl *)base;
    if (tl->eps[peer]) {
        *out = &tl->eps[peer]->base;
        return RD_OK;
    }
    void *name;
    size_t nlen;
    rd_status st = rd_job_get(peer, OFI_KEY, &name, &nlen);
    if (st != RD_OK)
        return st;
    ofi_ep *e = calloc(1, sizeof(*e));
    if (!e) {
        free(name);
        return RD_ERR_NOMEM;
    }
    int rc = fi_av_insert(tl->av, name, 1, &e->addr, 0, NULL);
    free(name);
    if (rc != 1) {
        rd_error("ofi", "fi_av_insert of rank %d: %s", peer, rc < 0 ? fi_strerror(-rc) : "not inserted");
        free(e);
        return RD_ERR_UNREACH;
    }
    e->base.tl = base;
    e->base.peer = peer;
    tl->eps[peer] = e;
    *out = &e->base;
    return RD_OK;
}

static void send_release(ofi_tl *tl, struct ofi_send *s)
{
    if (s->pooled) {
        s->next = tl->send_free;
        tl->send_free = s;
    } else {
        free(s);
    }
}

static rd_status ofi_am_send(rd_ep *base, unsigned id, const void *hdr, size_t hlen, const void *data,
                             size_t len)
{
    ofi_ep *e = (ofi_ep *)base;
    ofi_tl *tl = (ofi_tl *)base->tl;
    struct ofi_hdr h = {tl->rank, id, (uint32_t)hlen, e->tx_seq};
    size_t total = sizeof(h) + hlen + len;
    struct ofi_send *s;
    /* (the contract: a pooled send buffer and the peer's receive buffers
     * hold no more) */
    if (hlen > RD_AM_HDR_MAX || hlen + len > OFI_AM_MAX)
        return RD_ERR_ARG;
    if (tl->mr_local) {
        if (!tl->send_free)
            return RD_ERR_AGAIN; /* every registered buffer is in flight */
        s = tl->send_free;
        tl->send_free = s->next;
    } else {
        s = malloc(sizeof(*s) + total);
        if (!s)
            return RD_ERR_NOMEM;
        s->pooled = 0;
    }
    s->c.kind = OFI_CTX_SEND;
    memcpy(s->buf, &h, sizeof(h));
    memcpy(s->buf + sizeof(h), hdr, hlen);
    if (len)
        memcpy(s->buf + sizeof(h) + hlen, data, len);
    ssize_t rc = fi_send(tl->ep, s->buf, total, tl->send_desc, e->addr, &s->c);
    if (rc == 0) {
        tl->inflight++;
        e->tx_seq++; /* (only a message the provider took has a number) */
        return RD_OK;
    }
    send_release(tl, s);
    if (rc == -FI_EAGAIN)
        return RD_ERR_AGAIN;
    rd_error("ofi", "fi_send to rank %d: %s", base->peer, fi_strerror((int)-rc));
    return RD_ERR_PEER;
}

static rd_status ofi_mem_reg(rd_tl *base, void *addr, size_t len, rd_mr **out, void *rkey, size_t *rkey_len)
{
    ofi_tl *tl = (ofi_tl *)base;
    static char one;
    struct rd_mr *mr = malloc(sizeof(*mr));
    if (!mr)
        return RD_ERR_NOMEM;
    void *a = len ? addr : &one;
    size_t l = len ? len : 1;
    int rc = fi_mr_reg(tl->domain, a, l, FI_READ | FI_WRITE | FI_REMOTE_READ | FI_REMOTE_WRITE, 0,
                       tl->prov_key ? 0 : tl->next_key++, 0, &mr->mr, NULL);
    if (!rc && tl->mr_endpoint) {
        rc = fi_mr_bind(mr->mr, &tl->ep->fid, 0);
        if (!rc)
            rc = fi_mr_enable(mr->mr);
    }
    if (rc) {
        rd_error("ofi", "fi_mr_reg of %zu bytes: %s", len, fi_strerror(-rc));
        free(mr);
        return RD_ERR_IO;
    }
    mr->base = (uint64_t)(uintptr_t)a;
    if (rkey) {
        struct ofi_rkey k = {fi_mr_key(mr->mr), mr->base};
        memcpy(rkey, &k, sizeof(k));
        *rkey_len = sizeof(k);
    }
    *out = mr;
    return RD_OK;
}

static void ofi_mem_dereg(rd_tl *base, rd_mr *mr)
{
    (void)base;
    if (!mr)
        return;
    fi_close(&mr->mr->fid);
    free(mr);
}

static rd_status rma(rd_ep *base, rd_rma_op *op, int is_put)
{
    ofi_ep *e = (ofi_ep *)base;
    ofi_tl *tl = (ofi_tl *)base->tl;
    struct ofi_rkey k;
    if (op->rkey_len != sizeof(k))
        return RD_ERR_INTERNAL;
    memcpy(&k, op->rkey, sizeof(k));
    struct ofi_rma *x = malloc(sizeof(*x));
    if (!x)
        return RD_ERR_NOMEM;
    x->c.kind = OFI_CTX_RMA;
    x->op = op;
    uint64_t raddr = tl->virt_addr ? op->remote_addr : op->remote_addr - k.base;
    void *desc = op->lmr ? fi_mr_desc(op->lmr->mr) : NULL;
    struct iovec iov = {.iov_base = op->local, .iov_len = op->len};
    struct fi_rma_iov riov = {.addr = raddr, .len = op->len, .key = k.key};
    struct fi_msg_rma msg = {.msg_iov = &iov, .desc = &desc, .iov_count = 1, .addr = e->addr,
                             .rma_iov = &riov, .rma_iov_count = 1, .context = &x->c};
    ssize_t rc;
    do {
        rc = is_put ? fi_writemsg(tl->ep, &msg, FI_COMPLETION | FI_DELIVERY_COMPLETE)
                    : fi_readmsg(tl->ep, &msg, FI_COMPLETION);
        if (rc == -FI_EAGAIN)
            tl->base.ops->progress(&tl->base);
    } while (rc == -FI_EAGAIN);
    if (rc) {
        rd_error("ofi", "%s of %zu bytes (rank %d): %s", is_put ? "fi_write" : "fi_read", op->len, base->peer,
                 fi_strerror((int)-rc));
        free(x);
        return RD_ERR_PEER;
    }
    tl->inflight++;
    return RD_OK;
}

static rd_status ofi_get(rd_ep *ep, rd_rma_op *op)
{
    return rma(ep, op, 0);
}

static rd_status ofi_put(rd_ep *ep, rd_rma_op *op)
{
    return rma(ep, op, 1);
}

/* 64-bit fetch-and-add (fi_fetch_atomic, FI_SUM) and compare-and-swap
 * (fi_compare_atomic, FI_CSWAP); the old value lands in op->result, so
 * the completion means the operation took place at the target. */
static rd_status ofi_atomic(rd_ep *base, rd_atomic_op *op)
{
    ofi_ep *e = (ofi_ep *)base;
    ofi_tl *tl = (ofi_tl *)base->tl;
    struct ofi_rkey k;
    if (!tl->base.caps.atomics)
        return RD_ERR_UNSUPPORTED;
    if (op->rkey_len != sizeof(k) || (op->remote_addr & 7) || (tl->mr_local && !op->lmr) ||
        (op->kind != RD_ATOMIC_FADD && op->kind != RD_ATOMIC_CSWAP))
        return RD_ERR_ARG;
    memcpy(&k, op->rkey, sizeof(k));
    if (!tl->amo_free) {
        tl->base.ops->progress(&tl->base);
        if (!tl->amo_free)
            return RD_ERR_AGAIN; /* OFI_NAMO in flight */
    }
    struct ofi_amo *x = tl->amo_free;
    tl->amo_free = x->next;
    x->op = op;
    x->operand = op->operand;
    x->compare = op->compare;
    uint64_t raddr = tl->virt_addr ? op->remote_addr : op->remote_addr - k.base;
    void *rdesc = op->lmr ? fi_mr_desc(op->lmr->mr) : NULL;
    ssize_t rc;
    do {
        rc = op->kind == RD_ATOMIC_FADD
                 ? fi_fetch_atomic(tl->ep, &x->operand, 1, tl->amo_desc, op->result, rdesc, e->addr, raddr, k.key,
                                   FI_UINT64, FI_SUM, &x->c)
                 : fi_compare_atomic(tl->ep, &x->operand, 1, tl->amo_desc, &x->compare, tl->amo_desc, op->result,
                                     rdesc, e->addr, raddr, k.key, FI_UINT64, FI_CSWAP, &x->c);
        if (rc == -FI_EAGAIN)
            tl->base.ops->progress(&tl->base);
    } while (rc == -FI_EAGAIN);
    if (rc) {
        rd_error("ofi", "%s on rank %d's memory: %s", op->kind == RD_ATOMIC_FADD ? "fi_fetch_atomic" : "fi_compare_atomic",
                 base->peer, fi_strerror((int)-rc));
        x->next = tl->amo_free;
        tl->amo_free = x;
        return RD_ERR_PEER;
    }
    tl->inflight++;
    return RD_OK;
}

/* Hand a received message to the handler and post its buffer again. */
static void deliver(ofi_tl *tl, struct ofi_recv *r, size_t len)
{
    struct ofi_hdr h;
    memcpy(&h, r->buf, sizeof(h));
    const unsigned char *p = r->buf + sizeof(h);
    tl->handler(tl->harg, h.src, h.id, p, h.hlen, p + h.hlen, len - sizeof(h) - h.hlen);
    post_recv(tl, r);
}

/* A receive completed: deliver it if it is its sender's next, then the
 * held ones that follow it; else hold it until its turn. */
static void arrived(ofi_tl *tl, struct ofi_recv *r, size_t len)
{
    struct ofi_hdr h;
    memcpy(&h, r->buf, sizeof(h));
    if (h.src < 0 || h.src >= tl->size) { /* (no sender of this job: the handler's to judge) */
        deliver(tl, r, len);
        return;
    }
    int src = h.src;
    if (h.seq != tl->rx_seq[src]) {
        r->len = len;
        r->next = tl->held;
        tl->held = r;
        tl->nheld++;
        tl->held_total++;
        return;
    }
    for (;;) {
        /* counted before the handler runs, so whatever it starts sees the
         * next number expected */
        tl->rx_seq[src]++;
        deliver(tl, r, len);
        if (!tl->nheld)
            return;
        struct ofi_recv **pp = &tl->held;
        while (*pp) {
            struct ofi_hdr hh;
            memcpy(&hh, (*pp)->buf, sizeof(hh));
            if (hh.src == src && hh.seq == tl->rx_seq[src])
                break;
            pp = &(*pp)->next;
        }
        if (!*pp)
            return;
        r = *pp;
        *pp = r->next;
        tl->nheld--;
        len = r->len;
    }
}

static void complete(ofi_tl *tl, struct ofi_ctx *c, size_t len, int ok)
{
    switch (c->kind) {
    case OFI_CTX_RECV: {
        struct ofi_recv *r = (struct ofi_recv *)c;
        if (ok && len >= sizeof(struct ofi_hdr))
            arrived(tl, r, len);
        else
            post_recv(tl, r);
        break;
    }
    case OFI_CTX_SEND:
        tl->inflight--;
        send_release(tl, (struct ofi_send *)c);
        break;
    case OFI_CTX_RMA: {
        struct ofi_rma *x = (struct ofi_rma *)c;
        rd_rma_op *op = x->op;
        tl->inflight--;
        free(x);
        op->done(op, ok ? RD_OK : RD_ERR_PEER);
        break;
    }
    case OFI_CTX_AMO: {
        struct ofi_amo *x = (struct ofi_amo *)c;
        rd_atomic_op *op = x->op;
        tl->inflight--;
        x->next = tl->amo_free;
        tl->amo_free = x;
        op->done(op, ok ? RD_OK : RD_ERR_PEER);
        break;
    }
    }
}

static int ofi_progress(rd_tl *base)
{
    ofi_tl *tl = (ofi_tl *)base;
    struct fi_cq_msg_entry ent[OFI_CQ_BATCH];
    int n = 0;
    for (;;) {
        ssize_t got = fi_cq_read(tl->cq, ent, OFI_CQ_BATCH);
        if (got == -FI_EAGAIN)
            break;
        if (got == -FI_EAVAIL) {
            struct fi_cq_err_entry err = {0};
            if (fi_cq_readerr(tl->cq, &err, 0) == 1) {
                rd_error("ofi", "operation failed: %s", fi_strerror(err.err));
                if (err.op_context)
                    complete(tl, err.op_context, 0, 0);
                n++;
            }
            continue;
        }
        if (got < 0) {
            rd_error("ofi", "fi_cq_read: %s", fi_strerror((int)-got));
            break;
        }
        for (ssize_t i = 0; i < got; i++)
            complete(tl, ent[i].op_context, ent[i].len, 1);
        n += (int)got;
        if (got < OFI_CQ_BATCH)
            break;
    }
    return n;
}

static int ofi_busy(rd_tl *base)
{
    return ((ofi_tl *)base)->inflight > 0;
}

static void ofi_close(rd_tl *base)
{
    ofi_tl *tl = (ofi_tl *)base;
    if (!tl)
        return;
    if (tl->held_total || tl->nheld)
        rd_debug("ofi", "%ld messages completed before their turn and were held (%ld still held at close)",
                 tl->held_total, tl->nheld);
    if (tl->ep)
        fi_close(&tl->ep->fid); /* cancels the posted receives */
    if (tl->recv_mr)
        fi_close(&tl->recv_mr->fid);
    if (tl->send_mr)
        fi_close(&tl->send_mr->fid);
    if (tl->amo_mr)
        fi_close(&tl->amo_mr->fid);
    free(tl->amos);
    free(tl->send_pool);
    if (tl->cq)
        fi_close(&tl->cq->fid);
    if (tl->av)
        fi_close(&tl->av->fid);
    if (tl->domain)
        fi_close(&tl->domain->fid);
    if (tl->fabric)
        fi_close(&tl->fabric->fid);
    if (tl->eps)
        for (int i = 0; i < tl->size; i++)
            free(tl->eps[i]);
    free(tl->eps);
    free(tl->rx_seq);
    free(tl->recvs);
    fi_freeinfo(tl->info);
    free(tl);
}

const struct rd_transport rd_transport_ofi = {
    .size = sizeof(struct rd_transport),
    .name = "ofi",
    .open = ofi_open,
    .activate = NULL,
    .reachable = ofi_reachable,
    .connect = ofi_connect,
    .am_send = ofi_am_send,
    .mem_reg = ofi_mem_reg,
    .mem_dereg = ofi_mem_dereg,
    .get = ofi_get,
    .put = ofi_put,
    .progress = ofi_progress,
    .close = ofi_close,
    .busy = ofi_busy,
    .network = 1,
    .atomic = ofi_atomic,
};

static const struct rd_transport *ofi_ops(void)
{
    return &rd_transport_ofi;
}

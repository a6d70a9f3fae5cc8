/*
 * ucx.c - the UCX transport: UCP (the public UCX API) under the transport
 * contract (transport.h).
 *
 * One UCP context and one single-threaded worker per process; the worker's
 * address is published through PMIx in open() and read by connect(), which
 * makes the UCP endpoint on first use of a peer. Active messages are UCP
 * active messages (one handler id) whose header carries the sender's rank,
 * the engine's message id and its header; they are sent eagerly (never by
 * UCX's own rendezvous), first straight from the caller's buffers asking
 * UCX to complete at once, and only when it cannot, from a copy that lives
 * until UCX is done with it. get/put are ucp_get_nbx/ucp_put_nbx on memory
 * mapped with ucp_mem_map and packed remote keys; a put completes (done())
 * only after an endpoint flush, so the data is in place at the target (the
 * contract's remote completion: the engine's FIN cannot overtake it, and the
 * one-sided floor's flush needs nothing more). atomic() is
 * ucp_atomic_op_nbx (64-bit add and compare-and-swap, UCP_FEATURE_AMO64):
 * device atomics where a lane reaches the memory (InfiniBand), else UCX's
 * software emulation over its active messages, run by the target's worker
 * from its progress (TCP: RDMPI_LOG=debug:ucx prints each endpoint's
 * lanes, and over TCP there is one, for active messages and RMA, no amo
 * lane). UCX picks the wire (tcp here, verbs on an RDMA cluster; UCX_TLS
 * and the other UCX_* variables are honoured).
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <ucp/api/ucp.h>

#include "runtime/base/log.h"
#include "transports/transport.h"

#define UCX_KEY "rdmpi.ucx.addr"
#define UCX_AM_ID 0
/* Suggested eager limit: over tcp an eager 64 KiB message takes about
 * half the time of UCX's rendezvous (47 against 81 us), at 128 KiB the
 * rendezvous wins (85 against 92 us). */
#define UCX_EAGER 65536
#define UCX_AM_MAX (UCX_EAGER + 1024) /* largest active message we send */
#define UCX_RKEY_MAX 256  /* the engine carries keys of at most this size */

/* on the wire, before the engine's header */
struct ucx_hdr {
    int32_t src;
    uint32_t id;
    uint32_t hlen;
};

typedef struct ucx_ep {
    rd_ep base;
    ucp_ep_h ep;
} ucx_ep;

typedef struct ucx_tl {
    rd_tl base;
    ucp_context_h ctx;
    ucp_worker_h worker;
    rd_am_handler handler;
    void *harg;
    int rank, size;
    ucx_ep **eps;   /* by world rank, made on first use */
    int events;     /* counted by the callbacks during one progress() */
    long inflight;  /* copied active messages and RMA operations not done yet */
} ucx_tl;

struct rd_mr {
    ucp_mem_h memh;
};

static const struct rd_transport *ucx_ops(void);

static ucs_status_t am_cb(void *arg, const void *header, size_t header_length, void *data,
                          size_t length, const ucp_am_recv_param_t *param)
{
    ucx_tl *tl = arg;
    struct ucx_hdr h;
    if (header_length < sizeof(h)) {
        rd_error("ucx", "malformed active message (%zu header bytes)", header_length);
        return UCS_OK;
    }
    memcpy(&h, header, sizeof(h));
    if (h.hlen > RD_AM_HDR_MAX || header_length < sizeof(h) + h.hlen) {
        rd_error("ucx", "malformed active message (%zu header bytes, %u announced)", header_length, h.hlen);
        return UCS_OK;
    }
    /* UCX's header may lie at any address; the engine reads its header in
     * place (transport.h): hand it an aligned copy */
    union {
        unsigned char b[RD_AM_HDR_MAX];
        uint64_t align;
    } eh;
    memcpy(eh.b, (const char *)header + sizeof(h), h.hlen);
    tl->events++;
    if (param->recv_attr & UCP_AM_RECV_ATTR_FLAG_RNDV) {
        /* rndv_send's announcement: UCX keeps the descriptor until
         * rndv_recv or rndv_drop */
        tl->handler(tl->harg, h.src, h.id | RD_AM_RNDV, eh.b, h.hlen, data, length);
        return UCS_INPROGRESS;
    }
    tl->handler(tl->harg, h.src, h.id, eh.b, h.hlen, data, length);
    return UCS_OK;
}

static rd_status ucx_open(const struct rd_job *job, const unsigned char *peers, rd_am_handler handler, void *harg,
                          rd_tl **out)
{
    (void)peers; /* (endpoints are made on first use) */
    ucp_config_t *config;
    ucs_status_t s = ucp_config_read(NULL, NULL, &config);
    if (s != UCS_OK) {
        rd_debug("ucx", "ucp_config_read: %s", ucs_status_string(s));
        return RD_ERR_UNSUPPORTED;
    }
    ucx_tl *tl = calloc(1, sizeof(*tl));
    if (!tl) {
        ucp_config_release(config);
        return RD_ERR_NOMEM;
    }
    tl->base.ops = ucx_ops();
    tl->handler = handler;
    tl->harg = harg;
    tl->rank = job->rank;
    tl->size = job->size;
    /* 64-bit atomics where UCX has them (on every wire it has: device
     * atomics, or its software emulation over active messages, which the
     * target's worker runs from its progress); a context without them
     * still carries everything else */
    ucp_params_t params = {.field_mask = UCP_PARAM_FIELD_FEATURES,
                           .features = UCP_FEATURE_AM | UCP_FEATURE_RMA | UCP_FEATURE_AMO64};
    s = ucp_init(&params, config, &tl->ctx);
    if (s != UCS_OK) {
        rd_debug("ucx", "ucp_init with 64-bit atomics: %s; without them", ucs_status_string(s));
        params.features &= ~(uint64_t)UCP_FEATURE_AMO64;
        s = ucp_init(&params, config, &tl->ctx);
    }
    ucp_config_release(config);
    if (s != UCS_OK) {
        rd_debug("ucx", "ucp_init: %s", ucs_status_string(s));
        free(tl);
        return RD_ERR_UNSUPPORTED;
    }
    ucp_worker_params_t wp = {.field_mask = UCP_WORKER_PARAM_FIELD_THREAD_MODE,
                              .thread_mode = UCS_THREAD_MODE_SINGLE};
    s = ucp_worker_create(tl->ctx, &wp, &tl->worker);
    if (s != UCS_OK) {
        rd_error("ucx", "ucp_worker_create: %s", ucs_status_string(s));
        goto err_ctx;
    }
    ucp_am_handler_param_t hp = {.field_mask = UCP_AM_HANDLER_PARAM_FIELD_ID | UCP_AM_HANDLER_PARAM_FIELD_CB |
                                               UCP_AM_HANDLER_PARAM_FIELD_ARG,
                                 .id = UCX_AM_ID, .cb = am_cb, .arg = tl};
    s = ucp_worker_set_am_recv_handler(tl->worker, &hp);
    if (s != UCS_OK) {
        rd_error("ucx", "ucp_worker_set_am_recv_handler: %s", ucs_status_string(s));
        goto err_worker;
    }
    tl->eps = calloc((size_t)job->size, sizeof(*tl->eps));
    if (!tl->eps)
        goto err_worker;
    ucp_address_t *addr;
    size_t alen;
    s = ucp_worker_get_address(tl->worker, &addr, &alen);
    if (s != UCS_OK) {
        rd_error("ucx", "ucp_worker_get_address: %s", ucs_status_string(s));
        goto err_eps;
    }
    rd_status st = rd_job_put(UCX_KEY, addr, alen);
    ucp_worker_release_address(tl->worker, addr);
    if (st != RD_OK)
        goto err_eps;
    tl->base.caps.am_max = UCX_AM_MAX;
    tl->base.caps.eager_limit = UCX_EAGER;
    tl->base.caps.rma = 1;
    tl->base.caps.needs_reg = 1;
    tl->base.caps.rkey_max = UCX_RKEY_MAX;
    tl->base.caps.own_rndv = 1;
    tl->base.caps.atomics = (params.features & UCP_FEATURE_AMO64) != 0;
    tl->base.caps.latency_ns = 5000;
    tl->base.caps.bandwidth_mbs = 1000;
    *out = &tl->base;
    return RD_OK;

err_eps:
    free(tl->eps);
err_worker:
    ucp_worker_destroy(tl->worker);
err_ctx:
    ucp_cleanup(tl->ctx);
    free(tl);
    return RD_ERR_IO;
}

static int ucx_reachable(rd_tl *base, int peer)
{
    (void)base, (void)peer;
    return 1;
}

static rd_status ucx_connect(rd_tl *base, int peer, rd_ep **out)
{
    ucx_tl *tl = (ucx_tl *)base;
    if (tl->eps[peer]) {
        *out = &tl->eps[peer]->base;
        return RD_OK;
    }
    void *addr;
    size_t alen;
    rd_status st = rd_job_get(peer, UCX_KEY, &addr, &alen);
    if (st != RD_OK)
        return st;
    ucx_ep *e = calloc(1, sizeof(*e));
    if (!e) {
        free(addr);
        return RD_ERR_NOMEM;
    }
    ucp_ep_params_t ep = {.field_mask = UCP_EP_PARAM_FIELD_REMOTE_ADDRESS, .address = addr};
    ucs_status_t s = ucp_ep_create(tl->worker, &ep, &e->ep);
    free(addr);
    if (s != UCS_OK) {
        rd_error("ucx", "ucp_ep_create to rank %d: %s", peer, ucs_status_string(s));
        free(e);
        return RD_ERR_UNREACH;
    }
    e->base.tl = base;
    e->base.peer = peer;
    tl->eps[peer] = e;
    if (RD_LOG_DEBUG <= rd_log_threshold && rd_log_component_enabled("ucx")) {
        /* the lanes UCX chose (am, rma, amo: which wire, device or software) */
        rd_debug("ucx", "endpoint to rank %d:", peer);
        ucp_ep_print_info(e->ep, stderr);
    }
    *out = &e->base;
    return RD_OK;
}

/* the copy of a message UCX could not send at once: its first bytes
 * point back at the transport */
static void copy_sent(void *request, ucs_status_t status, void *user_data)
{
    ucx_tl *tl = *(ucx_tl **)user_data;
    if (status != UCS_OK)
        rd_error("ucx", "active message failed: %s", ucs_status_string(status));
    tl->inflight--;
    tl->events++;
    free(user_data);
    ucp_request_free(request);
}

/* our header, then the engine's: the length of both */
static size_t ucx_header(unsigned char *h, const ucx_tl *tl, unsigned id, const void *hdr, size_t hlen)
{
    struct ucx_hdr uh = {tl->rank, id, (uint32_t)hlen};
    memcpy(h, &uh, sizeof(uh));
    memcpy(h + sizeof(uh), hdr, hlen);
    return sizeof(uh) + hlen;
}

static rd_status ucx_am_send(rd_ep *base, unsigned id, const void *hdr, size_t hlen, const void *data,
                             size_t len)
{
    ucx_ep *e = (ucx_ep *)base;
    ucx_tl *tl = (ucx_tl *)base->tl;
    unsigned char h[sizeof(struct ucx_hdr) + RD_AM_HDR_MAX];
    if (hlen > RD_AM_HDR_MAX || hlen + len > UCX_AM_MAX) /* (the contract; h holds no more) */
        return RD_ERR_ARG;
    size_t total = ucx_header(h, tl, id, hdr, hlen);
    /* straight from the caller's buffers, if UCX can finish at once */
    ucp_request_param_t p = {.op_attr_mask = UCP_OP_ATTR_FIELD_FLAGS | UCP_OP_ATTR_FLAG_FORCE_IMM_CMPL,
                             .flags = UCP_AM_SEND_FLAG_EAGER};
    ucs_status_ptr_t r = ucp_am_send_nbx(e->ep, UCX_AM_ID, h, total, data, len, &p);
    if (r == NULL)
        return RD_OK;
    if (UCS_PTR_IS_ERR(r) && UCS_PTR_STATUS(r) != UCS_ERR_NO_RESOURCE) {
        rd_error("ucx", "active message to rank %d: %s", base->peer, ucs_status_string(UCS_PTR_STATUS(r)));
        return RD_ERR_PEER;
    }
    /* else from a copy that lives until UCX is done */
    size_t at = sizeof(ucx_tl *);
    unsigned char *copy = malloc(at + total + len);
    if (!copy)
        return RD_ERR_NOMEM;
    memcpy(copy, &tl, sizeof(tl));
    memcpy(copy + at, h, total);
    if (len)
        memcpy(copy + at + total, data, len);
    ucp_request_param_t q = {.op_attr_mask = UCP_OP_ATTR_FIELD_FLAGS | UCP_OP_ATTR_FIELD_CALLBACK |
                                             UCP_OP_ATTR_FIELD_USER_DATA,
                             .flags = UCP_AM_SEND_FLAG_EAGER, .cb.send = copy_sent, .user_data = copy};
    r = ucp_am_send_nbx(e->ep, UCX_AM_ID, copy + at, total, copy + at + total, len, &q);
    if (r == NULL) {
        free(copy);
        return RD_OK;
    }
    if (!UCS_PTR_IS_ERR(r)) {
        tl->inflight++;
        return RD_OK;
    }
    free(copy);
    rd_error("ucx", "active message to rank %d: %s", base->peer, ucs_status_string(UCS_PTR_STATUS(r)));
    return RD_ERR_PEER;
}

static rd_status ucx_mem_reg(rd_tl *base, void *addr, size_t len, rd_mr **out, void *rkey, size_t *rkey_len)
{
    ucx_tl *tl = (ucx_tl *)base;
    static char one;
    struct rd_mr *mr = malloc(sizeof(*mr));
    if (!mr)
        return RD_ERR_NOMEM;
    ucp_mem_map_params_t mp = {.field_mask = UCP_MEM_MAP_PARAM_FIELD_ADDRESS | UCP_MEM_MAP_PARAM_FIELD_LENGTH,
                               .address = len ? addr : &one, .length = len ? len : 1};
    ucs_status_t s = ucp_mem_map(tl->ctx, &mp, &mr->memh);
    if (s != UCS_OK) {
        rd_error("ucx", "ucp_mem_map of %zu bytes: %s", len, ucs_status_string(s));
        free(mr);
        return RD_ERR_IO;
    }
    if (rkey) {
        void *packed;
        size_t plen;
        s = ucp_rkey_pack(tl->ctx, mr->memh, &packed, &plen);
        if (s != UCS_OK || plen > UCX_RKEY_MAX) {
            rd_error("ucx", "ucp_rkey_pack: %s (%zu bytes, at most %d)",
                     s != UCS_OK ? ucs_status_string(s) : "key too long", s == UCS_OK ? plen : 0, UCX_RKEY_MAX);
            if (s == UCS_OK)
                ucp_rkey_buffer_release(packed);
            ucp_mem_unmap(tl->ctx, mr->memh);
            free(mr);
            return RD_ERR_IO;
        }
        memcpy(rkey, packed, plen);
        *rkey_len = plen;
        ucp_rkey_buffer_release(packed);
    }
    *out = mr;
    return RD_OK;
}

static void ucx_mem_dereg(rd_tl *base, rd_mr *mr)
{
    ucx_tl *tl = (ucx_tl *)base;
    if (!mr)
        return;
    ucp_mem_unmap(tl->ctx, mr->memh);
    free(mr);
}

/* An RDMA operation in flight: the engine's op, the unpacked key, the
 * endpoint (a put flushes it before it is done). */
struct ucx_rma {
    rd_rma_op *op;
    ucp_rkey_h rkey;
    ucx_ep *ep;
    ucx_tl *tl;
};

static void rma_finish(struct ucx_rma *x, ucs_status_t status)
{
    rd_rma_op *op = x->op;
    ucp_rkey_destroy(x->rkey);
    x->tl->events++;
    x->tl->inflight--;
    free(x);
    op->done(op, status == UCS_OK ? RD_OK : RD_ERR_PEER);
}

static void flushed(void *request, ucs_status_t status, void *user_data)
{
    rma_finish(user_data, status);
    ucp_request_free(request);
}

/* the put's data is out: flush, so that it is in place at the peer */
static void put_flush(struct ucx_rma *x)
{
    ucp_request_param_t p = {.op_attr_mask = UCP_OP_ATTR_FIELD_CALLBACK | UCP_OP_ATTR_FIELD_USER_DATA,
                             .cb.send = flushed, .user_data = x};
    ucs_status_ptr_t r = ucp_ep_flush_nbx(x->ep->ep, &p);
    if (r == NULL)
        rma_finish(x, UCS_OK);
    else if (UCS_PTR_IS_ERR(r))
        rma_finish(x, UCS_PTR_STATUS(r));
}

static void put_done(void *request, ucs_status_t status, void *user_data)
{
    ucp_request_free(request);
    if (status != UCS_OK)
        rma_finish(user_data, status);
    else
        put_flush(user_data);
}

static void get_done(void *request, ucs_status_t status, void *user_data)
{
    ucp_request_free(request);
    rma_finish(user_data, status);
}

static rd_status rma(rd_ep *base, rd_rma_op *op, int is_put)
{
    ucx_ep *e = (ucx_ep *)base;
    struct ucx_rma *x = malloc(sizeof(*x));
    if (!x)
        return RD_ERR_NOMEM;
    x->op = op;
    x->ep = e;
    x->tl = (ucx_tl *)base->tl;
    x->tl->inflight++;
    ucs_status_t s = ucp_ep_rkey_unpack(e->ep, op->rkey, &x->rkey);
    if (s != UCS_OK) {
        rd_error("ucx", "ucp_ep_rkey_unpack (rank %d): %s", base->peer, ucs_status_string(s));
        x->tl->inflight--;
        free(x);
        return RD_ERR_PEER;
    }
    ucp_request_param_t p = {.op_attr_mask = UCP_OP_ATTR_FIELD_CALLBACK | UCP_OP_ATTR_FIELD_USER_DATA |
                                             UCP_OP_ATTR_FIELD_MEMH,
                             .cb.send = is_put ? put_done : get_done, .user_data = x,
                             .memh = op->lmr ? op->lmr->memh : NULL};
    if (!op->lmr)
        p.op_attr_mask &= ~(uint32_t)UCP_OP_ATTR_FIELD_MEMH;
    ucs_status_ptr_t r = is_put ? ucp_put_nbx(e->ep, op->local, op->len, op->remote_addr, x->rkey, &p)
                                : ucp_get_nbx(e->ep, op->local, op->len, op->remote_addr, x->rkey, &p);
    if (r == NULL) {
        if (is_put)
            put_flush(x);
        else
            rma_finish(x, UCS_OK);
        return RD_OK;
    }
    if (UCS_PTR_IS_ERR(r)) {
        rd_error("ucx", "%s of %zu bytes (rank %d): %s", is_put ? "put" : "get", op->len, base->peer,
                 ucs_status_string(UCS_PTR_STATUS(r)));
        ucp_rkey_destroy(x->rkey);
        x->tl->inflight--;
        free(x);
        return RD_ERR_PEER;
    }
    return RD_OK;
}

static rd_status ucx_get(rd_ep *ep, rd_rma_op *op)
{
    return rma(ep, op, 0);
}

static rd_status ucx_put(rd_ep *ep, rd_rma_op *op)
{
    return rma(ep, op, 1);
}

/* ------------------------------------------------------------ atomics */

/* An atomic in flight: the engine's op and the unpacked key. */
struct ucx_amo {
    rd_atomic_op *op;
    ucp_rkey_h rkey;
    ucx_tl *tl;
    int peer;
};

static void amo_finish(struct ucx_amo *x, ucs_status_t status)
{
    rd_atomic_op *op = x->op;
    if (status != UCS_OK)
        rd_error("ucx", "atomic on rank %d's memory: %s", x->peer, ucs_status_string(status));
    ucp_rkey_destroy(x->rkey);
    x->tl->events++;
    x->tl->inflight--;
    free(x);
    op->done(op, status == UCS_OK ? RD_OK : RD_ERR_PEER);
}

static void amo_done(void *request, ucs_status_t status, void *user_data)
{
    ucp_request_free(request);
    amo_finish(user_data, status);
}

/* Fetch-and-add and compare-and-swap of 64 bits: ucp_atomic_op_nbx with
 * the old value into op->result (for CSWAP UCX takes the new value from
 * there too). The result is the target's value when UCX replies, so done()
 * means the operation took place at the target. */
static rd_status ucx_atomic(rd_ep *base, rd_atomic_op *op)
{
    ucx_ep *e = (ucx_ep *)base;
    ucx_tl *tl = (ucx_tl *)base->tl;
    if (!tl->base.caps.atomics)
        return RD_ERR_UNSUPPORTED;
    if ((op->remote_addr & 7) || ((uintptr_t)op->result & 7) ||
        (op->kind != RD_ATOMIC_FADD && op->kind != RD_ATOMIC_CSWAP))
        return RD_ERR_ARG;
    struct ucx_amo *x = malloc(sizeof(*x));
    if (!x)
        return RD_ERR_NOMEM;
    ucs_status_t s = ucp_ep_rkey_unpack(e->ep, op->rkey, &x->rkey);
    if (s != UCS_OK) {
        rd_error("ucx", "ucp_ep_rkey_unpack (rank %d): %s", base->peer, ucs_status_string(s));
        free(x);
        return RD_ERR_PEER;
    }
    x->op = op;
    x->tl = tl;
    x->peer = base->peer;
    tl->inflight++;
    ucp_request_param_t p = {.op_attr_mask = UCP_OP_ATTR_FIELD_CALLBACK | UCP_OP_ATTR_FIELD_USER_DATA |
                                             UCP_OP_ATTR_FIELD_DATATYPE | UCP_OP_ATTR_FIELD_REPLY_BUFFER,
                             .cb.send = amo_done, .user_data = x, .datatype = ucp_dt_make_contig(8),
                             .reply_buffer = op->result};
    ucs_status_ptr_t r;
    if (op->kind == RD_ATOMIC_FADD) {
        r = ucp_atomic_op_nbx(e->ep, UCP_ATOMIC_OP_ADD, &op->operand, 1, op->remote_addr, x->rkey, &p);
    } else {
        *op->result = op->operand; /* (CSWAP: the value to swap in goes in the reply buffer) */
        r = ucp_atomic_op_nbx(e->ep, UCP_ATOMIC_OP_CSWAP, &op->compare, 1, op->remote_addr, x->rkey, &p);
    }
    if (r == NULL) {
        amo_finish(x, UCS_OK);
        return RD_OK;
    }
    if (UCS_PTR_IS_ERR(r)) {
        rd_error("ucx", "atomic on rank %d's memory: %s", base->peer, ucs_status_string(UCS_PTR_STATUS(r)));
        ucp_rkey_destroy(x->rkey);
        tl->inflight--;
        free(x);
        return UCS_PTR_STATUS(r) == UCS_ERR_UNSUPPORTED ? RD_ERR_UNSUPPORTED : RD_ERR_PEER;
    }
    return RD_OK;
}

/* ------------------------------------------------------------ UCX's own rendezvous */

/* A rendezvous send in flight: the header lives as long as the send. */
struct ucx_rndv {
    ucx_tl *tl;
    rd_rma_op *op;
    unsigned char h[sizeof(struct ucx_hdr) + RD_AM_HDR_MAX];
};

static void rndv_finish(ucx_tl *tl, rd_rma_op *op, ucs_status_t status, const char *what, int peer)
{
    if (status != UCS_OK)
        rd_error("ucx", "rendezvous %s rank %d: %s", what, peer, ucs_status_string(status));
    tl->events++;
    tl->inflight--;
    op->done(op, status == UCS_OK ? RD_OK : RD_ERR_PEER);
}

static void rndv_sent(void *request, ucs_status_t status, void *user_data)
{
    struct ucx_rndv *x = user_data;
    ucx_tl *tl = x->tl;
    rd_rma_op *op = x->op;
    free(x);
    ucp_request_free(request);
    rndv_finish(tl, op, status, "send to", -1);
}

/* The header goes by active message; UCX moves the data once the receiver
 * asks for it (ucp_am_recv_data_nbx), by RDMA where the lanes allow it. */
static rd_status ucx_rndv_send(rd_ep *base, unsigned id, const void *hdr, size_t hlen, rd_rma_op *op)
{
    ucx_ep *e = (ucx_ep *)base;
    ucx_tl *tl = (ucx_tl *)base->tl;
    if (hlen > RD_AM_HDR_MAX)
        return RD_ERR_ARG;
    struct ucx_rndv *x = malloc(sizeof(*x));
    if (!x)
        return RD_ERR_NOMEM;
    x->tl = tl;
    x->op = op;
    size_t total = ucx_header(x->h, tl, id, hdr, hlen);
    ucp_request_param_t p = {.op_attr_mask = UCP_OP_ATTR_FIELD_FLAGS | UCP_OP_ATTR_FIELD_CALLBACK |
                                             UCP_OP_ATTR_FIELD_USER_DATA,
                             .flags = UCP_AM_SEND_FLAG_RNDV, .cb.send = rndv_sent, .user_data = x};
    tl->inflight++;
    ucs_status_ptr_t r = ucp_am_send_nbx(e->ep, UCX_AM_ID, x->h, total, op->local, op->len, &p);
    if (UCS_PTR_IS_PTR(r))
        return RD_OK;
    free(x);
    if (r == NULL) { /* (not expected: the receiver has not asked yet) */
        rndv_finish(tl, op, UCS_OK, "send to", base->peer);
        return RD_OK;
    }
    tl->inflight--;
    rd_error("ucx", "rendezvous send of %zu bytes to rank %d: %s", op->len, base->peer,
             ucs_status_string(UCS_PTR_STATUS(r)));
    return RD_ERR_PEER;
}

static void rndv_received(void *request, ucs_status_t status, size_t length, void *user_data)
{
    struct ucx_rndv *x = user_data;
    ucx_tl *tl = x->tl;
    rd_rma_op *op = x->op;
    (void)length;
    free(x);
    ucp_request_free(request);
    rndv_finish(tl, op, status, "receive from", -1);
}

static rd_status ucx_rndv_recv(rd_tl *base, void *desc, rd_rma_op *op)
{
    ucx_tl *tl = (ucx_tl *)base;
    struct ucx_rndv *x = malloc(sizeof(*x));
    if (!x) {
        ucp_am_data_release(tl->worker, desc);
        return RD_ERR_NOMEM;
    }
    x->tl = tl;
    x->op = op;
    ucp_request_param_t p = {.op_attr_mask = UCP_OP_ATTR_FIELD_CALLBACK | UCP_OP_ATTR_FIELD_USER_DATA,
                             .cb.recv_am = rndv_received, .user_data = x};
    tl->inflight++;
    ucs_status_ptr_t r = ucp_am_recv_data_nbx(tl->worker, desc, op->local, op->len, &p);
    if (UCS_PTR_IS_PTR(r))
        return RD_OK;
    free(x);
    rndv_finish(tl, op, r == NULL ? UCS_OK : UCS_PTR_STATUS(r), "receive from", -1);
    return RD_OK;
}

static void ucx_rndv_drop(rd_tl *base, void *desc)
{
    ucp_am_data_release(((ucx_tl *)base)->worker, desc);
}

static int ucx_progress(rd_tl *base)
{
    ucx_tl *tl = (ucx_tl *)base;
    tl->events = 0;
    unsigned n = ucp_worker_progress(tl->worker);
    return tl->events + (n > 0);
}

static int ucx_busy(rd_tl *base)
{
    return ((ucx_tl *)base)->inflight > 0;
}

static void ucx_close(rd_tl *base)
{
    ucx_tl *tl = (ucx_tl *)base;
    if (!tl)
        return;
    for (int i = 0; i < tl->size; i++) {
        if (!tl->eps[i])
            continue;
        ucp_request_param_t p = {.op_attr_mask = UCP_OP_ATTR_FIELD_FLAGS, .flags = UCP_EP_CLOSE_FLAG_FORCE};
        ucs_status_ptr_t r = ucp_ep_close_nbx(tl->eps[i]->ep, &p);
        if (UCS_PTR_IS_PTR(r)) {
            while (ucp_request_check_status(r) == UCS_INPROGRESS)
                ucp_worker_progress(tl->worker);
            ucp_request_free(r);
        }
        free(tl->eps[i]);
    }
    free(tl->eps);
    ucp_worker_destroy(tl->worker);
    ucp_cleanup(tl->ctx);
    free(tl);
}

const struct rd_transport rd_transport_ucx = {
    .size = sizeof(struct rd_transport),
    .name = "ucx",
    .open = ucx_open,
    .activate = NULL,
    .reachable = ucx_reachable,
    .connect = ucx_connect,
    .am_send = ucx_am_send,
    .mem_reg = ucx_mem_reg,
    .mem_dereg = ucx_mem_dereg,
    .get = ucx_get,
    .put = ucx_put,
    .rndv_send = ucx_rndv_send,
    .rndv_recv = ucx_rndv_recv,
    .rndv_drop = ucx_rndv_drop,
    .progress = ucx_progress,
    .close = ucx_close,
    .busy = ucx_busy,
    .network = 1,
    .atomic = ucx_atomic,
};

static const struct rd_transport *ucx_ops(void)
{
    return &rd_transport_ucx;
}

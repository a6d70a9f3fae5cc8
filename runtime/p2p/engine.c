/* engine.c - the point-to-point engine: peers and their transports,
 * matching, and the protocols (eager, rendezvous by get, put or pipeline).
 *
 * Every arriving matching message goes through arrive(): strictly in
 * per-peer sequence order, it either matches the oldest fitting posted
 * receive of its context or joins the context's unexpected queue. Work that
 * must send something (acknowledgements, CTS, FIN, fragments, and any send
 * a transport had no room for) goes into the peer's FIFO of pending work,
 * flushed at the end of each progress call; active-message handlers never
 * call back into a transport. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "runtime/base/job.h"
#include "runtime/base/log.h"
#include "runtime/base/nodemem.h"
#include "runtime/base/params.h"
#include "runtime/base/report.h"
#include "runtime/objects/comm.h"
#include "runtime/objects/datatype.h"
#include "runtime/p2p/p2p.h"
#include "runtime/p2p/tl_load.h"
#include "runtime/p2p/wire.h"

#define RD_MSG_MAGIC 0x4d736721u

/* An arrived message nobody has asked for yet; also what MPI_Message is. */
struct rd_message_s {
    uint32_t magic;
    struct rd_message_s *next;
    uint32_t ctx;
    int src, tag, wsrc;
    unsigned id;       /* RD_AM_EAGER, RD_AM_EAGER_SYNC or RD_AM_RTS */
    uint32_t proto;
    uint32_t seq;      /* only for the out-of-order stash */
    size_t len;        /* message bytes */
    uint64_t sreq, addr;
    size_t data_len;   /* eager payload, or the RTS's rkey */
    unsigned char data[];
};

struct rd_message_s rd_mpi_message_no_proc = {.magic = RD_MSG_MAGIC};

struct rd_ctxq {
    struct rd_request_s *posted_head, *posted_tail;
    struct rd_message_s *unexp_head, *unexp_tail;
};

enum rd_pend_kind {
    PEND_CTRL, PEND_MSG, PEND_FRAGS, PEND_GET, PEND_PUT,
    PEND_TL_SEND, /* the transport's own rendezvous: announce the data (hdr) */
    PEND_TL_RECV, /* ... and fetch it (the descriptor in req->remote) */
    PEND_TL_DROP  /* ... or decline it (the descriptor in data) */
};

struct rd_pend {
    struct rd_pend *next;
    int kind;
    unsigned id;
    size_t hlen;
    unsigned char hdr[RD_AM_HDR_MAX];
    const void *data;  /* PEND_CTRL: points into own_data; PEND_MSG: the payload */
    size_t len;
    void *own_data;
    struct rd_request_s *req;
};

struct rd_peer {
    rd_ep *ep;
    uint32_t send_seq, recv_seq;
    struct rd_pend *pend_head, *pend_tail;
    struct rd_message_s *ooo; /* arrived ahead of sequence, sorted */
    int listed;               /* in the flush list */
    size_t eager_limit;
    int rndv;
};

#define RD_MAX_TLS 8

static struct {
    rd_tl *tls[RD_MAX_TLS];
    int ntls;
    struct rd_peer *peers;
    int *flush_list;
    int nflush;
    struct rd_ctxq **ctxq;
    uint32_t nctx;
    void *scratch;      /* packing area for fragments and eager sends */
    size_t scratch_len;
    int in_handler;
} E;

/* ------------------------------------------------------------ helpers */

static struct rd_ctxq *ctxq_grow(uint32_t ctx);

static inline struct rd_ctxq *ctxq(uint32_t ctx)
{
    if (ctx < E.nctx && E.ctxq[ctx])
        return E.ctxq[ctx];
    return ctxq_grow(ctx);
}

static struct rd_ctxq *ctxq_grow(uint32_t ctx)
{
    if (ctx >= E.nctx) {
        uint32_t n = E.nctx ? E.nctx : 16;
        while (n <= ctx)
            n *= 2;
        struct rd_ctxq **q = realloc(E.ctxq, n * sizeof(*q));
        if (!q)
            return NULL;
        memset(q + E.nctx, 0, (n - E.nctx) * sizeof(*q));
        E.ctxq = q;
        E.nctx = n;
    }
    if (!E.ctxq[ctx])
        E.ctxq[ctx] = calloc(1, sizeof(struct rd_ctxq));
    return E.ctxq[ctx];
}

static inline int env_matches(int want_src, int want_tag, int src, int tag)
{
    return (want_src == MPI_ANY_SOURCE || want_src == src) &&
           (want_tag == MPI_ANY_TAG || want_tag == tag ||
            (want_tag < RD_TAG_COLL_END && (want_tag | RD_TAG_POISON) == tag)); /* (comm.h) */
}

static void list_peer(int w)
{
    if (!E.peers[w].listed) {
        E.peers[w].listed = 1;
        E.flush_list[E.nflush++] = w;
    }
}

static void pend_push(int w, struct rd_pend *pd)
{
    struct rd_peer *p = &E.peers[w];
    pd->next = NULL;
    if (p->pend_tail)
        p->pend_tail->next = pd;
    else
        p->pend_head = pd;
    p->pend_tail = pd;
    list_peer(w);
}

static rd_status queue_ctrl(int w, unsigned id, const struct rd_wire_ctrl *c, const void *data,
                            size_t len)
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
    pend_push(w, pd);
    return RD_OK;
}

static rd_status queue_req(int w, int kind, struct rd_request_s *req)
{
    struct rd_pend *pd = calloc(1, sizeof(*pd));
    if (!pd)
        return RD_ERR_NOMEM;
    pd->kind = kind;
    pd->req = req;
    pend_push(w, pd);
    return RD_OK;
}

/* ------------------------------------------------------------ peers */

static int tl_allowed(const char *name, int *order)
{
    const char *list = rd_param.transports;
    if (!list || !*list) {
        *order = 0;
        return 1;
    }
    size_t n = strlen(name);
    int idx = 0;
    for (const char *p = list; *p;) {
        const char *e = strchr(p, ',');
        size_t l = e ? (size_t)(e - p) : strlen(p);
        if (l == n && strncmp(p, name, n) == 0) {
            *order = idx;
            return 1;
        }
        idx++;
        p = e ? e + 1 : p + l;
    }
    return 0;
}

static rd_status connect_peer(int w)
{
    struct rd_peer *p = &E.peers[w];
    for (int i = 0; i < E.ntls; i++) {
        rd_tl *tl = E.tls[i];
        if (!tl->ops->reachable(tl, w))
            continue;
        rd_status st = tl->ops->connect(tl, w, &p->ep);
        if (st != RD_OK) {
            rd_error("p2p", "%s cannot connect to rank %d: %s", tl->ops->name, w,
                     rd_status_string(st));
            return st;
        }
        size_t lim = rd_param.eager_limit > 0 ? (size_t)rd_param.eager_limit : tl->caps.eager_limit;
        size_t max = tl->caps.am_max > sizeof(struct rd_wire_sync) ? tl->caps.am_max - sizeof(struct rd_wire_sync) : 0;
        p->eager_limit = lim < max ? lim : max;
        int want = (int)rd_param.rndv_protocol; /* get|put|pipeline|split|transport|auto */
        if (want == RD_RNDV_AUTO || want == RD_RNDV_TRANSPORT)
            want = tl->caps.own_rndv ? RD_RNDV_TRANSPORT : RD_RNDV_AUTO;
        p->rndv = !tl->caps.rma && want != RD_RNDV_TRANSPORT ? RD_RNDV_PIPELINE : want;
        rd_debug("p2p", "rank %d via %s: eager up to %zu B, rendezvous by %s", w, tl->ops->name,
                 p->eager_limit, p->rndv == RD_RNDV_GET ? "get" : p->rndv == RD_RNDV_PUT ? "put"
                 : p->rndv == RD_RNDV_PIPELINE ? "pipeline" : p->rndv == RD_RNDV_SPLIT ? "split"
                 : p->rndv == RD_RNDV_TRANSPORT ? "the transport's own" : "auto");
        return RD_OK;
    }
    rd_error("p2p", "no transport reaches rank %d (RDMPI_TRANSPORTS='%s')", w, rd_param.transports);
    return RD_ERR_UNREACH;
}

static inline struct rd_peer *peer_of(int w, rd_status *st)
{
    struct rd_peer *p = &E.peers[w];
    *st = p->ep ? RD_OK : connect_peer(w);
    return p;
}

/* ------------------------------------------------------------ completion */

static void finish_send(struct rd_request_s *req)
{
    if (req->mr) {
        req->rma.done = NULL;
        E.peers[req->wpeer].ep->tl->ops->mem_dereg(E.peers[req->wpeer].ep->tl, req->mr);
        req->mr = NULL;
    }
    free(req->tmp);
    req->tmp = NULL;
    free(req->rkey); /* put: the receiver's key, from its CTS */
    req->rkey = NULL;
    rd_req_complete(req);
}

static void finish_recv(struct rd_request_s *req)
{
    if (req->tmp) {
        rd_dt_unpack(req->buf, req->dt, 0, req->tmp, req->xfer);
        free(req->tmp);
        req->tmp = NULL;
    }
    if (req->mr) {
        rd_ep *ep = E.peers[req->wpeer].ep;
        ep->tl->ops->mem_dereg(ep->tl, req->mr);
        req->mr = NULL;
    }
    free(req->rkey);
    req->rkey = NULL;
    req->status.rd_bytes = (MPI_Count)req->xfer;
    rd_req_complete(req);
}

/* ------------------------------------------------------------ receiving */

static void set_envelope(struct rd_request_s *req, const struct rd_message_s *m)
{
    req->status.MPI_SOURCE = m->src;
    req->status.MPI_TAG = m->tag;
    req->status.rd_cancelled = 0;
    req->wpeer = m->wsrc;
    req->xfer = m->len < req->bytes ? m->len : req->bytes;
    if (m->len > req->bytes) {
        req->error = MPI_ERR_TRUNCATE;
        req->sent = m->len;
    }
}

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
        pend_push(m->wsrc, pd);
        finish_recv(req);
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
    return queue_req(m->wsrc, PEND_TL_RECV, req);
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

/* Deliver message m (not yet consumed) to the matched receive req. */
static rd_status deliver(struct rd_request_s *req, const struct rd_message_s *m, const void *data,
                         size_t data_len)
{
    struct rd_wire_ctrl c = {0};
    set_envelope(req, m);
    if (m->id != RD_AM_RTS) {
        rd_dt_unpack(req->buf, req->dt, 0, data, req->xfer);
        req->status.rd_bytes = (MPI_Count)req->xfer;
        if (m->id == RD_AM_EAGER_SYNC) {
            c.req = m->sreq;
            rd_status st = queue_ctrl(m->wsrc, RD_AM_ACK, &c, NULL, 0);
            if (st != RD_OK)
                return st;
        }
        rd_req_complete(req);
        return RD_OK;
    }

    /* rendezvous */
    req->remote = m->sreq;
    req->proto = (uint8_t)m->proto;
    if (m->proto == RD_RNDV_TRANSPORT)
        return deliver_tl_rndv(req, m, data);
    if (req->xfer == 0) { /* nothing fits: release the sender */
        c.req = m->sreq;
        finish_recv(req);
        return queue_ctrl(m->wsrc, RD_AM_FIN, &c, NULL, 0);
    }
    if (m->proto == RD_RNDV_PIPELINE || !req->dt->contig) {
        /* the fragments come to the request (and a non-contiguous receive
         * asks for them whatever the sender offered: CTS without an
         * address), each unpacked in place at its offset */
        c.req = m->sreq;
        c.other = (uint64_t)(uintptr_t)req;
        c.len = req->xfer;
        req->frag_off = 0;
        req->proto = RD_RNDV_PIPELINE;
        return queue_ctrl(m->wsrc, RD_AM_CTS, &c, NULL, 0);
    }
    void *target = recv_target(req);
    if (!target)
        return RD_ERR_NOMEM;
    rd_ep *ep = E.peers[m->wsrc].ep;
    if (ep->tl->caps.needs_reg) {
        unsigned char kbuf[256];
        size_t klen = 0;
        rd_status st = ep->tl->ops->mem_reg(ep->tl, target, req->xfer, &req->mr, kbuf, &klen);
        if (st != RD_OK)
            return st;
        if (m->proto == RD_RNDV_PUT) {
            c.req = m->sreq;
            c.other = (uint64_t)(uintptr_t)req;
            c.addr = (uint64_t)(uintptr_t)target;
            c.len = req->xfer;
            return queue_ctrl(m->wsrc, RD_AM_CTS, &c, kbuf, klen);
        }
    }
    switch (m->proto) {
    case RD_RNDV_GET: {
        rd_status st = rma_prepare(req, target, req->xfer, m->addr, data, data_len);
        return st != RD_OK ? st : queue_req(m->wsrc, PEND_GET, req);
    }
    case RD_RNDV_PUT:
        c.req = m->sreq;
        c.other = (uint64_t)(uintptr_t)req;
        c.addr = (uint64_t)(uintptr_t)target;
        c.len = req->xfer;
        return queue_ctrl(m->wsrc, RD_AM_CTS, &c, NULL, 0);
    case RD_RNDV_SPLIT: {
        /* tell the sender where to write its part first, then read ours */
        uint64_t h = rd_rndv_split_point(req->xfer);
        c.req = m->sreq;
        c.other = (uint64_t)(uintptr_t)req;
        c.addr = (uint64_t)(uintptr_t)target;
        c.len = req->xfer;
        rd_status st = queue_ctrl(m->wsrc, RD_AM_CTS, &c, NULL, 0);
        if (st != RD_OK)
            return st;
        st = rma_prepare(req, target, h, m->addr, data, data_len);
        if (st != RD_OK)
            return st;
        req->pending = 2; /* our read + the sender's FIN */
        return queue_req(m->wsrc, PEND_GET, req);
    }
    default:
        return RD_ERR_INTERNAL;
    }
}

/* Small unexpected messages (the common case of a message-rate burst)
 * come from a free list, not from malloc. */
#define RD_MSG_SMALL 256
static struct rd_message_s *rd_msg_free_list;

static struct rd_message_s *message_alloc(size_t len)
{
    if (len <= RD_MSG_SMALL && rd_msg_free_list) {
        struct rd_message_s *m = rd_msg_free_list;
        rd_msg_free_list = m->next;
        return m;
    }
    return malloc(sizeof(struct rd_message_s) + (len <= RD_MSG_SMALL ? RD_MSG_SMALL : len));
}

static void message_free(struct rd_message_s *m)
{
    if (m->data_len <= RD_MSG_SMALL) {
        m->magic = 0;
        m->next = rd_msg_free_list;
        rd_msg_free_list = m;
    } else {
        free(m);
    }
}

/* The envelope (and rendezvous fields) of an arriving matching message. */
static void message_fill(struct rd_message_s *m, int wsrc, unsigned id, const void *hdr)
{
    const struct rd_wire_env *env = hdr;
    m->magic = RD_MSG_MAGIC;
    m->next = NULL;
    m->ctx = env->ctx;
    m->src = env->src;
    m->tag = env->tag;
    m->seq = env->seq;
    m->wsrc = wsrc;
    m->id = id;
    m->len = (size_t)env->len;
    m->proto = 0;
    m->sreq = m->addr = 0;
    if (id == RD_AM_EAGER_SYNC)
        m->sreq = ((const struct rd_wire_sync *)hdr)->sreq;
    if (id == RD_AM_RTS) {
        const struct rd_wire_rts *r = hdr;
        m->sreq = r->sreq;
        m->addr = r->addr;
        m->proto = r->proto;
    }
}

static struct rd_message_s *message_copy(int wsrc, unsigned id, const void *hdr, const void *data,
                                         size_t len)
{
    struct rd_message_s *m = message_alloc(len);
    if (!m)
        return NULL;
    message_fill(m, wsrc, id, hdr);
    m->data_len = len;
    if (len)
        memcpy(m->data, data, len);
    return m;
}

/* A matching message, in sequence: match or keep. */
static rd_status match_arrival(int wsrc, unsigned id, const void *hdr, const void *data, size_t len)
{
    const struct rd_wire_env *env = hdr;
    struct rd_ctxq *q = ctxq(env->ctx);
    if (!q)
        return RD_ERR_NOMEM;
    for (struct rd_request_s *r = q->posted_head; r; r = r->next) {
        if (!env_matches(r->peer, r->tag, env->src, env->tag))
            continue;
        if (r->prev)
            r->prev->next = r->next;
        else
            q->posted_head = r->next;
        if (r->next)
            r->next->prev = r->prev;
        else
            q->posted_tail = r->prev;
        r->posted = 0;
        if (id == RD_AM_EAGER) {
            /* the common case, straight into the user's buffer */
            size_t n = len < r->bytes ? len : r->bytes;
            r->status.MPI_SOURCE = env->src;
            r->status.MPI_TAG = env->tag;
            r->status.rd_cancelled = 0;
            r->status.rd_bytes = (MPI_Count)n;
            r->wpeer = wsrc;
            r->xfer = n;
            if (len > r->bytes) {
                r->error = MPI_ERR_TRUNCATE;
                r->sent = len;
            }
            rd_dt_unpack(r->buf, r->dt, 0, data, n);
            rd_req_complete(r);
            return RD_OK;
        }
        struct rd_message_s m;
        message_fill(&m, wsrc, id, hdr);
        return deliver(r, &m, data, len);
    }
    struct rd_message_s *m = message_copy(wsrc, id, hdr, data, len);
    if (!m)
        return RD_ERR_NOMEM;
    if (q->unexp_tail)
        q->unexp_tail->next = m;
    else
        q->unexp_head = m;
    q->unexp_tail = m;
    return RD_OK;
}

static void arrive(int wsrc, unsigned id, const void *hdr, const void *data, size_t len)
{
    struct rd_peer *p = &E.peers[wsrc];
    const struct rd_wire_env *env = hdr;
    rd_status st;
    if (env->seq != p->recv_seq) {
        /* ahead of its turn: keep it, sorted, until the gap fills */
        struct rd_message_s *m = message_copy(wsrc, id, hdr, data, len), **pp = &p->ooo;
        if (!m) {
            rd_error("p2p", "out of memory keeping a message from rank %d", wsrc);
            rd_job_abort(MPI_ERR_NO_MEM, "out of memory");
        }
        while (*pp && (int32_t)((*pp)->seq - m->seq) < 0)
            pp = &(*pp)->next;
        m->next = *pp;
        *pp = m;
        return;
    }
    st = match_arrival(wsrc, id, hdr, data, len);
    p->recv_seq++;
    while (st == RD_OK && p->ooo && p->ooo->seq == p->recv_seq) {
        struct rd_message_s *m = p->ooo;
        p->ooo = m->next;
        union {
            struct rd_wire_rts rts;
            struct rd_wire_sync sync;
        } h;
        h.rts.env.ctx = m->ctx;
        h.rts.env.src = m->src;
        h.rts.env.tag = m->tag;
        h.rts.env.seq = m->seq;
        h.rts.env.len = m->len;
        h.rts.sreq = m->sreq;
        h.rts.addr = m->addr;
        h.rts.proto = m->proto;
        st = match_arrival(wsrc, m->id, &h, m->data, m->data_len);
        message_free(m);
        p->recv_seq++;
    }
    if (st != RD_OK) {
        rd_error("p2p", "cannot take a message from rank %d: %s", wsrc, rd_status_string(st));
        rd_job_abort(rd_status_to_mpi(st), "point-to-point engine failure");
    }
}

/* ------------------------------------------------------------ sending */

static void build_env(struct rd_wire_env *env, const struct rd_request_s *req, uint32_t seq)
{
    env->ctx = req->comm->ctx;
    env->src = req->comm->rank;
    env->tag = req->tag;
    env->seq = seq;
    env->len = req->bytes;
}

/* Queue a copy of pd (built on the stack) for peer w. */
static rd_status pend_copy(int w, const struct rd_pend *pd)
{
    struct rd_pend *q = malloc(sizeof(*q));
    if (!q)
        return RD_ERR_NOMEM;
    *q = *pd;
    pend_push(w, q);
    return RD_OK;
}

/* A rendezvous transfer failed: the job cannot go on. The message names
 * what failed (the operation, the peer, the transport: "a rendezvous read
 * (get) of a message from rank 2 over shm failed: peer failed"); the
 * transport has already logged its own call and error. */
_Noreturn static void transfer_failed(struct rd_request_s *req, const char *what, rd_status st)
{
    char msg[256];
    const struct rd_peer *p = &E.peers[req->wpeer];

    snprintf(msg, sizeof(msg), "%s of a message %s rank %d over %s failed: %s", what,
             req->kind == RD_REQ_RECV ? "from" : "to", req->wpeer,
             p->ep != NULL ? p->ep->tl->ops->name : "?", rd_status_string(st));
    rd_error("p2p", "%s", msg);
    rd_job_abort(MPI_ERR_OTHER, msg);
}

/* The transport's own rendezvous moved the data (either side). */
static void tl_rndv_done(rd_rma_op *op, rd_status st)
{
    struct rd_request_s *req = op->arg;
    if (st != RD_OK)
        transfer_failed(req, "the transport's rendezvous", st);
    if (req->kind == RD_REQ_RECV)
        finish_recv(req);
    else
        finish_send(req);
}

/* Send (or queue) the first message of a send request. */
static rd_status send_first(struct rd_request_s *req, struct rd_peer *p)
{
    struct rd_pend pd_local, *pd = &pd_local;
    memset(&pd_local, 0, sizeof(pd_local));
    pd->kind = PEND_MSG;
    pd->req = req;
    uint32_t seq = p->send_seq++;
    rd_tl *tl = p->ep->tl;

    if (req->bytes <= p->eager_limit) {
        if (req->mode == RD_MODE_SYNC) {
            struct rd_wire_sync *h = (void *)pd->hdr;
            build_env(&h->env, req, seq);
            h->sreq = (uint64_t)(uintptr_t)req;
            pd->id = RD_AM_EAGER_SYNC;
            pd->hlen = sizeof(*h);
        } else {
            build_env((void *)pd->hdr, req, seq);
            pd->id = RD_AM_EAGER;
            pd->hlen = sizeof(struct rd_wire_env);
        }
        if (req->dt->contig) {
            pd->data = (const char *)req->buf + req->dt->true_lb;
        } else {
            req->tmp = malloc(req->bytes ? req->bytes : 1);
            if (!req->tmp)
                return RD_ERR_NOMEM;
            rd_dt_pack(req->buf, req->dt, 0, req->tmp, req->bytes);
            pd->data = req->tmp;
        }
        pd->len = req->bytes;
    } else {
        struct rd_wire_rts *h = (void *)pd->hdr;
        unsigned char kbuf[256];
        size_t klen = 0;
        const void *src;
        build_env(&h->env, req, seq);
        h->sreq = (uint64_t)(uintptr_t)req;
        int proto = p->rndv;
        if (proto == RD_RNDV_AUTO && req->rndv_hint)
            proto = req->rndv_hint;
        if (proto == RD_RNDV_AUTO)
            proto = req->bytes >= (size_t)rd_param.rndv_split_min ? RD_RNDV_SPLIT : RD_RNDV_GET;
        if (proto == RD_RNDV_SPLIT && tl->caps.needs_reg)
            proto = RD_RNDV_GET; /* split needs both keys: not for registered transports yet */
        if (proto == RD_RNDV_TRANSPORT && req->dt->contig) {
            h->proto = RD_RNDV_TRANSPORT;
            req->proto = RD_RNDV_TRANSPORT;
            req->rma.local = (char *)req->buf + req->dt->true_lb;
            req->rma.len = req->bytes;
            req->rma.lmr = NULL;
            req->rma.done = tl_rndv_done;
            req->rma.arg = req;
            pd->kind = PEND_TL_SEND;
            pd->id = RD_AM_RTS;
            pd->hlen = sizeof(*h);
            if (!p->pend_head) {
                rd_status st = tl->ops->rndv_send(p->ep, pd->id, pd->hdr, pd->hlen, &req->rma);
                if (st != RD_ERR_AGAIN)
                    return st;
            }
            return pend_copy(req->wpeer, pd);
        }
        if (proto == RD_RNDV_TRANSPORT)
            proto = RD_RNDV_PIPELINE; /* non-contiguous: below */
        h->proto = (uint32_t)proto;
        req->proto = (uint8_t)proto;
        req->pending = 2; /* split: own write + the receiver's FIN */
        if (req->dt->contig) {
            src = (const char *)req->buf + req->dt->true_lb;
        } else {
            /* non-contiguous data streams in fragments packed straight
             * from the user's buffer: no packed copy of the message */
            proto = RD_RNDV_PIPELINE;
            h->proto = (uint32_t)proto;
            req->proto = (uint8_t)proto;
            src = NULL;
        }
        h->addr = (uint64_t)(uintptr_t)src;
        if (tl->caps.needs_reg && proto != RD_RNDV_PIPELINE) {
            rd_status st = tl->ops->mem_reg(tl, (void *)src, req->bytes, &req->mr, kbuf, &klen);
            if (st != RD_OK)
                return st;
        }
        pd->id = RD_AM_RTS;
        pd->hlen = sizeof(*h);
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
            if (pd->id == RD_AM_EAGER)
                finish_send(req);
            return RD_OK;
        }
        if (st != RD_ERR_AGAIN)
            return st;
    }
    return pend_copy(req->wpeer, pd);
}

rd_status rd_p2p_start_send(struct rd_request_s *req)
{
    rd_status st;
    req->wpeer = rd_comm_peer_world(req->comm, req->peer);
    if (!req->raw)
        req->bytes = (size_t)req->count * req->dt->size;
    req->error = MPI_SUCCESS;
    struct rd_peer *p = peer_of(req->wpeer, &st);
    if (st != RD_OK)
        return st;
    return send_first(req, p);
}

rd_status rd_p2p_send_fast(const void *buf, int count, MPI_Datatype dt, int dest, int tag,
                           MPI_Comm comm)
{
    rd_status st;
    int w = rd_comm_peer_world(comm, dest);
    size_t bytes = (size_t)count * dt->size;
    struct rd_peer *p = peer_of(w, &st);
    if (st != RD_OK)
        return st;
    if (p->pend_head || bytes > p->eager_limit || !dt->contig)
        return RD_ERR_AGAIN;
    struct rd_wire_env env = {comm->ctx, comm->rank, tag, p->send_seq, bytes};
    st = p->ep->tl->ops->am_send(p->ep, RD_AM_EAGER, &env, sizeof(env),
                                 (const char *)buf + dt->true_lb, bytes);
    if (st == RD_OK)
        p->send_seq++;
    return st;
}

/* ------------------------------------------------------------ control messages */

/* One of the two events a split transfer waits for, on either side. */
static void split_event(struct rd_request_s *req)
{
    if (--req->pending == 0) {
        if (req->kind == RD_REQ_SEND)
            finish_send(req);
        else
            finish_recv(req);
    }
}

/* Our part of a rendezvous moved (a get on the receiving side, a put on
 * the sending side): tell the peer with FIN, then complete (or, split,
 * count the event). */
static void rma_done(rd_rma_op *op, rd_status st)
{
    struct rd_request_s *req = op->arg;
    struct rd_wire_ctrl c = {.req = req->remote};
    if (st != RD_OK)
        transfer_failed(req, req->kind == RD_REQ_RECV ? "a rendezvous read (get)" : "a rendezvous write (put)", st);
    if (queue_ctrl(req->wpeer, RD_AM_FIN, &c, NULL, 0) != RD_OK)
        rd_job_abort(MPI_ERR_NO_MEM, "out of memory");
    if (req->proto == RD_RNDV_SPLIT)
        split_event(req);
    else if (req->kind == RD_REQ_RECV)
        finish_recv(req);
    else
        finish_send(req);
}

static void control(int wsrc, unsigned id, const struct rd_wire_ctrl *c, const void *data, size_t len)
{
    struct rd_request_s *req = (struct rd_request_s *)(uintptr_t)c->req;
    rd_status st = RD_OK;
    switch (id) {
    case RD_AM_ACK: /* a synchronous eager send was matched */
        finish_send(req);
        break;
    case RD_AM_FIN:
        if (req->proto == RD_RNDV_SPLIT && req->xfer > 0)
            split_event(req);
        else if (req->kind == RD_REQ_SEND)
            finish_send(req); /* get: the receiver has read our data */
        else
            finish_recv(req); /* put or empty: the data is in place */
        break;
    case RD_AM_CTS:
        req->remote = c->other;
        req->xfer = (size_t)c->len;
        if ((req->proto == RD_RNDV_PUT || req->proto == RD_RNDV_SPLIT) && c->addr) {
            /* split: we write the part after the split point */
            uint64_t h = req->proto == RD_RNDV_SPLIT ? rd_rndv_split_point(req->xfer) : 0;
            st = rma_prepare(req, (req->tmp ? (char *)req->tmp : (char *)req->buf + req->dt->true_lb) + h,
                             req->xfer - h, c->addr + h, data, len);
            if (st == RD_OK)
                st = queue_req(wsrc, PEND_PUT, req);
        } else {
            /* pipeline (also asked for by a non-contiguous receive) */
            req->proto = RD_RNDV_PIPELINE;
            req->frag_off = 0;
            st = queue_req(wsrc, PEND_FRAGS, req);
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
            finish_recv(req);
        break;
    }
    default:
        rd_error("p2p", "unknown message id %u from rank %d", id, wsrc);
        st = RD_ERR_INTERNAL;
    }
    if (st != RD_OK)
        rd_job_abort(rd_status_to_mpi(st), "point-to-point engine failure");
}

static void am_handler(void *arg, int src, unsigned id, const void *hdr, size_t hlen,
                       const void *data, size_t len)
{
    E.in_handler++;
    /* answers go back the way this rank would send: connect it now */
    if (!E.peers[src].ep && connect_peer(src) != RD_OK)
        rd_job_abort(MPI_ERR_OTHER, "cannot connect back to a sender");
    const void *desc = data;
    if (id & RD_AM_RNDV) {
        /* the data stays with the transport: the message carries the
         * transport's descriptor as its payload, kept by value like any
         * payload (the RTS names the length) */
        id &= ~RD_AM_RNDV;
        data = &desc;
        len = sizeof(desc);
    }
    if (id <= RD_AM_RTS)
        arrive(src, id, hdr, data, len);
    else
        control(src, id, hdr, data, len);
    E.in_handler--;
}

/* ------------------------------------------------------------ flushing pending work */

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
            finish_send(req);
        return st;
    case PEND_GET:
        req->rma.done = rma_done;
        req->rma.arg = req;
        return ops->get(ep, &req->rma);
    case PEND_PUT:
        req->rma.done = rma_done;
        req->rma.arg = req;
        return ops->put(ep, &req->rma);
    case PEND_TL_SEND:
        return ops->rndv_send(ep, pd->id, pd->hdr, pd->hlen, &req->rma);
    case PEND_TL_RECV:
        req->rma.done = tl_rndv_done;
        req->rma.arg = req;
        return ops->rndv_recv(ep->tl, (void *)(uintptr_t)req->remote, &req->rma);
    case PEND_TL_DROP:
        ops->rndv_drop(ep->tl, (void *)pd->data);
        return RD_OK;
    case PEND_FRAGS: {
        size_t room = ep->tl->caps.am_max - sizeof(struct rd_wire_ctrl);
        if (room > E.scratch_len)
            room = E.scratch_len;
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
                rd_dt_pack(req->buf, req->dt, req->frag_off, E.scratch, n);
                d = E.scratch;
            }
            struct rd_wire_ctrl c = {.req = req->remote, .addr = req->frag_off};
            st = ops->am_send(ep, RD_AM_FRAG, &c, sizeof(c), d, n);
            if (st != RD_OK)
                return st;
            req->frag_off += n;
        }
        finish_send(req);
        return RD_OK;
    }
    }
    return RD_ERR_INTERNAL;
}

static int flush_peer(int w)
{
    struct rd_peer *p = &E.peers[w];
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

static int flush_all(void)
{
    int n = 0, keep = 0, listed = E.nflush;
    for (int i = 0; i < listed; i++) {
        int w = E.flush_list[i];
        n += flush_peer(w);
        if (E.peers[w].pend_head)
            E.flush_list[keep++] = w;
        else
            E.peers[w].listed = 0;
    }
    /* peers listed while flushing sit behind the first `listed` entries */
    for (int i = listed; i < E.nflush; i++)
        E.flush_list[keep++] = E.flush_list[i];
    E.nflush = keep;
    return n;
}

int rd_progress(void)
{
    int n = 0;
    /* only the transports that may have work: one whose backlog says it
     * has none (self, idle) costs a load, not a call */
    for (int i = E.ntls - 1; i >= 0; i--) {
        rd_tl *tl = E.tls[i];
        if (tl->caps.backlog && *tl->caps.backlog == 0)
            continue;
        n += tl->ops->progress(tl);
    }
    if (E.nflush)
        n += flush_all();
    if (rd_progress_hook)
        n += rd_progress_hook();
    return n;
}

/* ------------------------------------------------------------ receive side API */

static void take_unexpected(struct rd_ctxq *q, struct rd_message_s *prev, struct rd_message_s *m)
{
    if (prev)
        prev->next = m->next;
    else
        q->unexp_head = m->next;
    if (q->unexp_tail == m)
        q->unexp_tail = prev;
    m->next = NULL;
}

static rd_status deliver_message(struct rd_request_s *req, struct rd_message_s *m)
{
    rd_status st = deliver(req, m, m->data, m->data_len);
    message_free(m);
    if (E.nflush && !E.in_handler)
        flush_all();
    return st;
}

rd_status rd_p2p_start_recv(struct rd_request_s *req)
{
    struct rd_ctxq *q = ctxq(req->comm->ctx);
    if (!q)
        return RD_ERR_NOMEM;
    req->bytes = (size_t)req->count * req->dt->size;
    req->error = MPI_SUCCESS;
    req->status.rd_cancelled = 0;
    struct rd_message_s *prev = NULL;
    for (struct rd_message_s *m = q->unexp_head; m; prev = m, m = m->next) {
        if (env_matches(req->peer, req->tag, m->src, m->tag)) {
            take_unexpected(q, prev, m);
            return deliver_message(req, m);
        }
    }
    req->next = NULL;
    req->prev = q->posted_tail;
    if (q->posted_tail)
        q->posted_tail->next = req;
    else
        q->posted_head = req;
    q->posted_tail = req;
    req->posted = 1;
    return RD_OK;
}

int rd_p2p_probe(int source, int tag, MPI_Comm comm, MPI_Status *status, struct rd_message_s **take)
{
    struct rd_ctxq *q = ctxq(comm->ctx);
    struct rd_message_s *prev = NULL;
    if (!q)
        return 0;
    for (struct rd_message_s *m = q->unexp_head; m; prev = m, m = m->next) {
        if (!env_matches(source, tag, m->src, m->tag))
            continue;
        if (status) {
            status->MPI_SOURCE = m->src;
            status->MPI_TAG = m->tag;
            status->rd_cancelled = 0;
            status->rd_bytes = (MPI_Count)m->len;
        }
        if (take) {
            take_unexpected(q, prev, m);
            *take = m;
        }
        return 1;
    }
    return 0;
}

rd_status rd_p2p_start_mrecv(struct rd_request_s *req, struct rd_message_s *msg)
{
    req->bytes = (size_t)req->count * req->dt->size;
    req->error = MPI_SUCCESS;
    return deliver_message(req, msg);
}

int rd_p2p_cancel_recv(struct rd_request_s *req)
{
    if (!req->posted)
        return 0;
    struct rd_ctxq *q = ctxq(req->comm->ctx);
    if (req->prev)
        req->prev->next = req->next;
    else
        q->posted_head = req->next;
    if (req->next)
        req->next->prev = req->prev;
    else
        q->posted_tail = req->prev;
    req->posted = 0;
    req->status.rd_cancelled = 1;
    req->status.rd_bytes = 0;
    req->status.MPI_SOURCE = MPI_ANY_SOURCE;
    req->status.MPI_TAG = MPI_ANY_TAG;
    rd_req_complete(req);
    return 1;
}

/* ------------------------------------------------------------ set-up */

int rd_p2p_message_valid(struct rd_message_s *m)
{
    return m && m->magic == RD_MSG_MAGIC;
}

/* For a report (runtime/base/report.h): messages that arrived and wait for a
 * receive, and work queued for a peer whose transport had no room. */
static void report_engine(struct rd_report_buf *b)
{
    for (uint32_t c = 0; c < E.nctx; c++) {
        if (E.ctxq == NULL || E.ctxq[c] == NULL)
            continue;
        int n = 0;
        for (const struct rd_message_s *m = E.ctxq[c]->unexp_head; m; m = m->next, n++) {
            if (n == 16) {
                rd_report_printf(b, "I ... and more unexpected messages in context %u\n", c);
                break;
            }
            char tag[48];
            if (m->tag < RD_TAG_COLL_END)
                snprintf(tag, sizeof(tag), "a collective's message");
            else if (c & 1u)
                snprintf(tag, sizeof(tag), "the library's own message (tag %d)", m->tag);
            else
                snprintf(tag, sizeof(tag), "tag %d", m->tag);
            char from[64];
            if (m->src == m->wsrc)
                snprintf(from, sizeof(from), "rank %d", m->src);
            else
                snprintf(from, sizeof(from), "rank %d (world rank %d)", m->src, m->wsrc);
            char on[64];
            if ((c & ~1u) == RD_CTX_WORLD)
                snprintf(on, sizeof(on), "MPI_COMM_WORLD");
            else if ((c & ~1u) == RD_CTX_SELF)
                snprintf(on, sizeof(on), "MPI_COMM_SELF");
            else
                snprintf(on, sizeof(on), "communicator #%u", c & ~1u);
            rd_report_printf(b, "I unexpected: a message from %s, %s, %zu bytes, on %s, that no "
                             "receive has matched\n", from, tag, m->len, on);
        }
    }
    for (int w = 0; E.peers && w < rd_job.size; w++) {
        int n = 0;
        for (const struct rd_pend *q = E.peers[w].pend_head; q; q = q->next)
            n++;
        if (n > 0)
            rd_report_printf(b, "W %d to send what is queued for %d\t%d message%s to world rank %d queued: "
                             "its transport (%s) has no room yet\n", w, w, n, n > 1 ? "s" : "", w,
                             E.peers[w].ep ? E.peers[w].ep->tl->ops->name : "?");
    }
}

rd_status rd_p2p_init(void)
{
    struct {
        const struct rd_tl_entry *e;
        int order;
    } want[RD_MAX_TLS];
    int nwant = 0;
    rd_status st;

    E.peers = calloc((size_t)rd_job.size, sizeof(*E.peers));
    E.flush_list = calloc((size_t)rd_job.size, sizeof(int));
    if (!E.peers || !E.flush_list)
        return RD_ERR_NOMEM;
    rd_report_register(report_engine);
    for (int i = 0; i < rd_tl_nentries && nwant < RD_MAX_TLS; i++) {
        const struct rd_tl_entry *e = &rd_tl_entries[i];
        int order;
        int self = strcmp(e->name, "self") == 0;
        /* unasked for, a network transport is opened (and its plug-in
         * loaded) only when some rank lives on another node */
        if (e->network && !rd_param.transports[0] && rd_job.local_size == rd_job.size)
            continue;
        /* self is always there: no other transport reaches this rank */
        if (self && !tl_allowed("self", &order))
            order = RD_MAX_TLS;
        if (self || tl_allowed(e->name, &order)) {
            want[nwant].e = e;
            want[nwant].order = order;
            nwant++;
        }
    }
    /* the order RDMPI_TRANSPORTS gives (stable) */
    for (int i = 1; i < nwant; i++)
        for (int j = i; j > 0 && want[j].order < want[j - 1].order; j--) {
            __typeof__(want[0]) t = want[j];
            want[j] = want[j - 1];
            want[j - 1] = t;
        }
    int net_open = 0;
    /* each transport is told the peers it will carry (tl_load.h) */
    unsigned char *claimed = calloc((size_t)rd_job.size, 2), *peers = claimed + rd_job.size;
    if (!claimed)
        return RD_ERR_NOMEM;
    rd_tl_signals_save();
    for (int i = 0; i < nwant; i++) {
        rd_tl *tl = NULL;
        /* unasked for, one network transport serves the other nodes (each
         * reaches every rank, so a later one would never be chosen): the
         * first that opens (verbs where a device works, then ucx, ofi) */
        if (want[i].e->network && net_open && !rd_param.transports[0]) {
            rd_debug("p2p", "transport %s not opened: another network transport serves", want[i].e->name);
            continue;
        }
        const struct rd_transport *t = rd_tl_get(want[i].e);
        if (t == NULL) {
            /* asked for by name, a transport that cannot load is an error */
            if (rd_param.transports[0]) {
                rd_error("p2p", "transport %s is not available: its plug-in (rdmpi_tl_%s.so) "
                         "could not be loaded (RDMPI_LOG=debug:p2p says why)", want[i].e->name,
                         want[i].e->name);
                rd_tl_signals_restore();
                free(claimed);
                return RD_ERR_UNSUPPORTED;
            }
            continue;
        }
        rd_tl_peers(want[i].e, claimed, peers);
        st = t->open(&rd_job, peers, am_handler, NULL, &tl);
        if (st == RD_ERR_UNSUPPORTED) {
            rd_debug("p2p", "transport %s not available here", t->name);
            continue;
        }
        if (st != RD_OK) {
            rd_error("p2p", "cannot open transport %s: %s", t->name, rd_status_string(st));
            rd_tl_signals_restore();
            free(claimed);
            return st;
        }
        rd_tl_claim(claimed, peers);
        E.tls[E.ntls++] = tl;
        net_open |= t->network;
        if (tl->caps.am_max > E.scratch_len)
            E.scratch_len = tl->caps.am_max;
    }
    free(claimed);
    if (E.ntls == 0) {
        rd_tl_signals_restore();
        rd_error("p2p", "no transport could be opened (RDMPI_TRANSPORTS='%s')", rd_param.transports);
        return RD_ERR_UNREACH;
    }
    E.scratch = malloc(E.scratch_len ? E.scratch_len : 1);
    if (!E.scratch) {
        rd_tl_signals_restore();
        return RD_ERR_NOMEM;
    }
    st = rd_job_commit();
    if (st == RD_OK)
        st = rd_job_fence(1);
    for (int i = 0; st == RD_OK && i < E.ntls; i++)
        if (E.tls[i]->ops->activate)
            st = E.tls[i]->ops->activate(E.tls[i]);
    /* (activate may load libraries too: shm's opt-in xmap loads libucm) */
    rd_tl_signals_restore();
    /* the node's memory a transport lends goes to the collectives */
    for (int i = 0; st == RD_OK && i < E.ntls; i++)
        if (E.tls[i]->caps.node_mem) {
            rd_node_arena_use(E.tls[i]->caps.node_mem);
            break;
        }
    /* a second fence when a transport asks for it: every rank's activate()
     * is done before anyone sends (decided by what every rank tries to
     * open, the same everywhere, not by what opened) */
    int fence_again = 0;
    for (int i = 0; i < nwant; i++)
        fence_again |= want[i].e->activate_fence;
    if (st == RD_OK && fence_again)
        st = rd_job_fence(0);
    return st;
}

rd_status rd_p2p_finalize(void)
{
    /* what is still queued (acknowledgements, FINs, and what the
     * transports hold) must leave first */
    for (;;) {
        int busy = E.nflush > 0;
        for (int i = 0; i < E.ntls && !busy; i++)
            busy = E.tls[i]->ops->busy && E.tls[i]->ops->busy(E.tls[i]);
        if (!busy)
            return RD_OK;
        rd_progress();
    }
}

/* A message left unreceived at the end whose data a transport still
 * holds: hand the descriptor back before the transport closes. */
static void release_held(const struct rd_message_s *m)
{
    if (m->id == RD_AM_RTS && m->proto == RD_RNDV_TRANSPORT) {
        void *desc;
        memcpy(&desc, m->data, sizeof(desc));
        rd_tl *tl = E.peers[m->wsrc].ep->tl;
        tl->ops->rndv_drop(tl, desc);
    }
}

void rd_p2p_close(void)
{
    for (uint32_t c = 0; c < E.nctx; c++)
        for (struct rd_message_s *m = E.ctxq[c] ? E.ctxq[c]->unexp_head : NULL; m; m = m->next)
            release_held(m);
    for (int w = 0; E.peers && w < rd_job.size; w++)
        for (struct rd_message_s *m = E.peers[w].ooo; m; m = m->next)
            release_held(m);
    rd_node_arena_use(NULL); /* (before the transport that lent it closes) */
    for (int i = 0; i < E.ntls; i++)
        E.tls[i]->ops->close(E.tls[i]);
    E.ntls = 0;
    for (uint32_t c = 0; c < E.nctx; c++) {
        if (!E.ctxq[c])
            continue;
        struct rd_message_s *m = E.ctxq[c]->unexp_head;
        while (m) {
            struct rd_message_s *n = m->next;
            free(m);
            m = n;
        }
        free(E.ctxq[c]);
    }
    free(E.ctxq);
    for (int w = 0; E.peers && w < rd_job.size; w++) {
        struct rd_message_s *m = E.peers[w].ooo;
        while (m) {
            struct rd_message_s *n = m->next;
            free(m);
            m = n;
        }
    }
    while (rd_msg_free_list) {
        struct rd_message_s *n = rd_msg_free_list->next;
        free(rd_msg_free_list);
        rd_msg_free_list = n;
    }
    free(E.peers);
    free(E.flush_list);
    free(E.scratch);
    memset(&E, 0, sizeof(E));
}

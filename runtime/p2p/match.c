/* match.c - arrivals and matching.
 *
 * Every arriving matching message (EAGER, EAGER_SYNC, RTS) goes through
 * arrive(): strictly in per-peer sequence order, it either matches the
 * oldest fitting posted receive of its context or joins the context's
 * unexpected queue (both FIFO, per context id). An eager message that
 * matches goes straight into the user's buffer; a rendezvous message is
 * handed to rndv.c. Also here: the receive side of the API (receive,
 * probe, matched receive, cancel). */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "runtime/base/job.h"
#include "runtime/base/log.h"
#include "runtime/objects/datatype.h"
#include "runtime/p2p/engine.h"
#include "runtime/p2p/part.h"
#include "runtime/objects/fhandle.h"

struct rd_message_s rd_mpi_message_no_proc = {.magic = RD_MSG_MAGIC};

/* ------------------------------------------------------------ queues */

static struct rd_ctxq *ctxq_grow(uint32_t ctx);

static inline struct rd_ctxq *ctxq(uint32_t ctx)
{
    if (ctx < rd_eng.nctx && rd_eng.ctxq[ctx])
        return rd_eng.ctxq[ctx];
    return ctxq_grow(ctx);
}

static struct rd_ctxq *ctxq_grow(uint32_t ctx)
{
    if (ctx >= rd_eng.nctx) {
        uint32_t n = rd_eng.nctx ? rd_eng.nctx : 16;
        while (n <= ctx)
            n *= 2;
        struct rd_ctxq **q = realloc(rd_eng.ctxq, n * sizeof(*q));
        if (!q)
            return NULL;
        memset(q + rd_eng.nctx, 0, (n - rd_eng.nctx) * sizeof(*q));
        rd_eng.ctxq = q;
        rd_eng.nctx = n;
    }
    if (!rd_eng.ctxq[ctx])
        rd_eng.ctxq[ctx] = calloc(1, sizeof(struct rd_ctxq));
    return rd_eng.ctxq[ctx];
}

static inline int env_matches(int want_src, int want_tag, int src, int tag)
{
    return (want_src == MPI_ANY_SOURCE || want_src == src) &&
           (want_tag == MPI_ANY_TAG || want_tag == tag ||
            (want_tag < RD_TAG_COLL_END && (want_tag | RD_TAG_POISON) == tag)); /* (comm.h) */
}

/* ------------------------------------------------------------ delivery */

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

/* Deliver message m (not yet consumed) to the matched receive req. */
static rd_status deliver(struct rd_request_s *req, const struct rd_message_s *m, const void *data,
                         size_t data_len)
{
    set_envelope(req, m);
    if (m->id != RD_AM_RTS) {
        rd_dt_unpack(req->buf, req->dt, 0, data, req->xfer);
        req->status.rd_bytes = (MPI_Count)req->xfer;
        if (m->id == RD_AM_EAGER_SYNC) {
            struct rd_wire_ctrl c = {.req = m->sreq};
            rd_status st = rd_eng_queue_ctrl(m->wsrc, RD_AM_ACK, &c, NULL, 0);
            if (st != RD_OK)
                return st;
        }
        rd_req_complete(req);
        return RD_OK;
    }
    return rd_eng_rndv_deliver(req, m, data, data_len); /* rndv.c */
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
    rd_fh_drop(RD_FH_MESSAGE, &m->fidx);
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
    atomic_store_explicit(&m->fidx, 0, memory_order_relaxed);
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
    q = rd_ctx_lane(q, env->src, env->tag);
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
    rd_pv_unexpected(1);
    if (q->unexp_tail)
        q->unexp_tail->next = m;
    else
        q->unexp_head = m;
    q->unexp_tail = m;
    return RD_OK;
}

static void arrive(int wsrc, unsigned id, const void *hdr, const void *data, size_t len)
{
    struct rd_peer *p = &rd_eng.peers[wsrc];
    const struct rd_wire_env *env = hdr;
    rd_status st;
    if (RD_PV_ON())
        rd_pv_msg(1, id == RD_AM_RTS ? 1 + (int)((const struct rd_wire_rts *)hdr)->proto : RD_PV_EAGER,
                  p->proto.tl, env->len);
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

/* ------------------------------------------------------------ the handler */

void rd_eng_am_handler(void *arg, int src, unsigned id, const void *hdr, size_t hlen,
                       const void *data, size_t len)
{
    rd_eng.in_handler++;
    /* answers go back the way this rank would send: connect it now */
    if (!rd_eng.peers[src].ep && rd_eng_connect(src) != RD_OK)
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
    else if (id == RD_P2P_AM_PART)
        rd_part_am(src, hdr, hlen);
    else if (id >= RD_P2P_AM_FIRST && rd_p2p_am_hook)
        rd_p2p_am_hook(src, id, hdr, hlen, data, len);
    else
        rd_eng_control(src, id, hdr, data, len);
    rd_eng.in_handler--;
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
    rd_pv_unexpected(-1);
}

static rd_status deliver_message(struct rd_request_s *req, struct rd_message_s *m)
{
    rd_status st = deliver(req, m, m->data, m->data_len);
    message_free(m);
    if (rd_eng.nflush && !rd_eng.in_handler)
        rd_eng_flush_all();
    return st;
}

rd_status rd_p2p_start_recv(struct rd_request_s *req)
{
    struct rd_ctxq *q = ctxq(req->comm->ctx);
    if (!q)
        return RD_ERR_NOMEM;
    q = rd_ctx_lane(q, req->peer, req->tag);
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
    q = rd_ctx_lane(q, source, tag);
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
    struct rd_ctxq *q = rd_ctx_lane(ctxq(req->comm->ctx), req->peer, req->tag);
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

int rd_p2p_message_valid(struct rd_message_s *m)
{
    return m && m->magic == RD_MSG_MAGIC;
}

/* ------------------------------------------------------------ lanes (hints) */

static void lane_append(struct rd_ctxq *l, struct rd_message_s *m)
{
    m->next = NULL;
    if (l->unexp_tail)
        l->unexp_tail->next = m;
    else
        l->unexp_head = m;
    l->unexp_tail = m;
}

rd_status rd_p2p_ctx_hints(uint32_t ctx, int no_src, int no_tag)
{
    struct rd_ctxq *q = ctxq(ctx);
    if (!q)
        return RD_ERR_NOMEM;
    if (q->lanes || (!no_src && !no_tag) || q->posted_head)
        return RD_OK; /* (posted receives: the program has the communicator already; keep one queue) */
    struct rd_ctxq *lanes = calloc(RD_LANES, sizeof(*lanes));
    if (!lanes)
        return RD_ERR_NOMEM;
    struct rd_message_s *m = q->unexp_head;
    q->unexp_head = q->unexp_tail = NULL;
    q->lanes = lanes;
    q->by_src = (uint8_t)(no_src != 0);
    q->by_tag = (uint8_t)(no_tag != 0);
    while (m) { /* in arrival order, so each lane stays in it */
        struct rd_message_s *n = m->next;
        lane_append(rd_ctx_lane(q, m->src, m->tag), m);
        m = n;
    }
    return RD_OK;
}

void rd_p2p_ctx_plain(uint32_t ctx)
{
    if (ctx >= rd_eng.nctx || !rd_eng.ctxq[ctx] || !rd_eng.ctxq[ctx]->lanes)
        return;
    struct rd_ctxq *q = rd_eng.ctxq[ctx], *lanes = q->lanes;
    q->lanes = NULL;
    q->by_src = q->by_tag = 0;
    for (int i = 0; i < RD_LANES; i++) { /* (a freed communicator's leftovers: their order no longer matters) */
        for (struct rd_message_s *m = lanes[i].unexp_head, *n; m; m = n) {
            n = m->next;
            lane_append(q, m);
        }
        for (struct rd_request_s *r = lanes[i].posted_head, *n; r; r = n) {
            n = r->next;
            r->next = NULL;
            r->prev = q->posted_tail;
            if (q->posted_tail)
                q->posted_tail->next = r;
            else
                q->posted_head = r;
            q->posted_tail = r;
        }
    }
    free(lanes);
}

/* ------------------------------------------------------------ close */

/* A message left unreceived at the end whose data a transport still
 * holds: hand the descriptor back before the transport closes. */
static void release_one(const struct rd_message_s *m)
{
    if (m->id == RD_AM_RTS && m->proto == RD_RNDV_TRANSPORT) {
        void *desc;
        memcpy(&desc, m->data, sizeof(desc));
        rd_tl *tl = rd_eng.peers[m->wsrc].ep->tl;
        tl->ops->rndv_drop(tl, desc);
    }
}

void rd_eng_release_held(void)
{
    for (uint32_t c = 0; c < rd_eng.nctx; c++) {
        if (rd_eng.ctxq[c])
            rd_p2p_ctx_plain(c);
        for (struct rd_message_s *m = rd_eng.ctxq[c] ? rd_eng.ctxq[c]->unexp_head : NULL; m; m = m->next)
            release_one(m);
    }
    for (int w = 0; rd_eng.peers && w < rd_job.size; w++)
        for (struct rd_message_s *m = rd_eng.peers[w].ooo; m; m = m->next)
            release_one(m);
}

void rd_eng_free_messages(void)
{
    for (uint32_t c = 0; c < rd_eng.nctx; c++) {
        if (!rd_eng.ctxq[c])
            continue;
        struct rd_message_s *m = rd_eng.ctxq[c]->unexp_head;
        while (m) {
            struct rd_message_s *n = m->next;
            free(m);
            m = n;
        }
        free(rd_eng.ctxq[c]);
    }
    free(rd_eng.ctxq);
    __atomic_store_n(&rd_pv.unexpected, 0, __ATOMIC_RELAXED);
    for (int w = 0; rd_eng.peers && w < rd_job.size; w++) {
        struct rd_message_s *m = rd_eng.peers[w].ooo;
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
}

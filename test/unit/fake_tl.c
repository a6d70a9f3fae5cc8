/* fake_tl.c - the fake transport, the stubbed job service and the registry
 * of built-in transports for the engine's unit tests (fake_tl.h). */
#include "config.h"

#include "test/unit/fake_tl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/base/job.h"
#include "runtime/base/params.h"
#include "runtime/objects/comm.h"
#include "runtime/p2p/p2p.h"
#include "runtime/p2p/tl_load.h"

#define FAKE_MAX_RANKS 64

struct fake_state fake;

/* ------------------------------------------------------------ the job service, stubbed */

struct rd_job rd_job;
static int local_peers[FAKE_MAX_RANKS];

rd_status rd_job_put(const char *key, const void *data, size_t len)
{
    (void)key, (void)data, (void)len;
    return RD_OK;
}

rd_status rd_job_get(int rank, const char *key, void **data, size_t *len)
{
    (void)rank, (void)key, (void)data, (void)len;
    return RD_ERR_UNREACH; /* the fake transport publishes nothing */
}

rd_status rd_job_commit(void)
{
    fake.commits++;
    return RD_OK;
}

rd_status rd_job_fence(int collect)
{
    (void)collect;
    fake.fences++;
    return RD_OK;
}

/* The engine gives up only on a broken invariant or a failed transfer:
 * in a test that is a failure, said on the TAP stream. */
_Noreturn void rd_job_abort(int code, const char *msg)
{
    printf("not ok - the engine aborted the job (code %d): %s\n", code, msg ? msg : "");
    fflush(stdout);
    exit(1);
}

/* ------------------------------------------------------------ the registry (tl_load.h) */

const struct rd_tl_entry rd_tl_entries[] = {
    {"self", &rd_transport_self, 0, 0},
    {"fake", &fake_transport, 0, 0},
};
const int rd_tl_nentries = (int)(sizeof(rd_tl_entries) / sizeof(rd_tl_entries[0]));

const struct rd_transport *rd_tl_get(const struct rd_tl_entry *e)
{
    return e->builtin;
}

void rd_tl_signals_save(void)
{
}

void rd_tl_signals_restore(void)
{
}

/* ------------------------------------------------------------ the transport */

/* The transport's own rendezvous: what a descriptor stands for. */
struct fake_desc {
    int peer;
    unsigned char *data;
    size_t len;
};

struct fake_inj {
    struct fake_inj *next;
    int from;
    unsigned id;
    size_t hlen, len;
    _Alignas(8) unsigned char hdr[RD_AM_HDR_MAX];
    unsigned char *data;
    struct fake_desc *desc; /* own rendezvous: the descriptor given as the data */
};

/* An RMA operation (or own-rendezvous transfer) in flight. */
struct fake_rma {
    struct fake_rma *next;
    rd_rma_op *op;
    int finished;
    rd_status st;
};

struct fake_mr {
    void *addr;
    size_t len;
    uint64_t key;
};

typedef struct fake_tl {
    rd_tl base;
    rd_am_handler handler;
    void *handler_arg;
    int rank, size;
    rd_ep eps[FAKE_MAX_RANKS];
    struct fake_inj *inj_head, *inj_tail;
    struct fake_rma *rma_head, *rma_tail;
} fake_tl;

static fake_tl *the_tl;
static struct fake_rec *rec_head, *rec_tail;

/* Every call that sends or moves data: never from inside the handler. */
static void sending(const char *call)
{
    if (fake.in_handler) {
        fake.reentered++;
        printf("# fake: the engine called %s from inside its handler\n", call);
    }
}

static struct fake_rec *record(int kind, int peer)
{
    struct fake_rec *r = calloc(1, sizeof(*r));
    if (!r) {
        printf("Bail out! out of memory\n");
        exit(1);
    }
    r->kind = kind;
    r->peer = peer;
    if (rec_tail)
        rec_tail->next = r;
    else
        rec_head = r;
    rec_tail = r;
    return r;
}

static void rma_track(rd_rma_op *op)
{
    struct fake_rma *m = calloc(1, sizeof(*m));
    if (!m) {
        printf("Bail out! out of memory\n");
        exit(1);
    }
    m->op = op;
    if (the_tl->rma_tail)
        the_tl->rma_tail->next = m;
    else
        the_tl->rma_head = m;
    the_tl->rma_tail = m;
}

static void rec_rma(struct fake_rec *r, rd_rma_op *op)
{
    r->op = op;
    r->local = op->local;
    r->len = op->len;
    r->remote_addr = op->remote_addr;
    r->rkey_len = op->rkey_len;
    if (op->rkey_len && op->rkey_len <= sizeof(r->rkey))
        memcpy(r->rkey, op->rkey, op->rkey_len);
}

void fake_defaults(void)
{
    memset(&fake, 0, sizeof(fake));
    fake.caps.am_max = 8192;
    fake.caps.eager_limit = 1024;
    fake.caps.rma = 1;
    fake.caps.needs_reg = 0;
    fake.caps.rkey_max = 0;
    fake.caps.own_rndv = 0;
    fake.caps.latency_ns = 1000;
    fake.caps.bandwidth_mbs = 1000;
    fake.rma_inline = 1;
    fake.am_room = -1;
}

static rd_status fake_open(const struct rd_job *job, rd_am_handler handler, void *handler_arg,
                           rd_tl **out)
{
    fake_tl *tl = calloc(1, sizeof(*tl));
    if (!tl)
        return RD_ERR_NOMEM;
    tl->base.ops = &fake_transport;
    tl->base.caps = fake.caps;
    tl->base.caps.backlog = NULL;
    if (tl->base.caps.needs_reg && tl->base.caps.rkey_max == 0)
        tl->base.caps.rkey_max = sizeof(uint64_t);
    tl->handler = handler;
    tl->handler_arg = handler_arg;
    tl->rank = job->rank;
    tl->size = job->size;
    for (int i = 0; i < FAKE_MAX_RANKS; i++) {
        tl->eps[i].tl = &tl->base;
        tl->eps[i].peer = i;
    }
    the_tl = tl;
    fake.opens++;
    *out = &tl->base;
    return RD_OK;
}

static int fake_reachable(rd_tl *base, int peer)
{
    fake_tl *tl = (fake_tl *)base;
    return peer != tl->rank && peer >= 0 && peer < tl->size;
}

static rd_status fake_connect(rd_tl *base, int peer, rd_ep **ep)
{
    fake_tl *tl = (fake_tl *)base;
    if (!fake_reachable(base, peer))
        return RD_ERR_UNREACH;
    *ep = &tl->eps[peer];
    return RD_OK;
}

static rd_status fake_am_send(rd_ep *ep, unsigned id, const void *hdr, size_t hlen,
                              const void *data, size_t len)
{
    sending("am_send");
    if (hlen > RD_AM_HDR_MAX || hlen + len > ep->tl->caps.am_max) {
        printf("# fake: am_send of %zu + %zu bytes is over the limits (%d, %zu)\n", hlen, len,
               RD_AM_HDR_MAX, ep->tl->caps.am_max);
        return RD_ERR_ARG;
    }
    if (fake.am_room == 0)
        return RD_ERR_AGAIN;
    if (fake.am_room > 0)
        fake.am_room--;
    struct fake_rec *r = record(FAKE_AM, ep->peer);
    r->id = id;
    r->hlen = hlen;
    memcpy(r->hdr, hdr, hlen);
    r->len = len;
    r->data = malloc(len ? len : 1);
    if (len)
        memcpy(r->data, data, len);
    return RD_OK;
}

static rd_status fake_mem_reg(rd_tl *base, void *addr, size_t len, rd_mr **mr, void *rkey,
                              size_t *rkey_len)
{
    (void)base;
    struct fake_mr *m = malloc(sizeof(*m));
    if (!m)
        return RD_ERR_NOMEM;
    fake.regs++;
    m->addr = addr;
    m->len = len;
    m->key = 0x4b45590000000000ull | (uint64_t)fake.regs; /* "KEY" and the registration's number */
    *mr = (rd_mr *)m;
    memcpy(rkey, &m->key, sizeof(m->key));
    *rkey_len = sizeof(m->key);
    return RD_OK;
}

static void fake_mem_dereg(rd_tl *base, rd_mr *mr)
{
    (void)base;
    fake.deregs++;
    free(mr);
}

static void rma_copy(int kind, rd_rma_op *op)
{
    if (op->len == 0)
        return;
    if (kind == FAKE_GET)
        memcpy(op->local, (const void *)(uintptr_t)op->remote_addr, op->len);
    else if (kind == FAKE_PUT)
        memcpy((void *)(uintptr_t)op->remote_addr, op->local, op->len);
}

static rd_status fake_rma(int kind, rd_ep *ep, rd_rma_op *op)
{
    sending(kind == FAKE_GET ? "get" : "put");
    if (!ep->tl->caps.rma)
        return RD_ERR_UNSUPPORTED;
    struct fake_rec *r = record(kind, ep->peer);
    rec_rma(r, op);
    if (fake.rma_inline) {
        r->finished = 1;
        r->status = RD_OK;
        rma_copy(kind, op);
        op->done(op, RD_OK);
        return RD_OK;
    }
    rma_track(op);
    return RD_OK;
}

static rd_status fake_get(rd_ep *ep, rd_rma_op *op)
{
    return fake_rma(FAKE_GET, ep, op);
}

static rd_status fake_put(rd_ep *ep, rd_rma_op *op)
{
    return fake_rma(FAKE_PUT, ep, op);
}

static rd_status fake_rndv_send(rd_ep *ep, unsigned id, const void *hdr, size_t hlen,
                                rd_rma_op *op)
{
    sending("rndv_send");
    if (fake.am_room == 0)
        return RD_ERR_AGAIN;
    if (fake.am_room > 0)
        fake.am_room--;
    struct fake_rec *r = record(FAKE_RNDV_SEND, ep->peer);
    r->id = id;
    r->hlen = hlen;
    memcpy(r->hdr, hdr, hlen);
    rec_rma(r, op);
    rma_track(op);
    return RD_OK;
}

static rd_status fake_rndv_recv(rd_tl *base, void *desc, rd_rma_op *op)
{
    sending("rndv_recv");
    (void)base;
    struct fake_desc *d = desc;
    struct fake_rec *r = record(FAKE_RNDV_RECV, d->peer);
    rec_rma(r, op);
    r->desc = desc;
    rma_track(op);
    return RD_OK;
}

static void fake_rndv_drop(rd_tl *base, void *desc)
{
    sending("rndv_drop");
    (void)base;
    struct fake_desc *d = desc;
    struct fake_rec *r = record(FAKE_RNDV_DROP, d->peer);
    r->desc = desc;
    r->len = d->len;
    free(d->data);
    free(d);
}

static int fake_progress_tl(rd_tl *base)
{
    fake_tl *tl = (fake_tl *)base;
    int n = 0;
    fake.progress_calls++;
    /* finished RMA first (in the order they were started), then what was
     * injected before this call: a handler's answers come in later calls */
    for (struct fake_rma **pp = &tl->rma_head, *prev = NULL; *pp;) {
        struct fake_rma *m = *pp;
        if (!m->finished) {
            prev = m;
            pp = &m->next;
            continue;
        }
        *pp = m->next;
        if (tl->rma_tail == m)
            tl->rma_tail = prev;
        m->op->done(m->op, m->st);
        free(m);
        n++;
    }
    struct fake_inj *list = tl->inj_head;
    tl->inj_head = tl->inj_tail = NULL;
    while (list) {
        struct fake_inj *j = list;
        list = j->next;
        fake.in_handler++;
        tl->handler(tl->handler_arg, j->from, j->id, j->hdr, j->hlen,
                    j->desc ? (const void *)j->desc : j->data, j->len);
        fake.in_handler--;
        free(j->data);
        free(j);
        n++;
    }
    return n;
}

static void fake_close(rd_tl *base)
{
    fake_tl *tl = (fake_tl *)base;
    fake.closes++;
    while (tl->inj_head) {
        struct fake_inj *j = tl->inj_head;
        tl->inj_head = j->next;
        if (j->desc) {
            free(j->desc->data);
            free(j->desc);
        }
        free(j->data);
        free(j);
    }
    while (tl->rma_head) {
        struct fake_rma *m = tl->rma_head;
        tl->rma_head = m->next;
        free(m);
    }
    if (the_tl == tl)
        the_tl = NULL;
    free(tl);
}

const struct rd_transport fake_transport = {
    .size = sizeof(struct rd_transport),
    .name = "fake",
    .open = fake_open,
    .reachable = fake_reachable,
    .connect = fake_connect,
    .am_send = fake_am_send,
    .mem_reg = fake_mem_reg,
    .mem_dereg = fake_mem_dereg,
    .get = fake_get,
    .put = fake_put,
    .rndv_send = fake_rndv_send,
    .rndv_recv = fake_rndv_recv,
    .rndv_drop = fake_rndv_drop,
    .progress = fake_progress_tl,
    .close = fake_close,
};

/* ------------------------------------------------------------ the test's side */

void fake_engine_up(int nranks, long rndv_protocol)
{
    static int loaded;
    char err[512];
    if (!loaded) {
        if (rd_params_load(err, sizeof(err)) < 0) {
            printf("Bail out! parameters: %s\n", err);
            exit(1);
        }
        loaded = 1;
    }
    if (nranks > FAKE_MAX_RANKS)
        nranks = FAKE_MAX_RANKS;
    rd_param.transports = "";
    rd_param.eager_limit = 0; /* the transport's own */
    rd_param.rndv_protocol = rndv_protocol;
    rd_param.rndv_split_min = 64 * 1024;
    memset(&rd_job, 0, sizeof(rd_job));
    rd_job.rank = 0;
    rd_job.size = nranks;
    rd_job.local_rank = 0;
    rd_job.local_size = nranks;
    rd_job.num_nodes = 1;
    rd_job.universe_size = nranks;
    for (int i = 0; i < nranks; i++)
        local_peers[i] = i;
    rd_job.local_peers = local_peers;
    snprintf(rd_job.nspace, sizeof(rd_job.nspace), "fake");
    memset(fake.inj_seq, 0, sizeof(fake.inj_seq));
    rd_comm_init_predefined();
    rd_status st = rd_p2p_init();
    if (st != RD_OK || !the_tl) {
        printf("Bail out! the engine did not start on the fake transport: %s\n",
               rd_status_string(st));
        exit(1);
    }
}

int fake_engine_down(void)
{
    int left = 0;
    for (struct fake_rec *r = rec_head; r; r = r->next)
        left++;
    if (the_tl) {
        for (struct fake_inj *j = the_tl->inj_head; j; j = j->next)
            left++;
        for (struct fake_rma *m = the_tl->rma_head; m; m = m->next)
            left++;
    }
    fake_flush();
    rd_p2p_close();
    fake_flush(); /* (what close itself asked: a held message's rndv_drop) */
    return left;
}

struct fake_rec *fake_next(void)
{
    struct fake_rec *r = rec_head;
    if (r) {
        rec_head = r->next;
        if (!rec_head)
            rec_tail = NULL;
        r->next = NULL;
    }
    return r;
}

int fake_pending(void)
{
    int n = 0;
    for (struct fake_rec *r = rec_head; r; r = r->next)
        n++;
    return n;
}

void fake_rec_free(struct fake_rec *r)
{
    if (!r)
        return;
    free(r->data);
    free(r);
}

void fake_flush(void)
{
    struct fake_rec *r;
    while ((r = fake_next()) != NULL)
        fake_rec_free(r);
}

int fake_progress(void)
{
    int busy = 0;
    for (int i = 0; i < 100 && rd_progress() > 0; i++)
        busy++;
    return busy;
}

static struct fake_inj *inject(int from, unsigned id, const void *hdr, size_t hlen,
                               const void *data, size_t len)
{
    struct fake_inj *j = calloc(1, sizeof(*j));
    if (!j || hlen > RD_AM_HDR_MAX) {
        printf("Bail out! cannot inject a message\n");
        exit(1);
    }
    j->from = from;
    j->id = id;
    j->hlen = hlen;
    memcpy(j->hdr, hdr, hlen);
    j->len = len;
    j->data = malloc(len ? len : 1);
    if (len)
        memcpy(j->data, data, len);
    if (the_tl->inj_tail)
        the_tl->inj_tail->next = j;
    else
        the_tl->inj_head = j;
    the_tl->inj_tail = j;
    return j;
}

void fake_inject(int from, unsigned id, const void *hdr, size_t hlen, const void *data, size_t len)
{
    inject(from, id, hdr, hlen, data, len);
}

static void env_fill(struct rd_wire_env *e, int from, uint32_t ctx, int src, int tag, uint64_t len)
{
    e->ctx = ctx;
    e->src = src;
    e->tag = tag;
    e->seq = fake.inj_seq[from]++;
    e->len = len;
}

void fake_inject_eager(int from, uint32_t ctx, int src, int tag, const void *data, size_t len)
{
    struct rd_wire_env e;
    env_fill(&e, from, ctx, src, tag, len);
    fake_inject(from, RD_AM_EAGER, &e, sizeof(e), data, len);
}

void fake_inject_sync(int from, uint32_t ctx, int src, int tag, uint64_t sreq, const void *data,
                      size_t len)
{
    struct rd_wire_sync h;
    env_fill(&h.env, from, ctx, src, tag, len);
    h.sreq = sreq;
    fake_inject(from, RD_AM_EAGER_SYNC, &h, sizeof(h), data, len);
}

void fake_inject_rts(int from, uint32_t ctx, int src, int tag, uint64_t len, uint64_t sreq,
                     uint64_t addr, uint32_t proto, const void *key, size_t klen)
{
    struct rd_wire_rts h;
    memset(&h, 0, sizeof(h));
    env_fill(&h.env, from, ctx, src, tag, len);
    h.sreq = sreq;
    h.addr = addr;
    h.proto = proto;
    fake_inject(from, RD_AM_RTS, &h, sizeof(h), key, klen);
}

void fake_inject_ctrl(int from, unsigned id, uint64_t req, uint64_t other, uint64_t addr,
                      uint64_t len, const void *data, size_t dlen)
{
    struct rd_wire_ctrl c = {.req = req, .other = other, .addr = addr, .len = len};
    fake_inject(from, id, &c, sizeof(c), data, dlen);
}

void fake_inject_tl_rts(int from, uint32_t ctx, int src, int tag, uint64_t sreq, const void *data,
                        size_t len)
{
    struct rd_wire_rts h;
    memset(&h, 0, sizeof(h));
    env_fill(&h.env, from, ctx, src, tag, len);
    h.sreq = sreq;
    h.proto = RD_RNDV_TRANSPORT;
    struct fake_desc *d = malloc(sizeof(*d));
    if (!d) {
        printf("Bail out! out of memory\n");
        exit(1);
    }
    d->peer = from;
    d->len = len;
    d->data = malloc(len ? len : 1);
    if (len)
        memcpy(d->data, data, len);
    /* as a transport with its own rendezvous delivers it: the id marked,
     * the descriptor as the data, the data's length (transport.h) */
    struct fake_inj *j = inject(from, RD_AM_RTS | RD_AM_RNDV, &h, sizeof(h), NULL, 0);
    j->desc = d;
    j->len = len;
}

void fake_rma_finish(struct fake_rec *r, rd_status st)
{
    struct fake_rma *m;
    for (m = the_tl ? the_tl->rma_head : NULL; m; m = m->next)
        if (m->op == r->op && !m->finished)
            break;
    if (!m) {
        printf("# fake: no operation in flight for this record\n");
        return;
    }
    if (st == RD_OK) {
        if (r->kind == FAKE_RNDV_RECV) {
            struct fake_desc *d = r->desc;
            memcpy(r->op->local, d->data, r->op->len < d->len ? r->op->len : d->len);
            free(d->data);
            free(d);
            r->desc = NULL;
        } else {
            rma_copy(r->kind, r->op);
        }
    }
    m->finished = 1;
    m->st = st;
    r->finished = 1;
    r->status = st;
}

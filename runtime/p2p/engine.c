/* engine.c - the point-to-point engine's entry points: sending, set-up
 * and close. The rest, one job per file (engine.h): peers.c, a peer's
 * transport and protocol table; match.c, arrivals, matching and the
 * receive side; rndv.c, rendezvous and control messages; progress.c,
 * pending work, completion and rd_progress(). */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "runtime/base/job.h"
#include "runtime/base/log.h"
#include "runtime/base/nodemem.h"
#include "runtime/base/params.h"
#include "runtime/base/report.h"
#include "runtime/objects/datatype.h"
#include "runtime/p2p/engine.h"
#include "runtime/p2p/net.h"
#include "runtime/p2p/tl_load.h"

struct rd_engine rd_eng;

/* ------------------------------------------------------------ sending */

static inline void build_env(struct rd_wire_env *env, const struct rd_request_s *req, uint32_t seq)
{
    env->ctx = req->comm->ctx;
    env->src = req->comm->rank;
    env->tag = req->tag;
    env->seq = seq;
    env->len = req->bytes;
}

/* Send (or queue) the first message of a send request to peer p; eager:
 * the message fits the peer's eager limit (tested once by the caller).
 * It takes the peer's next sequence number (here, or rndv.c's RTS). */
static inline rd_status send_start(struct rd_request_s *req, struct rd_peer *p, int eager)
{
    if (!eager)
        return rd_eng_rndv_start(req, p); /* rndv.c */
    struct rd_pend pd_local, *pd = &pd_local;
    memset(&pd_local, 0, sizeof(pd_local));
    pd->kind = PEND_MSG;
    pd->req = req;
    uint32_t seq = p->send_seq++;
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
    if (!p->pend_head) {
        rd_status st = p->ep->tl->ops->am_send(p->ep, pd->id, pd->hdr, pd->hlen, pd->data, pd->len);
        if (st == RD_OK) {
            if (pd->id == RD_AM_EAGER)
                rd_eng_finish_send(req);
            return RD_OK;
        }
        if (st != RD_ERR_AGAIN)
            return st;
    }
    return rd_eng_pend_copy(req->wpeer, pd);
}

/* send_start; a message that neither left nor waits in the peer's queue
 * gives its sequence number back: the receiver takes the peer's messages
 * in that order, and a number skipped would hold up every later one for
 * ever. */
static inline rd_status send_first(struct rd_request_s *req, struct rd_peer *p, int eager)
{
    size_t bytes = req->bytes; /* (the request may be released by the time send_start returns) */
    rd_status st = send_start(req, p, eager);
    if (st != RD_OK)
        p->send_seq--;
    else if (RD_PV_ON()) /* (MPI_T: a message that left or waits in the peer's queue) */
        rd_pv_msg(0, eager ? RD_PV_EAGER : 1 + req->proto /* (a rendezvous' request lives on) */, p->proto.tl,
                  bytes);
    return st;
}

rd_status rd_p2p_start_send(struct rd_request_s *req)
{
    rd_status st;
    req->wpeer = rd_comm_peer_world(req->comm, req->peer);
    if (!req->raw)
        req->bytes = (size_t)req->count * req->dt->size;
    req->error = MPI_SUCCESS;
    struct rd_peer *p = rd_eng_peer(req->wpeer, &st);
    if (st != RD_OK)
        return st;
    return send_first(req, p, req->bytes <= p->proto.eager_limit);
}

rd_status rd_p2p_start_send_missed(struct rd_request_s *req)
{
    req->wpeer = rd_eng.miss.wpeer;
    req->bytes = rd_eng.miss.bytes;
    req->error = MPI_SUCCESS;
    return send_first(req, rd_eng.miss.peer, rd_eng.miss.eager);
}

/* The fast path cannot take the message: what it looked up stays for the
 * request path (rd_p2p_start_send_missed). */
static inline rd_status send_miss(struct rd_peer *p, int w, size_t bytes, int eager)
{
    rd_eng.miss.peer = p;
    rd_eng.miss.wpeer = w;
    rd_eng.miss.bytes = bytes;
    rd_eng.miss.eager = eager;
    return RD_ERR_AGAIN;
}

rd_status rd_p2p_send_fast(const void *buf, MPI_Count count, MPI_Datatype dt, int dest, int tag,
                           MPI_Comm comm)
{
    rd_status st;
    int w = rd_comm_peer_world(comm, dest);
    size_t bytes = (size_t)count * dt->size;
    struct rd_peer *p = rd_eng_peer(w, &st);
    if (st != RD_OK)
        return st;
    if (__builtin_expect(bytes > p->proto.eager_limit, 0))
        return send_miss(p, w, bytes, 0);
    if (__builtin_expect(p->pend_head != NULL || !dt->contig, 0))
        return send_miss(p, w, bytes, 1);
    struct rd_wire_env env = {comm->ctx, comm->rank, tag, p->send_seq, bytes};
    st = p->ep->tl->ops->am_send(p->ep, RD_AM_EAGER, &env, sizeof(env),
                                 (const char *)buf + dt->true_lb, bytes);
    if (st == RD_OK) {
        p->send_seq++;
        if (RD_PV_ON())
            rd_pv_msg(0, RD_PV_EAGER, p->proto.tl, bytes);
    } else if (st == RD_ERR_AGAIN)
        send_miss(p, w, bytes, 1);
    return st;
}

/* ------------------------------------------------------------ set-up */

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

/* For a report (runtime/base/report.h): messages that arrived and wait for a
 * receive, and work queued for a peer whose transport had no room. */
static void report_engine(struct rd_report_buf *b)
{
    for (uint32_t c = 0; c < rd_eng.nctx; c++) {
        if (rd_eng.ctxq == NULL || rd_eng.ctxq[c] == NULL)
            continue;
        int n = 0;
        const struct rd_ctxq *q = rd_eng.ctxq[c];
        /* (the context's queue, then its lanes: engine.h) */
        for (int l = -1; l < (q->lanes ? RD_LANES : 0) && n <= 16; l++)
        for (const struct rd_message_s *m = (l < 0 ? q : &q->lanes[l])->unexp_head; m; m = m->next, n++) {
            if (n == 16) {
                rd_report_printf(b, "I ... and more unexpected messages in context %u\n", c);
                n++;
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
    for (int w = 0; rd_eng.peers && w < rd_job.size; w++) {
        int n = 0;
        for (const struct rd_pend *q = rd_eng.peers[w].pend_head; q; q = q->next)
            n++;
        if (n > 0)
            rd_report_printf(b, "W %d to send what is queued for %d\t%d message%s to world rank %d queued: "
                             "its transport (%s) has no room yet\n", w, w, n, n > 1 ? "s" : "", w,
                             rd_eng.peers[w].ep ? rd_eng.peers[w].ep->tl->ops->name : "?");
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

    rd_eng.peers = calloc((size_t)rd_job.size, sizeof(*rd_eng.peers));
    rd_eng.flush_list = calloc((size_t)rd_job.size, sizeof(int));
    if (!rd_eng.peers || !rd_eng.flush_list)
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
        st = t->open(&rd_job, peers, rd_eng_am_handler, NULL, &tl);
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
        rd_eng.tls[rd_eng.ntls++] = tl;
        net_open |= t->network;
        if (tl->caps.am_max > rd_eng.scratch_len)
            rd_eng.scratch_len = tl->caps.am_max;
    }
    free(claimed);
    if (rd_eng.ntls == 0) {
        rd_tl_signals_restore();
        rd_error("p2p", "no transport could be opened (RDMPI_TRANSPORTS='%s')", rd_param.transports);
        return RD_ERR_UNREACH;
    }
    rd_eng.scratch = malloc(rd_eng.scratch_len ? rd_eng.scratch_len : 1);
    if (!rd_eng.scratch) {
        rd_tl_signals_restore();
        return RD_ERR_NOMEM;
    }
    st = rd_job_commit();
    if (st == RD_OK)
        st = rd_job_fence(1);
    for (int i = 0; st == RD_OK && i < rd_eng.ntls; i++)
        if (rd_eng.tls[i]->ops->activate)
            st = rd_eng.tls[i]->ops->activate(rd_eng.tls[i]);
    /* (activate may load libraries too: shm's opt-in xmap loads libucm) */
    rd_tl_signals_restore();
    /* the node's memory a transport lends goes to the collectives */
    for (int i = 0; st == RD_OK && i < rd_eng.ntls; i++)
        if (rd_eng.tls[i]->caps.node_mem) {
            rd_node_arena_use(rd_eng.tls[i]->caps.node_mem);
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
        int busy = rd_eng.nflush > 0;
        for (int i = 0; i < rd_eng.ntls && !busy; i++)
            busy = rd_eng.tls[i]->ops->busy && rd_eng.tls[i]->ops->busy(rd_eng.tls[i]);
        if (!busy)
            return RD_OK;
        rd_progress();
    }
}

void rd_p2p_close(void)
{
    rd_eng_release_held();
    rd_node_arena_use(NULL); /* (before the transport that lent it closes) */
    for (int i = 0; i < rd_eng.ntls; i++)
        rd_eng.tls[i]->ops->close(rd_eng.tls[i]);
    rd_eng.ntls = 0;
    rd_net_reset();
    rd_eng_free_messages();
    free(rd_eng.peers);
    free(rd_eng.flush_list);
    free(rd_eng.scratch);
    memset(&rd_eng, 0, sizeof(rd_eng));
}

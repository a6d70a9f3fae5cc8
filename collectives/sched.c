/* sched.c - building, running and advancing collective schedules (sched.h). */
#include "config.h"

#include "collectives/sched.h"

#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collectives/algorithms.h"
#include "runtime/objects/comm.h"
#include "runtime/objects/datatype.h"
#include "runtime/objects/op.h"
#include "runtime/p2p/p2p.h"

/* Schedules being advanced by the progress engine, oldest first, and a
 * small cache of finished ones (their step arrays kept) so that a blocking
 * collective allocates nothing on the steady path. */
static struct rd_sched *active_head, *active_tail;
static struct rd_sched *cache;
static int ncached;
#define RD_SCHED_CACHE 16
static int advancing; /* guards against re-entry through rd_progress() */

/* Scratch buffers are kept for the next collective instead of freed: a
 * large malloc is a fresh mmap, and touching its pages costs more than the
 * collective itself (an Allreduce of 1 MiB took 2.7x longer). Best fit out
 * of a few, up to RD_POOL_BYTES in all. */
#define RD_POOL_N 8
#define RD_POOL_BYTES (64u << 20)
static struct rd_scratch pool[RD_POOL_N];
static int npool;
static size_t pool_bytes;

struct rd_scratch rd_scratch_get(size_t bytes)
{
    int best = -1;
    for (int i = 0; i < npool; i++)
        if (pool[i].size >= bytes && (best < 0 || pool[i].size < pool[best].size))
            best = i;
    if (best >= 0) {
        struct rd_scratch x = pool[best];
        pool[best] = pool[--npool];
        pool_bytes -= x.size;
        return x;
    }
    struct rd_scratch x = {malloc(bytes ? bytes : 1), bytes ? bytes : 1};
    return x;
}

void rd_scratch_put(struct rd_scratch x)
{
    if (!x.p)
        return;
    if (x.size > RD_POOL_BYTES / 2) {
        free(x.p);
        return;
    }
    /* make room: drop the smallest buffers first */
    while (npool == RD_POOL_N || pool_bytes + x.size > RD_POOL_BYTES) {
        int small = 0;
        for (int i = 1; i < npool; i++)
            if (pool[i].size < pool[small].size)
                small = i;
        if (npool == 0 || pool[small].size > x.size) {
            free(x.p);
            return;
        }
        pool_bytes -= pool[small].size;
        free(pool[small].p);
        pool[small] = pool[--npool];
    }
    pool[npool++] = x;
    pool_bytes += x.size;
}

/* Collective tags: the bottom of the negative range (users' tags are >= 0,
 * MPI_ANY_TAG is -1, and the library's other exchanges use small positive
 * tags or tags just below -1; see comm.h), from a per-communicator counter
 * that every rank advances alike, with 64 sub-tags each:
 * INT_MIN + seq * 64 + sub, below RD_TAG_COLL_END (the bit above is
 * RD_TAG_POISON). seq runs over [0, RD_SEQ_ONCE) for the collectives run
 * once, and over the last RD_SEQ_KEPT values for the persistent ones
 * (collectives/persist.c), which keep their tag from MPI_*_init (the
 * inits are ordered as collectives; their starts need not be) to their
 * MPI_Request_free: a persistent collective's tag is taken again by the
 * RD_SEQ_KEPT-th persistent init after it on the communicator. */
#define RD_SUBTAGS 64
#define RD_SEQ_ALL (1u << 22)
#define RD_SEQ_KEPT (1u << 14)
#define RD_SEQ_ONCE (RD_SEQ_ALL - RD_SEQ_KEPT)
static int seq_tag(uint32_t seq)
{
    return INT_MIN + (int)(seq * RD_SUBTAGS);
}

static int next_tag(MPI_Comm comm)
{
    uint32_t seq = comm->coll_seq++;
    return seq_tag(seq % RD_SEQ_ONCE);
}

static struct rd_sched *sched_init(MPI_Comm comm, int tag)
{
    struct rd_sched *s = cache;
    if (s) {
        cache = s->next;
        ncached--;
    } else {
        s = calloc(1, sizeof(*s));
        if (!s)
            return NULL;
    }
    s->nops = 0;
    s->pc = 0;
    s->marked = 0;
    s->npend = 0;
    s->nscratch = 0;
    s->error = MPI_SUCCESS;
    s->bad_peer = -1;
    s->req = NULL;
    s->on_done = NULL;
    s->arg = NULL;
    s->again = 0;
    s->keep = 0;
    s->next = NULL;
    atomic_store_explicit(&s->done, 0, memory_order_relaxed);
    s->comm = comm;
    rd_comm_retain(comm);
    s->lib = s->cur = comm->coll;
    s->tag = s->curtag = tag;
    return s;
}

struct rd_sched *rd_sched_new(MPI_Comm comm)
{
    /* (the tag is taken only once there is a schedule, as before) */
    struct rd_sched *s = sched_init(comm, 0);
    if (s)
        s->tag = s->curtag = next_tag(comm);
    return s;
}

struct rd_sched *rd_sched_new_tagged(MPI_Comm comm, int tag)
{
    return sched_init(comm, tag);
}

struct rd_sched *rd_sched_new_kept(MPI_Comm comm)
{
    struct rd_sched *s = sched_init(comm, 0);
    if (s) {
        s->tag = s->curtag = seq_tag(RD_SEQ_ONCE + comm->pcoll_seq++ % RD_SEQ_KEPT);
        s->keep = 1;
    }
    return s;
}

static void sched_free(struct rd_sched *s)
{
    for (int i = 0; i < s->nscratch; i++)
        rd_scratch_put(s->scratch[i]);
    s->nscratch = 0;
    for (int i = 0; i < s->nops; i++) {
        if (s->ops[i].dt)
            rd_dt_release(s->ops[i].dt);
        if (s->ops[i].sdt)
            rd_dt_release(s->ops[i].sdt);
        if (s->ops[i].op)
            rd_op_release(s->ops[i].op);
    }
    s->nops = 0;
    rd_comm_release(s->comm);
    s->comm = MPI_COMM_NULL;
    if (ncached < RD_SCHED_CACHE) {
        s->next = cache;
        cache = s;
        ncached++;
    } else {
        free(s->ops);
        free(s->pend);
        free(s->scratch);
        free(s);
    }
}

void rd_sched_discard(struct rd_sched *s)
{
    sched_free(s);
}

static struct rd_sop *push(struct rd_sched *s, int kind)
{
    if (s->nops == s->cap) {
        int cap = s->cap ? 2 * s->cap : 16;
        struct rd_sop *ops = realloc(s->ops, (size_t)cap * sizeof(*ops));
        if (!ops)
            return NULL;
        s->ops = ops;
        s->cap = cap;
    }
    struct rd_sop *op = &s->ops[s->nops++];
    memset(op, 0, sizeof(*op));
    op->kind = kind;
    return op;
}

static rd_status p2p_step(struct rd_sched *s, int kind, const void *buf, MPI_Count count,
                          MPI_Datatype dt, int peer, int sub)
{
    if (peer == MPI_PROC_NULL)
        return RD_OK;
    struct rd_sop *op = push(s, kind);
    if (!op)
        return RD_ERR_NOMEM;
    op->buf = (void *)buf;
    op->count = count;
    op->dt = dt;
    rd_dt_retain(dt);
    op->peer = peer;
    op->tag = s->curtag + (sub & (RD_SUBTAGS - 1));
    op->lib = s->cur;
    return RD_OK;
}

rd_status rd_sched_send(struct rd_sched *s, const void *buf, MPI_Count count, MPI_Datatype dt, int peer)
{
    return p2p_step(s, RD_SOP_SEND, buf, count, dt, peer, 0);
}

rd_status rd_sched_recv(struct rd_sched *s, void *buf, MPI_Count count, MPI_Datatype dt, int peer)
{
    return p2p_step(s, RD_SOP_RECV, buf, count, dt, peer, 0);
}

rd_status rd_sched_send_sub(struct rd_sched *s, const void *buf, MPI_Count count, MPI_Datatype dt,
                            int peer, int sub)
{
    return p2p_step(s, RD_SOP_SEND, buf, count, dt, peer, sub);
}

rd_status rd_sched_recv_sub(struct rd_sched *s, void *buf, MPI_Count count, MPI_Datatype dt, int peer,
                            int sub)
{
    return p2p_step(s, RD_SOP_RECV, buf, count, dt, peer, sub);
}

rd_status rd_sched_wait(struct rd_sched *s)
{
    /* two WAITs in a row are one */
    if (s->nops > 0 && s->ops[s->nops - 1].kind == RD_SOP_WAIT)
        return RD_OK;
    return push(s, RD_SOP_WAIT) ? RD_OK : RD_ERR_NOMEM;
}

rd_status rd_sched_reduce(struct rd_sched *s, const void *in, void *inout, MPI_Count count,
                          MPI_Datatype dt, MPI_Op op_)
{
    if (count == 0)
        return RD_OK;
    struct rd_sop *op = push(s, RD_SOP_REDUCE);
    if (!op)
        return RD_ERR_NOMEM;
    op->src = in;
    op->buf = inout;
    op->count = count;
    op->dt = dt;
    rd_dt_retain(dt);
    op->op = op_;
    rd_op_retain(op_);
    return RD_OK;
}

rd_status rd_sched_copy(struct rd_sched *s, const void *src, MPI_Count scount, MPI_Datatype sdt,
                        void *dst, MPI_Count count, MPI_Datatype dt)
{
    if (count == 0 || scount == 0 || (src == dst && sdt == dt && scount == count))
        return RD_OK;
    struct rd_sop *op = push(s, RD_SOP_COPY);
    if (!op)
        return RD_ERR_NOMEM;
    op->src = src;
    op->scount = scount;
    op->sdt = sdt;
    rd_dt_retain(sdt);
    op->buf = dst;
    op->count = count;
    op->dt = dt;
    rd_dt_retain(dt);
    return RD_OK;
}

rd_status rd_sched_call(struct rd_sched *s, int (*fn)(struct rd_sched *, void *), void *arg)
{
    struct rd_sop *op = push(s, RD_SOP_CALL);
    if (!op)
        return RD_ERR_NOMEM;
    op->fn = fn;
    op->arg = arg;
    return RD_OK;
}

void *rd_sched_alloc(struct rd_sched *s, size_t bytes)
{
    if (s->nscratch == s->capscratch) {
        int cap = s->capscratch ? 2 * s->capscratch : 4;
        struct rd_scratch *a = realloc(s->scratch, (size_t)cap * sizeof(*a));
        if (!a)
            return NULL;
        s->scratch = a;
        s->capscratch = cap;
    }
    struct rd_scratch x = rd_scratch_get(bytes);
    if (x.p)
        s->scratch[s->nscratch++] = x;
    return x.p;
}

void *rd_sched_tmp(struct rd_sched *s, MPI_Count count, MPI_Datatype dt)
{
    if (count <= 0)
        return rd_sched_alloc(s, 1);
    /* the bytes that count elements span, from the first element's true
     * lower bound to the last one's true upper bound */
    MPI_Aint span = dt->true_extent + (MPI_Aint)(count - 1) * (dt->extent < 0 ? -dt->extent : dt->extent);
    char *p = rd_sched_alloc(s, (size_t)span);
    if (!p)
        return NULL;
    MPI_Aint shift = dt->true_lb;
    if (dt->extent < 0)
        shift += (MPI_Aint)(count - 1) * dt->extent;
    return p - shift;
}

void rd_coll_copy(const void *src, MPI_Count scount, MPI_Datatype sdt, void *dst, MPI_Count count,
                  MPI_Datatype dt)
{
    size_t sbytes = (size_t)scount * sdt->size, rbytes = (size_t)count * dt->size;
    size_t n = sbytes < rbytes ? sbytes : rbytes;
    if (n == 0)
        return;
    if (sdt->contig) {
        rd_dt_unpack(dst, dt, 0, (const char *)src + sdt->true_lb, n);
        return;
    }
    if (dt->contig) {
        rd_dt_pack(src, sdt, 0, (char *)dst + dt->true_lb, n);
        return;
    }
    char chunk[4096];
    for (size_t off = 0; off < n; off += sizeof(chunk)) {
        size_t len = n - off < sizeof(chunk) ? n - off : sizeof(chunk);
        rd_dt_pack(src, sdt, off, chunk, len);
        rd_dt_unpack(dst, dt, off, chunk, len);
    }
}

/* ------------------------------------------------------------ running */

static void set_error(struct rd_sched *s, int err)
{
    if (s->error == MPI_SUCCESS)
        s->error = err;
}

static int pend_push(struct rd_sched *s, struct rd_request_s *r)
{
    if (s->npend == s->cappend) {
        int cap = s->cappend ? 2 * s->cappend : 8;
        struct rd_request_s **a = realloc(s->pend, (size_t)cap * sizeof(*a));
        if (!a)
            return 0;
        s->pend = a;
        s->cappend = cap;
    }
    s->pend[s->npend++] = r;
    return 1;
}

/* A receive of the schedule brought `sent` bytes from peer where its
 * buffer holds `holds`: the ranks' counts do not match. */
static void mismatch(struct rd_sched *s, int peer, size_t sent, size_t holds)
{
    set_error(s, MPI_ERR_TRUNCATE);
    if (s->bad_peer < 0) {
        s->bad_peer = peer;
        s->bad_sent = sent;
        s->bad_holds = holds;
    }
}

/* All sends/receives started so far complete? Collects their errors. A
 * receive that got more than its buffer holds (truncated) or less than it
 * was posted for is a mismatch of the ranks' counts: every algorithm posts
 * each receive for exactly what its peer sends when the counts match. */
static int pend_done(struct rd_sched *s)
{
    while (s->npend > 0) {
        struct rd_request_s *r = s->pend[s->npend - 1];
        if (!rd_req_done(r))
            return 0;
        if (r->error == MPI_ERR_TRUNCATE && r->kind == RD_REQ_RECV)
            mismatch(s, r->peer, r->sent, r->bytes);
        else if (r->error != MPI_SUCCESS)
            set_error(s, r->error);
        else if (r->kind == RD_REQ_RECV && ((size_t)r->status.rd_bytes != r->bytes || r->status.MPI_TAG != r->tag))
            mismatch(s, r->peer, (size_t)r->status.rd_bytes, r->bytes); /* (the same size: poisoned) */
        rd_req_release(r);
        s->npend--;
    }
    return 1;
}

/* The steps after an error: a mismatch of the counts (MPI_ERR_TRUNCATE)
 * moved only what fit, and every step still runs, so that the ranks keep
 * sending and receiving what the algorithm says (a rank that stopped
 * would leave its peers waiting), its sends marked (start_p2p);
 * anything else stops the sends, receives, reductions and copies. */
static inline int going(const struct rd_sched *s)
{
    return s->error == MPI_SUCCESS || s->error == MPI_ERR_TRUNCATE;
}

/* The reason of a mismatch this schedule met, for the error message. */
static void why(const struct rd_sched *s, char *buf, size_t n)
{
    if (s->bad_sent == s->bad_holds)
        snprintf(buf, n, "the ranks' counts do not match: rank %d passes on data that did not fit or did not come "
                 "at some rank", s->bad_peer);
    else if (s->bad_sent > s->bad_holds)
        snprintf(buf, n, "message truncated: rank %d sends %zu bytes, this rank's buffer holds %zu", s->bad_peer,
                 s->bad_sent, s->bad_holds);
    else
        snprintf(buf, n, "message size mismatch: rank %d sends %zu bytes, this rank expects %zu", s->bad_peer,
                 s->bad_sent, s->bad_holds);
}

void rd_sched_adopt(struct rd_sched *s, struct rd_request_s *req)
{
    if (!pend_push(s, req)) {
        /* no room to remember it: wait for it here, then drop it */
        rd_wait_flag(&req->done);
        set_error(s, req->error != MPI_SUCCESS ? req->error : MPI_ERR_NO_MEM);
        rd_req_release(req);
    }
}

static void start_p2p(struct rd_sched *s, struct rd_sop *op)
{
    int kind = op->kind == RD_SOP_SEND ? RD_REQ_SEND : RD_REQ_RECV, tag = op->tag;
    /* after a mismatch, what this rank sends on is not right (it is
     * derived from what did not fit, or did not come): every send then
     * carries RD_TAG_POISON, so that its receivers find a mismatch too
     * instead of taking it for their result (as MPICH marks such
     * messages with a bit of the tag) */
    if (kind == RD_REQ_SEND && s->error != MPI_SUCCESS && tag < RD_TAG_COLL_END)
        tag |= RD_TAG_POISON; /* (only the collectives' tags: match.c) */
    struct rd_request_s *r = rd_req_new(kind, RD_MODE_STANDARD, op->buf, op->count, op->dt,
                                        op->peer, tag, op->lib);
    if (!r || !pend_push(s, r)) {
        if (r)
            rd_req_release(r);
        set_error(s, MPI_ERR_NO_MEM);
        return;
    }
    if (op->push)
        r->flags = RD_SEND_EXCHANGE;
    rd_status st = kind == RD_REQ_SEND ? rd_p2p_start_send(r) : rd_p2p_start_recv(r);
    if (st != RD_OK) {
        /* not started: it will never complete; mark it so */
        r->error = rd_status_to_mpi(st);
        rd_req_complete(r);
    }
}

/* Sends in a round (between two WAITs) in which this rank also receives
 * are two-way traffic: every core is busy with its own outgoing data. The
 * schedule says so (RD_SEND_EXCHANGE), and the engine's protocol table
 * maps that to a push by each sender (rendezvous by put: the sender's core
 * copies, from its cache, what it has often just written or received),
 * instead of splitting each copy between two cores, which pays off for
 * one-way traffic (a broadcast tree). Measured, 1 MiB: allgather on 2
 * ranks 47 us by put against 135 by split; ring allgather on 4 ranks 471
 * against 620. */
static void mark_exchanges(struct rd_sched *s)
{
    /* from the start of the round holding the first op not yet looked at:
     * a schedule that grows (a CALL step appends the next exchange, as a
     * collective file access does: runtime/io/coll.c) has its new rounds
     * marked as they come; an op already started keeps its flag */
    int lo = s->marked;
    while (lo > 0 && s->ops[lo - 1].kind != RD_SOP_WAIT)
        lo--;
    while (lo < s->nops) {
        int hi = lo, recvs = 0;
        while (hi < s->nops && s->ops[hi].kind != RD_SOP_WAIT)
            recvs += s->ops[hi++].kind == RD_SOP_RECV;
        for (int i = lo; i < hi; i++)
            if (s->ops[i].kind == RD_SOP_SEND)
                s->ops[i].push = recvs > 0;
        lo = hi + 1;
    }
    s->marked = s->nops;
}

/* Run steps until one must wait; returns 1 when the schedule is finished. */
static int advance(struct rd_sched *s)
{
    while (s->pc < s->nops) {
        if (s->marked < s->nops) /* new ops: at the start, or appended by a CALL */
            mark_exchanges(s);
        struct rd_sop *op = &s->ops[s->pc];
        switch (op->kind) {
        case RD_SOP_SEND:
        case RD_SOP_RECV:
            if (going(s))
                start_p2p(s, op);
            break;
        case RD_SOP_WAIT:
            if (!pend_done(s))
                return 0;
            break;
        case RD_SOP_REDUCE:
            if (going(s)) {
                int err = rd_op_apply(op->op, op->src, op->buf, op->count, op->dt);
                if (err != MPI_SUCCESS)
                    set_error(s, err);
            }
            break;
        case RD_SOP_COPY:
            if (going(s))
                rd_coll_copy(op->src, op->scount, op->sdt, op->buf, op->count, op->dt);
            break;
        case RD_SOP_CALL:
            if (going(s)) {
                int err = op->fn(s, op->arg);
                if (err != MPI_SUCCESS)
                    set_error(s, err);
            }
            break;
        }
        s->pc++;
    }
    return pend_done(s);
}

/* The steps are done: on_done may ask for another run of them (another
 * round on the same tag; every rank runs its rounds in order, and messages
 * between two ranks are matched in the order they were sent). Returns 1
 * when the schedule is finished, 0 when it starts over. */
static int wrap_up(struct rd_sched *s)
{
    if (!s->on_done)
        return 1;
    s->on_done(s);
    if (!s->again)
        return 1;
    s->again = 0;
    s->pc = 0;
    return 0;
}

static void finish(struct rd_sched *s)
{
    struct rd_request_s *req = s->req;
    if (req) {
        req->error = s->error;
        if (s->bad_peer >= 0 && s->error == MPI_ERR_TRUNCATE && !req->user_freed) {
            char buf[200];
            why(s, buf, sizeof buf);
            req->why = strdup(buf); /* (NULL: the message says less) */
        }
        if (s->keep) { /* (persistent: the schedule stays for the next start) */
            s->req = NULL;
            if (req->user_freed) { /* freed while active: it goes with the request */
                free(s->arg);
                sched_free(s);
            }
        } else {
            sched_free(s);
        }
        rd_req_complete(req);
    } else {
        atomic_store_explicit(&s->done, 1, memory_order_release);
    }
}

static void activate(struct rd_sched *s)
{
    s->next = NULL;
    if (active_tail)
        active_tail->next = s;
    else
        active_head = s;
    active_tail = s;
    rd_progress_add(rd_sched_progress);
}

int rd_sched_progress(void)
{
    if (advancing)
        return 0;
    advancing = 1;
    int n = 0;
    struct rd_sched *prev = NULL, *s = active_head;
    while (s) {
        struct rd_sched *next = s->next;
        int pc = s->pc, np = s->npend;
        if (advance(s) && wrap_up(s)) {
            if (prev)
                prev->next = next;
            else
                active_head = next;
            if (active_tail == s)
                active_tail = prev;
            finish(s);
            n++;
        } else {
            n += (s->pc != pc) + (s->npend != np);
            prev = s;
        }
        s = next;
    }
    if (!active_head)
        rd_progress_remove(rd_sched_progress);
    advancing = 0;
    return n;
}

/* The steps a new schedule can take at once, outside the progress hook. */
static int advance_first(struct rd_sched *s)
{
    int was = advancing;
    advancing = 1;
    int finished = advance(s);
    advancing = was;
    return finished;
}

int rd_sched_run(struct rd_sched *s)
{
    if (!(advance_first(s) && wrap_up(s))) {
        activate(s);
        rd_wait_flag(&s->done);
    }
    int err = s->error;
    if (s->bad_peer >= 0 && err == MPI_ERR_TRUNCATE) {
        char buf[200];
        why(s, buf, sizeof buf);
        rd_coll_why("%s", buf);
    }
    sched_free(s);
    return err;
}

void rd_sched_restart(struct rd_sched *s, struct rd_request_s *req)
{
    s->pc = 0;
    s->npend = 0;
    s->error = MPI_SUCCESS;
    s->bad_peer = -1;
    s->again = 0;
    s->req = req;
    req->why = NULL;
    if (advance_first(s) && wrap_up(s))
        finish(s);
    else
        activate(s);
}

void rd_sched_free_kept(struct rd_sched *s)
{
    free(s->arg);
    sched_free(s);
}

rd_status rd_sched_start(struct rd_sched *s, struct rd_request_s **reqp)
{
    struct rd_request_s *req = rd_req_alloc(RD_REQ_COLL);
    if (!req) {
        sched_free(s);
        return RD_ERR_NOMEM;
    }
    req->comm = s->comm;
    req->why = NULL;
    req->io.file = NULL; /* a file's collective access sets it (runtime/io/coll.c) */
    rd_comm_retain(s->comm);
    rd_status_empty(&req->status);
    s->req = req;
    *reqp = req;
    if (advance_first(s) && wrap_up(s))
        finish(s);
    else
        activate(s);
    return RD_OK;
}

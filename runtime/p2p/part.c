/* part.c - partitioned communication (part.h).
 *
 * A partitioned send is the sender's partitions as ordinary messages of
 * the engine, one per partition, each started by the MPI_Pready that marks
 * it, on the communicator's library twin with a tag of its own
 * (RD_TAG_PART_BASE + base + i, base taken at the init from the
 * communicator's counter). So each partition leaves as soon as it is
 * ready, by the protocol its size takes (eager; a rendezvous by RDMA
 * where the transport has it), whatever the other partitions do.
 *
 * The two sides may cut the message differently. At its init the sender
 * announces itself to the receiver by an active message (the "hello":
 * context, tag, its partitions, their size, its base); the receiver's
 * init takes the first announcement with its context, source and tag, or
 * waits for it. A sender's active messages arrive in the order it made
 * its inits, and the receiver keeps both lists (announcements not yet
 * taken, receives not yet announced) in order, so the k-th partitioned
 * receive of (source, tag) on a communicator meets the k-th partitioned
 * send, as MPI's matching rules say; nothing waits for the peer at the
 * init or at MPI_Start. Once announced, the receiver posts one receive
 * per sender partition at each start: straight into its buffer at the
 * partition's byte offset when its datatype is contiguous, else into a
 * bounce buffer from which each arrived piece is unpacked (also when the
 * sender's message is longer than the buffer: MPI_ERR_TRUNCATE, what fits
 * is delivered).
 *
 * MPI_Parrived(p) is true once every sender partition that overlaps the
 * receiver's partition p has arrived (and been unpacked). The request
 * completes, from a progress hook that runs while any is active, when
 * all its messages have. Called under the big lock. */
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/base/job.h"
#include "runtime/objects/comm.h"
#include "runtime/objects/datatype.h"
#include "runtime/p2p/p2p.h"
#include "runtime/p2p/part.h"

/* The sender's announcement. */
struct hello {
    uint32_t ctx;    /* the communicator's context */
    int32_t tag;     /* the user's tag */
    int32_t parts;   /* the sender's partitions */
    uint32_t base;   /* the tag of its partition i: RD_TAG_PART_BASE + (base + i) % RD_TAG_PART_SPAN */
    uint64_t pbytes; /* the bytes of one */
};

struct part {
    struct rd_request_s *user;
    int send;
    int parts;              /* the user's partitions */
    size_t pbytes;          /* bytes of one of them */
    uint32_t ctx;           /* matching: the communicator's context, */
    int wpeer;              /* the peer's world rank */
    /* receive: what the sender announced */
    int matched;
    struct hello h;
    void *bounce;           /* the message lands here (non-contiguous type, or too long), or NULL */
    /* the messages: the sender's partitions (send: nsub == parts) */
    int nsub;
    struct rd_request_s **sub;
    uint8_t *flag;          /* this round: send, marked ready; receive, arrived (and unpacked) */
    int cursor;             /* every message below it is done (and settled) */
    int posted;             /* receive: this round's receives are posted */
    struct part *next, *prev; /* on `active`: started, not complete */
    int is_active;
    struct wait *wait;      /* on `waiting`: a receive not announced yet (started or not), or NULL */
};

/* A receive waiting for its sender's announcement, in init order. One
 * freed before it came stays as a place holder (p NULL) that takes and
 * drops the announcement meant for it, so that the next receive of the
 * same (context, source, tag) does not take it instead. */
struct wait {
    uint32_t ctx;
    int wpeer, tag;
    struct part *p;
    struct wait *next;
};

/* An announcement no receive has taken yet. */
struct unexp {
    int wsrc;
    struct hello h;
    struct unexp *next;
};

static struct part *active;
static struct wait *waiting;
static struct unexp *unexp_head, **unexp_tail = &unexp_head;
static int advancing;

static void active_add(struct part *p)
{
    p->prev = NULL;
    p->next = active;
    if (active)
        active->prev = p;
    active = p;
    p->is_active = 1;
}

static void active_del(struct part *p)
{
    if (p->prev)
        p->prev->next = p->next;
    else
        active = p->next;
    if (p->next)
        p->next->prev = p->prev;
    p->next = p->prev = NULL;
    p->is_active = 0;
}

/* `waiting` is in init order (matching takes the first): appended at the
 * tail. 0, or -1 when out of memory. */
static int waiting_add(struct part *p)
{
    struct wait *w = malloc(sizeof(*w)), **pp = &waiting;
    if (!w)
        return -1;
    *w = (struct wait){.ctx = p->ctx, .wpeer = p->wpeer, .tag = p->user->tag, .p = p};
    while (*pp)
        pp = &(*pp)->next;
    *pp = w;
    p->wait = w;
    return 0;
}

static int data_tag(uint32_t base, int i)
{
    return RD_TAG_PART_BASE + (int)((base + (uint32_t)i) % RD_TAG_PART_SPAN);
}

static void sub_start(struct rd_request_s *r, int send)
{
    atomic_store_explicit(&r->done, 0, memory_order_relaxed);
    r->error = MPI_SUCCESS;
    rd_status_empty(&r->status);
    rd_status st = send ? rd_p2p_start_send(r) : rd_p2p_start_recv(r);
    if (st != RD_OK) { /* not started: it never completes by itself */
        r->error = rd_status_to_mpi(st);
        rd_req_complete(r);
    }
}

static size_t min_sz(size_t a, size_t b)
{
    return a < b ? a : b;
}

/* ------------------------------------------------------------ matching */

static void take(struct part *p, const struct hello *h)
{
    p->h = *h;
    p->matched = 1;
}

void rd_part_am(int wsrc, const void *hdr, size_t hlen)
{
    struct hello h;
    if (hlen != sizeof(h))
        rd_job_abort(MPI_ERR_INTERN, "partitioned communication: a malformed announcement");
    memcpy(&h, hdr, sizeof(h));
    for (struct wait **pw = &waiting; *pw; pw = &(*pw)->next) {
        struct wait *w = *pw;
        if (w->ctx == h.ctx && w->wpeer == wsrc && w->tag == h.tag) {
            *pw = w->next;
            if (w->p) { /* (a started one is on `active`: the hook posts its receives) */
                w->p->wait = NULL;
                take(w->p, &h);
            } /* (else its receive was freed: the announcement goes with the place holder) */
            free(w);
            return;
        }
    }
    struct unexp *u = malloc(sizeof(*u));
    if (!u)
        rd_job_abort(MPI_ERR_NO_MEM, "partitioned communication: out of memory");
    u->wsrc = wsrc;
    u->h = h;
    u->next = NULL;
    *unexp_tail = u;
    unexp_tail = &u->next;
}

/* A new receive: the first announcement not yet taken that is its. */
static void match_new(struct part *p)
{
    for (struct unexp **pu = &unexp_head; *pu; pu = &(*pu)->next) {
        struct unexp *u = *pu;
        if (u->h.ctx == p->ctx && u->wsrc == p->wpeer && u->h.tag == p->user->tag) {
            take(p, &u->h);
            *pu = u->next;
            if (!*pu)
                unexp_tail = pu;
            free(u);
            return;
        }
    }
    if (waiting_add(p) != 0)
        rd_job_abort(MPI_ERR_NO_MEM, "partitioned communication: out of memory");
}

/* ------------------------------------------------------------ init and free */

void rd_part_free(struct rd_request_s *req)
{
    struct part *p = req->part;
    if (!p)
        return;
    if (p->wait)
        p->wait->p = NULL; /* (a place holder now: rd_part_am) */
    if (p->is_active)
        active_del(p);
    for (int i = 0; p->sub && i < p->nsub; i++)
        if (p->sub[i])
            rd_req_release(p->sub[i]);
    free(p->sub);
    free(p->flag);
    free(p->bounce);
    free(p);
    req->part = NULL;
}

int rd_part_init(int send, const void *buf, int parts, MPI_Count count, MPI_Datatype dt, int peer, int tag,
                 MPI_Comm comm, struct rd_request_s **out, const char **why)
{
    size_t pbytes = (size_t)count * dt->size;
    if (parts > 0 && pbytes > (size_t)INT64_MAX / (size_t)parts) {
        *why = "the partitions' bytes pass 2^63";
        return MPI_ERR_COUNT;
    }
    if (send && parts > RD_TAG_PART_SPAN) {
        *why = "more than 2^28 partitions are not supported";
        return MPI_ERR_ARG;
    }
    *why = "out of memory";
    struct part *p = calloc(1, sizeof(*p));
    struct rd_request_s *req = p ? rd_req_new(RD_REQ_COLL, RD_MODE_STANDARD, buf, count, dt, peer, tag, comm)
                                 : NULL;
    if (!req) {
        free(p);
        return MPI_ERR_NO_MEM;
    }
    req->persistent = 1;
    req->why = NULL;     /* (not cleared by the allocation) */
    req->io.file = NULL;
    req->part = p;
    p->user = req;
    p->send = send;
    p->parts = parts;
    p->pbytes = pbytes;
    if (send) {
        p->nsub = parts;
        p->flag = calloc((size_t)parts + 1, 1);
        if (!p->flag)
            goto nomem;
    }
    if (peer == MPI_PROC_NULL) {
        *out = req;
        return MPI_SUCCESS;
    }
    p->ctx = comm->ctx;
    p->wpeer = rd_comm_peer_world(comm, peer);
    if (!send) {
        match_new(p);
        *out = req;
        return MPI_SUCCESS;
    }
    p->sub = calloc((size_t)parts + 1, sizeof(*p->sub));
    if (!p->sub)
        goto nomem;
    uint32_t base = comm->part_seq;
    comm->part_seq = (uint32_t)(((uint64_t)base + (uint64_t)parts) % RD_TAG_PART_SPAN);
    for (int i = 0; i < parts; i++) {
        const char *at = (const char *)buf + (MPI_Aint)i * count * dt->extent;
        p->sub[i] = rd_req_new(RD_REQ_SEND, RD_MODE_STANDARD, at, count, dt, peer, data_tag(base, i), comm->coll);
        if (!p->sub[i])
            goto nomem;
        p->sub[i]->persistent = 1;
    }
    struct hello h = {.ctx = p->ctx, .tag = tag, .parts = parts, .base = base, .pbytes = pbytes};
    rd_status st = p->wpeer == rd_job.rank ? (rd_part_am(p->wpeer, &h, sizeof(h)), RD_OK)
                                             : rd_p2p_am_post(p->wpeer, RD_P2P_AM_PART, &h, sizeof(h), NULL, 0);
    if (st != RD_OK) {
        *why = rd_status_string(st);
        rd_part_free(req);
        rd_req_release(req);
        return rd_status_to_mpi(st);
    }
    *out = req;
    return MPI_SUCCESS;
nomem:
    rd_part_free(req);
    rd_req_release(req);
    return MPI_ERR_NO_MEM;
}

/* ------------------------------------------------------------ the rounds */

static int part_progress(void);

/* A receive's messages, made the first time it is posted. An error
 * class (then nothing is kept). */
static int make_recvs(struct part *p)
{
    struct rd_request_s *u = p->user;
    size_t stot = (size_t)p->h.parts * p->h.pbytes, rtot = (size_t)p->parts * p->pbytes;
    if ((!u->dt->contig || stot > rtot) && !(p->bounce = malloc(stot ? stot : 1)))
        return MPI_ERR_NO_MEM;
    p->sub = calloc((size_t)p->h.parts + 1, sizeof(*p->sub));
    p->flag = calloc((size_t)p->h.parts + 1, 1);
    int ok = p->sub && p->flag;
    for (int j = 0; ok && j < p->h.parts; j++) {
        size_t off = (size_t)j * p->h.pbytes;
        char *at = p->bounce ? (char *)p->bounce + off : (char *)u->buf + u->dt->true_lb + off;
        p->sub[j] = rd_req_new(RD_REQ_RECV, RD_MODE_STANDARD, at, (MPI_Count)p->h.pbytes, MPI_BYTE, u->peer,
                               data_tag(p->h.base, j), u->comm->coll);
        if (!p->sub[j])
            ok = 0;
        else
            p->sub[j]->persistent = 1;
    }
    if (ok) {
        p->nsub = p->h.parts;
        return MPI_SUCCESS;
    }
    for (int j = 0; p->sub && j < p->h.parts && p->sub[j]; j++)
        rd_req_release(p->sub[j]);
    free(p->sub);
    free(p->flag);
    free(p->bounce);
    p->sub = NULL;
    p->flag = NULL;
    p->bounce = NULL;
    return MPI_ERR_NO_MEM;
}

/* A receive's messages for this round, once announced: made the first
 * time, then started. An error class. */
static int post(struct part *p)
{
    if (!p->sub) {
        int err = make_recvs(p);
        if (err != MPI_SUCCESS)
            return err;
    }
    memset(p->flag, 0, (size_t)p->nsub);
    for (int j = 0; j < p->nsub; j++)
        sub_start(p->sub[j], 0);
    p->posted = 1;
    return MPI_SUCCESS;
}

/* Receive: whether message j has arrived; the first time it is seen, its
 * bytes are unpacked from the bounce buffer. */
static int settle(struct part *p, int j)
{
    if (p->flag[j])
        return 1;
    if (!rd_req_done(p->sub[j]))
        return 0;
    if (p->bounce) {
        struct rd_request_s *u = p->user;
        size_t off = (size_t)j * p->h.pbytes, rtot = (size_t)p->parts * p->pbytes;
        if (off < rtot)
            rd_dt_unpack(u->buf, u->dt, off, (char *)p->bounce + off, min_sz(p->h.pbytes, rtot - off));
    }
    p->flag[j] = 1;
    return 1;
}

static void finish(struct part *p, int err)
{
    struct rd_request_s *u = p->user;
    char why[160] = "";
    for (int j = 0; err == MPI_SUCCESS && (p->send || p->posted) && j < p->nsub; j++)
        if (p->sub[j]->error != MPI_SUCCESS)
            err = p->sub[j]->error;
    if (!p->send) {
        size_t stot = (size_t)p->h.parts * p->h.pbytes, rtot = (size_t)p->parts * p->pbytes;
        u->status.MPI_SOURCE = u->peer;
        u->status.MPI_TAG = u->tag;
        u->status.rd_bytes = (MPI_Count)min_sz(stot, rtot);
        if (err == MPI_SUCCESS && stot > rtot) {
            err = MPI_ERR_TRUNCATE;
            snprintf(why, sizeof why,
                     "the partitioned message from rank %d (tag %d) has %zu bytes, more than the %zu of the "
                     "receive buffer",
                     u->peer, u->tag, stot, rtot);
        }
    }
    if (err != MPI_SUCCESS && !why[0])
        snprintf(why, sizeof why, "a partition %s rank %d failed", p->send ? "sent to" : "received from",
                 u->peer);
    u->error = err;
    u->status.MPI_ERROR = err;
    if (err != MPI_SUCCESS && !u->user_freed) {
        free(u->why);
        u->why = strdup(why); /* (NULL when out of memory: the Wait says less) */
    }
    active_del(p);
    if (!active)
        rd_progress_remove(part_progress);
    if (u->user_freed)
        rd_part_free(u); /* (rd_req_complete releases it) */
    rd_req_complete(u);
}

static int advance(struct part *p)
{
    int n = 0;
    if (!p->send) {
        if (!p->matched)
            return 0;
        if (!p->posted) {
            int err = post(p);
            if (err != MPI_SUCCESS) {
                finish(p, err);
                return 1;
            }
            n++;
        }
    }
    while (p->cursor < p->nsub &&
           (p->send ? p->flag[p->cursor] && rd_req_done(p->sub[p->cursor]) : settle(p, p->cursor))) {
        p->cursor++;
        n++;
    }
    if (p->cursor == p->nsub) {
        finish(p, MPI_SUCCESS);
        n++;
    }
    return n;
}

static int part_progress(void)
{
    if (advancing)
        return 0;
    advancing = 1;
    int n = 0;
    for (struct part *p = active, *next; p; p = next) {
        next = p->next;
        n += advance(p);
    }
    advancing = 0;
    return n;
}

int rd_part_start(struct rd_request_s *req)
{
    struct part *p = req->part;
    rd_status_empty(&req->status);
    if (p->flag && p->send)
        memset(p->flag, 0, (size_t)p->parts);
    p->cursor = 0;
    p->posted = 0;
    if (req->peer == MPI_PROC_NULL) {
        req->status.MPI_SOURCE = MPI_PROC_NULL;
        rd_req_complete(req);
        return MPI_SUCCESS;
    }
    if (rd_progress_add(part_progress) != 0)
        return MPI_ERR_INTERN;
    if (!p->send && p->matched) {
        int err = post(p);
        if (err != MPI_SUCCESS) {
            if (!active)
                rd_progress_remove(part_progress);
            return err;
        }
    }
    active_add(p);
    return MPI_SUCCESS;
}

/* ------------------------------------------------------------ partitions */

int rd_part_kind(const struct rd_request_s *req)
{
    const struct part *p = req->part;
    return p ? p->send : -1;
}

int rd_part_count(const struct rd_request_s *req)
{
    return ((const struct part *)req->part)->parts;
}

int rd_part_is_ready(const struct rd_request_s *req, int i)
{
    return ((const struct part *)req->part)->flag[i];
}

void rd_part_ready(struct rd_request_s *req, int i)
{
    struct part *p = req->part;
    p->flag[i] = 1;
    if (req->peer != MPI_PROC_NULL)
        sub_start(p->sub[i], 1);
}

int rd_part_arrived(struct rd_request_s *req, int i)
{
    struct part *p = req->part;
    if (!req->active || rd_req_done(req) || req->peer == MPI_PROC_NULL)
        return 1;
    if (!p->matched || !p->posted)
        return 0;
    size_t total = min_sz((size_t)p->h.parts * p->h.pbytes, (size_t)p->parts * p->pbytes);
    size_t lo = (size_t)i * p->pbytes, hi = min_sz(lo + p->pbytes, total);
    if (lo >= hi) /* none of it comes: there once everything is */
        return p->cursor == p->nsub;
    for (size_t j = lo / p->h.pbytes; j <= (hi - 1) / p->h.pbytes; j++)
        if (!settle(p, (int)j))
            return 0;
    return 1;
}

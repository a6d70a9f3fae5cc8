/* request.c - request allocation, completion and waiting (request.h). */
#include "config.h"

#include "runtime/p2p/request.h"

#include <limits.h>
#include <sched.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#if defined(__linux__)
#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

#include "runtime/base/job.h"
#include "runtime/base/params.h"
#include "runtime/base/pvar.h"
#include "runtime/base/report.h"
#include "runtime/objects/comm.h"
#include "runtime/objects/datatype.h"
#include "runtime/p2p/bsend.h"
#include "runtime/objects/fhandle.h"

int (*rd_progress_hooks[RD_PROGRESS_HOOKS_MAX])(void);
int rd_progress_nhooks;

int rd_progress_add(int (*fn)(void))
{
    int free_slot = -1;
    for (int i = 0; i < RD_PROGRESS_HOOKS_MAX; i++) {
        if (rd_progress_hooks[i] == fn)
            return 0;
        if (!rd_progress_hooks[i] && free_slot < 0)
            free_slot = i;
    }
    if (free_slot < 0)
        return -1;
    rd_progress_hooks[free_slot] = fn;
    rd_progress_nhooks++;
    return 0;
}

void rd_progress_remove(int (*fn)(void))
{
    for (int i = 0; i < RD_PROGRESS_HOOKS_MAX; i++)
        if (rd_progress_hooks[i] == fn) {
            rd_progress_hooks[i] = NULL; /* (a slot, not a shift: rd_progress may be walking the list) */
            rd_progress_nhooks--;
        }
}

int rd_progress_has(int (*fn)(void))
{
    for (int i = 0; i < RD_PROGRESS_HOOKS_MAX; i++)
        if (rd_progress_hooks[i] == fn)
            return 1;
    return 0;
}

/* Free list, refilled a slab at a time: no malloc per message. The slabs
 * are remembered, so that a report can list every request in flight. */
#define RD_REQ_SLAB 64
static struct rd_request_s *rd_req_free_list;
static struct rd_request_s **slabs;
static size_t nslabs, slabs_cap;

static void report_requests(struct rd_report_buf *b);


struct rd_request_s *rd_req_alloc(int kind)
{
    struct rd_request_s *r = rd_req_free_list;
    if (!r) {
        struct rd_request_s *slab = calloc(RD_REQ_SLAB, sizeof(*slab));
        if (!slab)
            return NULL;
        if (nslabs == slabs_cap) {
            size_t cap = slabs_cap ? 2 * slabs_cap : 16;
            struct rd_request_s **n = realloc(slabs, cap * sizeof(*n));
            if (!n) {
                free(slab);
                return NULL;
            }
            slabs = n;
            slabs_cap = cap;
            if (nslabs == 0)
                rd_report_register(report_requests);
        }
        slabs[nslabs++] = slab;
        for (int i = RD_REQ_SLAB - 1; i >= 0; i--) {
            slab[i].next = rd_req_free_list;
            rd_req_free_list = &slab[i];
        }
        r = rd_req_free_list;
    }
    rd_req_free_list = r->next;
    /* the flags and the status are cleared at once; the rest one by one
     * (a message-rate burst allocates a request per message) */
    memset(r, 0, offsetof(struct rd_request_s, buf));
    r->buf = NULL;
    r->count = 0;
    r->dt = MPI_DATATYPE_NULL;
    r->comm = MPI_COMM_NULL;
    r->peer = r->tag = 0;
    r->bytes = 0;
    r->wpeer = 0;
    r->next = r->prev = NULL;
    r->tmp = NULL;
    r->frag_off = r->xfer = 0;
    r->remote = 0;
    r->mr = NULL;
    r->rkey = NULL;
    r->rkey_len = 0;
    r->bsend_block = NULL;
    r->magic = RD_REQ_MAGIC;
    r->kind = (uint8_t)kind;
    r->error = MPI_SUCCESS;
    return r;
}

struct rd_request_s *rd_req_new(int kind, int mode, const void *buf, MPI_Count count, MPI_Datatype dt,
                                int peer, int tag, MPI_Comm comm)
{
    struct rd_request_s *req = rd_req_alloc(kind);
    if (!req)
        return NULL;
    req->mode = (uint8_t)mode;
    req->buf = (void *)buf;
    req->count = count;
    req->dt = dt;
    rd_dt_retain(dt);
    req->peer = peer;
    req->tag = tag;
    req->comm = comm;
    rd_comm_retain(comm);
    return req;
}

void rd_req_release(struct rd_request_s *req)
{
    rd_fh_drop(RD_FH_REQUEST, &req->fidx);
    if (req->dt)
        rd_dt_release(req->dt);
    if (req->comm && !req->comm->predefined) /* (a predefined one is not counted) */
        rd_comm_release(req->comm);
    req->magic = 0;
    req->next = rd_req_free_list;
    rd_req_free_list = req;
}

void rd_req_complete_slow(struct rd_request_s *req)
{
    if (req->bsend_block) {
        rd_bsend_release(req->bsend_block);
        req->bsend_block = NULL;
    }
    if (req->internal || (req->user_freed && !req->persistent)) {
        rd_req_release(req);
        return;
    }
    if (req->user_freed && req->persistent) {
        rd_req_release(req);
        return;
    }
    atomic_store_explicit(&req->done, 1, memory_order_release);
}

/* yields of a blocked wait, after its spins, before RDMPI_WAIT_SLEEP lets it sleep */
#define RD_WAIT_YIELDS 100

static void wait_step(long *idle)
{
    long spins = rd_job.oversubscribed ? 0 : rd_param.spin_count;
    rd_report_poll();
    if (rd_progress() > 0) {
        *idle = 0;
    } else if (++*idle > spins) {
        /* nothing is happening: let the other ranks on this core run, and
         * after a while (RDMPI_WAIT_SLEEP) let the core rest */
        RD_UNLOCK();
        if (rd_param.wait_sleep > 0 && *idle > spins + RD_WAIT_YIELDS) {
            struct timespec ts = {rd_param.wait_sleep / 1000000, rd_param.wait_sleep % 1000000 * 1000};
            nanosleep(&ts, NULL);
        } else {
            sched_yield();
        }
        RD_LOCK();
    } else if (rd_threaded) {
        RD_UNLOCK();
        RD_LOCK();
    }
}

/* MPI_T's p2p_wait_time: the time in the steps, while it is counted */
void rd_wait_step(long *idle)
{
    if (RD_PV_ON()) {
        uint64_t t0 = rd_pv_now_ns();
        wait_step(idle);
        __atomic_fetch_add(&rd_pv.wait_ns, rd_pv_now_ns() - t0, __ATOMIC_RELAXED);
    } else {
        wait_step(idle);
    }
}

void rd_wait_flag(const _Atomic int *flag)
{
    long idle = 0;
    while (!atomic_load_explicit(flag, memory_order_acquire))
        rd_wait_step(&idle);
}

/* ------------------------------------------------------------ I/O waits */

_Atomic uint32_t rd_io_seq;
/* waits asleep on rd_io_seq: the I/O thread makes the wake-up call only
 * when there is one (both sides sequentially consistent: either the waker
 * sees the sleeper, or the sleeper's futex sees the new value) */
static _Atomic int io_sleepers;

void rd_io_seq_wake(void)
{
    atomic_fetch_add(&rd_io_seq, 1);
#if defined(__linux__)
    if (atomic_load(&io_sleepers) > 0)
        syscall(SYS_futex, &rd_io_seq, FUTEX_WAKE_PRIVATE, INT_MAX, NULL, NULL, 0);
#endif
}

static void io_sleep(uint32_t seq)
{
#if defined(__linux__)
    struct timespec ts = {0, RD_IO_SLEEP_US * 1000L};
    atomic_fetch_add(&io_sleepers, 1);
    if (atomic_load(&rd_io_seq) == seq)
        syscall(SYS_futex, &rd_io_seq, FUTEX_WAIT_PRIVATE, seq, &ts, NULL, 0);
    atomic_fetch_sub(&io_sleepers, 1);
#else
    (void)seq;
    sched_yield();
#endif
}

void rd_wait_step_io(long *idle, uint32_t seq)
{
    uint64_t t0 = RD_PV_ON() ? rd_pv_now_ns() : 0;
    long spins = rd_job.oversubscribed ? 0 : rd_param.spin_count;
    rd_report_poll();
    if (rd_progress() > 0) {
        *idle = 0;
    } else if (++*idle > spins) {
        RD_UNLOCK();
        io_sleep(seq);
        RD_LOCK();
    } else if (rd_threaded) {
        RD_UNLOCK();
        RD_LOCK();
    }
    if (t0)
        __atomic_fetch_add(&rd_pv.wait_ns, rd_pv_now_ns() - t0, __ATOMIC_RELAXED);
}

void rd_req_wait_io(struct rd_request_s *req)
{
    long idle = 0;
    for (;;) {
        uint32_t seq = atomic_load(&rd_io_seq);
        if (rd_req_done(req))
            return;
        rd_wait_step_io(&idle, seq);
    }
}

/* ------------------------------------------------------------ report */

/* How a report names a communicator (its library twin, ctx + 1, by the
 * same name: the tag says whose traffic it is). */
static void comm_label(MPI_Comm c, char *out, size_t n)
{
    if (c == MPI_COMM_NULL || c->magic != RD_COMM_MAGIC)
        snprintf(out, n, "a freed communicator");
    else if (c->name[0])
        snprintf(out, n, "%s", c->name);
    else if ((c->ctx & ~1u) == RD_CTX_WORLD)
        snprintf(out, n, "MPI_COMM_WORLD");
    else if ((c->ctx & ~1u) == RD_CTX_SELF)
        snprintf(out, n, "MPI_COMM_SELF");
    else
        snprintf(out, n, "communicator #%u (%d ranks)", c->ctx & ~1u, c->size);
}

/* "rank 3" or, when the world rank differs, "rank 3 (world rank 5)"; the
 * world rank in *w (-1: any). */
static void peer_label(const struct rd_request_s *r, char *out, size_t n, int *w)
{
    *w = -1;
    if (r->peer == MPI_ANY_SOURCE) {
        snprintf(out, n, "any rank");
        return;
    }
    if (r->peer < 0 || r->comm == MPI_COMM_NULL || r->comm->magic != RD_COMM_MAGIC ||
        r->peer >= r->comm->remote_size) {
        snprintf(out, n, "rank %d", r->peer);
        return;
    }
    *w = rd_comm_peer_world(r->comm, r->peer);
    if (*w == r->peer)
        snprintf(out, n, "rank %d", r->peer);
    else
        snprintf(out, n, "rank %d (world rank %d)", r->peer, *w);
}

/* Every request in flight: what it waits for. */
static void report_requests(struct rd_report_buf *b)
{
    for (size_t k = 0; k < nslabs; k++)
        for (int i = 0; i < RD_REQ_SLAB; i++) {
            const struct rd_request_s *r = &slabs[k][i];
            char comm[160], peer[64], tag[48], key[128];
            int w;

            if (r->magic != RD_REQ_MAGIC || rd_req_done(r) || r->internal ||
                (r->persistent && !r->active))
                continue;
            if (r->kind == RD_REQ_COLL) {
                comm_label(r->comm, comm, sizeof(comm));
                rd_report_printf(b, "I a nonblocking collective (or an MPI_Isendrecv) on %s is in progress\n", comm);
                continue;
            }
            if (r->kind == RD_REQ_GREQ) {
                rd_report_printf(b, "I a generalized request waits for MPI_Grequest_complete\n");
                continue;
            }
            if (r->kind == RD_REQ_IO) {
                rd_report_printf(b, "I a nonblocking file operation is in the I/O thread's hands\n");
                continue;
            }
            if (r->kind != RD_REQ_SEND && r->kind != RD_REQ_RECV)
                continue;
            comm_label(r->comm, comm, sizeof(comm));
            peer_label(r, peer, sizeof(peer), &w);
            if (r->tag == MPI_ANY_TAG)
                snprintf(tag, sizeof(tag), "any tag");
            else if (r->tag < RD_TAG_COLL_END)
                snprintf(tag, sizeof(tag), "a collective's message");
            else if (r->comm != MPI_COMM_NULL && (r->comm->ctx & 1u))
                snprintf(tag, sizeof(tag), "the library's own message (tag %d)", r->tag);
            else
                snprintf(tag, sizeof(tag), "tag %d", r->tag);
            /* "W <world rank> <short>\t<long>": the short form reads after
             * "rank N waits" in rrun's cycles */
            if (w >= 0)
                snprintf(key, sizeof(key), "W %d %s %d, %s\t", w,
                         r->kind == RD_REQ_RECV ? "to receive from" : r->mode == RD_MODE_SYNC
                                                                          ? "to synchronously send to"
                                                                          : "to send to",
                         w, tag);
            else
                snprintf(key, sizeof(key), "I ");
            if (r->kind == RD_REQ_RECV)
                rd_report_printf(b, "%sreceive from %s, %s, on %s, up to %zu bytes: %s\n", key, peer,
                                 tag, comm, r->bytes,
                                 r->posted ? "no message has matched it"
                                           : "matched, its data is still on the way");
            else
                rd_report_printf(b, "%s%ssend to %s, %s, on %s, %zu bytes: the receiver has not "
                                 "taken it yet\n", key, r->mode == RD_MODE_SYNC ? "synchronous " : "",
                                 peer, tag, comm, r->bytes);
        }
}

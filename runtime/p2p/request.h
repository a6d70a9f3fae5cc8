/* request.h - requests: the state of one nonblocking operation, and the
 * progress engine that completes them. */
#ifndef RD_REQUEST_H
#define RD_REQUEST_H

#include <mpi.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "runtime/base/error.h"
#include "runtime/base/state.h"
#include "transports/transport.h"

#define RD_REQ_MAGIC 0x52657175u /* "Requ" */

enum rd_req_kind {
    RD_REQ_SEND = 1,
    RD_REQ_RECV,
    RD_REQ_DONE, /* completed at creation */
    RD_REQ_COLL, /* a nonblocking collective: completes with its schedule */
    RD_REQ_GREQ, /* a generalized request: the user completes it (runtime/api/greq.c) */
    RD_REQ_IO,   /* a nonblocking file operation: the I/O floor's progress hook completes it
                  * (runtime/io/aio.c); status: bytes moved; error and why on failure */
};
enum rd_send_mode { RD_MODE_STANDARD = 0, RD_MODE_SYNC, RD_MODE_READY, RD_MODE_BUFFERED };
/* What a send's caller knows of the traffic around it (a request's flags):
 * a meaning, not a protocol; each peer's protocol table (runtime/p2p/
 * engine.h) says which protocol serves it. */
enum rd_send_flags {
    RD_SEND_EXCHANGE = 1, /* two-way traffic: the receiver sends in the same round too, so
                           * its core is busy with its own data (collectives/sched.c) */
};


struct rd_request_s {
    uint32_t magic;
    uint8_t kind;          /* enum rd_req_kind */
    uint8_t mode;          /* enum rd_send_mode */
    uint8_t persistent;    /* made by *_init: survives completion */
    uint8_t active;        /* persistent: started and not yet waited for */
    uint8_t user_freed;    /* MPI_Request_free while in flight: release when done */
    uint8_t internal;      /* made by the library (a buffered send's copy) */
    uint8_t proto;         /* rendezvous protocol in use (wire.h) */
    uint8_t posted;        /* receive waiting in a posted queue */
    uint8_t pending;       /* split rendezvous: events still awaited */
    uint8_t raw;           /* bytes is preset: buf holds that many packed bytes */
    uint8_t flags;         /* send: what the caller knows of the traffic (enum rd_send_flags) */
    _Atomic int done;
    int error;             /* MPI error class of the operation */
    MPI_Status status;
    _Atomic int32_t fidx;  /* its Fortran handle's index, 0: none (objects/fhandle.h; zeroed by alloc) */
    void *pcoll;           /* RD_REQ_COLL made by a persistent init: what it runs (collectives/persist.c;
                            * zeroed by alloc) */
    void *part;            /* RD_REQ_COLL made by MPI_Psend_init / MPI_Precv_init: its partitions
                            * (runtime/p2p/part.c; zeroed by alloc) */

    /* what the user asked */
    void *buf;
    MPI_Count count;       /* (the _c calls' large counts too) */
    MPI_Datatype dt;
    MPI_Comm comm;
    int peer;              /* comm rank, MPI_ANY_SOURCE or MPI_PROC_NULL */
    int tag;

    /* engine state */
    size_t bytes;          /* send: message size; recv: buffer size (packed bytes) */
    int wpeer;             /* world rank of the peer, once known */
    struct rd_request_s *next, *prev;
    void *tmp;             /* packed copy (non-contiguous data, rendezvous) */
    size_t frag_off;       /* pipeline: bytes sent or received so far */
    size_t xfer;           /* bytes that will really move (recv: min(len, bytes)) */
    uint64_t remote;       /* the peer's request id, for rendezvous */
    rd_mr *mr;             /* registration of the local side, when needed */
    void *rkey;            /* the peer's packed key (malloc'd) */
    size_t rkey_len;
    void *bsend_block;     /* region of the attached buffer (buffered sends) */
    /* not cleared at allocation: set before use */
    rd_rma_op rma;
    size_t sent;           /* recv that ended with MPI_ERR_TRUNCATE: the length of the message */
    char *why;             /* RD_REQ_COLL, RD_REQ_IO: why it failed (malloc'd, or NULL); set by
                            * rd_sched_start, rd_aio_start */
    struct {               /* RD_REQ_GREQ: the user's callbacks; set by MPI_Grequest_start */
        MPI_Grequest_query_function *query;
        MPI_Grequest_free_function *free;
        MPI_Grequest_cancel_function *cancel;
        void *extra;
        int fortran;       /* the callbacks are Fortran's (rd_mpi_f_request) */
    } greq;
    struct {               /* RD_REQ_IO: set by rd_aio_start (runtime/io/aio.c) */
        void *op;          /* the engine's op record, until the request completes */
        void *file;        /* the MPI_File it acts on (errors go to its handler), or NULL;
                            * also RD_REQ_COLL's (NULL but for a file's collective access) */
    } io;
};

/* Allocation: from a free list, no malloc on the steady path. */
struct rd_request_s *rd_req_alloc(int kind);
void rd_req_release(struct rd_request_s *req);
/* A request for an operation on (buf, count, dt) with peer and tag in comm;
 * it holds a reference to dt. */
struct rd_request_s *rd_req_new(int kind, int mode, const void *buf, MPI_Count count, MPI_Datatype dt,
                                int peer, int tag, MPI_Comm comm);

/* Copy a completed operation's status to the user's (NULL: ignored);
 * MPI_ERROR is left alone, as single-completion calls must. */
static inline void rd_status_out(MPI_Status *st, const MPI_Status *from)
{
    if (!st)
        return;
    st->MPI_SOURCE = from->MPI_SOURCE;
    st->MPI_TAG = from->MPI_TAG;
    st->rd_cancelled = from->rd_cancelled;
    st->rd_bytes = from->rd_bytes;
}

static inline int rd_req_valid(MPI_Request r)
{
    return r != MPI_REQUEST_NULL && r->magic == RD_REQ_MAGIC;
}

/* Mark complete: the one way a request's done flag is set (the engine
 * calls it once per operation, the API for requests complete at creation).
 * The usual case, a request the user waits for, is a store; a buffered
 * send's block, an internal request or one the user freed in flight take
 * the slow path (the block handed back, the request released). */
void rd_req_complete_slow(struct rd_request_s *req);
static inline void rd_req_complete(struct rd_request_s *req)
{
    if (__builtin_expect(req->bsend_block != NULL || req->internal || req->user_freed, 0)) {
        rd_req_complete_slow(req);
        return;
    }
    atomic_store_explicit(&req->done, 1, memory_order_release);
}

static inline int rd_req_done(const struct rd_request_s *req)
{
    return atomic_load_explicit(&req->done, memory_order_acquire);
}


/* Poll every transport once; returns the events handled. */
int rd_progress(void);
/* Work above the p2p engine that rd_progress() also advances: a short
 * list of hooks, each registered while it has work (the collectives'
 * schedules while some are active; io's completions while operations are
 * in flight). Each returns the events it handled. Call under the big
 * lock; a hook may remove itself while it runs. */
#define RD_PROGRESS_HOOKS_MAX 8
extern int (*rd_progress_hooks[RD_PROGRESS_HOOKS_MAX])(void);
extern int rd_progress_nhooks;
/* Adding a hook already there does nothing; 0, or -1 when the list is
 * full (a bug: the floors above have fewer hooks than slots). */
int rd_progress_add(int (*fn)(void));
void rd_progress_remove(int (*fn)(void));
int rd_progress_has(int (*fn)(void));

/* One turn of a wait (call with the big lock held): progress; after
 * RDMPI_SPIN_COUNT idle turns in a row (at once when oversubscribed),
 * yield the core. *idle counts the idle turns. */
void rd_wait_step(long *idle);

/* Progress until *flag is non-zero (call with the big lock held). Spins
 * first, then yields the core (at once when oversubscribed). */
void rd_wait_flag(const _Atomic int *flag);

/* I/O requests (RD_REQ_IO) are completed by a progress hook, on the
 * thread that makes progress, once the I/O thread (runtime/io/aio.c) has
 * done their work: it bumps rd_io_seq and wakes the waits sleeping on it
 * (rd_io_seq_wake) each time it finishes an operation. */
extern _Atomic uint32_t rd_io_seq;
void rd_io_seq_wake(void);
/* One turn of a wait for I/O requests only (big lock held): as
 * rd_wait_step, but past the spins it sleeps until an I/O operation
 * finishes (at most RD_IO_SLEEP_US, so that the peers' traffic still
 * moves) instead of yielding: on a small machine the core it would spin on
 * is the I/O thread's. seq: rd_io_seq as read before the caller last
 * looked at its requests (so that no finish is missed). */
#define RD_IO_SLEEP_US 1000
void rd_wait_step_io(long *idle, uint32_t seq);
void rd_req_wait_io(struct rd_request_s *req);

static inline void rd_req_wait(struct rd_request_s *req)
{
    if (req->kind == RD_REQ_IO)
        rd_req_wait_io(req);
    else
        rd_wait_flag(&req->done);
}

#endif

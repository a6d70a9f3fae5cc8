/* request.c - request allocation, completion and waiting (request.h). */
#include "config.h"

#include "runtime/request.h"

#include <sched.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/api/bsend.h"
#include "runtime/comm.h"
#include "runtime/datatype.h"
#include "runtime/job.h"
#include "runtime/params.h"

int rd_threaded;
int (*rd_progress_hook)(void);
pthread_mutex_t rd_big_lock = PTHREAD_MUTEX_INITIALIZER;

/* Free list, refilled a slab at a time: no malloc per message. */
#define RD_REQ_SLAB 64
static struct rd_request_s *rd_req_free_list;


struct rd_request_s *rd_req_alloc(int kind)
{
    struct rd_request_s *r = rd_req_free_list;
    if (!r) {
        struct rd_request_s *slab = calloc(RD_REQ_SLAB, sizeof(*slab));
        if (!slab)
            return NULL;
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

struct rd_request_s *rd_req_new(int kind, int mode, const void *buf, int count, MPI_Datatype dt,
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
    if (req->dt)
        rd_dt_release(req->dt);
    if (req->comm)
        rd_comm_release(req->comm);
    req->magic = 0;
    req->next = rd_req_free_list;
    rd_req_free_list = req;
}

void rd_req_complete(struct rd_request_s *req)
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

void rd_wait_step(long *idle)
{
    long spins = rd_job.oversubscribed ? 0 : rd_param.spin_count;
    if (rd_progress() > 0) {
        *idle = 0;
    } else if (++*idle > spins) {
        /* nothing is happening: let the other ranks on this core run */
        RD_UNLOCK();
        sched_yield();
        RD_LOCK();
    } else if (rd_threaded) {
        RD_UNLOCK();
        RD_LOCK();
    }
}

void rd_wait_flag(const _Atomic int *flag)
{
    long idle = 0;
    while (!atomic_load_explicit(flag, memory_order_acquire))
        rd_wait_step(&idle);
}

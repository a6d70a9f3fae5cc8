/* aio.c - the I/O engine: one helper thread per process, its queue of
 * operations, and their completion (aio.h; runtime/io/PLAN.md 4.6). */
#include "config.h"

#include "runtime/io/aio.h"

#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "runtime/base/log.h"
#include "runtime/base/state.h"
#include "runtime/p2p/p2p.h"
#include "runtime/p2p/request.h"

/* The queue (FIFO) and the thread's state, under qlock. current: the
 * operation the thread is running (fork needs to know it). */
static pthread_mutex_t qlock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t qcond = PTHREAD_COND_INITIALIZER;
static struct rd_aio_op *qhead, *qtail, *current;
static int running, stopping;
static pthread_t thread;

/* Finished operations: pushed by the thread (or by a forked child),
 * taken all at once by the hook. A single consumer that takes the whole
 * stack by exchange never meets the ABA problem. */
static _Atomic(struct rd_aio_op *) finished;

/* Started and not yet completed: changed under the big lock only (start,
 * hook), by the threads that make MPI calls. */
static int inflight;

static pthread_once_t fork_once = PTHREAD_ONCE_INIT;

static void push_finished(struct rd_aio_op *op)
{
    struct rd_aio_op *head = atomic_load_explicit(&finished, memory_order_relaxed);
    do
        op->next = head;
    while (!atomic_compare_exchange_weak_explicit(&finished, &head, op, memory_order_release,
                                                  memory_order_relaxed));
}

static void *worker(void *arg)
{
    (void)arg;
    pthread_mutex_lock(&qlock);
    for (;;) {
        while (!qhead && !stopping)
            pthread_cond_wait(&qcond, &qlock);
        struct rd_aio_op *op = qhead;
        if (!op)
            break; /* stopping, and nothing left to do */
        qhead = op->next;
        if (!qhead)
            qtail = NULL;
        current = op;
        pthread_mutex_unlock(&qlock);

        op->error = op->run(op);

        pthread_mutex_lock(&qlock);
        current = NULL;
        push_finished(op);
        rd_io_seq_wake();
    }
    pthread_mutex_unlock(&qlock);
    return NULL;
}

/* ------------------------------------------------------------ fork */

static void fork_prepare(void)
{
    pthread_mutex_lock(&qlock);
}

static void fork_parent(void)
{
    pthread_mutex_unlock(&qlock);
}

static void fail_in_child(struct rd_aio_op *op)
{
    op->error = rd_io_fail(&op->why, MPI_ERR_IO,
                           "the operation was in flight when this process forked: its parent does it");
    op->bytes = 0;
    push_finished(op);
}

/* The child has no I/O thread: what the parent's thread had queued or was
 * running fails here (the parent does it), and the next operation starts
 * a thread of the child's own. */
static void fork_child(void)
{
    pthread_mutex_init(&qlock, NULL);
    pthread_cond_init(&qcond, NULL);
    if (current)
        fail_in_child(current);
    for (struct rd_aio_op *op = qhead, *next; op; op = next) {
        next = op->next;
        fail_in_child(op);
    }
    qhead = qtail = current = NULL;
    running = stopping = 0;
}

static void fork_register(void)
{
    pthread_atfork(fork_prepare, fork_parent, fork_child);
}

/* ------------------------------------------------------------ start */

/* Start the thread if it is not running (qlock held). Signals stay with
 * the program's threads (rrun's report request is a signal). */
static int thread_up(void)
{
    if (running)
        return 1;
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, &old);
    int rc = pthread_create(&thread, NULL, worker, NULL);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    if (rc != 0) {
        rd_warn("io", "cannot start the I/O thread (%s): nonblocking file operations run in the call",
                strerror(rc));
        return 0;
    }
#if defined(__linux__)
    pthread_setname_np(thread, "rdmpi-io");
#endif
    running = 1;
    stopping = 0;
    return 1;
}

struct rd_aio_op *rd_aio_op_new(size_t size)
{
    if (size < sizeof(struct rd_aio_op))
        size = sizeof(struct rd_aio_op);
    return calloc(1, size);
}

static int hook(void)
{
    return rd_aio_progress();
}

int rd_aio_start(struct rd_aio_op *op, MPI_Request *out, rd_io_why *why)
{
    struct rd_request_s *req = rd_req_alloc(RD_REQ_IO);
    if (!req) {
        if (op->finish)
            op->finish(op);
        free(op);
        return rd_io_fail(why, MPI_ERR_NO_MEM, "out of memory for the request");
    }
    rd_status_empty(&req->status);
    req->why = NULL;
    req->io.op = op;
    req->io.file = op->file;
    op->req = req;
    op->next = NULL;
    if (rd_progress_add(hook) != 0) {
        /* a bug: the floors above have fewer hooks than slots */
        rd_req_release(req);
        if (op->finish)
            op->finish(op);
        free(op);
        return rd_io_fail(why, MPI_ERR_INTERN, "no progress hook slot left for the I/O engine");
    }
    inflight++;
    pthread_once(&fork_once, fork_register);

    pthread_mutex_lock(&qlock);
    if (!op->in_call && thread_up()) {
        if (qtail)
            qtail->next = op;
        else
            qhead = op;
        qtail = op;
        pthread_cond_signal(&qcond);
        pthread_mutex_unlock(&qlock);
    } else {
        pthread_mutex_unlock(&qlock);
        op->error = op->run(op);
        push_finished(op);
    }
    *out = req;
    return MPI_SUCCESS;
}

/* ------------------------------------------------------------ completion */

static void complete(struct rd_aio_op *op)
{
    struct rd_request_s *req = op->req;
    req->status.rd_bytes = (MPI_Count)op->bytes;
    req->error = op->error;
    if (op->error != MPI_SUCCESS && !req->user_freed)
        req->why = strdup(op->why.msg[0] ? op->why.msg : "the I/O operation failed");
    if (op->finish)
        op->finish(op);
    req->io.op = NULL;
    inflight--;
    free(op);
    rd_req_complete(req); /* a request freed in flight is released here */
}

int rd_aio_progress(void)
{
    struct rd_aio_op *list = atomic_exchange_explicit(&finished, NULL, memory_order_acquire);
    if (!list) {
        if (inflight == 0)
            rd_progress_remove(hook);
        return 0;
    }
    /* the stack holds the latest first: complete in finishing order */
    struct rd_aio_op *rev = NULL;
    while (list) {
        struct rd_aio_op *next = list->next;
        list->next = rev;
        rev = list;
        list = next;
    }
    int n = 0;
    while (rev) {
        struct rd_aio_op *next = rev->next;
        complete(rev);
        rev = next;
        n++;
    }
    if (inflight == 0)
        rd_progress_remove(hook);
    return n;
}

void rd_aio_drain(_Atomic int *count)
{
    long idle = 0;
    for (;;) {
        uint32_t seq = atomic_load(&rd_io_seq);
        if (atomic_load(count) <= 0)
            return;
        rd_wait_step_io(&idle, seq);
    }
}

int rd_aio_inflight(void)
{
    return inflight;
}

int rd_aio_thread_running(void)
{
    pthread_mutex_lock(&qlock);
    int r = running;
    pthread_mutex_unlock(&qlock);
    return r;
}

void rd_aio_fini(void)
{
    pthread_mutex_lock(&qlock);
    int was = running;
    if (was) {
        stopping = 1;
        pthread_cond_signal(&qcond);
    }
    pthread_mutex_unlock(&qlock);
    if (was) {
        pthread_join(thread, NULL); /* it empties its queue first */
        pthread_mutex_lock(&qlock);
        running = stopping = 0;
        pthread_mutex_unlock(&qlock);
    }
    RD_LOCK();
    rd_aio_progress();
    RD_UNLOCK();
}

/* io_aio.c - unit test of the I/O engine (runtime/io/aio.c): operations
 * run on the I/O thread, their requests complete only in progress on the
 * calling thread, in finishing order, with the bytes and the error of the
 * operation; a request freed in flight is released; a wait for I/O sleeps
 * instead of spinning; a forked child fails the parent's operations and
 * starts a thread of its own; rd_aio_fini lets the queue finish and ends
 * the thread. The engine runs over the fake transport (a world of 2
 * ranks, no traffic). Operations that must stay in flight wait on a gate
 * the test opens. */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "runtime/io/aio.h"
#include "test/unit/fake_check.h"

static double now(clockid_t c)
{
    struct timespec ts;
    clock_gettime(c, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* ---- a gate the operations wait behind */
static pthread_mutex_t gate_mx = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t gate_cv = PTHREAD_COND_INITIALIZER;
static int gate_open;

static void gate_set(int open)
{
    pthread_mutex_lock(&gate_mx);
    gate_open = open;
    pthread_cond_broadcast(&gate_cv);
    pthread_mutex_unlock(&gate_mx);
}

/* ---- the test's operation */
struct top {
    struct rd_aio_op op;
    int gated;             /* wait behind the gate */
    long sleep_ms;         /* a slow device: take this long */
    size_t bytes;          /* what run reports */
    int error;             /* and its class */
    int index;             /* its place in the order log */
    _Atomic int started;
    pthread_t ran_on;
};

static pthread_t main_thread;
static int order[16];
static _Atomic int order_n;
static int finishes, finishes_off_main;

static int top_run(struct rd_aio_op *op)
{
    struct top *t = (struct top *)op;
    t->ran_on = pthread_self();
    atomic_store(&t->started, 1);
    if (t->gated) {
        pthread_mutex_lock(&gate_mx);
        while (!gate_open)
            pthread_cond_wait(&gate_cv, &gate_mx);
        pthread_mutex_unlock(&gate_mx);
    }
    if (t->sleep_ms) {
        struct timespec ts = {t->sleep_ms / 1000, t->sleep_ms % 1000 * 1000000L};
        while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
            ;
    }
    order[atomic_fetch_add(&order_n, 1) % 16] = t->index;
    op->bytes = t->bytes;
    if (t->error != MPI_SUCCESS)
        return rd_io_fail(&op->why, t->error, "the test's operation %d failed", t->index);
    return MPI_SUCCESS;
}

/* the thread the last finished operation ran on (its record is freed
 * when its request completes) */
static pthread_t last_ran_on;

static void top_finish(struct rd_aio_op *op)
{
    last_ran_on = ((struct top *)op)->ran_on;
    finishes++;
    if (!pthread_equal(pthread_self(), main_thread))
        finishes_off_main++;
}

/* Start an operation; its record stays valid until its request completes. */
static struct rd_request_s *start(struct top **tp, int index, size_t bytes, int error, int gated)
{
    struct top *t = (struct top *)rd_aio_op_new(sizeof(*t));
    t->op.run = top_run;
    t->op.finish = top_finish;
    t->index = index;
    t->bytes = bytes;
    t->error = error;
    t->gated = gated;
    MPI_Request r = MPI_REQUEST_NULL;
    rd_io_why why = {{0}};
    int rc = rd_aio_start(&t->op, &r, &why);
    if (rc != MPI_SUCCESS) {
        printf("Bail out! rd_aio_start: %s\n", why.msg);
        exit(1);
    }
    if (tp)
        *tp = t;
    return r;
}

/* Bounded by a deadline, not a sleep: the thread must get there. */
static int wait_started(struct top *t)
{
    double end = now(CLOCK_MONOTONIC) + 10;
    while (!atomic_load(&t->started))
        if (now(CLOCK_MONOTONIC) > end)
            return 0;
    return 1;
}

static void basic(void)
{
    tap_ok(!rd_aio_thread_running() && rd_progress_nhooks == 0 && rd_aio_inflight() == 0,
           "before any operation: no I/O thread, no progress hook");
    struct top *t;
    struct rd_request_s *r = start(&t, 1, 123, MPI_SUCCESS, 1);
    tap_ok(r->kind == RD_REQ_IO && r->io.op == &t->op, "the request is an I/O request holding its op");
    tap_ok(rd_aio_thread_running(), "the first operation started the I/O thread");
    tap_ok(rd_progress_nhooks == 1 && rd_aio_inflight() == 1, "in flight: the progress hook is registered");
    tap_ok(wait_started(t), "the operation runs without any progress call");
    tap_ok(!pthread_equal(t->ran_on, main_thread), "it runs on another thread than the caller's");
    for (int i = 0; i < 50; i++)
        rd_progress();
    tap_ok(!rd_req_done(r) && finishes == 0, "behind the gate it stays incomplete through progress");
    gate_set(1);
    rd_req_wait(r);
    tap_ok(rd_req_done(r), "rd_req_wait returns it complete");
    tap_is_int((int)r->status.rd_bytes, 123, "the status counts the operation's bytes");
    tap_is_int(r->error, MPI_SUCCESS, "no error");
    tap_ok(r->why == NULL && r->io.op == NULL, "no reason, the op is gone from the request");
    tap_is_int(finishes, 1, "finish ran once");
    tap_is_int(finishes_off_main, 0, "finish ran on the calling thread");
    tap_ok(rd_aio_inflight() == 0 && rd_progress_nhooks == 0, "nothing in flight: the hook is gone");
    tap_ok(rd_aio_thread_running(), "the thread stays (asleep) for the next operation");
    rd_req_release(r);
}

static void fifo_and_errors(void)
{
    gate_set(0);
    atomic_store(&order_n, 0);
    finishes = 0;
    struct rd_request_s *r[5];
    struct top *t0;
    r[0] = start(&t0, 10, 1, MPI_SUCCESS, 1);
    for (int i = 1; i < 5; i++)
        r[i] = start(NULL, 10 + i, 100 + i, i == 3 ? MPI_ERR_IO : MPI_SUCCESS, 0);
    tap_is_int(rd_aio_inflight(), 5, "five operations in flight");
    tap_ok(wait_started(t0), "the first one runs");
    for (int i = 0; i < 20; i++)
        rd_progress();
    int none = 1;
    for (int i = 0; i < 5; i++)
        none &= !rd_req_done(r[i]);
    tap_ok(none, "the four behind the gated one wait their turn (one thread, FIFO)");
    gate_set(1);
    for (int i = 4; i >= 0; i--)
        rd_req_wait(r[i]);
    int inorder = atomic_load(&order_n) == 5;
    for (int i = 0; i < 5 && inorder; i++)
        inorder = order[i] == 10 + i;
    tap_ok(inorder, "they ran in the order they were started");
    tap_is_int((int)r[4]->status.rd_bytes, 104, "each status has its own operation's bytes");
    tap_is_int(r[3]->error, MPI_ERR_IO, "a failed operation's class reaches its request");
    tap_is_str(r[3]->why ? r[3]->why : "(null)", "the test's operation 13 failed",
               "and so does the reason it gave");
    tap_is_int((int)r[3]->status.rd_bytes, 103, "with the bytes it did move");
    tap_ok(r[2]->error == MPI_SUCCESS && r[2]->why == NULL, "its neighbours are unharmed");
    tap_is_int(finishes, 5, "finish ran once for each");
    free(r[3]->why);
    for (int i = 0; i < 5; i++)
        rd_req_release(r[i]);
}

static void freed_in_flight(void)
{
    gate_set(0);
    finishes = 0;
    struct top *t;
    struct rd_request_s *r = start(&t, 20, 7, MPI_ERR_IO, 1);
    tap_ok(wait_started(t), "an operation whose request will be freed runs");
    r->user_freed = 1; /* what MPI_Request_free does to a request in flight */
    gate_set(1);
    double end = now(CLOCK_MONOTONIC) + 10;
    while (rd_aio_inflight() > 0 && now(CLOCK_MONOTONIC) < end)
        rd_progress();
    tap_is_int(rd_aio_inflight(), 0, "it completes in progress");
    tap_is_int(finishes, 1, "its finish ran once");
    tap_ok(r->magic != RD_REQ_MAGIC, "the freed request went back to the free list (no reason kept)");
    tap_ok(rd_progress_nhooks == 0, "and the hook is gone");
}

static void sleeping_wait(void)
{
    gate_set(1);
    struct top *t = (struct top *)rd_aio_op_new(sizeof(*t));
    t->op.run = top_run;
    t->sleep_ms = 300; /* a slow device */
    t->bytes = 5;
    MPI_Request r;
    rd_io_why why;
    rd_aio_start(&t->op, &r, &why);
    double w0 = now(CLOCK_MONOTONIC), c0 = now(CLOCK_THREAD_CPUTIME_ID);
    rd_req_wait(r);
    double wall = now(CLOCK_MONOTONIC) - w0, cpu = now(CLOCK_THREAD_CPUTIME_ID) - c0;
    tap_ok(wall >= 0.29, "a wait for a 300 ms operation lasts that long (%.3f s)", wall);
    tap_ok(cpu < wall / 4, "and sleeps: %.3f s of CPU in %.3f s (spinning would take all)", cpu, wall);
    tap_is_int((int)r->status.rd_bytes, 5, "it completes with its bytes");
    rd_req_release(r);
}

static void forked(void)
{
    gate_set(0);
    finishes = 0;
    struct top *t;
    struct rd_request_s *r = start(&t, 30, 9, MPI_SUCCESS, 1);
    tap_ok(wait_started(t), "the parent's operation runs behind the gate");
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        /* the child: exit status = the checks that failed, one bit each */
        int bad = 0;
        if (rd_aio_thread_running())
            bad |= 1;
        double end = now(CLOCK_MONOTONIC) + 10;
        while (!rd_req_done(r) && now(CLOCK_MONOTONIC) < end)
            rd_progress();
        if (!rd_req_done(r) || r->error != MPI_ERR_IO || !r->why ||
            !strstr(r->why, "forked"))
            bad |= 2;
        struct top *c;
        struct rd_request_s *rc = start(&c, 31, 11, MPI_SUCCESS, 0);
        rd_req_wait(rc);
        if (rc->error != MPI_SUCCESS || rc->status.rd_bytes != 11 || !rd_aio_thread_running())
            bad |= 4;
        if (pthread_equal(last_ran_on, main_thread))
            bad |= 8;
        rd_aio_fini();
        if (rd_aio_thread_running())
            bad |= 16;
        _exit(bad);
    }
    int st = -1;
    waitpid(pid, &st, 0);
    int code = WIFEXITED(st) ? WEXITSTATUS(st) : 255;
    tap_ok(!(code & 1), "the child has no I/O thread (exit %d)", code);
    tap_ok(!(code & 2), "the child sees the parent's operation fail with MPI_ERR_IO, 'forked'");
    tap_ok(!(code & 4), "the child's own operation starts a thread of its own and completes");
    tap_ok(!(code & 8), "on that thread, not the child's main thread");
    tap_ok(!(code & 16), "the child's rd_aio_fini ends its thread");
    tap_ok(!rd_req_done(r), "in the parent the operation is still in flight");
    gate_set(1);
    rd_req_wait(r);
    tap_ok(r->error == MPI_SUCCESS && r->status.rd_bytes == 9, "and completes there as usual");
    tap_is_int(finishes, 1, "the parent's finish ran once");
    rd_req_release(r);
}

static void fini(void)
{
    gate_set(1);
    finishes = 0;
    struct rd_request_s *r[3];
    for (int i = 0; i < 3; i++)
        r[i] = start(NULL, 40 + i, 1000 + i, MPI_SUCCESS, 0);
    rd_aio_fini();
    tap_ok(!rd_aio_thread_running(), "rd_aio_fini ends the thread");
    int ok = 1;
    for (int i = 0; i < 3; i++)
        ok &= rd_req_done(r[i]) && r[i]->status.rd_bytes == 1000 + i;
    tap_ok(ok, "after letting the queued operations finish: their requests are complete");
    tap_ok(finishes == 3 && rd_aio_inflight() == 0 && rd_progress_nhooks == 0,
           "finished, nothing in flight, no hook");
    for (int i = 0; i < 3; i++)
        rd_req_release(r[i]);
    rd_aio_fini();
    tap_ok(!rd_aio_thread_running(), "a second rd_aio_fini does nothing");
}

int main(void)
{
    main_thread = pthread_self();
    fake_defaults();
    fake_engine_up(2, RD_RNDV_PROTOCOL_AUTO);
    basic();
    fifo_and_errors();
    freed_in_flight();
    sleeping_wait();
    forked();
    fini();
    tap_is_int(fake_engine_down(), 0, "the end: nothing left in the fake transport");
    return tap_done();
}

/* coll_sched.c - collective schedules (collectives/sched.c) on the fake
 * transport (fake_tl.h): the engine is rank 0 of 4 and the test plays
 * ranks 1-3. For a binomial Bcast (three roots) and a recursive-doubling
 * Allreduce (4 ranks; 3 ranks of a sub-communicator, which fold in; a
 * large vector by rendezvous): the steps the builder appends, the exact
 * sequence of messages the schedule sends round by round (peer, context,
 * tag, sequence number, payload), that a round waits for its receives,
 * the protocol a large send gets by the traffic around it, and the final
 * buffer values. */
#include "config.h"

#include <limits.h>

#include "collectives/algorithms.h"
#include "collectives/sched.h"
#include "test/unit/fake_check.h"

#define W MPI_COMM_WORLD

/* The steps of s as a string: "S2 S1", "R2 W S1", "C S1 R1 W O ..."
 * (Send, Recv, Wait, reduce (O), Copy, F a call, with the peer's rank). */
static const char *steps(const struct rd_sched *s)
{
    static char out[256];
    size_t n = 0;
    out[0] = 0;
    for (int i = 0; i < s->nops && n < sizeof(out) - 8; i++) {
        const struct rd_sop *op = &s->ops[i];
        char k = op->kind == RD_SOP_SEND ? 'S' : op->kind == RD_SOP_RECV ? 'R'
               : op->kind == RD_SOP_WAIT ? 'W' : op->kind == RD_SOP_REDUCE ? 'O'
               : op->kind == RD_SOP_CALL ? 'F' : 'C';
        if (op->kind == RD_SOP_SEND || op->kind == RD_SOP_RECV)
            n += (size_t)snprintf(out + n, sizeof(out) - n, "%s%c%d", n ? " " : "", k, op->peer);
        else
            n += (size_t)snprintf(out + n, sizeof(out) - n, "%s%c", n ? " " : "", k);
    }
    return out;
}

/* The k-th collective on a communicator has tag INT_MIN + 64 k. */
static int coll_tag(int k)
{
    return INT_MIN + 64 * k;
}

static struct rd_request_s *start(struct rd_sched *s)
{
    struct rd_request_s *req = NULL;
    if (rd_sched_start(s, &req) != RD_OK || !req) {
        printf("Bail out! the schedule did not start\n");
        exit(1);
    }
    return req;
}

static void finish_req(struct rd_request_s *req, const char *what)
{
    tap_is_int(rd_req_done(req), 1, "%s: the collective's request complete", what);
    tap_is_int(req->error, MPI_SUCCESS, "%s: no error", what);
    free(req->why);
    rd_req_release(req);
}

/* ------------------------------------------------------------ bcast */

static int nbcast;

/* Binomial Bcast of 3 ints from root, rank 0's view. */
static void bcast(int root, const char *want_steps, int from, const int *to, int nto,
                  const char *what)
{
    int buf[3] = {-1, -1, -1}, val[3] = {7 + root, 8, 9};
    if (root == 0)
        memcpy(buf, val, sizeof(buf));
    struct rd_sched *s = rd_sched_new(W);
    struct rd_coll_args a = {.comm = W, .rbuf = buf, .count = 3, .dt = MPI_INT, .root = root};
    tap_is_int(s->tag, coll_tag(nbcast), "%s: the collective's tag", what);
    int tag = s->tag;
    nbcast++;
    tap_is_int(rd_bcast_binomial(s, &a), RD_OK, "%s: built", what);
    tap_is_str(steps(s), want_steps, "%s: its steps", what);
    struct rd_request_s *req = start(s);
    if (from >= 0) {
        expect_none(what);
        tap_is_int(rd_req_done(req), 0, "%s: waits for the root's data", what);
        fake_inject_eager(from, W->coll->ctx, from, tag, val, sizeof(val));
        fake_progress();
    }
    for (int i = 0; i < nto; i++) {
        struct fake_rec *m = expect(FAKE_AM, to[i], RD_AM_EAGER, what);
        check_env(m, sizeof(struct rd_wire_env), 1, 0, tag, seq_to(to[i]), 12, what);
        tap_ok(m->len == 12 && memcmp(m->data, val, 12) == 0, "%s: passes on the 3 ints", what);
        fake_rec_free(m);
    }
    expect_none(what);
    finish_req(req, what);
    tap_ok(buf[0] == 7 + root && buf[1] == 8 && buf[2] == 9, "%s: the buffer holds the root's ints",
           what);
}

/* One-way traffic: a large Bcast's sends keep the size's protocol (get
 * below 64 KiB); the receivers release them with FIN. */
static void bcast_large(void)
{
    const char *what = "bcast of 8000 B from 0";
    int *buf = malloc(2000 * sizeof(int));
    for (int i = 0; i < 2000; i++)
        buf[i] = i * 3;
    struct rd_sched *s = rd_sched_new(W);
    struct rd_coll_args a = {.comm = W, .rbuf = buf, .count = 2000, .dt = MPI_INT, .root = 0};
    int tag = s->tag;
    nbcast++;
    rd_bcast_binomial(s, &a);
    struct rd_request_s *req = start(s);
    uint64_t sreq[2];
    int to[2] = {2, 1};
    for (int i = 0; i < 2; i++) {
        struct fake_rec *m = expect(FAKE_AM, to[i], RD_AM_RTS, what);
        check_env(m, sizeof(struct rd_wire_rts), 1, 0, tag, seq_to(to[i]), 8000, what);
        tap_is_int(rts_of(m)->proto, RD_RNDV_GET, "%s: a send of one-way traffic goes by get", what);
        tap_ok(rts_of(m)->addr == addr_of(buf), "%s: straight from the buffer", what);
        sreq[i] = rts_of(m)->sreq;
        fake_rec_free(m);
    }
    tap_is_int(rd_req_done(req), 0, "%s: waits for the receivers", what);
    fake_inject_ctrl(2, RD_AM_FIN, sreq[0], 0, 0, 0, NULL, 0);
    fake_progress();
    tap_is_int(rd_req_done(req), 0, "%s: still waits for rank 1", what);
    fake_inject_ctrl(1, RD_AM_FIN, sreq[1], 0, 0, 0, NULL, 0);
    fake_progress();
    expect_none(what);
    finish_req(req, what);
    free(buf);
}

/* ------------------------------------------------------------ allreduce */

static int nallreduce_world;

/* Recursive doubling, SUM of 2 ints on 4 ranks: round 1 with rank 1,
 * round 2 with rank 2; rank 0 sends its partial sum each round and waits
 * for the partner's. rank2_first: rank 2's message comes before rank 1's. */
static void allreduce4(int rank2_first, const char *what)
{
    int sb[2] = {1, 10}, rb[2] = {0, 0};
    int from1[2] = {2, 20}, from2[2] = {3 + 4, 30 + 40}; /* ranks 2 and 3's first round */
    struct rd_sched *s = rd_sched_new(W);
    struct rd_coll_args a = {.comm = W, .sbuf = sb, .rbuf = rb, .count = 2, .dt = MPI_INT,
                             .op = MPI_SUM};
    int tag = s->tag;
    tap_is_int(tag, coll_tag(nbcast + nallreduce_world), "%s: the collective's tag", what);
    nallreduce_world++;
    tap_is_int(rd_allreduce_recursive_doubling(s, &a), RD_OK, "%s: built", what);
    tap_is_str(steps(s), "C S1 R1 W O S2 R2 W O", "%s: its steps", what);
    struct rd_request_s *req = start(s);
    struct fake_rec *m = expect(FAKE_AM, 1, RD_AM_EAGER, what);
    check_env(m, sizeof(struct rd_wire_env), 1, 0, tag, seq_to(1), 8, what);
    tap_ok(m->len == 8 && memcmp(m->data, sb, 8) == 0, "%s: round 1 sends rank 0's {1, 10}", what);
    fake_rec_free(m);
    expect_none(what);
    if (rank2_first) {
        fake_inject_eager(2, 1, 2, tag, from2, sizeof(from2));
        fake_progress();
        expect_none(what);
        tap_is_int(rd_req_done(req), 0, "%s: round 2's message waits for round 1", what);
    }
    fake_inject_eager(1, 1, 1, tag, from1, sizeof(from1));
    fake_progress();
    m = expect(FAKE_AM, 2, RD_AM_EAGER, what);
    check_env(m, sizeof(struct rd_wire_env), 1, 0, tag, seq_to(2), 8, what);
    int partial[2] = {3, 30};
    tap_ok(m->len == 8 && memcmp(m->data, partial, 8) == 0, "%s: round 2 sends the sum {3, 30}", what);
    fake_rec_free(m);
    if (!rank2_first) {
        tap_is_int(rd_req_done(req), 0, "%s: waits for round 2", what);
        fake_inject_eager(2, 1, 2, tag, from2, sizeof(from2));
        fake_progress();
    }
    expect_none(what);
    finish_req(req, what);
    tap_ok(rb[0] == 10 && rb[1] == 100, "%s: the result is {10, 100}", what);
    tap_ok(sb[0] == 1 && sb[1] == 10, "%s: the send buffer untouched", what);
}

/* 3 ranks of a communicator of world ranks {0, 3, 2}: rank 0 folds in,
 * handing its data to rank 1 (world 3), and gets the result back. */
static void allreduce3(void)
{
    const char *what = "allreduce on 3 ranks";
    int *wr = malloc(3 * sizeof(int));
    wr[0] = 0, wr[1] = 3, wr[2] = 2;
    MPI_Comm c;
    if (rd_comm_new(0, 3, wr, 4, &c) != RD_OK) {
        printf("Bail out! no communicator\n");
        exit(1);
    }
    int sb[2] = {5, 6}, rb[2] = {0, 0}, res[2] = {5 + 50 + 500, 6 + 60 + 600};
    struct rd_sched *s = rd_sched_new(c);
    struct rd_coll_args a = {.comm = c, .sbuf = sb, .rbuf = rb, .count = 2, .dt = MPI_INT,
                             .op = MPI_SUM};
    int tag = s->tag;
    tap_is_int(tag, coll_tag(0), "%s: the communicator's first collective tag", what);
    tap_is_int(rd_allreduce_recursive_doubling(s, &a), RD_OK, "%s: built", what);
    tap_is_str(steps(s), "C S1 W R1", "%s: its steps (fold in, fold out)", what);
    struct rd_request_s *req = start(s);
    struct fake_rec *m = expect(FAKE_AM, 3, RD_AM_EAGER, what);
    check_env(m, sizeof(struct rd_wire_env), 5, 0, tag, seq_to(3), 8, what);
    tap_ok(m->len == 8 && memcmp(m->data, sb, 8) == 0, "%s: hands {5, 6} to its rank 1", what);
    fake_rec_free(m);
    tap_is_int(rd_req_done(req), 0, "%s: waits for the result", what);
    fake_inject_eager(3, 5, 1, tag, res, sizeof(res));
    fake_progress();
    expect_none(what);
    finish_req(req, what);
    tap_ok(rb[0] == 555 && rb[1] == 666, "%s: the result from rank 1", what);
    rd_comm_release(c);
}

/* A large vector (4000 B): every send of a round that also receives goes
 * by put. Per round, as rank 0 sees it: its RTS (put) to the partner, the
 * partner's RTS (put) answered by our CTS, the partner's CTS answered by
 * our put and FIN, the partner's FIN; then the reduction. */
static void allreduce_large(void)
{
    const char *what = "allreduce of 1000 ints";
    int n = 1000;
    int *sb = malloc((size_t)n * sizeof(int)), *rb = malloc((size_t)n * sizeof(int));
    int *theirs = malloc((size_t)n * sizeof(int)), *written = malloc((size_t)n * sizeof(int));
    for (int i = 0; i < n; i++) {
        sb[i] = i;
        rb[i] = -1;
    }
    struct rd_sched *s = rd_sched_new(W);
    struct rd_coll_args a = {.comm = W, .sbuf = sb, .rbuf = rb, .count = n, .dt = MPI_INT,
                             .op = MPI_SUM};
    int tag = s->tag;
    nallreduce_world++;
    rd_allreduce_recursive_doubling(s, &a);
    struct rd_request_s *req = start(s);
    int partners[2] = {1, 2};
    for (int round = 0; round < 2; round++) {
        int p = partners[round];
        char rw[80];
        snprintf(rw, sizeof(rw), "%s, round %d with rank %d", what, round + 1, p);
        struct fake_rec *m = expect(FAKE_AM, p, RD_AM_RTS, rw);
        check_env(m, sizeof(struct rd_wire_rts), 1, 0, tag, seq_to(p), (uint64_t)n * 4, rw);
        tap_is_int(rts_of(m)->proto, RD_RNDV_PUT, "%s: a send of a two-way round goes by put", rw);
        tap_ok(rts_of(m)->addr == addr_of(rb), "%s: from the accumulator", rw);
        uint64_t ours = rts_of(m)->sreq;
        fake_rec_free(m);
        expect_none(rw);
        /* the partner's value: (round 1) rank 1's i * 10, (round 2) ranks
         * 2 and 3's i * 100 + i * 1000 */
        for (int i = 0; i < n; i++)
            theirs[i] = round == 0 ? i * 10 : i * 1100;
        fake_inject_rts(p, 1, p, tag, (uint64_t)n * 4, 0xa0 + (uint64_t)p, 0, RD_RNDV_PUT, NULL, 0);
        memset(written, 0, (size_t)n * sizeof(int));
        fake_inject_ctrl(p, RD_AM_CTS, ours, 0xb0 + (uint64_t)p, addr_of(written), (uint64_t)n * 4,
                         NULL, 0);
        fake_progress();
        m = expect(FAKE_AM, p, RD_AM_CTS, rw);
        const struct rd_wire_ctrl *c = ctrl_of(m);
        tap_ok(c->req == 0xa0 + (uint64_t)p && c->len == (uint64_t)n * 4,
               "%s: our CTS answers the partner's RTS, for all 4000 bytes", rw);
        void *tmp = (void *)(uintptr_t)c->addr;
        uint64_t our_recv = c->other;
        fake_rec_free(m);
        m = expect(FAKE_PUT, p, 0, rw);
        tap_ok(m->local == rb && m->remote_addr == addr_of(written) && m->len == (size_t)n * 4,
               "%s: our put writes the accumulator where the CTS said", rw);
        fake_rec_free(m);
        m = expect(FAKE_AM, p, RD_AM_FIN, rw);
        tap_ok(ctrl_of(m)->req == 0xb0 + (uint64_t)p, "%s: then FIN to the partner's receive", rw);
        fake_rec_free(m);
        int ok = 1;
        for (int i = 0; i < n; i++)
            ok &= written[i] == (round == 0 ? i : i * 11);
        tap_ok(ok, "%s: the partner got our partial sums", rw);
        tap_is_int(rd_req_done(req), 0, "%s: the round waits for the partner's data", rw);
        memcpy(tmp, theirs, (size_t)n * sizeof(int)); /* the partner's put */
        fake_inject_ctrl(p, RD_AM_FIN, our_recv, 0, 0, 0, NULL, 0);
        fake_progress();
    }
    expect_none(what);
    finish_req(req, what);
    int ok = 1;
    for (int i = 0; i < n; i++)
        ok &= rb[i] == i * 1111 && sb[i] == i;
    tap_ok(ok, "%s: the result is i * 1111 everywhere, the send buffer untouched", what);
    free(sb);
    free(rb);
    free(theirs);
    free(written);
}

/* The ranks' counts do not match: rank 1 sends 3 ints where rank 0's
 * round expects 2. The receive takes what fits, the schedule runs every
 * step still, its later send carries RD_TAG_POISON, and the request
 * reports MPI_ERR_TRUNCATE with the reason. Then the other way: a
 * poisoned message of the right size is a mismatch too. */
static void allreduce_mismatch(void)
{
    const char *what = "allreduce, rank 1 sends 3 ints";
    int sb[2] = {1, 10}, rb[2] = {0, 0}, from1[3] = {2, 20, 200}, from2[2] = {7, 70};
    struct rd_sched *s = rd_sched_new(W);
    struct rd_coll_args a = {.comm = W, .sbuf = sb, .rbuf = rb, .count = 2, .dt = MPI_INT,
                             .op = MPI_SUM};
    int tag = s->tag;
    nallreduce_world++;
    rd_allreduce_recursive_doubling(s, &a);
    struct rd_request_s *req = start(s);
    struct fake_rec *m = expect(FAKE_AM, 1, RD_AM_EAGER, what);
    tap_is_int(env_of(m)->tag, tag, "%s: round 1 goes with the collective's tag", what);
    seq_to(1);
    fake_rec_free(m);
    fake_inject_eager(1, 1, 1, tag, from1, sizeof(from1));
    fake_progress();
    m = expect(FAKE_AM, 2, RD_AM_EAGER, what);
    check_env(m, sizeof(struct rd_wire_env), 1, 0, tag | RD_TAG_POISON, seq_to(2), 8, what);
    int partial[2] = {3, 30};
    tap_ok(m->len == 8 && memcmp(m->data, partial, 8) == 0,
           "%s: round 2 still sends what fit ({3, 30}), marked", what);
    fake_rec_free(m);
    fake_inject_eager(2, 1, 2, tag, from2, sizeof(from2));
    fake_progress();
    expect_none(what);
    tap_is_int(rd_req_done(req), 1, "%s: complete", what);
    tap_is_int(req->error, MPI_ERR_TRUNCATE, "%s: MPI_ERR_TRUNCATE", what);
    tap_is_str(req->why, "message truncated: rank 1 sends 12 bytes, this rank's buffer holds 8",
               "%s: the reason", what);
    tap_ok(rb[0] == 10 && rb[1] == 100, "%s: the sums of what fit", what);
    free(req->why);
    rd_req_release(req);

    what = "allreduce, rank 2's message poisoned";
    s = rd_sched_new(W);
    tag = s->tag;
    nallreduce_world++;
    rd_allreduce_recursive_doubling(s, &a);
    req = start(s);
    fake_rec_free(expect(FAKE_AM, 1, RD_AM_EAGER, what));
    seq_to(1);
    fake_inject_eager(1, 1, 1, tag, from1, 8);
    fake_progress();
    m = expect(FAKE_AM, 2, RD_AM_EAGER, what);
    check_env(m, sizeof(struct rd_wire_env), 1, 0, tag, seq_to(2), 8, what);
    fake_rec_free(m);
    fake_inject_eager(2, 1, 2, tag | RD_TAG_POISON, from2, sizeof(from2));
    fake_progress();
    expect_none(what);
    tap_is_int(req->error, MPI_ERR_TRUNCATE, "%s: MPI_ERR_TRUNCATE", what);
    tap_is_str(req->why, "the ranks' counts do not match: rank 2 passes on data that did not fit "
               "or did not come at some rank", "%s: the reason", what);
    free(req->why);
    rd_req_release(req);
}

/* Two nonblocking Bcasts outstanding at once: each matches only its own
 * tag, whatever order their messages come in. */
static void two_outstanding(void)
{
    const char *what = "two bcasts outstanding";
    int b1[2] = {0, 0}, b2[2] = {0, 0}, v1[2] = {1, 2}, v2[2] = {3, 4};
    struct rd_coll_args a1 = {.comm = W, .rbuf = b1, .count = 2, .dt = MPI_INT, .root = 2};
    struct rd_coll_args a2 = {.comm = W, .rbuf = b2, .count = 2, .dt = MPI_INT, .root = 3};
    struct rd_sched *s1 = rd_sched_new(W), *s2 = rd_sched_new(W);
    int t1 = s1->tag, t2 = s2->tag;
    nbcast += 2;
    tap_is_int(t2 - t1, 64, "%s: consecutive tags, 64 apart", what);
    rd_bcast_binomial(s1, &a1);
    rd_bcast_binomial(s2, &a2);
    tap_is_str(steps(s2), "R3 W", "%s: the second's steps", what);
    struct rd_request_s *r1 = start(s1), *r2 = start(s2);
    fake_inject_eager(3, 1, 3, t2, v2, sizeof(v2));
    fake_progress();
    tap_is_int(rd_req_done(r2), 1, "%s: the second completes first", what);
    tap_is_int(rd_req_done(r1), 0, "%s: the first still waits", what);
    expect_none(what);
    fake_inject_eager(2, 1, 2, t1, v1, sizeof(v1));
    fake_progress();
    struct fake_rec *m = expect(FAKE_AM, 1, RD_AM_EAGER, what);
    check_env(m, sizeof(struct rd_wire_env), 1, 0, t1, seq_to(1), 8, what);
    fake_rec_free(m);
    finish_req(r1, "two bcasts outstanding, the first");
    finish_req(r2, "two bcasts outstanding, the second");
    tap_ok(b1[0] == 1 && b1[1] == 2 && b2[0] == 3 && b2[1] == 4, "%s: each got its root's data", what);
}

/* ------------------------------------------------------------ call steps */

static char called[8];
static int ncalled;
static struct rd_request_s *adopted;

/* records its letter; 'a' also hands the schedule a request of its own */
static int call_step(struct rd_sched *s, void *arg)
{
    char c = *(const char *)arg;
    if (ncalled < 7)
        called[ncalled++] = c;
    called[ncalled] = 0;
    if (c == 'a') {
        adopted = rd_req_alloc(RD_REQ_DONE);
        rd_sched_adopt(s, adopted);
    }
    return c == 'x' ? MPI_ERR_OTHER : MPI_SUCCESS;
}

static void call_steps(void)
{
    const char *what = "call steps";
    static const char a = 'a', b = 'b', x = 'x', c = 'c';
    struct rd_sched *s = rd_sched_new(W);
    nbcast++;
    ncalled = 0;
    called[0] = 0;
    tap_ok(rd_sched_call(s, call_step, (void *)&a) == RD_OK && rd_sched_wait(s) == RD_OK &&
           rd_sched_call(s, call_step, (void *)&b) == RD_OK, "%s: built", what);
    tap_is_str(steps(s), "F W F", "%s: a call, a wait, a call", what);
    struct rd_request_s *req = start(s);
    tap_is_str(called, "a", "%s: the first call ran at the start", what);
    fake_progress();
    tap_is_str(called, "a", "%s: the second waits for the request the first adopted", what);
    tap_is_int(rd_req_done(req), 0, "%s: the schedule is not done", what);
    rd_req_complete(adopted);
    fake_progress();
    tap_is_str(called, "ab", "%s: once it completes, the second call runs", what);
    finish_req(req, what);

    /* an error from a call: the calls after it do not run */
    s = rd_sched_new(W);
    nbcast++;
    ncalled = 0;
    rd_sched_call(s, call_step, (void *)&x);
    rd_sched_call(s, call_step, (void *)&c);
    tap_is_int(rd_sched_run(s), MPI_ERR_OTHER, "%s: a call's MPI_ERR_OTHER is the schedule's error", what);
    tap_is_str(called, "x", "%s: the call after the failed one did not run", what);
}

/* A schedule that grows: its only step, a call, appends a two-way round
 * (as a collective file access appends each exchange: runtime/io/coll.c).
 * The appended send is marked as an exchange like one built up front, so
 * it goes by put, not by the receiver's get. */
static int grown[2][1000], grown_in[1000];

static int grow_step(struct rd_sched *s, void *arg)
{
    (void)arg;
    if (rd_sched_send(s, grown[0], 1000, MPI_INT, 1) != RD_OK ||
        rd_sched_recv(s, grown_in, 1000, MPI_INT, 1) != RD_OK || rd_sched_wait(s) != RD_OK)
        return MPI_ERR_NO_MEM;
    return MPI_SUCCESS;
}

static void grown_round(void)
{
    const char *what = "a round appended by a call";
    int n = 1000;
    for (int i = 0; i < n; i++)
        grown[0][i] = 3 * i, grown[1][i] = -1, grown_in[i] = -1;
    struct rd_sched *s = rd_sched_new(W);
    int tag = s->tag;
    nbcast++;
    tap_ok(rd_sched_call(s, grow_step, NULL) == RD_OK, "%s: built", what);
    tap_is_str(steps(s), "F", "%s: one call before the start", what);
    struct rd_request_s *req = start(s);
    tap_is_str(steps(s), "F S1 R1 W", "%s: the call appended a send, a receive and a wait", what);
    struct fake_rec *m = expect(FAKE_AM, 1, RD_AM_RTS, what);
    check_env(m, sizeof(struct rd_wire_rts), 1, 0, tag, seq_to(1), (uint64_t)n * 4, what);
    tap_is_int(rts_of(m)->proto, RD_RNDV_PUT, "%s: its send, two-way, goes by put", what);
    uint64_t ours = rts_of(m)->sreq;
    fake_rec_free(m);
    expect_none(what);
    fake_inject_rts(1, 1, 1, tag, (uint64_t)n * 4, 0xc1, 0, RD_RNDV_PUT, NULL, 0);
    fake_inject_ctrl(1, RD_AM_CTS, ours, 0xd1, addr_of(grown[1]), (uint64_t)n * 4, NULL, 0);
    fake_progress();
    m = expect(FAKE_AM, 1, RD_AM_CTS, what);
    void *tmp = (void *)(uintptr_t)ctrl_of(m)->addr;
    uint64_t our_recv = ctrl_of(m)->other;
    tap_ok(ctrl_of(m)->req == 0xc1, "%s: our CTS answers rank 1's RTS", what);
    fake_rec_free(m);
    m = expect(FAKE_PUT, 1, 0, what);
    tap_ok(m->local == grown[0] && m->remote_addr == addr_of(grown[1]) && m->len == (size_t)n * 4,
           "%s: our put writes where rank 1's CTS said", what);
    fake_rec_free(m);
    memcpy(grown[1], grown[0], sizeof grown[0]); /* what the put moved */
    m = expect(FAKE_AM, 1, RD_AM_FIN, what);
    fake_rec_free(m);
    int theirs[1000];
    for (int i = 0; i < n; i++)
        theirs[i] = 7 * i;
    memcpy(tmp, theirs, sizeof theirs); /* rank 1's put */
    fake_inject_ctrl(1, RD_AM_FIN, our_recv, 0, 0, 0, NULL, 0);
    fake_progress();
    expect_none(what);
    finish_req(req, what);
    int ok = 1;
    for (int i = 0; i < n; i++)
        ok &= grown_in[i] == 7 * i && grown[1][i] == 3 * i;
    tap_ok(ok, "%s: both directions' data arrived", what);
}

int main(void)
{
    fake_defaults();
    fake_engine_up(4, RD_RNDV_PROTOCOL_AUTO);
    memset(out_seq, 0, sizeof(out_seq));
    int to0[2] = {2, 1}, to2[1] = {1};
    bcast(0, "S2 S1", -1, to0, 2, "bcast from 0");
    bcast(2, "R2 W S1", 2, to2, 1, "bcast from 2");
    bcast(1, "R3 W", 3, NULL, 0, "bcast from 1");
    bcast_large();
    allreduce4(0, "allreduce on 4 ranks");
    allreduce4(1, "allreduce on 4 ranks, rank 2's message first");
    allreduce3();
    allreduce_large();
    allreduce_mismatch();
    two_outstanding();
    call_steps();
    grown_round();
    tap_is_int(rd_p2p_probe(MPI_ANY_SOURCE, MPI_ANY_TAG, W->coll, NULL, NULL), 0,
               "the end: no message is left unexpected");
    tap_ok(!rd_progress_has(rd_sched_progress) && rd_progress_nhooks == 0,
           "the end: no schedule is active (no progress hook)");
    tap_is_int(fake_engine_down(), 0, "the end: nothing left in the fake transport");
    tap_is_int(fake.reentered, 0, "the end: no send from inside the handler");
    return tap_done();
}

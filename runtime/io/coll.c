/* coll.c - collective access (rd_io_coll, rd_io_coll_start; io_int.h;
 * PLAN 4.3 as changed in README.md, "Stage 3" and "Nonblocking
 * collective access"): the exchanges. The pieces that need no messages
 * are in coll_plan.c (coll.h).
 *
 * One access is one schedule (collectives/sched.h) on the file's
 * communicator (its library context: no user message can match), so it
 * takes one collective tag, the same on every rank. The schedule grows as
 * it runs: each CALL step looks at what the exchange before it brought and
 * appends the next exchange, then a WAIT and the next CALL:
 *   - one allgather of struct rd_io_acc (40 bytes a rank), then the
 *     decision: two phases, or every rank's own access;
 *   - per round of two-phase: headers (runs, bytes) from each rank to
 *     each aggregator whose chunk its file extent meets (both sides know
 *     which from the allgather: SUB_HDR), then the runs (SUB_RUNS) and,
 *     for writes, the packed data (SUB_DATA); the aggregator's file
 *     access; for reads the data back (SUB_DATA);
 *   - one allreduce (MAXLOC of the error class) so that every rank
 *     returns the same class.
 * A blocking call runs the schedule to its end, with the file accesses
 * done in the steps. A nonblocking one (MPI_File_iwrite_all ...) starts
 * it; its file accesses (the aggregator's chunk, or the rank's own
 * independent access) go to the I/O thread (aio.c), which the schedule
 * waits for as it waits for a message (rd_sched_adopt). So the rounds move
 * whenever this process makes progress, and the disk works meanwhile.
 *
 * A rank's own failure (out of memory, a failed pwrite) is kept in the
 * record (fail) and the rank goes on sending and receiving what the plan
 * says, with nothing in it: the others never wait for it, and the final
 * allreduce gives everyone its class. An aggregator's own share goes
 * through memory, not messages. */
#include "runtime/io/coll.h"

#include <errno.h>
#include <limits.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "collectives/algorithms.h"
#include "collectives/sched.h"
#include "runtime/base/job.h"
#include "runtime/io/aio.h"
#include "runtime/objects/comm.h"
#include "runtime/objects/datatype.h"
#include "runtime/p2p/request.h"

#define SUB_RUNS 1
#define SUB_DATA 2
#define SUB_HDR 3
#define CB_DEFAULT ((size_t)2 << 20)
#define CB_MAX ((size_t)64 << 20) /* 16 bytes a run of one byte: counts stay ints */

/* what one rank keeps for one aggregator's chunk in a round */
struct share {
    int meets;          /* its extent meets the chunk: a header goes */
    int64_t hdr[2];     /* runs, bytes */
    int64_t ss;         /* stream offset of the share */
    struct rd_io_runs runs;
    char *data;         /* packed (writes) or coming back (reads) */
    int owned;          /* data is ours, in mem (else it points into the user's buffer) */
    struct rd_scratch mem;
};

/* what an aggregator keeps of one rank in a round */
struct from {
    int meets;
    int64_t hdr[2];
    int64_t *runs;      /* in rmem (the aggregator's own: its share's) */
    char *data;         /* in dmem (idem) */
    struct rd_scratch rmem, dmem;
};

/* One collective access, from its start to its end. */
struct tp {
    struct rd_io_file *f;
    MPI_Comm comm;
    void *fh;           /* the MPI_File (the I/O thread's operations name it) */
    int write, me, p;
    int async;          /* nonblocking: file accesses on the I/O thread */
    void *buf;
    size_t count;
    MPI_Datatype dt;    /* nonblocking: held until the end */
    char *direct;       /* buf's data when it is one run (no packing), else NULL */
    struct rd_io_acc mine, *acc;
    int pre;            /* the rank's access was done in the call (a registered datarep) */
    int atomic;         /* the file's atomicity and hints as at the call: the plan's inputs,
                         * which the steps read later, at a moment that differs between ranks
                         * (MPI_File_set_info or set_atomicity may come meanwhile) */
    struct rd_io_hints hints;
    struct rd_io_file snap; /* nonblocking: the file as at the call, for the I/O thread's own
                             * access (rd_io_indep reads its hints and atomicity, which
                             * set_info / set_atomicity may change meanwhile) */
    size_t bytes;       /* the data bytes moved, once agreed */
    /* two phases */
    int na, jme;        /* aggregators; my index among them (-1: none) */
    int *aggr;
    int64_t *bound;
    int64_t cb, round, rounds;
    int64_t ma, mb;     /* my chunk in this round (aggregator) */
    struct share *sh;   /* [na] */
    struct from *fr;    /* [p] when an aggregator */
    struct rd_io_piece *pc;
    int npc;
    char *chunk;        /* in cmem */
    struct rd_scratch cmem;
    /* the end */
    int agin[2], agout[2];
    int result;         /* the agreed class */
    int err;            /* the first local failure */
    rd_io_why why;
};

static void fail(struct tp *t, int err, const rd_io_why *w)
{
    if (err && !t->err) {
        t->err = err;
        t->why = *w;
    }
}

static void fail_msg(struct tp *t, int err, const char *msg)
{
    rd_io_why w;
    rd_io_fail(&w, err, "%s", msg);
    fail(t, err, &w);
}

/* Staging buffers (chunks, packed shares, what comes to an aggregator)
 * come from the schedules' pool (collectives/sched.h), under the big
 * lock, and go back to it after each round: the next round, and the next
 * access, reuse pages already touched. On this VM a fresh page costs a
 * host fault (bench/io/README.md), about 10 us a 4 KiB page: 16 MiB of
 * fresh chunk and staging per round was a third of a 2-rank BT write. */
static void *pool_get(struct rd_scratch *m, size_t n)
{
    *m = rd_scratch_get(n);
    return m->p;
}

static void pool_put(struct rd_scratch *m)
{
    rd_scratch_put(*m);
    m->p = NULL;
    m->size = 0;
}

/* the next exchange's steps are appended: then a WAIT and fn */
static int then(struct rd_sched *s, struct tp *t, int (*fn)(struct rd_sched *, void *))
{
    if (rd_sched_wait(s) != RD_OK || rd_sched_call(s, fn, t) != RD_OK)
        return MPI_ERR_NO_MEM; /* the schedule stops: not recoverable */
    return MPI_SUCCESS;
}

/* ------------------------------------------------------------ file accesses on the I/O thread */

/* An access the I/O thread does for a nonblocking collective: its result
 * goes to the record (finish), never to the adopted request, whose error
 * would stop the schedule before the ranks agree. */
struct tp_op {
    struct rd_aio_op op;
    struct tp *t;
    int indep;          /* the rank's own access, else the aggregator's chunk */
    int err;
    rd_io_why why;
};

static int tp_op_run(struct rd_aio_op *op)
{
    struct tp_op *x = (struct tp_op *)op;
    struct tp *t = x->t;
    int how;
    if (x->indep)
        x->err = rd_io_indep(&t->snap, t->write, t->mine.s, t->buf, t->count, t->dt, &op->bytes, &x->why);
    else if (t->write)
        x->err = rd_io_coll_put(t->f->fd, t->ma, t->mb, t->chunk, t->pc, t->npc, &how, &x->why);
    else
        x->err = rd_io_coll_get(t->f->fd, t->ma, t->mb, t->chunk, t->pc, t->npc, &how, &x->why);
    return MPI_SUCCESS;
}

static void tp_op_finish(struct rd_aio_op *op)
{
    struct tp_op *x = (struct tp_op *)op;
    fail(x->t, x->err, &x->why);
    if (x->indep && !x->err)
        x->t->bytes = op->bytes;
}

/* Hand an access to the I/O thread; the next WAIT waits for it. */
static void on_thread(struct rd_sched *s, struct tp *t, int indep)
{
    struct tp_op *x = (struct tp_op *)rd_aio_op_new(sizeof *x);
    if (!x) {
        fail_msg(t, MPI_ERR_NO_MEM, "out of memory for an I/O operation");
        return;
    }
    x->op.run = tp_op_run;
    x->op.finish = tp_op_finish;
    x->op.file = t->fh;
    x->t = t;
    x->indep = indep;
    MPI_Request req;
    rd_io_why w;
    int e = rd_aio_start(&x->op, &req, &w); /* on failure x is finished and freed */
    if (e != MPI_SUCCESS)
        fail(t, e, &w);
    else
        rd_sched_adopt(s, req);
}

/* ------------------------------------------------------------ the end: agreement */

static int agreed(struct rd_sched *s, void *arg)
{
    (void)s;
    struct tp *t = arg;
    t->result = t->agout[0];
    if (t->result != MPI_SUCCESS && t->result != t->err)
        rd_io_fail(&t->why, t->result, "the collective access failed on rank %d of the file's communicator",
                   t->agout[1]);
    if (t->result == MPI_SUCCESS && !t->pre && t->sh)
        t->bytes = (size_t)t->mine.n; /* two phases moved all of it */
    return MPI_SUCCESS;
}

/* Every rank returns the same class: the highest of all ranks'. */
static int agree(struct rd_sched *s, struct tp *t)
{
    t->agin[0] = t->err;
    t->agin[1] = t->me;
    struct rd_coll_args a = {.comm = t->comm, .sbuf = t->agin, .rbuf = t->agout, .count = 1,
                             .dt = MPI_2INT, .op = MPI_MAXLOC};
    if (rd_sched_wait(s) != RD_OK || rd_coll_build(RD_COLL_ALLREDUCE, s, &a) != RD_OK)
        return MPI_ERR_NO_MEM;
    return then(s, t, agreed);
}

static int agree_step(struct rd_sched *s, void *arg)
{
    return agree(s, arg);
}

/* ------------------------------------------------------------ two phases: a round */

static int next_round(struct rd_sched *s, struct tp *t);

/* this round's buffers (also what an aborted schedule left) */
static void round_free(struct tp *t)
{
    if (t->fr)
        for (int i = 0; i < t->p; i++) {
            pool_put(&t->fr[i].rmem);
            pool_put(&t->fr[i].dmem);
            t->fr[i].runs = NULL;
            t->fr[i].data = NULL;
        }
    if (t->sh)
        for (int j = 0; j < t->na; j++) {
            pool_put(&t->sh[j].mem);
            t->sh[j].data = NULL;
            t->sh[j].owned = 0;
        }
    free(t->pc);
    t->pc = NULL;
    t->npc = 0;
}

/* reads: the data came back; unpack it, then the next round */
static int round_end(struct rd_sched *s, void *arg)
{
    struct tp *t = arg;
    if (!t->write && !t->err && !t->direct)
        for (int j = 0; j < t->na; j++) {
            struct share *x = &t->sh[j];
            if (x->meets && x->hdr[1])
                rd_dt_unpack(t->buf, t->dt, (size_t)(x->ss - t->mine.s), x->data, (size_t)x->hdr[1]);
        }
    round_free(t);
    t->round++;
    return next_round(s, t);
}

/* the aggregator's access is done: reads send the data back */
static int round_back(struct rd_sched *s, void *arg)
{
    struct tp *t = arg;
    if (t->write)
        return round_end(s, t);
    if (t->jme >= 0)
        for (int i = 0; i < t->p; i++) {
            struct from *x = &t->fr[i];
            if (x->meets && i != t->me && x->hdr[1] && x->data &&
                rd_sched_send_sub(s, x->data, (int)x->hdr[1], MPI_BYTE, i, SUB_DATA) != RD_OK)
                return MPI_ERR_NO_MEM;
        }
    for (int j = 0; j < t->na; j++) {
        struct share *x = &t->sh[j];
        if (x->meets && t->aggr[j] != t->me && x->hdr[1] &&
            rd_sched_recv_sub(s, x->data, (int)x->hdr[1], MPI_BYTE, t->aggr[j], SUB_DATA) != RD_OK)
            return MPI_ERR_NO_MEM;
    }
    return then(s, t, round_end);
}

/* the runs (and data of writes) are in: the aggregator's file access */
static int round_io(struct rd_sched *s, void *arg)
{
    struct tp *t = arg;
    /* (after a count mismatch the steps go on, with what came poisoned:
     * nothing of it reaches the file) */
    if (t->jme < 0 || t->err || t->ma >= t->mb || s->error != MPI_SUCCESS)
        return round_back(s, t);
    t->pc = malloc((size_t)t->p * sizeof *t->pc);
    if (!t->pc) {
        fail_msg(t, MPI_ERR_NO_MEM, "out of memory");
        return round_back(s, t);
    }
    t->npc = 0;
    for (int i = 0; i < t->p; i++)
        if (t->fr[i].meets && t->fr[i].hdr[0])
            t->pc[t->npc++] = (struct rd_io_piece){t->fr[i].runs, (size_t)t->fr[i].hdr[0], t->fr[i].data};
    if (t->async) {
        on_thread(s, t, 0);
        return then(s, t, round_back);
    }
    int how;
    rd_io_why w;
    int e = t->write ? rd_io_coll_put(t->f->fd, t->ma, t->mb, t->chunk, t->pc, t->npc, &how, &w)
                     : rd_io_coll_get(t->f->fd, t->ma, t->mb, t->chunk, t->pc, t->npc, &how, &w);
    fail(t, e, &w);
    return round_back(s, t);
}

/* the headers are in: room for what comes, then the runs and data */
static int round_runs(struct rd_sched *s, void *arg)
{
    struct tp *t = arg;
    rd_io_why w;
    if (t->jme >= 0)
        for (int i = 0; i < t->p; i++) {
            struct from *x = &t->fr[i];
            x->runs = NULL;
            x->data = NULL;
            if (!x->meets || !x->hdr[0])
                continue;
            if (i == t->me) {
                x->runs = t->sh[t->jme].runs.r;
                x->data = t->sh[t->jme].data;
                continue;
            }
            if (x->hdr[0] > (int64_t)CB_MAX || x->hdr[1] > (int64_t)CB_MAX || x->hdr[0] < 0 || x->hdr[1] < 0) {
                rd_io_fail(&w, MPI_ERR_INTERN, "rank %d sent a header of %lld runs, %lld bytes", i,
                           (long long)x->hdr[0], (long long)x->hdr[1]);
                fail(t, MPI_ERR_INTERN, &w);
                x->hdr[0] = x->hdr[1] = 0;
                continue;
            }
            x->runs = pool_get(&x->rmem, (size_t)x->hdr[0] * 2 * sizeof(int64_t));
            x->data = pool_get(&x->dmem, x->hdr[1] ? (size_t)x->hdr[1] : 1);
            if (!x->runs || !x->data) /* not recoverable: the sender's message stays unmatched */
                fail_msg(t, MPI_ERR_NO_MEM, "out of memory");
        }
    for (int j = 0; j < t->na; j++) {
        struct share *x = &t->sh[j];
        if (!x->meets || t->aggr[j] == t->me || !x->hdr[0])
            continue;
        if (rd_sched_send_sub(s, x->runs.r, (int)(x->hdr[0] * 2 * (int64_t)sizeof(int64_t)), MPI_BYTE,
                              t->aggr[j], SUB_RUNS) != RD_OK ||
            (t->write && rd_sched_send_sub(s, x->data, (int)x->hdr[1], MPI_BYTE, t->aggr[j], SUB_DATA) != RD_OK))
            return MPI_ERR_NO_MEM;
    }
    if (t->jme >= 0)
        for (int i = 0; i < t->p; i++) {
            struct from *x = &t->fr[i];
            if (!x->meets || i == t->me || !x->hdr[0] || !x->runs || !x->data)
                continue;
            if (rd_sched_recv_sub(s, x->runs, (int)(x->hdr[0] * 2 * (int64_t)sizeof(int64_t)), MPI_BYTE, i,
                                  SUB_RUNS) != RD_OK ||
                (t->write && rd_sched_recv_sub(s, x->data, (int)x->hdr[1], MPI_BYTE, i, SUB_DATA) != RD_OK))
                return MPI_ERR_NO_MEM;
        }
    return then(s, t, round_io);
}

/* a round begins: my shares of every aggregator's chunk, and the headers */
static int round_start(struct rd_sched *s, struct tp *t)
{
    const struct rd_io_acc *mine = &t->mine;
    int64_t a, b;
    rd_io_why w;
    for (int j = 0; j < t->na; j++) {
        struct share *x = &t->sh[j];
        rd_io_coll_chunk(t->bound[j], t->bound[j + 1], t->cb, t->round, &a, &b);
        x->meets = rd_io_coll_meets(mine, a, b);
        x->hdr[0] = x->hdr[1] = 0;
        if (!x->meets || t->err)
            continue;
        int64_t sn;
        int e = rd_io_coll_share(&t->f->view, mine->s, mine->n, a, b, &x->ss, &sn, &x->runs, &w);
        if (e) {
            fail(t, e, &w);
            continue;
        }
        x->hdr[0] = (int64_t)x->runs.n;
        x->hdr[1] = sn;
        if (sn && t->direct) {
            /* a contiguous buffer: the share's bytes are already packed */
            x->data = t->direct + (x->ss - mine->s);
            x->owned = 0;
        } else if (sn) {
            x->data = pool_get(&x->mem, (size_t)sn);
            x->owned = 1;
            if (!x->data) {
                rd_io_fail(&w, MPI_ERR_NO_MEM, "out of memory for %lld bytes of a chunk", (long long)sn);
                fail(t, MPI_ERR_NO_MEM, &w);
                x->hdr[0] = x->hdr[1] = 0;
                continue;
            }
            if (t->write)
                rd_dt_pack(t->buf, t->dt, (size_t)(x->ss - mine->s), x->data, (size_t)sn);
        }
    }
    t->ma = t->mb = 0;
    if (t->jme >= 0) {
        rd_io_coll_chunk(t->bound[t->jme], t->bound[t->jme + 1], t->cb, t->round, &t->ma, &t->mb);
        for (int i = 0; i < t->p; i++) {
            t->fr[i].meets = rd_io_coll_meets(&t->acc[i], t->ma, t->mb);
            t->fr[i].hdr[0] = t->fr[i].hdr[1] = 0;
        }
    }
    for (int j = 0; j < t->na; j++)
        if (t->sh[j].meets && t->aggr[j] != t->me &&
            rd_sched_send_sub(s, t->sh[j].hdr, 2 * (int)sizeof(int64_t), MPI_BYTE, t->aggr[j], SUB_HDR) != RD_OK)
            return MPI_ERR_NO_MEM;
    if (t->jme >= 0)
        for (int i = 0; i < t->p; i++) {
            if (!t->fr[i].meets)
                continue;
            if (i == t->me)
                memcpy(t->fr[i].hdr, t->sh[t->jme].hdr, sizeof t->fr[i].hdr);
            else if (rd_sched_recv_sub(s, t->fr[i].hdr, 2 * (int)sizeof(int64_t), MPI_BYTE, i, SUB_HDR) != RD_OK)
                return MPI_ERR_NO_MEM;
        }
    return then(s, t, round_runs);
}

static int next_round(struct rd_sched *s, struct tp *t)
{
    if (t->round >= t->rounds)
        return agree(s, t);
    return round_start(s, t);
}

/* The two phases' plan, every rank, after the decision: aggregators,
 * file domains, rounds. A rank short of memory for the plan cannot take
 * part (not recoverable: the others' messages to it stay unmatched). */
static int two_phase(struct rd_sched *s, struct tp *t)
{
    const struct rd_io_hints *hints = &t->hints;
    int p = t->p;
    int *node = malloc((size_t)p * sizeof *node);
    t->aggr = malloc((size_t)p * sizeof *t->aggr);
    t->bound = malloc((size_t)(p + 1) * sizeof *t->bound);
    if (!node || !t->aggr || !t->bound) {
        free(node);
        return MPI_ERR_NO_MEM;
    }
    for (int r = 0; r < p; r++)
        node[r] = rd_job_node_of(rd_comm_world_rank(t->comm, r));
    int per = rd_io_coll_per_node(hints->cb_per_node, t->write);
    int na = rd_io_coll_aggregators(p, node, per, hints->cb_nodes, t->aggr);
    free(node);
    if (na <= 0)
        return MPI_ERR_NO_MEM;
    int64_t lo = INT64_MAX, hi = 0;
    for (int r = 0; r < p; r++)
        if (t->acc[r].n > 0) {
            if (t->acc[r].lo < lo)
                lo = t->acc[r].lo;
            if (t->acc[r].hi > hi)
                hi = t->acc[r].hi;
        }
    size_t cb = hints->cb_buffer_size ? hints->cb_buffer_size : CB_DEFAULT;
    if (cb > CB_MAX)
        cb = CB_MAX;
    int64_t align = hints->striping_unit ? (int64_t)hints->striping_unit : RD_IO_COLL_ALIGN;
    t->rounds = rd_io_coll_domains(lo, hi, na, align, (int64_t)cb, t->bound);
    t->na = na;
    t->cb = (int64_t)cb;
    t->jme = -1;
    for (int j = 0; j < na; j++)
        if (t->aggr[j] == t->me)
            t->jme = j;
    t->sh = calloc((size_t)na, sizeof *t->sh);
    if (!t->sh)
        return MPI_ERR_NO_MEM;
    if (t->jme >= 0) {
        int64_t dl = t->bound[t->jme + 1] - t->bound[t->jme];
        t->fr = calloc((size_t)p, sizeof *t->fr);
        t->chunk = pool_get(&t->cmem, dl < (int64_t)cb ? (dl ? (size_t)dl : 1) : cb);
        if (!t->fr || !t->chunk)
            return MPI_ERR_NO_MEM;
    }
    t->round = 0;
    return next_round(s, t);
}

/* ------------------------------------------------------------ the start: who does what */

/* The allgather is in: nobody moves data when a rank failed, else two
 * phases or every rank's own access. */
static int gathered(struct rd_sched *s, void *arg)
{
    struct tp *t = arg;
    for (int r = 0; r < t->p; r++)
        if (t->acc[r].flags & RD_IO_ACC_FAIL)
            return agree(s, t);
    if (t->pre)
        return agree(s, t);
    int hint = t->write ? t->hints.cb_write : t->hints.cb_read;
    if (rd_io_coll_decide(t->acc, t->p, hint, t->atomic))
        return two_phase(s, t);
    if (s->error != MPI_SUCCESS) /* a count mismatch in the allgather */
        return agree(s, t);
    if (t->mine.n > 0 && t->async) {
        on_thread(s, t, 1);
        if (rd_sched_wait(s) != RD_OK || rd_sched_call(s, agree_step, t) != RD_OK)
            return MPI_ERR_NO_MEM;
        return MPI_SUCCESS;
    }
    if (t->mine.n > 0) {
        rd_io_why w;
        size_t got = 0;
        int e = rd_io_indep(t->f, t->write, t->mine.s, t->buf, t->count, t->dt,
                            &got, &w);
        fail(t, e, &w);
        if (!e)
            t->bytes = got;
    }
    return agree(s, t);
}

static void tp_free(struct tp *t)
{
    if (!t)
        return;
    round_free(t);
    if (t->sh)
        for (int j = 0; j < t->na; j++)
            rd_io_runs_free(&t->sh[j].runs);
    free(t->sh);
    free(t->fr);
    pool_put(&t->cmem);
    free(t->aggr);
    free(t->bound);
    free(t->acc);
    free(t);
}

/* This rank's access (the clipping of a read to the end of the file, its
 * file extent, its flags), and the schedule's first steps: the allgather
 * and the decision. NULL: out of memory (nothing started; *tag: the
 * collective tag taken, for abstain, else 0). */
static struct rd_sched *tp_begin(struct tp *t, MPI_Offset o, size_t count, int *tag)
{
    *tag = 0;
    struct rd_io_file *f = t->f;
    const struct rd_io_view *v = &f->view;
    rd_io_why w;
    t->count = count;
    t->atomic = f->atomic;
    t->hints = f->hints;
    if (t->async)
        t->snap = *f;
    t->mine = (struct rd_io_acc){0, 0, o, (int64_t)(count * t->dt->size), 0};
    t->direct = t->dt->contig ? (char *)t->buf + t->dt->true_lb : NULL;
    t->me = t->comm->rank;
    t->p = t->comm->size;
    t->jme = -1;
    if (v->rep)
        t->mine.flags |= RD_IO_ACC_REP;
    if (!v->contig && !v->monotone)
        t->mine.flags |= RD_IO_ACC_NOMAP;
    if (!t->write && t->mine.n > 0) {
        /* a read stops at the end of the file */
        struct stat st;
        if (fstat(f->fd, &st) != 0) {
            rd_io_fail(&w, MPI_ERR_IO, "fstat of %s: %s", f->path, strerror(errno));
            fail(t, MPI_ERR_IO, &w);
            t->mine.flags |= RD_IO_ACC_FAIL;
            t->mine.n = 0;
        } else {
            int64_t below = rd_io_view_below(v, (MPI_Offset)st.st_size);
            int64_t can = below > t->mine.s ? below - t->mine.s : 0;
            if (can < t->mine.n)
                t->mine.n = can;
        }
    }
    if (t->mine.n > 0 && !(t->mine.flags & RD_IO_ACC_NOMAP)) {
        t->mine.lo = rd_io_view_offset(v, t->mine.s);
        t->mine.hi = rd_io_view_offset(v, t->mine.s + t->mine.n - 1) + 1;
    }
    if (v->rep && v->rep->kind == RD_REP_USER && !(t->mine.flags & RD_IO_ACC_FAIL)) {
        /* a registered datarep's conversions are user code that may call
         * MPI: never in a schedule's step, never on the I/O thread. Such a
         * view always goes independent (RD_IO_ACC_REP): do it now. */
        t->pre = 1;
        if (t->mine.n > 0) {
            size_t got = 0;
            int e = rd_io_indep(f, t->write, t->mine.s, t->buf, t->count, t->dt,
                                &got, &w);
            fail(t, e, &w);
            if (!e)
                t->bytes = got;
        }
    }
    t->acc = malloc((size_t)t->p * sizeof *t->acc);
    struct rd_sched *s = t->acc ? rd_sched_new(t->comm) : NULL;
    if (!s)
        return NULL;
    *tag = s->tag;
    struct rd_coll_args a = {.comm = t->comm, .sbuf = &t->mine, .scount = (int)sizeof t->mine, .sdt = MPI_BYTE,
                             .rbuf = t->acc, .rcount = (int)sizeof t->mine, .rdt = MPI_BYTE};
    if (rd_coll_build(RD_COLL_ALLGATHER, s, &a) != RD_OK || then(s, t, gathered) != MPI_SUCCESS) {
        rd_sched_discard(s);
        return NULL;
    }
    return s;
}

static struct tp *tp_new(struct rd_io_file *f, void *fh, MPI_Comm comm, int write, void *buf, MPI_Datatype dt,
                         int async)
{
    struct tp *t = calloc(1, sizeof *t);
    if (t) {
        t->f = f;
        t->fh = fh;
        t->comm = comm;
        t->write = write;
        t->buf = buf;
        t->dt = dt;
        t->async = async;
    }
    return t;
}

/* ------------------------------------------------------------ entry points */

/* Detach a started schedule's request: it is released when the schedule
 * ends (as MPI_Request_free does). */
static void detach(struct rd_request_s *req)
{
    if (rd_req_done(req))
        rd_req_release(req);
    else
        req->user_freed = 1;
}

/* abstentions still running on their own (their schedules end in later
 * progress; MPI_Finalize waits for them: rd_io_coll_fini) */
static int detached;

static void abstain_done(struct rd_sched *s)
{
    tp_free(s->arg);
    detached--;
}

void rd_io_coll_fini(void)
{
    long idle = 0;
    while (detached > 0)
        rd_wait_step(&idle);
}

/* A rank that cannot take part in the access (its own checks failed with
 * cls, or it is out of memory) meets the others in it: the same
 * allgather, marked failed, then the same agreement. wait 0: the schedule
 * ends in later progress, on its own (a nonblocking call returns at
 * once). tag: the access's collective tag when a schedule that took it
 * was given up (0: take the next one, as the others did). Returns the
 * agreed class (wait 0: cls). */
static int abstain(MPI_Comm comm, int cls, int wait, rd_io_why *why, int tag)
{
    struct tp *t = calloc(1, sizeof *t);
    struct rd_sched *s = NULL;
    if (t) {
        t->comm = comm;
        t->me = comm->rank;
        t->p = comm->size;
        t->jme = -1;
        t->err = cls;
        t->mine.flags = RD_IO_ACC_FAIL;
        t->acc = malloc((size_t)t->p * sizeof *t->acc);
        s = !t->acc ? NULL : tag ? rd_sched_new_tagged(comm, tag) : rd_sched_new(comm);
    }
    struct rd_coll_args a = {.comm = comm, .sbuf = t ? &t->mine : NULL, .scount = (int)sizeof t->mine,
                             .sdt = MPI_BYTE, .rbuf = t ? t->acc : NULL, .rcount = (int)sizeof t->mine,
                             .rdt = MPI_BYTE};
    if (s && (rd_coll_build(RD_COLL_ALLGATHER, s, &a) != RD_OK || then(s, t, agree_step) != MPI_SUCCESS)) {
        rd_sched_discard(s);
        s = NULL;
    }
    if (!s) {
        tp_free(t);
        return cls; /* the others will wait: nothing better to do */
    }
    if (!wait) {
        struct rd_request_s *req;
        s->on_done = abstain_done;
        s->arg = t;
        detached++;
        if (rd_sched_start(s, &req) == RD_OK) { /* (else the schedule is gone: so is t) */
            detach(req);
        } else {
            detached--;
            tp_free(t);
        }
        return cls;
    }
    int e = rd_sched_run(s);
    int res = e != MPI_SUCCESS ? cls : t->result;
    if (why && res != cls)
        *why = t->why;
    tp_free(t);
    return res;
}

int rd_io_coll_abstain(MPI_Comm comm, int cls)
{
    return abstain(comm, cls, 1, NULL, 0);
}

void rd_io_coll_abstain_nb(MPI_Comm comm, int cls)
{
    abstain(comm, cls, 0, NULL, 0);
}

int rd_io_coll(struct rd_io_file *f, MPI_Comm comm, int write, MPI_Offset o, void *buf, size_t count,
               MPI_Datatype dt, size_t *bytes, rd_io_why *why)
{
    *bytes = 0;
    struct tp *t = tp_new(f, NULL, comm, write, buf, dt, 0);
    int tag = 0;
    struct rd_sched *s = t ? tp_begin(t, o, count, &tag) : NULL;
    if (!s) {
        tp_free(t);
        rd_io_why w;
        int cls = rd_io_fail(&w, MPI_ERR_NO_MEM, "out of memory for the collective access");
        cls = abstain(comm, cls, 1, &w, tag);
        if (why)
            *why = w;
        return cls;
    }
    int e = rd_sched_run(s);
    int cls = e != MPI_SUCCESS ? rd_io_fail(&t->why, e, "a collective exchange failed") : t->result;
    if (cls == MPI_SUCCESS)
        *bytes = t->bytes;
    else if (why)
        *why = t->why;
    tp_free(t);
    return cls;
}

/* A nonblocking access ends: its request's error, reason and count. */
static void nb_done(struct rd_sched *s)
{
    struct tp *t = s->arg;
    struct rd_request_s *req = s->req;
    if (s->error == MPI_SUCCESS) {
        s->error = t->result;
        if (t->result == MPI_SUCCESS)
            req->status.rd_bytes = (MPI_Count)t->bytes;
        else if (!req->user_freed)
            req->why = strdup(t->why.msg[0] ? t->why.msg : "the collective access failed");
    } else if (s->error != MPI_ERR_TRUNCATE && !req->user_freed) {
        req->why = strdup("a collective exchange failed");
    }
    atomic_fetch_sub(&t->f->inflight, 1);
    rd_dt_release(t->dt);
    tp_free(t);
}

int rd_io_coll_start(struct rd_io_file *f, void *fh, MPI_Comm comm, int write, MPI_Offset o, void *buf,
                     size_t count, MPI_Datatype dt, MPI_Request *request, rd_io_why *why)
{
    struct tp *t = tp_new(f, fh, comm, write, buf, dt, 1);
    int tag = 0;
    struct rd_sched *s = t ? tp_begin(t, o, count, &tag) : NULL;
    if (!s) {
        tp_free(t);
        int cls = rd_io_fail(why, MPI_ERR_NO_MEM, "out of memory for the collective access");
        abstain(comm, cls, 0, NULL, tag);
        return cls;
    }
    rd_dt_retain(dt);
    atomic_fetch_add(&f->inflight, 1);
    s->on_done = nb_done;
    s->arg = t;
    struct rd_request_s *req;
    if (rd_sched_start(s, &req) != RD_OK) {
        /* the schedule is gone, nb_done not called */
        atomic_fetch_sub(&f->inflight, 1);
        rd_dt_release(dt);
        tp_free(t);
        int cls = rd_io_fail(why, MPI_ERR_NO_MEM, "out of memory for the request");
        abstain(comm, cls, 0, NULL, tag);
        return cls;
    }
    req->io.file = fh; /* its errors go to the file's handler */
    *request = req;
    return MPI_SUCCESS;
}

/* coll.c - two-phase collective access (rd_io_coll, io_int.h; PLAN 4.3 as
 * changed in README.md, "Stage 3"): the exchanges. The pieces that need no
 * messages are in coll_plan.c (coll.h).
 *
 * Every exchange is a schedule on the file's communicator (its library
 * context: no user message can match), built and run by every rank in the
 * same order, so each takes the same collective tag everywhere:
 *   - one allgather of struct rd_io_acc (40 bytes a rank);
 *   - per round: headers (runs, bytes) from each rank to each aggregator
 *     whose chunk its file extent meets (both sides know which from the
 *     allgather), then the runs (sub-tag 1) and, for writes, the packed
 *     data (sub-tag 2); for reads a third schedule brings the data back;
 *   - one allreduce (MAXLOC of the error class) so that every rank
 *     returns the same class.
 * An aggregator's own share goes through memory, not messages. */
#include "runtime/io/coll.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "collectives/algorithms.h"
#include "collectives/sched.h"
#include "runtime/base/job.h"
#include "runtime/objects/comm.h"
#include "runtime/objects/datatype.h"

#define SUB_RUNS 1
#define SUB_DATA 2
#define CB_DEFAULT ((size_t)16 << 20)
#define CB_MAX ((size_t)64 << 20) /* 16 bytes a run of one byte: counts stay ints */

/* Every rank returns the same class: the highest of all ranks'. */
static int agree(MPI_Comm comm, int err, rd_io_why *why)
{
    int in[2] = {err, comm->rank}, out[2] = {err, comm->rank};
    struct rd_coll_args a = {.comm = comm, .sbuf = in, .rbuf = out, .count = 1, .dt = MPI_2INT,
                             .op = MPI_MAXLOC};
    int e = rd_coll_run(RD_COLL_ALLREDUCE, &a);
    if (e != MPI_SUCCESS)
        return rd_io_fail(why, e, "the ranks could not agree on the collective access's outcome");
    if (out[0] != MPI_SUCCESS && out[0] != err)
        rd_io_fail(why, out[0], "the collective access failed on rank %d of the file's communicator",
                   out[1]);
    return out[0];
}

/* what one rank keeps for one aggregator's chunk in a round */
struct share {
    int meets;          /* its extent meets the chunk: a header goes */
    int64_t hdr[2];     /* runs, bytes */
    int64_t ss;         /* stream offset of the share */
    struct rd_io_runs runs;
    char *data;         /* packed (writes) or coming back (reads) */
    int owned;          /* data is ours (else it points into the user's buffer) */
};

/* what an aggregator keeps of one rank in a round */
struct from {
    int meets;
    int64_t hdr[2];
    int64_t *runs;
    char *data;
};

struct tp {
    struct rd_io_file *f;
    MPI_Comm comm;
    int write, me, p;
    void *buf;
    MPI_Datatype dt;
    char *direct;       /* buf's data when it is one run (no packing), else NULL */
    const struct rd_io_acc *acc;
    int na, jme;        /* aggregators; my index among them (-1: none) */
    const int *aggr;
    const int64_t *bound;
    int64_t cb;
    struct share *sh;   /* [na] */
    struct from *fr;    /* [p] when an aggregator */
    char *chunk;
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

static int sched_end(struct tp *t, struct rd_sched *s)
{
    int e = rd_sched_run(s);
    if (e != MPI_SUCCESS) {
        rd_io_why w;
        rd_io_fail(&w, e, "a two-phase exchange failed");
        fail(t, e, &w);
    }
    return e;
}

static void round_one(struct tp *t, int64_t r)
{
    const struct rd_io_acc *mine = &t->acc[t->me];
    int64_t a, b, ma = 0, mb = 0;
    rd_io_why w;
    int e;

    /* my shares of every aggregator's chunk */
    for (int j = 0; j < t->na; j++) {
        struct share *x = &t->sh[j];
        rd_io_coll_chunk(t->bound[j], t->bound[j + 1], t->cb, r, &a, &b);
        x->meets = rd_io_coll_meets(mine, a, b);
        x->hdr[0] = x->hdr[1] = 0;
        if (!x->meets || t->err)
            continue;
        int64_t sn;
        e = rd_io_coll_share(&t->f->view, mine->s, mine->n, a, b, &x->ss, &sn, &x->runs, &w);
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
            x->data = malloc((size_t)sn);
            x->owned = 1;
            if (!x->data) {
                fail(t, MPI_ERR_NO_MEM,
                     (rd_io_fail(&w, MPI_ERR_NO_MEM, "out of memory for %lld bytes of a chunk",
                                 (long long)sn), &w));
                x->hdr[0] = x->hdr[1] = 0;
                continue;
            }
            if (t->write)
                rd_dt_pack(t->buf, t->dt, (size_t)(x->ss - mine->s), x->data, (size_t)sn);
        }
    }
    if (t->jme >= 0) {
        rd_io_coll_chunk(t->bound[t->jme], t->bound[t->jme + 1], t->cb, r, &ma, &mb);
        for (int i = 0; i < t->p; i++) {
            t->fr[i].meets = rd_io_coll_meets(&t->acc[i], ma, mb);
            t->fr[i].hdr[0] = t->fr[i].hdr[1] = 0;
        }
    }

    /* 1: the headers */
    struct rd_sched *s = rd_sched_new(t->comm);
    if (!s) {
        fail(t, MPI_ERR_NO_MEM, (rd_io_fail(&w, MPI_ERR_NO_MEM, "out of memory"), &w));
        return; /* the other ranks will wait: nothing better to do */
    }
    for (int j = 0; j < t->na; j++)
        if (t->sh[j].meets && t->aggr[j] != t->me)
            rd_sched_send(s, t->sh[j].hdr, 2 * (int)sizeof(int64_t), MPI_BYTE, t->aggr[j]);
    if (t->jme >= 0)
        for (int i = 0; i < t->p; i++) {
            if (!t->fr[i].meets)
                continue;
            if (i == t->me)
                memcpy(t->fr[i].hdr, t->sh[t->jme].hdr, sizeof t->fr[i].hdr);
            else
                rd_sched_recv(s, t->fr[i].hdr, 2 * (int)sizeof(int64_t), MPI_BYTE, i);
        }
    rd_sched_wait(s);
    sched_end(t, s);

    /* 2: runs (and data of writes) to the aggregators */
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
            if (x->hdr[0] > (int64_t)CB_MAX || x->hdr[1] > (int64_t)CB_MAX) {
                fail(t, MPI_ERR_INTERN,
                     (rd_io_fail(&w, MPI_ERR_INTERN, "rank %d sent a header of %lld runs", i,
                                 (long long)x->hdr[0]), &w));
                x->hdr[0] = x->hdr[1] = 0;
                continue;
            }
            x->runs = malloc((size_t)x->hdr[0] * 2 * sizeof(int64_t));
            x->data = malloc(x->hdr[1] ? (size_t)x->hdr[1] : 1);
            if (!x->runs || !x->data) {
                /* not recoverable: the sender's message stays unmatched */
                fail(t, MPI_ERR_NO_MEM, (rd_io_fail(&w, MPI_ERR_NO_MEM, "out of memory"), &w));
            }
        }
    s = rd_sched_new(t->comm);
    if (!s) {
        fail(t, MPI_ERR_NO_MEM, (rd_io_fail(&w, MPI_ERR_NO_MEM, "out of memory"), &w));
        return;
    }
    for (int j = 0; j < t->na; j++) {
        struct share *x = &t->sh[j];
        if (!x->meets || t->aggr[j] == t->me || !x->hdr[0])
            continue;
        rd_sched_send_sub(s, x->runs.r, (int)(x->hdr[0] * 2 * (int64_t)sizeof(int64_t)), MPI_BYTE,
                          t->aggr[j], SUB_RUNS);
        if (t->write)
            rd_sched_send_sub(s, x->data, (int)x->hdr[1], MPI_BYTE, t->aggr[j], SUB_DATA);
    }
    if (t->jme >= 0)
        for (int i = 0; i < t->p; i++) {
            struct from *x = &t->fr[i];
            if (!x->meets || i == t->me || !x->hdr[0] || !x->runs || !x->data)
                continue;
            rd_sched_recv_sub(s, x->runs, (int)(x->hdr[0] * 2 * (int64_t)sizeof(int64_t)), MPI_BYTE,
                              i, SUB_RUNS);
            if (t->write)
                rd_sched_recv_sub(s, x->data, (int)x->hdr[1], MPI_BYTE, i, SUB_DATA);
        }
    rd_sched_wait(s);
    sched_end(t, s);

    /* the aggregator's file access */
    if (t->jme >= 0 && !t->err && ma < mb) {
        struct rd_io_piece *pc = malloc((size_t)t->p * sizeof *pc);
        if (!pc) {
            fail(t, MPI_ERR_NO_MEM, (rd_io_fail(&w, MPI_ERR_NO_MEM, "out of memory"), &w));
        } else {
            int np = 0, how;
            for (int i = 0; i < t->p; i++)
                if (t->fr[i].meets && t->fr[i].hdr[0])
                    pc[np++] = (struct rd_io_piece){t->fr[i].runs, (size_t)t->fr[i].hdr[0],
                                                   t->fr[i].data};
            e = t->write ? rd_io_coll_put(t->f->fd, ma, mb, t->chunk, pc, np, &how, &w)
                         : rd_io_coll_get(t->f->fd, ma, mb, t->chunk, pc, np, &how, &w);
            fail(t, e, &w);
            free(pc);
        }
    }

    /* 3 (reads): the data back to the ranks */
    if (!t->write) {
        s = rd_sched_new(t->comm);
        if (!s) {
            fail(t, MPI_ERR_NO_MEM, (rd_io_fail(&w, MPI_ERR_NO_MEM, "out of memory"), &w));
            return;
        }
        if (t->jme >= 0)
            for (int i = 0; i < t->p; i++) {
                struct from *x = &t->fr[i];
                if (x->meets && i != t->me && x->hdr[1] && x->data)
                    rd_sched_send_sub(s, x->data, (int)x->hdr[1], MPI_BYTE, i, SUB_DATA);
            }
        for (int j = 0; j < t->na; j++) {
            struct share *x = &t->sh[j];
            if (x->meets && t->aggr[j] != t->me && x->hdr[1])
                rd_sched_recv_sub(s, x->data, (int)x->hdr[1], MPI_BYTE, t->aggr[j], SUB_DATA);
        }
        rd_sched_wait(s);
        sched_end(t, s);
        if (!t->err && !t->direct)
            for (int j = 0; j < t->na; j++) {
                struct share *x = &t->sh[j];
                if (x->meets && x->hdr[1])
                    rd_dt_unpack(t->buf, t->dt, (size_t)(x->ss - mine->s), x->data,
                                 (size_t)x->hdr[1]);
            }
    }

    /* this round's buffers */
    if (t->jme >= 0)
        for (int i = 0; i < t->p; i++)
            if (i != t->me) {
                free(t->fr[i].runs);
                free(t->fr[i].data);
                t->fr[i].runs = NULL;
                t->fr[i].data = NULL;
            }
    for (int j = 0; j < t->na; j++) {
        if (t->sh[j].owned)
            free(t->sh[j].data);
        t->sh[j].data = NULL;
        t->sh[j].owned = 0;
    }
}

/* The two phases, every rank, after the decision. */
static void two_phase(struct tp *t)
{
    const struct rd_io_file *f = t->f;
    int p = t->p;
    rd_io_why w;
    int *node = malloc((size_t)p * sizeof *node);
    int *aggr = malloc((size_t)p * sizeof *aggr);
    int64_t *bound = malloc((size_t)(p + 1) * sizeof *bound);
    if (!node || !aggr || !bound) {
        /* without the tables this rank cannot join the rounds (not
         * recoverable: the others' messages to it stay unmatched) */
        fail(t, MPI_ERR_NO_MEM, (rd_io_fail(&w, MPI_ERR_NO_MEM, "out of memory"), &w));
        free(node);
        free(aggr);
        free(bound);
        return;
    }
    for (int r = 0; r < p; r++)
        node[r] = rd_job_node_of(rd_comm_world_rank(t->comm, r));
    int per = f->hints.cb_per_node > 0 ? f->hints.cb_per_node : 2;
    int na = rd_io_coll_aggregators(p, node, per, f->hints.cb_nodes, aggr);
    int64_t lo = INT64_MAX, hi = 0;
    for (int r = 0; r < p; r++)
        if (t->acc[r].n > 0) {
            if (t->acc[r].lo < lo)
                lo = t->acc[r].lo;
            if (t->acc[r].hi > hi)
                hi = t->acc[r].hi;
        }
    size_t cb = f->hints.cb_buffer_size ? f->hints.cb_buffer_size : CB_DEFAULT;
    if (cb > CB_MAX)
        cb = CB_MAX;
    int64_t align = f->hints.striping_unit ? (int64_t)f->hints.striping_unit : RD_IO_COLL_ALIGN;
    int64_t rounds = na > 0 ? rd_io_coll_domains(lo, hi, na, align, (int64_t)cb, bound) : 0;
    t->na = na > 0 ? na : 0;
    t->aggr = aggr;
    t->bound = bound;
    t->cb = (int64_t)cb;
    t->jme = -1;
    for (int j = 0; j < t->na; j++)
        if (aggr[j] == t->me)
            t->jme = j;
    t->sh = calloc((size_t)(t->na ? t->na : 1), sizeof *t->sh);
    t->fr = t->jme >= 0 ? calloc((size_t)p, sizeof *t->fr) : NULL;
    if (t->jme >= 0) {
        int64_t dl = bound[t->jme + 1] - bound[t->jme];
        t->chunk = malloc(dl < (int64_t)cb ? (dl ? (size_t)dl : 1) : cb);
    }
    if (na < 0 || !t->sh || (t->jme >= 0 && (!t->fr || !t->chunk)))
        fail(t, MPI_ERR_NO_MEM, (rd_io_fail(&w, MPI_ERR_NO_MEM, "out of memory"), &w));
    if (t->sh)
        for (int64_t r = 0; r < rounds; r++)
            round_one(t, r);
    if (t->sh)
        for (int j = 0; j < t->na; j++)
            rd_io_runs_free(&t->sh[j].runs);
    free(t->sh);
    free(t->fr);
    free(t->chunk);
    free(node);
    free(aggr);
    free(bound);
}

int rd_io_coll_abstain(MPI_Comm comm, int cls)
{
    struct rd_io_acc mine = {0, 0, 0, 0, RD_IO_ACC_FAIL};
    struct rd_io_acc *acc = malloc((size_t)comm->size * sizeof *acc);
    rd_io_why w = {{0}};
    if (acc) {
        struct rd_coll_args a = {.comm = comm, .sbuf = &mine, .scount = (int)sizeof mine,
                                 .sdt = MPI_BYTE, .rbuf = acc, .rcount = (int)sizeof mine,
                                 .rdt = MPI_BYTE};
        int e = rd_coll_run(RD_COLL_ALLGATHER, &a);
        free(acc);
        if (e != MPI_SUCCESS)
            return cls;
    }
    return agree(comm, cls, &w);
}

int rd_io_coll(struct rd_io_file *f, MPI_Comm comm, int write, MPI_Offset o, void *buf,
               size_t count, MPI_Datatype dt, size_t *bytes, rd_io_why *why)
{
    const struct rd_io_view *v = &f->view;
    struct rd_io_acc mine = {0, 0, o, (int64_t)(count * dt->size), 0};
    int err = MPI_SUCCESS;
    rd_io_why w = {{0}};
    *bytes = 0;

    if (v->rep)
        mine.flags |= RD_IO_ACC_REP;
    if (!v->contig && !v->monotone)
        mine.flags |= RD_IO_ACC_NOMAP;
    if (!write && mine.n > 0) {
        /* a read stops at the end of the file */
        struct stat st;
        if (fstat(f->fd, &st) != 0) {
            err = rd_io_fail(&w, MPI_ERR_IO, "fstat of %s: %s", f->path, strerror(errno));
            mine.flags |= RD_IO_ACC_FAIL;
            mine.n = 0;
        } else {
            int64_t below = rd_io_view_below(v, (MPI_Offset)st.st_size);
            int64_t can = below > mine.s ? below - mine.s : 0;
            if (can < mine.n)
                mine.n = can;
        }
    }
    if (mine.n > 0 && !(mine.flags & RD_IO_ACC_NOMAP)) {
        mine.lo = rd_io_view_offset(v, mine.s);
        mine.hi = rd_io_view_offset(v, mine.s + mine.n - 1) + 1;
    }

    struct rd_io_acc *acc = malloc((size_t)comm->size * sizeof *acc);
    if (!acc) {
        /* cannot join the allgather's outcome: say so to the others */
        err = rd_io_fail(&w, MPI_ERR_NO_MEM, "out of memory for the ranks' accesses");
        err = agree(comm, err, &w);
        if (why)
            *why = w;
        return err;
    }
    struct rd_coll_args a = {.comm = comm, .sbuf = &mine, .scount = (int)sizeof mine,
                             .sdt = MPI_BYTE, .rbuf = acc, .rcount = (int)sizeof mine,
                             .rdt = MPI_BYTE};
    int e = rd_coll_run(RD_COLL_ALLGATHER, &a);
    if (e != MPI_SUCCESS) {
        free(acc);
        return rd_io_fail(why, e, "the allgather of the ranks' accesses failed");
    }
    int fails = 0;
    for (int r = 0; r < comm->size; r++)
        fails |= (acc[r].flags & RD_IO_ACC_FAIL) != 0;
    if (fails) {
        /* someone cannot take part: nobody moves data */
        free(acc);
        err = agree(comm, err, &w);
        if (why)
            *why = w;
        return err;
    }
    int hint = write ? f->hints.cb_write : f->hints.cb_read;
    if (!rd_io_coll_decide(acc, comm->size, hint, f->atomic)) {
        free(acc);
        size_t got = 0;
        err = rd_io_indep(f, write, o, buf, count, dt, &got, &w);
        err = agree(comm, err, &w);
        if (err == MPI_SUCCESS)
            *bytes = got;
        else if (why)
            *why = w;
        return err;
    }
    struct tp t = {.f = f, .comm = comm, .write = write, .me = comm->rank, .p = comm->size,
                   .buf = buf, .dt = dt, .acc = acc,
                   .direct = dt->contig ? (char *)buf + dt->true_lb : NULL};
    two_phase(&t);
    free(acc);
    err = agree(comm, t.err, &t.why);
    if (err == MPI_SUCCESS)
        *bytes = (size_t)mine.n;
    else if (why)
        *why = t.why;
    return err;
}

/* sched.h - collective schedules.
 *
 * Every collective algorithm is written once, as a builder that appends
 * steps to a schedule: sends and receives (started at once, nonblocking),
 * local reductions and copies, and WAIT steps that hold the schedule until
 * every send and receive started before them has completed. The progress
 * engine advances active schedules (rd_sched_progress, called at the end of
 * every rd_progress()); a blocking collective builds its schedule, starts
 * it and waits on it; a nonblocking one returns a request that completes
 * with it. So MPI_Allreduce and MPI_Iallreduce share one code path.
 *
 * Traffic goes over the communicator's library context (comm->coll) with a
 * tag taken from a per-communicator collective sequence number, so
 * collectives never match users' messages, and several outstanding
 * nonblocking collectives on one communicator never match each other. */
#ifndef RD_COLL_SCHED_H
#define RD_COLL_SCHED_H

#include <mpi.h>
#include <stdatomic.h>
#include <stddef.h>

#include "runtime/base/error.h"
#include "runtime/p2p/request.h"

enum rd_sop_kind {
    RD_SOP_SEND = 1,
    RD_SOP_RECV,
    RD_SOP_WAIT,   /* until every send/receive started so far has completed */
    RD_SOP_REDUCE, /* buf = src op buf (rd_op_apply) */
    RD_SOP_COPY,   /* (src, scount, sdt) -> (buf, count, dt): same type signature */
    RD_SOP_CALL,   /* fn(schedule, arg): other code, run when the step is reached */
};

struct rd_sched;

struct rd_sop {
    int kind;
    int peer;             /* SEND/RECV: rank in the communicator */
    int tag;              /* SEND/RECV: its tag (the schedule's tag, or rd_sched_on_tag's,
                           * plus the sub-tag) */
    MPI_Comm lib;         /* SEND/RECV: the library context it goes over */
    int push;             /* SEND: this rank also receives in the same round */
    MPI_Count count;
    MPI_Datatype dt;
    void *buf;            /* SEND/RECV buffer, REDUCE inout, COPY destination */
    const void *src;      /* REDUCE in, COPY source */
    MPI_Count scount;     /* COPY source */
    MPI_Datatype sdt;
    MPI_Op op;
    int (*fn)(struct rd_sched *s, void *arg); /* CALL */
    void *arg;                                /* CALL */
};

struct rd_scratch {
    void *p;
    size_t size;
};
/* Scratch buffers from the pool the schedules use (p NULL: out of
 * memory); give them back with rd_scratch_put. */
struct rd_scratch rd_scratch_get(size_t bytes);
void rd_scratch_put(struct rd_scratch x);

struct rd_sched {
    struct rd_sop *ops;
    int nops, cap;
    int pc;                        /* next step to run */
    int marked;                    /* ops looked at for exchanges (mark_exchanges) */
    struct rd_request_s **pend;    /* sends/receives started, not yet waited for */
    int npend, cappend;
    MPI_Comm comm;                 /* the user's communicator (held) */
    MPI_Comm lib;                  /* where the traffic goes: comm->coll */
    MPI_Comm cur;                  /* while building: where new sends/receives go */
    int tag;                       /* the collective's tag */
    int curtag;                    /* while building: the tag of new sends/receives */
    int error;                     /* first MPI error class met */
    int bad_peer;                  /* the first receive whose size did not match (peer -1: none): */
    size_t bad_sent, bad_holds;    /* what came, what the buffer holds */
    struct rd_scratch *scratch;    /* buffers given back with the schedule */
    int nscratch, capscratch;
    struct rd_request_s *req;      /* nonblocking: the user's request */
    void (*on_done)(struct rd_sched *s); /* nonblocking: called when the steps are done,
                                          * before the request completes; may set error,
                                          * or set again to run the steps once more (same
                                          * tag: another round of an agreement) */
    void *arg;                     /* for on_done */
    int again;
    int keep;                      /* persistent (rd_sched_new_kept): kept when it finishes */
    _Atomic int done;              /* blocking: set when the schedule finishes */
    struct rd_sched *next;         /* active list / free list */
};

/* A new empty schedule for one collective on comm (takes the next
 * collective tag of comm). NULL when out of memory. */
struct rd_sched *rd_sched_new(MPI_Comm comm);
/* The same with a fixed library tag (comm.h's scheme: a small positive
 * one, or rd_comm_intercomm_tag's), taking no collective tag of comm: for
 * the exchanges of communicator creation (agree.h), which not every rank
 * of comm may join in (MPI_Comm_create_group among some ranks, the
 * leaders of MPI_Intercomm_create on peer_comm). */
struct rd_sched *rd_sched_new_tagged(MPI_Comm comm, int tag);
/* The same for a persistent collective (collectives/persist.c): a tag of
 * its own for as long as it lives (sched.c: RD_SEQ_KEPT), and kept when
 * it finishes, to be run again by rd_sched_restart; s->arg (malloc'd or
 * NULL) goes with it. */
struct rd_sched *rd_sched_new_kept(MPI_Comm comm);
/* Run a kept schedule again, from its first step, as the nonblocking
 * operation req (persistent, set up by the caller), which completes with
 * it; when the user freed req meanwhile, the schedule goes with it. */
void rd_sched_restart(struct rd_sched *s, struct rd_request_s *req);
/* Free a kept schedule that is not running (with its arg). */
void rd_sched_free_kept(struct rd_sched *s);
/* Give back a schedule that was never started. */
void rd_sched_discard(struct rd_sched *s);

/* Builders' steps; each returns RD_OK or RD_ERR_NOMEM. */
rd_status rd_sched_send(struct rd_sched *s, const void *buf, MPI_Count count, MPI_Datatype dt, int peer);
rd_status rd_sched_recv(struct rd_sched *s, void *buf, MPI_Count count, MPI_Datatype dt, int peer);
/* The same with a sub-tag (0..63): messages between the same two ranks in
 * one collective that must not match each other in arrival order. */
rd_status rd_sched_send_sub(struct rd_sched *s, const void *buf, MPI_Count count, MPI_Datatype dt,
                            int peer, int sub);
rd_status rd_sched_recv_sub(struct rd_sched *s, void *buf, MPI_Count count, MPI_Datatype dt, int peer,
                            int sub);
rd_status rd_sched_wait(struct rd_sched *s);
/* Sends and receives appended from now on go over lib (a library context:
 * an intercommunicator's own, or its local group's); by default comm->coll. */
static inline void rd_sched_on(struct rd_sched *s, MPI_Comm lib)
{
    s->cur = lib;
}
/* The same with another tag too (a schedule of rd_sched_new_tagged that
 * runs steps of two exchanges, each with its own fixed tag). */
static inline void rd_sched_on_tag(struct rd_sched *s, MPI_Comm lib, int tag)
{
    s->cur = lib;
    s->curtag = tag;
}
rd_status rd_sched_reduce(struct rd_sched *s, const void *in, void *inout, MPI_Count count,
                          MPI_Datatype dt, MPI_Op op);
rd_status rd_sched_copy(struct rd_sched *s, const void *src, MPI_Count scount, MPI_Datatype sdt,
                        void *dst, MPI_Count count, MPI_Datatype dt);
/* A step that runs fn(s, arg) when the schedule reaches it (after the
 * steps before it, in order; skipped after an error other than a count
 * mismatch). fn returns an MPI error class (MPI_SUCCESS: go on), and may
 * hand the schedule requests it started (rd_sched_adopt), which the next
 * WAIT step then waits for: io's two-phase rounds submit a chunk's I/O
 * this way (runtime/io/PLAN.md, 4.3). */
rd_status rd_sched_call(struct rd_sched *s, int (*fn)(struct rd_sched *s, void *arg), void *arg);
/* From a CALL step: the schedule takes req (started by the caller; any
 * kind): the next WAIT waits for it, takes its error and releases it. */
void rd_sched_adopt(struct rd_sched *s, struct rd_request_s *req);
/* Scratch space for count elements of dt laid out as dt lays them out
 * (the returned pointer is where element 0 goes: the allocation starts at
 * its true lower bound). Freed with the schedule. NULL: out of memory. */
void *rd_sched_tmp(struct rd_sched *s, MPI_Count count, MPI_Datatype dt);
/* Raw scratch bytes. */
void *rd_sched_alloc(struct rd_sched *s, size_t bytes);

/* Run a schedule to completion (blocking collectives): returns the MPI
 * error class of the operation. The schedule is freed. */
int rd_sched_run(struct rd_sched *s);
/* Start a schedule as a nonblocking operation: *req completes with it. */
rd_status rd_sched_start(struct rd_sched *s, struct rd_request_s **req);

/* Advance every active schedule (called by rd_progress()); returns the
 * steps taken. */
int rd_sched_progress(void);

/* Copy count elements between two layouts of the same type signature. */
void rd_coll_copy(const void *src, MPI_Count scount, MPI_Datatype sdt, void *dst, MPI_Count count,
                  MPI_Datatype dt);

#endif

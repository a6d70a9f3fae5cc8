/* sync.c - synchronisation: fence, post/start/complete/wait/test, passive
 * target (lock/unlock, lock_all/unlock_all, flush), and the epoch state
 * the origin's calls check. On the active-message path every Put and
 * Accumulate piece is acknowledged and every Get answered, so "complete
 * at the target" is a count per target (pending) reaching zero. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/objects/comm.h"
#include "runtime/objects/group.h"
#include "runtime/rma/rma_int.h"

int rma_in_epoch(struct rd_rma_win *rw, int t)
{
    if (rw->fence || rw->lock_all || rw->peers[t].lock)
        return 1;
    for (int i = 0; i < rw->nstart; i++)
        if (rw->start[i] == t)
            return 1;
    return 0;
}

int rd_rma_passive(MPI_Win w, int t)
{
    struct rd_rma_win *rw = rma_of(w);
    return t >= 0 && t < rw->size && (rw->lock_all || rw->peers[t].lock);
}

void rma_flush(struct rd_rma_win *rw, int t)
{
    long idle = 0;
    /* always one progress call: a rank that spins on its own window (the
     * SELF path, done at once) still serves the others' messages */
    rd_progress();
    for (int r = t < 0 ? 0 : t; r < (t < 0 ? rw->size : t + 1); r++)
        while (rw->peers[r].pending > 0)
            rd_wait_step(&idle);
}

static int wait_flag(int *flag)
{
    long idle = 0;
    while (!*flag)
        rd_wait_step(&idle);
    return 0;
}

/* The error a target reported since the last synchronisation, once. */
static int target_error(struct rd_rma_win *rw, char *why)
{
    int err = rw->err;
    if (err != MPI_SUCCESS) {
        snprintf(why, RD_RMA_WHY, "%s", rw->errwhy);
        rw->err = MPI_SUCCESS;
    }
    return err;
}

static int bad_assert(int assert, int allowed, char *why)
{
    if (assert & ~allowed) {
        snprintf(why, RD_RMA_WHY, "assert %#x has bits that this call does not take", (unsigned)assert);
        return 1;
    }
    return 0;
}

static void send_ctl(struct rd_rma_win *rw, int t, unsigned id, uint32_t arg)
{
    struct rma_hdr h = {.win = rw->peers[t].id, .back = rw->id, .from = rw->rank, .arg = arg};
    rma_post(rw->peers[t].world, id, &h, NULL, 0);
}

/* ------------------------------------------------------------ fence */

int rd_rma_fence(MPI_Win w, int assert, char *why)
{
    struct rd_rma_win *rw = rma_of(w);
    if (bad_assert(assert, MPI_MODE_NOSTORE | MPI_MODE_NOPUT | MPI_MODE_NOPRECEDE | MPI_MODE_NOSUCCEED, why))
        return MPI_ERR_ASSERT;
    if (rw->lock_all || rw->nlocks || rw->start || rw->post) {
        snprintf(why, RD_RMA_WHY, "a %s epoch is open", rw->lock_all || rw->nlocks ? "passive-target" : "PSCW");
        return MPI_ERR_RMA_SYNC;
    }
    /* NOPRECEDE: no operation of this rank to complete (the user says so) */
    if (!(assert & MPI_MODE_NOPRECEDE))
        rma_flush(rw, -1);
    return target_error(rw, why);
}

void rd_rma_fence_end(MPI_Win w, int assert)
{
    rma_of(w)->fence = !(assert & MPI_MODE_NOSUCCEED);
}

/* ------------------------------------------------------------ passive target */

/* Ask for target t's lock: on its lock word with CPU atomics where its
 * memory is mapped here (NODE, and SELF with a node segment: no target
 * CPU needed), else by an active message to its handler. */
static void take(struct rd_rma_win *rw, int t, int type)
{
    struct rma_peer *p = &rw->peers[t];
    p->granted = 0;
    p->want = type;
    if (rma_hw_locks(rw, t)) {
        /* the device's atomics on its lock word (rdma.c): no target CPU */
        p->direct = 2;
        p->granted = rma_hw_lock_try(rw, t, type);
        return;
    }
    p->direct = p->acc && p->path != RMA_PATH_AM;
    if (p->direct)
        p->granted = rma_lockw_try(rma_lockw(p->acc), type);
    else
        send_ctl(rw, t, RMA_LOCK, (uint32_t)type);
}

static void wait_taken(struct rd_rma_win *rw, int t)
{
    struct rma_peer *p = &rw->peers[t];
    long idle = 0;
    while (!p->granted) {
        rd_wait_step(&idle); /* serving the others meanwhile */
        if (p->direct && !p->granted)
            p->granted = p->direct == 2 ? rma_hw_lock_try(rw, t, p->want) : rma_lockw_try(rma_lockw(p->acc), p->want);
    }
}

/* MPI_MODE_NOCHECK promises that no other rank holds or asks for a
 * conflicting lock; where target t's lock word is mapped here (a node
 * peer's or this rank's segment; every lock taken without NOCHECK, by
 * node origins or by the target's handler for the others, is in it) one
 * load shows a promise broken: 1 and why (MPI_ERR_RMA_CONFLICT). Through
 * the device's atomics it would cost a round trip, which NOCHECK is
 * there to save: not checked. */
static int nocheck_conflict(struct rd_rma_win *rw, int t, int type, char *why)
{
    struct rma_peer *p = &rw->peers[t];
    if (!p->acc || rma_hw_locks(rw, t))
        return 0;
    uint32_t v = atomic_load_explicit(rma_lockw(p->acc), memory_order_acquire);
    if (!(v & RMA_WRITER) && (type == MPI_LOCK_SHARED || v == 0))
        return 0;
    snprintf(why, RD_RMA_WHY, "MPI_MODE_NOCHECK asserted, but another rank holds %s lock on rank %d",
             v & RMA_WRITER ? "an exclusive" : "a shared", t);
    return 1;
}

int rd_rma_lock(MPI_Win w, int type, int t, int assert, char *why)
{
    struct rd_rma_win *rw = rma_of(w);
    if (type != MPI_LOCK_SHARED && type != MPI_LOCK_EXCLUSIVE) {
        snprintf(why, RD_RMA_WHY, "lock type %d is neither MPI_LOCK_SHARED nor MPI_LOCK_EXCLUSIVE", type);
        return MPI_ERR_LOCKTYPE;
    }
    if (bad_assert(assert, MPI_MODE_NOCHECK, why))
        return MPI_ERR_ASSERT;
    if (t == MPI_PROC_NULL)
        return MPI_SUCCESS;
    if (t < 0 || t >= rw->size) {
        snprintf(why, RD_RMA_WHY, "rank %d is not in the window's group of %d", t, rw->size);
        return MPI_ERR_RANK;
    }
    struct rma_peer *p = &rw->peers[t];
    if (p->lock || rw->lock_all || rw->start) {
        snprintf(why, RD_RMA_WHY, "%s", p->lock ? "this rank holds a lock on that rank already"
                                             : rw->lock_all ? "lock_all is in force"
                                                            : "a PSCW access epoch is open");
        return MPI_ERR_RMA_SYNC;
    }
    if ((assert & MPI_MODE_NOCHECK) && nocheck_conflict(rw, t, type, why))
        return MPI_ERR_RMA_CONFLICT;
    /* a fence opens an epoch only if operations follow it: a lock after
     * it is fine (MPI-4.1 12.5.1), and ends it */
    rw->fence = 0;
    /* NOCHECK: no other rank contends, the lock need not be taken */
    if (!(assert & MPI_MODE_NOCHECK)) {
        take(rw, t, type);
        wait_taken(rw, t);
    } else {
        type = -type; /* remember that nothing was taken */
    }
    p->lock = type;
    rw->nlocks++;
    return MPI_SUCCESS;
}

static void release(struct rd_rma_win *rw, int t, int type)
{
    struct rma_peer *p = &rw->peers[t];
    rma_flush(rw, t);
    if (type <= 0)
        return;
    if (p->direct == 2) {
        rma_hw_lock_release(rw, t, type);
        p->direct = 0;
        p->unlocked = 1;
        return;
    }
    if (p->direct) {
        /* the lock word, and the target's handler woken if AM origins wait */
        rma_lockw_release(rma_lockw(p->acc), type);
        p->direct = 0;
        p->unlocked = 1;
        if (atomic_load(rma_waitw(p->acc)))
            send_ctl(rw, t, RMA_KICK, 0);
        return;
    }
    p->unlocked = 0;
    send_ctl(rw, t, RMA_UNLOCK, (uint32_t)type);
}

int rd_rma_unlock(MPI_Win w, int t, char *why)
{
    struct rd_rma_win *rw = rma_of(w);
    if (t == MPI_PROC_NULL)
        return MPI_SUCCESS;
    if (t < 0 || t >= rw->size) {
        snprintf(why, RD_RMA_WHY, "rank %d is not in the window's group of %d", t, rw->size);
        return MPI_ERR_RANK;
    }
    struct rma_peer *p = &rw->peers[t];
    if (!p->lock) {
        snprintf(why, RD_RMA_WHY, "this rank holds no lock on rank %d", t);
        return MPI_ERR_RMA_SYNC;
    }
    int type = p->lock;
    release(rw, t, type);
    if (type > 0)
        wait_flag(&p->unlocked);
    p->lock = 0;
    rw->nlocks--;
    return target_error(rw, why);
}

int rd_rma_lock_all(MPI_Win w, int assert, char *why)
{
    struct rd_rma_win *rw = rma_of(w);
    if (bad_assert(assert, MPI_MODE_NOCHECK, why))
        return MPI_ERR_ASSERT;
    if (rw->lock_all || rw->nlocks || rw->start) {
        snprintf(why, RD_RMA_WHY, "another access epoch is open");
        return MPI_ERR_RMA_SYNC;
    }
    for (int t = 0; (assert & MPI_MODE_NOCHECK) && t < rw->size; t++)
        if (nocheck_conflict(rw, t, MPI_LOCK_SHARED, why))
            return MPI_ERR_RMA_CONFLICT;
    rw->fence = 0; /* (as for lock) */
    rw->lock_all = assert & MPI_MODE_NOCHECK ? -1 : 1;
    if (rw->lock_all > 0) {
        for (int t = 0; t < rw->size; t++)
            take(rw, t, MPI_LOCK_SHARED);
        for (int t = 0; t < rw->size; t++)
            wait_taken(rw, t);
    }
    return MPI_SUCCESS;
}

int rd_rma_unlock_all(MPI_Win w, char *why)
{
    struct rd_rma_win *rw = rma_of(w);
    if (!rw->lock_all) {
        snprintf(why, RD_RMA_WHY, "no lock_all epoch is open");
        return MPI_ERR_RMA_SYNC;
    }
    int type = rw->lock_all > 0 ? MPI_LOCK_SHARED : -MPI_LOCK_SHARED;
    for (int t = 0; t < rw->size; t++)
        release(rw, t, type);
    if (type > 0)
        for (int t = 0; t < rw->size; t++)
            wait_flag(&rw->peers[t].unlocked);
    rw->lock_all = 0;
    return target_error(rw, why);
}

int rd_rma_flush(MPI_Win w, int t, char *why)
{
    struct rd_rma_win *rw = rma_of(w);
    if (t == RD_RMA_ALL) {
        t = -1;
    } else {
        if (t == MPI_PROC_NULL)
            return MPI_SUCCESS;
        if (t < 0 || t >= rw->size) {
            snprintf(why, RD_RMA_WHY, "rank %d is not in the window's group of %d", t, rw->size);
            return MPI_ERR_RANK;
        }
    }
    if (!rw->lock_all && !(t >= 0 ? rw->peers[t].lock != 0 : rw->nlocks > 0)) {
        snprintf(why, RD_RMA_WHY, "no passive-target epoch %s is open", t >= 0 ? "to that rank" : "");
        return MPI_ERR_RMA_SYNC;
    }
    rma_flush(rw, t);
    return target_error(rw, why);
}

/* ------------------------------------------------------------ PSCW */

/* The window ranks of group g's members (malloc'd), or NULL with *err set. */
static int *group_ranks(struct rd_rma_win *rw, MPI_Group g, int *n, char *why, int *err)
{
    *n = g->size;
    int *r = malloc((size_t)(g->size ? g->size : 1) * sizeof(int));
    if (!r) {
        *err = MPI_ERR_NO_MEM;
        snprintf(why, RD_RMA_WHY, "out of memory");
        return NULL;
    }
    for (int i = 0; i < g->size; i++) {
        int wr = rd_group_world(g, i), k;
        for (k = 0; k < rw->size && rw->peers[k].world != wr; k++)
            ;
        if (k == rw->size) {
            free(r);
            *err = MPI_ERR_GROUP;
            snprintf(why, RD_RMA_WHY, "member %d of the group is not in the window's group", i);
            return NULL;
        }
        r[i] = k;
    }
    return r;
}

int rd_rma_post(MPI_Win w, MPI_Group g, int assert, char *why)
{
    struct rd_rma_win *rw = rma_of(w);
    int err = MPI_SUCCESS, n;
    if (bad_assert(assert, MPI_MODE_NOCHECK | MPI_MODE_NOSTORE | MPI_MODE_NOPUT, why))
        return MPI_ERR_ASSERT;
    if (rw->npost || rw->post) {
        snprintf(why, RD_RMA_WHY, "an exposure epoch (post) is open already");
        return MPI_ERR_RMA_SYNC;
    }
    int *r = group_ranks(rw, g, &n, why, &err);
    if (!r)
        return err;
    rw->post = r;
    rw->npost = n;
    for (int i = 0; i < n; i++)
        send_ctl(rw, r[i], RMA_POST, 0);
    return MPI_SUCCESS;
}

int rd_rma_start(MPI_Win w, MPI_Group g, int assert, char *why)
{
    struct rd_rma_win *rw = rma_of(w);
    int err = MPI_SUCCESS, n;
    if (bad_assert(assert, MPI_MODE_NOCHECK, why))
        return MPI_ERR_ASSERT;
    if (rw->start || rw->lock_all || rw->nlocks) {
        snprintf(why, RD_RMA_WHY, "another access epoch is open");
        return MPI_ERR_RMA_SYNC;
    }
    rw->fence = 0; /* (as for lock) */
    int *r = group_ranks(rw, g, &n, why, &err);
    if (!r)
        return err;
    /* each target's post (even with NOCHECK: the posts are sent anyway,
     * and waiting for them keeps the counts matched) */
    long idle = 0;
    for (int i = 0; i < n; i++) {
        while (rw->peers[r[i]].posted == 0)
            rd_wait_step(&idle);
        rw->peers[r[i]].posted--;
    }
    rw->start = r;
    rw->nstart = n;
    return MPI_SUCCESS;
}

int rd_rma_complete(MPI_Win w, char *why)
{
    struct rd_rma_win *rw = rma_of(w);
    if (!rw->start) {
        snprintf(why, RD_RMA_WHY, "no access epoch was started (MPI_Win_start)");
        return MPI_ERR_RMA_SYNC;
    }
    for (int i = 0; i < rw->nstart; i++) {
        rma_flush(rw, rw->start[i]);
        send_ctl(rw, rw->start[i], RMA_COMPLETE, 0);
    }
    free(rw->start);
    rw->start = NULL;
    rw->nstart = 0;
    return target_error(rw, why);
}

int rd_rma_wait(MPI_Win w, int blocking, int *flag, char *why)
{
    struct rd_rma_win *rw = rma_of(w);
    if (!rw->post) {
        snprintf(why, RD_RMA_WHY, "no exposure epoch was posted (MPI_Win_post)");
        return MPI_ERR_RMA_SYNC;
    }
    long idle = 0;
    for (;;) {
        int all = 1;
        for (int i = 0; i < rw->npost; i++)
            if (rw->peers[rw->post[i]].completed == 0)
                all = 0;
        if (all)
            break;
        if (!blocking) {
            rd_progress();
            *flag = 0;
            for (int i = 0; i < rw->npost; i++)
                if (rw->peers[rw->post[i]].completed == 0)
                    return MPI_SUCCESS;
            break;
        }
        rd_wait_step(&idle);
    }
    for (int i = 0; i < rw->npost; i++)
        rw->peers[rw->post[i]].completed--;
    free(rw->post);
    rw->post = NULL;
    rw->npost = 0;
    if (flag)
        *flag = 1;
    return MPI_SUCCESS;
}

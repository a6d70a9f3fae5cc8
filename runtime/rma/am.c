/* am.c - the wire of one-sided communication: the active messages (on
 * every transport, through the engine's rd_p2p_am_post), and everything
 * the target does: apply Put pieces and accumulates, answer Get, grant and
 * release its lock, PSCW's post and complete. Accumulates are applied by
 * the target's handler one piece at a time under the big lock, so they are
 * element-wise atomic with each other; the SELF path applies them in the
 * origin's call, also under the lock. One sender's messages arrive in
 * order, which gives the standard's default accumulate ordering. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/base/job.h"
#include "runtime/base/log.h"
#include "runtime/objects/datatype.h"
#include "runtime/objects/op.h"
#include "runtime/rma/rma_int.h"

void rma_post(int world, unsigned id, const struct rma_hdr *h, const void *data, size_t len)
{
    rd_status st = rd_p2p_am_post(world, id, h, sizeof(*h), data, len);
    if (st != RD_OK) {
        rd_error("rma", "cannot send to rank %d: %s", world, rd_status_string(st));
        rd_job_abort(rd_status_to_mpi(st), "one-sided communication failure");
    }
}

/* ------------------------------------------------------------ applying */

int rma_apply_put(struct rd_rma_win *rw, uint64_t addr, const void *data, size_t len)
{
    void *p = rma_target_ptr(rw, addr, len);
    if (!p)
        return MPI_ERR_RMA_RANGE;
    memcpy(p, data, len);
    return MPI_SUCCESS;
}

size_t rma_acc_span(uint32_t arg, size_t len)
{
    MPI_Datatype t = rd_op_type_at((int)(arg >> 8));
    if (!t || t->size == (size_t)t->extent || len < t->size)
        return len;
    /* pair types with padding (MPI_DOUBLE_INT, ...): k elements at their extent */
    return (len / t->size - 1) * (size_t)t->extent + (size_t)t->true_lb + (size_t)t->true_extent;
}

/* arg: the op's code | the element type's index << 8 (op.h). data: len
 * bytes of packed elements; p: the elements in the target's layout (at
 * their extent). old: where the previous contents go, packed, or NULL. */
int rma_acc_at(void *p, _Atomic uint32_t *lock, uint32_t arg, const void *data, size_t len, void *old)
{
    MPI_Op op = rd_op_of_code((int)(arg & 0xff));
    MPI_Datatype t = rd_op_type_at((int)(arg >> 8));
    if (!op || !t || len % t->size)
        return MPI_ERR_OP;
    /* the atomic types: CPU atomics, no lock (fast.c) */
    int cls = rma_atom_class(t);
    if (rma_atom_at(cls, p)) {
        if (rd_op_check(op, t) != MPI_SUCCESS)
            return MPI_ERR_OP;
        rma_atom_apply(cls, op->code, p, op == MPI_NO_OP ? NULL : data, old, len / t->size);
        return MPI_SUCCESS;
    }
    int err = MPI_SUCCESS;
    size_t k = len / t->size;
    if (t->size != (size_t)t->extent) {
        /* padded elements: unpacked to their layout first, then applied */
        void *in = NULL;
        if (op != MPI_NO_OP && !(in = malloc(k * (size_t)t->extent)))
            return MPI_ERR_NO_MEM;
        if (in)
            rd_dt_unpack(in, t, 0, data, len);
        rma_acc_lock(lock);
        if (old)
            rd_dt_pack(p, t, 0, old, len);
        if (in)
            err = rd_op_apply(op, in, p, (MPI_Count)k, t);
        rma_acc_unlock(lock);
        free(in);
        return err;
    }
    /* a message's data may sit at any address in the transport's buffer
     * (UCX): the kernels load whole elements, so copy it to aligned memory */
    void *aligned = NULL, *at = NULL;
    size_t al = t->align ? t->align : 1;
    if (op != MPI_NO_OP && op != MPI_REPLACE && (uintptr_t)data % al) {
        if (!(aligned = malloc(len)))
            return MPI_ERR_NO_MEM;
        memcpy(aligned, data, len);
        data = aligned;
    }
    /* the same for target elements at an address their type does not
     * allow (a window with disp_unit 1): applied in an aligned copy */
    if (op != MPI_NO_OP && op != MPI_REPLACE && (uintptr_t)p % al && !(at = malloc(len))) {
        free(aligned);
        return MPI_ERR_NO_MEM;
    }
    rma_acc_lock(lock);
    if (old)
        memcpy(old, p, len);
    if (op == MPI_REPLACE) {
        memcpy(p, data, len);
    } else if (at) {
        memcpy(at, p, len);
        err = rd_op_apply(op, data, at, (MPI_Count)k, t);
        memcpy(p, at, len);
    } else if (op != MPI_NO_OP) {
        err = rd_op_apply(op, data, p, (MPI_Count)k, t);
    }
    rma_acc_unlock(lock);
    free(aligned);
    free(at);
    return err;
}

/* data: compare (len / 2 bytes) then the new value */
int rma_cas_at(void *p, _Atomic uint32_t *lock, const void *data, size_t len, void *old)
{
    size_t n = len / 2;
    if ((n == 4 || n == 8) && (uintptr_t)p % n == 0) {
        /* 4 and 8 bytes are atomic types only: cmpxchg, as fast.c */
        rma_atom_cas(p, n, data, old);
        return MPI_SUCCESS;
    }
    rma_acc_lock(lock);
    memcpy(old, p, n);
    if (memcmp(old, data, n) == 0)
        memcpy(p, (const char *)data + n, n);
    rma_acc_unlock(lock);
    return MPI_SUCCESS;
}

int rma_apply_acc(struct rd_rma_win *rw, uint64_t addr, uint32_t arg, const void *data, size_t len,
                  void *old)
{
    void *p = rma_target_ptr(rw, addr, rma_acc_span(arg, len));
    if (!p)
        return MPI_ERR_RMA_RANGE;
    return rma_acc_at(p, rw->my_acc, arg, data, len, old);
}

int rma_apply_cas(struct rd_rma_win *rw, uint64_t addr, const void *data, size_t len, void *old)
{
    void *p = rma_target_ptr(rw, addr, len / 2);
    if (!p)
        return MPI_ERR_RMA_RANGE;
    return rma_cas_at(p, rw->my_acc, data, len, old);
}

/* ------------------------------------------------------------ the target's lock */

/* Take the target's lock for type if it is free: its lock word when the
 * window has a node segment (shared with node origins' atomics), else the
 * handler's own counts. */
static int try_take(struct rd_rma_win *rw, int type)
{
    if (rw->my_acc)
        return rma_lockw_try(rma_lockw(rw->my_acc), type);
    if (type == MPI_LOCK_EXCLUSIVE ? rw->lock_excl || rw->lock_shared : rw->lock_excl)
        return 0;
    if (type == MPI_LOCK_EXCLUSIVE)
        rw->lock_excl = 1;
    else
        rw->lock_shared++;
    return 1;
}

static void give_back(struct rd_rma_win *rw, int type)
{
    if (rw->my_acc)
        rma_lockw_release(rma_lockw(rw->my_acc), type);
    else if (type == MPI_LOCK_EXCLUSIVE)
        rw->lock_excl = 0;
    else if (rw->lock_shared > 0)
        rw->lock_shared--;
}

static void grant(struct rd_rma_win *rw, int wsrc, uint32_t back)
{
    struct rma_hdr h = {.win = back, .back = rw->id, .from = rw->rank};
    rma_post(wsrc, RMA_GRANT, &h, NULL, 0);
}

/* Requests are granted in arrival order: a waiting exclusive request
 * holds back shared ones that come after it (no starvation among AM
 * origins). Run again when a lock is given back: by an AM origin's UNLOCK,
 * or a node origin's KICK (it saw waiters counted in the segment). */
static void grant_waiters(struct rd_rma_win *rw)
{
    while (rw->wait_head && try_take(rw, rw->wait_head->type)) {
        struct rma_waiter *q = rw->wait_head;
        rw->wait_head = q->next;
        if (!rw->wait_head)
            rw->wait_tail = NULL;
        if (rw->my_acc)
            atomic_fetch_sub(rma_waitw(rw->my_acc), 1);
        grant(rw, q->wsrc, q->back);
        free(q);
    }
}

static void lock_request(struct rd_rma_win *rw, int wsrc, const struct rma_hdr *h)
{
    int type = (int)h->arg;
    if (!rw->wait_head && try_take(rw, type)) {
        grant(rw, wsrc, h->back);
        return;
    }
    struct rma_waiter *q = malloc(sizeof(*q));
    if (!q)
        rd_job_abort(MPI_ERR_NO_MEM, "one-sided communication: out of memory");
    q->next = NULL;
    q->wsrc = wsrc;
    q->from = h->from;
    q->type = type;
    q->back = h->back;
    if (rw->wait_tail)
        rw->wait_tail->next = q;
    else
        rw->wait_head = q;
    rw->wait_tail = q;
    if (rw->my_acc) {
        atomic_fetch_add(rma_waitw(rw->my_acc), 1);
        grant_waiters(rw); /* the word may have been given back meanwhile */
    }
}

static void unlock_request(struct rd_rma_win *rw, int wsrc, const struct rma_hdr *h)
{
    give_back(rw, (int)h->arg);
    struct rma_hdr a = {.win = h->back, .back = rw->id, .from = rw->rank};
    rma_post(wsrc, RMA_UNLOCKED, &a, NULL, 0);
    grant_waiters(rw);
}

/* ------------------------------------------------------------ the handler */

static void note_error(struct rd_rma_win *rw, int from, int err, const char *what)
{
    if (err != MPI_SUCCESS && rw->err == MPI_SUCCESS) {
        rw->err = err;
        snprintf(rw->errwhy, sizeof(rw->errwhy), "rank %d refused a %s: %s", from, what,
                 err == MPI_ERR_RMA_RANGE ? "its target bytes are outside the window (or not attached)"
                                          : "the op does not apply to the type");
    }
}

void rma_am_handler(int wsrc, unsigned id, const void *hdr, size_t hlen, const void *data, size_t len)
{
    struct rma_hdr h;
    if (hlen != sizeof(h))
        rd_job_abort(MPI_ERR_INTERN, "one-sided communication: a malformed message");
    memcpy(&h, hdr, sizeof(h));
    struct rd_rma_win *rw = rma_win(h.win);
    if (!rw && (id == RMA_SPLIT || id == RMA_KICK))
        return; /* the two messages nobody waits for (a split offer taken back,
                 * fast.c; an unlock's wake-up call), late: the node's barrier is
                 * words in shared memory, so the window's closing barrier can end
                 * before a message sent ahead of it is read */
    if (!rw) {
        rd_error("rma", "a message (%u) from rank %d for window %u, which this rank does not have", id, wsrc,
                 h.win);
        rd_job_abort(MPI_ERR_WIN, "one-sided communication: no such window");
    }
    struct rma_hdr a = {.win = h.back, .back = rw->id, .from = rw->rank, .token = h.token, .ooff = h.ooff};
    switch (id) {
    case RMA_PUT:
        a.arg = (uint32_t)rma_apply_put(rw, h.addr, data, len);
        rma_post(wsrc, RMA_ACK, &a, NULL, 0);
        break;
    case RMA_ACC:
        a.arg = (uint32_t)rma_apply_acc(rw, h.addr, h.arg, data, len, NULL);
        rma_post(wsrc, RMA_ACK, &a, NULL, 0);
        break;
    case RMA_GET:
    case RMA_GACC:
    case RMA_CAS: {
        size_t n = id == RMA_GET ? (size_t)h.arg : id == RMA_CAS ? len / 2 : len;
        void *old = malloc(n ? n : 1);
        if (!old)
            rd_job_abort(MPI_ERR_NO_MEM, "one-sided communication: out of memory");
        int err;
        if (id == RMA_GET) {
            void *p = rma_target_ptr(rw, h.addr, n);
            err = p ? MPI_SUCCESS : MPI_ERR_RMA_RANGE;
            if (p)
                memcpy(old, p, n);
        } else if (id == RMA_GACC) {
            err = rma_apply_acc(rw, h.addr, h.arg, data, len, old);
        } else {
            err = rma_apply_cas(rw, h.addr, data, len, old);
        }
        a.arg = (uint32_t)err;
        a.addr = n; /* the bytes this answer covers (none come on an error) */
        rma_post(wsrc, RMA_RESP, &a, old, err == MPI_SUCCESS ? n : 0);
        free(old);
        break;
    }
    case RMA_RESP:
        note_error(rw, h.from, (int)h.arg, "read");
        rma_resp_arrived(rw, h.from, h.token, h.ooff, data, len, h.addr);
        break;
    case RMA_ACK:
        note_error(rw, h.from, (int)h.arg, "write");
        rw->peers[h.from].pending--;
        break;
    case RMA_LOCK:
        lock_request(rw, wsrc, &h);
        break;
    case RMA_GRANT:
        rw->peers[h.from].granted = 1;
        break;
    case RMA_UNLOCK:
        unlock_request(rw, wsrc, &h);
        break;
    case RMA_UNLOCKED:
        rw->peers[h.from].unlocked = 1;
        break;
    case RMA_POST:
        rw->peers[h.from].posted++;
        break;
    case RMA_COMPLETE:
        rw->peers[h.from].completed++;
        break;
    case RMA_KICK:
        grant_waiters(rw);
        break;
    case RMA_SPLIT:
        rma_split_serve(rw, &h);
        break;
    default:
        rd_job_abort(MPI_ERR_INTERN, "one-sided communication: an unknown message");
    }
}

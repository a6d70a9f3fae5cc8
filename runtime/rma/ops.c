/* ops.c - the origin side of Put, Get, Accumulate, Get_accumulate,
 * Fetch_and_op and Compare_and_swap (and their R-forms). The origin walks
 * the target's layout with the datatype engine (rd_dt_segments: one
 * contiguous run at a time, never a flattened list of the whole type) and
 * sends each run, cut to what one active message carries, with its target
 * address and its offset in the packed data; answers (Get, Get_accumulate,
 * Compare_and_swap) are unpacked at that offset straight into the
 * origin's buffer. The SELF and NODE paths do the same pieces in place,
 * NODE in a node peer's memory mapped here. */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>

#include "runtime/objects/datatype.h"
#include "runtime/objects/op.h"
#include "runtime/rma/rma_int.h"

/* An operation waiting for answers. */
struct rma_rec {
    void *buf;
    MPI_Datatype dt;
    uint64_t left; /* packed bytes still to come */
    struct rd_request_s *req;
};

void rma_resp_arrived(struct rd_rma_win *rw, int from, uint64_t token, uint64_t ooff, const void *data,
                      size_t len, uint64_t covered)
{
    struct rma_rec *r = (struct rma_rec *)(uintptr_t)token;
    if (len)
        rd_dt_unpack(r->buf, r->dt, ooff, data, len);
    rw->peers[from].pending--;
    r->left -= covered;
    if (r->left == 0) {
        if (r->req)
            rd_req_complete(r->req);
        rd_dt_release(r->dt);
        free(r);
    }
}

struct walk {
    struct rd_rma_win *rw;
    struct rma_peer *p;
    int t, kind;
    unsigned id;
    uint32_t arg;
    const char *src;  /* packed origin data (PUT, ACC, GACC), compare+origin (CAS) */
    int64_t tb;       /* the target displacement in bytes */
    uint64_t off;     /* packed offset of the next piece */
    size_t chunk;     /* most bytes per piece */
    struct rma_rec *rec;
    MPI_Datatype elem; /* accumulates on padded pair types: walked element-wise */
    size_t amroom;     /* most data bytes of one active message to the target */
    int err;
};

/* One piece done in this process: the rank itself (SELF: its own memory,
 * its own accumulate lock) or a node peer whose window is mapped here
 * (NODE: loads and stores into the peer's memory under the peer's
 * accumulate lock); answers are taken at once. */
static int local_piece(struct walk *k, uint64_t addr, size_t n)
{
    struct rd_rma_win *rw = k->rw;
    const char *src = k->src ? k->src + (k->kind == RD_RMA_CAS ? 0 : k->off) : NULL;
    int node = k->p->path == RMA_PATH_NODE;
    size_t span = k->kind == RD_RMA_ACC || k->kind == RD_RMA_GACC ? rma_acc_span(k->arg, n) : n;
    char *p = node ? k->p->mem + addr : rma_target_ptr(rw, addr, span);
    _Atomic uint32_t *lock = node ? k->p->acc : rw->my_acc;
    int err = p ? MPI_SUCCESS : MPI_ERR_RMA_RANGE;
    if (k->kind == RD_RMA_PUT) {
        if (p)
            memcpy(p, src, n);
        return err;
    }
    if (k->kind == RD_RMA_ACC)
        return p ? rma_acc_at(p, lock, k->arg, src, n, NULL) : err;
    if (p && k->kind == RD_RMA_GET) {
        /* straight into the origin's buffer: no copy in between */
        rd_dt_unpack(k->rec->buf, k->rec->dt, k->off, p, n);
        k->p->pending++;
        rma_resp_arrived(rw, k->t, (uint64_t)(uintptr_t)k->rec, k->off, NULL, 0, n);
        return MPI_SUCCESS;
    }
    void *old = malloc(n ? n : 1);
    if (!old)
        return MPI_ERR_NO_MEM;
    if (p) {
        if (k->kind == RD_RMA_GACC)
            err = rma_acc_at(p, lock, k->arg, src, n, old);
        else
            err = rma_cas_at(p, lock, src, 2 * n, old);
    }
    k->p->pending++;
    rma_resp_arrived(rw, k->t, (uint64_t)(uintptr_t)k->rec, k->off, old, err == MPI_SUCCESS ? n : 0, n);
    free(old);
    return err;
}

/* One piece: n packed bytes at target address addr, done here (SELF,
 * NODE) or sent. */
/* CMA: one single copy to or from a node peer's window (1: done; 0: the
 * kernel refused, and the peer goes by active messages from now on) */
static int cma_piece(struct walk *k, uint64_t addr, size_t n)
{
    struct iovec r = {(void *)(uintptr_t)(k->p->base + addr), n};
    ssize_t got;
    if (k->kind == RD_RMA_PUT) {
        struct iovec l = {(void *)(k->src + k->off), n};
        got = process_vm_writev(k->p->pid, &l, 1, &r, 1, 0);
        if (got == (ssize_t)n)
            return 1;
    } else {
        void *tmp = malloc(n ? n : 1);
        if (!tmp)
            return 0;
        struct iovec l = {tmp, n};
        got = process_vm_readv(k->p->pid, &l, 1, &r, 1, 0);
        if (got == (ssize_t)n) {
            k->p->pending++;
            rma_resp_arrived(k->rw, k->t, (uint64_t)(uintptr_t)k->rec, k->off, tmp, n, n);
        }
        free(tmp);
        if (got == (ssize_t)n)
            return 1;
    }
    k->p->path = RMA_PATH_AM; /* (a partial write is done again whole) */
    return 0;
}

/* whether a Put or Get to p goes by the network's put/get: a Put only
 * where a put's done() means placed at the target (not verbs on iWARP:
 * transport.h, caps.put_sent_only), since flush and unlock count on it */
static int net_xfer(const struct rma_peer *p, int kind)
{
    return (p->path == RMA_PATH_RDMA || p->path == RMA_PATH_HW_ATOMIC) &&
           (kind == RD_RMA_GET || (kind == RD_RMA_PUT && rma_net_put_placed()));
}

static void piece(struct walk *k, uint64_t addr, size_t n)
{
    if (net_xfer(k->p, k->kind)) {
        /* the network's put/get (rdma.c) */
        rma_net_piece(k->rw, k->t, k->kind == RD_RMA_PUT, addr, k->src ? k->src + k->off : NULL, n,
                      (uint64_t)(uintptr_t)k->rec, k->off);
        k->off += n;
        return;
    }
    if (k->p->path == RMA_PATH_CMA && (k->kind == RD_RMA_PUT || k->kind == RD_RMA_GET) &&
        cma_piece(k, addr, n)) {
        k->off += n;
        return;
    }
    if (k->p->path == RMA_PATH_AM && k->amroom && n > k->amroom) {
        /* (pieces cut for CMA, sent by AM after all) */
        while (n) {
            size_t m = n < k->amroom ? n : k->amroom;
            piece(k, addr, m);
            addr += m;
            n -= m;
        }
        return;
    }
    if (k->p->path == RMA_PATH_SELF || k->p->path == RMA_PATH_NODE) {
        int err = local_piece(k, addr, n);
        if (err != MPI_SUCCESS && k->err == MPI_SUCCESS)
            k->err = err;
    } else {
        struct rma_hdr h = {.win = k->p->id, .back = k->rw->id, .from = k->rw->rank, .arg = k->arg,
                            .addr = addr, .token = (uint64_t)(uintptr_t)k->rec, .ooff = k->off};
        const void *data = NULL;
        size_t dlen = 0;
        if (k->kind == RD_RMA_GET) {
            h.arg = (uint32_t)n;
        } else if (k->kind == RD_RMA_CAS) {
            data = k->src;
            dlen = 2 * n;
        } else {
            data = k->src + k->off;
            dlen = n;
        }
        k->p->pending++;
        rma_post(k->p->world, k->id, &h, data, dlen);
    }
    k->off += n;
}

/* rd_dt_segments: a contiguous run of the target's layout */
static int seg(void *arg, MPI_Aint disp, size_t len)
{
    struct walk *k = arg;
    uint64_t addr = (uint64_t)(k->tb + disp);
    while (len) {
        size_t n = len < k->chunk ? len : k->chunk;
        piece(k, addr, n);
        addr += n;
        len -= n;
    }
    return 0;
}

/* rd_dt_runs: n elements of a padded pair type at their extent */
static int run(void *arg, MPI_Aint disp, size_t n)
{
    struct walk *k = arg;
    size_t per = k->chunk / k->elem->size;
    uint64_t addr = (uint64_t)(k->tb + disp);
    while (n) {
        size_t m = n < per ? n : per;
        piece(k, addr, m * k->elem->size);
        addr += m * (uint64_t)k->elem->extent;
        n -= m;
    }
    return 0;
}

static int fail(char *why, int err, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fail(char *why, int err, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, RD_RMA_WHY, fmt, ap);
    va_end(ap);
    return err;
}

/* The element type of an accumulate: one predefined type (a pair type
 * with padding included: its pieces are whole elements, walked by
 * rd_dt_runs, unpacked to their layout at the target). */
static MPI_Datatype acc_type(MPI_Datatype dt)
{
    MPI_Datatype e = dt->optype;
    return e && rd_op_type_index(e) >= 0 ? e : NULL;
}

int rd_rma_do(MPI_Win w, const struct rd_rma_call *o, struct rd_request_s *req, char *why)
{
    struct rd_rma_win *rw = rma_of(w);
    int t = o->target;
    if (t == MPI_PROC_NULL) {
        if (req)
            rd_req_complete(req);
        return MPI_SUCCESS;
    }
    if (t < 0 || t >= rw->size)
        return fail(why, MPI_ERR_RANK, "target rank %d is not in the window's group of %d", t, rw->size);
    if (!rma_in_epoch(rw, t))
        return fail(why, MPI_ERR_RMA_SYNC, "no access epoch to rank %d is open (fence, start, lock or lock_all)", t);
    struct rma_peer *p = &rw->peers[t];
    int kind = o->kind;
    uint64_t tbytes = (uint64_t)o->tcount * o->tdt->size;
    /* the origin's side: what it sends (PUT, ACC, GACC, CAS) and receives */
    int sends = kind != RD_RMA_GET && !(kind == RD_RMA_GACC && o->op == MPI_NO_OP);
    if (sends && kind != RD_RMA_CAS && (uint64_t)o->ocount * o->odt->size != tbytes)
        return fail(why, MPI_ERR_TYPE, "the origin has %llu bytes, the target %llu",
                    (unsigned long long)o->ocount * o->odt->size, (unsigned long long)tbytes);
    if (kind != RD_RMA_PUT && kind != RD_RMA_ACC && kind != RD_RMA_CAS &&
        (uint64_t)o->rcount * o->rdt->size != tbytes)
        return fail(why, MPI_ERR_TYPE, "the %s buffer has %llu bytes, the target %llu",
                    kind == RD_RMA_GET ? "origin" : "result", (unsigned long long)o->rcount * o->rdt->size,
                    (unsigned long long)tbytes);
    uint32_t arg = 0;
    MPI_Datatype e = NULL;
    if (kind == RD_RMA_ACC || kind == RD_RMA_GACC || kind == RD_RMA_CAS) {
        e = acc_type(o->tdt);
        if (!e)
            return fail(why, MPI_ERR_TYPE, "the target type is not made of one predefined type");
        if ((sends && acc_type(o->odt) != e) || (kind != RD_RMA_ACC && acc_type(o->rdt) != e))
            return fail(why, MPI_ERR_TYPE, "the buffers' element types differ from the target's");
        if (kind == RD_RMA_CAS) {
            if (rd_op_check(MPI_BAND, e) != MPI_SUCCESS && rd_op_check(MPI_LAND, e) != MPI_SUCCESS)
                return fail(why, MPI_ERR_TYPE, "compare-and-swap takes integer, logical or byte types only");
            arg = (uint32_t)MPI_SUCCESS;
        } else {
            if (!o->op->predefined || o->op->code >= RD_OP_USER)
                return fail(why, MPI_ERR_OP, "accumulates take predefined ops only");
            if (rd_op_check(o->op, e) != MPI_SUCCESS)
                return fail(why, MPI_ERR_OP, "the op is not defined on the target's type");
            arg = (uint32_t)o->op->code | (uint32_t)rd_op_type_index(e) << 8;
        }
    }
    /* the target bytes: 64-bit products, any disp_unit */
    int64_t tb;
    if (__builtin_mul_overflow((int64_t)o->tdisp, p->disp_unit, &tb))
        return fail(why, MPI_ERR_RMA_RANGE, "displacement %lld x disp_unit %lld overflows",
                    (long long)o->tdisp, (long long)p->disp_unit);
    if (rw->flavor != MPI_WIN_FLAVOR_DYNAMIC && o->tcount > 0 && tbytes > 0) {
        __int128 ext = o->tdt->extent, c = o->tcount - 1;
        __int128 lo = (__int128)tb + o->tdt->true_lb + (ext < 0 ? c * ext : 0);
        __int128 hi = (__int128)tb + o->tdt->true_lb + o->tdt->true_extent + (ext > 0 ? c * ext : 0);
        if (lo < 0 || hi > (__int128)p->size)
            return fail(why, MPI_ERR_RMA_RANGE, "target bytes [%lld, %lld) are outside rank %d's window of %llu bytes",
                        (long long)lo, (long long)hi, t, (unsigned long long)p->size);
    }
    if (tbytes == 0) {
        if (req)
            rd_req_complete(req);
        return MPI_SUCCESS;
    }
    /* a window by the device's atomics: 8-byte elements go by them (rdma.c) */
    int hwerr;
    if (e && rma_hw_do(rw, o, e, tb, req, &hwerr))
        return hwerr == MPI_SUCCESS ? MPI_SUCCESS
                                    : fail(why, hwerr, "rank %d: the device's atomics failed (%s)", t,
                                           hwerr == MPI_ERR_OP ? "bad op" : "transport error");
    /* the origin's data, packed (contiguous: in place) */
    void *tmp = NULL;
    const char *src = NULL;
    if (kind == RD_RMA_CAS) {
        tmp = malloc(2 * tbytes);
        if (!tmp)
            return fail(why, MPI_ERR_NO_MEM, "out of memory");
        memcpy(tmp, o->cbuf, tbytes);
        memcpy((char *)tmp + tbytes, o->obuf, tbytes);
        src = tmp;
    } else if (sends) {
        if (o->odt->contig) {
            src = (const char *)o->obuf + o->odt->true_lb;
        } else {
            tmp = malloc(tbytes);
            if (!tmp)
                return fail(why, MPI_ERR_NO_MEM, "out of memory");
            rd_dt_pack(o->obuf, o->odt, 0, tmp, tbytes);
            src = tmp;
        }
    }
    struct walk k = {.rw = rw, .p = p, .t = t, .kind = kind, .arg = arg, .src = src, .tb = tb};
    static const unsigned ids[] = {RMA_PUT, RMA_GET, RMA_ACC, RMA_GACC, RMA_CAS};
    k.id = ids[kind];
    int padded = e && e->size != (size_t)e->extent;
    if (kind == RD_RMA_GACC && o->op == MPI_NO_OP && !padded) {
        /* a fetch: read the target, send nothing */
        k.kind = RD_RMA_GET;
        k.id = RMA_GET;
        k.src = NULL;
    }
    size_t room = p->path == RMA_PATH_SELF || p->path == RMA_PATH_NODE ? (size_t)1 << 20 : rd_p2p_am_max(p->world);
    if ((p->path == RMA_PATH_CMA || p->path == RMA_PATH_SELF || p->path == RMA_PATH_NODE) &&
        (kind == RD_RMA_PUT || kind == RD_RMA_GET))
        room = (size_t)1 << 30; /* (one copy per contiguous run; AM sizes only if CMA fails;
                                 * SELF and NODE: one memcpy, straight between the buffers) */
    if (net_xfer(p, kind))
        room = (size_t)1 << 30; /* one transport put/get per contiguous run */
    if (room <= sizeof(struct rma_hdr) + 64) {
        free(tmp);
        return fail(why, MPI_ERR_INTERN, "rank %d cannot be reached", t);
    }
    k.chunk = room - sizeof(struct rma_hdr);
    if (p->path == RMA_PATH_CMA)
        k.amroom = rd_p2p_am_max(p->world) - sizeof(struct rma_hdr);
    if (e)
        k.chunk -= k.chunk % e->size;
    if (kind != RD_RMA_PUT && kind != RD_RMA_ACC) {
        k.rec = malloc(sizeof(*k.rec));
        if (!k.rec) {
            free(tmp);
            return fail(why, MPI_ERR_NO_MEM, "out of memory");
        }
        k.rec->buf = o->rbuf;
        k.rec->dt = o->rdt;
        rd_dt_retain(o->rdt);
        k.rec->left = tbytes;
        k.rec->req = req;
    }
    if (kind == RD_RMA_GACC && o->op == MPI_NO_OP && padded) {
        /* a fetch of padded elements goes as an accumulate that adds
         * nothing (the target packs the old values): zeros to carry */
        free(tmp);
        tmp = calloc(1, tbytes);
        if (!tmp) {
            if (k.rec)
                free(k.rec);
            return fail(why, MPI_ERR_NO_MEM, "out of memory");
        }
        k.src = tmp;
    }
    if (padded) {
        k.elem = e;
        rd_dt_runs(o->tdt, (size_t)o->tcount, run, &k);
    } else {
        rd_dt_segments(o->tdt, (size_t)o->tcount, seg, &k);
    }
    free(tmp);
    /* the data left with the messages: Put and Accumulate are complete at
     * the origin (their R-forms' requests too) */
    if (!k.rec && req)
        rd_req_complete(req);
    if (k.err != MPI_SUCCESS)
        return fail(why, k.err, "rank %d (this rank) refused the operation: %s", t,
                    k.err == MPI_ERR_RMA_RANGE ? "target bytes outside the window or not attached" : "bad op or type");
    return MPI_SUCCESS;
}

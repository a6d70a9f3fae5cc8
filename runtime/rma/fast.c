/* fast.c - the node fast path of one-sided communication, and the CPU
 * atomics of accumulates.
 *
 * The common case on a node is one copy or one CPU atomic: contiguous
 * types on both sides, an epoch open, the target's memory mapped here
 * (NODE) or this rank's own (SELF). The API tries these functions first;
 * anything else (another path, a derived type with gaps, a PSCW epoch, an
 * argument that is wrong) returns RD_RMA_SLOW before touching anything,
 * and the general call (ops.c) runs with every check and its message.
 * No big lock: they read only what the window's creation fixed (the
 * per-target table, sizes, mappings) and the epoch the calling thread
 * opened, and write only node memory (copies, atomics, the accumulate
 * lock word).
 *
 * Element-wise atomicity (MPI-4.1 12.7.1: accumulates to one location
 * with the same predefined type are as if done one after the other).
 * Elements of the atomic types, integers and Fortran LOGICAL of 4 or 8
 * bytes at naturally aligned addresses, are updated with CPU atomics, one
 * element at a time (lock xadd, lock and/or/xor, xchg, cmpxchg loops for
 * MAX, MIN, PROD and the logical ops), by every applier alike: node
 * origins, the target itself, the target's active-message handler.
 * Every update of such an element is then one atomic instruction, so
 * they are atomic with each other without the accumulate lock word, and
 * a Fetch_and_op or Compare_and_swap on a 64-bit counter is one
 * instruction. Other types (floating point, complex, pair types, 1- and
 * 2-byte integers) and unaligned elements take the lock word (or the
 * target's big lock without a segment), as before; the choice depends on
 * the type and the address only, so every operation on one location with
 * one type makes the same choice. Compare_and_swap of 4 or 8 bytes
 * aligned is always cmpxchg: those sizes are atomic types only. The cost:
 * a large integer accumulate pays one locked instruction per element
 * instead of a vectorised loop under one lock. */
#include "config.h"

#include <sched.h>
#include <string.h>
#include <sys/uio.h>
#if defined(__x86_64__)
#include <immintrin.h>
#endif

#include "runtime/base/job.h"
#include "runtime/base/log.h"
#include "runtime/base/params.h"
#include "runtime/base/state.h"

#include "runtime/objects/datatype.h"
#include "runtime/objects/op.h"
#include "runtime/p2p/request.h"
#include "runtime/rma/rma_int.h"

/* one call in RMA_FLUSH_POLL of a fast flush runs the general flush for
 * its progress call: a rank that spins on flushes to node targets still
 * serves the active messages others send it */
#define RMA_FLUSH_POLL 16

/* ------------------------------------------------------------ atomic types */

/* the class of each type of the reduction kernels' table (op.h), by
 * index, and the ops defined on it (bit RD_OP_x) */
static _Atomic int classes_ready;
static signed char classes[128];
static uint16_t class_ops[128];

static int classify(MPI_Datatype t)
{
    static const MPI_Datatype sgn[] = {MPI_INT, MPI_LONG, MPI_LONG_LONG_INT, MPI_LONG_LONG, MPI_INT32_T,
                                       MPI_INT64_T, MPI_AINT, MPI_OFFSET, MPI_COUNT, MPI_INTEGER,
                                       MPI_INTEGER4, MPI_INTEGER8, MPI_LOGICAL};
    static const MPI_Datatype uns[] = {MPI_UNSIGNED, MPI_UNSIGNED_LONG, MPI_UNSIGNED_LONG_LONG, MPI_UINT32_T,
                                       MPI_UINT64_T};
    if (t->size != 4 && t->size != 8)
        return RMA_ATOM_NONE;
    for (size_t i = 0; i < sizeof(sgn) / sizeof(sgn[0]); i++)
        if (t == sgn[i])
            return t->size == 4 ? RMA_ATOM_S32 : RMA_ATOM_S64;
    for (size_t i = 0; i < sizeof(uns) / sizeof(uns[0]); i++)
        if (t == uns[i])
            return t->size == 4 ? RMA_ATOM_U32 : RMA_ATOM_U64;
    return RMA_ATOM_NONE;
}

static void classes_init(void)
{
    /* (idempotent: two threads write the same values) */
    MPI_Datatype x;
    for (int i = 0; i < (int)sizeof(classes) && (x = rd_op_type_at(i)); i++) {
        classes[i] = (signed char)classify(x);
        for (int c = 0; c < RD_OP_USER; c++)
            if (rd_op_check(rd_op_of_code(c), x) == MPI_SUCCESS)
                class_ops[i] |= (uint16_t)(1u << c);
    }
    atomic_store_explicit(&classes_ready, 1, memory_order_release);
}

/* t's index in the kernels' table: its cached opk (op.c) when set */
static inline int type_index(MPI_Datatype t)
{
    if (!atomic_load_explicit(&classes_ready, memory_order_acquire))
        classes_init();
    int k = atomic_load_explicit(&t->opk, memory_order_relaxed);
    int i = k > 0 ? k - 1 : k < 0 ? -1 : rd_op_type_index(t);
    return i < (int)sizeof(classes) ? i : -1;
}

int rma_atom_class(MPI_Datatype t)
{
    if (!t || !t->predefined)
        return RMA_ATOM_NONE;
    int i = type_index(t);
    return i >= 0 ? classes[i] : RMA_ATOM_NONE;
}

/* the value an op makes of the target's cur and the origin's v, for the
 * cmpxchg loops (unsigned arithmetic: wraps like the kernels' loops) */
#define COMBINE(T, U)                                                                  \
    static T combine_##T(int code, T cur, T v)                                         \
    {                                                                                  \
        switch (code) {                                                                \
        case RD_OP_MAX: return v > cur ? v : cur;                                      \
        case RD_OP_MIN: return v < cur ? v : cur;                                      \
        case RD_OP_PROD: return (T)((U)v * (U)cur);                                    \
        case RD_OP_LAND: return (T)(v != 0 && cur != 0);                               \
        case RD_OP_LOR: return (T)(v != 0 || cur != 0);                                \
        case RD_OP_LXOR: return (T)((v != 0) != (cur != 0));                           \
        default: return cur; /* (not reached: the others are single instructions) */   \
        }                                                                              \
    }
COMBINE(int32_t, uint32_t)
COMBINE(uint32_t, uint32_t)
COMBINE(int64_t, uint64_t)
COMBINE(uint64_t, uint64_t)

#define APPLY(T)                                                                       \
    do {                                                                               \
        T *d = p;                                                                      \
        for (size_t i = 0; i < k; i++) {                                               \
            T v = 0, cur;                                                              \
            if (in)                                                                    \
                memcpy(&v, (const char *)in + i * sizeof(T), sizeof(T));              \
            switch (code) {                                                            \
            case RD_OP_SUM:                                                            \
                cur = __atomic_fetch_add(d + i, v, __ATOMIC_SEQ_CST);                  \
                break;                                                                 \
            case RD_OP_BAND:                                                           \
                cur = __atomic_fetch_and(d + i, v, __ATOMIC_SEQ_CST);                  \
                break;                                                                 \
            case RD_OP_BOR:                                                            \
                cur = __atomic_fetch_or(d + i, v, __ATOMIC_SEQ_CST);                   \
                break;                                                                 \
            case RD_OP_BXOR:                                                           \
                cur = __atomic_fetch_xor(d + i, v, __ATOMIC_SEQ_CST);                  \
                break;                                                                 \
            case RD_OP_REPLACE:                                                        \
                if (!old) {                                                            \
                    __atomic_store_n(d + i, v, __ATOMIC_RELAXED);                      \
                    continue;                                                          \
                }                                                                      \
                cur = __atomic_exchange_n(d + i, v, __ATOMIC_SEQ_CST);                 \
                break;                                                                 \
            case RD_OP_NO_OP:                                                          \
                if (!old)                                                              \
                    return;                                                            \
                cur = __atomic_load_n(d + i, __ATOMIC_RELAXED);                        \
                break;                                                                 \
            default:                                                                   \
                cur = __atomic_load_n(d + i, __ATOMIC_RELAXED);                        \
                while (!__atomic_compare_exchange_n(d + i, &cur, combine_##T(code, cur, v), 1, \
                                                    __ATOMIC_SEQ_CST, __ATOMIC_RELAXED)) \
                    ;                                                                  \
            }                                                                          \
            if (old)                                                                   \
                memcpy((char *)old + i * sizeof(T), &cur, sizeof(T));                  \
        }                                                                              \
    } while (0)

void rma_atom_apply(int cls, int code, void *p, const void *in, void *old, size_t k)
{
    switch (cls) {
    case RMA_ATOM_S32: APPLY(int32_t); break;
    case RMA_ATOM_U32: APPLY(uint32_t); break;
    case RMA_ATOM_S64: APPLY(int64_t); break;
    default: APPLY(uint64_t); break;
    }
}

void rma_atom_cas(void *p, size_t n, const void *data, void *old)
{
    if (n == 8) {
        uint64_t c, v;
        memcpy(&c, data, 8);
        memcpy(&v, (const char *)data + 8, 8);
        __atomic_compare_exchange_n((uint64_t *)p, &c, v, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
        memcpy(old, &c, 8);
    } else {
        uint32_t c, v;
        memcpy(&c, data, 4);
        memcpy(&v, (const char *)data + 4, 4);
        __atomic_compare_exchange_n((uint32_t *)p, &c, v, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
        memcpy(old, &c, 4);
    }
}

/* ------------------------------------------------------------ the fast path */

/* target t's entry if an epoch is open to it (PSCW goes the general way) */
static inline struct rma_peer *epoch_peer(MPI_Win w, int t)
{
    struct rd_rma_win *rw = rma_of(w);
    if (!rw || (unsigned)t >= (unsigned)rw->size)
        return NULL;
    struct rma_peer *p = &rw->peers[t];
    return rw->lock_all || p->lock || rw->fence ? p : NULL;
}

/* target t's entry if the fast path may reach it now: a known rank, its
 * memory here, an epoch open to it */
static inline struct rma_peer *fast_peer(MPI_Win w, int t)
{
    struct rma_peer *p = epoch_peer(w, t);
    return p && p->fast ? p : NULL;
}


/* The network's fast path: a target reached by the network transport
 * (p->net: the RDMA and HW_ATOMIC paths, and on a window that goes by
 * the device's atomics the rank itself, by its loopback endpoint) gets
 * its small common cases straight from here too, single-threaded (the
 * network's waits give the big lock up and take it back, so its holder
 * only): a contiguous Put is one transport put (rdma.c's
 * rma_net_piece, from its pool of registered bounce buffers), a
 * Fetch_and_op of MPI_SUM or MPI_NO_OP and a Compare_and_swap on an
 * 8-byte integer one device atomic (rma_hw_fetch). The offset of n target
 * bytes at displacement disp (plus lb) in p's window, or -1 if any is
 * outside it. */
static inline int64_t target_offset(const struct rma_peer *p, MPI_Aint disp, MPI_Aint lb, uint64_t n)
{
    int64_t tb;
    if (__builtin_mul_overflow((int64_t)disp, p->disp_unit, &tb) || __builtin_add_overflow(tb, (int64_t)lb, &tb))
        return -1;
    if (tb < 0 || (uint64_t)tb > p->size || n > p->size - (uint64_t)tb)
        return -1;
    return tb;
}

/* where n target bytes at displacement disp (plus lb) start in p's
 * memory, or NULL when any of them is outside it */
static inline char *fast_target(const struct rma_peer *p, MPI_Aint disp, MPI_Aint lb, uint64_t n)
{
    int64_t tb = target_offset(p, disp, lb, n);
    return tb < 0 ? NULL : p->fast + tb;
}

/* non-temporal stores (RDMPI_RMA_NT_COPY): streaming stores to an
 * aligned destination (32 bytes at a time where the CPU has AVX2, 16
 * otherwise), the ends by memcpy, then a store fence (flush's fence is a
 * locked instruction, which need not order them). Measured on this
 * project's AMD EPYC machine, 8 x 1 MiB from a window into a buffer: glibc's
 * memcpy 13.3 GB/s, 16-byte streaming stores 18.2, 32-byte 20.7. */
#if defined(__x86_64__)
__attribute__((target("avx2"))) static void nt_body32(char *d, const char *s, size_t body)
{
    for (size_t i = 0; i < body; i += 64) {
        __m256i a = _mm256_loadu_si256((const __m256i *)(const void *)(s + i));
        __m256i b = _mm256_loadu_si256((const __m256i *)(const void *)(s + i + 32));
        _mm256_stream_si256((__m256i *)(void *)(d + i), a);
        _mm256_stream_si256((__m256i *)(void *)(d + i + 32), b);
    }
}

static void nt_body16(char *d, const char *s, size_t body)
{
    for (size_t i = 0; i < body; i += 64) {
        __m128i a = _mm_loadu_si128((const __m128i *)(const void *)(s + i));
        __m128i b = _mm_loadu_si128((const __m128i *)(const void *)(s + i + 16));
        __m128i c = _mm_loadu_si128((const __m128i *)(const void *)(s + i + 32));
        __m128i e = _mm_loadu_si128((const __m128i *)(const void *)(s + i + 48));
        _mm_stream_si128((__m128i *)(void *)(d + i), a);
        _mm_stream_si128((__m128i *)(void *)(d + i + 16), b);
        _mm_stream_si128((__m128i *)(void *)(d + i + 32), c);
        _mm_stream_si128((__m128i *)(void *)(d + i + 48), e);
    }
}
#endif

static void nt_copy(char *d, const char *s, uint64_t n)
{
#if defined(__x86_64__)
    static int avx2 = -1; /* (a race writes the same value) */
    if (avx2 < 0) {
        __builtin_cpu_init();
        avx2 = __builtin_cpu_supports("avx2") ? 1 : 0;
    }
    size_t head = (32 - (uintptr_t)d % 32) % 32;
    if (head > n)
        head = (size_t)n;
    memcpy(d, s, head);
    d += head, s += head, n -= head;
    size_t body = n & ~(uint64_t)63;
    if (avx2)
        nt_body32(d, s, body);
    else
        nt_body16(d, s, body);
    memcpy(d + body, s + body, n - body);
    _mm_sfence();
#else
    memcpy(d, s, n);
#endif
}

/* 8 bytes (a latency test's, a counter's) without a call */
static inline void copy(void *d, const void *s, uint64_t n)
{
    if (n == 8) {
        uint64_t x;
        memcpy(&x, s, 8);
        memcpy(d, &x, 8);
    } else if (rd_param.rma_nt_copy && n >= (uint64_t)rd_param.rma_nt_copy) {
        nt_copy(d, s, n);
    } else {
        memcpy(d, s, n);
    }
}

static inline int fast_type(MPI_Count count, MPI_Datatype dt)
{
    /* (a _c call's count whose bytes overflow: the general call refuses it) */
    return count > 0 && rd_dt_valid(dt) && dt->committed && dt->contig && dt->size > 0 &&
           (count <= INT32_MAX || (uint64_t)count <= (uint64_t)INT64_MAX / dt->size);
}

/* Put's and Get's common case: both sides contiguous, the same bytes,
 * the target's memory mapped here; where its n bytes are (NULL: the
 * general call) and the peer's entry in *pp */
static inline char *fast_xfer(MPI_Win w, MPI_Count ocount, MPI_Datatype odt, int t, MPI_Aint tdisp, MPI_Count tcount,
                              MPI_Datatype tdt, uint64_t *n, struct rma_peer **pp)
{
    if (!fast_type(ocount, odt) || !fast_type(tcount, tdt))
        return NULL;
    *n = (uint64_t)ocount * odt->size;
    if (*n != (uint64_t)tcount * tdt->size)
        return NULL;
    struct rma_peer *p = *pp = epoch_peer(w, t);
    return p && p->fast ? fast_target(p, tdisp, tdt->true_lb, *n) : NULL;
}

int rd_rma_put_fast(MPI_Win w, const void *obuf, MPI_Count ocount, MPI_Datatype odt, int t, MPI_Aint tdisp,
                    MPI_Count tcount,
                    MPI_Datatype tdt)
{
    uint64_t n;
    struct rma_peer *p = NULL;
    char *d = fast_xfer(w, ocount, odt, t, tdisp, tcount, tdt, &n, &p);
    if (d) {
        copy(d, (const char *)obuf + odt->true_lb, n);
        return MPI_SUCCESS;
    }
    /* the network's: one put (where its completion means placed, as the
     * general call's rule; ops.c's net_xfer) */
    if (!p || rd_threaded || (p->path != RMA_PATH_RDMA && p->path != RMA_PATH_HW_ATOMIC) ||
        n >= ((uint64_t)1 << 30) || !rma_net_put_placed())
        return RD_RMA_SLOW;
    int64_t off = target_offset(p, tdisp, tdt->true_lb, n);
    if (off < 0)
        return RD_RMA_SLOW;
    rma_net_piece(rma_of(w), t, 1, (uint64_t)off, (const char *)obuf + odt->true_lb, n, 0, 0);
    return MPI_SUCCESS;
}

/* The split Get (RDMPI_RMA_SPLIT_GET): two cores copy, as the p2p
 * engine's split protocol. The origin offers the tail [a, n) on its claim
 * word and by an active message, copies the head, then takes the tail
 * back if the target has not claimed it (a busy target costs nothing but
 * the message) or waits for the target's copy (Cross Memory Attach into
 * the origin's buffer; if the kernel refuses, the origin copies it). One
 * offer at a time per window; the sequence number, unique in the
 * process (not per window: a window id is reused after free), makes a
 * late message for an offer taken back harmless, even one read after the
 * window is gone (am.c drops it) or its id reused. Needs the big lock off (the message is
 * posted here), the target to map this rank's control line (NODE both
 * ways), and a core per rank (not when oversubscribed). */
static void split_get(struct rd_rma_win *rw, struct rma_peer *p, char *dst, const char *src, uint64_t n,
                      uint64_t toff)
{
    static uint64_t split_seq; /* (single-threaded callers) */
    uint64_t a = (n * 5 / 8) & ~(uint64_t)63, seq = ++split_seq;
    _Atomic uint64_t *cw = rma_claimw(rw->my_acc);
    uint64_t offered = seq << 2 | RMA_CLAIM_OFFERED;
    atomic_store_explicit(cw, offered, memory_order_release);
    struct rma_hdr h = {.win = p->id, .back = rw->id, .from = rw->rank, .arg = (uint32_t)(n - a),
                        .addr = toff + a, .token = (uint64_t)(uintptr_t)(dst + a), .ooff = seq};
    rma_post(p->world, RMA_SPLIT, &h, NULL, 0);
    memcpy(dst, src, a);
    if (atomic_compare_exchange_strong(cw, &offered, seq << 2 | RMA_CLAIM_NONE)) {
        memcpy(dst + a, src + a, n - a); /* not started: all mine */
        return;
    }
    uint64_t v;
    for (long spins = 0; (v = atomic_load_explicit(cw, memory_order_acquire)) == (seq << 2 | RMA_CLAIM_TAKEN);)
        if (++spins % 4096 == 0)
            sched_yield(); /* (the target was descheduled in its copy) */
        else
            __builtin_ia32_pause();
    if (v != (seq << 2 | RMA_CLAIM_DONE))
        memcpy(dst + a, src + a, n - a); /* the target could not */
}

void rma_split_serve(struct rd_rma_win *rw, const struct rma_hdr *h)
{
    struct rma_peer *o = &rw->peers[h->from];
    if (!o->acc || o->path != RMA_PATH_NODE)
        return; /* (the origin takes it back) */
    _Atomic uint64_t *cw = rma_claimw(o->acc);
    uint64_t offered = h->ooff << 2 | RMA_CLAIM_OFFERED;
    if (!atomic_compare_exchange_strong(cw, &offered, h->ooff << 2 | RMA_CLAIM_TAKEN))
        return; /* taken back already */
    void *s = rma_target_ptr(rw, h->addr, h->arg);
    struct iovec l = {s, h->arg}, r = {(void *)(uintptr_t)h->token, h->arg};
    int ok = s && process_vm_writev(o->pid, &l, 1, &r, 1, 0) == (ssize_t)h->arg;
    atomic_store_explicit(cw, h->ooff << 2 | (ok ? RMA_CLAIM_DONE : RMA_CLAIM_NONE), memory_order_release);
    rd_debug("rma", "split Get %llu: %u bytes copied for rank %d%s", (unsigned long long)h->ooff, h->arg, h->from,
             ok ? "" : " (refused: the origin copies them)");
}

int rd_rma_get_fast(MPI_Win w, void *obuf, MPI_Count ocount, MPI_Datatype odt, int t, MPI_Aint tdisp,
                    MPI_Count tcount,
                    MPI_Datatype tdt)
{
    uint64_t n;
    struct rma_peer *p;
    const char *s = fast_xfer(w, ocount, odt, t, tdisp, tcount, tdt, &n, &p);
    if (!s)
        return RD_RMA_SLOW;
    struct rd_rma_win *rw = rma_of(w);
    if (rd_param.rma_split_get && n >= (uint64_t)rd_param.rma_split_get && n < ((uint64_t)1 << 32) &&
        p->path == RMA_PATH_NODE && rw->my_acc && !rd_threaded && !rd_job.oversubscribed)
        split_get(rw, p, (char *)obuf + odt->true_lb, s, n, (uint64_t)(s - p->fast));
    else
        copy((char *)obuf + odt->true_lb, s, n);
    return MPI_SUCCESS;
}

int rd_rma_acc_fast(MPI_Win w, const void *obuf, MPI_Count ocount, MPI_Datatype odt, void *rbuf, MPI_Count rcount,
                    MPI_Datatype rdt, int t, MPI_Aint tdisp, MPI_Count tcount, MPI_Datatype tdt, MPI_Op op)
{
    /* one predefined element type with no padding, on every side */
    if (!fast_type(tcount, tdt) || !tdt->optype || !tdt->optype->predefined || !rd_op_valid(op) ||
        !op->predefined || op->code >= RD_OP_USER)
        return RD_RMA_SLOW;
    MPI_Datatype e = tdt->optype;
    int ti = type_index(e);
    if (ti < 0 || !(class_ops[ti] >> op->code & 1))
        return RD_RMA_SLOW; /* (the op is not defined on the type) */
    uint64_t n = (uint64_t)tcount * tdt->size;
    int noop = op->code == RD_OP_NO_OP;
    if ((noop && !rbuf) || e->size != (size_t)e->extent)
        return RD_RMA_SLOW;
    if (!noop && (!fast_type(ocount, odt) || odt->optype != e || (uint64_t)ocount * odt->size != n))
        return RD_RMA_SLOW;
    if (rbuf && (!fast_type(rcount, rdt) || rdt->optype != e || (uint64_t)rcount * rdt->size != n))
        return RD_RMA_SLOW;
    struct rma_peer *p = fast_peer(w, t);
    char *d = p && !p->net ? fast_target(p, tdisp, tdt->true_lb, n) : NULL;
    if (!d)
        return RD_RMA_SLOW; /* (p->net: accumulates by the device's atomics, rdma.c) */
    const char *in = noop ? NULL : (const char *)obuf + odt->true_lb;
    char *old = rbuf ? (char *)rbuf + rdt->true_lb : NULL;
    int cls = classes[ti];
    if (rma_atom_at(cls, d)) {
        rma_atom_apply(cls, op->code, d, in, old, n / e->size);
        return MPI_SUCCESS;
    }
    /* the lock word; without one (this rank's window over user memory)
     * the general call applies it under the big lock */
    if (!p->acc)
        return RD_RMA_SLOW;
    if (noop) {
        rma_acc_lock(p->acc);
        memcpy(old, d, n);
        rma_acc_unlock(p->acc);
        return MPI_SUCCESS;
    }
    uint32_t arg = (uint32_t)op->code | (uint32_t)ti << 8;
    return rma_acc_at(d, p->acc, arg, in, n, old) == MPI_SUCCESS ? MPI_SUCCESS : RD_RMA_SLOW;
}

/* Fetch_and_op (cbuf NULL; add: the addend, NULL for MPI_NO_OP) or
 * Compare_and_swap (cbuf) of one 8-byte integer dt on a network target
 * p, by the device's atomics */
static int net_fetch(MPI_Win w, struct rma_peer *p, int t, MPI_Aint tdisp, const void *add, const void *cbuf,
                     void *rbuf, MPI_Datatype dt)
{
    if (rd_threaded || dt->size != 8)
        return RD_RMA_SLOW;
    int64_t off = target_offset(p, tdisp, 0, 8);
    uint64_t v = 0, c = 0;
    if (add)
        memcpy(&v, add, 8);
    if (cbuf)
        memcpy(&c, cbuf, 8);
    return off >= 0 && rma_hw_fetch(rma_of(w), t, (uint64_t)off, cbuf != NULL, v, c, rbuf) ? MPI_SUCCESS
                                                                                             : RD_RMA_SLOW;
}

int rd_rma_fop_fast(MPI_Win w, const void *obuf, void *rbuf, MPI_Datatype dt, int t, MPI_Aint tdisp, MPI_Op op)
{
    if (!rd_dt_valid(dt) || !dt->predefined || !rd_op_valid(op))
        return RD_RMA_SLOW;
    int i = type_index(dt), cls = i >= 0 ? classes[i] : RMA_ATOM_NONE;
    if (cls == RMA_ATOM_NONE)
        return rd_rma_acc_fast(w, obuf, 1, dt, rbuf, 1, dt, t, tdisp, 1, dt, op);
    /* the common case: one CPU atomic */
    if (!op->predefined || op->code >= RD_OP_USER || !(class_ops[i] >> op->code & 1))
        return RD_RMA_SLOW;
    struct rma_peer *p = epoch_peer(w, t);
    if (p && p->net) /* (other ops: a compare-and-swap loop, the general call's) */
        return op->code == RD_OP_SUM || op->code == RD_OP_NO_OP
                   ? net_fetch(w, p, t, tdisp, op->code == RD_OP_SUM ? obuf : NULL, NULL, rbuf, dt)
                   : RD_RMA_SLOW;
    char *d = p && p->fast ? fast_target(p, tdisp, 0, dt->size) : NULL;
    if (!d || !rma_atom_at(cls, d))
        return RD_RMA_SLOW;
    if (op->code == RD_OP_SUM && dt->size == 8) {
        /* a counter: lock xadd, inline */
        uint64_t v, old;
        memcpy(&v, obuf, 8);
        old = __atomic_fetch_add((uint64_t *)(void *)d, v, __ATOMIC_SEQ_CST);
        memcpy(rbuf, &old, 8);
        return MPI_SUCCESS;
    }
    rma_atom_apply(cls, op->code, d, op->code == RD_OP_NO_OP ? NULL : obuf, rbuf, 1);
    return MPI_SUCCESS;
}

int rd_rma_cas_fast(MPI_Win w, const void *obuf, const void *cbuf, void *rbuf, MPI_Datatype dt, int t,
                    MPI_Aint tdisp)
{
    if (!rd_dt_valid(dt) || rma_atom_class(dt) == RMA_ATOM_NONE)
        return RD_RMA_SLOW;
    struct rma_peer *p = epoch_peer(w, t);
    if (p && p->net)
        return net_fetch(w, p, t, tdisp, obuf, cbuf, rbuf, dt);
    char *d = p && p->fast ? fast_target(p, tdisp, 0, dt->size) : NULL;
    if (!d || (uintptr_t)d % dt->size)
        return RD_RMA_SLOW;
    if (dt->size == 8) {
        uint64_t c, v;
        memcpy(&c, cbuf, 8);
        memcpy(&v, obuf, 8);
        __atomic_compare_exchange_n((uint64_t *)(void *)d, &c, v, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
        memcpy(rbuf, &c, 8);
    } else {
        uint32_t c, v;
        memcpy(&c, cbuf, 4);
        memcpy(&v, obuf, 4);
        __atomic_compare_exchange_n((uint32_t *)(void *)d, &c, v, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
        memcpy(rbuf, &c, 4);
    }
    return MPI_SUCCESS;
}

/* one fast flush or unlock in RMA_FLUSH_POLL goes the general way */
static inline int idle_poll(struct rd_rma_win *rw)
{
    unsigned n = atomic_load_explicit(&rw->idle_flushes, memory_order_relaxed) + 1;
    if (n >= RMA_FLUSH_POLL) {
        atomic_store_explicit(&rw->idle_flushes, 0, memory_order_relaxed);
        return 1;
    }
    atomic_store_explicit(&rw->idle_flushes, n, memory_order_relaxed);
    return 0;
}

int rd_rma_lock_fast(MPI_Win w, int type, int t, int assert)
{
    struct rd_rma_win *rw = rma_of(w);
    if (rd_threaded || !rw || assert != 0 || (type != MPI_LOCK_SHARED && type != MPI_LOCK_EXCLUSIVE) ||
        (unsigned)t >= (unsigned)rw->size)
        return RD_RMA_SLOW;
    struct rma_peer *p = &rw->peers[t];
    if (p->lock || rw->lock_all || rw->start || !p->acc || p->path == RMA_PATH_AM || p->net)
        return RD_RMA_SLOW; /* (p->net: locks by the device's atomics, rdma.c) */
    /* (a failed try leaves the word as it was: the general call waits) */
    if (!rma_lockw_try(rma_lockw(p->acc), type))
        return RD_RMA_SLOW;
    /* as sync.c's take and rd_rma_lock */
    p->direct = 1;
    p->want = type;
    p->granted = 1;
    rw->fence = 0;
    p->lock = type;
    rw->nlocks++;
    return MPI_SUCCESS;
}

int rd_rma_unlock_fast(MPI_Win w, int t)
{
    struct rd_rma_win *rw = rma_of(w);
    if (rd_threaded || !rw || rw->err != MPI_SUCCESS || (unsigned)t >= (unsigned)rw->size)
        return RD_RMA_SLOW;
    struct rma_peer *p = &rw->peers[t];
    if (!p->lock || (p->lock > 0 && !p->direct) || p->pending || p->net || idle_poll(rw))
        return RD_RMA_SLOW;
    /* as sync.c's release: the word given back (a locked instruction: a
     * full fence for the epoch's stores), the target's handler kicked if
     * active-message origins wait */
    if (p->lock > 0) {
        rma_lockw_release(rma_lockw(p->acc), p->lock);
        p->direct = 0;
        p->unlocked = 1;
        if (atomic_load(rma_waitw(p->acc)))
            rma_post(p->world, RMA_KICK, &(struct rma_hdr){.win = p->id, .back = rw->id, .from = rw->rank}, NULL, 0);
    } else {
        rma_fence();
    }
    p->lock = 0;
    rw->nlocks--;
    return MPI_SUCCESS;
}

int rd_rma_flush_fast(MPI_Win w, int t)
{
    struct rd_rma_win *rw = rma_of(w);
    if (!rw || rw->err != MPI_SUCCESS)
        return RD_RMA_SLOW;
    if (t == RD_RMA_ALL) {
        if (!rw->lock_all && !rw->nlocks)
            return RD_RMA_SLOW;
        for (int r = 0; r < rw->size; r++)
            if (__atomic_load_n(&rw->peers[r].pending, __ATOMIC_RELAXED))
                return RD_RMA_SLOW;
    } else {
        if ((unsigned)t >= (unsigned)rw->size)
            return RD_RMA_SLOW;
        struct rma_peer *p = &rw->peers[t];
        if (!(rw->lock_all || p->lock))
            return RD_RMA_SLOW;
        if (__atomic_load_n(&p->pending, __ATOMIC_RELAXED)) {
            /* the network's transfers to it (the network's fast path,
             * single-threaded): their completions, waited for here */
            if (rd_threaded || !p->net)
                return RD_RMA_SLOW;
            long idle = 0;
            while (p->pending > 0)
                rd_wait_step(&idle);
            if (rw->err != MPI_SUCCESS)
                return RD_RMA_SLOW; /* (the general call raises it) */
            rma_fence();
            return MPI_SUCCESS;
        }
    }
    if (idle_poll(rw))
        return RD_RMA_SLOW;
    /* nothing in flight to it: the operations are done at the target once
     * this rank's stores are ordered before what it does next */
    rma_fence();
    return MPI_SUCCESS;
}

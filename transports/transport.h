/*
 * transport.h - the one contract between the point-to-point engine and the
 * transports (self and shm built in; verbs, ucx and ofi as plug-ins:
 * plugin.h).
 *
 * A transport is a table of operations (struct rd_transport) plus, once
 * opened, a description of what it can do (rd_tl_caps). The p2p engine
 * picks one transport per peer and drives every protocol through this
 * table: active messages carry eager data and protocol control; get/put
 * (RDMA read/write) carry rendezvous data when caps.rma is set. Transports
 * never see communicators, tags or datatypes.
 *
 * Life cycle, called by the p2p engine (runtime/p2p/engine.c) in this
 * order:
 *   open()      before the job's PMIx fence: create local resources and
 *               publish this rank's address with rd_job_put(); the engine
 *               says which peers it will ask this transport to carry
 *   activate()  after the fence (may be NULL): anything that needs every
 *               rank's published address to exist (e.g. attach segments);
 *               for the transports whose loader entry says so
 *               (runtime/p2p/tl_load.h: verbs) the job fences once more
 *   reachable() / connect()  lazily, on first use of a peer: the first
 *               transport that reaches it, in RDMPI_TRANSPORTS order
 *               (default: self, shm, then the one network transport
 *               opened), is connected (rd_job_get() its address)
 *   am_send() / get() / put() / ... / progress()
 *   busy()      in MPI_Finalize, until nothing is on its way out
 *   close()
 *
 * Threading: the engine serialises all calls into a transport.
 */
#ifndef RD_TRANSPORT_H
#define RD_TRANSPORT_H

#include <stddef.h>
#include <stdint.h>

#include "runtime/base/error.h"
#include "runtime/base/job.h"

/* An active message's header is at most this long. */
#define RD_AM_HDR_MAX 64

/* Or'ed into the id given to the handler for a message sent by
 * rndv_send(): its data has not moved yet. The handler's data argument is
 * then the transport's descriptor of it and len the data's length; the
 * receiver later fetches the data with rndv_recv() or declines it with
 * rndv_drop(), exactly once. */
#define RD_AM_RNDV 0x100u

struct rd_transport;
struct rd_node_mem;

/* What an open transport can do. */
typedef struct rd_tl_caps {
    size_t am_max;          /* largest hlen + len that one am_send carries */
    size_t eager_limit;     /* suggested largest eager message (bytes of data) */
    int rma;                /* get and put work (else the engine pipelines data through AMs) */
    int needs_reg;          /* get/put need mem_reg'd local memory and a remote key */
    size_t rkey_max;        /* largest packed remote key, in bytes */
    int own_rndv;           /* rndv_send/rndv_recv/rndv_drop work: the transport moves large
                             * messages with its own rendezvous protocol */
    unsigned latency_ns;    /* a cost model, set by each transport and read by nothing
                             * yet: the engine takes the first transport in
                             * RDMPI_TRANSPORTS order that reaches a peer */
    unsigned bandwidth_mbs;
    int atomics;            /* atomic() works: 64-bit fetch-and-add and compare-and-swap
                             * (verbs where the device has them, ucx with
                             * UCP_FEATURE_AMO64, ofi where the provider has
                             * FI_ATOMIC for both) */
    /* NULL, or a count the transport keeps of the work progress() has to
     * do: the engine polls it only while the count is not zero (self: the
     * messages this rank queued to itself; idle, it costs no call) */
    const size_t *backlog;
    /* NULL, or the node's memory this transport lends the collectives
     * (runtime/base/nodemem.h: shm, once activated; valid until close):
     * the engine hands it on, the transport writes nowhere else */
    const struct rd_node_mem *node_mem;
    /* a put's done() means only that its bytes have left, not that they
     * are placed (verbs on iWARP; rd_rma_op): one-sided Put does not go
     * by put() on it (runtime/rma) */
    int put_sent_only;
} rd_tl_caps;

/* An open transport. Backends embed it as their first member. */
typedef struct rd_tl {
    const struct rd_transport *ops;
    rd_tl_caps caps;
} rd_tl;

/* A connection to one peer (a world rank). Backends embed it first. */
typedef struct rd_ep {
    rd_tl *tl;
    int peer;
} rd_ep;

/* Registered memory; opaque to the engine. */
typedef struct rd_mr rd_mr;

/* An RDMA read or write. The engine owns the structure until done() runs.
 * done() may run inside get()/put() (synchronous transports) or later from
 * progress().
 *
 * What done() means (with RD_OK):
 *   get: the bytes are in op->local.
 *   put: complete at the target: the bytes are in the peer's memory,
 *        visible to its loads and to any later get, put or atomic of any
 *        rank; op->local may be reused. So one-sided synchronisation
 *        (flush, unlock, fence, complete) needs nothing but the done() of
 *        every put, and a rendezvous FIN sent after it never overtakes the
 *        data. Each transport pays for it differently:
 *          self, shm  the copy is made inside put()
 *          verbs      the RC write's completion, which comes with the
 *                     responder's acknowledgement (taken as placement,
 *                     as MPI implementations do) on InfiniBand and RoCE;
 *                     not on iWARP, where it means the bytes have left
 *                     (TCP took them): caps.put_sent_only is set, and
 *                     all that holds there is that a message sent after
 *                     done() is delivered after the bytes are placed
 *                     (what a rendezvous FIN needs); a 1-byte RDMA read
 *                     behind the writes did not make done() later than
 *                     placement on siw0
 *          ucx        the put's own callback is local only: ucx.c flushes
 *                     the endpoint (ucp_ep_flush_nbx) after it and runs
 *                     done() when the flush completes
 *          ofi        fi_writemsg with FI_DELIVERY_COMPLETE
 *        test/unit/tl_contract checks it on every transport: done() finds
 *        the bytes in the target's memory (with caps.put_sent_only: a
 *        message sent after done() finds them). */
typedef struct rd_rma_op {
    void *local;             /* local buffer */
    size_t len;
    rd_mr *lmr;              /* local registration, when caps.needs_reg */
    uint64_t remote_addr;    /* address in the peer's memory */
    const void *rkey;        /* the peer's packed key (from its mem_reg) */
    size_t rkey_len;
    void (*done)(struct rd_rma_op *op, rd_status st);
    void *arg;               /* for the engine */
} rd_rma_op;

/* A 64-bit atomic operation on the peer's memory (caps.atomics). The
 * remote word (remote_addr, 8-byte aligned, inside memory the peer
 * registered) gets operand added (FADD) or is replaced by operand if it
 * equals compare (CSWAP); either way its old value lands in *result,
 * which must lie in lmr (this rank's registration, 8-byte aligned). done()
 * runs as for RMA, once the operation took place at the target and
 * *result holds the old value. atomic() may also return RD_ERR_AGAIN (no
 * room now: progress and try again; verbs, ofi).
 *
 * Atomic with respect to the other atomic() calls of the same transport
 * on that word only, not to the target's own loads and stores nor to
 * get/put: the device does them (verbs, UCX on InfiniBand) or the
 * transport's software at the target does (UCX where no device atomics
 * reach that memory, as over TCP, or shared memory with memory UCX did
 * not allocate; libfabric's rxm and rxd: the target's
 * progress() runs them, so those need the target to progress, as active
 * messages do). Only 64-bit words: verbs has no other size. */
enum rd_atomic_kind { RD_ATOMIC_FADD = 1, RD_ATOMIC_CSWAP = 2 };
typedef struct rd_atomic_op {
    int kind;
    uint64_t operand;
    uint64_t compare;
    uint64_t *result;
    rd_mr *lmr;
    uint64_t remote_addr;
    const void *rkey;
    size_t rkey_len;
    void (*done)(struct rd_atomic_op *op, rd_status st);
    void *arg;
} rd_atomic_op;

/* Called from progress() for every arriving active message, in the order
 * the peer sent them. hdr and data are valid only during the call. src is
 * the sender's world rank. hdr is 8-byte aligned (the engine reads its
 * headers in place); data may lie at any address. */
typedef void (*rd_am_handler)(void *arg, int src, unsigned id, const void *hdr, size_t hlen,
                              const void *data, size_t len);

struct rd_transport {
    size_t size; /* sizeof(struct rd_transport) the backend was built with */
    const char *name;

    /* Open for this job; publish the address. Returns RD_ERR_UNSUPPORTED
     * when the transport cannot run here (no device, ...). peers: NULL (every
     * peer it reaches), or job->size bytes, non-zero for the world ranks the
     * engine will ask this transport to carry: those it may reach that no
     * transport opened before it in the engine's order carries (shm takes
     * the node's ranks unless RDMPI_TRANSPORTS puts another first). A
     * transport that sets up per-peer resources at open (verbs' QPs over
     * PMIx) sets up those only; the others may ignore it. Valid during the
     * call only. */
    rd_status (*open)(const struct rd_job *job, const unsigned char *peers, rd_am_handler handler,
                      void *handler_arg, rd_tl **tl);
    rd_status (*activate)(rd_tl *tl);
    /* Whether this transport can reach peer at all (shm: same node). */
    int (*reachable)(rd_tl *tl, int peer);
    /* A network transport may also be asked (runtime/p2p/net.h, for the
     * one-sided floor's device atomics) to connect this rank itself, a
     * loopback that reachable() need not announce (the engine never asks
     * for it: self carries a rank's own messages); an error where it
     * cannot (verbs on iWARP). */
    rd_status (*connect)(rd_tl *tl, int peer, rd_ep **ep);

    /* Send an active message: hdr (hlen <= RD_AM_HDR_MAX) then data.
     * Both buffers are reusable when it returns RD_OK. RD_ERR_AGAIN: no
     * room now, call progress() and try again. */
    rd_status (*am_send)(rd_ep *ep, unsigned id, const void *hdr, size_t hlen, const void *data,
                         size_t len);

    /* Memory registration for get/put; rkey receives the packed key
     * (at most caps.rkey_max bytes), *rkey_len its length. */
    rd_status (*mem_reg)(rd_tl *tl, void *addr, size_t len, rd_mr **mr, void *rkey,
                         size_t *rkey_len);
    void (*mem_dereg)(rd_tl *tl, rd_mr *mr);

    /* RDMA read (remote -> local) and write (local -> remote); a write's
     * done() means complete at the target (rd_rma_op). */
    rd_status (*get)(rd_ep *ep, rd_rma_op *op);
    rd_status (*put)(rd_ep *ep, rd_rma_op *op);

    /* The transport's own rendezvous (caps.own_rndv), for large messages
     * on wires where it knows best how to move them (UCX picks RDMA or
     * pipelined copies by the lanes it has). rndv_send announces
     * op->local/op->len with an active message (hdr as for am_send); the
     * receiver's handler sees id | RD_AM_RNDV. op->done() runs once the
     * data has been delivered to the buffer the receiver gave rndv_recv
     * (or the receiver dropped it): only after the receiver asked for it,
     * so a synchronous send may complete on it. rndv_recv fetches all
     * op->len (= the announced length) bytes into op->local and runs
     * op->done() when they are there. */
    rd_status (*rndv_send)(rd_ep *ep, unsigned id, const void *hdr, size_t hlen, rd_rma_op *op);
    rd_status (*rndv_recv)(rd_tl *tl, void *desc, rd_rma_op *op);
    void (*rndv_drop)(rd_tl *tl, void *desc);

    /* Poll: deliver arrived messages, complete operations. Returns the
     * number of events handled (0: nothing happened). */
    int (*progress)(rd_tl *tl);

    void (*close)(rd_tl *tl);

    /* Whether work this rank started is still on its way out (an active
     * message the transport copied and queued, an RMA operation): MPI_Finalize
     * progresses until it is not, before the closing fence. NULL: never. */
    int (*busy)(rd_tl *tl);

    /* A network transport (verbs, ucx, ofi): opened only when
     * RDMPI_TRANSPORTS names it, or when some rank lives on another node,
     * and then (unnamed) only the first that opens. (Whether to load one
     * at all is decided before loading, from runtime/p2p/tl_load.h's
     * entry; this flag of the open transport stops the others.) */
    int network;

    /* Remote atomics (caps.atomics; NULL: none). Returns as get/put do. */
    rd_status (*atomic)(rd_ep *ep, rd_atomic_op *op);

    /* Not read: whether the job fences once more after activate(), so
     * that no rank sends before all have activated (verbs: a QP drops
     * packets until it is ready to receive), must be the same on every
     * rank whatever opened there, so the engine takes it from the
     * loader's entry (runtime/p2p/tl_load.h, rd_tl_entry.activate_fence),
     * known before any plug-in is loaded. Kept so the table's layout, and
     * with it RD_TL_PLUGIN_ABI, stay as they are. */
    int activate_fence;
};

/* The backends: self and shm are built into the library; the others are
 * each their plug-in's table (transports/plugin.h). */
extern const struct rd_transport rd_transport_self;
extern const struct rd_transport rd_transport_shm;
#ifdef RD_HAVE_UCX
extern const struct rd_transport rd_transport_ucx;
#endif
#ifdef RD_HAVE_OFI
extern const struct rd_transport rd_transport_ofi;
#endif
#ifdef RD_HAVE_VERBS
extern const struct rd_transport rd_transport_verbs;
#endif

#endif

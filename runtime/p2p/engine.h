/* engine.h - what the files of the point-to-point engine share (private to
 * runtime/p2p; the engine's callers use p2p.h).
 *
 * The engine, one job per file:
 *   peers.c     a peer's transport and its protocol table (struct rd_proto),
 *               chosen once when the peer is connected
 *   match.c     arrivals in sequence order, posted and unexpected queues,
 *               matching, eager delivery, the receive side of the API
 *   rndv.c      rendezvous (get, put, split, pipeline, the transport's
 *               own) on both sides, and the control messages (ACK, CTS,
 *               FIN, FRAG)
 *   progress.c  the peers' FIFOs of pending work, completion, rd_progress
 *   engine.c    the send entry points, set-up and close
 *
 * Work that must send something (acknowledgements, CTS, FIN, fragments, and
 * any send a transport had no room for) goes into the peer's FIFO of
 * pending work, flushed at the end of each progress call; active-message
 * handlers never call back into a transport. */
#ifndef RD_P2P_ENGINE_H
#define RD_P2P_ENGINE_H

#include <stddef.h>
#include <stdint.h>

#include "runtime/base/pvar.h"
#include "runtime/objects/comm.h"
#include "runtime/p2p/p2p.h"
#include "runtime/p2p/wire.h"

#define RD_MSG_MAGIC 0x4d736721u

/* An arrived message nobody has asked for yet; also what MPI_Message is. */
struct rd_message_s {
    uint32_t magic;
    struct rd_message_s *next;
    _Atomic int32_t fidx; /* its Fortran handle's index, 0: none (objects/fhandle.h) */
    uint32_t ctx;
    int src, tag, wsrc;
    unsigned id;       /* RD_AM_EAGER, RD_AM_EAGER_SYNC or RD_AM_RTS */
    uint32_t proto;
    uint32_t seq;      /* only for the out-of-order stash */
    size_t len;        /* message bytes */
    uint64_t sreq, addr;
    size_t data_len;   /* eager payload, or the RTS's rkey */
    unsigned char data[];
};

/* A context's queues. Normally one pair (this struct's); on a
 * communicator whose hints rule out a wildcard (mpi_assert_no_any_source,
 * mpi_assert_no_any_tag: rd_p2p_ctx_hints), RD_LANES pairs in `lanes`,
 * chosen by a hash of the fields no receive leaves open (source, tag or
 * both), so that matching looks only at the messages and receives that
 * can match (rd_ctx_lane). FIFO within a lane keeps MPI's order: two that
 * can match each other are always in the same lane. */
#define RD_LANES 64
struct rd_ctxq {
    struct rd_request_s *posted_head, *posted_tail;
    struct rd_message_s *unexp_head, *unexp_tail;
    struct rd_ctxq *lanes; /* RD_LANES of them (their own lanes unused), or NULL */
    uint8_t by_src, by_tag;
};

static inline struct rd_ctxq *rd_ctx_lane(struct rd_ctxq *q, int src, int tag)
{
    if (__builtin_expect(!q->lanes, 1))
        return q;
    uint32_t h = (q->by_src ? (uint32_t)src * 0x9E3779B1u : 0u) ^ (q->by_tag ? (uint32_t)tag * 0x85EBCA77u : 0u);
    return &q->lanes[(h ^ (h >> 15)) & (RD_LANES - 1)];
}

enum rd_pend_kind {
    PEND_CTRL, PEND_MSG, PEND_FRAGS, PEND_GET, PEND_PUT,
    PEND_TL_SEND, /* the transport's own rendezvous: announce the data (hdr) */
    PEND_TL_RECV, /* ... and fetch it (the descriptor in req->remote) */
    PEND_TL_DROP  /* ... or decline it (the descriptor in data) */
};

struct rd_pend {
    struct rd_pend *next;
    int kind;
    unsigned id;
    size_t hlen;
    unsigned char hdr[RD_AM_HDR_MAX];
    const void *data;  /* PEND_CTRL: points into own_data; PEND_MSG: the payload */
    size_t len;
    void *own_data;
    struct rd_request_s *req;
};

/* One peer's protocols, chosen once when its transport is connected
 * (peers.c: RDMPI_EAGER_LIMIT, RDMPI_RNDV_PROTOCOL, RDMPI_RNDV_SPLIT_MIN
 * and the transport's capabilities folded in), printed once
 * (RDMPI_LOG=debug:p2p), and read by every path: the send path by
 * rd_proto_rndv(), the receiver by rd_proto_answer(). Values of the
 * rendezvous fields: enum rd_rndv_proto. */
struct rd_proto {
    uint64_t split_min;   /* contiguous rendezvous: `large` from this size, `small` below */
    uint32_t eager_limit; /* messages up to this many bytes go eagerly (below am_max) */
    uint8_t small, large;
    uint8_t exchange;     /* contiguous sends flagged RD_SEND_EXCHANGE, any size */
    uint8_t tl;           /* the transport, as MPI_T counts it (RD_PV_TL_*) */
};
_Static_assert(RD_RNDV_GET + 1 == RD_PV_GET && RD_RNDV_PUT + 1 == RD_PV_PUT &&
                   RD_RNDV_PIPELINE + 1 == RD_PV_PIPELINE && RD_RNDV_SPLIT + 1 == RD_PV_SPLIT &&
                   RD_RNDV_TRANSPORT + 1 == RD_PV_TRANSPORT,
               "MPI_T's protocols are eager, then the rendezvous ones in order");

/* The rendezvous protocol of a send of `bytes` (> eager_limit) with the
 * request's flags; non-contiguous data streams in fragments packed
 * straight from the user's buffer (no packed copy of the message). */
static inline int rd_proto_rndv(const struct rd_proto *t, size_t bytes, unsigned flags, int contig)
{
    if (!contig)
        return RD_RNDV_PIPELINE;
    if (flags & RD_SEND_EXCHANGE)
        return t->exchange;
    return bytes >= t->split_min ? t->large : t->small;
}

/* What a receive runs for a rendezvous the sender offered (its RTS names
 * the protocol): that protocol, except that a non-contiguous receive asks
 * for fragments (pipeline), each unpacked in place at its offset. */
static inline int rd_proto_answer(int offered, int contig)
{
    return offered == RD_RNDV_TRANSPORT || contig ? offered : RD_RNDV_PIPELINE;
}

/* 64 bytes: the fast path indexes the peers with a shift (the table's
 * fields are sized for that). */
struct rd_peer {
    rd_ep *ep;
    uint32_t send_seq, recv_seq;
    struct rd_pend *pend_head, *pend_tail;
    struct rd_message_s *ooo; /* arrived ahead of sequence, sorted */
    struct rd_proto proto;    /* set with ep */
    int listed;               /* in the flush list */
};
_Static_assert(sizeof(struct rd_peer) == 64 || sizeof(void *) != 8, "struct rd_peer changed size");

#define RD_MAX_TLS 8

/* The engine's state (engine.c defines it; hidden, so that every file
 * reaches it directly, as a static would be, not through the GOT). */
struct rd_engine {
    rd_tl *tls[RD_MAX_TLS];
    int ntls;
    struct rd_peer *peers;
    int *flush_list;
    int nflush;
    struct rd_ctxq **ctxq;
    uint32_t nctx;
    void *scratch;      /* packing area for fragments and eager sends */
    size_t scratch_len;
    int in_handler;
    struct {            /* rd_p2p_send_fast's last miss (p2p.h) */
        struct rd_peer *peer;
        int wpeer;
        int eager;      /* the message fits the peer's eager limit */
        size_t bytes;
    } miss;
};
extern struct rd_engine rd_eng __attribute__((visibility("hidden")));

/* ------------------------------------------------------------ peers.c */

/* Connect world rank w over the first transport that reaches it and
 * choose its protocols. */
rd_status rd_eng_connect(int w);

static inline struct rd_peer *rd_eng_peer(int w, rd_status *st)
{
    struct rd_peer *p = &rd_eng.peers[w];
    *st = p->ep ? RD_OK : rd_eng_connect(w);
    return p;
}

/* ------------------------------------------------------------ match.c */

/* The handler every transport calls for an arriving active message. */
void rd_eng_am_handler(void *arg, int src, unsigned id, const void *hdr, size_t hlen,
                       const void *data, size_t len);
/* Free the engine's unexpected messages and out-of-order stashes (at
 * close), first handing back data that transports still hold. */
void rd_eng_release_held(void);
void rd_eng_free_messages(void);

/* ------------------------------------------------------------ rndv.c */

/* Sender: start the rendezvous of req (bytes > the eager limit): send its
 * RTS, or queue it behind what waits for peer p. */
rd_status rd_eng_rndv_start(struct rd_request_s *req, struct rd_peer *p);
/* Receiver: the matched receive req takes the rendezvous message m. */
rd_status rd_eng_rndv_deliver(struct rd_request_s *req, const struct rd_message_s *m, const void *data,
                              size_t data_len);
/* ACK, CTS, FIN, FRAG from wsrc. */
void rd_eng_control(int wsrc, unsigned id, const struct rd_wire_ctrl *c, const void *data, size_t len);
/* Completions of RMA and of the transport's own rendezvous. */
void rd_eng_rma_done(rd_rma_op *op, rd_status st);
void rd_eng_tl_rndv_done(rd_rma_op *op, rd_status st);
/* Pipeline: stream req's fragments (RD_ERR_AGAIN: resume later). */
rd_status rd_eng_send_frags(rd_ep *ep, struct rd_request_s *req);

/* ------------------------------------------------------------ progress.c */

static inline void rd_eng_list_peer(int w)
{
    if (!rd_eng.peers[w].listed) {
        rd_eng.peers[w].listed = 1;
        rd_eng.flush_list[rd_eng.nflush++] = w;
    }
}

static inline void rd_eng_pend_push(int w, struct rd_pend *pd)
{
    struct rd_peer *p = &rd_eng.peers[w];
    pd->next = NULL;
    if (p->pend_tail)
        p->pend_tail->next = pd;
    else
        p->pend_head = pd;
    p->pend_tail = pd;
    rd_eng_list_peer(w);
}

/* Queue a control message (a copy of c and of len bytes of data). */
rd_status rd_eng_queue_ctrl(int w, unsigned id, const struct rd_wire_ctrl *c, const void *data, size_t len);
/* Queue work of kind on req. */
rd_status rd_eng_queue_req(int w, int kind, struct rd_request_s *req);
/* Queue a copy of pd (built on the stack). */
rd_status rd_eng_pend_copy(int w, const struct rd_pend *pd);
/* Run what is queued for every listed peer; returns the items done. */
int rd_eng_flush_all(void);
/* A request's last event: release what it holds, then complete it. */
void rd_eng_finish_send(struct rd_request_s *req);
void rd_eng_finish_recv(struct rd_request_s *req);

#endif

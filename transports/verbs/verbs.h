/*
 * verbs.h - the verbs transport's pieces and how they fit (internal).
 *
 *   verbs.c         the ops table: open, activate, reachable, connect, close
 *   verbs_dev.c     which device and port, which GID; device capabilities
 *   verbs_wire.c    RC queue pairs and their wire-up: through PMIx (IB, RoCE)
 *                   or through librdmacm (iWARP, or asked for), lazily
 *   verbs_data.c    the data path: eager active messages through a shared
 *                   receive queue with credits, RDMA read/write, atomics,
 *                   completions and errors; its set-up and progress here,
 *                   the rest in verbs_buf.c, verbs_sq.c, verbs_am.c,
 *                   verbs_rma.c and verbs_report.c (verbs_data.h)
 *   verbs_rcache.c  the registration cache (verbs_rcache.h)
 *
 * transports/README.md ("How verbs works") explains the design and lists
 * the parameters.
 */
#ifndef RD_VERBS_H
#define RD_VERBS_H

#include <infiniband/verbs.h>
#include <netinet/in.h>
#include <rdma/rdma_cma.h>
#include <stdint.h>

#include "transports/transport.h"
#include "transports/verbs/verbs_rcache.h"

#define VB_KEY "rdmpi.verbs"
#define VB_MAGIC 0x76624d31u /* "vbM1": wire-up data and connection requests */

/* ------------------------------------------------------------ device */

/* A candidate (device, port) for device selection. */
struct vb_cand {
    char name[64];
    int port;
    int kind; /* VB_KIND_*: only devices of the best kind present are used */
    int near; /* the device is close to the cores this rank runs on */
};
enum { VB_KIND_IWARP = 1, VB_KIND_ROCE = 2, VB_KIND_IB = 3 };

/* A GID table entry, for choosing the GID index. */
enum { VB_GID_IB = 0, VB_GID_ROCE_V1 = 1, VB_GID_ROCE_V2 = 2 };
struct vb_gid_ent {
    int index;
    int type;
    uint8_t raw[16];
};

typedef struct vb_dev {
    struct ibv_context *ctx;
    int own_ctx; /* opened by us (else borrowed from librdmacm) */
    char name[64];
    uint8_t port;
    struct ibv_device_attr attr;
    struct ibv_port_attr port_attr;
    int iwarp;    /* iWARP: connections only through rdma_cm */
    int kernel_tx; /* soft-iWARP (siw): ibv_post_send may send on the kernel's TCP
                    * socket in the caller's context, which raises SIGPIPE in
                    * the caller when the peer has gone (vb_post_send) */
    int ethernet; /* RoCE: addressed by GID, always with a GRH */
    int gid_index;
    union ibv_gid gid;
} vb_dev;

/* Parse "name[:port]"; returns 0, or -1 when malformed. port 0: any. */
int vb_dev_parse_spec(const char *spec, char *name, size_t nlen, int *port);
/* Among candidates of the best kind (InfiniBand, then RoCE, then iWARP:
 * ranks must share a fabric), those near the rank's cores if any, spread
 * over by local rank. Returns the index, -1 for none. */
int vb_dev_pick(const struct vb_cand *c, int n, int local_rank);
/* The GID index to use: RoCE v2 with an IPv4 address first, then RoCE v2
 * with a global IPv6 address, then any RoCE v2, then the rest; -1: none. */
int vb_gid_pick(const struct vb_gid_ent *e, int n);

/* The vendor id soft-iWARP (Linux's siw driver) gives its devices ("bmt"). */
#define VB_SIW_VENDOR_ID 0x626d74
/* ibv_post_send on a device whose kernel driver may send in the caller's
 * context (kernel_tx): a SIGPIPE that the post raises in this thread is
 * taken back (blocked around the call and consumed if it was not already
 * pending), so that a peer gone away is seen as the completion error it
 * also gives, not as a signal the program never asked for. */
int vb_post_send_nosigpipe(struct ibv_qp *qp, struct ibv_send_wr *wr, struct ibv_send_wr **bad);

/* Choose and open the device (from librdmacm's list when use_cm). */
rd_status vb_dev_open(vb_dev *dev, int use_cm, int local_rank);
void vb_dev_close(vb_dev *dev);

/* ------------------------------------------------------------ peers */

enum vb_ep_state {
    VB_EP_INIT = 0,   /* QP made, not connected yet (pmix: before activate) */
    VB_EP_CONNECTING, /* rdma_cm: address/route/connect in progress */
    VB_EP_READY,
    VB_EP_FAILED,
    VB_EP_WAIT_FIRST, /* iWARP, the side that accepted: connected, but it may not
                      * send before the peer's first message has arrived */
};

/* What one send-queue slot holds until its completion is seen. */
struct vb_sqe {
    struct vb_sbuf *sbuf;  /* send buffer to give back */
    struct vb_rma *rma;    /* the last chunk of an RDMA operation */
    struct vb_atomic *atom;
    uint8_t op;            /* VB_OP_*: what was posted (for errors and reports) */
    uint8_t sig;           /* posted with IBV_SEND_SIGNALED */
    uint8_t done;          /* complete, given back once every slot before it is */
};
enum { VB_OP_SEND = 0, VB_OP_READ, VB_OP_WRITE, VB_OP_CREDIT, VB_OP_ATOMIC, VB_OP_N };

typedef struct vb_ep {
    rd_ep base;
    struct ibv_qp *qp;
    int state;
    /* send queue: slots [sq_tail, sq_head) are posted and not given back
     * (some may be done: a slot goes back once it and all before it are) */
    uint32_t sq_head, sq_tail;
    uint32_t unsignalled; /* posted without a completion since the last signalled one */
    uint32_t sig_out;     /* signalled work requests not completed yet */
    struct vb_sqe *sq;
    /* credits (counts of eager messages, wrapping) */
    uint32_t sent;              /* messages we posted to the peer */
    uint32_t peer_consumed;     /* of those, how many the peer has taken from its SRQ */
    uint32_t consumed;          /* messages from the peer we have handled */
    uint32_t consumed_reported; /* the last count we told the peer */
    int owes;                   /* on the list of peers to return credits to */
    uint64_t remote_cw;         /* where our count goes in the peer's memory */
    uint32_t remote_cw_rkey;
    /* RDMA operations waiting for send-queue room */
    struct vb_rma *rma_head, *rma_tail;
    int rma_listed;
    struct ibv_qp *lost_qp; /* RDMPI_VERBS_FAULT=lost_peer: the QP set aside */
    /* iWARP's first messages (vb_hello_start) */
    int heard;              /* a message from the peer has arrived */
    int hello_owed;         /* a hello is to go (any message will do) */
    int hello_wait;         /* the side that connected: hello again until heard */
    unsigned hello_gap_ms;  /* ... after this long (doubling) */
    uint64_t hello_next_ms; /* ... at this time (CLOCK_MONOTONIC) */
    /* rdma_cm */
    struct rdma_cm_id *cm_id;  /* the connection in use */
    struct rdma_cm_id *cm_out; /* our own attempt while it is pending */
} vb_ep;

/* One registered block of eager buffers (receive or send). */
typedef struct vb_chunk {
    struct vb_chunk *next;
    struct ibv_mr *mr;
    unsigned char *mem;
    void *descs;
} vb_chunk;

struct vb_rbuf {
    unsigned char *buf;
    uint32_t lkey;
};

struct vb_sbuf {
    struct vb_sbuf *next;
    unsigned char *buf;
    uint32_t lkey;
};

/* An RDMA read or write in progress (chunks of at most max_msg_sz). */
struct vb_rma {
    struct vb_rma *next;
    rd_rma_op *op;
    size_t off; /* bytes posted so far */
    int is_put;
    uint32_t rkey_xor; /* RDMPI_VERBS_FAULT=bad_rkey */
};

struct vb_atomic {
    struct vb_atomic *next;
    rd_atomic_op *op;
};

/* On the wire before the engine's header (16 bytes, so that the engine's
 * header, whose fields are 8-byte aligned, lands aligned in the buffer).
 * flags VB_HDR_HELLO: no message for the engine (iWARP's first messages,
 * see vb_hello_start). */
#define VB_HDR_HELLO 1
struct vb_hdr {
    uint32_t src;     /* sender's world rank */
    uint32_t credits; /* how many of the receiver's messages the sender has handled */
    uint16_t id;      /* the engine's message id */
    uint8_t hlen;     /* the engine's header length */
    uint8_t flags;
    uint32_t pad;
};

/* What each rank publishes under VB_KEY; in pmix mode followed by one QP
 * number per world rank (0: no QP for that rank). */
struct vb_addr {
    uint32_t magic;
    uint8_t cm;  /* VB_CM_* */
    uint8_t mtu; /* enum ibv_mtu */
    uint16_t lid;
    uint8_t gid[16];
    uint32_t psn;
    uint32_t cw_rkey; /* credit words: peers write their counts here */
    uint64_t cw_addr;
    uint32_t ip; /* rdma_cm: the listening address (network order) */
    uint16_t port;
    uint16_t nqpn;
    uint32_t size; /* number of QP numbers that follow */
};

/* rdma_cm private data of a connection request / accept. */
struct vb_cm_priv {
    uint32_t magic;
    int32_t rank;
};

enum { VB_CM_PMIX = 0, VB_CM_RDMACM = 1 };
enum { VB_FAULT_NONE = 0, VB_FAULT_QP_ERROR, VB_FAULT_BAD_RKEY, VB_FAULT_LOST_PEER };

typedef struct vb_tl {
    rd_tl base;
    rd_am_handler handler;
    void *harg;
    int rank, size, local_rank;
    vb_dev dev;
    struct ibv_pd *pd;
    struct ibv_cq *scq, *rcq;
    struct ibv_srq *srq;
    int cm;
    unsigned char *serves; /* per world rank: verbs is this rank's way to it */
    vb_ep **eps;           /* per world rank, NULL until needed */
    int neps;
    uint32_t psn;
    /* eager buffers */
    size_t buf_size;
    uint32_t credits;
    uint32_t max_inline;
    uint32_t sq_depth, sig_every;
    vb_chunk *rchunks, *schunks;
    uint32_t srq_posted, srq_max;
    struct vb_sbuf *sfree;
    uint32_t nsbuf, sbuf_max;
    struct ibv_recv_wr *rwr; /* repost batch */
    struct ibv_sge *rsge;
    /* credit words: [0, size) written by peers, [size, 2 size) what we write */
    uint32_t *cw;
    struct ibv_mr *cw_mr;
    /* completions */
    uint32_t scq_size, scq_out; /* signalled sends not completed yet */
    uint32_t sq_out;            /* work requests posted, not known complete */
    int nowe;
    vb_ep **owe;
    int nrma_wait;
    vb_ep **rma_wait;
    struct vb_rma *rma_free;
    struct vb_atomic *atom_free;
    long inflight; /* RDMA operations and atomics not done */
    unsigned sq_tick; /* progress calls since the send queue was last polled */
    uint64_t max_msg;
    vb_rcache *rcache;
    unsigned tick;
    int fault; /* RDMPI_VERBS_FAULT on this rank: VB_FAULT_* (tests only) */
    /* rdma_cm */
    struct rdma_event_channel *ch;
    struct rdma_cm_id *listen;
    struct sockaddr_in laddr;
    int nconnecting;
    int nhello; /* endpoints with hello_owed or hello_wait */
    int cm_quiet; /* no rdma_cm address is not an error: auto falls back to PMIx */
    struct rdma_cm_id **dead_ids; /* rejected attempts, destroyed outside event handling */
    int ndead, dead_cap;
    /* What the data path asks of the wire-up, which sits above it (the
     * wire-up calls the data path, never the reverse): rdma_cm events,
     * from progress; and RDMPI_VERBS_FAULT=lost_peer's lost QP. Set by
     * vb_wire_plan. */
    int (*cm_progress)(struct vb_tl *tl);
    rd_status (*lose_qp)(struct vb_tl *tl, struct vb_ep *ep);
} vb_tl;

/* ------------------------------------------------------------ wire-up (verbs_wire.c) */

/* Decide which world ranks verbs serves (before vb_data_open): those the
 * engine gives it (peers; NULL: every other rank). */
rd_status vb_wire_plan(vb_tl *tl, const unsigned char *peers);
/* Whether verbs is the way to world rank r (pmix: the ranks that get a QP). */
int vb_wire_serves(const vb_tl *tl, int r);
rd_status vb_wire_open(vb_tl *tl);
rd_status vb_wire_activate(vb_tl *tl);
rd_status vb_wire_connect(vb_tl *tl, int peer, vb_ep **out);
void vb_wire_close(vb_tl *tl);
/* A QP's attributes at creation (both modes). */
void vb_wire_qp_init_attr(vb_tl *tl, struct ibv_qp_init_attr *a);
/* Make the endpoint structure (and grow the SRQ for it). */
rd_status vb_ep_new(vb_tl *tl, int peer, vb_ep **out);
void vb_ep_free(vb_tl *tl, vb_ep *ep);

/* ------------------------------------------------------------ data path (verbs_data.h lists its files) */

rd_status vb_data_open(vb_tl *tl);
void vb_data_close(vb_tl *tl);
/* Post credits more receive buffers for a new peer. */
rd_status vb_srq_grow(vb_tl *tl);
rd_status vb_am_send(rd_ep *ep, unsigned id, const void *hdr, size_t hlen, const void *data,
                     size_t len);
/* iWARP's first messages on a new connection (verbs_wire.c's cm_ready
 * says why). repeat = 1, the side that connected: a hello now and again,
 * less and less often, until a message from the peer has arrived (siw
 * leaves a message that lands before the accepting side's socket is handed
 * to its QP in the socket until more data comes). repeat = 0, the side
 * that accepted, once it has heard: one hello back. A hello that cannot go
 * yet is retried from progress; any other message counts as one. */
void vb_hello_start(vb_tl *tl, vb_ep *ep, int repeat);
rd_status vb_mem_reg(rd_tl *tl, void *addr, size_t len, rd_mr **mr, void *rkey, size_t *rkey_len);
void vb_mem_dereg(rd_tl *tl, rd_mr *mr);
rd_status vb_get(rd_ep *ep, rd_rma_op *op);
rd_status vb_put(rd_ep *ep, rd_rma_op *op);
rd_status vb_atomic(rd_ep *ep, rd_atomic_op *op);
int vb_progress(rd_tl *tl);
int vb_busy(rd_tl *tl);
/* The transport's state for a hung job's report (runtime/base/report.h): one
 * line for the transport, one per endpoint. */
struct rd_report_buf;
void vb_report(vb_tl *tl, struct rd_report_buf *b);
/* Report a fatal error on the connection to peer and end the job. */
_Noreturn void vb_fatal(vb_tl *tl, int peer, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

#endif

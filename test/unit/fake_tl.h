/* fake_tl.h - a fake transport for unit tests of the p2p engine and the
 * collectives' schedules, in one process.
 *
 * The engine runs as rank 0 of a world of n ranks; every other rank is
 * played by the test. The "fake" transport (transports/transport.h's
 * contract) reaches ranks 1..n-1 (self serves rank 0) and:
 *  - records everything the engine asks of it, in order: active messages
 *    (id, header bytes, payload copy), get, put, the transport's own
 *    rendezvous (rndv_send/recv/drop); the test reads the records with
 *    fake_next() and checks them;
 *  - delivers what the test injects (fake_inject*), in injection order,
 *    from its progress() only, as a real transport would;
 *  - completes an RMA operation inside get()/put() (fake.rma_inline, as
 *    self and shm do) or when the test says so (fake_rma_finish: the copy
 *    is made then and done() runs from the next progress()). The peer's
 *    memory is the test's own: an RTS's address or a CTS's address is a
 *    pointer into a buffer of the test, so a get copies from it and a put
 *    writes into it;
 *  - says RD_ERR_AGAIN when the test has limited its room (fake.am_room).
 *
 * The capabilities (am_max, eager_limit, rma, needs_reg, own_rndv) are the
 * test's to set before fake_engine_up(). The job service (rd_job_*) is
 * stubbed here, and the engine finds "self" and "fake" through a registry
 * of built-in transports that takes the place of runtime/p2p/tl_load.c
 * (which would dlopen the network plug-ins). */
#ifndef RD_TEST_FAKE_TL_H
#define RD_TEST_FAKE_TL_H

#include <stddef.h>
#include <stdint.h>

#include "runtime/p2p/wire.h"
#include "transports/transport.h"

enum fake_kind {
    FAKE_AM = 1,     /* am_send */
    FAKE_GET,        /* get (RDMA read) */
    FAKE_PUT,        /* put (RDMA write) */
    FAKE_RNDV_SEND,  /* rndv_send (the transport's own rendezvous) */
    FAKE_RNDV_RECV,  /* rndv_recv */
    FAKE_RNDV_DROP,  /* rndv_drop */
};

/* One thing the engine asked of the transport. */
struct fake_rec {
    struct fake_rec *next;
    int kind;
    int peer;                 /* world rank (DROP/RECV: the descriptor's peer) */
    unsigned id;              /* AM, RNDV_SEND: the message id */
    size_t hlen;
    _Alignas(8) unsigned char hdr[RD_AM_HDR_MAX];
    unsigned char *data;      /* AM: a copy of the payload (len bytes) */
    size_t len;               /* AM: payload bytes; RMA: op->len */
    rd_rma_op *op;            /* GET, PUT, RNDV_SEND, RNDV_RECV: the engine's operation */
    void *local;              /* RMA: op->local, op->remote_addr, the key when the call was made */
    uint64_t remote_addr;
    unsigned char rkey[16];
    size_t rkey_len;
    void *desc;               /* RNDV_RECV, RNDV_DROP: the descriptor */
    int finished;             /* RMA: fake_rma_finish was called */
    rd_status status;
};

struct fake_state {
    rd_tl_caps caps;          /* set before fake_engine_up (fake_defaults) */
    int rma_inline;           /* get/put copy and call done() inside the call */
    long am_room;             /* am_sends accepted before RD_ERR_AGAIN (-1: no limit) */
    int regs, deregs;         /* mem_reg/mem_dereg calls (needs_reg) */
    int opens, closes;
    int progress_calls;
    int fences, commits;      /* the stubbed job service */
    int in_handler;           /* the engine's handler is running */
    int reentered;            /* calls that send or move data made from inside the handler
                               * (the engine must queue them: runtime/p2p/README.md, "Re-entrancy") */
    uint32_t inj_seq[64];     /* next sequence number of an injected matching message, per rank */
};
extern struct fake_state fake;

/* The defaults: am_max 8192, eager_limit 1024, rma, no registration, no
 * own rendezvous, rma_inline 1, am_room -1. */
void fake_defaults(void);

/* Bring the engine up as rank 0 of nranks (< 64) with fake's settings:
 * the job facts, MPI_COMM_WORLD and MPI_COMM_SELF, the parameters
 * (RDMPI_RNDV_PROTOCOL from proto, eager limit from caps), rd_p2p_init.
 * fake_engine_down checks that nothing is left (records, injections,
 * pending RMA) and closes the engine; returns the number of leftovers. */
void fake_engine_up(int nranks, long rndv_protocol);
int fake_engine_down(void);

/* The oldest record not yet taken (NULL: none); the caller frees it with
 * fake_rec_free. fake_pending() counts the records waiting. */
struct fake_rec *fake_next(void);
int fake_pending(void);
void fake_rec_free(struct fake_rec *r);
/* Drop every record (and finish their RMA) after a check that failed. */
void fake_flush(void);

/* Run progress until it reports nothing more to do (at most 100 calls);
 * returns the calls that did something. */
int fake_progress(void);

/* What a peer sends: queued, delivered in order by the next progress().
 * fake_inject copies hdr and data. */
void fake_inject(int from, unsigned id, const void *hdr, size_t hlen, const void *data, size_t len);
/* A matching message from world rank `from` (as rank src of ctx), with
 * the next sequence number of that peer (fake.inj_seq[from]++). */
void fake_inject_eager(int from, uint32_t ctx, int src, int tag, const void *data, size_t len);
void fake_inject_sync(int from, uint32_t ctx, int src, int tag, uint64_t sreq, const void *data,
                      size_t len);
void fake_inject_rts(int from, uint32_t ctx, int src, int tag, uint64_t len, uint64_t sreq,
                     uint64_t addr, uint32_t proto, const void *key, size_t klen);
/* A control message (ACK, CTS, FIN, FRAG). */
void fake_inject_ctrl(int from, unsigned id, uint64_t req, uint64_t other, uint64_t addr,
                      uint64_t len, const void *data, size_t dlen);
/* The transport's own rendezvous: the announcement of len bytes at src
 * (its descriptor is a fake one, which rndv_recv copies from). */
void fake_inject_tl_rts(int from, uint32_t ctx, int src, int tag, uint64_t sreq, const void *data,
                        size_t len);

/* Finish a recorded get/put (copy between local and remote_addr now) or
 * rndv_send/rndv_recv with status st: done() runs in the next progress(). */
void fake_rma_finish(struct fake_rec *r, rd_status st);

/* The transport's ops table. */
extern const struct rd_transport fake_transport;

#endif

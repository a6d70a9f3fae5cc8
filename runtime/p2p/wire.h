/* wire.h - the point-to-point engine's active messages.
 *
 * Matching messages (EAGER, EAGER_SYNC, RTS) carry the envelope and a
 * per-peer sequence number: the receiver handles them strictly in sequence
 * order, whatever the transport does, which keeps MPI's non-overtaking
 * rule. Control messages (ACK, CTS, FIN, FRAG) name a request and are not
 * ordered. */
#ifndef RD_P2P_WIRE_H
#define RD_P2P_WIRE_H

#include <stdint.h>

#include "runtime/base/params.h"

enum rd_am_id {
    RD_AM_EAGER = 1,   /* envelope + data */
    RD_AM_EAGER_SYNC,  /* envelope + sender request + data; receiver answers ACK */
    RD_AM_RTS,         /* envelope + sender request + protocol + address; data: rkey */
    RD_AM_ACK,         /* sync eager matched: sender request completes */
    RD_AM_CTS,         /* receiver ready (put: address + rkey in data; no address: send FRAGs) */
    RD_AM_FIN,         /* rendezvous data moved: the named request completes */
    RD_AM_FRAG,        /* pipeline fragment: receiver request + offset; data */
};

/* rendezvous protocols: RDMPI_RNDV_PROTOCOL's choices (p2p/params.def) */
enum rd_rndv_proto {
    RD_RNDV_GET = RD_RNDV_PROTOCOL_GET,           /* receiver reads everything, then FIN */
    RD_RNDV_PUT = RD_RNDV_PROTOCOL_PUT,           /* CTS; sender writes everything, then FIN */
    RD_RNDV_PIPELINE = RD_RNDV_PROTOCOL_PIPELINE, /* CTS; sender streams FRAG active messages */
    RD_RNDV_SPLIT = RD_RNDV_PROTOCOL_SPLIT,       /* CTS; receiver reads the first part while the
                                                   * sender writes the rest: both cores copy. Each
                                                   * side sends FIN when its part is done and
                                                   * completes on its own part + the peer's FIN. */
    RD_RNDV_TRANSPORT = RD_RNDV_PROTOCOL_TRANSPORT, /* the transport's own rendezvous
                                                     * (rndv_send/rndv_recv): one message
                                                     * announces the data, the receiver fetches it */
    RD_RNDV_AUTO = RD_RNDV_PROTOCOL_AUTO
};

/* Where a split transfer of len bytes divides: page-aligned, about half. */
static inline uint64_t rd_rndv_split_point(uint64_t len)
{
    return (len / 2) & ~(uint64_t)4095;
}

struct rd_wire_env {
    uint32_t ctx;
    int32_t src;  /* rank in the communicator */
    int32_t tag;
    uint32_t seq; /* per (sender, receiver) pair */
    uint64_t len; /* message bytes */
};

struct rd_wire_sync {
    struct rd_wire_env env;
    uint64_t sreq;
};

struct rd_wire_rts {
    struct rd_wire_env env;
    uint64_t sreq;
    uint64_t addr;  /* sender's data (get) */
    uint32_t proto; /* enum rd_rndv_proto */
    uint32_t pad;
};

struct rd_wire_ctrl {
    uint64_t req;    /* the request this message is for */
    uint64_t other;  /* CTS: the receiver's request */
    uint64_t addr;   /* CTS(put): where to write; FRAG: offset */
    uint64_t len;    /* CTS: bytes to move */
};

#endif

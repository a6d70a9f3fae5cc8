/* fake_check.h - what the tests on the fake transport share: starting
 * requests on the engine and checking, as TAP points, what the engine
 * asked of the transport and what a request ended with. Include once, in
 * the test's source file. */
#ifndef RD_TEST_FAKE_CHECK_H
#define RD_TEST_FAKE_CHECK_H

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/objects/comm.h"
#include "runtime/objects/datatype.h"
#include "runtime/p2p/p2p.h"
#include "runtime/p2p/request.h"
#include "runtime/p2p/wire.h"
#include "test/tap.h"
#include "test/unit/fake_tl.h"

static inline const char *rec_kind_name(int kind)
{
    static const char *names[] = {"?", "am_send", "get", "put", "rndv_send", "rndv_recv",
                                  "rndv_drop"};
    return kind >= FAKE_AM && kind <= FAKE_RNDV_DROP ? names[kind] : names[0];
}

static inline const char *am_name(unsigned id)
{
    static const char *names[] = {"?", "EAGER", "EAGER_SYNC", "RTS", "ACK", "CTS", "FIN", "FRAG"};
    return id >= RD_AM_EAGER && id <= RD_AM_FRAG ? names[id] : names[0];
}

/* The next thing the engine asked of the transport must be `kind` to
 * world rank `peer` (and, for messages, id): one TAP point. Anything
 * else ends the test (Bail out!): what follows would check the wrong
 * record. The caller frees the record (fake_rec_free). */
static inline struct fake_rec *expect(int kind, int peer, unsigned id, const char *what)
{
    struct fake_rec *r = fake_next();
    int ok = r && r->kind == kind && r->peer == peer &&
             (kind != FAKE_AM || r->id == id);
    if (kind == FAKE_AM)
        tap_ok(ok, "%s: %s %s to rank %d", what, rec_kind_name(kind), am_name(id), peer);
    else
        tap_ok(ok, "%s: %s with rank %d", what, rec_kind_name(kind), peer);
    if (!ok) {
        if (r)
            printf("# got %s %s with rank %d\n", rec_kind_name(r->kind),
                   r->kind == FAKE_AM ? am_name(r->id) : "", r->peer);
        else
            printf("# got nothing\n");
        printf("Bail out! the engine did not do what was expected\n");
        exit(1);
    }
    return r;
}

/* Nothing more was asked of the transport. */
static inline void expect_none(const char *what)
{
    int n = fake_pending();
    tap_is_int(n, 0, "%s: nothing else was sent", what);
    if (n) {
        struct fake_rec *r;
        while ((r = fake_next()) != NULL) {
            printf("# also: %s %s with rank %d\n", rec_kind_name(r->kind),
                   r->kind == FAKE_AM ? am_name(r->id) : "", r->peer);
            fake_rec_free(r);
        }
    }
}

static inline const struct rd_wire_env *env_of(const struct fake_rec *r)
{
    return (const struct rd_wire_env *)(const void *)r->hdr;
}

static inline const struct rd_wire_rts *rts_of(const struct fake_rec *r)
{
    return (const struct rd_wire_rts *)(const void *)r->hdr;
}

static inline const struct rd_wire_ctrl *ctrl_of(const struct fake_rec *r)
{
    return (const struct rd_wire_ctrl *)(const void *)r->hdr;
}

/* The sequence number the engine's next matching message to world rank w
 * must carry (one count per pair of ranks, whatever the context): the
 * tests count what they have seen go. */
static uint32_t out_seq[64];
static inline uint32_t seq_to(int w)
{
    return out_seq[w]++;
}

/* A matching message's envelope, field by field. */
static inline void check_env(const struct fake_rec *r, size_t hlen, uint32_t ctx, int src, int tag,
                      uint32_t seq, uint64_t len, const char *what)
{
    const struct rd_wire_env *e = env_of(r);
    tap_is_int(r->hlen, hlen, "%s: header of %zu bytes", what, hlen);
    tap_is_int(e->ctx, ctx, "%s: context %u", what, ctx);
    tap_is_int(e->src, src, "%s: source rank %d", what, src);
    tap_is_int(e->tag, tag, "%s: tag %d", what, tag);
    tap_is_int(e->seq, seq, "%s: sequence number %u", what, seq);
    tap_is_int(e->len, len, "%s: length %llu", what, (unsigned long long)len);
}

/* One 64-bit field: equal, or a TAP failure showing both in hex (the
 * descriptions carry no addresses, so the output is the same every run). */
static inline void check_u64(uint64_t got, uint64_t exp, const char *what, const char *field)
{
    tap_ok(got == exp, "%s: %s", what, field);
    if (got != exp)
        printf("# got %#llx, expected %#llx\n", (unsigned long long)got, (unsigned long long)exp);
}

static inline void check_ctrl(const struct fake_rec *r, uint64_t req, uint64_t other, uint64_t addr,
                              uint64_t len, const char *what)
{
    const struct rd_wire_ctrl *c = ctrl_of(r);
    tap_is_int(r->hlen, sizeof(*c), "%s: a control header", what);
    check_u64(c->req, req, what, "names the request");
    check_u64(c->other, other, what, other ? "names our request" : "other field 0");
    check_u64(c->addr, addr, what, addr ? "the address or offset" : "address or offset 0");
    tap_is_int(c->len, len, "%s: length %llu", what, (unsigned long long)len);
}

static inline struct rd_request_s *isend_mode(const void *buf, int count, MPI_Datatype dt, int dest,
                                       int tag, MPI_Comm comm, int mode)
{
    struct rd_request_s *r = rd_req_new(RD_REQ_SEND, mode, buf, count, dt, dest, tag, comm);
    rd_status st = r ? rd_p2p_start_send(r) : RD_ERR_NOMEM;
    if (st != RD_OK) {
        printf("Bail out! a send did not start: %s\n", rd_status_string(st));
        exit(1);
    }
    return r;
}

static inline struct rd_request_s *isend(const void *buf, int count, MPI_Datatype dt, int dest, int tag,
                                  MPI_Comm comm)
{
    return isend_mode(buf, count, dt, dest, tag, comm, RD_MODE_STANDARD);
}

static inline struct rd_request_s *irecv(void *buf, int count, MPI_Datatype dt, int src, int tag,
                                  MPI_Comm comm)
{
    struct rd_request_s *r = rd_req_new(RD_REQ_RECV, RD_MODE_STANDARD, buf, count, dt, src, tag,
                                        comm);
    rd_status st = r ? rd_p2p_start_recv(r) : RD_ERR_NOMEM;
    if (st != RD_OK) {
        printf("Bail out! a receive did not start: %s\n", rd_status_string(st));
        exit(1);
    }
    return r;
}

/* A completed receive: its status and error, exactly. */
static inline void check_recv(const struct rd_request_s *r, int src, int tag, long long bytes, int error,
                       const char *what)
{
    tap_is_int(rd_req_done(r), 1, "%s: complete", what);
    tap_is_int(r->status.MPI_SOURCE, src, "%s: status source %d", what, src);
    tap_is_int(r->status.MPI_TAG, tag, "%s: status tag %d", what, tag);
    tap_is_int(r->status.rd_bytes, bytes, "%s: status count %lld bytes", what, bytes);
    tap_is_int(r->error, error, "%s: error class %d", what, error);
    tap_is_int(r->status.rd_cancelled, 0, "%s: not cancelled", what);
}

/* Bytes equal to a pattern: (seed + i) mod 251 at i. */
static inline void fill(void *p, size_t n, unsigned seed)
{
    unsigned char *b = p;
    for (size_t i = 0; i < n; i++)
        b[i] = (unsigned char)((seed + i) % 251);
}

/* Where b first differs from the pattern (n: nowhere). */
static inline size_t differs(const void *p, size_t n, unsigned seed)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++)
        if (b[i] != (unsigned char)((seed + i) % 251))
            return i;
    return n;
}

/* Where b first is not byte v (n: nowhere). */
static inline size_t not_byte(const void *p, size_t n, unsigned char v)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++)
        if (b[i] != v)
            return i;
    return n;
}

static inline uint64_t addr_of(const void *p)
{
    return (uint64_t)(uintptr_t)p;
}

#endif

/* p2p_rndv.c - the engine's rendezvous protocols, on the fake transport
 * (fake_tl.h): the engine is rank 0 of 3, the test plays ranks 1 and 2,
 * whose memory is the test's own buffers (an RTS or CTS carries their
 * addresses, and the fake's get/put copy from and to them). For each of
 * get, put, split, pipeline and the transport's own rendezvous, on both
 * sides: what the engine sends (RTS with its size, address and key; CTS;
 * FIN; fragments), the RMA it issues (offsets, lengths, keys), how it
 * reacts to the peer's messages, completions inside the call or later, a
 * truncated receive, and a receive with no room; and the eager limit's
 * boundary (limit and limit + 1 bytes, the transport's suggestion, the
 * parameter, and the cap by the largest active message). */
#include "config.h"

#include "test/unit/fake_check.h"

#define W MPI_COMM_WORLD
#define BIG 100000
#define H_BIG 49152 /* rd_rndv_split_point(100000): 50000 rounded down to pages */

static unsigned char *sbuf, *rbuf, *peer; /* BIG + 64 bytes each */

static void up(long proto)
{
    fake_engine_up(3, proto);
    memset(out_seq, 0, sizeof(out_seq));
}

static void down(const char *what)
{
    tap_is_int(fake_engine_down(), 0, "%s: nothing left over", what);
    tap_is_int(fake.reentered, 0, "%s: no send from inside the handler", what);
    fake_defaults();
}

static void reset_bufs(void)
{
    fill(sbuf, BIG + 64, 1);
    memset(rbuf, 0xaa, BIG + 64);
    memset(peer, 0xbb, BIG + 64);
}

/* The RTS of a send of len bytes from sbuf, by proto. */
static struct fake_rec *expect_rts(int to, const struct rd_request_s *s, int tag, uint64_t len,
                                   uint32_t proto, uint64_t addr, const char *what)
{
    struct fake_rec *m = expect(FAKE_AM, to, RD_AM_RTS, what);
    check_env(m, sizeof(struct rd_wire_rts), 0, 0, tag, seq_to(to), len, what);
    tap_ok(rts_of(m)->sreq == addr_of(s), "%s: names the send request", what);
    tap_ok(rts_of(m)->addr == addr, "%s: the sender's address", what);
    tap_is_int(rts_of(m)->proto, proto, "%s: protocol %u", what, proto);
    return m;
}

static void check_rma(const struct fake_rec *m, const void *local, uint64_t remote, size_t len,
                      const char *what)
{
    tap_ok(m->local == local, "%s: local address at offset %td", what,
           (const unsigned char *)local - (m->kind == FAKE_PUT ? sbuf : rbuf));
    tap_ok(m->remote_addr == remote, "%s: remote address", what);
    tap_is_int(m->len, len, "%s: %zu bytes", what, len);
}

/* ------------------------------------------------------------ eager limit */

/* A send of n bytes to rank `to` must go eagerly (1) or by RTS (0). */
static void send_goes(int to, size_t n, int eager, const char *what)
{
    struct rd_request_s *s = isend(sbuf, (int)n, MPI_BYTE, to, 1, W);
    struct fake_rec *m = fake_next();
    if (eager) {
        tap_ok(m && m->kind == FAKE_AM && m->id == RD_AM_EAGER && m->len == n &&
                   differs(m->data, n, 1) == n,
               "%s: %zu bytes go eagerly, all in the message", what, n);
        tap_is_int(rd_req_done(s), 1, "%s: %zu bytes: complete once sent", what, n);
    } else {
        tap_ok(m && m->kind == FAKE_AM && m->id == RD_AM_RTS && m->len == 0 &&
                   env_of(m)->len == n,
               "%s: %zu bytes go by RTS", what, n);
        tap_is_int(rd_req_done(s), 0, "%s: %zu bytes: waits for the receiver", what, n);
        fake_inject_ctrl(to, RD_AM_FIN, addr_of(s), 0, 0, 0, NULL, 0);
        fake_progress();
        tap_is_int(rd_req_done(s), 1, "%s: %zu bytes: complete on FIN", what, n);
    }
    fake_rec_free(m);
    rd_req_release(s);
}

static void eager_boundary(void)
{
    reset_bufs();
    up(RD_RNDV_PROTOCOL_GET);
    send_goes(1, 1024, 1, "the transport's limit");
    send_goes(1, 1025, 0, "the transport's limit");
    send_goes(2, 0, 1, "the transport's limit");
    down("eager limit");

    /* RDMPI_EAGER_LIMIT wins over the transport's suggestion */
    up(RD_RNDV_PROTOCOL_GET);
    rd_param.eager_limit = 100;
    send_goes(1, 100, 1, "RDMPI_EAGER_LIMIT=100");
    send_goes(1, 101, 0, "RDMPI_EAGER_LIMIT=100");
    down("RDMPI_EAGER_LIMIT");

    /* ... but no limit goes past what one active message carries: am_max
     * minus the largest header before the data (a synchronous send's) */
    fake.caps.eager_limit = 100000;
    up(RD_RNDV_PROTOCOL_GET);
    size_t lim = 8192 - sizeof(struct rd_wire_sync);
    send_goes(1, lim, 1, "capped by am_max");
    send_goes(1, lim + 1, 0, "capped by am_max");
    down("eager limit capped by am_max");
}

/* ------------------------------------------------------------ get */

static void get_send(int reg)
{
    const char *what = reg ? "get, sender, registered" : "get, sender";
    fake.caps.needs_reg = reg;
    up(RD_RNDV_PROTOCOL_GET);
    reset_bufs();
    struct rd_request_s *s = isend(sbuf, 3000, MPI_BYTE, 1, 7, W);
    struct fake_rec *m = expect_rts(1, s, 7, 3000, RD_RNDV_GET, addr_of(sbuf), what);
    if (reg) {
        uint64_t key = 0x4b45590000000001ull;
        tap_ok(m->len == 8 && memcmp(m->data, &key, 8) == 0, "%s: the RTS carries the key", what);
        tap_is_int(fake.regs, 1, "%s: the send buffer registered once", what);
    } else {
        tap_is_int(m->len, 0, "%s: no key", what);
    }
    fake_rec_free(m);
    tap_is_int(rd_req_done(s), 0, "%s: not complete before FIN", what);
    fake_inject_ctrl(1, RD_AM_FIN, addr_of(s), 0, 0, 0, NULL, 0);
    fake_progress();
    tap_is_int(rd_req_done(s), 1, "%s: complete on FIN", what);
    tap_is_int(fake.deregs, fake.regs, "%s: every registration released", what);
    tap_is_int(differs(sbuf, BIG, 1), BIG, "%s: the send buffer untouched", what);
    expect_none(what);
    rd_req_release(s);
    down(what);
}

/* The receiver reads: a get into the receive buffer, then FIN. */
static void get_recv(int posted, int inline_rma, int reg, int count, const char *what)
{
    fake.caps.needs_reg = reg;
    fake.rma_inline = inline_rma;
    up(RD_RNDV_PROTOCOL_AUTO);
    reset_bufs();
    fill(peer, 3000, 5);
    uint64_t key = 0x5045455252454b59ull; /* the peer's key, as its RTS carries it */
    struct rd_request_s *r = NULL;
    if (posted)
        r = irecv(rbuf, count, MPI_BYTE, 1, 3, W);
    fake_inject_rts(1, 0, 1, 3, 3000, 0x51, addr_of(peer), RD_RNDV_GET, reg ? &key : NULL,
                    reg ? 8 : 0);
    fake_progress();
    if (!posted) {
        expect_none(what);
        r = irecv(rbuf, count, MPI_BYTE, 1, 3, W);
    }
    size_t n = count < 3000 ? (size_t)count : 3000;
    struct fake_rec *g = NULL, *m;
    if (n > 0) {
        g = expect(FAKE_GET, 1, 0, what);
        check_rma(g, rbuf, addr_of(peer), n, what);
        if (reg) {
            tap_ok(g->rkey_len == 8 && memcmp(g->rkey, &key, 8) == 0, "%s: with the RTS's key", what);
            tap_ok(g->op->lmr != NULL, "%s: and the local registration", what);
        }
        if (!inline_rma) {
            expect_none(what);
            tap_is_int(rd_req_done(r), 0, "%s: not complete while the read runs", what);
            fake_rma_finish(g, RD_OK);
            fake_progress();
        }
    }
    m = expect(FAKE_AM, 1, RD_AM_FIN, what);
    check_ctrl(m, 0x51, 0, 0, 0, what);
    fake_rec_free(m);
    fake_rec_free(g);
    check_recv(r, 1, 3, (long long)n, n < 3000 ? MPI_ERR_TRUNCATE : MPI_SUCCESS, what);
    if (n < 3000)
        tap_is_int(r->sent, 3000, "%s: the message was 3000 bytes", what);
    tap_is_int(differs(rbuf, n, 5), n, "%s: the data", what);
    tap_is_int(not_byte(rbuf + n, 64, 0xaa), 64, "%s: nothing past %zu bytes", what, n);
    tap_is_int(fake.deregs, fake.regs, "%s: every registration released", what);
    expect_none(what);
    rd_req_release(r);
    down(what);
}

/* An RTS (with its key) that comes ahead of its sequence waits in the
 * stash and is read, with that key, once the message before it came. */
static void get_out_of_order(void)
{
    const char *what = "get, RTS ahead of its turn";
    fake.caps.needs_reg = 1;
    up(RD_RNDV_PROTOCOL_AUTO);
    reset_bufs();
    fill(peer, 3000, 17);
    int small = 0, v = 123;
    uint64_t key = 0x4f4f4f4b45594b59ull;
    struct rd_wire_rts h;
    struct rd_wire_env e;
    memset(&h, 0, sizeof(h));
    h.env = (struct rd_wire_env){.ctx = 0, .src = 1, .tag = 2, .seq = 1, .len = 3000};
    h.sreq = 0x0a;
    h.addr = addr_of(peer);
    h.proto = RD_RNDV_GET;
    e = (struct rd_wire_env){.ctx = 0, .src = 1, .tag = 1, .seq = 0, .len = sizeof(int)};
    fake.inj_seq[1] = 2;
    fake_inject(1, RD_AM_RTS, &h, sizeof(h), &key, sizeof(key));
    fake_progress();
    expect_none(what);
    tap_is_int(rd_p2p_probe(1, MPI_ANY_TAG, W, NULL, NULL), 0, "%s: not visible yet", what);
    struct rd_request_s *r = irecv(rbuf, 3000, MPI_BYTE, 1, 2, W);
    struct rd_request_s *q = irecv(&small, 1, MPI_INT, 1, 1, W);
    fake_inject(1, RD_AM_EAGER, &e, sizeof(e), &v, sizeof(v));
    fake_progress();
    check_recv(q, 1, 1, 4, MPI_SUCCESS, "get, the message before it");
    struct fake_rec *g = expect(FAKE_GET, 1, 0, what);
    check_rma(g, rbuf, addr_of(peer), 3000, what);
    tap_ok(g->rkey_len == 8 && memcmp(g->rkey, &key, 8) == 0, "%s: with the key kept in the stash",
           what);
    fake_rec_free(g);
    struct fake_rec *m = expect(FAKE_AM, 1, RD_AM_FIN, what);
    check_ctrl(m, 0x0a, 0, 0, 0, what);
    fake_rec_free(m);
    check_recv(r, 1, 2, 3000, MPI_SUCCESS, what);
    tap_is_int(differs(rbuf, 3000, 17), 3000, "%s: the data", what);
    tap_is_int(small, 123, "%s: and the small one's", what);
    expect_none(what);
    rd_req_release(r);
    rd_req_release(q);
    down(what);
}

/* ------------------------------------------------------------ put */

static void put_send(int inline_rma, int reg, uint64_t cts_len, const char *what)
{
    fake.caps.needs_reg = reg;
    fake.rma_inline = inline_rma;
    up(RD_RNDV_PROTOCOL_PUT);
    reset_bufs();
    struct rd_request_s *s = isend(sbuf, 3000, MPI_BYTE, 2, 4, W);
    struct fake_rec *m = expect_rts(2, s, 4, 3000, RD_RNDV_PUT, addr_of(sbuf), what);
    tap_is_int(m->len, reg ? 8 : 0, "%s: RTS key bytes", what);
    fake_rec_free(m);
    uint64_t key = 0x5045455252454b59ull;
    fake_inject_ctrl(2, RD_AM_CTS, addr_of(s), 0xc75, addr_of(peer), cts_len, reg ? &key : NULL,
                     reg ? 8 : 0);
    fake_progress();
    struct fake_rec *p = expect(FAKE_PUT, 2, 0, what);
    check_rma(p, sbuf, addr_of(peer), cts_len, what);
    if (reg)
        tap_ok(p->rkey_len == 8 && memcmp(p->rkey, &key, 8) == 0, "%s: with the CTS's key", what);
    if (!inline_rma) {
        expect_none(what);
        tap_is_int(rd_req_done(s), 0, "%s: not complete while the write runs", what);
        fake_rma_finish(p, RD_OK);
        fake_progress();
    }
    fake_rec_free(p);
    m = expect(FAKE_AM, 2, RD_AM_FIN, what);
    check_ctrl(m, 0xc75, 0, 0, 0, what);
    fake_rec_free(m);
    tap_is_int(rd_req_done(s), 1, "%s: complete after the write and FIN", what);
    tap_is_int(differs(peer, cts_len, 1), cts_len, "%s: the receiver's memory has the data", what);
    tap_is_int(not_byte(peer + cts_len, 64, 0xbb), 64, "%s: nothing written past %llu bytes", what,
               (unsigned long long)cts_len);
    tap_is_int(fake.deregs, fake.regs, "%s: every registration released", what);
    expect_none(what);
    rd_req_release(s);
    down(what);
}

/* The receiver answers with CTS (its address, its key) and completes on
 * the sender's FIN. */
static void put_recv(int reg, int count, const char *what)
{
    fake.caps.needs_reg = reg;
    up(RD_RNDV_PROTOCOL_AUTO);
    reset_bufs();
    struct rd_request_s *r = irecv(rbuf, count, MPI_BYTE, 2, 6, W);
    fake_inject_rts(2, 0, 2, 6, 3000, 0x61, addr_of(sbuf), RD_RNDV_PUT, NULL, 0);
    fake_progress();
    size_t n = count < 3000 ? (size_t)count : 3000;
    struct fake_rec *m = expect(FAKE_AM, 2, RD_AM_CTS, what);
    check_ctrl(m, 0x61, addr_of(r), addr_of(rbuf), n, what);
    if (reg) {
        uint64_t key = 0x4b45590000000001ull;
        tap_ok(m->len == 8 && memcmp(m->data, &key, 8) == 0, "%s: the CTS carries our key", what);
    } else {
        tap_is_int(m->len, 0, "%s: no key", what);
    }
    fake_rec_free(m);
    tap_is_int(rd_req_done(r), 0, "%s: not complete before FIN", what);
    memcpy(rbuf, sbuf, n); /* the sender's write */
    fake_inject_ctrl(2, RD_AM_FIN, addr_of(r), 0, 0, 0, NULL, 0);
    fake_progress();
    check_recv(r, 2, 6, (long long)n, n < 3000 ? MPI_ERR_TRUNCATE : MPI_SUCCESS, what);
    tap_is_int(fake.deregs, fake.regs, "%s: every registration released", what);
    expect_none(what);
    rd_req_release(r);
    down(what);
}

/* ------------------------------------------------------------ split */

static void split_send(int fin_first, const char *what)
{
    fake.rma_inline = !fin_first;
    up(RD_RNDV_PROTOCOL_SPLIT);
    reset_bufs();
    struct rd_request_s *s = isend(sbuf, BIG, MPI_BYTE, 1, 2, W);
    fake_rec_free(expect_rts(1, s, 2, BIG, RD_RNDV_SPLIT, addr_of(sbuf), what));
    fake_inject_ctrl(1, RD_AM_CTS, addr_of(s), 0x5b, addr_of(peer), BIG, NULL, 0);
    fake_progress();
    struct fake_rec *p = expect(FAKE_PUT, 1, 0, what);
    check_rma(p, sbuf + H_BIG, addr_of(peer) + H_BIG, BIG - H_BIG, what);
    if (fin_first) {
        /* the receiver's half is read before ours is written */
        fake_inject_ctrl(1, RD_AM_FIN, addr_of(s), 0, 0, 0, NULL, 0);
        fake_progress();
        tap_is_int(rd_req_done(s), 0, "%s: the receiver's FIN alone does not complete it", what);
        expect_none(what);
        fake_rma_finish(p, RD_OK);
        fake_progress();
    }
    fake_rec_free(p);
    struct fake_rec *m = expect(FAKE_AM, 1, RD_AM_FIN, what);
    check_ctrl(m, 0x5b, 0, 0, 0, what);
    fake_rec_free(m);
    if (!fin_first) {
        tap_is_int(rd_req_done(s), 0, "%s: our half alone does not complete it", what);
        fake_inject_ctrl(1, RD_AM_FIN, addr_of(s), 0, 0, 0, NULL, 0);
        fake_progress();
    }
    tap_is_int(rd_req_done(s), 1, "%s: complete on both halves", what);
    tap_is_int(not_byte(peer, H_BIG, 0xbb), H_BIG, "%s: the first half is the receiver's to read",
               what);
    tap_is_int(differs(peer + H_BIG, BIG - H_BIG, 1 + H_BIG), BIG - H_BIG,
               "%s: the second half written", what);
    expect_none(what);
    rd_req_release(s);
    down(what);
}

static void split_recv(int count, const char *what)
{
    up(RD_RNDV_PROTOCOL_AUTO);
    reset_bufs();
    fill(peer, BIG, 9);
    struct rd_request_s *r = irecv(rbuf, count, MPI_BYTE, 2, 8, W);
    fake_inject_rts(2, 0, 2, 8, BIG, 0x77, addr_of(peer), RD_RNDV_SPLIT, NULL, 0);
    fake_progress();
    size_t n = count < BIG ? (size_t)count : BIG, h = rd_rndv_split_point(n);
    struct fake_rec *m = expect(FAKE_AM, 2, RD_AM_CTS, what);
    check_ctrl(m, 0x77, addr_of(r), addr_of(rbuf), n, what);
    fake_rec_free(m);
    struct fake_rec *g = expect(FAKE_GET, 2, 0, what);
    check_rma(g, rbuf, addr_of(peer), h, what);
    fake_rec_free(g);
    m = expect(FAKE_AM, 2, RD_AM_FIN, what);
    check_ctrl(m, 0x77, 0, 0, 0, what);
    fake_rec_free(m);
    tap_is_int(rd_req_done(r), 0, "%s: our half alone does not complete it", what);
    memcpy(rbuf + h, peer + h, n - h); /* the sender's half */
    fake_inject_ctrl(2, RD_AM_FIN, addr_of(r), 0, 0, 0, NULL, 0);
    fake_progress();
    check_recv(r, 2, 8, (long long)n, n < BIG ? MPI_ERR_TRUNCATE : MPI_SUCCESS, what);
    tap_is_int(differs(rbuf, n, 9), n, "%s: all %zu bytes", what, n);
    tap_is_int(not_byte(rbuf + n, 64, 0xaa), 64, "%s: nothing past them", what);
    expect_none(what);
    rd_req_release(r);
    down(what);
}

/* RDMPI_RNDV_PROTOCOL=auto: split from RDMPI_RNDV_SPLIT_MIN (64 KiB),
 * get below; a registered transport gets get (split needs both keys). */
static void auto_choice(void)
{
    struct { int reg; size_t n; uint32_t proto; const char *what; } c[] = {
        {0, 65535, RD_RNDV_GET, "auto, 64 KiB - 1"},
        {0, 65536, RD_RNDV_SPLIT, "auto, 64 KiB"},
        {1, 65536, RD_RNDV_GET, "auto, 64 KiB, registered"},
    };
    for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
        fake.caps.needs_reg = c[i].reg;
        up(RD_RNDV_PROTOCOL_AUTO);
        struct rd_request_s *s = isend(sbuf, (int)c[i].n, MPI_BYTE, 1, 0, W);
        fake_rec_free(expect_rts(1, s, 0, c[i].n, c[i].proto, addr_of(sbuf), c[i].what));
        fake_inject_ctrl(1, RD_AM_FIN, addr_of(s), 0, 0, 0, NULL, 0);
        fake_progress();
        tap_is_int(rd_req_done(s), 1, "%s: released by FIN", c[i].what);
        rd_req_release(s);
        down(c[i].what);
    }
}

/* ------------------------------------------------------------ pipeline */

/* Without RMA the data streams in FRAG messages of am_max minus the
 * control header: 8160, 8160, then the rest. */
static void pipeline_send(uint64_t cts_len, long room, const char *what)
{
    fake.caps.rma = 0;
    up(RD_RNDV_PROTOCOL_AUTO);
    reset_bufs();
    struct rd_request_s *s = isend(sbuf, 20000, MPI_BYTE, 2, 5, W);
    fake_rec_free(expect_rts(2, s, 5, 20000, RD_RNDV_PIPELINE, addr_of(sbuf), what));
    fake.am_room = room;
    fake_inject_ctrl(2, RD_AM_CTS, addr_of(s), 0xf7a6, 0, cts_len, NULL, 0);
    fake_progress();
    if (room >= 0) {
        tap_is_int(fake_pending(), room, "%s: %ld fragment(s) while there is room", what, room);
        tap_is_int(rd_req_done(s), 0, "%s: not complete while fragments wait", what);
        fake.am_room = -1;
        fake_progress();
    }
    size_t room_frag = 8192 - sizeof(struct rd_wire_ctrl);
    for (uint64_t off = 0; off < cts_len; off += room_frag) {
        size_t len = cts_len - off < room_frag ? cts_len - off : room_frag;
        struct fake_rec *m = expect(FAKE_AM, 2, RD_AM_FRAG, what);
        check_ctrl(m, 0xf7a6, 0, off, 0, what);
        tap_ok(m->len == len && memcmp(m->data, sbuf + off, len) == 0,
               "%s: fragment at %llu: %zu bytes of data", what, (unsigned long long)off, len);
        fake_rec_free(m);
    }
    tap_is_int(rd_req_done(s), 1, "%s: complete once the fragments left", what);
    expect_none(what);
    rd_req_release(s);
    down(what);
}

/* The receiver asks for fragments (CTS without an address) and completes
 * when all have come, in whatever order. A non-contiguous receive asks
 * for them whatever the sender offered. */
static void pipeline_recv(int vector, const char *what)
{
    int err = 0;
    MPI_Datatype dt = MPI_BYTE;
    int count = 20000;
    if (vector) {
        /* 10000 blocks of 2 bytes, 4 apart */
        dt = rd_dt_make_vector(10000, 2, 4, MPI_BYTE, &err);
        if (!dt) {
            printf("Bail out! no vector type\n");
            exit(1);
        }
        dt->committed = 1;
        count = 1;
        fake.caps.rma = 1;
    } else {
        fake.caps.rma = 0;
    }
    up(RD_RNDV_PROTOCOL_AUTO);
    reset_bufs();
    fill(peer, 20000, 11);
    struct rd_request_s *r = irecv(rbuf, count, dt, 1, 9, W);
    fake_inject_rts(1, 0, 1, 9, 20000, 0x88, addr_of(peer), vector ? RD_RNDV_GET : RD_RNDV_PIPELINE,
                    NULL, 0);
    fake_progress();
    struct fake_rec *m = expect(FAKE_AM, 1, RD_AM_CTS, what);
    check_ctrl(m, 0x88, addr_of(r), 0, 20000, what);
    fake_rec_free(m);
    uint64_t off[3] = {8000, 0, 16000};
    size_t len[3] = {8000, 8000, 4000};
    for (int i = 0; i < 3; i++) {
        tap_is_int(rd_req_done(r), 0, "%s: not complete before fragment %d", what, i + 1);
        fake_inject_ctrl(1, RD_AM_FRAG, addr_of(r), 0, off[i], 0, peer + off[i], len[i]);
        fake_progress();
    }
    check_recv(r, 1, 9, 20000, MPI_SUCCESS, what);
    if (vector) {
        size_t bad = 40000;
        for (size_t i = 0; i < 40000 && bad == 40000; i++)
            if (rbuf[i] != (i % 4 < 2 ? peer[i / 4 * 2 + i % 4] : 0xaa))
                bad = i;
        tap_is_int(bad, 40000, "%s: unpacked in place, the gaps untouched", what);
        rd_dt_release(dt);
    } else {
        tap_is_int(differs(rbuf, 20000, 11), 20000, "%s: the data in order", what);
        tap_is_int(not_byte(rbuf + 20000, 64, 0xaa), 64, "%s: nothing past it", what);
    }
    expect_none(what);
    rd_req_release(r);
    down(what);
}

/* ------------------------------------------------------------ no room at the receiver */

/* A receive of nothing releases the sender at once (FIN, whatever the
 * protocol) and reports the truncation. */
static void empty_recv(uint32_t proto, const char *what)
{
    up(RD_RNDV_PROTOCOL_AUTO);
    reset_bufs();
    struct rd_request_s *r = irecv(rbuf, 0, MPI_BYTE, 2, 1, W);
    fake_inject_rts(2, 0, 2, 1, 5000, 0xe0, addr_of(peer), proto, NULL, 0);
    fake_progress();
    struct fake_rec *m = expect(FAKE_AM, 2, RD_AM_FIN, what);
    check_ctrl(m, 0xe0, 0, 0, 0, what);
    fake_rec_free(m);
    check_recv(r, 2, 1, 0, MPI_ERR_TRUNCATE, what);
    tap_is_int(r->sent, 5000, "%s: the message was 5000 bytes", what);
    tap_is_int(not_byte(rbuf, 64, 0xaa), 64, "%s: the buffer untouched", what);
    expect_none(what);
    rd_req_release(r);
    down(what);
}

/* A sender released without its data moving: the receiver took nothing
 * (FIN instead of CTS). */
static void released(long proto, uint32_t wire, const char *what)
{
    up(proto);
    reset_bufs();
    struct rd_request_s *s = isend(sbuf, BIG, MPI_BYTE, 1, 0, W);
    fake_rec_free(expect_rts(1, s, 0, BIG, wire, addr_of(sbuf), what));
    fake_inject_ctrl(1, RD_AM_FIN, addr_of(s), 0, 0, 0, NULL, 0);
    fake_progress();
    tap_is_int(rd_req_done(s), 1, "%s: complete on FIN alone", what);
    expect_none(what);
    rd_req_release(s);
    down(what);
}

/* A sender that offered put is asked for fragments (a non-contiguous
 * receiver: CTS without an address) and streams them. */
static void put_offer_frags(void)
{
    const char *what = "put offered, fragments asked for";
    up(RD_RNDV_PROTOCOL_PUT);
    reset_bufs();
    struct rd_request_s *s = isend(sbuf, 9000, MPI_BYTE, 2, 0, W);
    fake_rec_free(expect_rts(2, s, 0, 9000, RD_RNDV_PUT, addr_of(sbuf), what));
    fake_inject_ctrl(2, RD_AM_CTS, addr_of(s), 0x42, 0, 9000, NULL, 0);
    fake_progress();
    struct fake_rec *m = expect(FAKE_AM, 2, RD_AM_FRAG, what);
    check_ctrl(m, 0x42, 0, 0, 0, what);
    tap_ok(m->len == 8160 && memcmp(m->data, sbuf, 8160) == 0, "%s: 8160 bytes at 0", what);
    fake_rec_free(m);
    m = expect(FAKE_AM, 2, RD_AM_FRAG, what);
    check_ctrl(m, 0x42, 0, 8160, 0, what);
    tap_ok(m->len == 840 && memcmp(m->data, sbuf + 8160, 840) == 0, "%s: 840 bytes at 8160", what);
    fake_rec_free(m);
    tap_is_int(rd_req_done(s), 1, "%s: complete once they left", what);
    expect_none(what);
    rd_req_release(s);
    down(what);
}

/* A synchronous send above the eager limit is a rendezvous like any
 * other: it completes on FIN, with no ACK. */
static void sync_large(void)
{
    const char *what = "synchronous send of 3000 bytes";
    up(RD_RNDV_PROTOCOL_GET);
    reset_bufs();
    struct rd_request_s *s = isend_mode(sbuf, 3000, MPI_BYTE, 1, 5, W, RD_MODE_SYNC);
    fake_rec_free(expect_rts(1, s, 5, 3000, RD_RNDV_GET, addr_of(sbuf), what));
    tap_is_int(rd_req_done(s), 0, "%s: waits", what);
    fake_inject_ctrl(1, RD_AM_FIN, addr_of(s), 0, 0, 0, NULL, 0);
    fake_progress();
    tap_is_int(rd_req_done(s), 1, "%s: complete on FIN", what);
    expect_none(what);
    rd_req_release(s);
    down(what);
}

/* ------------------------------------------------------------ the transport's own */

static void own_send(void)
{
    const char *what = "own rendezvous, sender";
    fake.caps.own_rndv = 1;
    up(RD_RNDV_PROTOCOL_AUTO);
    reset_bufs();
    struct rd_request_s *s = isend(sbuf, 5000, MPI_BYTE, 1, 3, W);
    struct fake_rec *m = expect(FAKE_RNDV_SEND, 1, 0, what);
    tap_is_int(m->id, RD_AM_RTS, "%s: announced as an RTS", what);
    check_env(m, sizeof(struct rd_wire_rts), 0, 0, 3, seq_to(1), 5000, what);
    tap_is_int(rts_of(m)->proto, RD_RNDV_TRANSPORT, "%s: protocol transport", what);
    tap_ok(m->local == sbuf && m->len == 5000, "%s: the data where it is, 5000 bytes", what);
    tap_is_int(rd_req_done(s), 0, "%s: not complete before delivery", what);
    fake_rma_finish(m, RD_OK);
    fake_rec_free(m);
    fake_progress();
    tap_is_int(rd_req_done(s), 1, "%s: complete on delivery", what);
    expect_none(what);
    rd_req_release(s);
    down(what);
}

static void own_recv(int count, const char *what)
{
    fake.caps.own_rndv = 1;
    up(RD_RNDV_PROTOCOL_AUTO);
    reset_bufs();
    fill(peer, 5000, 13);
    struct rd_request_s *r = irecv(rbuf, count, MPI_BYTE, 2, 2, W);
    fake_inject_tl_rts(2, 0, 2, 2, 0xd1, peer, 5000);
    fake_progress();
    size_t n = count < 5000 ? (size_t)count : 5000;
    if (n == 0) {
        fake_rec_free(expect(FAKE_RNDV_DROP, 2, 0, what));
    } else {
        struct fake_rec *m = expect(FAKE_RNDV_RECV, 2, 0, what);
        tap_is_int(m->len, 5000, "%s: the whole message is fetched", what);
        tap_ok((m->local == rbuf) == (n == 5000), "%s: %s", what,
               n == 5000 ? "into the user's buffer" : "into a copy (the buffer is shorter)");
        tap_is_int(rd_req_done(r), 0, "%s: not complete before the data", what);
        fake_rma_finish(m, RD_OK);
        fake_rec_free(m);
        fake_progress();
    }
    check_recv(r, 2, 2, (long long)n, n < 5000 ? MPI_ERR_TRUNCATE : MPI_SUCCESS, what);
    tap_is_int(differs(rbuf, n, 13), n, "%s: the data", what);
    tap_is_int(not_byte(rbuf + n, 64, 0xaa), 64, "%s: nothing past %zu bytes", what, n);
    expect_none(what);
    rd_req_release(r);
    down(what);
}

int main(void)
{
    sbuf = malloc(BIG + 64);
    rbuf = malloc(BIG + 64);
    peer = malloc(BIG + 64);
    if (!sbuf || !rbuf || !peer) {
        printf("Bail out! no memory\n");
        return 1;
    }
    fake_defaults();
    eager_boundary();
    get_send(0);
    get_send(1);
    get_recv(1, 1, 0, 3000, "get, receiver, posted");
    get_recv(0, 1, 0, 3000, "get, receiver, unexpected");
    get_recv(1, 0, 0, 3000, "get, receiver, read completes later");
    get_recv(1, 1, 1, 3000, "get, receiver, registered");
    get_recv(1, 1, 0, 2000, "get, receiver, truncated to 2000");
    get_out_of_order();
    put_send(1, 0, 3000, "put, sender");
    put_send(0, 0, 3000, "put, sender, write completes later");
    put_send(1, 1, 3000, "put, sender, registered");
    put_send(1, 0, 2000, "put, sender, receiver truncates to 2000");
    put_recv(0, 3000, "put, receiver");
    put_recv(1, 3000, "put, receiver, registered");
    put_recv(0, 2000, "put, receiver, truncated to 2000");
    split_send(0, "split, sender");
    split_send(1, "split, sender, receiver's FIN first");
    split_recv(BIG, "split, receiver");
    split_recv(70000, "split, receiver, truncated to 70000");
    split_recv(5000, "split, receiver, truncated to 5000 (its part: 0 bytes)");
    auto_choice();
    pipeline_send(20000, -1, "pipeline, sender");
    pipeline_send(10000, -1, "pipeline, sender, receiver truncates to 10000");
    pipeline_send(20000, 1, "pipeline, sender, room for one fragment");
    pipeline_recv(0, "pipeline, receiver, fragments out of order");
    pipeline_recv(1, "pipeline, non-contiguous receiver of a get offer");
    empty_recv(RD_RNDV_GET, "get, receive of 0 bytes");
    empty_recv(RD_RNDV_PUT, "put, receive of 0 bytes");
    empty_recv(RD_RNDV_SPLIT, "split, receive of 0 bytes");
    empty_recv(RD_RNDV_PIPELINE, "pipeline, receive of 0 bytes");
    released(RD_RNDV_PROTOCOL_GET, RD_RNDV_GET, "get, sender, receiver takes nothing");
    released(RD_RNDV_PROTOCOL_PUT, RD_RNDV_PUT, "put, sender, receiver takes nothing");
    released(RD_RNDV_PROTOCOL_SPLIT, RD_RNDV_SPLIT, "split, sender, receiver takes nothing");
    put_offer_frags();
    sync_large();
    own_send();
    own_recv(5000, "own rendezvous, receiver");
    own_recv(3000, "own rendezvous, receiver, truncated to 3000");
    own_recv(0, "own rendezvous, receive of 0 bytes");
    free(sbuf);
    free(rbuf);
    free(peer);
    return tap_done();
}

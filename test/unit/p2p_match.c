/* p2p_match.c - the engine's matching, on the fake transport (fake_tl.h):
 * the engine is rank 0 of 4 and the test plays ranks 1-3. Posted and
 * unexpected queues, wildcards, the order per (source, tag, context),
 * messages injected ahead of their sequence, probe (and probe that takes
 * the message), cancel of a posted receive, truncation, zero bytes, what
 * eager sends put on the wire (sequence numbers per peer, synchronous
 * sends and their ACK), and sends the transport has no room for. */
#include "config.h"

#include "test/unit/fake_check.h"

#define W MPI_COMM_WORLD

static void posted_then_arrives(void)
{
    int buf[16], data[10];
    for (int i = 0; i < 10; i++)
        data[i] = 1000 + i;
    memset(buf, 0xee, sizeof(buf));
    struct rd_request_s *r = irecv(buf, 16, MPI_INT, 1, 5, W);
    tap_is_int(rd_req_done(r), 0, "posted: not complete before the message");
    fake_inject_eager(1, 0, 1, 5, data, sizeof(data));
    fake_progress();
    check_recv(r, 1, 5, 40, MPI_SUCCESS, "posted");
    tap_ok(memcmp(buf, data, sizeof(data)) == 0, "posted: the 10 ints landed");
    tap_is_int(not_byte(buf + 10, 6 * sizeof(int), 0xee), 6 * sizeof(int),
               "posted: the 6 ints after them untouched");
    expect_none("posted");
    rd_req_release(r);
}

static void unexpected_then_posted(void)
{
    unsigned char data[8] = {1, 2, 3, 4, 5, 6, 7, 8}, buf[8] = {0};
    MPI_Status st;
    fake_inject_eager(2, 0, 2, 7, data, 8);
    fake_progress();
    memset(&st, 0, sizeof(st));
    tap_is_int(rd_p2p_probe(2, 7, W, &st, NULL), 1, "unexpected: probe(2, 7) finds it");
    tap_is_int(st.MPI_SOURCE, 2, "unexpected: probe's source");
    tap_is_int(st.MPI_TAG, 7, "unexpected: probe's tag");
    tap_is_int(st.rd_bytes, 8, "unexpected: probe's count");
    tap_is_int(rd_p2p_probe(MPI_ANY_SOURCE, MPI_ANY_TAG, W, NULL, NULL), 1,
               "unexpected: probe(any, any) finds it");
    tap_is_int(rd_p2p_probe(1, MPI_ANY_TAG, W, NULL, NULL), 0, "unexpected: probe(1, any) does not");
    tap_is_int(rd_p2p_probe(2, 8, W, NULL, NULL), 0, "unexpected: probe(2, 8) does not");
    tap_is_int(rd_p2p_probe(2, 7, W->coll, NULL, NULL), 0,
               "unexpected: probe on the library context does not");
    struct rd_request_s *r = irecv(buf, 8, MPI_BYTE, MPI_ANY_SOURCE, 7, W);
    check_recv(r, 2, 7, 8, MPI_SUCCESS, "unexpected");
    tap_ok(memcmp(buf, data, 8) == 0, "unexpected: the 8 bytes");
    tap_is_int(rd_p2p_probe(MPI_ANY_SOURCE, MPI_ANY_TAG, W, NULL, NULL), 0,
               "unexpected: taken off the queue");
    rd_req_release(r);
}

/* Messages of one sender match in the order sent, posted or not. */
static void order(void)
{
    char b[3][4];
    struct rd_request_s *r[3];
    fake_inject_eager(1, 0, 1, 3, "aa", 2);
    fake_inject_eager(1, 0, 1, 3, "bbb", 3);
    fake_inject_eager(1, 0, 1, 3, "c", 1);
    fake_progress();
    for (int i = 0; i < 3; i++) {
        memset(b[i], 0, 4);
        r[i] = irecv(b[i], 4, MPI_CHAR, 1, 3, W);
    }
    check_recv(r[0], 1, 3, 2, MPI_SUCCESS, "order, unexpected: 1st");
    check_recv(r[1], 1, 3, 3, MPI_SUCCESS, "order, unexpected: 2nd");
    check_recv(r[2], 1, 3, 1, MPI_SUCCESS, "order, unexpected: 3rd");
    tap_is_str(b[0], "aa", "order, unexpected: 1st receive got the 1st message");
    tap_is_str(b[1], "bbb", "order, unexpected: 2nd receive got the 2nd");
    tap_is_str(b[2], "c", "order, unexpected: 3rd receive got the 3rd");
    for (int i = 0; i < 3; i++)
        rd_req_release(r[i]);

    /* posted first, any tag: the i-th receive gets the i-th message */
    for (int i = 0; i < 3; i++) {
        memset(b[i], 0, 4);
        r[i] = irecv(b[i], 4, MPI_CHAR, 3, MPI_ANY_TAG, W);
    }
    fake_inject_eager(3, 0, 3, 9, "x", 1);
    fake_inject_eager(3, 0, 3, 8, "yy", 2);
    fake_inject_eager(3, 0, 3, 9, "zzz", 3);
    fake_progress();
    check_recv(r[0], 3, 9, 1, MPI_SUCCESS, "order, posted: 1st");
    check_recv(r[1], 3, 8, 2, MPI_SUCCESS, "order, posted: 2nd");
    check_recv(r[2], 3, 9, 3, MPI_SUCCESS, "order, posted: 3rd");
    tap_is_str(b[0], "x", "order, posted: 1st data");
    tap_is_str(b[1], "yy", "order, posted: 2nd data");
    tap_is_str(b[2], "zzz", "order, posted: 3rd data");
    for (int i = 0; i < 3; i++)
        rd_req_release(r[i]);
}

/* Wildcards: a message goes to the oldest posted receive it fits. */
static void wildcards(void)
{
    int a = 0, b = 0, c = 0, v;
    struct rd_request_s *ra = irecv(&a, 1, MPI_INT, 2, MPI_ANY_TAG, W);
    struct rd_request_s *rb = irecv(&b, 1, MPI_INT, MPI_ANY_SOURCE, 4, W);
    struct rd_request_s *rc = irecv(&c, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, W);
    v = 31;
    fake_inject_eager(3, 0, 3, 4, &v, sizeof(v));
    fake_progress();
    tap_is_int(rd_req_done(ra), 0, "wildcards: (2, any) does not take rank 3's message");
    check_recv(rb, 3, 4, 4, MPI_SUCCESS, "wildcards: (any, 4) takes (3, 4)");
    tap_is_int(rd_req_done(rc), 0, "wildcards: (any, any), posted later, waits");
    v = 22;
    fake_inject_eager(2, 0, 2, 4, &v, sizeof(v));
    fake_progress();
    check_recv(ra, 2, 4, 4, MPI_SUCCESS, "wildcards: (2, any) takes (2, 4)");
    tap_is_int(rd_req_done(rc), 0, "wildcards: (any, any) still waits");
    v = 13;
    fake_inject_eager(1, 0, 1, 77, &v, sizeof(v));
    fake_progress();
    check_recv(rc, 1, 77, 4, MPI_SUCCESS, "wildcards: (any, any) takes (1, 77)");
    tap_is_int(a, 22, "wildcards: value of (2, 4)");
    tap_is_int(b, 31, "wildcards: value of (3, 4)");
    tap_is_int(c, 13, "wildcards: value of (1, 77)");
    rd_req_release(ra);
    rd_req_release(rb);
    rd_req_release(rc);
}

/* Contexts: the library's twin and a communicator of other ranks. */
static void contexts(void)
{
    int x = 5, y = 0, z = 0;
    fake_inject_eager(1, 1, 1, 5, &x, sizeof(x)); /* on MPI_COMM_WORLD's library context */
    fake_progress();
    struct rd_request_s *r = irecv(&y, 1, MPI_INT, 1, 5, W);
    tap_is_int(rd_req_done(r), 0, "contexts: a library message does not match a user receive");
    tap_is_int(rd_p2p_probe(1, 5, W->coll, NULL, NULL), 1, "contexts: it waits on the library context");
    struct rd_request_s *rl = irecv(&z, 1, MPI_INT, 1, 5, W->coll);
    check_recv(rl, 1, 5, 4, MPI_SUCCESS, "contexts: received on the library context");
    tap_is_int(z, 5, "contexts: its value");
    tap_is_int(rd_p2p_cancel_recv(r), 1, "contexts: the user receive is cancelled");
    rd_req_release(r);
    rd_req_release(rl);

    /* a communicator of world ranks {0, 3, 1} in context 4: ranks in the
     * envelope are its own, the transport sees world ranks */
    int *wr = malloc(3 * sizeof(int));
    wr[0] = 0, wr[1] = 3, wr[2] = 1;
    MPI_Comm c;
    if (rd_comm_new(0, 3, wr, 4, &c) != RD_OK) {
        printf("Bail out! no communicator\n");
        exit(1);
    }
    x = 77;
    r = irecv(&y, 1, MPI_INT, MPI_ANY_SOURCE, 0, c);
    fake_inject_eager(3, 4, 1, 0, &x, sizeof(x));
    fake_progress();
    check_recv(r, 1, 0, 4, MPI_SUCCESS, "sub-communicator: world rank 3 is its rank 1");
    tap_is_int(y, 77, "sub-communicator: the value");
    rd_req_release(r);
    x = 78;
    struct rd_request_s *s = isend(&x, 1, MPI_INT, 2, 6, c);
    struct fake_rec *m = expect(FAKE_AM, 1, RD_AM_EAGER, "sub-communicator: its rank 2 is world rank 1");
    check_env(m, sizeof(struct rd_wire_env), 4, 0, 6, seq_to(1), 4, "sub-communicator send");
    tap_ok(m->len == 4 && memcmp(m->data, &x, 4) == 0, "sub-communicator send: the payload");
    fake_rec_free(m);
    tap_is_int(rd_req_done(s), 1, "sub-communicator send: an eager send completes when it leaves");
    rd_req_release(s);
    expect_none("sub-communicator");
    rd_comm_release(c);
}

/* Messages that arrive ahead of their turn wait, out of sight, until the
 * gap is filled; then they match in sequence order. */
static void out_of_order(void)
{
    int buf[3] = {0, 0, 0}, v[3] = {100, 101, 102};
    struct rd_request_s *r[3];
    for (int i = 0; i < 3; i++)
        r[i] = irecv(&buf[i], 1, MPI_INT, 2, MPI_ANY_TAG, W);
    uint32_t base = fake.inj_seq[2];
    struct rd_wire_env e[3];
    for (int i = 0; i < 3; i++) {
        e[i].ctx = 0;
        e[i].src = 2;
        e[i].tag = 40 + i;
        e[i].seq = base + (uint32_t)i;
        e[i].len = sizeof(int);
    }
    fake.inj_seq[2] = base + 3;
    fake_inject(2, RD_AM_EAGER, &e[2], sizeof(e[2]), &v[2], sizeof(int));
    fake_inject(2, RD_AM_EAGER, &e[1], sizeof(e[1]), &v[1], sizeof(int));
    fake_progress();
    tap_is_int(rd_req_done(r[0]) + rd_req_done(r[1]) + rd_req_done(r[2]), 0,
               "out of order: nothing matches while the first is missing");
    tap_is_int(rd_p2p_probe(MPI_ANY_SOURCE, MPI_ANY_TAG, W, NULL, NULL), 0,
               "out of order: nor can probe see them");
    fake_inject(2, RD_AM_EAGER, &e[0], sizeof(e[0]), &v[0], sizeof(int));
    fake_progress();
    check_recv(r[0], 2, 40, 4, MPI_SUCCESS, "out of order: 1st receive, the message of seq 0");
    check_recv(r[1], 2, 41, 4, MPI_SUCCESS, "out of order: 2nd receive, seq 1");
    check_recv(r[2], 2, 42, 4, MPI_SUCCESS, "out of order: 3rd receive, seq 2");
    tap_ok(buf[0] == 100 && buf[1] == 101 && buf[2] == 102, "out of order: values in sequence");
    for (int i = 0; i < 3; i++)
        rd_req_release(r[i]);
}

/* Probe that takes the message (MPI_Mprobe), then a receive of it. */
static void mprobe(void)
{
    double d[2] = {1.5, -2.25}, got[2] = {0, 0};
    MPI_Status st;
    struct rd_message_s *m = NULL;
    fake_inject_eager(3, 0, 3, 6, d, sizeof(d));
    fake_progress();
    tap_is_int(rd_p2p_probe(3, 6, W, &st, &m), 1, "mprobe: found");
    tap_is_int(st.rd_bytes, 16, "mprobe: count 16 bytes");
    tap_ok(m != NULL && rd_p2p_message_valid(m), "mprobe: a valid message handle");
    tap_is_int(rd_p2p_probe(3, 6, W, NULL, NULL), 0, "mprobe: no longer in the queue");
    struct rd_request_s *r = rd_req_new(RD_REQ_RECV, RD_MODE_STANDARD, got, 2, MPI_DOUBLE, 3, 6, W);
    tap_is_int(rd_p2p_start_mrecv(r, m), RD_OK, "mprobe: mrecv starts");
    check_recv(r, 3, 6, 16, MPI_SUCCESS, "mprobe: mrecv");
    tap_ok(got[0] == 1.5 && got[1] == -2.25, "mprobe: the values");
    rd_req_release(r);
}

static void cancel(void)
{
    int buf = -1, v = 9;
    struct rd_request_s *r = irecv(&buf, 1, MPI_INT, 1, 11, W);
    tap_is_int(rd_p2p_cancel_recv(r), 1, "cancel: a posted receive is cancelled");
    tap_is_int(rd_req_done(r), 1, "cancel: complete");
    tap_is_int(r->status.rd_cancelled, 1, "cancel: status says cancelled");
    tap_is_int(r->status.rd_bytes, 0, "cancel: count 0");
    tap_is_int(rd_p2p_cancel_recv(r), 0, "cancel: twice, the second does nothing");
    fake_inject_eager(1, 0, 1, 11, &v, sizeof(v));
    fake_progress();
    tap_is_int(buf, -1, "cancel: a later message does not land in the cancelled buffer");
    tap_is_int(rd_p2p_probe(1, 11, W, NULL, NULL), 1, "cancel: it is unexpected instead");
    rd_req_release(r);
    r = irecv(&buf, 1, MPI_INT, 1, 11, W);
    tap_is_int(rd_p2p_cancel_recv(r), 0, "cancel: a matched receive cannot be cancelled");
    check_recv(r, 1, 11, 4, MPI_SUCCESS, "cancel: the matched receive");
    tap_is_int(buf, 9, "cancel: its value");
    rd_req_release(r);
}

static void truncation(void)
{
    int data[6] = {1, 2, 3, 4, 5, 6}, buf[5];
    /* posted */
    for (int i = 0; i < 5; i++)
        buf[i] = -7;
    struct rd_request_s *r = irecv(buf, 4, MPI_INT, 2, 1, W);
    fake_inject_eager(2, 0, 2, 1, data, sizeof(data));
    fake_progress();
    check_recv(r, 2, 1, 16, MPI_ERR_TRUNCATE, "truncated, posted");
    tap_is_int(r->sent, 24, "truncated, posted: the message's length is kept (24)");
    tap_ok(buf[0] == 1 && buf[1] == 2 && buf[2] == 3 && buf[3] == 4,
           "truncated, posted: what fits landed");
    tap_is_int(buf[4], -7, "truncated, posted: nothing past the buffer");
    rd_req_release(r);
    /* unexpected */
    for (int i = 0; i < 5; i++)
        buf[i] = -7;
    fake_inject_eager(2, 0, 2, 1, data, sizeof(data));
    fake_progress();
    r = irecv(buf, 3, MPI_INT, 2, 1, W);
    check_recv(r, 2, 1, 12, MPI_ERR_TRUNCATE, "truncated, unexpected");
    tap_is_int(r->sent, 24, "truncated, unexpected: the message's length (24)");
    tap_ok(buf[0] == 1 && buf[1] == 2 && buf[2] == 3, "truncated, unexpected: what fits landed");
    tap_is_int(buf[3], -7, "truncated, unexpected: nothing past the buffer");
    rd_req_release(r);
    expect_none("truncation");
}

static void zero_bytes(void)
{
    int buf = 42;
    struct rd_request_s *r = irecv(&buf, 1, MPI_INT, 3, 2, W);
    fake_inject_eager(3, 0, 3, 2, NULL, 0);
    fake_progress();
    check_recv(r, 3, 2, 0, MPI_SUCCESS, "zero bytes into a buffer of one int");
    tap_is_int(buf, 42, "zero bytes: the buffer untouched");
    rd_req_release(r);
    r = irecv(NULL, 0, MPI_INT, 3, 2, W);
    fake_inject_eager(3, 0, 3, 2, NULL, 0);
    fake_progress();
    check_recv(r, 3, 2, 0, MPI_SUCCESS, "zero bytes into zero");
    rd_req_release(r);
    struct rd_request_s *s = isend(NULL, 0, MPI_INT, 3, 2, W);
    struct fake_rec *m = expect(FAKE_AM, 3, RD_AM_EAGER, "zero-byte send");
    check_env(m, sizeof(struct rd_wire_env), 0, 0, 2, seq_to(3), 0, "zero-byte send");
    tap_is_int(m->len, 0, "zero-byte send: no payload");
    fake_rec_free(m);
    tap_is_int(rd_req_done(s), 1, "zero-byte send: complete");
    rd_req_release(s);
}

/* What eager sends put on the wire: sequence numbers count per peer. */
static void eager_sends(void)
{
    unsigned char a[100], b[7] = "seven!";
    int v = 5;
    fill(a, sizeof(a), 3);
    struct rd_request_s *s1 = isend(a, 100, MPI_BYTE, 2, 9, W);
    struct rd_request_s *s2 = isend(b, 7, MPI_BYTE, 2, 9, W);
    struct rd_request_s *s3 = isend(&v, 1, MPI_INT, 1, 0, W);
    struct rd_request_s *s4 = isend(&v, 1, MPI_INT, 2, 123, W->coll);
    struct fake_rec *m = expect(FAKE_AM, 2, RD_AM_EAGER, "eager send 1");
    check_env(m, sizeof(struct rd_wire_env), 0, 0, 9, seq_to(2), 100, "eager send 1");
    tap_ok(m->len == 100 && differs(m->data, 100, 3) == 100, "eager send 1: the 100 bytes");
    fake_rec_free(m);
    m = expect(FAKE_AM, 2, RD_AM_EAGER, "eager send 2");
    check_env(m, sizeof(struct rd_wire_env), 0, 0, 9, seq_to(2), 7, "eager send 2 (the next seq to rank 2)");
    tap_ok(m->len == 7 && memcmp(m->data, "seven!", 7) == 0, "eager send 2: the 7 bytes");
    fake_rec_free(m);
    m = expect(FAKE_AM, 1, RD_AM_EAGER, "eager send 3");
    check_env(m, sizeof(struct rd_wire_env), 0, 0, 0, seq_to(1), 4, "eager send 3 (rank 1 counts apart)");
    fake_rec_free(m);
    m = expect(FAKE_AM, 2, RD_AM_EAGER, "eager send 4");
    check_env(m, sizeof(struct rd_wire_env), 1, 0, 123, seq_to(2), 4,
              "eager send 4 (library context, the next seq to rank 2: one count per pair)");
    fake_rec_free(m);
    tap_is_int(rd_req_done(s1) + rd_req_done(s2) + rd_req_done(s3) + rd_req_done(s4), 4,
               "eager sends: all four complete");
    rd_req_release(s1);
    rd_req_release(s2);
    rd_req_release(s3);
    rd_req_release(s4);
    expect_none("eager sends");
}

static void sync_sends(void)
{
    int v = 17, got = 0;
    struct rd_request_s *s = isend_mode(&v, 1, MPI_INT, 3, 4, W, RD_MODE_SYNC);
    struct fake_rec *m = expect(FAKE_AM, 3, RD_AM_EAGER_SYNC, "ssend");
    check_env(m, sizeof(struct rd_wire_sync), 0, 0, 4, seq_to(3), 4, "ssend");
    tap_ok(((const struct rd_wire_sync *)(const void *)m->hdr)->sreq == addr_of(s),
           "ssend: names the send request");
    fake_rec_free(m);
    tap_is_int(rd_req_done(s), 0, "ssend: not complete before the ACK");
    fake_inject_ctrl(3, RD_AM_ACK, addr_of(s), 0, 0, 0, NULL, 0);
    fake_progress();
    tap_is_int(rd_req_done(s), 1, "ssend: complete on the ACK");
    rd_req_release(s);

    /* receiving one: the ACK goes when it matches, not when it arrives */
    fake_inject_sync(1, 0, 1, 8, 0x5e9d, &v, sizeof(v));
    fake_progress();
    expect_none("sync eager, unexpected: no ACK before a receive matches");
    struct rd_request_s *r = irecv(&got, 1, MPI_INT, 1, 8, W);
    check_recv(r, 1, 8, 4, MPI_SUCCESS, "sync eager received");
    tap_is_int(got, 17, "sync eager: the value");
    fake_progress();
    m = expect(FAKE_AM, 1, RD_AM_ACK, "sync eager: matched");
    check_ctrl(m, 0x5e9d, 0, 0, 0, "ACK");
    fake_rec_free(m);
    rd_req_release(r);
    /* posted first */
    r = irecv(&got, 1, MPI_INT, 1, 8, W);
    fake_inject_sync(1, 0, 1, 8, 0x5e9e, &v, sizeof(v));
    fake_progress();
    m = expect(FAKE_AM, 1, RD_AM_ACK, "sync eager, posted: matched at once");
    check_ctrl(m, 0x5e9e, 0, 0, 0, "ACK, posted");
    fake_rec_free(m);
    check_recv(r, 1, 8, 4, MPI_SUCCESS, "sync eager, posted");
    rd_req_release(r);
    expect_none("sync");
}

/* A transport with no room (RD_ERR_AGAIN): sends wait, in order, and an
 * eager send completes only once it has left. */
static void no_room(void)
{
    int v[3] = {1, 2, 3};
    struct rd_request_s *s[3];
    fake.am_room = 1;
    for (int i = 0; i < 3; i++)
        s[i] = isend(&v[i], 1, MPI_INT, 1, 50 + i, W);
    struct fake_rec *m = expect(FAKE_AM, 1, RD_AM_EAGER, "no room: the first send leaves");
    check_env(m, sizeof(struct rd_wire_env), 0, 0, 50, seq_to(1), 4, "no room, 1st");
    fake_rec_free(m);
    tap_is_int(rd_req_done(s[0]), 1, "no room: the first is complete");
    tap_is_int(rd_req_done(s[1]) + rd_req_done(s[2]), 0, "no room: the others wait");
    fake_progress();
    expect_none("no room: progress without room sends nothing");
    fake.am_room = -1;
    fake_progress();
    for (int i = 1; i < 3; i++) {
        m = expect(FAKE_AM, 1, RD_AM_EAGER, "no room: room again");
        check_env(m, sizeof(struct rd_wire_env), 0, 0, 50 + i, seq_to(1), 4, "no room, queued");
        tap_ok(m->len == 4 && memcmp(m->data, &v[i], 4) == 0, "no room: the payload of send %d", i + 1);
        fake_rec_free(m);
        tap_is_int(rd_req_done(s[i]), 1, "no room: send %d complete", i + 1);
    }
    for (int i = 0; i < 3; i++)
        rd_req_release(s[i]);
    /* a send queued behind others never overtakes them, even with room */
    fake.am_room = 0;
    s[0] = isend(&v[0], 1, MPI_INT, 2, 60, W);
    fake.am_room = -1;
    s[1] = isend(&v[1], 1, MPI_INT, 2, 61, W);
    expect_none("no room: a second send waits behind the first");
    fake_progress();
    m = expect(FAKE_AM, 2, RD_AM_EAGER, "no room: the first");
    tap_is_int(env_of(m)->tag, 60, "no room: first out is tag 60");
    tap_is_int(env_of(m)->seq, seq_to(2), "no room: with the first seq");
    fake_rec_free(m);
    m = expect(FAKE_AM, 2, RD_AM_EAGER, "no room: then the second");
    tap_is_int(env_of(m)->tag, 61, "no room: then tag 61");
    tap_is_int(env_of(m)->seq, seq_to(2), "no room: and the next seq");
    fake_rec_free(m);
    rd_req_release(s[0]);
    rd_req_release(s[1]);
}

/* Non-contiguous data is packed into the eager payload and unpacked. */
static void noncontig(void)
{
    int err = 0, src[6] = {10, 11, 12, 13, 14, 15}, dst[6] = {0, 0, 0, 0, 0, 0};
    MPI_Datatype vec = rd_dt_make_vector(3, 1, 2 * sizeof(int), MPI_INT, &err);
    if (!vec) {
        printf("Bail out! no vector type\n");
        exit(1);
    }
    vec->committed = 1;
    struct rd_request_s *s = isend(src, 1, vec, 1, 70, W);
    struct fake_rec *m = expect(FAKE_AM, 1, RD_AM_EAGER, "vector send");
    int packed[3] = {10, 12, 14};
    tap_ok(m->len == 12 && memcmp(m->data, packed, 12) == 0, "vector send: every other int, packed");
    tap_is_int(env_of(m)->seq, seq_to(1), "vector send: its seq");
    fake_rec_free(m);
    rd_req_release(s);
    struct rd_request_s *r = irecv(dst, 1, vec, 1, 71, W);
    fake_inject_eager(1, 0, 1, 71, packed, sizeof(packed));
    fake_progress();
    check_recv(r, 1, 71, 12, MPI_SUCCESS, "vector receive");
    tap_ok(dst[0] == 10 && dst[1] == 0 && dst[2] == 12 && dst[3] == 0 && dst[4] == 14 && dst[5] == 0,
           "vector receive: unpacked every other int, the gaps untouched");
    rd_req_release(r);
    rd_dt_release(vec);
}

/* Rank 0's messages to itself go through self, never the fake. */
static void to_self(void)
{
    int v = 99, got = 0;
    struct rd_request_s *r = irecv(&got, 1, MPI_INT, 0, 1, W);
    struct rd_request_s *s = isend(&v, 1, MPI_INT, 0, 1, W);
    fake_progress();
    check_recv(r, 0, 1, 4, MPI_SUCCESS, "to itself");
    tap_is_int(got, 99, "to itself: the value");
    expect_none("to itself: the fake transport saw nothing");
    rd_req_release(r);
    rd_req_release(s);
}

/* MPI_Send's way without a request (rd_p2p_send_fast): only when the
 * message leaves at once, eagerly, contiguous, with nothing queued before
 * it; otherwise RD_ERR_AGAIN, nothing sent and no sequence number used. */
static void send_fast(void)
{
    int v[4] = {4, 3, 2, 1}, err = 0;
    unsigned char big[2000];
    memset(big, 1, sizeof(big));
    tap_is_int(rd_p2p_send_fast(v, 4, MPI_INT, 3, 12, W), RD_OK, "send_fast: 16 bytes leave");
    struct fake_rec *m = expect(FAKE_AM, 3, RD_AM_EAGER, "send_fast");
    check_env(m, sizeof(struct rd_wire_env), 0, 0, 12, seq_to(3), 16, "send_fast");
    tap_ok(m->len == 16 && memcmp(m->data, v, 16) == 0, "send_fast: the payload");
    fake_rec_free(m);
    tap_is_int(rd_p2p_send_fast(big, 2000, MPI_BYTE, 3, 12, W), RD_ERR_AGAIN,
               "send_fast: above the eager limit, not this way");
    MPI_Datatype vec = rd_dt_make_vector(2, 1, 2 * sizeof(int), MPI_INT, &err);
    vec->committed = 1;
    tap_is_int(rd_p2p_send_fast(v, 1, vec, 3, 12, W), RD_ERR_AGAIN,
               "send_fast: non-contiguous, not this way");
    rd_dt_release(vec);
    fake.am_room = 0;
    tap_is_int(rd_p2p_send_fast(v, 1, MPI_INT, 3, 12, W), RD_ERR_AGAIN,
               "send_fast: no room in the transport, not this way");
    struct rd_request_s *s = isend(v, 1, MPI_INT, 3, 13, W); /* queued */
    fake.am_room = -1;
    tap_is_int(rd_p2p_send_fast(v, 1, MPI_INT, 3, 14, W), RD_ERR_AGAIN,
               "send_fast: a send queued before it, not this way");
    expect_none("send_fast: what it refused");
    fake_progress();
    m = expect(FAKE_AM, 3, RD_AM_EAGER, "send_fast: the queued send");
    check_env(m, sizeof(struct rd_wire_env), 0, 0, 13, seq_to(3), 4,
              "send_fast: the queued send has the next seq (the refused ones used none)");
    fake_rec_free(m);
    rd_req_release(s);
    tap_is_int(rd_p2p_send_fast(v, 1, MPI_INT, 3, 15, W), RD_OK, "send_fast: then it goes again");
    m = expect(FAKE_AM, 3, RD_AM_EAGER, "send_fast: after the queue");
    check_env(m, sizeof(struct rd_wire_env), 0, 0, 15, seq_to(3), 4, "send_fast: after the queue");
    fake_rec_free(m);
}

int main(void)
{
    fake_defaults();
    fake_engine_up(4, RD_RNDV_PROTOCOL_AUTO);
    tap_is_int(fake.opens, 1, "the engine opened the fake transport once");
    tap_is_int(fake.commits, 1, "init: one commit of the job's data");
    tap_is_int(fake.fences, 1, "init: one fence");
    posted_then_arrives();
    unexpected_then_posted();
    order();
    wildcards();
    contexts();
    out_of_order();
    mprobe();
    cancel();
    truncation();
    zero_bytes();
    eager_sends();
    sync_sends();
    no_room();
    noncontig();
    to_self();
    send_fast();
    tap_is_int(rd_p2p_probe(MPI_ANY_SOURCE, MPI_ANY_TAG, W, NULL, NULL), 0,
               "the end: no message is left unexpected");
    tap_is_int(fake_engine_down(), 0, "the end: nothing left in the fake transport");
    tap_is_int(fake.reentered, 0, "the end: no send from inside the handler");
    tap_is_int(fake.closes, 1, "the end: the fake transport closed");
    return tap_done();
}

/* MPI test: Probe, Iprobe, Mprobe/Improbe + Mrecv/Imrecv (MPI-3.1 3.8).
 * Ranks work in pairs (0,1), (2,3); an odd last rank pairs with itself.
 * The lower rank of a pair sends, the higher one probes and receives; a
 * rank alone does both (sends are nonblocking, so that works too). */
#include "test/mpi/p2p_common.c"

#define BIG (3 * 1024 * 1024 + 17)

static int peer, is_send, is_recv;

/* receiver -> sender: "go on" */
static void go_send(int step)
{
    if (is_recv)
        MPI_Send(&step, 1, MPI_INT, peer, P2P_TAG_GO, MPI_COMM_WORLD);
}
static void go_wait(void)
{
    int step;
    if (is_send)
        MPI_Recv(&step, 1, MPI_INT, peer, P2P_TAG_GO, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}

static int count_of(const MPI_Status *st)
{
    int c = -1;
    MPI_Get_count(st, MPI_BYTE, &c);
    return c;
}

int main(int argc, char **argv)
{
    p2p_init(&argc, &argv);
    peer = p2p_rank ^ 1;
    if (peer >= p2p_size)
        peer = p2p_rank;
    is_send = p2p_rank <= peer;
    is_recv = p2p_rank >= peer;
    int src = is_recv ? (peer < p2p_rank ? peer : p2p_rank) : -1; /* the sender of my messages */
    char *sbuf = malloc(BIG), *rbuf = malloc(BIG + 64);
    MPI_Request sreq[4];
    MPI_Status st;
    int flag = -1;

    /* 1. Iprobe: false before the message is sent, true after, not consumed */
    if (is_recv) {
        flag = -1;
        MPI_Iprobe(src, 1, MPI_COMM_WORLD, &flag, &st);
        mt_is_int(flag, 0, "Iprobe before any message: false");
        flag = -1;
        MPI_Iprobe(MPI_ANY_SOURCE, 1, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
        mt_is_int(flag, 0, "Iprobe ANY_SOURCE before any message: false");
    }
    if (is_recv && is_send) {
        /* alone: a go message to oneself needs a nonblocking send */
        MPI_Request g;
        int step = 1;
        MPI_Isend(&step, 1, MPI_INT, peer, P2P_TAG_GO, MPI_COMM_WORLD, &g);
        go_wait();
        MPI_Wait(&g, MPI_STATUS_IGNORE);
    } else {
        go_send(1);
        go_wait();
    }
    if (is_send) {
        p2p_fill(sbuf, 100, p2p_rank, 1, 0);
        MPI_Isend(sbuf, 100, MPI_BYTE, peer, 1, MPI_COMM_WORLD, &sreq[0]);
    }
    if (is_recv) {
        double end = p2p_now() + 20;
        flag = 0;
        while (!flag && p2p_now() < end)
            MPI_Iprobe(src, 1, MPI_COMM_WORLD, &flag, &st);
        mt_is_int(flag, 1, "Iprobe after the send: true");
        mt_ok(st.MPI_SOURCE == src && st.MPI_TAG == 1 && count_of(&st) == 100, "Iprobe status: source, tag, count");
        flag = 0;
        MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &st);
        mt_ok(flag && st.MPI_SOURCE == src && st.MPI_TAG == 1, "Iprobe again with wildcards: still there");
        MPI_Probe(src, 1, MPI_COMM_WORLD, &st);
        mt_ok(st.MPI_SOURCE == src && st.MPI_TAG == 1 && count_of(&st) == 100, "Probe: the same message");
        memset(rbuf, 0, 200);
        MPI_Recv(rbuf, 200, MPI_BYTE, st.MPI_SOURCE, st.MPI_TAG, MPI_COMM_WORLD, &st);
        mt_ok(count_of(&st) == 100 && p2p_check(rbuf, 100, src, 1, 0) < 0, "Recv after probing gets the message");
        flag = -1;
        MPI_Iprobe(src, 1, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
        mt_is_int(flag, 0, "Iprobe after receiving it: false");
    }
    if (is_send)
        MPI_Wait(&sreq[0], MPI_STATUS_IGNORE);

    /* 2. Probe of a rendezvous-size message, receive into a buffer sized from
     *    Get_count; also a zero-byte message */
    if (is_send) {
        p2p_fill(sbuf, BIG, p2p_rank, 2, 0);
        MPI_Isend(sbuf, BIG, MPI_BYTE, peer, 2, MPI_COMM_WORLD, &sreq[0]);
        MPI_Isend(sbuf, 0, MPI_BYTE, peer, 3, MPI_COMM_WORLD, &sreq[1]);
    }
    if (is_recv) {
        MPI_Probe(MPI_ANY_SOURCE, 2, MPI_COMM_WORLD, &st);
        int n = count_of(&st);
        mt_ok(st.MPI_SOURCE == src && st.MPI_TAG == 2 && n == BIG, "Probe of a %d-byte message: count %d", BIG, n);
        char *b = malloc(n > 0 ? (size_t)n : 1);
        MPI_Recv(b, n, MPI_BYTE, st.MPI_SOURCE, 2, MPI_COMM_WORLD, &st);
        mt_ok(count_of(&st) == BIG && p2p_check(b, BIG, src, 2, 0) < 0, "received into a buffer of exactly that size");
        free(b);
        MPI_Probe(src, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
        mt_ok(st.MPI_TAG == 3 && count_of(&st) == 0, "Probe of an empty message: count 0");
        MPI_Recv(NULL, 0, MPI_BYTE, src, 3, MPI_COMM_WORLD, &st);
    }
    if (is_send)
        MPI_Waitall(2, sreq, MPI_STATUSES_IGNORE);

    /* 3. Mprobe takes the message out of matching: two messages with the same
     *    envelope, Mprobe the first, Recv gets the second, Mrecv the first */
    if (is_send) {
        p2p_fill(sbuf, 64, p2p_rank, 4, 0);
        p2p_fill(sbuf + 64, BIG - 64, p2p_rank, 4, 1);
        MPI_Isend(sbuf, 64, MPI_BYTE, peer, 4, MPI_COMM_WORLD, &sreq[0]);
        MPI_Isend(sbuf + 64, BIG - 64, MPI_BYTE, peer, 4, MPI_COMM_WORLD, &sreq[1]);
    }
    if (is_recv) {
        MPI_Message msg = MPI_MESSAGE_NULL;
        MPI_Mprobe(src, 4, MPI_COMM_WORLD, &msg, &st);
        mt_ok(msg != MPI_MESSAGE_NULL && msg != MPI_MESSAGE_NO_PROC, "Mprobe returns a message handle");
        mt_ok(st.MPI_SOURCE == src && st.MPI_TAG == 4 && count_of(&st) == 64, "Mprobe status: the first message");
        MPI_Probe(src, 4, MPI_COMM_WORLD, &st);
        mt_is_int(count_of(&st), BIG - 64, "a Probe after Mprobe sees the second message");
        MPI_Recv(rbuf, BIG, MPI_BYTE, src, 4, MPI_COMM_WORLD, &st);
        mt_ok(count_of(&st) == BIG - 64 && p2p_check(rbuf, BIG - 64, src, 4, 1) < 0, "Recv gets the second message");
        memset(rbuf, 0, 128);
        mt_is_int(MPI_Mrecv(rbuf, 128, MPI_BYTE, &msg, &st), MPI_SUCCESS, "Mrecv");
        mt_ok(msg == MPI_MESSAGE_NULL, "Mrecv sets the handle to MPI_MESSAGE_NULL");
        mt_ok(st.MPI_SOURCE == src && st.MPI_TAG == 4 && count_of(&st) == 64 && p2p_check(rbuf, 64, src, 4, 0) < 0,
              "Mrecv gets the first message");
    }
    if (is_send)
        MPI_Waitall(2, sreq, MPI_STATUSES_IGNORE);

    /* 4. Improbe: false before, true after; Imrecv of a large message */
    if (is_recv) {
        MPI_Message msg = MPI_MESSAGE_NULL;
        flag = -1;
        MPI_Improbe(src, 5, MPI_COMM_WORLD, &flag, &msg, &st);
        mt_ok(flag == 0 && msg == MPI_MESSAGE_NULL, "Improbe before the send: false, no handle");
    }
    if (is_recv && is_send) {
        MPI_Request g;
        int step = 2;
        MPI_Isend(&step, 1, MPI_INT, peer, P2P_TAG_GO, MPI_COMM_WORLD, &g);
        go_wait();
        MPI_Wait(&g, MPI_STATUS_IGNORE);
    } else {
        go_send(2);
        go_wait();
    }
    if (is_send) {
        p2p_fill(sbuf, BIG, p2p_rank, 5, 0);
        MPI_Isend(sbuf, BIG, MPI_BYTE, peer, 5, MPI_COMM_WORLD, &sreq[0]);
        MPI_Isend(sbuf, 10, MPI_BYTE, peer, 6, MPI_COMM_WORLD, &sreq[1]);
    }
    if (is_recv) {
        MPI_Message msg = MPI_MESSAGE_NULL, msg2 = MPI_MESSAGE_NULL;
        MPI_Request r;
        double end = p2p_now() + 20;
        flag = 0;
        while (!flag && p2p_now() < end)
            MPI_Improbe(MPI_ANY_SOURCE, 5, MPI_COMM_WORLD, &flag, &msg, &st);
        mt_ok(flag && msg != MPI_MESSAGE_NULL && st.MPI_TAG == 5 && count_of(&st) == BIG,
              "Improbe after the send: true, handle, count");
        flag = -1;
        MPI_Iprobe(src, 5, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
        mt_is_int(flag, 0, "the matched message is no longer seen by Iprobe");
        MPI_Mprobe(src, MPI_ANY_TAG, MPI_COMM_WORLD, &msg2, &st);
        mt_ok(st.MPI_TAG == 6 && count_of(&st) == 10, "Mprobe with ANY_TAG finds the next message (tag 6)");
        mt_is_int(MPI_Imrecv(rbuf, BIG, MPI_BYTE, &msg, &r), MPI_SUCCESS, "Imrecv of the large message");
        mt_ok(msg == MPI_MESSAGE_NULL, "Imrecv sets the handle to MPI_MESSAGE_NULL");
        MPI_Wait(&r, &st);
        mt_ok(st.MPI_SOURCE == src && st.MPI_TAG == 5 && count_of(&st) == BIG && p2p_check(rbuf, BIG, src, 5, 0) < 0,
              "Imrecv + Wait: the large message");
        MPI_Mrecv(rbuf, 10, MPI_BYTE, &msg2, &st);
        mt_ok(msg2 == MPI_MESSAGE_NULL && p2p_check(rbuf, 10, src, 5, 0) < 0, "Mrecv of the tag 6 message");
    }
    if (is_send)
        MPI_Waitall(2, sreq, MPI_STATUSES_IGNORE);

    /* 5. MPI_PROC_NULL */
    {
        MPI_Message msg = MPI_MESSAGE_NULL;
        MPI_Request r;
        int c = -1;
        st.MPI_SOURCE = st.MPI_TAG = -77;
        mt_is_int(MPI_Probe(MPI_PROC_NULL, 7, MPI_COMM_WORLD, &st), MPI_SUCCESS, "Probe(MPI_PROC_NULL) returns");
        MPI_Get_count(&st, MPI_INT, &c);
        mt_ok(st.MPI_SOURCE == MPI_PROC_NULL && st.MPI_TAG == MPI_ANY_TAG && c == 0,
              "Probe(MPI_PROC_NULL): source MPI_PROC_NULL, tag MPI_ANY_TAG, count 0");
        flag = 0;
        MPI_Iprobe(MPI_PROC_NULL, 7, MPI_COMM_WORLD, &flag, &st);
        mt_ok(flag && st.MPI_SOURCE == MPI_PROC_NULL && st.MPI_TAG == MPI_ANY_TAG, "Iprobe(MPI_PROC_NULL): true");
        MPI_Mprobe(MPI_PROC_NULL, 7, MPI_COMM_WORLD, &msg, &st);
        mt_ok(msg == MPI_MESSAGE_NO_PROC && st.MPI_SOURCE == MPI_PROC_NULL, "Mprobe(MPI_PROC_NULL): MPI_MESSAGE_NO_PROC");
        c = -1;
        st.MPI_SOURCE = st.MPI_TAG = -77;
        mt_is_int(MPI_Mrecv(rbuf, 10, MPI_BYTE, &msg, &st), MPI_SUCCESS, "Mrecv of MPI_MESSAGE_NO_PROC");
        MPI_Get_count(&st, MPI_BYTE, &c);
        mt_ok(msg == MPI_MESSAGE_NULL && st.MPI_SOURCE == MPI_PROC_NULL && st.MPI_TAG == MPI_ANY_TAG && c == 0,
              "Mrecv(MPI_MESSAGE_NO_PROC): handle MPI_MESSAGE_NULL, PROC_NULL status");
        flag = 0;
        msg = MPI_MESSAGE_NULL;
        MPI_Improbe(MPI_PROC_NULL, 7, MPI_COMM_WORLD, &flag, &msg, &st);
        mt_ok(flag && msg == MPI_MESSAGE_NO_PROC, "Improbe(MPI_PROC_NULL): true, MPI_MESSAGE_NO_PROC");
        MPI_Imrecv(rbuf, 10, MPI_BYTE, &msg, &r);
        mt_ok(msg == MPI_MESSAGE_NULL, "Imrecv(MPI_MESSAGE_NO_PROC) sets the handle to MPI_MESSAGE_NULL");
        c = -1;
        st.MPI_SOURCE = st.MPI_TAG = -77;
        MPI_Wait(&r, &st);
        MPI_Get_count(&st, MPI_BYTE, &c);
        mt_ok(st.MPI_SOURCE == MPI_PROC_NULL && st.MPI_TAG == MPI_ANY_TAG && c == 0, "and completes with a PROC_NULL status");
    }

    /* 6. many messages, probed with wildcards and received in probe order */
    if (is_send) {
        MPI_Request *rq = malloc(64 * sizeof(MPI_Request));
        for (int k = 0; k < 64; k++) {
            size_t n = p2p_sizes[k % (P2P_NSIZES - 1)];
            MPI_Isend(sbuf + k, (int)n, MPI_BYTE, peer, 100 + k % 5, MPI_COMM_WORLD, &rq[k]);
        }
        if (is_recv) {
            /* alone: receive below, then wait */
        } else {
            MPI_Waitall(64, rq, MPI_STATUSES_IGNORE);
            free(rq);
            rq = NULL;
        }
        if (is_recv) {
            int bad = 0;
            for (int k = 0; k < 64; k++) {
                MPI_Probe(src, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
                int n = count_of(&st);
                if (st.MPI_TAG != 100 + k % 5 || n != (int)p2p_sizes[k % (P2P_NSIZES - 1)])
                    bad++;
                MPI_Recv(rbuf, n, MPI_BYTE, src, st.MPI_TAG, MPI_COMM_WORLD, &st);
                if (memcmp(rbuf, sbuf + k, (size_t)n) != 0)
                    bad++;
            }
            mt_is_int(bad, 0, "64 messages of all sizes: Probe(ANY_TAG) then Recv of exactly the probed count");
            MPI_Waitall(64, rq, MPI_STATUSES_IGNORE);
            free(rq);
        }
    } else if (is_recv) {
        /* the sender's buffer holds the tag 5 pattern; compare to it */
        char *want = malloc(BIG);
        p2p_fill(want, BIG, src, 5, 0);
        int bad = 0;
        for (int k = 0; k < 64; k++) {
            MPI_Probe(src, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
            int n = count_of(&st);
            if (st.MPI_TAG != 100 + k % 5 || n != (int)p2p_sizes[k % (P2P_NSIZES - 1)])
                bad++;
            MPI_Recv(rbuf, n, MPI_BYTE, src, st.MPI_TAG, MPI_COMM_WORLD, &st);
            if (memcmp(rbuf, want + k, (size_t)n) != 0)
                bad++;
        }
        mt_is_int(bad, 0, "64 messages of all sizes: Probe(ANY_TAG) then Recv of exactly the probed count");
        free(want);
    }

    free(sbuf);
    free(rbuf);
    MPI_Finalize();
    return mt_done();
}

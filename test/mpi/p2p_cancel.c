/* MPI test: cancelling receives (MPI-3.1 3.8.4).
 *   - a posted receive that nothing matches: Cancel, the request completes
 *     (Wait and Test), Test_cancelled true; specific, ANY_SOURCE, large
 *   - a receive that has already matched (the sender's Ssend completed):
 *     Cancel has no effect, Test_cancelled false, the data is there
 *   - after a cancelled receive the next message with that envelope matches
 *     the next receive; two receives posted, the first cancelled: the
 *     second gets the message
 *   - a persistent receive cancelled, then started again and used
 * Ranks work in pairs (0,1), (2,3); an odd last rank pairs with itself. */
#include "test/mpi/p2p_common.c"

static int peer, is_send, is_recv, src;

static void go(void)
{
    int s = 0;
    MPI_Request g = MPI_REQUEST_NULL;
    if (is_recv)
        MPI_Isend(&s, 1, MPI_INT, peer, P2P_TAG_GO, MPI_COMM_WORLD, &g);
    if (is_send)
        MPI_Recv(&s, 1, MPI_INT, peer, P2P_TAG_GO, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Wait(&g, MPI_STATUS_IGNORE);
}

static int cancelled(const MPI_Status *st)
{
    int f = -1;
    MPI_Test_cancelled(st, &f);
    return f;
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
    src = is_send ? p2p_rank : peer;
    const int big = 2 << 20;
    char *rb = malloc((size_t)big), *rb2 = malloc((size_t)big), *sb = malloc((size_t)big);
    MPI_Request r, r2;
    MPI_Status st;

    if (is_recv) {
        /* 1. cancel of posted receives that nothing matches */
        MPI_Irecv(rb, 100, MPI_BYTE, src, 1, MPI_COMM_WORLD, &r);
        mt_is_int(MPI_Cancel(&r), MPI_SUCCESS, "Cancel of a posted receive");
        mt_ok(r != MPI_REQUEST_NULL, "Cancel does not free the request");
        mt_is_int(MPI_Wait(&r, &st), MPI_SUCCESS, "Wait completes the cancelled receive");
        mt_ok(r == MPI_REQUEST_NULL && cancelled(&st) == 1, "Test_cancelled: true");
        MPI_Irecv(rb, 100, MPI_BYTE, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &r);
        MPI_Cancel(&r);
        mt_ok(p2p_test_for(&r, &st, 20) && cancelled(&st) == 1, "ANY_SOURCE/ANY_TAG receive: Test completes it, cancelled");
        MPI_Irecv(rb, big, MPI_BYTE, src, 2, MPI_COMM_WORLD, &r);
        MPI_Cancel(&r);
        MPI_Wait(&r, &st);
        mt_is_int(cancelled(&st), 1, "a large posted receive is cancelled");
        /* two receives for tag 3, the first cancelled */
        MPI_Irecv(rb, 100, MPI_BYTE, src, 3, MPI_COMM_WORLD, &r);
        MPI_Irecv(rb2, 100, MPI_BYTE, src, 3, MPI_COMM_WORLD, &r2);
        MPI_Cancel(&r);
        MPI_Wait(&r, &st);
        mt_is_int(cancelled(&st), 1, "first of two tag-3 receives cancelled");
    }
    go();
    /* the sender now sends tag 1, tag 2 (large) and tag 3 */
    MPI_Request s[3];
    char *sb2 = malloc((size_t)big), *sb3 = malloc(100);
    if (is_send) {
        p2p_fill(sb, 100, p2p_rank, 1, 0);
        MPI_Isend(sb, 100, MPI_BYTE, peer, 1, MPI_COMM_WORLD, &s[0]);
        p2p_fill(sb2, (size_t)big, p2p_rank, 2, 0);
        MPI_Isend(sb2, big, MPI_BYTE, peer, 2, MPI_COMM_WORLD, &s[1]);
        p2p_fill(sb3, 100, p2p_rank, 3, 0);
        MPI_Isend(sb3, 100, MPI_BYTE, peer, 3, MPI_COMM_WORLD, &s[2]);
        if (!is_recv) /* alone: the receives below first */
            MPI_Waitall(3, s, MPI_STATUSES_IGNORE);
    }
    if (is_recv) {
        MPI_Wait(&r2, &st);
        mt_ok(cancelled(&st) == 0 && count_of(&st) == 100 && p2p_check(rb2, 100, src, 3, 0) < 0,
              "the second tag-3 receive gets the message");
        MPI_Recv(rb, 100, MPI_BYTE, src, 1, MPI_COMM_WORLD, &st);
        mt_ok(cancelled(&st) == 0 && count_of(&st) == 100 && p2p_check(rb, 100, src, 1, 0) < 0,
              "after a cancelled receive, the next receive gets the tag-1 message");
        MPI_Recv(rb, big, MPI_BYTE, src, 2, MPI_COMM_WORLD, &st);
        mt_ok(count_of(&st) == big && p2p_check(rb, (size_t)big, src, 2, 0) < 0,
              "and the large tag-2 message after its cancelled receive");
    }
    if (is_send && is_recv)
        MPI_Waitall(3, s, MPI_STATUSES_IGNORE);
    free(sb2);
    free(sb3);

    /* 2. cancel of a receive that already matched: the sender's Ssend
     *    completes only once the receive matched; it then says so */
    for (int k = 0; k < 2; k++) {
        int n = k ? big : 100, tag = 10 + k;
        if (is_recv) {
            memset(rb, 0, (size_t)n);
            MPI_Irecv(rb, n, MPI_BYTE, src, tag, MPI_COMM_WORLD, &r);
        }
        go();
        if (is_send) {
            p2p_fill(sb, (size_t)n, p2p_rank, tag, 0);
            MPI_Request ss;
            MPI_Issend(sb, n, MPI_BYTE, peer, tag, MPI_COMM_WORLD, &ss);
            if (is_recv) {
                /* alone: the receive is posted, progress until matched */
                p2p_test_for(&ss, MPI_STATUS_IGNORE, 20);
            } else {
                MPI_Wait(&ss, MPI_STATUS_IGNORE);
                int m = 1;
                MPI_Send(&m, 1, MPI_INT, peer, 12, MPI_COMM_WORLD);
            }
        }
        if (is_recv) {
            int m;
            if (!is_send)
                MPI_Recv(&m, 1, MPI_INT, src, 12, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Cancel(&r);
            MPI_Wait(&r, &st);
            mt_ok(cancelled(&st) == 0 && count_of(&st) == n && p2p_check(rb, (size_t)n, src, tag, 0) < 0,
                  "Cancel of a receive already matched (%d B): no effect, Test_cancelled false, data intact", n);
        }
    }

    /* 3. a persistent receive: cancelled, then started again and used */
    if (is_recv) {
        MPI_Recv_init(rb, 100, MPI_BYTE, src, 20, MPI_COMM_WORLD, &r);
        MPI_Start(&r);
        MPI_Cancel(&r);
        MPI_Wait(&r, &st);
        mt_ok(cancelled(&st) == 1 && r != MPI_REQUEST_NULL, "persistent receive: cancelled, request kept");
        MPI_Start(&r);
    }
    go();
    if (is_send) {
        p2p_fill(sb, 50, p2p_rank, 20, 0);
        MPI_Request ss;
        MPI_Isend(sb, 50, MPI_BYTE, peer, 20, MPI_COMM_WORLD, &ss);
        if (is_recv) {
            MPI_Wait(&r, &st);
            mt_ok(cancelled(&st) == 0 && count_of(&st) == 50 && p2p_check(rb, 50, src, 20, 0) < 0,
                  "started again, it receives the next message");
            MPI_Request_free(&r);
        }
        MPI_Wait(&ss, MPI_STATUS_IGNORE);
    }
    if (is_recv && !is_send) {
        MPI_Wait(&r, &st);
        mt_ok(cancelled(&st) == 0 && count_of(&st) == 50 && p2p_check(rb, 50, src, 20, 0) < 0,
              "started again, it receives the next message");
        MPI_Request_free(&r);
    }
    /* a status of a normal receive is not cancelled */
    mt_ok(!is_recv || cancelled(&st) == 0, "Test_cancelled of a normal receive: false");

    free(rb);
    free(rb2);
    free(sb);
    MPI_Finalize();
    return mt_done();
}

/* MPI test: send modes (MPI-3.1 3.4, 3.6).
 *   - Issend: Test stays false until the receiver, told by a separate "go"
 *     message, posts the receive; then Wait completes (eager and large)
 *   - Ssend blocks until the receive is posted (receiver sleeps first)
 *   - Rsend / Irsend with the receive posted first
 *   - Bsend / Ibsend with Buffer_attach / Buffer_detach: completes before the
 *     receive is posted; detach returns the address and size and waits for
 *     the buffered messages; a buffer too small: MPI_ERR_BUFFER
 * Ranks work in pairs (0,1), (2,3); an odd last rank pairs with itself (then
 * only the nonblocking parts that cannot deadlock alone run). */
#include "test/mpi/p2p_common.c"

static int peer, is_send, is_recv, src, alone;

static int count_of(const MPI_Status *st)
{
    int c = -1;
    MPI_Get_count(st, MPI_BYTE, &c);
    return c;
}

/* the receiver tells the sender to go on */
static void go_r2s(void)
{
    int s = 0;
    MPI_Request g = MPI_REQUEST_NULL;
    if (is_recv)
        MPI_Isend(&s, 1, MPI_INT, peer, P2P_TAG_GO, MPI_COMM_WORLD, &g);
    if (is_send)
        MPI_Recv(&s, 1, MPI_INT, peer, P2P_TAG_GO, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Wait(&g, MPI_STATUS_IGNORE);
}

/* Issend of n bytes: Test false while the receiver has not posted */
static void issend_test(int n, int tag)
{
    char *b = malloc((size_t)n + 1), *rb = malloc((size_t)n + 1);
    MPI_Request r = MPI_REQUEST_NULL, g = MPI_REQUEST_NULL;
    int flag = 0, falses = 0, go = 1;
    if (is_send) {
        p2p_fill(b, (size_t)n, p2p_rank, tag, 0);
        MPI_Issend(b, n, MPI_BYTE, peer, tag, MPI_COMM_WORLD, &r);
        for (int i = 0; i < 20 && !flag; i++) {
            MPI_Test(&r, &flag, MPI_STATUS_IGNORE);
            falses += !flag;
            p2p_sleep_ms(2);
        }
        mt_ok(!flag && falses == 20, "Issend %d B: Test stays false while no receive is posted", n);
        /* now tell the receiver to post */
        MPI_Isend(&go, 1, MPI_INT, peer, P2P_TAG_GO, MPI_COMM_WORLD, &g);
    }
    if (is_recv) {
        MPI_Status st;
        MPI_Recv(&go, 1, MPI_INT, peer, P2P_TAG_GO, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Recv(rb, n, MPI_BYTE, src, tag, MPI_COMM_WORLD, &st);
        mt_ok(count_of(&st) == n && p2p_check(rb, (size_t)n, src, tag, 0) < 0, "Issend %d B: received intact", n);
    }
    if (is_send) {
        mt_ok(p2p_test_for(&r, MPI_STATUS_IGNORE, 30), "Issend %d B: completes once the receive is posted", n);
        MPI_Wait(&g, MPI_STATUS_IGNORE);
    }
    free(b);
    free(rb);
}

/* Ssend blocks until the receive is posted: the receiver sleeps 300 ms,
 * notes the time just before it posts the receive and tells the sender,
 * whose Ssend must have returned after that moment (one clock: the ranks
 * of these tests share a kernel, also as namespace hosts). */
static void ssend_blocks(int n, int tag)
{
    char *b = malloc((size_t)n + 1);
    double posted = 0;
    if (is_send) {
        p2p_fill(b, (size_t)n, p2p_rank, tag, 0);
        go_r2s(); /* the receiver is about to sleep */
        MPI_Ssend(b, n, MPI_BYTE, peer, tag, MPI_COMM_WORLD);
        double done = p2p_now();
        MPI_Recv(&posted, 1, MPI_DOUBLE, peer, P2P_TAG_GO, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        mt_ok(done >= posted, "Ssend %d B returned %.3f s after the receive was posted (not before)", n,
              done - posted);
    } else {
        MPI_Status st;
        go_r2s();
        p2p_sleep_ms(300);
        posted = p2p_now();
        MPI_Recv(b, n, MPI_BYTE, src, tag, MPI_COMM_WORLD, &st);
        mt_ok(count_of(&st) == n && p2p_check(b, (size_t)n, src, tag, 0) < 0, "Ssend %d B: received intact", n);
        MPI_Send(&posted, 1, MPI_DOUBLE, peer, P2P_TAG_GO, MPI_COMM_WORLD);
    }
    free(b);
}

/* Rsend / Irsend: the receive is posted, then "go", then the ready send */
static void rsend(int n, int tag, int nonblocking)
{
    char *b = malloc((size_t)n + 1), *rb = malloc((size_t)n + 1);
    MPI_Request r = MPI_REQUEST_NULL;
    if (is_recv)
        MPI_Irecv(rb, n, MPI_BYTE, src, tag, MPI_COMM_WORLD, &r);
    go_r2s();
    if (is_send) {
        p2p_fill(b, (size_t)n, p2p_rank, tag, 0);
        if (nonblocking) {
            MPI_Request s;
            MPI_Irsend(b, n, MPI_BYTE, peer, tag, MPI_COMM_WORLD, &s);
            mt_is_int(MPI_Wait(&s, MPI_STATUS_IGNORE), MPI_SUCCESS, "Irsend %d B + Wait", n);
        } else {
            mt_is_int(MPI_Rsend(b, n, MPI_BYTE, peer, tag, MPI_COMM_WORLD), MPI_SUCCESS, "Rsend %d B", n);
        }
    }
    if (is_recv) {
        MPI_Status st;
        MPI_Wait(&r, &st);
        mt_ok(count_of(&st) == n && p2p_check(rb, (size_t)n, src, tag, 0) < 0, "%s %d B: received intact",
              nonblocking ? "Irsend" : "Rsend", n);
    }
    free(b);
    free(rb);
}

/* Bsend: messages buffered before any receive is posted */
static void bsend(void)
{
    static const int sizes[4] = {0, 100, 70000, 1 << 20};
    int total = 0, psize = 0;
    for (int i = 0; i < 4; i++) {
        MPI_Pack_size(sizes[i], MPI_BYTE, MPI_COMM_WORLD, &psize);
        total += psize + MPI_BSEND_OVERHEAD;
    }
    mt_ok(MPI_BSEND_OVERHEAD >= 0, "MPI_BSEND_OVERHEAD is %d", (int)MPI_BSEND_OVERHEAD);
    char *ab = malloc((size_t)total), *b = malloc(1 << 20), *rb = malloc(1 << 20);
    if (is_send) {
        /* exactly the room the standard asks for: Pack_size + overhead each */
        mt_is_int(MPI_Buffer_attach(ab, total), MPI_SUCCESS, "Buffer_attach of %d bytes", total);
        int bad = 0;
        for (int i = 0; i < 4; i++) {
            p2p_fill(b, (size_t)sizes[i], p2p_rank, 50 + i, 0);
            if (i % 2)
                bad += MPI_Bsend(b, sizes[i], MPI_BYTE, peer, 50 + i, MPI_COMM_WORLD) != MPI_SUCCESS;
            else {
                MPI_Request r;
                bad += MPI_Ibsend(b, sizes[i], MPI_BYTE, peer, 50 + i, MPI_COMM_WORLD, &r) != MPI_SUCCESS;
                bad += MPI_Wait(&r, MPI_STATUS_IGNORE) != MPI_SUCCESS;
            }
            memset(b, 0xee, (size_t)sizes[i]); /* the user buffer is free again */
        }
        mt_is_int(bad, 0, "Bsend/Ibsend of 0 B .. 1 MiB complete before any receive is posted");
        int go = 1;
        MPI_Request g;
        MPI_Isend(&go, 1, MPI_INT, peer, P2P_TAG_GO, MPI_COMM_WORLD, &g);
        /* detach waits for the buffered messages; the receiver posts late
         * (alone, the receive comes first, below) */
        if (!alone) {
            void *addr = NULL;
            int sz = -1;
            mt_is_int(MPI_Buffer_detach(&addr, &sz), MPI_SUCCESS, "Buffer_detach");
            mt_ok(addr == (void *)ab && sz == total, "detach returns the buffer's address and size");
            memset(ab, 0xdd, (size_t)total); /* the receiver must not see this */
        }
        MPI_Wait(&g, MPI_STATUS_IGNORE);
    }
    if (is_recv) {
        int go;
        MPI_Recv(&go, 1, MPI_INT, peer, P2P_TAG_GO, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        if (!alone)
            p2p_sleep_ms(100);
        int bad = 0;
        for (int i = 3; i >= 0; i--) {
            MPI_Status st;
            MPI_Recv(rb, 1 << 20, MPI_BYTE, src, 50 + i, MPI_COMM_WORLD, &st);
            bad += count_of(&st) != sizes[i] || p2p_check(rb, (size_t)sizes[i], src, 50 + i, 0) >= 0;
        }
        mt_is_int(bad, 0, "the buffered messages arrive intact (received in reverse order, after a delay)");
    }
    if (alone) {
        void *addr = NULL;
        int sz = -1;
        mt_is_int(MPI_Buffer_detach(&addr, &sz), MPI_SUCCESS, "Buffer_detach");
        mt_ok(addr == (void *)ab && sz == total, "detach returns the buffer's address and size");
    }
    free(b);
    free(rb);
    free(ab);
}

/* a buffer too small: MPI_ERR_BUFFER, nothing sent, then a normal message */
static void bsend_too_small(void)
{
    int sz = 1000 + MPI_BSEND_OVERHEAD;
    char *ab = malloc((size_t)sz), *b = malloc(100000);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    if (is_send) {
        int cls = -1;
        MPI_Buffer_attach(ab, sz);
        int rc = MPI_Bsend(b, 100000, MPI_BYTE, peer, 60, MPI_COMM_WORLD);
        MPI_Error_class(rc, &cls);
        mt_is_int(cls, MPI_ERR_BUFFER, "Bsend of 100000 B into a %d-byte buffer: MPI_ERR_BUFFER", sz);
        p2p_fill(b, 500, p2p_rank, 61, 0);
        mt_is_int(MPI_Bsend(b, 500, MPI_BYTE, peer, 61, MPI_COMM_WORLD), MPI_SUCCESS, "a 500-byte Bsend still fits");
    }
    if (is_recv) {
        MPI_Status st;
        MPI_Request r;
        /* bounded wait: a lost message is a failed check, not a hang */
        MPI_Irecv(b, 100000, MPI_BYTE, src, MPI_ANY_TAG, MPI_COMM_WORLD, &r);
        if (!p2p_test_for(&r, &st, 10)) {
            MPI_Cancel(&r);
            MPI_Wait(&r, &st);
            st.MPI_TAG = -1;
        }
        mt_ok(st.MPI_TAG == 61 && count_of(&st) == 500 && p2p_check(b, 500, src, 61, 0) < 0,
              "the refused message was not sent; the next one arrives");
    }
    if (is_send) {
        void *addr;
        MPI_Buffer_detach(&addr, &sz);
    }
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    free(ab);
    free(b);
}

int main(int argc, char **argv)
{
    p2p_init(&argc, &argv);
    peer = p2p_rank ^ 1;
    if (peer >= p2p_size)
        peer = p2p_rank;
    alone = peer == p2p_rank;
    is_send = p2p_rank <= peer;
    is_recv = p2p_rank >= peer;
    src = is_send ? p2p_rank : peer;

    issend_test(10, 1);
    issend_test(1 << 20, 2);
    if (!alone) {
        ssend_blocks(10, 3);
        ssend_blocks(1 << 20, 4);
    }
    for (int nb = 0; nb < 2; nb++) {
        if (alone && !nb)
            continue; /* a blocking Rsend to oneself is fine, but keep it simple */
        rsend(10, 5 + 2 * nb, nb);
        rsend(2 << 20, 6 + 2 * nb, nb);
    }
    bsend();
    bsend_too_small();
    /* Ssend / Rsend / Bsend to MPI_PROC_NULL */
    mt_is_int(MPI_Ssend(NULL, 0, MPI_BYTE, MPI_PROC_NULL, 1, MPI_COMM_WORLD), MPI_SUCCESS, "Ssend to MPI_PROC_NULL");
    mt_is_int(MPI_Rsend(NULL, 0, MPI_BYTE, MPI_PROC_NULL, 1, MPI_COMM_WORLD), MPI_SUCCESS, "Rsend to MPI_PROC_NULL");
    MPI_Request r;
    MPI_Issend(NULL, 0, MPI_BYTE, MPI_PROC_NULL, 1, MPI_COMM_WORLD, &r);
    mt_ok(p2p_test_for(&r, MPI_STATUS_IGNORE, 5), "Issend to MPI_PROC_NULL completes");
    MPI_Finalize();
    return mt_done();
}

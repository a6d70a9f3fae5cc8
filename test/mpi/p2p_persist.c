/* MPI test: persistent requests (MPI-3.1 3.9).
 *   - Send_init / Ssend_init / Rsend_init / Bsend_init with Recv_init,
 *     Start and Startall repeated many times with new buffer contents each
 *     time, eager and rendezvous sizes
 *   - Wait / Test on an inactive persistent request return at once with an
 *     empty status and keep the request; Request_free of an inactive one
 *   - persistent requests with MPI_PROC_NULL
 * Ranks work in pairs (0,1), (2,3); an odd last rank pairs with itself. */
#include "test/mpi/p2p_common.c"

#define ITERS 60

static int peer, is_send, is_recv, src;

static int is_empty(const MPI_Status *st)
{
    int c = -1;
    MPI_Get_count(st, MPI_BYTE, &c);
    return st->MPI_SOURCE == MPI_ANY_SOURCE && st->MPI_TAG == MPI_ANY_TAG && c == 0;
}

/* receiver -> sender, both ways usable for a rank alone */
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

/* mode: 0 standard, 1 synchronous, 2 ready, 3 buffered */
static void loop(int mode, int n, int tag)
{
    static const char *names[4] = {"Send_init", "Ssend_init", "Rsend_init", "Bsend_init"};
    char *sb = calloc(1, (size_t)n + 1), *rb = calloc(1, (size_t)n + 1), *ab = NULL;
    MPI_Request sr = MPI_REQUEST_NULL, rr = MPI_REQUEST_NULL;
    int bad = 0;
    if (mode == 3 && is_send) {
        int psize = 0;
        MPI_Pack_size(n, MPI_BYTE, MPI_COMM_WORLD, &psize);
        /* room for every round: a message may still be buffered when the
         * next round starts */
        ab = malloc((size_t)ITERS * ((size_t)psize + MPI_BSEND_OVERHEAD));
        MPI_Buffer_attach(ab, ITERS * (psize + MPI_BSEND_OVERHEAD));
    }
    if (is_send) {
        switch (mode) {
        case 0: MPI_Send_init(sb, n, MPI_BYTE, peer, tag, MPI_COMM_WORLD, &sr); break;
        case 1: MPI_Ssend_init(sb, n, MPI_BYTE, peer, tag, MPI_COMM_WORLD, &sr); break;
        case 2: MPI_Rsend_init(sb, n, MPI_BYTE, peer, tag, MPI_COMM_WORLD, &sr); break;
        default: MPI_Bsend_init(sb, n, MPI_BYTE, peer, tag, MPI_COMM_WORLD, &sr); break;
        }
    }
    if (is_recv)
        MPI_Recv_init(rb, n, MPI_BYTE, src, tag, MPI_COMM_WORLD, &rr);
    for (int it = 0; it < ITERS; it++) {
        if (is_recv) {
            memset(rb, 0, (size_t)n);
            MPI_Start(&rr);
        }
        if (mode == 2)
            go(); /* a ready send needs the receive posted */
        if (is_send) {
            p2p_fill(sb, (size_t)n, p2p_rank, tag, it);
            MPI_Start(&sr);
        }
        if (is_send && is_recv) {
            MPI_Request both[2] = {sr, rr};
            MPI_Status sts[2];
            MPI_Waitall(2, both, sts);
            int c = -1;
            MPI_Get_count(&sts[1], MPI_BYTE, &c);
            bad += both[0] != sr || both[1] != rr || c != n || p2p_check(rb, (size_t)n, src, tag, it) >= 0;
        } else if (is_send) {
            MPI_Wait(&sr, MPI_STATUS_IGNORE);
            bad += sr == MPI_REQUEST_NULL;
        } else {
            MPI_Status st;
            int c = -1;
            MPI_Wait(&rr, &st);
            MPI_Get_count(&st, MPI_BYTE, &c);
            bad += rr == MPI_REQUEST_NULL || c != n || st.MPI_SOURCE != src || st.MPI_TAG != tag ||
                   p2p_check(rb, (size_t)n, src, tag, it) >= 0;
        }
    }
    mt_is_int(bad, 0, "%s %d B with Recv_init: %d rounds, new contents each time, handles kept", names[mode], n, ITERS);
    /* Wait on the now inactive requests: at once, empty status, still there */
    MPI_Request *mine = is_send ? &sr : &rr;
    MPI_Status st;
    st.MPI_SOURCE = st.MPI_TAG = -77;
    mt_is_int(MPI_Wait(mine, &st), MPI_SUCCESS, "%s %d B: Wait on the inactive request", names[mode], n);
    mt_ok(is_empty(&st) && *mine != MPI_REQUEST_NULL, "returns an empty status and keeps the request");
    if (is_send)
        mt_is_int(MPI_Request_free(&sr), MPI_SUCCESS, "Request_free of an inactive persistent send");
    if (is_recv)
        mt_is_int(MPI_Request_free(&rr), MPI_SUCCESS, "Request_free of an inactive persistent receive");
    mt_ok(sr == MPI_REQUEST_NULL && rr == MPI_REQUEST_NULL, "handles set to MPI_REQUEST_NULL");
    if (ab) {
        void *a;
        int sz;
        MPI_Buffer_detach(&a, &sz);
        free(ab);
    }
    free(sb);
    free(rb);
}

/* Startall over a small and a large message in each direction */
static void startall(void)
{
    const int n0 = 64, n1 = 1 << 20;
    char *s0 = calloc(1, n0), *s1 = calloc(1, n1), *r0 = calloc(1, n0), *r1 = calloc(1, n1);
    MPI_Request reqs[4];
    int bad = 0;
    /* both ranks of a pair send and receive: peer's messages come from peer */
    MPI_Send_init(s0, n0, MPI_BYTE, peer, 40, MPI_COMM_WORLD, &reqs[0]);
    MPI_Send_init(s1, n1, MPI_BYTE, peer, 41, MPI_COMM_WORLD, &reqs[1]);
    MPI_Recv_init(r0, n0, MPI_BYTE, peer, 40, MPI_COMM_WORLD, &reqs[2]);
    MPI_Recv_init(r1, n1, MPI_BYTE, peer, 41, MPI_COMM_WORLD, &reqs[3]);
    MPI_Status st;
    int flag = 0;
    MPI_Test(&reqs[2], &flag, &st);
    mt_ok(flag && is_empty(&st) && reqs[2] != MPI_REQUEST_NULL, "Test on an inactive persistent request: true, empty");
    for (int it = 0; it < ITERS; it++) {
        p2p_fill(s0, n0, p2p_rank, 40, it);
        p2p_fill(s1, n1, p2p_rank, 41, it);
        MPI_Startall(4, reqs);
        MPI_Waitall(4, reqs, MPI_STATUSES_IGNORE);
        bad += p2p_check(r0, n0, peer, 40, it) >= 0 || p2p_check(r1, n1, peer, 41, it) >= 0;
        for (int i = 0; i < 4; i++)
            bad += reqs[i] == MPI_REQUEST_NULL;
        if (bad)
            break;
    }
    mt_is_int(bad, 0, "Startall of 2 sends + 2 receives (64 B, 1 MiB) in both directions, %d rounds", ITERS);
    for (int i = 0; i < 4; i++)
        MPI_Request_free(&reqs[i]);
    free(s0);
    free(s1);
    free(r0);
    free(r1);
}

static void proc_null(void)
{
    MPI_Request r[2];
    MPI_Status sts[2];
    char b[8] = {0};
    int c = -1;
    MPI_Send_init(b, 8, MPI_BYTE, MPI_PROC_NULL, 1, MPI_COMM_WORLD, &r[0]);
    MPI_Recv_init(b, 8, MPI_BYTE, MPI_PROC_NULL, 1, MPI_COMM_WORLD, &r[1]);
    for (int it = 0; it < 3; it++) {
        MPI_Startall(2, r);
        MPI_Waitall(2, r, sts);
    }
    MPI_Get_count(&sts[1], MPI_BYTE, &c);
    mt_ok(sts[1].MPI_SOURCE == MPI_PROC_NULL && sts[1].MPI_TAG == MPI_ANY_TAG && c == 0,
          "persistent receive from MPI_PROC_NULL: PROC_NULL status");
    MPI_Request_free(&r[0]);
    MPI_Request_free(&r[1]);
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
    for (int mode = 0; mode < 4; mode++) {
        loop(mode, 100, 10 + 2 * mode);
        loop(mode, 300000, 11 + 2 * mode);
    }
    startall();
    proc_null();
    MPI_Finalize();
    return mt_done();
}

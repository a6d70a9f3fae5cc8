/* MPI test: Sendrecv and Sendrecv_replace (MPI-3.1 3.10).
 *   - a ring: each rank sends to rank+1 and receives from rank-1, sizes
 *     across every protocol switch, specific and wildcard receives, send and
 *     receive tags that differ, then the ring the other way
 *   - receive room larger than the message: count is the message's
 *   - a line (MPI_PROC_NULL at the ends): PROC_NULL status at rank 0
 *   - with oneself (no deadlock, large)
 *   - Sendrecv_replace in the ring across the same sizes
 *   - MPI 4.0's Isendrecv and Isendrecv_replace: the ring across the sizes,
 *     four in flight at once waited for in reverse order, one completed by
 *     MPI_Test alone, MPI_PROC_NULL, a truncated receive's error in the
 *     Wait (the program goes on), the replace form with oneself, and
 *     MPI_Request_free in flight */
#include "test/mpi/p2p_common.c"

static int count_of(const MPI_Status *st)
{
    int c = -1;
    MPI_Get_count(st, MPI_BYTE, &c);
    return c;
}

int main(int argc, char **argv)
{
    p2p_init(&argc, &argv);
    int right = (p2p_rank + 1) % p2p_size, left = (p2p_rank + p2p_size - 1) % p2p_size;
    size_t maxn = p2p_sizes[P2P_NSIZES - 1];
    char *sb = malloc(maxn + 64), *rb = malloc(maxn + 64);
    MPI_Status st;
    int bad = 0;

    /* ring to the right: tag k for the send, k for the receive; every other
     * size with wildcards (only the left neighbour sends to me) */
    for (int k = 0; k < P2P_NSIZES; k++) {
        size_t n = p2p_sizes[k];
        p2p_fill(sb, n, p2p_rank, k, 0);
        int rs = k % 2 ? MPI_ANY_SOURCE : left, rt = k % 3 ? k : MPI_ANY_TAG;
        int rc = MPI_Sendrecv(sb, (int)n, MPI_BYTE, right, k, rb, (int)maxn + 64, MPI_BYTE, rs, rt, MPI_COMM_WORLD, &st);
        if (rc != MPI_SUCCESS || st.MPI_SOURCE != left || st.MPI_TAG != k || count_of(&st) != (int)n ||
            p2p_check(rb, n, left, k, 0) >= 0) {
            printf("# [rank %d] ring size %zu: rc %d source %d tag %d count %d\n", p2p_rank, n, rc, st.MPI_SOURCE,
                   st.MPI_TAG, count_of(&st));
            bad++;
        }
    }
    mt_is_int(bad, 0, "Sendrecv ring to the right, %d sizes 0 B .. 4 MiB: status and bytes", P2P_NSIZES);

    /* ring to the left, send tag 100 + k, receive tag 100 + k */
    bad = 0;
    for (int k = P2P_NSIZES - 1; k >= 0; k--) {
        size_t n = p2p_sizes[k];
        p2p_fill(sb, n, p2p_rank, 100 + k, 1);
        MPI_Sendrecv(sb, (int)n, MPI_BYTE, left, 100 + k, rb, (int)n, MPI_BYTE, right, 100 + k, MPI_COMM_WORLD, &st);
        bad += st.MPI_SOURCE != right || count_of(&st) != (int)n || p2p_check(rb, n, right, 100 + k, 1) >= 0;
    }
    mt_is_int(bad, 0, "Sendrecv ring to the left, large to small, exact room");

    /* a line: rank 0 receives from MPI_PROC_NULL, the last sends to it */
    {
        int to = p2p_rank + 1 < p2p_size ? p2p_rank + 1 : MPI_PROC_NULL;
        int from = p2p_rank > 0 ? p2p_rank - 1 : MPI_PROC_NULL;
        int v = p2p_rank + 500, w = -1;
        MPI_Sendrecv(&v, 1, MPI_INT, to, 7, &w, 1, MPI_INT, from, 7, MPI_COMM_WORLD, &st);
        if (from == MPI_PROC_NULL) {
            int c = -1;
            MPI_Get_count(&st, MPI_INT, &c);
            mt_ok(w == -1 && st.MPI_SOURCE == MPI_PROC_NULL && st.MPI_TAG == MPI_ANY_TAG && c == 0,
                  "Sendrecv from MPI_PROC_NULL: buffer untouched, PROC_NULL status");
        } else {
            mt_ok(w == from + 500 && st.MPI_SOURCE == from && st.MPI_TAG == 7, "Sendrecv along a line");
        }
    }

    /* with oneself, large */
    {
        size_t n = 3 << 20;
        p2p_fill(sb, n, p2p_rank, 8, 0);
        MPI_Sendrecv(sb, (int)n, MPI_BYTE, p2p_rank, 8, rb, (int)n, MPI_BYTE, p2p_rank, 8, MPI_COMM_WORLD, &st);
        mt_ok(st.MPI_SOURCE == p2p_rank && count_of(&st) == (int)n && p2p_check(rb, n, p2p_rank, 8, 0) < 0,
              "Sendrecv of 3 MiB with oneself");
    }

    /* Sendrecv_replace around the ring */
    bad = 0;
    for (int k = 0; k < P2P_NSIZES; k++) {
        size_t n = p2p_sizes[k];
        p2p_fill(sb, n, p2p_rank, 200 + k, 2);
        memset(sb + n, 0x77, 64);
        int rc = MPI_Sendrecv_replace(sb, (int)n, MPI_BYTE, right, 200 + k, left, 200 + k, MPI_COMM_WORLD, &st);
        if (rc != MPI_SUCCESS || st.MPI_SOURCE != left || st.MPI_TAG != 200 + k || count_of(&st) != (int)n ||
            p2p_check(sb, n, left, 200 + k, 2) >= 0 || p2p_check_byte(sb + n, 64, 0x77) >= 0) {
            printf("# [rank %d] replace size %zu failed\n", p2p_rank, n);
            bad++;
        }
    }
    mt_is_int(bad, 0, "Sendrecv_replace ring, %d sizes: the left neighbour's bytes replace mine, nothing past", P2P_NSIZES);
    {
        size_t n = 1 << 20;
        p2p_fill(sb, n, p2p_rank, 9, 0);
        MPI_Sendrecv_replace(sb, (int)n, MPI_BYTE, p2p_rank, 9, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
        mt_ok(st.MPI_SOURCE == p2p_rank && st.MPI_TAG == 9 && p2p_check(sb, n, p2p_rank, 9, 0) < 0,
              "Sendrecv_replace of 1 MiB with oneself, wildcard receive");
    }

    /* (the wildcard receive above must not meet the ring's next messages) */
    MPI_Barrier(MPI_COMM_WORLD);

    /* ---- MPI_Isendrecv around the ring, each waited for */
    bad = 0;
    for (int k = 0; k < P2P_NSIZES; k++) {
        size_t n = p2p_sizes[k];
        p2p_fill(sb, n, p2p_rank, 300 + k, 3);
        int rs = k % 2 ? MPI_ANY_SOURCE : left, rt = k % 3 ? 300 + k : MPI_ANY_TAG;
        MPI_Request r = MPI_REQUEST_NULL;
        int rc = MPI_Isendrecv(sb, (int)n, MPI_BYTE, right, 300 + k, rb, (int)maxn + 64, MPI_BYTE, rs, rt,
                               MPI_COMM_WORLD, &r);
        int rc2 = MPI_Wait(&r, &st);
        if (rc != MPI_SUCCESS || rc2 != MPI_SUCCESS || r != MPI_REQUEST_NULL || st.MPI_SOURCE != left ||
            st.MPI_TAG != 300 + k || count_of(&st) != (int)n || p2p_check(rb, n, left, 300 + k, 3) >= 0) {
            printf("# [rank %d] isendrecv size %zu: rc %d/%d source %d tag %d count %d\n", p2p_rank, n, rc, rc2,
                   st.MPI_SOURCE, st.MPI_TAG, count_of(&st));
            bad++;
        }
    }
    mt_is_int(bad, 0, "Isendrecv ring, %d sizes: the receive's status, the left neighbour's bytes", P2P_NSIZES);

    /* four in flight (64 KiB each, tags 400..403), waited for in reverse */
    {
        enum { K = 4 };
        size_t n = 65536;
        char *s4 = malloc(K * n), *r4 = malloc(K * n);
        MPI_Request rq[K];
        for (int i = 0; i < K; i++) {
            p2p_fill(s4 + i * n, n, p2p_rank, 400 + i, 4);
            MPI_Isendrecv(s4 + i * n, (int)n, MPI_BYTE, right, 400 + i, r4 + i * n, (int)n, MPI_BYTE, left,
                          400 + i, MPI_COMM_WORLD, &rq[i]);
        }
        bad = 0;
        for (int i = K - 1; i >= 0; i--) {
            MPI_Wait(&rq[i], &st);
            bad += st.MPI_TAG != 400 + i || p2p_check(r4 + i * n, n, left, 400 + i, 4) >= 0;
        }
        mt_is_int(bad, 0, "four Isendrecv in flight, waited for in reverse order: each its own data");
        free(s4);
        free(r4);
    }

    /* completed by MPI_Test alone (the library progresses it in Test) */
    {
        size_t n = 1 << 20;
        p2p_fill(sb, n, p2p_rank, 410, 5);
        MPI_Request r;
        MPI_Isendrecv(sb, (int)n, MPI_BYTE, right, 410, rb, (int)n, MPI_BYTE, left, 410, MPI_COMM_WORLD, &r);
        int flag = 0;
        long polls = 0;
        while (!flag) {
            MPI_Test(&r, &flag, &st);
            polls++;
        }
        mt_ok(r == MPI_REQUEST_NULL && st.MPI_SOURCE == left && count_of(&st) == (int)n &&
                  p2p_check(rb, n, left, 410, 5) < 0,
              "Isendrecv of 1 MiB completed by MPI_Test (%ld calls)", polls);
    }

    /* MPI_PROC_NULL at both ends of a line */
    {
        int to = p2p_rank + 1 < p2p_size ? p2p_rank + 1 : MPI_PROC_NULL;
        int from = p2p_rank > 0 ? p2p_rank - 1 : MPI_PROC_NULL;
        int v = p2p_rank + 600, w = -1;
        MPI_Request r;
        MPI_Isendrecv(&v, 1, MPI_INT, to, 11, &w, 1, MPI_INT, from, 11, MPI_COMM_WORLD, &r);
        MPI_Wait(&r, &st);
        if (from == MPI_PROC_NULL)
            mt_ok(w == -1 && st.MPI_SOURCE == MPI_PROC_NULL && st.MPI_TAG == MPI_ANY_TAG && count_of(&st) == 0,
                  "Isendrecv from MPI_PROC_NULL: buffer untouched, PROC_NULL status");
        else
            mt_ok(w == from + 600 && st.MPI_SOURCE == from && st.MPI_TAG == 11, "Isendrecv along a line");
    }

    /* a receive too small: MPI_ERR_TRUNCATE from the Wait, the program goes on */
    {
        MPI_Comm c;
        MPI_Comm_dup(MPI_COMM_WORLD, &c);
        MPI_Comm_set_errhandler(c, MPI_ERRORS_RETURN);
        size_t n = 100000;
        p2p_fill(sb, n, p2p_rank, 12, 6);
        MPI_Request r;
        int rc = MPI_Isendrecv(sb, (int)n, MPI_BYTE, right, 12, rb, 1000, MPI_BYTE, left, 12, c, &r);
        int rc2 = MPI_Wait(&r, &st);
        int cls = -1;
        MPI_Error_class(rc2, &cls);
        mt_ok(rc == MPI_SUCCESS && cls == MPI_ERR_TRUNCATE && r == MPI_REQUEST_NULL && st.MPI_SOURCE == left &&
                  st.MPI_TAG == 12 && p2p_check(rb, 1000, left, 12, 6) < 0,
              "Isendrecv into 1000 bytes of a 100000-byte message: MPI_ERR_TRUNCATE, source and tag, the first "
              "1000 bytes (rc %d, class %d)", rc2, cls);
        int v = p2p_rank, w = -1;
        MPI_Sendrecv(&v, 1, MPI_INT, right, 13, &w, 1, MPI_INT, left, 13, c, &st);
        mt_is_int(w, left, "the communicator works on after it");
        MPI_Comm_free(&c);
    }

    /* MPI_Isendrecv_replace around the ring */
    bad = 0;
    for (int k = 0; k < P2P_NSIZES; k++) {
        size_t n = p2p_sizes[k];
        p2p_fill(sb, n, p2p_rank, 500 + k, 7);
        memset(sb + n, 0x55, 64);
        MPI_Request r;
        int rc = MPI_Isendrecv_replace(sb, (int)n, MPI_BYTE, right, 500 + k, left, 500 + k, MPI_COMM_WORLD, &r);
        int rc2 = MPI_Wait(&r, &st);
        if (rc != MPI_SUCCESS || rc2 != MPI_SUCCESS || st.MPI_SOURCE != left || st.MPI_TAG != 500 + k ||
            count_of(&st) != (int)n || p2p_check(sb, n, left, 500 + k, 7) >= 0 || p2p_check_byte(sb + n, 64, 0x55) >= 0) {
            printf("# [rank %d] isendrecv_replace size %zu failed\n", p2p_rank, n);
            bad++;
        }
    }
    mt_is_int(bad, 0, "Isendrecv_replace ring, %d sizes: the left neighbour's bytes replace mine, nothing past",
              P2P_NSIZES);
    MPI_Barrier(MPI_COMM_WORLD); /* (nothing else in flight for the wildcard receive) */
    {
        size_t n = 2 << 20;
        p2p_fill(sb, n, p2p_rank, 14, 8);
        MPI_Request r;
        MPI_Isendrecv_replace(sb, (int)n, MPI_BYTE, p2p_rank, 14, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &r);
        MPI_Wait(&r, &st);
        mt_ok(st.MPI_SOURCE == p2p_rank && st.MPI_TAG == 14 && p2p_check(sb, n, p2p_rank, 14, 8) < 0,
              "Isendrecv_replace of 2 MiB with oneself, wildcard receive");
    }
    MPI_Barrier(MPI_COMM_WORLD);

    /* MPI_Request_free in flight: the pair still completes and goes (the
     * ring's next message, tag 16, comes after it: non-overtaking) */
    {
        int v = p2p_rank + 700, w = -1, x = -1;
        MPI_Request r;
        MPI_Isendrecv(&v, 1, MPI_INT, right, 15, &w, 1, MPI_INT, left, 15, MPI_COMM_WORLD, &r);
        mt_is_int(MPI_Request_free(&r), MPI_SUCCESS, "MPI_Request_free of an Isendrecv in flight");
        MPI_Sendrecv(&v, 1, MPI_INT, right, 16, &x, 1, MPI_INT, left, 16, MPI_COMM_WORLD, &st);
        mt_is_int(x, left + 700, "the ring goes on after it");
        MPI_Barrier(MPI_COMM_WORLD);
    }

    free(sb);
    free(rb);
    MPI_Finalize();
    return mt_done();
}

/* MPI test: Sendrecv and Sendrecv_replace (MPI-3.1 3.10).
 *   - a ring: each rank sends to rank+1 and receives from rank-1, sizes
 *     across every protocol switch, specific and wildcard receives, send and
 *     receive tags that differ, then the ring the other way
 *   - receive room larger than the message: count is the message's
 *   - a line (MPI_PROC_NULL at the ends): PROC_NULL status at rank 0
 *   - with oneself (no deadlock, large)
 *   - Sendrecv_replace in the ring across the same sizes */
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
    free(sb);
    free(rb);
    MPI_Finalize();
    return mt_done();
}

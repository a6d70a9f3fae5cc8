/* MPI test: which peers a rank talks to, and when connections are made.
 *
 *   p2p_peers pairs   rank r talks only to r ^ 1 (a transport that connects
 *                     on first use connects each rank to one peer only)
 *   p2p_peers all     right after MPI_Init every rank posts a send to every
 *                     other rank before it waits for anything, so every pair
 *                     of ranks starts connecting to each other at once
 *                     (simultaneous connects)
 * Each message: a small one and one of `big` bytes (default 256 KiB, a
 * rendezvous), contents checked. The test scripts read the transport's
 * debug log to count connections. */
#include "test/mpi/p2p_common.c"

int main(int argc, char **argv)
{
    p2p_init(&argc, &argv);
    int all = argc > 1 && strcmp(argv[1], "all") == 0;
    size_t big = argc > 2 ? (size_t)atol(argv[2]) : (size_t)256 << 10;
    int n = p2p_size;
    int npeers = 0, *peers = malloc(sizeof(int) * (size_t)n);
    for (int r = 0; r < n; r++)
        if (r != p2p_rank && (all || r == (p2p_rank ^ 1)))
            peers[npeers++] = r;
    unsigned char **sb = malloc(sizeof(*sb) * (size_t)npeers * 2), **rb = malloc(sizeof(*rb) * (size_t)npeers * 2);
    MPI_Request *req = malloc(sizeof(*req) * (size_t)npeers * 4);
    const size_t len[2] = {64, big};
    int k = 0;
    /* the sends first: nothing waits before every send is posted */
    for (int i = 0; i < npeers; i++)
        for (int m = 0; m < 2; m++) {
            sb[2 * i + m] = malloc(len[m]);
            p2p_fill(sb[2 * i + m], len[m], p2p_rank, m, peers[i]);
            MPI_Isend(sb[2 * i + m], (int)len[m], MPI_BYTE, peers[i], m, MPI_COMM_WORLD, &req[k++]);
        }
    for (int i = 0; i < npeers; i++)
        for (int m = 0; m < 2; m++) {
            rb[2 * i + m] = calloc(1, len[m]);
            MPI_Irecv(rb[2 * i + m], (int)len[m], MPI_BYTE, peers[i], m, MPI_COMM_WORLD, &req[k++]);
        }
    mt_is_int(MPI_Waitall(k, req, MPI_STATUSES_IGNORE), MPI_SUCCESS, "%s: %d sends and %d receives complete",
              all ? "all" : "pairs", k / 2, k / 2);
    for (int i = 0; i < npeers; i++)
        for (int m = 0; m < 2; m++) {
            long long bad = p2p_check(rb[2 * i + m], len[m], peers[i], m, p2p_rank);
            mt_ok(bad < 0, "%zu bytes from rank %d (first wrong byte %lld)", len[m], peers[i], bad);
            free(sb[2 * i + m]);
            free(rb[2 * i + m]);
        }
    free(sb);
    free(rb);
    free(req);
    free(peers);
    MPI_Finalize();
    return mt_done();
}

/* MPI test helper: ranks 0 and 1 exchange messages (64 B eager and 256 KiB
 * rendezvous, contents checked) until `seconds` (argument, default 60)
 * have passed on rank 0, printing "# exchanging" once the first round is done, so
 * that a test can break something underneath a running job (the verbs
 * test removes the device) and check how the job ends. */
#include "test/mpi/p2p_common.c"

int main(int argc, char **argv)
{
    p2p_init(&argc, &argv);
    double seconds = argc > 1 ? atof(argv[1]) : 60;
    const size_t big = 256 << 10;
    unsigned char *s = malloc(big), *r = malloc(big);
    int peer = p2p_rank ^ 1, rounds = 0;
    if (p2p_rank > 1 || peer >= p2p_size) {
        mt_ok(1, "rank %d idle", p2p_rank);
        MPI_Finalize();
        return mt_done();
    }
    double end = p2p_now() + seconds;
    int bad = 0, go = 1;
    for (;;) {
        /* rank 0's clock decides, and says so: with each rank watching its
         * own, one could stop while the other waits for another round */
        if (p2p_rank == 0) {
            go = p2p_now() < end;
            MPI_Send(&go, 1, MPI_INT, peer, 2, MPI_COMM_WORLD);
        } else {
            MPI_Recv(&go, 1, MPI_INT, peer, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        }
        if (!go)
            break;
        for (int k = 0; k < 2; k++) {
            size_t n = k ? big : 64;
            MPI_Request q[2];
            p2p_fill(s, n, p2p_rank, k, rounds);
            MPI_Irecv(r, (int)n, MPI_BYTE, peer, k, MPI_COMM_WORLD, &q[0]);
            MPI_Isend(s, (int)n, MPI_BYTE, peer, k, MPI_COMM_WORLD, &q[1]);
            MPI_Waitall(2, q, MPI_STATUSES_IGNORE);
            bad += p2p_check(r, n, peer, k, rounds) >= 0;
        }
        if (rounds++ == 0)
            printf("# [rank %d] exchanging\n", p2p_rank);
    }
    mt_ok(bad == 0, "%d rounds, every message as sent (%d wrong)", rounds, bad);
    free(s);
    free(r);
    MPI_Finalize();
    return mt_done();
}

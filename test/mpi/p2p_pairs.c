/* p2p_pairs.c - each rank talks only to its partner (rank ^ 1): a small
 * message, one above every eager limit, and a synchronous one, both ways,
 * checked byte for byte. Run under RDMPI_LOG=debug:p2p, the connections
 * each rank made show that peers are connected on first use only
 * (test/mpi/lib.sh: lazy_connect_check). */
#include <stdlib.h>

#include "test/mpi/p2p_common.c"

int main(int argc, char **argv)
{
    p2p_init(&argc, &argv);
    int peer = p2p_rank ^ 1;
    static const size_t sizes[] = {8, 1 << 20};
    if (peer < p2p_size) {
        for (int i = 0; i < 2; i++) {
            size_t n = sizes[i];
            unsigned char *out = malloc(n), *in = malloc(n);
            p2p_fill(out, n, p2p_rank, i, 0);
            MPI_Status st;
            MPI_Sendrecv(out, (int)n, MPI_BYTE, peer, i, in, (int)n, MPI_BYTE, peer, i, MPI_COMM_WORLD, &st);
            mt_is_int(p2p_check(in, n, peer, i, 0), -1, "%zu bytes from rank %d arrive intact", n, peer);
            mt_is_int(st.MPI_SOURCE, peer, "%zu bytes: source", n);
            if (p2p_rank < peer) {
                MPI_Ssend(out, (int)n, MPI_BYTE, peer, 7, MPI_COMM_WORLD);
            } else {
                MPI_Recv(in, (int)n, MPI_BYTE, peer, 7, MPI_COMM_WORLD, &st);
                mt_is_int(p2p_check(in, n, peer, i, 0), -1, "%zu bytes by Ssend from rank %d", n, peer);
            }
            free(out);
            free(in);
        }
    }
    MPI_Finalize();
    return mt_done();
}

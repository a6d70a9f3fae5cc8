/* MPI test: the profiling interface. This program defines its own
 * MPI_Comm_rank and MPI_Init that count calls and forward to PMPI_. */
#include "test/mpi/mtest.h"

static int rank_calls, init_calls;

int MPI_Init(int *argc, char ***argv)
{
    init_calls++;
    return PMPI_Init(argc, argv);
}

int MPI_Comm_rank(MPI_Comm comm, int *rank)
{
    rank_calls++;
    return PMPI_Comm_rank(comm, rank);
}

int main(int argc, char **argv)
{
    int r = -1, pr = -1;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &r);
    PMPI_Comm_rank(MPI_COMM_WORLD, &pr);
    mt_rank = r;
    mt_is_int(init_calls, 1, "the tool's MPI_Init wrapper ran once");
    mt_is_int(rank_calls, 1, "the tool's MPI_Comm_rank wrapper ran once (not for PMPI_)");
    mt_is_int(r, pr, "the wrapper returns PMPI_Comm_rank's value");
    MPI_Finalize();
    mt_is_int(rank_calls, 1, "the library made no call through MPI_Comm_rank itself");
    return mt_done();
}

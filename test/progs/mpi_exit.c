/* mpi_exit.c - a rank that leaves without MPI_Finalize, for the launcher tests.
 *
 *   mpi_exit RANK CODE
 *
 * Every rank initializes MPI, prints "rank R pid P" and joins a barrier (so
 * every rank is up, its node's shared-memory segment attached). Then rank
 * RANK exits with status CODE without MPI_Finalize, and the others block in
 * an MPI_Recv that no rank ever matches: the launcher must end them. With
 * RANK -1 no rank exits (every rank blocks). */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, exit_rank = argc > 1 ? atoi(argv[1]) : 0;
    int code = argc > 2 ? atoi(argv[2]) : 1;
    int buf;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    printf("rank %d pid %ld\n", rank, (long)getpid());
    fflush(stdout);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == exit_rank)
        exit(code);
    MPI_Recv(&buf, 1, MPI_INT, MPI_ANY_SOURCE, 99, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    printf("rank %d: not reached\n", rank);
    MPI_Finalize();
    return 1;
}

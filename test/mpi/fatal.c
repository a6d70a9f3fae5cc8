/* MPI test program: errors under MPI_ERRORS_ARE_FATAL end the job.
 * Usage: fatal MODE, MODE one of comm (bad communicator on rank 1),
 * before (a call before MPI_Init on every rank), thread LEVEL (init_thread). */
#include <stdlib.h>
#include <unistd.h>

#include "test/mpi/mtest.h"

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "comm";
    int rank = -1, size = 0;
    if (strcmp(mode, "before") == 0) {
        MPI_Comm_size(MPI_COMM_WORLD, &size); /* ends the process */
        printf("not reached\n");
        return 0;
    }
    if (strcmp(mode, "thread") == 0) {
        int provided = -1, q = -1;
        int required = atoi(argv[2]);
        MPI_Init_thread(&argc, &argv, required, &provided);
        MPI_Comm_rank(MPI_COMM_WORLD, &rank);
        mt_rank = rank;
        MPI_Query_thread(&q);
        mt_is_int(provided, required, "MPI_Init_thread provides the level asked for");
        mt_is_int(q, required, "MPI_Query_thread agrees");
        MPI_Finalize();
        return mt_done();
    }
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 1)
        MPI_Comm_rank(MPI_COMM_NULL, &size); /* ends the job */
    else
        sleep(60); /* the others wait to be ended by the launcher */
    MPI_Finalize();
    return 0;
}

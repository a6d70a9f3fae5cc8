/* rrun_mpi_abort.c - MPI_Abort through librdmpi, for the rrun tests.
 *
 *   rrun_mpi_abort RANK CODE
 *
 * Every rank writes its pid to $RRUN_TEST_DIR/pid.<rank>; rank RANK then
 * calls MPI_Abort(MPI_COMM_WORLD, CODE) once every rank has written its pid
 * (it waits for the files), and the others block in sleep(60): rrun must
 * end them. */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include <mpi.h>

static const char *dir;

static void write_pid_file(int rank)
{
    char tmp[4096], path[4096];
    FILE *f;

    snprintf(tmp, sizeof(tmp), "%s/.pid.%d", dir, rank);
    snprintf(path, sizeof(path), "%s/pid.%d", dir, rank);
    f = fopen(tmp, "w");
    if (f == NULL)
        return;
    fprintf(f, "%ld\n", (long)getpid());
    fclose(f);
    rename(tmp, path);
}

/* Wait (bounded: 30 s) until every rank has written its pid file. */
static void wait_for_peers(int size)
{
    char path[4096];

    for (int r = 0, tries = 0; r < size && tries < 30000; tries++) {
        snprintf(path, sizeof(path), "%s/pid.%d", dir, r);
        if (access(path, F_OK) == 0)
            r++;
        else
            usleep(1000);
    }
}

int main(int argc, char **argv)
{
    int rank, size, abort_rank = argc > 1 ? atoi(argv[1]) : 0;
    int code = argc > 2 ? atoi(argv[2]) : 1;

    dir = getenv("RRUN_TEST_DIR");
    if (dir == NULL)
        dir = ".";
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    write_pid_file(rank);
    if (rank == abort_rank) {
        wait_for_peers(size);
        MPI_Abort(MPI_COMM_WORLD, code);
    }
    sleep(60);
    MPI_Finalize();
    return 0;
}

/* MPI test: passive-target progress with a busy target (test/mpi/
 * rma_core.sh: on a node's direct path, which needs no target CPU; on the
 * active-message path with RDMPI_RMA_PROGRESS_THREAD=yes). Rank 0 computes
 * without calling MPI, watching its own window memory, while every other
 * rank takes rank 0's lock, Puts, Gets back and unlocks: the value lands,
 * and the origins' unlocks return, while rank 0 still computes. */
#include <stdint.h>
#include <time.h>

#include "test/mpi/mtest.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    mt_rank = rank;
    int *b = NULL;
    MPI_Win win;
    MPI_Win_allocate(64 * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &b, &win);
    for (int i = 0; i < 64; i++)
        b[i] = 0;
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
        /* compute: no MPI call until every other rank's value is here (60 s at most) */
        volatile int *vb = b;
        double t0 = now();
        int seen = 0;
        while (now() - t0 < 60 && seen < size - 1) {
            seen = 0;
            for (int r = 1; r < size; r++)
                seen += vb[r] == 1000 + r;
        }
        mt_is_int(seen, size - 1, "a computing target: every origin's Put landed without an MPI call here");
    } else {
        int v = 1000 + rank, back = -1;
        MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win);
        MPI_Put(&v, 1, MPI_INT, 0, rank, 1, MPI_INT, win);
        MPI_Win_flush(0, win);
        MPI_Get(&back, 1, MPI_INT, 0, rank, 1, MPI_INT, win);
        MPI_Win_unlock(0, win);
        mt_is_int(back, 1000 + rank, "lock, Put, Get, unlock on a computing target: the value back");
    }
    MPI_Win_free(&win);
    printf("done [rank %d] %d checks, %d failed\n", rank, mt_checks, mt_failed);
    MPI_Finalize();
    return 0;
}

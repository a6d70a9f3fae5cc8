/* rrun_busy.c - an MPI job that keeps every kind of traffic going, for
 * killing ranks at random moments (test/launcher/rrun_kill.sh).
 *
 *   rrun_busy SECONDS
 *
 * Until rank 0's clock passes SECONDS (it tells the others in every round's
 * Allreduce), each round: a ring exchange of 256 KiB (rendezvous, single
 * copy between the ranks) and of 64 B (eager), a Bcast of 1 MiB from a
 * rotating root, an 8-byte Allreduce, a 64 KiB Allgather. Contents are
 * checked; a wrong value exits 3. Rank 0 prints "busy: N rounds" at the end. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
    int rank, size, rounds = 0, go = 1;
    double seconds = argc > 1 ? atof(argv[1]) : 1.0, end;
    const int big = 256 << 10, bc = 1 << 20, ag = 64 << 10;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    char *s = malloc(big), *r = malloc(big), *b = malloc(bc), *g = malloc((size_t)ag * size);
    char *mine = malloc(ag);
    if (!s || !r || !b || !g || !mine)
        return 2;
    end = MPI_Wtime() + seconds;
    while (go) {
        int next = (rank + 1) % size, prev = (rank + size - 1) % size, root = rounds % size;
        long sum = 0, want = (long)size * (size - 1) / 2;

        memset(s, rank + rounds, (size_t)big);
        MPI_Sendrecv(s, big, MPI_CHAR, next, 1, r, big, MPI_CHAR, prev, 1, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
        if (r[0] != (char)(prev + rounds) || r[big - 1] != (char)(prev + rounds))
            return 3;
        MPI_Sendrecv(s, 64, MPI_CHAR, prev, 2, r, 64, MPI_CHAR, next, 2, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
        if (r[63] != (char)(next + rounds))
            return 3;
        if (rank == root)
            memset(b, root ^ rounds, (size_t)bc);
        MPI_Bcast(b, bc, MPI_CHAR, root, MPI_COMM_WORLD);
        if (b[bc - 1] != (char)(root ^ rounds))
            return 3;
        memset(mine, rank, (size_t)ag);
        MPI_Allgather(mine, ag, MPI_CHAR, g, ag, MPI_CHAR, MPI_COMM_WORLD);
        for (int k = 0; k < size; k++)
            if (g[(size_t)k * ag + ag - 1] != (char)k)
                return 3;
        /* rank 0's clock decides for everyone */
        long mine_go[2] = {rank, rank == 0 ? (MPI_Wtime() < end) : 0}, all[2];
        MPI_Allreduce(mine_go, all, 2, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
        sum = all[0];
        go = (int)all[1];
        if (sum != want)
            return 3;
        rounds++;
    }
    if (rank == 0)
        printf("busy: %d rounds\n", rounds);
    free(s);
    free(r);
    free(b);
    free(g);
    free(mine);
    MPI_Finalize();
    return 0;
}

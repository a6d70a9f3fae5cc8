/* hang.c - jobs that hang on purpose, for rrun's report of what every rank
 * waits for (test/launcher/rrun_report.sh).
 *
 *   hang cycle     ranks 0 and 1 each receive from the other (tag 7)
 *                  before sending: a deadlock; rank 1 first got an
 *                  unexpected message from rank 0 (tag 3, 8 bytes); the
 *                  other ranks wait in MPI_Barrier
 *   hang stopped   the last rank stops itself (SIGSTOP) after MPI_Init;
 *                  the others wait for it in MPI_Allreduce
 *   hang busy      the last rank computes forever outside MPI; the others
 *                  wait for it in MPI_Bcast (1 MiB from it: a rendezvous
 *                  on the message path) or, rank 0, in MPI_Ssend to it
 *   hang testloop  ranks 0 and 1 each post a receive from the other (tag 9)
 *                  and poll it for ever, rank 0 by MPI_Test, rank 1 by
 *                  MPI_Testsome; the other ranks loop on MPI_Iprobe for a
 *                  message from rank 0 (tag 11) that never comes
 *   hang late      the last rank sleeps SECONDS (argument 2, default 2)
 *                  in a loop of short sleeps, then joins a Barrier with
 *                  the others; every rank prints "rank R done" and the
 *                  job ends normally (a report asked for meanwhile must
 *                  not disturb it)
 * Each rank writes its pid to $RRUN_TEST_DIR/pid.<rank> after MPI_Init
 * (the test waits for every file before it asks), and "ready" files once
 * it is about to block. */
#include <mpi.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static void mark(const char *what, int rank)
{
    const char *dir = getenv("RRUN_TEST_DIR");
    char tmp[4096], path[4096];
    FILE *f;

    if (dir == NULL)
        return;
    snprintf(tmp, sizeof(tmp), "%s/.%s.%d", dir, what, rank);
    snprintf(path, sizeof(path), "%s/%s.%d", dir, what, rank);
    f = fopen(tmp, "w");
    if (f == NULL)
        return;
    fprintf(f, "%ld\n", (long)getpid());
    fclose(f);
    rename(tmp, path);
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "cycle";
    int rank, size, x = 0;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    mark("pid", rank);
    MPI_Barrier(MPI_COMM_WORLD);
    if (strcmp(mode, "cycle") == 0) {
        double d = 1.5;
        if (rank == 0)
            MPI_Send(&d, 1, MPI_DOUBLE, 1, 3, MPI_COMM_WORLD);
        if (rank <= 1) {
            if (rank == 1) {
                /* the tag-3 message is there before rank 1 blocks */
                MPI_Status st;
                MPI_Probe(0, 3, MPI_COMM_WORLD, &st);
            }
            mark("ready", rank);
            MPI_Recv(&x, 1, MPI_INT, 1 - rank, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Send(&x, 1, MPI_INT, 1 - rank, 7, MPI_COMM_WORLD);
        } else {
            mark("ready", rank);
        }
        MPI_Barrier(MPI_COMM_WORLD);
    } else if (strcmp(mode, "stopped") == 0) {
        mark("ready", rank);
        if (rank == size - 1)
            raise(SIGSTOP);
        MPI_Allreduce(MPI_IN_PLACE, &x, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    } else if (strcmp(mode, "busy") == 0) {
        static char big[1 << 20];
        mark("ready", rank);
        if (rank == size - 1) {
            volatile unsigned long spin = 0;
            for (;;)
                spin++;
        }
        if (rank == 0)
            MPI_Ssend(&x, 1, MPI_INT, size - 1, 5, MPI_COMM_WORLD);
        else
            MPI_Bcast(big, (int)sizeof(big), MPI_CHAR, size - 1, MPI_COMM_WORLD);
    } else if (strcmp(mode, "testloop") == 0) {
        MPI_Request r;
        int flag = 0, out = 0, idx[1];
        mark("ready", rank);
        if (rank <= 1) {
            MPI_Irecv(&x, 1, MPI_INT, 1 - rank, 9, MPI_COMM_WORLD, &r);
            while (!flag && out != 1) {
                if (rank == 0)
                    MPI_Test(&r, &flag, MPI_STATUS_IGNORE);
                else
                    MPI_Testsome(1, &r, &out, idx, MPI_STATUSES_IGNORE);
            }
        } else {
            while (!flag)
                MPI_Iprobe(0, 11, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
        }
    } else {
        double seconds = argc > 2 ? atof(argv[2]) : 2.0;
        mark("ready", rank);
        if (rank == size - 1)
            for (double t = 0; t < seconds; t += 0.01) {
                struct timespec ts = {0, 10 * 1000 * 1000};
                nanosleep(&ts, NULL);
            }
        MPI_Barrier(MPI_COMM_WORLD);
        printf("rank %d done\n", rank);
    }
    MPI_Finalize();
    return 0;
}

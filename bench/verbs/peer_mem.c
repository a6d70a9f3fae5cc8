/* peer_mem.c - what one more connected peer costs rank 0 in memory (a
 * benchmark helper, run by bench/verbs/peers.sh).
 *
 * Rank 0 reads its memory figures after MPI_Init, then exchanges one small
 * message with rank 1, 2, ... in turn (they wait to be asked) (a transport that connects on first
 * use connects then), reading them after each: resident set (VmRSS),
 * pinned memory (VmPin: what verbs registered), and the bytes malloc has
 * handed out (mallinfo2: in use + mmapped). The other ranks only answer. */
#include <malloc.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static long status_kb(const char *field)
{
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    long v = -1;
    size_t n = strlen(field);
    while (f && fgets(line, sizeof(line), f))
        if (strncmp(line, field, n) == 0 && line[n] == ':')
            v = atol(line + n + 1);
    if (f)
        fclose(f);
    return v;
}

static void report(int peers)
{
    struct mallinfo2 mi = mallinfo2();
    printf("peers %d rss_kb %ld pin_kb %ld heap_kb %zu\n", peers, status_kb("VmRSS"), status_kb("VmPin"),
           (mi.uordblks + mi.hblkhd) / 1024);
}

int main(int argc, char **argv)
{
    int rank, size;
    char b = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    setvbuf(stdout, NULL, _IOLBF, 0);
    if (rank == 0) {
        report(0);
        for (int p = 1; p < size; p++) {
            MPI_Send(&b, 1, MPI_CHAR, p, 0, MPI_COMM_WORLD);
            MPI_Recv(&b, 1, MPI_CHAR, p, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            report(p);
        }
        for (int p = 1; p < size; p++) /* release them */
            MPI_Send(&b, 1, MPI_CHAR, p, 1, MPI_COMM_WORLD);
    } else {
        /* nothing is sent before rank 0 asks: rank 0 makes every connection */
        MPI_Recv(&b, 1, MPI_CHAR, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Send(&b, 1, MPI_CHAR, 0, 0, MPI_COMM_WORLD);
        MPI_Recv(&b, 1, MPI_CHAR, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    MPI_Finalize();
    return 0;
}

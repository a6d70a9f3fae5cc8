/* MPI test: MPI 4.1's buffers of buffered sends (runtime/p2p/bsend.c):
 *   - a communicator's own buffer: its buffered sends take it while the
 *     process has none (a buffered send on another communicator then
 *     fails with MPI_ERR_BUFFER), detach gives back the address and size
 *   - attaching twice, detaching what is not there: MPI_ERR_BUFFER
 *   - MPI_BUFFER_AUTOMATIC on a communicator: 200 buffered sends of 1 KB
 *     before the receiver takes any, every one delivered; flush; detach
 *     says MPI_BUFFER_AUTOMATIC and 0
 *   - the process's buffer automatic: a 1 MiB buffered send (rendezvous:
 *     it stays in the buffer until received); MPI_Buffer_iflush's request
 *     is not complete before the receiver has taken it, and completes
 *     after; MPI_Buffer_flush; MPI_Comm_iflush_buffer with nothing in it
 *     completes at once
 *   - a communicator freed with its buffer attached and a message in it
 * A ring: each rank sends to the next, receives from the previous. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mtest.h"

static int rank, size, right, left;

static int cls_of(int rc)
{
    int c = -1;
    MPI_Error_class(rc, &c);
    return c;
}

static void own_buffer(void)
{
    MPI_Comm c;
    MPI_Comm_dup(MPI_COMM_WORLD, &c);
    MPI_Comm_set_errhandler(c, MPI_ERRORS_RETURN);
    int room = 100 * (int)sizeof(int) + MPI_BSEND_OVERHEAD;
    char *mem = malloc((size_t)room);
    mt_is_int(MPI_Comm_attach_buffer(c, mem, room), MPI_SUCCESS, "Comm_attach_buffer");
    mt_is_int(cls_of(MPI_Comm_attach_buffer(c, mem, room)), MPI_ERR_BUFFER,
              "Comm_attach_buffer again: MPI_ERR_BUFFER");
    int v[100], w[100];
    for (int i = 0; i < 100; i++)
        v[i] = rank * 1000 + i;
    mt_is_int(MPI_Bsend(v, 100, MPI_INT, right, 1, c), MPI_SUCCESS, "Bsend of 100 ints in the communicator's buffer");
    mt_is_int(cls_of(MPI_Bsend(v, 1, MPI_INT, right, 2, MPI_COMM_WORLD)), MPI_ERR_BUFFER,
              "Bsend on another communicator, no process buffer: MPI_ERR_BUFFER");
    MPI_Recv(w, 100, MPI_INT, left, 1, c, MPI_STATUS_IGNORE);
    int bad = 0;
    for (int i = 0; i < 100; i++)
        bad += w[i] != left * 1000 + i;
    mt_is_int(bad, 0, "the message from the communicator's buffer arrives whole");
    void *got = NULL;
    int gsize = -1;
    mt_is_int(MPI_Comm_detach_buffer(c, &got, &gsize), MPI_SUCCESS, "Comm_detach_buffer");
    mt_ok(got == mem && gsize == room, "it gives back the address and the size (%d)", gsize);
    mt_is_int(cls_of(MPI_Comm_detach_buffer(c, &got, &gsize)), MPI_ERR_BUFFER,
              "Comm_detach_buffer with none attached: MPI_ERR_BUFFER");
    free(mem);
    MPI_Comm_free(&c);
}

static void automatic(void)
{
    MPI_Comm c;
    MPI_Comm_dup(MPI_COMM_WORLD, &c);
    mt_is_int(MPI_Comm_attach_buffer(c, MPI_BUFFER_AUTOMATIC, 0), MPI_SUCCESS,
              "Comm_attach_buffer(MPI_BUFFER_AUTOMATIC)");
    enum { N = 200, L = 256 };
    static int msg[N][L];
    int rc = MPI_SUCCESS;
    for (int k = 0; k < N && rc == MPI_SUCCESS; k++) {
        for (int i = 0; i < L; i++)
            msg[k][i] = rank * 100000 + k * 1000 + i;
        rc = MPI_Bsend(msg[k], L, MPI_INT, right, k, c);
        msg[k][0] = -1; /* (the buffer has its own copy) */
    }
    mt_is_int(rc, MPI_SUCCESS, "%d buffered sends of 1 KB into an automatic buffer", N);
    MPI_Barrier(c); /* every rank has sent all before anyone receives */
    int bad = 0, w[L];
    for (int k = 0; k < N; k++) {
        MPI_Recv(w, L, MPI_INT, left, k, c, MPI_STATUS_IGNORE);
        for (int i = 0; i < L; i++)
            bad += w[i] != left * 100000 + k * 1000 + i;
    }
    mt_is_int(bad, 0, "every one delivered whole");
    mt_is_int(MPI_Comm_flush_buffer(c), MPI_SUCCESS, "Comm_flush_buffer");
    void *got = NULL;
    int gsize = -1;
    MPI_Comm_detach_buffer(c, &got, &gsize);
    mt_ok(got == MPI_BUFFER_AUTOMATIC && gsize == 0, "Comm_detach_buffer of it: MPI_BUFFER_AUTOMATIC, 0");
    MPI_Comm_free(&c);
}

static void process_iflush(void)
{
    mt_is_int(MPI_Buffer_attach(MPI_BUFFER_AUTOMATIC, 0), MPI_SUCCESS, "Buffer_attach(MPI_BUFFER_AUTOMATIC)");
    int n = 1 << 18; /* 1 MiB */
    int *big = malloc(sizeof(int) * (size_t)n), *rb = malloc(sizeof(int) * (size_t)n);
    for (int i = 0; i < n; i++)
        big[i] = rank + i;
    MPI_Bsend(big, n, MPI_INT, right, 7, MPI_COMM_WORLD);
    memset(big, 0, sizeof(int) * (size_t)n);
    MPI_Request fr;
    int flag = -1;
    MPI_Buffer_iflush(&fr);
    MPI_Test(&fr, &flag, MPI_STATUS_IGNORE);
    if (size > 1)
        mt_is_int(flag, 0, "Buffer_iflush before the receiver took the 1 MiB message: not complete");
    MPI_Barrier(MPI_COMM_WORLD); /* (nobody has received yet) */
    MPI_Request rr;
    MPI_Irecv(rb, n, MPI_INT, left, 7, MPI_COMM_WORLD, &rr);
    MPI_Request both[2] = {fr, rr};
    MPI_Waitall(2, both, MPI_STATUSES_IGNORE);
    int bad = 0;
    for (int i = 0; i < n; i++)
        bad += rb[i] != left + i;
    mt_is_int(bad, 0, "after the receive, the iflush completes; the message arrived whole");
    mt_is_int(MPI_Buffer_flush(), MPI_SUCCESS, "Buffer_flush with nothing in the buffer");
    MPI_Request cr;
    flag = 0;
    MPI_Comm_iflush_buffer(MPI_COMM_WORLD, &cr);
    MPI_Test(&cr, &flag, MPI_STATUS_IGNORE);
    mt_ok(flag == 1 && cr == MPI_REQUEST_NULL, "Comm_iflush_buffer of a communicator without one: complete at once");
    void *got = NULL;
    int gsize = -1;
    MPI_Buffer_detach(&got, &gsize);
    mt_ok(got == MPI_BUFFER_AUTOMATIC && gsize == 0, "Buffer_detach: MPI_BUFFER_AUTOMATIC, 0");
    free(big);
    free(rb);
}

static void freed_with_buffer(void)
{
    MPI_Comm c;
    MPI_Comm_dup(MPI_COMM_WORLD, &c);
    static char mem[4096];
    MPI_Comm_attach_buffer(c, mem, sizeof mem);
    int x = rank, y = -1;
    MPI_Bsend(&x, 1, MPI_INT, right, 3, c);
    MPI_Recv(&y, 1, MPI_INT, left, 3, c, MPI_STATUS_IGNORE);
    MPI_Comm_free(&c);
    mt_is_int(y, left, "a communicator freed with its buffer attached (its message arrived)");
    MPI_Barrier(MPI_COMM_WORLD);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    mt_rank = rank;
    right = (rank + 1) % size;
    left = (rank + size - 1) % size;
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    own_buffer();
    automatic();
    process_iflush();
    freed_with_buffer();
    MPI_Finalize();
    return mt_done();
}

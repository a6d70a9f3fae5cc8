/* MPI test: a send that cannot start for want of memory. The program
 * makes one malloc of a chosen size fail (it interposes malloc: not run
 * under the sanitizers, which own malloc): the packed copy of a small
 * non-contiguous message (P2P_NOMEM_TRACE=1 prints where it failed).
 * Checked:
 *   - MPI_Sendrecv in a ring whose sends all fail: MPI_ERR_NO_MEM, and
 *     the call returns (its receive, which no message will match, does
 *     not stay posted: it once waited for it for ever)
 *   - then the same ring with memory: every rank gets its neighbour's
 *     data (no receive of the failed calls is left to take it, and the
 *     failed send gave its sequence number back: the receiver takes a
 *     peer's messages in sequence order, and a number skipped held up
 *     every later message for ever)
 *   - MPI_Isendrecv the same way: the error at the call, the next works */
#include <execinfo.h>
#include <mpi.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mtest.h"

extern void *__libc_malloc(size_t n);
static size_t fail_size; /* the next malloc of this size fails (0: none) */

void *malloc(size_t n)
{
    if (n == fail_size && n) {
        fail_size = 0;
        if (getenv("P2P_NOMEM_TRACE")) {
            void *bt[16];
            backtrace_symbols_fd(bt, backtrace(bt, 16), 2);
        }
        return NULL;
    }
    return __libc_malloc(n);
}

enum { N = 1021 };

int main(int argc, char **argv)
{
    int rank, size, cls = -1;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    mt_rank = rank;
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    /* N chars, every other byte of sb: packed before it is sent */
    MPI_Datatype every2;
    MPI_Type_vector(N, 1, 2, MPI_CHAR, &every2);
    MPI_Type_commit(&every2);
    static char sb[2 * N], rb[N];
    for (int i = 0; i < 2 * N; i++)
        sb[i] = (char)(rank * 7 + i / 2);
    MPI_Status st;

    fail_size = N;
    int rc = MPI_Sendrecv(sb, 1, every2, right, 5, rb, N, MPI_CHAR, left, 5, MPI_COMM_WORLD, &st);
    fail_size = 0;
    MPI_Error_class(rc, &cls);
    mt_is_int(cls, MPI_ERR_NO_MEM, "Sendrecv whose send finds no memory: MPI_ERR_NO_MEM, and it returns");
    MPI_Barrier(MPI_COMM_WORLD);

    memset(rb, 0, sizeof rb);
    rc = MPI_Sendrecv(sb, 1, every2, right, 5, rb, N, MPI_CHAR, left, 5, MPI_COMM_WORLD, &st);
    int bad = 0;
    for (int i = 0; i < N; i++)
        bad += rb[i] != (char)(left * 7 + i);
    mt_ok(rc == MPI_SUCCESS && st.MPI_SOURCE == left && bad == 0,
          "the next Sendrecv gets the neighbour's data: rc %d, source %d, %d bytes wrong", rc, st.MPI_SOURCE, bad);

    MPI_Request q = MPI_REQUEST_NULL;
    fail_size = N;
    rc = MPI_Isendrecv(sb, 1, every2, right, 6, rb, N, MPI_CHAR, left, 6, MPI_COMM_WORLD, &q);
    fail_size = 0;
    MPI_Error_class(rc, &cls);
    mt_is_int(cls, MPI_ERR_NO_MEM, "Isendrecv whose send finds no memory: MPI_ERR_NO_MEM at the call");
    MPI_Barrier(MPI_COMM_WORLD);
    memset(rb, 0, sizeof rb);
    rc = MPI_Isendrecv(sb, 1, every2, right, 6, rb, N, MPI_CHAR, left, 6, MPI_COMM_WORLD, &q);
    if (rc == MPI_SUCCESS)
        rc = MPI_Wait(&q, &st);
    bad = 0;
    for (int i = 0; i < N; i++)
        bad += rb[i] != (char)(left * 7 + i);
    mt_ok(rc == MPI_SUCCESS && bad == 0, "the next Isendrecv gets the neighbour's data: rc %d, %d bytes wrong", rc,
          bad);
    MPI_Type_free(&every2);
    MPI_Finalize();
    return mt_done();
}

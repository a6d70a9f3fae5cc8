/* MPI test: the large-count one-sided calls (MPI_Put_c ..., the windows'
 * _c forms with an MPI_Aint disp_unit), each its int twin's code, on 2
 * ranks (1 works too: a rank's own window). Exact values in the targets'
 * windows and the origins' buffers; the count errors. */
#include <stdint.h>

#include "test/mpi/mtest.h"

#define N 32

int main(int argc, char **argv)
{
    int me, np;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    mt_rank = me;
    int peer = (me + 1) % np, from = (me + np - 1) % np;

    /* ---- MPI_Win_create_c: a disp_unit of 4 (MPI_Aint) */
    int mem[4 * N], src[N], got[N];
    for (int i = 0; i < 4 * N; i++)
        mem[i] = -1;
    MPI_Win win;
    mt_is_int(MPI_Win_create_c(mem, sizeof mem, (MPI_Aint)sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win),
              MPI_SUCCESS, "MPI_Win_create_c");
    int *du = NULL, flag = 0;
    MPI_Win_get_attr(win, MPI_WIN_DISP_UNIT, &du, &flag);
    mt_ok(flag && du && *du == 4, "MPI_WIN_DISP_UNIT: 4");
    for (int i = 0; i < N; i++)
        src[i] = 1000 * me + i;
    MPI_Win_fence(0, win);
    mt_is_int(MPI_Put_c(src, N, MPI_INT, peer, 0, N, MPI_INT, win), MPI_SUCCESS, "MPI_Put_c");
    MPI_Win_fence(0, win);
    int ok = 1;
    for (int i = 0; i < N; i++)
        ok &= mem[i] == 1000 * from + i;
    mt_ok(ok, "MPI_Put_c: the peer's %d ints at displacement 0", N);
    mt_is_int(MPI_Accumulate_c(src, N, MPI_INT, peer, 0, N, MPI_INT, MPI_SUM, win), MPI_SUCCESS,
              "MPI_Accumulate_c (MPI_SUM)");
    MPI_Win_fence(0, win);
    ok = 1;
    for (int i = 0; i < N; i++)
        ok &= mem[i] == 2 * (1000 * from + i);
    mt_ok(ok, "MPI_Accumulate_c: doubled");
    mt_is_int(MPI_Get_c(got, N, MPI_INT, peer, 0, N, MPI_INT, win), MPI_SUCCESS, "MPI_Get_c");
    MPI_Win_fence(0, win);
    ok = 1;
    for (int i = 0; i < N; i++)
        ok &= got[i] == 2 * (1000 * me + i);
    mt_ok(ok, "MPI_Get_c: this rank's ints doubled, from the peer's window");
    int one[N];
    for (int i = 0; i < N; i++)
        one[i] = 1;
    mt_is_int(MPI_Get_accumulate_c(one, N, MPI_INT, got, N, MPI_INT, peer, N, N, MPI_INT, MPI_SUM, win),
              MPI_SUCCESS, "MPI_Get_accumulate_c at displacement N");
    MPI_Win_fence(0, win);
    ok = 1;
    for (int i = 0; i < N; i++)
        ok &= got[i] == -1 && mem[N + i] == 0;
    mt_ok(ok, "MPI_Get_accumulate_c: the old -1s back, 0 left");

    /* the R-forms in a passive epoch */
    MPI_Request r[4];
    MPI_Win_lock_all(0, win);
    for (int i = 0; i < N; i++)
        src[i] = 7 * me + i;
    MPI_Rput_c(src, N, MPI_INT, peer, 2 * N, N, MPI_INT, win, &r[0]);
    MPI_Raccumulate_c(one, N, MPI_INT, peer, 3 * N, N, MPI_INT, MPI_REPLACE, win, &r[1]);
    MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
    MPI_Win_flush(peer, win);
    MPI_Win_unlock_all(win);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_lock_all(0, win);
    int back[N], old[N];
    MPI_Rget_c(back, N, MPI_INT, peer, 2 * N, N, MPI_INT, win, &r[2]);
    MPI_Rget_accumulate_c(NULL, 0, MPI_INT, old, N, MPI_INT, peer, 3 * N, N, MPI_INT, MPI_NO_OP, win, &r[3]);
    MPI_Waitall(2, r + 2, MPI_STATUSES_IGNORE);
    MPI_Win_unlock_all(win);
    ok = 1;
    for (int i = 0; i < N; i++)
        ok &= back[i] == 7 * me + i && old[i] == 1;
    mt_ok(ok, "MPI_Rput_c, MPI_Raccumulate_c, MPI_Rget_c, MPI_Rget_accumulate_c: every value back");

    /* the count errors (MPI_ERRORS_RETURN on the window) */
    MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);
    int cls = -1;
    MPI_Win_fence(0, win);
    MPI_Error_class(MPI_Put_c(src, -1, MPI_INT, peer, 0, -1, MPI_INT, win), &cls);
    mt_is_int(cls, MPI_ERR_COUNT, "MPI_Put_c of count -1: MPI_ERR_COUNT");
    MPI_Error_class(MPI_Get_c(got, INT64_MAX / 2, MPI_INT, peer, 0, INT64_MAX / 2, MPI_INT, win), &cls);
    mt_is_int(cls, MPI_ERR_COUNT, "MPI_Get_c of 2^62 ints: MPI_ERR_COUNT");
    MPI_Win_fence(0, win);
    MPI_Win_free(&win);

    /* ---- MPI_Win_allocate_c and MPI_Win_allocate_shared_c */
    int *base = NULL;
    mt_is_int(MPI_Win_allocate_c((MPI_Aint)sizeof(int) * N, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win),
              MPI_SUCCESS, "MPI_Win_allocate_c");
    MPI_Win_fence(0, win);
    MPI_Put_c(src, N, MPI_INT, peer, 0, N, MPI_INT, win);
    MPI_Win_fence(0, win);
    ok = 1;
    for (int i = 0; i < N; i++)
        ok &= base[i] == 7 * from + i;
    mt_ok(ok, "a Put into it (disp_unit 1)");
    MPI_Win_free(&win);
    /* a displacement unit beyond an int */
    const MPI_Aint big = (MPI_Aint)1 << 33;
    mt_is_int(MPI_Win_allocate_shared_c((MPI_Aint)sizeof(int) * N, big, MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win),
              MPI_SUCCESS, "MPI_Win_allocate_shared_c with disp_unit 2^33");
    MPI_Aint sz = -1, dq = -1;
    int *pb = NULL, di = -1;
    mt_is_int(MPI_Win_shared_query_c(win, peer, &sz, &dq, &pb), MPI_SUCCESS, "MPI_Win_shared_query_c");
    mt_ok(sz == (MPI_Aint)sizeof(int) * N && dq == big && pb != NULL,
          "the peer's part: %d bytes, disp_unit 2^33 (%lld)", (int)sizeof(int) * N, (long long)dq);
    MPI_Win_shared_query(win, peer, &sz, &di, &pb);
    mt_is_int(di, INT32_MAX, "MPI_Win_shared_query's int disp_unit: cut to INT_MAX");
    MPI_Win_get_attr(win, MPI_WIN_DISP_UNIT, &du, &flag);
    mt_ok(flag && *du == INT32_MAX, "MPI_WIN_DISP_UNIT: cut to INT_MAX");
    MPI_Win_free(&win);

    printf("done [rank %d] %d checks, %d failed\n", me, mt_checks, mt_failed);
    MPI_Finalize();
    return mt_failed != 0;
}

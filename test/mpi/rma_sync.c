/* One-sided synchronisation: MPI_Win_flush, flush_all, flush_local and
 * flush_local_all (values visible at the target, origin buffers reusable,
 * Get results arrived, where the standard promises), MPI_Win_sync making
 * local stores visible to other ranks, fence asserts (NOPRECEDE,
 * NOSUCCEED, NOSTORE, NOPUT), MPI_Win_test, and passive-target progress
 * with a busy target: rank 1 computes for about a second without calling
 * MPI while rank 0 locks its window, puts, gets, accumulates and unlocks
 * (the values are checked, never the time). Written against the MPI
 * standard only; rma_sync.sh runs it on 1 to 4 ranks. */
#include <mpi.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "mtest.h"

#define N 64

static int rank, size, to, from;
volatile double rma_sink; /* the busy target's work */

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static MPI_Win mkwin(int **mem)
{
    MPI_Win win;
    MPI_Win_allocate(N * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, mem, &win);
    for (int i = 0; i < N; i++)
        (*mem)[i] = -1;
    MPI_Barrier(MPI_COMM_WORLD);
    return win;
}

/* flush: complete at the target; a message after it, then Win_sync at
 * the target, and the target sees the value */
static void t_flush(void)
{
    int *m, v, tok = 0, tok2;
    MPI_Win win = mkwin(&m);
    MPI_Win_lock_all(0, win);
    v = 100 + rank;
    MPI_Put(&v, 1, MPI_INT, to, 0, 1, MPI_INT, win);
    MPI_Win_flush(to, win);
    MPI_Sendrecv(&tok, 1, MPI_INT, to, 1, &tok2, 1, MPI_INT, from, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Win_sync(win);
    mt_is_int(m[0], 100 + from, "Win_flush: the Put is at the target once flushed");
    /* flush_all: one Put to every rank, then a barrier */
    for (int r = 0; r < size; r++) {
        v = 1000 * rank + r;
        MPI_Put(&v, 1, MPI_INT, r, 1 + rank, 1, MPI_INT, win);
    }
    MPI_Win_flush_all(win);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_sync(win);
    int bad = -1;
    for (int r = 0; r < size && bad < 0; r++)
        if (m[1 + r] != 1000 * r + rank)
            bad = r;
    mt_ok(bad < 0, "Win_flush_all: every rank's Put is at its target");
    MPI_Barrier(MPI_COMM_WORLD);
    /* flush_local: the origin buffer may be reused at once; the value
     * put is the one before the reuse */
    int buf[8];
    for (int i = 0; i < 8; i++)
        buf[i] = 500 + rank * 10 + i;
    MPI_Put(buf, 8, MPI_INT, to, 10, 8, MPI_INT, win);
    MPI_Win_flush_local(to, win);
    for (int i = 0; i < 8; i++)
        buf[i] = -7;
    MPI_Win_flush(to, win);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_sync(win);
    bad = -1;
    for (int i = 0; i < 8 && bad < 0; i++)
        if (m[10 + i] != 500 + from * 10 + i)
            bad = i;
    mt_ok(bad < 0, "Win_flush_local: the origin buffer is reusable, the target has the old contents");
    /* flush_local completes a Get at the origin */
    int g[8] = {0};
    MPI_Get(g, 8, MPI_INT, to, 10, 8, MPI_INT, win);
    MPI_Win_flush_local(to, win);
    bad = -1;
    for (int i = 0; i < 8 && bad < 0; i++)
        if (g[i] != 500 + rank * 10 + i)
            bad = i;
    mt_ok(bad < 0, "Win_flush_local: a Get's data has arrived");
    MPI_Barrier(MPI_COMM_WORLD);
    /* flush_local_all: Puts to every rank from one buffer, reused after */
    int w = 7000 + rank;
    for (int r = 0; r < size; r++)
        MPI_Put(&w, 1, MPI_INT, r, 20 + rank, 1, MPI_INT, win);
    MPI_Win_flush_local_all(win);
    w = -9;
    /* and Gets from every rank, arrived after flush_local_all */
    int gl[64];
    for (int r = 0; r < size; r++)
        MPI_Get(&gl[r], 1, MPI_INT, r, 1 + r, 1, MPI_INT, win);
    MPI_Win_flush_local_all(win);
    bad = -1;
    for (int r = 0; r < size && bad < 0; r++)
        if (gl[r] != 1000 * r + r)
            bad = r;
    mt_ok(bad < 0, "Win_flush_local_all: Gets from every rank have arrived");
    MPI_Win_flush_all(win);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_sync(win);
    bad = -1;
    for (int r = 0; r < size && bad < 0; r++)
        if (m[20 + r] != 7000 + r)
            bad = r;
    mt_ok(bad < 0, "Win_flush_local_all: the buffer is reusable, every target has the old value");
    MPI_Win_unlock_all(win);
    MPI_Win_free(&win);
}

/* Win_sync: a target's local store made visible to a later Get by
 * another rank (lock_all, store, Win_sync, barrier, Get + flush) */
static void t_win_sync(void)
{
    int *m;
    MPI_Win win = mkwin(&m);
    MPI_Win_lock_all(0, win);
    m[3] = 3000 + rank;
    MPI_Win_sync(win);
    MPI_Barrier(MPI_COMM_WORLD);
    int g = 0;
    MPI_Get(&g, 1, MPI_INT, to, 3, 1, MPI_INT, win);
    MPI_Win_flush(to, win);
    mt_is_int(g, 3000 + to, "Win_sync: a local store is seen by a remote Get");
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_unlock_all(win);
    MPI_Win_free(&win);

    /* in a shared-memory window: stores seen by loads of other ranks */
    MPI_Comm node;
    int nr, ns;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
    MPI_Comm_rank(node, &nr);
    MPI_Comm_size(node, &ns);
    int *mine;
    MPI_Win_allocate_shared(4 * sizeof(int), sizeof(int), MPI_INFO_NULL, node, &mine, &win);
    MPI_Win_lock_all(0, win);
    for (int round = 0; round < 3; round++) {
        mine[round] = 40 * round + nr;
        MPI_Win_sync(win);
        MPI_Barrier(node);
        MPI_Win_sync(win);
        int ok = 1;
        for (int r = 0; r < ns; r++) {
            MPI_Aint qs;
            int qu, *qb;
            MPI_Win_shared_query(win, r, &qs, &qu, &qb);
            if (qb[round] != 40 * round + r)
                ok = 0;
        }
        mt_ok(ok, "Win_sync: stores into a shared window seen by every rank of the node");
        MPI_Barrier(node);
    }
    MPI_Win_unlock_all(win);
    MPI_Win_free(&win);
    MPI_Comm_free(&node);
}

static void t_fence_asserts(void)
{
    int *m;
    MPI_Win win = mkwin(&m);
    m[0] = 10 + rank; /* a local store before the first fence */
    MPI_Win_fence(MPI_MODE_NOPRECEDE, win);
    int v = 20 + rank, g = 0, g2 = 0;
    MPI_Put(&v, 1, MPI_INT, to, 1, 1, MPI_INT, win);
    MPI_Get(&g, 1, MPI_INT, to, 0, 1, MPI_INT, win);
    /* no local stores in the epoch before, no Puts into me in the next */
    MPI_Win_fence(MPI_MODE_NOSTORE | MPI_MODE_NOPUT, win);
    mt_is_int(m[1], 20 + from, "fence NOPRECEDE: the Put of the first epoch landed");
    mt_is_int(g, 10 + to, "fence NOPRECEDE: a Get sees the store made before the first fence");
    MPI_Get(&g2, 1, MPI_INT, to, 1, 1, MPI_INT, win);
    MPI_Win_fence(MPI_MODE_NOSTORE, win);
    mt_is_int(g2, 20 + rank, "fence NOSTORE|NOPUT: a Get in the epoch after reads the Put of the one before");
    /* an epoch of Puts only */
    v = 30 + rank;
    MPI_Put(&v, 1, MPI_INT, to, 2, 1, MPI_INT, win);
    MPI_Win_fence(MPI_MODE_NOSUCCEED, win);
    mt_is_int(m[2], 30 + from, "fence NOSUCCEED: the Put of the last epoch landed");
    /* and the window can then be used by locks */
    MPI_Win_lock(MPI_LOCK_SHARED, to, 0, win);
    MPI_Get(&g, 1, MPI_INT, to, 2, 1, MPI_INT, win);
    MPI_Win_unlock(to, win);
    mt_is_int(g, 30 + rank, "after fence NOSUCCEED, a lock epoch");
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_free(&win);
}

static void t_win_test(void)
{
    int *m;
    MPI_Win win = mkwin(&m);
    MPI_Group wg, gfrom, gto;
    MPI_Comm_group(MPI_COMM_WORLD, &wg);
    MPI_Group_incl(wg, 1, &from, &gfrom);
    MPI_Group_incl(wg, 1, &to, &gto);
    MPI_Win_post(gfrom, 0, win);
    int flag = -1, tok = 0, tok2;
    MPI_Win_test(win, &flag);
    mt_is_int(flag, 0, "Win_test is false before the origin completes");
    /* tell my origin (from) to go; wait for my target's word */
    MPI_Sendrecv(&tok, 1, MPI_INT, from, 2, &tok2, 1, MPI_INT, to, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Win_start(gto, 0, win);
    int v = 600 + rank;
    MPI_Put(&v, 1, MPI_INT, to, 5, 1, MPI_INT, win);
    MPI_Win_complete(win);
    long spins = 0;
    do {
        MPI_Win_test(win, &flag);
        spins++;
    } while (!flag && spins < 100000000L);
    mt_is_int(flag, 1, "Win_test becomes true once the origin completed");
    mt_is_int(m[5], 600 + from, "Win_test: the Put is there once it is true");
    MPI_Group_free(&gfrom);
    MPI_Group_free(&gto);
    MPI_Group_free(&wg);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_free(&win);
}

/* rank 1 busy without MPI for a second while rank 0 works on its window */
static void t_busy_target(void)
{
    if (size < 2)
        return;
    long long *m;
    MPI_Win win;
    MPI_Win_allocate(8 * sizeof(long long), sizeof(long long), MPI_INFO_NULL, MPI_COMM_WORLD, &m, &win);
    for (int i = 0; i < 8; i++)
        m[i] = 456 + i;
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 1) {
        double t0 = now();
        while (now() - t0 < 1.0)
            for (int i = 0; i < 1000; i++)
                rma_sink += i * 0.5;
    } else if (rank == 0) {
        double t0 = now();
        long long v = 123, g = 0, one = 5, old = 0, cmp = 457, nv = 999, prev = 0;
        MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 1, 0, win);
        MPI_Put(&v, 1, MPI_LONG_LONG, 1, 0, 1, MPI_LONG_LONG, win);
        MPI_Get(&g, 1, MPI_LONG_LONG, 1, 2, 1, MPI_LONG_LONG, win);
        MPI_Win_unlock(1, win);
        double t1 = now();
        MPI_Win_lock(MPI_LOCK_SHARED, 1, 0, win);
        MPI_Fetch_and_op(&one, &old, MPI_LONG_LONG, 1, 3, MPI_SUM, win);
        MPI_Compare_and_swap(&nv, &cmp, &prev, MPI_LONG_LONG, 1, 1, win);
        MPI_Accumulate(&one, 1, MPI_LONG_LONG, 1, 4, 1, MPI_LONG_LONG, MPI_SUM, win);
        MPI_Win_unlock(1, win);
        mt_is_int(g, 458, "busy target: Get under an exclusive lock");
        mt_is_int(old, 459, "busy target: Fetch_and_op under a shared lock");
        mt_is_int(prev, 457, "busy target: Compare_and_swap under a shared lock");
        printf("# busy target: lock/Put/Get/unlock took %.6f s, the whole %.6f s (not checked)\n", t1 - t0,
               now() - t0);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 1) {
        MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 1, 0, win);
        mt_ok(m[0] == 123 && m[1] == 999 && m[3] == 464 && m[4] == 465 && m[2] == 458,
              "busy target: the window after the passive-target epochs");
        MPI_Win_unlock(1, win);
    }
    MPI_Win_free(&win);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    mt_rank = rank;
    to = (rank + 1) % size;
    from = (rank + size - 1) % size;
    t_flush();
    t_win_sync();
    t_fence_asserts();
    t_win_test();
    t_busy_target();
    MPI_Finalize();
    return mt_done();
}

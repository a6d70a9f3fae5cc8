/* MPI test: one-sided communication, every call once with exact values on
 * 1-4 ranks (test/mpi/rma_core.sh runs it on each path and transport).
 *   - windows of every flavour: create (over MPI_Alloc_mem), allocate,
 *     allocate_shared (contiguous and alloc_shared_noncontig, shared_query),
 *     create_dynamic with attach/detach; attributes; info
 *   - Put, Get, Accumulate, Get_accumulate, Fetch_and_op, Compare_and_swap
 *     with basic and derived types on both sides, an odd disp_unit
 *   - fence, PSCW (post/start/complete/wait/test), lock/unlock shared and
 *     exclusive, lock_all/unlock_all, flush(_all, _local, _local_all), sync
 *   - the error classes under MPI_ERRORS_RETURN */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "test/mpi/mtest.h"

static int rank, size;

static void t_fence_put_get(void)
{
    /* Win_allocate of 16 ints; each rank puts 16 values into its right
     * neighbour, then gets them back from there with a vector origin type */
    int *base = NULL;
    MPI_Win win;
    int rc = MPI_Win_allocate(16 * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win);
    mt_ok(rc == MPI_SUCCESS && base != NULL, "Win_allocate: a window of 16 ints");
    for (int i = 0; i < 16; i++)
        base[i] = -1;
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    int src[16];
    for (int i = 0; i < 16; i++)
        src[i] = rank * 1000 + i;
    MPI_Win_fence(MPI_MODE_NOPRECEDE, win);
    MPI_Put(src, 16, MPI_INT, right, 0, 16, MPI_INT, win);
    MPI_Win_fence(0, win);
    int good = 1;
    for (int i = 0; i < 16; i++)
        good &= base[i] == left * 1000 + i;
    mt_ok(good, "fence + Put: 16 ints from the left neighbour, exact");
    /* Get into every other int of a buffer of 32 (vector origin) */
    int got[32];
    for (int i = 0; i < 32; i++)
        got[i] = -7;
    MPI_Datatype vec;
    MPI_Type_vector(16, 1, 2, MPI_INT, &vec);
    MPI_Type_commit(&vec);
    MPI_Get(got, 1, vec, right, 0, 16, MPI_INT, win);
    MPI_Win_fence(MPI_MODE_NOSUCCEED, win);
    good = 1;
    for (int i = 0; i < 16; i++)
        good &= got[2 * i] == rank * 1000 + i && got[2 * i + 1] == -7;
    mt_ok(good, "fence + Get with a vector origin type: every other int, gaps untouched");
    /* a vector target type: Put 4 ints to elements 1, 4, 7, 10 of the left neighbour */
    MPI_Datatype tv;
    MPI_Type_vector(4, 1, 3, MPI_INT, &tv);
    MPI_Type_commit(&tv);
    MPI_Win_fence(0, win);
    int four[4] = {rank + 11, rank + 22, rank + 33, rank + 44};
    MPI_Put(four, 4, MPI_INT, left, 1, 1, tv, win);
    MPI_Win_fence(0, win);
    good = 1;
    for (int i = 0; i < 16; i++) {
        int want = i >= 1 && i <= 10 && (i - 1) % 3 == 0 ? right + 11 * (1 + (i - 1) / 3) : left * 1000 + i;
        good &= base[i] == want;
    }
    mt_ok(good, "Put with a vector target type: 4 ints land at stride 3, the rest untouched");
    MPI_Type_free(&tv);
    MPI_Type_free(&vec);
    /* a large Put (several active messages): 1 MiB of bytes */
    MPI_Win big;
    unsigned char *bb = NULL;
    size_t n = 1 << 20;
    MPI_Win_allocate((MPI_Aint)n, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &bb, &big);
    unsigned char *sb = malloc(n), *gb = malloc(n);
    for (size_t i = 0; i < n; i++)
        sb[i] = (unsigned char)(i * 7 + (size_t)rank);
    MPI_Win_fence(0, big);
    MPI_Put(sb, (int)n, MPI_BYTE, right, 0, (int)n, MPI_BYTE, big);
    MPI_Win_fence(0, big);
    MPI_Get(gb, (int)n, MPI_BYTE, left, 0, (int)n, MPI_BYTE, big);
    MPI_Win_fence(0, big);
    good = 1;
    for (size_t i = 0; i < n; i++)
        good &= bb[i] == (unsigned char)(i * 7 + (size_t)left) && gb[i] == (unsigned char)(i * 7 + (size_t)((left + size - 1) % size));
    mt_ok(good, "1 MiB Put and Get, every byte");
    free(sb);
    free(gb);
    MPI_Win_free(&big);
    MPI_Win_free(&win);
    mt_ok(win == MPI_WIN_NULL, "Win_free sets the handle to MPI_WIN_NULL");
}

static void t_create_odd_unit(void)
{
    /* Win_create over MPI_Alloc_mem memory with disp_unit 3 */
    char *mem = NULL;
    int rc = MPI_Alloc_mem(300, MPI_INFO_NULL, &mem);
    mt_ok(rc == MPI_SUCCESS && mem, "Alloc_mem: 300 bytes");
    memset(mem, 0, 300);
    MPI_Win win;
    MPI_Win_create(mem, 300, 3, MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    int right = (rank + 1) % size;
    char v[3] = {(char)(rank + 1), (char)(rank + 2), (char)(rank + 3)};
    MPI_Win_fence(0, win);
    MPI_Put(v, 3, MPI_CHAR, right, 37, 3, MPI_CHAR, win); /* bytes 111..113 */
    MPI_Win_fence(0, win);
    int left = (rank + size - 1) % size, good = 1;
    for (int i = 0; i < 300; i++)
        good &= mem[i] == (i >= 111 && i <= 113 ? (char)(left + 1 + i - 111) : 0);
    mt_ok(good, "disp_unit 3: displacement 37 is byte 111");
    void *a = NULL;
    MPI_Aint *sz = NULL;
    int *du = NULL, *fl = NULL, *model = NULL, flag = 0;
    MPI_Win_get_attr(win, MPI_WIN_BASE, &a, &flag);
    mt_ok(flag && a == mem, "attribute MPI_WIN_BASE");
    MPI_Win_get_attr(win, MPI_WIN_SIZE, &sz, &flag);
    mt_ok(flag && *sz == 300, "attribute MPI_WIN_SIZE");
    MPI_Win_get_attr(win, MPI_WIN_DISP_UNIT, &du, &flag);
    mt_ok(flag && *du == 3, "attribute MPI_WIN_DISP_UNIT");
    MPI_Win_get_attr(win, MPI_WIN_CREATE_FLAVOR, &fl, &flag);
    mt_ok(flag && *fl == MPI_WIN_FLAVOR_CREATE, "attribute MPI_WIN_CREATE_FLAVOR: create");
    MPI_Win_get_attr(win, MPI_WIN_MODEL, &model, &flag);
    mt_ok(flag && *model == MPI_WIN_UNIFIED, "attribute MPI_WIN_MODEL: unified");
    MPI_Win_free(&win);
    rc = MPI_Free_mem(mem);
    mt_ok(rc == MPI_SUCCESS, "Free_mem");
}

static void t_accumulate(void)
{
    long long *c = NULL;
    MPI_Win win;
    MPI_Win_allocate(8 * sizeof(long long), sizeof(long long), MPI_INFO_NULL, MPI_COMM_WORLD, &c, &win);
    for (int i = 0; i < 8; i++)
        c[i] = i == 2 ? 1000 : 0;
    MPI_Win_fence(0, win);
    /* every rank adds rank+1 to elements 0..3 of rank 0; MAX into 4; REPLACE by rank 0 only into 5 */
    long long add[4];
    for (int i = 0; i < 4; i++)
        add[i] = (rank + 1) * (i + 1);
    MPI_Accumulate(add, 4, MPI_LONG_LONG, 0, 0, 4, MPI_LONG_LONG, MPI_SUM, win);
    long long m = 100 + rank;
    MPI_Accumulate(&m, 1, MPI_LONG_LONG, 0, 4, 1, MPI_LONG_LONG, MPI_MAX, win);
    if (rank == 0) {
        long long r = 77;
        MPI_Accumulate(&r, 1, MPI_LONG_LONG, 0, 5, 1, MPI_LONG_LONG, MPI_REPLACE, win);
    }
    MPI_Win_fence(0, win);
    if (rank == 0) {
        long long s = (long long)size * (size + 1) / 2;
        mt_ok(c[0] == s && c[1] == 2 * s && c[2] == 1000 + 3 * s && c[3] == 4 * s,
              "Accumulate SUM from every rank: exact totals");
        mt_ok(c[4] == 100 + size - 1, "Accumulate MAX: the largest value");
        mt_ok(c[5] == 77, "Accumulate REPLACE");
    }
    /* a derived target type: elements 6 and 7 through a vector of 2 with stride 1 of ints (as long long) */
    MPI_Datatype tv;
    MPI_Type_vector(2, 1, 1, MPI_LONG_LONG, &tv);
    MPI_Type_commit(&tv);
    long long two[2] = {1, 10};
    MPI_Accumulate(two, 2, MPI_LONG_LONG, 0, 6, 1, tv, MPI_SUM, win);
    MPI_Win_fence(0, win);
    if (rank == 0)
        mt_ok(c[6] == size && c[7] == 10 * size, "Accumulate with a derived target type: element by element");
    MPI_Type_free(&tv);
    /* Get_accumulate and MPI_NO_OP */
    long long old[2] = {-1, -1}, one[2] = {1, 1};
    MPI_Win_fence(0, win);
    if (rank == size - 1)
        MPI_Get_accumulate(one, 2, MPI_LONG_LONG, old, 2, MPI_LONG_LONG, 0, 6, 2, MPI_LONG_LONG, MPI_SUM, win);
    MPI_Win_fence(0, win);
    if (rank == size - 1)
        mt_ok(old[0] == size && old[1] == 10 * size, "Get_accumulate returns the contents before the sum");
    long long peek[2] = {0, 0};
    MPI_Get_accumulate(NULL, 0, MPI_LONG_LONG, peek, 2, MPI_LONG_LONG, 0, 6, 2, MPI_LONG_LONG, MPI_NO_OP, win);
    MPI_Win_fence(0, win);
    mt_ok(peek[0] == size + 1 && peek[1] == 10 * size + 1, "Get_accumulate with MPI_NO_OP reads");
    MPI_Win_free(&win);
    /* MAXLOC on MPI_DOUBLE_INT (a pair type with padding) into rank 0 */
    struct { double v; int i; } *dv = NULL, mine = {(double)(rank % 3), rank}, got = {-1, -1};
    MPI_Win_allocate(sizeof(*dv), sizeof(*dv), MPI_INFO_NULL, MPI_COMM_WORLD, &dv, &win);
    dv->v = -1;
    dv->i = -1;
    MPI_Win_fence(0, win);
    MPI_Accumulate(&mine, 1, MPI_DOUBLE_INT, 0, 0, 1, MPI_DOUBLE_INT, MPI_MAXLOC, win);
    MPI_Win_fence(0, win);
    MPI_Get_accumulate(NULL, 0, MPI_DOUBLE_INT, &got, 1, MPI_DOUBLE_INT, 0, 0, 1, MPI_DOUBLE_INT, MPI_NO_OP, win);
    MPI_Win_fence(0, win);
    int maxv = size > 2 ? 2 : size - 1;
    mt_ok(got.v == maxv && got.i == maxv, "Accumulate MAXLOC on MPI_DOUBLE_INT: the largest value, lowest rank");
    MPI_Win_free(&win);
}

static void t_fop_cas(void)
{
    /* 200 Fetch_and_op increments per rank on one counter at rank 0, under
     * lock_all: the exact total, every fetched value seen exactly once */
    int64_t *ctr = NULL;
    MPI_Win win;
    MPI_Win_allocate(2 * sizeof(int64_t), sizeof(int64_t), MPI_INFO_NULL, MPI_COMM_WORLD, &ctr, &win);
    ctr[0] = ctr[1] = 0;
    MPI_Barrier(MPI_COMM_WORLD);
    enum { N = 200 };
    int64_t mine[N], one = 1;
    MPI_Win_lock_all(0, win);
    for (int i = 0; i < N; i++) {
        MPI_Fetch_and_op(&one, &mine[i], MPI_INT64_T, 0, 0, MPI_SUM, win);
        MPI_Win_flush(0, win);
    }
    MPI_Win_unlock_all(win);
    int64_t *all = rank == 0 ? malloc(sizeof(int64_t) * N * (size_t)size) : NULL;
    MPI_Gather(mine, N, MPI_INT64_T, all, N, MPI_INT64_T, 0, MPI_COMM_WORLD);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
        char *seen = calloc((size_t)N * (size_t)size, 1);
        int good = 1;
        for (int i = 0; i < N * size; i++) {
            if (all[i] < 0 || all[i] >= N * size || seen[all[i]])
                good = 0;
            else
                seen[all[i]] = 1;
        }
        mt_ok(ctr[0] == (int64_t)N * size, "Fetch_and_op: %d increments from each rank, exact total", N);
        mt_ok(good, "Fetch_and_op: every fetched value seen exactly once");
        free(seen);
        free(all);
    }
    /* a CAS-based spin lock on a 32-bit word guarding a plain Get/Put increment */
    int32_t *w32 = NULL;
    MPI_Win lw;
    MPI_Win_allocate(2 * sizeof(int32_t), sizeof(int32_t), MPI_INFO_NULL, MPI_COMM_WORLD, &w32, &lw);
    w32[0] = w32[1] = 0;
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_lock_all(0, lw);
    for (int i = 0; i < 50; i++) {
        int32_t unlocked = 0, locked = rank + 1, prev = -1, v = 0;
        do {
            MPI_Compare_and_swap(&locked, &unlocked, &prev, MPI_INT32_T, 0, 0, lw);
            MPI_Win_flush(0, lw);
        } while (prev != 0);
        MPI_Get(&v, 1, MPI_INT32_T, 0, 1, 1, MPI_INT32_T, lw);
        MPI_Win_flush(0, lw);
        v++;
        MPI_Put(&v, 1, MPI_INT32_T, 0, 1, 1, MPI_INT32_T, lw);
        MPI_Win_flush(0, lw);
        MPI_Compare_and_swap(&unlocked, &locked, &prev, MPI_INT32_T, 0, 0, lw);
        MPI_Win_flush(0, lw);
    }
    MPI_Win_unlock_all(lw);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0)
        mt_ok(w32[1] == 50 * size && w32[0] == 0, "Compare_and_swap (32-bit) lock: no update lost");
    MPI_Win_free(&lw);
    /* 64-bit CAS: a failed swap leaves the value, a matching one swaps */
    int64_t cmp = 12345, nv = (int64_t)1 << 40, res = -1;
    MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win);
    MPI_Compare_and_swap(&nv, &cmp, &res, MPI_INT64_T, 0, 1, win);
    MPI_Win_unlock(0, win);
    mt_ok(res == 0 || res == ((int64_t)1 << 40), "Compare_and_swap (64-bit): fetches the old value");
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0)
        mt_ok(ctr[1] == 0, "Compare_and_swap (64-bit): no swap when the compare differs");
    MPI_Barrier(MPI_COMM_WORLD);
    cmp = 0;
    if (rank == 0) {
        MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win);
        MPI_Compare_and_swap(&nv, &cmp, &res, MPI_INT64_T, 0, 1, win);
        MPI_Win_unlock(0, win);
        mt_ok(res == 0 && ctr[1] == ((int64_t)1 << 40), "Compare_and_swap (64-bit): swaps when equal");
    }
    MPI_Win_free(&win);
}

static void t_locks(void)
{
    int *b = NULL;
    MPI_Win win;
    MPI_Win_allocate(size * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &b, &win);
    for (int i = 0; i < size; i++)
        b[i] = -1;
    MPI_Barrier(MPI_COMM_WORLD);
    /* a plain fence first: it opens an epoch only if operations follow, so
     * the locks after it are allowed */
    MPI_Win_fence(0, win);
    /* every rank writes its slot of every rank under an exclusive lock */
    for (int t = 0; t < size; t++) {
        int v = rank * 10 + t;
        MPI_Win_lock(MPI_LOCK_EXCLUSIVE, t, 0, win);
        MPI_Put(&v, 1, MPI_INT, t, rank, 1, MPI_INT, win);
        MPI_Win_unlock(t, win);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    int good = 1;
    for (int i = 0; i < size; i++)
        good &= b[i] == i * 10 + rank;
    mt_ok(good, "lock exclusive + Put + unlock to every rank: every slot written");
    /* shared locks, Get and flush_local */
    int g[64] = {0};
    for (int t = 0; t < size; t++) {
        MPI_Win_lock(MPI_LOCK_SHARED, t, 0, win);
        MPI_Get(&g[t], 1, MPI_INT, t, rank, 1, MPI_INT, win);
        MPI_Win_flush_local(t, win);
        MPI_Win_unlock(t, win);
    }
    good = 1;
    for (int t = 0; t < size; t++)
        good &= g[t] == rank * 10 + t;
    mt_ok(good, "lock shared + Get + flush_local: the values written");
    /* lock_all, Put, flush_all, Get, flush_local_all */
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_lock_all(0, win);
    int right = (rank + 1) % size, v = 500 + rank, back = -1;
    MPI_Put(&v, 1, MPI_INT, right, rank, 1, MPI_INT, win);
    MPI_Win_flush_all(win);
    MPI_Get(&back, 1, MPI_INT, right, rank, 1, MPI_INT, win);
    MPI_Win_flush_local_all(win);
    MPI_Win_sync(win);
    MPI_Win_unlock_all(win);
    mt_ok(back == 500 + rank, "lock_all + Put + flush_all + Get + flush_local_all");
    /* the request forms, in a lock_all epoch */
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_lock_all(0, win);
    MPI_Request rq[4];
    int rv = 700 + rank, rg = -1, ra = 5, rold = -1, rnew = -1;
    MPI_Rput(&rv, 1, MPI_INT, right, rank, 1, MPI_INT, win, &rq[0]);
    MPI_Wait(&rq[0], MPI_STATUS_IGNORE);
    MPI_Win_flush(right, win);
    MPI_Rget(&rg, 1, MPI_INT, right, rank, 1, MPI_INT, win, &rq[1]);
    MPI_Wait(&rq[1], MPI_STATUS_IGNORE);
    mt_ok(rq[0] == MPI_REQUEST_NULL && rg == 700 + rank, "Rput, then Rget: its request brings the value");
    MPI_Raccumulate(&ra, 1, MPI_INT, right, rank, 1, MPI_INT, MPI_SUM, win, &rq[2]);
    MPI_Wait(&rq[2], MPI_STATUS_IGNORE);
    MPI_Win_flush(right, win);
    MPI_Rget_accumulate(&ra, 1, MPI_INT, &rold, 1, MPI_INT, right, rank, 1, MPI_INT, MPI_SUM, win, &rq[3]);
    MPI_Wait(&rq[3], MPI_STATUS_IGNORE);
    MPI_Win_flush(right, win);
    MPI_Get(&rnew, 1, MPI_INT, right, rank, 1, MPI_INT, win);
    MPI_Win_unlock_all(win);
    mt_ok(rold == 705 + rank && rnew == 710 + rank, "Raccumulate and Rget_accumulate: the sums, the value before");
    /* exclusive locks serialise: each rank adds 1 to rank 0's slot 0 by Get+Put */
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0)
        b[0] = 0;
    MPI_Barrier(MPI_COMM_WORLD);
    for (int i = 0; i < 20; i++) {
        int x = 0;
        MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win);
        MPI_Get(&x, 1, MPI_INT, 0, 0, 1, MPI_INT, win);
        MPI_Win_flush(0, win);
        x++;
        MPI_Put(&x, 1, MPI_INT, 0, 0, 1, MPI_INT, win);
        MPI_Win_unlock(0, win);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0)
        mt_ok(b[0] == 20 * size, "exclusive lock: Get+Put increments from every rank, none lost");
    MPI_Win_free(&win);
}

static void t_pscw(void)
{
    int *b = NULL;
    MPI_Win win;
    MPI_Win_allocate(sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &b, &win);
    *b = -1;
    MPI_Group wg, lg, rg;
    MPI_Comm_group(MPI_COMM_WORLD, &wg);
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    MPI_Group_incl(wg, 1, &left, &lg);
    MPI_Group_incl(wg, 1, &right, &rg);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_post(lg, 0, win);   /* the left neighbour writes here */
    MPI_Win_start(rg, 0, win);  /* this rank writes to the right one */
    int v = 900 + rank;
    MPI_Put(&v, 1, MPI_INT, right, 0, 1, MPI_INT, win);
    MPI_Win_complete(win);
    MPI_Win_wait(win);
    mt_ok(*b == 900 + left, "post/start/complete/wait: the left neighbour's Put is here");
    /* again with Win_test */
    MPI_Win_post(lg, 0, win);
    MPI_Win_start(rg, 0, win);
    v = 950 + rank;
    MPI_Put(&v, 1, MPI_INT, right, 0, 1, MPI_INT, win);
    MPI_Win_complete(win);
    int flag = 0;
    for (long i = 0; i < 100000000 && !flag; i++)
        MPI_Win_test(win, &flag);
    mt_ok(flag && *b == 950 + left, "Win_test turns true once the origin completed");
    MPI_Group_free(&lg);
    MPI_Group_free(&rg);
    MPI_Group_free(&wg);
    MPI_Win_free(&win);
}

static void t_shared(int noncontig)
{
    MPI_Comm node;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
    int nr, ns;
    MPI_Comm_rank(node, &nr);
    MPI_Comm_size(node, &ns);
    MPI_Info info = MPI_INFO_NULL;
    if (noncontig) {
        MPI_Info_create(&info);
        MPI_Info_set(info, "alloc_shared_noncontig", "true");
    }
    int *mine = NULL;
    MPI_Win win;
    /* rank r has r+1 ints */
    int rc = MPI_Win_allocate_shared((nr + 1) * (MPI_Aint)sizeof(int), sizeof(int), info, node, &mine, &win);
    mt_ok(rc == MPI_SUCCESS, "Win_allocate_shared (%s)", noncontig ? "noncontig" : "contiguous");
    for (int i = 0; i <= nr; i++)
        mine[i] = nr * 100 + i;
    MPI_Win_fence(0, win);
    int good = 1, contig = 1;
    char *prev_end = NULL;
    for (int r = 0; r < ns; r++) {
        MPI_Aint sz = -1;
        int du = -1;
        int *p = NULL;
        MPI_Win_shared_query(win, r, &sz, &du, &p);
        good &= sz == (MPI_Aint)((r + 1) * sizeof(int)) && du == (int)sizeof(int);
        for (int i = 0; i <= r; i++)
            good &= p[i] == r * 100 + i;
        if (prev_end && (char *)p != prev_end)
            contig = 0;
        prev_end = (char *)(p + r + 1);
    }
    mt_ok(good, "Win_shared_query: every rank's size, disp_unit and memory, exact (%s)",
          noncontig ? "noncontig" : "contiguous");
    if (!noncontig)
        mt_ok(contig, "Win_allocate_shared: the ranks' parts are back to back");
    MPI_Aint sz;
    int du, *p0 = NULL;
    MPI_Win_shared_query(win, MPI_PROC_NULL, &sz, &du, &p0);
    mt_ok(sz == sizeof(int) && p0 && p0[0] == 0, "Win_shared_query(MPI_PROC_NULL): the first rank's part");
    MPI_Win_fence(0, win); /* every rank has read before the Puts */
    /* a Put through the window lands in the shared memory */
    int v = 4242;
    MPI_Put(&v, 1, MPI_INT, (nr + 1) % ns, 0, 1, MPI_INT, win);
    MPI_Win_fence(0, win);
    mt_ok(mine[0] == 4242, "Put into a shared window");
    int *fl = NULL, flag = 0;
    MPI_Win_get_attr(win, MPI_WIN_CREATE_FLAVOR, &fl, &flag);
    mt_ok(flag && *fl == MPI_WIN_FLAVOR_SHARED, "attribute MPI_WIN_CREATE_FLAVOR: shared");
    MPI_Info used;
    char val[MPI_MAX_INFO_VAL + 1];
    MPI_Win_get_info(win, &used);
    MPI_Info_get(used, "alloc_shared_noncontig", MPI_MAX_INFO_VAL, val, &flag);
    mt_ok(flag && strcmp(val, noncontig ? "true" : "false") == 0, "Win_get_info: alloc_shared_noncontig");
    MPI_Info_free(&used);
    if (info != MPI_INFO_NULL)
        MPI_Info_free(&info);
    MPI_Win_free(&win);
    MPI_Comm_free(&node);
}

static void t_dynamic(void)
{
    MPI_Win win;
    int rc = MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    mt_ok(rc == MPI_SUCCESS, "Win_create_dynamic");
    int *mem = calloc(8, sizeof(int));
    rc = MPI_Win_attach(win, mem, 8 * sizeof(int));
    mt_ok(rc == MPI_SUCCESS, "Win_attach");
    MPI_Aint a, *all = malloc(sizeof(MPI_Aint) * (size_t)size);
    MPI_Get_address(mem, &a);
    MPI_Allgather(&a, 1, MPI_AINT, all, 1, MPI_AINT, MPI_COMM_WORLD);
    int right = (rank + 1) % size, left = (rank + size - 1) % size, v[2] = {rank + 5, rank + 6};
    MPI_Win_fence(0, win);
    MPI_Put(v, 2, MPI_INT, right, all[right] + 3 * (MPI_Aint)sizeof(int), 2, MPI_INT, win);
    MPI_Win_fence(0, win);
    mt_ok(mem[3] == left + 5 && mem[4] == left + 6 && mem[2] == 0 && mem[5] == 0,
          "Put into attached memory at its address");
    int *fl = NULL, flag = 0;
    MPI_Win_get_attr(win, MPI_WIN_CREATE_FLAVOR, &fl, &flag);
    mt_ok(flag && *fl == MPI_WIN_FLAVOR_DYNAMIC, "attribute MPI_WIN_CREATE_FLAVOR: dynamic");
    rc = MPI_Win_detach(win, mem);
    mt_ok(rc == MPI_SUCCESS, "Win_detach");
    MPI_Win_free(&win);
    free(all);
    free(mem);
}

static void t_info(void)
{
    MPI_Info info, used;
    MPI_Info_create(&info);
    MPI_Info_set(info, "no_locks", "true");
    int *b;
    MPI_Win win;
    MPI_Win_allocate(4, 1, info, MPI_COMM_WORLD, &b, &win);
    char val[MPI_MAX_INFO_VAL + 1];
    int flag = 0;
    MPI_Win_get_info(win, &used);
    MPI_Info_get(used, "no_locks", MPI_MAX_INFO_VAL, val, &flag);
    mt_ok(flag && strcmp(val, "true") == 0, "Win_get_info: the no_locks the window was made with");
    MPI_Info_get(used, "accumulate_ordering", MPI_MAX_INFO_VAL, val, &flag);
    mt_ok(flag && strcmp(val, "rar,raw,war,waw") == 0, "Win_get_info: accumulate_ordering by default");
    MPI_Info_free(&used);
    MPI_Info_set(info, "accumulate_ops", "same_op");
    MPI_Win_set_info(win, info);
    MPI_Win_get_info(win, &used);
    MPI_Info_get(used, "accumulate_ops", MPI_MAX_INFO_VAL, val, &flag);
    mt_ok(flag && strcmp(val, "same_op") == 0, "Win_set_info then Win_get_info: accumulate_ops");
    MPI_Info_free(&used);
    MPI_Info_free(&info);
    MPI_Win_free(&win);
}

static void t_errors(void)
{
    int *b;
    MPI_Win win;
    MPI_Win_allocate(4 * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &b, &win);
    MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);
    int v = 1, cls = -1, rc;
#define CLS(call) (rc = (call), MPI_Error_class(rc, &cls), cls)
    mt_is_int(CLS(MPI_Put(&v, 1, MPI_INT, 0, 0, 1, MPI_INT, win)), MPI_ERR_RMA_SYNC,
              "Put outside any epoch: MPI_ERR_RMA_SYNC");
    mt_is_int(CLS(MPI_Win_unlock(0, win)), MPI_ERR_RMA_SYNC, "unlock without lock: MPI_ERR_RMA_SYNC");
    MPI_Request rq = MPI_REQUEST_NULL;
    MPI_Win_fence(0, win);
    mt_is_int(CLS(MPI_Rput(&v, 1, MPI_INT, 0, 0, 1, MPI_INT, win, &rq)), MPI_ERR_RMA_SYNC,
              "Rput in a fence epoch: MPI_ERR_RMA_SYNC");
    mt_ok(rq == MPI_REQUEST_NULL, "a refused Rput returns MPI_REQUEST_NULL");
    MPI_Win_fence(MPI_MODE_NOSUCCEED, win);
    mt_is_int(CLS(MPI_Win_complete(win)), MPI_ERR_RMA_SYNC, "complete without start: MPI_ERR_RMA_SYNC");
    mt_is_int(CLS(MPI_Win_wait(win)), MPI_ERR_RMA_SYNC, "wait without post: MPI_ERR_RMA_SYNC");
    mt_is_int(CLS(MPI_Win_unlock_all(win)), MPI_ERR_RMA_SYNC, "unlock_all without lock_all: MPI_ERR_RMA_SYNC");
    mt_is_int(CLS(MPI_Win_flush(0, win)), MPI_ERR_RMA_SYNC, "flush outside a passive epoch: MPI_ERR_RMA_SYNC");
    mt_is_int(CLS(MPI_Win_lock(99, 0, 0, win)), MPI_ERR_LOCKTYPE, "lock type 99: MPI_ERR_LOCKTYPE");
    mt_is_int(CLS(MPI_Win_fence(12345678, win)), MPI_ERR_ASSERT, "fence with unknown assert bits: MPI_ERR_ASSERT");
    MPI_Win_lock(MPI_LOCK_SHARED, rank, 0, win);
    mt_is_int(CLS(MPI_Put(&v, 1, MPI_INT, rank, 4, 1, MPI_INT, win)), MPI_ERR_RMA_RANGE,
              "Put past the window's end: MPI_ERR_RMA_RANGE");
    mt_is_int(CLS(MPI_Put(&v, 1, MPI_INT, rank, -1, 1, MPI_INT, win)), MPI_ERR_RMA_RANGE,
              "Put before the window: MPI_ERR_RMA_RANGE");
    mt_is_int(CLS(MPI_Put(&v, 1, MPI_INT, size, 0, 1, MPI_INT, win)), MPI_ERR_RANK,
              "Put to rank %d of %d: MPI_ERR_RANK", size, size);
    mt_is_int(CLS(MPI_Put(&v, 1, MPI_INT, rank, 0, 1, MPI_DATATYPE_NULL, win)), MPI_ERR_TYPE,
              "Put with MPI_DATATYPE_NULL: MPI_ERR_TYPE");
    mt_is_int(CLS(MPI_Put(&v, 1, MPI_INT, rank, 0, 1, MPI_SHORT, win)), MPI_ERR_TYPE,
              "Put with 4 bytes into 2: MPI_ERR_TYPE");
    mt_is_int(CLS(MPI_Accumulate(&v, 1, MPI_INT, rank, 0, 1, MPI_INT, MPI_OP_NULL, win)), MPI_ERR_OP,
              "Accumulate with MPI_OP_NULL: MPI_ERR_OP");
    float f = 1;
    mt_is_int(CLS(MPI_Accumulate(&f, 1, MPI_FLOAT, rank, 0, 1, MPI_FLOAT, MPI_BAND, win)), MPI_ERR_OP,
              "Accumulate BAND on floats: MPI_ERR_OP");
    mt_is_int(CLS(MPI_Win_lock(MPI_LOCK_SHARED, rank, 0, win)), MPI_ERR_RMA_SYNC,
              "lock twice on the same rank: MPI_ERR_RMA_SYNC");
    mt_is_int(CLS(MPI_Win_free(&win)), MPI_ERR_RMA_SYNC, "Win_free with a lock held: MPI_ERR_RMA_SYNC");
    MPI_Win_unlock(rank, win);
    MPI_Aint sz;
    int du;
    void *p;
    mt_is_int(CLS(MPI_Win_shared_query(win, 0, &sz, &du, &p)), MPI_ERR_RMA_FLAVOR,
              "shared_query on an allocated window: MPI_ERR_RMA_FLAVOR");
    mt_is_int(CLS(MPI_Win_attach(win, b, 4)), MPI_ERR_RMA_FLAVOR, "attach on an allocated window: MPI_ERR_RMA_FLAVOR");
    MPI_Win dw;
    MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &dw);
    MPI_Win_set_errhandler(dw, MPI_ERRORS_RETURN);
    mt_is_int(CLS(MPI_Win_detach(dw, b)), MPI_ERR_RMA_ATTACH, "detach of memory never attached: MPI_ERR_RMA_ATTACH");
    /* a Put to memory not attached at the target: refused there, the error
     * comes back at the origin's unlock (at once on the SELF path) */
    int right = (rank + 1) % size, put_cls, unlock_cls;
    MPI_Win_lock(MPI_LOCK_EXCLUSIVE, right, 0, dw);
    put_cls = CLS(MPI_Put(&v, 1, MPI_INT, right, (MPI_Aint)64, 1, MPI_INT, dw));
    unlock_cls = CLS(MPI_Win_unlock(right, dw));
    mt_ok((put_cls == MPI_ERR_RMA_RANGE && unlock_cls == MPI_SUCCESS) ||
              (put_cls == MPI_SUCCESS && unlock_cls == MPI_ERR_RMA_RANGE),
          "Put to memory not attached: MPI_ERR_RMA_RANGE, once (from the Put or the unlock)");
    int lock_cls = CLS(MPI_Win_lock(MPI_LOCK_SHARED, right, 0, dw));
    MPI_Win_unlock(right, dw);
    mt_is_int(lock_cls, MPI_SUCCESS, "after the refused Put, the window locks again");
    MPI_Win_free(&dw);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    mt_is_int(CLS(MPI_Win_fence(0, MPI_WIN_NULL)), MPI_ERR_WIN, "fence on MPI_WIN_NULL: MPI_ERR_WIN");
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    MPI_Win_free(&win);
#undef CLS
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    mt_rank = rank;
    t_fence_put_get();
    t_create_odd_unit();
    t_accumulate();
    t_fop_cas();
    t_locks();
    t_pscw();
    t_shared(0);
    t_shared(1);
    t_dynamic();
    t_info();
    t_errors();
    printf("done [rank %d] %d checks, %d failed\n", rank, mt_checks, mt_failed);
    MPI_Finalize();
    return 0;
}

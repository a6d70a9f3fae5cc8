/* One-sided windows of every flavour: MPI_Win_create, MPI_Win_allocate,
 * MPI_Win_allocate_shared with MPI_Win_shared_query (contiguous, and with
 * alloc_shared_noncontig), MPI_Win_create_dynamic with attach/detach;
 * MPI_Alloc_mem / MPI_Free_mem; the attributes MPI_WIN_BASE, SIZE,
 * DISP_UNIT, CREATE_FLAVOR and MODEL; info keys through MPI_Win_get_info /
 * MPI_Win_set_info; displacements scaled by odd disp_units (3, 7, 12) and
 * windows of size zero on some ranks. Written against the MPI standard
 * only; rma_win.sh runs it on 1 to 4 ranks. Where the standard lets an
 * implementation ignore a hint, the hint's value is checked only with
 * RMA_STRICT=1 (rdmpi promises to honour them: issue 20). */
#include <mpi.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "mtest.h"

static int rank, size, strict;

/* windows of NSLOT disp_units */
#define NSLOT 8

static unsigned char pat(int r, int i)
{
    return (unsigned char)(r * 37 + i * 11 + 5);
}

/* the predefined attributes of win */
static void check_attrs(MPI_Win win, const char *what, void *base, MPI_Aint wsize, int unit, int flavor)
{
    void *b = NULL;
    MPI_Aint *s = NULL;
    int *u = NULL, *f = NULL, *m = NULL, flag = 0;
    MPI_Win_get_attr(win, MPI_WIN_BASE, &b, &flag);
    mt_ok(flag && b == base, "%s: MPI_WIN_BASE", what);
    MPI_Win_get_attr(win, MPI_WIN_SIZE, &s, &flag);
    mt_ok(flag && s && *s == wsize, "%s: MPI_WIN_SIZE", what);
    if (flag && s && *s != wsize)
        printf("# [rank %d] %s: size %ld, expected %ld\n", rank, what, (long)*s, (long)wsize);
    MPI_Win_get_attr(win, MPI_WIN_DISP_UNIT, &u, &flag);
    mt_ok(flag && u && *u == unit, "%s: MPI_WIN_DISP_UNIT", what);
    MPI_Win_get_attr(win, MPI_WIN_CREATE_FLAVOR, &f, &flag);
    mt_ok(flag && f && *f == flavor, "%s: MPI_WIN_CREATE_FLAVOR", what);
    MPI_Win_get_attr(win, MPI_WIN_MODEL, &m, &flag);
    mt_ok(flag && m && *m == MPI_WIN_UNIFIED, "%s: MPI_WIN_MODEL is MPI_WIN_UNIFIED", what);
}

/* Each rank puts UNIT bytes at displacements 0..NSLOT-1 (times UNIT) of the
 * next rank's window of NSLOT * UNIT bytes (ranks with a zero-size window are
 * skipped as targets: nobody writes to them), then gets them back from the
 * previous rank; the byte offsets must be exactly disp * unit. */
static void scaled_put_get(MPI_Win win, unsigned char *mem, int unit, const int *wsz, const char *what)
{
    int to = (rank + 1) % size, from = (rank + size - 1) % size;
    unsigned char src[NSLOT * 12], back[NSLOT * 12];
    for (int i = 0; i < NSLOT * unit; i++)
        src[i] = pat(rank, i);
    if (wsz[rank] > 0)
        memset(mem, 0xee, (size_t)wsz[rank]);
    MPI_Win_fence(MPI_MODE_NOPRECEDE, win);
    if (wsz[to] > 0)
        for (int d = NSLOT - 1; d >= 0; d--) /* reverse order: offsets, not a stream */
            MPI_Put(src + d * unit, unit, MPI_BYTE, to, d, unit, MPI_BYTE, win);
    MPI_Win_fence(0, win);
    if (wsz[rank] > 0) {
        int bad = -1;
        for (int i = 0; i < NSLOT * unit && bad < 0; i++)
            if (mem[i] != pat(from, i))
                bad = i;
        mt_ok(bad < 0, "%s: Put at disp d lands at byte d * disp_unit", what);
        if (bad >= 0)
            printf("# [rank %d] %s: byte %d is %d, expected %d\n", rank, what, bad, mem[bad], pat(from, bad));
    }
    memset(back, 0, sizeof back);
    if (wsz[to] > 0)
        for (int d = 0; d < NSLOT; d++)
            MPI_Get(back + d * unit, unit, MPI_BYTE, to, d, unit, MPI_BYTE, win);
    MPI_Win_fence(MPI_MODE_NOSUCCEED, win);
    if (wsz[to] > 0)
        mt_ok(memcmp(back, src, (size_t)(NSLOT * unit)) == 0, "%s: Get at disp d reads byte d * disp_unit", what);
}

/* the value of info key KEY ("" when absent) */
static void info_val(MPI_Info info, const char *key, char *v)
{
    int flag = 0;
    v[0] = 0;
    MPI_Info_get(info, key, MPI_MAX_INFO_VAL, v, &flag);
    if (!flag)
        v[0] = 0;
}

static void check_hint(MPI_Info info, const char *key, const char *exp, const char *what)
{
    char v[MPI_MAX_INFO_VAL + 1];
    info_val(info, key, v);
    if (strcmp(v, exp) == 0 || strict)
        mt_ok(strcmp(v, exp) == 0, "%s: info %s is %s", what, key, exp);
    else if (rank == 0)
        printf("# note: %s: info %s is \"%s\", not \"%s\" (checked with RMA_STRICT=1)\n", what, key, v, exp);
    if (strict && strcmp(v, exp) != 0)
        printf("# [rank %d] %s: info %s is \"%s\"\n", rank, what, key, v);
}

static void t_alloc_mem(void)
{
    void *p = NULL;
    mt_is_int(MPI_Alloc_mem(1 << 20, MPI_INFO_NULL, &p), MPI_SUCCESS, "Alloc_mem 1 MiB");
    mt_ok(p != NULL, "Alloc_mem gives memory");
    memset(p, 0x5a, 1 << 20);
    mt_ok(((unsigned char *)p)[(1 << 20) - 1] == 0x5a, "Alloc_mem memory is writable to its end");
    mt_is_int(MPI_Free_mem(p), MPI_SUCCESS, "Free_mem");
    MPI_Info info;
    MPI_Info_create(&info);
    MPI_Info_set(info, "mpi_minimum_memory_alignment", "4096");
    p = NULL;
    mt_is_int(MPI_Alloc_mem(100, info, &p), MPI_SUCCESS, "Alloc_mem with an info");
    mt_ok(p != NULL, "Alloc_mem with an info gives memory");
    MPI_Free_mem(p);
    MPI_Info_free(&info);

    /* a window over Alloc_mem memory works like any other */
    int *m = NULL, n = 16;
    MPI_Alloc_mem(n * sizeof(int), MPI_INFO_NULL, &m);
    for (int i = 0; i < n; i++)
        m[i] = -1;
    MPI_Win win;
    MPI_Win_create(m, n * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    int v = 1000 + rank, to = (rank + 1) % size, from = (rank + size - 1) % size;
    MPI_Win_fence(0, win);
    MPI_Put(&v, 1, MPI_INT, to, 5, 1, MPI_INT, win);
    MPI_Win_fence(0, win);
    mt_is_int(m[5], 1000 + from, "Put into a window over Alloc_mem memory");
    mt_is_int(m[4] + m[6], -2, "Put into Alloc_mem window leaves its neighbours");
    MPI_Win_free(&win);
    MPI_Free_mem(m);
}

static void t_create(void)
{
    static const int units[] = {3, 7, 12};
    int wsz[64];
    for (int k = 0; k < 3; k++) {
        int unit = units[k];
        char what[64];
        /* rank 1 (of 3 or more) exposes nothing */
        for (int r = 0; r < size; r++)
            wsz[r] = size > 2 && r == 1 ? 0 : NSLOT * unit;
        unsigned char *mem = wsz[rank] ? malloc((size_t)wsz[rank]) : NULL;
        MPI_Win win;
        snprintf(what, sizeof what, "Win_create disp_unit %d", unit);
        mt_is_int(MPI_Win_create(mem, wsz[rank], unit, MPI_INFO_NULL, MPI_COMM_WORLD, &win), MPI_SUCCESS,
                  "%s", what);
        if (wsz[rank])
            check_attrs(win, what, mem, wsz[rank], unit, MPI_WIN_FLAVOR_CREATE);
        else {
            MPI_Aint *s = NULL;
            int flag = 0;
            MPI_Win_get_attr(win, MPI_WIN_SIZE, &s, &flag);
            mt_ok(flag && *s == 0, "Win_create of size zero: MPI_WIN_SIZE is 0");
        }
        scaled_put_get(win, mem, unit, wsz, what);
        mt_is_int(MPI_Win_free(&win), MPI_SUCCESS, "%s: Win_free", what);
        mt_ok(win == MPI_WIN_NULL, "%s: Win_free sets MPI_WIN_NULL", what);
        free(mem);
    }
}

static void t_allocate(void)
{
    static const int units[] = {3, 7, 12};
    int wsz[64];
    for (int k = 0; k < 3; k++) {
        int unit = units[k];
        char what[64];
        for (int r = 0; r < size; r++)
            wsz[r] = size > 2 && r == size - 1 ? 0 : NSLOT * unit;
        unsigned char *mem = NULL;
        MPI_Win win;
        snprintf(what, sizeof what, "Win_allocate disp_unit %d", unit);
        mt_is_int(MPI_Win_allocate(wsz[rank], unit, MPI_INFO_NULL, MPI_COMM_WORLD, &mem, &win), MPI_SUCCESS,
                  "%s", what);
        if (wsz[rank]) {
            check_attrs(win, what, mem, wsz[rank], unit, MPI_WIN_FLAVOR_ALLOCATE);
            mt_ok(mem != NULL, "%s: a base pointer", what);
        }
        scaled_put_get(win, mem, unit, wsz, what);
        mt_is_int(MPI_Win_free(&win), MPI_SUCCESS, "%s: Win_free", what);
    }
}

/* allocate_shared on the ranks of this node: every rank's segment reached
 * by loads and stores from every other, found with Win_shared_query */
static void t_shared(int noncontig)
{
    MPI_Comm node;
    int nr, ns;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
    MPI_Comm_rank(node, &nr);
    MPI_Comm_size(node, &ns);
    const char *what = noncontig ? "allocate_shared noncontig" : "allocate_shared";
    MPI_Info info = MPI_INFO_NULL;
    if (noncontig) {
        MPI_Info_create(&info);
        MPI_Info_set(info, "alloc_shared_noncontig", "true");
    }
    /* node rank r has (r + 1) * 5 ints, except node rank 1 which has none */
    int unit = (int)sizeof(int);
    MPI_Aint mysz = nr == 1 ? 0 : (MPI_Aint)(nr + 1) * 5 * unit;
    int *mine = NULL;
    MPI_Win win;
    mt_is_int(MPI_Win_allocate_shared(mysz, unit, info, node, &mine, &win), MPI_SUCCESS, "%s", what);
    if (info != MPI_INFO_NULL)
        MPI_Info_free(&info);
    if (mysz)
        check_attrs(win, what, mine, mysz, unit, MPI_WIN_FLAVOR_SHARED);
    int ok_q = 1, ok_contig = 1, ok_self = 1;
    char *prev_end = NULL;
    for (int r = 0; r < ns; r++) {
        MPI_Aint qs = -1;
        int qu = -1;
        int *qb = NULL;
        MPI_Win_shared_query(win, r, &qs, &qu, &qb);
        MPI_Aint exp = r == 1 ? 0 : (MPI_Aint)(r + 1) * 5 * unit;
        /* (Open MPI 4.1 rounds noncontig segments up to a page) */
        if (noncontig && qs > exp && !strict && exp && qu == unit) {
            if (rank == 0 && r == 0)
                printf("# note: %s: Win_shared_query gives size %ld for %ld (exact with RMA_STRICT=1)\n", what,
                       (long)qs, (long)exp);
        } else if (qs != exp || (exp && qu != unit)) {
            ok_q = 0;
            printf("# [rank %d] %s: rank %d: size %ld disp_unit %d\n", rank, what, r, (long)qs, qu);
        }
        if (r == nr && exp && qb != mine)
            ok_self = 0;
        if (!noncontig && exp) {
            if (prev_end && (char *)qb != prev_end)
                ok_contig = 0;
            prev_end = (char *)qb + qs;
        }
    }
    mt_ok(ok_q, "%s: Win_shared_query gives every rank's size and disp_unit", what);
    mt_ok(ok_self, "%s: Win_shared_query of my rank gives my base", what);
    if (!noncontig)
        mt_ok(ok_contig, "%s: segments are contiguous in rank order", what);
    /* MPI_PROC_NULL: the segment of the lowest rank with a nonzero size (rank 0) */
    {
        MPI_Aint qs = -1;
        int qu = -1;
        int *qb = NULL, *b0 = NULL;
        MPI_Aint s0;
        int u0;
        MPI_Win_shared_query(win, 0, &s0, &u0, &b0);
        MPI_Win_shared_query(win, MPI_PROC_NULL, &qs, &qu, &qb);
        if (!noncontig)
            mt_ok(qb == b0, "%s: Win_shared_query MPI_PROC_NULL gives the first segment", what);
        else
            mt_ok(qb != NULL, "%s: Win_shared_query MPI_PROC_NULL gives a segment", what);
    }
    /* every rank stores its node rank into element [its node rank] of
     * every nonempty segment by plain stores (segments hold at least 5
     * ints); MPI_Win_sync + barrier make them visible */
    MPI_Win_lock_all(MPI_MODE_NOCHECK, win);
    if (mysz)
        for (int i = 0; i < (int)(mysz / unit); i++)
            mine[i] = -1;
    MPI_Win_sync(win);
    MPI_Barrier(node);
    MPI_Win_sync(win);
    for (int r = 0; r < ns; r++) {
        MPI_Aint qs;
        int qu, *qb;
        MPI_Win_shared_query(win, r, &qs, &qu, &qb);
        if (qs && nr < 5)
            qb[nr] = 1000 + nr;
    }
    MPI_Win_sync(win);
    MPI_Barrier(node);
    MPI_Win_sync(win);
    if (mysz) {
        int bad = -1, n = (int)(mysz / unit);
        for (int i = 0; i < n && bad < 0; i++)
            if (mine[i] != (i < ns && i < 5 ? 1000 + i : -1))
                bad = i;
        mt_ok(bad < 0, "%s: stores by every rank into my segment", what);
        if (bad >= 0)
            printf("# [rank %d] element %d is %d\n", rank, bad, mine[bad]);
    }
    MPI_Win_unlock_all(win);
    /* and by RMA too: Put into the next node rank's segment */
    MPI_Win_fence(0, win);
    int v = 77 + nr;
    int tgt = (nr + 1) % ns;
    if (!(tgt == 1 && ns > 1))
        MPI_Put(&v, 1, MPI_INT, tgt, 4, 1, MPI_INT, win);
    MPI_Win_fence(0, win);
    if (mysz)
        mt_is_int(mine[4], 77 + (nr + ns - 1) % ns, "%s: Put into a shared window", what);
    mt_is_int(MPI_Win_free(&win), MPI_SUCCESS, "%s: Win_free", what);
    MPI_Comm_free(&node);
}

static void t_dynamic(void)
{
    MPI_Win win;
    mt_is_int(MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &win), MPI_SUCCESS, "Win_create_dynamic");
    {
        void *b = (void *)1;
        MPI_Aint *s = NULL;
        int *u = NULL, *f = NULL, flag = 0;
        MPI_Win_get_attr(win, MPI_WIN_BASE, &b, &flag);
        mt_ok(flag && b == MPI_BOTTOM, "dynamic: MPI_WIN_BASE is MPI_BOTTOM");
        MPI_Win_get_attr(win, MPI_WIN_SIZE, &s, &flag);
        mt_ok(flag && *s == 0, "dynamic: MPI_WIN_SIZE is 0");
        MPI_Win_get_attr(win, MPI_WIN_DISP_UNIT, &u, &flag);
        mt_ok(flag && *u == 1, "dynamic: MPI_WIN_DISP_UNIT is 1");
        MPI_Win_get_attr(win, MPI_WIN_CREATE_FLAVOR, &f, &flag);
        mt_ok(flag && *f == MPI_WIN_FLAVOR_DYNAMIC, "dynamic: MPI_WIN_CREATE_FLAVOR is MPI_WIN_FLAVOR_DYNAMIC");
    }
    /* two regions each, attached at once; their addresses exchanged */
    int n = 32;
    long long *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b);
    for (int i = 0; i < n; i++)
        a[i] = b[i] = -1;
    mt_is_int(MPI_Win_attach(win, a, n * sizeof *a), MPI_SUCCESS, "Win_attach");
    mt_is_int(MPI_Win_attach(win, b, n * sizeof *b), MPI_SUCCESS, "Win_attach a second region");
    MPI_Aint mine[2], all[2 * 64];
    MPI_Get_address(a, &mine[0]);
    MPI_Get_address(b, &mine[1]);
    MPI_Allgather(mine, 2, MPI_AINT, all, 2, MPI_AINT, MPI_COMM_WORLD);
    int to = (rank + 1) % size, from = (rank + size - 1) % size;
    long long v[3] = {rank * 10LL + 1, rank * 10LL + 2, (long long)rank << 40};
    MPI_Win_lock(MPI_LOCK_EXCLUSIVE, to, 0, win);
    MPI_Put(&v[0], 2, MPI_LONG_LONG, to, MPI_Aint_add(all[2 * to], 3 * sizeof(long long)), 2, MPI_LONG_LONG,
            win);
    MPI_Put(&v[2], 1, MPI_LONG_LONG, to, MPI_Aint_add(all[2 * to + 1], (n - 1) * sizeof(long long)), 1,
            MPI_LONG_LONG, win);
    MPI_Win_unlock(to, win);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_lock(MPI_LOCK_EXCLUSIVE, rank, 0, win);
    mt_ok(a[3] == from * 10LL + 1 && a[4] == from * 10LL + 2 && a[2] == -1 && a[5] == -1,
          "dynamic: Put at an attached region's address");
    mt_ok(b[n - 1] == (long long)from << 40 && b[n - 2] == -1, "dynamic: Put into a second attached region");
    MPI_Win_unlock(rank, win);
    /* Get back */
    long long g[2] = {0, 0};
    MPI_Win_lock(MPI_LOCK_SHARED, to, 0, win);
    MPI_Get(g, 2, MPI_LONG_LONG, to, MPI_Aint_add(all[2 * to], 3 * sizeof(long long)), 2, MPI_LONG_LONG, win);
    MPI_Win_unlock(to, win);
    mt_ok(g[0] == v[0] && g[1] == v[1], "dynamic: Get from an attached region");
    MPI_Barrier(MPI_COMM_WORLD);
    mt_is_int(MPI_Win_detach(win, b), MPI_SUCCESS, "Win_detach");
    /* the other region still works after a detach */
    long long w = 4242 + rank;
    MPI_Win_lock(MPI_LOCK_EXCLUSIVE, to, 0, win);
    MPI_Put(&w, 1, MPI_LONG_LONG, to, all[2 * to], 1, MPI_LONG_LONG, win);
    MPI_Win_unlock(to, win);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_lock(MPI_LOCK_EXCLUSIVE, rank, 0, win);
    mt_is_int(a[0], 4242 + from, "dynamic: Put after detaching another region");
    MPI_Win_unlock(rank, win);
    MPI_Barrier(MPI_COMM_WORLD);
    mt_is_int(MPI_Win_detach(win, a), MPI_SUCCESS, "Win_detach the last region");
    mt_is_int(MPI_Win_free(&win), MPI_SUCCESS, "dynamic: Win_free");
    free(a);
    free(b);
}

static void t_info(void)
{
    MPI_Info info, used;
    MPI_Info_create(&info);
    MPI_Info_set(info, "no_locks", "true");
    MPI_Info_set(info, "accumulate_ordering", "none");
    MPI_Info_set(info, "accumulate_ops", "same_op");
    MPI_Info_set(info, "same_size", "true");
    MPI_Info_set(info, "same_disp_unit", "true");
    int buf[8] = {0};
    MPI_Win win;
    mt_is_int(MPI_Win_create(buf, sizeof buf, sizeof(int), info, MPI_COMM_WORLD, &win), MPI_SUCCESS,
              "Win_create with hints");
    MPI_Info_free(&info);
    mt_is_int(MPI_Win_get_info(win, &used), MPI_SUCCESS, "Win_get_info");
    check_hint(used, "no_locks", "true", "hints given at creation");
    check_hint(used, "accumulate_ordering", "none", "hints given at creation");
    check_hint(used, "accumulate_ops", "same_op", "hints given at creation");
    check_hint(used, "same_size", "true", "hints given at creation");
    check_hint(used, "same_disp_unit", "true", "hints given at creation");
    MPI_Info_free(&used);
    /* fence still works on a no_locks window */
    MPI_Win_fence(0, win);
    int v = rank + 1;
    MPI_Accumulate(&v, 1, MPI_INT, (rank + 1) % size, 0, 1, MPI_INT, MPI_SUM, win);
    MPI_Win_fence(0, win);
    mt_is_int(buf[0], (rank + size - 1) % size + 1, "Accumulate under fence on a no_locks window");
    MPI_Win_free(&win);

    /* defaults, then Win_set_info changing one */
    MPI_Win_create(buf, sizeof buf, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    MPI_Win_get_info(win, &used);
    check_hint(used, "no_locks", "false", "default hints");
    check_hint(used, "accumulate_ordering", "rar,raw,war,waw", "default hints");
    check_hint(used, "accumulate_ops", "same_op_no_op", "default hints");
    MPI_Info_free(&used);
    MPI_Info_create(&info);
    MPI_Info_set(info, "accumulate_ordering", "rar,waw");
    mt_is_int(MPI_Win_set_info(win, info), MPI_SUCCESS, "Win_set_info");
    MPI_Info_free(&info);
    MPI_Win_get_info(win, &used);
    check_hint(used, "accumulate_ordering", "rar,waw", "after Win_set_info");
    MPI_Info_free(&used);
    MPI_Win_free(&win);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    mt_rank = rank;
    strict = getenv("RMA_STRICT") && atoi(getenv("RMA_STRICT")) > 0;
    t_alloc_mem();
    t_create();
    t_allocate();
    t_shared(0);
    t_shared(1);
    t_dynamic();
    t_info();
    MPI_Finalize();
    return mt_done();
}

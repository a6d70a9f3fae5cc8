/* The atomicity one-sided communication promises, with every rank at once:
 * NINC MPI_Fetch_and_op increments per rank on one counter at rank 0
 * under lock_all end with the exact total, and every fetched value is seen
 * exactly once across the ranks (gathered at rank 0); a spin lock made of
 * MPI_Compare_and_swap protecting a non-atomic read-modify-write (Get,
 * add, Put) loses no update; accumulates with a derived target type land
 * element by element: every rank adds to overlapping elements at once and
 * each ends with the exact sum. 64- and 32-bit counters both. Written
 * against the MPI standard only; rma_atomic.sh runs it on 1 to 4 ranks.
 * Arguments (for slow emulated devices, test/mpi/verbs_suite.sh): the
 * 64-bit increments per rank (NINC), then a cap on the rest (32-bit
 * increments, CAS lock rounds, accumulate rounds). */
#include <mpi.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "mtest.h"

#define NINC 10000
#define NLOCKED 300
#define NACC 200
static int ninc64 = NINC, ninc32 = NINC, nlocked = NLOCKED, nacc = NACC;

static int rank, size;

static int cmp_ll(const void *a, const void *b)
{
    long long x = *(const long long *)a, y = *(const long long *)b;
    return x < y ? -1 : x > y;
}

/* NINC Fetch_and_op(+1) of TYPE (8 or 4 bytes) per rank on rank 0's
 * counter, each flushed so the fetched value is the counter's at that
 * moment */
static void t_fop_counter(int wide)
{
    const char *what = wide ? "64-bit" : "32-bit";
    int ninc = wide ? ninc64 : ninc32;
    MPI_Datatype t = wide ? MPI_INT64_T : MPI_INT32_T;
    void *base;
    MPI_Win win;
    MPI_Win_allocate(rank == 0 ? 8 : 0, 8, MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win);
    if (rank == 0)
        memset(base, 0, 8);
    MPI_Barrier(MPI_COMM_WORLD);
    long long *seen = malloc(ninc * sizeof *seen);
    int64_t one64 = 1, got64 = 0;
    int32_t one32 = 1, got32 = 0;
    MPI_Win_lock_all(0, win);
    for (int i = 0; i < ninc; i++) {
        if (wide)
            MPI_Fetch_and_op(&one64, &got64, t, 0, 0, MPI_SUM, win);
        else
            MPI_Fetch_and_op(&one32, &got32, t, 0, 0, MPI_SUM, win);
        MPI_Win_flush(0, win);
        seen[i] = wide ? got64 : got32;
    }
    MPI_Win_unlock_all(win);
    MPI_Barrier(MPI_COMM_WORLD);
    /* each rank's own values rise */
    int rising = 1;
    for (int i = 1; i < ninc; i++)
        if (seen[i] <= seen[i - 1])
            rising = 0;
    mt_ok(rising, "%s Fetch_and_op: the values one rank fetches rise", what);
    long long *all = rank == 0 ? malloc((size_t)size * ninc * sizeof *all) : NULL;
    MPI_Gather(seen, ninc, MPI_LONG_LONG, all, ninc, MPI_LONG_LONG, 0, MPI_COMM_WORLD);
    if (rank == 0) {
        long long total;
        MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win);
        total = wide ? *(int64_t *)base : *(int32_t *)base;
        MPI_Win_unlock(0, win);
        mt_is_int(total, (long long)size * ninc, "%s Fetch_and_op: exact total", what);
        qsort(all, (size_t)size * ninc, sizeof *all, cmp_ll);
        long long bad = -1;
        for (long long i = 0; i < (long long)size * ninc && bad < 0; i++)
            if (all[i] != i)
                bad = i;
        mt_ok(bad < 0, "%s Fetch_and_op: every value 0..total-1 fetched exactly once", what);
        if (bad >= 0)
            printf("# [rank 0] %s: sorted fetched value %lld is %lld\n", what, bad, all[bad]);
        free(all);
    }
    free(seen);
    MPI_Win_free(&win);
}

/* a spin lock on word 0 of rank 0 (0 free, r + 1 held by rank r) guarding
 * a plain Get / add / Put on word 1 */
static void t_cas_lock(void)
{
    long long *base;
    MPI_Win win;
    MPI_Win_allocate(rank == 0 ? 2 * sizeof(long long) : 0, sizeof(long long), MPI_INFO_NULL, MPI_COMM_WORLD,
                     &base, &win);
    if (rank == 0)
        base[0] = base[1] = 0;
    MPI_Barrier(MPI_COMM_WORLD);
    long long me = rank + 1, zero = 0, old, v, overlap = 0;
    MPI_Win_lock_all(0, win);
    for (int i = 0; i < nlocked; i++) {
        do {
            MPI_Compare_and_swap(&me, &zero, &old, MPI_LONG_LONG, 0, 0, win);
            MPI_Win_flush(0, win);
        } while (old != 0);
        MPI_Get(&v, 1, MPI_LONG_LONG, 0, 1, 1, MPI_LONG_LONG, win);
        MPI_Win_flush(0, win);
        v += rank + 1;
        MPI_Put(&v, 1, MPI_LONG_LONG, 0, 1, 1, MPI_LONG_LONG, win);
        MPI_Win_flush(0, win);
        /* release: swap back to 0, the old value must be mine */
        MPI_Compare_and_swap(&zero, &me, &old, MPI_LONG_LONG, 0, 0, win);
        MPI_Win_flush(0, win);
        if (old != me)
            overlap++;
    }
    MPI_Win_unlock_all(win);
    mt_is_int(overlap, 0, "CAS lock: the lock word held my id whenever I released it");
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
        MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win);
        long long exp = (long long)nlocked * size * (size + 1) / 2;
        mt_is_int(base[1], exp, "CAS lock: no update of the guarded counter lost");
        mt_is_int(base[0], 0, "CAS lock: free at the end");
        MPI_Win_unlock(0, win);
    }
    MPI_Win_free(&win);
}

/* NACC rounds: every rank accumulates (SUM) 1 + rank into the same
 * elements of rank 0's window through a vector target type (every third
 * int of 24) and an indexed one overlapping it; and MPI_REPLACE-free
 * Get_accumulate with the same type */
static void t_acc_derived(void)
{
    int n = 64;
    int *base;
    MPI_Win win;
    MPI_Win_allocate(rank == 0 ? n * sizeof(int) : 0, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win);
    if (rank == 0)
        for (int i = 0; i < n; i++)
            base[i] = 0;
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Datatype vec, idx;
    MPI_Type_vector(8, 1, 3, MPI_INT, &vec); /* 0 3 6 .. 21 */
    MPI_Type_commit(&vec);
    int bl[3] = {4, 2, 3}, dp[3] = {0, 6, 20}; /* 0-3 6-7 20-22 */
    MPI_Type_indexed(3, bl, dp, MPI_INT, &idx);
    MPI_Type_commit(&idx);
    int ones[9], got[9];
    for (int i = 0; i < 9; i++)
        ones[i] = rank + 1;
    long long fetched_bad = 0;
    MPI_Win_lock_all(0, win);
    for (int k = 0; k < nacc; k++) {
        MPI_Accumulate(ones, 8, MPI_INT, 0, 0, 1, vec, MPI_SUM, win);
        MPI_Get_accumulate(ones, 9, MPI_INT, got, 9, MPI_INT, 0, 0, 1, idx, MPI_SUM, win);
        MPI_Win_flush(0, win);
        /* a fetched element is a whole sum of (r + 1) terms, never torn: below the final total */
        for (int i = 0; i < 9; i++)
            if (got[i] < 0 || got[i] > 2 * nacc * size * (size + 1) / 2)
                fetched_bad++;
    }
    MPI_Win_unlock_all(win);
    mt_is_int(fetched_bad, 0, "derived accumulate: fetched values in range");
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
        long long s = (long long)nacc * size * (size + 1) / 2;
        int exp[64] = {0}, bad = -1;
        for (int i = 0; i < 24; i += 3)
            exp[i] += (int)s;
        for (int b = 0; b < 3; b++)
            for (int j = 0; j < bl[b]; j++)
                exp[dp[b] + j] += (int)s;
        MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win);
        for (int i = 0; i < n && bad < 0; i++)
            if (base[i] != exp[i])
                bad = i;
        mt_ok(bad < 0, "derived accumulate: every element is the exact sum of all ranks' adds");
        if (bad >= 0)
            printf("# [rank 0] element %d is %d, expected %d\n", bad, base[bad], exp[bad]);
        MPI_Win_unlock(0, win);
    }
    MPI_Type_free(&vec);
    MPI_Type_free(&idx);
    MPI_Win_free(&win);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    mt_rank = rank;
    if (argc > 1)
        ninc64 = ninc32 = atoi(argv[1]);
    if (argc > 2) {
        int cap = atoi(argv[2]);
        ninc32 = cap;
        nlocked = cap < NLOCKED ? cap : NLOCKED;
        nacc = cap < NACC ? cap : NACC;
    }
    t_fop_counter(1);
    t_fop_counter(0);
    t_cas_lock();
    t_acc_derived();
    MPI_Finalize();
    return mt_done();
}

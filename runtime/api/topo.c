/* Topologies: MPI_Dims_create (MPI-3.1 section 7.5.2). The Cartesian and
 * graph communicators come later. */
#include <mpi.h>
#include <stdlib.h>

#include "runtime/api/check.h"

#define CALL "MPI_Dims_create"

/* Search for the factorisation of m into k factors f[0] >= ... >= f[k-1]
 * that are as close to each other as possible: the smallest difference
 * between largest and smallest factor, then the smallest largest factor.
 * MPI-3.1 asks only for factors "as close to each other as possible";
 * Open MPI (greedy over the prime factors) and MPICH sometimes answer less
 * balanced: 720 in 3 is 10x9x8 here and in MPICH, 12x10x6 in Open MPI;
 * 360 in 3 is 9x8x5 here (the same spread as their 10x6x6, a smaller
 * largest factor and variance). The tests hold the exact answers. */
struct dims_search {
    const int *div; /* the divisors of the number, ascending */
    int ndiv, k;
    int *cur, *best;
    long long best_diff;
};

/* floor(m^(1/j)) */
static long long iroot(long long m, int j)
{
    long long lo = 1, hi = m;
    while (lo < hi) {
        long long mid = lo + (hi - lo + 1) / 2, p = 1;
        for (int i = 0; i < j && p <= m; i++)
            p = p > m / mid ? m + 1 : p * mid;
        if (p <= m)
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo;
}

static void dims_dfs(struct dims_search *s, int pos, long long rem, long long cap)
{
    int left = s->k - pos;
    if (rem == 1) {
        /* the remaining factors are all 1 */
        long long diff = s->cur[0] - (left > 0 ? 1 : s->cur[s->k - 1]);
        if (pos == 0)
            diff = 0;
        if (diff < s->best_diff) {
            s->best_diff = diff;
            for (int i = 0; i < s->k; i++)
                s->best[i] = i < pos ? s->cur[i] : 1;
        }
        return;
    }
    if (left == 0)
        return;
    if (left == 1) {
        if (rem <= cap) {
            s->cur[pos] = (int)rem;
            long long diff = s->cur[0] - rem;
            if (diff < s->best_diff) {
                s->best_diff = diff;
                for (int i = 0; i < s->k; i++)
                    s->best[i] = s->cur[i];
            }
        }
        return;
    }
    /* the smallest factor will be at most rem^(1/left): this bounds the
     * difference from below */
    long long root = iroot(rem, left);
    for (int d = 0; d < s->ndiv; d++) {
        long long f = s->div[d];
        if (f > cap)
            break;
        if (rem % f)
            continue;
        /* f is the largest of the remaining factors: f^left >= rem */
        long long p = 1;
        for (int i = 0; i < left && p < rem; i++)
            p *= f;
        if (p < rem)
            continue;
        long long top = pos ? s->cur[0] : f;
        if (top - root >= s->best_diff)
            break; /* larger f only makes it worse */
        s->cur[pos] = (int)f;
        dims_dfs(s, pos + 1, rem / f, f);
    }
}

/* Balanced factorisation of m (>= 1) into k (>= 1) non-increasing factors. */
static int factorise(int m, int k, int *out)
{
    int ndiv = 0, cap = 64;
    int *div = malloc((size_t)cap * sizeof(int));
    int *cur = malloc((size_t)k * sizeof(int));
    if (!div || !cur) {
        free(div);
        free(cur);
        return -1;
    }
    /* divisors in two halves: d <= sqrt(m) ascending, then m/d descending */
    int nsmall = 0;
    for (long long d = 1; d * d <= m; d++)
        if (m % d == 0) {
            if (2 * (ndiv + 1) > cap) { /* room for the large halves too */
                cap *= 2;
                int *n = realloc(div, (size_t)cap * sizeof(int));
                if (!n) {
                    free(div);
                    free(cur);
                    return -1;
                }
                div = n;
            }
            div[ndiv++] = (int)d;
            nsmall++;
        }
    for (int i = nsmall - 1; i >= 0; i--) {
        int q = m / div[i];
        if (q != div[i])
            div[ndiv++] = q;
    }
    struct dims_search s = {.div = div, .ndiv = ndiv, .k = k, .cur = cur, .best = out,
                            .best_diff = (long long)m + 1};
    dims_dfs(&s, 0, m, m);
    free(div);
    free(cur);
    return 0;
}

#pragma weak MPI_Dims_create = PMPI_Dims_create
int PMPI_Dims_create(int nnodes, int ndims, int dims[])
{
    RD_API_READY(CALL);
    if (nnodes <= 0)
        return rd_err_raise(MPI_COMM_WORLD, MPI_ERR_ARG, CALL, "nnodes = %d is not positive", nnodes);
    if (ndims < 0)
        return rd_err_raise(MPI_COMM_WORLD, MPI_ERR_DIMS, CALL, "ndims = %d is negative", ndims);
    if (ndims > 0 && !dims)
        return rd_err_raise(MPI_COMM_WORLD, MPI_ERR_ARG, CALL, "dims is NULL");
    long long fixed = 1;
    int nfree = 0;
    for (int i = 0; i < ndims; i++) {
        if (dims[i] < 0)
            return rd_err_raise(MPI_COMM_WORLD, MPI_ERR_DIMS, CALL, "dims[%d] = %d is negative", i, dims[i]);
        if (dims[i] == 0) {
            nfree++;
            continue;
        }
        fixed *= dims[i];
        if (fixed > nnodes || nnodes % fixed)
            return rd_err_raise(MPI_COMM_WORLD, MPI_ERR_DIMS, CALL,
                                "nnodes = %d is not a multiple of the product of the given dimensions", nnodes);
    }
    if (nfree == 0) {
        if (fixed != nnodes)
            return rd_err_raise(MPI_COMM_WORLD, MPI_ERR_DIMS, CALL,
                                "the given dimensions make %lld nodes, not nnodes = %d", fixed, nnodes);
        return MPI_SUCCESS;
    }
    int *f = malloc((size_t)nfree * sizeof(int));
    if (!f || factorise((int)(nnodes / fixed), nfree, f) != 0) {
        free(f);
        return rd_err_raise(MPI_COMM_WORLD, MPI_ERR_NO_MEM, CALL, "out of memory");
    }
    for (int i = 0, j = 0; i < ndims; i++)
        if (dims[i] == 0)
            dims[i] = f[j++];
    free(f);
    return MPI_SUCCESS;
}

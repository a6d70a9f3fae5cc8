/* Every collective against a reference computed locally: counts 0, 1, odd
 * and large, roots other than 0, in place, a non-commutative user op, a
 * derived type; nonblocking collectives outstanding on several
 * communicators at once beside point-to-point traffic; neighbourhood
 * collectives on a ring and a distributed graph. coll.sh runs it on 1 to 8
 * ranks with each algorithm forced in turn. */
#include <fcntl.h>
#include <limits.h>
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "affine.h"
#include "mtest.h"

static int rank, size;

/* one summary check per array */
static void check_ints(const int *got, const int *exp, long n, const char *what, int c)
{
    long bad = -1;
    for (long i = 0; i < n && bad < 0; i++)
        if (got[i] != exp[i])
            bad = i;
    mt_ok(bad < 0, "%s count %d", what, c);
    if (bad >= 0)
        printf("# [rank %d] %s: element %ld is %d, expected %d\n", rank, what, bad, got[bad], exp[bad]);
}

static int val(int r, long i)
{
    return r * 1000 + (int)(i % 997) - 300;
}

static MPI_Datatype affine_t;
static MPI_Op affine_op;

static void check_affine(const affine *got, long n, int lo, int hi, const char *what, int c)
{
    /* expected: aval(lo) op ... op aval(hi - 1) */
    long bad = -1;
    for (long i = 0; i < n && bad < 0; i++) {
        affine e = aexpect(lo, hi, i);
        if (got[i].a != e.a || got[i].b != e.b)
            bad = i;
    }
    mt_ok(bad < 0, "%s count %d", what, c);
}

static void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p)
        abort();
    return p;
}

static void fill(int *b, long n, int r)
{
    for (long i = 0; i < n; i++)
        b[i] = val(r, i);
}

/* ------------------------------------------------------------ tests */

static void t_bcast(int c, int root, MPI_Comm comm)
{
    int *b = xmalloc(sizeof(int) * c), *e = xmalloc(sizeof(int) * c);
    fill(e, c, root);
    if (rank == root)
        fill(b, c, root);
    else
        memset(b, 0xff, sizeof(int) * c);
    MPI_Bcast(b, c, MPI_INT, root, comm);
    char what[64];
    snprintf(what, sizeof what, "Bcast root %d", root);
    check_ints(b, e, c, what, c);
    /* a derived type: triples of ints */
    MPI_Datatype t3;
    MPI_Type_contiguous(3, MPI_INT, &t3);
    MPI_Type_commit(&t3);
    int n3 = c / 3;
    if (rank != root)
        memset(b, 0xff, sizeof(int) * c);
    MPI_Bcast(b, n3, t3, root, comm);
    snprintf(what, sizeof what, "Bcast triples root %d", root);
    check_ints(b, e, 3L * n3, what, c);
    MPI_Type_free(&t3);
    /* a strided type: every other int, the others untouched */
    if (c >= 2) {
        MPI_Datatype every2;
        MPI_Type_vector(c / 2, 1, 2, MPI_INT, &every2);
        MPI_Type_commit(&every2);
        if (rank == root)
            fill(b, c, root);
        else
            for (long i = 0; i < c; i++)
                b[i] = -5;
        MPI_Bcast(b, 1, every2, root, comm);
        long bad = -1;
        for (long i = 0; i < c && bad < 0; i++)
            if (b[i] != (i % 2 == 0 && i < 2L * (c / 2) ? val(root, i) : rank == root ? val(root, i) : -5))
                bad = i;
        mt_ok(bad < 0, "Bcast of a strided type root %d count %d", root, c);
        /* the root's c/2 ints in a row, the others' every other int: the
         * same type signature, laid out differently */
        if (rank == root)
            fill(b, c, root);
        else
            for (long i = 0; i < c; i++)
                b[i] = -5;
        if (rank == root)
            MPI_Bcast(b, c / 2, MPI_INT, root, comm);
        else
            MPI_Bcast(b, 1, every2, root, comm);
        bad = -1;
        for (long i = 0; i < c && bad < 0; i++)
            if (b[i] != (rank == root ? val(root, i) : i % 2 == 0 && i < 2L * (c / 2) ? val(root, i / 2) : -5))
                bad = i;
        mt_ok(bad < 0, "Bcast of ints in a row to a strided type root %d count %d", root, c);
        MPI_Type_free(&every2);
    }
    free(b);
    free(e);
}

static void t_reduce(int c, int root, MPI_Comm comm)
{
    int *s = xmalloc(sizeof(int) * c), *r = xmalloc(sizeof(int) * c), *e = xmalloc(sizeof(int) * c);
    fill(s, c, rank);
    for (long i = 0; i < c; i++) {
        e[i] = 0;
        for (int k = 0; k < size; k++)
            e[i] += val(k, i);
    }
    char what[64];
    memset(r, 0, sizeof(int) * c);
    MPI_Reduce(s, r, c, MPI_INT, MPI_SUM, root, comm);
    snprintf(what, sizeof what, "Reduce SUM root %d", root);
    if (rank == root)
        check_ints(r, e, c, what, c);
    /* in place at the root */
    if (rank == root) {
        memcpy(r, s, sizeof(int) * c);
        MPI_Reduce(MPI_IN_PLACE, r, c, MPI_INT, MPI_SUM, root, comm);
        snprintf(what, sizeof what, "Reduce SUM in place root %d", root);
        check_ints(r, e, c, what, c);
    } else {
        MPI_Reduce(s, NULL, c, MPI_INT, MPI_SUM, root, comm);
    }
    /* non-commutative */
    affine *as = xmalloc(sizeof(affine) * c), *ar = xmalloc(sizeof(affine) * c);
    for (long i = 0; i < c; i++)
        as[i] = aval(rank, i);
    MPI_Reduce(as, ar, c, affine_t, affine_op, root, comm);
    snprintf(what, sizeof what, "Reduce non-commutative root %d", root);
    if (rank == root)
        check_affine(ar, c, 0, size, what, c);
    free(as);
    free(ar);
    free(s);
    free(r);
    free(e);
}

static void t_allreduce(int c, MPI_Comm comm)
{
    int *s = xmalloc(sizeof(int) * c), *r = xmalloc(sizeof(int) * c), *e = xmalloc(sizeof(int) * c);
    fill(s, c, rank);
    for (long i = 0; i < c; i++) {
        e[i] = 0;
        for (int k = 0; k < size; k++)
            e[i] += val(k, i);
    }
    MPI_Allreduce(s, r, c, MPI_INT, MPI_SUM, comm);
    check_ints(r, e, c, "Allreduce SUM", c);
    memcpy(r, s, sizeof(int) * c);
    MPI_Allreduce(MPI_IN_PLACE, r, c, MPI_INT, MPI_SUM, comm);
    check_ints(r, e, c, "Allreduce SUM in place", c);
    /* MAX on doubles */
    double *ds = xmalloc(sizeof(double) * c), *dr = xmalloc(sizeof(double) * c);
    for (long i = 0; i < c; i++)
        ds[i] = (double)((rank * 7919 + i * 31) % 1009) + 0.5;
    MPI_Allreduce(ds, dr, c, MPI_DOUBLE, MPI_MAX, comm);
    long bad = -1;
    for (long i = 0; i < c && bad < 0; i++) {
        double m = -1;
        for (int k = 0; k < size; k++) {
            double v = (double)((k * 7919 + i * 31) % 1009) + 0.5;
            m = v > m ? v : m;
        }
        if (dr[i] != m)
            bad = i;
    }
    mt_ok(bad < 0, "Allreduce MAX double count %d", c);
    /* non-commutative */
    affine *as = xmalloc(sizeof(affine) * c), *ar = xmalloc(sizeof(affine) * c);
    for (long i = 0; i < c; i++)
        as[i] = aval(rank, i);
    MPI_Allreduce(as, ar, c, affine_t, affine_op, comm);
    check_affine(ar, c, 0, size, "Allreduce non-commutative", c);
    free(as);
    free(ar);
    free(ds);
    free(dr);
    free(s);
    free(r);
    free(e);
}

static void t_scan(int c, MPI_Comm comm)
{
    int *s = xmalloc(sizeof(int) * c), *r = xmalloc(sizeof(int) * c), *e = xmalloc(sizeof(int) * c);
    fill(s, c, rank);
    for (long i = 0; i < c; i++) {
        e[i] = 0;
        for (int k = 0; k <= rank; k++)
            e[i] += val(k, i);
    }
    MPI_Scan(s, r, c, MPI_INT, MPI_SUM, comm);
    check_ints(r, e, c, "Scan SUM", c);
    memcpy(r, s, sizeof(int) * c);
    MPI_Scan(MPI_IN_PLACE, r, c, MPI_INT, MPI_SUM, comm);
    check_ints(r, e, c, "Scan SUM in place", c);
    for (long i = 0; i < c; i++)
        e[i] -= val(rank, i);
    MPI_Exscan(s, r, c, MPI_INT, MPI_SUM, comm);
    if (rank > 0)
        check_ints(r, e, c, "Exscan SUM", c);
    affine *as = xmalloc(sizeof(affine) * c), *ar = xmalloc(sizeof(affine) * c);
    for (long i = 0; i < c; i++)
        as[i] = aval(rank, i);
    MPI_Scan(as, ar, c, affine_t, affine_op, comm);
    check_affine(ar, c, 0, rank + 1, "Scan non-commutative", c);
    MPI_Exscan(as, ar, c, affine_t, affine_op, comm);
    if (rank > 0)
        check_affine(ar, c, 0, rank, "Exscan non-commutative", c);
    free(as);
    free(ar);
    free(s);
    free(r);
    free(e);
}

static void t_reduce_scatter(int c, MPI_Comm comm)
{
    long total = (long)c * size;
    int *s = xmalloc(sizeof(int) * total), *r = xmalloc(sizeof(int) * total), *e = xmalloc(sizeof(int) * total);
    fill(s, total, rank);
    for (long i = 0; i < total; i++) {
        e[i] = 0;
        for (int k = 0; k < size; k++)
            e[i] += val(k, i);
    }
    MPI_Reduce_scatter_block(s, r, c, MPI_INT, MPI_SUM, comm);
    check_ints(r, e + (long)rank * c, c, "Reduce_scatter_block SUM", c);
    memcpy(r, s, sizeof(int) * total);
    MPI_Reduce_scatter_block(MPI_IN_PLACE, r, c, MPI_INT, MPI_SUM, comm);
    check_ints(r, e + (long)rank * c, c, "Reduce_scatter_block SUM in place", c);
    /* uneven counts: rank k gets k % 3 * c / 2 elements, some get none */
    int *cnt = xmalloc(sizeof(int) * size);
    long t2 = 0, off = 0;
    for (int k = 0; k < size; k++) {
        cnt[k] = k % 3 * c / 2;
        if (k < rank)
            off += cnt[k];
        t2 += cnt[k];
    }
    MPI_Reduce_scatter(s, r, cnt, MPI_INT, MPI_SUM, comm);
    check_ints(r, e + off, cnt[rank], "Reduce_scatter SUM", c);
    memcpy(r, s, sizeof(int) * total);
    MPI_Reduce_scatter(MPI_IN_PLACE, r, cnt, MPI_INT, MPI_SUM, comm);
    check_ints(r, e + off, cnt[rank], "Reduce_scatter SUM in place", c);
    affine *as = xmalloc(sizeof(affine) * (t2 + 1)), *ar = xmalloc(sizeof(affine) * (t2 + 1));
    for (long i = 0; i < t2; i++)
        as[i] = aval(rank, i);
    MPI_Reduce_scatter(as, ar, cnt, affine_t, affine_op, comm);
    /* expected: element off + j of the full reduction */
    long bad = -1;
    for (long j = 0; j < cnt[rank] && bad < 0; j++) {
        affine x = aexpect(0, size, off + j);
        if (x.a != ar[j].a || x.b != ar[j].b)
            bad = j;
    }
    mt_ok(bad < 0, "Reduce_scatter non-commutative count %d", c);
    free(as);
    free(ar);
    free(cnt);
    free(s);
    free(r);
    free(e);
}

static void t_gather_scatter(int c, int root, MPI_Comm comm)
{
    long total = (long)c * size;
    int *s = xmalloc(sizeof(int) * c), *r = xmalloc(sizeof(int) * total), *e = xmalloc(sizeof(int) * total);
    fill(s, c, rank);
    for (int k = 0; k < size; k++)
        fill(e + (long)k * c, c, k);
    char what[64];
    memset(r, 0xff, sizeof(int) * total);
    MPI_Gather(s, c, MPI_INT, r, c, MPI_INT, root, comm);
    snprintf(what, sizeof what, "Gather root %d", root);
    if (rank == root)
        check_ints(r, e, total, what, c);
    if (rank == root) {
        memset(r, 0xff, sizeof(int) * total);
        memcpy(r + (long)root * c, s, sizeof(int) * c);
        MPI_Gather(MPI_IN_PLACE, c, MPI_INT, r, c, MPI_INT, root, comm);
        snprintf(what, sizeof what, "Gather in place root %d", root);
        check_ints(r, e, total, what, c);
    } else {
        MPI_Gather(s, c, MPI_INT, NULL, 0, MPI_DATATYPE_NULL, root, comm);
    }
    /* scatter: root sends e; each gets its block */
    memset(s, 0xff, sizeof(int) * c);
    MPI_Scatter(rank == root ? e : NULL, c, MPI_INT, s, c, MPI_INT, root, comm);
    snprintf(what, sizeof what, "Scatter root %d", root);
    check_ints(s, e + (long)rank * c, c, what, c);
    if (rank == root) {
        MPI_Scatter(e, c, MPI_INT, MPI_IN_PLACE, c, MPI_INT, root, comm);
    } else {
        memset(s, 0xff, sizeof(int) * c);
        MPI_Scatter(NULL, 0, MPI_DATATYPE_NULL, s, c, MPI_INT, root, comm);
        snprintf(what, sizeof what, "Scatter (root in place) root %d", root);
        check_ints(s, e + (long)rank * c, c, what, c);
    }
    /* v forms: rank k's block has cnt[k] = (k % 3) * c / 2 + (k == 1) elements */
    int *cnt = xmalloc(sizeof(int) * size), *dsp = xmalloc(sizeof(int) * size);
    long t2 = 0;
    for (int k = 0; k < size; k++) {
        cnt[k] = k % 3 * c / 2 + (k == 1);
        dsp[k] = (int)t2 + k; /* gaps between blocks */
        t2 += cnt[k] + k;
    }
    int *rv = xmalloc(sizeof(int) * (t2 + 1)), *ev = xmalloc(sizeof(int) * (t2 + 1));
    for (long i = 0; i <= t2; i++)
        ev[i] = rv[i] = -7;
    for (int k = 0; k < size; k++)
        fill(ev + dsp[k], cnt[k], k);
    int *sv = xmalloc(sizeof(int) * (cnt[rank] + 1));
    fill(sv, cnt[rank], rank);
    MPI_Gatherv(sv, cnt[rank], MPI_INT, rv, cnt, dsp, MPI_INT, root, comm);
    snprintf(what, sizeof what, "Gatherv root %d", root);
    if (rank == root)
        check_ints(rv, ev, t2, what, c);
    memset(sv, 0xff, sizeof(int) * (cnt[rank] + 1));
    MPI_Scatterv(ev, cnt, dsp, MPI_INT, sv, cnt[rank], MPI_INT, root, comm);
    snprintf(what, sizeof what, "Scatterv root %d", root);
    check_ints(sv, ev + dsp[rank], cnt[rank], what, c);
    free(rv);
    free(ev);
    free(sv);
    free(cnt);
    free(dsp);
    free(s);
    free(r);
    free(e);
}

static void t_allgather(int c, MPI_Comm comm)
{
    long total = (long)c * size;
    int *s = xmalloc(sizeof(int) * c), *r = xmalloc(sizeof(int) * total), *e = xmalloc(sizeof(int) * total);
    fill(s, c, rank);
    for (int k = 0; k < size; k++)
        fill(e + (long)k * c, c, k);
    memset(r, 0xff, sizeof(int) * total);
    MPI_Allgather(s, c, MPI_INT, r, c, MPI_INT, comm);
    check_ints(r, e, total, "Allgather", c);
    memset(r, 0xff, sizeof(int) * total);
    memcpy(r + (long)rank * c, s, sizeof(int) * c);
    MPI_Allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, r, c, MPI_INT, comm);
    check_ints(r, e, total, "Allgather in place", c);
    int *cnt = xmalloc(sizeof(int) * size), *dsp = xmalloc(sizeof(int) * size);
    long t2 = 0;
    for (int k = size - 1; k >= 0; k--) { /* blocks in reverse order */
        cnt[k] = (k + 1) % 3 * c / 2;
        dsp[k] = (int)t2;
        t2 += cnt[k] + 1;
    }
    int *rv = xmalloc(sizeof(int) * (t2 + 1)), *ev = xmalloc(sizeof(int) * (t2 + 1));
    for (long i = 0; i <= t2; i++)
        ev[i] = rv[i] = -7;
    for (int k = 0; k < size; k++)
        fill(ev + dsp[k], cnt[k], k);
    MPI_Allgatherv(s, cnt[rank], MPI_INT, rv, cnt, dsp, MPI_INT, comm);
    check_ints(rv, ev, t2, "Allgatherv", c);
    free(rv);
    free(ev);
    free(cnt);
    free(dsp);
    free(s);
    free(r);
    free(e);
}

static int a2a_val(int from, int to, long i)
{
    return from * 100000 + to * 1000 + (int)(i % 1000);
}

/* Allgather and Alltoall where the ranks use different datatypes of the
 * same signature (c ints): odd ranks send from every other int of a wider
 * buffer, even ranks receive into every other int; the gaps must stay
 * untouched. */
static MPI_Datatype every_other(int c)
{
    MPI_Datatype v, t;
    MPI_Type_vector(c, 1, 2, MPI_INT, &v);
    MPI_Type_create_resized(v, 0, (MPI_Aint)(2 * (long)c * sizeof(int)), &t);
    MPI_Type_commit(&t);
    MPI_Type_free(&v);
    return t;
}

/* For a gather of c ints from each rank where the odd ranks send them
 * spread out: this rank's block in s (2c ints), r and e cleared (2 c size
 * ints), and in e every rank's block, spread out where `spread`. */
static void gather_setup(int *s, int *r, int *e, int c, int spread)
{
    int odd = rank % 2;
    long total = (long)c * size;
    for (long i = 0; i < 2L * c; i++)
        s[i] = odd ? (i % 2 ? -5 : val(rank, i / 2)) : (i < c ? val(rank, i) : -5);
    for (long i = 0; i < 2 * total; i++)
        r[i] = e[i] = -9;
    for (int k = 0; k < size; k++)
        for (long i = 0; i < c; i++)
            e[spread ? 2 * ((long)k * c + i) : (long)k * c + i] = val(k, i);
}

static void t_mixed_types(int c, MPI_Comm comm)
{
    if (c == 0)
        return;
    MPI_Datatype wide = every_other(c);
    int odd = rank % 2, even = !odd;
    long total = (long)c * size;
    int *s = xmalloc(sizeof(int) * 2 * total), *r = xmalloc(sizeof(int) * 2 * total);
    int *e = xmalloc(sizeof(int) * 2 * total);
    /* Allgather: send c ints (odd: spread out), receive blocks of c ints
     * (even: spread out) */
    gather_setup(s, r, e, c, even);
    if (odd)
        MPI_Allgather(s, 1, wide, r, c, MPI_INT, comm);
    else
        MPI_Allgather(s, c, MPI_INT, r, 1, wide, comm);
    check_ints(r, e, 2 * total, "Allgather, types differing between ranks", c);
    /* Alltoall: block k of c ints for rank k, the same way */
    for (int k = 0; k < size; k++)
        for (long i = 0; i < c; i++) {
            if (odd) {
                s[2 * ((long)k * c + i)] = a2a_val(rank, k, i);
                s[2 * ((long)k * c + i) + 1] = -5;
            } else {
                s[(long)k * c + i] = a2a_val(rank, k, i);
            }
        }
    for (long i = 0; i < 2 * total; i++)
        r[i] = e[i] = -9;
    for (int k = 0; k < size; k++)
        for (long i = 0; i < c; i++)
            e[even ? 2 * ((long)k * c + i) : (long)k * c + i] = a2a_val(k, rank, i);
    if (odd)
        MPI_Alltoall(s, 1, wide, r, c, MPI_INT, comm);
    else
        MPI_Alltoall(s, c, MPI_INT, r, 1, wide, comm);
    check_ints(r, e, 2 * total, "Alltoall, types differing between ranks", c);
    /* Gather to the last rank and Scatter from it: the odd ranks send or
     * receive c ints spread out, the root's blocks are spread out when it
     * is even */
    int root = size - 1, reven = root % 2 == 0;
    gather_setup(s, r, e, c, reven);
    if (rank == root)
        MPI_Gather(s, odd ? 1 : c, odd ? wide : MPI_INT, r, reven ? 1 : c, reven ? wide : MPI_INT, root, comm);
    else
        MPI_Gather(s, odd ? 1 : c, odd ? wide : MPI_INT, NULL, 0, MPI_DATATYPE_NULL, root, comm);
    if (rank == root)
        check_ints(r, e, 2 * total, "Gather, types differing between ranks", c);
    /* again in place at the root: its own block stays where it is */
    if (rank == root)
        for (long i = 0; i < 2 * total; i++)
            if (i / (reven ? 2L * c : c) != root)
                r[i] = -9;
    if (rank == root)
        MPI_Gather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, r, reven ? 1 : c, reven ? wide : MPI_INT, root, comm);
    else
        MPI_Gather(s, odd ? 1 : c, odd ? wide : MPI_INT, NULL, 0, MPI_DATATYPE_NULL, root, comm);
    if (rank == root)
        check_ints(r, e, 2 * total, "Gather in place, types differing between ranks", c);
    /* the root scatters the blocks it just gathered */
    for (long i = 0; i < 2L * c; i++)
        s[i] = -9;
    if (rank == root)
        MPI_Scatter(r, reven ? 1 : c, reven ? wide : MPI_INT, s, odd ? 1 : c, odd ? wide : MPI_INT, root, comm);
    else
        MPI_Scatter(NULL, 0, MPI_DATATYPE_NULL, s, odd ? 1 : c, odd ? wide : MPI_INT, root, comm);
    for (long i = 0; i < 2L * c; i++)
        e[i] = odd ? (i % 2 ? -9 : val(rank, i / 2)) : (i < c ? val(rank, i) : -9);
    check_ints(s, e, 2L * c, "Scatter, types differing between ranks", c);
    MPI_Type_free(&wide);
    free(s);
    free(r);
    free(e);
}


static void t_alltoall(int c, MPI_Comm comm)
{
    long total = (long)c * size;
    int *s = xmalloc(sizeof(int) * total), *r = xmalloc(sizeof(int) * total), *e = xmalloc(sizeof(int) * total);
    for (int k = 0; k < size; k++)
        for (long i = 0; i < c; i++) {
            s[(long)k * c + i] = a2a_val(rank, k, i);
            e[(long)k * c + i] = a2a_val(k, rank, i);
        }
    memset(r, 0xff, sizeof(int) * total);
    MPI_Alltoall(s, c, MPI_INT, r, c, MPI_INT, comm);
    check_ints(r, e, total, "Alltoall", c);
    memcpy(r, s, sizeof(int) * total);
    MPI_Alltoall(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, r, c, MPI_INT, comm);
    check_ints(r, e, total, "Alltoall in place", c);
    /* v: rank a sends (a + b) % 3 * c / 2 elements to rank b */
    int *sc = xmalloc(sizeof(int) * size), *sd = xmalloc(sizeof(int) * size);
    int *rc = xmalloc(sizeof(int) * size), *rd = xmalloc(sizeof(int) * size);
    long st = 0, rt = 0;
    for (int k = 0; k < size; k++) {
        sc[k] = (rank + k) % 3 * c / 2;
        rc[k] = (k + rank) % 3 * c / 2;
        sd[k] = (int)st;
        rd[k] = (int)rt + 1;
        st += sc[k];
        rt += rc[k] + 1;
    }
    int *sv = xmalloc(sizeof(int) * (st + 1)), *rv = xmalloc(sizeof(int) * (rt + 1)),
        *ev = xmalloc(sizeof(int) * (rt + 1));
    for (long i = 0; i <= rt; i++)
        rv[i] = ev[i] = -7;
    for (int k = 0; k < size; k++)
        for (long i = 0; i < sc[k]; i++)
            sv[sd[k] + i] = a2a_val(rank, k, i);
    for (int k = 0; k < size; k++)
        for (long i = 0; i < rc[k]; i++)
            ev[rd[k] + i] = a2a_val(k, rank, i);
    MPI_Alltoallv(sv, sc, sd, MPI_INT, rv, rc, rd, MPI_INT, comm);
    check_ints(rv, ev, rt, "Alltoallv", c);
    /* w: the same with byte displacements and a derived type for odd peers */
    MPI_Datatype one, *types = xmalloc(sizeof(MPI_Datatype) * size);
    MPI_Type_contiguous(1, MPI_INT, &one);
    MPI_Type_commit(&one);
    int *sdb = xmalloc(sizeof(int) * size), *rdb = xmalloc(sizeof(int) * size);
    for (int k = 0; k < size; k++) {
        types[k] = k % 2 ? one : MPI_INT;
        sdb[k] = sd[k] * (int)sizeof(int);
        rdb[k] = rd[k] * (int)sizeof(int);
    }
    for (long i = 0; i <= rt; i++)
        rv[i] = -7;
    MPI_Alltoallw(sv, sc, sdb, types, rv, rc, rdb, types, comm);
    check_ints(rv, ev, rt, "Alltoallw", c);
    MPI_Type_free(&one);
    free(types);
    free(sdb);
    free(rdb);
    free(sv);
    free(rv);
    free(ev);
    free(sc);
    free(sd);
    free(rc);
    free(rd);
    free(s);
    free(r);
    free(e);
}

/* Nonblocking collectives on three communicators at once, with a ring of
 * point-to-point messages in flight on MPI_COMM_WORLD. */
static void t_nonblocking(int c)
{
    MPI_Comm a, b;
    MPI_Comm_dup(MPI_COMM_WORLD, &a);
    MPI_Comm_split(MPI_COMM_WORLD, 0, size - rank, &b); /* reversed order */
    int brank;
    MPI_Comm_rank(b, &brank);
    int *s = xmalloc(sizeof(int) * c), *r1 = xmalloc(sizeof(int) * c), *r2 = xmalloc(sizeof(int) * c),
        *e1 = xmalloc(sizeof(int) * c), *e2 = xmalloc(sizeof(int) * c);
    int *ga = xmalloc(sizeof(int) * size), ge = rank * 3;
    fill(s, c, rank);
    for (long i = 0; i < c; i++) {
        e1[i] = 0;
        for (int k = 0; k < size; k++)
            e1[i] += val(k, i);
    }
    /* b's rank 0 is world rank size - 1 */
    fill(e2, c, size - 1);
    if (brank == 0)
        memcpy(r2, s, sizeof(int) * c);
    int pin = -1, pout = rank * 11;
    MPI_Request rq[6];
    MPI_Irecv(&pin, 1, MPI_INT, (rank - 1 + size) % size, 5, MPI_COMM_WORLD, &rq[0]);
    MPI_Iallreduce(s, r1, c, MPI_INT, MPI_SUM, a, &rq[1]);
    MPI_Ibcast(r2, c, MPI_INT, 0, b, &rq[2]);
    MPI_Iallgather(&ge, 1, MPI_INT, ga, 1, MPI_INT, MPI_COMM_WORLD, &rq[3]);
    MPI_Ibarrier(a, &rq[4]);
    MPI_Isend(&pout, 1, MPI_INT, (rank + 1) % size, 5, MPI_COMM_WORLD, &rq[5]);
    MPI_Waitall(6, rq, MPI_STATUSES_IGNORE);
    check_ints(r1, e1, c, "Iallreduce beside others", c);
    check_ints(r2, e2, c, "Ibcast beside others", c);
    int bad = 0;
    for (int k = 0; k < size; k++)
        bad |= ga[k] != k * 3;
    mt_ok(!bad, "Iallgather beside others count %d", c);
    mt_is_int(pin, ((rank - 1 + size) % size) * 11, "p2p beside nonblocking collectives count %d", c);
    /* the same call twice in a row, waited for in reverse order */
    MPI_Request q[2];
    int x = rank + 1, y = 2 * rank, sx = -1, sy = -1;
    MPI_Iallreduce(&x, &sx, 1, MPI_INT, MPI_SUM, a, &q[0]);
    MPI_Iallreduce(&y, &sy, 1, MPI_INT, MPI_MAX, a, &q[1]);
    MPI_Wait(&q[1], MPI_STATUS_IGNORE);
    MPI_Wait(&q[0], MPI_STATUS_IGNORE);
    mt_is_int(sx, size * (size + 1) / 2, "first of two Iallreduce");
    mt_is_int(sy, 2 * (size - 1), "second of two Iallreduce");
    /* Test until done */
    int flag = 0;
    MPI_Ibarrier(b, &q[0]);
    while (!flag)
        MPI_Test(&q[0], &flag, MPI_STATUS_IGNORE);
    mt_ok(q[0] == MPI_REQUEST_NULL, "Ibarrier completed by MPI_Test");
    MPI_Comm_free(&a);
    MPI_Comm_free(&b);
    free(s);
    free(r1);
    free(r2);
    free(e1);
    free(e2);
    free(ga);
}

static void t_neighbor(void)
{
    /* a periodic ring: neighbours left then right (the same rank twice
     * when there are 2 ranks, and this rank itself when alone) */
    MPI_Comm ring;
    int dims[1] = {size}, periods[1] = {1};
    MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &ring);
    int left = (rank - 1 + size) % size, right = (rank + 1) % size;
    int mine = rank * 10 + 1, got[2] = {-1, -1};
    MPI_Neighbor_allgather(&mine, 1, MPI_INT, got, 1, MPI_INT, ring);
    mt_ok(got[0] == left * 10 + 1 && got[1] == right * 10 + 1, "Neighbor_allgather on a ring: %d %d", got[0],
          got[1]);
    /* to the left goes rank*100, to the right rank*100 + 1 */
    int out[2] = {rank * 100, rank * 100 + 1}, in[2] = {-1, -1};
    MPI_Neighbor_alltoall(out, 1, MPI_INT, in, 1, MPI_INT, ring);
    mt_ok(in[0] == left * 100 + 1 && in[1] == right * 100, "Neighbor_alltoall on a ring: %d %d", in[0], in[1]);
    MPI_Request q;
    in[0] = in[1] = -1;
    MPI_Ineighbor_alltoall(out, 1, MPI_INT, in, 1, MPI_INT, ring, &q);
    MPI_Wait(&q, MPI_STATUS_IGNORE);
    mt_ok(in[0] == left * 100 + 1 && in[1] == right * 100, "Ineighbor_alltoall on a ring");
    int cnts[2] = {1, 1}, dsp[2] = {1, 0};
    in[0] = in[1] = -1;
    MPI_Neighbor_alltoallv(out, cnts, dsp, MPI_INT, in, cnts, dsp, MPI_INT, ring);
    mt_ok(in[1] == left * 100 && in[0] == right * 100 + 1, "Neighbor_alltoallv on a ring (blocks swapped on both sides)");
    MPI_Aint adsp[2] = {0, sizeof(int)};
    MPI_Datatype ty[2] = {MPI_INT, MPI_INT};
    in[0] = in[1] = -1;
    MPI_Neighbor_alltoallw(out, cnts, adsp, ty, in, cnts, adsp, ty, ring);
    mt_ok(in[0] == left * 100 + 1 && in[1] == right * 100, "Neighbor_alltoallw on a ring");
    got[0] = got[1] = -1;
    MPI_Neighbor_allgatherv(&mine, 1, MPI_INT, got, cnts, dsp, MPI_INT, ring);
    mt_ok(got[1] == left * 10 + 1 && got[0] == right * 10 + 1, "Neighbor_allgatherv on a ring");
    MPI_Comm_free(&ring);
    /* a distributed graph: each rank sends to rank + 1 and rank + 2 */
    MPI_Comm g;
    int srcs[2] = {(rank - 1 + size) % size, (rank - 2 + 2 * size) % size};
    int dsts[2] = {(rank + 1) % size, (rank + 2) % size};
    MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 2, srcs, MPI_UNWEIGHTED, 2, dsts, MPI_UNWEIGHTED,
                                   MPI_INFO_NULL, 0, &g);
    got[0] = got[1] = -1;
    MPI_Neighbor_allgather(&mine, 1, MPI_INT, got, 1, MPI_INT, g);
    mt_ok(got[0] == srcs[0] * 10 + 1 && got[1] == srcs[1] * 10 + 1, "Neighbor_allgather on a graph");
    MPI_Comm_free(&g);
}

/* MPI_Comm_idup: nonblocking (rank 0 sends before rank 1 has called it),
 * with a blocking dup and another idup agreed while it is pending; the
 * three communicators are distinct and work. */
static void t_idup(void)
{
    MPI_Comm c1, c2, c3;
    MPI_Request r[2];
    int token = -1;
    if (rank == 0) {
        MPI_Comm_idup(MPI_COMM_WORLD, &c1, &r[0]);
        if (size > 1)
            MPI_Send(&rank, 1, MPI_INT, 1, 9, MPI_COMM_WORLD);
    } else {
        if (rank == 1)
            MPI_Recv(&token, 1, MPI_INT, 0, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Comm_idup(MPI_COMM_WORLD, &c1, &r[0]);
    }
    MPI_Comm_dup(MPI_COMM_WORLD, &c2);
    MPI_Comm_idup(c2, &c3, &r[1]);
    MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
    if (rank == 1)
        mt_is_int(token, 0, "message sent while Comm_idup was pending");
    int res = -1;
    MPI_Comm_compare(MPI_COMM_WORLD, c1, &res);
    mt_is_int(res, MPI_CONGRUENT, "Comm_idup result is congruent to its parent");
    /* the same tag on the three: each receive gets its own communicator's message */
    int v[3] = {-1, -1, -1}, mine[3] = {rank * 10 + 1, rank * 10 + 2, rank * 10 + 3};
    int to = (rank + 1) % size, from = (rank - 1 + size) % size;
    MPI_Request q[6];
    MPI_Irecv(&v[2], 1, MPI_INT, from, 4, c3, &q[0]);
    MPI_Irecv(&v[1], 1, MPI_INT, from, 4, c2, &q[1]);
    MPI_Irecv(&v[0], 1, MPI_INT, from, 4, c1, &q[2]);
    MPI_Isend(&mine[0], 1, MPI_INT, to, 4, c1, &q[3]);
    MPI_Isend(&mine[1], 1, MPI_INT, to, 4, c2, &q[4]);
    MPI_Isend(&mine[2], 1, MPI_INT, to, 4, c3, &q[5]);
    MPI_Waitall(6, q, MPI_STATUSES_IGNORE);
    mt_ok(v[0] == from * 10 + 1 && v[1] == from * 10 + 2 && v[2] == from * 10 + 3,
          "idup'ed, dup'ed and idup'ed-while-pending communicators keep their messages apart");
    int sum = 0;
    MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, c3);
    mt_is_int(sum, size * (size - 1) / 2, "Allreduce on a communicator made by Comm_idup");
    MPI_Comm_free(&c1);
    MPI_Comm_free(&c2);
    MPI_Comm_free(&c3);
}

static void t_errors(void)
{
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int x = 1, y = 0, cls = 0;
    int rc = MPI_Bcast(&x, 1, MPI_INT, size, MPI_COMM_WORLD);
    MPI_Error_class(rc, &cls);
    mt_is_int(cls, MPI_ERR_ROOT, "Bcast with root = size: MPI_ERR_ROOT");
    rc = MPI_Allreduce(&x, &y, -1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    MPI_Error_class(rc, &cls);
    mt_is_int(cls, MPI_ERR_COUNT, "Allreduce with count -1: MPI_ERR_COUNT");
    rc = MPI_Allreduce(&x, &y, 1, MPI_INT, MPI_OP_NULL, MPI_COMM_WORLD);
    MPI_Error_class(rc, &cls);
    mt_is_int(cls, MPI_ERR_OP, "Allreduce with MPI_OP_NULL: MPI_ERR_OP");
    rc = MPI_Allreduce(&x, &y, 1, MPI_C_BOOL, MPI_SUM, MPI_COMM_WORLD);
    MPI_Error_class(rc, &cls);
    mt_is_int(cls, MPI_ERR_OP, "Allreduce SUM on MPI_C_BOOL: MPI_ERR_OP");
    {
        /* past the areas (the node paths beyond them check the op too:
         * the API's short way comes there without its checks) */
        static _Bool bx[65536], by[65536];
        rc = MPI_Allreduce(bx, by, 65536, MPI_C_BOOL, MPI_SUM, MPI_COMM_WORLD);
        MPI_Error_class(rc, &cls);
        mt_is_int(cls, MPI_ERR_OP, "Allreduce SUM on 65536 MPI_C_BOOL: MPI_ERR_OP");
    }
    rc = MPI_Allreduce(&x, MPI_IN_PLACE, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    MPI_Error_class(rc, &cls);
    mt_is_int(cls, MPI_ERR_BUFFER, "Allreduce with recvbuf MPI_IN_PLACE: MPI_ERR_BUFFER");
    rc = MPI_Allreduce(&x, &x, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    MPI_Error_class(rc, &cls);
    mt_is_int(cls, MPI_ERR_BUFFER, "Allreduce with sendbuf == recvbuf: MPI_ERR_BUFFER");
    rc = MPI_Barrier(MPI_COMM_NULL);
    MPI_Error_class(rc, &cls);
    mt_is_int(cls, MPI_ERR_COMM, "Barrier on MPI_COMM_NULL: MPI_ERR_COMM");
    rc = MPI_Neighbor_allgather(&x, 1, MPI_INT, &y, 1, MPI_INT, MPI_COMM_WORLD);
    MPI_Error_class(rc, &cls);
    mt_is_int(cls, MPI_ERR_TOPOLOGY, "Neighbor_allgather without a topology: MPI_ERR_TOPOLOGY");
    rc = MPI_Ibarrier(MPI_COMM_WORLD, NULL);
    MPI_Error_class(rc, &cls);
    mt_is_int(cls, MPI_ERR_ARG, "Ibarrier with a NULL request: MPI_ERR_ARG");
    /* after all that, collectives still line up */
    x = rank;
    MPI_Allreduce(&x, &y, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    mt_is_int(y, size * (size - 1) / 2, "Allreduce after the errors");
}

/* Barrier and Ibarrier synchronise: a rank that comes late (it first
 * sleeps 20 ms, so that a barrier that lets ranks through early would be
 * caught) leaves a mark, a file, just before it enters; every rank must
 * see it on leaving. The files go in a directory made next to this
 * program, which every rank sees (the build tree: /tmp may be private to
 * a host, as under the Slurm test). */
static const char *prog_dir = ".";

static void t_barrier_sync(MPI_Comm comm)
{
    int me, n, seen, all;
    char dir[PATH_MAX + 32] = "";
    MPI_Comm_rank(comm, &me);
    MPI_Comm_size(comm, &n);
    if (me == 0) {
        snprintf(dir, sizeof(dir), "%s/rdmpi-barrier-XXXXXX", prog_dir);
        if (!mkdtemp(dir))
            dir[0] = '\0';
    }
    MPI_Bcast(dir, (int)sizeof(dir), MPI_CHAR, 0, comm);
    mt_ok(dir[0] != '\0', "Barrier test: a directory next to the program");
    if (!dir[0])
        return;
    seen = access(dir, F_OK) == 0;
    MPI_Allreduce(&seen, &all, 1, MPI_INT, MPI_LAND, comm);
    mt_ok(all, "Barrier test: every rank sees the directory next to the program");
    if (!all)
        return;
    for (int round = 0; round < 2; round++) {
        int late = round == 0 ? n - 1 : 0;
        char path[PATH_MAX + 64];
        snprintf(path, sizeof(path), "%s/%d", dir, round);
        if (me == late) {
            usleep(20000);
            int fd = open(path, O_CREAT | O_WRONLY, 0600);
            if (fd >= 0)
                close(fd);
        }
        if (round == 0) {
            MPI_Barrier(comm);
        } else {
            MPI_Request r;
            MPI_Ibarrier(comm, &r);
            MPI_Wait(&r, MPI_STATUS_IGNORE);
        }
        mt_ok(access(path, F_OK) == 0, "%s: rank %d leaves after rank %d came", round ? "Ibarrier" : "Barrier",
              me, late);
    }
    MPI_Barrier(comm);
    if (me == 0) {
        for (int round = 0; round < 2; round++) {
            char path[PATH_MAX + 64];
            snprintf(path, sizeof(path), "%s/%d", dir, round);
            unlink(path);
        }
        rmdir(dir);
    }
}

/* Allgather, Alltoall, Bcast, Allreduce, Reduce and Reduce_scatter_block
 * over the same buffers again
 * and again, as a simulation's time steps do: the large ones take the direct
 * paths, whose buffers become mapped by the other ranks from their second
 * use (transports/shm/shm_xmap.c). The contents change every step (each
 * step must see the new ones), the buffers start at odd offsets (the
 * partial pages at their edges are copied another way), are freed and
 * allocated again mid-way (a new buffer at an old address must not be
 * confused with the old one), and some steps are in place. */
static int step_val(int it, int from, int to, long i)
{
    return it * 100000 + from * 1000 + to * 100 + (int)(i % 89);
}

/* Step it's contribution to a reduction over the reused buffers: n ints
 * step_val(it, rank, tag, i), or (nc) n affine pairs aval(rank + it, i). */
static void reduction_fill(int it, int tag, int nc, int *src, long n)
{
    affine *asrc = (affine *)(void *)src;
    for (long i = 0; i < n; i++) {
        if (nc)
            asrc[i] = aval(rank + it, i);
        else
            src[i] = step_val(it, rank, tag, i);
    }
}

/* Is element i of got element g of the reduction of every rank's
 * contribution at step it (reduction_fill)? */
static int reduction_ok(int it, int tag, int nc, const int *got, long i, long g)
{
    if (nc) {
        const affine *agot = (const affine *)(const void *)got;
        affine e = aexpect(it, it + size, g);
        return agot[i].a == e.a && agot[i].b == e.b;
    }
    int e = 0;
    for (int k = 0; k < size; k++)
        e += step_val(it, k, tag, g);
    return got[i] == e;
}

static void t_direct_reuse(MPI_Comm comm)
{
    const long c = 20000; /* ints per block: 80 KB, above the direct minimum */
    int *sb = NULL, *rb = NULL, *sbase = NULL, *rbase = NULL;
    long bad_ag = -1, bad_a2a = -1, bad_ar = -1, bad_bc = -1, bad_rd = -1, bad_rs = -1;
    int bad_it = -1;
    for (int it = 0; it < 8; it++) {
        if (it == 0 || it == 4) { /* new buffers, at other offsets */
            free(sbase);
            free(rbase);
            sbase = malloc(sizeof(int) * (c * size + 16));
            rbase = malloc(sizeof(int) * (c * size + 16));
            sb = sbase + (it == 0 ? 3 : 7);
            rb = rbase + (it == 0 ? 1 : 5);
        }
        /* Allgather (in place at step 6) */
        for (long i = 0; i < c * size; i++)
            rb[i] = -1;
        for (long i = 0; i < c; i++)
            (it == 6 ? rb + rank * c : sb)[i] = step_val(it, rank, 0, i);
        MPI_Allgather(it == 6 ? MPI_IN_PLACE : sb, (int)c, MPI_INT, rb, (int)c, MPI_INT, comm);
        for (long i = 0; i < c * size && bad_ag < 0; i++)
            if (rb[i] != step_val(it, (int)(i / c), 0, i % c))
                bad_ag = i, bad_it = it;
        /* Alltoall */
        for (int j = 0; j < size; j++)
            for (long i = 0; i < c; i++)
                sb[j * c + i] = step_val(it, rank, j, i);
        MPI_Alltoall(sb, (int)c, MPI_INT, rb, (int)c, MPI_INT, comm);
        for (long i = 0; i < c * size && bad_a2a < 0; i++)
            if (rb[i] != step_val(it, (int)(i / c), rank, i % c))
                bad_a2a = i, bad_it = it;
        /* Bcast of c * size ints from a root that changes every step */
        int root = it % size;
        for (long i = 0; i < c * size; i++)
            rb[i] = rank == root ? step_val(it, root, 1, i) : -1;
        MPI_Bcast(rb, (int)(c * size), MPI_INT, root, comm);
        for (long i = 0; i < c * size && bad_bc < 0; i++)
            if (rb[i] != step_val(it, root, 1, i))
                bad_bc = i, bad_it = it;
        /* Allreduce of c * size ints: SUM, or the non-commutative op (at
         * steps 3 and 5) on half as many pairs; in place at steps 5 and 6 */
        long na = c * size, np = na / 2;
        int ip = it == 5 || it == 6, nc = it == 3 || it == 5;
        reduction_fill(it, 0, nc, ip ? rb : sb, nc ? np : na);
        if (nc)
            MPI_Allreduce(ip ? MPI_IN_PLACE : sb, rb, (int)np, affine_t, affine_op, comm);
        else
            MPI_Allreduce(ip ? MPI_IN_PLACE : sb, rb, (int)na, MPI_INT, MPI_SUM, comm);
        for (long i = 0; i < (nc ? np : na) && bad_ar < 0; i++)
            if (!reduction_ok(it, 0, nc, rb, i, i))
                bad_ar = i, bad_it = it;
        /* Reduce of c * size ints to a root that changes every step: SUM,
         * or the non-commutative op (steps 2 and 5) on half as many pairs;
         * in place at the root at steps 5 and 7. The others' receive
         * buffers stay as they were. */
        root = (it * 3 + 1) % size, ip = (it == 5 || it == 7) && rank == root, nc = it == 2 || it == 5;
        for (long i = 0; i < na; i++)
            rb[i] = -7;
        reduction_fill(it, 2, nc, ip ? rb : sb, nc ? np : na);
        if (nc)
            MPI_Reduce(ip ? MPI_IN_PLACE : sb, rb, (int)np, affine_t, affine_op, root, comm);
        else
            MPI_Reduce(ip ? MPI_IN_PLACE : sb, rb, (int)na, MPI_INT, MPI_SUM, root, comm);
        for (long i = 0; i < (nc && rank == root ? np : na) && bad_rd < 0; i++)
            if (rank != root ? rb[i] != -7 : !reduction_ok(it, 2, nc, rb, i, i))
                bad_rd = i, bad_it = it;
        /* Reduce_scatter_block of c ints per rank: SUM, or the
         * non-commutative op (steps 1 and 6) on half as many pairs; in
         * place at steps 3 and 6 */
        ip = it == 3 || it == 6, nc = it == 1 || it == 6;
        long per = nc ? c / 2 : c;
        if (!ip)
            for (long i = 0; i < na; i++)
                rb[i] = -7;
        reduction_fill(it, 3, nc, ip ? rb : sb, per * size);
        if (nc)
            MPI_Reduce_scatter_block(ip ? MPI_IN_PLACE : sb, rb, (int)per, affine_t, affine_op, comm);
        else
            MPI_Reduce_scatter_block(ip ? MPI_IN_PLACE : sb, rb, (int)c, MPI_INT, MPI_SUM, comm);
        for (long i = 0; i < per && bad_rs < 0; i++)
            if (!reduction_ok(it, 3, nc, rb, i, rank * per + i))
                bad_rs = i, bad_it = it;
    }
    mt_ok(bad_ag < 0, "Allgather of 80 KB blocks, 8 steps over reused buffers");
    mt_ok(bad_a2a < 0, "Alltoall of 80 KB blocks, 8 steps over reused buffers");
    mt_ok(bad_ar < 0, "Allreduce of 80 KB per rank, SUM and a non-commutative op, 8 steps over reused buffers");
    mt_ok(bad_bc < 0, "Bcast of 80 KB per rank from changing roots, 8 steps over reused buffers");
    mt_ok(bad_rd < 0, "Reduce of 80 KB per rank to changing roots, SUM and a non-commutative op, 8 steps over "
                      "reused buffers");
    mt_ok(bad_rs < 0, "Reduce_scatter_block of 80 KB per rank, SUM and a non-commutative op, 8 steps over "
                      "reused buffers");
    if (bad_ag >= 0 || bad_a2a >= 0 || bad_ar >= 0 || bad_bc >= 0 || bad_rd >= 0 || bad_rs >= 0)
        printf("# [rank %d] step %d: Allgather element %ld, Alltoall element %ld, Allreduce element %ld, Bcast "
               "element %ld, Reduce element %ld, Reduce_scatter_block element %ld wrong\n",
               rank, bad_it, bad_ag, bad_a2a, bad_ar, bad_bc, bad_rd, bad_rs);
    free(sbase);
    free(rbase);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    mt_rank = rank;
    static char here[PATH_MAX];
    if (realpath(argv[0], here)) {
        *strrchr(here, '/') = '\0';
        prog_dir = here;
    }
    MPI_Type_contiguous(2, MPI_UINT32_T, &affine_t);
    MPI_Type_commit(&affine_t);
    MPI_Op_create(affine_fn, 0, &affine_op);
    /* large: above the eager and the split rendezvous thresholds */
    const int counts[] = {0, 1, 7, 1001, 70001};
    for (size_t ci = 0; ci < sizeof(counts) / sizeof(counts[0]); ci++) {
        int c = counts[ci];
        MPI_Barrier(MPI_COMM_WORLD);
        t_bcast(c, 0, MPI_COMM_WORLD);
        t_bcast(c, size - 1, MPI_COMM_WORLD);
        t_reduce(c, size - 1, MPI_COMM_WORLD);
        t_reduce(c, size / 2, MPI_COMM_WORLD);
        t_allreduce(c, MPI_COMM_WORLD);
        t_scan(c, MPI_COMM_WORLD);
        t_reduce_scatter(c < 30000 ? c : c / 8, MPI_COMM_WORLD);
        t_gather_scatter(c < 30000 ? c : c / 8, size / 2, MPI_COMM_WORLD);
        t_allgather(c < 30000 ? c : c / 8, MPI_COMM_WORLD);
        t_alltoall(c < 30000 ? c : c / 8, MPI_COMM_WORLD);
        t_mixed_types(c < 30000 ? c : c / 8, MPI_COMM_WORLD);
        t_nonblocking(c);
    }
    /* medium: the chunked shared-memory broadcast (between 4 and 64 KiB) */
    t_bcast(9001, size - 1, MPI_COMM_WORLD);
    t_bcast(9001, 0, MPI_COMM_WORLD);
    t_barrier_sync(MPI_COMM_WORLD);
    t_direct_reuse(MPI_COMM_WORLD);
    t_neighbor();
    t_idup();
    t_errors();
    MPI_Op_free(&affine_op);
    MPI_Type_free(&affine_t);
    MPI_Finalize();
    return mt_done();
}

/* MPI test: the large-count datatype constructors (MPI_Type_contiguous_c
 * ... MPI_Type_create_resized_c) and decoding (MPI_Type_get_envelope_c,
 * MPI_Type_get_contents_c). Each constructor's _c form and its int twin
 * make the same layout (exact size, bounds, packed bytes); the contents of
 * each kind of type, made either way, as MPI 4.1 5.1.13 lays them out
 * (a _c constructor's MPI_Count arguments as large counts); the int
 * decoding calls refusing a _c-made type; counts beyond an int; the
 * errors. 1 rank. */
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>

#include "test/mpi/mtest.h"

#define BIG31 ((MPI_Count)1 << 31)

/* the source of every pack: bytes of known values, types placed at
 * src + BASE (some reach below their origin) */
static unsigned char src[4096];
#define BASE 1024

/* a run of bytes of one instance of a type: at disp, len long */
struct run {
    MPI_Aint disp, len;
};

/* The layout of t: its size, bounds, and the bytes MPI_Pack_c makes of 2
 * of it (the second an extent on), which must be runs[0..nr) of each
 * instance. name: what made it. */
static void layout(const char *name, MPI_Datatype t, MPI_Count size, MPI_Count lb, MPI_Count extent,
                   MPI_Count tlb, MPI_Count textent, const struct run *runs, int nr)
{
    MPI_Count s = -1, l = -1, e = -1, tl = -1, te = -1;
    MPI_Type_size_c(t, &s);
    MPI_Type_get_extent_c(t, &l, &e);
    MPI_Type_get_true_extent_c(t, &tl, &te);
    mt_ok(s == size && l == lb && e == extent && tl == tlb && te == textent,
          "%s: size %lld, lb %lld, extent %lld, true lb %lld, true extent %lld (got %lld %lld %lld %lld %lld)", name,
          (long long)size, (long long)lb, (long long)extent, (long long)tlb, (long long)textent, (long long)s,
          (long long)l, (long long)e, (long long)tl, (long long)te);
    unsigned char out[1024], want[1024];
    MPI_Count pos = 0, n = 0;
    for (int k = 0; k < 2; k++)
        for (int i = 0; i < nr; i++) {
            memcpy(want + n, src + BASE + k * extent + runs[i].disp, (size_t)runs[i].len);
            n += runs[i].len;
        }
    memset(out, 0xee, sizeof out);
    int rc = MPI_Pack_c(src + BASE, 2, t, out, sizeof out, &pos, MPI_COMM_WORLD);
    mt_ok(rc == MPI_SUCCESS && pos == n && n == 2 * size && memcmp(out, want, (size_t)n) == 0,
          "%s: 2 of it pack to the %lld bytes of its runs (position %lld)", name, (long long)n, (long long)pos);
}

/* The same for the _c-made type tc and its int-made twin ti: both have
 * the layout given (so the same); both are freed. */
static void twins(const char *name, MPI_Datatype *tc, MPI_Datatype *ti, MPI_Count size, MPI_Count lb,
                  MPI_Count extent, MPI_Count tlb, MPI_Count textent, const struct run *runs, int nr)
{
    char n[128];
    MPI_Type_commit(tc);
    MPI_Type_commit(ti);
    snprintf(n, sizeof n, "%s_c", name);
    layout(n, *tc, size, lb, extent, tlb, textent, runs, nr);
    layout(name, *ti, size, lb, extent, tlb, textent, runs, nr);
}

/* frees d if it is a derived type (a copy get_contents handed out) */
static void free_derived(MPI_Datatype *d)
{
    MPI_Count x;
    int comb = MPI_COMBINER_NAMED;
    MPI_Type_get_envelope_c(*d, &x, &x, &x, &x, &comb);
    if (comb != MPI_COMBINER_NAMED)
        MPI_Type_free(d);
}

static int same_ints(const int *a, const int *b, MPI_Count n, const char *what)
{
    for (MPI_Count i = 0; i < n; i++)
        if (a[i] != b[i]) {
            printf("# %s[%lld] = %d, expected %d\n", what, (long long)i, a[i], b[i]);
            return 0;
        }
    return 1;
}

static int same_counts(const MPI_Count *a, const MPI_Count *b, MPI_Count n, const char *what)
{
    for (MPI_Count i = 0; i < n; i++)
        if (a[i] != b[i]) {
            printf("# %s[%lld] = %lld, expected %lld\n", what, (long long)i, (long long)a[i], (long long)b[i]);
            return 0;
        }
    return 1;
}

/* The envelope and contents of t by the _c calls: exactly the combiner
 * and the arrays given (ni ints, na addresses, nc large counts, nd types;
 * a derived type in types[] is compared by its combiner and its large
 * counts, the copy handed out freed). Then, by the int calls: for a type
 * without large counts the same; for one with, MPI_ERR_TYPE from both. */
static void contents(const char *name, MPI_Datatype t, int combiner, int ni, const int *ints, int na,
                     const MPI_Aint *aints, int nc, const MPI_Count *counts, int nd, const MPI_Datatype *types)
{
    MPI_Count gi = -1, ga = -1, gc = -1, gd = -1;
    int comb = -1, cls = -1;
    int rc = MPI_Type_get_envelope_c(t, &gi, &ga, &gc, &gd, &comb);
    mt_ok(rc == MPI_SUCCESS && comb == combiner && gi == ni && ga == na && gc == nc && gd == nd,
          "%s: MPI_Type_get_envelope_c: combiner %d, %d ints, %d addresses, %d large counts, %d types "
          "(got %d: %d, %lld %lld %lld %lld)",
          name, combiner, ni, na, nc, nd, rc, comb, (long long)gi, (long long)ga, (long long)gc, (long long)gd);
    int ri[64];
    MPI_Aint ra[64];
    MPI_Count rcn[64];
    MPI_Datatype rt[64];
    for (int i = 0; i < 64; i++) {
        ri[i] = -7777;
        ra[i] = -7777;
        rcn[i] = -7777;
        rt[i] = MPI_DATATYPE_NULL;
    }
    rc = MPI_Type_get_contents_c(t, 64, 64, 64, 64, ri, ra, rcn, rt);
    int ok = rc == MPI_SUCCESS && same_ints(ri, ints, ni, "array_of_integers") &&
             same_counts(rcn, counts, nc, "array_of_large_counts") && ri[ni] == -7777 && ra[na] == -7777 &&
             rcn[nc] == -7777;
    for (int i = 0; i < na && ok; i++)
        if (ra[i] != aints[i]) {
            printf("# array_of_addresses[%d] = %lld, expected %lld\n", i, (long long)ra[i], (long long)aints[i]);
            ok = 0;
        }
    for (int i = 0; i < nd && ok; i++) {
        MPI_Count xi, xa, xc, xd, yi, ya, yc, yd;
        int xcomb, ycomb;
        MPI_Type_get_envelope_c(rt[i], &xi, &xa, &xc, &xd, &xcomb);
        MPI_Type_get_envelope_c(types[i], &yi, &ya, &yc, &yd, &ycomb);
        if (xcomb == MPI_COMBINER_NAMED ? rt[i] != types[i]
                                        : (xcomb != ycomb || xi != yi || xa != ya || xc != yc || xd != yd)) {
            printf("# array_of_datatypes[%d] is not the type given\n", i);
            ok = 0;
        }
        if (xcomb != MPI_COMBINER_NAMED && xc > 0 && xc <= 8) {
            /* a derived type's copy keeps the large counts */
            MPI_Count c1[8], c2[8];
            int i1[64], i2[64];
            MPI_Aint a1[64], a2[64];
            MPI_Datatype d1[64], d2[64];
            MPI_Type_get_contents_c(rt[i], 64, 64, 8, 64, i1, a1, c1, d1);
            MPI_Type_get_contents_c(types[i], 64, 64, 8, 64, i2, a2, c2, d2);
            ok = same_counts(c1, c2, xc, "the copy's array_of_large_counts");
            for (MPI_Count k = 0; k < xd; k++) {
                free_derived(&d1[k]);
                free_derived(&d2[k]);
            }
        }
        free_derived(&rt[i]);
    }
    mt_ok(ok, "%s: MPI_Type_get_contents_c: every element of the integers, addresses, large counts, types",
          name);

    int ii = -1, ia = -1, id = -1;
    comb = -1;
    rc = MPI_Type_get_envelope(t, &ii, &ia, &id, &comb);
    if (nc > 0) {
        MPI_Error_class(rc, &cls);
        mt_is_int(cls, MPI_ERR_TYPE, "%s: the int MPI_Type_get_envelope of a _c-made type: MPI_ERR_TYPE", name);
        for (int i = 0; i < 64; i++)
            ri[i] = -7777;
        MPI_Error_class(MPI_Type_get_contents(t, 64, 64, 64, ri, ra, rt), &cls);
        mt_ok(cls == MPI_ERR_TYPE && ri[0] == -7777,
              "%s: the int MPI_Type_get_contents of it: MPI_ERR_TYPE, nothing written (class %d)", name, cls);
        return;
    }
    mt_ok(rc == MPI_SUCCESS && comb == combiner && ii == ni && ia == na && id == nd,
          "%s: the int MPI_Type_get_envelope: the same (%d, %d %d %d)", name, comb, ii, ia, id);
    for (int i = 0; i < 64; i++)
        ri[i] = -7777;
    rc = MPI_Type_get_contents(t, 64, 64, 64, ri, ra, rt);
    ok = rc == MPI_SUCCESS && same_ints(ri, ints, ni, "array_of_integers (int call)");
    for (int i = 0; i < na && ok; i++)
        ok = ra[i] == aints[i];
    for (int i = 0; i < nd; i++) {
        MPI_Count x;
        int xcomb = -1;
        MPI_Type_get_envelope_c(rt[i], &x, &x, &x, &x, &xcomb);
        if (xcomb == MPI_COMBINER_NAMED)
            ok = ok && rt[i] == types[i];
        else
            MPI_Type_free(&rt[i]);
    }
    mt_ok(ok, "%s: the int MPI_Type_get_contents: the same integers, addresses, types", name);
}

static int err_class(int rc)
{
    int cls = -1;
    MPI_Error_class(rc, &cls);
    return cls;
}

/* the error string of rc, just returned, names the call: "CALL on rank" */
static int names_call(int rc, const char *call)
{
    char str[MPI_MAX_ERROR_STRING], want[128];
    int len = 0;
    MPI_Error_string(rc, str, &len);
    snprintf(want, sizeof want, "%s on rank", call);
    if (rc != MPI_SUCCESS && strstr(str, want))
        return 1;
    printf("# error string: %s\n", str);
    return 0;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &mt_rank);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    for (size_t i = 0; i < sizeof src; i++)
        src[i] = (unsigned char)(i * 37 + 11);
    MPI_Datatype tc, ti;
    const MPI_Datatype I1[1] = {MPI_INT};

    /* contiguous: 3 ints */
    MPI_Type_contiguous_c(3, MPI_INT, &tc);
    MPI_Type_contiguous(3, MPI_INT, &ti);
    twins("MPI_Type_contiguous", &tc, &ti, 12, 0, 12, 0, 12, (struct run[]){{0, 12}}, 1);
    contents("contiguous_c", tc, MPI_COMBINER_CONTIGUOUS, 0, NULL, 0, NULL, 1, (MPI_Count[]){3}, 1, I1);
    contents("contiguous", ti, MPI_COMBINER_CONTIGUOUS, 1, (int[]){3}, 0, NULL, 0, NULL, 1, I1);
    MPI_Datatype contig_c = tc; /* kept for the struct below */
    MPI_Type_free(&ti);

    /* vector: 3 blocks of 2 ints, 4 ints apart */
    MPI_Type_vector_c(3, 2, 4, MPI_INT, &tc);
    MPI_Type_vector(3, 2, 4, MPI_INT, &ti);
    twins("MPI_Type_vector", &tc, &ti, 24, 0, 40, 0, 40, (struct run[]){{0, 8}, {16, 8}, {32, 8}}, 3);
    contents("vector_c", tc, MPI_COMBINER_VECTOR, 0, NULL, 0, NULL, 3, (MPI_Count[]){3, 2, 4}, 1, I1);
    contents("vector", ti, MPI_COMBINER_VECTOR, 3, (int[]){3, 2, 4}, 0, NULL, 0, NULL, 1, I1);
    MPI_Type_free(&tc);
    MPI_Type_free(&ti);
    /* a negative stride: the second block 3 ints below the first */
    MPI_Type_vector_c(2, 1, -3, MPI_INT, &tc);
    MPI_Type_vector(2, 1, -3, MPI_INT, &ti);
    twins("MPI_Type_vector (stride -3)", &tc, &ti, 8, -12, 16, -12, 16, (struct run[]){{0, 4}, {-12, 4}}, 2);
    MPI_Type_free(&tc);
    MPI_Type_free(&ti);

    /* hvector: 3 blocks of 2 ints, 20 bytes apart */
    MPI_Type_create_hvector_c(3, 2, 20, MPI_INT, &tc);
    MPI_Type_create_hvector(3, 2, 20, MPI_INT, &ti);
    twins("MPI_Type_create_hvector", &tc, &ti, 24, 0, 48, 0, 48, (struct run[]){{0, 8}, {20, 8}, {40, 8}}, 3);
    contents("hvector_c", tc, MPI_COMBINER_HVECTOR, 0, NULL, 0, NULL, 3, (MPI_Count[]){3, 2, 20}, 1, I1);
    contents("hvector", ti, MPI_COMBINER_HVECTOR, 2, (int[]){3, 2}, 1, (MPI_Aint[]){20}, 0, NULL, 1, I1);
    MPI_Type_free(&tc);
    MPI_Type_free(&ti);

    /* indexed: 2 ints at int 5, 1 at 0, 3 at 10 */
    MPI_Type_indexed_c(3, (MPI_Count[]){2, 1, 3}, (MPI_Count[]){5, 0, 10}, MPI_INT, &tc);
    MPI_Type_indexed(3, (int[]){2, 1, 3}, (int[]){5, 0, 10}, MPI_INT, &ti);
    twins("MPI_Type_indexed", &tc, &ti, 24, 0, 52, 0, 52, (struct run[]){{20, 8}, {0, 4}, {40, 12}}, 3);
    contents("indexed_c", tc, MPI_COMBINER_INDEXED, 0, NULL, 0, NULL, 7, (MPI_Count[]){3, 2, 1, 3, 5, 0, 10}, 1, I1);
    contents("indexed", ti, MPI_COMBINER_INDEXED, 7, (int[]){3, 2, 1, 3, 5, 0, 10}, 0, NULL, 0, NULL, 1, I1);
    MPI_Type_free(&tc);
    MPI_Type_free(&ti);

    /* hindexed: 1 int at byte 16, 2 at byte -8 */
    MPI_Type_create_hindexed_c(2, (MPI_Count[]){1, 2}, (MPI_Count[]){16, -8}, MPI_INT, &tc);
    MPI_Type_create_hindexed(2, (int[]){1, 2}, (MPI_Aint[]){16, -8}, MPI_INT, &ti);
    twins("MPI_Type_create_hindexed", &tc, &ti, 12, -8, 28, -8, 28, (struct run[]){{16, 4}, {-8, 8}}, 2);
    contents("hindexed_c", tc, MPI_COMBINER_HINDEXED, 0, NULL, 0, NULL, 5, (MPI_Count[]){2, 1, 2, 16, -8}, 1, I1);
    contents("hindexed", ti, MPI_COMBINER_HINDEXED, 3, (int[]){2, 1, 2}, 2, (MPI_Aint[]){16, -8}, 0, NULL, 1, I1);
    MPI_Type_free(&tc);
    MPI_Type_free(&ti);

    /* indexed_block: blocks of 2 ints at ints 4, 0, 9 */
    MPI_Type_create_indexed_block_c(3, 2, (MPI_Count[]){4, 0, 9}, MPI_INT, &tc);
    MPI_Type_create_indexed_block(3, 2, (int[]){4, 0, 9}, MPI_INT, &ti);
    twins("MPI_Type_create_indexed_block", &tc, &ti, 24, 0, 44, 0, 44, (struct run[]){{16, 8}, {0, 8}, {36, 8}}, 3);
    contents("indexed_block_c", tc, MPI_COMBINER_INDEXED_BLOCK, 0, NULL, 0, NULL, 5, (MPI_Count[]){3, 2, 4, 0, 9},
             1, I1);
    contents("indexed_block", ti, MPI_COMBINER_INDEXED_BLOCK, 5, (int[]){3, 2, 4, 0, 9}, 0, NULL, 0, NULL, 1, I1);
    MPI_Type_free(&tc);
    MPI_Type_free(&ti);

    /* hindexed_block: blocks of 3 ints at bytes 0 and 40 */
    MPI_Type_create_hindexed_block_c(2, 3, (MPI_Count[]){0, 40}, MPI_INT, &tc);
    MPI_Type_create_hindexed_block(2, 3, (MPI_Aint[]){0, 40}, MPI_INT, &ti);
    twins("MPI_Type_create_hindexed_block", &tc, &ti, 24, 0, 52, 0, 52, (struct run[]){{0, 12}, {40, 12}}, 2);
    contents("hindexed_block_c", tc, MPI_COMBINER_HINDEXED_BLOCK, 0, NULL, 0, NULL, 4, (MPI_Count[]){2, 3, 0, 40}, 1,
             I1);
    contents("hindexed_block", ti, MPI_COMBINER_HINDEXED_BLOCK, 2, (int[]){2, 3}, 2, (MPI_Aint[]){0, 40}, 0, NULL, 1,
             I1);
    MPI_Type_free(&tc);
    MPI_Type_free(&ti);

    /* struct: a char at 0, 2 ints at 8, a double at 24 (extent 32) */
    const MPI_Datatype st[3] = {MPI_CHAR, MPI_INT, MPI_DOUBLE};
    MPI_Type_create_struct_c(3, (MPI_Count[]){1, 2, 1}, (MPI_Count[]){0, 8, 24}, st, &tc);
    MPI_Type_create_struct(3, (int[]){1, 2, 1}, (MPI_Aint[]){0, 8, 24}, st, &ti);
    twins("MPI_Type_create_struct", &tc, &ti, 17, 0, 32, 0, 32, (struct run[]){{0, 1}, {8, 8}, {24, 8}}, 3);
    contents("struct_c", tc, MPI_COMBINER_STRUCT, 0, NULL, 0, NULL, 7, (MPI_Count[]){3, 1, 2, 1, 0, 8, 24}, 3, st);
    contents("struct", ti, MPI_COMBINER_STRUCT, 4, (int[]){3, 1, 2, 1}, 3, (MPI_Aint[]){0, 8, 24}, 0, NULL, 3, st);
    MPI_Type_free(&tc);
    MPI_Type_free(&ti);
    /* a struct of a _c-made type: the copy get_contents_c hands out keeps
     * its large counts */
    const MPI_Datatype st2[2] = {MPI_INT, contig_c};
    MPI_Type_create_struct_c(2, (MPI_Count[]){1, 1}, (MPI_Count[]){0, 16}, st2, &tc);
    contents("struct_c of a contiguous_c", tc, MPI_COMBINER_STRUCT, 0, NULL, 0, NULL, 5,
             (MPI_Count[]){2, 1, 1, 0, 16}, 2, st2);
    MPI_Type_free(&tc);
    MPI_Type_free(&contig_c);

    /* subarray: rows 1-2, columns 2-4 of a 4 x 6 int array (C order) */
    MPI_Type_create_subarray_c(2, (MPI_Count[]){4, 6}, (MPI_Count[]){2, 3}, (MPI_Count[]){1, 2}, MPI_ORDER_C,
                               MPI_INT, &tc);
    MPI_Type_create_subarray(2, (int[]){4, 6}, (int[]){2, 3}, (int[]){1, 2}, MPI_ORDER_C, MPI_INT, &ti);
    twins("MPI_Type_create_subarray", &tc, &ti, 24, 0, 96, 32, 36, (struct run[]){{32, 12}, {56, 12}}, 2);
    contents("subarray_c", tc, MPI_COMBINER_SUBARRAY, 2, (int[]){2, MPI_ORDER_C}, 0, NULL, 6,
             (MPI_Count[]){4, 6, 2, 3, 1, 2}, 1, I1);
    contents("subarray", ti, MPI_COMBINER_SUBARRAY, 8, (int[]){2, 4, 6, 2, 3, 1, 2, MPI_ORDER_C}, 0, NULL, 0, NULL,
             1, I1);
    MPI_Type_free(&tc);
    MPI_Type_free(&ti);

    /* darray: an 8 x 6 int array on a 2 x 2 grid, rows by block, columns
     * cyclic(2); rank 1 (grid row 0, column 1) holds rows 0-3, columns 2-3 */
    const int dist[2] = {MPI_DISTRIBUTE_BLOCK, MPI_DISTRIBUTE_CYCLIC}, darg[2] = {MPI_DISTRIBUTE_DFLT_DARG, 2},
              psz[2] = {2, 2};
    MPI_Type_create_darray_c(4, 1, 2, (MPI_Count[]){8, 6}, dist, darg, psz, MPI_ORDER_C, MPI_INT, &tc);
    MPI_Type_create_darray(4, 1, 2, (int[]){8, 6}, dist, darg, psz, MPI_ORDER_C, MPI_INT, &ti);
    twins("MPI_Type_create_darray", &tc, &ti, 32, 0, 192, 8, 80,
          (struct run[]){{8, 8}, {32, 8}, {56, 8}, {80, 8}}, 4);
    contents("darray_c", tc, MPI_COMBINER_DARRAY, 10,
             (int[]){4, 1, 2, MPI_DISTRIBUTE_BLOCK, MPI_DISTRIBUTE_CYCLIC, MPI_DISTRIBUTE_DFLT_DARG, 2, 2, 2,
                     MPI_ORDER_C},
             0, NULL, 2, (MPI_Count[]){8, 6}, 1, I1);
    contents("darray", ti, MPI_COMBINER_DARRAY, 12,
             (int[]){4, 1, 2, 8, 6, MPI_DISTRIBUTE_BLOCK, MPI_DISTRIBUTE_CYCLIC, MPI_DISTRIBUTE_DFLT_DARG, 2, 2, 2,
                     MPI_ORDER_C},
             0, NULL, 0, NULL, 1, I1);
    MPI_Type_free(&tc);
    MPI_Type_free(&ti);

    /* resized: an int with lb -4 and extent 16 */
    MPI_Type_create_resized_c(MPI_INT, -4, 16, &tc);
    MPI_Type_create_resized(MPI_INT, -4, 16, &ti);
    twins("MPI_Type_create_resized", &tc, &ti, 4, -4, 16, 0, 4, (struct run[]){{0, 4}}, 1);
    contents("resized_c", tc, MPI_COMBINER_RESIZED, 0, NULL, 0, NULL, 2, (MPI_Count[]){-4, 16}, 1, I1);
    contents("resized", ti, MPI_COMBINER_RESIZED, 0, NULL, 2, (MPI_Aint[]){-4, 16}, 0, NULL, 1, I1);
    /* a dup of a _c-made type: its own contents are the dup's, no large
     * counts: the int calls describe it */
    MPI_Datatype dup;
    MPI_Type_dup(tc, &dup);
    const MPI_Datatype rs[1] = {tc};
    contents("dup of resized_c", dup, MPI_COMBINER_DUP, 0, NULL, 0, NULL, 0, NULL, 1, rs);
    MPI_Type_free(&dup);
    MPI_Type_free(&tc);
    MPI_Type_free(&ti);

    /* a named type: no contents */
    MPI_Count n0 = -1, n1 = -1, n2 = -1, n3 = -1;
    int comb = -1;
    MPI_Type_get_envelope_c(MPI_INT, &n0, &n1, &n2, &n3, &comb);
    mt_ok(comb == MPI_COMBINER_NAMED && n0 == 0 && n1 == 0 && n2 == 0 && n3 == 0,
          "MPI_Type_get_envelope_c of MPI_INT: MPI_COMBINER_NAMED, no arguments");
    int ri[4];
    MPI_Aint ra[4];
    MPI_Count rc4[4];
    MPI_Datatype rt[4];
    mt_is_int(err_class(MPI_Type_get_contents_c(MPI_INT, 4, 4, 4, 4, ri, ra, rc4, rt)), MPI_ERR_TYPE,
              "MPI_Type_get_contents_c of MPI_INT: MPI_ERR_TYPE");

    /* counts beyond an int */
    MPI_Count s = -1, lb = -1, ext = -1, tlb = -1, text = -1;
    int isz = 0;
    MPI_Type_contiguous_c(BIG31 + 5, MPI_BYTE, &tc);
    MPI_Type_size_c(tc, &s);
    MPI_Type_get_extent_c(tc, &lb, &ext);
    MPI_Type_get_true_extent_c(tc, &tlb, &text);
    MPI_Type_size(tc, &isz);
    mt_ok(s == BIG31 + 5 && lb == 0 && ext == BIG31 + 5 && tlb == 0 && text == BIG31 + 5 && isz == MPI_UNDEFINED,
          "MPI_Type_contiguous_c(2^31 + 5, MPI_BYTE): size and extent 2^31 + 5, MPI_Type_size MPI_UNDEFINED "
          "(%lld %lld %lld %d)",
          (long long)s, (long long)lb, (long long)ext, isz);
    contents("contiguous_c of 2^31 + 5", tc, MPI_COMBINER_CONTIGUOUS, 0, NULL, 0, NULL, 1, (MPI_Count[]){BIG31 + 5}, 1,
             (MPI_Datatype[]){MPI_BYTE});
    MPI_Type_free(&tc);
    MPI_Type_vector_c(BIG31 + 1, 1, 2, MPI_CHAR, &tc);
    MPI_Type_size_c(tc, &s);
    MPI_Type_get_extent_c(tc, &lb, &ext);
    MPI_Type_get_true_extent_c(tc, &tlb, &text);
    isz = 0;
    MPI_Type_size(tc, &isz);
    MPI_Aint alb = -1, aext = -1;
    MPI_Type_get_extent(tc, &alb, &aext);
    mt_ok(s == BIG31 + 1 && lb == 0 && ext == 2 * BIG31 + 1 && tlb == 0 && text == 2 * BIG31 + 1 &&
              isz == MPI_UNDEFINED && alb == 0 && aext == 2 * BIG31 + 1,
          "MPI_Type_vector_c(2^31 + 1, 1, 2, MPI_CHAR): size 2^31 + 1, extent 2^32 + 1, MPI_Type_size MPI_UNDEFINED "
          "(%lld %lld %lld %lld %d)",
          (long long)s, (long long)lb, (long long)ext, (long long)text, isz);
    contents("vector_c of 2^31 + 1", tc, MPI_COMBINER_VECTOR, 0, NULL, 0, NULL, 3, (MPI_Count[]){BIG31 + 1, 1, 2}, 1,
             (MPI_Datatype[]){MPI_CHAR});
    MPI_Type_free(&tc);
    MPI_Type_create_hvector_c(3, 1, (MPI_Count)1 << 33, MPI_INT, &tc);
    MPI_Type_get_extent_c(tc, &lb, &ext);
    MPI_Type_size_c(tc, &s);
    mt_ok(s == 12 && lb == 0 && ext == ((MPI_Count)1 << 34) + 4,
          "MPI_Type_create_hvector_c(3, 1, 2^33, MPI_INT): size 12, extent 2^34 + 4 (%lld %lld)", (long long)s,
          (long long)ext);
    MPI_Type_free(&tc);

    /* the errors; no type is made by a failed call */
    MPI_Count one[2] = {1, 1}, zero2[2] = {0, 4};
    tc = MPI_DATATYPE_NULL;
    mt_is_int(err_class(MPI_Type_contiguous_c(-1, MPI_INT, &tc)), MPI_ERR_COUNT,
              "MPI_Type_contiguous_c of count -1: MPI_ERR_COUNT");
    mt_is_int(err_class(MPI_Type_vector_c(-5, 1, 1, MPI_INT, &tc)), MPI_ERR_COUNT,
              "MPI_Type_vector_c of count -5: MPI_ERR_COUNT");
    mt_is_int(err_class(MPI_Type_create_hvector_c(-(BIG31 * 4), 1, 1, MPI_INT, &tc)), MPI_ERR_COUNT,
              "MPI_Type_create_hvector_c of count -2^33: MPI_ERR_COUNT");
    mt_is_int(err_class(MPI_Type_indexed_c(-1, NULL, NULL, MPI_INT, &tc)), MPI_ERR_COUNT,
              "MPI_Type_indexed_c of count -1: MPI_ERR_COUNT");
    mt_is_int(err_class(MPI_Type_create_struct_c(-2, NULL, NULL, NULL, &tc)), MPI_ERR_COUNT,
              "MPI_Type_create_struct_c of count -2: MPI_ERR_COUNT");
    mt_is_int(err_class(MPI_Type_vector_c(2, -1, 1, MPI_INT, &tc)), MPI_ERR_ARG,
              "MPI_Type_vector_c of block length -1: MPI_ERR_ARG (as MPI_Type_vector)");
    mt_is_int(err_class(MPI_Type_indexed_c(2, NULL, zero2, MPI_INT, &tc)), MPI_ERR_ARG,
              "MPI_Type_indexed_c, count 2, array_of_blocklengths NULL: MPI_ERR_ARG");
    mt_is_int(err_class(MPI_Type_create_hindexed_c(2, one, NULL, MPI_INT, &tc)), MPI_ERR_ARG,
              "MPI_Type_create_hindexed_c, count 2, array_of_displacements NULL: MPI_ERR_ARG");
    mt_is_int(err_class(MPI_Type_create_indexed_block_c(2, 1, NULL, MPI_INT, &tc)), MPI_ERR_ARG,
              "MPI_Type_create_indexed_block_c, count 2, array_of_displacements NULL: MPI_ERR_ARG");
    mt_is_int(err_class(MPI_Type_create_hindexed_block_c(2, 1, NULL, MPI_INT, &tc)), MPI_ERR_ARG,
              "MPI_Type_create_hindexed_block_c, count 2, array_of_displacements NULL: MPI_ERR_ARG");
    mt_is_int(err_class(MPI_Type_create_struct_c(2, one, zero2, NULL, &tc)), MPI_ERR_ARG,
              "MPI_Type_create_struct_c, count 2, array_of_types NULL: MPI_ERR_ARG");
    mt_is_int(err_class(MPI_Type_create_subarray_c(1, NULL, one, one, MPI_ORDER_C, MPI_INT, &tc)), MPI_ERR_ARG,
              "MPI_Type_create_subarray_c, array_of_sizes NULL: MPI_ERR_ARG");
    mt_is_int(err_class(MPI_Type_create_darray_c(1, 0, 1, NULL, (int[]){MPI_DISTRIBUTE_BLOCK},
                                                 (int[]){MPI_DISTRIBUTE_DFLT_DARG}, (int[]){1}, MPI_ORDER_C, MPI_INT,
                                                 &tc)),
              MPI_ERR_ARG, "MPI_Type_create_darray_c, array_of_gsizes NULL: MPI_ERR_ARG");
    /* sizes and bounds that do not fit */
    mt_is_int(err_class(MPI_Type_vector_c((MPI_Count)1 << 62, 1, 1, MPI_INT, &tc)), MPI_ERR_COUNT,
              "MPI_Type_vector_c of 2^62 MPI_INT (2^64 bytes): MPI_ERR_COUNT");
    mt_is_int(err_class(MPI_Type_contiguous_c((MPI_Count)1 << 61, MPI_DOUBLE, &tc)), MPI_ERR_COUNT,
              "MPI_Type_contiguous_c of 2^61 MPI_DOUBLE (2^64 bytes): MPI_ERR_COUNT");
    mt_is_int(err_class(MPI_Type_vector_c(2, 1, (MPI_Count)1 << 62, MPI_INT, &tc)), MPI_ERR_COUNT,
              "MPI_Type_vector_c of stride 2^62 ints (2^64 bytes): MPI_ERR_COUNT");
    mt_is_int(err_class(MPI_Type_create_hvector_c(3, 1, (MPI_Count)1 << 62, MPI_INT, &tc)), MPI_ERR_COUNT,
              "MPI_Type_create_hvector_c of 3 ints 2^62 bytes apart (extent past 2^63): MPI_ERR_COUNT");
    mt_is_int(err_class(MPI_Type_create_hvector_c(5, 1, (MPI_Count)1 << 62, MPI_BYTE, &tc)), MPI_ERR_COUNT,
              "MPI_Type_create_hvector_c of 5 bytes 2^62 apart (the last at 2^64, 0 modulo 2^64): MPI_ERR_COUNT");
    mt_is_int(err_class(MPI_Type_indexed_c(1, one, (MPI_Count[]){(MPI_Count)1 << 62}, MPI_INT, &tc)),
              MPI_ERR_COUNT, "MPI_Type_indexed_c at displacement 2^62 ints: MPI_ERR_COUNT");
    mt_is_int(err_class(MPI_Type_create_struct_c(2, one, (MPI_Count[]){0, INT64_MAX - 2}, st, &tc)), MPI_ERR_COUNT,
              "MPI_Type_create_struct_c with an int at 2^63 - 3 (its end past 2^63): MPI_ERR_COUNT");
    mt_is_int(err_class(MPI_Type_create_resized_c(MPI_INT, INT64_MAX, 1, &tc)), MPI_ERR_COUNT,
              "MPI_Type_create_resized_c of lb 2^63 - 1, extent 1: MPI_ERR_COUNT");
    mt_is_int(err_class(MPI_Type_create_subarray_c(2, (MPI_Count[]){(MPI_Count)1 << 31, (MPI_Count)1 << 31},
                                                   one, (MPI_Count[]){0, 0}, MPI_ORDER_C, MPI_INT, &tc)),
              MPI_ERR_COUNT, "MPI_Type_create_subarray_c of a 2^31 x 2^31 int array (2^64 bytes): MPI_ERR_COUNT");
    mt_ok(tc == MPI_DATATYPE_NULL, "no type was made by the failed calls");
    /* the errors name the call: the _c one or the int one */
    mt_ok(names_call(MPI_Type_vector_c((MPI_Count)1 << 62, 1, 1, MPI_INT, &tc), "MPI_Type_vector_c"),
          "the error of MPI_Type_vector_c names MPI_Type_vector_c");
    mt_ok(names_call(MPI_Type_vector(-1, 1, 1, MPI_INT, &tc), "MPI_Type_vector"),
          "the error of MPI_Type_vector names MPI_Type_vector");
    mt_ok(names_call(MPI_Type_create_subarray_c(1, NULL, one, one, MPI_ORDER_C, MPI_INT, &tc),
                     "MPI_Type_create_subarray_c"),
          "the error of MPI_Type_create_subarray_c names it");
    /* the arrays of get_contents_c: too small */
    MPI_Type_vector_c(3, 2, 4, MPI_INT, &tc);
    int x;
    mt_ok(names_call(MPI_Type_get_envelope(tc, &x, &x, &x, &x), "MPI_Type_get_envelope"),
          "the error of the int MPI_Type_get_envelope of a _c-made type names MPI_Type_get_envelope");
    mt_is_int(err_class(MPI_Type_get_contents_c(tc, 4, 4, 2, 4, ri, ra, rc4, rt)), MPI_ERR_ARG,
              "MPI_Type_get_contents_c with room for 2 large counts of 3: MPI_ERR_ARG");
    mt_is_int(err_class(MPI_Type_get_contents_c(tc, 0, 0, 3, 1, NULL, NULL, NULL, rt)), MPI_ERR_ARG,
              "MPI_Type_get_contents_c with array_of_large_counts NULL: MPI_ERR_ARG");
    MPI_Type_free(&tc);

    printf("done [rank %d] %d checks, %d failed\n", mt_rank, mt_checks, mt_failed);
    MPI_Finalize();
    return mt_failed != 0;
}

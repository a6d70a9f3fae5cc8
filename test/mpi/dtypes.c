/* MPI test: derived datatype constructors against hand-computed layouts:
 * size, lb / extent, true lb / true extent, the packed bytes (MPI_Pack),
 * envelope and contents; struct padding; subarray and darray in both
 * orders; resized, dup, zero and huge counts; Get_elements and
 * Status_set_elements; reductions on derived types; the error classes of
 * bad arguments. Every rank runs the same checks (on one rank: sends to
 * itself). */
#include <limits.h>
#include <stddef.h>
#include <stdlib.h>

#include "test/mpi/mtest.h"

/* size, lb, extent, true lb, true extent of t */
static void layout(MPI_Datatype t, long exp[5], const char *what)
{
    int size = -1;
    MPI_Aint lb = -99, ext = -99, tlb = -99, text = -99;
    MPI_Type_size(t, &size);
    MPI_Type_get_extent(t, &lb, &ext);
    MPI_Type_get_true_extent(t, &tlb, &text);
    int ok = size == exp[0] && lb == exp[1] && ext == exp[2] && tlb == exp[3] && text == exp[4];
    mt_ok(ok, "%s: size %ld, lb %ld, extent %ld, true lb %ld, true extent %ld", what, exp[0], exp[1], exp[2], exp[3],
          exp[4]);
    if (!ok)
        printf("# got size %d, lb %ld, extent %ld, true lb %ld, true extent %ld\n", size, (long)lb, (long)ext,
               (long)tlb, (long)text);
}
#define LAYOUT(t, what, ...) layout(t, (long[5]){__VA_ARGS__}, what)

/* Packs count of t from buf (ints) and compares with the n ints expected */
static void packs_ints(const void *buf, int count, MPI_Datatype t, const int *exp, int n, const char *what)
{
    int out[256], pos = 0;
    memset(out, 0xa5, sizeof(out));
    int rc = MPI_Pack(buf, count, t, out, (int)sizeof(out), &pos, MPI_COMM_WORLD);
    int ok = rc == MPI_SUCCESS && pos == n * 4 && memcmp(out, exp, (size_t)n * 4) == 0;
    mt_ok(ok, "%s: packs %d ints in type-map order", what, n);
    if (!ok) {
        printf("# rc %d, position %d:", rc, pos);
        for (int i = 0; i < pos / 4 && i < 32; i++)
            printf(" %d", out[i]);
        printf("\n");
    }
}
#define PACKS(buf, count, t, what, ...)                                                            \
    packs_ints(buf, count, t, (int[]){__VA_ARGS__}, (int)(sizeof((int[]){__VA_ARGS__}) / sizeof(int)), what)

/* the envelope and contents of t */
static void contents(MPI_Datatype t, int comb, int ni, const int *ints, int na, const MPI_Aint *aints, int nd,
                     const MPI_Datatype *types, const char *what)
{
    int gi, ga, gd, gc, ok;
    MPI_Type_get_envelope(t, &gi, &ga, &gd, &gc);
    ok = gc == comb && gi == ni && ga == na && gd == nd;
    mt_ok(ok, "%s: envelope (combiner %d, %d integers, %d addresses, %d types)", what, comb, ni, na, nd);
    if (!ok) {
        printf("# got combiner %d, %d, %d, %d\n", gc, gi, ga, gd);
        return;
    }
    int ri[64];
    MPI_Aint ra[64];
    MPI_Datatype rt[64];
    MPI_Type_get_contents(t, 64, 64, 64, ri, ra, rt);
    ok = (ni == 0 || memcmp(ri, ints, sizeof(int) * (size_t)ni) == 0) &&
         (na == 0 || memcmp(ra, aints, sizeof(MPI_Aint) * (size_t)na) == 0);
    for (int i = 0; i < nd; i++) {
        int c1, c2, x;
        MPI_Type_get_envelope(types[i], &x, &x, &x, &c1);
        MPI_Type_get_envelope(rt[i], &x, &x, &x, &c2);
        if (c1 == MPI_COMBINER_NAMED)
            ok = ok && rt[i] == types[i]; /* a named type comes back as itself */
        else {
            MPI_Count s1, s2;
            MPI_Type_size_x(types[i], &s1);
            MPI_Type_size_x(rt[i], &s2);
            ok = ok && rt[i] != types[i] && c1 == c2 && s1 == s2; /* a new, equal object */
            MPI_Type_free(&rt[i]);
        }
    }
    mt_ok(ok, "%s: contents (the arrays as given; derived types as new equal handles)", what);
}

static int copies, deletes, last_deleted;

static int count_copy(MPI_Datatype t, int k, void *extra, void *in, void *out, int *flag)
{
    copies++;
    *(void **)out = (char *)in + *(int *)extra;
    *flag = 1;
    return MPI_SUCCESS;
}

static int count_delete(MPI_Datatype t, int k, void *val, void *extra)
{
    deletes++;
    last_deleted = (int)(intptr_t)val;
    return MPI_SUCCESS;
}

int main(int argc, char **argv)
{
    int rank;
    MPI_Datatype t, t2, t3;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    mt_rank = rank;
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);

    int a[64];
    for (int i = 0; i < 64; i++)
        a[i] = i;

    /* ---- vector */
    MPI_Type_vector(3, 2, 4, MPI_INT, &t);
    MPI_Type_commit(&t);
    LAYOUT(t, "vector(3, 2, 4, int)", 24, 0, 40, 0, 40);
    PACKS(a, 1, t, "vector(3, 2, 4, int)", 0, 1, 4, 5, 8, 9);
    PACKS(a, 2, t, "2 x vector(3, 2, 4, int) (extent 40: the second starts at int 10)", 0, 1, 4, 5, 8, 9, 10, 11,
          14, 15, 18, 19);
    contents(t, MPI_COMBINER_VECTOR, 3, (int[]){3, 2, 4}, 0, NULL, 1, (MPI_Datatype[]){MPI_INT}, "vector");
    MPI_Type_free(&t);

    MPI_Type_vector(3, 1, -2, MPI_INT, &t);
    MPI_Type_commit(&t);
    LAYOUT(t, "vector(3, 1, -2, int): negative stride", 12, -16, 20, -16, 20);
    PACKS(a + 10, 1, t, "vector(3, 1, -2, int) from a[10]", 10, 8, 6);
    MPI_Type_free(&t);

    /* ---- hvector */
    MPI_Type_create_hvector(2, 3, 20, MPI_SHORT, &t);
    MPI_Type_commit(&t);
    LAYOUT(t, "hvector(2, 3, 20 bytes, short)", 12, 0, 26, 0, 26);
    contents(t, MPI_COMBINER_HVECTOR, 2, (int[]){2, 3}, 1, (MPI_Aint[]){20}, 1, (MPI_Datatype[]){MPI_SHORT},
             "hvector");
    MPI_Type_free(&t);

    /* ---- indexed */
    MPI_Type_indexed(3, (int[]){3, 1, 2}, (int[]){4, 0, 7}, MPI_INT, &t);
    MPI_Type_commit(&t);
    LAYOUT(t, "indexed({3,1,2}, {4,0,7}, int)", 24, 0, 36, 0, 36);
    PACKS(a, 1, t, "indexed({3,1,2}, {4,0,7}, int)", 4, 5, 6, 0, 7, 8);
    contents(t, MPI_COMBINER_INDEXED, 7, (int[]){3, 3, 1, 2, 4, 0, 7}, 0, NULL, 1, (MPI_Datatype[]){MPI_INT},
             "indexed");
    /* a vector of this type: nesting */
    MPI_Type_vector(2, 1, 2, t, &t2);
    MPI_Type_commit(&t2);
    LAYOUT(t2, "vector(2, 1, 2, indexed)", 48, 0, 108, 0, 108);
    PACKS(a, 1, t2, "vector(2, 1, 2, indexed): the second copy 72 bytes on", 4, 5, 6, 0, 7, 8, 22, 23, 24, 18, 25,
          26);
    contents(t2, MPI_COMBINER_VECTOR, 3, (int[]){2, 1, 2}, 0, NULL, 1, (MPI_Datatype[]){t}, "vector of indexed");
    MPI_Type_free(&t2);
    MPI_Type_free(&t);

    MPI_Type_create_hindexed(2, (int[]){2, 1}, (MPI_Aint[]){12, -4}, MPI_INT, &t);
    MPI_Type_commit(&t);
    LAYOUT(t, "hindexed({2,1}, {12,-4} bytes, int)", 12, -4, 24, -4, 24);
    PACKS(a + 1, 1, t, "hindexed({2,1}, {12,-4}, int) from a[1]", 4, 5, 0);
    contents(t, MPI_COMBINER_HINDEXED, 3, (int[]){2, 2, 1}, 2, (MPI_Aint[]){12, -4}, 1, (MPI_Datatype[]){MPI_INT},
             "hindexed");
    MPI_Type_free(&t);

    MPI_Type_create_indexed_block(2, 2, (int[]){5, 1}, MPI_INT, &t);
    MPI_Type_commit(&t);
    LAYOUT(t, "indexed_block(2, 2, {5,1}, int)", 16, 4, 24, 4, 24);
    PACKS(a, 1, t, "indexed_block(2, 2, {5,1}, int)", 5, 6, 1, 2);
    contents(t, MPI_COMBINER_INDEXED_BLOCK, 4, (int[]){2, 2, 5, 1}, 0, NULL, 1, (MPI_Datatype[]){MPI_INT},
             "indexed_block");
    MPI_Type_free(&t);

    MPI_Type_create_hindexed_block(3, 1, (MPI_Aint[]){0, 36, 12}, MPI_INT, &t);
    MPI_Type_commit(&t);
    LAYOUT(t, "hindexed_block(3, 1, {0,36,12} bytes, int)", 12, 0, 40, 0, 40);
    PACKS(a, 1, t, "hindexed_block(3, 1, {0,36,12}, int)", 0, 9, 3);
    contents(t, MPI_COMBINER_HINDEXED_BLOCK, 2, (int[]){3, 1}, 3, (MPI_Aint[]){0, 36, 12}, 1,
             (MPI_Datatype[]){MPI_INT}, "hindexed_block");
    MPI_Type_free(&t);

    /* ---- struct, with the padding of the C struct */
    {
        struct s1 { int i; double d; char c; } s[2];
        MPI_Aint base, d[3];
        MPI_Get_address(&s[0], &base);
        MPI_Get_address(&s[0].i, &d[0]);
        MPI_Get_address(&s[0].d, &d[1]);
        MPI_Get_address(&s[0].c, &d[2]);
        for (int i = 0; i < 3; i++)
            d[i] = MPI_Aint_diff(d[i], base);
        mt_ok(d[0] == 0 && d[1] == 8 && d[2] == 16, "Get_address / Aint_diff: members at 0, 8, 16");
        mt_ok(MPI_Aint_add(base, 16) == base + 16 && MPI_Aint_diff(base + 40, base) == 40, "Aint_add / Aint_diff");
        MPI_Type_create_struct(3, (int[]){1, 1, 1}, d, (MPI_Datatype[]){MPI_INT, MPI_DOUBLE, MPI_CHAR}, &t);
        MPI_Type_commit(&t);
        LAYOUT(t, "struct {int; double; char}: extent sizeof (24), padded", 13, 0, (long)sizeof(struct s1), 0, 17);
        contents(t, MPI_COMBINER_STRUCT, 4, (int[]){3, 1, 1, 1}, 3, d, 3,
                 (MPI_Datatype[]){MPI_INT, MPI_DOUBLE, MPI_CHAR}, "struct");
        /* two of them packed: 13 bytes each, from the C array */
        s[0].i = 7, s[0].d = 2.5, s[0].c = 'x', s[1].i = -1, s[1].d = -4.0, s[1].c = 'y';
        unsigned char out[64], want[26];
        int pos = 0;
        memcpy(want, &s[0].i, 4), memcpy(want + 4, &s[0].d, 8), want[12] = 'x';
        memcpy(want + 13, &s[1].i, 4), memcpy(want + 17, &s[1].d, 8), want[25] = 'y';
        MPI_Pack(s, 2, t, out, 64, &pos, MPI_COMM_WORLD);
        mt_ok(pos == 26 && memcmp(out, want, 26) == 0, "2 structs pack to 26 bytes: i, d, c, i, d, c");
        /* unpacked into a zeroed array: the padding stays zero */
        struct s1 u[2];
        memset(u, 0, sizeof(u));
        pos = 0;
        MPI_Unpack(out, 26, &pos, u, 2, t, MPI_COMM_WORLD);
        unsigned char zero[24] = {0}, *ub = (unsigned char *)u;
        mt_ok(pos == 26 && u[0].i == 7 && u[0].d == 2.5 && u[0].c == 'x' && u[1].i == -1 && u[1].d == -4.0 &&
                  u[1].c == 'y' && memcmp(ub + 4, zero, 4) == 0 && memcmp(ub + 17, zero, 7) == 0 &&
                  memcmp(ub + 41, zero, 7) == 0,
              "Unpack fills the members and leaves the padding alone");
        MPI_Type_free(&t);

        struct s2 { char c; short h[3]; };
        MPI_Type_create_struct(2, (int[]){1, 3}, (MPI_Aint[]){0, offsetof(struct s2, h)},
                               (MPI_Datatype[]){MPI_CHAR, MPI_SHORT}, &t);
        LAYOUT(t, "struct {char; short[3]}: extent 8", 7, 0, (long)sizeof(struct s2), 0, 8);
        MPI_Type_free(&t);
        struct s3 { double d; char c; };
        MPI_Type_create_struct(2, (int[]){1, 1}, (MPI_Aint[]){0, 8}, (MPI_Datatype[]){MPI_DOUBLE, MPI_CHAR}, &t);
        LAYOUT(t, "struct {double; char}: extent 16", 9, 0, (long)sizeof(struct s3), 0, 9);
        /* a member whose extent the user set is not padded */
        MPI_Type_create_resized(MPI_CHAR, 0, 1, &t2);
        MPI_Type_create_struct(2, (int[]){1, 1}, (MPI_Aint[]){0, 8}, (MPI_Datatype[]){MPI_DOUBLE, t2}, &t3);
        LAYOUT(t3, "struct {double; resized char}: no padding (extent 9)", 9, 0, 9, 0, 9);
        MPI_Type_free(&t3);
        MPI_Type_free(&t2);
        MPI_Type_free(&t);
    }

    /* ---- absolute addresses from MPI_BOTTOM */
    {
        int x = 11;
        double y = 0.5;
        MPI_Aint ad[2];
        MPI_Get_address(&x, &ad[0]);
        MPI_Get_address(&y, &ad[1]);
        MPI_Type_create_struct(2, (int[]){1, 1}, ad, (MPI_Datatype[]){MPI_INT, MPI_DOUBLE}, &t);
        MPI_Type_commit(&t);
        unsigned char out[12], want[12];
        int pos = 0;
        memcpy(want, &x, 4);
        memcpy(want + 4, &y, 8);
        MPI_Pack(MPI_BOTTOM, 1, t, out, 12, &pos, MPI_COMM_WORLD);
        mt_ok(pos == 12 && memcmp(out, want, 12) == 0, "Pack from MPI_BOTTOM with absolute addresses");
        x = 0, y = 0;
        MPI_Sendrecv(out, 12, MPI_PACKED, rank, 9, MPI_BOTTOM, 1, t, rank, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        mt_ok(x == 11 && y == 0.5, "MPI_PACKED received into MPI_BOTTOM with the same type");
        MPI_Type_free(&t);
    }

    /* ---- resized */
    MPI_Type_create_resized(MPI_INT, -4, 12, &t);
    MPI_Type_commit(&t);
    LAYOUT(t, "resized(int, -4, 12)", 4, -4, 12, 0, 4);
    contents(t, MPI_COMBINER_RESIZED, 0, NULL, 2, (MPI_Aint[]){-4, 12}, 1, (MPI_Datatype[]){MPI_INT}, "resized");
    MPI_Type_contiguous(3, t, &t2);
    MPI_Type_commit(&t2);
    LAYOUT(t2, "contiguous(3, resized(int, -4, 12))", 12, -4, 36, 0, 28);
    PACKS(a, 1, t2, "contiguous(3, resized int): every third int", 0, 3, 6);
    PACKS(a, 2, t2, "2 x contiguous(3, resized int)", 0, 3, 6, 9, 12, 15);
    MPI_Type_free(&t2);
    MPI_Type_free(&t);

    /* ---- dup of a derived type, and a type built on it */
    MPI_Type_vector(2, 1, 3, MPI_INT, &t);
    MPI_Type_dup(t, &t2);
    contents(t2, MPI_COMBINER_DUP, 0, NULL, 0, NULL, 1, (MPI_Datatype[]){t}, "dup");
    MPI_Type_free(&t); /* the dup keeps what it needs */
    MPI_Type_contiguous(2, t2, &t3);
    MPI_Type_commit(&t3);
    LAYOUT(t3, "contiguous(2, dup of vector(2, 1, 3, int))", 16, 0, 32, 0, 32);
    PACKS(a, 1, t3, "contiguous(2, dup(vector))", 0, 3, 4, 7);
    MPI_Type_free(&t3);
    MPI_Type_free(&t2);

    /* ---- subarray */
    {
        int m[4][5];
        for (int i = 0; i < 4; i++)
            for (int j = 0; j < 5; j++)
                m[i][j] = 10 * i + j;
        MPI_Type_create_subarray(2, (int[]){4, 5}, (int[]){2, 3}, (int[]){1, 2}, MPI_ORDER_C, MPI_INT, &t);
        MPI_Type_commit(&t);
        LAYOUT(t, "subarray C {4,5} {2,3} at {1,2}", 24, 0, 80, 28, 32);
        PACKS(m, 1, t, "subarray C: rows 1-2, columns 2-4", 12, 13, 14, 22, 23, 24);
        contents(t, MPI_COMBINER_SUBARRAY, 8, (int[]){2, 4, 5, 2, 3, 1, 2, MPI_ORDER_C}, 0, NULL, 1,
                 (MPI_Datatype[]){MPI_INT}, "subarray");
        MPI_Type_free(&t);
        /* Fortran order: the first index varies fastest, element (i, j) at i + 4 j */
        MPI_Type_create_subarray(2, (int[]){4, 5}, (int[]){2, 3}, (int[]){1, 2}, MPI_ORDER_FORTRAN, MPI_INT, &t);
        MPI_Type_commit(&t);
        LAYOUT(t, "subarray Fortran {4,5} {2,3} at {1,2}", 24, 0, 80, 36, 40);
        PACKS(a, 1, t, "subarray Fortran: (1..2, 2..4)", 9, 10, 13, 14, 17, 18);
        MPI_Type_free(&t);
        /* 3 dimensions, a whole plane */
        MPI_Type_create_subarray(3, (int[]){2, 3, 4}, (int[]){1, 3, 2}, (int[]){1, 0, 1}, MPI_ORDER_C, MPI_INT, &t);
        MPI_Type_commit(&t);
        LAYOUT(t, "subarray C {2,3,4} {1,3,2} at {1,0,1}", 24, 0, 96, 52, 40);
        PACKS(a, 1, t, "subarray C 3-d", 13, 14, 17, 18, 21, 22);
        MPI_Type_free(&t);
    }

    /* ---- darray */
    {
        /* 4 x 6 ints on a 2 x 2 grid, block x block: rank 3 is (1, 1) */
        MPI_Type_create_darray(4, 3, 2, (int[]){4, 6}, (int[]){MPI_DISTRIBUTE_BLOCK, MPI_DISTRIBUTE_BLOCK},
                               (int[]){MPI_DISTRIBUTE_DFLT_DARG, MPI_DISTRIBUTE_DFLT_DARG}, (int[]){2, 2}, MPI_ORDER_C,
                               MPI_INT, &t);
        MPI_Type_commit(&t);
        LAYOUT(t, "darray 4x6 block/block on 2x2, rank 3", 24, 0, 96, 60, 36);
        PACKS(a, 1, t, "darray block/block rank 3: rows 2-3, columns 3-5", 15, 16, 17, 21, 22, 23);
        contents(t, MPI_COMBINER_DARRAY, 12,
                 (int[]){4, 3, 2, 4, 6, MPI_DISTRIBUTE_BLOCK, MPI_DISTRIBUTE_BLOCK, MPI_DISTRIBUTE_DFLT_DARG,
                         MPI_DISTRIBUTE_DFLT_DARG, 2, 2, MPI_ORDER_C},
                 0, NULL, 1, (MPI_Datatype[]){MPI_INT}, "darray");
        MPI_Type_free(&t);
        /* Fortran order, rank 1 = grid (0, 1): dim 0 in [0, 2), dim 1 in [3, 6) */
        MPI_Type_create_darray(4, 1, 2, (int[]){4, 6}, (int[]){MPI_DISTRIBUTE_BLOCK, MPI_DISTRIBUTE_BLOCK},
                               (int[]){MPI_DISTRIBUTE_DFLT_DARG, MPI_DISTRIBUTE_DFLT_DARG}, (int[]){2, 2},
                               MPI_ORDER_FORTRAN, MPI_INT, &t);
        MPI_Type_commit(&t);
        PACKS(a, 1, t, "darray Fortran block/block rank 1", 12, 13, 16, 17, 20, 21);
        MPI_Type_free(&t);
        /* cyclic(2) of 10 on 3: rank 1 holds 2, 3, 8, 9 */
        MPI_Type_create_darray(3, 1, 1, (int[]){10}, (int[]){MPI_DISTRIBUTE_CYCLIC}, (int[]){2}, (int[]){3},
                               MPI_ORDER_C, MPI_INT, &t);
        MPI_Type_commit(&t);
        LAYOUT(t, "darray cyclic(2) of 10 on 3, rank 1", 16, 0, 40, 8, 32);
        PACKS(a, 1, t, "darray cyclic(2) rank 1", 2, 3, 8, 9);
        MPI_Type_free(&t);
        /* cyclic(2) of 11 on 3: rank 2 holds 4, 5 and the partial block 10 */
        MPI_Type_create_darray(3, 2, 1, (int[]){11}, (int[]){MPI_DISTRIBUTE_CYCLIC}, (int[]){2}, (int[]){3},
                               MPI_ORDER_C, MPI_INT, &t);
        MPI_Type_commit(&t);
        PACKS(a, 1, t, "darray cyclic(2) of 11, rank 2: a partial last block", 4, 5, 10);
        MPI_Type_free(&t);
        /* cyclic (default 1) of 7 on 3: rank 1 holds 1, 4 */
        MPI_Type_create_darray(3, 1, 1, (int[]){7}, (int[]){MPI_DISTRIBUTE_CYCLIC},
                               (int[]){MPI_DISTRIBUTE_DFLT_DARG}, (int[]){3}, MPI_ORDER_C, MPI_INT, &t);
        MPI_Type_commit(&t);
        PACKS(a, 1, t, "darray cyclic of 7, rank 1", 1, 4);
        MPI_Type_free(&t);
        /* 3 x 4, rows not distributed, columns cyclic on 2: rank 1 */
        MPI_Type_create_darray(2, 1, 2, (int[]){3, 4}, (int[]){MPI_DISTRIBUTE_NONE, MPI_DISTRIBUTE_CYCLIC},
                               (int[]){MPI_DISTRIBUTE_DFLT_DARG, 1}, (int[]){1, 2}, MPI_ORDER_C, MPI_INT, &t);
        MPI_Type_commit(&t);
        LAYOUT(t, "darray none/cyclic 3x4, rank 1", 24, 0, 48, 4, 44);
        PACKS(a, 1, t, "darray none/cyclic rank 1: odd columns of every row", 1, 3, 5, 7, 9, 11);
        MPI_Type_free(&t);
        /* a block of 10 in blocks of 4 on 3: rank 2 gets only 2 */
        MPI_Type_create_darray(3, 2, 1, (int[]){10}, (int[]){MPI_DISTRIBUTE_BLOCK}, (int[]){4}, (int[]){3},
                               MPI_ORDER_C, MPI_INT, &t);
        MPI_Type_commit(&t);
        PACKS(a, 1, t, "darray block(4) of 10, rank 2", 8, 9);
        MPI_Type_free(&t);
    }

    /* ---- zero and huge counts */
    MPI_Type_vector(0, 3, 5, MPI_DOUBLE, &t);
    MPI_Type_commit(&t);
    LAYOUT(t, "vector of count 0", 0, 0, 0, 0, 0);
    {
        int pos = 0;
        char out[4];
        mt_is_int(MPI_Pack(a, 5, t, out, 0, &pos, MPI_COMM_WORLD), MPI_SUCCESS, "packing 5 empty elements: no bytes");
        mt_is_int(pos, 0, "position unchanged");
    }
    MPI_Type_free(&t);
    MPI_Type_contiguous(1 << 30, MPI_DOUBLE, &t);
    MPI_Type_vector(16, 1, 2, t, &t2);
    {
        int sz = 0;
        MPI_Count szx = 0, lbx = -1, extx = 0;
        MPI_Type_size(t2, &sz);
        MPI_Type_size_x(t2, &szx);
        MPI_Type_get_extent_x(t2, &lbx, &extx);
        mt_ok(sz == MPI_UNDEFINED && szx == 16LL << 33, "16 blocks of 2^30 doubles: Type_size MPI_UNDEFINED, "
                                                       "Type_size_x 2^37");
        mt_ok(lbx == 0 && extx == 31LL << 33, "extent_x 31 * 2^33");
    }
    MPI_Type_free(&t2);
    MPI_Type_free(&t);

    /* ---- Get_elements / Get_count on partial data, Status_set_elements */
    {
        struct { int i; double d; } pr[2];
        MPI_Type_create_struct(2, (int[]){1, 1}, (MPI_Aint[]){0, 8}, (MPI_Datatype[]){MPI_INT, MPI_DOUBLE}, &t);
        MPI_Type_commit(&t);
        MPI_Status st;
        int cnt = 0, el = 0, one = 5;
        MPI_Sendrecv(&one, 1, MPI_INT, rank, 7, pr, 2, t, rank, 7, MPI_COMM_WORLD, &st);
        MPI_Get_count(&st, t, &cnt);
        MPI_Get_elements(&st, t, &el);
        mt_ok(cnt == MPI_UNDEFINED && el == 1 && pr[0].i == 5,
              "an int received with struct {int; double}: count MPI_UNDEFINED, elements 1");
        MPI_Status_set_elements(&st, t, 3);
        MPI_Get_count(&st, t, &cnt);
        MPI_Get_elements(&st, t, &el);
        mt_ok(cnt == MPI_UNDEFINED && el == 3, "Status_set_elements 3: count MPI_UNDEFINED, elements 3");
        MPI_Status_set_elements(&st, t, 4);
        MPI_Get_count(&st, t, &cnt);
        MPI_Count elx = 0;
        MPI_Get_elements_x(&st, t, &elx);
        mt_ok(cnt == 2 && elx == 4, "Status_set_elements 4: count 2, elements_x 4");
        MPI_Status_set_elements_x(&st, MPI_DOUBLE, 3);
        MPI_Get_count(&st, MPI_INT, &cnt);
        mt_is_int(cnt, 6, "Status_set_elements_x of 3 doubles: 6 ints' worth");
        MPI_Type_free(&t);
        /* a vector of 3 pairs of ints, received 5 ints */
        MPI_Type_vector(3, 2, 3, MPI_INT, &t);
        MPI_Type_commit(&t);
        int rbuf[16];
        MPI_Sendrecv(a, 5, MPI_INT, rank, 8, rbuf, 1, t, rank, 8, MPI_COMM_WORLD, &st);
        MPI_Get_elements(&st, t, &el);
        MPI_Get_count(&st, t, &cnt);
        mt_ok(el == 5 && cnt == MPI_UNDEFINED && rbuf[0] == 0 && rbuf[1] == 1 && rbuf[3] == 2 && rbuf[4] == 3 &&
                  rbuf[6] == 4,
              "5 ints into vector(3, 2, 3, int): elements 5, count MPI_UNDEFINED, placed at 0 1 3 4 6");
        MPI_Type_free(&t);
    }

    /* ---- reductions on derived types */
    {
        double in[6] = {1, 2, 3, 4, 5, 6}, io[6] = {10, 20, 30, 40, 50, 60};
        MPI_Type_vector(3, 1, 2, MPI_DOUBLE, &t);
        MPI_Type_commit(&t);
        mt_is_int(MPI_Reduce_local(in, io, 1, t, MPI_SUM), MPI_SUCCESS, "Reduce_local SUM on vector(3, 1, 2, double)");
        mt_ok(io[0] == 11 && io[1] == 20 && io[2] == 33 && io[3] == 40 && io[4] == 55 && io[5] == 60,
              "only the even elements are summed");
        MPI_Type_free(&t);
        struct { double v; int i; } p[4] = {{7, 0}, {5, 1}, {3, 0}, {20, 3}}, q[4] = {{2, 9}, {4, 9}, {3, 1}, {9, 9}};
        MPI_Type_vector(2, 1, 2, MPI_DOUBLE_INT, &t);
        MPI_Type_commit(&t);
        mt_is_int(MPI_Reduce_local(p, q, 1, t, MPI_MAXLOC), MPI_SUCCESS, "Reduce_local MAXLOC on a vector of DOUBLE_INT");
        mt_ok(q[0].v == 7 && q[0].i == 0 && q[1].v == 4 && q[1].i == 9 && q[2].v == 3 && q[2].i == 0 && q[3].v == 9,
              "pairs 0 and 2 reduced (the lower index on a tie), 1 and 3 untouched");
        MPI_Type_free(&t);
        MPI_Type_create_struct(2, (int[]){1, 1}, (MPI_Aint[]){0, 8}, (MPI_Datatype[]){MPI_INT, MPI_DOUBLE}, &t);
        MPI_Type_commit(&t);
        mt_is_int(MPI_Reduce_local(p, q, 1, t, MPI_SUM), MPI_ERR_OP, "SUM on struct {int; double}: MPI_ERR_OP");
        MPI_Type_free(&t);
    }

    /* ---- Pack / Unpack positions */
    {
        char buf[100];
        int pos = 0, x = 0x01020304, y = 0;
        double dv = 2.25, dw = 0;
        int v[12] = {0}, back[12] = {0};
        for (int i = 0; i < 12; i++)
            v[i] = 100 + i;
        MPI_Type_vector(3, 2, 4, MPI_INT, &t);
        MPI_Type_commit(&t);
        int psz = 0;
        MPI_Pack_size(1, t, MPI_COMM_WORLD, &psz);
        mt_is_int(psz, 24, "Pack_size of vector(3, 2, 4, int): 24");
        MPI_Pack(&x, 1, MPI_INT, buf, 100, &pos, MPI_COMM_WORLD);
        mt_is_int(pos, 4, "position after an int: 4");
        MPI_Pack(v, 1, t, buf, 100, &pos, MPI_COMM_WORLD);
        mt_is_int(pos, 28, "after the vector: 28");
        MPI_Pack(&dv, 1, MPI_DOUBLE, buf, 100, &pos, MPI_COMM_WORLD);
        mt_is_int(pos, 36, "after a double: 36");
        mt_is_int(MPI_Pack(&dv, 1, MPI_DOUBLE, buf, 40, &pos, MPI_COMM_WORLD), MPI_ERR_TRUNCATE,
                  "a double more in 40 bytes: MPI_ERR_TRUNCATE");
        mt_is_int(pos, 36, "position unchanged by the failed Pack");
        pos = 0;
        MPI_Unpack(buf, 36, &pos, &y, 1, MPI_INT, MPI_COMM_WORLD);
        MPI_Unpack(buf, 36, &pos, back, 1, t, MPI_COMM_WORLD);
        MPI_Unpack(buf, 36, &pos, &dw, 1, MPI_DOUBLE, MPI_COMM_WORLD);
        mt_ok(pos == 36 && y == x && dw == 2.25 && back[0] == 100 && back[1] == 101 && back[2] == 0 &&
                  back[4] == 104 && back[9] == 109 && back[10] == 0,
              "Unpack in the same order: the values, at the vector's places");
        mt_is_int(MPI_Unpack(buf, 36, &pos, &y, 1, MPI_INT, MPI_COMM_WORLD), MPI_ERR_TRUNCATE,
                  "Unpack past insize: MPI_ERR_TRUNCATE");
        MPI_Type_free(&t);
    }

    /* ---- external32 */
    {
        unsigned char out[128];
        MPI_Aint pos = 0, sz = 0;
        int i4 = 0x01020304;
        short h = -2;
        long l = 1;
        double d = 1.0;
        long double ld = -3.0L;
        float f = 1.5f;
        MPI_Pack_external("external32", &i4, 1, MPI_INT, out, 128, &pos);
        MPI_Pack_external("external32", &h, 1, MPI_SHORT, out, 128, &pos);
        MPI_Pack_external("external32", &l, 1, MPI_LONG, out, 128, &pos);
        MPI_Pack_external("external32", &d, 1, MPI_DOUBLE, out, 128, &pos);
        MPI_Pack_external("external32", &ld, 1, MPI_LONG_DOUBLE, out, 128, &pos);
        MPI_Pack_external("external32", &f, 1, MPI_FLOAT, out, 128, &pos);
        static const unsigned char want[] = {
            0x01, 0x02, 0x03, 0x04,                         /* int */
            0xff, 0xfe,                                     /* short -2 */
            0, 0, 0, 0, 0, 0, 0, 1,                         /* long 1 */
            0x3f, 0xf0, 0, 0, 0, 0, 0, 0,                   /* double 1.0 */
            0xc0, 0x00, 0x80, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, /* long double -3.0 (binary128) */
            0x3f, 0xc0, 0, 0,                               /* float 1.5 */
        };
        mt_ok(pos == (MPI_Aint)sizeof(want) && memcmp(out, want, sizeof(want)) == 0,
              "external32: int, short, long, double, long double, float big-endian (%zu bytes)", sizeof(want));
        MPI_Aint up = 0;
        int i4b = 0;
        short hb = 0;
        long lb2 = 0;
        double db = 0;
        long double ldb = 0;
        float fb = 0;
        MPI_Unpack_external("external32", out, pos, &up, &i4b, 1, MPI_INT);
        MPI_Unpack_external("external32", out, pos, &up, &hb, 1, MPI_SHORT);
        MPI_Unpack_external("external32", out, pos, &up, &lb2, 1, MPI_LONG);
        MPI_Unpack_external("external32", out, pos, &up, &db, 1, MPI_DOUBLE);
        MPI_Unpack_external("external32", out, pos, &up, &ldb, 1, MPI_LONG_DOUBLE);
        MPI_Unpack_external("external32", out, pos, &up, &fb, 1, MPI_FLOAT);
        mt_ok(up == pos && i4b == i4 && hb == -2 && lb2 == 1 && db == 1.0 && ldb == -3.0L && fb == 1.5f,
              "Unpack_external gives the values back");
        /* sizes of the standard's table */
        struct { MPI_Datatype t; long s; const char *n; } sizes[] = {
            {MPI_LONG, 8, "MPI_LONG"}, {MPI_LONG_DOUBLE, 16, "MPI_LONG_DOUBLE"}, {MPI_WCHAR, 4, "MPI_WCHAR"},
            {MPI_C_BOOL, 1, "MPI_C_BOOL"}, {MPI_C_LONG_DOUBLE_COMPLEX, 32, "MPI_C_LONG_DOUBLE_COMPLEX"},
            {MPI_LONG_DOUBLE_INT, 20, "MPI_LONG_DOUBLE_INT"}, {MPI_DOUBLE_INT, 12, "MPI_DOUBLE_INT"},
            {MPI_2INTEGER, 8, "MPI_2INTEGER"}, {MPI_AINT, 8, "MPI_AINT"}, {MPI_UNSIGNED_SHORT, 2, "MPI_UNSIGNED_SHORT"}};
        for (size_t k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
            MPI_Pack_external_size("external32", 3, sizes[k].t, &sz);
            mt_is_int(sz, 3 * sizes[k].s, "Pack_external_size of 3 %s: %ld", sizes[k].n, 3 * sizes[k].s);
        }
        /* a derived type: a vector of shorts, converted element by element */
        short hv[6] = {1, -1, 0x0102, 7, -300, 9};
        MPI_Type_vector(3, 1, 2, MPI_SHORT, &t);
        MPI_Type_commit(&t);
        MPI_Pack_external_size("external32", 1, t, &sz);
        pos = 0;
        MPI_Pack_external("external32", hv, 1, t, out, 128, &pos);
        static const unsigned char wv[] = {0x00, 0x01, 0x01, 0x02, 0xfe, 0xd4};
        mt_ok(sz == 6 && pos == 6 && memcmp(out, wv, 6) == 0, "external32 of vector(3, 1, 2, short): 00 01 01 02 fe d4");
        /* pair type: DOUBLE_INT, 12 bytes without the padding */
        struct { double v; int i; } pr = {-2.0, 0x0a0b0c0d};
        pos = 0;
        MPI_Pack_external("external32", &pr, 1, MPI_DOUBLE_INT, out, 128, &pos);
        static const unsigned char wp[] = {0xc0, 0, 0, 0, 0, 0, 0, 0, 0x0a, 0x0b, 0x0c, 0x0d};
        mt_ok(pos == 12 && memcmp(out, wp, 12) == 0, "external32 of MPI_DOUBLE_INT: 12 bytes");
        pos = 0;
        mt_is_int(MPI_Pack_external("native", hv, 1, t, out, 128, &pos), MPI_ERR_ARG,
                  "datarep \"native\": MPI_ERR_ARG");
        mt_is_int(MPI_Pack_external("external32", hv, 1, t, out, 5, &pos), MPI_ERR_TRUNCATE,
                  "external32 into 5 bytes: MPI_ERR_TRUNCATE");
        MPI_Type_free(&t);
    }

    /* ---- attributes on datatypes */
    {
        int kv = MPI_KEYVAL_INVALID, kv2 = MPI_KEYVAL_INVALID, step = 1, flag = -1;
        void *val = NULL;
        MPI_Type_create_keyval(count_copy, count_delete, &kv, &step);
        MPI_Type_create_keyval(MPI_TYPE_NULL_COPY_FN, MPI_TYPE_NULL_DELETE_FN, &kv2, NULL);
        MPI_Type_contiguous(2, MPI_INT, &t);
        MPI_Type_get_attr(t, kv, &val, &flag);
        mt_is_int(flag, 0, "no attribute yet: flag 0");
        MPI_Type_set_attr(t, kv, (void *)(intptr_t)100);
        MPI_Type_set_attr(t, kv2, (void *)(intptr_t)5);
        MPI_Type_get_attr(t, kv, &val, &flag);
        mt_ok(flag == 1 && val == (void *)(intptr_t)100, "set then get: 100");
        MPI_Type_set_attr(t, kv, (void *)(intptr_t)200);
        mt_ok(deletes == 1 && last_deleted == 100, "setting again calls the delete callback on the old value");
        MPI_Type_dup(t, &t2);
        mt_is_int(copies, 1, "Type_dup calls the copy callback once");
        MPI_Type_get_attr(t2, kv, &val, &flag);
        mt_ok(flag == 1 && val == (void *)(intptr_t)201, "the dup holds the copy's value (201)");
        MPI_Type_get_attr(t2, kv2, &val, &flag);
        mt_is_int(flag, 0, "MPI_TYPE_NULL_COPY_FN: not copied");
        MPI_Type_delete_attr(t2, kv);
        mt_ok(deletes == 2 && last_deleted == 201, "Type_delete_attr calls the delete callback");
        MPI_Type_get_attr(t2, kv, &val, &flag);
        mt_is_int(flag, 0, "and the attribute is gone");
        mt_is_int(MPI_Type_delete_attr(t2, kv), MPI_ERR_KEYVAL, "deleting it again: MPI_ERR_KEYVAL");
        MPI_Type_free_keyval(&kv);
        mt_is_int(kv, MPI_KEYVAL_INVALID, "Type_free_keyval sets MPI_KEYVAL_INVALID");
        MPI_Type_free(&t); /* the freed keyval's attribute is deleted now */
        mt_ok(deletes == 3 && last_deleted == 200, "Type_free calls the delete callback (keyval already freed)");
        MPI_Type_free(&t2);
        mt_is_int(deletes, 3, "the dup had no attribute left");
        int kv3 = MPI_KEYVAL_INVALID;
        MPI_Type_create_keyval(MPI_TYPE_DUP_FN, MPI_TYPE_NULL_DELETE_FN, &kv3, NULL);
        MPI_Type_set_attr(MPI_DOUBLE, kv3, &step);
        MPI_Type_dup(MPI_DOUBLE, &t);
        MPI_Type_get_attr(t, kv3, &val, &flag);
        mt_ok(flag == 1 && val == &step, "MPI_TYPE_DUP_FN on a predefined type's attribute: copied as is");
        MPI_Type_free(&t);
        MPI_Type_delete_attr(MPI_DOUBLE, kv3);
        mt_is_int(MPI_Type_set_attr(MPI_INT, 12345, NULL), MPI_ERR_KEYVAL, "unknown keyval: MPI_ERR_KEYVAL");
        int ck = MPI_KEYVAL_INVALID;
        MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &ck, NULL);
        mt_is_int(MPI_Type_set_attr(MPI_INT, ck, NULL), MPI_ERR_KEYVAL, "a communicator keyval on a type: MPI_ERR_KEYVAL");
        mt_is_int(MPI_Comm_set_attr(MPI_COMM_WORLD, kv3, NULL), MPI_ERR_KEYVAL,
                  "a type keyval on a communicator: MPI_ERR_KEYVAL");
        mt_is_int(MPI_Type_free_keyval(&ck), MPI_ERR_KEYVAL, "Type_free_keyval of a communicator keyval: MPI_ERR_KEYVAL");
        MPI_Comm_free_keyval(&ck);
        MPI_Type_free_keyval(&kv2);
        MPI_Type_free_keyval(&kv3);
    }

    /* ---- errors */
    {
        MPI_Datatype nt = MPI_DATATYPE_NULL;
        mt_is_int(MPI_Type_vector(-1, 1, 1, MPI_INT, &nt), MPI_ERR_COUNT, "Type_vector count -1: MPI_ERR_COUNT");
        mt_is_int(MPI_Type_contiguous(-3, MPI_INT, &nt), MPI_ERR_COUNT, "Type_contiguous count -3: MPI_ERR_COUNT");
        mt_is_int(MPI_Type_indexed(-1, NULL, NULL, MPI_INT, &nt), MPI_ERR_COUNT, "Type_indexed count -1: MPI_ERR_COUNT");
        mt_is_int(MPI_Type_create_struct(-2, NULL, NULL, NULL, &nt), MPI_ERR_COUNT,
                  "Type_create_struct count -2: MPI_ERR_COUNT");
        mt_is_int(MPI_Type_vector(2, 1, 1, MPI_DATATYPE_NULL, &nt), MPI_ERR_TYPE,
                  "Type_vector of MPI_DATATYPE_NULL: MPI_ERR_TYPE");
        mt_is_int(MPI_Type_create_struct(2, (int[]){1, 1}, (MPI_Aint[]){0, 4}, (MPI_Datatype[]){MPI_INT, MPI_DATATYPE_NULL},
                                         &nt),
                  MPI_ERR_TYPE, "Type_create_struct with MPI_DATATYPE_NULL: MPI_ERR_TYPE");
        mt_is_int(MPI_Type_vector(2, -1, 1, MPI_INT, &nt), MPI_ERR_ARG, "negative block length: MPI_ERR_ARG");
        mt_is_int(MPI_Type_indexed(2, (int[]){1, -1}, (int[]){0, 1}, MPI_INT, &nt), MPI_ERR_ARG,
                  "Type_indexed negative block length: MPI_ERR_ARG");
        mt_is_int(MPI_Type_create_subarray(2, (int[]){4, 5}, (int[]){2, 6}, (int[]){0, 0}, MPI_ORDER_C, MPI_INT, &nt),
                  MPI_ERR_ARG, "subarray larger than the array: MPI_ERR_ARG");
        mt_is_int(MPI_Type_create_subarray(1, (int[]){4}, (int[]){2}, (int[]){3}, MPI_ORDER_C, MPI_INT, &nt),
                  MPI_ERR_ARG, "subarray start past the end: MPI_ERR_ARG");
        mt_is_int(MPI_Type_create_subarray(1, (int[]){4}, (int[]){2}, (int[]){0}, 99, MPI_INT, &nt), MPI_ERR_ARG,
                  "subarray bad order: MPI_ERR_ARG");
        mt_is_int(MPI_Type_create_darray(4, 0, 1, (int[]){8}, (int[]){MPI_DISTRIBUTE_BLOCK},
                                         (int[]){MPI_DISTRIBUTE_DFLT_DARG}, (int[]){3}, MPI_ORDER_C, MPI_INT, &nt),
                  MPI_ERR_ARG, "darray grid of 3 for size 4: MPI_ERR_ARG");
        mt_is_int(MPI_Type_create_darray(2, 0, 1, (int[]){8}, (int[]){MPI_DISTRIBUTE_BLOCK}, (int[]){3}, (int[]){2},
                                         MPI_ORDER_C, MPI_INT, &nt),
                  MPI_ERR_ARG, "darray block 3 x 2 processes < 8: MPI_ERR_ARG");
        MPI_Datatype huge;
        MPI_Type_contiguous(INT_MAX, MPI_DOUBLE, &huge);
        mt_is_int(MPI_Type_contiguous(INT_MAX, huge, &nt), MPI_ERR_COUNT,
                  "a type of 2^65 bytes (size overflows an MPI_Aint): MPI_ERR_COUNT");
        MPI_Type_free(&huge);
        mt_ok(nt == MPI_DATATYPE_NULL, "no type was made by the failed calls");
        MPI_Type_contiguous(2, MPI_INT, &nt); /* not committed */
        mt_is_int(MPI_Send(a, 1, nt, rank, 0, MPI_COMM_WORLD), MPI_ERR_TYPE, "Send of an uncommitted type: MPI_ERR_TYPE");
        int pos = 0;
        char pb[16];
        mt_is_int(MPI_Pack(a, 1, nt, pb, 16, &pos, MPI_COMM_WORLD), MPI_ERR_TYPE,
                  "Pack of an uncommitted type: MPI_ERR_TYPE");
        MPI_Type_free(&nt);
        mt_is_int(MPI_Send(a, 1, MPI_DATATYPE_NULL, rank, 0, MPI_COMM_WORLD), MPI_ERR_TYPE,
                  "Send of MPI_DATATYPE_NULL: MPI_ERR_TYPE");
        mt_is_int(MPI_Type_commit(&nt), MPI_ERR_TYPE, "commit of MPI_DATATYPE_NULL: MPI_ERR_TYPE");
        mt_is_int(MPI_Pack(a, -1, MPI_INT, pb, 16, &pos, MPI_COMM_WORLD), MPI_ERR_COUNT, "Pack count -1: MPI_ERR_COUNT");
        MPI_Type_contiguous(2, MPI_INT, &nt);
        int ri[4];
        MPI_Aint ra[4];
        MPI_Datatype rt[4];
        mt_is_int(MPI_Type_get_contents(nt, 0, 0, 1, ri, ra, rt), MPI_ERR_ARG,
                  "get_contents with arrays too small: MPI_ERR_ARG");
        MPI_Type_free(&nt);
        mt_is_int(MPI_Type_free(&nt), MPI_ERR_TYPE, "freeing MPI_DATATYPE_NULL: MPI_ERR_TYPE");
    }

    MPI_Finalize();
    return mt_done();
}

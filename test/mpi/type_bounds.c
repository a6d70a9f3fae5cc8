/* MPI test: the bounds of derived types built around explicit lower and
 * upper bounds (MPI_Type_create_resized, also with negative extents),
 * structs and vectors of them, nested resizing; and struct types holding
 * indexed types whose first blocks are empty. Each copy of a type has its
 * lb marker at its origin + lb and its ub marker at origin + lb + extent;
 * a struct's lb/ub is the min/max over its blocks (every value below is
 * what MPICH 4 and Open MPI 4 also give). The types must also move the
 * right bytes: MPI_Pack, MPI_Unpack and a send/receive between ranks,
 * small and large (rendezvous), checked byte by byte. */
#include <stdlib.h>

#include "test/mpi/mtest.h"

static int rank, size;

static void bounds(MPI_Datatype t, const char *what, long lb, long ext, long tlb, long text, int sz)
{
    MPI_Aint l = -999, e = -999, tl = -999, te = -999;
    int s = -1;
    MPI_Type_get_extent(t, &l, &e);
    MPI_Type_get_true_extent(t, &tl, &te);
    MPI_Type_size(t, &s);
    mt_ok(l == lb && e == ext && tl == tlb && te == text && s == sz,
          "%s: lb %ld extent %ld true lb %ld true extent %ld size %d", what, lb, ext, tlb, text, sz);
    if (l != lb || e != ext || tl != tlb || te != text || s != sz)
        printf("# [rank %d] got lb %ld extent %ld true lb %ld true extent %ld size %d\n", rank, (long)l, (long)e,
               (long)tl, (long)te, s);
}

static MPI_Datatype commit(MPI_Datatype t)
{
    int rc = MPI_Type_commit(&t);
    mt_is_int(rc, MPI_SUCCESS, "MPI_Type_commit succeeds");
    return t;
}

/* Offsets (bytes from the buffer) of the ints that count elements of a
 * type made of ints carry, in type-map order, against what MPI_Pack
 * packs, what MPI_Unpack puts back and what a send/receive to the next
 * rank delivers (every other byte untouched). */
static void moves(MPI_Datatype t, int count, const long *off, int n, const char *what)
{
    enum { PAD = 4096 };
    size_t len = 2 * PAD + 8 * (size_t)n;
    long lo = 0, hi = 0;
    for (int i = 0; i < n; i++) {
        lo = off[i] < lo ? off[i] : lo;
        hi = off[i] + 4 > hi ? off[i] + 4 : hi;
    }
    len = (size_t)(hi - lo) + 2 * PAD;
    unsigned char *src = malloc(len), *dst = malloc(len), *want = malloc(len);
    int *packed = malloc(sizeof(int) * (size_t)n + 16);
    long base = PAD - lo;
    for (size_t i = 0; i < len; i++) {
        src[i] = (unsigned char)(i * 7 + 3);
        want[i] = dst[i] = 0xee;
    }
    for (int i = 0; i < n; i++)
        memcpy(want + base + off[i], src + base + off[i], 4);
    int pos = 0, psize = -1;
    MPI_Pack_size(count, t, MPI_COMM_WORLD, &psize);
    mt_ok(psize >= 4 * n, "%s: MPI_Pack_size (%d) holds the %d ints", what, psize, n);
    int rc = MPI_Pack(src + base, count, t, packed, 4 * n + 16, &pos, MPI_COMM_WORLD);
    int ok = rc == MPI_SUCCESS && pos == 4 * n;
    for (int i = 0; ok && i < n; i++)
        ok = memcmp(&packed[i], src + base + off[i], 4) == 0;
    mt_ok(ok, "%s: MPI_Pack packs the %d ints in type-map order", what, n);
    pos = 0;
    rc = MPI_Unpack(packed, 4 * n, &pos, dst + base, count, t, MPI_COMM_WORLD);
    mt_ok(rc == MPI_SUCCESS && memcmp(dst, want, len) == 0, "%s: MPI_Unpack puts them back, nothing else", what);
    memset(dst, 0xee, len);
    int to = (rank + 1) % size, from = (rank + size - 1) % size;
    MPI_Status st;
    rc = MPI_Sendrecv(src + base, count, t, to, 3, dst + base, count, t, from, 3, MPI_COMM_WORLD, &st);
    int got = -1;
    MPI_Get_count(&st, t, &got);
    mt_ok(rc == MPI_SUCCESS && got == count && memcmp(dst, want, len) == 0,
          "%s: a send/receive delivers exactly those bytes", what);
    free(src);
    free(dst);
    free(want);
    free(packed);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    mt_rank = rank;
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Datatype r, t, n1, s34, n2, neg, neg2;
    int one[2] = {1, 1};

    /* explicit lower bounds in structs, at displacements, nested */
    MPI_Type_create_resized(MPI_INT, -12, 20, &r);
    r = commit(r);
    bounds(r, "R = resized(int, -12, 20)", -12, 20, 0, 4, 4);
    MPI_Aint d10 = 10, d34 = 34, d0 = 0;
    MPI_Type_create_struct(1, one, &d10, &r, &t);
    t = commit(t);
    bounds(t, "struct {R at 10}", -2, 20, 10, 4, 4);
    MPI_Type_free(&t);
    int three = 3;
    MPI_Type_create_struct(1, &three, &d10, &r, &t);
    t = commit(t);
    bounds(t, "struct {3 R at 10}", -2, 60, 10, 44, 12);
    MPI_Type_free(&t);
    MPI_Aint d[2] = {0, 34};
    MPI_Datatype rr[2] = {r, r};
    MPI_Type_create_struct(2, one, d, rr, &t);
    t = commit(t);
    bounds(t, "struct {R at 0, R at 34}", -12, 54, 0, 38, 8);
    moves(t, 2, (long[]){0, 34, 54, 88}, 4, "struct {R at 0, R at 34}, 2 elements");
    MPI_Type_free(&t);
    MPI_Type_create_struct(1, one, &d34, &r, &s34);
    s34 = commit(s34);
    bounds(s34, "struct {R at 34}", 22, 20, 34, 4, 4);
    MPI_Type_create_resized(r, -4, 30, &n1);
    n1 = commit(n1);
    bounds(n1, "resized(R, -4, 30)", -4, 30, 0, 4, 4);
    MPI_Type_create_struct(1, one, &d34, &n1, &t);
    t = commit(t);
    bounds(t, "struct {resized(R, -4, 30) at 34}", 30, 30, 34, 4, 4);
    MPI_Type_free(&t);
    MPI_Type_create_resized(s34, -12, 64, &n2);
    n2 = commit(n2);
    bounds(n2, "N2 = resized(struct {R at 34}, -12, 64)", -12, 64, 34, 4, 4);
    MPI_Datatype ni[2] = {n2, MPI_INT};
    MPI_Type_create_struct(2, one, d, ni, &t);
    t = commit(t);
    bounds(t, "struct {N2 at 0, int at 34}", -12, 64, 34, 4, 8);
    MPI_Type_free(&t);
    MPI_Type_create_struct(1, one, &d0, &n2, &t);
    t = commit(t);
    bounds(t, "struct {N2 at 0}", -12, 64, 34, 4, 4);
    MPI_Type_free(&t);
    MPI_Type_contiguous(3, n2, &t);
    t = commit(t);
    bounds(t, "contiguous(3, N2)", -12, 192, 34, 132, 12);
    moves(t, 2, (long[]){34, 98, 162, 226, 290, 354}, 6, "contiguous(3, N2), 2 elements");
    MPI_Type_free(&t);

    /* negative extents: the ub marker below the lb marker */
    MPI_Type_create_resized(MPI_INT, 10, -8, &neg);
    neg = commit(neg);
    bounds(neg, "NEG = resized(int, 10, -8)", 10, -8, 0, 4, 4);
    MPI_Type_create_struct(1, one, &d0, &neg, &t);
    t = commit(t);
    bounds(t, "struct {NEG at 0}", 10, -8, 0, 4, 4);
    MPI_Type_free(&t);
    MPI_Type_create_struct(1, &three, &d0, &neg, &t);
    t = commit(t);
    bounds(t, "struct {3 NEG at 0}", -6, 8, -16, 20, 12);
    MPI_Type_free(&t);
    MPI_Type_contiguous(3, neg, &t);
    t = commit(t);
    bounds(t, "contiguous(3, NEG)", -6, 8, -16, 20, 12);
    /* element k at 8k: its ints at 8k, 8k - 8, 8k - 16 */
    moves(t, 2, (long[]){0, -8, -16, 8, 0, -8}, 6, "contiguous(3, NEG), 2 elements");
    MPI_Type_free(&t);
    MPI_Type_vector(2, 2, 3, neg, &t);
    t = commit(t);
    bounds(t, "vector(2, 2, 3, NEG)", -22, 24, -32, 36, 16);
    MPI_Type_free(&t);
    MPI_Type_create_resized(MPI_INT, -12, -20, &neg2);
    neg2 = commit(neg2);
    MPI_Type_create_struct(1, one, &d0, &neg2, &t);
    t = commit(t);
    bounds(t, "struct {resized(int, -12, -20) at 0}", -12, -20, 0, 4, 4);
    MPI_Type_free(&t);
    MPI_Type_create_struct(1, one, &d34, &neg2, &t);
    t = commit(t);
    bounds(t, "struct {resized(int, -12, -20) at 34}", 22, -20, 34, 4, 4);
    MPI_Type_free(&t);
    MPI_Type_contiguous(2, neg2, &t);
    t = commit(t);
    bounds(t, "contiguous(2, resized(int, -12, -20))", -32, 0, -20, 24, 8);
    MPI_Type_free(&t);

    /* indexed types whose first blocks are empty, in structs */
    MPI_Datatype a, s, c;
    int bl[4] = {0, 0, 2, 1}, dp[4] = {0, 5, 2, 7};
    MPI_Type_indexed(4, bl, dp, MPI_INT, &a);
    a = commit(a);
    bounds(a, "A = indexed {0 at 0, 0 at 5, 2 at 2, 1 at 7}", 8, 24, 8, 24, 12);
    MPI_Aint da[2] = {0, 40};
    MPI_Datatype as[2] = {a, MPI_INT};
    MPI_Type_create_struct(2, one, da, as, &s);
    s = commit(s);
    bounds(s, "struct {A at 0, int at 40}", 8, 36, 8, 36, 16);
    moves(s, 3, (long[]){8, 12, 28, 40, 44, 48, 64, 76, 80, 84, 100, 112}, 12, "struct {A at 0, int at 40}, 3 elements");
    int bl6[6] = {0, 0, 0, 0, 2, 1}, dp6[6] = {9, -3, 0, 5, 2, 7}, two[2] = {2, 1};
    MPI_Datatype a6;
    MPI_Type_indexed(6, bl6, dp6, MPI_INT, &a6);
    MPI_Aint d6[2] = {4, 0};
    MPI_Datatype ty6[2] = {a6, MPI_INT};
    MPI_Type_create_struct(2, two, d6, ty6, &c); /* a6 itself never committed */
    c = commit(c);
    bounds(c, "struct {2 indexed {0,0,0,0 blocks, 2 at 2, 1 at 7} at 4, int at 0}", 0, 60, 0, 60, 28);
    moves(c, 1, (long[]){12, 16, 32, 36, 40, 56, 0}, 7, "struct {2 A' at 4, int at 0}");
    MPI_Datatype h, hs;
    MPI_Aint hd[3] = {64, -8, 16};
    int hb[3] = {0, 0, 2};
    MPI_Type_create_hindexed(3, hb, hd, MPI_INT, &h);
    MPI_Aint dh[2] = {0, 200};
    MPI_Datatype th[2] = {h, a};
    int bh[2] = {1, 2};
    MPI_Type_create_struct(2, bh, dh, th, &hs);
    hs = commit(hs);
    bounds(hs, "struct {hindexed {0 at 64, 0 at -8, 2 at 16} at 0, 2 A at 200}", 16, 240, 16, 240, 32);
    /* large: 20000 elements of struct {A, int}, by rendezvous */
    {
        int n = 20000;
        long *off = malloc(sizeof(long) * 4 * (size_t)n);
        for (int e = 0; e < n; e++) {
            long b = 36L * e;
            off[4 * e] = b + 8;
            off[4 * e + 1] = b + 12;
            off[4 * e + 2] = b + 28;
            off[4 * e + 3] = b + 40;
        }
        moves(s, n, off, 4 * n, "struct {A at 0, int at 40}, 20000 elements");
        free(off);
    }
    MPI_Type_free(&s);
    MPI_Type_free(&c);
    MPI_Type_free(&a6);
    MPI_Type_free(&hs);
    MPI_Type_free(&h);
    MPI_Type_free(&a);
    MPI_Type_free(&neg);
    MPI_Type_free(&neg2);
    MPI_Type_free(&n1);
    MPI_Type_free(&n2);
    MPI_Type_free(&s34);
    MPI_Type_free(&r);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return mt_done();
}

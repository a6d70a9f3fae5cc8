/* Unit test of the datatype walkers for file views (runtime/objects/
 * datatype.c, linked directly; runtime/io/PLAN.md, 4.1):
 *   - rd_dt_segments_range: the runs (displacement, length) of a packed
 *     byte range, adjacent runs merged, also across instances;
 *   - rd_dt_bytes_below: packed bytes of one instance below a displacement;
 *   - rd_dt_monotone: runs going up without overlap.
 * For contiguous, vector, subarray (C and Fortran order, built as MPI
 * builds them: a vector, displaced, resized), indexed, struct with holes
 * and resized types: exact runs and offsets written out by hand, then
 * every (off, len) range of 2-3 instances and every x against a
 * brute-force slicing of the whole runs (rd_dt_segments). And every basic
 * type's external32 size equals its native one here (LP64 Linux), so a
 * view's tree serves external32 files as it is (PLAN 4.7). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/objects/datatype.h"
#include "runtime/objects/dtx32.h"
#include "test/tap.h"

#define MAXR 256

struct runs {
    size_t n;
    MPI_Aint d[MAXR];
    size_t l[MAXR];
};

static int add(void *arg, MPI_Aint d, size_t l)
{
    struct runs *r = arg;
    if (r->n == MAXR)
        return 1;
    r->d[r->n] = d;
    r->l[r->n] = l;
    r->n++;
    return 0;
}

/* add, merging with the run before (what rd_dt_segments_range promises) */
static int add_merged(void *arg, MPI_Aint d, size_t l)
{
    struct runs *r = arg;
    if (r->n && r->d[r->n - 1] + (MPI_Aint)r->l[r->n - 1] == d) {
        r->l[r->n - 1] += l;
        return 0;
    }
    return add(arg, d, l);
}

static void fmt(const struct runs *r, char *out, size_t cap)
{
    size_t o = 0;
    out[0] = 0;
    for (size_t i = 0; i < r->n && o < cap; i++)
        o += (size_t)snprintf(out + o, cap - o, "%s(%ld,%zu)", i ? " " : "", (long)r->d[i], r->l[i]);
}

/* exact runs of [off, off + len), written out as "(d,l) (d,l)" */
static void expect_runs(MPI_Datatype dt, size_t off, size_t len, const char *want, const char *what)
{
    struct runs r = {0};
    char got[1024];
    int rc = rd_dt_segments_range(dt, off, len, add, &r);
    fmt(&r, got, sizeof(got));
    tap_ok(rc == 0 && strcmp(got, want) == 0, "%s: bytes [%zu, %zu) are %s", what, off, off + len, want);
    if (strcmp(got, want) != 0)
        tap_diag("got %s", got);
}

/* the expected runs of [off, off + len) of count instances, by slicing
 * the whole runs */
static void slice(const struct runs *all, size_t off, size_t len, struct runs *out)
{
    size_t pos = 0;
    out->n = 0;
    for (size_t i = 0; i < all->n && len; i++) {
        size_t l = all->l[i];
        if (pos + l <= off) {
            pos += l;
            continue;
        }
        size_t skip = off > pos ? off - pos : 0;
        size_t n = l - skip < len ? l - skip : len;
        add_merged(out, all->d[i] + (MPI_Aint)skip, n);
        len -= n;
        off += n;
        pos += l;
    }
}

/* every range of count instances against the slicing; every x against
 * the bytes of one instance below it (monotone types) */
static void brute(MPI_Datatype dt, size_t count, const char *what)
{
    struct runs all = {0}, one = {0}, got, want;
    rd_dt_segments(dt, count, add_merged, &all);
    size_t total = count * dt->size, bad = 0, ranges = 0;
    for (size_t off = 0; off <= total; off++)
        for (size_t len = 0; off + len <= total; len++) {
            got.n = 0;
            slice(&all, off, len, &want);
            int rc = rd_dt_segments_range(dt, off, len, add, &got);
            ranges++;
            if (rc || got.n != want.n || memcmp(got.d, want.d, sizeof(MPI_Aint) * got.n) ||
                memcmp(got.l, want.l, sizeof(size_t) * got.n)) {
                if (!bad++)
                    tap_diag("%s: range [%zu, %zu) differs", what, off, off + len);
            }
        }
    tap_ok(bad == 0, "%s: all %zu ranges of %zu instances equal the slices of the whole runs", what, ranges,
           count);
    if (!rd_dt_monotone(dt))
        return;
    rd_dt_segments(dt, 1, add_merged, &one);
    MPI_Aint lo = dt->true_lb - 3, hi = dt->true_lb + dt->true_extent + 3;
    bad = 0;
    for (MPI_Aint x = lo; x <= hi; x++) {
        size_t exp = 0;
        for (size_t i = 0; i < one.n; i++)
            if (x > one.d[i])
                exp += x - one.d[i] < (MPI_Aint)one.l[i] ? (size_t)(x - one.d[i]) : one.l[i];
        if (rd_dt_bytes_below(dt, x) != exp && !bad++)
            tap_diag("%s: below(%ld) = %zu, expected %zu", what, (long)x, rd_dt_bytes_below(dt, x), exp);
    }
    tap_ok(bad == 0, "%s: bytes below every x in [%ld, %ld] as counted run by run", what, (long)lo, (long)hi);
}

static MPI_Datatype vec(size_t count, size_t blen, MPI_Aint stride, MPI_Datatype old)
{
    int err = 0;
    MPI_Datatype t = rd_dt_make_vector(count, blen, stride, old, &err);
    if (!t)
        tap_diag("rd_dt_make_vector failed: %d", err);
    return t;
}

static MPI_Datatype blocks(size_t n, const size_t *bl, const MPI_Aint *d, const MPI_Datatype *olds, int one,
                           int is_struct)
{
    int err = 0;
    MPI_Datatype t = rd_dt_make_blocks(n, bl, d, olds, one, is_struct, &err);
    if (!t)
        tap_diag("rd_dt_make_blocks failed: %d", err);
    return t;
}

static MPI_Datatype resized(MPI_Datatype old, MPI_Aint lb, MPI_Aint ext)
{
    int err = 0;
    return rd_dt_make_resized(old, lb, ext, &err);
}

/* a subarray as MPI defines it: the sub-block at its start, resized to the
 * whole array (2-D, ints) */
static MPI_Datatype subarray(MPI_Datatype inner, MPI_Aint start, MPI_Aint whole)
{
    MPI_Datatype d = blocks(1, (size_t[]){1}, (MPI_Aint[]){start}, (MPI_Datatype[]){inner}, 1, 0);
    MPI_Datatype s = resized(d, 0, whole);
    rd_dt_release(d);
    return s;
}

int main(void)
{
    /* contiguous: 5 ints */
    MPI_Datatype c = vec(5, 1, 4, MPI_INT);
    expect_runs(c, 6, 8, "(6,8)", "contiguous(5, int)");
    tap_is_int(rd_dt_bytes_below(c, 10), 10, "contiguous: 10 bytes below 10");
    tap_is_int(rd_dt_bytes_below(c, 99), 20, "contiguous: all 20 bytes below 99");
    tap_ok(rd_dt_monotone(c), "contiguous is monotone");
    brute(c, 3, "contiguous(5, int)");

    /* vector(3, 2, 5) of int: 8 bytes at 0, 20, 40; extent 48 */
    MPI_Datatype v = vec(3, 2, 20, MPI_INT);
    expect_runs(v, 4, 16, "(4,4) (20,8) (40,4)", "vector(3, 2, 5, int)");
    expect_runs(v, 20, 12, "(44,12)", "vector, 2 instances: the last block's end and the next one's first block merge");
    tap_is_int(rd_dt_bytes_below(v, 22), 10, "vector: 10 bytes below 22");
    tap_is_int(rd_dt_bytes_below(v, 30), 16, "vector: 16 bytes below 30 (in the hole)");
    tap_is_int(rd_dt_bytes_below(v, 0), 0, "vector: none below 0");
    tap_is_int(rd_dt_bytes_below(v, 48), 24, "vector: all 24 below 48");
    tap_ok(rd_dt_monotone(v), "vector is monotone");
    brute(v, 3, "vector(3, 2, 5, int)");

    /* subarray, C order: int a[4][6], a[1..2][2..4]: rows of 12 bytes at 32, 56 */
    MPI_Datatype rows = vec(2, 3, 24, MPI_INT);
    MPI_Datatype sc = subarray(rows, (1 * 6 + 2) * 4, 96);
    tap_ok(sc->extent == 96 && sc->size == 24 && sc->true_lb == 32, "C subarray: extent 96, size 24, true lb 32");
    expect_runs(sc, 0, 24, "(32,12) (56,12)", "C subarray");
    expect_runs(sc, 6, 12, "(38,6) (56,6)", "C subarray");
    expect_runs(sc, 18, 12, "(62,6) (128,6)", "C subarray, 2 instances");
    tap_is_int(rd_dt_bytes_below(sc, 40), 8, "C subarray: 8 bytes below 40");
    tap_is_int(rd_dt_bytes_below(sc, 50), 12, "C subarray: 12 below 50");
    tap_is_int(rd_dt_bytes_below(sc, 60), 16, "C subarray: 16 below 60");
    tap_ok(rd_dt_monotone(sc), "C subarray is monotone");
    brute(sc, 2, "C subarray");

    /* subarray, Fortran order: a(4, 6), a(2:3, 3:5): columns of 8 bytes at 36, 52, 68 */
    MPI_Datatype cols = vec(3, 2, 16, MPI_INT);
    MPI_Datatype sf = subarray(cols, (1 + 2 * 4) * 4, 96);
    expect_runs(sf, 0, 24, "(36,8) (52,8) (68,8)", "Fortran subarray");
    expect_runs(sf, 4, 16, "(40,4) (52,8) (68,4)", "Fortran subarray");
    tap_is_int(rd_dt_bytes_below(sf, 56), 12, "Fortran subarray: 12 bytes below 56");
    tap_is_int(rd_dt_bytes_below(sf, 44), 8, "Fortran subarray: 8 below 44");
    tap_ok(rd_dt_monotone(sf), "Fortran subarray is monotone");
    brute(sf, 2, "Fortran subarray");

    /* indexed {2@0, 1@3, 3@5} of int */
    MPI_Datatype ix = blocks(3, (size_t[]){2, 1, 3}, (MPI_Aint[]){0, 12, 20}, (MPI_Datatype[]){MPI_INT}, 1, 0);
    expect_runs(ix, 0, 24, "(0,8) (12,4) (20,12)", "indexed");
    expect_runs(ix, 6, 8, "(6,2) (12,4) (20,2)", "indexed");
    tap_is_int(rd_dt_bytes_below(ix, 14), 10, "indexed: 10 bytes below 14");
    tap_is_int(rd_dt_bytes_below(ix, 12), 8, "indexed: 8 below 12");
    tap_is_int(rd_dt_bytes_below(ix, 25), 17, "indexed: 17 below 25");
    tap_ok(rd_dt_monotone(ix), "indexed, sorted, is monotone");
    brute(ix, 3, "indexed");

    /* struct {int @0; double @8; char @24}: size 13, extent 32 */
    MPI_Datatype st = blocks(3, (size_t[]){1, 1, 1}, (MPI_Aint[]){0, 8, 24},
                             (MPI_Datatype[]){MPI_INT, MPI_DOUBLE, MPI_CHAR}, 0, 1);
    tap_ok(st->size == 13 && st->extent == 32, "struct: size 13, extent 32");
    expect_runs(st, 0, 13, "(0,4) (8,8) (24,1)", "struct with holes");
    expect_runs(st, 10, 10, "(14,2) (24,1) (32,4) (40,3)", "struct with holes, 2 instances");
    tap_is_int(rd_dt_bytes_below(st, 12), 8, "struct: 8 bytes below 12");
    tap_is_int(rd_dt_bytes_below(st, 20), 12, "struct: 12 below 20 (in the hole)");
    tap_is_int(rd_dt_bytes_below(st, 25), 13, "struct: 13 below 25");
    tap_ok(rd_dt_monotone(st), "struct with holes is monotone");
    brute(st, 3, "struct with holes");

    /* resized: ints at 0 and 8, extent 16 */
    MPI_Datatype v2 = vec(2, 1, 8, MPI_INT);
    MPI_Datatype rz = resized(v2, 0, 16);
    expect_runs(rz, 2, 12, "(2,2) (8,4) (16,4) (24,2)", "resized to extent 16");
    tap_is_int(rd_dt_bytes_below(rz, 10), 6, "resized: 6 bytes below 10");
    tap_ok(rd_dt_monotone(rz), "resized is monotone");
    brute(rz, 3, "resized to extent 16");
    /* resized below its data span: tiled copies interleave (one instance is
     * monotone; the view checks the extent) */
    MPI_Datatype rn = resized(v2, 0, 4);
    expect_runs(rn, 0, 16, "(0,4) (8,4) (4,4) (12,4)", "resized to extent 4: the copies interleave");
    brute(rn, 2, "resized to extent 4");

    /* nested: a vector of the struct, and of the C subarray */
    MPI_Datatype vs = vec(3, 1, 32, st);
    tap_ok(rd_dt_monotone(vs), "vector of structs, stride 32: monotone");
    expect_runs(vs, 11, 6, "(15,1) (24,1) (32,4)", "vector of structs");
    tap_is_int(rd_dt_bytes_below(vs, 44), 13 + 4 + 4, "vector of structs: 21 bytes below 44");
    brute(vs, 2, "vector of structs");
    MPI_Datatype vsa = vec(2, 1, 96, sc);
    tap_ok(rd_dt_monotone(vsa), "vector of C subarrays: monotone");
    brute(vsa, 2, "vector of C subarrays");

    /* not monotone */
    MPI_Datatype down = blocks(2, (size_t[]){1, 1}, (MPI_Aint[]){8, 0}, (MPI_Datatype[]){MPI_INT}, 1, 0);
    tap_ok(!rd_dt_monotone(down), "indexed {1@2, 1@0}: displacements go down: not monotone");
    expect_runs(down, 0, 8, "(8,4) (0,4)", "indexed going down");
    brute(down, 2, "indexed going down");
    MPI_Datatype ov = blocks(2, (size_t[]){2, 1}, (MPI_Aint[]){0, 4}, (MPI_Datatype[]){MPI_INT}, 1, 0);
    tap_ok(!rd_dt_monotone(ov), "indexed {2@0, 1@1}: overlap: not monotone");
    MPI_Datatype neg = vec(3, 1, -8, MPI_INT);
    tap_ok(!rd_dt_monotone(neg), "vector with a negative stride: not monotone");
    expect_runs(neg, 0, 12, "(0,4) (-8,4) (-16,4)", "vector with a negative stride");
    MPI_Datatype ilv = vec(2, 2, 4, MPI_INT);
    tap_ok(!rd_dt_monotone(ilv), "hvector(2, 2, 4 bytes) of int: blocks overlap: not monotone");
    MPI_Datatype vs16 = vec(2, 1, 16, st);
    tap_ok(!rd_dt_monotone(vs16), "vector of structs (data 25 bytes) with stride 16: not monotone");
    MPI_Datatype ok2 = vec(2, 1, 25, st);
    tap_ok(rd_dt_monotone(ok2), "the same with stride 25 (the data span): monotone");
    MPI_Datatype rcopies = vec(2, 2, 40, rn);
    tap_ok(!rd_dt_monotone(rcopies), "vector of 2 copies of the extent-4 resized type: not monotone");

    /* external32 sizes = native sizes */
    size_t nx = rd_dtx32_ntypes(), same = 0;
    for (size_t i = 0; i < nx; i++) {
        MPI_Datatype b = rd_dtx32_type(i);
        if ((size_t)rd_dtx32_basic_size(b) == b->size)
            same++;
        else
            tap_diag("%s: external32 %d bytes, native %zu", b->name, rd_dtx32_basic_size(b), b->size);
    }
    tap_ok(nx >= 50 && same == nx, "external32 size = native size for all %zu basic types of the table", nx);
    tap_is_int(rd_dtx32_size(st), 13, "external32 size of the struct {int, double, char}: 13");
    tap_is_int(rd_dtx32_basic_size(MPI_DOUBLE_INT), -1, "MPI_DOUBLE_INT is not a basic type of the table");
    unsigned char x32[13];
    char sv[32] = {0}; /* the struct's layout: int at 0, double at 8, char at 24 */
    int iv = 0x01020304;
    double dv = 1.0;
    memcpy(sv, &iv, 4);
    memcpy(sv + 8, &dv, 8);
    sv[24] = 'z';
    tap_ok(rd_dtx32_convert(st, 1, sv, x32, 0) == 0 && x32[0] == 1 && x32[3] == 4 && x32[4] == 0x3f &&
           x32[5] == 0xf0 && x32[11] == 0 && x32[12] == 'z',
           "external32 of the struct: big-endian int 01020304, double 3ff0..., char");

    MPI_Datatype all[] = {c, v, rows, sc, cols, sf, ix, st, v2, rz, rn, vs, vsa, down, ov, neg, ilv, vs16, ok2,
                          rcopies};
    for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++)
        rd_dt_release(all[i]);
    return tap_done();
}

/* Unit test of file views (runtime/io/view.c, linked directly with the
 * datatype engine; runtime/io/PLAN.md 4.1 and 6):
 *   - rd_io_view_set's checks: disp, MPI_DISPLACEMENT_CURRENT, sizes,
 *     displacements going down, overlap (writable or not), datareps; a
 *     failed set leaves the view as it was;
 *   - the mapping: rd_io_view_offset, rd_io_view_runs, rd_io_view_below
 *     and rd_io_view_span against a brute-force expansion of the view:
 *     the test writes each filetype's byte map out itself (loops over the
 *     blocks, rows, planes the type was built from), tiles it from disp,
 *     and compares every stream byte's offset, every (offset, length)
 *     range's runs and span, and the stream bytes below every file offset
 *     around the first instances. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/io/io_int.h"
#include "runtime/objects/datatype.h"
#include "test/tap.h"
#include "test/unit/dtmake.h"

#define MAXB 512  /* data bytes of one filetype instance */
#define MAXR 2048 /* runs of a range */

/* ---- the test's own picture of a view */
struct map {
    size_t n;      /* data bytes of one instance */
    long b[MAXB];  /* displacement of each, in stream order */
};

static void bytes(struct map *m, long start, long len)
{
    for (long i = 0; i < len; i++)
        m->b[m->n++] = start + i;
}

/* file offset of stream byte o */
static long long ref_off(const struct map *m, long long disp, long ext, long long o)
{
    return disp + (o / (long long)m->n) * ext + m->b[o % (long long)m->n];
}

struct runs {
    size_t n;
    long long d[MAXR];
    size_t l[MAXR];
};

static int add_run(void *arg, MPI_Offset d, size_t l)
{
    struct runs *r = arg;
    if (r->n == MAXR)
        return 7;
    r->d[r->n] = d;
    r->l[r->n] = l;
    r->n++;
    return 0;
}

static void ref_runs(const struct map *m, long long disp, long ext, long long o, long long len, struct runs *r)
{
    r->n = 0;
    for (long long i = o; i < o + len; i++) {
        long long f = ref_off(m, disp, ext, i);
        if (r->n && r->d[r->n - 1] + (long long)r->l[r->n - 1] == f)
            r->l[r->n - 1]++;
        else
            add_run(r, f, 1);
    }
}

static MPI_Datatype keep[64];
static size_t nkeep;

static MPI_Datatype kept(MPI_Datatype t)
{
    keep[nkeep++] = t;
    return t;
}

/* set the view, then compare everything with the brute force */
static void check_view(const char *what, long long disp, MPI_Datatype et, MPI_Datatype ft, const struct map *m,
                       long ext, int writable, int want_contig, int want_mono)
{
    struct rd_io_view v;
    rd_io_view_init(&v);
    rd_io_why why = {""};
    int rc = rd_io_view_set(&v, disp, et, ft, "native", writable, 0, 0, &why);
    tap_ok(rc == MPI_SUCCESS, "%s: set_view accepts it", what);
    if (rc != MPI_SUCCESS) {
        tap_diag("class %d: %s", rc, why.msg);
        return;
    }
    tap_ok(v.disp == disp && v.ftsize == m->n && v.ftext == ext && v.esize == et->size &&
               v.contig == want_contig && v.monotone == want_mono && v.rep == NULL,
           "%s: disp %lld, %zu data bytes, extent %ld, etype %zu bytes, contig %d, monotone %d", what, disp, m->n,
           ext, et->size, want_contig, want_mono);

    /* instances: enough for ~400 stream bytes, at least 3 */
    long long ni = m->n >= 130 ? 3 : 400 / (long long)m->n;
    if (ni > 12)
        ni = 12;
    long long total = ni * (long long)m->n;

    size_t bad = 0;
    for (long long o = 0; o < total; o++)
        if (rd_io_view_offset(&v, o) != ref_off(m, disp, ext, o) && !bad++)
            tap_diag("%s: offset(%lld) = %lld, expected %lld", what, o, rd_io_view_offset(&v, o),
                     ref_off(m, disp, ext, o));
    tap_ok(bad == 0, "%s: offset of each of %lld stream bytes", what, total);

    static struct runs got, want;
    size_t ranges = 0, sbad = 0;
    bad = 0;
    for (long long o = 0; o <= total; o++)
        for (long long len = 0; o + len <= total; len++) {
            ranges++;
            got.n = 0;
            ref_runs(m, disp, ext, o, len, &want);
            int r = rd_io_view_runs(&v, o, len, add_run, &got);
            if (r || got.n != want.n || memcmp(got.d, want.d, sizeof(got.d[0]) * got.n) ||
                memcmp(got.l, want.l, sizeof(got.l[0]) * got.n)) {
                if (!bad++)
                    tap_diag("%s: runs of [%lld, %lld): %zu runs, expected %zu (first %lld+%zu, expected "
                             "%lld+%zu)",
                             what, o, o + len, got.n, want.n, got.n ? got.d[0] : -1, got.n ? got.l[0] : 0,
                             want.n ? want.d[0] : -1, want.n ? want.l[0] : 0);
            }
            if (len == 0)
                continue;
            long long lo = want.d[0], hi = 0;
            for (size_t i = 0; i < want.n; i++) {
                if (want.d[i] < lo)
                    lo = want.d[i];
                if (want.d[i] + (long long)want.l[i] > hi)
                    hi = want.d[i] + (long long)want.l[i];
            }
            MPI_Offset glo, ghi;
            rd_io_view_span(&v, o, len, &glo, &ghi);
            if ((glo != lo || ghi != hi) && !sbad++)
                tap_diag("%s: span of [%lld, %lld) = [%lld, %lld), expected [%lld, %lld)", what, o, o + len,
                         glo, ghi, lo, hi);
        }
    tap_ok(bad == 0, "%s: runs of all %zu (offset, length) ranges of %lld instances", what, ranges, ni);
    tap_ok(sbad == 0, "%s: file span of each of those ranges", what);

    /* below every x up to the end of instance ni: count over all instances
     * that start below it */
    long lo = m->b[0], hi = m->b[0];
    for (size_t i = 0; i < m->n; i++) {
        if (m->b[i] < lo)
            lo = m->b[i];
        if (m->b[i] + 1 > hi)
            hi = m->b[i] + 1;
    }
    bad = 0;
    long long xmax = disp + ni * ext + 3;
    for (long long x = disp - 3; x <= xmax; x++) {
        long long want_n = 0;
        for (long long k = 0; disp + k * ext + lo < x; k++)
            for (size_t i = 0; i < m->n; i++)
                if (disp + k * ext + m->b[i] < x)
                    want_n++;
        if (rd_io_view_below(&v, x) != want_n && !bad++)
            tap_diag("%s: below(%lld) = %lld, expected %lld", what, x, rd_io_view_below(&v, x), want_n);
    }
    tap_ok(bad == 0, "%s: stream bytes below each file offset in [%lld, %lld]", what, disp - 3, xmax);
    rd_io_view_fini(&v);
}

/* set_view must fail with cls, the why naming the cause, the view left */
static void check_bad(const char *what, long long disp, MPI_Datatype et, MPI_Datatype ft, const char *rep,
                      int writable, int seq, int cls, const char *needle)
{
    struct rd_io_view v;
    rd_io_view_init(&v);
    MPI_Datatype v2 = kept(vec(2, 1, 8, MPI_INT));
    rd_io_why why = {""};
    int rc0 = rd_io_view_set(&v, 40, MPI_INT, v2, "native", 1, 0, 0, &why);
    why.msg[0] = 0;
    int rc = rd_io_view_set(&v, disp, et, ft, rep, writable, seq, 0, &why);
    tap_ok(rc0 == MPI_SUCCESS && rc == cls && strstr(why.msg, needle) && v.disp == 40 && v.filetype == v2 &&
               v.etype == MPI_INT && v.ftsize == 8 && v.ftext == 12,
           "%s: class %d, \"%s\", the view unchanged", what, cls, why.msg);
    rd_io_view_fini(&v);
}

int main(void)
{
    struct map m;

    /* the default view */
    {
        struct rd_io_view v;
        rd_io_view_init(&v);
        tap_ok(v.disp == 0 && v.etype == MPI_BYTE && v.filetype == MPI_BYTE && v.contig && v.monotone &&
                   !strcmp(v.datarep, "native"),
               "default view: disp 0, MPI_BYTE, native, contiguous");
        struct runs r = {0};
        rd_io_view_runs(&v, 5, 100, add_run, &r);
        tap_ok(rd_io_view_offset(&v, 77) == 77 && rd_io_view_below(&v, 9) == 9 && rd_io_view_below(&v, -1) == 0 &&
                   r.n == 1 && r.d[0] == 5 && r.l[0] == 100,
               "default view: identity mapping");
        rd_io_view_fini(&v);
    }

    /* 1. contiguous(4, int) at disp 100: a contiguous view */
    m.n = 0;
    bytes(&m, 0, 16);
    check_view("contiguous(4 int), disp 100", 100, MPI_INT, kept(vec(4, 1, 4, MPI_INT)), &m, 16, 1, 1, 1);

    /* 2. vector(3, 2, 5) of int: 8 bytes at 0, 20, 40 */
    m.n = 0;
    for (int i = 0; i < 3; i++)
        bytes(&m, 20 * i, 8);
    check_view("vector(3, 2, 5 int)", 0, MPI_INT, kept(vec(3, 2, 20, MPI_INT)), &m, 48, 1, 0, 1);

    /* 3. etype of 8 bytes: vector(4, 1, 3) of double, disp 16 */
    m.n = 0;
    for (int i = 0; i < 4; i++)
        bytes(&m, 24 * i, 8);
    check_view("vector(4, 1, 3 double), etype double, disp 16", 16, MPI_DOUBLE, kept(vec(4, 1, 24, MPI_DOUBLE)),
               &m, 80, 1, 0, 1);

    /* 4. the same, 5 GB into the file */
    check_view("vector of double, disp 5e9", 5000000000LL, MPI_DOUBLE, keep[nkeep - 1], &m, 80, 1, 0, 1);

    /* 5. subarray 2-D, C order: int a[4][6], a[1..2][2..4] */
    m.n = 0;
    for (int y = 1; y <= 2; y++)
        bytes(&m, (y * 6 + 2) * 4, 12);
    MPI_Datatype rows = kept(vec(2, 3, 24, MPI_INT));
    check_view("subarray 2-D C int[4][6] [1..2][2..4]", 0, MPI_INT, kept(subarray(rows, (1 * 6 + 2) * 4, 96)), &m,
               96, 1, 0, 1);

    /* 6. subarray 2-D, Fortran order: a(4, 6), a(2:3, 3:5) */
    m.n = 0;
    for (int j = 2; j <= 4; j++)
        bytes(&m, (j * 4 + 1) * 4, 8);
    MPI_Datatype cols = kept(vec(3, 2, 16, MPI_INT));
    check_view("subarray 2-D Fortran a(4,6)(2:3,3:5), disp 8", 8, MPI_INT,
               kept(subarray(cols, (1 + 2 * 4) * 4, 96)), &m, 96, 1, 0, 1);

    /* 7. subarray 3-D, C order: double a[3][4][5], starts (1,1,2), sizes (2,2,3) */
    m.n = 0;
    for (int z = 1; z <= 2; z++)
        for (int y = 1; y <= 2; y++)
            bytes(&m, ((z * 4 + y) * 5 + 2) * 8, 24);
    MPI_Datatype r3 = kept(vec(2, 3, 40, MPI_DOUBLE));
    MPI_Datatype p3 = kept(vec(2, 1, 160, r3));
    check_view("subarray 3-D C double[3][4][5]", 0, MPI_DOUBLE, kept(subarray(p3, ((1 * 4 + 1) * 5 + 2) * 8, 480)),
               &m, 480, 1, 0, 1);

    /* 8. subarray 3-D, Fortran order: a(6,5,4), starts (1,2,1), sizes (2,3,2) */
    m.n = 0;
    for (int k = 1; k <= 2; k++)
        for (int j = 2; j <= 4; j++)
            bytes(&m, ((k * 5 + j) * 6 + 1) * 8, 16);
    MPI_Datatype c3 = kept(vec(3, 2, 48, MPI_DOUBLE));
    MPI_Datatype q3 = kept(vec(2, 1, 240, c3));
    check_view("subarray 3-D Fortran a(6,5,4), disp 24", 24, MPI_DOUBLE,
               kept(subarray(q3, ((1 * 5 + 2) * 6 + 1) * 8, 960)), &m, 960, 1, 0, 1);

    /* 9. indexed {2@0, 1@3, 3@5} of int, disp 4 */
    m.n = 0;
    bytes(&m, 0, 8);
    bytes(&m, 12, 4);
    bytes(&m, 20, 12);
    check_view("indexed {2@0, 1@3, 3@5} int, disp 4", 4, MPI_INT,
               kept(blocks(3, (size_t[]){2, 1, 3}, (MPI_Aint[]){0, 12, 20}, (MPI_Datatype[]){MPI_INT}, 1, 0)), &m, 32,
               1, 0, 1);

    /* 10. struct with holes {int @0, double @8, char @24}: extent 32 */
    m.n = 0;
    bytes(&m, 0, 4);
    bytes(&m, 8, 8);
    bytes(&m, 24, 1);
    MPI_Datatype st = kept(blocks(3, (size_t[]){1, 1, 1}, (MPI_Aint[]){0, 8, 24},
                                  (MPI_Datatype[]){MPI_INT, MPI_DOUBLE, MPI_CHAR}, 0, 1));
    check_view("struct {int, double, char} with holes, etype byte", 0, MPI_BYTE, st, &m, 32, 1, 0, 1);

    /* 11. resized: ints at 0 and 8, extent 16 */
    m.n = 0;
    bytes(&m, 0, 4);
    bytes(&m, 8, 4);
    MPI_Datatype v2 = kept(vec(2, 1, 8, MPI_INT));
    check_view("vector resized to extent 16", 0, MPI_INT, kept(resized(v2, 0, 16)), &m, 16, 1, 0, 1);

    /* 12. resized with a lower bound: an int at 8, lb 4, extent 12, disp 3 */
    m.n = 0;
    bytes(&m, 8, 4);
    MPI_Datatype at8 = kept(blocks(1, (size_t[]){1}, (MPI_Aint[]){8}, (MPI_Datatype[]){MPI_INT}, 1, 0));
    check_view("int at 8 resized to lb 4, extent 12, disp 3", 3, MPI_INT, kept(resized(at8, 4, 12)), &m, 12, 1, 0,
               1);

    /* 13. struct etype {int @0, double @8} (12 bytes, extent 16), filetype
     * hvector(2, 1, 40) of it */
    m.n = 0;
    for (int i = 0; i < 2; i++) {
        bytes(&m, 40 * i, 4);
        bytes(&m, 40 * i + 8, 8);
    }
    MPI_Datatype se = kept(blocks(2, (size_t[]){1, 1}, (MPI_Aint[]){0, 8}, (MPI_Datatype[]){MPI_INT, MPI_DOUBLE},
                                  0, 1));
    check_view("struct etype {int, double}, hvector(2, 1, 40) of it, disp 2", 2, se, kept(vec(2, 1, 40, se)), &m,
               56, 1, 0, 1);

    /* 14-15. interleaved vectors: rank r of 3 owns 16 bytes of every 48 */
    for (int r = 1; r <= 2; r++) {
        m.n = 0;
        bytes(&m, 16 * r, 16);
        MPI_Datatype b = kept(blocks(1, (size_t[]){4}, (MPI_Aint[]){16 * r}, (MPI_Datatype[]){MPI_INT}, 1, 0));
        char what[96];
        snprintf(what, sizeof what, "interleaved: rank %d of 3, 16 of every 48 bytes, disp 8", r);
        check_view(what, 8, MPI_INT, kept(resized(b, 0, 48)), &m, 48, 1, 0, 1);
    }

    /* 16. tiled copies interleave without overlap: ints at 0 and 20,
     * extent 8 (copies at 0,20 | 8,28 | 16,36 | 24,44 ...) */
    m.n = 0;
    bytes(&m, 0, 4);
    bytes(&m, 20, 4);
    MPI_Datatype i20 = kept(vec(2, 1, 20, MPI_INT));
    check_view("ints at 0 and 20 resized to extent 8: copies interleave", 0, MPI_INT, kept(resized(i20, 0, 8)), &m,
               8, 1, 0, 0);

    /* 17. read-only: a filetype whose blocks overlap {2 int @0, 2 int @4} */
    m.n = 0;
    bytes(&m, 0, 8);
    bytes(&m, 4, 8);
    MPI_Datatype ov =
        kept(blocks(2, (size_t[]){2, 2}, (MPI_Aint[]){0, 4}, (MPI_Datatype[]){MPI_INT}, 1, 0));
    check_view("overlapping blocks {2 int @0, 2 int @4}, read-only, disp 10", 10, MPI_INT, ov, &m, 12, 0, 0, 0);

    /* ---- what set_view refuses */
    check_bad("filetype of 12 bytes, etype double", 0, MPI_DOUBLE, kept(vec(3, 1, 8, MPI_INT)), "native", 1, 0,
              MPI_ERR_ARG, "not a multiple");
    check_bad("displacements going down {int @8, int @0}", 0, MPI_INT,
              kept(blocks(2, (size_t[]){1, 1}, (MPI_Aint[]){8, 0}, (MPI_Datatype[]){MPI_INT}, 1, 0)), "native", 0,
              0, MPI_ERR_ARG, "displacement 0 lies below");
    check_bad("overlapping blocks, file open for writing", 0, MPI_INT, ov, "native", 1, 0, MPI_ERR_ARG,
              "displacement 4 lies below the end");
    check_bad("data at displacement -8", 0, MPI_INT,
              kept(blocks(1, (size_t[]){1}, (MPI_Aint[]){-8}, (MPI_Datatype[]){MPI_INT}, 1, 0)), "native", 1, 0,
              MPI_ERR_ARG, "negative displacement -8");
    check_bad("disp -5", -5, MPI_INT, v2, "native", 1, 0, MPI_ERR_ARG, "-5 is negative");
    check_bad("MPI_DISPLACEMENT_CURRENT without MPI_MODE_SEQUENTIAL", -54278278, MPI_INT, v2, "native", 1, 0,
              MPI_ERR_ARG, "MPI_MODE_SEQUENTIAL");
    check_bad("filetype of no data", 0, MPI_INT, kept(vec(0, 1, 4, MPI_INT)), "native", 1, 0, MPI_ERR_ARG,
              "no data");
    check_bad("unknown datarep", 0, MPI_INT, v2, "foo32", 1, 0, MPI_ERR_UNSUPPORTED_DATAREP, "\"foo32\"");
    int err = 0;
    MPI_Datatype unc = rd_dt_make_vector(2, 1, 8, MPI_INT, &err);
    check_bad("uncommitted filetype", 0, MPI_INT, unc, "native", 1, 0, MPI_ERR_TYPE, "not committed");
    rd_dt_release(unc);

    /* DISPLACEMENT_CURRENT on a sequential file; datareps */
    {
        struct rd_io_view v;
        rd_io_view_init(&v);
        rd_io_why why = {""};
        int rc = rd_io_view_set(&v, -54278278, MPI_INT, v2, "external32", 1, 1, 4096, &why);
        tap_ok(rc == MPI_SUCCESS && v.disp == 4096 && v.rep && v.rep->kind == RD_REP_EXTERNAL32 &&
                   !strcmp(v.datarep, "external32") && v.esize == 4 && v.ftsize == 8,
               "MPI_DISPLACEMENT_CURRENT on a sequential file: disp = the shared pointer's 4096; external32");
        rc = rd_io_view_set(&v, 0, st, st, "internal", 1, 0, 0, &why);
        tap_ok(rc == MPI_SUCCESS && v.rep == NULL && !strcmp(v.datarep, "internal") && v.disp == 0,
               "\"internal\": native bytes (no conversion)");
        rd_io_view_fini(&v);
        MPI_Aint ext = 0;
        tap_ok(rd_io_datarep_extent(rd_io_datarep_find("external32"), st, &ext, &why) == 0 && ext == 32,
               "external32 extent of the struct {int, double, char}: 32");
        tap_ok(rd_io_datarep_find("native") && rd_io_datarep_find("external32") && !rd_io_datarep_find("Native"),
               "datarep names are case-sensitive");
    }

    for (size_t i = 0; i < nkeep; i++)
        rd_dt_release(keep[i]);
    return tap_done();
}

/* datatype.c - predefined datatypes, the layout of derived ones and the
 * pack/unpack engine (datatype.h). */
#include "runtime/objects/datatype.h"
#include "runtime/objects/fhandle.h"

#include <complex.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#define RD_BASIC(var, ctype, label)                                                    \
    struct rd_datatype_s var = {                                                       \
        .magic = RD_DT_MAGIC, .predefined = 1, .committed = 1,                         \
        .size = sizeof(ctype), .lb = 0, .extent = sizeof(ctype), .true_lb = 0,         \
        .true_extent = sizeof(ctype), .contig = 1, .elements = 1, .basic = &var,       \
        .optype = &var, .align = _Alignof(ctype), .dn = &var.node,                     \
        .node = {.kind = RD_DN_LEAF, .flat = 1, .size = sizeof(ctype), .elems = 1,     \
                 .basic = &var},                                                       \
        .name = label};

RD_BASIC(rd_mpi_char, char, "MPI_CHAR")
RD_BASIC(rd_mpi_signed_char, signed char, "MPI_SIGNED_CHAR")
RD_BASIC(rd_mpi_unsigned_char, unsigned char, "MPI_UNSIGNED_CHAR")
RD_BASIC(rd_mpi_byte, unsigned char, "MPI_BYTE")
RD_BASIC(rd_mpi_wchar, wchar_t, "MPI_WCHAR")
RD_BASIC(rd_mpi_short, short, "MPI_SHORT")
RD_BASIC(rd_mpi_unsigned_short, unsigned short, "MPI_UNSIGNED_SHORT")
RD_BASIC(rd_mpi_int, int, "MPI_INT")
RD_BASIC(rd_mpi_unsigned, unsigned, "MPI_UNSIGNED")
RD_BASIC(rd_mpi_long, long, "MPI_LONG")
RD_BASIC(rd_mpi_unsigned_long, unsigned long, "MPI_UNSIGNED_LONG")
RD_BASIC(rd_mpi_long_long_int, long long, "MPI_LONG_LONG_INT")
RD_BASIC(rd_mpi_long_long, long long, "MPI_LONG_LONG")
RD_BASIC(rd_mpi_unsigned_long_long, unsigned long long, "MPI_UNSIGNED_LONG_LONG")
RD_BASIC(rd_mpi_float, float, "MPI_FLOAT")
RD_BASIC(rd_mpi_double, double, "MPI_DOUBLE")
RD_BASIC(rd_mpi_long_double, long double, "MPI_LONG_DOUBLE")
RD_BASIC(rd_mpi_c_bool, _Bool, "MPI_C_BOOL")
RD_BASIC(rd_mpi_int8_t, int8_t, "MPI_INT8_T")
RD_BASIC(rd_mpi_int16_t, int16_t, "MPI_INT16_T")
RD_BASIC(rd_mpi_int32_t, int32_t, "MPI_INT32_T")
RD_BASIC(rd_mpi_int64_t, int64_t, "MPI_INT64_T")
RD_BASIC(rd_mpi_uint8_t, uint8_t, "MPI_UINT8_T")
RD_BASIC(rd_mpi_uint16_t, uint16_t, "MPI_UINT16_T")
RD_BASIC(rd_mpi_uint32_t, uint32_t, "MPI_UINT32_T")
RD_BASIC(rd_mpi_uint64_t, uint64_t, "MPI_UINT64_T")
RD_BASIC(rd_mpi_aint, MPI_Aint, "MPI_AINT")
RD_BASIC(rd_mpi_offset, MPI_Offset, "MPI_OFFSET")
RD_BASIC(rd_mpi_count, MPI_Count, "MPI_COUNT")
RD_BASIC(rd_mpi_c_complex, float _Complex, "MPI_C_COMPLEX")
RD_BASIC(rd_mpi_c_float_complex, float _Complex, "MPI_C_FLOAT_COMPLEX")
RD_BASIC(rd_mpi_c_double_complex, double _Complex, "MPI_C_DOUBLE_COMPLEX")
RD_BASIC(rd_mpi_c_long_double_complex, long double _Complex, "MPI_C_LONG_DOUBLE_COMPLEX")
RD_BASIC(rd_mpi_packed, unsigned char, "MPI_PACKED")

/* C++ types (usable from C: same layout as the C types of the same size) */
RD_BASIC(rd_mpi_cxx_bool, _Bool, "MPI_CXX_BOOL")
RD_BASIC(rd_mpi_cxx_float_complex, float _Complex, "MPI_CXX_FLOAT_COMPLEX")
RD_BASIC(rd_mpi_cxx_double_complex, double _Complex, "MPI_CXX_DOUBLE_COMPLEX")
RD_BASIC(rd_mpi_cxx_long_double_complex, long double _Complex, "MPI_CXX_LONG_DOUBLE_COMPLEX")

/* Fortran types, as gfortran lays them out by default (INTEGER and LOGICAL
 * of 4 bytes, REAL of 4, DOUBLE PRECISION of 8) */
RD_BASIC(rd_mpi_character, char, "MPI_CHARACTER")
RD_BASIC(rd_mpi_logical, int32_t, "MPI_LOGICAL")
RD_BASIC(rd_mpi_integer, int32_t, "MPI_INTEGER")
RD_BASIC(rd_mpi_real, float, "MPI_REAL")
RD_BASIC(rd_mpi_double_precision, double, "MPI_DOUBLE_PRECISION")
RD_BASIC(rd_mpi_complex, float _Complex, "MPI_COMPLEX")
RD_BASIC(rd_mpi_double_complex, double _Complex, "MPI_DOUBLE_COMPLEX")
RD_BASIC(rd_mpi_integer1, int8_t, "MPI_INTEGER1")
RD_BASIC(rd_mpi_integer2, int16_t, "MPI_INTEGER2")
RD_BASIC(rd_mpi_integer4, int32_t, "MPI_INTEGER4")
RD_BASIC(rd_mpi_integer8, int64_t, "MPI_INTEGER8")
RD_BASIC(rd_mpi_real4, float, "MPI_REAL4")
RD_BASIC(rd_mpi_real8, double, "MPI_REAL8")
RD_BASIC(rd_mpi_complex8, float _Complex, "MPI_COMPLEX8")
RD_BASIC(rd_mpi_complex16, double _Complex, "MPI_COMPLEX16")
/* REAL(16) and COMPLEX(16): IEEE binary128 (gfortran's, GCC's __float128) */
RD_BASIC(rd_mpi_real16, __float128, "MPI_REAL16")
RD_BASIC(rd_mpi_complex32, rd_complex128, "MPI_COMPLEX32")

/* Fortran pair types: two of the same type, contiguous */
#define RD_TWIN(var, ctype, basicvar, label)                                           \
    struct rd_datatype_s var = {                                                       \
        .magic = RD_DT_MAGIC, .predefined = 1, .committed = 1,                         \
        .size = 2 * sizeof(ctype), .lb = 0, .extent = 2 * sizeof(ctype), .true_lb = 0, \
        .true_extent = 2 * sizeof(ctype), .contig = 1, .elements = 2,                  \
        .basic = &basicvar, .optype = &var, .align = _Alignof(ctype), .dn = &var.node, \
        .node = {.kind = RD_DN_LEAF, .flat = 1, .size = 2 * sizeof(ctype), .elems = 2, \
                 .basic = &basicvar},                                                  \
        .name = label};
RD_TWIN(rd_mpi_2integer, int32_t, rd_mpi_integer, "MPI_2INTEGER")
RD_TWIN(rd_mpi_2real, float, rd_mpi_real, "MPI_2REAL")
RD_TWIN(rd_mpi_2double_precision, double, rd_mpi_double_precision, "MPI_2DOUBLE_PRECISION")

/* The pair types of MINLOC/MAXLOC: a value and an int, laid out as the C
 * struct would be (with its padding): two blocks. */
#define RD_PAIR(var, vtype, vvar, label, isint)                                        \
    struct rd_pair_##var { vtype v; int i; };                                          \
    static struct rd_dt_blk var##_blk[2] = {                                           \
        {.disp = 0, .blen = 1, .cext = sizeof(vtype), .pre = 0, .epre = 0,             \
         .child = &vvar.node},                                                         \
        {.disp = offsetof(struct rd_pair_##var, i), .blen = 1, .cext = sizeof(int),    \
         .pre = sizeof(vtype), .epre = 1, .child = &rd_mpi_int.node}};                 \
    struct rd_datatype_s var = {                                                       \
        .magic = RD_DT_MAGIC, .predefined = 1, .committed = 1,                         \
        .size = sizeof(vtype) + sizeof(int), .lb = 0,                                  \
        .extent = sizeof(struct rd_pair_##var), .true_lb = 0,                          \
        .true_extent = offsetof(struct rd_pair_##var, i) + sizeof(int),                \
        .contig = sizeof(vtype) + sizeof(int) == sizeof(struct rd_pair_##var) &&       \
                  offsetof(struct rd_pair_##var, i) == sizeof(vtype),                  \
        .elements = 2, .basic = isint ? &rd_mpi_int : NULL, .optype = &var,            \
        .align = _Alignof(struct rd_pair_##var), .dn = &var.node,                      \
        .node = {.kind = RD_DN_IDX, .size = sizeof(vtype) + sizeof(int), .elems = 2,   \
                 .flat = offsetof(struct rd_pair_##var, i) == sizeof(vtype),           \
                 .nblk = 2, .blk = var##_blk},                                         \
        .name = label};

RD_PAIR(rd_mpi_float_int, float, rd_mpi_float, "MPI_FLOAT_INT", 0)
RD_PAIR(rd_mpi_double_int, double, rd_mpi_double, "MPI_DOUBLE_INT", 0)
RD_PAIR(rd_mpi_long_int, long, rd_mpi_long, "MPI_LONG_INT", 0)
RD_PAIR(rd_mpi_2int, int, rd_mpi_int, "MPI_2INT", 1)
RD_PAIR(rd_mpi_short_int, short, rd_mpi_short, "MPI_SHORT_INT", 0)
RD_PAIR(rd_mpi_long_double_int, long double, rd_mpi_long_double, "MPI_LONG_DOUBLE_INT", 0)

/* ------------------------------------------------------------ the engine
 *
 * walk(d, base, skip, ...) moves the packed bytes [skip, skip + len) of one
 * instance of node d whose origin is base; seg(c, cext, b, skip, ...) the
 * packed bytes [skip, skip + len) of copies of c lying cext apart from b.
 * Each level finds where the range starts by a division (VEC) or a binary
 * search (IDX), so a range costs a seek of O(depth) plus the copy. */

struct rd_cur {
    char *p;    /* the packed side */
    int unpack; /* 0: user -> packed; 1: packed -> user; RD_CUR_RUNS: report runs */
    /* RD_CUR_RUNS (rd_dt_segments_range): runs relative to anchor go to fn,
     * the one pending in (pd, pl) merged with those that follow it */
    const char *anchor;
    int (*fn)(void *, MPI_Aint, size_t);
    void *arg;
    MPI_Aint pd;
    size_t pl;
    int rc;
};
#define RD_CUR_RUNS 2

static void emit(const char *user, struct rd_cur *c, size_t n)
{
    MPI_Aint d = (MPI_Aint)(user - c->anchor);
    if (c->pl && c->pd + (MPI_Aint)c->pl == d) {
        c->pl += n;
        return;
    }
    if (c->pl && !c->rc)
        c->rc = c->fn(c->arg, c->pd, c->pl);
    c->pd = d;
    c->pl = n;
}

static inline void mv(char *user, struct rd_cur *c, size_t n)
{
    if (__builtin_expect(c->unpack == RD_CUR_RUNS, 0))
        emit(user, c, n);
    else if (c->unpack)
        memcpy(user, c->p, n);
    else
        memcpy(c->p, user, n);
    c->p += n;
}

/* m runs of w bytes, stride apart from b: fixed-size copies for the small
 * widths (the compiler turns them into loads and stores, no call) */
#define RD_RUNS(w)                                                                     \
    do {                                                                               \
        if (c->unpack)                                                                 \
            for (size_t i_ = 0; i_ < m; i_++, b += stride, p += (w))                   \
                memcpy(b, p, (w));                                                     \
        else                                                                           \
            for (size_t i_ = 0; i_ < m; i_++, b += stride, p += (w))                   \
                memcpy(p, b, (w));                                                     \
    } while (0)

static void runs(char *b, MPI_Aint stride, size_t w, size_t m, struct rd_cur *c)
{
    if (__builtin_expect(c->unpack == RD_CUR_RUNS, 0)) {
        for (size_t i = 0; i < m; i++, b += stride)
            emit(b, c, w);
        return;
    }
    char *p = c->p;
    switch (w) {
    case 1: RD_RUNS(1); break;
    case 2: RD_RUNS(2); break;
    case 4: RD_RUNS(4); break;
    case 8: RD_RUNS(8); break;
    case 12: RD_RUNS(12); break;
    case 16: RD_RUNS(16); break;
    case 24: RD_RUNS(24); break;
    case 32: RD_RUNS(32); break;
    default: RD_RUNS(w); break;
    }
    c->p = p;
}

static void walk(const struct rd_dt_node *d, char *base, size_t skip, struct rd_cur *c, size_t len);

/* bytes [skip, skip + len) of a row of runs of w bytes, stride apart from b */
static void row(char *b, MPI_Aint stride, size_t w, size_t skip, struct rd_cur *c, size_t len)
{
    b += (MPI_Aint)(skip / w) * stride;
    size_t r = skip % w;
    if (r) {
        size_t n = w - r < len ? w - r : len;
        mv(b + r, c, n);
        len -= n;
        b += stride;
    }
    size_t m = len / w;
    runs(b, stride, w, m, c);
    b += (MPI_Aint)m * stride;
    len -= m * w;
    if (len)
        mv(b, c, len);
}

static void seg(const struct rd_dt_node *k, MPI_Aint cext, char *b, size_t skip, struct rd_cur *c,
                size_t len)
{
    if (k->flat) {
        if ((MPI_Aint)k->size == cext)
            mv(b + k->off + skip, c, len);
        else
            row(b + k->off, cext, k->size, skip, c, len);
        return;
    }
    size_t cs = k->size, r = skip % cs;
    b += (MPI_Aint)(skip / cs) * cext;
    while (len) {
        size_t n = cs - r < len ? cs - r : len;
        walk(k, b, r, c, n);
        len -= n;
        r = 0;
        b += cext;
    }
}

/* the block of an IDX node holding packed offset skip */
static size_t find_blk(const struct rd_dt_node *d, size_t skip)
{
    size_t lo = 0, hi = d->nblk - 1;
    while (lo < hi) {
        size_t mid = lo + (hi - lo + 1) / 2;
        if (d->blk[mid].pre <= skip)
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo;
}

static void walk(const struct rd_dt_node *d, char *base, size_t skip, struct rd_cur *c, size_t len)
{
    if (d->flat) {
        mv(base + d->off + skip, c, len);
        return;
    }
    if (d->kind == RD_DN_VEC) {
        size_t bs = d->bsize, r = skip % bs;
        char *b = base + (MPI_Aint)(skip / bs) * d->stride;
        if (d->bflat) {
            row(b + d->child->off, d->stride, bs, r, c, len);
            return;
        }
        while (len) {
            size_t n = bs - r < len ? bs - r : len;
            seg(d->child, d->cext, b, r, c, n);
            len -= n;
            r = 0;
            b += d->stride;
        }
        return;
    }
    /* RD_DN_IDX */
    size_t k = find_blk(d, skip), r = skip - d->blk[k].pre;
    while (len) {
        const struct rd_dt_blk *bl = &d->blk[k++];
        size_t bs = bl->blen * bl->child->size;
        size_t n = bs - r < len ? bs - r : len;
        seg(bl->child, bl->cext, base + bl->disp, r, c, n);
        len -= n;
        r = 0;
    }
}

void rd_dt_pack(const void *buf, MPI_Datatype dt, size_t off, void *out, size_t len)
{
    if (len == 0)
        return;
    if (dt->contig) {
        memcpy(out, (const char *)buf + dt->true_lb + off, len);
        return;
    }
    struct rd_cur c = {.p = out, .unpack = 0};
    seg(dt->dn, dt->extent, (char *)buf, off, &c, len);
}

void rd_dt_unpack(void *buf, MPI_Datatype dt, size_t off, const void *in, size_t len)
{
    if (len == 0)
        return;
    if (dt->contig) {
        memcpy((char *)buf + dt->true_lb + off, in, len);
        return;
    }
    struct rd_cur c = {.p = (char *)in, .unpack = 1};
    seg(dt->dn, dt->extent, buf, off, &c, len);
}

/* ------------------------------------------------------------ views
 *
 * rd_dt_segments_range: the pack seek with the copies replaced by emit().
 * rd_dt_bytes_below: the inverse seek on a monotone tree: at each level
 * the block (VEC: a division by the stride; IDX: a binary search on the
 * blocks' data starts) that holds x, every block before it wholly below. */

int rd_dt_segments_range(MPI_Datatype dt, size_t off, size_t len, int (*fn)(void *, MPI_Aint, size_t),
                         void *arg)
{
    if (len == 0)
        return 0;
    if (dt->contig)
        return fn(arg, dt->true_lb + (MPI_Aint)off, len);
    static char anchor[1];
    struct rd_cur c = {.unpack = RD_CUR_RUNS, .anchor = anchor, .fn = fn, .arg = arg};
    seg(dt->dn, dt->extent, anchor, off, &c, len);
    if (c.pl && !c.rc)
        c.rc = fn(arg, c.pd, c.pl);
    return c.rc;
}

static MPI_Aint node_lo(const struct rd_dt_node *k)
{
    return k->flat ? k->off : k->dlo;
}

static MPI_Aint node_hi(const struct rd_dt_node *k)
{
    return k->flat ? k->off + (MPI_Aint)k->size : k->dhi;
}

/* floor(a / b), b > 0 */
static MPI_Aint floor_div(MPI_Aint a, MPI_Aint b)
{
    MPI_Aint q = a / b;
    return (a % b != 0 && a < 0) ? q - 1 : q;
}

static size_t node_below(const struct rd_dt_node *d, MPI_Aint x);

/* n copies of k, cext apart: packed bytes below x */
static size_t copies_below(const struct rd_dt_node *k, MPI_Aint cext, size_t n, MPI_Aint x)
{
    MPI_Aint j = 0;
    if (n > 1 && cext > 0) {
        j = floor_div(x - node_lo(k), cext);
        if (j < 0)
            return 0;
        if ((size_t)j >= n)
            j = (MPI_Aint)n - 1;
    }
    return (size_t)j * k->size + node_below(k, x - j * cext);
}

static size_t node_below(const struct rd_dt_node *d, MPI_Aint x)
{
    if (x <= node_lo(d))
        return 0;
    if (x >= node_hi(d))
        return d->size;
    if (d->flat)
        return (size_t)(x - d->off);
    if (d->kind == RD_DN_VEC) {
        MPI_Aint i = 0;
        if (d->count > 1 && d->stride > 0) {
            i = floor_div(x - node_lo(d->child), d->stride);
            if (i < 0)
                return 0;
            if ((size_t)i >= d->count)
                i = (MPI_Aint)d->count - 1;
        }
        return (size_t)i * d->bsize + copies_below(d->child, d->cext, d->blen, x - i * d->stride);
    }
    /* RD_DN_IDX: the last block whose data starts at or below x */
    size_t lo = 0, hi = d->nblk;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (d->blk[mid].disp + node_lo(d->blk[mid].child) <= x)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == 0)
        return 0;
    const struct rd_dt_blk *b = &d->blk[lo - 1];
    return b->pre + copies_below(b->child, b->cext, b->blen, x - b->disp);
}

size_t rd_dt_bytes_below(MPI_Datatype dt, MPI_Aint x)
{
    if (dt->size == 0)
        return 0;
    if (dt->contig) {
        MPI_Aint r = x - dt->true_lb;
        return r <= 0 ? 0 : (size_t)r >= dt->size ? dt->size : (size_t)r;
    }
    return node_below(dt->dn, x);
}

/* n copies of k, cext apart, are monotone: k is, and each copy starts at
 * or after the end of the one before; *lo, *hi: where their data lies */
static int copies_monotone(const struct rd_dt_node *k, MPI_Aint cext, size_t n, MPI_Aint *lo, MPI_Aint *hi);

static int node_monotone(const struct rd_dt_node *d)
{
    if (d->flat)
        return 1;
    MPI_Aint lo, hi;
    if (d->kind == RD_DN_VEC) {
        if (!copies_monotone(d->child, d->cext, d->blen, &lo, &hi))
            return 0;
        return d->count == 1 || (d->stride > 0 && d->stride >= hi - lo);
    }
    MPI_Aint end = 0;
    for (size_t k = 0; k < d->nblk; k++) {
        const struct rd_dt_blk *b = &d->blk[k];
        if (!copies_monotone(b->child, b->cext, b->blen, &lo, &hi))
            return 0;
        if (k > 0 && b->disp + lo < end)
            return 0;
        end = b->disp + hi;
    }
    return 1;
}

static int copies_monotone(const struct rd_dt_node *k, MPI_Aint cext, size_t n, MPI_Aint *lo, MPI_Aint *hi)
{
    MPI_Aint l = node_lo(k), h = node_hi(k);
    if (!node_monotone(k))
        return 0;
    if (n > 1 && (cext <= 0 || cext < h - l))
        return 0;
    *lo = l;
    *hi = h + (n > 1 ? (MPI_Aint)(n - 1) * cext : 0);
    return 1;
}

int rd_dt_monotone(MPI_Datatype dt)
{
    return dt->size == 0 || dt->contig || node_monotone(dt->dn);
}

/* ------------------------------------------------------------ elements */

static MPI_Count seg_elems(const struct rd_dt_node *k, size_t bytes);

/* basic elements in the first bytes (< d->size) of an instance of d; -1
 * when the cut falls inside one */
static MPI_Count node_elems(const struct rd_dt_node *d, size_t bytes)
{
    switch (d->kind) {
    case RD_DN_LEAF: {
        size_t bs = d->basic->size;
        return bytes % bs ? -1 : (MPI_Count)(bytes / bs);
    }
    case RD_DN_VEC: {
        MPI_Count n = (MPI_Count)(bytes / d->bsize) * (MPI_Count)d->blen * d->child->elems;
        MPI_Count e = seg_elems(d->child, bytes % d->bsize);
        return e < 0 ? -1 : n + e;
    }
    default: {
        size_t k = find_blk(d, bytes);
        MPI_Count e = seg_elems(d->blk[k].child, bytes - d->blk[k].pre);
        return e < 0 ? -1 : d->blk[k].epre + e;
    }
    }
}

static MPI_Count seg_elems(const struct rd_dt_node *k, size_t bytes)
{
    if (bytes == 0)
        return 0;
    MPI_Count n = (MPI_Count)(bytes / k->size) * k->elems;
    if (bytes % k->size == 0)
        return n;
    MPI_Count e = node_elems(k, bytes % k->size);
    return e < 0 ? -1 : n + e;
}

MPI_Count rd_dt_elements(MPI_Datatype dt, MPI_Count bytes)
{
    if (dt->size == 0)
        return 0;
    return seg_elems(dt->dn, (size_t)bytes);
}

/* the block of an IDX node holding basic element e */
static size_t find_blk_e(const struct rd_dt_node *d, MPI_Count e)
{
    size_t lo = 0, hi = d->nblk - 1;
    while (lo < hi) {
        size_t mid = lo + (hi - lo + 1) / 2;
        if (d->blk[mid].epre <= e)
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo;
}

static size_t seg_bytes(const struct rd_dt_node *k, MPI_Count e);

/* packed bytes of the first e (< d->elems) basic elements of d */
static size_t node_bytes(const struct rd_dt_node *d, MPI_Count e)
{
    switch (d->kind) {
    case RD_DN_LEAF:
        return (size_t)e * d->basic->size;
    case RD_DN_VEC: {
        MPI_Count be = (MPI_Count)d->blen * d->child->elems;
        return (size_t)(e / be) * d->bsize + seg_bytes(d->child, e % be);
    }
    default: {
        size_t k = find_blk_e(d, e);
        return d->blk[k].pre + seg_bytes(d->blk[k].child, e - d->blk[k].epre);
    }
    }
}

static size_t seg_bytes(const struct rd_dt_node *k, MPI_Count e)
{
    if (e == 0)
        return 0;
    size_t n = (size_t)(e / k->elems) * k->size;
    return e % k->elems ? n + node_bytes(k, e % k->elems) : n;
}

MPI_Count rd_dt_elements_bytes(MPI_Datatype dt, MPI_Count elements)
{
    if (dt->elements == 0)
        return 0;
    return (MPI_Count)seg_bytes(dt->dn, elements);
}

/* ------------------------------------------------------------ iteration */

struct rd_iter {
    MPI_Datatype atom; /* runs: the atom; segments: NULL */
    int (*fn)(void *, MPI_Aint, size_t);
    void *arg;
    int (*leaf)(void *, MPI_Aint, MPI_Datatype, size_t); /* leaves */
};

static int it_node(const struct rd_dt_node *d, MPI_Aint base, const struct rd_iter *it);

/* n copies of k, cext apart from base */
static int it_copies(const struct rd_dt_node *k, MPI_Aint cext, MPI_Aint base, size_t n,
                     const struct rd_iter *it)
{
    int rc;
    if (n == 0 || k->size == 0)
        return 0;
    if (it->leaf) {
        if (k->kind == RD_DN_LEAF && cext == (MPI_Aint)k->size)
            return it->leaf(it->arg, base, k->basic, n * (k->size / k->basic->size));
    } else if (it->atom) {
        if (k == &it->atom->node && cext == it->atom->extent)
            return it->fn(it->arg, base, n);
    } else if (k->flat && cext == (MPI_Aint)k->size) {
        return it->fn(it->arg, base + k->off, n * k->size);
    }
    for (size_t j = 0; j < n; j++, base += cext)
        if ((rc = it_node(k, base, it)) != 0)
            return rc;
    return 0;
}

static int it_node(const struct rd_dt_node *d, MPI_Aint base, const struct rd_iter *it)
{
    int rc;
    if (it->leaf) {
        if (d->kind == RD_DN_LEAF)
            return it->leaf(it->arg, base, d->basic, d->size / d->basic->size);
    } else if (it->atom) {
        MPI_Datatype a = it->atom;
        if (d == &a->node)
            return it->fn(it->arg, base, 1);
        if (d->kind == RD_DN_LEAF)
            /* a run of basic elements: atoms back to back */
            return it->fn(it->arg, base, d->size / a->size);
    } else if (d->flat) {
        return it->fn(it->arg, base + d->off, d->size);
    }
    if (d->kind == RD_DN_VEC) {
        for (size_t i = 0; i < d->count; i++, base += d->stride)
            if ((rc = it_copies(d->child, d->cext, base, d->blen, it)) != 0)
                return rc;
        return 0;
    }
    for (size_t k = 0; k < d->nblk; k++)
        if ((rc = it_copies(d->blk[k].child, d->blk[k].cext, base + d->blk[k].disp, d->blk[k].blen, it)) != 0)
            return rc;
    return 0;
}

int rd_dt_runs(MPI_Datatype dt, size_t count, int (*fn)(void *, MPI_Aint, size_t), void *arg)
{
    struct rd_iter it = {dt->optype, fn, arg, NULL};
    if (!it.atom)
        return -1;
    return it_copies(dt->dn, dt->extent, 0, count, &it);
}

int rd_dt_segments(MPI_Datatype dt, size_t count, int (*fn)(void *, MPI_Aint, size_t), void *arg)
{
    struct rd_iter it = {NULL, fn, arg, NULL};
    if (dt->contig)
        return count && dt->size ? fn(arg, dt->true_lb, count * dt->size) : 0;
    return it_copies(dt->dn, dt->extent, 0, count, &it);
}

int rd_dt_leaves(MPI_Datatype dt, size_t count, int (*fn)(void *, MPI_Aint, MPI_Datatype, size_t), void *arg)
{
    struct rd_iter it = {NULL, NULL, arg, fn};
    return it_copies(dt->dn, dt->extent, 0, count, &it);
}

/* ------------------------------------------------------------ construction */

static MPI_Datatype new_type(void)
{
    struct rd_datatype_s *t = calloc(1, sizeof(*t));
    if (!t)
        return NULL;
    t->magic = RD_DT_MAGIC;
    atomic_init(&t->refs, 1);
    return t;
}

static int add_dep(MPI_Datatype t, MPI_Datatype d)
{
    if (d->predefined)
        return 0;
    if (t->ndeps && t->deps[t->ndeps - 1] == d)
        return 0;
    if ((t->ndeps & (t->ndeps - 1)) == 0) { /* 0, 1, 2, 4, ...: grow */
        MPI_Datatype *n = realloc(t->deps, sizeof(*n) * (t->ndeps ? 2 * t->ndeps : 1));
        if (!n)
            return -1;
        t->deps = n;
    }
    t->deps[t->ndeps++] = d;
    rd_dt_retain(d);
    return 0;
}

/* The bounds of a type as its pieces are added: copies of old whose
 * origins span [lo, hi]. ovf: one of them does not fit in an MPI_Aint. */
struct rd_bounds {
    int any, tany, ovf;
    MPI_Aint lb, ub, tlb, tub;
};

static void bounds_add(struct rd_bounds *b, MPI_Aint lo, MPI_Aint hi, MPI_Datatype old)
{
    /* each copy has its lb marker at origin + lb and its ub marker at
     * origin + lb + extent, also when a resized type's extent is negative
     * (the ub marker below the lb marker: the extent of the whole may then
     * be negative or zero, as MPI's ub - lb) */
    MPI_Aint l, u;
    if (__builtin_add_overflow(lo, old->lb, &l) || __builtin_add_overflow(hi, old->lb, &u) ||
        __builtin_add_overflow(u, old->extent, &u)) {
        b->ovf = 1;
        return;
    }
    if (!b->any || l < b->lb)
        b->lb = l;
    if (!b->any || u > b->ub)
        b->ub = u;
    b->any = 1;
    if (old->size == 0)
        return;
    if (__builtin_add_overflow(lo, old->true_lb, &l) || __builtin_add_overflow(hi, old->true_lb, &u) ||
        __builtin_add_overflow(u, old->true_extent, &u)) {
        b->ovf = 1;
        return;
    }
    if (!b->tany || l < b->tlb)
        b->tlb = l;
    if (!b->tany || u > b->tub)
        b->tub = u;
    b->tany = 1;
}

/* the common part of two types' basic / op type */
static MPI_Datatype common(MPI_Datatype a, MPI_Datatype b, int first)
{
    return first ? b : a == b ? a : NULL;
}

/* -1 when the extent or the true extent does not fit in an MPI_Aint */
static int set_bounds(MPI_Datatype t, const struct rd_bounds *b)
{
    t->lb = b->any ? b->lb : 0;
    t->extent = 0;
    t->true_lb = b->tany ? b->tlb : 0;
    t->true_extent = 0;
    if (b->ovf || (b->any && __builtin_sub_overflow(b->ub, b->lb, &t->extent)) ||
        (b->tany && __builtin_sub_overflow(b->tub, b->tlb, &t->true_extent)))
        return -1;
    return 0;
}

static void set_contig(MPI_Datatype t)
{
    t->contig = t->size == 0 || (t->dn->flat && t->extent == (MPI_Aint)t->size);
}

static MPI_Datatype fail(MPI_Datatype t, int *err, int cls)
{
    *err = cls;
    if (t)
        rd_dt_free(t);
    return NULL;
}

/* origins of i * step for i in [0, n): their min and max offsets; -1
 * when the last one does not fit in an MPI_Aint */
static int span(size_t n, MPI_Aint step, MPI_Aint *lo, MPI_Aint *hi)
{
    MPI_Aint s = 0;
    if (n > 1 && (n - 1 > (size_t)INTPTR_MAX || __builtin_mul_overflow((MPI_Aint)(n - 1), step, &s)))
        return -1;
    *lo = s < 0 ? s : 0;
    *hi = s > 0 ? s : 0;
    return 0;
}

static const struct rd_dt_node rd_empty_node = {.kind = RD_DN_IDX, .flat = 1};

MPI_Datatype rd_dt_make_vector(size_t count, size_t blen, MPI_Aint stride, MPI_Datatype old, int *err)
{
    MPI_Datatype t = new_type();
    size_t nb, size;
    if (!t || add_dep(t, old))
        return fail(t, err, MPI_ERR_NO_MEM);
    if (__builtin_mul_overflow(count, blen, &nb) || __builtin_mul_overflow(nb, old->size, &size) ||
        size > (size_t)INTPTR_MAX)
        return fail(t, err, MPI_ERR_COUNT);
    t->size = size;
    t->elements = (MPI_Count)nb * old->elements;
    t->basic = old->basic;
    t->optype = old->optype;
    t->align = old->align;
    t->sticky = old->sticky;
    struct rd_bounds b = {0};
    if (nb) {
        MPI_Aint lo1, hi1, lo2, hi2;
        if (span(count, stride, &lo1, &hi1) || span(blen, old->extent, &lo2, &hi2) ||
            __builtin_add_overflow(lo1, lo2, &lo1) || __builtin_add_overflow(hi1, hi2, &hi1))
            return fail(t, err, MPI_ERR_COUNT);
        bounds_add(&b, lo1, hi1, old);
    }
    if (set_bounds(t, &b))
        return fail(t, err, MPI_ERR_COUNT);

    const struct rd_dt_node *k = old->dn;
    if (size == 0) {
        t->dn = &rd_empty_node;
    } else {
        struct rd_dt_node *d = calloc(1, sizeof(*d));
        if (!d)
            return fail(t, err, MPI_ERR_NO_MEM);
        t->own = d;
        t->dn = d;
        d->size = size;
        d->elems = t->elements;
        int bflat = k->flat && (blen == 1 || old->extent == (MPI_Aint)k->size);
        if (bflat && (count == 1 || stride == (MPI_Aint)(blen * k->size))) {
            /* one run: count * blen copies back to back */
            d->flat = 1;
            d->off = k->off;
            if (k->kind == RD_DN_LEAF) {
                d->kind = RD_DN_LEAF;
                d->basic = k->basic;
                set_contig(t);
                return t;
            }
        }
        d->kind = RD_DN_VEC;
        d->dlo = t->true_lb;
        d->dhi = t->true_lb + t->true_extent;
        d->count = count;
        d->blen = blen;
        d->stride = stride;
        d->cext = old->extent;
        d->bsize = blen * k->size;
        d->bflat = bflat;
        d->child = k;
    }
    set_contig(t);
    return t;
}

MPI_Datatype rd_dt_make_blocks(size_t n, const size_t *blen, const MPI_Aint *disp,
                               const MPI_Datatype *olds, int one_type, int is_struct, int *err)
{
    MPI_Datatype t = new_type();
    struct rd_bounds b = {0};
    size_t nblk = 0, size = 0;
    int first = 1, sticky = 0;
    if (!t)
        return fail(t, err, MPI_ERR_NO_MEM);
    /* the metadata, and how many data blocks there are */
    for (size_t i = 0; i < n; i++) {
        MPI_Datatype old = olds[one_type ? 0 : i];
        size_t bytes;
        if (add_dep(t, old))
            return fail(t, err, MPI_ERR_NO_MEM);
        if (blen[i] == 0)
            continue;
        sticky |= old->sticky;
        if (__builtin_mul_overflow(blen[i], old->size, &bytes) || __builtin_add_overflow(size, bytes, &size) ||
            size > (size_t)INTPTR_MAX)
            return fail(t, err, MPI_ERR_COUNT);
        t->elements += (MPI_Count)blen[i] * old->elements;
        t->basic = common(t->basic, old->basic, first);
        t->optype = common(t->optype, old->optype, first);
        if (old->align > t->align)
            t->align = old->align;
        first = 0;
        MPI_Aint lo, hi;
        if (span(blen[i], old->extent, &lo, &hi) || __builtin_add_overflow(disp[i], lo, &lo) ||
            __builtin_add_overflow(disp[i], hi, &hi))
            return fail(t, err, MPI_ERR_COUNT);
        bounds_add(&b, lo, hi, old);
        if (old->size)
            nblk++;
    }
    t->size = size;
    t->sticky = sticky;
    if (is_struct && !sticky && t->align > 1 && b.any) {
        /* epsilon: the extent rounded up to the largest alignment */
        MPI_Aint ext, a = (MPI_Aint)t->align;
        if (!b.ovf && !__builtin_sub_overflow(b.ub, b.lb, &ext) && ext % a &&
            __builtin_add_overflow(b.ub, a - ext % a, &b.ub))
            b.ovf = 1;
    }
    if (set_bounds(t, &b))
        return fail(t, err, MPI_ERR_COUNT);
    if (size == 0) {
        t->dn = &rd_empty_node;
        set_contig(t);
        return t;
    }
    struct rd_dt_node *d = calloc(1, sizeof(*d));
    struct rd_dt_blk *bl = d ? malloc(sizeof(*bl) * nblk) : NULL;
    if (!bl) {
        free(d);
        return fail(t, err, MPI_ERR_NO_MEM);
    }
    t->own = d;
    t->dn = d;
    d->kind = RD_DN_IDX;
    d->size = size;
    d->elems = t->elements;
    d->dlo = t->true_lb;
    d->dhi = t->true_lb + t->true_extent;
    d->blk = bl;
    /* the data blocks, adjacent copies of the same node merged */
    size_t m = 0, pre = 0;
    MPI_Count epre = 0;
    for (size_t i = 0; i < n; i++) {
        MPI_Datatype old = olds[one_type ? 0 : i];
        if (blen[i] == 0 || old->size == 0)
            continue;
        MPI_Aint next; /* where the previous block's copies would go on */
        if (m && bl[m - 1].child == old->dn && bl[m - 1].cext == old->extent &&
            !__builtin_mul_overflow((MPI_Aint)bl[m - 1].blen, bl[m - 1].cext, &next) &&
            !__builtin_add_overflow(next, bl[m - 1].disp, &next) && next == disp[i]) {
            bl[m - 1].blen += blen[i];
        } else {
            bl[m] = (struct rd_dt_blk){.disp = disp[i], .blen = blen[i], .cext = old->extent, .pre = pre,
                                       .epre = epre, .child = old->dn};
            m++;
        }
        pre += blen[i] * old->size;
        epre += (MPI_Count)blen[i] * old->elements;
    }
    d->nblk = m;
    /* flat: every block one run, each starting where the previous ended */
    d->flat = 1;
    d->off = bl[0].disp + bl[0].child->off;
    MPI_Aint end = d->off;
    for (size_t k = 0; k < m && d->flat; k++) {
        const struct rd_dt_node *c = bl[k].child;
        if (!c->flat || (bl[k].blen > 1 && bl[k].cext != (MPI_Aint)c->size) || bl[k].disp + c->off != end)
            d->flat = 0;
        else /* a run of data: within the true bounds */
            end = bl[k].disp + c->off + (MPI_Aint)(bl[k].blen * c->size);
    }
    set_contig(t);
    return t;
}

MPI_Datatype rd_dt_make_resized(MPI_Datatype old, MPI_Aint lb, MPI_Aint extent, int *err)
{
    MPI_Datatype t = rd_dt_make_copy(old, err);
    if (!t)
        return NULL;
    t->lb = lb;
    t->extent = extent;
    t->sticky = 1;
    set_contig(t);
    return t;
}

MPI_Datatype rd_dt_make_copy(MPI_Datatype old, int *err)
{
    MPI_Datatype t = new_type();
    if (!t || add_dep(t, old))
        return fail(t, err, MPI_ERR_NO_MEM);
    t->size = old->size;
    t->lb = old->lb;
    t->extent = old->extent;
    t->true_lb = old->true_lb;
    t->true_extent = old->true_extent;
    t->contig = old->contig;
    t->elements = old->elements;
    t->basic = old->basic;
    t->optype = old->optype;
    t->align = old->align;
    t->sticky = old->sticky;
    t->dn = old->dn;
    return t;
}

/* a copy of the n items of size bytes at src: NULL for none (n 0) or
 * when out of memory */
static void *dup_array(const void *src, MPI_Count n, size_t size)
{
    void *p;
    if (n <= 0 || (uint64_t)n > SIZE_MAX / size || !(p = malloc((size_t)n * size)))
        return NULL;
    return memcpy(p, src, (size_t)n * size);
}

int rd_dt_set_contents(MPI_Datatype t, int combiner, MPI_Count ni, const int *ints, MPI_Count na,
                       const MPI_Aint *aints, MPI_Count nc, const MPI_Count *counts, MPI_Count nd,
                       const MPI_Datatype *types)
{
    t->combiner = combiner;
    /* (on failure, rd_dt_free frees what was made) */
    if ((ni > 0 && !(t->ints = dup_array(ints, ni, sizeof(int)))) ||
        (na > 0 && !(t->aints = dup_array(aints, na, sizeof(MPI_Aint)))) ||
        (nc > 0 && !(t->counts = dup_array(counts, nc, sizeof(MPI_Count)))) ||
        (nd > 0 && !(t->types = dup_array(types, nd, sizeof(MPI_Datatype)))))
        return MPI_ERR_NO_MEM;
    for (MPI_Count i = 0; i < nd; i++)
        rd_dt_retain(types[i]);
    t->ni = ni;
    t->na = na;
    t->nc = nc;
    t->nd = nd;
    return MPI_SUCCESS;
}

void rd_dt_free(MPI_Datatype dt)
{
    for (size_t i = 0; i < dt->ndeps; i++)
        rd_dt_release(dt->deps[i]);
    for (MPI_Count i = 0; i < dt->nd; i++)
        rd_dt_release(dt->types[i]);
    dt->magic = 0;
    if (dt->own)
        free(dt->own->blk);
    free(dt->own);
    free(dt->deps);
    free(dt->ints);
    free(dt->aints);
    free(dt->counts);
    free(dt->types);
    rd_fh_drop(RD_FH_DATATYPE, &dt->fidx);
    free(dt);
}

/* dtx32.c - the external32 data representation (MPI-3.1 13.5.2): sizes
 * and conversion of any datatype's basic elements, for MPI_Pack_external
 * (runtime/api/pack.c) and, later, the external32 files of runtime/io
 * (runtime/io/PLAN.md, 4.7). Moved here from runtime/api/pack.c. */
#include "runtime/objects/dtx32.h"

#include <float.h>
#include <stdint.h>
#include <string.h>

#include "runtime/objects/datatype.h"


enum { X_INT, X_UINT, X_FLOAT, X_LDOUBLE, X_COMPLEX, X_LDCOMPLEX, X_QUAD, X_QCOMPLEX };

/* Each basic type: how it converts and its size in external32 (MPI-3.1
 * 13.5.2, table 13.2). */
static const struct {
    MPI_Datatype dt;
    int kind;
    int esize;
} rd_x32[] = {
    {MPI_PACKED, X_UINT, 1}, {MPI_BYTE, X_UINT, 1}, {MPI_CHAR, X_INT, 1}, {MPI_UNSIGNED_CHAR, X_UINT, 1},
    {MPI_SIGNED_CHAR, X_INT, 1}, {MPI_WCHAR, X_UINT, 4}, {MPI_SHORT, X_INT, 2}, {MPI_UNSIGNED_SHORT, X_UINT, 2},
    {MPI_INT, X_INT, 4}, {MPI_UNSIGNED, X_UINT, 4}, {MPI_LONG, X_INT, 8}, {MPI_UNSIGNED_LONG, X_UINT, 8},
    {MPI_LONG_LONG_INT, X_INT, 8}, {MPI_LONG_LONG, X_INT, 8}, {MPI_UNSIGNED_LONG_LONG, X_UINT, 8},
    {MPI_FLOAT, X_FLOAT, 4}, {MPI_DOUBLE, X_FLOAT, 8}, {MPI_LONG_DOUBLE, X_LDOUBLE, 16},
    {MPI_C_BOOL, X_UINT, 1}, {MPI_CXX_BOOL, X_UINT, 1}, {MPI_INT8_T, X_INT, 1}, {MPI_INT16_T, X_INT, 2},
    {MPI_INT32_T, X_INT, 4}, {MPI_INT64_T, X_INT, 8}, {MPI_UINT8_T, X_UINT, 1}, {MPI_UINT16_T, X_UINT, 2},
    {MPI_UINT32_T, X_UINT, 4}, {MPI_UINT64_T, X_UINT, 8}, {MPI_AINT, X_INT, 8}, {MPI_OFFSET, X_INT, 8},
    {MPI_COUNT, X_INT, 8}, {MPI_C_COMPLEX, X_COMPLEX, 8}, {MPI_C_FLOAT_COMPLEX, X_COMPLEX, 8},
    {MPI_C_DOUBLE_COMPLEX, X_COMPLEX, 16}, {MPI_C_LONG_DOUBLE_COMPLEX, X_LDCOMPLEX, 32},
    {MPI_CXX_FLOAT_COMPLEX, X_COMPLEX, 8}, {MPI_CXX_DOUBLE_COMPLEX, X_COMPLEX, 16},
    {MPI_CXX_LONG_DOUBLE_COMPLEX, X_LDCOMPLEX, 32}, {MPI_CHARACTER, X_INT, 1}, {MPI_LOGICAL, X_INT, 4},
    {MPI_INTEGER, X_INT, 4}, {MPI_REAL, X_FLOAT, 4}, {MPI_DOUBLE_PRECISION, X_FLOAT, 8},
    {MPI_COMPLEX, X_COMPLEX, 8}, {MPI_DOUBLE_COMPLEX, X_COMPLEX, 16}, {MPI_INTEGER1, X_INT, 1},
    {MPI_INTEGER2, X_INT, 2}, {MPI_INTEGER4, X_INT, 4}, {MPI_INTEGER8, X_INT, 8}, {MPI_REAL4, X_FLOAT, 4},
    {MPI_REAL8, X_FLOAT, 8}, {MPI_COMPLEX8, X_COMPLEX, 8}, {MPI_COMPLEX16, X_COMPLEX, 16},
    {MPI_REAL16, X_QUAD, 16}, {MPI_COMPLEX32, X_QCOMPLEX, 32},
};

static int x32_index(MPI_Datatype basic)
{
    for (size_t i = 0; i < sizeof(rd_x32) / sizeof(rd_x32[0]); i++)
        if (rd_x32[i].dt == basic)
            return (int)i;
    return -1;
}

/* big-endian bytes <-> an unsigned value */
static void put_be(unsigned char *o, uint64_t v, int n)
{
    for (int i = n - 1; i >= 0; i--, v >>= 8)
        o[i] = (unsigned char)v;
}

static uint64_t get_be(const unsigned char *in, int n)
{
    uint64_t v = 0;
    for (int i = 0; i < n; i++)
        v = v << 8 | in[i];
    return v;
}

/* a native integer of n bytes <-> a 64-bit value (sign-extended if signed) */
static uint64_t get_native(const void *p, size_t n, int sign)
{
    switch (n) {
    case 1: { uint8_t v; memcpy(&v, p, 1); return sign ? (uint64_t)(int64_t)(int8_t)v : v; }
    case 2: { uint16_t v; memcpy(&v, p, 2); return sign ? (uint64_t)(int64_t)(int16_t)v : v; }
    case 4: { uint32_t v; memcpy(&v, p, 4); return sign ? (uint64_t)(int64_t)(int32_t)v : v; }
    default: { uint64_t v; memcpy(&v, p, 8); return v; }
    }
}

static void put_native(void *p, size_t n, uint64_t v)
{
    switch (n) {
    case 1: { uint8_t x = (uint8_t)v; memcpy(p, &x, 1); break; }
    case 2: { uint16_t x = (uint16_t)v; memcpy(p, &x, 2); break; }
    case 4: { uint32_t x = (uint32_t)v; memcpy(p, &x, 4); break; }
    default: memcpy(p, &v, 8); break;
    }
}

/* long double <-> IEEE binary128 (external32's 16-byte floating point) */
static void ld_to_quad(const void *p, unsigned char *o)
{
#if LDBL_MANT_DIG == 64 /* x87 extended: 64-bit significand with its integer bit, 15-bit exponent */
    unsigned char b[sizeof(long double)];
    memcpy(b, p, sizeof(b));
    uint64_t sig;
    memcpy(&sig, b, 8);
    uint16_t se = (uint16_t)(b[8] | b[9] << 8); /* sign and exponent */
    uint64_t frac = sig & 0x7fffffffffffffffULL; /* 63 bits: the quad's top 63 of 112 */
    uint64_t hi = (uint64_t)se << 48 | frac >> 15, lo = frac << 49;
    put_be(o, hi, 8);
    put_be(o + 8, lo, 8);
#elif LDBL_MANT_DIG == 113 /* already binary128 */
    uint64_t w[2];
    memcpy(w, p, 16);
    put_be(o, w[1], 8);
    put_be(o + 8, w[0], 8);
#else /* long double is double: widen */
    double d = (double)*(const long double *)p;
    uint64_t u;
    memcpy(&u, &d, 8);
    uint64_t sign = u >> 63, e = u >> 52 & 0x7ff, f = u & 0xfffffffffffffULL;
    uint64_t qe = e == 0 ? 0 : e == 0x7ff ? 0x7fff : e - 1023 + 16383;
    if (e == 0 && f) { /* a subnormal double is a normal quad */
        int s = 0;
        while (!(f & (1ULL << 52))) f <<= 1, s++;
        f &= 0xfffffffffffffULL;
        qe = 16383 - 1022 - s;
    }
    put_be(o, sign << 63 | qe << 48 | f >> 4, 8);
    put_be(o + 8, f << 60, 8);
#endif
}

static void quad_to_ld(const unsigned char *in, void *p)
{
    uint64_t hi = get_be(in, 8), lo = get_be(in + 8, 8);
#if LDBL_MANT_DIG == 64
    uint16_t se = (uint16_t)(hi >> 48);
    uint64_t frac = (hi & 0xffffffffffffULL) << 15 | lo >> 49;
    uint64_t sig = frac | ((se & 0x7fff) != 0 ? 1ULL << 63 : 0); /* the explicit integer bit */
    unsigned char b[sizeof(long double)];
    memset(b, 0, sizeof(b));
    memcpy(b, &sig, 8);
    b[8] = (unsigned char)se;
    b[9] = (unsigned char)(se >> 8);
    memcpy(p, b, sizeof(b));
#elif LDBL_MANT_DIG == 113
    uint64_t w[2] = {lo, hi};
    memcpy(p, w, 16);
#else
    uint64_t sign = hi >> 63, qe = hi >> 48 & 0x7fff, f = (hi & 0xffffffffffffULL) << 4 | lo >> 60;
    int64_t e = qe == 0 ? 0 : qe == 0x7fff ? 0x7ff : (int64_t)qe - 16383 + 1023;
    if (e >= 0x7ff && qe != 0x7fff) e = 0x7ff, f = 0; /* too large: infinity */
    if (e <= 0 && qe != 0) e = 0, f = 0;              /* too small: zero */
    uint64_t u = sign << 63 | (uint64_t)e << 52 | (f & 0xfffffffffffffULL);
    double d;
    memcpy(&d, &u, 8);
    *(long double *)p = d;
#endif
}

/* n elements of basic type b between native memory and external32 */
static void x32_conv(int x, MPI_Datatype b, char *user, unsigned char *ext, size_t n, int unpack)
{
    int kind = rd_x32[x].kind, es = rd_x32[x].esize;
    size_t ns = b->size;
    switch (kind) {
    case X_INT:
    case X_UINT:
        for (size_t i = 0; i < n; i++, user += ns, ext += es) {
            if (unpack) {
                uint64_t v = get_be(ext, es);
                if (kind == X_INT && es < 8 && (v >> (8 * es - 1) & 1))
                    v |= ~0ULL << (8 * es); /* sign-extend */
                put_native(user, ns, v);
            } else {
                put_be(ext, get_native(user, ns, kind == X_INT), es);
            }
        }
        break;
    case X_FLOAT:
    case X_COMPLEX: { /* IEEE single or double: the bytes reversed */
        size_t w = kind == X_COMPLEX ? ns / 2 : ns, m = kind == X_COMPLEX ? 2 * n : n;
        for (size_t i = 0; i < m; i++, user += w, ext += w)
            if (unpack)
                put_native(user, w, get_be(ext, (int)w));
            else
                put_be(ext, get_native(user, w, 0), (int)w);
        break;
    }
    case X_QUAD:
    case X_QCOMPLEX: { /* IEEE binary128 already (__float128): the 16 bytes reversed */
        size_t m = kind == X_QCOMPLEX ? 2 * n : n;
        for (size_t i = 0; i < m; i++, user += 16, ext += 16)
            for (int j = 0; j < 16; j++)
                if (unpack)
                    user[j] = (char)ext[15 - j];
                else
                    ext[15 - j] = (unsigned char)user[j];
        break;
    }
    case X_LDOUBLE:
    case X_LDCOMPLEX: {
        size_t m = kind == X_LDCOMPLEX ? 2 * n : n;
        for (size_t i = 0; i < m; i++, user += sizeof(long double), ext += 16)
            if (unpack)
                quad_to_ld(ext, user);
            else
                ld_to_quad(user, ext);
        break;
    }
    }
}

struct x32_walk {
    char *buf;
    unsigned char *ext;
    size_t esize; /* size: bytes counted */
    int unpack, sizing;
};

static int x32_leaf(void *arg, MPI_Aint disp, MPI_Datatype b, size_t n)
{
    struct x32_walk *w = arg;
    int x = x32_index(b);
    if (x < 0)
        return MPI_ERR_INTERN;
    if (!w->sizing) {
        x32_conv(x, b, w->buf + disp, w->ext, n, w->unpack);
        w->ext += n * (size_t)rd_x32[x].esize;
    }
    w->esize += n * (size_t)rd_x32[x].esize;
    return 0;
}

size_t rd_dtx32_size(MPI_Datatype dt)
{
    struct x32_walk w = {.sizing = 1};
    rd_dt_leaves(dt, 1, x32_leaf, &w);
    return w.esize;
}

int rd_dtx32_convert(MPI_Datatype dt, size_t count, void *buf, void *ext, int unpack)
{
    struct x32_walk w = {.buf = buf, .ext = ext, .unpack = unpack};
    return rd_dt_leaves(dt, count, x32_leaf, &w) != 0 ? MPI_ERR_INTERN : 0;
}

int rd_dtx32_basic_size(MPI_Datatype basic)
{
    int x = x32_index(basic);
    return x < 0 ? -1 : rd_x32[x].esize;
}

size_t rd_dtx32_ntypes(void)
{
    return sizeof(rd_x32) / sizeof(rd_x32[0]);
}

MPI_Datatype rd_dtx32_type(size_t i)
{
    return i < rd_dtx32_ntypes() ? rd_x32[i].dt : MPI_DATATYPE_NULL;
}

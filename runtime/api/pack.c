/* Packing: MPI_Pack, MPI_Unpack (the native packed form: the data bytes in
 * type-map order, as messages carry them), MPI_Pack_external,
 * MPI_Unpack_external, MPI_Pack_external_size ("external32": big-endian,
 * the standard's sizes, IEEE formats), and MPI_Status_set_elements(_x). */
#include <float.h>
#include <limits.h>
#include <mpi.h>
#include <stdint.h>
#include <string.h>

#include "runtime/api/check.h"

static int check_pack_type(const char *call, MPI_Comm comm, int count, MPI_Datatype dt)
{
    if (count < 0)
        return rd_err_raise(comm, MPI_ERR_COUNT, call, "count %d is negative", count);
    if (!rd_dt_valid(dt))
        return rd_err_raise(comm, MPI_ERR_TYPE, call, "invalid datatype");
    if (!dt->committed)
        return rd_err_raise(comm, MPI_ERR_TYPE, call, "datatype %s is not committed", dt->name);
    return MPI_SUCCESS;
}

#pragma weak MPI_Pack = PMPI_Pack
int PMPI_Pack(const void *inbuf, int incount, MPI_Datatype dt, void *outbuf, int outsize, int *position,
              MPI_Comm comm)
{
    const char *call = "MPI_Pack";
    RD_API_READY("MPI_Pack");
    RD_TRY(rd_check_comm(call, comm));
    RD_TRY(check_pack_type(call, comm, incount, dt));
    if (!position)
        return rd_err_raise(comm, MPI_ERR_ARG, call, "position is NULL");
    if (*position < 0 || outsize < 0 || *position > outsize)
        return rd_err_raise(comm, MPI_ERR_ARG, call, "position %d is not in [0, outsize %d]", *position, outsize);
    size_t bytes = (size_t)incount * dt->size;
    if (bytes > (size_t)(outsize - *position))
        return rd_err_raise(comm, MPI_ERR_TRUNCATE, call,
                            "%zu bytes do not fit in the %d bytes left of the output buffer", bytes,
                            outsize - *position);
    if (bytes && !outbuf)
        return rd_err_raise(comm, MPI_ERR_BUFFER, call, "outbuf is NULL");
    rd_dt_pack(inbuf, dt, 0, (char *)outbuf + *position, bytes);
    *position += (int)bytes;
    return MPI_SUCCESS;
}

#pragma weak MPI_Unpack = PMPI_Unpack
int PMPI_Unpack(const void *inbuf, int insize, int *position, void *outbuf, int outcount, MPI_Datatype dt,
                MPI_Comm comm)
{
    const char *call = "MPI_Unpack";
    RD_API_READY("MPI_Unpack");
    RD_TRY(rd_check_comm(call, comm));
    RD_TRY(check_pack_type(call, comm, outcount, dt));
    if (!position)
        return rd_err_raise(comm, MPI_ERR_ARG, call, "position is NULL");
    if (*position < 0 || insize < 0 || *position > insize)
        return rd_err_raise(comm, MPI_ERR_ARG, call, "position %d is not in [0, insize %d]", *position, insize);
    size_t bytes = (size_t)outcount * dt->size;
    if (bytes > (size_t)(insize - *position))
        return rd_err_raise(comm, MPI_ERR_TRUNCATE, call,
                            "%d elements need %zu bytes, only %d are left in the input buffer", outcount, bytes,
                            insize - *position);
    if (bytes && !inbuf)
        return rd_err_raise(comm, MPI_ERR_BUFFER, call, "inbuf is NULL");
    rd_dt_unpack(outbuf, dt, 0, (const char *)inbuf + *position, bytes);
    *position += (int)bytes;
    return MPI_SUCCESS;
}

/* ------------------------------------------------------------ external32 */

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

/* external32 bytes of one element of dt */
static size_t x32_size(MPI_Datatype dt)
{
    struct x32_walk w = {.sizing = 1};
    rd_dt_leaves(dt, 1, x32_leaf, &w);
    return w.esize;
}

static int check_datarep(const char *call, const char *datarep)
{
    if (!datarep || strcmp(datarep, "external32") != 0)
        return rd_err_raise(MPI_COMM_WORLD, MPI_ERR_ARG, call, "data representation '%s' is not \"external32\"",
                            datarep ? datarep : "(null)");
    return MPI_SUCCESS;
}

#pragma weak MPI_Pack_external_size = PMPI_Pack_external_size
int PMPI_Pack_external_size(const char datarep[], int incount, MPI_Datatype dt, MPI_Aint *size)
{
    const char *call = "MPI_Pack_external_size";
    RD_API_READY("MPI_Pack_external_size");
    RD_TRY(check_datarep(call, datarep));
    if (incount < 0)
        return rd_err_raise(MPI_COMM_WORLD, MPI_ERR_COUNT, call, "count %d is negative", incount);
    if (!rd_dt_valid(dt))
        return rd_err_raise(MPI_COMM_WORLD, MPI_ERR_TYPE, call, "invalid datatype");
    if (!size)
        return rd_err_raise(MPI_COMM_WORLD, MPI_ERR_ARG, call, "size is NULL");
    *size = (MPI_Aint)((size_t)incount * x32_size(dt));
    return MPI_SUCCESS;
}

static int external(const char *call, const char *datarep, char *buf, int count, MPI_Datatype dt,
                    unsigned char *ext, MPI_Aint extsize, MPI_Aint *position, int unpack)
{
    RD_TRY(check_datarep(call, datarep));
    RD_TRY(check_pack_type(call, MPI_COMM_WORLD, count, dt));
    if (!position)
        return rd_err_raise(MPI_COMM_WORLD, MPI_ERR_ARG, call, "position is NULL");
    if (*position < 0 || extsize < 0 || *position > extsize)
        return rd_err_raise(MPI_COMM_WORLD, MPI_ERR_ARG, call, "position %ld is not in [0, %ld]", (long)*position,
                            (long)extsize);
    size_t bytes = (size_t)count * x32_size(dt);
    if (bytes > (size_t)(extsize - *position))
        return rd_err_raise(MPI_COMM_WORLD, MPI_ERR_TRUNCATE, call, "%zu bytes %s, only %ld are left", bytes,
                            unpack ? "are needed" : "do not fit", (long)(extsize - *position));
    if (bytes && !ext)
        return rd_err_raise(MPI_COMM_WORLD, MPI_ERR_BUFFER, call, "the packed buffer is NULL");
    struct x32_walk w = {.buf = buf, .ext = ext + *position, .unpack = unpack};
    if (rd_dt_leaves(dt, (size_t)count, x32_leaf, &w) != 0)
        return rd_err_raise(MPI_COMM_WORLD, MPI_ERR_INTERN, call, "a basic type without an external32 form");
    *position += (MPI_Aint)bytes;
    return MPI_SUCCESS;
}

#pragma weak MPI_Pack_external = PMPI_Pack_external
int PMPI_Pack_external(const char datarep[], const void *inbuf, int incount, MPI_Datatype dt, void *outbuf,
                       MPI_Aint outsize, MPI_Aint *position)
{
    RD_API_READY("MPI_Pack_external");
    return external("MPI_Pack_external", datarep, (char *)inbuf, incount, dt, outbuf, outsize, position, 0);
}

#pragma weak MPI_Unpack_external = PMPI_Unpack_external
int PMPI_Unpack_external(const char datarep[], const void *inbuf, MPI_Aint insize, MPI_Aint *position,
                         void *outbuf, int outcount, MPI_Datatype dt)
{
    RD_API_READY("MPI_Unpack_external");
    return external("MPI_Unpack_external", datarep, outbuf, outcount, dt, (unsigned char *)inbuf, insize,
                    position, 1);
}

/* ------------------------------------------------------------ statuses */

static int set_elements(const char *call, MPI_Status *status, MPI_Datatype dt, MPI_Count count)
{
    if (!status)
        return rd_err_raise(MPI_COMM_WORLD, MPI_ERR_ARG, call, "status is NULL");
    if (count < 0)
        return rd_err_raise(MPI_COMM_WORLD, MPI_ERR_COUNT, call, "count %lld is negative", count);
    if (!rd_dt_valid(dt))
        return rd_err_raise(MPI_COMM_WORLD, MPI_ERR_TYPE, call, "invalid datatype");
    if (dt->elements == 0 && count > 0)
        return rd_err_raise(MPI_COMM_WORLD, MPI_ERR_ARG, call, "%s has no elements", dt->name);
    /* the bytes that hold count basic elements of dt */
    status->rd_bytes = rd_dt_elements_bytes(dt, count);
    return MPI_SUCCESS;
}

#pragma weak MPI_Status_set_elements_x = PMPI_Status_set_elements_x
int PMPI_Status_set_elements_x(MPI_Status *status, MPI_Datatype dt, MPI_Count count)
{
    return set_elements("MPI_Status_set_elements_x", status, dt, count);
}

#pragma weak MPI_Status_set_elements = PMPI_Status_set_elements
int PMPI_Status_set_elements(MPI_Status *status, MPI_Datatype dt, int count)
{
    return set_elements("MPI_Status_set_elements", status, dt, count);
}

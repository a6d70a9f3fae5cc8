/* op.c - reduction operations: the predefined ops on every type the
 * standard allows them on, user ops, and one entry point (rd_op_apply).
 *
 * Each kernel is a plain loop over a typed array, written so that the
 * compiler vectorises it (no aliasing between in and inout is assumed
 * except through restrict, no calls inside). */
#include "runtime/objects/op.h"

#include <limits.h>
#include <complex.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/objects/datatype.h"

#define RD_OP(var, c, commute_)                                                        \
    struct rd_op_s var = {.magic = RD_OP_MAGIC, .predefined = 1, .commute = commute_, .code = c};

RD_OP(rd_mpi_op_max, RD_OP_MAX, 1)
RD_OP(rd_mpi_op_min, RD_OP_MIN, 1)
RD_OP(rd_mpi_op_sum, RD_OP_SUM, 1)
RD_OP(rd_mpi_op_prod, RD_OP_PROD, 1)
RD_OP(rd_mpi_op_land, RD_OP_LAND, 1)
RD_OP(rd_mpi_op_band, RD_OP_BAND, 1)
RD_OP(rd_mpi_op_lor, RD_OP_LOR, 1)
RD_OP(rd_mpi_op_bor, RD_OP_BOR, 1)
RD_OP(rd_mpi_op_lxor, RD_OP_LXOR, 1)
RD_OP(rd_mpi_op_bxor, RD_OP_BXOR, 1)
RD_OP(rd_mpi_op_maxloc, RD_OP_MAXLOC, 1)
RD_OP(rd_mpi_op_minloc, RD_OP_MINLOC, 1)
RD_OP(rd_mpi_op_replace, RD_OP_REPLACE, 0)
RD_OP(rd_mpi_op_no_op, RD_OP_NO_OP, 0)

/* ------------------------------------------------------------ kernels */

#define K_LOOP(name, T, expr)                                                          \
    static void name(const void *restrict in_, void *restrict io_, size_t n)          \
    {                                                                                  \
        const T *restrict a = in_;                                                     \
        T *restrict b = io_;                                                           \
        for (size_t i = 0; i < n; i++)                                                 \
            b[i] = (expr);                                                             \
    }

/* the kernels of one integer type: every op of the C integer category */
#define K_INT(T, s)                                                                    \
    K_LOOP(max_##s, T, a[i] > b[i] ? a[i] : b[i])                                      \
    K_LOOP(min_##s, T, a[i] < b[i] ? a[i] : b[i])                                      \
    K_LOOP(sum_##s, T, (T)(a[i] + b[i]))                                               \
    K_LOOP(prod_##s, T, (T)(a[i] * b[i]))                                              \
    K_LOOP(land_##s, T, (T)((a[i] != 0) && (b[i] != 0)))                               \
    K_LOOP(lor_##s, T, (T)((a[i] != 0) || (b[i] != 0)))                                \
    K_LOOP(lxor_##s, T, (T)((a[i] != 0) != (b[i] != 0)))                               \
    K_LOOP(band_##s, T, (T)(a[i] & b[i]))                                              \
    K_LOOP(bor_##s, T, (T)(a[i] | b[i]))                                               \
    K_LOOP(bxor_##s, T, (T)(a[i] ^ b[i]))                                              \
    static const rd_kernel k_##s[RD_OP_NCODES] = {                                     \
        [RD_OP_MAX] = max_##s, [RD_OP_MIN] = min_##s, [RD_OP_SUM] = sum_##s,           \
        [RD_OP_PROD] = prod_##s, [RD_OP_LAND] = land_##s, [RD_OP_LOR] = lor_##s,       \
        [RD_OP_LXOR] = lxor_##s, [RD_OP_BAND] = band_##s, [RD_OP_BOR] = bor_##s,       \
        [RD_OP_BXOR] = bxor_##s};

#define K_FLOAT(T, s)                                                                  \
    K_LOOP(max_##s, T, a[i] > b[i] ? a[i] : b[i])                                      \
    K_LOOP(min_##s, T, a[i] < b[i] ? a[i] : b[i])                                      \
    K_LOOP(sum_##s, T, a[i] + b[i])                                                    \
    K_LOOP(prod_##s, T, a[i] * b[i])                                                   \
    static const rd_kernel k_##s[RD_OP_NCODES] = {                                     \
        [RD_OP_MAX] = max_##s, [RD_OP_MIN] = min_##s, [RD_OP_SUM] = sum_##s,           \
        [RD_OP_PROD] = prod_##s};

#define K_COMPLEX(T, s)                                                                \
    K_LOOP(sum_##s, T, a[i] + b[i])                                                    \
    K_LOOP(prod_##s, T, a[i] * b[i])                                                   \
    static const rd_kernel k_##s[RD_OP_NCODES] = {[RD_OP_SUM] = sum_##s,               \
                                                  [RD_OP_PROD] = prod_##s};

#define K_LOGICAL(T, s)                                                                \
    K_LOOP(land_##s, T, (T)((a[i] != 0) && (b[i] != 0)))                               \
    K_LOOP(lor_##s, T, (T)((a[i] != 0) || (b[i] != 0)))                                \
    K_LOOP(lxor_##s, T, (T)((a[i] != 0) != (b[i] != 0)))                               \
    static const rd_kernel k_##s[RD_OP_NCODES] = {                                     \
        [RD_OP_LAND] = land_##s, [RD_OP_LOR] = lor_##s, [RD_OP_LXOR] = lxor_##s};

#define K_BYTE(T, s)                                                                   \
    K_LOOP(band_##s, T, (T)(a[i] & b[i]))                                              \
    K_LOOP(bor_##s, T, (T)(a[i] | b[i]))                                               \
    K_LOOP(bxor_##s, T, (T)(a[i] ^ b[i]))                                              \
    static const rd_kernel k_##s[RD_OP_NCODES] = {                                     \
        [RD_OP_BAND] = band_##s, [RD_OP_BOR] = bor_##s, [RD_OP_BXOR] = bxor_##s};

/* MAXLOC / MINLOC on (value, index) pairs: on equal values, the lower index.
 * Field by field: a pair's padding (MPI_DOUBLE_INT's last 4 of 16 bytes)
 * may lie past the buffer (the last element of a scratch buffer sized by
 * the true extent, 12 bytes), and is never read or written. */
#define K_PAIR(V, I, s)                                                                \
    struct pair_##s { V v; I i; };                                                      \
    static void maxloc_##s(const void *in_, void *io_, size_t n)                       \
    {                                                                                  \
        const struct pair_##s *a = in_;                                                \
        struct pair_##s *b = io_;                                                      \
        for (size_t k = 0; k < n; k++) {                                               \
            if (a[k].v > b[k].v || (a[k].v == b[k].v && a[k].i < b[k].i))              \
                b[k].v = a[k].v, b[k].i = a[k].i;                                      \
        }                                                                              \
    }                                                                                  \
    static void minloc_##s(const void *in_, void *io_, size_t n)                       \
    {                                                                                  \
        const struct pair_##s *a = in_;                                                \
        struct pair_##s *b = io_;                                                      \
        for (size_t k = 0; k < n; k++) {                                               \
            if (a[k].v < b[k].v || (a[k].v == b[k].v && a[k].i < b[k].i))              \
                b[k].v = a[k].v, b[k].i = a[k].i;                                      \
        }                                                                              \
    }                                                                                  \
    static const rd_kernel k_##s[RD_OP_NCODES] = {[RD_OP_MAXLOC] = maxloc_##s,         \
                                                  [RD_OP_MINLOC] = minloc_##s};


K_INT(signed char, schar)
K_INT(unsigned char, uchar)
K_INT(short, short)
K_INT(unsigned short, ushort)
K_INT(int, int)
K_INT(unsigned, uint)
K_INT(long, long)
K_INT(unsigned long, ulong)
K_INT(long long, llong)
K_INT(unsigned long long, ullong)
K_INT(int8_t, i8)
K_INT(int16_t, i16)
K_INT(int32_t, i32)
K_INT(int64_t, i64)
K_INT(uint8_t, u8)
K_INT(uint16_t, u16)
K_INT(uint32_t, u32)
K_INT(uint64_t, u64)
K_INT(MPI_Aint, aint)
K_FLOAT(float, float)
K_FLOAT(double, double)
K_FLOAT(long double, ldouble)
K_COMPLEX(float _Complex, fcomplex)
K_COMPLEX(double _Complex, dcomplex)
K_COMPLEX(long double _Complex, ldcomplex)
K_FLOAT(__float128, f128)
K_COMPLEX(rd_complex128, c128)
K_LOGICAL(_Bool, bool)
K_BYTE(unsigned char, byte)
K_PAIR(float, int, float_int)
K_PAIR(double, int, double_int)
K_PAIR(long, int, long_int)
K_PAIR(int, int, 2int)
K_PAIR(short, int, short_int)
K_PAIR(long double, int, long_double_int)
K_PAIR(int32_t, int32_t, 2integer)
K_PAIR(float, float, 2real)
K_PAIR(double, double, 2double)

/* Fortran INTEGER is a Fortran integer: MAX..BXOR but not the logical ops */
static const rd_kernel k_fint32[RD_OP_NCODES] = {
    [RD_OP_MAX] = max_i32, [RD_OP_MIN] = min_i32, [RD_OP_SUM] = sum_i32, [RD_OP_PROD] = prod_i32,
    [RD_OP_BAND] = band_i32, [RD_OP_BOR] = bor_i32, [RD_OP_BXOR] = bxor_i32};
static const rd_kernel k_fint8[RD_OP_NCODES] = {
    [RD_OP_MAX] = max_i8, [RD_OP_MIN] = min_i8, [RD_OP_SUM] = sum_i8, [RD_OP_PROD] = prod_i8,
    [RD_OP_BAND] = band_i8, [RD_OP_BOR] = bor_i8, [RD_OP_BXOR] = bxor_i8};
static const rd_kernel k_fint16[RD_OP_NCODES] = {
    [RD_OP_MAX] = max_i16, [RD_OP_MIN] = min_i16, [RD_OP_SUM] = sum_i16, [RD_OP_PROD] = prod_i16,
    [RD_OP_BAND] = band_i16, [RD_OP_BOR] = bor_i16, [RD_OP_BXOR] = bxor_i16};
static const rd_kernel k_fint64[RD_OP_NCODES] = {
    [RD_OP_MAX] = max_i64, [RD_OP_MIN] = min_i64, [RD_OP_SUM] = sum_i64, [RD_OP_PROD] = prod_i64,
    [RD_OP_BAND] = band_i64, [RD_OP_BOR] = bor_i64, [RD_OP_BXOR] = bxor_i64};
/* Fortran LOGICAL (4 bytes) */
K_LOGICAL(int32_t, flogical)

static const struct {
    MPI_Datatype dt;
    const rd_kernel *k;
} rd_op_table[] = {
    /* MPI_CHAR (and Fortran's MPI_CHARACTER) as a signed char: MPI-3.1
     * lists no op on them; MPICH and Open MPI accept them, and programs
     * count on it */
    {MPI_SIGNED_CHAR, k_schar}, {MPI_CHAR, k_schar}, {MPI_CHARACTER, k_schar},
    {MPI_UNSIGNED_CHAR, k_uchar}, {MPI_SHORT, k_short},
    {MPI_UNSIGNED_SHORT, k_ushort}, {MPI_INT, k_int}, {MPI_UNSIGNED, k_uint}, {MPI_LONG, k_long},
    {MPI_UNSIGNED_LONG, k_ulong}, {MPI_LONG_LONG_INT, k_llong}, {MPI_LONG_LONG, k_llong},
    {MPI_UNSIGNED_LONG_LONG, k_ullong}, {MPI_INT8_T, k_i8}, {MPI_INT16_T, k_i16},
    {MPI_INT32_T, k_i32}, {MPI_INT64_T, k_i64}, {MPI_UINT8_T, k_u8}, {MPI_UINT16_T, k_u16},
    {MPI_UINT32_T, k_u32}, {MPI_UINT64_T, k_u64},
    /* multi-language types: C integers, logical ops included (MPI-3.1
     * leaves those out; MPICH and Open MPI take them) */
    {MPI_AINT, k_aint}, {MPI_OFFSET, k_llong}, {MPI_COUNT, k_llong},
    {MPI_FLOAT, k_float}, {MPI_DOUBLE, k_double}, {MPI_LONG_DOUBLE, k_ldouble},
    {MPI_C_COMPLEX, k_fcomplex}, {MPI_C_FLOAT_COMPLEX, k_fcomplex}, {MPI_C_DOUBLE_COMPLEX, k_dcomplex},
    {MPI_C_LONG_DOUBLE_COMPLEX, k_ldcomplex}, {MPI_CXX_FLOAT_COMPLEX, k_fcomplex},
    {MPI_CXX_DOUBLE_COMPLEX, k_dcomplex}, {MPI_CXX_LONG_DOUBLE_COMPLEX, k_ldcomplex},
    {MPI_C_BOOL, k_bool}, {MPI_CXX_BOOL, k_bool}, {MPI_BYTE, k_byte},
    {MPI_INTEGER, k_fint32}, {MPI_INTEGER1, k_fint8}, {MPI_INTEGER2, k_fint16},
    {MPI_INTEGER4, k_fint32}, {MPI_INTEGER8, k_fint64}, {MPI_REAL, k_float}, {MPI_REAL4, k_float},
    {MPI_REAL8, k_double}, {MPI_DOUBLE_PRECISION, k_double}, {MPI_COMPLEX, k_fcomplex},
    {MPI_COMPLEX8, k_fcomplex}, {MPI_DOUBLE_COMPLEX, k_dcomplex}, {MPI_COMPLEX16, k_dcomplex},
    {MPI_LOGICAL, k_flogical},
    {MPI_FLOAT_INT, k_float_int}, {MPI_DOUBLE_INT, k_double_int}, {MPI_LONG_INT, k_long_int},
    {MPI_2INT, k_2int}, {MPI_SHORT_INT, k_short_int}, {MPI_LONG_DOUBLE_INT, k_long_double_int},
    {MPI_2INTEGER, k_2integer}, {MPI_2REAL, k_2real}, {MPI_2DOUBLE_PRECISION, k_2double},
    {MPI_REAL16, k_f128}, {MPI_COMPLEX32, k_c128},
};

/* The predefined kernel of op on elements of dt (a predefined type, or a
 * derived one made of a single predefined type: its optype), NULL if not
 * allowed. */
static rd_kernel kernel_for(MPI_Op op, MPI_Datatype dt)
{
    MPI_Datatype b = dt->optype;
    if (!b)
        return NULL;
    /* the table is searched once per predefined type (every collective
     * with an op asks, twice: a search cost a 2-rank Allreduce of 8 B a
     * fifth of its time) */
    int k = atomic_load_explicit(&b->opk, memory_order_relaxed);
    if (k == 0) {
        k = -1;
        for (size_t i = 0; i < sizeof(rd_op_table) / sizeof(rd_op_table[0]) && k < 0; i++)
            if (rd_op_table[i].dt == b)
                k = (int)i + 1;
        atomic_store_explicit(&b->opk, k, memory_order_relaxed);
    }
    return k > 0 ? rd_op_table[k - 1].k[op->code] : NULL;
}

int rd_op_type_index(MPI_Datatype basic)
{
    /* a predefined type's opk caches the search (kernel_for): one-sided
     * accumulates ask on every call */
    int k = basic && basic->predefined ? atomic_load_explicit(&basic->opk, memory_order_relaxed) : 0;
    if (k != 0)
        return k > 0 ? k - 1 : -1;
    for (size_t i = 0; i < sizeof(rd_op_table) / sizeof(rd_op_table[0]); i++)
        if (rd_op_table[i].dt == basic) {
            if (basic->predefined)
                atomic_store_explicit(&basic->opk, (int)i + 1, memory_order_relaxed);
            return (int)i;
        }
    if (basic && basic->predefined)
        atomic_store_explicit(&basic->opk, -1, memory_order_relaxed);
    return -1;
}

MPI_Datatype rd_op_type_at(int index)
{
    if (index < 0 || (size_t)index >= sizeof(rd_op_table) / sizeof(rd_op_table[0]))
        return NULL;
    return rd_op_table[index].dt;
}

MPI_Op rd_op_of_code(int code)
{
    static const MPI_Op ops[RD_OP_USER] = {
        [RD_OP_MAX] = MPI_MAX, [RD_OP_MIN] = MPI_MIN, [RD_OP_SUM] = MPI_SUM, [RD_OP_PROD] = MPI_PROD,
        [RD_OP_LAND] = MPI_LAND, [RD_OP_BAND] = MPI_BAND, [RD_OP_LOR] = MPI_LOR, [RD_OP_BOR] = MPI_BOR,
        [RD_OP_LXOR] = MPI_LXOR, [RD_OP_BXOR] = MPI_BXOR, [RD_OP_MAXLOC] = MPI_MAXLOC,
        [RD_OP_MINLOC] = MPI_MINLOC, [RD_OP_REPLACE] = MPI_REPLACE, [RD_OP_NO_OP] = MPI_NO_OP};
    return code >= 0 && code < RD_OP_USER ? ops[code] : NULL;
}

int rd_op_check(MPI_Op op, MPI_Datatype dt)
{
    if (op->code >= RD_OP_USER || op->code == RD_OP_NO_OP || op->code == RD_OP_REPLACE)
        return MPI_SUCCESS;
    return kernel_for(op, dt) ? MPI_SUCCESS : MPI_ERR_OP;
}

struct rd_op_run {
    rd_kernel k;
    const char *in;
    char *inout;
};

static int apply_run(void *arg, MPI_Aint disp, size_t n)
{
    struct rd_op_run *r = arg;
    r->k(r->in + disp, r->inout + disp, n);
    return 0;
}

rd_kernel rd_op_kernel(MPI_Op op, MPI_Datatype dt, size_t *per)
{
    if (op->code >= RD_OP_REPLACE || !dt->contig || !dt->optype || !dt->optype->contig)
        return NULL;
    *per = dt->size / dt->optype->size;
    return kernel_for(op, dt);
}

int rd_op_apply(MPI_Op op, const void *in, void *inout, MPI_Count count, MPI_Datatype dt)
{
    if (op->code == RD_OP_CUSER) {
        MPI_Count n = count;
        MPI_Datatype t = dt;
        ((MPI_User_function_c *)(void (*)(void))op->user)((void *)in, inout, &n, &t);
        return MPI_SUCCESS;
    }
    if (op->code == RD_OP_USER || op->code == RD_OP_FUSER) {
        /* an int len: a large count (MPI_Reduce_local_c) in chunks of at
         * most INT_MAX elements, each the same elementwise reduction */
        for (MPI_Count done = 0; done < count || done == 0; ) {
            MPI_Count k = count - done > INT_MAX ? INT_MAX : count - done;
            const char *i = (const char *)in + done * dt->extent;
            char *io = (char *)inout + done * dt->extent;
            if (op->code == RD_OP_USER) {
                int n = (int)k;
                MPI_Datatype t = dt;
                op->user((void *)i, io, &n, &t);
            } else {
                /* SUBROUTINE f(invec, inoutvec, len, datatype): all by
                 * reference, the datatype as its Fortran handle (the
                 * predefined ones have their indices: rd_mpi_f_op saw to it) */
                typedef void rd_fuser(void *, void *, MPI_Fint *, MPI_Fint *);
                MPI_Fint n = (MPI_Fint)k, t = rd_fh_c2f(RD_FH_DATATYPE, dt, &dt->fidx);
                ((rd_fuser *)(void (*)(void))op->user)((void *)i, io, &n, &t);
            }
            done += k;
            if (k == 0)
                break;
        }
        return MPI_SUCCESS;
    }
    if (op->code == RD_OP_NO_OP)
        return MPI_SUCCESS;
    if (count == 0)
        return MPI_SUCCESS;
    if (op->code == RD_OP_REPLACE) {
        size_t bytes = (size_t)count * dt->size;
        void *tmp = NULL;
        if (!dt->contig) {
            tmp = malloc(bytes);
            if (!tmp)
                return MPI_ERR_NO_MEM;
            rd_dt_pack(in, dt, 0, tmp, bytes);
            rd_dt_unpack(inout, dt, 0, tmp, bytes);
            free(tmp);
        } else {
            memmove((char *)inout + dt->true_lb, (const char *)in + dt->true_lb, bytes);
        }
        return MPI_SUCCESS;
    }
    rd_kernel k = kernel_for(op, dt);
    if (!k)
        return MPI_ERR_OP;
    if (dt->contig && dt->optype->contig) {
        /* elements of the op's type, back to back */
        size_t n = (size_t)count * (dt->size / dt->optype->size);
        k((const char *)in + dt->true_lb, (char *)inout + dt->true_lb, n);
        return MPI_SUCCESS;
    }
    /* with gaps: run by run of the layout (e.g. the blocks of a vector) */
    struct rd_op_run r = {k, in, inout};
    rd_dt_runs(dt, (size_t)count, apply_run, &r);
    return MPI_SUCCESS;
}

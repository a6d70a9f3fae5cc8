/* Derived datatype constructors: contiguous, vector, hvector, indexed,
 * hindexed, indexed_block, hindexed_block, struct, subarray, darray,
 * resized, each with its large-count twin (MPI 4.0's _c: MPI_Count counts,
 * block lengths, strides and displacements); the address helpers
 * (Get_address, Aint_add, Aint_diff); MPI-1's MPI_Type_hvector,
 * MPI_Type_hindexed, MPI_Type_struct and MPI_Address (removed in MPI-3.0)
 * through the same code. A constructor and its _c twin are one function
 * taking MPI_Count arguments (large: which of the two called it), arrays
 * as struct arr. The layouts are built by runtime/objects/datatype.c;
 * here: the checks and the contents record. */
#include <limits.h>
#include <mpi.h>
#include <stdint.h>
#include <stdlib.h>

#include "runtime/api/check.h"
#include "runtime/api/dtype.h"

/* ------------------------------------------------------------ arguments */

/* An array argument as its call passed it: the int calls' int[] or
 * MPI_Aint[], the _c calls' MPI_Count[]. */
enum { A_INT, A_AINT, A_COUNT };
struct arr {
    const void *p;
    int kind;
};
#define ARR_INT(a) ((struct arr){(a), A_INT})
#define ARR_AINT(a) ((struct arr){(a), A_AINT})
#define ARR_COUNT(a) ((struct arr){(a), A_COUNT})

static inline MPI_Count at(struct arr a, MPI_Count i)
{
    switch (a.kind) {
    case A_INT: return ((const int *)a.p)[i];
    case A_AINT: return ((const MPI_Aint *)a.p)[i];
    default: return ((const MPI_Count *)a.p)[i];
    }
}

/* n items of size bytes (at least one), NULL when out of memory or when
 * their size does not fit in a size_t */
static void *alloc_n(MPI_Count n, size_t size)
{
    if (n < 1)
        n = 1;
    return (uint64_t)n > SIZE_MAX / size ? NULL : malloc((size_t)n * size);
}

/* The contents record being made (MPI 4.1 5.1.13): the arguments in the
 * order of the call, each where the standard puts it. An int call's int
 * arguments go to ints and its MPI_Aint ones to aints; a _c call's
 * MPI_Count ones (counts, block lengths, displacements, strides, lb and
 * extent) to counts and its int ones (ndims, order, the darray's size,
 * rank, distributions, arguments and grid) to ints, none to aints. */
struct rec {
    int large;
    MPI_Count ni, na, nc;
    int *ints;
    MPI_Aint *aints;
    MPI_Count *counts;
    int ibuf[8];
    MPI_Aint abuf[8];
    MPI_Count cbuf[8];
};

static void rec_free(struct rec *r)
{
    if (r->ints != r->ibuf)
        free(r->ints);
    if (r->aints != r->abuf)
        free(r->aints);
    if (r->counts != r->cbuf)
        free(r->counts);
    r->ints = r->ibuf;
    r->aints = r->abuf;
    r->counts = r->cbuf;
}

/* room for count * per + extra arguments; -1 when out of memory */
static int rec_init(struct rec *r, int large, MPI_Count count, MPI_Count per, MPI_Count extra)
{
    MPI_Count n;
    r->large = large;
    r->ni = r->na = r->nc = 0;
    r->ints = r->ibuf;
    r->aints = r->abuf;
    r->counts = r->cbuf;
    if (__builtin_mul_overflow(count, per, &n) || __builtin_add_overflow(n, extra, &n))
        return -1;
    if (n <= 8)
        return 0;
    r->ints = alloc_n(n, sizeof(int));
    r->aints = large ? r->abuf : alloc_n(n, sizeof(MPI_Aint));
    r->counts = large ? alloc_n(n, sizeof(MPI_Count)) : r->cbuf;
    if (!r->ints || !r->aints || !r->counts) {
        if (!r->ints)
            r->ints = r->ibuf;
        if (!r->aints)
            r->aints = r->abuf;
        if (!r->counts)
            r->counts = r->cbuf;
        rec_free(r);
        return -1;
    }
    return 0;
}

/* an int argument of either call */
static void rec_int(struct rec *r, int v)
{
    r->ints[r->ni++] = v;
}

/* a count, a block length, a displacement or stride in extents: an int of
 * the int call, a large count of the _c one */
static void rec_count(struct rec *r, MPI_Count v)
{
    if (r->large)
        r->counts[r->nc++] = v;
    else
        r->ints[r->ni++] = (int)v;
}

/* a displacement or stride in bytes, lb or extent: an MPI_Aint of the int
 * call, a large count of the _c one */
static void rec_aint(struct rec *r, MPI_Count v)
{
    if (r->large)
        r->counts[r->nc++] = v;
    else
        r->aints[r->na++] = (MPI_Aint)v;
}

/* the tail of every constructor: t made (or NULL, err), its contents r */
static int finish(const char *call, MPI_Datatype t, int err, int combiner, struct rec *r, MPI_Count nd,
                  const MPI_Datatype *types, MPI_Datatype *newtype)
{
    int rc = rd_dt_api_finish(call, t, err, combiner, r->ni, r->ints, r->na, r->aints, r->nc, r->counts, nd, types,
                              newtype);
    rec_free(r);
    return rc;
}

/* ------------------------------------------------------------ checks */

static int bad(int cls, const char *call, const char *fmt, long long v)
{
    return rd_err_raise(MPI_COMM_WORLD, cls, call, fmt, v);
}

static int no_mem(const char *call)
{
    return rd_err_raise(MPI_COMM_WORLD, MPI_ERR_NO_MEM, call, "out of memory");
}

/* the checks every constructor makes */
static int check_common(const char *call, MPI_Count count, MPI_Datatype *newtype)
{
    if (count < 0)
        return bad(MPI_ERR_COUNT, call, "count %lld is negative", count);
    if (!newtype)
        return rd_err_raise(MPI_COMM_WORLD, MPI_ERR_ARG, call, "newtype is NULL");
    return MPI_SUCCESS;
}

#define CHECK_OLD(call, old)                                                           \
    do {                                                                               \
        if (!rd_dt_valid(old))                                                         \
            return rd_err_raise(MPI_COMM_WORLD, MPI_ERR_TYPE, call, "invalid datatype"); \
    } while (0)

static int check_blen(const char *call, MPI_Count blen, MPI_Count i)
{
    if (blen < 0)
        return rd_err_raise(MPI_COMM_WORLD, MPI_ERR_ARG, call, "block length %lld (block %lld) is negative",
                            (long long)blen, (long long)i);
    if ((MPI_Count)(size_t)blen != blen)
        return rd_err_raise(MPI_COMM_WORLD, MPI_ERR_COUNT, call,
                            "block length %lld (block %lld) does not fit in a size_t", (long long)blen, (long long)i);
    return MPI_SUCCESS;
}

static int check_array(const char *call, MPI_Count count, const void *a, const char *what)
{
    if (count > 0 && !a)
        return rd_err_raise(MPI_COMM_WORLD, MPI_ERR_ARG, call, "%s is NULL", what);
    return MPI_SUCCESS;
}

/* v (a displacement, stride, lb or extent in bytes) as an MPI_Aint */
static int to_aint(const char *call, MPI_Count v, const char *what, MPI_Aint *out)
{
    *out = (MPI_Aint)v;
    if ((MPI_Count)*out != v)
        return rd_err_raise(MPI_COMM_WORLD, MPI_ERR_COUNT, call, "%s %lld does not fit in an MPI_Aint", what,
                            (long long)v);
    return MPI_SUCCESS;
}

/* v extents of old in bytes (a stride or displacement in elements) */
static int times_extent(const char *call, MPI_Count v, MPI_Datatype old, const char *what, MPI_Aint *out)
{
    if (__builtin_mul_overflow(v, old->extent, out))
        return rd_err_raise(MPI_COMM_WORLD, MPI_ERR_COUNT, call,
                            "%s %lld times the extent %lld of the old type does not fit in an MPI_Aint", what,
                            (long long)v, (long long)old->extent);
    return MPI_SUCCESS;
}

/* ------------------------------------------------------------ contiguous, vector, hvector */

static int contiguous(const char *call, int large, MPI_Count count, MPI_Datatype old, MPI_Datatype *newtype)
{
    RD_API_READY(call);
    RD_TRY(check_common(call, count, newtype));
    CHECK_OLD(call, old);
    struct rec r;
    rec_init(&r, large, 0, 0, 1);
    rec_count(&r, count);
    int err = MPI_SUCCESS;
    MPI_Datatype t = rd_dt_make_vector((size_t)count, 1, old->extent, old, &err);
    return finish(call, t, err, MPI_COMBINER_CONTIGUOUS, &r, 1, &old, newtype);
}

#pragma weak MPI_Type_contiguous = PMPI_Type_contiguous
int PMPI_Type_contiguous(int count, MPI_Datatype old, MPI_Datatype *newtype)
{
    return contiguous("MPI_Type_contiguous", 0, count, old, newtype);
}

#pragma weak MPI_Type_contiguous_c = PMPI_Type_contiguous_c
int PMPI_Type_contiguous_c(MPI_Count count, MPI_Datatype old, MPI_Datatype *newtype)
{
    return contiguous("MPI_Type_contiguous_c", 1, count, old, newtype);
}

/* vector (stride in extents of old) and hvector (bytes: in bytes) */
static int vector(const char *call, int large, int bytes, MPI_Count count, MPI_Count blen, MPI_Count stride,
                  MPI_Datatype old, MPI_Datatype *newtype)
{
    RD_API_READY(call);
    RD_TRY(check_common(call, count, newtype));
    CHECK_OLD(call, old);
    RD_TRY(check_blen(call, blen, 0));
    MPI_Aint s;
    if (bytes)
        RD_TRY(to_aint(call, stride, "the stride", &s));
    else
        RD_TRY(times_extent(call, stride, old, "the stride", &s));
    struct rec r;
    rec_init(&r, large, 0, 0, 3);
    rec_count(&r, count);
    rec_count(&r, blen);
    if (bytes)
        rec_aint(&r, stride);
    else
        rec_count(&r, stride);
    int err = MPI_SUCCESS;
    MPI_Datatype t = rd_dt_make_vector((size_t)count, (size_t)blen, s, old, &err);
    return finish(call, t, err, bytes ? MPI_COMBINER_HVECTOR : MPI_COMBINER_VECTOR, &r, 1, &old, newtype);
}

#pragma weak MPI_Type_vector = PMPI_Type_vector
int PMPI_Type_vector(int count, int blen, int stride, MPI_Datatype old, MPI_Datatype *newtype)
{
    return vector("MPI_Type_vector", 0, 0, count, blen, stride, old, newtype);
}

#pragma weak MPI_Type_vector_c = PMPI_Type_vector_c
int PMPI_Type_vector_c(MPI_Count count, MPI_Count blen, MPI_Count stride, MPI_Datatype old, MPI_Datatype *newtype)
{
    return vector("MPI_Type_vector_c", 1, 0, count, blen, stride, old, newtype);
}

#pragma weak MPI_Type_create_hvector = PMPI_Type_create_hvector
int PMPI_Type_create_hvector(int count, int blen, MPI_Aint stride, MPI_Datatype old, MPI_Datatype *newtype)
{
    return vector("MPI_Type_create_hvector", 0, 1, count, blen, stride, old, newtype);
}

#pragma weak MPI_Type_create_hvector_c = PMPI_Type_create_hvector_c
int PMPI_Type_create_hvector_c(MPI_Count count, MPI_Count blen, MPI_Count stride, MPI_Datatype old,
                               MPI_Datatype *newtype)
{
    return vector("MPI_Type_create_hvector_c", 1, 1, count, blen, stride, old, newtype);
}

/* MPI-1's MPI_Type_hvector (removed in MPI-3.0) */
#pragma weak MPI_Type_hvector = PMPI_Type_hvector
int PMPI_Type_hvector(int count, int blen, MPI_Aint stride, MPI_Datatype old, MPI_Datatype *newtype)
{
    return vector("MPI_Type_hvector", 0, 1, count, blen, stride, old, newtype);
}

/* ------------------------------------------------------------ the indexed family */

/* count blocks of blens[i] (the _block ones: blen for all) copies of old
 * at disps[i], in extents of old (indexed, indexed_block) or in bytes
 * (hindexed, hindexed_block) */
static int indexed(const char *call, int large, int combiner, MPI_Count count, struct arr blens, MPI_Count blen,
                   struct arr disps, MPI_Datatype old, MPI_Datatype *newtype)
{
    int block = combiner == MPI_COMBINER_INDEXED_BLOCK || combiner == MPI_COMBINER_HINDEXED_BLOCK;
    int bytes = combiner == MPI_COMBINER_HINDEXED || combiner == MPI_COMBINER_HINDEXED_BLOCK;
    RD_API_READY(call);
    RD_TRY(check_common(call, count, newtype));
    CHECK_OLD(call, old);
    if (block)
        RD_TRY(check_blen(call, blen, 0));
    else
        RD_TRY(check_array(call, count, blens.p, "array_of_blocklengths"));
    RD_TRY(check_array(call, count, disps.p, "array_of_displacements"));
    size_t *bl = alloc_n(count, sizeof(size_t));
    MPI_Aint *d = alloc_n(count, sizeof(MPI_Aint));
    struct rec r;
    if (!bl || !d || rec_init(&r, large, count, 2, 2)) {
        free(bl);
        free(d);
        return no_mem(call);
    }
    /* the contents: count, the block lengths (or the one), the displacements */
    rec_count(&r, count);
    if (block)
        rec_count(&r, blen);
    int rc = MPI_SUCCESS;
    for (MPI_Count i = 0; i < count && rc == MPI_SUCCESS; i++) {
        MPI_Count b = block ? blen : at(blens, i);
        if (!block && (rc = check_blen(call, b, i)) == MPI_SUCCESS)
            rec_count(&r, b);
        bl[i] = (size_t)b;
    }
    for (MPI_Count i = 0; i < count && rc == MPI_SUCCESS; i++) {
        MPI_Count x = at(disps, i);
        if (bytes) {
            rc = to_aint(call, x, "a displacement", &d[i]);
            rec_aint(&r, x);
        } else {
            rc = times_extent(call, x, old, "a displacement", &d[i]);
            rec_count(&r, x);
        }
    }
    if (rc == MPI_SUCCESS) {
        int err = MPI_SUCCESS;
        MPI_Datatype t = rd_dt_make_blocks((size_t)count, bl, d, &old, 1, 0, &err);
        rc = finish(call, t, err, combiner, &r, 1, &old, newtype);
    } else {
        rec_free(&r);
    }
    free(bl);
    free(d);
    return rc;
}

#pragma weak MPI_Type_indexed = PMPI_Type_indexed
int PMPI_Type_indexed(int count, const int blens[], const int disps[], MPI_Datatype old, MPI_Datatype *newtype)
{
    return indexed("MPI_Type_indexed", 0, MPI_COMBINER_INDEXED, count, ARR_INT(blens), 0, ARR_INT(disps), old,
                   newtype);
}

#pragma weak MPI_Type_indexed_c = PMPI_Type_indexed_c
int PMPI_Type_indexed_c(MPI_Count count, const MPI_Count blens[], const MPI_Count disps[], MPI_Datatype old,
                        MPI_Datatype *newtype)
{
    return indexed("MPI_Type_indexed_c", 1, MPI_COMBINER_INDEXED, count, ARR_COUNT(blens), 0, ARR_COUNT(disps),
                   old, newtype);
}

#pragma weak MPI_Type_create_hindexed = PMPI_Type_create_hindexed
int PMPI_Type_create_hindexed(int count, const int blens[], const MPI_Aint disps[], MPI_Datatype old,
                              MPI_Datatype *newtype)
{
    return indexed("MPI_Type_create_hindexed", 0, MPI_COMBINER_HINDEXED, count, ARR_INT(blens), 0,
                   ARR_AINT(disps), old, newtype);
}

#pragma weak MPI_Type_create_hindexed_c = PMPI_Type_create_hindexed_c
int PMPI_Type_create_hindexed_c(MPI_Count count, const MPI_Count blens[], const MPI_Count disps[],
                                MPI_Datatype old, MPI_Datatype *newtype)
{
    return indexed("MPI_Type_create_hindexed_c", 1, MPI_COMBINER_HINDEXED, count, ARR_COUNT(blens), 0,
                   ARR_COUNT(disps), old, newtype);
}

/* MPI-1's MPI_Type_hindexed (removed in MPI-3.0) */
#pragma weak MPI_Type_hindexed = PMPI_Type_hindexed
int PMPI_Type_hindexed(int count, const int blens[], const MPI_Aint disps[], MPI_Datatype old,
                       MPI_Datatype *newtype)
{
    return indexed("MPI_Type_hindexed", 0, MPI_COMBINER_HINDEXED, count, ARR_INT(blens), 0, ARR_AINT(disps), old,
                   newtype);
}

#pragma weak MPI_Type_create_indexed_block = PMPI_Type_create_indexed_block
int PMPI_Type_create_indexed_block(int count, int blen, const int disps[], MPI_Datatype old,
                                   MPI_Datatype *newtype)
{
    return indexed("MPI_Type_create_indexed_block", 0, MPI_COMBINER_INDEXED_BLOCK, count, ARR_INT(NULL), blen,
                   ARR_INT(disps), old, newtype);
}

#pragma weak MPI_Type_create_indexed_block_c = PMPI_Type_create_indexed_block_c
int PMPI_Type_create_indexed_block_c(MPI_Count count, MPI_Count blen, const MPI_Count disps[], MPI_Datatype old,
                                     MPI_Datatype *newtype)
{
    return indexed("MPI_Type_create_indexed_block_c", 1, MPI_COMBINER_INDEXED_BLOCK, count, ARR_COUNT(NULL), blen,
                   ARR_COUNT(disps), old, newtype);
}

#pragma weak MPI_Type_create_hindexed_block = PMPI_Type_create_hindexed_block
int PMPI_Type_create_hindexed_block(int count, int blen, const MPI_Aint disps[], MPI_Datatype old,
                                    MPI_Datatype *newtype)
{
    return indexed("MPI_Type_create_hindexed_block", 0, MPI_COMBINER_HINDEXED_BLOCK, count, ARR_INT(NULL), blen,
                   ARR_AINT(disps), old, newtype);
}

#pragma weak MPI_Type_create_hindexed_block_c = PMPI_Type_create_hindexed_block_c
int PMPI_Type_create_hindexed_block_c(MPI_Count count, MPI_Count blen, const MPI_Count disps[], MPI_Datatype old,
                                      MPI_Datatype *newtype)
{
    return indexed("MPI_Type_create_hindexed_block_c", 1, MPI_COMBINER_HINDEXED_BLOCK, count, ARR_COUNT(NULL),
                   blen, ARR_COUNT(disps), old, newtype);
}

/* ------------------------------------------------------------ struct, resized */

static int type_struct(const char *call, int large, MPI_Count count, struct arr blens, struct arr disps,
                       const MPI_Datatype types[], MPI_Datatype *newtype)
{
    RD_API_READY(call);
    RD_TRY(check_common(call, count, newtype));
    RD_TRY(check_array(call, count, blens.p, "array_of_blocklengths"));
    RD_TRY(check_array(call, count, disps.p, "array_of_displacements"));
    RD_TRY(check_array(call, count, types, "array_of_types"));
    for (MPI_Count i = 0; i < count; i++) {
        RD_TRY(check_blen(call, at(blens, i), i));
        if (!rd_dt_valid(types[i]))
            return bad(MPI_ERR_TYPE, call, "array_of_types[%lld] is not a valid datatype", i);
    }
    size_t *bl = alloc_n(count, sizeof(size_t));
    MPI_Aint *d = alloc_n(count, sizeof(MPI_Aint));
    struct rec r;
    if (!bl || !d || rec_init(&r, large, count, 2, 1)) {
        free(bl);
        free(d);
        return no_mem(call);
    }
    /* the contents: count, the block lengths, the displacements */
    rec_count(&r, count);
    for (MPI_Count i = 0; i < count; i++) {
        bl[i] = (size_t)at(blens, i);
        rec_count(&r, at(blens, i));
    }
    int rc = MPI_SUCCESS;
    for (MPI_Count i = 0; i < count && rc == MPI_SUCCESS; i++) {
        rc = to_aint(call, at(disps, i), "a displacement", &d[i]);
        rec_aint(&r, at(disps, i));
    }
    if (rc == MPI_SUCCESS) {
        int err = MPI_SUCCESS;
        MPI_Datatype t = rd_dt_make_blocks((size_t)count, bl, d, types, 0, 1, &err);
        rc = finish(call, t, err, MPI_COMBINER_STRUCT, &r, count, types, newtype);
    } else {
        rec_free(&r);
    }
    free(bl);
    free(d);
    return rc;
}

#pragma weak MPI_Type_create_struct = PMPI_Type_create_struct
int PMPI_Type_create_struct(int count, const int blens[], const MPI_Aint disps[], const MPI_Datatype types[],
                            MPI_Datatype *newtype)
{
    return type_struct("MPI_Type_create_struct", 0, count, ARR_INT(blens), ARR_AINT(disps), types, newtype);
}

#pragma weak MPI_Type_create_struct_c = PMPI_Type_create_struct_c
int PMPI_Type_create_struct_c(MPI_Count count, const MPI_Count blens[], const MPI_Count disps[],
                              const MPI_Datatype types[], MPI_Datatype *newtype)
{
    return type_struct("MPI_Type_create_struct_c", 1, count, ARR_COUNT(blens), ARR_COUNT(disps), types, newtype);
}

/* MPI-1's MPI_Type_struct (removed in MPI-3.0) */
#pragma weak MPI_Type_struct = PMPI_Type_struct
int PMPI_Type_struct(int count, const int blens[], const MPI_Aint disps[], const MPI_Datatype types[],
                     MPI_Datatype *newtype)
{
    return type_struct("MPI_Type_struct", 0, count, ARR_INT(blens), ARR_AINT(disps), types, newtype);
}

static int resized(const char *call, int large, MPI_Datatype old, MPI_Count lb, MPI_Count extent,
                   MPI_Datatype *newtype)
{
    RD_API_READY(call);
    RD_TRY(check_common(call, 0, newtype));
    CHECK_OLD(call, old);
    MPI_Aint l, e, ub;
    RD_TRY(to_aint(call, lb, "lb", &l));
    RD_TRY(to_aint(call, extent, "the extent", &e));
    if (__builtin_add_overflow(l, e, &ub))
        return rd_err_raise(MPI_COMM_WORLD, MPI_ERR_COUNT, call,
                            "ub = lb + extent = %lld + %lld does not fit in an MPI_Aint", (long long)lb,
                            (long long)extent);
    struct rec r;
    rec_init(&r, large, 0, 0, 2);
    rec_aint(&r, lb);
    rec_aint(&r, extent);
    int err = MPI_SUCCESS;
    MPI_Datatype t = rd_dt_make_resized(old, l, e, &err);
    return finish(call, t, err, MPI_COMBINER_RESIZED, &r, 1, &old, newtype);
}

#pragma weak MPI_Type_create_resized = PMPI_Type_create_resized
int PMPI_Type_create_resized(MPI_Datatype old, MPI_Aint lb, MPI_Aint extent, MPI_Datatype *newtype)
{
    return resized("MPI_Type_create_resized", 0, old, lb, extent, newtype);
}

#pragma weak MPI_Type_create_resized_c = PMPI_Type_create_resized_c
int PMPI_Type_create_resized_c(MPI_Datatype old, MPI_Count lb, MPI_Count extent, MPI_Datatype *newtype)
{
    return resized("MPI_Type_create_resized_c", 1, old, lb, extent, newtype);
}

/* ------------------------------------------------------------ arrays */

/* A type t (its origin at index 0 of the dimension) over the local indices
 * of one dimension: blocks of b indices starting at first, every step
 * indices, the last one cut at n; each index is a copy of inner stride
 * bytes after the previous. Takes over the reference to inner. */
static MPI_Datatype dim_type(MPI_Datatype inner, MPI_Aint stride, size_t n, size_t first, size_t b,
                             size_t step, int *err)
{
    MPI_Datatype c = rd_dt_make_resized(inner, 0, stride, err), t = NULL;
    rd_dt_release(inner);
    if (!c)
        return NULL;
    size_t nb = first < n ? (n - first + step - 1) / step : 0; /* blocks that start before n */
    size_t last = nb ? n - (first + (nb - 1) * step) : 0;       /* indices in the last one */
    if (last > b)
        last = b;
    size_t nfull = nb && last < b ? nb - 1 : nb;
    /* (the displacement of a block left empty is 0: its index may lie
     * past the array, where bytes need not fit in an MPI_Aint) */
    if (nfull <= 1) {
        /* at most two blocks: index them */
        size_t bl[2] = {nfull ? b : 0, nfull < nb ? last : 0};
        MPI_Aint d[2] = {bl[0] ? (MPI_Aint)first * stride : 0,
                         bl[1] ? (MPI_Aint)(first + nfull * step) * stride : 0};
        t = rd_dt_make_blocks(2, bl, d, &c, 1, 0, err);
    } else {
        MPI_Datatype v = rd_dt_make_vector(nfull, b, (MPI_Aint)step * stride, c, err);
        if (v) {
            size_t bl[2] = {1, nfull < nb ? last : 0};
            MPI_Aint d[2] = {(MPI_Aint)first * stride, bl[1] ? (MPI_Aint)(first + nfull * step) * stride : 0};
            MPI_Datatype ts[2] = {v, c};
            t = rd_dt_make_blocks(2, bl, d, ts, 0, 0, err);
            rd_dt_release(v);
        }
    }
    rd_dt_release(c);
    return t;
}

/* The array type of ndims dimensions (dims in memory order, the fastest
 * varying first): dimension i of size g[i] holds the indices of its
 * (first, b, step) pattern; the whole is resized to the full array. */
static MPI_Datatype array_type(int ndims, const MPI_Count *g, const size_t *first, const size_t *b,
                               const size_t *step, MPI_Datatype old, int *err)
{
    MPI_Aint stride = old->extent, total = old->extent;
    MPI_Datatype t = old;
    rd_dt_retain(old);
    for (int i = 0; i < ndims && t; i++) {
        t = dim_type(t, stride, (size_t)g[i], first[i], b[i], step[i], err);
        stride *= (MPI_Aint)g[i];
        total = stride;
    }
    if (!t)
        return NULL;
    MPI_Datatype r = rd_dt_make_resized(t, 0, total, err);
    rd_dt_release(t);
    return r;
}

static int check_order(const char *call, int order)
{
    if (order != MPI_ORDER_C && order != MPI_ORDER_FORTRAN)
        return bad(MPI_ERR_ARG, call, "order %lld is neither MPI_ORDER_C nor MPI_ORDER_FORTRAN", order);
    return MPI_SUCCESS;
}

/* the bytes of the whole array (the extent of old times the sizes g) fit
 * in an MPI_Aint, else MPI_ERR_COUNT */
static int check_array_size(const char *call, int ndims, struct arr g, MPI_Datatype old)
{
    MPI_Aint p = old->extent < 0 ? -old->extent : old->extent;
    for (int i = 0; i < ndims; i++)
        if (__builtin_mul_overflow(p, at(g, i), &p))
            return rd_err_raise(MPI_COMM_WORLD, MPI_ERR_COUNT, call,
                                "the array's size in bytes does not fit in an MPI_Aint");
    return MPI_SUCCESS;
}

/* the sizes of the dimensions in memory order, the fastest first, and
 * their (first, b, step) patterns, in one allocation */
struct dims {
    MPI_Count *g;
    size_t *first, *b, *step;
};

static int dims_alloc(struct dims *m, int ndims)
{
    m->g = alloc_n(ndims, sizeof(MPI_Count));
    m->first = alloc_n((MPI_Count)3 * ndims, sizeof(size_t));
    if (!m->g || !m->first) {
        free(m->g);
        free(m->first);
        return -1;
    }
    m->b = m->first + ndims;
    m->step = m->first + 2 * ndims;
    return 0;
}

static void dims_free(struct dims *m)
{
    free(m->g);
    free(m->first);
}

static int subarray(const char *call, int large, int ndims, struct arr sizes, struct arr subsizes,
                    struct arr starts, int order, MPI_Datatype old, MPI_Datatype *newtype)
{
    RD_API_READY(call);
    if (ndims <= 0)
        return bad(MPI_ERR_ARG, call, "ndims %lld is not positive", ndims);
    RD_TRY(check_common(call, 0, newtype));
    CHECK_OLD(call, old);
    if (!sizes.p || !subsizes.p || !starts.p)
        return rd_err_raise(MPI_COMM_WORLD, MPI_ERR_ARG, call, "an array argument is NULL");
    RD_TRY(check_order(call, order));
    for (int i = 0; i < ndims; i++) {
        MPI_Count n = at(sizes, i), sub = at(subsizes, i), st = at(starts, i);
        if (n < 1)
            return rd_err_raise(MPI_COMM_WORLD, MPI_ERR_ARG, call, "array_of_sizes[%d] = %lld is not positive", i,
                                (long long)n);
        if (sub < 1 || sub > n)
            return rd_err_raise(MPI_COMM_WORLD, MPI_ERR_ARG, call,
                                "array_of_subsizes[%d] = %lld is not in [1, %lld]", i, (long long)sub, (long long)n);
        if (st < 0 || st > n - sub)
            return rd_err_raise(MPI_COMM_WORLD, MPI_ERR_ARG, call, "array_of_starts[%d] = %lld is not in [0, %lld]",
                                i, (long long)st, (long long)(n - sub));
    }
    RD_TRY(check_array_size(call, ndims, sizes, old));
    struct dims m;
    struct rec r;
    if (dims_alloc(&m, ndims))
        return no_mem(call);
    if (rec_init(&r, large, ndims, 3, 2)) {
        dims_free(&m);
        return no_mem(call);
    }
    for (int i = 0; i < ndims; i++) {
        int j = order == MPI_ORDER_C ? ndims - 1 - i : i; /* memory order: fastest first */
        m.g[i] = at(sizes, j);
        m.first[i] = (size_t)at(starts, j);
        m.b[i] = (size_t)at(subsizes, j);
        m.step[i] = (size_t)at(sizes, j); /* one block */
    }
    int err = MPI_SUCCESS;
    MPI_Datatype t = array_type(ndims, m.g, m.first, m.b, m.step, old, &err);
    /* the contents: ndims, the sizes, subsizes and starts, order */
    rec_int(&r, ndims);
    for (int i = 0; i < ndims; i++)
        rec_count(&r, at(sizes, i));
    for (int i = 0; i < ndims; i++)
        rec_count(&r, at(subsizes, i));
    for (int i = 0; i < ndims; i++)
        rec_count(&r, at(starts, i));
    rec_int(&r, order);
    dims_free(&m);
    return finish(call, t, err, MPI_COMBINER_SUBARRAY, &r, 1, &old, newtype);
}

#pragma weak MPI_Type_create_subarray = PMPI_Type_create_subarray
int PMPI_Type_create_subarray(int ndims, const int sizes[], const int subsizes[], const int starts[], int order,
                              MPI_Datatype old, MPI_Datatype *newtype)
{
    return subarray("MPI_Type_create_subarray", 0, ndims, ARR_INT(sizes), ARR_INT(subsizes), ARR_INT(starts),
                    order, old, newtype);
}

#pragma weak MPI_Type_create_subarray_c = PMPI_Type_create_subarray_c
int PMPI_Type_create_subarray_c(int ndims, const MPI_Count sizes[], const MPI_Count subsizes[],
                                const MPI_Count starts[], int order, MPI_Datatype old, MPI_Datatype *newtype)
{
    return subarray("MPI_Type_create_subarray_c", 1, ndims, ARR_COUNT(sizes), ARR_COUNT(subsizes),
                    ARR_COUNT(starts), order, old, newtype);
}

static int darray(const char *call, int large, int size, int rank, int ndims, struct arr gsizes,
                  const int distribs[], const int dargs[], const int psizes[], int order, MPI_Datatype old,
                  MPI_Datatype *newtype)
{
    RD_API_READY(call);
    if (size <= 0)
        return bad(MPI_ERR_ARG, call, "size %lld is not positive", size);
    if (rank < 0 || rank >= size)
        return rd_err_raise(MPI_COMM_WORLD, MPI_ERR_RANK, call, "rank %d is not in [0, %d)", rank, size);
    if (ndims <= 0)
        return bad(MPI_ERR_ARG, call, "ndims %lld is not positive", ndims);
    RD_TRY(check_common(call, 0, newtype));
    CHECK_OLD(call, old);
    if (!gsizes.p || !distribs || !dargs || !psizes)
        return rd_err_raise(MPI_COMM_WORLD, MPI_ERR_ARG, call, "an array argument is NULL");
    RD_TRY(check_order(call, order));
    long long procs = 1;
    for (int i = 0; i < ndims; i++) {
        MPI_Count gs = at(gsizes, i);
        if (gs < 1)
            return rd_err_raise(MPI_COMM_WORLD, MPI_ERR_ARG, call, "array_of_gsizes[%d] = %lld is not positive", i,
                                (long long)gs);
        if (psizes[i] < 1)
            return rd_err_raise(MPI_COMM_WORLD, MPI_ERR_ARG, call, "array_of_psizes[%d] = %d is not positive", i,
                                psizes[i]);
        if (distribs[i] != MPI_DISTRIBUTE_BLOCK && distribs[i] != MPI_DISTRIBUTE_CYCLIC &&
            distribs[i] != MPI_DISTRIBUTE_NONE)
            return rd_err_raise(MPI_COMM_WORLD, MPI_ERR_ARG, call, "array_of_distribs[%d] = %d is not a distribution",
                                i, distribs[i]);
        if (distribs[i] == MPI_DISTRIBUTE_NONE && psizes[i] != 1)
            return rd_err_raise(MPI_COMM_WORLD, MPI_ERR_ARG, call,
                                "dimension %d is not distributed (MPI_DISTRIBUTE_NONE) but array_of_psizes[%d] = %d",
                                i, i, psizes[i]);
        if (dargs[i] != MPI_DISTRIBUTE_DFLT_DARG && dargs[i] < 1)
            return rd_err_raise(MPI_COMM_WORLD, MPI_ERR_ARG, call, "array_of_dargs[%d] = %d is not positive", i,
                                dargs[i]);
        if (distribs[i] == MPI_DISTRIBUTE_BLOCK && dargs[i] != MPI_DISTRIBUTE_DFLT_DARG &&
            (long long)dargs[i] * psizes[i] < gs)
            return rd_err_raise(MPI_COMM_WORLD, MPI_ERR_ARG, call,
                                "block size %d times %d processes does not cover the %lld elements of dimension %d",
                                dargs[i], psizes[i], (long long)gs, i);
        procs *= psizes[i];
        if (procs > size)
            break;
    }
    if (procs != size)
        return bad(MPI_ERR_ARG, call, "the process grid does not have %lld processes", size);
    RD_TRY(check_array_size(call, ndims, gsizes, old));
    struct dims m;
    struct rec r;
    int *coords = alloc_n(ndims, sizeof(int));
    if (!coords || dims_alloc(&m, ndims)) {
        free(coords);
        return no_mem(call);
    }
    if (rec_init(&r, large, ndims, 4, 4)) {
        free(coords);
        dims_free(&m);
        return no_mem(call);
    }
    /* the process grid is in row-major order whatever the array's order */
    for (int i = ndims - 1, q = rank; i >= 0; i--) {
        coords[i] = q % psizes[i];
        q /= psizes[i];
    }
    for (int i = 0; i < ndims; i++) {
        int j = order == MPI_ORDER_C ? ndims - 1 - i : i; /* memory order: fastest first */
        size_t gs = (size_t)at(gsizes, j), p = (size_t)psizes[j], blk;
        if (distribs[j] == MPI_DISTRIBUTE_NONE)
            blk = gs;
        else if (dargs[j] != MPI_DISTRIBUTE_DFLT_DARG)
            blk = (size_t)dargs[j];
        else if (distribs[j] == MPI_DISTRIBUTE_BLOCK)
            blk = (gs + p - 1) / p;
        else
            blk = 1;
        /* blocks of blk at coords * blk, every p * blk (block: just one) */
        m.g[i] = (MPI_Count)gs;
        m.first[i] = (size_t)coords[j] * blk;
        m.b[i] = blk;
        m.step[i] = p * blk;
    }
    int err = MPI_SUCCESS;
    MPI_Datatype t = array_type(ndims, m.g, m.first, m.b, m.step, old, &err);
    /* the contents: size, rank, ndims, the gsizes, distribs, dargs and
     * psizes, order */
    rec_int(&r, size);
    rec_int(&r, rank);
    rec_int(&r, ndims);
    for (int i = 0; i < ndims; i++)
        rec_count(&r, at(gsizes, i));
    for (int i = 0; i < ndims; i++)
        rec_int(&r, distribs[i]);
    for (int i = 0; i < ndims; i++)
        rec_int(&r, dargs[i]);
    for (int i = 0; i < ndims; i++)
        rec_int(&r, psizes[i]);
    rec_int(&r, order);
    free(coords);
    dims_free(&m);
    return finish(call, t, err, MPI_COMBINER_DARRAY, &r, 1, &old, newtype);
}

#pragma weak MPI_Type_create_darray = PMPI_Type_create_darray
int PMPI_Type_create_darray(int size, int rank, int ndims, const int gsizes[], const int distribs[],
                            const int dargs[], const int psizes[], int order, MPI_Datatype old,
                            MPI_Datatype *newtype)
{
    return darray("MPI_Type_create_darray", 0, size, rank, ndims, ARR_INT(gsizes), distribs, dargs, psizes, order,
                  old, newtype);
}

#pragma weak MPI_Type_create_darray_c = PMPI_Type_create_darray_c
int PMPI_Type_create_darray_c(int size, int rank, int ndims, const MPI_Count gsizes[], const int distribs[],
                              const int dargs[], const int psizes[], int order, MPI_Datatype old,
                              MPI_Datatype *newtype)
{
    return darray("MPI_Type_create_darray_c", 1, size, rank, ndims, ARR_COUNT(gsizes), distribs, dargs, psizes,
                  order, old, newtype);
}

/* ------------------------------------------------------------ addresses */

/* MPI_Get_address, and MPI-1's MPI_Address (removed in MPI-3.0) */
static int get_address(const char *call, const void *location, MPI_Aint *address)
{
    if (!address)
        return rd_err_raise(MPI_COMM_WORLD, MPI_ERR_ARG, call, "address is NULL");
    *address = (MPI_Aint)(intptr_t)location;
    return MPI_SUCCESS;
}

#pragma weak MPI_Get_address = PMPI_Get_address
int PMPI_Get_address(const void *location, MPI_Aint *address)
{
    return get_address("MPI_Get_address", location, address);
}

#pragma weak MPI_Address = PMPI_Address
int PMPI_Address(void *location, MPI_Aint *address)
{
    return get_address("MPI_Address", location, address);
}

#pragma weak MPI_Aint_add = PMPI_Aint_add
MPI_Aint PMPI_Aint_add(MPI_Aint base, MPI_Aint disp)
{
    return (MPI_Aint)((uintptr_t)base + (uintptr_t)disp);
}

#pragma weak MPI_Aint_diff = PMPI_Aint_diff
MPI_Aint PMPI_Aint_diff(MPI_Aint addr1, MPI_Aint addr2)
{
    return (MPI_Aint)((uintptr_t)addr1 - (uintptr_t)addr2);
}

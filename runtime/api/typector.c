/* Derived datatype constructors: vector, hvector, indexed, hindexed,
 * indexed_block, hindexed_block, struct, subarray, darray, resized; and
 * the address helpers (Get_address, Aint_add, Aint_diff); MPI-1's
 * MPI_Type_hvector, MPI_Type_hindexed, MPI_Type_struct and MPI_Address
 * (removed in MPI-3.0) through the same code. The layouts are
 * built by runtime/objects/datatype.c; here: the checks and the contents. */
#include <limits.h>
#include <mpi.h>
#include <stdint.h>
#include <stdlib.h>

#include "runtime/api/check.h"
#include "runtime/api/dtype.h"

static int bad(int cls, const char *call, const char *fmt, int v)
{
    return rd_err_raise(MPI_COMM_WORLD, cls, call, fmt, v);
}

/* the checks every constructor makes */
static int check_common(const char *call, int count, MPI_Datatype *newtype)
{
    if (count < 0)
        return bad(MPI_ERR_COUNT, call, "count %d is negative", count);
    if (!newtype)
        return rd_err_raise(MPI_COMM_WORLD, MPI_ERR_ARG, call, "newtype is NULL");
    return MPI_SUCCESS;
}

#define CHECK_OLD(call, old)                                                           \
    do {                                                                               \
        if (!rd_dt_valid(old))                                                         \
            return rd_err_raise(MPI_COMM_WORLD, MPI_ERR_TYPE, call, "invalid datatype"); \
    } while (0)

static int check_blen(const char *call, int blen, int i)
{
    if (blen < 0)
        return rd_err_raise(MPI_COMM_WORLD, MPI_ERR_ARG, call, "block length %d (block %d) is negative", blen, i);
    return MPI_SUCCESS;
}

static int check_array(const char *call, int count, const void *a, const char *what)
{
    if (count > 0 && !a)
        return rd_err_raise(MPI_COMM_WORLD, MPI_ERR_ARG, call, "%s is NULL", what);
    return MPI_SUCCESS;
}

#pragma weak MPI_Type_vector = PMPI_Type_vector
int PMPI_Type_vector(int count, int blen, int stride, MPI_Datatype old, MPI_Datatype *newtype)
{
    const char *call = "MPI_Type_vector";
    RD_API_READY("MPI_Type_vector");
    RD_TRY(check_common(call, count, newtype));
    CHECK_OLD(call, old);
    RD_TRY(check_blen(call, blen, 0));
    int err = MPI_SUCCESS, ints[3] = {count, blen, stride};
    MPI_Datatype t = rd_dt_make_vector((size_t)count, (size_t)blen, (MPI_Aint)stride * old->extent, old, &err);
    return rd_dt_api_finish(call, t, err, MPI_COMBINER_VECTOR, 3, ints, 0, NULL, 1, &old, newtype);
}

/* MPI_Type_create_hvector, and MPI-1's MPI_Type_hvector (removed in
 * MPI-3.0): call is the name the program used. */
static int hvector(const char *call, int count, int blen, MPI_Aint stride, MPI_Datatype old,
                   MPI_Datatype *newtype)
{
    RD_API_READY(call);
    RD_TRY(check_common(call, count, newtype));
    CHECK_OLD(call, old);
    RD_TRY(check_blen(call, blen, 0));
    int err = MPI_SUCCESS, ints[2] = {count, blen};
    MPI_Datatype t = rd_dt_make_vector((size_t)count, (size_t)blen, stride, old, &err);
    return rd_dt_api_finish(call, t, err, MPI_COMBINER_HVECTOR, 2, ints, 1, &stride, 1, &old, newtype);
}

#pragma weak MPI_Type_create_hvector = PMPI_Type_create_hvector
int PMPI_Type_create_hvector(int count, int blen, MPI_Aint stride, MPI_Datatype old, MPI_Datatype *newtype)
{
    return hvector("MPI_Type_create_hvector", count, blen, stride, old, newtype);
}

#pragma weak MPI_Type_hvector = PMPI_Type_hvector
int PMPI_Type_hvector(int count, int blen, MPI_Aint stride, MPI_Datatype old, MPI_Datatype *newtype)
{
    return hvector("MPI_Type_hvector", count, blen, stride, old, newtype);
}

/* The indexed family: count blocks of blen[i] (or blen for all) old at
 * disp[i] (in extents of old unless bytes). */
static int indexed(const char *call, int combiner, int count, const int *blens, int blen, const int *idisp,
                   const MPI_Aint *adisp, MPI_Datatype old, MPI_Datatype *newtype)
{
    RD_TRY(check_common(call, count, newtype));
    CHECK_OLD(call, old);
    RD_TRY(check_array(call, count, blens ? (const void *)blens : (const void *)&blen, "array_of_blocklengths"));
    RD_TRY(check_array(call, count, idisp ? (const void *)idisp : (const void *)adisp, "array_of_displacements"));
    size_t *bl = malloc(sizeof(size_t) * (size_t)(count ? count : 1));
    MPI_Aint *d = malloc(sizeof(MPI_Aint) * (size_t)(count ? count : 1));
    int *ints = malloc(sizeof(int) * (2 * (size_t)count + 2));
    if (!bl || !d || !ints) {
        free(bl);
        free(d);
        free(ints);
        return rd_err_raise(MPI_COMM_WORLD, MPI_ERR_NO_MEM, call, "out of memory");
    }
    int rc = MPI_SUCCESS;
    for (int i = 0; i < count && rc == MPI_SUCCESS; i++) {
        int b = blens ? blens[i] : blen;
        rc = check_blen(call, b, i);
        bl[i] = (size_t)b;
        d[i] = idisp ? (MPI_Aint)idisp[i] * old->extent : adisp[i];
    }
    MPI_Datatype t = NULL;
    int err = MPI_SUCCESS, ni = 0;
    if (rc == MPI_SUCCESS) {
        t = rd_dt_make_blocks((size_t)count, bl, d, &old, 1, 0, &err);
        /* the integers of the envelope: count, then the block lengths
         * (or the one length), then the integer displacements */
        ints[ni++] = count;
        if (blens)
            for (int i = 0; i < count; i++)
                ints[ni++] = blens[i];
        else
            ints[ni++] = blen;
        if (idisp)
            for (int i = 0; i < count; i++)
                ints[ni++] = idisp[i];
        rc = rd_dt_api_finish(call, t, err, combiner, ni, ints, idisp ? 0 : count, adisp, 1, &old, newtype);
    }
    free(bl);
    free(d);
    free(ints);
    return rc;
}

#pragma weak MPI_Type_indexed = PMPI_Type_indexed
int PMPI_Type_indexed(int count, const int blens[], const int disps[], MPI_Datatype old, MPI_Datatype *newtype)
{
    RD_API_READY("MPI_Type_indexed");
    return indexed("MPI_Type_indexed", MPI_COMBINER_INDEXED, count, blens, 0, disps, NULL, old, newtype);
}

#pragma weak MPI_Type_create_hindexed = PMPI_Type_create_hindexed
int PMPI_Type_create_hindexed(int count, const int blens[], const MPI_Aint disps[], MPI_Datatype old,
                              MPI_Datatype *newtype)
{
    RD_API_READY("MPI_Type_create_hindexed");
    return indexed("MPI_Type_create_hindexed", MPI_COMBINER_HINDEXED, count, blens, 0, NULL, disps, old, newtype);
}

#pragma weak MPI_Type_hindexed = PMPI_Type_hindexed
int PMPI_Type_hindexed(int count, const int blens[], const MPI_Aint disps[], MPI_Datatype old,
                       MPI_Datatype *newtype)
{
    RD_API_READY("MPI_Type_hindexed");
    return indexed("MPI_Type_hindexed", MPI_COMBINER_HINDEXED, count, blens, 0, NULL, disps, old, newtype);
}

#pragma weak MPI_Type_create_indexed_block = PMPI_Type_create_indexed_block
int PMPI_Type_create_indexed_block(int count, int blen, const int disps[], MPI_Datatype old,
                                   MPI_Datatype *newtype)
{
    RD_API_READY("MPI_Type_create_indexed_block");
    return indexed("MPI_Type_create_indexed_block", MPI_COMBINER_INDEXED_BLOCK, count, NULL, blen, disps, NULL,
                   old, newtype);
}

#pragma weak MPI_Type_create_hindexed_block = PMPI_Type_create_hindexed_block
int PMPI_Type_create_hindexed_block(int count, int blen, const MPI_Aint disps[], MPI_Datatype old,
                                    MPI_Datatype *newtype)
{
    RD_API_READY("MPI_Type_create_hindexed_block");
    return indexed("MPI_Type_create_hindexed_block", MPI_COMBINER_HINDEXED_BLOCK, count, NULL, blen, NULL, disps,
                   old, newtype);
}

/* MPI_Type_create_struct, and MPI-1's MPI_Type_struct (removed in
 * MPI-3.0): call is the name the program used. */
static int type_struct(const char *call, int count, const int blens[], const MPI_Aint disps[],
                       const MPI_Datatype types[], MPI_Datatype *newtype)
{
    RD_API_READY(call);
    RD_TRY(check_common(call, count, newtype));
    RD_TRY(check_array(call, count, blens, "array_of_blocklengths"));
    RD_TRY(check_array(call, count, disps, "array_of_displacements"));
    RD_TRY(check_array(call, count, types, "array_of_types"));
    for (int i = 0; i < count; i++) {
        RD_TRY(check_blen(call, blens[i], i));
        if (!rd_dt_valid(types[i]))
            return bad(MPI_ERR_TYPE, call, "array_of_types[%d] is not a valid datatype", i);
    }
    size_t *bl = malloc(sizeof(size_t) * (size_t)(count ? count : 1));
    int *ints = malloc(sizeof(int) * ((size_t)count + 1));
    if (!bl || !ints) {
        free(bl);
        free(ints);
        return rd_err_raise(MPI_COMM_WORLD, MPI_ERR_NO_MEM, call, "out of memory");
    }
    ints[0] = count;
    for (int i = 0; i < count; i++) {
        bl[i] = (size_t)blens[i];
        ints[i + 1] = blens[i];
    }
    int err = MPI_SUCCESS;
    MPI_Datatype t = rd_dt_make_blocks((size_t)count, bl, disps, types, 0, 1, &err);
    int rc = rd_dt_api_finish(call, t, err, MPI_COMBINER_STRUCT, count + 1, ints, count, disps, count, types,
                              newtype);
    free(bl);
    free(ints);
    return rc;
}

#pragma weak MPI_Type_create_struct = PMPI_Type_create_struct
int PMPI_Type_create_struct(int count, const int blens[], const MPI_Aint disps[], const MPI_Datatype types[],
                            MPI_Datatype *newtype)
{
    return type_struct("MPI_Type_create_struct", count, blens, disps, types, newtype);
}

#pragma weak MPI_Type_struct = PMPI_Type_struct
int PMPI_Type_struct(int count, const int blens[], const MPI_Aint disps[], const MPI_Datatype types[],
                     MPI_Datatype *newtype)
{
    return type_struct("MPI_Type_struct", count, blens, disps, types, newtype);
}

#pragma weak MPI_Type_create_resized = PMPI_Type_create_resized
int PMPI_Type_create_resized(MPI_Datatype old, MPI_Aint lb, MPI_Aint extent, MPI_Datatype *newtype)
{
    const char *call = "MPI_Type_create_resized";
    RD_API_READY("MPI_Type_create_resized");
    RD_TRY(check_common(call, 0, newtype));
    CHECK_OLD(call, old);
    int err = MPI_SUCCESS;
    MPI_Aint a[2] = {lb, extent};
    MPI_Datatype t = rd_dt_make_resized(old, lb, extent, &err);
    return rd_dt_api_finish(call, t, err, MPI_COMBINER_RESIZED, 0, NULL, 2, a, 1, &old, newtype);
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
    if (nfull <= 1) {
        /* at most two blocks: index them */
        size_t bl[2] = {nfull ? b : 0, nfull < nb ? last : 0};
        MPI_Aint d[2] = {(MPI_Aint)first * stride, (MPI_Aint)(first + nfull * step) * stride};
        t = rd_dt_make_blocks(2, bl, d, &c, 1, 0, err);
    } else {
        MPI_Datatype v = rd_dt_make_vector(nfull, b, (MPI_Aint)step * stride, c, err);
        if (v) {
            size_t bl[2] = {1, nfull < nb ? last : 0};
            MPI_Aint d[2] = {(MPI_Aint)first * stride, (MPI_Aint)(first + nfull * step) * stride};
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
static MPI_Datatype array_type(int ndims, const int *g, const size_t *first, const size_t *b, const size_t *step,
                               MPI_Datatype old, int *err)
{
    MPI_Aint stride = old->extent, total = old->extent;
    MPI_Datatype t = old;
    rd_dt_retain(old);
    for (int i = 0; i < ndims && t; i++) {
        t = dim_type(t, stride, (size_t)g[i], first[i], b[i], step[i], err);
        stride *= g[i];
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
        return bad(MPI_ERR_ARG, call, "order %d is neither MPI_ORDER_C nor MPI_ORDER_FORTRAN", order);
    return MPI_SUCCESS;
}

/* the product of n sizes, or -1 if the byte size of the array overflows */
static int array_fits(int ndims, const int *g, MPI_Datatype old)
{
    MPI_Aint p = old->extent < 0 ? -old->extent : old->extent;
    for (int i = 0; i < ndims; i++)
        if (__builtin_mul_overflow(p, (MPI_Aint)g[i], &p))
            return 0;
    return 1;
}

#pragma weak MPI_Type_create_subarray = PMPI_Type_create_subarray
int PMPI_Type_create_subarray(int ndims, const int sizes[], const int subsizes[], const int starts[], int order,
                              MPI_Datatype old, MPI_Datatype *newtype)
{
    const char *call = "MPI_Type_create_subarray";
    RD_API_READY("MPI_Type_create_subarray");
    if (ndims <= 0)
        return bad(MPI_ERR_ARG, call, "ndims %d is not positive", ndims);
    RD_TRY(check_common(call, 0, newtype));
    CHECK_OLD(call, old);
    if (!sizes || !subsizes || !starts)
        return rd_err_raise(MPI_COMM_WORLD, MPI_ERR_ARG, call, "an array argument is NULL");
    RD_TRY(check_order(call, order));
    for (int i = 0; i < ndims; i++) {
        if (sizes[i] < 1)
            return rd_err_raise(MPI_COMM_WORLD, MPI_ERR_ARG, call, "array_of_sizes[%d] = %d is not positive", i,
                                sizes[i]);
        if (subsizes[i] < 1 || subsizes[i] > sizes[i])
            return rd_err_raise(MPI_COMM_WORLD, MPI_ERR_ARG, call, "array_of_subsizes[%d] = %d is not in [1, %d]",
                                i, subsizes[i], sizes[i]);
        if (starts[i] < 0 || starts[i] > sizes[i] - subsizes[i])
            return rd_err_raise(MPI_COMM_WORLD, MPI_ERR_ARG, call, "array_of_starts[%d] = %d is not in [0, %d]",
                                i, starts[i], sizes[i] - subsizes[i]);
    }
    if (!array_fits(ndims, sizes, old))
        return rd_err_raise(MPI_COMM_WORLD, MPI_ERR_ARG, call, "the array's size does not fit in an MPI_Aint");
    int *g = malloc(sizeof(int) * (size_t)ndims), *ints = malloc(sizeof(int) * (3 * (size_t)ndims + 2));
    size_t *f = malloc(sizeof(size_t) * 3 * (size_t)ndims);
    if (!g || !ints || !f) {
        free(g);
        free(ints);
        free(f);
        return rd_err_raise(MPI_COMM_WORLD, MPI_ERR_NO_MEM, call, "out of memory");
    }
    size_t *b = f + ndims, *step = f + 2 * ndims;
    for (int i = 0; i < ndims; i++) {
        int j = order == MPI_ORDER_C ? ndims - 1 - i : i; /* memory order: fastest first */
        g[i] = sizes[j];
        f[i] = (size_t)starts[j];
        b[i] = (size_t)subsizes[j];
        step[i] = (size_t)sizes[j]; /* one block */
    }
    int err = MPI_SUCCESS;
    MPI_Datatype t = array_type(ndims, g, f, b, step, old, &err);
    ints[0] = ndims;
    for (int i = 0; i < ndims; i++) {
        ints[1 + i] = sizes[i];
        ints[1 + ndims + i] = subsizes[i];
        ints[1 + 2 * ndims + i] = starts[i];
    }
    ints[1 + 3 * ndims] = order;
    int rc = rd_dt_api_finish(call, t, err, MPI_COMBINER_SUBARRAY, 3 * ndims + 2, ints, 0, NULL, 1, &old, newtype);
    free(g);
    free(ints);
    free(f);
    return rc;
}

#pragma weak MPI_Type_create_darray = PMPI_Type_create_darray
int PMPI_Type_create_darray(int size, int rank, int ndims, const int gsizes[], const int distribs[],
                            const int dargs[], const int psizes[], int order, MPI_Datatype old,
                            MPI_Datatype *newtype)
{
    const char *call = "MPI_Type_create_darray";
    RD_API_READY("MPI_Type_create_darray");
    if (size <= 0)
        return bad(MPI_ERR_ARG, call, "size %d is not positive", size);
    if (rank < 0 || rank >= size)
        return rd_err_raise(MPI_COMM_WORLD, MPI_ERR_RANK, call, "rank %d is not in [0, %d)", rank, size);
    if (ndims <= 0)
        return bad(MPI_ERR_ARG, call, "ndims %d is not positive", ndims);
    RD_TRY(check_common(call, 0, newtype));
    CHECK_OLD(call, old);
    if (!gsizes || !distribs || !dargs || !psizes)
        return rd_err_raise(MPI_COMM_WORLD, MPI_ERR_ARG, call, "an array argument is NULL");
    RD_TRY(check_order(call, order));
    long long procs = 1;
    for (int i = 0; i < ndims; i++) {
        if (gsizes[i] < 1)
            return rd_err_raise(MPI_COMM_WORLD, MPI_ERR_ARG, call, "array_of_gsizes[%d] = %d is not positive", i,
                                gsizes[i]);
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
            (long long)dargs[i] * psizes[i] < gsizes[i])
            return rd_err_raise(MPI_COMM_WORLD, MPI_ERR_ARG, call,
                                "block size %d times %d processes does not cover the %d elements of dimension %d",
                                dargs[i], psizes[i], gsizes[i], i);
        procs *= psizes[i];
        if (procs > size)
            break;
    }
    if (procs != size)
        return bad(MPI_ERR_ARG, call, "the process grid does not have %d processes", size);
    if (!array_fits(ndims, gsizes, old))
        return rd_err_raise(MPI_COMM_WORLD, MPI_ERR_ARG, call, "the array's size does not fit in an MPI_Aint");
    int *g = malloc(sizeof(int) * (size_t)ndims), *ints = malloc(sizeof(int) * (4 * (size_t)ndims + 4));
    size_t *f = malloc(sizeof(size_t) * 3 * (size_t)ndims);
    int *coords = malloc(sizeof(int) * (size_t)ndims);
    if (!g || !ints || !f || !coords) {
        free(g);
        free(ints);
        free(f);
        free(coords);
        return rd_err_raise(MPI_COMM_WORLD, MPI_ERR_NO_MEM, call, "out of memory");
    }
    /* the process grid is in row-major order whatever the array's order */
    for (int i = ndims - 1, r = rank; i >= 0; i--) {
        coords[i] = r % psizes[i];
        r /= psizes[i];
    }
    size_t *b = f + ndims, *step = f + 2 * ndims;
    for (int i = 0; i < ndims; i++) {
        int j = order == MPI_ORDER_C ? ndims - 1 - i : i; /* memory order: fastest first */
        size_t gs = (size_t)gsizes[j], p = (size_t)psizes[j], blk;
        if (distribs[j] == MPI_DISTRIBUTE_NONE)
            blk = gs;
        else if (dargs[j] != MPI_DISTRIBUTE_DFLT_DARG)
            blk = (size_t)dargs[j];
        else if (distribs[j] == MPI_DISTRIBUTE_BLOCK)
            blk = (gs + p - 1) / p;
        else
            blk = 1;
        /* blocks of blk at coords * blk, every p * blk (block: just one) */
        g[i] = gsizes[j];
        f[i] = (size_t)coords[j] * blk;
        b[i] = blk;
        step[i] = p * blk;
    }
    int err = MPI_SUCCESS;
    MPI_Datatype t = array_type(ndims, g, f, b, step, old, &err);
    int n = 0;
    ints[n++] = size;
    ints[n++] = rank;
    ints[n++] = ndims;
    for (int i = 0; i < ndims; i++)
        ints[n + i] = gsizes[i], ints[n + ndims + i] = distribs[i], ints[n + 2 * ndims + i] = dargs[i],
        ints[n + 3 * ndims + i] = psizes[i];
    n += 4 * ndims;
    ints[n++] = order;
    int rc = rd_dt_api_finish(call, t, err, MPI_COMBINER_DARRAY, n, ints, 0, NULL, 1, &old, newtype);
    free(g);
    free(ints);
    free(f);
    free(coords);
    return rc;
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

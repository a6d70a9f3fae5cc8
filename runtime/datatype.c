/* datatype.c - predefined datatypes and the pack/unpack engine (datatype.h). */
#include "runtime/datatype.h"

#include <complex.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#define RD_BASIC(var, ctype, label)                                                    \
    struct rd_datatype_s var = {                                                       \
        .magic = RD_DT_MAGIC, .predefined = 1, .committed = 1,                         \
        .size = sizeof(ctype), .lb = 0, .extent = sizeof(ctype), .true_lb = 0,         \
        .true_extent = sizeof(ctype), .contig = 1, .nblocks = 1,                       \
        .blocks = var.inline_blocks, .elements = 1, .basic = &var,                     \
        .inline_blocks = {{0, sizeof(ctype)}}, .name = label};

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

/* Fortran pair types: two of the same type, contiguous */
#define RD_TWIN(var, ctype, basicvar, label)                                           \
    struct rd_datatype_s var = {                                                       \
        .magic = RD_DT_MAGIC, .predefined = 1, .committed = 1,                         \
        .size = 2 * sizeof(ctype), .lb = 0, .extent = 2 * sizeof(ctype), .true_lb = 0, \
        .true_extent = 2 * sizeof(ctype), .contig = 1, .nblocks = 2,                   \
        .blocks = var.inline_blocks, .elements = 2, .basic = &basicvar,                \
        .inline_blocks = {{0, sizeof(ctype)}, {sizeof(ctype), sizeof(ctype)}},         \
        .name = label};
RD_TWIN(rd_mpi_2integer, int32_t, rd_mpi_integer, "MPI_2INTEGER")
RD_TWIN(rd_mpi_2real, float, rd_mpi_real, "MPI_2REAL")
RD_TWIN(rd_mpi_2double_precision, double, rd_mpi_double_precision, "MPI_2DOUBLE_PRECISION")

/* The pair types of MINLOC/MAXLOC: a value and an int, laid out as the C
 * struct would be (with its padding). */
#define RD_PAIR(var, vtype, label, isint)                                              \
    struct rd_pair_##var { vtype v; int i; };                                          \
    struct rd_datatype_s var = {                                                       \
        .magic = RD_DT_MAGIC, .predefined = 1, .committed = 1,                         \
        .size = sizeof(vtype) + sizeof(int), .lb = 0,                                  \
        .extent = sizeof(struct rd_pair_##var), .true_lb = 0,                          \
        .true_extent = offsetof(struct rd_pair_##var, i) + sizeof(int),                \
        .contig = sizeof(vtype) + sizeof(int) == sizeof(struct rd_pair_##var) &&       \
                  offsetof(struct rd_pair_##var, i) == sizeof(vtype),                  \
        .nblocks = 2, .blocks = var.inline_blocks, .elements = 2,                      \
        .basic = isint ? &rd_mpi_int : NULL,                                           \
        .inline_blocks = {{0, sizeof(vtype)},                                          \
                          {offsetof(struct rd_pair_##var, i), sizeof(int)}},           \
        .name = label};

RD_PAIR(rd_mpi_float_int, float, "MPI_FLOAT_INT", 0)
RD_PAIR(rd_mpi_double_int, double, "MPI_DOUBLE_INT", 0)
RD_PAIR(rd_mpi_long_int, long, "MPI_LONG_INT", 0)
RD_PAIR(rd_mpi_2int, int, "MPI_2INT", 1)
RD_PAIR(rd_mpi_short_int, short, "MPI_SHORT_INT", 0)
RD_PAIR(rd_mpi_long_double_int, long double, "MPI_LONG_DOUBLE_INT", 0)

/* Walk the packed range [off, off + len) of a non-contiguous layout,
 * copying between the user buffer and the packed stream. */
static void walk(char *buf, MPI_Datatype dt, size_t off, char *packed, size_t len, int to_packed)
{
    size_t elem = off / dt->size, within = off % dt->size;
    size_t b = 0;
    while (b < dt->nblocks && within >= dt->blocks[b].len) {
        within -= dt->blocks[b].len;
        b++;
    }
    while (len > 0) {
        if (b == dt->nblocks) {
            b = 0;
            elem++;
        }
        const struct rd_dt_block *blk = &dt->blocks[b];
        size_t n = blk->len - within;
        if (n > len)
            n = len;
        char *user = buf + (MPI_Aint)elem * dt->extent + blk->off + (MPI_Aint)within;
        if (to_packed)
            memcpy(packed, user, n);
        else
            memcpy(user, packed, n);
        packed += n;
        len -= n;
        within = 0;
        b++;
    }
}

void rd_dt_pack(const void *buf, MPI_Datatype dt, size_t off, void *out, size_t len)
{
    if (len == 0)
        return;
    if (dt->contig)
        memcpy(out, (const char *)buf + dt->true_lb + off, len);
    else
        walk((char *)buf, dt, off, out, len, 1);
}

void rd_dt_unpack(void *buf, MPI_Datatype dt, size_t off, const void *in, size_t len)
{
    if (len == 0)
        return;
    if (dt->contig)
        memcpy((char *)buf + dt->true_lb + off, in, len);
    else
        walk(buf, dt, off, (char *)in, len, 0);
}

MPI_Count rd_dt_elements(MPI_Datatype dt, MPI_Count bytes)
{
    if (dt->size == 0)
        return 0;
    if (dt->basic) {
        size_t bs = dt->basic->size;
        return (size_t)bytes % bs ? -1 : (MPI_Count)((size_t)bytes / bs);
    }
    MPI_Count n = (MPI_Count)((size_t)bytes / dt->size) * dt->elements;
    size_t rem = (size_t)bytes % dt->size;
    for (size_t b = 0; b < dt->nblocks && rem > 0; b++) {
        /* each block of a heterogeneous type is one basic element */
        if (rem < dt->blocks[b].len)
            return -1;
        rem -= dt->blocks[b].len;
        n++;
    }
    return n;
}

void rd_dt_free(MPI_Datatype dt)
{
    if (dt->old)
        rd_dt_release(dt->old);
    dt->magic = 0;
    if (dt->blocks != dt->inline_blocks)
        free(dt->blocks);
    free(dt);
}

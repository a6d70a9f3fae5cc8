/* Packing: MPI_Pack, MPI_Unpack (the native packed form: the data bytes in
 * type-map order, as messages carry them), MPI_Pack_external,
 * MPI_Unpack_external, MPI_Pack_external_size ("external32": big-endian,
 * the standard's sizes, IEEE formats: the conversion is runtime/objects/
 * dtx32.c's), and MPI_Status_set_elements(_x). */
#include <limits.h>
#include <mpi.h>
#include <string.h>

#include "runtime/api/check.h"
#include "runtime/objects/dtx32.h"

static int check_pack_type(const char *call, MPI_Comm comm, MPI_Count count, MPI_Datatype dt)
{
    if (count < 0)
        return rd_err_raise(comm, MPI_ERR_COUNT, call, "count %lld is negative", (long long)count);
    if (!rd_dt_valid(dt))
        return rd_err_raise(comm, MPI_ERR_TYPE, call, "invalid datatype");
    if (!dt->committed)
        return rd_err_raise(comm, MPI_ERR_TYPE, call, "datatype %s is not committed", dt->name);
    if (dt->size > 0 && (uint64_t)count > (uint64_t)INT64_MAX / dt->size)
        return rd_err_raise(comm, MPI_ERR_COUNT, call, "count %lld of %zu-byte elements is more bytes than "
                            "memory has", (long long)count, (size_t)dt->size);
    return MPI_SUCCESS;
}

/* MPI_Pack and MPI_Unpack, and their MPI_Count twins: sizes and the
 * position as MPI_Count (an int call's fit an int) */
static int pack_common(const char *call, const void *inbuf, MPI_Count incount, MPI_Datatype dt, void *outbuf,
                       MPI_Count outsize, MPI_Count *position, MPI_Comm comm)
{
    RD_API_READY(call);
    RD_TRY(rd_check_comm(call, comm));
    RD_TRY(check_pack_type(call, comm, incount, dt));
    if (!position)
        return rd_err_raise(comm, MPI_ERR_ARG, call, "position is NULL");
    if (*position < 0 || outsize < 0 || *position > outsize)
        return rd_err_raise(comm, MPI_ERR_ARG, call, "position %lld is not in [0, outsize %lld]",
                            (long long)*position, (long long)outsize);
    size_t bytes = (size_t)incount * dt->size;
    if (bytes > (size_t)(outsize - *position))
        return rd_err_raise(comm, MPI_ERR_TRUNCATE, call,
                            "%zu bytes do not fit in the %lld bytes left of the output buffer", bytes,
                            (long long)(outsize - *position));
    if (bytes && !outbuf)
        return rd_err_raise(comm, MPI_ERR_BUFFER, call, "outbuf is NULL");
    rd_dt_pack(inbuf, dt, 0, (char *)outbuf + *position, bytes);
    *position += (MPI_Count)bytes;
    return MPI_SUCCESS;
}

static int unpack_common(const char *call, const void *inbuf, MPI_Count insize, MPI_Count *position, void *outbuf,
                         MPI_Count outcount, MPI_Datatype dt, MPI_Comm comm)
{
    RD_API_READY(call);
    RD_TRY(rd_check_comm(call, comm));
    RD_TRY(check_pack_type(call, comm, outcount, dt));
    if (!position)
        return rd_err_raise(comm, MPI_ERR_ARG, call, "position is NULL");
    if (*position < 0 || insize < 0 || *position > insize)
        return rd_err_raise(comm, MPI_ERR_ARG, call, "position %lld is not in [0, insize %lld]",
                            (long long)*position, (long long)insize);
    size_t bytes = (size_t)outcount * dt->size;
    if (bytes > (size_t)(insize - *position))
        return rd_err_raise(comm, MPI_ERR_TRUNCATE, call,
                            "%lld elements need %zu bytes, only %lld are left in the input buffer",
                            (long long)outcount, bytes, (long long)(insize - *position));
    if (bytes && !inbuf)
        return rd_err_raise(comm, MPI_ERR_BUFFER, call, "inbuf is NULL");
    rd_dt_unpack(outbuf, dt, 0, (const char *)inbuf + *position, bytes);
    *position += (MPI_Count)bytes;
    return MPI_SUCCESS;
}

#pragma weak MPI_Pack = PMPI_Pack
int PMPI_Pack(const void *inbuf, int incount, MPI_Datatype dt, void *outbuf, int outsize, int *position,
              MPI_Comm comm)
{
    MPI_Count p = position ? *position : 0;
    RD_TRY(pack_common("MPI_Pack", inbuf, incount, dt, outbuf, outsize, position ? &p : NULL, comm));
    *position = (int)p; /* (at most outsize) */
    return MPI_SUCCESS;
}

#pragma weak MPI_Pack_c = PMPI_Pack_c
int PMPI_Pack_c(const void *inbuf, MPI_Count incount, MPI_Datatype dt, void *outbuf, MPI_Count outsize,
                MPI_Count *position, MPI_Comm comm)
{
    return pack_common("MPI_Pack_c", inbuf, incount, dt, outbuf, outsize, position, comm);
}

#pragma weak MPI_Unpack = PMPI_Unpack
int PMPI_Unpack(const void *inbuf, int insize, int *position, void *outbuf, int outcount, MPI_Datatype dt,
                MPI_Comm comm)
{
    MPI_Count p = position ? *position : 0;
    RD_TRY(unpack_common("MPI_Unpack", inbuf, insize, position ? &p : NULL, outbuf, outcount, dt, comm));
    *position = (int)p; /* (at most insize) */
    return MPI_SUCCESS;
}

#pragma weak MPI_Unpack_c = PMPI_Unpack_c
int PMPI_Unpack_c(const void *inbuf, MPI_Count insize, MPI_Count *position, void *outbuf, MPI_Count outcount,
                  MPI_Datatype dt, MPI_Comm comm)
{
    return unpack_common("MPI_Unpack_c", inbuf, insize, position, outbuf, outcount, dt, comm);
}

/* ------------------------------------------------------------ external32 (runtime/objects/dtx32.c) */

static int check_datarep(const char *call, const char *datarep)
{
    if (!datarep || strcmp(datarep, "external32") != 0)
        return rd_err_raise(MPI_COMM_WORLD, MPI_ERR_ARG, call, "data representation '%s' is not \"external32\"",
                            datarep ? datarep : "(null)");
    return MPI_SUCCESS;
}

/* MPI_Pack_external_size and its MPI_Count twin */
static int external_size(const char *call, const char *datarep, MPI_Count incount, MPI_Datatype dt, MPI_Count *size)
{
    RD_API_READY(call);
    RD_TRY(check_datarep(call, datarep));
    if (incount < 0)
        return rd_err_raise(MPI_COMM_WORLD, MPI_ERR_COUNT, call, "count %lld is negative", (long long)incount);
    if (!rd_dt_valid(dt))
        return rd_err_raise(MPI_COMM_WORLD, MPI_ERR_TYPE, call, "invalid datatype");
    if (!size)
        return rd_err_raise(MPI_COMM_WORLD, MPI_ERR_ARG, call, "size is NULL");
    size_t x = rd_dtx32_size(dt);
    if (x > 0 && (uint64_t)incount > (uint64_t)INT64_MAX / x)
        return rd_err_raise(MPI_COMM_WORLD, MPI_ERR_COUNT, call, "%lld elements of %zu bytes are more bytes than "
                            "memory has", (long long)incount, x);
    *size = (MPI_Count)((size_t)incount * x);
    return MPI_SUCCESS;
}

#pragma weak MPI_Pack_external_size = PMPI_Pack_external_size
int PMPI_Pack_external_size(const char datarep[], int incount, MPI_Datatype dt, MPI_Aint *size)
{
    MPI_Count n = 0;
    RD_TRY(external_size("MPI_Pack_external_size", datarep, incount, dt, size ? &n : NULL));
    *size = (MPI_Aint)n;
    return MPI_SUCCESS;
}

#pragma weak MPI_Pack_external_size_c = PMPI_Pack_external_size_c
int PMPI_Pack_external_size_c(const char datarep[], MPI_Count incount, MPI_Datatype dt, MPI_Count *size)
{
    return external_size("MPI_Pack_external_size_c", datarep, incount, dt, size);
}

static int external(const char *call, const char *datarep, char *buf, MPI_Count count, MPI_Datatype dt,
                    unsigned char *ext, MPI_Aint extsize, MPI_Aint *position, int unpack)
{
    RD_TRY(check_datarep(call, datarep));
    RD_TRY(check_pack_type(call, MPI_COMM_WORLD, count, dt));
    if (!position)
        return rd_err_raise(MPI_COMM_WORLD, MPI_ERR_ARG, call, "position is NULL");
    if (*position < 0 || extsize < 0 || *position > extsize)
        return rd_err_raise(MPI_COMM_WORLD, MPI_ERR_ARG, call, "position %ld is not in [0, %ld]", (long)*position,
                            (long)extsize);
    size_t bytes = (size_t)count * rd_dtx32_size(dt);
    if (bytes > (size_t)(extsize - *position))
        return rd_err_raise(MPI_COMM_WORLD, MPI_ERR_TRUNCATE, call, "%zu bytes %s, only %ld are left", bytes,
                            unpack ? "are needed" : "do not fit", (long)(extsize - *position));
    if (bytes && !ext)
        return rd_err_raise(MPI_COMM_WORLD, MPI_ERR_BUFFER, call, "the packed buffer is NULL");
    if (rd_dtx32_convert(dt, (size_t)count, buf, ext + *position, unpack) != 0)
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

/* the MPI_Count twins */
_Static_assert(sizeof(MPI_Count) == sizeof(MPI_Aint), "an MPI_Count position is an MPI_Aint one");

#pragma weak MPI_Pack_external_c = PMPI_Pack_external_c
int PMPI_Pack_external_c(const char datarep[], const void *inbuf, MPI_Count incount, MPI_Datatype dt, void *outbuf,
                         MPI_Count outsize, MPI_Count *position)
{
    RD_API_READY("MPI_Pack_external_c");
    MPI_Aint p = position ? (MPI_Aint)*position : 0;
    RD_TRY(external("MPI_Pack_external_c", datarep, (char *)inbuf, incount, dt, outbuf, (MPI_Aint)outsize,
                    position ? &p : NULL, 0));
    *position = (MPI_Count)p;
    return MPI_SUCCESS;
}

#pragma weak MPI_Unpack_external_c = PMPI_Unpack_external_c
int PMPI_Unpack_external_c(const char datarep[], const void *inbuf, MPI_Count insize, MPI_Count *position,
                           void *outbuf, MPI_Count outcount, MPI_Datatype dt)
{
    RD_API_READY("MPI_Unpack_external_c");
    MPI_Aint p = position ? (MPI_Aint)*position : 0;
    RD_TRY(external("MPI_Unpack_external_c", datarep, outbuf, outcount, dt, (unsigned char *)inbuf,
                    (MPI_Aint)insize, position ? &p : NULL, 1));
    *position = (MPI_Count)p;
    return MPI_SUCCESS;
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

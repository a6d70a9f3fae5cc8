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

/* ------------------------------------------------------------ external32 (runtime/objects/dtx32.c) */

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
    *size = (MPI_Aint)((size_t)incount * rd_dtx32_size(dt));
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

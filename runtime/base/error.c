/* error.c - internal status codes (see error.h). */
#include "runtime/base/error.h"

#include <mpi.h>

const char *rd_status_string(rd_status st)
{
    switch (st) {
    case RD_OK: return "success";
    case RD_ERR_NOMEM: return "out of memory";
    case RD_ERR_ARG: return "invalid argument";
    case RD_ERR_PARAM: return "invalid parameter";
    case RD_ERR_UNREACH: return "unreachable";
    case RD_ERR_IO: return "system call failed";
    case RD_ERR_TRUNCATE: return "message truncated";
    case RD_ERR_UNSUPPORTED: return "not supported";
    case RD_ERR_INTERNAL: return "internal error";
    case RD_ERR_AGAIN: return "resource temporarily unavailable";
    case RD_ERR_PEER: return "peer failed";
    }
    return "unknown status";
}

int rd_status_to_mpi(rd_status st)
{
    switch (st) {
    case RD_OK: return MPI_SUCCESS;
    case RD_ERR_NOMEM: return MPI_ERR_NO_MEM;
    case RD_ERR_ARG: return MPI_ERR_ARG;
    case RD_ERR_TRUNCATE: return MPI_ERR_TRUNCATE;
    case RD_ERR_UNSUPPORTED: return MPI_ERR_UNSUPPORTED_OPERATION;
    case RD_ERR_INTERNAL: return MPI_ERR_INTERN;
    case RD_ERR_AGAIN:
    case RD_ERR_PEER:
    case RD_ERR_PARAM:
    case RD_ERR_UNREACH:
    case RD_ERR_IO:
        return MPI_ERR_OTHER;
    }
    return MPI_ERR_UNKNOWN;
}

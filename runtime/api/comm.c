/* MPI_Comm_rank, MPI_Comm_size. */
#include <mpi.h>

#include "runtime/comm.h"
#include "runtime/errhandler.h"
#include "runtime/state.h"

#pragma weak MPI_Comm_rank = PMPI_Comm_rank
int PMPI_Comm_rank(MPI_Comm comm, int *rank)
{
    if (!rd_ready())
        return rd_err_not_ready("MPI_Comm_rank");
    if (!rd_comm_valid(comm))
        return rd_err_raise(comm, MPI_ERR_COMM, "MPI_Comm_rank", "invalid communicator");
    if (!rank)
        return rd_err_raise(comm, MPI_ERR_ARG, "MPI_Comm_rank", "rank is NULL");
    *rank = comm->rank;
    return MPI_SUCCESS;
}

#pragma weak MPI_Comm_size = PMPI_Comm_size
int PMPI_Comm_size(MPI_Comm comm, int *size)
{
    if (!rd_ready())
        return rd_err_not_ready("MPI_Comm_size");
    if (!rd_comm_valid(comm))
        return rd_err_raise(comm, MPI_ERR_COMM, "MPI_Comm_size", "invalid communicator");
    if (!size)
        return rd_err_raise(comm, MPI_ERR_ARG, "MPI_Comm_size", "size is NULL");
    *size = comm->size;
    return MPI_SUCCESS;
}

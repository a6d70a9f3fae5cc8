/* MPI_Buffer_attach / MPI_Buffer_detach: the checks; the attached buffer
 * and its allocator belong to the p2p engine (runtime/p2p/bsend.c). */
#include <mpi.h>

#include "runtime/api/check.h"
#include "runtime/p2p/bsend.h"

#pragma weak MPI_Buffer_attach = PMPI_Buffer_attach
int PMPI_Buffer_attach(void *buffer, int size)
{
    RD_API_READY("MPI_Buffer_attach");
    if (size < 0)
        return rd_err_raise(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Buffer_attach", "size %d is negative", size);
    if (!buffer && size > 0)
        return rd_err_raise(MPI_COMM_WORLD, MPI_ERR_BUFFER, "MPI_Buffer_attach", "buffer is NULL");
    if (rd_bsend_attached())
        return rd_err_raise(MPI_COMM_WORLD, MPI_ERR_BUFFER, "MPI_Buffer_attach",
                            "a buffer is already attached (detach it first)");
    RD_LOCK();
    rd_bsend_attach(buffer, (size_t)size);
    RD_UNLOCK();
    return MPI_SUCCESS;
}

#pragma weak MPI_Buffer_detach = PMPI_Buffer_detach
int PMPI_Buffer_detach(void *buffer_addr, int *size)
{
    RD_API_READY("MPI_Buffer_detach");
    if (!buffer_addr || !size)
        return rd_err_raise(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Buffer_detach", "%s is NULL",
                            size ? "buffer_addr" : "size");
    size_t bytes;
    RD_LOCK();
    rd_bsend_detach((void **)buffer_addr, &bytes);
    RD_UNLOCK();
    *size = (int)bytes;
    return MPI_SUCCESS;
}

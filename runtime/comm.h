/* comm.h - communicators. */
#ifndef RD_COMM_H
#define RD_COMM_H

#include <mpi.h>
#include <stdint.h>

#define RD_COMM_MAGIC 0x436f6d6du /* "Comm" */

struct rd_comm_s {
    uint32_t magic;         /* RD_COMM_MAGIC while the object is alive */
    int rank, size;
    MPI_Errhandler errh;
    char name[MPI_MAX_OBJECT_NAME];
};

/* Set up MPI_COMM_WORLD and MPI_COMM_SELF from the job facts. */
void rd_comm_init_predefined(void);

static inline int rd_comm_valid(MPI_Comm comm)
{
    return comm != MPI_COMM_NULL && comm->magic == RD_COMM_MAGIC;
}

#endif

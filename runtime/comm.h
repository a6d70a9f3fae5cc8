/* comm.h - communicators. */
#ifndef RD_COMM_H
#define RD_COMM_H

#include <mpi.h>
#include <stdint.h>

#define RD_COMM_MAGIC 0x436f6d6du /* "Comm" */

struct rd_comm_s {
    uint32_t magic;         /* RD_COMM_MAGIC while the object is alive */
    int rank, size;
    uint32_t ctx;           /* context id: messages match only within it */
    int *world_ranks;       /* comm rank -> world rank; NULL: the identity */
    MPI_Errhandler errh;
    char name[MPI_MAX_OBJECT_NAME];
};

/* Set up MPI_COMM_WORLD and MPI_COMM_SELF from the job facts. */
void rd_comm_init_predefined(void);

#define RD_CTX_WORLD 0u
#define RD_CTX_SELF 1u

static inline int rd_comm_world_rank(MPI_Comm comm, int rank)
{
    return comm->world_ranks ? comm->world_ranks[rank] : rank;
}

static inline int rd_comm_valid(MPI_Comm comm)
{
    return comm != MPI_COMM_NULL && comm->magic == RD_COMM_MAGIC;
}

#endif

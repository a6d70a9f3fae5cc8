/* comm.c - communicators (comm.h). */
#include "runtime/comm.h"

#include "runtime/job.h"

/* Usable before MPI_Init so that errors found then reach a handler. */
static int rd_self_world_rank[1];

struct rd_comm_s rd_mpi_comm_world = {
    .magic = RD_COMM_MAGIC, .rank = 0, .size = 1, .ctx = RD_CTX_WORLD, .errh = MPI_ERRORS_ARE_FATAL,
    .name = "MPI_COMM_WORLD"};
struct rd_comm_s rd_mpi_comm_self = {
    .magic = RD_COMM_MAGIC, .rank = 0, .size = 1, .ctx = RD_CTX_SELF,
    .world_ranks = rd_self_world_rank, .errh = MPI_ERRORS_ARE_FATAL,
    .name = "MPI_COMM_SELF"};

void rd_comm_init_predefined(void)
{
    rd_mpi_comm_world.rank = rd_job.rank;
    rd_mpi_comm_world.size = rd_job.size;
    rd_mpi_comm_world.errh = MPI_ERRORS_ARE_FATAL;
    rd_self_world_rank[0] = rd_job.rank;
    rd_mpi_comm_self.rank = 0;
    rd_mpi_comm_self.size = 1;
    rd_mpi_comm_self.errh = MPI_ERRORS_ARE_FATAL;
}

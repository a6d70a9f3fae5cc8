/* topo.h - the topologies that a communicator may carry (graph.c; their
 * structures are in runtime/objects/comm.h). */
#ifndef RD_API_TOPO_H
#define RD_API_TOPO_H

#include "runtime/objects/comm.h"

/* Free comm's topology (the hook runtime/api/lifecycle.c registers with
 * rd_comm_on_free). */
void rd_topo_free(MPI_Comm comm);
/* Copy from's topology to to (MPI_Comm_dup); an MPI error class. */
int rd_topo_copy(MPI_Comm from, MPI_Comm to);

#endif

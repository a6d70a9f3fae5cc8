/* intercomm.h - the intercommunicator forms of communicator constructors
 * (api/intercomm.c), called by the MPI_Comm_* entry points in api/comm.c
 * once the arguments are checked. Each returns an MPI error class, raised
 * on comm when not MPI_SUCCESS. */
#ifndef RD_API_INTERCOMM_H
#define RD_API_INTERCOMM_H

#include <mpi.h>

/* MPI_Comm_dup of an intercommunicator (attributes are the caller's). */
int rd_inter_dup(MPI_Comm comm, const char *call, MPI_Comm *newcomm);
/* MPI_Comm_split of an intercommunicator: each group splits by colour;
 * the members of one colour in both groups form a new intercommunicator
 * (MPI_COMM_NULL when either side has none, or for MPI_UNDEFINED). */
int rd_inter_split(MPI_Comm comm, const char *call, int color, int key, MPI_Comm *newcomm);

#endif

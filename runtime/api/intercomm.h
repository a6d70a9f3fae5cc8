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

/* MPI_Intercomm_create with peer_comm's library tag given (not a user
 * tag): MPI_Intercomm_create_from_groups's leaders (comm.c). */
int rd_inter_create_tagged(MPI_Comm local_comm, int local_leader, MPI_Comm peer_comm, int remote_leader,
                           int libtag, MPI_Comm *newintercomm);

#endif

/* pair.h - one request for a send and a receive started together
 * (MPI_Isendrecv, MPI_Isendrecv_replace): pair.c. */
#ifndef RD_P2P_PAIR_H
#define RD_P2P_PAIR_H

#include "runtime/p2p/request.h"

/* The user's request for send and recv (both started, owned from now on:
 * released when the pair completes; copy, if not NULL, freed then). NULL
 * when out of memory: the caller still owns send, recv and copy. Under
 * the big lock. */
struct rd_request_s *rd_pair_start(MPI_Comm comm, struct rd_request_s *send, struct rd_request_s *recv,
                                   void *copy);

/* The progress hook that completes pairs (registered while any is pending). */
int rd_pair_progress(void);

#endif

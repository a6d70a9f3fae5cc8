/* persist.h - persistent collectives (MPI_Barrier_init ...
 * MPI_Neighbor_alltoallw_init): chosen and built once at the init, run
 * by every MPI_Start (persist.c). */
#ifndef RD_COLL_PERSIST_H
#define RD_COLL_PERSIST_H

#include "collectives/algorithms.h"
#include "runtime/p2p/request.h"

/* The init of collective `kind` with the checked arguments a (collective
 * over a->comm, ordered as the collectives are): *req becomes a
 * persistent request, inactive. An error class on failure (nothing made). */
int rd_pcoll_init(int kind, const struct rd_coll_args *a, struct rd_request_s **req);
/* MPI_Start of such a request (inactive; the caller marked it active):
 * an error class (nothing started) or MPI_SUCCESS. Lock held. */
int rd_pcoll_start(struct rd_request_s *req);
/* MPI_Wait's first look at a started one: a short spin on what the node
 * path waits for, before the general wait (which polls every transport).
 * Lock held. */
void rd_pcoll_poll(struct rd_request_s *req);
/* MPI_Request_free of one that is not active: its state goes. (An active
 * one the caller marks user_freed; its state goes when it completes.) */
void rd_pcoll_free(struct rd_request_s *req);

#endif

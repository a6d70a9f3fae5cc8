/* lifecycle.h - bringing the library up and down (lifecycle.c): every
 * floor in order, from the services to the collectives. */
#ifndef RD_API_LIFECYCLE_H
#define RD_API_LIFECYCLE_H

#include <stddef.h>

#include "runtime/base/error.h"

/* Bring up / tear down every floor (params, log, job, communicators, the
 * p2p engine, the collectives). On failure, err holds the reason. */
rd_status rd_init(int required, int *provided, char *err, size_t errlen);
rd_status rd_finalize(void);

/* The library is up while the World Model (MPI_Init .. MPI_Finalize) or
 * any session (MPI_Session_init .. MPI_Session_finalize) is: the first of
 * them brings it up (rd_init), and it goes down (rd_finalize) at
 * MPI_Finalize when no session is left, at the last MPI_Session_finalize
 * after MPI_Finalize, or, when only sessions ever used it, at the
 * process's exit (so that a program may make a session again after
 * finalizing its last one). world: the World Model (1) or a session (0).
 * rd_life_up: 0; an MPI error class and why in err (MPI_Init twice, after
 * the library went down); -1 if rd_init failed (err says why: the caller
 * ends the job). *provided: the thread level, raised to `required` when
 * the library was already up at a lower one. */
int rd_life_up(int world, int required, int *provided, char *err, size_t errlen);
rd_status rd_life_down(int world);

#endif

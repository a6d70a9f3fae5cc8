/* greq.h - generalized requests (MPI-3.1 12.2): the calls of the user's
 * callbacks that runtime/api/request.c makes when it completes, frees or
 * cancels an RD_REQ_GREQ request. Each is called with the big lock held
 * and drops it around the callback, which may call MPI. */
#ifndef RD_API_GREQ_H
#define RD_API_GREQ_H

#include <mpi.h>

#include "runtime/p2p/request.h"

/* query_fn into *st (an empty status first); returns query_fn's code. */
int rd_greq_query(struct rd_request_s *req, MPI_Status *st);
/* free_fn; returns its code. */
int rd_greq_free(struct rd_request_s *req);
/* A completed request collected by Wait/Test: query_fn into *st, then
 * free_fn; returns query_fn's error, or free_fn's when query_fn succeeded. */
int rd_greq_collect(struct rd_request_s *req, MPI_Status *st);
/* cancel_fn(extra_state, complete); returns its code. */
int rd_greq_cancel(struct rd_request_s *req, int complete);

#endif

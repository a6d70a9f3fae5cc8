/* shmcoll.h - collectives of node-local communicators through the node's
 * memory (runtime/nodemem.h): the steps on a communicator's slot of the
 * arena (shmcoll.c), shared by the small collectives there and the direct
 * single-copy Allgather and Alltoall (shmdirect.c).
 *
 * Collective number s (comm->node_seq counts them): rd_nc_guard(s) before a
 * rank overwrites its area for s; the rank writes its area
 * (rd_nc_data(comm, rank, s)) and rd_nc_post(s); readers
 * rd_nc_wait_posted(j, s), read, and rd_nc_finish(s) ("I have read
 * everything up to s"); rd_nc_wait_done(s) waits until every other rank
 * has finished s. */
#ifndef RD_SHMCOLL_H
#define RD_SHMCOLL_H

#include <stdint.h>

#include "collectives/coll.h"

/* First use of comm: 1 if it goes through the node's memory (a slot is
 * claimed, collectively), else 0 for good. */
int rd_nc_setup(MPI_Comm comm);
void rd_nc_guard(MPI_Comm comm, uint64_t s);
unsigned char *rd_nc_data(MPI_Comm comm, int j, uint64_t s);
void rd_nc_post(MPI_Comm comm, uint64_t s);
int rd_nc_posted(MPI_Comm comm, int j, uint64_t s);
void rd_nc_wait_posted(MPI_Comm comm, int j, uint64_t s);
void rd_nc_wait_all(MPI_Comm comm, uint64_t s);
void rd_nc_finish(MPI_Comm comm, uint64_t s);
void rd_nc_wait_done(MPI_Comm comm, uint64_t s);

/* MPI_Allreduce's short way: a call with valid arguments (the caller
 * checked the handles, dt committed, non-NULL distinct buffers and
 * count > 0) on a
 * communicator that has its slot already and a predefined op, small
 * enough for the areas, runs here and returns 1; 0: take the general way
 * (it reaches the same steps, so ranks may differ in which way they go). */
int rd_shmcoll_allreduce(const void *sbuf, void *rbuf, int count, MPI_Datatype dt, MPI_Op op, MPI_Comm comm);

/* Gather and Scatter: the bytes of one block, from whichever side of the
 * call counts on this rank (a Gather's receive side at the root and send
 * side elsewhere; the reverse for Scatter). */
size_t rd_nc_rooted_block(int kind, const struct rd_coll_args *a);
/* Reduce_scatter(_block): rank r's block is elements [*e0, *e1) of the
 * whole vector, of *total elements (rcounts, or count each for the block
 * form). */
void rd_nc_redscat_block(const struct rd_coll_args *a, int r, long *e0, long *e1, long *total);

/* The direct collectives (shmdirect.c): whether this call goes that way
 * (every rank answers alike: the answer depends only on what MPI requires
 * to match), and running it on a communicator that has a slot (returns the
 * MPI error class). */
int rd_shmdirect_eligible(int kind, const struct rd_coll_args *a);
/* Whether the node's stages are used (RDMPI_COLL_SHM_STAGED; auto: when
 * ranks outnumber cores); the same on every rank. */
int rd_shmdirect_staging(void);
int rd_shmdirect_run(int kind, const struct rd_coll_args *a);

#endif

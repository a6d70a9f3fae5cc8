/* bsend.h - the attached buffer of buffered sends (bsend.c). */
#ifndef RD_P2P_BSEND_H
#define RD_P2P_BSEND_H

#include <mpi.h>
#include <stddef.h>

#include "runtime/base/error.h"

/* The buffer MPI_Buffer_attach gave (lock held): whether there is one,
 * attach one, and detach it once every buffered message has left. */
int rd_bsend_attached(void);
void rd_bsend_attach(void *buf, size_t size);
void rd_bsend_detach(void **buf, size_t *size);

/* Room for bytes in the attached buffer (charged MPI_BSEND_OVERHEAD more);
 * NULL when there is none. */
void *rd_bsend_alloc(size_t bytes);
void rd_bsend_release(void *block);

/* A buffered send: copy (buf, count, dt) into the attached buffer and send
 * it from there with an internal request that frees the space when done.
 * *mpi_err is MPI_ERR_BUFFER (and nothing is sent) when there is no room. */
rd_status rd_bsend_start(const void *buf, int count, MPI_Datatype dt, int dest, int tag, MPI_Comm comm,
                         int *mpi_err);

#endif

/* bsend.h - the buffers of buffered sends (bsend.c): the process's
 * (MPI_Buffer_attach) and communicators' (MPI 4.1's
 * MPI_Comm_attach_buffer: comm->bsend), which a communicator's buffered
 * sends take first. Lock held for all of it. */
#ifndef RD_P2P_BSEND_H
#define RD_P2P_BSEND_H

#include <mpi.h>
#include <stddef.h>

#include "runtime/base/error.h"

struct rd_bsend_buf;

/* The process's buffer (never NULL; attached or not). */
struct rd_bsend_buf *rd_bsend_process(void);
/* Whether b (NULL: none) has memory attached, or is automatic. */
int rd_bsend_attached(const struct rd_bsend_buf *b);
/* Attach buf (MPI_BUFFER_AUTOMATIC: each message gets memory of its own)
 * to *where (made when NULL: a communicator's). */
rd_status rd_bsend_attach(struct rd_bsend_buf **where, void *buf, size_t size);
/* Detach *where's memory once every message in it has left (a
 * communicator's goes: *where becomes NULL); MPI_BUFFER_AUTOMATIC and 0
 * for an automatic one. */
void rd_bsend_detach(struct rd_bsend_buf **where, void **buf, size_t *size);
/* Wait until every message in b (NULL: none) has left; or only say
 * whether they have. */
void rd_bsend_flush(struct rd_bsend_buf *b);
int rd_bsend_flushed(const struct rd_bsend_buf *b);

/* Give back a message's room (the request's bsend_block). */
void rd_bsend_release(void *block);

/* A buffered send: copy (buf, count, dt) into comm's buffer, else its
 * session's (MPI_Session_attach_buffer), else the process's, and send it from there with an internal request that frees
 * the room when done. *mpi_err is MPI_ERR_BUFFER (and nothing is sent)
 * when there is no room. */
rd_status rd_bsend_start(const void *buf, MPI_Count count, MPI_Datatype dt, int dest, int tag, MPI_Comm comm,
                         int *mpi_err);

#endif

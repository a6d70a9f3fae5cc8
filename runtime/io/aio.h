/* aio.h - the I/O engine (runtime/io/PLAN.md 4.6): nonblocking file
 * operations run on one helper thread per process, so that they progress
 * while the program computes without calling MPI.
 *
 * The thread starts with the first operation (a program without
 * nonblocking I/O has none), sleeps on a condition variable when it has
 * nothing to do, and ends at MPI_Finalize (rd_aio_fini). It never touches
 * library state: an operation's run function sees only its own record and
 * what the record holds (a file descriptor, the user's buffer, datatypes
 * held by reference, which nothing modifies). Finished operations go on a
 * lock-free stack; a progress hook (rd_progress_add, registered while
 * operations are in flight) takes them off on the thread that makes
 * progress, under the big lock, and completes their requests (kind
 * RD_REQ_IO: the status counts the bytes moved). So MPI_Wait/Test and
 * their array forms need nothing new, MPI_Request_free of a request in
 * flight is safe (the hook releases it), and a wait for I/O requests only
 * sleeps on rd_io_seq (runtime/p2p/request.h) past its spins instead of
 * spinning against the thread. MPI_Cancel cancels nothing (MPI allows it).
 *
 * Fork: the child has no I/O thread; the operations that were queued or
 * running in the parent complete in the child with MPI_ERR_IO (the parent
 * does them), and the child's first operation starts a thread of its own. */
#ifndef RD_IO_AIO_H
#define RD_IO_AIO_H

#include <mpi.h>
#include <stddef.h>

#include "runtime/io/io_int.h"

struct rd_request_s;

/* One operation. The caller's record embeds it as its first member
 * (rd_aio_op_new gives room for the rest). */
struct rd_aio_op {
    struct rd_aio_op *next; /* the engine's: queue and finished stack */
    /* On the I/O thread: the work. Returns MPI_SUCCESS or an error class
     * (with the cause in why); sets bytes. Must not touch library state. */
    int (*run)(struct rd_aio_op *op);
    /* On the thread that completes the request (big lock held), after run
     * and before the request completes; NULL: nothing to do. Releases what
     * the record holds (datatype references, the file's count of
     * operations in flight). Called exactly once, also when the request
     * was freed by MPI_Request_free or when rd_aio_start fails. */
    void (*finish)(struct rd_aio_op *op);
    void *file;             /* the MPI_File, for the request (errors go to its handler) */
    int in_call;            /* run in rd_aio_start, on the calling thread, big lock held: the
                             * operation calls user code, which may call MPI (a registered
                             * datarep's conversions); it completes in the next progress */
    struct rd_request_s *req;
    size_t bytes;           /* run: the data bytes moved (the status's count) */
    int error;              /* run's result */
    rd_io_why why;
};

/* A zeroed record of size bytes (at least sizeof(struct rd_aio_op)),
 * or NULL when out of memory. */
struct rd_aio_op *rd_aio_op_new(size_t size);

/* Start op (run set; the caller filled its part of the record): makes the
 * RD_REQ_IO request, hands the operation to the I/O thread (started now if
 * need be; if it cannot start, the operation runs here, in the call) and
 * returns the request in *req. Big lock held. On failure (out of memory)
 * returns the class with why, and the op is finished and freed. */
int rd_aio_start(struct rd_aio_op *op, MPI_Request *req, rd_io_why *why);

/* Make progress until *count (a file's operations in flight: rd_io_file's
 * inflight, which the operations' finish functions count down) is 0,
 * sleeping as an I/O wait does (MPI_File_close). Big lock held. */
void rd_aio_drain(_Atomic int *count);

/* Operations started and not yet completed in this process. */
int rd_aio_inflight(void);
/* Whether the I/O thread is running (for tests). */
int rd_aio_thread_running(void);
/* Complete the requests of the operations that have finished (what the
 * progress hook does; big lock held). Returns how many. */
int rd_aio_progress(void);
/* MPI_Finalize: the queued operations are done, the thread ends, their
 * requests complete. Big lock not held. */
void rd_aio_fini(void);

#endif

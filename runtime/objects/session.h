/* session.h - sessions (MPI 4.0 11.3): what a handle holds. The library's
 * life under sessions is runtime/api/lifecycle.c's; the calls are
 * runtime/api/session.c's. */
#ifndef RD_SESSION_H
#define RD_SESSION_H

#include <mpi.h>
#include <stdatomic.h>
#include <stdint.h>

#define RD_SESSION_MAGIC 0x53657373u /* "Sess" */

struct rd_bsend_buf;
struct rd_job_pset;

/* The handle holds a reference, and so do the groups and communicators
 * derived from the session (group->session, comm->session): its buffer
 * for buffered sends is theirs. MPI_Session_finalize invalidates the
 * handle (magic 0) and detaches the buffer; the memory goes with the last
 * reference. */
struct rd_session_s {
    uint32_t magic;       /* RD_SESSION_MAGIC while the handle is valid */
    _Atomic int refs;
    MPI_Errhandler errh;  /* its error handler (one reference) */
    int thread_level;     /* what it asked for, as far as the library gives it */
    _Atomic int32_t fidx; /* its Fortran handle's index, 0: none (objects/fhandle.h) */
    struct rd_bsend_buf *bsend; /* MPI_Session_attach_buffer's (runtime/p2p/bsend.c), or NULL */
    /* The launcher's process sets (runtime/api/session.c), read at the
     * first call that needs them: psets_read is set (release) once psets
     * and npsets hold them; they stay until MPI_Session_finalize. */
    _Atomic int psets_read;
    struct rd_job_pset *psets;
    int npsets;
};

static inline int rd_session_valid(MPI_Session s)
{
    return s != MPI_SESSION_NULL && s->magic == RD_SESSION_MAGIC;
}

static inline void rd_session_retain(struct rd_session_s *s)
{
    if (s)
        atomic_fetch_add_explicit(&s->refs, 1, memory_order_relaxed);
}

/* Drop a reference (NULL: nothing); the last one frees it. */
void rd_session_release(struct rd_session_s *s);

#endif

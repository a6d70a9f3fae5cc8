/* session.h - sessions (MPI 4.0 11.3): what a handle holds. The library's
 * life under sessions is runtime/api/lifecycle.c's; the calls are
 * runtime/api/session.c's. */
#ifndef RD_SESSION_H
#define RD_SESSION_H

#include <mpi.h>
#include <stdatomic.h>
#include <stdint.h>

#define RD_SESSION_MAGIC 0x53657373u /* "Sess" */

struct rd_session_s {
    uint32_t magic;       /* RD_SESSION_MAGIC while alive */
    MPI_Errhandler errh;  /* its error handler (one reference) */
    int thread_level;     /* what it asked for, as far as the library gives it */
    _Atomic int32_t fidx; /* its Fortran handle's index, 0: none (objects/fhandle.h) */
};

static inline int rd_session_valid(MPI_Session s)
{
    return s != MPI_SESSION_NULL && s->magic == RD_SESSION_MAGIC;
}

#endif

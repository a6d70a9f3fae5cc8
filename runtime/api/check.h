/* check.h - argument checks shared by the API entry points. Each returns
 * MPI_SUCCESS or the class raised through the communicator's handler. */
#ifndef RD_API_CHECK_H
#define RD_API_CHECK_H

#include <limits.h>
#include <mpi.h>
#include <stdint.h>

#include "runtime/base/state.h"
#include "runtime/objects/comm.h"
#include "runtime/objects/datatype.h"
#include "runtime/objects/errhandler.h"
#include "runtime/objects/session.h"
#include "runtime/objects/win.h"

/* Every MPI entry point keeps a frame of its own name: rrun's report of
 * what a rank waits in finds the MPI call by the outermost MPI_/PMPI_
 * frame (runtime/base/report.c). GCC's partial inlining would otherwise
 * turn an entry point with an inlined fast path into a stub that jumps to
 * a local PMPI_X.part.0, whose frame dladdr cannot name. */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("no-partial-inlining")
#endif

#define RD_API_READY(call)                                                             \
    do {                                                                               \
        if (!rd_ready())                                                               \
            return rd_err_not_ready(call);                                             \
    } while (0)

static inline int rd_check_win(const char *call, MPI_Win win)
{
    return rd_win_valid(win) ? MPI_SUCCESS : rd_err_raise_win(win, MPI_ERR_WIN, call, "invalid window");
}

/* An invalid session's error goes to the default handler (MPI_ERRORS_ARE_FATAL). */
static inline int rd_check_session(const char *call, MPI_Session s)
{
    if (!rd_session_valid(s))
        return rd_err_raise_session(MPI_SESSION_NULL, MPI_ERR_SESSION, call, "invalid session");
    return MPI_SUCCESS;
}

static inline int rd_check_comm(const char *call, MPI_Comm comm)
{
    return rd_comm_valid(comm) ? MPI_SUCCESS
                               : rd_err_raise(comm, MPI_ERR_COMM, call, "invalid communicator");
}

/* A valid intracommunicator (topologies, Comm_create_group, ...). */
static inline int rd_check_intra(const char *call, MPI_Comm comm)
{
    if (!rd_comm_valid(comm))
        return rd_err_raise(comm, MPI_ERR_COMM, call, "invalid communicator");
    if (comm->is_inter)
        return rd_err_raise(comm, MPI_ERR_COMM, call, "%s is an intercommunicator",
                            comm->name[0] ? comm->name : "the communicator");
    return MPI_SUCCESS;
}

/* count: an int of the plain calls or an MPI_Count of the _c ones */
static inline int rd_check_buf(const char *call, MPI_Comm comm, const void *buf, MPI_Count count,
                               MPI_Datatype dt)
{
    if (count < 0)
        return rd_err_raise(comm, MPI_ERR_COUNT, call, "count %lld is negative", (long long)count);
    if (!rd_dt_valid(dt))
        return rd_err_raise(comm, MPI_ERR_TYPE, call, "invalid datatype");
    if (!dt->committed)
        return rd_err_raise(comm, MPI_ERR_TYPE, call, "datatype %s is not committed", dt->name);
    /* MPI_BOTTOM (NULL) is fine with a type of absolute addresses */
    if (!buf && count > 0 && dt->size > 0 && dt->true_lb == 0)
        return rd_err_raise(comm, MPI_ERR_BUFFER, call, "buffer is NULL for %lld elements", (long long)count);
    /* bytes beyond 2^63: a large count, or a large type */
    size_t bytes;
    if (__builtin_expect(__builtin_mul_overflow((size_t)count, dt->size, &bytes) || bytes > (size_t)INT64_MAX, 0))
        return rd_err_raise(comm, MPI_ERR_COUNT, call, "count %lld of %zu-byte elements is more bytes than "
                            "memory has", (long long)count, (size_t)dt->size);
    return MPI_SUCCESS;
}

static inline int rd_check_dest(const char *call, MPI_Comm comm, int dest, int tag)
{
    /* ranks of the remote group (the group itself for an intracommunicator) */
    if (dest != MPI_PROC_NULL && (dest < 0 || dest >= comm->remote_size))
        return rd_err_raise(comm, MPI_ERR_RANK, call, "destination rank %d is not in [0, %d)", dest,
                            comm->remote_size);
    if (tag < 0 || tag > RDMPI_TAG_UB)
        return rd_err_raise(comm, MPI_ERR_TAG, call, "tag %d is not in [0, MPI_TAG_UB]", tag);
    return MPI_SUCCESS;
}

static inline int rd_check_source(const char *call, MPI_Comm comm, int source, int tag)
{
    if (__builtin_expect(source == MPI_ANY_SOURCE || tag == MPI_ANY_TAG, 0) &&
        ((source == MPI_ANY_SOURCE && comm->no_any_source) || (tag == MPI_ANY_TAG && comm->no_any_tag)))
        return rd_err_raise(comm, source == MPI_ANY_SOURCE && comm->no_any_source ? MPI_ERR_RANK : MPI_ERR_TAG,
                            call, "%s on a communicator made with the hint %s", 
                            source == MPI_ANY_SOURCE && comm->no_any_source ? "MPI_ANY_SOURCE" : "MPI_ANY_TAG",
                            source == MPI_ANY_SOURCE && comm->no_any_source ? "mpi_assert_no_any_source"
                                                                             : "mpi_assert_no_any_tag");
    if (source != MPI_PROC_NULL && source != MPI_ANY_SOURCE && (source < 0 || source >= comm->remote_size))
        return rd_err_raise(comm, MPI_ERR_RANK, call, "source rank %d is not in [0, %d)", source,
                            comm->remote_size);
    if (tag != MPI_ANY_TAG && (tag < 0 || tag > RDMPI_TAG_UB))
        return rd_err_raise(comm, MPI_ERR_TAG, call, "tag %d is not MPI_ANY_TAG nor in [0, MPI_TAG_UB]",
                            tag);
    return MPI_SUCCESS;
}

#endif

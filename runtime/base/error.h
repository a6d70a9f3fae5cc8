/* error.h - internal status codes.
 *
 * Internal functions return RD_OK or one of these; the API layer turns them
 * into MPI error classes (rd_status_to_mpi) and reports them through the
 * communicator's error handler (errhandler.h). */
#ifndef RD_ERROR_H
#define RD_ERROR_H

typedef enum {
    RD_OK = 0,
    RD_ERR_NOMEM,       /* allocation failed */
    RD_ERR_ARG,         /* bad argument from the caller */
    RD_ERR_PARAM,       /* bad RDMPI_* parameter value */
    RD_ERR_UNREACH,     /* launcher or peer unreachable */
    RD_ERR_IO,          /* system call failed */
    RD_ERR_TRUNCATE,    /* message longer than the receive buffer */
    RD_ERR_UNSUPPORTED, /* feature not available in this build or setting */
    RD_ERR_INTERNAL,    /* a broken invariant: a bug */
    RD_ERR_AGAIN,       /* no resources right now: progress, then retry */
    RD_ERR_PEER,        /* a peer failed or went away */
} rd_status;

const char *rd_status_string(rd_status st);
int rd_status_to_mpi(rd_status st);

/* Pass a failure up: return what expr gave unless it is 0 (RD_OK for an
 * internal status, MPI_SUCCESS for an MPI error class: the one idiom of
 * every floor, keeping expr's type). */
#define RD_TRY(expr)                                                                   \
    do {                                                                               \
        __typeof__(expr) rd_try_ = (expr);                                             \
        if (rd_try_ != 0)                                                              \
            return rd_try_;                                                            \
    } while (0)

#endif

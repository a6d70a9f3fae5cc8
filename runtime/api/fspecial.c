/* The storage of the Fortran special objects that runtime/api/f2c.c does
 * not hold (runtime/api/fspecial.h). Exported (rd_mpi_ names), zero: their
 * contents are never read, only their addresses compared. */
#include "config.h"

#include <stdint.h>

#include "runtime/api/fspecial.h"
#include "runtime/objects/errhandler.h"

MPI_Fint rd_mpi_f_bottom_[1];
MPI_Fint rd_mpi_f_in_place_[1];
MPI_Fint rd_mpi_f_buffer_automatic_[1];
MPI_Fint rd_mpi_f_unweighted_[1];
MPI_Fint rd_mpi_f_weights_empty_[1];
MPI_Fint rd_mpi_f_errcodes_ignore_[1];
char rd_mpi_f_argv_null_[1];
char rd_mpi_f_argvs_null_[1];

/* An error the Fortran glue finds itself (mpi_f08's array sections,
 * runtime/fortran/fsection.c), raised like librdmpi's own: on win's
 * handler when win is a window, else on comm's (MPI_COMM_NULL: MPI_COMM_WORLD's),
 * the message kept for MPI_Error_string. */
int rd_mpi_f_raise(MPI_Comm comm, MPI_Win win, int cls, const char *call, const char *msg)
{
    if (win != MPI_WIN_NULL)
        return rd_err_raise_win(win, cls, call, "%s", msg);
    return rd_err_raise(comm, cls, call, "%s", msg);
}

int rd_mpi_f_int_out(MPI_Aint v, MPI_Fint *f, const char *call, const char *arg)
{
    if (v < INT32_MIN || v > INT32_MAX)
        return rd_err_raise(MPI_COMM_WORLD, MPI_ERR_ARG, call,
                            "%s %jd (%#jx) does not fit in a default INTEGER (4 bytes): use the MPI-2 call, "
                            "whose value is INTEGER(KIND=MPI_ADDRESS_KIND)",
                            arg, (intmax_t)v, (uintmax_t)v);
    *f = (MPI_Fint)v;
    return MPI_SUCCESS;
}

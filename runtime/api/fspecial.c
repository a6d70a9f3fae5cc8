/* The storage of the Fortran special objects that runtime/api/f2c.c does
 * not hold (runtime/api/fspecial.h). Exported (rd_mpi_ names), zero: their
 * contents are never read, only their addresses compared. */
#include "config.h"

#include "runtime/api/fspecial.h"

MPI_Fint rd_mpi_f_bottom_[1];
MPI_Fint rd_mpi_f_in_place_[1];
MPI_Fint rd_mpi_f_unweighted_[1];
MPI_Fint rd_mpi_f_weights_empty_[1];

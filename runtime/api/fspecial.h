/* fspecial.h - the storage of the Fortran special objects (MPI_BOTTOM,
 * MPI_IN_PLACE, MPI_STATUS_IGNORE, MPI_STATUSES_IGNORE, MPI_UNWEIGHTED,
 * MPI_WEIGHTS_EMPTY): INTEGER
 * variables in librdmpi that mpif.h names as common blocks (gfortran's
 * symbol of /rd_mpi_f_bottom/ is rd_mpi_f_bottom_). The Fortran glue
 * (runtime/fortran/fglue.h) knows a special argument by its address: one
 * of these. The status ones are runtime/api/f2c.c's (C's
 * MPI_F_STATUS_IGNORE points at them), the others fspecial.c's. */
#ifndef RD_API_FSPECIAL_H
#define RD_API_FSPECIAL_H

#include <mpi.h>

extern MPI_Fint rd_mpi_f_bottom_[1];
extern MPI_Fint rd_mpi_f_in_place_[1];
extern MPI_Fint rd_mpi_f_unweighted_[1];
extern MPI_Fint rd_mpi_f_weights_empty_[1];
extern MPI_Fint rd_mpi_f_status_ignore_[MPI_F_STATUS_SIZE];
extern MPI_Fint rd_mpi_f_statuses_ignore_[MPI_F_STATUS_SIZE];

/* Fortran-language callbacks (runtime/fortran/README.md): the glue makes
 * the object from the Fortran procedure's address as C would, then marks
 * it as Fortran's, to be called with Fortran's arguments (mpi.api's
 * `proc ... mark=ARG`). */
void rd_mpi_f_op(MPI_Op op);                   /* runtime/api/op.c */
void rd_mpi_f_errhandler(MPI_Errhandler eh);    /* runtime/api/errors.c */
void rd_mpi_f_keyval(int keyval);               /* runtime/api/attr.c */
/* an attribute's value as Fortran's MPI_X_GET_ATTR gives it, from C's */
MPI_Aint rd_mpi_f_attr_comm(int keyval, void *cval);
MPI_Aint rd_mpi_f_attr_type(int keyval, void *cval);
MPI_Aint rd_mpi_f_attr_win(int keyval, void *cval);

#endif

/* fspecial.h - the storage of the Fortran special objects (MPI_BOTTOM,
 * MPI_IN_PLACE, MPI_STATUS_IGNORE, MPI_STATUSES_IGNORE, MPI_UNWEIGHTED,
 * MPI_WEIGHTS_EMPTY, MPI_ERRCODES_IGNORE, MPI_ARGV(S)_NULL): INTEGER (CHARACTER)
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
extern MPI_Fint rd_mpi_f_buffer_automatic_[1];
extern MPI_Fint rd_mpi_f_unweighted_[1];
extern MPI_Fint rd_mpi_f_weights_empty_[1];
extern MPI_Fint rd_mpi_f_errcodes_ignore_[1];
extern char rd_mpi_f_argv_null_[1];
extern char rd_mpi_f_argvs_null_[1];
extern MPI_Fint rd_mpi_f_status_ignore_[MPI_F_STATUS_SIZE];
extern MPI_Fint rd_mpi_f_statuses_ignore_[MPI_F_STATUS_SIZE];

/* Fortran-language callbacks (runtime/fortran/README.md): the glue makes
 * the object from the Fortran procedure's address as C would, then marks
 * it as Fortran's, to be called with Fortran's arguments (mpi.api's
 * `proc ... mark=ARG`). */
void rd_mpi_f_op(MPI_Op op);                   /* runtime/api/op.c */
void rd_mpi_f_errhandler(MPI_Errhandler eh);    /* runtime/api/errors.c */
void rd_mpi_f_keyval(int keyval);               /* runtime/api/attr.c */
/* MPI-1's MPI_KEYVAL_CREATE: callbacks of default INTEGER values */
void rd_mpi_f_keyval_int(int keyval);           /* runtime/api/attr.c */
void rd_mpi_f_request(MPI_Request request);    /* runtime/api/greq.c: a generalized request */
void rd_mpi_f_datarep(const char *datarep);    /* runtime/api/fileview.c: a data representation */
/* an attribute's value as Fortran's MPI_X_GET_ATTR gives it, from C's */
MPI_Aint rd_mpi_f_attr_comm(int keyval, void *cval);
MPI_Aint rd_mpi_f_attr_type(int keyval, void *cval);
MPI_Aint rd_mpi_f_attr_win(int keyval, void *cval);
/* an error found by the Fortran glue itself: runtime/api/fspecial.c */
int rd_mpi_f_raise(MPI_Comm comm, MPI_Win win, int cls, const char *call, const char *msg);

/* MPI-1's default INTEGER for an address-sized value out (MPI_ADDRESS,
 * MPI_TYPE_EXTENT, MPI_TYPE_LB, MPI_TYPE_UB): *f = v, or MPI_ERR_ARG raised
 * (call and arg named) when v does not fit (runtime/api/fspecial.c). */
int rd_mpi_f_int_out(MPI_Aint v, MPI_Fint *f, const char *call, const char *arg);

/* MPI_COMM_IDUP and MPI_COMM_IDUP_WITH_INFO (runtime/api/comm_idup.c): the
 * glue names the C handle its call of MPI_Comm_idup will fill (c) and the
 * Fortran handle behind it (f); the idup that gets c as its newcomm writes
 * the Fortran handle into f itself, at the call and again (MPI_COMM_NULL)
 * if the agreement fails at completion, when the glue's c is gone. After
 * the call, rd_mpi_f_idup_taken says whether an idup took f (1) or not (0:
 * a profiling layer called PMPI_Comm_idup with a handle of its own; the
 * glue then converts c). Per thread. */
void rd_mpi_f_idup_out(MPI_Comm *c, MPI_Fint *f);
int rd_mpi_f_idup_taken(void);

#endif

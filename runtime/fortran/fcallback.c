/* fcallback.c - the predefined callbacks of the Fortran bindings (mpi.api's
 * `callback` records): MPI_COMM_NULL_COPY_FN, MPI_COMM_DUP_FN,
 * MPI_COMM_NULL_DELETE_FN and the TYPE_ and WIN_ ones (and MPI-1's
 * MPI_NULL_COPY_FN, MPI_DUP_FN, MPI_NULL_DELETE_FN), as C functions with
 * Fortran's signature (gfortran's names: mpi_x_), which librdmpi calls the
 * Fortran way once MPI_*_CREATE_KEYVAL has made a keyval of them
 * (runtime/fortran/README.md, "Callbacks"); MPI_CONVERSION_FN_NULL, which
 * the glue turns into C's NULL. */
#include "runtime/fortran/fglue.h"

/* SUBROUTINE c(oldobj, keyval, extra_state, attribute_val_in,
 * attribute_val_out, flag, ierror) and d(obj, keyval, attribute_val,
 * extra_state, ierror) */
#define RD_FCB(X)                                                                                   \
    void mpi_##X##_null_copy_fn_(MPI_Fint *o, MPI_Fint *k, MPI_Aint *e, MPI_Aint *in, MPI_Aint *out, \
                                 MPI_Fint *flag, MPI_Fint *ierr);                                   \
    void mpi_##X##_null_copy_fn_(MPI_Fint *o, MPI_Fint *k, MPI_Aint *e, MPI_Aint *in, MPI_Aint *out, \
                                 MPI_Fint *flag, MPI_Fint *ierr)                                    \
    {                                                                                               \
        (void)o, (void)k, (void)e, (void)in, (void)out;                                             \
        *flag = 0;                                                                                  \
        *ierr = MPI_SUCCESS;                                                                        \
    }                                                                                               \
    void mpi_##X##_dup_fn_(MPI_Fint *o, MPI_Fint *k, MPI_Aint *e, MPI_Aint *in, MPI_Aint *out,       \
                           MPI_Fint *flag, MPI_Fint *ierr);                                         \
    void mpi_##X##_dup_fn_(MPI_Fint *o, MPI_Fint *k, MPI_Aint *e, MPI_Aint *in, MPI_Aint *out,       \
                           MPI_Fint *flag, MPI_Fint *ierr)                                          \
    {                                                                                               \
        (void)o, (void)k, (void)e;                                                                  \
        *out = *in;                                                                                 \
        *flag = 1;                                                                                  \
        *ierr = MPI_SUCCESS;                                                                        \
    }                                                                                               \
    void mpi_##X##_null_delete_fn_(MPI_Fint *o, MPI_Fint *k, MPI_Aint *v, MPI_Aint *e, MPI_Fint *ierr); \
    void mpi_##X##_null_delete_fn_(MPI_Fint *o, MPI_Fint *k, MPI_Aint *v, MPI_Aint *e, MPI_Fint *ierr)  \
    {                                                                                               \
        (void)o, (void)k, (void)v, (void)e;                                                         \
        *ierr = MPI_SUCCESS;                                                                        \
    }

RD_FCB(comm)
RD_FCB(type)
RD_FCB(win)

/* MPI-1's MPI_NULL_COPY_FN, MPI_DUP_FN and MPI_NULL_DELETE_FN (removed in
 * MPI-3.0; mpif.h and the mpi module): for MPI_KEYVAL_CREATE, whose
 * callbacks have default INTEGER values and extra state. */
void mpi_null_copy_fn_(MPI_Fint *o, MPI_Fint *k, MPI_Fint *e, MPI_Fint *in, MPI_Fint *out, MPI_Fint *flag,
                       MPI_Fint *ierr);
void mpi_null_copy_fn_(MPI_Fint *o, MPI_Fint *k, MPI_Fint *e, MPI_Fint *in, MPI_Fint *out, MPI_Fint *flag,
                       MPI_Fint *ierr)
{
    (void)o, (void)k, (void)e, (void)in, (void)out;
    *flag = 0;
    *ierr = MPI_SUCCESS;
}

void mpi_dup_fn_(MPI_Fint *o, MPI_Fint *k, MPI_Fint *e, MPI_Fint *in, MPI_Fint *out, MPI_Fint *flag,
                 MPI_Fint *ierr);
void mpi_dup_fn_(MPI_Fint *o, MPI_Fint *k, MPI_Fint *e, MPI_Fint *in, MPI_Fint *out, MPI_Fint *flag,
                 MPI_Fint *ierr)
{
    (void)o, (void)k, (void)e;
    *out = *in;
    *flag = 1;
    *ierr = MPI_SUCCESS;
}

void mpi_null_delete_fn_(MPI_Fint *o, MPI_Fint *k, MPI_Fint *v, MPI_Fint *e, MPI_Fint *ierr);
void mpi_null_delete_fn_(MPI_Fint *o, MPI_Fint *k, MPI_Fint *v, MPI_Fint *e, MPI_Fint *ierr)
{
    (void)o, (void)k, (void)v, (void)e;
    *ierr = MPI_SUCCESS;
}

/* MPI_CONVERSION_FN_NULL (MPI_REGISTER_DATAREP: the file holds the native
 * bytes in that direction). The glue passes C's MPI_CONVERSION_FN_NULL
 * for its address (mpi.api's null=), so the library never calls it; a
 * program that calls it itself gets MPI_ERR_CONVERSION. */
void mpi_conversion_fn_null_(void *userbuf, MPI_Fint *datatype, MPI_Fint *count, void *filebuf,
                             MPI_Offset *position, MPI_Aint *extra_state, MPI_Fint *ierr)
{
    (void)userbuf, (void)datatype, (void)count, (void)filebuf, (void)position, (void)extra_state;
    *ierr = MPI_ERR_CONVERSION;
}

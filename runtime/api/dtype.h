/* dtype.h - shared by the datatype entry points (datatype.c, typector.c,
 * pack.c). */
#ifndef RD_API_DTYPE_H
#define RD_API_DTYPE_H

#include <mpi.h>

/* The tail of every constructor: records the contents of t (NULL: it could
 * not be made, err says why) and hands it out, or raises the error. nc,
 * counts: the large counts of a _c constructor (datatype.h). */
int rd_dt_api_finish(const char *call, MPI_Datatype t, int err, int combiner, MPI_Count ni, const int *ints,
                     MPI_Count na, const MPI_Aint *aints, MPI_Count nc, const MPI_Count *counts, MPI_Count nd,
                     const MPI_Datatype *types, MPI_Datatype *newtype);

#endif

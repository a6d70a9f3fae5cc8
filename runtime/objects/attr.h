/* attr.h - attributes cached on communicators and datatypes (keyvals, copy
 * on dup, delete on free) and the predefined ones (MPI_TAG_UB, ...). */
#ifndef RD_ATTR_H
#define RD_ATTR_H

#include <mpi.h>

struct rd_attr;

/* Copy comm's attributes to newcomm as MPI_Comm_dup does (copy callbacks).
 * Returns an MPI error class. */
int rd_attr_dup(MPI_Comm comm, MPI_Comm newcomm);
/* Delete every attribute of comm (delete callbacks), as MPI_Comm_free does. */
int rd_attr_delete_all(MPI_Comm comm);

/* The same for datatypes (MPI_Type_dup, MPI_Type_free). */
int rd_attr_dup_type(MPI_Datatype dt, MPI_Datatype newtype);
int rd_attr_delete_all_type(MPI_Datatype dt);
/* Delete every attribute of a window (MPI_Win_free). */
int rd_attr_delete_all_win(MPI_Win win);

#endif

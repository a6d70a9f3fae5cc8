/* fhandle.h - the Fortran handles of MPI objects (MPI_Fint), for the
 * MPI_*_c2f / MPI_*_f2c conversions and the Fortran bindings.
 *
 * A C handle is a pointer; a Fortran handle is an INTEGER, kind << 24 |
 * index: the kind names the object type (enum rd_fh_kind), so a handle of
 * one kind passed where another is expected converts to that kind's NULL
 * (whose call then raises the right class) instead of a wild pointer.
 * Index 0 of every kind is its _NULL handle; the predefined objects have
 * fixed indices from 1, in the order of mpi.h's lists (so mpif.h and the
 * modules can make them PARAMETERs); other objects get an index at their
 * first c2f (objects that never meet Fortran pay nothing but a field),
 * kept in the object (fidx) and given back when it is destroyed.
 *
 * One table per kind: a directory of chunks of RD_FH_CHUNK pointers that
 * never move, so f2c reads without a lock; indices are taken and given
 * back under a mutex of this file (c2f may run on any thread, without the
 * big lock). */
#ifndef RD_OBJECTS_FHANDLE_H
#define RD_OBJECTS_FHANDLE_H

#include <mpi.h>
#include <stdint.h>

enum rd_fh_kind {
    RD_FH_COMM = 1,
    RD_FH_DATATYPE,
    RD_FH_GROUP,
    RD_FH_REQUEST,
    RD_FH_OP,
    RD_FH_ERRHANDLER,
    RD_FH_INFO,
    RD_FH_WIN,
    RD_FH_MESSAGE,
    RD_FH_FILE,
    RD_FH_SESSION,
    RD_FH_NKINDS
};

#define RD_FH_SHIFT 24
#define RD_FH_MAX (1 << RD_FH_SHIFT) /* indices per kind */

/* Before any conversion of kind k (runtime/api/f2c.c, once): its
 * predefined objects, at indices 1 to n. */
void rd_fh_predefine(int k, void *const *objs, int n);
/* The Fortran handle of object obj of kind k (NULL: the kind's _NULL),
 * its index taken now if it has none (*fidx: the object's field). 0 if
 * the kind's table is full or out of memory (a value that converts back
 * to nothing). */
MPI_Fint rd_fh_c2f(int k, void *obj, _Atomic int32_t *fidx);
/* The object of Fortran handle f if it is of kind k and alive, else NULL. */
void *rd_fh_f2c(int k, MPI_Fint f);
/* Object destruction: give its index back (called by each kind's free
 * path; nothing if it never had one). */
void rd_fh_drop(int k, _Atomic int32_t *fidx);

#endif

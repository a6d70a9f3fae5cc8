/* win.h - windows (MPI_Win): the objects one-sided communication will work
 * on. Today a window holds its memory's description, a duplicate of its
 * communicator (its group, and the context its collective calls use),
 * cached attributes, an error handler and a name; runtime/api/win.c. The
 * one-sided state hangs from rma (runtime/rma/, which this floor does not see). */
#ifndef RD_WIN_H
#define RD_WIN_H

#include <mpi.h>
#include <stdint.h>

#define RD_WIN_MAGIC 0x57696e64u /* "Wind" */

struct rd_attr;

struct rd_win_s {
    uint32_t magic;
    MPI_Comm comm;          /* a duplicate of the creating communicator (owned) */
    void *base;
    MPI_Aint size;
    MPI_Aint disp_unit;     /* (MPI_Win_create_c's may pass an int's range) */
    int disp_unit_attr;     /* MPI_WIN_DISP_UNIT's value: an int, as the standard has it (cut to INT_MAX) */
    int flavor;             /* MPI_WIN_FLAVOR_* */
    MPI_Errhandler errh;
    struct rd_attr *attrs;  /* cached attributes (api/attr.c) */
    void *rma;              /* the one-sided state (runtime/rma/: struct rd_rma_win) */
    _Atomic int32_t fidx;   /* its Fortran handle's index, 0: none (objects/fhandle.h) */
    char name[MPI_MAX_OBJECT_NAME];
};

static inline int rd_win_valid(MPI_Win w)
{
    return w != MPI_WIN_NULL && w->magic == RD_WIN_MAGIC;
}

#endif

/* dtmake.h - derived datatypes for the unit tests of views
 * (test/unit/ioview.c, iosieve.c): the engine's constructors, committed,
 * the test ending when one fails. */
#ifndef RD_TEST_DTMAKE_H
#define RD_TEST_DTMAKE_H

#include <stdlib.h>

#include "runtime/objects/datatype.h"
#include "test/tap.h"

static inline MPI_Datatype commit(MPI_Datatype t)
{
    if (!t) {
        tap_diag("a type constructor failed");
        exit(1);
    }
    t->committed = 1;
    return t;
}

static inline MPI_Datatype vec(size_t count, size_t blen, MPI_Aint stride, MPI_Datatype old)
{
    int err = 0;
    return commit(rd_dt_make_vector(count, blen, stride, old, &err));
}

static inline MPI_Datatype blocks(size_t n, const size_t *bl, const MPI_Aint *d, const MPI_Datatype *olds,
                                  int one, int is_struct)
{
    int err = 0;
    return commit(rd_dt_make_blocks(n, bl, d, olds, one, is_struct, &err));
}

static inline MPI_Datatype resized(MPI_Datatype old, MPI_Aint lb, MPI_Aint ext)
{
    int err = 0;
    return commit(rd_dt_make_resized(old, lb, ext, &err));
}

/* a subarray as MPI builds it: the block at its start, resized to the
 * whole array */
static inline MPI_Datatype subarray(MPI_Datatype inner, MPI_Aint start, MPI_Aint whole)
{
    MPI_Datatype d = blocks(1, (size_t[]){1}, (MPI_Aint[]){start}, (MPI_Datatype[]){inner}, 1, 0);
    MPI_Datatype s = resized(d, 0, whole);
    rd_dt_release(d);
    return s;
}

#endif

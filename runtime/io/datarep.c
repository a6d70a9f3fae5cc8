/* datarep.c - data representations of files (MPI-3.1 13.5; runtime/io/
 * PLAN.md 4.7): "native" (the bytes of memory), "internal" (ours: native's
 * bytes), "external32" (big-endian, IEEE, the standard's sizes:
 * runtime/objects/dtx32.c) and those of MPI_Register_datarep, in one
 * process-wide list (the entry points hold the big lock). */
#include "runtime/io/io_int.h"

#include <string.h>

#include "runtime/objects/datatype.h"
#include "runtime/objects/dtx32.h"

static struct rd_io_datarep rd_rep_native = {.name = "native", .kind = RD_REP_NATIVE};
static struct rd_io_datarep rd_rep_internal = {.name = "internal", .kind = RD_REP_INTERNAL};
static struct rd_io_datarep rd_rep_x32 = {.name = "external32", .kind = RD_REP_EXTERNAL32};
static struct rd_io_datarep *rd_reps; /* registered, newest first */

const struct rd_io_datarep *rd_io_datarep_find(const char *name)
{
    if (!strcmp(name, "native"))
        return &rd_rep_native;
    if (!strcmp(name, "internal"))
        return &rd_rep_internal;
    if (!strcmp(name, "external32"))
        return &rd_rep_x32;
    for (struct rd_io_datarep *r = rd_reps; r; r = r->next)
        if (!strcmp(r->name, name))
            return r;
    return NULL;
}

struct sizes {
    const struct rd_io_datarep *rep;
    rd_io_why *why;
    int rc;
};

static int size_leaf(void *arg, MPI_Aint disp, MPI_Datatype b, size_t n)
{
    (void)disp;
    (void)n;
    struct sizes *s = arg;
    MPI_Aint ext;
    if (s->rep->kind == RD_REP_EXTERNAL32) {
        ext = rd_dtx32_basic_size(b);
        if (ext < 0) {
            s->rc = rd_io_fail(s->why, MPI_ERR_UNSUPPORTED_DATAREP, "%s has no external32 form", b->name);
            return 1;
        }
    } else {
        if (!s->rep->extent_fn) /* registered without one: erroneous, treated as native */
            return 0;
        int rc = rd_io_datarep_extent(s->rep, b, &ext, s->why);
        if (rc != MPI_SUCCESS) {
            s->rc = rc;
            return 1;
        }
    }
    if (ext != (MPI_Aint)b->size) {
        s->rc = rd_io_fail(s->why, MPI_ERR_UNSUPPORTED_DATAREP,
                           "%s takes %ld bytes in \"%s\" and %zu in memory: views whose sizes change are not "
                           "supported",
                           b->name, (long)ext, s->rep->name, b->size);
        return 1;
    }
    return 0;
}

int rd_io_datarep_sizes_native(const struct rd_io_datarep *rep, MPI_Datatype dt, rd_io_why *why)
{
    if (rep->kind == RD_REP_NATIVE || rep->kind == RD_REP_INTERNAL)
        return MPI_SUCCESS;
    struct sizes s = {rep, why, MPI_SUCCESS};
    rd_dt_leaves(dt, 1, size_leaf, &s);
    return s.rc;
}

int rd_io_datarep_extent(const struct rd_io_datarep *rep, MPI_Datatype dt, MPI_Aint *extent, rd_io_why *why)
{
    switch (rep->kind) {
    case RD_REP_NATIVE:
    case RD_REP_INTERNAL:
        *extent = dt->extent;
        return MPI_SUCCESS;
    case RD_REP_EXTERNAL32:
        /* sizes equal native ones for every basic type here (unit test
         * dtview), so the layout's extent serves */
        if (rd_io_datarep_sizes_native(rep, dt, why) != MPI_SUCCESS)
            return MPI_ERR_UNSUPPORTED_DATAREP;
        *extent = dt->extent;
        return MPI_SUCCESS;
    default:
        if (!rep->extent_fn) {
            *extent = dt->extent;
            return MPI_SUCCESS;
        }
        if (!dt->predefined || dt->dn->kind != RD_DN_LEAF) {
            /* the extent function is for basic types only (MPI-3.1
             * 13.5.3): a derived type keeps its layout when its basic
             * types keep their sizes */
            if (rd_io_datarep_sizes_native(rep, dt, why) != MPI_SUCCESS)
                return MPI_ERR_UNSUPPORTED_DATAREP;
            *extent = dt->extent;
            return MPI_SUCCESS;
        }
        if (rep->fortran)
            return rd_io_fail(why, MPI_ERR_INTERN, "Fortran extent functions are not yet called");
        {
            MPI_Aint e = 0;
            int rc = rep->extent_fn(dt, &e, rep->extra_state);
            if (rc != MPI_SUCCESS)
                return rd_io_fail(why, rc, "the extent function of \"%s\" returned error %d", rep->name, rc);
            *extent = e;
            return MPI_SUCCESS;
        }
    }
}

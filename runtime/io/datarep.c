/* datarep.c - data representations of files (MPI-3.1 13.5; runtime/io/
 * PLAN.md 4.7): "native" (the bytes of memory), "internal" (ours: native's
 * bytes), "external32" (big-endian, IEEE, the standard's sizes:
 * runtime/objects/dtx32.c) and those of MPI_Register_datarep, in one
 * process-wide list (the entry points hold the big lock). */
#include "runtime/io/io_int.h"

#include <stdlib.h>
#include <string.h>

#include "runtime/objects/datatype.h"
#include "runtime/objects/dtx32.h"
#include "runtime/objects/fhandle.h"

/* Fortran's callbacks (mpi.api's mark=datarep): every argument by
 * reference, the datatype as its Fortran handle, ierror last */
typedef void rd_io_fconv(void *userbuf, MPI_Fint *dt, MPI_Fint *count, void *filebuf, MPI_Offset *position,
                         MPI_Aint *extra, MPI_Fint *ierr);
typedef void rd_io_fextent(MPI_Fint *dt, MPI_Aint *extent, MPI_Aint *extra, MPI_Fint *ierr);

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
        {
            MPI_Aint e = 0;
            int rc;
            if (rep->fortran) {
                MPI_Fint fdt = rd_fh_c2f(RD_FH_DATATYPE, dt, &dt->fidx), ierr = MPI_SUCCESS;
                MPI_Aint x = (MPI_Aint)rep->extra_state;
                ((rd_io_fextent *)(void (*)(void))rep->extent_fn)(&fdt, &e, &x, &ierr);
                rc = ierr;
            } else {
                rc = rep->extent_fn(dt, &e, rep->extra_state);
            }
            if (rc != MPI_SUCCESS)
                return rd_io_fail(why, rc, "the extent function of \"%s\" returned error %d", rep->name, rc);
            *extent = e;
            return MPI_SUCCESS;
        }
    }
}

int rd_io_datarep_register(const char *name, rd_io_conv_fn read_fn, rd_io_conv_fn write_fn,
                           rd_io_extent_fn extent_fn, void *extra_state, rd_io_why *why)
{
    size_t n = strlen(name);
    if (n == 0 || n >= sizeof rd_rep_native.name)
        return rd_io_fail(why, MPI_ERR_ARG, "a data representation name of %zu characters (1 to %zu allowed)", n,
                          sizeof rd_rep_native.name - 1);
    if (rd_io_datarep_find(name))
        return rd_io_fail(why, MPI_ERR_DUP_DATAREP, "the data representation \"%s\" exists already", name);
    if (!extent_fn)
        return rd_io_fail(why, MPI_ERR_ARG, "no extent function for \"%s\"", name);
    struct rd_io_datarep *r = calloc(1, sizeof *r);
    if (!r)
        return rd_io_fail(why, MPI_ERR_NO_MEM, "out of memory");
    memcpy(r->name, name, n + 1);
    r->kind = RD_REP_USER;
    r->read_fn = read_fn;
    r->write_fn = write_fn;
    r->extent_fn = extent_fn;
    r->extra_state = extra_state;
    r->next = rd_reps;
    rd_reps = r;
    return MPI_SUCCESS;
}

void rd_io_datarep_large(const char *name)
{
    for (struct rd_io_datarep *r = rd_reps; r; r = r->next)
        if (!strcmp(r->name, name))
            r->large = 1;
}

void rd_io_datarep_fortran(const char *name)
{
    for (struct rd_io_datarep *r = rd_reps; r; r = r->next)
        if (!strcmp(r->name, name))
            r->fortran = 1;
}

int rd_io_datarep_convert(const struct rd_io_datarep *rep, int write, void *buf, MPI_Datatype dt, size_t e0,
                          size_t k, void *filebuf, rd_io_why *why)
{
    if (k == 0)
        return MPI_SUCCESS;
    if (rep->kind == RD_REP_EXTERNAL32) {
        if (rd_dtx32_convert(dt, k, (char *)buf + (MPI_Aint)e0 * dt->extent, filebuf, !write) != 0)
            return rd_io_fail(why, MPI_ERR_CONVERSION, "the memory datatype has a basic type without an external32 form");
        return MPI_SUCCESS;
    }
    if (rep->kind != RD_REP_USER) { /* native bytes */
        if (write)
            rd_dt_pack(buf, dt, e0 * dt->size, filebuf, k * dt->size);
        else
            rd_dt_unpack(buf, dt, e0 * dt->size, filebuf, k * dt->size);
        return MPI_SUCCESS;
    }
    rd_io_conv_fn fn = write ? rep->write_fn : rep->read_fn;
    if (!fn) { /* MPI_CONVERSION_FN_NULL: the file holds native bytes */
        if (write)
            rd_dt_pack(buf, dt, e0 * dt->size, filebuf, k * dt->size);
        else
            rd_dt_unpack(buf, dt, e0 * dt->size, filebuf, k * dt->size);
        return MPI_SUCCESS;
    }
    /* count: data items (basic elements); position: an index into the
     * typemap of dt tiled over buf (MPI-3.1 13.5.3) */
    MPI_Count items = (MPI_Count)k * dt->elements, pos = (MPI_Count)e0 * dt->elements;
    if (items > 0x7fffffff && !rep->large)
        return rd_io_fail(why, MPI_ERR_CONVERSION, "%lld data items to convert at once", (long long)items);
    int rc;
    if (rep->large) {
        typedef int rd_io_conv_c(void *, MPI_Datatype, MPI_Count, void *, MPI_Offset, void *);
        rc = ((rd_io_conv_c *)(void (*)(void))fn)(buf, dt, items, filebuf, pos, rep->extra_state);
    } else if (rep->fortran) {
        MPI_Fint fdt = rd_fh_c2f(RD_FH_DATATYPE, dt, &dt->fidx), cnt = (MPI_Fint)items, ierr = MPI_SUCCESS;
        MPI_Offset p = pos;
        MPI_Aint x = (MPI_Aint)rep->extra_state;
        ((rd_io_fconv *)(void (*)(void))fn)(buf, &fdt, &cnt, filebuf, &p, &x, &ierr);
        rc = ierr;
    } else {
        rc = fn(buf, dt, (int)items, filebuf, pos, rep->extra_state);
    }
    if (rc != MPI_SUCCESS)
        return rd_io_fail(why, MPI_ERR_CONVERSION, "the %s conversion function of \"%s\" returned %d",
                          write ? "write" : "read", rep->name, rc);
    return MPI_SUCCESS;
}

/* view.c - file views: the default view, the checks of MPI_File_set_view
 * and the stream <-> file mapping (io_int.h; runtime/io/PLAN.md 4.1).
 *
 * Instance k of the filetype lies at disp + k * ftext; its data bytes are
 * where the filetype's type map puts them (displacements as they are: a
 * filetype whose lower bound is above 0 keeps its data where the map
 * says). The mapping seeks the filetype's tree (runtime/objects/
 * datatype.c's view walkers) and never flattens it. */
#include "runtime/io/io_int.h"

#include <string.h>

#include "runtime/objects/datatype.h"

#ifndef MPI_DISPLACEMENT_CURRENT
#define MPI_DISPLACEMENT_CURRENT -54278278 /* mpi.h's value (stage 1) */
#endif

void rd_io_view_init(struct rd_io_view *v)
{
    memset(v, 0, sizeof *v);
    v->etype = MPI_BYTE;
    v->filetype = MPI_BYTE;
    v->esize = 1;
    v->ftsize = 1;
    v->ftext = 1;
    v->contig = 1;
    v->monotone = 1;
    strcpy(v->datarep, "native");
}

void rd_io_view_fini(struct rd_io_view *v)
{
    rd_dt_release(v->etype);
    rd_dt_release(v->filetype);
    v->etype = v->filetype = MPI_DATATYPE_NULL;
}

/* ------------------------------------------------------------ checks */

/* the first run of one instance of dt that starts before the one before
 * it (reading: a start below the previous start; writing: below the
 * previous end, i.e. also an overlap); -1 when there is none */
struct order {
    int strict;
    MPI_Aint start, end, bad;
    size_t n;
};

static int order_run(void *arg, MPI_Aint d, size_t len)
{
    struct order *o = arg;
    if (o->n++ && d < (o->strict ? o->end : o->start)) {
        o->bad = d;
        return 1;
    }
    o->start = d;
    if (d + (MPI_Aint)len > o->end || o->n == 1)
        o->end = d + (MPI_Aint)len;
    return 0;
}

int rd_io_view_set(struct rd_io_view *v, MPI_Offset disp, MPI_Datatype etype, MPI_Datatype filetype,
                   const char *datarep, int writable, int sequential, MPI_Offset current,
                   rd_io_why *why)
{
    if (disp == MPI_DISPLACEMENT_CURRENT) {
        if (!sequential)
            return rd_io_fail(why, MPI_ERR_ARG,
                              "MPI_DISPLACEMENT_CURRENT is only for a file opened with MPI_MODE_SEQUENTIAL");
        disp = current;
    } else if (disp < 0) {
        return rd_io_fail(why, MPI_ERR_ARG, "displacement %lld is negative", (long long)disp);
    }
    if (!rd_dt_valid(etype) || !etype->committed)
        return rd_io_fail(why, MPI_ERR_TYPE, "the etype is %s", rd_dt_valid(etype) ? "not committed" : "not a datatype");
    if (!rd_dt_valid(filetype) || !filetype->committed)
        return rd_io_fail(why, MPI_ERR_TYPE, "the filetype is %s",
                          rd_dt_valid(filetype) ? "not committed" : "not a datatype");
    if (etype->size == 0)
        return rd_io_fail(why, MPI_ERR_ARG, "the etype has no data (size 0)");
    if (filetype->size == 0)
        return rd_io_fail(why, MPI_ERR_ARG, "the filetype has no data (size 0)");
    if (filetype->size % etype->size)
        return rd_io_fail(why, MPI_ERR_ARG, "the filetype's size %zu is not a multiple of the etype's size %zu",
                          filetype->size, etype->size);
    if (filetype->extent <= 0)
        return rd_io_fail(why, MPI_ERR_ARG, "the filetype's extent %ld is not positive", (long)filetype->extent);
    if (filetype->true_lb < 0)
        return rd_io_fail(why, MPI_ERR_ARG, "the filetype has data at the negative displacement %ld",
                          (long)filetype->true_lb);
    int mono = rd_dt_monotone(filetype);
    if (!mono) {
        /* writable: runs must go up without overlap; read-only: starts
         * must not go down (MPI-3.1 13.3) */
        struct order o = {.strict = writable, .bad = -1};
        rd_dt_segments(filetype, 1, order_run, &o);
        if (o.bad >= 0)
            return rd_io_fail(why, MPI_ERR_ARG,
                              "the filetype's displacement %ld lies below %s (displacements must not go down%s)",
                              (long)o.bad, writable ? "the end of the data before it" : "the one before it",
                              writable ? " nor overlap in a file open for writing" : "");
    }
    if (!datarep)
        datarep = "native";
    if (strlen(datarep) >= sizeof v->datarep)
        return rd_io_fail(why, MPI_ERR_UNSUPPORTED_DATAREP, "data representation name of %zu characters",
                          strlen(datarep));
    const struct rd_io_datarep *rep = rd_io_datarep_find(datarep);
    if (!rep)
        return rd_io_fail(why, MPI_ERR_UNSUPPORTED_DATAREP, "no data representation \"%s\"", datarep);
    if (rep->kind != RD_REP_NATIVE && rep->kind != RD_REP_INTERNAL) {
        int rc = rd_io_datarep_sizes_native(rep, etype, why);
        if (rc == MPI_SUCCESS)
            rc = rd_io_datarep_sizes_native(rep, filetype, why);
        if (rc != MPI_SUCCESS)
            return rc;
    }

    rd_dt_retain(etype);
    rd_dt_retain(filetype);
    rd_io_view_fini(v);
    v->disp = disp;
    v->etype = etype;
    v->filetype = filetype;
    v->esize = etype->size;
    v->ftsize = filetype->size;
    v->ftext = filetype->extent;
    v->contig = filetype->contig && filetype->true_lb == 0;
    v->monotone = mono && filetype->true_extent <= filetype->extent;
    v->rep = rep->kind == RD_REP_NATIVE || rep->kind == RD_REP_INTERNAL ? NULL : rep;
    strcpy(v->datarep, datarep);
    return MPI_SUCCESS;
}

/* ------------------------------------------------------------ the mapping */

static int first_run(void *arg, MPI_Aint d, size_t n)
{
    (void)n;
    *(MPI_Aint *)arg = d;
    return 1;
}

MPI_Offset rd_io_view_offset(const struct rd_io_view *v, MPI_Offset o)
{
    if (v->contig)
        return v->disp + o;
    MPI_Offset k = o / (MPI_Offset)v->ftsize;
    MPI_Aint d = 0;
    rd_dt_segments_range(v->filetype, (size_t)(o % (MPI_Offset)v->ftsize), 1, first_run, &d);
    return v->disp + k * v->ftext + d;
}

struct shift {
    MPI_Offset base;
    int (*fn)(void *, MPI_Offset, size_t);
    void *arg;
};

static int shift_run(void *arg, MPI_Aint d, size_t n)
{
    struct shift *s = arg;
    return s->fn(s->arg, s->base + d, n);
}

int rd_io_view_runs(const struct rd_io_view *v, MPI_Offset o, MPI_Offset len,
                    int (*fn)(void *arg, MPI_Offset foff, size_t n), void *arg)
{
    if (len <= 0)
        return 0;
    if (v->contig)
        return fn(arg, v->disp + o, (size_t)len);
    /* the walker goes on from instance to instance (extent apart) and
     * merges across them; it starts in instance k */
    MPI_Offset k = o / (MPI_Offset)v->ftsize;
    struct shift s = {v->disp + k * v->ftext, fn, arg};
    return rd_dt_segments_range(v->filetype, (size_t)(o % (MPI_Offset)v->ftsize), (size_t)len, shift_run, &s);
}

/* bytes of one instance below displacement x, any filetype: by its runs */
struct below {
    MPI_Aint x;
    size_t n;
};

static int below_run(void *arg, MPI_Aint d, size_t n)
{
    struct below *b = arg;
    if (d < b->x)
        b->n += b->x - d < (MPI_Aint)n ? (size_t)(b->x - d) : n;
    return 0;
}

static size_t inst_below(MPI_Datatype ft, int mono, MPI_Aint x)
{
    if (mono)
        return rd_dt_bytes_below(ft, x);
    struct below b = {x, 0};
    rd_dt_segments(ft, 1, below_run, &b);
    return b.n;
}

MPI_Offset rd_io_view_below(const struct rd_io_view *v, MPI_Offset x)
{
    MPI_Offset y = x - v->disp;
    if (v->contig)
        return y < 0 ? 0 : y;
    MPI_Datatype ft = v->filetype;
    MPI_Offset tlb = ft->true_lb, ext = v->ftext, size = (MPI_Offset)v->ftsize;
    if (y <= tlb)
        return 0;
    if (v->monotone) {
        /* instances before k lie wholly below y, those after it above */
        MPI_Offset k = (y - tlb) / ext;
        return k * size + (MPI_Offset)rd_dt_bytes_below(ft, (MPI_Aint)(y - k * ext));
    }
    /* tiled copies interleave (or the filetype is not monotone): the
     * instances wholly below y, then each one that starts below y */
    int mono = rd_dt_monotone(ft);
    MPI_Offset last = (y - tlb - 1) / ext; /* the last instance whose data starts below y */
    MPI_Offset full = y - tlb - ft->true_extent >= 0 ? (y - tlb - ft->true_extent) / ext + 1 : 0;
    if (full > last + 1)
        full = last + 1;
    MPI_Offset n = full * size;
    for (MPI_Offset k = full; k <= last; k++)
        n += (MPI_Offset)inst_below(ft, mono, (MPI_Aint)(y - k * ext));
    return n;
}

struct span {
    MPI_Offset lo, hi;
    int any;
};

static int span_run(void *arg, MPI_Offset d, size_t n)
{
    struct span *s = arg;
    if (!s->any || d < s->lo)
        s->lo = d;
    if (!s->any || d + (MPI_Offset)n > s->hi)
        s->hi = d + (MPI_Offset)n;
    s->any = 1;
    return 0;
}

void rd_io_view_span(const struct rd_io_view *v, MPI_Offset o, MPI_Offset len, MPI_Offset *lo,
                     MPI_Offset *hi)
{
    if (v->monotone) {
        *lo = rd_io_view_offset(v, o);
        *hi = rd_io_view_offset(v, o + len - 1) + 1;
        return;
    }
    struct span s = {0, 0, 0};
    rd_io_view_runs(v, o, len, span_run, &s);
    *lo = s.lo;
    *hi = s.hi;
}

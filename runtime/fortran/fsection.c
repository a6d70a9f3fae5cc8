/* fsection.c - mpi_f08's choice buffers (runtime/fortran/README.md,
 * "mpi_f08"). A buffer comes as a descriptor (ISO_Fortran_binding.h's
 * CFI_cdesc_t: TYPE(*), DIMENSION(..) of a BIND(C) interface). A
 * contiguous one is its address. A non-contiguous array section (a(1:n:2),
 * b(2, :)) becomes a datatype describing it: each array element must be
 * one element of the call's datatype (the descriptor's elem_len equal to
 * the datatype's size, else MPI_ERR_BUFFER); the call then gets the
 * section's base address, count 1 and that datatype, which is freed after
 * the call (a nonblocking operation keeps its own reference). */
#include "config.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "runtime/fortran/fglue.h"

/* Whether the elements lie one after the other in Fortran's order (a
 * scalar, a section of at most one element, a whole contiguous array);
 * *n: the number of elements (an assumed-size array's last extent, -1,
 * counts as 1). */
static int contiguous(const CFI_cdesc_t *d, size_t *n)
{
    size_t want = d->elem_len, total = 1;
    int contig = 1;

    for (int r = 0; r < d->rank; r++) {
        size_t e = d->dim[r].extent >= 0 ? (size_t)d->dim[r].extent : 1;

        if (e > 1 && d->dim[r].sm != (CFI_index_t)want)
            contig = 0;
        want *= e;
        total *= e;
    }
    *n = total;
    return contig || total <= 1;
}

/* The type of the section's first c elements (of n) of datatype dt: nested
 * hvectors, one per dimension, for the whole section; the displacements of
 * the first c elements (hindexed_block) for a part of it. */
static int section_type(const CFI_cdesc_t *d, int c, size_t n, MPI_Datatype dt, MPI_Datatype *t)
{
    MPI_Datatype cur = dt, next = MPI_DATATYPE_NULL;
    int rc = MPI_SUCCESS;

    if ((size_t)c == n) {
        for (int r = 0; r < d->rank && rc == MPI_SUCCESS; r++) {
            rc = PMPI_Type_create_hvector((int)d->dim[r].extent, 1, (MPI_Aint)d->dim[r].sm, cur, &next);
            if (cur != dt)
                PMPI_Type_free(&cur);
            cur = next;
        }
    } else {
        CFI_index_t idx[CFI_MAX_RANK] = {0};
        MPI_Aint *disp = malloc((size_t)c * sizeof *disp);

        if (!disp)
            return rd_fg_nomem();
        for (int k = 0; k < c; k++) {
            MPI_Aint off = 0;

            for (int r = 0; r < d->rank; r++)
                off += (MPI_Aint)idx[r] * (MPI_Aint)d->dim[r].sm;
            disp[k] = off;
            for (int r = 0; r < d->rank; r++) {
                if (++idx[r] < d->dim[r].extent)
                    break;
                idx[r] = 0;
            }
        }
        rc = PMPI_Type_create_hindexed_block(c, 1, disp, dt, &cur);
        free(disp);
    }
    if (rc == MPI_SUCCESS && (rc = PMPI_Type_commit(&cur)) != MPI_SUCCESS)
        PMPI_Type_free(&cur);
    *t = rc == MPI_SUCCESS ? cur : MPI_DATATYPE_NULL;
    return rc;
}

/* Copy the n elements of section d into the contiguous buf (to: 1), or
 * buf back into d (to: 0), in Fortran's order. */
static void section_copy(const CFI_cdesc_t *d, char *buf, size_t n, int to)
{
    CFI_index_t idx[CFI_MAX_RANK] = {0};

    for (size_t k = 0; k < n; k++) {
        char *e = d->base_addr;

        for (int r = 0; r < d->rank; r++)
            e += idx[r] * d->dim[r].sm;
        if (to)
            memcpy(buf + k * d->elem_len, e, d->elem_len);
        else
            memcpy(e, buf + k * d->elem_len, d->elem_len);
        for (int r = 0; r < d->rank; r++) {
            if (++idx[r] < d->dim[r].extent)
                break;
            idx[r] = 0;
        }
    }
}

int rd_fg_section(rd_fg_sec *s, const CFI_cdesc_t *d, const MPI_Fint *count, const MPI_Fint *type, int anyshape,
                  int async, int back, MPI_Comm comm, MPI_Win win, const char *call, const char *arg)
{
    char msg[MPI_MAX_ERROR_STRING];
    MPI_Datatype dt, t;
    size_t n;
    int size, rc;

    s->addr = d->base_addr;
    s->count = count ? *count : 0;
    s->type = type ? *type : 0;
    s->made = MPI_DATATYPE_NULL;
    s->tmp = NULL;
    s->d = d;
    s->back = back;
    if (anyshape || contiguous(d, &n))
        return MPI_SUCCESS;
    if (!count) {
        /* (a count and datatype shared with another buffer, MPI_REDUCE's; a
         * buffer of bytes, MPI_PACK's outbuf; the v and w collectives'
         * counts): a blocking call gets a contiguous copy, written back
         * after it if the call writes the buffer */
        if (async) {
            snprintf(msg, sizeof msg,
                     "%s is a non-contiguous array section, which this call, nonblocking or one-sided, "
                     "takes contiguous only (it has no datatype of its own to describe the section)",
                     arg);
            return rd_mpi_f_raise(comm, win, MPI_ERR_BUFFER, call, msg);
        }
        if (n > 0 && !(s->tmp = malloc(n * d->elem_len)))
            return rd_fg_nomem();
        if (n > 0)
            section_copy(d, s->tmp, n, 1);
        s->n = n;
        s->addr = s->tmp;
        return MPI_SUCCESS;
    }
    dt = PMPI_Type_f2c(*type);
    /* no data, or an error the call itself raises (count, datatype) */
    if (*count <= 0 || dt == MPI_DATATYPE_NULL || PMPI_Type_size(dt, &size) != MPI_SUCCESS)
        return MPI_SUCCESS;
    if ((size_t)size != d->elem_len) {
        snprintf(msg, sizeof msg,
                 "%s is a non-contiguous array section of %zu-byte elements and the datatype's size is %d "
                 "bytes: a section is sent or received one datatype element per array element",
                 arg, d->elem_len, size);
        return rd_mpi_f_raise(comm, win, MPI_ERR_BUFFER, call, msg);
    }
    if ((size_t)*count > n) {
        snprintf(msg, sizeof msg, "count %d is more than the %zu elements of the array section %s", *count, n,
                 arg);
        return rd_mpi_f_raise(comm, win, MPI_ERR_BUFFER, call, msg);
    }
    for (int r = 0; r < d->rank; r++)
        if (d->dim[r].extent > INT_MAX) {
            snprintf(msg, sizeof msg, "%s has %lld elements in a dimension, more than a datatype can describe",
                     arg, (long long)d->dim[r].extent);
            return rd_mpi_f_raise(comm, win, MPI_ERR_BUFFER, call, msg);
        }
    if ((rc = section_type(d, *count, n, dt, &t)) != MPI_SUCCESS)
        return rc;
    s->made = t;
    s->count = 1;
    s->type = PMPI_Type_c2f(t);
    return MPI_SUCCESS;
}

void rd_fg_sec_done(rd_fg_sec *s)
{
    if (s->tmp) {
        if (s->back)
            section_copy(s->d, s->tmp, s->n, 0);
        free(s->tmp);
        s->tmp = NULL;
    }
    if (s->made != MPI_DATATYPE_NULL)
        PMPI_Type_free(&s->made);
}

/* Datatype calls: sizes and extents, dup, commit and free, names,
 * envelope and contents (with their large-count forms); the status
 * queries Get_count / Get_elements. The constructors are in typector.c,
 * packing in pack.c. */
#include <limits.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/api/check.h"
#include "runtime/api/dtype.h"
#include "runtime/objects/attr.h"

static int check_type(const char *call, MPI_Datatype dt)
{
    return rd_dt_valid(dt) ? MPI_SUCCESS
                           : rd_err_raise(MPI_COMM_WORLD, MPI_ERR_TYPE, call, "invalid datatype");
}

#pragma weak MPI_Type_size = PMPI_Type_size
int PMPI_Type_size(MPI_Datatype dt, int *size)
{
    RD_TRY(check_type("MPI_Type_size", dt));
    if (!size)
        return rd_err_raise(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Type_size", "size is NULL");
    *size = dt->size > INT_MAX ? MPI_UNDEFINED : (int)dt->size;
    return MPI_SUCCESS;
}

/* MPI_Type_size_x and MPI_Type_size_c (MPI 4.0's name of the same) */
static int size_count(const char *call, MPI_Datatype dt, MPI_Count *size)
{
    RD_TRY(check_type(call, dt));
    if (!size)
        return rd_err_raise(MPI_COMM_WORLD, MPI_ERR_ARG, call, "size is NULL");
    *size = (MPI_Count)dt->size;
    return MPI_SUCCESS;
}

#pragma weak MPI_Type_size_x = PMPI_Type_size_x
int PMPI_Type_size_x(MPI_Datatype dt, MPI_Count *size)
{
    return size_count("MPI_Type_size_x", dt, size);
}

#pragma weak MPI_Type_size_c = PMPI_Type_size_c
int PMPI_Type_size_c(MPI_Datatype dt, MPI_Count *size)
{
    return size_count("MPI_Type_size_c", dt, size);
}

/* MPI_Type_get_extent, and MPI-1's MPI_Type_extent, MPI_Type_lb and
 * MPI_Type_ub (removed in MPI-3.0) through it: call is the name used, arg
 * the name of the MPI-1 call's one argument (NULL: lb and extent). */
static int get_extent(const char *call, MPI_Datatype dt, MPI_Aint *lb, MPI_Aint *extent, const char *arg)
{
    RD_TRY(check_type(call, dt));
    if (!lb || !extent)
        return rd_err_raise(MPI_COMM_WORLD, MPI_ERR_ARG, call, "%s is NULL", arg ? arg : lb ? "extent" : "lb");
    *lb = dt->lb;
    *extent = dt->extent;
    return MPI_SUCCESS;
}

#pragma weak MPI_Type_get_extent = PMPI_Type_get_extent
int PMPI_Type_get_extent(MPI_Datatype dt, MPI_Aint *lb, MPI_Aint *extent)
{
    return get_extent("MPI_Type_get_extent", dt, lb, extent, NULL);
}

#pragma weak MPI_Type_extent = PMPI_Type_extent
int PMPI_Type_extent(MPI_Datatype dt, MPI_Aint *extent)
{
    MPI_Aint lb;
    return get_extent("MPI_Type_extent", dt, &lb, extent, "extent");
}

#pragma weak MPI_Type_lb = PMPI_Type_lb
int PMPI_Type_lb(MPI_Datatype dt, MPI_Aint *displacement)
{
    MPI_Aint extent;
    return get_extent("MPI_Type_lb", dt, displacement, &extent, "displacement");
}

#pragma weak MPI_Type_ub = PMPI_Type_ub
int PMPI_Type_ub(MPI_Datatype dt, MPI_Aint *displacement)
{
    MPI_Aint lb = 0, extent = 0;
    int rc = get_extent("MPI_Type_ub", dt, displacement ? &lb : NULL, &extent, "displacement");
    if (rc == MPI_SUCCESS)
        *displacement = lb + extent;
    return rc;
}

#pragma weak MPI_Type_commit = PMPI_Type_commit
int PMPI_Type_commit(MPI_Datatype *dt)
{
    RD_API_READY("MPI_Type_commit");
    if (!dt)
        return rd_err_raise(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Type_commit", "datatype pointer is NULL");
    RD_TRY(check_type("MPI_Type_commit", *dt));
    (*dt)->committed = 1;
    return MPI_SUCCESS;
}

#pragma weak MPI_Type_free = PMPI_Type_free
int PMPI_Type_free(MPI_Datatype *dt)
{
    RD_API_READY("MPI_Type_free");
    if (!dt)
        return rd_err_raise(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Type_free", "datatype pointer is NULL");
    RD_TRY(check_type("MPI_Type_free", *dt));
    if ((*dt)->predefined)
        return rd_err_raise(MPI_COMM_WORLD, MPI_ERR_TYPE, "MPI_Type_free", "%s is predefined", (*dt)->name);
    int rc = rd_attr_delete_all_type(*dt);
    if (rc != MPI_SUCCESS)
        return rd_err_raise(MPI_COMM_WORLD, rc, "MPI_Type_free", "an attribute delete callback failed");
    rd_dt_release(*dt); /* pending operations hold their own reference */
    *dt = MPI_DATATYPE_NULL;
    return MPI_SUCCESS;
}

/* The whole elements of dt in the status's bytes into *count (MPI_Count:
 * MPI_Get_count_c); MPI_UNDEFINED when they are not whole, or more than max. */
static int get_count(const char *call, const MPI_Status *status, MPI_Datatype dt, MPI_Count *count, MPI_Count max)
{
    if (!status || !count)
        return rd_err_raise(MPI_COMM_WORLD, MPI_ERR_ARG, call, "%s is NULL", status ? "count" : "status");
    RD_TRY(check_type(call, dt));
    MPI_Count bytes = status->rd_bytes;
    if (dt->size == 0)
        *count = 0;
    else if ((size_t)bytes % dt->size != 0 || (size_t)bytes / dt->size > (size_t)max)
        *count = MPI_UNDEFINED;
    else
        *count = (MPI_Count)((size_t)bytes / dt->size);
    return MPI_SUCCESS;
}

#pragma weak MPI_Get_count = PMPI_Get_count
int PMPI_Get_count(const MPI_Status *status, MPI_Datatype dt, int *count)
{
    MPI_Count n = 0;
    RD_TRY(get_count("MPI_Get_count", status, dt, count ? &n : NULL, INT_MAX));
    *count = (int)n;
    return MPI_SUCCESS;
}

#pragma weak MPI_Get_count_c = PMPI_Get_count_c
int PMPI_Get_count_c(const MPI_Status *status, MPI_Datatype dt, MPI_Count *count)
{
    return get_count("MPI_Get_count_c", status, dt, count, INT64_MAX);
}

/* The basic elements (MPI_Get_elements_x, _c) */
static int get_elements(const char *call, const MPI_Status *status, MPI_Datatype dt, MPI_Count *count)
{
    if (!status || !count)
        return rd_err_raise(MPI_COMM_WORLD, MPI_ERR_ARG, call, "%s is NULL", status ? "count" : "status");
    RD_TRY(check_type(call, dt));
    MPI_Count n = rd_dt_elements(dt, status->rd_bytes);
    *count = n < 0 ? MPI_UNDEFINED : n;
    return MPI_SUCCESS;
}

#pragma weak MPI_Get_elements_x = PMPI_Get_elements_x
int PMPI_Get_elements_x(const MPI_Status *status, MPI_Datatype dt, MPI_Count *count)
{
    return get_elements("MPI_Get_elements_x", status, dt, count);
}

#pragma weak MPI_Get_elements_c = PMPI_Get_elements_c
int PMPI_Get_elements_c(const MPI_Status *status, MPI_Datatype dt, MPI_Count *count)
{
    return get_elements("MPI_Get_elements_c", status, dt, count);
}

#pragma weak MPI_Get_elements = PMPI_Get_elements
int PMPI_Get_elements(const MPI_Status *status, MPI_Datatype dt, int *count)
{
    MPI_Count n = 0;
    RD_TRY(get_elements("MPI_Get_elements", status, dt, count ? &n : NULL));
    *count = n > INT_MAX ? MPI_UNDEFINED : (int)n;
    return MPI_SUCCESS;
}

/* MPI_Pack_size and MPI_Pack_size_c: the bytes into *size, at most max */
static int pack_size(const char *call, MPI_Count incount, MPI_Datatype dt, MPI_Comm comm, MPI_Count *size,
                     MPI_Count max)
{
    RD_API_READY(call);
    RD_TRY(rd_check_comm(call, comm));
    if (incount < 0)
        return rd_err_raise(comm, MPI_ERR_COUNT, call, "count %lld is negative", (long long)incount);
    if (!rd_dt_valid(dt))
        return rd_err_raise(comm, MPI_ERR_TYPE, call, "invalid datatype");
    if (!size)
        return rd_err_raise(comm, MPI_ERR_ARG, call, "size is NULL");
    /* packed data is the bytes of the elements, nothing more */
    if (dt->size > 0 && (uint64_t)incount > (uint64_t)max / dt->size)
        return rd_err_raise(comm, max == INT_MAX ? MPI_ERR_SIZE : MPI_ERR_COUNT, call,
                            "%lld elements of %zu bytes do not fit in %s", (long long)incount, (size_t)dt->size,
                            max == INT_MAX ? "an int" : "an MPI_Count");
    *size = (MPI_Count)((size_t)incount * dt->size);
    return MPI_SUCCESS;
}

#pragma weak MPI_Pack_size = PMPI_Pack_size
int PMPI_Pack_size(int incount, MPI_Datatype dt, MPI_Comm comm, int *size)
{
    MPI_Count n = 0;
    RD_TRY(pack_size("MPI_Pack_size", incount, dt, comm, size ? &n : NULL, INT_MAX));
    *size = (int)n;
    return MPI_SUCCESS;
}

#pragma weak MPI_Pack_size_c = PMPI_Pack_size_c
int PMPI_Pack_size_c(MPI_Count incount, MPI_Datatype dt, MPI_Comm comm, MPI_Count *size)
{
    return pack_size("MPI_Pack_size_c", incount, dt, comm, size, INT64_MAX);
}

#pragma weak MPI_Type_dup = PMPI_Type_dup
int PMPI_Type_dup(MPI_Datatype old, MPI_Datatype *newtype)
{
    RD_API_READY("MPI_Type_dup");
    RD_TRY(check_type("MPI_Type_dup", old));
    if (!newtype)
        return rd_err_raise(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Type_dup", "newtype is NULL");
    int err = MPI_SUCCESS;
    MPI_Datatype t = rd_dt_make_copy(old, &err);
    if (t)
        t->committed = old->committed; /* a dup of a committed type is committed */
    RD_TRY(rd_dt_api_finish("MPI_Type_dup", t, err, MPI_COMBINER_DUP, 0, NULL, 0, NULL, 0, NULL, 1, &old, newtype));
    int rc = rd_attr_dup_type(old, t);
    if (rc != MPI_SUCCESS) {
        rd_attr_delete_all_type(t);
        rd_dt_release(t);
        *newtype = MPI_DATATYPE_NULL;
        return rd_err_raise(MPI_COMM_WORLD, rc, "MPI_Type_dup", "an attribute copy callback failed");
    }
    return MPI_SUCCESS;
}

/* The _x and _c forms of MPI_Type_get_extent and _true_extent (true: the true ones) */
static int extent_count(const char *call, MPI_Datatype dt, MPI_Count *lb, MPI_Count *extent, int true_)
{
    RD_TRY(check_type(call, dt));
    if (!lb || !extent)
        return rd_err_raise(MPI_COMM_WORLD, MPI_ERR_ARG, call, "a NULL argument");
    *lb = true_ ? dt->true_lb : dt->lb;
    *extent = true_ ? dt->true_extent : dt->extent;
    return MPI_SUCCESS;
}

#pragma weak MPI_Type_get_extent_x = PMPI_Type_get_extent_x
int PMPI_Type_get_extent_x(MPI_Datatype dt, MPI_Count *lb, MPI_Count *extent)
{
    return extent_count("MPI_Type_get_extent_x", dt, lb, extent, 0);
}

#pragma weak MPI_Type_get_extent_c = PMPI_Type_get_extent_c
int PMPI_Type_get_extent_c(MPI_Datatype dt, MPI_Count *lb, MPI_Count *extent)
{
    return extent_count("MPI_Type_get_extent_c", dt, lb, extent, 0);
}

#pragma weak MPI_Type_get_true_extent_c = PMPI_Type_get_true_extent_c
int PMPI_Type_get_true_extent_c(MPI_Datatype dt, MPI_Count *true_lb, MPI_Count *true_extent)
{
    return extent_count("MPI_Type_get_true_extent_c", dt, true_lb, true_extent, 1);
}

#pragma weak MPI_Type_get_true_extent = PMPI_Type_get_true_extent
int PMPI_Type_get_true_extent(MPI_Datatype dt, MPI_Aint *true_lb, MPI_Aint *true_extent)
{
    RD_TRY(check_type("MPI_Type_get_true_extent", dt));
    if (!true_lb || !true_extent)
        return rd_err_raise(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Type_get_true_extent", "a NULL argument");
    *true_lb = dt->true_lb;
    *true_extent = dt->true_extent;
    return MPI_SUCCESS;
}

#pragma weak MPI_Type_get_true_extent_x = PMPI_Type_get_true_extent_x
int PMPI_Type_get_true_extent_x(MPI_Datatype dt, MPI_Count *true_lb, MPI_Count *true_extent)
{
    return extent_count("MPI_Type_get_true_extent_x", dt, true_lb, true_extent, 1);
}

#pragma weak MPI_Type_set_name = PMPI_Type_set_name
int PMPI_Type_set_name(MPI_Datatype dt, const char *name)
{
    RD_API_READY("MPI_Type_set_name");
    RD_TRY(check_type("MPI_Type_set_name", dt));
    if (!name)
        return rd_err_raise(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Type_set_name", "name is NULL");
    snprintf(dt->name, sizeof(dt->name), "%s", name);
    return MPI_SUCCESS;
}

#pragma weak MPI_Type_get_name = PMPI_Type_get_name
int PMPI_Type_get_name(MPI_Datatype dt, char *name, int *resultlen)
{
    RD_TRY(check_type("MPI_Type_get_name", dt));
    if (!name || !resultlen)
        return rd_err_raise(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Type_get_name", "a NULL argument");
    *resultlen = snprintf(name, MPI_MAX_OBJECT_NAME, "%s", dt->name);
    return MPI_SUCCESS;
}

/* MPI_Type_get_envelope and _c. A type made by a large-count constructor
 * (MPI_Type_vector_c ...) records its MPI_Count arguments as large counts,
 * which the int call has no place for: it refuses such a type with
 * MPI_ERR_TYPE, as MPI 4.1 says (5.1.13), and so get_contents. */
static int envelope(const char *call, MPI_Datatype dt, MPI_Count n[4], int *combiner)
{
    RD_TRY(check_type(call, dt));
    n[0] = dt->ni;
    n[1] = dt->na;
    n[2] = dt->nc;
    n[3] = dt->nd;
    *combiner = dt->predefined == 1 ? MPI_COMBINER_NAMED : dt->combiner;
    return MPI_SUCCESS;
}

/* the int calls: MPI_ERR_TYPE for a type made by a _c constructor (or,
 * were there one, arguments too many for an int) */
static int int_envelope(const char *call, MPI_Datatype dt)
{
    if (dt->nc > 0)
        return rd_err_raise(MPI_COMM_WORLD, MPI_ERR_TYPE, call,
                            "the type was made by a large-count constructor (MPI_Type_..._c): its %lld large "
                            "counts need %s_c",
                            (long long)dt->nc, call);
    if (dt->ni > INT_MAX || dt->na > INT_MAX || dt->nd > INT_MAX)
        return rd_err_raise(MPI_COMM_WORLD, MPI_ERR_TYPE, call,
                            "the type's constructor had more arguments than an int counts: use %s_c", call);
    return MPI_SUCCESS;
}

#pragma weak MPI_Type_get_envelope = PMPI_Type_get_envelope
int PMPI_Type_get_envelope(MPI_Datatype dt, int *ni, int *na, int *nd, int *combiner)
{
    static const char call[] = "MPI_Type_get_envelope";
    MPI_Count n[4];
    int c;
    RD_TRY(envelope(call, dt, n, &c));
    if (!ni || !na || !nd || !combiner)
        return rd_err_raise(MPI_COMM_WORLD, MPI_ERR_ARG, call, "a NULL argument");
    RD_TRY(int_envelope(call, dt));
    *ni = (int)n[0];
    *na = (int)n[1];
    *nd = (int)n[3];
    *combiner = c;
    return MPI_SUCCESS;
}

#pragma weak MPI_Type_get_envelope_c = PMPI_Type_get_envelope_c
int PMPI_Type_get_envelope_c(MPI_Datatype dt, MPI_Count *ni, MPI_Count *na, MPI_Count *nc, MPI_Count *nd,
                             int *combiner)
{
    static const char call[] = "MPI_Type_get_envelope_c";
    MPI_Count n[4];
    int c;
    RD_TRY(envelope(call, dt, n, &c));
    if (!ni || !na || !nc || !nd || !combiner)
        return rd_err_raise(MPI_COMM_WORLD, MPI_ERR_ARG, call, "a NULL argument");
    *ni = n[0];
    *na = n[1];
    *nc = n[2];
    *nd = n[3];
    *combiner = c;
    return MPI_SUCCESS;
}

/* MPI_Type_get_contents and _c (large: the _c call, whose counts array
 * takes the large counts; the int call has none) */
static int contents(const char *call, int large, MPI_Datatype dt, MPI_Count max_integers, MPI_Count max_addresses,
                    MPI_Count max_large_counts, MPI_Count max_datatypes, int integers[], MPI_Aint addresses[],
                    MPI_Count counts[], MPI_Datatype datatypes[])
{
    RD_TRY(check_type(call, dt));
    if (dt->predefined == 1)
        return rd_err_raise(MPI_COMM_WORLD, MPI_ERR_TYPE, call, "%s is a named type: it has no contents", dt->name);
    if (!large)
        RD_TRY(int_envelope(call, dt));
    if (max_integers < dt->ni || max_addresses < dt->na || max_large_counts < dt->nc || max_datatypes < dt->nd)
        return rd_err_raise(MPI_COMM_WORLD, MPI_ERR_ARG, call,
                            "the arrays (%lld, %lld, %lld, %lld) are smaller than MPI_Type_get_envelope%s says "
                            "(%lld, %lld, %lld, %lld)",
                            (long long)max_integers, (long long)max_addresses, (long long)max_large_counts,
                            (long long)max_datatypes, large ? "_c" : "", (long long)dt->ni, (long long)dt->na,
                            (long long)dt->nc, (long long)dt->nd);
    if ((dt->ni && !integers) || (dt->na && !addresses) || (dt->nc && !counts) || (dt->nd && !datatypes))
        return rd_err_raise(MPI_COMM_WORLD, MPI_ERR_ARG, call, "an array is NULL");
    /* the derived types handed out are new objects, equal to the ones used
     * (same layout and contents), that the caller frees */
    for (MPI_Count i = 0; i < dt->nd; i++) {
        MPI_Datatype d = dt->types[i];
        if (d->predefined) {
            datatypes[i] = d;
            continue;
        }
        int err = MPI_SUCCESS;
        MPI_Datatype t = rd_dt_make_copy(d, &err);
        if (t && (err = rd_dt_set_contents(t, d->combiner, d->ni, d->ints, d->na, d->aints, d->nc, d->counts, d->nd,
                                           d->types)) != MPI_SUCCESS) {
            rd_dt_free(t);
            t = NULL;
        }
        if (!t) {
            for (MPI_Count j = 0; j < i; j++)
                if (!datatypes[j]->predefined)
                    rd_dt_release(datatypes[j]);
            return rd_err_raise(MPI_COMM_WORLD, err, call, "out of memory");
        }
        t->committed = d->committed;
        datatypes[i] = t;
    }
    if (dt->ni)
        memcpy(integers, dt->ints, sizeof(int) * (size_t)dt->ni);
    if (dt->na)
        memcpy(addresses, dt->aints, sizeof(MPI_Aint) * (size_t)dt->na);
    if (dt->nc)
        memcpy(counts, dt->counts, sizeof(MPI_Count) * (size_t)dt->nc);
    return MPI_SUCCESS;
}

#pragma weak MPI_Type_get_contents = PMPI_Type_get_contents
int PMPI_Type_get_contents(MPI_Datatype dt, int max_integers, int max_addresses, int max_datatypes,
                           int integers[], MPI_Aint addresses[], MPI_Datatype datatypes[])
{
    return contents("MPI_Type_get_contents", 0, dt, max_integers, max_addresses, 0, max_datatypes, integers,
                    addresses, NULL, datatypes);
}

#pragma weak MPI_Type_get_contents_c = PMPI_Type_get_contents_c
int PMPI_Type_get_contents_c(MPI_Datatype dt, MPI_Count max_integers, MPI_Count max_addresses,
                             MPI_Count max_large_counts, MPI_Count max_datatypes, int integers[],
                             MPI_Aint addresses[], MPI_Count large_counts[], MPI_Datatype datatypes[])
{
    return contents("MPI_Type_get_contents_c", 1, dt, max_integers, max_addresses, max_large_counts,
                    max_datatypes, integers, addresses, large_counts, datatypes);
}

int rd_dt_api_finish(const char *call, MPI_Datatype t, int err, int combiner, MPI_Count ni, const int *ints,
                     MPI_Count na, const MPI_Aint *aints, MPI_Count nc, const MPI_Count *counts, MPI_Count nd,
                     const MPI_Datatype *types, MPI_Datatype *newtype)
{
    if (t && (err = rd_dt_set_contents(t, combiner, ni, ints, na, aints, nc, counts, nd, types)) != MPI_SUCCESS) {
        rd_dt_free(t);
        t = NULL;
    }
    if (!t)
        return rd_err_raise(MPI_COMM_WORLD, err, call,
                            err == MPI_ERR_NO_MEM ? "out of memory"
                                                  : "the type's size or extent does not fit in an MPI_Aint");
    *newtype = t;
    return MPI_SUCCESS;
}

/* ------------------------------------------------------------ Fortran's parameterised types */

/* MPI_Type_create_f90_integer / _real / _complex: the type of the Fortran
 * kind SELECTED_INT_KIND(r) / SELECTED_REAL_KIND(p, r) would choose with
 * gfortran (INTEGER kinds 1, 2, 4, 8 for ranges up to 2, 4, 9, 18;
 * REAL kinds 4, 8, 10 (x87 extended: C's long double), 16 (binary128) for
 * precisions up to 6, 15, 18, 33 and ranges up to 37, 307, 4931, 4931),
 * MPI_UNDEFINED for "any". Each (combiner, p, r) gives one type, made on
 * first use and kept: a named type (it cannot be freed, MPI-4.1 5.1.6)
 * whose envelope is MPI_COMBINER_F90_* with (p, r) or (r) as contents
 * (predefined == 2 marks them). */
struct f90_type {
    struct f90_type *next;
    int combiner, p, r;
    MPI_Datatype t;
};
static struct f90_type *f90_types;

static int f90_make(const char *call, int combiner, int p, int r, MPI_Datatype basic, MPI_Datatype *newtype)
{
    if (!newtype)
        return rd_err_raise(MPI_COMM_WORLD, MPI_ERR_ARG, call, "newtype is NULL");
    if (!basic && combiner == MPI_COMBINER_F90_INTEGER)
        return rd_err_raise(MPI_COMM_WORLD, MPI_ERR_ARG, call, "no Fortran integer kind up to 8 bytes has range %d", r);
    if (!basic)
        return rd_err_raise(MPI_COMM_WORLD, MPI_ERR_ARG, call,
                            "no Fortran real kind has precision %d and range %d (MPI_UNDEFINED: %d)", p, r,
                            MPI_UNDEFINED);
    RD_LOCK();
    struct f90_type *f = f90_types;
    while (f && (f->combiner != combiner || f->p != p || f->r != r))
        f = f->next;
    int err = MPI_SUCCESS;
    if (!f) {
        MPI_Datatype t = rd_dt_make_copy(basic, &err);
        int pr[2] = {p, r};
        int ni = combiner == MPI_COMBINER_F90_INTEGER ? 1 : 2;
        f = t ? malloc(sizeof(*f)) : NULL;
        if (!f || rd_dt_set_contents(t, combiner, ni, combiner == MPI_COMBINER_F90_INTEGER ? &r : pr, 0, NULL, 0,
                                     NULL, 0, NULL) != MPI_SUCCESS) {
            free(f);
            if (t)
                rd_dt_release(t);
            RD_UNLOCK();
            return rd_err_raise(MPI_COMM_WORLD, err != MPI_SUCCESS ? err : MPI_ERR_NO_MEM, call, "out of memory");
        }
        t->committed = 1;
        t->predefined = 2;
        if (combiner == MPI_COMBINER_F90_INTEGER)
            snprintf(t->name, sizeof(t->name), "MPI_TYPE_CREATE_F90_INTEGER(%d)", r);
        else
            snprintf(t->name, sizeof(t->name), "MPI_TYPE_CREATE_F90_%s(%d,%d)",
                     combiner == MPI_COMBINER_F90_REAL ? "REAL" : "COMPLEX", p, r);
        *f = (struct f90_type){f90_types, combiner, p, r, t};
        f90_types = f;
    }
    RD_UNLOCK();
    *newtype = f->t;
    return MPI_SUCCESS;
}

/* gfortran's REAL kind for (p, r): 4, 8, 10, 16, or 0 */
static int real_kind(int p, int r)
{
    static const int kind[4] = {4, 8, 10, 16}, maxp[4] = {6, 15, 18, 33}, maxr[4] = {37, 307, 4931, 4931};
    if (p == MPI_UNDEFINED && r == MPI_UNDEFINED)
        return 0;
    for (int i = 0; i < 4; i++)
        if ((p == MPI_UNDEFINED || (p >= 0 && p <= maxp[i])) && (r == MPI_UNDEFINED || (r >= 0 && r <= maxr[i])))
            return kind[i];
    return 0;
}

#pragma weak MPI_Type_create_f90_integer = PMPI_Type_create_f90_integer
int PMPI_Type_create_f90_integer(int r, MPI_Datatype *newtype)
{
    RD_API_READY("MPI_Type_create_f90_integer");
    MPI_Datatype b = r < 0 ? NULL : r <= 2 ? MPI_INTEGER1 : r <= 4 ? MPI_INTEGER2 : r <= 9 ? MPI_INTEGER4
                                 : r <= 18 ? MPI_INTEGER8 : NULL;
    return f90_make("MPI_Type_create_f90_integer", MPI_COMBINER_F90_INTEGER, MPI_UNDEFINED, r, b, newtype);
}

#pragma weak MPI_Type_create_f90_real = PMPI_Type_create_f90_real
int PMPI_Type_create_f90_real(int p, int r, MPI_Datatype *newtype)
{
    RD_API_READY("MPI_Type_create_f90_real");
    int k = real_kind(p, r);
    MPI_Datatype b = k == 4 ? MPI_REAL4 : k == 8 ? MPI_REAL8 : k == 10 ? MPI_LONG_DOUBLE : k == 16 ? MPI_REAL16 : NULL;
    return f90_make("MPI_Type_create_f90_real", MPI_COMBINER_F90_REAL, p, r, b, newtype);
}

#pragma weak MPI_Type_create_f90_complex = PMPI_Type_create_f90_complex
int PMPI_Type_create_f90_complex(int p, int r, MPI_Datatype *newtype)
{
    RD_API_READY("MPI_Type_create_f90_complex");
    int k = real_kind(p, r);
    MPI_Datatype b = k == 4 ? MPI_COMPLEX8 : k == 8 ? MPI_COMPLEX16 : k == 10 ? MPI_C_LONG_DOUBLE_COMPLEX
                   : k == 16 ? MPI_COMPLEX32 : NULL;
    return f90_make("MPI_Type_create_f90_complex", MPI_COMBINER_F90_COMPLEX, p, r, b, newtype);
}

#pragma weak MPI_Type_match_size = PMPI_Type_match_size
int PMPI_Type_match_size(int typeclass, int size, MPI_Datatype *datatype)
{
    RD_API_READY("MPI_Type_match_size");
    if (!datatype)
        return rd_err_raise(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Type_match_size", "datatype is NULL");
    MPI_Datatype t = NULL;
    if (typeclass == MPI_TYPECLASS_INTEGER)
        t = size == 1 ? MPI_INTEGER1 : size == 2 ? MPI_INTEGER2 : size == 4 ? MPI_INTEGER4 : size == 8 ? MPI_INTEGER8 : NULL;
    else if (typeclass == MPI_TYPECLASS_REAL)
        t = size == 4 ? MPI_REAL4 : size == 8 ? MPI_REAL8 : size == 16 ? MPI_REAL16 : NULL;
    else if (typeclass == MPI_TYPECLASS_COMPLEX)
        t = size == 8 ? MPI_COMPLEX8 : size == 16 ? MPI_COMPLEX16 : size == 32 ? MPI_COMPLEX32 : NULL;
    else
        return rd_err_raise(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Type_match_size",
                            "typeclass %d is none of MPI_TYPECLASS_INTEGER, _REAL, _COMPLEX", typeclass);
    if (!t)
        return rd_err_raise(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Type_match_size",
                            "no Fortran type of that class has %d bytes", size);
    *datatype = t;
    return MPI_SUCCESS;
}

/* MPI 4.1: the predefined pair type of MPI_MINLOC/MPI_MAXLOC for a value
 * type and an index type, MPI_DATATYPE_NULL for a combination that has
 * none (as the standard says: not an error). */
#pragma weak MPI_Type_get_value_index = PMPI_Type_get_value_index
int PMPI_Type_get_value_index(MPI_Datatype value_type, MPI_Datatype index_type, MPI_Datatype *pair_type)
{
    static const char call[] = "MPI_Type_get_value_index";
    RD_API_READY(call);
    if (!rd_dt_valid(value_type) || !rd_dt_valid(index_type))
        return rd_err_raise(MPI_COMM_WORLD, MPI_ERR_TYPE, call, "%s is not a valid datatype",
                            rd_dt_valid(value_type) ? "index_type" : "value_type");
    if (!pair_type)
        return rd_err_raise(MPI_COMM_WORLD, MPI_ERR_ARG, call, "pair_type is NULL");
    const struct {
        MPI_Datatype value, index, pair;
    } pairs[] = {
        {MPI_FLOAT, MPI_INT, MPI_FLOAT_INT},   {MPI_DOUBLE, MPI_INT, MPI_DOUBLE_INT},
        {MPI_LONG, MPI_INT, MPI_LONG_INT},     {MPI_INT, MPI_INT, MPI_2INT},
        {MPI_SHORT, MPI_INT, MPI_SHORT_INT},   {MPI_LONG_DOUBLE, MPI_INT, MPI_LONG_DOUBLE_INT},
        {MPI_REAL, MPI_REAL, MPI_2REAL},       {MPI_DOUBLE_PRECISION, MPI_DOUBLE_PRECISION, MPI_2DOUBLE_PRECISION},
        {MPI_INTEGER, MPI_INTEGER, MPI_2INTEGER},
    };
    *pair_type = MPI_DATATYPE_NULL;
    for (size_t k = 0; k < sizeof pairs / sizeof pairs[0]; k++)
        if (pairs[k].value == value_type && pairs[k].index == index_type)
            *pair_type = pairs[k].pair;
    return MPI_SUCCESS;
}


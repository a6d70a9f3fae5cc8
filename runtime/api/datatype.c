/* Datatype calls: sizes and extents, contiguous types and dup, commit and
 * free, names, envelope and contents; the status queries Get_count /
 * Get_elements. The other constructors are in typector.c, packing in
 * pack.c. */
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

#pragma weak MPI_Type_size_x = PMPI_Type_size_x
int PMPI_Type_size_x(MPI_Datatype dt, MPI_Count *size)
{
    RD_TRY(check_type("MPI_Type_size_x", dt));
    if (!size)
        return rd_err_raise(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Type_size_x", "size is NULL");
    *size = (MPI_Count)dt->size;
    return MPI_SUCCESS;
}

#pragma weak MPI_Type_get_extent = PMPI_Type_get_extent
int PMPI_Type_get_extent(MPI_Datatype dt, MPI_Aint *lb, MPI_Aint *extent)
{
    RD_TRY(check_type("MPI_Type_get_extent", dt));
    if (!lb || !extent)
        return rd_err_raise(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Type_get_extent", "%s is NULL", lb ? "extent" : "lb");
    *lb = dt->lb;
    *extent = dt->extent;
    return MPI_SUCCESS;
}

#pragma weak MPI_Type_contiguous = PMPI_Type_contiguous
int PMPI_Type_contiguous(int count, MPI_Datatype old, MPI_Datatype *newtype)
{
    RD_API_READY("MPI_Type_contiguous");
    if (count < 0)
        return rd_err_raise(MPI_COMM_WORLD, MPI_ERR_COUNT, "MPI_Type_contiguous", "count %d is negative", count);
    RD_TRY(check_type("MPI_Type_contiguous", old));
    if (!newtype)
        return rd_err_raise(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Type_contiguous", "newtype is NULL");
    int err = MPI_SUCCESS;
    MPI_Datatype t = rd_dt_make_vector((size_t)count, 1, old->extent, old, &err);
    return rd_dt_api_finish("MPI_Type_contiguous", t, err, MPI_COMBINER_CONTIGUOUS, 1, &count, 0, NULL, 1,
                            &old, newtype);
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

#pragma weak MPI_Get_count = PMPI_Get_count
int PMPI_Get_count(const MPI_Status *status, MPI_Datatype dt, int *count)
{
    if (!status || !count)
        return rd_err_raise(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Get_count", "%s is NULL", status ? "count" : "status");
    RD_TRY(check_type("MPI_Get_count", dt));
    MPI_Count bytes = status->rd_bytes;
    if (dt->size == 0)
        *count = 0;
    else if ((size_t)bytes % dt->size != 0 || (size_t)bytes / dt->size > INT_MAX)
        *count = MPI_UNDEFINED;
    else
        *count = (int)((size_t)bytes / dt->size);
    return MPI_SUCCESS;
}

#pragma weak MPI_Get_elements_x = PMPI_Get_elements_x
int PMPI_Get_elements_x(const MPI_Status *status, MPI_Datatype dt, MPI_Count *count)
{
    if (!status || !count)
        return rd_err_raise(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Get_elements_x", "%s is NULL", status ? "count" : "status");
    RD_TRY(check_type("MPI_Get_elements_x", dt));
    MPI_Count n = rd_dt_elements(dt, status->rd_bytes);
    *count = n < 0 ? MPI_UNDEFINED : n;
    return MPI_SUCCESS;
}

#pragma weak MPI_Get_elements = PMPI_Get_elements
int PMPI_Get_elements(const MPI_Status *status, MPI_Datatype dt, int *count)
{
    MPI_Count n = 0;
    int rc = PMPI_Get_elements_x(status, dt, &n);
    if (rc != MPI_SUCCESS)
        return rc;
    *count = n > INT_MAX ? MPI_UNDEFINED : (int)n;
    return MPI_SUCCESS;
}

#pragma weak MPI_Pack_size = PMPI_Pack_size
int PMPI_Pack_size(int incount, MPI_Datatype dt, MPI_Comm comm, int *size)
{
    RD_API_READY("MPI_Pack_size");
    RD_TRY(rd_check_comm("MPI_Pack_size", comm));
    if (incount < 0)
        return rd_err_raise(comm, MPI_ERR_COUNT, "MPI_Pack_size", "count %d is negative", incount);
    if (!rd_dt_valid(dt))
        return rd_err_raise(comm, MPI_ERR_TYPE, "MPI_Pack_size", "invalid datatype");
    if (!size)
        return rd_err_raise(comm, MPI_ERR_ARG, "MPI_Pack_size", "size is NULL");
    /* packed data is the bytes of the elements, nothing more */
    size_t n = (size_t)incount * dt->size;
    if (n > INT_MAX)
        return rd_err_raise(comm, MPI_ERR_SIZE, "MPI_Pack_size", "%zu bytes do not fit in an int", n);
    *size = (int)n;
    return MPI_SUCCESS;
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
    RD_TRY(rd_dt_api_finish("MPI_Type_dup", t, err, MPI_COMBINER_DUP, 0, NULL, 0, NULL, 1, &old, newtype));
    int rc = rd_attr_dup_type(old, t);
    if (rc != MPI_SUCCESS) {
        rd_attr_delete_all_type(t);
        rd_dt_release(t);
        *newtype = MPI_DATATYPE_NULL;
        return rd_err_raise(MPI_COMM_WORLD, rc, "MPI_Type_dup", "an attribute copy callback failed");
    }
    return MPI_SUCCESS;
}

#pragma weak MPI_Type_get_extent_x = PMPI_Type_get_extent_x
int PMPI_Type_get_extent_x(MPI_Datatype dt, MPI_Count *lb, MPI_Count *extent)
{
    RD_TRY(check_type("MPI_Type_get_extent_x", dt));
    if (!lb || !extent)
        return rd_err_raise(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Type_get_extent_x", "a NULL argument");
    *lb = dt->lb;
    *extent = dt->extent;
    return MPI_SUCCESS;
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
    RD_TRY(check_type("MPI_Type_get_true_extent_x", dt));
    if (!true_lb || !true_extent)
        return rd_err_raise(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Type_get_true_extent_x", "a NULL argument");
    *true_lb = dt->true_lb;
    *true_extent = dt->true_extent;
    return MPI_SUCCESS;
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

#pragma weak MPI_Type_get_envelope = PMPI_Type_get_envelope
int PMPI_Type_get_envelope(MPI_Datatype dt, int *ni, int *na, int *nd, int *combiner)
{
    RD_TRY(check_type("MPI_Type_get_envelope", dt));
    if (!ni || !na || !nd || !combiner)
        return rd_err_raise(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Type_get_envelope", "a NULL argument");
    *combiner = dt->predefined ? MPI_COMBINER_NAMED : dt->combiner;
    *ni = dt->ni;
    *na = dt->na;
    *nd = dt->nd;
    return MPI_SUCCESS;
}

#pragma weak MPI_Type_get_contents = PMPI_Type_get_contents
int PMPI_Type_get_contents(MPI_Datatype dt, int max_integers, int max_addresses, int max_datatypes,
                           int integers[], MPI_Aint addresses[], MPI_Datatype datatypes[])
{
    RD_TRY(check_type("MPI_Type_get_contents", dt));
    if (dt->predefined)
        return rd_err_raise(MPI_COMM_WORLD, MPI_ERR_TYPE, "MPI_Type_get_contents",
                            "%s is a named type: it has no contents", dt->name);
    if (max_integers < dt->ni || max_addresses < dt->na || max_datatypes < dt->nd)
        return rd_err_raise(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Type_get_contents",
                            "the arrays (%d, %d, %d) are smaller than MPI_Type_get_envelope says (%d, %d, %d)",
                            max_integers, max_addresses, max_datatypes, dt->ni, dt->na, dt->nd);
    if ((dt->ni && !integers) || (dt->na && !addresses) || (dt->nd && !datatypes))
        return rd_err_raise(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Type_get_contents", "an array is NULL");
    /* the derived types handed out are new objects, equal to the ones used
     * (same layout and contents), that the caller frees */
    for (int i = 0; i < dt->nd; i++) {
        MPI_Datatype d = dt->types[i];
        if (d->predefined) {
            datatypes[i] = d;
            continue;
        }
        int err = MPI_SUCCESS;
        MPI_Datatype t = rd_dt_make_copy(d, &err);
        if (t && (err = rd_dt_set_contents(t, d->combiner, d->ni, d->ints, d->na, d->aints, d->nd, d->types)) != MPI_SUCCESS) {
            rd_dt_free(t);
            t = NULL;
        }
        if (!t) {
            for (int j = 0; j < i; j++)
                if (!datatypes[j]->predefined)
                    rd_dt_release(datatypes[j]);
            return rd_err_raise(MPI_COMM_WORLD, err, "MPI_Type_get_contents", "out of memory");
        }
        t->committed = d->committed;
        datatypes[i] = t;
    }
    if (dt->ni)
        memcpy(integers, dt->ints, sizeof(int) * (size_t)dt->ni);
    if (dt->na)
        memcpy(addresses, dt->aints, sizeof(MPI_Aint) * (size_t)dt->na);
    return MPI_SUCCESS;
}

int rd_dt_api_finish(const char *call, MPI_Datatype t, int err, int combiner, int ni, const int *ints,
                     int na, const MPI_Aint *aints, int nd, const MPI_Datatype *types,
                     MPI_Datatype *newtype)
{
    if (t && (err = rd_dt_set_contents(t, combiner, ni, ints, na, aints, nd, types)) != MPI_SUCCESS) {
        rd_dt_free(t);
        t = NULL;
    }
    if (!t)
        return rd_err_raise(MPI_COMM_WORLD, err, call,
                            err == MPI_ERR_NO_MEM ? "out of memory" : "the type's size does not fit in an MPI_Aint");
    *newtype = t;
    return MPI_SUCCESS;
}

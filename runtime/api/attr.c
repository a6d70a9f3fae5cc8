/* Attributes on communicators: MPI_Comm_create_keyval, Comm_free_keyval,
 * Comm_set_attr, Comm_get_attr, Comm_delete_attr; the predefined
 * attributes (MPI_TAG_UB, MPI_HOST, MPI_IO, MPI_WTIME_IS_GLOBAL, MPI_APPNUM,
 * MPI_UNIVERSE_SIZE, MPI_LASTUSEDCODE); copy on dup, delete on free. */
#include <mpi.h>
#include <stdlib.h>

#include "runtime/api/check.h"
#include "runtime/attr.h"
#include "runtime/job.h"

struct rd_keyval {
    MPI_Comm_copy_attr_function *copy;
    MPI_Comm_delete_attr_function *del;
    void *extra;
    int refs;  /* the user's handle + attributes that use it; 0: slot free */
    int freed; /* MPI_Comm_free_keyval was called */
};

struct rd_attr {
    struct rd_attr *next;
    int keyval;
    void *value;
};

static struct rd_keyval *rd_keyvals;
static int rd_nkeyvals;

int rd_mpi_comm_null_copy_fn(MPI_Comm c, int k, void *e, void *in, void *out, int *flag)
{
    *flag = 0;
    return MPI_SUCCESS;
}

int rd_mpi_comm_dup_fn(MPI_Comm c, int k, void *e, void *in, void *out, int *flag)
{
    *(void **)out = in;
    *flag = 1;
    return MPI_SUCCESS;
}

int rd_mpi_comm_null_delete_fn(MPI_Comm c, int k, void *v, void *e)
{
    return MPI_SUCCESS;
}

static int predefined_key(int k)
{
    return k >= MPI_TAG_UB && k <= MPI_LASTUSEDCODE;
}

static struct rd_keyval *keyval_of(int k)
{
    if (k < 0 || k >= rd_nkeyvals || rd_keyvals[k].refs == 0)
        return NULL;
    return &rd_keyvals[k];
}

static void keyval_unref(int k)
{
    if (--rd_keyvals[k].refs == 0)
        rd_keyvals[k].freed = 0; /* the slot may be reused */
}

#pragma weak MPI_Comm_create_keyval = PMPI_Comm_create_keyval
int PMPI_Comm_create_keyval(MPI_Comm_copy_attr_function *copy, MPI_Comm_delete_attr_function *del,
                            int *keyval, void *extra)
{
    RD_API_READY("MPI_Comm_create_keyval");
    if (!keyval)
        return rd_err_raise(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Comm_create_keyval", "keyval is NULL");
    int k = 0;
    while (k < rd_nkeyvals && rd_keyvals[k].refs != 0)
        k++;
    if (k == rd_nkeyvals) {
        int n = rd_nkeyvals ? 2 * rd_nkeyvals : 16;
        struct rd_keyval *t = realloc(rd_keyvals, sizeof(*t) * (size_t)n);
        if (!t)
            return rd_err_raise(MPI_COMM_WORLD, MPI_ERR_NO_MEM, "MPI_Comm_create_keyval", "out of memory");
        for (int i = rd_nkeyvals; i < n; i++)
            t[i].refs = 0;
        rd_keyvals = t;
        rd_nkeyvals = n;
    }
    rd_keyvals[k] = (struct rd_keyval){copy ? copy : rd_mpi_comm_null_copy_fn,
                                       del ? del : rd_mpi_comm_null_delete_fn, extra, 1, 0};
    *keyval = k;
    return MPI_SUCCESS;
}

#pragma weak MPI_Comm_free_keyval = PMPI_Comm_free_keyval
int PMPI_Comm_free_keyval(int *keyval)
{
    RD_API_READY("MPI_Comm_free_keyval");
    if (!keyval)
        return rd_err_raise(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Comm_free_keyval", "keyval is NULL");
    struct rd_keyval *kv = keyval_of(*keyval);
    if (!kv || kv->freed)
        return rd_err_raise(MPI_COMM_WORLD, MPI_ERR_KEYVAL, "MPI_Comm_free_keyval",
                            predefined_key(*keyval) ? "keyval %d is predefined" : "invalid keyval %d",
                            *keyval);
    kv->freed = 1; /* attributes that use it keep it until they go */
    keyval_unref(*keyval);
    *keyval = MPI_KEYVAL_INVALID;
    return MPI_SUCCESS;
}

static struct rd_attr **find(MPI_Comm comm, int k)
{
    struct rd_attr **pp = &comm->attrs;
    while (*pp && (*pp)->keyval != k)
        pp = &(*pp)->next;
    return pp;
}

/* Call the delete callback, then drop the attribute. */
static int remove_attr(MPI_Comm comm, struct rd_attr **pp)
{
    struct rd_attr *a = *pp;
    struct rd_keyval *kv = &rd_keyvals[a->keyval];
    int rc = kv->del(comm, a->keyval, a->value, kv->extra);
    if (rc != MPI_SUCCESS)
        return rc;
    *pp = a->next;
    keyval_unref(a->keyval);
    free(a);
    return MPI_SUCCESS;
}

static int set_attr(MPI_Comm comm, int k, void *value)
{
    struct rd_attr **pp = find(comm, k);
    if (*pp) {
        struct rd_keyval *kv = &rd_keyvals[k];
        int rc = kv->del(comm, k, (*pp)->value, kv->extra);
        if (rc != MPI_SUCCESS)
            return rc;
        (*pp)->value = value;
        return MPI_SUCCESS;
    }
    struct rd_attr *a = malloc(sizeof(*a));
    if (!a)
        return MPI_ERR_NO_MEM;
    /* newest first: MPI_Finalize deletes MPI_COMM_SELF's attributes in the
     * reverse order of setting */
    a->keyval = k;
    a->value = value;
    a->next = comm->attrs;
    comm->attrs = a;
    rd_keyvals[k].refs++;
    return MPI_SUCCESS;
}

#pragma weak MPI_Comm_set_attr = PMPI_Comm_set_attr
int PMPI_Comm_set_attr(MPI_Comm comm, int keyval, void *value)
{
    RD_API_READY("MPI_Comm_set_attr");
    RD_TRY(rd_check_comm("MPI_Comm_set_attr", comm));
    struct rd_keyval *kv = keyval_of(keyval);
    if (!kv || kv->freed)
        return rd_err_raise(comm, MPI_ERR_KEYVAL, "MPI_Comm_set_attr",
                            predefined_key(keyval) ? "keyval %d is predefined (read-only)" : "invalid keyval %d",
                            keyval);
    int rc = set_attr(comm, keyval, value);
    return rc == MPI_SUCCESS ? MPI_SUCCESS
                             : rd_err_raise(comm, rc, "MPI_Comm_set_attr", "the delete callback of keyval %d failed", keyval);
}

#pragma weak MPI_Comm_get_attr = PMPI_Comm_get_attr
int PMPI_Comm_get_attr(MPI_Comm comm, int keyval, void *value, int *flag)
{
    static int tag_ub = RDMPI_TAG_UB, host = MPI_PROC_NULL, io = MPI_ANY_SOURCE, wtime_global = 0;
    static int appnum, universe, lastcode = MPI_ERR_LASTCODE;
    RD_API_READY("MPI_Comm_get_attr");
    RD_TRY(rd_check_comm("MPI_Comm_get_attr", comm));
    if (!value || !flag)
        return rd_err_raise(comm, MPI_ERR_ARG, "MPI_Comm_get_attr", "%s is NULL", value ? "flag" : "attribute_val");
    if (predefined_key(keyval)) {
        int *v = NULL;
        switch (keyval) {
        case MPI_TAG_UB: v = &tag_ub; break;
        case MPI_HOST: v = &host; break;       /* no host process */
        case MPI_IO: v = &io; break;           /* every rank can do I/O */
        case MPI_WTIME_IS_GLOBAL: v = &wtime_global; break;
        case MPI_APPNUM: appnum = rd_job.appnum; v = &appnum; break;
        case MPI_UNIVERSE_SIZE: universe = rd_job.universe_size; v = &universe; break;
        case MPI_LASTUSEDCODE: v = &lastcode; break;
        }
        *(int **)value = v;
        *flag = 1;
        return MPI_SUCCESS;
    }
    if (!keyval_of(keyval))
        return rd_err_raise(comm, MPI_ERR_KEYVAL, "MPI_Comm_get_attr", "invalid keyval %d", keyval);
    struct rd_attr **pp = find(comm, keyval);
    *flag = *pp != NULL;
    if (*pp)
        *(void **)value = (*pp)->value;
    return MPI_SUCCESS;
}

#pragma weak MPI_Comm_delete_attr = PMPI_Comm_delete_attr
int PMPI_Comm_delete_attr(MPI_Comm comm, int keyval)
{
    RD_API_READY("MPI_Comm_delete_attr");
    RD_TRY(rd_check_comm("MPI_Comm_delete_attr", comm));
    if (!keyval_of(keyval))
        return rd_err_raise(comm, MPI_ERR_KEYVAL, "MPI_Comm_delete_attr", "invalid keyval %d", keyval);
    struct rd_attr **pp = find(comm, keyval);
    if (!*pp)
        return rd_err_raise(comm, MPI_ERR_KEYVAL, "MPI_Comm_delete_attr",
                            "no attribute with keyval %d on this communicator", keyval);
    int rc = remove_attr(comm, pp);
    return rc == MPI_SUCCESS ? MPI_SUCCESS
                             : rd_err_raise(comm, rc, "MPI_Comm_delete_attr", "the delete callback failed");
}

int rd_attr_dup(MPI_Comm comm, MPI_Comm newcomm)
{
    for (struct rd_attr *a = comm->attrs; a; a = a->next) {
        struct rd_keyval *kv = &rd_keyvals[a->keyval];
        void *out = NULL;
        int flag = 0;
        int rc = kv->copy(comm, a->keyval, kv->extra, a->value, &out, &flag);
        if (rc != MPI_SUCCESS)
            return rc;
        if (flag && (rc = set_attr(newcomm, a->keyval, out)) != MPI_SUCCESS)
            return rc;
    }
    return MPI_SUCCESS;
}

int rd_attr_delete_all(MPI_Comm comm)
{
    while (comm->attrs) {
        int rc = remove_attr(comm, &comm->attrs);
        if (rc != MPI_SUCCESS)
            return rc;
    }
    return MPI_SUCCESS;
}

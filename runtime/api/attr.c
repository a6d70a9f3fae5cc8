/* Attributes cached on objects: communicators (MPI_Comm_create_keyval,
 * Comm_free_keyval, Comm_set_attr, Comm_get_attr, Comm_delete_attr; the
 * predefined attributes MPI_TAG_UB, MPI_HOST, MPI_IO, MPI_WTIME_IS_GLOBAL,
 * MPI_APPNUM, MPI_UNIVERSE_SIZE, MPI_LASTUSEDCODE) and datatypes (the
 * MPI_Type_ twins). One keyval table and one attribute list per object;
 * the callbacks of a keyval are those of its kind of object. Copy on dup,
 * delete on free. */
#include <mpi.h>
#include <stdlib.h>

#include "runtime/api/check.h"
#include "runtime/api/fspecial.h"
#include "runtime/base/job.h"
#include "runtime/objects/attr.h"
#include "runtime/objects/win.h"

enum rd_attr_kind { RD_ATTR_COMM = 1, RD_ATTR_TYPE, RD_ATTR_WIN };

/* the language of a keyval's callbacks: C; Fortran with address-sized
 * values and extra state (MPI_*_CREATE_KEYVAL: rd_mpi_f_keyval); Fortran
 * with default INTEGER ones (MPI-1's MPI_KEYVAL_CREATE: rd_mpi_f_keyval_int) */
enum { RD_KV_C = 0, RD_KV_F, RD_KV_FINT };

typedef void rd_attr_fn(void);

struct rd_keyval {
    int kind;       /* enum rd_attr_kind */
    rd_attr_fn *copy;
    rd_attr_fn *del;
    void *extra;
    int refs;  /* the user's handle + attributes that use it; 0: slot free */
    int freed; /* MPI_*_free_keyval was called */
    int fortran; /* copy and del are Fortran's: RD_KV_F* */
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

int rd_mpi_win_null_copy_fn(MPI_Win w, int k, void *e, void *in, void *out, int *flag)
{
    (void)w, (void)k, (void)e, (void)in, (void)out;
    *flag = 0;
    return MPI_SUCCESS;
}

int rd_mpi_win_dup_fn(MPI_Win w, int k, void *e, void *in, void *out, int *flag)
{
    (void)w, (void)k, (void)e;
    *(void **)out = in;
    *flag = 1;
    return MPI_SUCCESS;
}

int rd_mpi_win_null_delete_fn(MPI_Win w, int k, void *v, void *e)
{
    (void)w, (void)k, (void)v, (void)e;
    return MPI_SUCCESS;
}

int rd_mpi_type_null_copy_fn(MPI_Datatype t, int k, void *e, void *in, void *out, int *flag)
{
    *flag = 0;
    return MPI_SUCCESS;
}

int rd_mpi_type_dup_fn(MPI_Datatype t, int k, void *e, void *in, void *out, int *flag)
{
    *(void **)out = in;
    *flag = 1;
    return MPI_SUCCESS;
}

int rd_mpi_type_null_delete_fn(MPI_Datatype t, int k, void *v, void *e)
{
    return MPI_SUCCESS;
}

static int predefined_key(int k)
{
    return k >= MPI_TAG_UB && k <= MPI_LASTUSEDCODE;
}

/* a live keyval of this kind */
static struct rd_keyval *keyval_of(int kind, int k)
{
    if (k < 0 || k >= rd_nkeyvals || rd_keyvals[k].refs == 0 || rd_keyvals[k].kind != kind)
        return NULL;
    return &rd_keyvals[k];
}

static void keyval_unref(int k)
{
    if (--rd_keyvals[k].refs == 0)
        rd_keyvals[k].freed = 0; /* the slot may be reused */
}

static int keyval_create(int kind, rd_attr_fn *copy, rd_attr_fn *del, void *extra, int *keyval,
                         const char *call)
{
    int k = 0;
    while (k < rd_nkeyvals && rd_keyvals[k].refs != 0)
        k++;
    if (k == rd_nkeyvals) {
        int n = rd_nkeyvals ? 2 * rd_nkeyvals : 16;
        struct rd_keyval *t = realloc(rd_keyvals, sizeof(*t) * (size_t)n);
        if (!t)
            return rd_err_raise(MPI_COMM_WORLD, MPI_ERR_NO_MEM, call, "out of memory");
        for (int i = rd_nkeyvals; i < n; i++)
            t[i].refs = 0;
        rd_keyvals = t;
        rd_nkeyvals = n;
    }
    rd_keyvals[k] = (struct rd_keyval){kind, copy, del, extra, 1, 0, 0};
    *keyval = k;
    return MPI_SUCCESS;
}

static int keyval_free(int kind, int *keyval, const char *call)
{
    if (!keyval)
        return rd_err_raise(MPI_COMM_WORLD, MPI_ERR_ARG, call, "keyval is NULL");
    struct rd_keyval *kv = keyval_of(kind, *keyval);
    if (!kv || kv->freed)
        return rd_err_raise(MPI_COMM_WORLD, MPI_ERR_KEYVAL, call,
                            kind == RD_ATTR_COMM && predefined_key(*keyval) ? "keyval %d is predefined"
                                                                           : "invalid keyval %d",
                            *keyval);
    kv->freed = 1; /* attributes that use it keep it until they go */
    keyval_unref(*keyval);
    *keyval = MPI_KEYVAL_INVALID;
    return MPI_SUCCESS;
}

/* Fortran's callbacks (runtime/fortran/README.md, "Callbacks"): all by
 * reference, the object's Fortran handle, the value and the extra state
 * as INTEGER(KIND=MPI_ADDRESS_KIND) (the bits of the C void *), a LOGICAL
 * flag, ierror last. MPI-1's (RD_KV_FINT) have default INTEGER values and
 * extra state: the low-order part of the C void *, and what they give back
 * sign-extended (the standard's rule for MPI_ATTR_GET and MPI_ATTR_PUT). */
typedef void rd_attr_fcopy(MPI_Fint *, MPI_Fint *, MPI_Aint *, MPI_Aint *, MPI_Aint *, MPI_Fint *, MPI_Fint *);
typedef void rd_attr_fdel(MPI_Fint *, MPI_Fint *, MPI_Aint *, MPI_Aint *, MPI_Fint *);
typedef void rd_attr_fcopy_int(MPI_Fint *, MPI_Fint *, MPI_Fint *, MPI_Fint *, MPI_Fint *, MPI_Fint *, MPI_Fint *);
typedef void rd_attr_fdel_int(MPI_Fint *, MPI_Fint *, MPI_Fint *, MPI_Fint *, MPI_Fint *);

static MPI_Fint f_handle(int kind, void *obj)
{
    if (kind == RD_ATTR_WIN)
        return PMPI_Win_c2f(obj);
    if (kind == RD_ATTR_TYPE)
        return PMPI_Type_c2f(obj);
    return PMPI_Comm_c2f(obj);
}

/* The glue's MPI_*_CREATE_KEYVAL: the keyval's functions are Fortran's. */
void rd_mpi_f_keyval(int k)
{
    if (k >= 0 && k < rd_nkeyvals && rd_keyvals[k].refs > 0)
        rd_keyvals[k].fortran = RD_KV_F;
}

/* The glue's MPI_KEYVAL_CREATE (MPI-1): Fortran's, with INTEGER values. */
void rd_mpi_f_keyval_int(int k)
{
    if (k >= 0 && k < rd_nkeyvals && rd_keyvals[k].refs > 0)
        rd_keyvals[k].fortran = RD_KV_FINT;
}

/* The glue's MPI_*_GET_ATTR: the value Fortran sees, from what C gives:
 * the predefined attributes' values (C: a pointer to them; MPI_WIN_BASE
 * the address itself), the others' bits. */
MPI_Aint rd_mpi_f_attr_comm(int k, void *v)
{
    return predefined_key(k) && v ? *(int *)v : (MPI_Aint)v;
}

MPI_Aint rd_mpi_f_attr_type(int k, void *v)
{
    (void)k;
    return (MPI_Aint)v;
}

MPI_Aint rd_mpi_f_attr_win(int k, void *v)
{
    if (k == MPI_WIN_SIZE && v)
        return *(MPI_Aint *)v;
    if ((k == MPI_WIN_DISP_UNIT || k == MPI_WIN_CREATE_FLAVOR || k == MPI_WIN_MODEL) && v)
        return *(int *)v;
    return (MPI_Aint)v;
}

/* The callbacks, called with the object of their kind. */
static int call_delete(struct rd_keyval *kv, void *obj, int k, void *value)
{
    if (kv->fortran == RD_KV_FINT) {
        MPI_Fint f = f_handle(kv->kind, obj), fk = k, ierr = MPI_SUCCESS;
        MPI_Fint v = (MPI_Fint)(MPI_Aint)value, e = (MPI_Fint)(MPI_Aint)kv->extra;
        ((rd_attr_fdel_int *)(void (*)(void))kv->del)(&f, &fk, &v, &e, &ierr);
        return ierr;
    }
    if (kv->fortran) {
        MPI_Fint f = f_handle(kv->kind, obj), fk = k, ierr = MPI_SUCCESS;
        MPI_Aint v = (MPI_Aint)value, e = (MPI_Aint)kv->extra;
        ((rd_attr_fdel *)(void (*)(void))kv->del)(&f, &fk, &v, &e, &ierr);
        return ierr;
    }
    if (kv->kind == RD_ATTR_WIN)
        return ((MPI_Win_delete_attr_function *)(void (*)(void))kv->del)(obj, k, value, kv->extra);
    if (kv->kind == RD_ATTR_TYPE)
        return ((MPI_Type_delete_attr_function *)(void (*)(void))kv->del)(obj, k, value, kv->extra);
    return ((MPI_Comm_delete_attr_function *)(void (*)(void))kv->del)(obj, k, value, kv->extra);
}

static int call_copy(struct rd_keyval *kv, void *obj, int k, void *in, void *out, int *flag)
{
    if (kv->fortran == RD_KV_FINT) {
        /* (vout has room for an address-sized value: a program that gave
         * MPI_KEYVAL_CREATE an MPI_COMM_DUP_FN writes one) */
        MPI_Fint f = f_handle(kv->kind, obj), fk = k, fflag = 0, ierr = MPI_SUCCESS;
        MPI_Fint e = (MPI_Fint)(MPI_Aint)kv->extra, vin = (MPI_Fint)(MPI_Aint)in, vout[2] = {0, 0};
        ((rd_attr_fcopy_int *)(void (*)(void))kv->copy)(&f, &fk, &e, &vin, vout, &fflag, &ierr);
        *(void **)out = (void *)(MPI_Aint)vout[0];
        *flag = fflag != 0;
        return ierr;
    }
    if (kv->fortran) {
        MPI_Fint f = f_handle(kv->kind, obj), fk = k, fflag = 0, ierr = MPI_SUCCESS;
        MPI_Aint e = (MPI_Aint)kv->extra, vin = (MPI_Aint)in, vout = 0;
        ((rd_attr_fcopy *)(void (*)(void))kv->copy)(&f, &fk, &e, &vin, &vout, &fflag, &ierr);
        *(void **)out = (void *)vout;
        *flag = fflag != 0;
        return ierr;
    }
    if (kv->kind == RD_ATTR_WIN)
        return ((MPI_Win_copy_attr_function *)(void (*)(void))kv->copy)(obj, k, kv->extra, in, out, flag);
    if (kv->kind == RD_ATTR_TYPE)
        return ((MPI_Type_copy_attr_function *)(void (*)(void))kv->copy)(obj, k, kv->extra, in, out, flag);
    return ((MPI_Comm_copy_attr_function *)(void (*)(void))kv->copy)(obj, k, kv->extra, in, out, flag);
}

static struct rd_attr **find(struct rd_attr **list, int k)
{
    struct rd_attr **pp = list;
    while (*pp && (*pp)->keyval != k)
        pp = &(*pp)->next;
    return pp;
}

/* Call the delete callback, then drop the attribute. */
static int remove_attr(void *obj, struct rd_attr **pp)
{
    struct rd_attr *a = *pp;
    int rc = call_delete(&rd_keyvals[a->keyval], obj, a->keyval, a->value);
    if (rc != MPI_SUCCESS)
        return rc;
    *pp = a->next;
    keyval_unref(a->keyval);
    free(a);
    return MPI_SUCCESS;
}

static int set_attr(void *obj, struct rd_attr **list, int k, void *value)
{
    struct rd_attr **pp = find(list, k);
    if (*pp) {
        int rc = call_delete(&rd_keyvals[k], obj, k, (*pp)->value);
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
    a->next = *list;
    *list = a;
    rd_keyvals[k].refs++;
    return MPI_SUCCESS;
}

static int attrs_dup(void *obj, struct rd_attr *from, void *newobj, struct rd_attr **to)
{
    for (struct rd_attr *a = from; a; a = a->next) {
        void *out = NULL;
        int flag = 0;
        int rc = call_copy(&rd_keyvals[a->keyval], obj, a->keyval, a->value, &out, &flag);
        if (rc != MPI_SUCCESS)
            return rc;
        if (flag && (rc = set_attr(newobj, to, a->keyval, out)) != MPI_SUCCESS)
            return rc;
    }
    return MPI_SUCCESS;
}

static int attrs_delete_all(void *obj, struct rd_attr **list)
{
    while (*list) {
        int rc = remove_attr(obj, list);
        if (rc != MPI_SUCCESS)
            return rc;
    }
    return MPI_SUCCESS;
}

/* ------------------------------------------------------------ communicators */

/* The communicator calls are shared by MPI-2's names and MPI-1's
 * (MPI_Keyval_create, MPI_Keyval_free, MPI_Attr_put, MPI_Attr_get,
 * MPI_Attr_delete): call is the name the program used. */
static int comm_create_keyval(const char *call, MPI_Comm_copy_attr_function *copy,
                              MPI_Comm_delete_attr_function *del, int *keyval, void *extra)
{
    RD_API_READY(call);
    if (!keyval)
        return rd_err_raise(MPI_COMM_WORLD, MPI_ERR_ARG, call, "keyval is NULL");
    return keyval_create(RD_ATTR_COMM, (rd_attr_fn *)(copy ? copy : rd_mpi_comm_null_copy_fn),
                         (rd_attr_fn *)(del ? del : rd_mpi_comm_null_delete_fn), extra, keyval, call);
}

static int comm_free_keyval(const char *call, int *keyval)
{
    RD_API_READY(call);
    return keyval_free(RD_ATTR_COMM, keyval, call);
}

static int comm_set_attr(const char *call, MPI_Comm comm, int keyval, void *value)
{
    RD_API_READY(call);
    RD_TRY(rd_check_comm(call, comm));
    struct rd_keyval *kv = keyval_of(RD_ATTR_COMM, keyval);
    if (!kv || kv->freed)
        return rd_err_raise(comm, MPI_ERR_KEYVAL, call,
                            predefined_key(keyval) ? "keyval %d is predefined (read-only)" : "invalid keyval %d",
                            keyval);
    int rc = set_attr(comm, &comm->attrs, keyval, value);
    return rc == MPI_SUCCESS ? MPI_SUCCESS
                             : rd_err_raise(comm, rc, call, "the delete callback of keyval %d failed", keyval);
}

static int comm_get_attr(const char *call, MPI_Comm comm, int keyval, void *value, int *flag)
{
    static int tag_ub = RDMPI_TAG_UB, host = MPI_PROC_NULL, io = MPI_ANY_SOURCE, wtime_global = 0;
    static int appnum, universe, lastcode = MPI_ERR_LASTCODE;
    RD_API_READY(call);
    RD_TRY(rd_check_comm(call, comm));
    if (!value || !flag)
        return rd_err_raise(comm, MPI_ERR_ARG, call, "%s is NULL", value ? "flag" : "attribute_val");
    if (predefined_key(keyval)) {
        int *v = NULL;
        switch (keyval) {
        case MPI_TAG_UB: v = &tag_ub; break;
        case MPI_HOST: v = &host; break;       /* no host process */
        case MPI_IO: v = &io; break;           /* every rank can do I/O */
        case MPI_WTIME_IS_GLOBAL: v = &wtime_global; break;
        case MPI_APPNUM: appnum = rd_job.appnum; v = &appnum; break;
        case MPI_UNIVERSE_SIZE: universe = rd_job.universe_size; v = &universe; break;
        case MPI_LASTUSEDCODE: lastcode = rd_err_lastused(); v = &lastcode; break;
        }
        *(int **)value = v;
        *flag = 1;
        return MPI_SUCCESS;
    }
    if (!keyval_of(RD_ATTR_COMM, keyval))
        return rd_err_raise(comm, MPI_ERR_KEYVAL, call, "invalid keyval %d", keyval);
    struct rd_attr **pp = find(&comm->attrs, keyval);
    *flag = *pp != NULL;
    if (*pp)
        *(void **)value = (*pp)->value;
    return MPI_SUCCESS;
}

static int comm_delete_attr(const char *call, MPI_Comm comm, int keyval)
{
    RD_API_READY(call);
    RD_TRY(rd_check_comm(call, comm));
    if (!keyval_of(RD_ATTR_COMM, keyval))
        return rd_err_raise(comm, MPI_ERR_KEYVAL, call, "invalid keyval %d", keyval);
    struct rd_attr **pp = find(&comm->attrs, keyval);
    if (!*pp)
        return rd_err_raise(comm, MPI_ERR_KEYVAL, call, "no attribute with keyval %d on this communicator", keyval);
    int rc = remove_attr(comm, pp);
    return rc == MPI_SUCCESS ? MPI_SUCCESS : rd_err_raise(comm, rc, call, "the delete callback failed");
}

#pragma weak MPI_Comm_create_keyval = PMPI_Comm_create_keyval
int PMPI_Comm_create_keyval(MPI_Comm_copy_attr_function *copy, MPI_Comm_delete_attr_function *del,
                            int *keyval, void *extra)
{
    return comm_create_keyval("MPI_Comm_create_keyval", copy, del, keyval, extra);
}

#pragma weak MPI_Comm_free_keyval = PMPI_Comm_free_keyval
int PMPI_Comm_free_keyval(int *keyval)
{
    return comm_free_keyval("MPI_Comm_free_keyval", keyval);
}

#pragma weak MPI_Comm_set_attr = PMPI_Comm_set_attr
int PMPI_Comm_set_attr(MPI_Comm comm, int keyval, void *value)
{
    return comm_set_attr("MPI_Comm_set_attr", comm, keyval, value);
}

#pragma weak MPI_Comm_get_attr = PMPI_Comm_get_attr
int PMPI_Comm_get_attr(MPI_Comm comm, int keyval, void *value, int *flag)
{
    return comm_get_attr("MPI_Comm_get_attr", comm, keyval, value, flag);
}

#pragma weak MPI_Comm_delete_attr = PMPI_Comm_delete_attr
int PMPI_Comm_delete_attr(MPI_Comm comm, int keyval)
{
    return comm_delete_attr("MPI_Comm_delete_attr", comm, keyval);
}

/* MPI-1's names (removed in MPI-3.0; mpi.h) */
#pragma weak MPI_Keyval_create = PMPI_Keyval_create
int PMPI_Keyval_create(MPI_Copy_function *copy, MPI_Delete_function *del, int *keyval, void *extra)
{
    return comm_create_keyval("MPI_Keyval_create", copy, del, keyval, extra);
}

#pragma weak MPI_Keyval_free = PMPI_Keyval_free
int PMPI_Keyval_free(int *keyval)
{
    return comm_free_keyval("MPI_Keyval_free", keyval);
}

#pragma weak MPI_Attr_put = PMPI_Attr_put
int PMPI_Attr_put(MPI_Comm comm, int keyval, void *value)
{
    return comm_set_attr("MPI_Attr_put", comm, keyval, value);
}

#pragma weak MPI_Attr_get = PMPI_Attr_get
int PMPI_Attr_get(MPI_Comm comm, int keyval, void *value, int *flag)
{
    return comm_get_attr("MPI_Attr_get", comm, keyval, value, flag);
}

#pragma weak MPI_Attr_delete = PMPI_Attr_delete
int PMPI_Attr_delete(MPI_Comm comm, int keyval)
{
    return comm_delete_attr("MPI_Attr_delete", comm, keyval);
}

int rd_attr_dup(MPI_Comm comm, MPI_Comm newcomm)
{
    return attrs_dup(comm, comm->attrs, newcomm, &newcomm->attrs);
}

int rd_attr_delete_all(MPI_Comm comm)
{
    return attrs_delete_all(comm, &comm->attrs);
}

/* ------------------------------------------------------------ datatypes */

static int check_dt(const char *call, MPI_Datatype dt)
{
    return rd_dt_valid(dt) ? MPI_SUCCESS : rd_err_raise(MPI_COMM_WORLD, MPI_ERR_TYPE, call, "invalid datatype");
}

#pragma weak MPI_Type_create_keyval = PMPI_Type_create_keyval
int PMPI_Type_create_keyval(MPI_Type_copy_attr_function *copy, MPI_Type_delete_attr_function *del,
                            int *keyval, void *extra)
{
    RD_API_READY("MPI_Type_create_keyval");
    if (!keyval)
        return rd_err_raise(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Type_create_keyval", "keyval is NULL");
    return keyval_create(RD_ATTR_TYPE, (rd_attr_fn *)(copy ? copy : rd_mpi_type_null_copy_fn),
                         (rd_attr_fn *)(del ? del : rd_mpi_type_null_delete_fn), extra, keyval,
                         "MPI_Type_create_keyval");
}

#pragma weak MPI_Type_free_keyval = PMPI_Type_free_keyval
int PMPI_Type_free_keyval(int *keyval)
{
    RD_API_READY("MPI_Type_free_keyval");
    return keyval_free(RD_ATTR_TYPE, keyval, "MPI_Type_free_keyval");
}

#pragma weak MPI_Type_set_attr = PMPI_Type_set_attr
int PMPI_Type_set_attr(MPI_Datatype dt, int keyval, void *value)
{
    RD_API_READY("MPI_Type_set_attr");
    RD_TRY(check_dt("MPI_Type_set_attr", dt));
    struct rd_keyval *kv = keyval_of(RD_ATTR_TYPE, keyval);
    if (!kv || kv->freed)
        return rd_err_raise(MPI_COMM_WORLD, MPI_ERR_KEYVAL, "MPI_Type_set_attr", "invalid keyval %d", keyval);
    int rc = set_attr(dt, &dt->attrs, keyval, value);
    return rc == MPI_SUCCESS ? MPI_SUCCESS
                             : rd_err_raise(MPI_COMM_WORLD, rc, "MPI_Type_set_attr",
                                            "the delete callback of keyval %d failed", keyval);
}

#pragma weak MPI_Type_get_attr = PMPI_Type_get_attr
int PMPI_Type_get_attr(MPI_Datatype dt, int keyval, void *value, int *flag)
{
    RD_API_READY("MPI_Type_get_attr");
    RD_TRY(check_dt("MPI_Type_get_attr", dt));
    if (!value || !flag)
        return rd_err_raise(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Type_get_attr", "%s is NULL",
                            value ? "flag" : "attribute_val");
    if (!keyval_of(RD_ATTR_TYPE, keyval))
        return rd_err_raise(MPI_COMM_WORLD, MPI_ERR_KEYVAL, "MPI_Type_get_attr", "invalid keyval %d", keyval);
    struct rd_attr **pp = find(&dt->attrs, keyval);
    *flag = *pp != NULL;
    if (*pp)
        *(void **)value = (*pp)->value;
    return MPI_SUCCESS;
}

#pragma weak MPI_Type_delete_attr = PMPI_Type_delete_attr
int PMPI_Type_delete_attr(MPI_Datatype dt, int keyval)
{
    RD_API_READY("MPI_Type_delete_attr");
    RD_TRY(check_dt("MPI_Type_delete_attr", dt));
    if (!keyval_of(RD_ATTR_TYPE, keyval))
        return rd_err_raise(MPI_COMM_WORLD, MPI_ERR_KEYVAL, "MPI_Type_delete_attr", "invalid keyval %d", keyval);
    struct rd_attr **pp = find(&dt->attrs, keyval);
    if (!*pp)
        return rd_err_raise(MPI_COMM_WORLD, MPI_ERR_KEYVAL, "MPI_Type_delete_attr",
                            "no attribute with keyval %d on this datatype", keyval);
    int rc = remove_attr(dt, pp);
    return rc == MPI_SUCCESS ? MPI_SUCCESS
                             : rd_err_raise(MPI_COMM_WORLD, rc, "MPI_Type_delete_attr", "the delete callback failed");
}

int rd_attr_dup_type(MPI_Datatype dt, MPI_Datatype newtype)
{
    return attrs_dup(dt, dt->attrs, newtype, &newtype->attrs);
}

int rd_attr_delete_all_type(MPI_Datatype dt)
{
    return attrs_delete_all(dt, &dt->attrs);
}

/* ------------------------------------------------------------ windows */

static int win_predefined_key(int k)
{
    return k >= MPI_WIN_BASE && k <= MPI_WIN_MODEL;
}

#pragma weak MPI_Win_create_keyval = PMPI_Win_create_keyval
int PMPI_Win_create_keyval(MPI_Win_copy_attr_function *copy, MPI_Win_delete_attr_function *del, int *keyval,
                           void *extra)
{
    RD_API_READY("MPI_Win_create_keyval");
    if (!keyval)
        return rd_err_raise(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Win_create_keyval", "keyval is NULL");
    return keyval_create(RD_ATTR_WIN, (rd_attr_fn *)(copy ? copy : rd_mpi_win_null_copy_fn),
                         (rd_attr_fn *)(del ? del : rd_mpi_win_null_delete_fn), extra, keyval,
                         "MPI_Win_create_keyval");
}

#pragma weak MPI_Win_free_keyval = PMPI_Win_free_keyval
int PMPI_Win_free_keyval(int *keyval)
{
    RD_API_READY("MPI_Win_free_keyval");
    if (keyval && win_predefined_key(*keyval))
        return rd_err_raise(MPI_COMM_WORLD, MPI_ERR_KEYVAL, "MPI_Win_free_keyval", "keyval %d is predefined",
                            *keyval);
    return keyval_free(RD_ATTR_WIN, keyval, "MPI_Win_free_keyval");
}

#pragma weak MPI_Win_set_attr = PMPI_Win_set_attr
int PMPI_Win_set_attr(MPI_Win win, int keyval, void *value)
{
    RD_API_READY("MPI_Win_set_attr");
    RD_TRY(rd_check_win("MPI_Win_set_attr", win));
    struct rd_keyval *kv = keyval_of(RD_ATTR_WIN, keyval);
    if (!kv || kv->freed)
        return rd_err_raise_win(win, MPI_ERR_KEYVAL, "MPI_Win_set_attr", "%s keyval %d",
                                win_predefined_key(keyval) ? "predefined (read-only)" : "invalid", keyval);
    int rc = set_attr(win, &win->attrs, keyval, value);
    return rc == MPI_SUCCESS ? MPI_SUCCESS
                             : rd_err_raise_win(win, rc, "MPI_Win_set_attr",
                                                "the delete callback of keyval %d failed", keyval);
}

#pragma weak MPI_Win_get_attr = PMPI_Win_get_attr
int PMPI_Win_get_attr(MPI_Win win, int keyval, void *value, int *flag)
{
    RD_API_READY("MPI_Win_get_attr");
    RD_TRY(rd_check_win("MPI_Win_get_attr", win));
    if (!value || !flag)
        return rd_err_raise_win(win, MPI_ERR_ARG, "MPI_Win_get_attr", "%s is NULL",
                                value ? "flag" : "attribute_val");
    if (win_predefined_key(keyval)) {
        /* WIN_BASE is the base address itself; the others point at their value */
        static int model = MPI_WIN_UNIFIED;
        switch (keyval) {
        case MPI_WIN_BASE: *(void **)value = win->base; break;
        case MPI_WIN_SIZE: *(void **)value = &win->size; break;
        case MPI_WIN_DISP_UNIT: *(void **)value = &win->disp_unit_attr; break;
        case MPI_WIN_CREATE_FLAVOR: *(void **)value = &win->flavor; break;
        default: *(void **)value = &model; break;
        }
        *flag = 1;
        return MPI_SUCCESS;
    }
    if (!keyval_of(RD_ATTR_WIN, keyval))
        return rd_err_raise_win(win, MPI_ERR_KEYVAL, "MPI_Win_get_attr", "invalid keyval %d", keyval);
    struct rd_attr **pp = find(&win->attrs, keyval);
    *flag = *pp != NULL;
    if (*pp)
        *(void **)value = (*pp)->value;
    return MPI_SUCCESS;
}

#pragma weak MPI_Win_delete_attr = PMPI_Win_delete_attr
int PMPI_Win_delete_attr(MPI_Win win, int keyval)
{
    RD_API_READY("MPI_Win_delete_attr");
    RD_TRY(rd_check_win("MPI_Win_delete_attr", win));
    if (!keyval_of(RD_ATTR_WIN, keyval))
        return rd_err_raise_win(win, MPI_ERR_KEYVAL, "MPI_Win_delete_attr", "invalid keyval %d", keyval);
    struct rd_attr **pp = find(&win->attrs, keyval);
    if (!*pp)
        return rd_err_raise_win(win, MPI_ERR_KEYVAL, "MPI_Win_delete_attr",
                                "no attribute with keyval %d on this window", keyval);
    int rc = remove_attr(win, pp);
    return rc == MPI_SUCCESS ? MPI_SUCCESS
                             : rd_err_raise_win(win, rc, "MPI_Win_delete_attr", "the delete callback failed");
}

int rd_attr_delete_all_win(MPI_Win win)
{
    return attrs_delete_all(win, &win->attrs);
}

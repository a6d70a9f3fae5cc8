/* errcode.c - error classes and codes a program adds at run time
 * (MPI_Add_error_class, MPI_Add_error_code, MPI_Add_error_string and
 * MPI 4.1's MPI_Remove_error_*; errhandler.h). Values above
 * MPI_ERR_LASTCODE, handed out in increasing order and never reused, so a
 * stale value never names a newer class. MPI_LASTUSEDCODE is the largest
 * value still in use (MPI_ERR_LASTCODE when none is). One mutex: any
 * thread may add, remove or look up. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/objects/errhandler.h"

struct ucode {
    int cls;      /* its class (itself for a class); -1: removed */
    int ncodes;   /* a class: codes of it still in use */
    char *string; /* MPI_Add_error_string's, or NULL */
};

static struct {
    pthread_mutex_t lock;
    struct ucode *v; /* v[i]: value MPI_ERR_LASTCODE + 1 + i */
    int n, cap;
} uc = {.lock = PTHREAD_MUTEX_INITIALIZER};

/* the entry of a value in use, or NULL (lock held) */
static struct ucode *find(int code)
{
    if (code <= MPI_ERR_LASTCODE || code - MPI_ERR_LASTCODE - 1 >= uc.n)
        return NULL;
    struct ucode *e = &uc.v[code - MPI_ERR_LASTCODE - 1];
    return e->cls < 0 ? NULL : e;
}

int rd_err_code_class(int code)
{
    if (code >= 0 && code < MPI_ERR_LASTCODE)
        return rd_err_class_string(code) ? code : -1;
    pthread_mutex_lock(&uc.lock);
    struct ucode *e = find(code);
    int cls = e ? e->cls : -1;
    pthread_mutex_unlock(&uc.lock);
    return cls;
}

int rd_err_add(int is_code, int cls, int *out, const char **why)
{
    int rc = MPI_SUCCESS;
    pthread_mutex_lock(&uc.lock);
    struct ucode *c = NULL;
    if (is_code && !(cls >= 0 && cls < MPI_ERR_LASTCODE && rd_err_class_string(cls))) {
        c = find(cls);
        if (!c || c->cls != cls) {
            *why = "is not an error class";
            rc = MPI_ERR_ARG;
            goto out;
        }
    }
    if (uc.n == INT32_MAX - MPI_ERR_LASTCODE - 1) {
        *why = "every error value is taken";
        rc = MPI_ERR_OTHER;
        goto out;
    }
    if (uc.n == uc.cap) {
        int cap = uc.cap ? 2 * uc.cap : 16;
        struct ucode *v = realloc(uc.v, (size_t)cap * sizeof *v);
        if (!v) {
            *why = "out of memory";
            rc = MPI_ERR_NO_MEM;
            goto out;
        }
        uc.v = v, uc.cap = cap;
        if (c) /* moved with the array */
            c = &uc.v[cls - MPI_ERR_LASTCODE - 1];
    }
    int val = MPI_ERR_LASTCODE + 1 + uc.n;
    uc.v[uc.n++] = (struct ucode){.cls = is_code ? cls : val};
    if (c)
        c->ncodes++;
    *out = val;
out:
    pthread_mutex_unlock(&uc.lock);
    return rc;
}

int rd_err_remove(int code, int is_class, const char **why)
{
    int rc = MPI_SUCCESS;
    pthread_mutex_lock(&uc.lock);
    struct ucode *e = find(code);
    if (!e || (e->cls == code) != is_class) {
        *why = is_class ? "is not an error class added by MPI_Add_error_class"
                        : "is not an error code added by MPI_Add_error_code";
        rc = MPI_ERR_ARG;
    } else if (is_class && e->ncodes) {
        *why = "still has error codes (remove them first)";
        rc = MPI_ERR_ARG;
    } else if (!is_class && e->string) {
        *why = "still has an error string (remove it first)";
        rc = MPI_ERR_ARG;
    } else {
        if (!is_class)
            uc.v[e->cls - MPI_ERR_LASTCODE - 1].ncodes--;
        free(e->string);
        *e = (struct ucode){.cls = -1};
    }
    pthread_mutex_unlock(&uc.lock);
    return rc;
}

int rd_err_set_string(int code, const char *s, const char **why)
{
    if (code <= MPI_ERR_LASTCODE) {
        *why = code >= 0 && code < MPI_ERR_LASTCODE ? "is predefined (its string cannot change)"
                                                    : "is not an error code or class";
        return MPI_ERR_ARG;
    }
    size_t len = strlen(s); /* (the caller checked it against MPI_MAX_ERROR_STRING) */
    char *copy = malloc(len + 1);
    if (!copy) {
        *why = "out of memory";
        return MPI_ERR_NO_MEM;
    }
    memcpy(copy, s, len + 1);
    int rc = MPI_SUCCESS;
    pthread_mutex_lock(&uc.lock);
    struct ucode *e = find(code);
    if (!e) {
        *why = "is not an error code or class in use";
        rc = MPI_ERR_ARG;
        free(copy);
    } else {
        free(e->string); /* a second call replaces the first's */
        e->string = copy;
    }
    pthread_mutex_unlock(&uc.lock);
    return rc;
}

int rd_err_remove_string(int code, const char **why)
{
    int rc = MPI_SUCCESS;
    pthread_mutex_lock(&uc.lock);
    struct ucode *e = find(code);
    if (!e || !e->string) {
        *why = e ? "has no error string" : "is not an error code or class added at run time";
        rc = MPI_ERR_ARG;
    } else {
        free(e->string);
        e->string = NULL;
    }
    pthread_mutex_unlock(&uc.lock);
    return rc;
}

int rd_err_user_string(int code, char *buf, size_t n)
{
    pthread_mutex_lock(&uc.lock);
    struct ucode *e = find(code);
    if (e && n) {
        const char *s = e->string ? e->string : ""; /* none set: empty, as the standard says */
        size_t len = strlen(s);
        if (len >= n)
            len = n - 1;
        memcpy(buf, s, len);
        buf[len] = 0;
    }
    pthread_mutex_unlock(&uc.lock);
    return e != NULL;
}

int rd_err_lastused(void)
{
    pthread_mutex_lock(&uc.lock);
    int last = MPI_ERR_LASTCODE;
    for (int i = uc.n - 1; i >= 0; i--)
        if (uc.v[i].cls >= 0) {
            last = MPI_ERR_LASTCODE + 1 + i;
            break;
        }
    pthread_mutex_unlock(&uc.lock);
    return last;
}

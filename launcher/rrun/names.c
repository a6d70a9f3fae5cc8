/* names.c - the name service of rrun's PMIx server: the publish, lookup
 * and unpublish upcalls (PMIx_Publish ... , which MPI_Publish_name,
 * MPI_Lookup_name and MPI_Unpublish_name call). A table of this rrun:
 * a name holds a string value and the process that published it, until
 * that process unpublishes it or the job ends. One host only: a daemon of
 * a job over several hosts answers PMIX_ERR_NOT_SUPPORTED (its table
 * would see only its own host's names), which the library reports as
 * MPI_ERR_UNSUPPORTED_OPERATION. Upcalls run on libpmix's progress
 * thread; the table has its own lock and is never held across a call
 * into libpmix. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "config.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include <pmix.h>
#include <pmix_server.h>

#include "launcher/rrun/names.h"
#include "launcher/rrun/rrun.h"

struct name {
    char key[PMIX_MAX_KEYLEN + 1];
    char *value;
    pmix_proc_t owner;
    struct name *next;
};

static struct name *names;
static pthread_mutex_t names_lock = PTHREAD_MUTEX_INITIALIZER;
static const struct rrun_job *names_job;

void rrun_names_init(const struct rrun_job *job)
{
    names_job = job;
}

static struct name **find(const char *key)
{
    struct name **p = &names;
    while (*p && strcmp((*p)->key, key) != 0)
        p = &(*p)->next;
    return p;
}

static int served(void)
{
    return names_job && names_job->mode != RRUN_DAEMON;
}

/* (keys that start with "pmix." are directives: range, persistence ...) */
static int directive(const char *key)
{
    return strncmp(key, "pmix.", 5) == 0;
}

pmix_status_t rrun_up_publish(const pmix_proc_t *proc, const pmix_info_t info[], size_t ninfo,
                              pmix_op_cbfunc_t cbfunc, void *cbdata)
{
    (void)cbfunc;
    (void)cbdata;
    if (!served())
        return PMIX_ERR_NOT_SUPPORTED;
    pmix_status_t rc = PMIX_OPERATION_SUCCEEDED;
    pthread_mutex_lock(&names_lock);
    /* all or nothing: every name free and a string first */
    for (size_t i = 0; i < ninfo; i++) {
        if (directive(info[i].key))
            continue;
        if (info[i].value.type != PMIX_STRING || !info[i].value.data.string) {
            rc = PMIX_ERR_BAD_PARAM;
            goto out;
        }
        if (*find(info[i].key)) {
            rc = PMIX_ERR_DUPLICATE_KEY;
            goto out;
        }
        for (size_t j = 0; j < i; j++)
            if (!directive(info[j].key) && strcmp(info[j].key, info[i].key) == 0) {
                rc = PMIX_ERR_DUPLICATE_KEY;
                goto out;
            }
    }
    for (size_t i = 0; i < ninfo; i++) {
        if (directive(info[i].key))
            continue;
        struct name *n = calloc(1, sizeof(*n));
        if (n)
            n->value = strdup(info[i].value.data.string);
        if (!n || !n->value) {
            free(n);
            rc = PMIX_ERR_NOMEM; /* (the names before it stay published) */
            goto out;
        }
        PMIX_LOAD_KEY(n->key, info[i].key);
        n->owner = *proc;
        n->next = names;
        names = n;
    }
out:
    pthread_mutex_unlock(&names_lock);
    return rc;
}

pmix_status_t rrun_up_lookup(const pmix_proc_t *proc, char **keys, const pmix_info_t info[], size_t ninfo,
                             pmix_lookup_cbfunc_t cbfunc, void *cbdata)
{
    (void)proc;
    (void)info;
    (void)ninfo;
    if (!served())
        return PMIX_ERR_NOT_SUPPORTED;
    size_t nkeys = 0;
    while (keys && keys[nkeys])
        nkeys++;
    pmix_pdata_t *pd = NULL;
    size_t nfound = 0;
    if (nkeys > 0) {
        PMIX_PDATA_CREATE(pd, nkeys);
        if (!pd)
            return PMIX_ERR_NOMEM;
    }
    pthread_mutex_lock(&names_lock);
    for (size_t i = 0; i < nkeys; i++) {
        struct name *n = *find(keys[i]);
        if (!n)
            continue;
        PMIX_PROC_LOAD(&pd[nfound].proc, n->owner.nspace, n->owner.rank);
        PMIX_LOAD_KEY(pd[nfound].key, n->key);
        PMIX_VALUE_LOAD(&pd[nfound].value, n->value, PMIX_STRING);
        nfound++;
    }
    pthread_mutex_unlock(&names_lock);
    /* (libpmix packs the data inside the callback: it is ours after) */
    cbfunc(nfound == nkeys && nkeys > 0 ? PMIX_SUCCESS : PMIX_ERR_NOT_FOUND, nfound ? pd : NULL, nfound, cbdata);
    if (pd)
        PMIX_PDATA_FREE(pd, nkeys);
    return PMIX_SUCCESS;
}

pmix_status_t rrun_up_unpublish(const pmix_proc_t *proc, char **keys, const pmix_info_t info[], size_t ninfo,
                                pmix_op_cbfunc_t cbfunc, void *cbdata)
{
    (void)info;
    (void)ninfo;
    (void)cbfunc;
    (void)cbdata;
    if (!served())
        return PMIX_ERR_NOT_SUPPORTED;
    pmix_status_t rc = PMIX_OPERATION_SUCCEEDED;
    pthread_mutex_lock(&names_lock);
    for (size_t i = 0; keys && keys[i]; i++) {
        struct name **p = find(keys[i]);
        /* only the process that published a name unpublishes it */
        if (!*p || !PMIX_CHECK_PROCID(&(*p)->owner, proc)) {
            rc = PMIX_ERR_NOT_FOUND;
            continue;
        }
        struct name *n = *p;
        *p = n->next;
        free(n->value);
        free(n);
    }
    pthread_mutex_unlock(&names_lock);
    return rc;
}

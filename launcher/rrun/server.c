/* server.c - rrun as a PMIx server: setup and the upcalls.
 *
 * Order (see the PMIx notes): PMIx_server_init with a private session
 * directory -> setup_application -> register_nspace with the job-level and
 * per-rank data -> setup_local_support -> register every client, waiting for
 * the callbacks before any fork -> (spawn.c: setup_fork, fork/exec). The
 * --pset process sets are defined after register_nspace. At the end rrun
 * exits without finalizing the server (teardown.c says why).
 *
 * Upcalls run on libpmix's progress thread. They never block: they record
 * what happened in the job under job->lock, wake the main loop, and return
 * PMIX_OPERATION_SUCCEEDED so libpmix releases the client at once; the
 * query upcall answers at once from the options, which nothing changes
 * once the job runs. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <pmix.h>
#include <pmix_server.h>

#include "launcher/rrun/names.h"
#include "launcher/rrun/rrun.h"

/* The job the upcalls report to; set once before PMIx_server_init. */
static struct rrun_job *server_job;

/* What the server has set up, so teardown undoes exactly that. */

/* ------------------------------------------------ waiting for callbacks */

/* Completion of asynchronous libpmix calls. Static, not on the stack: a
 * callback that arrives after a bounded wait gave up must still find it. */
struct completion {
    pthread_mutex_t lock;
    pthread_cond_t cond;
    int pending;
    pmix_status_t status;
};

static struct completion done = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0,
                                 PMIX_SUCCESS};

static void completion_expect(struct completion *c)
{
    pthread_mutex_lock(&c->lock);
    c->pending++;
    pthread_mutex_unlock(&c->lock);
}

static void completion_signal(struct completion *c, pmix_status_t status)
{
    pthread_mutex_lock(&c->lock);
    if (status != PMIX_SUCCESS && c->status == PMIX_SUCCESS)
        c->status = status;
    c->pending--;
    pthread_cond_broadcast(&c->cond);
    pthread_mutex_unlock(&c->lock);
}

static void op_done(pmix_status_t status, void *cbdata)
{
    completion_signal(cbdata, status);
}

/* A libpmix call that takes op_done either completes later (PMIX_SUCCESS),
 * completed already (PMIX_OPERATION_SUCCEEDED: no callback), or failed. */
static pmix_status_t started(struct completion *c, pmix_status_t rc)
{
    if (rc == PMIX_SUCCESS)
        return PMIX_SUCCESS;
    completion_signal(c, rc == PMIX_OPERATION_SUCCEEDED ? PMIX_SUCCESS : rc);
    return rc == PMIX_OPERATION_SUCCEEDED ? PMIX_SUCCESS : rc;
}

/* Wait until nothing is pending or ms pass; the first failure, or
 * PMIX_ERR_TIMEOUT. Resets the status for the next round. */
static pmix_status_t completion_wait(struct completion *c, int ms)
{
    struct timespec deadline;
    pmix_status_t rc;

    clock_gettime(CLOCK_REALTIME, &deadline);
    deadline.tv_sec += ms / 1000;
    deadline.tv_nsec += (long)(ms % 1000) * 1000000L;
    if (deadline.tv_nsec >= 1000000000L) {
        deadline.tv_sec++;
        deadline.tv_nsec -= 1000000000L;
    }
    pthread_mutex_lock(&c->lock);
    while (c->pending > 0)
        if (pthread_cond_timedwait(&c->cond, &c->lock, &deadline) == ETIMEDOUT)
            break;
    rc = c->pending > 0 ? PMIX_ERR_TIMEOUT : c->status;
    c->status = PMIX_SUCCESS;
    pthread_mutex_unlock(&c->lock);
    return rc;
}

/* How long to wait for one of libpmix's set-up calls: registering the job
 * takes longer the more ranks it has (5000 ranks: about 2 s here). */
static int wait_ms(const struct rrun_job *job)
{
    return RRUN_PMIX_WAIT_MS + job->np;
}

/* ---------------------------------------------------------------- upcalls */

/* The rank of one of our clients, or NULL if proc is not ours. */
static struct rrun_rank *our_rank(const pmix_proc_t *proc)
{
    struct rrun_job *job = server_job;

    if (job == NULL || proc == NULL || !PMIX_CHECK_NSPACE(proc->nspace, job->nspace) ||
        proc->rank >= (pmix_rank_t)job->size)
        return NULL;
    return rrun_rank_of(job, (int)proc->rank);
}

static pmix_status_t up_client_connected(const pmix_proc_t *proc, void *server_object,
                                         pmix_op_cbfunc_t cbfunc, void *cbdata)
{
    struct rrun_rank *r = our_rank(proc);

    if (r != NULL) {
        pthread_mutex_lock(&server_job->lock);
        r->connected = true;
        pthread_mutex_unlock(&server_job->lock);
    }
    return PMIX_OPERATION_SUCCEEDED;
}

/* Called while the client waits inside PMIx_Finalize, so the flag is set
 * before the process can exit: a rank reaped with connected && !finalized
 * really did skip PMIx_Finalize. */
static pmix_status_t up_client_finalized(const pmix_proc_t *proc, void *server_object,
                                         pmix_op_cbfunc_t cbfunc, void *cbdata)
{
    struct rrun_rank *r = our_rank(proc);

    if (r != NULL) {
        pthread_mutex_lock(&server_job->lock);
        r->finalized = true;
        pthread_mutex_unlock(&server_job->lock);
    }
    return PMIX_OPERATION_SUCCEEDED;
}

/* PMIx_Abort (MPI_Abort). The abort is recorded (the rank's, and the job's
 * first) before the client is released, so the main loop sees it before the
 * rank's exit. The
 * whole job ends, whatever procs[] names: MPI_Abort on any communicator of
 * an rrun job ends the job. */
static pmix_status_t up_abort(const pmix_proc_t *proc, void *server_object, int status,
                              const char msg[], pmix_proc_t procs[], size_t nprocs,
                              pmix_op_cbfunc_t cbfunc, void *cbdata)
{
    struct rrun_job *job = server_job;
    struct rrun_rank *r = our_rank(proc);

    if (r == NULL)
        return PMIX_ERR_BAD_PARAM;
    pthread_mutex_lock(&job->lock);
    /* Every abort is kept with its rank: several ranks may abort at once
     * (both ends of a failed connection), and the exit of one whose abort
     * was not the first must not become the cause in its place. */
    if (!r->aborted) {
        r->aborted = true;
        r->abort_code = status;
        r->abort_msg = strdup(msg != NULL ? msg : "");
    }
    if (!job->abort_called) {
        job->abort_called = true;
        job->abort_rank = r->rank;
        job->abort_code = status;
        snprintf(job->abort_msg, sizeof(job->abort_msg), "%s", msg != NULL ? msg : "");
    }
    pthread_mutex_unlock(&job->lock);
    rrun_wake(job);
    return PMIX_OPERATION_SUCCEEDED;
}

/* Info handed to a libpmix callback, freed by its release function. */
struct infos {
    pmix_info_t *info;
    size_t n, cap;
};

static void free_blob(void *cbdata)
{
    free(cbdata);
}

/* All local procs have contributed to a fence. Alone (one host), the
 * all-gather over servers is just our own contribution: hand a copy of it
 * straight back. (libpmix completes purely local fences itself unless
 * pmix_server_fence_localonly_opt is 0, so this runs only then.) A daemon
 * hands its contribution to the main loop, which sends it to the head;
 * the head's answer (every host's contributions) completes the fence.
 * Every fence of an rrun job spans the whole job (MPI_Init, MPI_Finalize),
 * and libpmix hands them over one at a time, in the same order on every
 * host. */
static pmix_status_t up_fence_nb(const pmix_proc_t procs[], size_t nprocs,
                                 const pmix_info_t info[], size_t ninfo, char *data,
                                 size_t ndata, pmix_modex_cbfunc_t cbfunc, void *cbdata)
{
    struct rrun_job *job = server_job;
    char *copy = NULL;

    if (job != NULL && job->mode == RRUN_DAEMON) {
        pthread_mutex_lock(&job->lock);
        if (job->fence_pending) {
            pthread_mutex_unlock(&job->lock);
            return PMIX_ERR_NOT_SUPPORTED; /* one at a time (see above) */
        }
        job->fence_pending = true;
        job->fence_sent = false;
        job->fence_data.len = job->fence_data.pos = 0;
        job->fence_data.bad = false;
        rrun_buf_bytes(&job->fence_data, data, ndata);
        job->fence_cbfunc = (void *)cbfunc;
        job->fence_cbdata = cbdata;
        pthread_mutex_unlock(&job->lock);
        rrun_wake(job);
        return PMIX_SUCCESS;
    }

    if (ndata > 0) {
        copy = malloc(ndata);
        if (copy == NULL)
            return PMIX_ERR_NOMEM;
        memcpy(copy, data, ndata);
    }
    cbfunc(PMIX_SUCCESS, copy, ndata, cbdata, copy != NULL ? free_blob : NULL, copy);
    return PMIX_SUCCESS;
}

static void free_infos(void *cbdata)
{
    struct infos *in = cbdata;

    PMIX_INFO_FREE(in->info, in->cap);
    free(in);
}

/* PMIx_Query_info of a rank (libpmix 4.2 answers none of the process set
 * queries itself, whatever PMIx_server_define_process_set told it: it
 * hands them all to the host): the --pset sets, from the options, which
 * nothing changes once the job runs. PMIX_QUERY_NUM_PSETS (size_t),
 * PMIX_QUERY_PSET_NAMES (the names joined by commas, in --pset order) and
 * PMIX_QUERY_PSET_MEMBERSHIP (qualifier PMIX_PSET_NAME, names compared
 * exactly: pmix_proc_t array, ascending ranks), as PRRTE answers them. Any
 * other key is left out: PMIX_QUERY_PARTIAL_SUCCESS, or PMIX_ERR_NOT_FOUND
 * when nothing was answered. Answered at once, on libpmix's thread. */
static pmix_status_t up_query(pmix_proc_t *proct, pmix_query_t *queries, size_t nqueries,
                              pmix_info_cbfunc_t cbfunc, void *cbdata)
{
    const struct rrun_options *opt = server_job != NULL ? server_job->opt : NULL;
    struct infos *in;
    size_t nkeys = 0, k;
    bool missing = false;

    if (opt == NULL || cbfunc == NULL)
        return PMIX_ERR_NOT_SUPPORTED;
    for (size_t q = 0; q < nqueries; q++)
        for (k = 0; queries[q].keys != NULL && queries[q].keys[k] != NULL; k++)
            nkeys++;
    if ((in = calloc(1, sizeof(*in))) == NULL)
        return PMIX_ERR_NOMEM;
    in->cap = nkeys > 0 ? nkeys : 1;
    PMIX_INFO_CREATE(in->info, in->cap);
    if (in->info == NULL) {
        free(in);
        return PMIX_ERR_NOMEM;
    }
    for (size_t q = 0; q < nqueries; q++) {
        const char *pset = NULL;

        for (size_t i = 0; i < queries[q].nqual; i++)
            if (PMIX_CHECK_KEY(&queries[q].qualifiers[i], PMIX_PSET_NAME) &&
                queries[q].qualifiers[i].value.type == PMIX_STRING)
                pset = queries[q].qualifiers[i].value.data.string;
        for (k = 0; queries[q].keys != NULL && queries[q].keys[k] != NULL; k++) {
            const char *key = queries[q].keys[k];
            pmix_info_t *out = &in->info[in->n];

            if (strcmp(key, PMIX_QUERY_NUM_PSETS) == 0) {
                size_t n = (size_t)opt->n_psets;

                PMIX_INFO_LOAD(out, PMIX_QUERY_NUM_PSETS, &n, PMIX_SIZE);
                in->n++;
            } else if (strcmp(key, PMIX_QUERY_PSET_NAMES) == 0) {
                size_t len = 1, at = 0;
                char *names;

                for (int p = 0; p < opt->n_psets; p++)
                    len += strlen(opt->psets[p].name) + 1;
                if ((names = malloc(len)) == NULL)
                    break;
                names[0] = '\0';
                for (int p = 0; p < opt->n_psets; p++)
                    at += (size_t)snprintf(names + at, len - at, p ? ",%s" : "%s", opt->psets[p].name);
                PMIX_INFO_LOAD(out, PMIX_QUERY_PSET_NAMES, names, PMIX_STRING);
                free(names);
                in->n++;
            } else if (strcmp(key, PMIX_QUERY_PSET_MEMBERSHIP) == 0) {
                const struct rrun_pset *ps = NULL;
                pmix_data_array_t darray;

                for (int p = 0; pset != NULL && p < opt->n_psets && ps == NULL; p++)
                    if (strcmp(opt->psets[p].name, pset) == 0)
                        ps = &opt->psets[p];
                if (ps == NULL) {
                    missing = true;
                    continue;
                }
                PMIX_DATA_ARRAY_CONSTRUCT(&darray, (size_t)ps->n, PMIX_PROC);
                if (darray.array == NULL)
                    break;
                for (int i = 0; i < ps->n; i++)
                    PMIX_LOAD_PROCID(&((pmix_proc_t *)darray.array)[i], server_job->nspace,
                                     (pmix_rank_t)ps->ranks[i]);
                PMIX_INFO_LOAD(out, PMIX_QUERY_PSET_MEMBERSHIP, &darray, PMIX_DATA_ARRAY);
                PMIX_DATA_ARRAY_DESTRUCT(&darray);
                in->n++;
            } else {
                missing = true;
            }
        }
    }
    cbfunc(in->n == 0 ? PMIX_ERR_NOT_FOUND : missing || in->n < nkeys ? PMIX_QUERY_PARTIAL_SUCCESS : PMIX_SUCCESS,
           in->info, in->n, cbdata, free_infos, in);
    return PMIX_SUCCESS;
}

static pmix_server_module_t server_module = {
    .client_connected = up_client_connected,
    .client_finalized = up_client_finalized,
    .abort = up_abort,
    .fence_nb = up_fence_nb,
    .publish = rrun_up_publish,
    .lookup = rrun_up_lookup,
    .unpublish = rrun_up_unpublish,
    .query = up_query,
};

/* Daemon: the head's answer to the pending fence (main thread). */
void rrun_server_fence_done(struct rrun_job *job, const char *data, size_t len)
{
    pmix_modex_cbfunc_t cbfunc;
    void *cbdata;
    char *copy = NULL;

    pthread_mutex_lock(&job->lock);
    cbfunc = (pmix_modex_cbfunc_t)job->fence_cbfunc;
    cbdata = job->fence_cbdata;
    job->fence_pending = false;
    job->fence_cbfunc = NULL;
    pthread_mutex_unlock(&job->lock);
    if (cbfunc == NULL)
        return;
    if (len > 0 && (copy = malloc(len)) != NULL)
        memcpy(copy, data, len);
    cbfunc(copy != NULL || len == 0 ? PMIX_SUCCESS : PMIX_ERR_NOMEM, copy, copy ? len : 0, cbdata,
           copy != NULL ? free_blob : NULL, copy);
}

/* ------------------------------------------------------------------ setup */

/* Info returned by setup_application (fabric/network settings, usually
 * nothing on one node): it belongs to the namespace's job info. */
static void *app_setup_info;

static void app_setup_done(pmix_status_t status, pmix_info_t info[], size_t ninfo,
                           void *provided_cbdata, pmix_op_cbfunc_t cbfunc, void *cbdata)
{
    for (size_t i = 0; status == PMIX_SUCCESS && i < ninfo; i++)
        PMIx_Info_list_xfer(app_setup_info, &info[i]);
    if (cbfunc != NULL)
        cbfunc(PMIX_SUCCESS, cbdata);
    completion_signal(provided_cbdata, status);
}

static int report(const char *what, pmix_status_t rc)
{
    fprintf(stderr, "rrun: %s failed: %s\n", what, PMIx_Error_string(rc));
    return -1;
}

/* "first,first+1,...,first+n-1" */
static char *rank_list(int first, int n)
{
    size_t cap = (size_t)n * 12 + 1, len = 0;
    char *s = malloc(cap);

    if (s == NULL)
        return NULL;
    s[0] = '\0';
    for (int i = 0; i < n; i++)
        len += (size_t)snprintf(s + len, cap - len, i ? ",%d" : "%d", first + i);
    return s;
}

/* The ranks of every host, "0,1;2,3" (PMIx_generate_ppn's input), and the
 * hosts "h1,h2" (PMIx_generate_regex's). */
static char *ppn_list(const struct rrun_job *job)
{
    size_t cap = (size_t)job->size * 12 + (size_t)job->nhosts + 1, len = 0;
    char *s = malloc(cap);

    if (s == NULL)
        return NULL;
    s[0] = '\0';
    for (int h = 0; h < job->nhosts; h++) {
        const struct rrun_host *host = &job->hosts[h];

        if (h > 0)
            s[len++] = ';';
        for (int i = 0; i < host->nranks; i++)
            len += (size_t)snprintf(s + len, cap - len, i ? ",%d" : "%d", host->first_rank + i);
        s[len] = '\0';
    }
    return s;
}

static char *host_list(const struct rrun_job *job)
{
    size_t cap = 1, len = 0;
    char *s;

    for (int h = 0; h < job->nhosts; h++)
        cap += strlen(job->hosts[h].name) + 1;
    s = malloc(cap);
    if (s == NULL)
        return NULL;
    s[0] = '\0';
    for (int h = 0; h < job->nhosts; h++)
        len += (size_t)snprintf(s + len, cap - len, h ? ",%s" : "%s", job->hosts[h].name);
    return s;
}

static int host_of(const struct rrun_job *job, int rank)
{
    for (int h = 0; h < job->nhosts; h++)
        if (rank >= job->hosts[h].first_rank &&
            rank < job->hosts[h].first_rank + job->hosts[h].nranks)
            return h;
    return 0;
}

/* One PMIX_PROC_DATA entry: everything about one rank. */
static pmix_status_t add_proc_data(void *list, const struct rrun_job *job, int i)
{
    void *pl = PMIx_Info_list_start();
    int h = host_of(job, i);
    pmix_rank_t rank = (pmix_rank_t)i;
    uint16_t local_rank = (uint16_t)(i - job->hosts[h].first_rank);
    uint32_t zero = 0, node = (uint32_t)h;
    const char *host = job->hosts[h].name;
    pmix_data_array_t darray;
    pmix_status_t rc;

    if (pl == NULL)
        return PMIX_ERR_NOMEM;
    /* PMIX_RANK must come first. */
    if ((rc = PMIx_Info_list_add(pl, PMIX_RANK, &rank, PMIX_PROC_RANK)) != PMIX_SUCCESS ||
        (rc = PMIx_Info_list_add(pl, PMIX_GLOBAL_RANK, &rank, PMIX_PROC_RANK)) != PMIX_SUCCESS ||
        (rc = PMIx_Info_list_add(pl, PMIX_APP_RANK, &rank, PMIX_PROC_RANK)) != PMIX_SUCCESS ||
        (rc = PMIx_Info_list_add(pl, PMIX_LOCAL_RANK, &local_rank, PMIX_UINT16)) != PMIX_SUCCESS ||
        (rc = PMIx_Info_list_add(pl, PMIX_NODE_RANK, &local_rank, PMIX_UINT16)) != PMIX_SUCCESS ||
        (rc = PMIx_Info_list_add(pl, PMIX_HOSTNAME, host, PMIX_STRING)) != PMIX_SUCCESS ||
        (rc = PMIx_Info_list_add(pl, PMIX_NODEID, &node, PMIX_UINT32)) != PMIX_SUCCESS ||
        (rc = PMIx_Info_list_add(pl, PMIX_APPNUM, &zero, PMIX_UINT32)) != PMIX_SUCCESS)
        goto out;
    rc = PMIx_Info_list_convert(pl, &darray);
    if (rc != PMIX_SUCCESS)
        goto out;
    rc = PMIx_Info_list_add(list, PMIX_PROC_DATA, &darray, PMIX_DATA_ARRAY);
    PMIx_Data_array_destruct(&darray);
out:
    PMIx_Info_list_release(pl);
    return rc;
}

/* The job-level info of the namespace. */
static pmix_status_t build_job_info(const struct rrun_job *job, void *list)
{
    uint32_t np = (uint32_t)job->size, nlocal = (uint32_t)job->np;
    uint32_t nnodes = (uint32_t)job->nhosts, node = (uint32_t)job->my_host;
    pmix_rank_t leader = 0, local_leader = (pmix_rank_t)job->first_rank;
    char *peers = rank_list(job->first_rank, job->np), *ppn = ppn_list(job);
    char *hosts = host_list(job), *node_map = NULL, *proc_map = NULL;
    pmix_status_t rc = PMIX_ERR_NOMEM;

    if (peers == NULL || ppn == NULL || hosts == NULL)
        goto out;
    if ((rc = PMIx_generate_regex(hosts, &node_map)) != PMIX_SUCCESS ||
        (rc = PMIx_generate_ppn(ppn, &proc_map)) != PMIX_SUCCESS)
        goto out;
    if ((rc = PMIx_Info_list_add(list, PMIX_JOBID, job->nspace, PMIX_STRING)) != PMIX_SUCCESS ||
        (rc = PMIx_Info_list_add(list, PMIX_JOB_SIZE, &np, PMIX_UINT32)) != PMIX_SUCCESS ||
        (rc = PMIx_Info_list_add(list, PMIX_UNIV_SIZE, &np, PMIX_UINT32)) != PMIX_SUCCESS ||
        (rc = PMIx_Info_list_add(list, PMIX_MAX_PROCS, &np, PMIX_UINT32)) != PMIX_SUCCESS ||
        (rc = PMIx_Info_list_add(list, PMIX_APP_SIZE, &np, PMIX_UINT32)) != PMIX_SUCCESS ||
        (rc = PMIx_Info_list_add(list, PMIX_APPLDR, &leader, PMIX_PROC_RANK)) != PMIX_SUCCESS ||
        (rc = PMIx_Info_list_add(list, PMIX_LOCAL_SIZE, &nlocal, PMIX_UINT32)) != PMIX_SUCCESS ||
        (rc = PMIx_Info_list_add(list, PMIX_NODE_SIZE, &nlocal, PMIX_UINT32)) != PMIX_SUCCESS ||
        (rc = PMIx_Info_list_add(list, PMIX_NUM_NODES, &nnodes, PMIX_UINT32)) != PMIX_SUCCESS ||
        (rc = PMIx_Info_list_add(list, PMIX_NODEID, &node, PMIX_UINT32)) != PMIX_SUCCESS ||
        (rc = PMIx_Info_list_add(list, PMIX_LOCAL_PEERS, peers, PMIX_STRING)) != PMIX_SUCCESS ||
        (rc = PMIx_Info_list_add(list, PMIX_LOCALLDR, &local_leader, PMIX_PROC_RANK)) != PMIX_SUCCESS ||
        (rc = PMIx_Info_list_add(list, PMIX_NODE_MAP, node_map, PMIX_REGEX)) != PMIX_SUCCESS ||
        (rc = PMIx_Info_list_add(list, PMIX_PROC_MAP, proc_map, PMIX_REGEX)) != PMIX_SUCCESS ||
        (rc = PMIx_Info_list_add(list, PMIX_TMPDIR, job->session_dir, PMIX_STRING)) != PMIX_SUCCESS ||
        (rc = PMIx_Info_list_add(list, PMIX_NSDIR, job->session_dir, PMIX_STRING)) != PMIX_SUCCESS)
        goto out;
    for (int i = 0; i < job->size; i++)
        if ((rc = add_proc_data(list, job, i)) != PMIX_SUCCESS)
            goto out;
out:
    free(peers);
    free(ppn);
    free(hosts);
    free(node_map);
    free(proc_map);
    return rc;
}

static int register_nspace(struct rrun_job *job)
{
    pmix_data_array_t darray = {0};
    pmix_status_t rc;

    rc = build_job_info(job, app_setup_info);
    if (rc == PMIX_SUCCESS)
        rc = PMIx_Info_list_convert(app_setup_info, &darray);
    if (rc != PMIX_SUCCESS) {
        PMIx_Info_list_release(app_setup_info);
        app_setup_info = NULL;
        return report("building the job information", rc);
    }
    completion_expect(&done);
    rc = started(&done, PMIx_server_register_nspace(job->nspace, job->np, darray.array,
                                                    darray.size, op_done, &done));
    if (rc == PMIX_SUCCESS)
        rc = completion_wait(&done, wait_ms(job));
    if (rc == PMIX_ERR_TIMEOUT) /* libpmix's thread may still read it: leave it */
        return report("PMIx_server_register_nspace", rc);
    PMIx_Data_array_destruct(&darray);
    /* Now, while libpmix's classes still exist (not after finalize). */
    PMIx_Info_list_release(app_setup_info);
    app_setup_info = NULL;
    if (rc != PMIX_SUCCESS)
        return report("PMIx_server_register_nspace", rc);
    return 0;
}

/* The --pset process sets, defined in this server once the namespace is
 * registered, every member whatever its host (each daemon of a multi-host
 * job defines them all: the head serves no PMIx). libpmix keeps them and
 * tells its local clients with a PMIX_PROCESS_SET_DEFINE event (cached for
 * those that register for it later); what the MPI library reads is the
 * answer to its PMIx_Query_info (up_query), which libpmix 4.2 leaves to
 * the host. The status is not looked at: libpmix 4.2.2 returns a field of
 * its request that the definition never sets (whatever the stack held;
 * PMIX_OPERATION_SUCCEEDED when that was 0), success or not. */
static void define_psets(const struct rrun_job *job)
{
    const struct rrun_options *opt = job->opt;

    for (int k = 0; k < opt->n_psets; k++) {
        const struct rrun_pset *ps = &opt->psets[k];
        pmix_proc_t *members = calloc((size_t)ps->n, sizeof(*members));

        if (members == NULL)
            return; /* (the event only: the ranks ask up_query) */
        for (int i = 0; i < ps->n; i++)
            PMIX_LOAD_PROCID(&members[i], job->nspace, (pmix_rank_t)ps->ranks[i]);
        (void)PMIx_server_define_process_set(members, (size_t)ps->n, ps->name);
        free(members);
    }
}

int rrun_server_start(struct rrun_job *job)
{
    pmix_info_t init_info[3];
    pmix_topology_t topo = {.source = "hwloc", .topology = rrun_binding_topology()};
    size_t ninit = 0;
    pmix_status_t rc;

    server_job = job;
    rrun_names_init(job);
    PMIX_INFO_LOAD(&init_info[ninit++], PMIX_SERVER_TMPDIR, job->session_dir, PMIX_STRING);
    PMIX_INFO_LOAD(&init_info[ninit++], PMIX_SYSTEM_TMPDIR, job->session_dir, PMIX_STRING);
    /* Ours (see binding.c): saves libpmix a full discovery of its own. */
    if (topo.topology != NULL)
        PMIX_INFO_LOAD(&init_info[ninit++], PMIX_TOPOLOGY2, &topo, PMIX_TOPO);
    rc = PMIx_server_init(&server_module, init_info, ninit);
    for (size_t i = 0; i < ninit; i++)
        PMIX_INFO_DESTRUCT(&init_info[i]);
    if (rc != PMIX_SUCCESS)
        return report("PMIx_server_init", rc);

    app_setup_info = PMIx_Info_list_start();
    if (app_setup_info == NULL)
        return report("PMIx_Info_list_start", PMIX_ERR_NOMEM);
    completion_expect(&done);
    rc = PMIx_server_setup_application(job->nspace, NULL, 0, app_setup_done, &done);
    if (rc != PMIX_SUCCESS)
        completion_signal(&done, rc);
    rc = completion_wait(&done, wait_ms(job));
    if (rc != PMIX_SUCCESS)
        return report("PMIx_server_setup_application", rc);

    if (register_nspace(job) != 0)
        return -1;
    define_psets(job);

    completion_expect(&done);
    rc = started(&done, PMIx_server_setup_local_support(job->nspace, NULL, 0, op_done, &done));
    if (rc == PMIX_SUCCESS)
        rc = completion_wait(&done, wait_ms(job));
    if (rc != PMIX_SUCCESS)
        return report("PMIx_server_setup_local_support", rc);

    /* Register all clients at once, then wait for all the callbacks. */
    for (int i = 0; i < job->np; i++) {
        pmix_proc_t proc;

        PMIX_LOAD_PROCID(&proc, job->nspace, (pmix_rank_t)(job->first_rank + i));
        completion_expect(&done);
        rc = started(&done, PMIx_server_register_client(&proc, getuid(), getgid(),
                                                        &job->ranks[i], op_done, &done));
        if (rc != PMIX_SUCCESS)
            break;
    }
    if (rc == PMIX_SUCCESS)
        rc = completion_wait(&done, wait_ms(job));
    else
        (void)completion_wait(&done, wait_ms(job));
    if (rc != PMIX_SUCCESS)
        return report("PMIx_server_register_client", rc);
    return 0;
}

int rrun_server_setup_fork(struct rrun_job *job, int rank, char ***env)
{
    pmix_proc_t proc;
    pmix_status_t rc;

    PMIX_LOAD_PROCID(&proc, job->nspace, (pmix_rank_t)(job->first_rank + rank));
    rc = PMIx_server_setup_fork(&proc, env);
    if (rc != PMIX_SUCCESS)
        return report("PMIx_server_setup_fork", rc);
    return 0;
}

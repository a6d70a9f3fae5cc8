/* job.c - job information and key/value exchange through PMIx (job.h). */
#include "config.h"

#include "runtime/base/job.h"

#include <mpi.h>
#include <pmix.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "runtime/base/log.h"
#include "runtime/base/params.h"

#define NODE_KEY "rd.node" /* a rank's node id, for the others (rd_job_node_of) */

extern char **environ;

struct rd_job rd_job;
static pmix_proc_t rd_job_self;
static int rd_job_pmix_up;

/* Launchers disagree on integer widths (Slurm's APPNUM is signed, Open MPI's
 * unsigned): accept any integer type. */
static int value_to_long(const pmix_value_t *v, long *out)
{
    switch (v->type) {
    case PMIX_INT: *out = v->data.integer; return 0;
    case PMIX_INT8: *out = v->data.int8; return 0;
    case PMIX_INT16: *out = v->data.int16; return 0;
    case PMIX_INT32: *out = v->data.int32; return 0;
    case PMIX_INT64: *out = (long)v->data.int64; return 0;
    case PMIX_UINT: *out = (long)v->data.uint; return 0;
    case PMIX_UINT8: *out = v->data.uint8; return 0;
    case PMIX_UINT16: *out = v->data.uint16; return 0;
    case PMIX_UINT32: *out = (long)v->data.uint32; return 0;
    case PMIX_UINT64: *out = (long)v->data.uint64; return 0;
    case PMIX_SIZE: *out = (long)v->data.size; return 0;
    case PMIX_PROC_RANK: *out = (long)v->data.rank; return 0;
    default: return -1;
    }
}

/* Get an integer key of proc (rank or PMIX_RANK_WILDCARD for job data). */
static int get_long(pmix_rank_t rank, const char *key, long *out)
{
    pmix_proc_t proc;
    pmix_value_t *val = NULL;
    pmix_info_t info;
    bool optional = true;
    int rc = -1;

    PMIX_LOAD_PROCID(&proc, rd_job_self.nspace, rank);
    PMIX_INFO_LOAD(&info, PMIX_OPTIONAL, &optional, PMIX_BOOL);
    if (PMIx_Get(&proc, key, &info, 1, &val) == PMIX_SUCCESS && val) {
        rc = value_to_long(val, out);
        PMIX_VALUE_RELEASE(val);
    }
    PMIX_INFO_DESTRUCT(&info);
    return rc;
}

static int get_string(pmix_rank_t rank, const char *key, char *buf, size_t len)
{
    pmix_proc_t proc;
    pmix_value_t *val = NULL;
    pmix_info_t info;
    bool optional = true;
    int rc = -1;

    PMIX_LOAD_PROCID(&proc, rd_job_self.nspace, rank);
    PMIX_INFO_LOAD(&info, PMIX_OPTIONAL, &optional, PMIX_BOOL);
    if (PMIx_Get(&proc, key, &info, 1, &val) == PMIX_SUCCESS && val) {
        if (val->type == PMIX_STRING && val->data.string) {
            snprintf(buf, len, "%s", val->data.string);
            rc = 0;
        }
        PMIX_VALUE_RELEASE(val);
    }
    PMIX_INFO_DESTRUCT(&info);
    return rc;
}

static int launched_by_pmix(void)
{
    if (getenv("PMIX_NAMESPACE"))
        return 1;
    for (char **e = environ; e && *e; e++)
        if (strncmp(*e, "PMIX_SERVER_URI", 15) == 0)
            return 1;
    return 0;
}

/* CPUs of the node (not of this process: a rank bound to one core still
 * shares the node with its peers, one per core). */
static int count_cpus(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (int)n : 1;
}

/* "0,1,4-6" -> ranks; returns the count or -1 */
static int parse_peers(const char *s, int *out, int max)
{
    int n = 0;
    while (*s) {
        char *end;
        long a = strtol(s, &end, 10), b = a;
        if (end == s)
            return -1;
        if (*end == '-') {
            s = end + 1;
            b = strtol(s, &end, 10);
            if (end == s)
                return -1;
        }
        for (long r = a; r <= b; r++) {
            if (n >= max)
                return -1;
            out[n++] = (int)r;
        }
        s = *end == ',' ? end + 1 : end;
        if (*end && *end != ',')
            return -1;
    }
    return n;
}

static rd_status init_singleton(void)
{
    rd_job.singleton = 1;
    rd_job.rank = 0;
    rd_job.size = 1;
    rd_job.local_rank = 0;
    rd_job.local_size = 1;
    rd_job.num_nodes = 1;
    rd_job.universe_size = 1;
    snprintf(rd_job.nspace, sizeof(rd_job.nspace), "singleton.%ld", (long)getpid());
    return RD_OK;
}

rd_status rd_job_init(void)
{
    long v;
    char peers[4096];
    pmix_status_t prc;

    memset(&rd_job, 0, sizeof(rd_job));
    if (gethostname(rd_job.hostname, sizeof(rd_job.hostname) - 1) != 0)
        snprintf(rd_job.hostname, sizeof(rd_job.hostname), "localhost");

    if (!launched_by_pmix()) {
        init_singleton();
        goto node_facts;
    }

    prc = PMIx_Init(&rd_job_self, NULL, 0);
    if (prc != PMIX_SUCCESS) {
        rd_error("job", "PMIx_Init failed: %s (is the launcher still running?)",
                 PMIx_Error_string(prc));
        return RD_ERR_UNREACH;
    }
    rd_job_pmix_up = 1;
    snprintf(rd_job.nspace, sizeof(rd_job.nspace), "%s", rd_job_self.nspace);
    rd_job.rank = (int)rd_job_self.rank;

    if (get_long(PMIX_RANK_WILDCARD, PMIX_JOB_SIZE, &v) != 0) {
        rd_error("job", "the launcher gave no job size (PMIX_JOB_SIZE)");
        return RD_ERR_UNREACH;
    }
    rd_job.size = (int)v;
    rd_job.universe_size = get_long(PMIX_RANK_WILDCARD, PMIX_UNIV_SIZE, &v) == 0 ? (int)v : rd_job.size;
    rd_job.num_nodes = get_long(PMIX_RANK_WILDCARD, PMIX_NUM_NODES, &v) == 0 ? (int)v : 1;
    rd_job.node_id = get_long(rd_job_self.rank, PMIX_NODEID, &v) == 0 ? (int)v : 0;
    /* every rank's node for the collectives' hierarchy (rd_job_node_of):
     * in the exchange, since not every launcher's daemons answer PMIx
     * queries of another host's ranks (rrun's do not) */
    if (rd_job.num_nodes > 1) {
        int32_t nid = rd_job.node_id;
        rd_status pst = rd_job_put(NODE_KEY, &nid, sizeof nid);
        if (pst != RD_OK)
            return pst;
    }
    rd_job.appnum = get_long(rd_job_self.rank, PMIX_APPNUM, &v) == 0 ? (int)v : 0;
    get_string(rd_job_self.rank, PMIX_HOSTNAME, rd_job.hostname, sizeof(rd_job.hostname));

    rd_job.local_peers = malloc(sizeof(int) * (size_t)rd_job.size);
    if (!rd_job.local_peers)
        return RD_ERR_NOMEM;
    /* Slurm across nodes leaves LOCAL_RANK of peers unset; LOCAL_PEERS is
     * what every launcher gives. */
    if (get_string(PMIX_RANK_WILDCARD, PMIX_LOCAL_PEERS, peers, sizeof(peers)) == 0) {
        int n = parse_peers(peers, rd_job.local_peers, rd_job.size);
        if (n <= 0) {
            rd_error("job", "cannot parse PMIX_LOCAL_PEERS '%s'", peers);
            return RD_ERR_UNREACH;
        }
        rd_job.local_size = n;
    } else {
        rd_job.local_size = 1;
        rd_job.local_peers[0] = rd_job.rank;
    }
    rd_job.local_rank = -1;
    if (get_long(rd_job_self.rank, PMIX_LOCAL_RANK, &v) == 0)
        rd_job.local_rank = (int)v;
    for (int i = 0; i < rd_job.local_size && rd_job.local_rank < 0; i++)
        if (rd_job.local_peers[i] == rd_job.rank)
            rd_job.local_rank = i;
    if (rd_job.local_rank < 0)
        rd_job.local_rank = 0;

node_facts:
    if (!rd_job.local_peers) {
        rd_job.local_peers = malloc(sizeof(int));
        if (!rd_job.local_peers)
            return RD_ERR_NOMEM;
        rd_job.local_peers[0] = 0;
    }
    rd_job.oversubscribed = rd_param.oversubscribed || rd_job.local_size > count_cpus();
    rd_debug("job", "rank %d of %d, local %d of %d, node %d of %d, host %s%s", rd_job.rank,
             rd_job.size, rd_job.local_rank, rd_job.local_size, rd_job.node_id, rd_job.num_nodes,
             rd_job.hostname, rd_job.oversubscribed ? ", oversubscribed" : "");
    return RD_OK;
}

static int *node_of; /* world rank -> node id, filled on demand; -2: not asked yet */

int rd_job_node_of(int r)
{
    if (r < 0 || r >= rd_job.size)
        return -1;
    if (rd_param.coll_fake_nodes > 0)
        return r % (int)rd_param.coll_fake_nodes;
    if (rd_job.num_nodes <= 1 || rd_job.singleton)
        return 0;
    if (!node_of) {
        node_of = malloc(sizeof(int) * (size_t)rd_job.size);
        if (!node_of)
            return -1;
        for (int i = 0; i < rd_job.size; i++)
            node_of[i] = -2;
    }
    if (node_of[r] == -2) {
        void *d = NULL;
        size_t len = 0;
        int32_t nid = -1;
        if (r == rd_job.rank)
            nid = rd_job.node_id;
        else if (rd_job_get(r, NODE_KEY, &d, &len) == RD_OK && len == sizeof nid)
            memcpy(&nid, d, sizeof nid);
        free(d);
        node_of[r] = nid;
    }
    return node_of[r];
}

rd_status rd_job_finalize(void)
{
    rd_status st = RD_OK;
    if (rd_job_pmix_up) {
        pmix_status_t prc = PMIx_Finalize(NULL, 0);
        if (prc != PMIX_SUCCESS) {
            rd_error("job", "PMIx_Finalize failed: %s", PMIx_Error_string(prc));
            st = RD_ERR_UNREACH;
        }
        rd_job_pmix_up = 0;
    }
    free(rd_job.local_peers);
    rd_job.local_peers = NULL;
    free(node_of);
    node_of = NULL;
    return st;
}

rd_status rd_job_put(const char *key, const void *data, size_t len)
{
    pmix_value_t val;
    pmix_byte_object_t bo;
    if (!rd_job_pmix_up)
        return RD_OK; /* a singleton has no peers to tell */
    bo.bytes = (char *)data;
    bo.size = len;
    PMIX_VALUE_CONSTRUCT(&val);
    val.type = PMIX_BYTE_OBJECT;
    val.data.bo = bo;
    pmix_status_t prc = PMIx_Put(PMIX_GLOBAL, key, &val);
    if (prc != PMIX_SUCCESS) {
        rd_error("job", "PMIx_Put(%s) failed: %s", key, PMIx_Error_string(prc));
        return RD_ERR_UNREACH;
    }
    return RD_OK;
}

rd_status rd_job_commit(void)
{
    if (!rd_job_pmix_up)
        return RD_OK;
    pmix_status_t prc = PMIx_Commit();
    if (prc != PMIX_SUCCESS) {
        rd_error("job", "PMIx_Commit failed: %s", PMIx_Error_string(prc));
        return RD_ERR_UNREACH;
    }
    return RD_OK;
}

rd_status rd_job_fence(int collect)
{
    pmix_proc_t all;
    pmix_info_t info;
    bool flag = collect != 0;
    if (!rd_job_pmix_up)
        return RD_OK;
    PMIX_LOAD_PROCID(&all, rd_job_self.nspace, PMIX_RANK_WILDCARD);
    PMIX_INFO_LOAD(&info, PMIX_COLLECT_DATA, &flag, PMIX_BOOL);
    pmix_status_t prc = PMIx_Fence(&all, 1, &info, 1);
    PMIX_INFO_DESTRUCT(&info);
    if (prc != PMIX_SUCCESS) {
        rd_error("job", "PMIx_Fence failed: %s", PMIx_Error_string(prc));
        return RD_ERR_UNREACH;
    }
    return RD_OK;
}

rd_status rd_job_get(int rank, const char *key, void **data, size_t *len)
{
    pmix_proc_t proc;
    pmix_value_t *val = NULL;
    rd_status st = RD_OK;
    if (!rd_job_pmix_up)
        return RD_ERR_UNREACH;
    PMIX_LOAD_PROCID(&proc, rd_job_self.nspace, (pmix_rank_t)rank);
    pmix_status_t prc = PMIx_Get(&proc, key, NULL, 0, &val);
    if (prc != PMIX_SUCCESS || !val) {
        rd_error("job", "PMIx_Get(%s) of rank %d failed: %s", key, rank, PMIx_Error_string(prc));
        return RD_ERR_UNREACH;
    }
    if (val->type != PMIX_BYTE_OBJECT) {
        rd_error("job", "PMIx_Get(%s) of rank %d: unexpected type %d", key, rank, (int)val->type);
        st = RD_ERR_INTERNAL;
        goto out;
    }
    *data = malloc(val->data.bo.size ? val->data.bo.size : 1);
    if (!*data) {
        st = RD_ERR_NOMEM;
        goto out;
    }
    memcpy(*data, val->data.bo.bytes, val->data.bo.size);
    *len = val->data.bo.size;
out:
    PMIX_VALUE_RELEASE(val);
    return st;
}

/* ------------------------------------------------------------ process sets */

/* The values of key among a query's results, in order, into vals[max]
 * (how many in *nvals): at the top level (libpmix 4.2 hands the launcher's
 * answer over as it is: rrun's, PRRTE's) or inside a PMIX_QUERY_RESULTS
 * array of one query's results (after its PMIX_QUERY_QUALIFIERS), as later
 * PMIx versions may wrap them. */
static void query_values(const pmix_info_t *res, size_t nres, const char *key, const pmix_value_t **vals,
                         size_t max, size_t *nvals)
{
    for (size_t i = 0; i < nres; i++) {
        if (PMIX_CHECK_KEY(&res[i], key)) {
            if (*nvals < max)
                vals[(*nvals)++] = &res[i].value;
        } else if (PMIX_CHECK_KEY(&res[i], PMIX_QUERY_RESULTS) && res[i].value.type == PMIX_DATA_ARRAY &&
                   res[i].value.data.darray && res[i].value.data.darray->type == PMIX_INFO) {
            const pmix_data_array_t *d = res[i].value.data.darray;
            query_values(d->array, d->size, key, vals, max, nvals);
        }
    }
}

/* A query of one key for each of n process sets (names NULL: one query,
 * no set named), refreshed from the launcher; PMIx_Query_info's status,
 * its results in *res (PMIX_INFO_FREE). */
static pmix_status_t pset_query(const char *key, char *const *names, int n, pmix_info_t **res, size_t *nres)
{
    int nq = names ? n : 1;
    pmix_query_t *q = calloc((size_t)nq, sizeof(*q));
    char *keys[2] = {(char *)key, NULL};
    bool refresh = true;
    pmix_status_t prc = PMIX_ERR_NOMEM;

    *res = NULL;
    *nres = 0;
    if (!q)
        return prc;
    for (int i = 0; i < nq; i++) {
        PMIX_QUERY_CONSTRUCT(&q[i]);
        q[i].keys = keys;
        q[i].nqual = names ? 2 : 1;
        PMIX_INFO_CREATE(q[i].qualifiers, q[i].nqual);
        if (!q[i].qualifiers)
            goto out;
        PMIX_INFO_LOAD(&q[i].qualifiers[0], PMIX_QUERY_REFRESH_CACHE, &refresh, PMIX_BOOL);
        if (names)
            PMIX_INFO_LOAD(&q[i].qualifiers[1], PMIX_PSET_NAME, names[i], PMIX_STRING);
    }
    prc = PMIx_Query_info(q, (size_t)nq, res, nres);
out:
    for (int i = 0; i < nq; i++) {
        q[i].keys = NULL; /* (ours, on the stack) */
        if (q[i].qualifiers)
            PMIX_INFO_FREE(q[i].qualifiers, q[i].nqual);
    }
    free(q);
    return prc;
}

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/* A membership answer as world ranks of this job, ascending and each once
 * (a wildcard rank of our namespace: every rank); 1 if the set is to be
 * left out, -1 when out of memory. */
static int pset_members(const char *name, const pmix_value_t *v, struct rd_job_pset *ps)
{
    const pmix_proc_t *p;
    size_t np, cap;

    if (v->type != PMIX_DATA_ARRAY || !v->data.darray || v->data.darray->type != PMIX_PROC ||
        v->data.darray->size == 0) {
        rd_debug("job", "process set '%s' left out: its membership is not a list of processes", name);
        return 1;
    }
    p = v->data.darray->array;
    np = v->data.darray->size;
    cap = np;
    for (size_t i = 0; i < np; i++)
        if (p[i].rank == PMIX_RANK_WILDCARD)
            cap += (size_t)rd_job.size;
    if (!(ps->ranks = malloc(cap * sizeof(int))))
        return -1;
    ps->n = 0;
    for (size_t i = 0; i < np; i++) {
        if (!PMIX_CHECK_NSPACE(p[i].nspace, rd_job.nspace)) {
            rd_debug("job", "process set '%s' left out: member %.*s:%u is of another namespace", name,
                     PMIX_MAX_NSLEN, p[i].nspace, p[i].rank);
            return 1;
        }
        if (p[i].rank == PMIX_RANK_WILDCARD) {
            for (int r = 0; r < rd_job.size; r++)
                ps->ranks[ps->n++] = r;
        } else if (p[i].rank < (pmix_rank_t)rd_job.size) {
            ps->ranks[ps->n++] = (int)p[i].rank;
        } else {
            rd_debug("job", "process set '%s' left out: member rank %u is not in the job (%d ranks)", name,
                     p[i].rank, rd_job.size);
            return 1;
        }
    }
    qsort(ps->ranks, (size_t)ps->n, sizeof(int), cmp_int);
    int k = 0;
    for (int i = 0; i < ps->n; i++)
        if (k == 0 || ps->ranks[i] != ps->ranks[k - 1])
            ps->ranks[k++] = ps->ranks[i];
    ps->n = k;
    return 0;
}

void rd_job_psets_free(struct rd_job_pset *psets, int n)
{
    for (int i = 0; psets && i < n; i++) {
        free(psets[i].name);
        free(psets[i].ranks);
    }
    free(psets);
}

rd_status rd_job_psets(struct rd_job_pset **psets, int *n)
{
    pmix_info_t *res = NULL;
    size_t nres = 0, nv = 0;
    const pmix_value_t *v = NULL, **vals = NULL;
    char **names = NULL, *list = NULL;
    struct rd_job_pset *ps = NULL;
    int nn = 0, kept = 0;
    pmix_status_t prc;
    rd_status st = RD_OK;

    *psets = NULL;
    *n = 0;
    if (!rd_job_pmix_up)
        return RD_OK; /* a singleton: no launcher, no sets */
    /* the names: "a,b,c" ("" or PMIX_ERR_NOT_FOUND: none) */
    prc = pset_query(PMIX_QUERY_PSET_NAMES, NULL, 0, &res, &nres);
    if (prc == PMIX_SUCCESS || prc == PMIX_QUERY_PARTIAL_SUCCESS)
        query_values(res, nres, PMIX_QUERY_PSET_NAMES, &v, 1, &nv);
    if (nv == 0 || v->type != PMIX_STRING || !v->data.string) {
        rd_debug("job", "no process sets from the launcher (%s)",
                 prc == PMIX_SUCCESS ? "no names in its answer" : PMIx_Error_string(prc));
        goto out;
    }
    if (!(list = strdup(v->data.string)))
        goto nomem;
    for (char *c = list; *c; c++)
        nn += *c == ',';
    if (!(names = calloc((size_t)nn + 1, sizeof(*names))))
        goto nomem;
    nn = 0;
    for (char *save = NULL, *t = strtok_r(list, ",", &save); t; t = strtok_r(NULL, ",", &save))
        names[nn++] = t;
    if (nn == 0)
        goto out;
    PMIX_INFO_FREE(res, nres);
    res = NULL;
    /* every set's members, in one query; each alone when that answer
     * leaves some out (a launcher may fail the whole query for one set
     * it no longer knows: PRRTE) */
    if (!(vals = calloc((size_t)nn, sizeof(*vals))) || !(ps = calloc((size_t)nn, sizeof(*ps))))
        goto nomem;
    nv = 0;
    prc = pset_query(PMIX_QUERY_PSET_MEMBERSHIP, names, nn, &res, &nres);
    if (prc == PMIX_SUCCESS)
        query_values(res, nres, PMIX_QUERY_PSET_MEMBERSHIP, vals, (size_t)nn, &nv);
    for (int i = 0; i < nn; i++) {
        pmix_info_t *one = NULL;
        size_t none = 0, n1 = 0;
        const pmix_value_t *v1 = nv == (size_t)nn ? vals[i] : NULL;
        int rc = 1;

        if (!v1) {
            pmix_status_t p1 = pset_query(PMIX_QUERY_PSET_MEMBERSHIP, &names[i], 1, &one, &none);
            if (p1 == PMIX_SUCCESS)
                query_values(one, none, PMIX_QUERY_PSET_MEMBERSHIP, &v1, 1, &n1);
            if (!v1)
                rd_debug("job", "process set '%s' left out: no membership (%s)", names[i], PMIx_Error_string(p1));
        }
        if (v1)
            rc = pset_members(names[i], v1, &ps[kept]);
        if (one)
            PMIX_INFO_FREE(one, none);
        if (rc < 0)
            goto nomem;
        if (rc == 0 && !(ps[kept].name = strdup(names[i])))
            goto nomem;
        if (rc == 0)
            kept++;
        else {
            free(ps[kept].ranks);
            ps[kept].ranks = NULL;
        }
    }
    *psets = ps;
    *n = kept;
    ps = NULL;
    rd_debug("job", "%d process sets from the launcher", kept);
    goto out;
nomem:
    st = RD_ERR_NOMEM;
out:
    if (ps)
        rd_job_psets_free(ps, nn);
    if (res)
        PMIX_INFO_FREE(res, nres);
    free(vals);
    free(names);
    free(list);
    return st;
}

_Noreturn void rd_job_abort(int code, const char *msg)
{
    fflush(stdout);
    fflush(stderr);
    if (rd_job_pmix_up) {
        /* the launcher ends every rank, this one included */
        PMIx_Abort(code, msg ? msg : "", NULL, 0);
    }
    _exit(code);
}

/* ------------------------------------------------------------ the name service */

/* A singleton's names: published and looked up in this process. */
struct local_name {
    char *name, *value;
    struct local_name *next;
};
static struct local_name *local_names;
static pthread_mutex_t local_names_lock = PTHREAD_MUTEX_INITIALIZER;

static struct local_name **local_find(const char *name)
{
    struct local_name **p = &local_names;
    while (*p && strcmp((*p)->name, name) != 0)
        p = &(*p)->next;
    return p;
}

/* An MPI class for a PMIx status of the name service. */
static int name_class(pmix_status_t rc, int not_found, const char **why)
{
    switch (rc) {
    case PMIX_SUCCESS: return MPI_SUCCESS;
    case PMIX_ERR_DUPLICATE_KEY: *why = "the name is published already"; return MPI_ERR_SERVICE;
    case PMIX_ERR_NOT_FOUND: *why = "the name is not published"; return not_found;
    case PMIX_ERR_NOT_SUPPORTED: *why = "the launcher's PMIx server has no name service"; return MPI_ERR_UNSUPPORTED_OPERATION;
    case PMIX_ERR_NOMEM: *why = "out of memory"; return MPI_ERR_NO_MEM;
    default: *why = PMIx_Error_string(rc); return MPI_ERR_OTHER;
    }
}

int rd_job_publish(const char *name, const char *value, const char **why)
{
    if (!rd_job_pmix_up) {
        int err = MPI_SUCCESS;
        pthread_mutex_lock(&local_names_lock);
        if (*local_find(name)) {
            *why = "the name is published already";
            err = MPI_ERR_SERVICE;
        } else {
            struct local_name *n = malloc(sizeof(*n));
            if (n)
                n->name = strdup(name), n->value = strdup(value);
            if (!n || !n->name || !n->value) {
                if (n)
                    free(n->name), free(n->value);
                free(n);
                *why = "out of memory";
                err = MPI_ERR_NO_MEM;
            } else {
                n->next = local_names;
                local_names = n;
            }
        }
        pthread_mutex_unlock(&local_names_lock);
        return err;
    }
    pmix_info_t info;
    PMIX_INFO_CONSTRUCT(&info);
    PMIX_INFO_LOAD(&info, name, value, PMIX_STRING);
    pmix_status_t rc = PMIx_Publish(&info, 1);
    PMIX_INFO_DESTRUCT(&info);
    return name_class(rc, MPI_ERR_SERVICE, why);
}

int rd_job_lookup(const char *name, char **value, const char **why)
{
    *value = NULL;
    if (!rd_job_pmix_up) {
        int err = MPI_SUCCESS;
        pthread_mutex_lock(&local_names_lock);
        struct local_name *n = *local_find(name);
        if (!n) {
            *why = "the name is not published";
            err = MPI_ERR_NAME;
        } else if (!(*value = strdup(n->value))) {
            *why = "out of memory";
            err = MPI_ERR_NO_MEM;
        }
        pthread_mutex_unlock(&local_names_lock);
        return err;
    }
    pmix_pdata_t pd;
    PMIX_PDATA_CONSTRUCT(&pd);
    PMIX_LOAD_KEY(pd.key, name);
    pmix_status_t rc = PMIx_Lookup(&pd, 1, NULL, 0);
    int err = name_class(rc, MPI_ERR_NAME, why);
    if (err == MPI_SUCCESS) {
        if (pd.value.type != PMIX_STRING || !pd.value.data.string) {
            *why = "the published value is not a string";
            err = MPI_ERR_NAME;
        } else if (!(*value = strdup(pd.value.data.string))) {
            *why = "out of memory";
            err = MPI_ERR_NO_MEM;
        }
    }
    PMIX_PDATA_DESTRUCT(&pd);
    return err;
}

int rd_job_unpublish(const char *name, const char **why)
{
    if (!rd_job_pmix_up) {
        int err = MPI_SUCCESS;
        pthread_mutex_lock(&local_names_lock);
        struct local_name **p = local_find(name);
        if (!*p) {
            *why = "the name is not published";
            err = MPI_ERR_SERVICE;
        } else {
            struct local_name *n = *p;
            *p = n->next;
            free(n->name);
            free(n->value);
            free(n);
        }
        pthread_mutex_unlock(&local_names_lock);
        return err;
    }
    char *keys[2] = {(char *)name, NULL};
    return name_class(PMIx_Unpublish(keys, NULL, 0), MPI_ERR_SERVICE, why);
}

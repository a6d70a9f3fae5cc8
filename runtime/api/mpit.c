/* mpit.c - the tool information interface, MPI_T (MPI 4.1 chapter 15;
 * runtime/api/README.md, "MPI_T").
 *
 * Control variables: every RDMPI_* parameter (runtime/base/params.h), the
 * library's then the tools', under its name in lower case
 * ("eager_limit"); its RD_CVAR declaration says its scope and whether it
 * may be written once the library is up (LIVE) or only before (INIT).
 * Performance variables: the engine's counters of runtime/base/pvar.h
 * (messages and bytes per direction, protocol and transport; the
 * unexpected queue; the time in waits) and each collective's last
 * algorithm; the engine counts only while some session exists
 * (rd_pv_on). Categories: one per component that declares parameters
 * ("p2p", "collectives", "shm", ...), holding its control variables and
 * its performance variables. One event source (the monotonic clock) and
 * no events.
 *
 * Every call works before MPI_Init and after MPI_Finalize, from any
 * thread (one lock), and returns its error code (MPI_T calls raise no
 * error handler). */
#include "config.h"

#include <limits.h>
#include <mpi.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collectives/algorithms.h"
#include "runtime/base/log.h"
#include "runtime/base/params.h"
#include "runtime/base/pvar.h"
#include "runtime/base/state.h"
#include "runtime/objects/info.h"

static pthread_mutex_t t_lock = PTHREAD_MUTEX_INITIALIZER;
static int t_refs; /* MPI_T_init_thread calls not yet finalized */

#define T_ENTER()                                                                                          \
    pthread_mutex_lock(&t_lock);                                                                           \
    if (t_refs == 0) {                                                                                     \
        pthread_mutex_unlock(&t_lock);                                                                     \
        return MPI_T_ERR_NOT_INITIALIZED;                                                                  \
    }
#define T_RETURN(rc)                                                                                       \
    do {                                                                                                   \
        int rc_ = (rc);                                                                                    \
        pthread_mutex_unlock(&t_lock);                                                                     \
        return rc_;                                                                                        \
    } while (0)

/* MPI_T's way of returning a string (MPI 4.1 15.3.3): no length pointer,
 * nothing; no buffer or a length of 0, the length it needs (with its
 * NUL); else as much as fits, NUL-terminated, and the length stored. */
static void put_string(char *buf, int *len, const char *s)
{
    if (!len)
        return;
    size_t n = strlen(s);
    if (!buf || *len <= 0) {
        *len = (int)(n + 1);
        return;
    }
    if (n > (size_t)*len - 1)
        n = (size_t)*len - 1;
    memcpy(buf, s, n);
    buf[n] = '\0';
    *len = (int)(n + 1);
}

/* ================================================================ enums */

struct enum_item {
    int value;
    char *name;
};
struct rd_t_enum_s {
    char *name;
    int n;
    struct enum_item *items;
};

/* ================================================================ the tables (built once) */

struct cvar {
    const struct rd_param_desc *d;
    MPI_Datatype type;
    MPI_T_enum en;
    int scope, live, verbosity, cat;
};

enum pv_kind { PV_COUNT, PV_COUNT_SUM, PV_UNEXP, PV_UNEXP_HWM, PV_WAIT, PV_COLL };
struct pvar {
    char name[64];
    const char *desc;
    enum pv_kind kind;
    int dir, what, proto; /* PV_COUNT(_SUM): direction, 0 messages / 1 bytes, protocol */
    int coll;             /* PV_COLL: the collective */
    int klass, count, continuous, readonly, atomic, cat;
    MPI_Datatype type;
    MPI_T_enum en;
};

struct category {
    const char *name;
    const char *desc;
    int ncvars, npvars;
};

static struct cvar *cvars;
static int ncvars;
static struct pvar *pvars;
static int npvars;
static struct category cats[16];
static int ncats;
static struct rd_t_enum_s *enums;
static int nenums;
static int built;

static const struct {
    const char *name, *desc;
} cat_descs[] = {
    {"base", "the services: logging, the job, the report file"},
    {"p2p", "the point-to-point engine: transports, eager and rendezvous, waits; its message counters"},
    {"shm", "the shared-memory transport"},
    {"verbs", "the verbs (InfiniBand, RoCE, iWARP) transport"},
    {"ofi", "the libfabric transport"},
    {"collectives", "the collective algorithms, their choice and the node paths; the choices made"},
    {"rma", "one-sided communication"},
    {"io", "parallel I/O"},
    {"launcher", "the tools (rrun, rdmpicc): read only here"},
};

static int cat_of(const char *name)
{
    for (int i = 0; i < ncats; i++)
        if (strcmp(cats[i].name, name) == 0)
            return i;
    if (ncats == (int)(sizeof(cats) / sizeof(cats[0])))
        return ncats - 1;
    cats[ncats].name = name;
    cats[ncats].desc = "parameters";
    for (size_t j = 0; j < sizeof(cat_descs) / sizeof(cat_descs[0]); j++)
        if (strcmp(cat_descs[j].name, name) == 0)
            cats[ncats].desc = cat_descs[j].desc;
    return ncats++;
}

static char *dup_lower(const char *s, size_t n)
{
    char *c = malloc(n + 1);
    if (!c)
        return NULL;
    for (size_t i = 0; i < n; i++)
        c[i] = (char)(s[i] >= 'A' && s[i] <= 'Z' ? s[i] - 'A' + 'a' : s[i]);
    c[n] = '\0';
    return c;
}

/* An ENUM parameter's choices ("GET|PUT|...|"), values 0, 1, ... */
static int enum_from_choices(struct rd_t_enum_s *e, const char *name, const char *choices)
{
    int n = 0;
    for (const char *c = choices; *c; c++)
        n += *c == '|';
    e->name = dup_lower(name, strlen(name));
    e->items = calloc((size_t)n, sizeof(*e->items));
    if (!e->name || !e->items)
        return -1;
    const char *p = choices;
    for (int i = 0; i < n; i++) {
        const char *bar = strchr(p, '|');
        e->items[i].value = i;
        e->items[i].name = dup_lower(p, (size_t)(bar - p));
        if (!e->items[i].name)
            return -1;
        e->n = i + 1;
        p = bar + 1;
    }
    return 0;
}

/* A collective's menu: -1 "none", then the algorithms by index. */
static int enum_from_menu(struct rd_t_enum_s *e, int kind)
{
    const struct rd_coll_alg *menu = rd_coll_menu(kind);
    int n = 0;
    while (menu[n].name)
        n++;
    char name[64];
    snprintf(name, sizeof(name), "coll_%s_algorithm", rd_coll_kind_name(kind));
    e->name = dup_lower(name, strlen(name));
    e->items = calloc((size_t)n + 1, sizeof(*e->items));
    if (!e->name || !e->items)
        return -1;
    e->items[0].value = -1;
    e->items[0].name = dup_lower("none", 4);
    if (!e->items[0].name)
        return -1;
    e->n = 1;
    for (int i = 0; i < n; i++) {
        e->items[i + 1].value = i;
        e->items[i + 1].name = dup_lower(menu[i].name, strlen(menu[i].name));
        if (!e->items[i + 1].name)
            return -1;
        e->n = i + 2;
    }
    return 0;
}

static const char *const proto_names[RD_PV_NPROTO] = {"eager", "get", "put", "pipeline", "split", "transport"};
static const char *const dir_names[2] = {"sent", "recv"};
static const char *const what_names[2] = {"msgs", "bytes"};

/* The descriptions of the counters (element i: transport i). */
#define TL_LIST "element i: transport i of self, shm, verbs, ucx, ofi"
static const char *const count_desc[2][2] = {
    {"messages sent (started) by this rank with this protocol, per transport (" TL_LIST ")",
     "bytes sent (started) by this rank with this protocol, per transport (" TL_LIST ")"},
    {"messages that arrived at this rank with this protocol (the sender's proposal), per transport (" TL_LIST ")",
     "bytes that arrived at this rank with this protocol (the sender's proposal), per transport (" TL_LIST ")"}};
static const char *const sum_desc[2][2] = {
    {"messages sent by this rank, every protocol, per transport (" TL_LIST ")",
     "bytes sent by this rank, every protocol, per transport (" TL_LIST ")"},
    {"messages that arrived at this rank, every protocol, per transport (" TL_LIST ")",
     "bytes that arrived at this rank, every protocol, per transport (" TL_LIST ")"}};

static struct pvar *pv_add(const char *name, enum pv_kind kind, int klass, MPI_Datatype type, int count,
                           int continuous, int readonly, const char *desc, int cat)
{
    struct pvar *v = &pvars[npvars++];
    memset(v, 0, sizeof(*v));
    snprintf(v->name, sizeof(v->name), "%s", name);
    v->kind = kind;
    v->klass = klass;
    v->type = type;
    v->count = count;
    v->continuous = continuous;
    v->readonly = readonly;
    v->atomic = !readonly; /* a handle's read and reset take one sample */
    v->desc = desc;
    v->cat = cat;
    cats[cat].npvars++;
    return v;
}

static int build(void)
{
    if (built)
        return MPI_SUCCESS;
    /* (again after a failure: from nothing; what the last try made is
     * kept, reachable, since it is small and a failure rare) */
    ncvars = npvars = nenums = ncats = 0;
    memset(cats, 0, sizeof(cats));
    size_t nlib = rd_params_count(0), ntools = rd_params_count(1);
    size_t nenum_params = 0;
    for (int t = 0; t < 2; t++)
        for (size_t i = 0; i < rd_params_count(t); i++)
            nenum_params += rd_param_at(t, i)->type == RD_PT_ENUM;
    int nmax_pv = 2 * 2 * (RD_PV_NPROTO + 1) + 3 + RD_COLL_NKINDS;
    cvars = calloc(nlib + ntools, sizeof(*cvars));
    pvars = calloc((size_t)nmax_pv, sizeof(*pvars));
    enums = calloc(nenum_params + RD_COLL_NKINDS, sizeof(*enums));
    if (!cvars || !pvars || !enums)
        return MPI_T_ERR_MEMORY;

    /* the control variables */
    for (int t = 0; t < 2; t++)
        for (size_t i = 0; i < rd_params_count(t); i++) {
            const struct rd_param_desc *d = rd_param_at(t, i);
            struct cvar *c = &cvars[ncvars++];
            c->d = d;
            c->cat = cat_of(d->component);
            cats[c->cat].ncvars++;
            enum rd_param_scope sc = rd_param_scope_of(d, &c->live);
            c->scope = sc == RD_PS_LOCAL ? MPI_T_SCOPE_LOCAL
                       : sc == RD_PS_READONLY ? MPI_T_SCOPE_READONLY
                                              : MPI_T_SCOPE_ALL_EQ;
            switch (d->type) {
            case RD_PT_INT:
                c->type = d->min >= INT_MIN && d->max <= INT_MAX ? MPI_INT : MPI_COUNT;
                break;
            case RD_PT_SIZE: c->type = MPI_UNSIGNED_LONG_LONG; break;
            case RD_PT_BOOL: c->type = MPI_INT; break;
            case RD_PT_STRING: c->type = MPI_CHAR; break;
            case RD_PT_ENUM:
                c->type = MPI_INT;
                c->en = &enums[nenums++];
                if (enum_from_choices(c->en, d->name, d->choices) != 0)
                    return MPI_T_ERR_MEMORY;
                break;
            }
            c->verbosity = t == 1 ? MPI_T_VERBOSITY_USER_DETAIL
                           : strcmp(d->name, "log") == 0 ? MPI_T_VERBOSITY_USER_BASIC
                           : (strcmp(d->component, "p2p") == 0 || strcmp(d->component, "collectives") == 0)
                               ? MPI_T_VERBOSITY_TUNER_BASIC
                               : MPI_T_VERBOSITY_TUNER_DETAIL;
        }

    /* the performance variables */
    int p2p = cat_of("p2p"), coll = cat_of("collectives");
    char name[64];
    for (int dir = 0; dir < 2; dir++)
        for (int what = 0; what < 2; what++) {
            snprintf(name, sizeof(name), "p2p_%s_%s", dir_names[dir], what_names[what]);
            struct pvar *v = pv_add(name, PV_COUNT_SUM, MPI_T_PVAR_CLASS_COUNTER, MPI_UNSIGNED_LONG_LONG,
                                    RD_PV_NTL, 0, 0, sum_desc[dir][what], p2p);
            v->dir = dir;
            v->what = what;
            for (int proto = 0; proto < RD_PV_NPROTO; proto++) {
                snprintf(name, sizeof(name), "p2p_%s_%s_%s", dir_names[dir], what_names[what], proto_names[proto]);
                v = pv_add(name, PV_COUNT, MPI_T_PVAR_CLASS_COUNTER, MPI_UNSIGNED_LONG_LONG, RD_PV_NTL, 0, 0,
                           count_desc[dir][what], p2p);
                v->dir = dir;
                v->what = what;
                v->proto = proto;
            }
        }
    pv_add("p2p_unexpected", PV_UNEXP, MPI_T_PVAR_CLASS_LEVEL, MPI_UNSIGNED_LONG_LONG, 1, 1, 1,
           "messages in this rank's unexpected queues now (arrived, not yet received)", p2p);
    pv_add("p2p_unexpected_hwm", PV_UNEXP_HWM, MPI_T_PVAR_CLASS_HIGHWATERMARK, MPI_UNSIGNED_LONG_LONG, 1, 1, 1,
           "the most messages this rank's unexpected queues held at once since the library started", p2p);
    pv_add("p2p_wait_time", PV_WAIT, MPI_T_PVAR_CLASS_TIMER, MPI_DOUBLE, 1, 0, 0,
           "seconds this rank spent in the progress steps of blocking calls that could not complete at once "
           "(MPI_Wait..., MPI_Recv, blocking collectives, RMA synchronisation, I/O waits)",
           p2p);
    for (int k = 0; k < RD_COLL_NKINDS; k++) {
        struct rd_t_enum_s *e = &enums[nenums++];
        if (enum_from_menu(e, k) != 0)
            return MPI_T_ERR_MEMORY;
        struct pvar *v = pv_add(e->name, PV_COLL, MPI_T_PVAR_CLASS_STATE, MPI_INT, 1, 1, 1,
                                "the algorithm (or node path) of this collective's last call on this rank, "
                                "while counting is on (some performance-variable session exists); none: "
                                "none since",
                                coll);
        v->coll = k;
        v->en = e;
    }
    built = 1;
    return MPI_SUCCESS;
}

/* ================================================================ init, finalize */

struct rd_t_cvar_handle_s {
    struct rd_t_cvar_handle_s *next;
    int index, count;
};
struct rd_t_pvar_handle_s {
    struct rd_t_pvar_handle_s *next;
    struct rd_t_pvar_session_s *session;
    int index, started;
    uint64_t acc[RD_PV_NTL], base[RD_PV_NTL]; /* counters and timers: value = acc (+ raw - base while started) */
};
struct rd_t_pvar_session_s {
    struct rd_t_pvar_session_s *next;
    struct rd_t_pvar_handle_s *handles;
};

static struct rd_t_cvar_handle_s *cvar_handles;
static struct rd_t_pvar_session_s *sessions;

#pragma weak MPI_T_init_thread = PMPI_T_init_thread
int PMPI_T_init_thread(int required, int *provided)
{
    pthread_mutex_lock(&t_lock);
    char err[512];
    (void)rd_params_load_once(err, sizeof(err)); /* (a bad value keeps its default; MPI_Init reports it) */
    int rc = build();
    if (rc == MPI_SUCCESS) {
        t_refs++;
        if (provided)
            *provided = required < MPI_THREAD_SINGLE     ? MPI_THREAD_SINGLE
                        : required > MPI_THREAD_MULTIPLE ? MPI_THREAD_MULTIPLE
                                                         : required;
    }
    pthread_mutex_unlock(&t_lock);
    return rc;
}

static void session_free(struct rd_t_pvar_session_s *s);

#pragma weak MPI_T_finalize = PMPI_T_finalize
int PMPI_T_finalize(void)
{
    T_ENTER();
    if (--t_refs == 0) {
        /* the last one: every handle and session goes */
        while (cvar_handles) {
            struct rd_t_cvar_handle_s *h = cvar_handles;
            cvar_handles = h->next;
            free(h);
        }
        while (sessions)
            session_free(sessions);
    }
    T_RETURN(MPI_SUCCESS);
}

/* ================================================================ enums */

static int enum_valid(MPI_T_enum e)
{
    return e && e >= enums && e < enums + nenums && ((const char *)e - (const char *)enums) % sizeof(*enums) == 0;
}

#pragma weak MPI_T_enum_get_info = PMPI_T_enum_get_info
int PMPI_T_enum_get_info(MPI_T_enum enumtype, int *num, char *name, int *name_len)
{
    T_ENTER();
    if (!enum_valid(enumtype))
        T_RETURN(MPI_T_ERR_INVALID_HANDLE);
    if (!num)
        T_RETURN(MPI_T_ERR_INVALID);
    *num = enumtype->n;
    put_string(name, name_len, enumtype->name);
    T_RETURN(MPI_SUCCESS);
}

#pragma weak MPI_T_enum_get_item = PMPI_T_enum_get_item
int PMPI_T_enum_get_item(MPI_T_enum enumtype, int index, int *value, char *name, int *name_len)
{
    T_ENTER();
    if (!enum_valid(enumtype))
        T_RETURN(MPI_T_ERR_INVALID_HANDLE);
    if (index < 0 || index >= enumtype->n)
        T_RETURN(MPI_T_ERR_INVALID_ITEM);
    if (!value)
        T_RETURN(MPI_T_ERR_INVALID);
    *value = enumtype->items[index].value;
    put_string(name, name_len, enumtype->items[index].name);
    T_RETURN(MPI_SUCCESS);
}

/* ================================================================ control variables */

#pragma weak MPI_T_cvar_get_num = PMPI_T_cvar_get_num
int PMPI_T_cvar_get_num(int *num_cvar)
{
    T_ENTER();
    if (!num_cvar)
        T_RETURN(MPI_T_ERR_INVALID);
    *num_cvar = ncvars;
    T_RETURN(MPI_SUCCESS);
}

/* A control variable's description: its doc, then what MPI_T allows. */
static void cvar_desc(const struct cvar *c, char *buf, size_t n)
{
    char var[96];
    size_t k = (size_t)snprintf(var, sizeof(var), "RDMPI_");
    for (const char *p = c->d->name; *p && k + 1 < sizeof(var); p++)
        var[k++] = (char)(*p >= 'a' && *p <= 'z' ? *p - 'a' + 'A' : *p);
    var[k] = '\0';
    snprintf(buf, n, "%s (%s, default %s%s%s)", c->d->doc, var, c->d->def[0] ? c->d->def : "\"\"",
             c->scope == MPI_T_SCOPE_READONLY ? "; read only"
             : c->live                        ? "; may be written at any time"
                                              : "; may be written only before MPI_Init",
             c->scope == MPI_T_SCOPE_ALL_EQ ? ", the same on every rank" : "");
}

#pragma weak MPI_T_cvar_get_info = PMPI_T_cvar_get_info
int PMPI_T_cvar_get_info(int cvar_index, char *name, int *name_len, int *verbosity, MPI_Datatype *datatype,
                         MPI_T_enum *enumtype, char *desc, int *desc_len, int *bind, int *scope)
{
    T_ENTER();
    if (cvar_index < 0 || cvar_index >= ncvars)
        T_RETURN(MPI_T_ERR_INVALID_INDEX);
    const struct cvar *c = &cvars[cvar_index];
    put_string(name, name_len, c->d->name);
    if (verbosity)
        *verbosity = c->verbosity;
    if (datatype)
        *datatype = c->type;
    if (enumtype)
        *enumtype = c->en ? c->en : MPI_T_ENUM_NULL;
    if (desc_len) {
        char d[1024];
        cvar_desc(c, d, sizeof(d));
        put_string(desc, desc_len, d);
    }
    if (bind)
        *bind = MPI_T_BIND_NO_OBJECT;
    if (scope)
        *scope = c->scope;
    T_RETURN(MPI_SUCCESS);
}

#pragma weak MPI_T_cvar_get_index = PMPI_T_cvar_get_index
int PMPI_T_cvar_get_index(const char *name, int *cvar_index)
{
    T_ENTER();
    if (!name || !cvar_index)
        T_RETURN(MPI_T_ERR_INVALID);
    for (int i = 0; i < ncvars; i++)
        if (strcmp(cvars[i].d->name, name) == 0) {
            *cvar_index = i;
            T_RETURN(MPI_SUCCESS);
        }
    T_RETURN(MPI_T_ERR_INVALID_NAME);
}

/* MPI_CHAR variables: the longest string a handle reads or writes. */
#define CVAR_STRING_MAX 1024

#pragma weak MPI_T_cvar_handle_alloc = PMPI_T_cvar_handle_alloc
int PMPI_T_cvar_handle_alloc(int cvar_index, void *obj_handle, MPI_T_cvar_handle *handle, int *count)
{
    (void)obj_handle; /* every variable is bound to no object */
    T_ENTER();
    if (cvar_index < 0 || cvar_index >= ncvars)
        T_RETURN(MPI_T_ERR_INVALID_INDEX);
    if (!handle || !count)
        T_RETURN(MPI_T_ERR_INVALID);
    struct rd_t_cvar_handle_s *h = calloc(1, sizeof(*h));
    if (!h)
        T_RETURN(MPI_T_ERR_MEMORY);
    h->index = cvar_index;
    h->count = cvars[cvar_index].type == MPI_CHAR ? CVAR_STRING_MAX : 1;
    h->next = cvar_handles;
    cvar_handles = h;
    *handle = h;
    *count = h->count;
    T_RETURN(MPI_SUCCESS);
}

static int cvar_handle_valid(MPI_T_cvar_handle h)
{
    for (struct rd_t_cvar_handle_s *x = cvar_handles; x; x = x->next)
        if (x == h)
            return 1;
    return 0;
}

#pragma weak MPI_T_cvar_handle_free = PMPI_T_cvar_handle_free
int PMPI_T_cvar_handle_free(MPI_T_cvar_handle *handle)
{
    T_ENTER();
    if (!handle || !cvar_handle_valid(*handle))
        T_RETURN(MPI_T_ERR_INVALID_HANDLE);
    for (struct rd_t_cvar_handle_s **pp = &cvar_handles; *pp; pp = &(*pp)->next)
        if (*pp == *handle) {
            *pp = (*handle)->next;
            break;
        }
    free(*handle);
    *handle = MPI_T_CVAR_HANDLE_NULL;
    T_RETURN(MPI_SUCCESS);
}

#pragma weak MPI_T_cvar_read = PMPI_T_cvar_read
int PMPI_T_cvar_read(MPI_T_cvar_handle handle, void *buf)
{
    T_ENTER();
    if (!cvar_handle_valid(handle))
        T_RETURN(MPI_T_ERR_INVALID_HANDLE);
    if (!buf)
        T_RETURN(MPI_T_ERR_INVALID);
    const struct cvar *c = &cvars[handle->index];
    void *slot = rd_param_slot(c->d);
    if (c->type == MPI_CHAR) {
        const char *s = __atomic_load_n((const char **)slot, __ATOMIC_ACQUIRE);
        int len = handle->count;
        put_string(buf, &len, s ? s : "");
    } else {
        long v = __atomic_load_n((long *)slot, __ATOMIC_RELAXED);
        if (c->type == MPI_INT)
            *(int *)buf = (int)v;
        else if (c->type == MPI_COUNT)
            *(MPI_Count *)buf = (MPI_Count)v;
        else
            *(unsigned long long *)buf = (unsigned long long)v;
    }
    T_RETURN(MPI_SUCCESS);
}

#pragma weak MPI_T_cvar_write = PMPI_T_cvar_write
int PMPI_T_cvar_write(MPI_T_cvar_handle handle, const void *buf)
{
    T_ENTER();
    if (!cvar_handle_valid(handle))
        T_RETURN(MPI_T_ERR_INVALID_HANDLE);
    if (!buf)
        T_RETURN(MPI_T_ERR_INVALID);
    const struct cvar *c = &cvars[handle->index];
    if (c->scope == MPI_T_SCOPE_READONLY)
        T_RETURN(MPI_T_ERR_CVAR_SET_NEVER);
    if (c->type == MPI_CHAR) {
        const char *s = buf;
        if (strnlen(s, (size_t)handle->count) >= (size_t)handle->count)
            T_RETURN(MPI_T_ERR_INVALID);
        /* the logging setting is checked and takes effect here (a bad one
         * changes nothing) */
        if (strcmp(c->d->name, "log") == 0 && rd_log_configure(s) != 0)
            T_RETURN(MPI_T_ERR_INVALID);
        int rc = rd_param_set(c->d, 0, s, c->live);
        T_RETURN(rc == 0 ? MPI_SUCCESS : rc == -2 ? MPI_T_ERR_CVAR_SET_NOT_NOW : MPI_T_ERR_MEMORY);
    }
    long v = c->type == MPI_INT     ? (long)*(const int *)buf
             : c->type == MPI_COUNT ? (long)*(const MPI_Count *)buf
                                    : (*(const unsigned long long *)buf > (unsigned long long)LONG_MAX
                                           ? -1
                                           : (long)*(const unsigned long long *)buf);
    int rc = rd_param_set(c->d, v, NULL, c->live);
    T_RETURN(rc == 0 ? MPI_SUCCESS : rc == -2 ? MPI_T_ERR_CVAR_SET_NOT_NOW : MPI_T_ERR_INVALID);
}

/* ================================================================ performance variables */

#pragma weak MPI_T_pvar_get_num = PMPI_T_pvar_get_num
int PMPI_T_pvar_get_num(int *num_pvar)
{
    T_ENTER();
    if (!num_pvar)
        T_RETURN(MPI_T_ERR_INVALID);
    *num_pvar = npvars;
    T_RETURN(MPI_SUCCESS);
}

#pragma weak MPI_T_pvar_get_info = PMPI_T_pvar_get_info
int PMPI_T_pvar_get_info(int pvar_index, char *name, int *name_len, int *verbosity, int *var_class,
                         MPI_Datatype *datatype, MPI_T_enum *enumtype, char *desc, int *desc_len, int *bind,
                         int *readonly, int *continuous, int *atomic)
{
    T_ENTER();
    if (pvar_index < 0 || pvar_index >= npvars)
        T_RETURN(MPI_T_ERR_INVALID_INDEX);
    const struct pvar *v = &pvars[pvar_index];
    put_string(name, name_len, v->name);
    put_string(desc, desc_len, v->desc);
    if (verbosity)
        *verbosity = v->kind == PV_COUNT ? MPI_T_VERBOSITY_TUNER_DETAIL : MPI_T_VERBOSITY_TUNER_BASIC;
    if (var_class)
        *var_class = v->klass;
    if (datatype)
        *datatype = v->type;
    if (enumtype)
        *enumtype = v->en ? v->en : MPI_T_ENUM_NULL;
    if (bind)
        *bind = MPI_T_BIND_NO_OBJECT;
    if (readonly)
        *readonly = v->readonly;
    if (continuous)
        *continuous = v->continuous;
    if (atomic)
        *atomic = v->atomic;
    T_RETURN(MPI_SUCCESS);
}

#pragma weak MPI_T_pvar_get_index = PMPI_T_pvar_get_index
int PMPI_T_pvar_get_index(const char *name, int var_class, int *pvar_index)
{
    T_ENTER();
    if (!name || !pvar_index)
        T_RETURN(MPI_T_ERR_INVALID);
    for (int i = 0; i < npvars; i++)
        if (pvars[i].klass == var_class && strcmp(pvars[i].name, name) == 0) {
            *pvar_index = i;
            T_RETURN(MPI_SUCCESS);
        }
    T_RETURN(MPI_T_ERR_INVALID_NAME);
}

#pragma weak MPI_T_pvar_session_create = PMPI_T_pvar_session_create
int PMPI_T_pvar_session_create(MPI_T_pvar_session *session)
{
    T_ENTER();
    if (!session)
        T_RETURN(MPI_T_ERR_INVALID);
    struct rd_t_pvar_session_s *s = calloc(1, sizeof(*s));
    if (!s)
        T_RETURN(MPI_T_ERR_MEMORY);
    s->next = sessions;
    sessions = s;
    __atomic_store_n(&rd_pv_on, 1, __ATOMIC_RELAXED); /* the engine counts from here */
    *session = s;
    T_RETURN(MPI_SUCCESS);
}

static void session_free(struct rd_t_pvar_session_s *s)
{
    while (s->handles) {
        struct rd_t_pvar_handle_s *h = s->handles;
        s->handles = h->next;
        free(h);
    }
    for (struct rd_t_pvar_session_s **pp = &sessions; *pp; pp = &(*pp)->next)
        if (*pp == s) {
            *pp = s->next;
            break;
        }
    free(s);
    if (!sessions)
        __atomic_store_n(&rd_pv_on, 0, __ATOMIC_RELAXED); /* no reader left: counting stops */
}

static int session_valid(MPI_T_pvar_session s)
{
    for (struct rd_t_pvar_session_s *x = sessions; x; x = x->next)
        if (x == s)
            return 1;
    return 0;
}

#pragma weak MPI_T_pvar_session_free = PMPI_T_pvar_session_free
int PMPI_T_pvar_session_free(MPI_T_pvar_session *session)
{
    T_ENTER();
    if (!session || !session_valid(*session))
        T_RETURN(MPI_T_ERR_INVALID_SESSION);
    session_free(*session);
    *session = MPI_T_PVAR_SESSION_NULL;
    T_RETURN(MPI_SUCCESS);
}

/* The raw values of a counter or timer variable now (count elements). */
static void raw(const struct pvar *v, uint64_t *out)
{
    switch (v->kind) {
    case PV_COUNT:
        for (int t = 0; t < RD_PV_NTL; t++)
            out[t] = __atomic_load_n(v->what ? &rd_pv.bytes[v->dir][v->proto][t] : &rd_pv.msgs[v->dir][v->proto][t],
                                     __ATOMIC_RELAXED);
        break;
    case PV_COUNT_SUM:
        for (int t = 0; t < RD_PV_NTL; t++) {
            out[t] = 0;
            for (int p = 0; p < RD_PV_NPROTO; p++)
                out[t] += __atomic_load_n(v->what ? &rd_pv.bytes[v->dir][p][t] : &rd_pv.msgs[v->dir][p][t],
                                          __ATOMIC_RELAXED);
        }
        break;
    case PV_UNEXP: out[0] = __atomic_load_n(&rd_pv.unexpected, __ATOMIC_RELAXED); break;
    case PV_UNEXP_HWM: out[0] = __atomic_load_n(&rd_pv.unexpected_hwm, __ATOMIC_RELAXED); break;
    case PV_WAIT: out[0] = __atomic_load_n(&rd_pv.wait_ns, __ATOMIC_RELAXED); break;
    case PV_COLL: out[0] = (uint64_t)(int64_t)__atomic_load_n(&rd_pv.coll_alg[v->coll], __ATOMIC_RELAXED); break;
    }
}

/* Whether the variable's value is the handle's own (counters and timers:
 * started, stopped, reset, written) rather than the state of now. */
static int own_value(const struct pvar *v)
{
    return v->kind == PV_COUNT || v->kind == PV_COUNT_SUM || v->kind == PV_WAIT;
}

#pragma weak MPI_T_pvar_handle_alloc = PMPI_T_pvar_handle_alloc
int PMPI_T_pvar_handle_alloc(MPI_T_pvar_session session, int pvar_index, void *obj_handle,
                             MPI_T_pvar_handle *handle, int *count)
{
    (void)obj_handle;
    T_ENTER();
    if (!session_valid(session))
        T_RETURN(MPI_T_ERR_INVALID_SESSION);
    if (pvar_index < 0 || pvar_index >= npvars)
        T_RETURN(MPI_T_ERR_INVALID_INDEX);
    if (!handle || !count)
        T_RETURN(MPI_T_ERR_INVALID);
    struct rd_t_pvar_handle_s *h = calloc(1, sizeof(*h));
    if (!h)
        T_RETURN(MPI_T_ERR_MEMORY);
    h->session = session;
    h->index = pvar_index;
    h->started = pvars[pvar_index].continuous; /* a continuous variable is always started */
    h->next = session->handles;
    session->handles = h;
    *handle = h;
    *count = pvars[pvar_index].count;
    T_RETURN(MPI_SUCCESS);
}

static struct rd_t_pvar_handle_s *handle_in(MPI_T_pvar_session s, MPI_T_pvar_handle h)
{
    for (struct rd_t_pvar_handle_s *x = s->handles; x; x = x->next)
        if (x == h)
            return x;
    return NULL;
}

#pragma weak MPI_T_pvar_handle_free = PMPI_T_pvar_handle_free
int PMPI_T_pvar_handle_free(MPI_T_pvar_session session, MPI_T_pvar_handle *handle)
{
    T_ENTER();
    if (!session_valid(session))
        T_RETURN(MPI_T_ERR_INVALID_SESSION);
    if (!handle || !handle_in(session, *handle))
        T_RETURN(MPI_T_ERR_INVALID_HANDLE);
    for (struct rd_t_pvar_handle_s **pp = &session->handles; *pp; pp = &(*pp)->next)
        if (*pp == *handle) {
            *pp = (*handle)->next;
            break;
        }
    free(*handle);
    *handle = MPI_T_PVAR_HANDLE_NULL;
    T_RETURN(MPI_SUCCESS);
}

static void h_start(struct rd_t_pvar_handle_s *h)
{
    const struct pvar *v = &pvars[h->index];
    if (h->started)
        return;
    raw(v, h->base);
    h->started = 1;
}

static void h_stop(struct rd_t_pvar_handle_s *h)
{
    const struct pvar *v = &pvars[h->index];
    uint64_t now[RD_PV_NTL];
    if (!h->started)
        return;
    raw(v, now);
    for (int i = 0; i < v->count; i++)
        h->acc[i] += now[i] - h->base[i];
    h->started = 0;
}

/* The handle's value into out (uint64 elements; a state or level: now). */
static void h_value(struct rd_t_pvar_handle_s *h, uint64_t *out, uint64_t *now)
{
    const struct pvar *v = &pvars[h->index];
    raw(v, now);
    if (!own_value(v)) {
        memcpy(out, now, sizeof(uint64_t) * (size_t)v->count);
        return;
    }
    for (int i = 0; i < v->count; i++)
        out[i] = h->acc[i] + (h->started ? now[i] - h->base[i] : 0);
}

static void h_reset(struct rd_t_pvar_handle_s *h, const uint64_t *now)
{
    const struct pvar *v = &pvars[h->index];
    for (int i = 0; i < v->count; i++) {
        h->acc[i] = 0;
        h->base[i] = now[i];
    }
}

static void put_value(const struct pvar *v, const uint64_t *val, void *buf)
{
    for (int i = 0; i < v->count; i++) {
        if (v->type == MPI_DOUBLE)
            ((double *)buf)[i] = (double)val[i] / 1e9;
        else if (v->type == MPI_INT)
            ((int *)buf)[i] = (int)(int64_t)val[i];
        else
            ((unsigned long long *)buf)[i] = val[i];
    }
}

/* start, stop and reset take MPI_T_PVAR_ALL_HANDLES: every handle of the
 * session they apply to (start and stop: the non-continuous ones; reset:
 * the writable ones) */
enum { OP_START, OP_STOP, OP_RESET };
static int apply(MPI_T_pvar_session session, MPI_T_pvar_handle handle, int op)
{
    if (!session_valid(session))
        return MPI_T_ERR_INVALID_SESSION;
    if (handle == MPI_T_PVAR_ALL_HANDLES) {
        for (struct rd_t_pvar_handle_s *h = session->handles; h; h = h->next) {
            const struct pvar *v = &pvars[h->index];
            uint64_t now[RD_PV_NTL];
            if (op == OP_START && !v->continuous)
                h_start(h);
            else if (op == OP_STOP && !v->continuous)
                h_stop(h);
            else if (op == OP_RESET && !v->readonly) {
                raw(v, now);
                h_reset(h, now);
            }
        }
        return MPI_SUCCESS;
    }
    struct rd_t_pvar_handle_s *h = handle_in(session, handle);
    if (!h)
        return MPI_T_ERR_INVALID_HANDLE;
    const struct pvar *v = &pvars[h->index];
    if (op == OP_RESET) {
        if (v->readonly)
            return MPI_T_ERR_PVAR_NO_WRITE;
        uint64_t now[RD_PV_NTL];
        raw(v, now);
        h_reset(h, now);
        return MPI_SUCCESS;
    }
    if (v->continuous)
        return MPI_T_ERR_PVAR_NO_STARTSTOP;
    if (op == OP_START)
        h_start(h);
    else
        h_stop(h);
    return MPI_SUCCESS;
}

#pragma weak MPI_T_pvar_start = PMPI_T_pvar_start
int PMPI_T_pvar_start(MPI_T_pvar_session session, MPI_T_pvar_handle handle)
{
    T_ENTER();
    T_RETURN(apply(session, handle, OP_START));
}

#pragma weak MPI_T_pvar_stop = PMPI_T_pvar_stop
int PMPI_T_pvar_stop(MPI_T_pvar_session session, MPI_T_pvar_handle handle)
{
    T_ENTER();
    T_RETURN(apply(session, handle, OP_STOP));
}

#pragma weak MPI_T_pvar_reset = PMPI_T_pvar_reset
int PMPI_T_pvar_reset(MPI_T_pvar_session session, MPI_T_pvar_handle handle)
{
    T_ENTER();
    T_RETURN(apply(session, handle, OP_RESET));
}

static int read_common(MPI_T_pvar_session session, MPI_T_pvar_handle handle, void *buf, int reset)
{
    if (!session_valid(session))
        return MPI_T_ERR_INVALID_SESSION;
    struct rd_t_pvar_handle_s *h = handle == MPI_T_PVAR_ALL_HANDLES ? NULL : handle_in(session, handle);
    if (!h)
        return MPI_T_ERR_INVALID_HANDLE;
    if (!buf)
        return MPI_T_ERR_INVALID;
    const struct pvar *v = &pvars[h->index];
    if (reset && v->readonly)
        return MPI_T_ERR_PVAR_NO_WRITE;
    uint64_t val[RD_PV_NTL], now[RD_PV_NTL];
    h_value(h, val, now);
    put_value(v, val, buf);
    if (reset)
        h_reset(h, now); /* the same sample: nothing counted between is lost */
    return MPI_SUCCESS;
}

#pragma weak MPI_T_pvar_read = PMPI_T_pvar_read
int PMPI_T_pvar_read(MPI_T_pvar_session session, MPI_T_pvar_handle handle, void *buf)
{
    T_ENTER();
    T_RETURN(read_common(session, handle, buf, 0));
}

#pragma weak MPI_T_pvar_readreset = PMPI_T_pvar_readreset
int PMPI_T_pvar_readreset(MPI_T_pvar_session session, MPI_T_pvar_handle handle, void *buf)
{
    T_ENTER();
    T_RETURN(read_common(session, handle, buf, 1));
}

#pragma weak MPI_T_pvar_write = PMPI_T_pvar_write
int PMPI_T_pvar_write(MPI_T_pvar_session session, MPI_T_pvar_handle handle, const void *buf)
{
    T_ENTER();
    if (!session_valid(session))
        T_RETURN(MPI_T_ERR_INVALID_SESSION);
    struct rd_t_pvar_handle_s *h = handle == MPI_T_PVAR_ALL_HANDLES ? NULL : handle_in(session, handle);
    if (!h)
        T_RETURN(MPI_T_ERR_INVALID_HANDLE);
    if (!buf)
        T_RETURN(MPI_T_ERR_INVALID);
    const struct pvar *v = &pvars[h->index];
    if (v->readonly)
        T_RETURN(MPI_T_ERR_PVAR_NO_WRITE);
    uint64_t now[RD_PV_NTL];
    raw(v, now);
    for (int i = 0; i < v->count; i++) {
        if (v->type == MPI_DOUBLE) {
            double d = ((const double *)buf)[i];
            if (!(d >= 0 && d < 1.8e10))
                T_RETURN(MPI_T_ERR_INVALID);
            h->acc[i] = (uint64_t)(d * 1e9);
        } else {
            h->acc[i] = ((const unsigned long long *)buf)[i];
        }
        h->base[i] = now[i];
    }
    T_RETURN(MPI_SUCCESS);
}

/* ================================================================ categories */

#pragma weak MPI_T_category_get_num = PMPI_T_category_get_num
int PMPI_T_category_get_num(int *num_cat)
{
    T_ENTER();
    if (!num_cat)
        T_RETURN(MPI_T_ERR_INVALID);
    *num_cat = ncats;
    T_RETURN(MPI_SUCCESS);
}

#pragma weak MPI_T_category_get_info = PMPI_T_category_get_info
int PMPI_T_category_get_info(int cat_index, char *name, int *name_len, char *desc, int *desc_len, int *num_cvars,
                             int *num_pvars, int *num_categories)
{
    T_ENTER();
    if (cat_index < 0 || cat_index >= ncats)
        T_RETURN(MPI_T_ERR_INVALID_INDEX);
    put_string(name, name_len, cats[cat_index].name);
    put_string(desc, desc_len, cats[cat_index].desc);
    if (num_cvars)
        *num_cvars = cats[cat_index].ncvars;
    if (num_pvars)
        *num_pvars = cats[cat_index].npvars;
    if (num_categories)
        *num_categories = 0;
    T_RETURN(MPI_SUCCESS);
}

#pragma weak MPI_T_category_get_num_events = PMPI_T_category_get_num_events
int PMPI_T_category_get_num_events(int cat_index, int *num_events)
{
    T_ENTER();
    if (cat_index < 0 || cat_index >= ncats)
        T_RETURN(MPI_T_ERR_INVALID_INDEX);
    if (!num_events)
        T_RETURN(MPI_T_ERR_INVALID);
    *num_events = 0;
    T_RETURN(MPI_SUCCESS);
}

#pragma weak MPI_T_category_get_index = PMPI_T_category_get_index
int PMPI_T_category_get_index(const char *name, int *cat_index)
{
    T_ENTER();
    if (!name || !cat_index)
        T_RETURN(MPI_T_ERR_INVALID);
    for (int i = 0; i < ncats; i++)
        if (strcmp(cats[i].name, name) == 0) {
            *cat_index = i;
            T_RETURN(MPI_SUCCESS);
        }
    T_RETURN(MPI_T_ERR_INVALID_NAME);
}

/* The first len indices of the category's members (which: 0 control
 * variables, 1 performance variables). */
static int members(int cat_index, int len, int *indices, int which)
{
    if (cat_index < 0 || cat_index >= ncats)
        return MPI_T_ERR_INVALID_INDEX;
    if (len < 0 || (len > 0 && !indices))
        return MPI_T_ERR_INVALID;
    int n = 0, total = which ? npvars : ncvars;
    for (int i = 0; i < total && n < len; i++)
        if ((which ? pvars[i].cat : cvars[i].cat) == cat_index)
            indices[n++] = i;
    return MPI_SUCCESS;
}

#pragma weak MPI_T_category_get_cvars = PMPI_T_category_get_cvars
int PMPI_T_category_get_cvars(int cat_index, int len, int indices[])
{
    T_ENTER();
    T_RETURN(members(cat_index, len, indices, 0));
}

#pragma weak MPI_T_category_get_pvars = PMPI_T_category_get_pvars
int PMPI_T_category_get_pvars(int cat_index, int len, int indices[])
{
    T_ENTER();
    T_RETURN(members(cat_index, len, indices, 1));
}

#pragma weak MPI_T_category_get_events = PMPI_T_category_get_events
int PMPI_T_category_get_events(int cat_index, int len, int indices[])
{
    T_ENTER();
    if (cat_index < 0 || cat_index >= ncats)
        T_RETURN(MPI_T_ERR_INVALID_INDEX);
    if (len < 0 || (len > 0 && !indices))
        T_RETURN(MPI_T_ERR_INVALID);
    T_RETURN(MPI_SUCCESS); /* (no events) */
}

#pragma weak MPI_T_category_get_categories = PMPI_T_category_get_categories
int PMPI_T_category_get_categories(int cat_index, int len, int indices[])
{
    T_ENTER();
    if (cat_index < 0 || cat_index >= ncats)
        T_RETURN(MPI_T_ERR_INVALID_INDEX);
    if (len < 0 || (len > 0 && !indices))
        T_RETURN(MPI_T_ERR_INVALID);
    T_RETURN(MPI_SUCCESS); /* (no subcategories) */
}

#pragma weak MPI_T_category_changed = PMPI_T_category_changed
int PMPI_T_category_changed(int *update_number)
{
    T_ENTER();
    if (!update_number)
        T_RETURN(MPI_T_ERR_INVALID);
    *update_number = 0; /* the lists are made once and never change */
    T_RETURN(MPI_SUCCESS);
}

/* ================================================================ sources and events */

#pragma weak MPI_T_source_get_num = PMPI_T_source_get_num
int PMPI_T_source_get_num(int *num_sources)
{
    T_ENTER();
    if (!num_sources)
        T_RETURN(MPI_T_ERR_INVALID);
    *num_sources = 1;
    T_RETURN(MPI_SUCCESS);
}

#pragma weak MPI_T_source_get_info = PMPI_T_source_get_info
int PMPI_T_source_get_info(int source_index, char *name, int *name_len, char *desc, int *desc_len,
                           MPI_T_source_order *ordering, MPI_Count *ticks_per_second, MPI_Count *max_ticks,
                           MPI_Info *info)
{
    T_ENTER();
    if (source_index != 0)
        T_RETURN(MPI_T_ERR_INVALID_INDEX);
    put_string(name, name_len, "clock");
    put_string(desc, desc_len, "this process's monotonic clock (CLOCK_MONOTONIC), in nanoseconds");
    if (ordering)
        *ordering = MPI_T_SOURCE_ORDERED;
    if (ticks_per_second)
        *ticks_per_second = 1000000000;
    if (max_ticks)
        *max_ticks = INT64_MAX;
    if (info) {
        struct rd_info_s *i = rd_info_new();
        if (!i)
            T_RETURN(MPI_T_ERR_MEMORY);
        *info = i;
    }
    T_RETURN(MPI_SUCCESS);
}

#pragma weak MPI_T_source_get_timestamp = PMPI_T_source_get_timestamp
int PMPI_T_source_get_timestamp(int source_index, MPI_Count *timestamp)
{
    T_ENTER();
    if (source_index != 0)
        T_RETURN(MPI_T_ERR_INVALID_INDEX);
    if (!timestamp)
        T_RETURN(MPI_T_ERR_INVALID);
    *timestamp = (MPI_Count)rd_pv_now_ns();
    T_RETURN(MPI_SUCCESS);
}

/* No event types: every index is out of range, no registration or
 * instance can exist, so the calls on them find an invalid handle. */

#pragma weak MPI_T_event_get_num = PMPI_T_event_get_num
int PMPI_T_event_get_num(int *num_events)
{
    T_ENTER();
    if (!num_events)
        T_RETURN(MPI_T_ERR_INVALID);
    *num_events = 0;
    T_RETURN(MPI_SUCCESS);
}

#pragma weak MPI_T_event_get_info = PMPI_T_event_get_info
int PMPI_T_event_get_info(int event_index, char *name, int *name_len, int *verbosity,
                          MPI_Datatype array_of_datatypes[], MPI_Aint array_of_displacements[], int *num_elements,
                          MPI_T_enum *enumtype, MPI_Info *info, char *desc, int *desc_len, int *bind)
{
    (void)event_index, (void)name, (void)name_len, (void)verbosity, (void)array_of_datatypes;
    (void)array_of_displacements, (void)num_elements, (void)enumtype, (void)info, (void)desc, (void)desc_len;
    (void)bind;
    T_ENTER();
    T_RETURN(MPI_T_ERR_INVALID_INDEX);
}

#pragma weak MPI_T_event_get_index = PMPI_T_event_get_index
int PMPI_T_event_get_index(const char *name, int *event_index)
{
    T_ENTER();
    if (!name || !event_index)
        T_RETURN(MPI_T_ERR_INVALID);
    T_RETURN(MPI_T_ERR_INVALID_NAME);
}

#pragma weak MPI_T_event_handle_alloc = PMPI_T_event_handle_alloc
int PMPI_T_event_handle_alloc(int event_index, void *obj_handle, MPI_Info info,
                              MPI_T_event_registration *event_registration)
{
    (void)event_index, (void)obj_handle, (void)info, (void)event_registration;
    T_ENTER();
    T_RETURN(MPI_T_ERR_INVALID_INDEX);
}

#define NO_REGISTRATION(reg)                                                                               \
    (void)(reg);                                                                                           \
    T_ENTER();                                                                                             \
    T_RETURN(MPI_T_ERR_INVALID_HANDLE)

#pragma weak MPI_T_event_handle_set_info = PMPI_T_event_handle_set_info
int PMPI_T_event_handle_set_info(MPI_T_event_registration event_registration, MPI_Info info)
{
    (void)info;
    NO_REGISTRATION(event_registration);
}

#pragma weak MPI_T_event_handle_get_info = PMPI_T_event_handle_get_info
int PMPI_T_event_handle_get_info(MPI_T_event_registration event_registration, MPI_Info *info_used)
{
    (void)info_used;
    NO_REGISTRATION(event_registration);
}

#pragma weak MPI_T_event_register_callback = PMPI_T_event_register_callback
int PMPI_T_event_register_callback(MPI_T_event_registration event_registration, MPI_T_cb_safety cb_safety,
                                   MPI_Info info, void *user_data, MPI_T_event_cb_function *event_cb_function)
{
    (void)cb_safety, (void)info, (void)user_data, (void)event_cb_function;
    NO_REGISTRATION(event_registration);
}

#pragma weak MPI_T_event_callback_set_info = PMPI_T_event_callback_set_info
int PMPI_T_event_callback_set_info(MPI_T_event_registration event_registration, MPI_T_cb_safety cb_safety,
                                   MPI_Info info)
{
    (void)cb_safety, (void)info;
    NO_REGISTRATION(event_registration);
}

#pragma weak MPI_T_event_callback_get_info = PMPI_T_event_callback_get_info
int PMPI_T_event_callback_get_info(MPI_T_event_registration event_registration, MPI_T_cb_safety cb_safety,
                                   MPI_Info *info_used)
{
    (void)cb_safety, (void)info_used;
    NO_REGISTRATION(event_registration);
}

#pragma weak MPI_T_event_handle_free = PMPI_T_event_handle_free
int PMPI_T_event_handle_free(MPI_T_event_registration event_registration, void *user_data,
                             MPI_T_event_free_cb_function *free_cb_function)
{
    (void)user_data, (void)free_cb_function;
    NO_REGISTRATION(event_registration);
}

#pragma weak MPI_T_event_set_dropped_handler = PMPI_T_event_set_dropped_handler
int PMPI_T_event_set_dropped_handler(MPI_T_event_registration event_registration,
                                     MPI_T_event_dropped_cb_function *dropped_cb_function)
{
    (void)dropped_cb_function;
    NO_REGISTRATION(event_registration);
}

#pragma weak MPI_T_event_read = PMPI_T_event_read
int PMPI_T_event_read(MPI_T_event_instance event_instance, int element_index, void *buffer)
{
    (void)element_index, (void)buffer;
    NO_REGISTRATION(event_instance);
}

#pragma weak MPI_T_event_copy = PMPI_T_event_copy
int PMPI_T_event_copy(MPI_T_event_instance event_instance, void *buffer)
{
    (void)buffer;
    NO_REGISTRATION(event_instance);
}

#pragma weak MPI_T_event_get_timestamp = PMPI_T_event_get_timestamp
int PMPI_T_event_get_timestamp(MPI_T_event_instance event_instance, MPI_Count *event_timestamp)
{
    (void)event_timestamp;
    NO_REGISTRATION(event_instance);
}

#pragma weak MPI_T_event_get_source = PMPI_T_event_get_source
int PMPI_T_event_get_source(MPI_T_event_instance event_instance, int *source_index)
{
    (void)source_index;
    NO_REGISTRATION(event_instance);
}

/* Sessions (MPI 4.0 11.3): MPI_Session_init and _finalize, the process
 * sets, the session's info and error handlers, MPI_Group_from_session_pset.
 * (MPI_Comm_create_from_group and MPI_Intercomm_create_from_groups are
 * comm.c's.) The library's life under sessions: lifecycle.c.
 *
 * (A session's buffer for buffered sends: bsend.c.)
 *
 * Process sets: the two built-in ones, mpi://WORLD (every process of the
 * job) and mpi://SELF, then those the launcher defined (rrun --pset, read
 * through PMIx: runtime/base/job.c, rd_job_psets), each session reading
 * them once, at its first call that needs them. Every process of the job
 * lists the same sets in the same order, members or not (a group of a
 * set the caller is not in serves MPI_Intercomm_create_from_groups).
 * Names are compared without regard to case; a launcher's set whose name
 * starts with "mpi://" or repeats an earlier name is left out. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "runtime/api/check.h"
#include "runtime/api/lifecycle.h"
#include "runtime/base/job.h"
#include "runtime/objects/errhandler.h"
#include "runtime/objects/fhandle.h"
#include "runtime/objects/group.h"
#include "runtime/objects/info.h"
#include "runtime/objects/session.h"
#include "runtime/p2p/bsend.h"

static const char *const psets[] = {"mpi://WORLD", "mpi://SELF"};
#define NPSETS ((int)(sizeof psets / sizeof psets[0]))

static const char *const levels[] = {"MPI_THREAD_SINGLE", "MPI_THREAD_FUNNELED", "MPI_THREAD_SERIALIZED",
                                     "MPI_THREAD_MULTIPLE"};

/* The launcher's process sets, once per session (under the big lock: a
 * session may be used by several threads at once). Out of memory raises
 * MPI_ERR_NO_MEM; anything PMIx says otherwise only means no sets. */
static int read_psets(const char *call, MPI_Session s)
{
    rd_status st = RD_OK;

    if (atomic_load_explicit(&s->psets_read, memory_order_acquire))
        return MPI_SUCCESS;
    RD_LOCK();
    if (!atomic_load_explicit(&s->psets_read, memory_order_relaxed)) {
        struct rd_job_pset *ps = NULL;
        int n = 0, kept = 0;
        st = rd_job_psets(&ps, &n);
        for (int i = 0; st == RD_OK && i < n; i++) {
            int drop = strncasecmp(ps[i].name, "mpi://", 6) == 0; /* (the standard's own) */
            for (int j = 0; j < kept && !drop; j++)
                drop = strcasecmp(ps[i].name, ps[j].name) == 0;
            if (drop) {
                free(ps[i].name);
                free(ps[i].ranks);
            } else {
                ps[kept++] = ps[i];
            }
        }
        if (st == RD_OK) {
            s->psets = ps;
            s->npsets = kept;
            atomic_store_explicit(&s->psets_read, 1, memory_order_release);
        }
    }
    RD_UNLOCK();
    if (st != RD_OK)
        return rd_err_raise_session(s, rd_status_to_mpi(st), call, "reading the process sets: %s",
                                    rd_status_string(st));
    return MPI_SUCCESS;
}

/* The name of process set k (0, 1: the built-in ones). */
static const char *pset_name_of(MPI_Session s, int k)
{
    return k < NPSETS ? psets[k] : s->psets[k - NPSETS].name;
}

/* The index of a process set's name in *k; an error through the
 * session's handler when it names none. */
static int pset_find(const char *call, MPI_Session session, const char *name, int *k)
{
    for (*k = 0; *k < NPSETS; ++*k)
        if (strcasecmp(name, psets[*k]) == 0)
            return MPI_SUCCESS;
    RD_TRY(read_psets(call, session));
    for (int i = 0; i < session->npsets; i++)
        if (strcasecmp(name, session->psets[i].name) == 0) {
            *k = NPSETS + i;
            return MPI_SUCCESS;
        }
    return rd_err_raise_session(session, MPI_ERR_ARG, call,
                                "'%s' is not a process set of this session (MPI_Session_get_nth_pset lists its %d)",
                                name, NPSETS + session->npsets);
}

/* A session's error handler: a predefined one or one of
 * MPI_Session_create_errhandler. */
static int session_errh(MPI_Errhandler eh)
{
    return rd_errh_valid(eh) && (eh->predefined || eh->sfn);
}

/* The thread level info asks for ("thread_level": a level's name or its
 * value); MPI_THREAD_SINGLE by default. -1: a value that is neither. */
static int wanted_level(MPI_Info info)
{
    int i = info != MPI_INFO_NULL ? rd_info_find(info, "thread_level") : -1;
    if (i < 0)
        return MPI_THREAD_SINGLE;
    const char *v = info->ent[i].value;
    for (int l = 0; l < 4; l++)
        if (strcasecmp(v, levels[l]) == 0)
            return MPI_THREAD_SINGLE + l;
    char *end;
    long n = strtol(v, &end, 10);
    if (*v && !*end && n >= MPI_THREAD_SINGLE && n <= MPI_THREAD_MULTIPLE)
        return (int)n;
    return -1;
}

#pragma weak MPI_Session_init = PMPI_Session_init
int PMPI_Session_init(MPI_Info info, MPI_Errhandler errhandler, MPI_Session *session)
{
    const char *call = "MPI_Session_init";
    if (!session_errh(errhandler))
        return rd_err_raise_errh(MPI_ERRORS_ARE_FATAL, MPI_ERR_ERRHANDLER, call,
                                 "the error handler is not a session's (predefined, or from "
                                 "MPI_Session_create_errhandler)");
    if (!session)
        return rd_err_raise_errh(errhandler, MPI_ERR_ARG, call, "session is NULL");
    if (info != MPI_INFO_NULL && !rd_info_valid(info))
        return rd_err_raise_errh(errhandler, MPI_ERR_INFO, call, "invalid info");
    int level = wanted_level(info);
    if (level < 0)
        return rd_err_raise_errh(errhandler, MPI_ERR_INFO_VALUE, call,
                                 "thread_level '%s' is not MPI_THREAD_SINGLE, _FUNNELED, _SERIALIZED or _MULTIPLE",
                                 info->ent[rd_info_find(info, "thread_level")].value);
    struct rd_session_s *s = calloc(1, sizeof(*s));
    if (!s)
        return rd_err_raise_errh(errhandler, MPI_ERR_NO_MEM, call, "out of memory");
    char err[384];
    int provided = MPI_THREAD_SINGLE;
    int rc = rd_life_up(0, level, &provided, err, sizeof(err));
    if (rc < 0) {
        fprintf(stderr, "rdmpi: %s: %s\n", call, err);
        rd_job_abort(1, err);
    }
    if (rc > 0) {
        free(s);
        return rd_err_raise_errh(errhandler, rc, call, "%s", err);
    }
    s->magic = RD_SESSION_MAGIC;
    atomic_init(&s->refs, 1);
    s->errh = errhandler;
    rd_errh_retain(errhandler);
    s->thread_level = provided;
    *session = s;
    return MPI_SUCCESS;
}

#pragma weak MPI_Session_finalize = PMPI_Session_finalize
int PMPI_Session_finalize(MPI_Session *session)
{
    const char *call = "MPI_Session_finalize";
    if (!session)
        return rd_err_raise_session(MPI_SESSION_NULL, MPI_ERR_ARG, call, "session pointer is NULL");
    RD_TRY(rd_check_session(call, *session));
    struct rd_session_s *s = *session;
    if (s->bsend) { /* its buffer: detached once every message in it has left */
        void *buf;
        size_t bytes;
        RD_LOCK();
        rd_bsend_detach(&s->bsend, &buf, &bytes);
        RD_UNLOCK();
    }
    rd_fh_drop(RD_FH_SESSION, &s->fidx);
    rd_errh_release(s->errh);
    rd_job_psets_free(s->psets, s->npsets);
    s->psets = NULL;
    s->npsets = 0;
    s->magic = 0;
    rd_session_release(s); /* (the memory stays while derived groups and communicators hold it) */
    *session = MPI_SESSION_NULL;
    fflush(stdout);
    rd_status st = rd_life_down(0);
    if (st != RD_OK)
        return rd_err_raise_session(MPI_SESSION_NULL, rd_status_to_mpi(st), call, "%s", rd_status_string(st));
    return MPI_SUCCESS;
}

#pragma weak MPI_Session_get_num_psets = PMPI_Session_get_num_psets
int PMPI_Session_get_num_psets(MPI_Session session, MPI_Info info, int *npset_names)
{
    const char *call = "MPI_Session_get_num_psets";
    RD_TRY(rd_check_session(call, session));
    if (info != MPI_INFO_NULL && !rd_info_valid(info))
        return rd_err_raise_session(session, MPI_ERR_INFO, call, "invalid info");
    if (!npset_names)
        return rd_err_raise_session(session, MPI_ERR_ARG, call, "npset_names is NULL");
    RD_TRY(read_psets(call, session));
    *npset_names = NPSETS + session->npsets;
    return MPI_SUCCESS;
}

#pragma weak MPI_Session_get_nth_pset = PMPI_Session_get_nth_pset
int PMPI_Session_get_nth_pset(MPI_Session session, MPI_Info info, int n, int *pset_len, char *pset_name)
{
    const char *call = "MPI_Session_get_nth_pset";
    RD_TRY(rd_check_session(call, session));
    if (info != MPI_INFO_NULL && !rd_info_valid(info))
        return rd_err_raise_session(session, MPI_ERR_INFO, call, "invalid info");
    RD_TRY(read_psets(call, session));
    if (n < 0 || n >= NPSETS + session->npsets)
        return rd_err_raise_session(session, MPI_ERR_ARG, call, "n %d is not in [0, %d)", n,
                                    NPSETS + session->npsets);
    if (!pset_len || *pset_len < 0)
        return rd_err_raise_session(session, MPI_ERR_ARG, call, "pset_len is %s", pset_len ? "negative" : "NULL");
    if (*pset_len > 0 && !pset_name)
        return rd_err_raise_session(session, MPI_ERR_ARG, call, "pset_name is NULL");
    const char *name = pset_name_of(session, n);
    int need = (int)strlen(name) + 1;
    if (*pset_len > 0) { /* truncated to the room given, always terminated */
        int copy = *pset_len < need ? *pset_len - 1 : need - 1;
        memcpy(pset_name, name, (size_t)copy);
        pset_name[copy] = '\0';
    }
    *pset_len = need;
    return MPI_SUCCESS;
}

#pragma weak MPI_Session_get_pset_info = PMPI_Session_get_pset_info
int PMPI_Session_get_pset_info(MPI_Session session, const char *pset_name, MPI_Info *info)
{
    const char *call = "MPI_Session_get_pset_info";
    RD_TRY(rd_check_session(call, session));
    if (!pset_name || !info)
        return rd_err_raise_session(session, MPI_ERR_ARG, call, "%s is NULL", pset_name ? "info" : "pset_name");
    int k;
    RD_TRY(pset_find(call, session, pset_name, &k));
    struct rd_info_s *in = rd_info_new();
    char size[24];
    snprintf(size, sizeof size, "%d", k == 0 ? rd_job.size : k == 1 ? 1 : session->psets[k - NPSETS].n);
    if (!in || rd_info_set(in, "mpi_size", size) != 0) {
        if (in)
            rd_info_destroy(in);
        return rd_err_raise_session(session, MPI_ERR_NO_MEM, call, "out of memory");
    }
    *info = in;
    return MPI_SUCCESS;
}

#pragma weak MPI_Session_get_info = PMPI_Session_get_info
int PMPI_Session_get_info(MPI_Session session, MPI_Info *info_used)
{
    const char *call = "MPI_Session_get_info";
    RD_TRY(rd_check_session(call, session));
    if (!info_used)
        return rd_err_raise_session(session, MPI_ERR_ARG, call, "info_used is NULL");
    struct rd_info_s *in = rd_info_new();
    if (!in || rd_info_set(in, "thread_level", levels[session->thread_level - MPI_THREAD_SINGLE]) != 0) {
        if (in)
            rd_info_destroy(in);
        return rd_err_raise_session(session, MPI_ERR_NO_MEM, call, "out of memory");
    }
    *info_used = in;
    return MPI_SUCCESS;
}

#pragma weak MPI_Session_create_errhandler = PMPI_Session_create_errhandler
int PMPI_Session_create_errhandler(MPI_Session_errhandler_function *fn, MPI_Errhandler *errhandler)
{
    /* (callable before any session: no MPI_Init needed) */
    const char *call = "MPI_Session_create_errhandler";
    if (!fn || !errhandler)
        return rd_err_raise_session(MPI_SESSION_NULL, MPI_ERR_ARG, call, "%s is NULL",
                                    fn ? "errhandler" : "the function");
    if (rd_errh_new(NULL, NULL, errhandler) != RD_OK)
        return rd_err_raise_session(MPI_SESSION_NULL, MPI_ERR_NO_MEM, call, "out of memory");
    (*errhandler)->sfn = fn;
    return MPI_SUCCESS;
}

#pragma weak MPI_Session_set_errhandler = PMPI_Session_set_errhandler
int PMPI_Session_set_errhandler(MPI_Session session, MPI_Errhandler errhandler)
{
    const char *call = "MPI_Session_set_errhandler";
    RD_TRY(rd_check_session(call, session));
    if (!session_errh(errhandler))
        return rd_err_raise_session(session, MPI_ERR_ERRHANDLER, call,
                                    rd_errh_valid(errhandler) ? "the error handler was not made for sessions"
                                                              : "invalid error handler");
    MPI_Errhandler old = session->errh;
    rd_errh_retain(errhandler);
    session->errh = errhandler;
    rd_errh_release(old);
    return MPI_SUCCESS;
}

#pragma weak MPI_Session_get_errhandler = PMPI_Session_get_errhandler
int PMPI_Session_get_errhandler(MPI_Session session, MPI_Errhandler *errhandler)
{
    const char *call = "MPI_Session_get_errhandler";
    RD_TRY(rd_check_session(call, session));
    if (!errhandler)
        return rd_err_raise_session(session, MPI_ERR_ARG, call, "errhandler is NULL");
    rd_errh_retain(session->errh); /* the caller frees its reference */
    *errhandler = session->errh;
    return MPI_SUCCESS;
}

#pragma weak MPI_Session_call_errhandler = PMPI_Session_call_errhandler
int PMPI_Session_call_errhandler(MPI_Session session, int errorcode)
{
    const char *call = "MPI_Session_call_errhandler";
    RD_TRY(rd_check_session(call, session));
    if (rd_err_code_class(errorcode) < 0)
        return rd_err_raise_session(session, MPI_ERR_ARG, call, "%d is not a valid error code", errorcode);
    rd_err_raise_session(session, errorcode, call, "error code %d raised by the program", errorcode);
    return MPI_SUCCESS; /* (the handler returned) */
}

#pragma weak MPI_Group_from_session_pset = PMPI_Group_from_session_pset
int PMPI_Group_from_session_pset(MPI_Session session, const char *pset_name, MPI_Group *newgroup)
{
    const char *call = "MPI_Group_from_session_pset";
    RD_TRY(rd_check_session(call, session));
    if (!pset_name || !newgroup)
        return rd_err_raise_session(session, MPI_ERR_ARG, call, "%s is NULL", pset_name ? "newgroup" : "pset_name");
    int k;
    RD_TRY(pset_find(call, session, pset_name, &k));
    const struct rd_job_pset *ps = k >= NPSETS ? &session->psets[k - NPSETS] : NULL;
    struct rd_group_s *g = k == 0 ? rd_group_identity(rd_job.size) : rd_group_alloc(ps ? ps->n : 1);
    if (!g)
        return rd_err_raise_session(session, MPI_ERR_NO_MEM, call, "out of memory");
    if (k == 1)
        g->ranks[0] = rd_job.rank;
    else if (ps) /* (ascending world ranks) */
        memcpy(g->ranks, ps->ranks, sizeof(int) * (size_t)ps->n);
    g->session = session;
    rd_session_retain(session);
    *newgroup = g;
    return MPI_SUCCESS;
}

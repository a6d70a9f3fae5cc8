/* MPI test: generalized requests (MPI-3.1 12.2) on one rank.
 * MPI_Grequest_start/complete with the Wait/Test family,
 * MPI_Request_get_status, MPI_Cancel and MPI_Request_free: query_fn fills
 * the status (MPI_Status_set_elements(_x), MPI_Status_set_cancelled) each
 * time a call completes or looks at the request, free_fn runs exactly once
 * (at the completing call, or at whichever of MPI_Request_free and
 * MPI_Grequest_complete comes last), cancel_fn learns whether the request
 * is complete, and the callbacks' errors come back: as the call's code for
 * one request, as MPI_ERR_IN_STATUS with each status' own for several.
 * One request is completed by another thread while the main one waits. */
#include <mpi.h>
#include <pthread.h>
#include <stdatomic.h>

#include "mtest.h"

struct gr {
    int queries, frees, cancels, cancel_complete; /* the callbacks' calls */
    int query_err, free_err;                      /* what they return */
    int source, tag, count;                       /* what query_fn reports (count MPI_INTs) */
    int cancelled;                                /* set by cancel_fn, reported by query_fn */
};

static int query_fn(void *extra, MPI_Status *st)
{
    struct gr *g = extra;
    g->queries++;
    st->MPI_SOURCE = g->source;
    st->MPI_TAG = g->tag;
    MPI_Status_set_elements(st, MPI_INT, g->count);
    MPI_Status_set_cancelled(st, g->cancelled);
    return g->query_err;
}

static int free_fn(void *extra)
{
    struct gr *g = extra;
    g->frees++;
    return g->free_err;
}

static int cancel_fn(void *extra, int complete)
{
    struct gr *g = extra;
    g->cancels++;
    g->cancel_complete = complete;
    if (!complete)
        g->cancelled = 1;
    return MPI_SUCCESS;
}

static void init(struct gr *g, int source, int tag, int count)
{
    *g = (struct gr){.source = source, .tag = tag, .count = count};
}

static MPI_Request start(struct gr *g)
{
    MPI_Request r = MPI_REQUEST_NULL;
    int rc = MPI_Grequest_start(query_fn, free_fn, cancel_fn, g, &r);
    if (rc != MPI_SUCCESS || r == MPI_REQUEST_NULL)
        mt_ok(0, "MPI_Grequest_start returned %d", rc);
    return r;
}

static _Atomic int go;

static void *completer(void *arg)
{
    while (!atomic_load(&go)) /* until the main thread is about to wait */
        ;
    MPI_Grequest_complete(*(MPI_Request *)arg);
    return NULL;
}

static void check_status(const MPI_Status *st, int source, int tag, int count, const char *what)
{
    int n = -1, c = -1;
    MPI_Count x = -1;
    mt_is_int(st->MPI_SOURCE, source, "%s: MPI_SOURCE from query_fn", what);
    mt_is_int(st->MPI_TAG, tag, "%s: MPI_TAG from query_fn", what);
    MPI_Get_count(st, MPI_INT, &n);
    mt_is_int(n, count, "%s: MPI_Get_count(MPI_INT) from MPI_Status_set_elements", what);
    MPI_Get_elements_x(st, MPI_INT, &x);
    mt_is_int(x, count, "%s: MPI_Get_elements_x(MPI_INT)", what);
    MPI_Test_cancelled(st, &c);
    mt_is_int(c, 0, "%s: not cancelled", what);
}

int main(int argc, char **argv)
{
    int provided = -1, rc, flag, idx, n;
    struct gr g[4];
    MPI_Request r[4];
    MPI_Status st, sts[4];

    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &mt_rank);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    mt_is_int(provided, MPI_THREAD_MULTIPLE, "MPI_THREAD_MULTIPLE provided");

    /* 1. completed by another thread while MPI_Wait waits */
    init(&g[0], 3, 77, 5);
    r[0] = start(&g[0]);
    pthread_t t;
    pthread_create(&t, NULL, completer, &r[0]);
    atomic_store(&go, 1);
    rc = MPI_Wait(&r[0], &st);
    pthread_join(t, NULL);
    mt_is_int(rc, MPI_SUCCESS, "thread: MPI_Wait returns MPI_SUCCESS");
    mt_ok(r[0] == MPI_REQUEST_NULL, "thread: MPI_Wait sets the request to MPI_REQUEST_NULL");
    check_status(&st, 3, 77, 5, "thread");
    mt_is_int(g[0].queries, 1, "thread: query_fn called once");
    mt_is_int(g[0].frees, 1, "thread: free_fn called once");
    mt_is_int(g[0].cancels, 0, "thread: cancel_fn not called");

    /* 2. Test and Request_get_status before and after MPI_Grequest_complete */
    init(&g[0], 1, 5, 0);
    r[0] = start(&g[0]);
    flag = -1;
    rc = MPI_Test(&r[0], &flag, &st);
    mt_ok(rc == MPI_SUCCESS && flag == 0, "main: MPI_Test before complete: flag 0 (rc %d flag %d)", rc, flag);
    flag = -1;
    rc = MPI_Request_get_status(r[0], &flag, &st);
    mt_ok(rc == MPI_SUCCESS && flag == 0, "main: Request_get_status before complete: flag 0");
    mt_is_int(g[0].queries, 0, "main: no query_fn before complete");
    MPI_Grequest_complete(r[0]);
    flag = 0;
    st.MPI_SOURCE = st.MPI_TAG = -9;
    rc = MPI_Request_get_status(r[0], &flag, &st);
    mt_ok(rc == MPI_SUCCESS && flag == 1, "main: Request_get_status after complete: flag 1");
    check_status(&st, 1, 5, 0, "main get_status");
    mt_is_int(g[0].queries, 1, "main: Request_get_status called query_fn");
    mt_is_int(g[0].frees, 0, "main: Request_get_status did not call free_fn");
    mt_ok(r[0] != MPI_REQUEST_NULL, "main: Request_get_status leaves the request");
    g[0].tag = 6; /* query_fn is asked again by the completing call */
    flag = 0;
    rc = MPI_Test(&r[0], &flag, &st);
    mt_ok(rc == MPI_SUCCESS && flag == 1, "main: MPI_Test after complete: flag 1");
    check_status(&st, 1, 6, 0, "main test");
    mt_is_int(g[0].queries, 2, "main: MPI_Test called query_fn again");
    mt_is_int(g[0].frees, 1, "main: MPI_Test called free_fn");
    mt_ok(r[0] == MPI_REQUEST_NULL, "main: MPI_Test freed the request");

    /* 3. MPI_Cancel before and after complete */
    init(&g[0], 0, 1, 2);
    r[0] = start(&g[0]);
    rc = MPI_Cancel(&r[0]);
    mt_is_int(rc, MPI_SUCCESS, "cancel: MPI_Cancel returns MPI_SUCCESS");
    mt_is_int(g[0].cancels, 1, "cancel: cancel_fn called once");
    mt_is_int(g[0].cancel_complete, 0, "cancel: cancel_fn(complete = false) before complete");
    MPI_Grequest_complete(r[0]);
    rc = MPI_Wait(&r[0], &st);
    mt_is_int(rc, MPI_SUCCESS, "cancel: MPI_Wait returns MPI_SUCCESS");
    flag = -1;
    MPI_Test_cancelled(&st, &flag);
    mt_is_int(flag, 1, "cancel: MPI_Status_set_cancelled in query_fn shows in MPI_Test_cancelled");
    mt_is_int(g[0].frees, 1, "cancel: free_fn called once");
    init(&g[0], 0, 1, 2);
    r[0] = start(&g[0]);
    MPI_Grequest_complete(r[0]);
    MPI_Cancel(&r[0]);
    mt_is_int(g[0].cancel_complete, 1, "cancel: cancel_fn(complete = true) after complete");
    MPI_Wait(&r[0], &st);
    MPI_Test_cancelled(&st, &flag);
    mt_is_int(flag, 0, "cancel: too late to cancel: not cancelled");

    /* 4. MPI_Request_free before and after complete */
    init(&g[0], 0, 0, 0);
    r[0] = start(&g[0]);
    MPI_Request copy = r[0];
    rc = MPI_Request_free(&r[0]);
    mt_ok(rc == MPI_SUCCESS && r[0] == MPI_REQUEST_NULL, "free: MPI_Request_free before complete");
    mt_is_int(g[0].frees, 0, "free: free_fn waits for MPI_Grequest_complete");
    rc = MPI_Grequest_complete(copy);
    mt_is_int(rc, MPI_SUCCESS, "free: MPI_Grequest_complete through the user's copy");
    mt_is_int(g[0].frees, 1, "free: free_fn called by MPI_Grequest_complete");
    mt_is_int(g[0].queries, 0, "free: query_fn never called");
    init(&g[0], 0, 0, 0);
    r[0] = start(&g[0]);
    MPI_Grequest_complete(r[0]);
    mt_is_int(g[0].frees, 0, "free: no free_fn at complete while the request is alive");
    rc = MPI_Request_free(&r[0]);
    mt_is_int(g[0].frees, 1, "free: free_fn called by MPI_Request_free after complete");
    mt_is_int(g[0].queries, 0, "free: query_fn not called by MPI_Request_free");

    /* 5. Waitall: query_fn's error in its status, MPI_ERR_IN_STATUS */
    for (int i = 0; i < 3; i++) {
        init(&g[i], i, 10 + i, i + 1);
        r[i] = start(&g[i]);
    }
    g[1].query_err = MPI_ERR_OTHER;
    for (int i = 2; i >= 0; i--)
        MPI_Grequest_complete(r[i]);
    for (int i = 0; i < 3; i++)
        sts[i].MPI_ERROR = -1;
    rc = MPI_Waitall(3, r, sts);
    mt_is_int(rc, MPI_ERR_IN_STATUS, "waitall: MPI_ERR_IN_STATUS");
    mt_is_int(sts[0].MPI_ERROR, MPI_SUCCESS, "waitall: status 0 MPI_SUCCESS");
    mt_is_int(sts[1].MPI_ERROR, MPI_ERR_OTHER, "waitall: status 1 has query_fn's MPI_ERR_OTHER");
    mt_is_int(sts[2].MPI_ERROR, MPI_SUCCESS, "waitall: status 2 MPI_SUCCESS");
    for (int i = 0; i < 3; i++) {
        mt_ok(r[i] == MPI_REQUEST_NULL, "waitall: request %d freed", i);
        mt_is_int(g[i].frees, 1, "waitall: free_fn %d called once", i);
        mt_is_int(sts[i].MPI_TAG, 10 + i, "waitall: status %d's tag", i);
    }
    n = -1;
    MPI_Get_count(&sts[2], MPI_INT, &n);
    mt_is_int(n, 3, "waitall: status 2's count");

    /* 6. Waitany: free_fn's error when query_fn succeeds; Wait: query_fn's */
    init(&g[0], 0, 0, 0);
    init(&g[1], 4, 44, 1);
    g[1].free_err = MPI_ERR_INTERN;
    r[0] = start(&g[0]);
    r[1] = start(&g[1]);
    MPI_Grequest_complete(r[1]);
    idx = -1;
    rc = MPI_Waitany(2, r, &idx, &st);
    mt_is_int(rc, MPI_ERR_INTERN, "waitany: free_fn's MPI_ERR_INTERN returned");
    mt_is_int(idx, 1, "waitany: index 1");
    mt_is_int(st.MPI_TAG, 44, "waitany: status from query_fn");
    mt_is_int(g[1].frees, 1, "waitany: free_fn called once");
    mt_ok(r[1] == MPI_REQUEST_NULL && r[0] != MPI_REQUEST_NULL, "waitany: only request 1 freed");
    g[0].query_err = MPI_ERR_ARG;
    MPI_Grequest_complete(r[0]);
    rc = MPI_Wait(&r[0], &st);
    mt_is_int(rc, MPI_ERR_ARG, "wait: query_fn's MPI_ERR_ARG returned");
    mt_is_int(g[0].frees, 1, "wait: free_fn called after a failed query_fn");

    /* 7. Testsome and Testall */
    for (int i = 0; i < 3; i++) {
        init(&g[i], 0, 20 + i, 0);
        r[i] = start(&g[i]);
    }
    MPI_Grequest_complete(r[2]);
    int ind[3] = {-1, -1, -1};
    n = -1;
    rc = MPI_Testsome(3, r, &n, ind, sts);
    mt_ok(rc == MPI_SUCCESS && n == 1 && ind[0] == 2, "testsome: request 2 alone (rc %d n %d ind %d)", rc, n,
          ind[0]);
    mt_is_int(sts[0].MPI_TAG, 22, "testsome: its status");
    flag = -1;
    rc = MPI_Testall(3, r, &flag, sts);
    mt_ok(rc == MPI_SUCCESS && flag == 0, "testall: not all complete");
    mt_ok(g[0].queries == 0 && g[1].queries == 0, "testall: no query_fn for incomplete requests");
    MPI_Grequest_complete(r[0]);
    MPI_Grequest_complete(r[1]);
    rc = MPI_Testall(3, r, &flag, sts);
    mt_ok(rc == MPI_SUCCESS && flag == 1, "testall: all complete");
    mt_ok(sts[0].MPI_TAG == 20 && sts[1].MPI_TAG == 21 && sts[2].MPI_SOURCE == MPI_ANY_SOURCE,
          "testall: statuses (the null request's empty)");
    mt_ok(g[0].frees == 1 && g[1].frees == 1 && g[2].frees == 1, "testall/testsome: free_fn once each");

    /* 8. bad use */
    MPI_Request bad = MPI_REQUEST_NULL;
    rc = MPI_Grequest_start(NULL, free_fn, cancel_fn, NULL, &bad);
    mt_is_int(rc, MPI_ERR_ARG, "MPI_Grequest_start without query_fn: MPI_ERR_ARG");
    init(&g[0], 0, 0, 0);
    r[0] = start(&g[0]);
    MPI_Grequest_complete(r[0]);
    rc = MPI_Grequest_complete(r[0]);
    mt_is_int(rc, MPI_ERR_REQUEST, "MPI_Grequest_complete twice: MPI_ERR_REQUEST");
    MPI_Wait(&r[0], MPI_STATUS_IGNORE);
    mt_is_int(g[0].frees, 1, "MPI_STATUS_IGNORE: free_fn called once");
    mt_is_int(g[0].queries, 1, "MPI_STATUS_IGNORE: query_fn still called");
    MPI_Irecv(NULL, 0, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD, &r[0]);
    rc = MPI_Grequest_complete(r[0]);
    mt_is_int(rc, MPI_ERR_REQUEST, "MPI_Grequest_complete on a receive: MPI_ERR_REQUEST");
    MPI_Wait(&r[0], MPI_STATUS_IGNORE);
    MPI_Status s2;
    rc = MPI_Status_set_cancelled(&s2, 1);
    flag = 0;
    MPI_Test_cancelled(&s2, &flag);
    mt_ok(rc == MPI_SUCCESS && flag == 1, "MPI_Status_set_cancelled(1)");
    MPI_Status_set_cancelled(&s2, 0);
    MPI_Test_cancelled(&s2, &flag);
    mt_is_int(flag, 0, "MPI_Status_set_cancelled(0)");
    rc = PMPI_Status_set_cancelled(NULL, 1);
    mt_is_int(rc, MPI_ERR_ARG, "PMPI_Status_set_cancelled(NULL): MPI_ERR_ARG");

    /* MPI 4.1's accessors of the public fields: set, then read back, and
     * what a receive leaves there */
    int v = -9;
    mt_ok(MPI_Status_set_source(&s2, 3) == MPI_SUCCESS && MPI_Status_set_tag(&s2, 77) == MPI_SUCCESS &&
              MPI_Status_set_error(&s2, MPI_ERR_TAG) == MPI_SUCCESS,
          "MPI_Status_set_source/tag/error");
    mt_ok(s2.MPI_SOURCE == 3 && s2.MPI_TAG == 77 && s2.MPI_ERROR == MPI_ERR_TAG, "they set the fields");
    MPI_Status_get_source(&s2, &v);
    mt_is_int(v, 3, "MPI_Status_get_source");
    MPI_Status_get_tag(&s2, &v);
    mt_is_int(v, 77, "MPI_Status_get_tag");
    MPI_Status_get_error(&s2, &v);
    mt_is_int(v, MPI_ERR_TAG, "MPI_Status_get_error");
    int me, sz, x = 5, y = -1;
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &sz);
    MPI_Sendrecv(&x, 1, MPI_INT, me, 31, &y, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &s2);
    int src = -1, tag = -1;
    MPI_Status_get_source(&s2, &src);
    MPI_Status_get_tag(&s2, &tag);
    mt_ok(src == me && tag == 31, "after a receive from oneself: source %d, tag %d", src, tag);
    mt_is_int(MPI_Status_get_source(NULL, &v), MPI_ERR_ARG, "MPI_Status_get_source(NULL): MPI_ERR_ARG");
    mt_is_int(MPI_Status_get_tag(&s2, NULL), MPI_ERR_ARG, "MPI_Status_get_tag(status, NULL): MPI_ERR_ARG");
    mt_is_int(MPI_Status_set_error(MPI_STATUS_IGNORE, 0), MPI_ERR_ARG, "MPI_Status_set_error(MPI_STATUS_IGNORE): MPI_ERR_ARG");

    MPI_Finalize();
    return mt_done();
}

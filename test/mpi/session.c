/* MPI test: sessions (MPI 4.0 11.3; runtime/api/session.c), in a program
 * that starts without MPI_Init.
 *   - MPI_Session_create_errhandler before any session; MPI_Initialized
 *     stays false under sessions
 *   - the process sets: their number, names (asked size, truncated), info
 *     (mpi_size); their groups
 *   - MPI_Comm_create_from_group of mpi://WORLD (an Allreduce on it, its
 *     error handler), of the even and the odd ranks at once, and
 *     MPI_Intercomm_create_from_groups between those two (a message across)
 *   - MPI 4.1's session buffer: buffered sends on the session's
 *     communicators (and a dup) through it; flush, iflush, detach
 *   - the thread level asked for in the info, and MPI_Session_get_info
 *   - errors under MPI_ERRORS_RETURN: an unknown process set, a bad thread
 *     level, a group without the caller, an errhandler of the wrong kind;
 *     a user handler called by MPI_Session_call_errhandler
 *   - two sessions at once; a new session after the last was finalized;
 *     then MPI_Init and MPI_Finalize, after which a session cannot start;
 *     or ("only") the program returns there, the library going down at
 *     its exit (a child forked then exits without touching it) */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "mtest.h"

static int rank, size, handler_calls, handler_code;
static MPI_Session handler_session;

static void on_error(MPI_Session *s, int *code, ...)
{
    handler_calls++;
    handler_code = *code;
    handler_session = *s;
}

static int cls(int err)
{
    int c = err;
    if (err != MPI_SUCCESS)
        MPI_Error_class(err, &c);
    return c;
}

/* The communicator of the process set's group, by string tag. */
static MPI_Comm comm_of(MPI_Session s, const char *pset, const char *tag)
{
    MPI_Group g;
    MPI_Comm c;
    MPI_Group_from_session_pset(s, pset, &g);
    MPI_Comm_create_from_group(g, tag, MPI_INFO_NULL, MPI_ERRORS_RETURN, &c);
    MPI_Group_free(&g);
    return c;
}

static void psets(MPI_Session s)
{
    int n = -1, len = 0;
    char name[MPI_MAX_PSET_NAME_LEN], small[5];
    MPI_Session_get_num_psets(s, MPI_INFO_NULL, &n);
    mt_is_int(n, 2, "two process sets");
    MPI_Session_get_nth_pset(s, MPI_INFO_NULL, 0, &len, NULL);
    mt_is_int(len, 12, "the first one's name takes 12 bytes (asked with pset_len 0)");
    len = sizeof name;
    MPI_Session_get_nth_pset(s, MPI_INFO_NULL, 0, &len, name);
    mt_ok(strcmp(name, "mpi://WORLD") == 0 && len == 12, "process set 0 is mpi://WORLD");
    len = sizeof small;
    MPI_Session_get_nth_pset(s, MPI_INFO_NULL, 1, &len, small);
    mt_ok(strcmp(small, "mpi:") == 0 && len == 11, "process set 1 truncated to 5 bytes: \"mpi:\", needs 11");
    MPI_Info info;
    char v[32];
    int flag = 0, vlen = sizeof v;
    MPI_Session_get_pset_info(s, "mpi://world", &info);
    MPI_Info_get_string(info, "mpi_size", &vlen, v, &flag);
    mt_ok(flag && atoi(v) == size, "mpi://world (any case): mpi_size %d", size);
    MPI_Info_free(&info);
    MPI_Session_get_pset_info(s, "mpi://SELF", &info);
    vlen = sizeof v;
    MPI_Info_get_string(info, "mpi_size", &vlen, v, &flag);
    mt_ok(flag && strcmp(v, "1") == 0, "mpi://SELF: mpi_size 1");
    MPI_Info_free(&info);

    MPI_Group g;
    int gs = -1, gr = -1;
    MPI_Group_from_session_pset(s, "mpi://SELF", &g);
    MPI_Group_size(g, &gs);
    MPI_Group_rank(g, &gr);
    mt_ok(gs == 1 && gr == 0, "the group of mpi://SELF: this process alone");
    MPI_Group_free(&g);
}

static void comms(MPI_Session s)
{
    MPI_Comm c = comm_of(s, "mpi://WORLD", "org.rdmpi.test.world");
    int r = -1, n = -1, sum = -1;
    MPI_Comm_rank(c, &r);
    MPI_Comm_size(c, &n);
    mt_ok(r == rank && n == size, "the communicator of mpi://WORLD: rank %d of %d", rank, size);
    MPI_Allreduce(&r, &sum, 1, MPI_INT, MPI_SUM, c);
    mt_is_int(sum, size * (size - 1) / 2, "an Allreduce over it");
    MPI_Errhandler eh;
    MPI_Comm_get_errhandler(c, &eh);
    mt_ok(eh == MPI_ERRORS_RETURN, "its error handler is the one given (MPI_ERRORS_RETURN)");
    MPI_Errhandler_free(&eh);

    /* MPI 4.1: the session's buffer serves the buffered sends of the
     * communicators derived from it (a dup too); none is attached to the
     * process */
    static char sbuf[4096];
    int right = (rank + 1) % size, left = (rank + size - 1) % size, x = rank + 100, y = -1, bad = 0;
    MPI_Comm d;
    MPI_Comm_dup(c, &d);
    mt_is_int(cls(MPI_Bsend(&x, 1, MPI_INT, right, 1, d)), MPI_ERR_BUFFER,
              "MPI_Bsend with no buffer attached anywhere: MPI_ERR_BUFFER");
    MPI_Session_attach_buffer(s, sbuf, sizeof sbuf);
    mt_is_int(cls(MPI_Session_attach_buffer(s, sbuf, sizeof sbuf)), MPI_ERR_BUFFER,
              "a second MPI_Session_attach_buffer: MPI_ERR_BUFFER");
    for (int i = 0; i < 3; i++) {
        x = rank + 100 * i;
        MPI_Bsend(&x, 1, MPI_INT, right, 2, i % 2 ? d : c);
        MPI_Recv(&y, 1, MPI_INT, left, 2, i % 2 ? d : c, MPI_STATUS_IGNORE);
        bad += y != left + 100 * i;
    }
    mt_is_int(bad, 0, "MPI_Bsend through the session's buffer, on its communicator and a dup");
    MPI_Bsend(&x, 1, MPI_INT, right, 3, c);
    MPI_Session_flush_buffer(s);
    MPI_Recv(&y, 1, MPI_INT, left, 3, c, MPI_STATUS_IGNORE);
    MPI_Request fr;
    MPI_Bsend(&x, 1, MPI_INT, right, 4, d);
    MPI_Session_iflush_buffer(s, &fr);
    MPI_Recv(&y, 1, MPI_INT, left, 4, d, MPI_STATUS_IGNORE);
    MPI_Wait(&fr, MPI_STATUS_IGNORE);
    void *back = NULL;
    int bsize = -1;
    MPI_Session_detach_buffer(s, &back, &bsize);
    mt_ok(y == left + 200 && back == sbuf && bsize == (int)sizeof sbuf,
          "MPI_Session_flush_buffer, _iflush_buffer; MPI_Session_detach_buffer gives the buffer back");
    mt_is_int(cls(MPI_Session_detach_buffer(s, &back, &bsize)), MPI_ERR_BUFFER,
              "MPI_Session_detach_buffer with none attached: MPI_ERR_BUFFER");
    MPI_Comm_free(&d);

    /* the even and the odd ranks, each their own communicator at once */
    MPI_Group wg, half, other;
    MPI_Comm_group(c, &wg);
    int nhalf = (size + 1 - rank % 2) / 2, nother = size - nhalf, *list = malloc(sizeof(int) * (size_t)size);
    for (int i = 0; i < nhalf; i++)
        list[i] = rank % 2 + 2 * i;
    MPI_Group_incl(wg, nhalf, list, &half);
    for (int i = 0; i < nother; i++)
        list[i] = 1 - rank % 2 + 2 * i;
    MPI_Group_incl(wg, nother, list, &other);
    free(list);
    MPI_Comm hc;
    MPI_Comm_create_from_group(half, rank % 2 ? "odd" : "even", MPI_INFO_NULL, MPI_ERRORS_RETURN, &hc);
    int hr = -1, hn = -1;
    MPI_Comm_rank(hc, &hr);
    MPI_Comm_size(hc, &hn);
    sum = -1;
    MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, hc);
    int want = 0;
    for (int i = rank % 2; i < size; i += 2)
        want += i;
    mt_ok(hr == rank / 2 && hn == nhalf && sum == want, "the %s ranks' communicator: rank %d of %d, sum %d",
          rank % 2 ? "odd" : "even", rank / 2, nhalf, want);
    MPI_Comm_free(&hc);

    if (size >= 2) {
        MPI_Comm ic;
        int rc = MPI_Intercomm_create_from_groups(half, 0, other, 0, "org.rdmpi.test.inter", MPI_INFO_NULL,
                                                  MPI_ERRORS_RETURN, &ic);
        int rs = -1, flag = 0, got = -1;
        MPI_Comm_remote_size(ic, &rs);
        MPI_Comm_test_inter(ic, &flag);
        /* the rank 0 of each side sends its world rank to the other's */
        if (rank / 2 == 0)
            MPI_Sendrecv(&rank, 1, MPI_INT, 0, 5, &got, 1, MPI_INT, 0, 5, ic, MPI_STATUS_IGNORE);
        mt_ok(rc == MPI_SUCCESS && flag && rs == nother && (rank / 2 != 0 || got == 1 - rank % 2),
              "MPI_Intercomm_create_from_groups of the even and odd ranks: remote size %d, a message across",
              nother);
        MPI_Comm_free(&ic);
    }

    /* a group without this process */
    if (size >= 2) {
        MPI_Comm none;
        mt_is_int(cls(MPI_Comm_create_from_group(other, "x", MPI_INFO_NULL, MPI_ERRORS_RETURN, &none)), MPI_ERR_GROUP,
                  "MPI_Comm_create_from_group of a group without the caller: MPI_ERR_GROUP");
    }
    MPI_Group_free(&half);
    MPI_Group_free(&other);
    MPI_Group_free(&wg);
    MPI_Comm_free(&c);
}

static void errors(MPI_Session s, MPI_Errhandler user)
{
    MPI_Group g;
    mt_is_int(cls(MPI_Group_from_session_pset(s, "mpi://NOWHERE", &g)), MPI_ERR_ARG,
              "an unknown process set: MPI_ERR_ARG through the session's handler (MPI_ERRORS_RETURN)");
    int n = 0;
    mt_is_int(cls(MPI_Session_get_nth_pset(s, MPI_INFO_NULL, 2, &n, NULL)), MPI_ERR_ARG,
              "process set 2 of 2: MPI_ERR_ARG");
    MPI_Info info;
    MPI_Info_create(&info);
    MPI_Info_set(info, "thread_level", "MPI_THREAD_SOMETIMES");
    MPI_Session t;
    mt_is_int(cls(MPI_Session_init(info, MPI_ERRORS_RETURN, &t)), MPI_ERR_INFO_VALUE,
              "MPI_Session_init with thread_level MPI_THREAD_SOMETIMES: MPI_ERR_INFO_VALUE");
    MPI_Info_free(&info);
    MPI_Errhandler ce;
    MPI_Comm_create_errhandler((MPI_Comm_errhandler_function *)on_error, &ce);
    mt_is_int(cls(MPI_Session_set_errhandler(s, ce)), MPI_ERR_ERRHANDLER,
              "MPI_Session_set_errhandler of a communicator's handler: MPI_ERR_ERRHANDLER");
    MPI_Errhandler_free(&ce);

    MPI_Session_set_errhandler(s, user);
    MPI_Errhandler got;
    MPI_Session_get_errhandler(s, &got);
    mt_ok(got == user, "MPI_Session_get_errhandler gives the handler set");
    MPI_Errhandler_free(&got);
    handler_calls = 0;
    int rc = MPI_Session_call_errhandler(s, MPI_ERR_OTHER);
    mt_ok(rc == MPI_SUCCESS && handler_calls == 1 && handler_code == MPI_ERR_OTHER && handler_session == s,
          "MPI_Session_call_errhandler: the user's handler called once with the session and the code");
    rc = MPI_Group_from_session_pset(s, "nowhere", &g);
    mt_ok(cls(rc) == MPI_ERR_ARG && handler_calls == 2 && handler_code == MPI_ERR_ARG,
          "an unknown process set under the user's handler: called, MPI_ERR_ARG returned");
    MPI_Session_set_errhandler(s, MPI_ERRORS_RETURN);
}

int main(int argc, char **argv)
{
    int flag = 1;
    MPI_Errhandler user;
    MPI_Session_create_errhandler(on_error, &user);
    MPI_Initialized(&flag);
    int before = flag;

    MPI_Info info;
    MPI_Info_create(&info);
    MPI_Info_set(info, "thread_level", "MPI_THREAD_MULTIPLE");
    MPI_Session s;
    int rc = MPI_Session_init(info, MPI_ERRORS_RETURN, &s);
    MPI_Info_free(&info);

    /* this process's rank, from the world's group */
    MPI_Group g;
    MPI_Group_from_session_pset(s, "mpi://WORLD", &g);
    MPI_Group_rank(g, &rank);
    MPI_Group_size(g, &size);
    MPI_Group_free(&g);
    mt_rank = rank;
    mt_ok(rc == MPI_SUCCESS && s != MPI_SESSION_NULL, "MPI_Session_init");
    mt_ok(before == 0, "MPI_Initialized before anything: false");
    MPI_Initialized(&flag);
    mt_ok(flag == 0, "MPI_Initialized under a session: false");
    MPI_Session_get_info(s, &info);
    char v[64];
    int vlen = sizeof v;
    MPI_Info_get_string(info, "thread_level", &vlen, v, &flag);
    mt_ok(flag && strcmp(v, "MPI_THREAD_MULTIPLE") == 0, "MPI_Session_get_info: thread_level MPI_THREAD_MULTIPLE");
    MPI_Info_free(&info);

    psets(s);
    comms(s);
    errors(s, user);

    /* a second session alongside, then both finalized */
    MPI_Session s2;
    MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &s2);
    MPI_Comm c2 = comm_of(s2, "mpi://WORLD", "second");
    int sum = -1;
    MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, c2);
    mt_is_int(sum, size * (size - 1) / 2, "a second session's communicator alongside the first");
    MPI_Comm_free(&c2);
    MPI_Session_finalize(&s2);
    mt_ok(s2 == MPI_SESSION_NULL, "MPI_Session_finalize sets MPI_SESSION_NULL");
    MPI_Session_finalize(&s);

    /* after the last one: a new session works */
    rc = MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &s);
    MPI_Comm c = comm_of(s, "mpi://WORLD", "again");
    sum = -1;
    MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, c);
    mt_ok(rc == MPI_SUCCESS && sum == size * (size - 1) / 2, "a new session after the last was finalized");
    MPI_Comm_free(&c);
    MPI_Session_finalize(&s);
    if (argc > 1 && strcmp(argv[1], "only") == 0) { /* the library goes down at exit */
        /* a child forked now exits through exit(): the library's exit
         * handler, inherited, must leave it alone (the parent's job is
         * not the child's to end) */
        fflush(stdout);
        pid_t pid = fork();
        if (pid == 0)
            exit(7);
        int wst = 0;
        waitpid(pid, &wst, 0);
        mt_ok(pid > 0 && WIFEXITED(wst) && WEXITSTATUS(wst) == 7,
              "a child forked after the last session exits by exit() at once, with its own status");
        MPI_Errhandler_free(&user);
        printf("done [rank %d] %d checks, %d failed\n", rank, mt_checks, mt_failed);
        return mt_failed != 0;
    }

    /* then the World Model */
    MPI_Init(NULL, NULL);
    MPI_Initialized(&flag);
    mt_ok(flag == 1, "MPI_Init after the sessions: MPI_Initialized true");
    sum = -1;
    MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    mt_is_int(sum, size * (size - 1) / 2, "an Allreduce on MPI_COMM_WORLD");
    MPI_Errhandler_free(&user);
    MPI_Barrier(MPI_COMM_WORLD);
    printf("done [rank %d] %d checks, %d failed\n", rank, mt_checks + 1, mt_failed);
    MPI_Finalize();
    rc = MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &s);
    /* (after the "done" line: the count above includes this check) */
    mt_is_int(rc, MPI_ERR_OTHER, "MPI_Session_init after MPI_Finalize: MPI_ERR_OTHER");
    return mt_failed != 0;
}

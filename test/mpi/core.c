/* MPI test: the core API on every rank (init, ranks, versions, time,
 * error handlers and error reporting). Usage: core EXPECTED_SIZE */
#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>

#include "test/mpi/mtest.h"

static int handler_calls, handler_code;
static MPI_Comm handler_comm;

static void count_errors(MPI_Comm *comm, int *code, ...)
{
    handler_calls++;
    handler_code = *code;
    handler_comm = *comm;
}

static void *thread_main_check(void *arg)
{
    int *flag = arg;
    MPI_Is_thread_main(flag);
    return NULL;
}

int main(int argc, char **argv)
{
    int size = -1, rank = -1, flag = -1, provided = -1, len = -1, cls = -1;
    int expected = argc > 1 ? atoi(argv[1]) : 1;
    char name[MPI_MAX_PROCESSOR_NAME], host[256], s[MPI_MAX_ERROR_STRING], want[160];
    MPI_Errhandler eh = MPI_ERRHANDLER_NULL;

    if (MPI_Init(&argc, &argv) != MPI_SUCCESS)
        return 2;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    mt_rank = rank;
    mt_is_int(MPI_Comm_size(MPI_COMM_WORLD, &size), MPI_SUCCESS, "MPI_Comm_size succeeds");
    mt_is_int(size, expected, "world size");
    mt_ok(rank >= 0 && rank < size, "rank %d is in [0, %d)", rank, size);
    MPI_Comm_size(MPI_COMM_SELF, &size);
    mt_is_int(size, 1, "self size");
    MPI_Comm_rank(MPI_COMM_SELF, &flag);
    mt_is_int(flag, 0, "self rank");

    MPI_Initialized(&flag);
    mt_is_int(flag, 1, "MPI_Initialized after init");
    MPI_Finalized(&flag);
    mt_is_int(flag, 0, "MPI_Finalized before finalize");
    MPI_Query_thread(&provided);
    mt_is_int(provided, MPI_THREAD_SINGLE, "MPI_Init provides MPI_THREAD_SINGLE");
    MPI_Is_thread_main(&flag);
    mt_is_int(flag, 1, "the main thread is the thread main");
    pthread_t th;
    flag = -1;
    pthread_create(&th, NULL, thread_main_check, &flag);
    pthread_join(th, NULL);
    mt_is_int(flag, 0, "another thread is not the thread main");

    MPI_Get_processor_name(name, &len);
    gethostname(host, sizeof(host));
    mt_ok(strcmp(name, host) == 0 && len == (int)strlen(host), "processor name is the host name");

    /* error handlers: fatal by default, then return, then a user one */
    MPI_Comm_get_errhandler(MPI_COMM_WORLD, &eh);
    mt_ok(eh == MPI_ERRORS_ARE_FATAL, "default error handler of world is MPI_ERRORS_ARE_FATAL");
    MPI_Errhandler_free(&eh);
    mt_ok(eh == MPI_ERRHANDLER_NULL, "MPI_Errhandler_free sets the handle to NULL");
    mt_is_int(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN), MPI_SUCCESS,
              "set MPI_ERRORS_RETURN on world");
    mt_is_int(MPI_Comm_rank(MPI_COMM_NULL, &flag), MPI_ERR_COMM, "rank of MPI_COMM_NULL: MPI_ERR_COMM");
    MPI_Error_string(MPI_ERR_COMM, s, &len);
    snprintf(want, sizeof(want),
             "MPI_ERR_COMM: invalid communicator (MPI_Comm_rank on rank %d: invalid communicator)", rank);
    mt_ok(strcmp(s, want) == 0, "error string names the call, the rank and the cause: '%s'", s);
    mt_is_int(MPI_Comm_size(MPI_COMM_WORLD, NULL), MPI_ERR_ARG, "size into NULL: MPI_ERR_ARG");
    MPI_Error_class(MPI_ERR_ARG, &cls);
    mt_is_int(cls, MPI_ERR_ARG, "class of MPI_ERR_ARG");
    mt_is_int(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRHANDLER_NULL), MPI_ERR_ARG,
              "set a NULL handler: MPI_ERR_ARG");
    mt_is_int(MPI_Init(&argc, &argv), MPI_ERR_OTHER, "a second MPI_Init: MPI_ERR_OTHER");
    mt_is_int(MPI_Error_string(12345, s, &len), MPI_ERR_ARG, "error string of a bad code: MPI_ERR_ARG");
    /* the handler is per communicator: self still has the fatal one */
    MPI_Comm_get_errhandler(MPI_COMM_SELF, &eh);
    mt_ok(eh == MPI_ERRORS_ARE_FATAL, "self keeps MPI_ERRORS_ARE_FATAL");
    MPI_Errhandler_free(&eh);
    mt_is_int(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN), MPI_SUCCESS,
              "set MPI_ERRORS_RETURN on self");
    mt_is_int(MPI_Comm_rank(MPI_COMM_SELF, NULL), MPI_ERR_ARG, "errors on self return too");
    MPI_Errhandler mine;
    mt_is_int(MPI_Comm_create_errhandler(count_errors, &mine), MPI_SUCCESS, "create a user handler");
    MPI_Errhandler saved = mine;
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, mine);
    MPI_Errhandler_free(&mine); /* world keeps its own reference */
    mt_is_int(MPI_Comm_rank(MPI_COMM_WORLD, NULL), MPI_ERR_ARG, "user handler: the call returns the class");
    mt_is_int(handler_calls, 1, "user handler called once");
    mt_is_int(handler_code, MPI_ERR_ARG, "user handler got MPI_ERR_ARG");
    mt_ok(handler_comm == MPI_COMM_WORLD, "user handler got the communicator");
    mt_is_int(MPI_Comm_call_errhandler(MPI_COMM_WORLD, MPI_ERR_TAG), MPI_SUCCESS, "MPI_Comm_call_errhandler");
    mt_is_int(handler_calls, 2, "handler called by MPI_Comm_call_errhandler");
    mt_is_int(handler_code, MPI_ERR_TAG, "with the code given");
    MPI_Comm_get_errhandler(MPI_COMM_WORLD, &eh);
    mt_ok(eh == saved, "get returns the user handler");
    MPI_Errhandler_free(&eh);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN); /* frees the last reference */

    double t0 = MPI_Wtime();
    usleep(2000);
    double t1 = MPI_Wtime();
    mt_ok(t1 - t0 >= 0.002 && t1 - t0 < 5.0, "MPI_Wtime measures a 2 ms sleep");
    mt_ok(MPI_Wtick() > 0 && MPI_Wtick() <= 1e-6, "MPI_Wtick");

    mt_is_int(MPI_Finalize(), MPI_SUCCESS, "MPI_Finalize");
    MPI_Finalized(&flag);
    mt_is_int(flag, 1, "MPI_Finalized after finalize");
    MPI_Initialized(&flag);
    mt_is_int(flag, 1, "MPI_Initialized stays true after finalize");
    return mt_done();
}

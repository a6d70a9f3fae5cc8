/* MPI test program: error classes, codes and strings added at run time
 * (MPI_Add_error_class/code/string, MPI 4.1's MPI_Remove_error_*), their
 * values, MPI_LASTUSEDCODE, MPI_Error_class/string on them, a handler
 * called with one, and every misuse (MPI_ERR_ARG, the program goes on).
 * Each rank adds its own (the calls are local). Usage: errcodes [fatal]:
 * fatal: rank 1 raises an added code with a string under
 * MPI_ERRORS_ARE_FATAL (the job ends, saying the string). */
#include <stdlib.h>
#include <unistd.h>

#include "test/mpi/mtest.h"

static int seen_code = -1, seen_class = -1;

static void handler(MPI_Comm *comm, int *code, ...)
{
    (void)comm;
    seen_code = *code;
    MPI_Error_class(*code, &seen_class);
}

static int lastused(void)
{
    int *v = NULL, flag = 0;
    MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_LASTUSEDCODE, &v, &flag);
    return flag && v ? *v : -1;
}

int main(int argc, char **argv)
{
    int rank, cls, len, rc;
    char s[MPI_MAX_ERROR_STRING];
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    mt_rank = rank;

    if (argc > 1 && !strcmp(argv[1], "fatal")) {
        int c, e;
        MPI_Add_error_class(&c);
        MPI_Add_error_code(c, &e);
        MPI_Add_error_string(e, "the reactor is too hot");
        if (rank == 1)
            MPI_Comm_call_errhandler(MPI_COMM_WORLD, e); /* ends the job */
        else
            sleep(60); /* ended by the launcher */
        MPI_Finalize();
        return 0;
    }

    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    mt_is_int(lastused(), MPI_ERR_LASTCODE, "MPI_LASTUSEDCODE starts at MPI_ERR_LASTCODE");

    /* a class, a code of it, a code of a predefined class */
    int c1 = -1, e1 = -1, e2 = -1;
    mt_is_int(MPI_Add_error_class(&c1), MPI_SUCCESS, "MPI_Add_error_class");
    mt_is_int(c1, MPI_ERR_LASTCODE + 1, "the first class is MPI_ERR_LASTCODE + 1");
    mt_is_int(lastused(), c1, "MPI_LASTUSEDCODE is the new class");
    mt_ok(MPI_Error_class(c1, &cls) == MPI_SUCCESS && cls == c1, "the class of a class is itself");
    len = -1;
    strcpy(s, "junk");
    mt_ok(MPI_Error_string(c1, s, &len) == MPI_SUCCESS && len == 0 && s[0] == 0,
          "a class without a string: the empty string");
    mt_is_int(MPI_Add_error_code(c1, &e1), MPI_SUCCESS, "MPI_Add_error_code of the new class");
    mt_is_int(e1, c1 + 1, "its value follows");
    mt_ok(MPI_Error_class(e1, &cls) == MPI_SUCCESS && cls == c1, "its class is the new class");
    mt_is_int(MPI_Add_error_code(MPI_ERR_IO, &e2), MPI_SUCCESS, "MPI_Add_error_code of MPI_ERR_IO");
    mt_ok(MPI_Error_class(e2, &cls) == MPI_SUCCESS && cls == MPI_ERR_IO, "its class is MPI_ERR_IO");
    mt_is_int(lastused(), e2, "MPI_LASTUSEDCODE is the last value added");

    /* strings */
    mt_is_int(MPI_Add_error_string(e1, "first words"), MPI_SUCCESS, "MPI_Add_error_string");
    mt_is_int(MPI_Add_error_string(e1, "the reactor is too hot"), MPI_SUCCESS, "again: replaces it");
    mt_ok(MPI_Error_string(e1, s, &len) == MPI_SUCCESS && !strcmp(s, "the reactor is too hot") &&
              len == (int)strlen("the reactor is too hot"),
          "MPI_Error_string gives the last string set (got '%s')", s);
    mt_is_int(MPI_Add_error_string(c1, "a class of our own"), MPI_SUCCESS, "a class gets a string too");
    MPI_Error_string(c1, s, &len);
    mt_ok(!strcmp(s, "a class of our own"), "and gives it back");
    char longs[MPI_MAX_ERROR_STRING + 8];
    memset(longs, 'x', sizeof longs - 1);
    longs[sizeof longs - 1] = 0;
    mt_is_int(MPI_Add_error_string(e2, longs), MPI_ERR_ARG, "a string longer than MPI_MAX_ERROR_STRING - 1: MPI_ERR_ARG");
    longs[MPI_MAX_ERROR_STRING - 1] = 0;
    mt_is_int(MPI_Add_error_string(e2, longs), MPI_SUCCESS, "one of MPI_MAX_ERROR_STRING - 1 characters fits");
    MPI_Error_string(e2, s, &len);
    mt_is_int(len, MPI_MAX_ERROR_STRING - 1, "and comes back whole");

    /* misuse: MPI_ERR_ARG, nothing changes */
    mt_is_int(MPI_Add_error_string(MPI_ERR_ARG, "mine"), MPI_ERR_ARG, "a predefined class's string cannot change");
    MPI_Error_string(MPI_ERR_ARG, s, &len);
    mt_ok(!strncmp(s, "MPI_ERR_ARG:", 12), "and did not");
    mt_is_int(MPI_Add_error_string(MPI_ERR_LASTCODE, "mine"), MPI_ERR_ARG, "nor MPI_ERR_LASTCODE's");
    mt_is_int(MPI_Add_error_string(e2 + 100, "mine"), MPI_ERR_ARG, "a value never added: MPI_ERR_ARG");
    mt_is_int(MPI_Add_error_code(e1, &cls), MPI_ERR_ARG, "MPI_Add_error_code of a code (not a class): MPI_ERR_ARG");
    mt_is_int(MPI_Add_error_code(-3, &cls), MPI_ERR_ARG, "of -3: MPI_ERR_ARG");
    mt_is_int(MPI_Add_error_code(MPI_ERR_LASTCODE, &cls), MPI_ERR_ARG, "of MPI_ERR_LASTCODE: MPI_ERR_ARG");
    mt_is_int(MPI_Add_error_class(NULL), MPI_ERR_ARG, "MPI_Add_error_class(NULL): MPI_ERR_ARG");
    mt_is_int(MPI_Add_error_string(e1, NULL), MPI_ERR_ARG, "a NULL string: MPI_ERR_ARG");
    mt_is_int(MPI_Error_class(e2 + 100, &cls), MPI_ERR_ARG, "MPI_Error_class of a value never added: MPI_ERR_ARG");
    mt_is_int(lastused(), e2, "MPI_LASTUSEDCODE unchanged by the failures");

    /* a handler gets the code; the call returns MPI_SUCCESS */
    MPI_Errhandler eh;
    MPI_Comm_create_errhandler(handler, &eh);
    MPI_Comm dup;
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    MPI_Comm_set_errhandler(dup, eh);
    mt_is_int(MPI_Comm_call_errhandler(dup, e1), MPI_SUCCESS, "MPI_Comm_call_errhandler with an added code");
    mt_is_int(seen_code, e1, "the handler got the code");
    mt_is_int(seen_class, c1, "and MPI_Error_class in it gave its class");
    MPI_Comm_free(&dup);
    MPI_Errhandler_free(&eh);

    /* removal, in the order the standard asks */
    mt_is_int(MPI_Remove_error_class(c1), MPI_ERR_ARG, "removing a class that still has a code: MPI_ERR_ARG");
    mt_is_int(MPI_Remove_error_code(e1), MPI_ERR_ARG, "removing a code that still has a string: MPI_ERR_ARG");
    mt_is_int(MPI_Remove_error_string(e1), MPI_SUCCESS, "MPI_Remove_error_string");
    mt_is_int(MPI_Remove_error_string(e1), MPI_ERR_ARG, "twice: MPI_ERR_ARG");
    MPI_Error_string(e1, s, &len);
    mt_ok(len == 0 && s[0] == 0, "the code's string is empty again");
    mt_is_int(MPI_Remove_error_code(c1), MPI_ERR_ARG, "MPI_Remove_error_code of a class: MPI_ERR_ARG");
    mt_is_int(MPI_Remove_error_class(e1), MPI_ERR_ARG, "MPI_Remove_error_class of a code: MPI_ERR_ARG");
    mt_is_int(MPI_Remove_error_code(MPI_ERR_IO), MPI_ERR_ARG, "of a predefined class: MPI_ERR_ARG");
    mt_is_int(MPI_Remove_error_class(MPI_ERR_IO), MPI_ERR_ARG, "MPI_Remove_error_class of MPI_ERR_IO: MPI_ERR_ARG");
    mt_is_int(MPI_Remove_error_string(MPI_ERR_IO), MPI_ERR_ARG, "MPI_Remove_error_string of MPI_ERR_IO: MPI_ERR_ARG");
    mt_is_int(MPI_Remove_error_code(e1), MPI_SUCCESS, "MPI_Remove_error_code");
    mt_is_int(MPI_Error_class(e1, &cls), MPI_ERR_ARG, "a removed code is no longer valid");
    rc = MPI_Comm_call_errhandler(MPI_COMM_WORLD, e1);
    mt_is_int(rc, MPI_ERR_ARG, "MPI_Comm_call_errhandler with it: MPI_ERR_ARG");
    mt_is_int(MPI_Remove_error_class(c1), MPI_SUCCESS, "then the class (with its string) goes");
    mt_is_int(MPI_Error_string(c1, s, &len), MPI_ERR_ARG, "MPI_Error_string of it: MPI_ERR_ARG");
    mt_is_int(lastused(), e2, "MPI_LASTUSEDCODE: e2, the largest still in use");
    mt_is_int(MPI_Remove_error_string(e2), MPI_SUCCESS, "e2's string goes");
    mt_is_int(MPI_Remove_error_code(e2), MPI_SUCCESS, "then e2");
    mt_is_int(lastused(), MPI_ERR_LASTCODE, "none in use: MPI_LASTUSEDCODE is MPI_ERR_LASTCODE");
    int c3 = -1;
    MPI_Add_error_class(&c3);
    mt_is_int(c3, e2 + 1, "a new class does not reuse a removed value");
    mt_is_int(MPI_Remove_error_class(c3), MPI_SUCCESS, "and goes");

    /* the MPI 4.x classes are predefined */
    int four[] = {MPI_ERR_PROC_ABORTED, MPI_ERR_VALUE_TOO_LARGE, MPI_ERR_SESSION, MPI_ERR_ERRHANDLER};
    for (int i = 0; i < 4; i++)
        mt_ok(MPI_Error_class(four[i], &cls) == MPI_SUCCESS && cls == four[i] && four[i] < MPI_ERR_LASTCODE,
              "MPI 4 class %d is predefined, below MPI_ERR_LASTCODE", four[i]);

    MPI_Finalize();
    return mt_done();
}

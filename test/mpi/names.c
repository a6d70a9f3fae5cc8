/* MPI test: the name service (MPI_Publish_name, MPI_Lookup_name,
 * MPI_Unpublish_name) under rrun (its PMIx server's table) or as a
 * singleton (a table of the process): what one rank publishes another
 * finds, exactly; a name taken, unknown, or another's; the argument
 * errors; the messages name the call and the service. */
#include <stdlib.h>

#include "test/mpi/mtest.h"

static int cls_of(int rc)
{
    int c = rc;
    if (rc != MPI_SUCCESS)
        MPI_Error_class(rc, &c);
    return c;
}

int main(int argc, char **argv)
{
    int me, n;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    mt_rank = me;
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    char port[MPI_MAX_PORT_NAME], want[64];
    int last = n - 1;

    /* every rank publishes a name of its own; the last rank reads them all */
    char name[32];
    snprintf(name, sizeof name, "rdmpi-test-%d", me);
    snprintf(want, sizeof want, "port of rank %d: %d", me, 1000 + me);
    mt_is_int(MPI_Publish_name(name, MPI_INFO_NULL, want), MPI_SUCCESS, "MPI_Publish_name '%s'", name);
    MPI_Barrier(MPI_COMM_WORLD);
    if (me == last) {
        for (int r = 0; r < n; r++) {
            char nm[32];
            snprintf(nm, sizeof nm, "rdmpi-test-%d", r);
            snprintf(want, sizeof want, "port of rank %d: %d", r, 1000 + r);
            memset(port, 'x', sizeof port);
            int rc = MPI_Lookup_name(nm, MPI_INFO_NULL, port);
            mt_ok(rc == MPI_SUCCESS && strcmp(port, want) == 0, "MPI_Lookup_name '%s': '%s' (rc %d)", nm,
                  rc == MPI_SUCCESS ? port : "", rc);
        }
    }
    /* taken: by this rank or another */
    mt_is_int(cls_of(MPI_Publish_name("rdmpi-test-0", MPI_INFO_NULL, "other")), MPI_ERR_SERVICE,
              "MPI_Publish_name of a name published already: MPI_ERR_SERVICE");
    MPI_Barrier(MPI_COMM_WORLD);
    if (n > 1 && me == last)
        mt_is_int(cls_of(MPI_Unpublish_name("rdmpi-test-0", MPI_INFO_NULL, "x")), MPI_ERR_SERVICE,
                  "MPI_Unpublish_name of another rank's name: MPI_ERR_SERVICE");
    MPI_Barrier(MPI_COMM_WORLD);
    snprintf(want, sizeof want, "port of rank %d: %d", me, 1000 + me);
    mt_is_int(MPI_Unpublish_name(name, MPI_INFO_NULL, want), MPI_SUCCESS, "MPI_Unpublish_name '%s'", name);
    MPI_Barrier(MPI_COMM_WORLD);
    /* gone */
    int rc = MPI_Lookup_name("rdmpi-test-0", MPI_INFO_NULL, port);
    mt_is_int(cls_of(rc), MPI_ERR_NAME, "MPI_Lookup_name of an unpublished name: MPI_ERR_NAME");
    char msg[MPI_MAX_ERROR_STRING];
    int len = 0;
    MPI_Error_string(rc, msg, &len);
    mt_ok(strstr(msg, "MPI_Lookup_name") && strstr(msg, "'rdmpi-test-0'"),
          "its message names the call and the service: %s", msg);
    mt_is_int(cls_of(MPI_Unpublish_name(name, MPI_INFO_NULL, "x")), MPI_ERR_SERVICE,
              "MPI_Unpublish_name of a name unpublished already: MPI_ERR_SERVICE");
    /* published again once free */
    MPI_Barrier(MPI_COMM_WORLD);
    if (me == 0)
        mt_is_int(MPI_Publish_name("rdmpi-test-0", MPI_INFO_NULL, "second"), MPI_SUCCESS,
                  "a name unpublished is free again");
    MPI_Barrier(MPI_COMM_WORLD);
    memset(port, 0, sizeof port);
    rc = MPI_Lookup_name("rdmpi-test-0", MPI_INFO_NULL, port);
    mt_ok(rc == MPI_SUCCESS && strcmp(port, "second") == 0, "... with its new port: '%s'", port);
    MPI_Barrier(MPI_COMM_WORLD);
    if (me == 0)
        mt_is_int(MPI_Unpublish_name("rdmpi-test-0", MPI_INFO_NULL, "second"), MPI_SUCCESS, "and unpublished");

    /* arguments */
    char longname[MPI_MAX_PORT_NAME + 8];
    memset(longname, 'a', sizeof longname - 1);
    longname[sizeof longname - 1] = '\0';
    mt_is_int(cls_of(MPI_Publish_name(NULL, MPI_INFO_NULL, "p")), MPI_ERR_ARG, "a NULL service_name: MPI_ERR_ARG");
    mt_is_int(cls_of(MPI_Publish_name("", MPI_INFO_NULL, "p")), MPI_ERR_ARG, "an empty service_name: MPI_ERR_ARG");
    mt_is_int(cls_of(MPI_Publish_name("s", MPI_INFO_NULL, longname)), MPI_ERR_ARG,
              "a port_name of MPI_MAX_PORT_NAME characters or more: MPI_ERR_ARG");
    mt_is_int(cls_of(MPI_Lookup_name("s", MPI_INFO_NULL, NULL)), MPI_ERR_ARG, "a NULL port_name: MPI_ERR_ARG");
    MPI_Info bad = (MPI_Info)(void *)&n;
    mt_is_int(cls_of(MPI_Lookup_name("s", bad, port)), MPI_ERR_INFO, "an invalid info: MPI_ERR_INFO");
    MPI_Info info;
    MPI_Info_create(&info);
    MPI_Info_set(info, "some_key", "some value");
    snprintf(name, sizeof name, "rdmpi-info-%d", me);
    mt_is_int(MPI_Publish_name(name, info, "with info"), MPI_SUCCESS, "an info with keys not ours is accepted");
    mt_is_int(MPI_Unpublish_name(name, info, "with info"), MPI_SUCCESS, "... and the name unpublished");
    MPI_Info_free(&info);

    printf("done [rank %d] %d checks, %d failed\n", me, mt_checks, mt_failed);
    MPI_Finalize();
    return 0;
}

/* MPI test: the empty status. MPI returns it for a null request and for an
 * inactive persistent one: MPI_SOURCE = MPI_ANY_SOURCE, MPI_TAG =
 * MPI_ANY_TAG, MPI_ERROR = MPI_SUCCESS, count and elements 0, not
 * cancelled (MPI-4.1 3.7.3). Every call that completes such requests is
 * checked with a status filled with garbage first. */
#include <string.h>

#include "test/mpi/mtest.h"

static MPI_Status garbage(void)
{
    MPI_Status st;
    memset(&st, 0x5a, sizeof(st));
    st.MPI_SOURCE = 12345;
    st.MPI_TAG = 54321;
    st.MPI_ERROR = MPI_ERR_OTHER;
    return st;
}

static void is_empty(const MPI_Status *st, const char *what)
{
    int count = -1, elems = -1, bytes = -1, canc = -1;
    MPI_Get_count(st, MPI_INT, &count);
    MPI_Get_elements(st, MPI_DOUBLE, &elems);
    MPI_Get_count(st, MPI_BYTE, &bytes);
    MPI_Test_cancelled(st, &canc);
    mt_is_int(st->MPI_SOURCE, MPI_ANY_SOURCE, "%s: MPI_SOURCE is MPI_ANY_SOURCE", what);
    mt_is_int(st->MPI_TAG, MPI_ANY_TAG, "%s: MPI_TAG is MPI_ANY_TAG", what);
    mt_is_int(st->MPI_ERROR, MPI_SUCCESS, "%s: MPI_ERROR is MPI_SUCCESS", what);
    mt_ok(count == 0 && elems == 0 && bytes == 0, "%s: count and elements are 0 (got %d, %d, %d)", what,
          count, elems, bytes);
    mt_is_int(canc, 0, "%s: not cancelled", what);
}

int main(int argc, char **argv)
{
    int rank, size, rc, flag, idx, out;
    MPI_Status st, sts[3];
    MPI_Request r, rs[3];
    int buf = 0;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    mt_rank = rank;
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);

    /* MPI_Request_get_status on MPI_REQUEST_NULL */
    st = garbage();
    flag = 0;
    rc = MPI_Request_get_status(MPI_REQUEST_NULL, &flag, &st);
    mt_ok(rc == MPI_SUCCESS && flag == 1, "MPI_Request_get_status(MPI_REQUEST_NULL): success, flag true");
    is_empty(&st, "MPI_Request_get_status(MPI_REQUEST_NULL)");

    /* MPI_Wait, MPI_Test on MPI_REQUEST_NULL */
    r = MPI_REQUEST_NULL;
    st = garbage();
    rc = MPI_Wait(&r, &st);
    mt_is_int(rc, MPI_SUCCESS, "MPI_Wait(MPI_REQUEST_NULL) succeeds");
    is_empty(&st, "MPI_Wait(MPI_REQUEST_NULL)");
    st = garbage();
    flag = 0;
    rc = MPI_Test(&r, &flag, &st);
    mt_ok(rc == MPI_SUCCESS && flag == 1, "MPI_Test(MPI_REQUEST_NULL): success, flag true");
    is_empty(&st, "MPI_Test(MPI_REQUEST_NULL)");

    /* inactive persistent requests: never started, and started then completed */
    int peer = (rank + 1) % size, from = (rank + size - 1) % size, sv = rank, rv = -1;
    MPI_Request p[2];
    MPI_Recv_init(&rv, 1, MPI_INT, from, 7, MPI_COMM_WORLD, &p[0]);
    MPI_Send_init(&sv, 1, MPI_INT, peer, 7, MPI_COMM_WORLD, &p[1]);
    for (int round = 0; round < 2; round++) {
        const char *when = round ? "completed persistent" : "persistent never started";
        char what[128];
        for (int i = 0; i < 2; i++) {
            const char *kind = i ? "send" : "receive";
            snprintf(what, sizeof(what), "MPI_Wait on an inactive %s %s", when, kind);
            st = garbage();
            rc = MPI_Wait(&p[i], &st);
            mt_ok(rc == MPI_SUCCESS && p[i] != MPI_REQUEST_NULL, "%s: success, request kept", what);
            is_empty(&st, what);
            snprintf(what, sizeof(what), "MPI_Test on an inactive %s %s", when, kind);
            st = garbage();
            flag = 0;
            rc = MPI_Test(&p[i], &flag, &st);
            mt_ok(rc == MPI_SUCCESS && flag == 1, "%s: success, flag true", what);
            is_empty(&st, what);
            snprintf(what, sizeof(what), "MPI_Request_get_status on an inactive %s %s", when, kind);
            st = garbage();
            flag = 0;
            rc = MPI_Request_get_status(p[i], &flag, &st);
            mt_ok(rc == MPI_SUCCESS && flag == 1, "%s: success, flag true", what);
            is_empty(&st, what);
        }
        if (round == 0) {
            MPI_Startall(2, p);
            rc = MPI_Waitall(2, p, MPI_STATUSES_IGNORE);
            mt_ok(rc == MPI_SUCCESS && rv == from, "persistent send/recv round: exact value");
        }
    }

    /* the array forms, every request null or inactive */
    rs[0] = MPI_REQUEST_NULL;
    rs[1] = p[0];
    rs[2] = MPI_REQUEST_NULL;
    st = garbage();
    idx = 77;
    rc = MPI_Waitany(3, rs, &idx, &st);
    mt_ok(rc == MPI_SUCCESS && idx == MPI_UNDEFINED, "MPI_Waitany with no active request: index MPI_UNDEFINED");
    is_empty(&st, "MPI_Waitany with no active request");
    st = garbage();
    idx = 77;
    flag = 0;
    rc = MPI_Testany(3, rs, &idx, &flag, &st);
    mt_ok(rc == MPI_SUCCESS && idx == MPI_UNDEFINED && flag == 1,
          "MPI_Testany with no active request: index MPI_UNDEFINED, flag true");
    is_empty(&st, "MPI_Testany with no active request");
    st = garbage();
    idx = 77;
    rc = MPI_Waitany(0, NULL, &idx, &st);
    mt_ok(rc == MPI_SUCCESS && idx == MPI_UNDEFINED, "MPI_Waitany of no request: index MPI_UNDEFINED");
    is_empty(&st, "MPI_Waitany of no request");
    for (int i = 0; i < 3; i++)
        sts[i] = garbage();
    rc = MPI_Waitall(3, rs, sts);
    mt_is_int(rc, MPI_SUCCESS, "MPI_Waitall with no active request succeeds");
    for (int i = 0; i < 3; i++) {
        char what[64];
        snprintf(what, sizeof(what), "MPI_Waitall, %s request %d", i == 1 ? "inactive" : "null", i);
        is_empty(&sts[i], what);
    }
    for (int i = 0; i < 3; i++)
        sts[i] = garbage();
    flag = 0;
    rc = MPI_Testall(3, rs, &flag, sts);
    mt_ok(rc == MPI_SUCCESS && flag == 1, "MPI_Testall with no active request: flag true");
    for (int i = 0; i < 3; i++) {
        char what[64];
        snprintf(what, sizeof(what), "MPI_Testall, %s request %d", i == 1 ? "inactive" : "null", i);
        is_empty(&sts[i], what);
    }
    /* Waitsome/Testsome: outcount MPI_UNDEFINED, no status written */
    int ind[3] = {-5, -5, -5};
    for (int i = 0; i < 3; i++)
        sts[i] = garbage();
    out = 0;
    rc = MPI_Waitsome(3, rs, &out, ind, sts);
    mt_ok(rc == MPI_SUCCESS && out == MPI_UNDEFINED, "MPI_Waitsome with no active request: outcount MPI_UNDEFINED");
    out = 0;
    rc = MPI_Testsome(3, rs, &out, ind, sts);
    mt_ok(rc == MPI_SUCCESS && out == MPI_UNDEFINED, "MPI_Testsome with no active request: outcount MPI_UNDEFINED");
    mt_ok(sts[0].MPI_SOURCE == 12345 && ind[0] == -5, "MPI_Waitsome/Testsome with no active request write no status");

    /* a mixed array: the null entries of Waitall get the empty status */
    MPI_Startall(2, p);
    rs[0] = MPI_REQUEST_NULL;
    rs[1] = p[0];
    rs[2] = p[1];
    for (int i = 0; i < 3; i++)
        sts[i] = garbage();
    rc = MPI_Waitall(3, rs, sts);
    mt_ok(rc == MPI_SUCCESS && rv == from, "MPI_Waitall of a null and two active requests");
    is_empty(&sts[0], "MPI_Waitall, null request next to active ones");
    mt_ok(sts[1].MPI_SOURCE == from && sts[1].MPI_TAG == 7, "MPI_Waitall, the receive's status names source and tag");

    MPI_Request_free(&p[0]);
    MPI_Request_free(&p[1]);
    (void)buf;
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return mt_done();
}

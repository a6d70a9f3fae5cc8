/* MPI test: the large-count point-to-point calls (MPI_Send_c ...) on 2
 * ranks. Each _c call once with a small count (the same code as its int
 * twin: exact data and status), and the counts' errors. A count beyond
 * 2^31 is p2p_large's (its third argument "c": the 2 GiB message back by
 * MPI_Send_c / MPI_Recv_c). */
#include <stdint.h>

#include "test/mpi/mtest.h"

#define N 100

static int me, peer;

static void fill(int *b, int n, int base)
{
    for (int i = 0; i < n; i++)
        b[i] = base + i;
}

static int check(const int *b, int n, int base)
{
    for (int i = 0; i < n; i++)
        if (b[i] != base + i)
            return 0;
    return 1;
}

/* One exchange of N ints each way by the given send and receive forms:
 * the receive is posted first (Irecv_c), the send goes by `how`. */
static void exchange(const char *how)
{
    int out[N], in[N];
    MPI_Request rr, sr = MPI_REQUEST_NULL;
    MPI_Status st;
    MPI_Count c = -1;
    fill(out, N, 1000 * me);
    for (int i = 0; i < N; i++)
        in[i] = -1;
    MPI_Irecv_c(in, N, MPI_INT, peer, 7, MPI_COMM_WORLD, &rr);
    MPI_Barrier(MPI_COMM_WORLD); /* (both receives posted: MPI_Rsend_c may go) */
    if (strcmp(how, "Send_c") == 0)
        MPI_Send_c(out, N, MPI_INT, peer, 7, MPI_COMM_WORLD);
    else if (strcmp(how, "Ssend_c") == 0)
        MPI_Ssend_c(out, N, MPI_INT, peer, 7, MPI_COMM_WORLD);
    else if (strcmp(how, "Rsend_c") == 0)
        MPI_Rsend_c(out, N, MPI_INT, peer, 7, MPI_COMM_WORLD);
    else if (strcmp(how, "Bsend_c") == 0)
        MPI_Bsend_c(out, N, MPI_INT, peer, 7, MPI_COMM_WORLD);
    else if (strcmp(how, "Isend_c") == 0)
        MPI_Isend_c(out, N, MPI_INT, peer, 7, MPI_COMM_WORLD, &sr);
    else if (strcmp(how, "Issend_c") == 0)
        MPI_Issend_c(out, N, MPI_INT, peer, 7, MPI_COMM_WORLD, &sr);
    else if (strcmp(how, "Irsend_c") == 0)
        MPI_Irsend_c(out, N, MPI_INT, peer, 7, MPI_COMM_WORLD, &sr);
    else if (strcmp(how, "Ibsend_c") == 0)
        MPI_Ibsend_c(out, N, MPI_INT, peer, 7, MPI_COMM_WORLD, &sr);
    MPI_Wait(&sr, MPI_STATUS_IGNORE);
    MPI_Wait(&rr, &st);
    MPI_Get_count_c(&st, MPI_INT, &c);
    mt_ok(check(in, N, 1000 * peer) && c == N && st.MPI_SOURCE == peer && st.MPI_TAG == 7,
          "MPI_%s to MPI_Irecv_c: %d ints, status and MPI_Get_count_c (%lld)", how, N, (long long)c);
}

static void small(void)
{
    int out[N], in[N], rc;
    MPI_Status st;
    MPI_Count c = -1, lb = -1, ext = -1;
    static char bbuf[4 * N * sizeof(int) + 4 * MPI_BSEND_OVERHEAD];

    MPI_Buffer_attach(bbuf, sizeof(bbuf));
    const char *forms[] = {"Send_c", "Ssend_c", "Rsend_c", "Bsend_c", "Isend_c", "Issend_c", "Irsend_c", "Ibsend_c"};
    for (int i = 0; i < 8; i++)
        exchange(forms[i]);
    void *b;
    int bs;
    MPI_Buffer_detach(&b, &bs);

    /* MPI_Recv_c, blocking */
    fill(out, N, 50 * me);
    if (me == 0) {
        MPI_Send_c(out, N, MPI_INT, peer, 8, MPI_COMM_WORLD);
        MPI_Recv_c(in, N, MPI_INT, peer, 8, MPI_COMM_WORLD, &st);
    } else {
        MPI_Recv_c(in, N, MPI_INT, peer, 8, MPI_COMM_WORLD, &st);
        MPI_Send_c(out, N, MPI_INT, peer, 8, MPI_COMM_WORLD);
    }
    MPI_Get_elements_c(&st, MPI_INT, &c);
    mt_ok(check(in, N, 50 * peer) && c == N, "MPI_Recv_c, and MPI_Get_elements_c (%lld)", (long long)c);

    /* matched probes */
    MPI_Message msg;
    MPI_Request two[2];
    fill(out, N, 7 * me);
    MPI_Isend_c(out, N, MPI_INT, peer, 9, MPI_COMM_WORLD, &two[0]); /* (rendezvous: both send first) */
    MPI_Isend_c(out, N, MPI_INT, peer, 10, MPI_COMM_WORLD, &two[1]);
    MPI_Mprobe(peer, 9, MPI_COMM_WORLD, &msg, &st);
    MPI_Mrecv_c(in, N, MPI_INT, &msg, &st);
    mt_ok(check(in, N, 7 * peer) && st.MPI_TAG == 9, "MPI_Mrecv_c");
    MPI_Request r;
    MPI_Mprobe(peer, 10, MPI_COMM_WORLD, &msg, &st);
    MPI_Imrecv_c(in, N, MPI_INT, &msg, &r);
    MPI_Wait(&r, &st);
    mt_ok(check(in, N, 7 * peer) && st.MPI_TAG == 10, "MPI_Imrecv_c");
    MPI_Waitall(2, two, MPI_STATUSES_IGNORE);

    /* sendrecv, blocking and not, and in place */
    fill(out, N, 3 * me);
    MPI_Sendrecv_c(out, N, MPI_INT, peer, 11, in, N, MPI_INT, peer, 11, MPI_COMM_WORLD, &st);
    mt_ok(check(in, N, 3 * peer), "MPI_Sendrecv_c");
    MPI_Isendrecv_c(out, N, MPI_INT, peer, 12, in, N, MPI_INT, peer, 12, MPI_COMM_WORLD, &r);
    MPI_Wait(&r, &st);
    mt_ok(check(in, N, 3 * peer) && st.MPI_TAG == 12, "MPI_Isendrecv_c");
    fill(in, N, 11 * me);
    MPI_Sendrecv_replace_c(in, N, MPI_INT, peer, 13, peer, 13, MPI_COMM_WORLD, &st);
    mt_ok(check(in, N, 11 * peer), "MPI_Sendrecv_replace_c");
    fill(in, N, 13 * me);
    MPI_Isendrecv_replace_c(in, N, MPI_INT, peer, 14, peer, 14, MPI_COMM_WORLD, &r);
    MPI_Wait(&r, &st);
    mt_ok(check(in, N, 13 * peer), "MPI_Isendrecv_replace_c");

    /* persistent, started twice */
    const char *inits[] = {"Send_init_c", "Ssend_init_c", "Rsend_init_c", "Bsend_init_c"};
    MPI_Buffer_attach(bbuf, sizeof(bbuf));
    for (int k = 0; k < 4; k++) {
        MPI_Request s, q;
        MPI_Recv_init_c(in, N, MPI_INT, peer, 15, MPI_COMM_WORLD, &q);
        if (k == 0)
            MPI_Send_init_c(out, N, MPI_INT, peer, 15, MPI_COMM_WORLD, &s);
        else if (k == 1)
            MPI_Ssend_init_c(out, N, MPI_INT, peer, 15, MPI_COMM_WORLD, &s);
        else if (k == 2)
            MPI_Rsend_init_c(out, N, MPI_INT, peer, 15, MPI_COMM_WORLD, &s);
        else
            MPI_Bsend_init_c(out, N, MPI_INT, peer, 15, MPI_COMM_WORLD, &s);
        int ok = 1;
        for (int round = 0; round < 2; round++) {
            fill(out, N, 100 * round + me);
            for (int i = 0; i < N; i++)
                in[i] = -1;
            MPI_Start(&q);
            MPI_Barrier(MPI_COMM_WORLD);
            MPI_Start(&s);
            MPI_Wait(&s, MPI_STATUS_IGNORE);
            MPI_Wait(&q, &st);
            ok &= check(in, N, 100 * round + peer);
        }
        mt_ok(ok, "MPI_%s with MPI_Recv_init_c, started twice", inits[k]);
        MPI_Request_free(&s);
        MPI_Request_free(&q);
    }
    MPI_Buffer_detach(&b, &bs);

    /* datatype queries */
    MPI_Datatype v;
    MPI_Type_vector(3, 2, 5, MPI_INT, &v);
    MPI_Type_size_c(v, &c);
    mt_is_int(c, 24, "MPI_Type_size_c of a vector of 3 x 2 ints");
    MPI_Type_get_extent_c(v, &lb, &ext);
    mt_ok(lb == 0 && ext == 48, "MPI_Type_get_extent_c: 0, 48 (%lld, %lld)", (long long)lb, (long long)ext);
    MPI_Type_get_true_extent_c(v, &lb, &ext);
    mt_ok(lb == 0 && ext == 48, "MPI_Type_get_true_extent_c: 0, 48");
    MPI_Type_free(&v);

    /* the counts' errors (MPI_ERRORS_RETURN) */
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int cls = -1;
    rc = MPI_Send_c(out, -1, MPI_INT, peer, 1, MPI_COMM_WORLD);
    MPI_Error_class(rc, &cls);
    mt_is_int(cls, MPI_ERR_COUNT, "MPI_Send_c of count -1: MPI_ERR_COUNT");
    rc = MPI_Recv_c(in, INT64_MAX / 2, MPI_INT, peer, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Error_class(rc, &cls);
    mt_is_int(cls, MPI_ERR_COUNT, "MPI_Recv_c of 2^62 ints (more bytes than memory has): MPI_ERR_COUNT");
    rc = MPI_Isend_c(out, -5, MPI_INT, peer, 1, MPI_COMM_WORLD, &r);
    MPI_Error_class(rc, &cls);
    mt_is_int(cls, MPI_ERR_COUNT, "MPI_Isend_c of count -5: MPI_ERR_COUNT");
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
}

int main(int argc, char **argv)
{
    int np;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    mt_rank = me;
    mt_is_int(np, 2, "2 ranks");
    if (np == 2) {
        peer = 1 - me;
        small();
    }
    MPI_Barrier(MPI_COMM_WORLD);
    printf("done [rank %d] %d checks, %d failed\n", me, mt_checks, mt_failed);
    MPI_Finalize();
    return mt_failed != 0;
}

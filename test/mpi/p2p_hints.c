/* MPI test: the communicator hints that rule out wildcards (MPI 4.0
 * 7.4.4: mpi_assert_no_any_source, mpi_assert_no_any_tag), which make the
 * engine match in lanes (runtime/p2p/engine.h).
 *   - MPI_Comm_get_info reports the hints in use
 *   - every rank sends 40 messages of distinct tags to every other (and
 *     itself), some before the receives are posted (unexpected) and some
 *     after, received in another order: each receive gets its message
 *   - messages with the same source and tag arrive in order
 *   - probes, matched probes and a cancelled receive on such a
 *     communicator
 *   - a wildcard the hints rule out: MPI_ERR_RANK / MPI_ERR_TAG, and the
 *     one they leave open works (only no_any_tag: MPI_ANY_SOURCE)
 *   - freed, its context serves a new communicator with wildcards */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mtest.h"

#define NMSG 40

static int rank, size;

static int cls(int err)
{
    int c = err;
    if (err != MPI_SUCCESS)
        MPI_Error_class(err, &c);
    return c;
}

static MPI_Comm hinted(int no_src, int no_tag)
{
    MPI_Info info;
    MPI_Comm c;
    MPI_Info_create(&info);
    if (no_src)
        MPI_Info_set(info, "mpi_assert_no_any_source", "true");
    if (no_tag)
        MPI_Info_set(info, "mpi_assert_no_any_tag", "true");
    MPI_Comm_dup_with_info(MPI_COMM_WORLD, info, &c);
    MPI_Info_free(&info);
    MPI_Comm_set_errhandler(c, MPI_ERRORS_RETURN);
    return c;
}

/* Every pair, NMSG tags each way; half sent before the receives exist. */
static void exchange(MPI_Comm c, const char *what)
{
    int n = size * NMSG, *in = malloc(sizeof(int) * (size_t)n), *out = malloc(sizeof(int) * (size_t)n);
    MPI_Request *rr = malloc(sizeof(MPI_Request) * (size_t)n), *sr = malloc(sizeof(MPI_Request) * (size_t)n);
    for (int p = 0; p < size; p++)
        for (int t = 0; t < NMSG; t++) {
            out[p * NMSG + t] = rank * 100000 + p * 1000 + t;
            in[p * NMSG + t] = -1;
        }
    int ns = 0;
    for (int p = 0; p < size; p++) /* the even tags now: unexpected at their receivers */
        for (int t = 0; t < NMSG; t += 2)
            MPI_Isend(&out[p * NMSG + t], 1, MPI_INT, p, t, c, &sr[ns++]);
    MPI_Barrier(MPI_COMM_WORLD);
    /* receives from the last tag down, sources in turn */
    for (int t = NMSG - 1; t >= 0; t--)
        for (int p = 0; p < size; p++)
            MPI_Irecv(&in[p * NMSG + t], 1, MPI_INT, p, t, c, &rr[p * NMSG + t]);
    for (int p = 0; p < size; p++) /* the odd ones: to posted receives */
        for (int t = 1; t < NMSG; t += 2)
            MPI_Isend(&out[p * NMSG + t], 1, MPI_INT, p, t, c, &sr[ns++]);
    MPI_Waitall(n, rr, MPI_STATUSES_IGNORE);
    MPI_Waitall(ns, sr, MPI_STATUSES_IGNORE);
    int bad = 0;
    for (int p = 0; p < size; p++)
        for (int t = 0; t < NMSG; t++)
            bad += in[p * NMSG + t] != p * 100000 + rank * 1000 + t;
    mt_is_int(bad, 0, "%s: %d messages of distinct (source, tag), unexpected and posted, each to its receive", what,
              n);
    free(in);
    free(out);
    free(rr);
    free(sr);
}

static void ordered(MPI_Comm c)
{
    int right = (rank + 1) % size, left = (rank + size - 1) % size, v[8], bad = 0;
    MPI_Request s[8];
    for (int i = 0; i < 8; i++) {
        v[i] = i;
        MPI_Isend(&v[i], 1, MPI_INT, right, 7, c, &s[i]);
    }
    for (int i = 0; i < 8; i++) {
        int x = -1;
        MPI_Recv(&x, 1, MPI_INT, left, 7, c, MPI_STATUS_IGNORE);
        bad += x != i;
    }
    MPI_Waitall(8, s, MPI_STATUSES_IGNORE);
    mt_is_int(bad, 0, "8 messages of one source and tag arrive in order");
}

static void probes(MPI_Comm c)
{
    int right = (rank + 1) % size, left = (rank + size - 1) % size, x = rank, y = -1, flag = 0;
    MPI_Status st;
    MPI_Request sr;
    MPI_Isend(&x, 1, MPI_INT, right, 9, c, &sr); /* (a rendezvous send completes once received) */
    MPI_Probe(left, 9, c, &st);
    MPI_Message m;
    MPI_Mprobe(left, 9, c, &m, &st);
    MPI_Mrecv(&y, 1, MPI_INT, &m, MPI_STATUS_IGNORE);
    MPI_Wait(&sr, MPI_STATUS_IGNORE);
    mt_ok(st.MPI_SOURCE == left && st.MPI_TAG == 9 && y == left, "MPI_Probe, MPI_Mprobe and MPI_Mrecv of (left, 9)");
    MPI_Iprobe(left, 9, c, &flag, MPI_STATUS_IGNORE);
    mt_is_int(flag, 0, "then MPI_Iprobe finds nothing more");
    MPI_Request r;
    MPI_Irecv(&y, 1, MPI_INT, left, 10, c, &r);
    MPI_Cancel(&r);
    MPI_Wait(&r, &st);
    MPI_Test_cancelled(&st, &flag);
    mt_is_int(flag, 1, "a posted receive cancelled");
    MPI_Barrier(MPI_COMM_WORLD);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    mt_rank = rank;

    MPI_Comm c = hinted(1, 1);
    MPI_Info used;
    char v[16];
    int vlen = sizeof v, f1 = 0, f2 = 0;
    MPI_Comm_get_info(c, &used);
    MPI_Info_get_string(used, "mpi_assert_no_any_source", &vlen, v, &f1);
    vlen = sizeof v;
    MPI_Info_get_string(used, "mpi_assert_no_any_tag", &vlen, v, &f2);
    mt_ok(f1 && f2 && strcmp(v, "true") == 0, "MPI_Comm_get_info: both hints in use, true");
    MPI_Info_free(&used);
    exchange(c, "no wildcards");
    ordered(c);
    probes(c);
    int x = 0, flag;
    MPI_Request r;
    mt_is_int(cls(MPI_Irecv(&x, 1, MPI_INT, MPI_ANY_SOURCE, 0, c, &r)), MPI_ERR_RANK,
              "MPI_Irecv from MPI_ANY_SOURCE under mpi_assert_no_any_source: MPI_ERR_RANK");
    mt_is_int(cls(MPI_Iprobe(0, MPI_ANY_TAG, c, &flag, MPI_STATUS_IGNORE)), MPI_ERR_TAG,
              "MPI_Iprobe of MPI_ANY_TAG under mpi_assert_no_any_tag: MPI_ERR_TAG");
    MPI_Comm_free(&c);

    /* only no_any_tag: MPI_ANY_SOURCE stays open */
    c = hinted(0, 1);
    exchange(c, "no MPI_ANY_TAG");
    int right = (rank + 1) % size, left = (rank + size - 1) % size, y = -1;
    MPI_Status st;
    x = rank;
    MPI_Sendrecv(&x, 1, MPI_INT, right, 11, &y, 1, MPI_INT, MPI_ANY_SOURCE, 11, c, &st);
    mt_ok(y == left && st.MPI_SOURCE == left, "under mpi_assert_no_any_tag alone, MPI_ANY_SOURCE receives");
    MPI_Comm_free(&c);
    c = hinted(1, 0);
    exchange(c, "no MPI_ANY_SOURCE");
    MPI_Sendrecv(&x, 1, MPI_INT, right, 12, &y, 1, MPI_INT, left, MPI_ANY_TAG, c, &st);
    mt_ok(y == left && st.MPI_TAG == 12, "under mpi_assert_no_any_source alone, MPI_ANY_TAG receives");
    MPI_Comm_free(&c);

    /* the contexts serve plain communicators again */
    MPI_Comm d;
    MPI_Comm_dup(MPI_COMM_WORLD, &d);
    MPI_Sendrecv(&x, 1, MPI_INT, right, 13, &y, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, d, &st);
    mt_ok(y == left && st.MPI_TAG == 13, "a plain communicator made after them takes wildcards");
    MPI_Comm_free(&d);

    MPI_Barrier(MPI_COMM_WORLD);
    printf("done [rank %d] %d checks, %d failed\n", rank, mt_checks, mt_failed);
    MPI_Finalize();
    return mt_failed != 0;
}

/* MPI test: partitioned communication (MPI 4.0 4.2; runtime/p2p/part.c).
 * Every rank sends to the next in a ring and receives from the previous.
 *   - the two sides cutting 24 ints differently (24x1, 1x24, 8x3, 3x8,
 *     6x4, 4x6 against each other), 5 starts each, partitions marked ready
 *     in reverse order by MPI_Pready, MPI_Pready_range and MPI_Pready_list;
 *     MPI_Parrived polled on each receive partition, whose values are
 *     checked as soon as it says so
 *   - half the partitions ready: those arrive, the others do not until
 *     the receiver has said so (MPI_Parrived false, deterministically)
 *   - non-contiguous datatypes on either side (a strided, resized vector)
 *   - matching in the order of the inits: three sends of tags 5, 5, 7
 *     received by inits of tags 7, 5, 5
 *   - a receive started before its sender exists
 *   - 4 partitions of 512 KiB (the rendezvous protocols)
 *   - partitions marked ready by 4 threads at once
 *   - MPI_PROC_NULL on both sides; completion by MPI_Test alone; 100
 *     requests made and freed in turn; no partitions, and partitions of
 *     no elements; the communicator freed while its requests live, a
 *     send freed while active
 *   - errors under MPI_ERRORS_RETURN: wildcards, negative counts, Pready
 *     of an inactive request, a receive, a partition out of range or twice
 *     (also within one list: then none is marked), Parrived of a send;
 *     a longer message (MPI_ERR_TRUNCATE, what fits delivered) and a
 *     shorter one (its count) */
#include <mpi.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mtest.h"

static int rank, size, right, left;

static int val(int from, int round, int k)
{
    return from * 1000000 + round * 1000 + k;
}

/* Mark every partition of s ready, from the last one back, using the
 * three calls in turn. */
static void ready_all_reverse(MPI_Request s, int parts)
{
    int p = parts - 1, step = 0;
    while (p >= 0) {
        if (step % 3 == 0 || p == 0) {
            MPI_Pready(p, s);
            p--;
        } else if (step % 3 == 1) {
            MPI_Pready_range(p - 1, p, s);
            p -= 2;
        } else {
            int list[2] = {p, p - 1};
            MPI_Pready_list(2, list, s);
            p -= 2;
        }
        step++;
    }
}

static void cuts(int sp, int rp)
{
    enum { N = 24 };
    int sbuf[N] = {0}, rbuf[N], bad = 0, early = 0;
    MPI_Request s, r;
    MPI_Psend_init(sbuf, sp, N / sp, MPI_INT, right, 1, MPI_COMM_WORLD, MPI_INFO_NULL, &s);
    MPI_Precv_init(rbuf, rp, N / rp, MPI_INT, left, 1, MPI_COMM_WORLD, MPI_INFO_NULL, &r);
    for (int round = 0; round < 5; round++) {
        for (int k = 0; k < N; k++) {
            sbuf[k] = val(rank, round, k);
            rbuf[k] = -1;
        }
        MPI_Start(&r);
        MPI_Start(&s);
        ready_all_reverse(s, sp);
        for (int p = 0; p < rp; p++) {
            int flag = 0;
            while (!flag)
                MPI_Parrived(r, p, &flag);
            for (int k = p * (N / rp); k < (p + 1) * (N / rp); k++)
                if (rbuf[k] != val(left, round, k))
                    early++;
        }
        MPI_Status st[2];
        MPI_Request both[2] = {s, r};
        MPI_Waitall(2, both, st);
        int count = -1;
        MPI_Get_count(&st[1], MPI_INT, &count);
        bad += count != N || st[1].MPI_SOURCE != left || st[1].MPI_TAG != 1;
        for (int k = 0; k < N; k++)
            bad += rbuf[k] != val(left, round, k);
    }
    mt_is_int(early, 0, "%d x %d ints received as %d x %d: each partition right once MPI_Parrived says so", sp,
              N / sp, rp, N / rp);
    mt_is_int(bad, 0, "%d x %d ints received as %d x %d: 5 rounds, data, count, source and tag", sp, N / sp, rp,
              N / rp);
    MPI_Request_free(&s);
    MPI_Request_free(&r);
    mt_ok(s == MPI_REQUEST_NULL && r == MPI_REQUEST_NULL, "MPI_Request_free of partitioned requests");
}

static void half(void)
{
    int sbuf[8], rbuf[8], flags[4], ack = 0;
    MPI_Request s, r;
    for (int k = 0; k < 8; k++) {
        sbuf[k] = val(rank, 0, k);
        rbuf[k] = -1;
    }
    MPI_Psend_init(sbuf, 4, 2, MPI_INT, right, 2, MPI_COMM_WORLD, MPI_INFO_NULL, &s);
    MPI_Precv_init(rbuf, 4, 2, MPI_INT, left, 2, MPI_COMM_WORLD, MPI_INFO_NULL, &r);
    MPI_Startall(1, &r);
    MPI_Startall(1, &s);
    MPI_Pready_range(0, 1, s);
    for (int p = 0; p < 2; p++)
        do
            MPI_Parrived(r, p, &flags[p]);
        while (!flags[p]);
    MPI_Parrived(r, 2, &flags[2]);
    MPI_Parrived(r, 3, &flags[3]);
    mt_ok(flags[2] == 0 && flags[3] == 0, "partitions not marked ready have not arrived");
    int ok = 1;
    for (int k = 0; k < 4; k++)
        ok &= rbuf[k] == val(left, 0, k);
    mt_ok(ok, "the two ready partitions arrived with their data");
    /* tell the sender, hear from the receiver, then the rest */
    MPI_Sendrecv(&ack, 1, MPI_INT, left, 3, &ack, 1, MPI_INT, right, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    int list[2] = {3, 2};
    MPI_Pready_list(2, list, s);
    MPI_Wait(&r, MPI_STATUS_IGNORE);
    MPI_Wait(&s, MPI_STATUS_IGNORE);
    ok = 1;
    for (int k = 0; k < 8; k++)
        ok &= rbuf[k] == val(left, 0, k);
    mt_ok(ok, "the rest arrived after the receiver asked for it");
    int flag = 0;
    MPI_Parrived(r, 3, &flag);
    mt_is_int(flag, 1, "MPI_Parrived of an inactive receive: true");
    MPI_Request_free(&s);
    MPI_Request_free(&r);
}

/* 8 elements of 3 ints each, 2 ints apart, in slots of 6 ints */
static MPI_Datatype strided(void)
{
    MPI_Datatype v, t;
    MPI_Type_vector(3, 1, 2, MPI_INT, &v);
    MPI_Type_create_resized(v, 0, 6 * sizeof(int), &t);
    MPI_Type_commit(&t);
    MPI_Type_free(&v);
    return t;
}

static void noncontig(void)
{
    MPI_Datatype t = strided();
    int c[24], sparse[48], bad = 0;
    MPI_Request s, r;
    /* contiguous 6 x 4 sent, strided 4 x 2 elements received */
    MPI_Psend_init(c, 6, 4, MPI_INT, right, 4, MPI_COMM_WORLD, MPI_INFO_NULL, &s);
    MPI_Precv_init(sparse, 4, 2, t, left, 4, MPI_COMM_WORLD, MPI_INFO_NULL, &r);
    for (int round = 0; round < 3; round++) {
        for (int k = 0; k < 24; k++)
            c[k] = val(rank, round, k);
        for (int k = 0; k < 48; k++)
            sparse[k] = -1;
        MPI_Start(&r);
        MPI_Start(&s);
        ready_all_reverse(s, 6);
        for (int p = 3; p >= 0; p--) {
            int flag = 0;
            while (!flag)
                MPI_Parrived(r, p, &flag);
            for (int e = 2 * p; e < 2 * p + 2; e++)
                for (int i = 0; i < 3; i++)
                    bad += sparse[6 * e + 2 * i] != val(left, round, 3 * e + i);
        }
        MPI_Wait(&s, MPI_STATUS_IGNORE);
        MPI_Wait(&r, MPI_STATUS_IGNORE);
        for (int k = 0; k < 48; k++) {
            int e = k / 6, i = k % 6;
            bad += sparse[k] != (i % 2 ? -1 : val(left, round, 3 * e + i / 2));
        }
    }
    mt_is_int(bad, 0, "contiguous 6 x 4 ints received as 4 x 2 strided elements (3 rounds; gaps untouched)");
    MPI_Request_free(&s);
    MPI_Request_free(&r);

    /* strided 2 x 4 elements sent, contiguous 3 x 8 received */
    MPI_Psend_init(sparse, 2, 4, t, right, 4, MPI_COMM_WORLD, MPI_INFO_NULL, &s);
    MPI_Precv_init(c, 3, 8, MPI_INT, left, 4, MPI_COMM_WORLD, MPI_INFO_NULL, &r);
    for (int k = 0; k < 48; k++)
        sparse[k] = k % 2 ? -7 : val(rank, 9, (k / 6) * 3 + (k % 6) / 2);
    memset(c, 0, sizeof c);
    MPI_Start(&r);
    MPI_Start(&s);
    MPI_Pready(1, s);
    MPI_Pready(0, s);
    MPI_Wait(&r, MPI_STATUS_IGNORE);
    MPI_Wait(&s, MPI_STATUS_IGNORE);
    bad = 0;
    for (int k = 0; k < 24; k++)
        bad += c[k] != val(left, 9, k);
    mt_is_int(bad, 0, "strided 2 x 4 elements received as 3 x 8 contiguous ints");
    MPI_Request_free(&s);
    MPI_Request_free(&r);
    MPI_Type_free(&t);
}

static void order(void)
{
    int a[4], b[6], c[2], ra[4], rb[6], rc[2];
    MPI_Request q[6];
    for (int k = 0; k < 6; k++) {
        if (k < 4)
            a[k] = val(rank, 1, k);
        b[k] = val(rank, 2, k);
        if (k < 2)
            c[k] = val(rank, 3, k);
    }
    MPI_Psend_init(a, 2, 2, MPI_INT, right, 5, MPI_COMM_WORLD, MPI_INFO_NULL, &q[0]);
    MPI_Psend_init(b, 3, 2, MPI_INT, right, 5, MPI_COMM_WORLD, MPI_INFO_NULL, &q[1]);
    MPI_Psend_init(c, 1, 2, MPI_INT, right, 7, MPI_COMM_WORLD, MPI_INFO_NULL, &q[2]);
    MPI_Precv_init(rc, 2, 1, MPI_INT, left, 7, MPI_COMM_WORLD, MPI_INFO_NULL, &q[3]);
    MPI_Precv_init(ra, 1, 4, MPI_INT, left, 5, MPI_COMM_WORLD, MPI_INFO_NULL, &q[4]);
    MPI_Precv_init(rb, 6, 1, MPI_INT, left, 5, MPI_COMM_WORLD, MPI_INFO_NULL, &q[5]);
    MPI_Startall(6, q);
    MPI_Pready_range(0, 0, q[2]);
    MPI_Pready_range(0, 2, q[1]);
    MPI_Pready_range(0, 1, q[0]);
    MPI_Waitall(6, q, MPI_STATUSES_IGNORE);
    int ok = 1;
    for (int k = 0; k < 6; k++) {
        if (k < 4)
            ok &= ra[k] == val(left, 1, k);
        ok &= rb[k] == val(left, 2, k);
        if (k < 2)
            ok &= rc[k] == val(left, 3, k);
    }
    mt_ok(ok, "sends of tags 5, 5, 7 met receives of tags 7, 5, 5 in the order of their inits");
    for (int i = 0; i < 6; i++)
        MPI_Request_free(&q[i]);
}

static void late_sender(void)
{
    int sbuf[6], rbuf[6];
    MPI_Request s, r;
    for (int k = 0; k < 6; k++) {
        sbuf[k] = val(rank, 4, k);
        rbuf[k] = -1;
    }
    MPI_Precv_init(rbuf, 2, 3, MPI_INT, left, 8, MPI_COMM_WORLD, MPI_INFO_NULL, &r);
    MPI_Start(&r);
    MPI_Barrier(MPI_COMM_WORLD); /* every receive is started before any sender is made */
    MPI_Psend_init(sbuf, 3, 2, MPI_INT, right, 8, MPI_COMM_WORLD, MPI_INFO_NULL, &s);
    MPI_Start(&s);
    MPI_Pready_range(0, 2, s);
    int flag = 0;
    while (!flag)
        MPI_Test(&r, &flag, MPI_STATUS_IGNORE);
    MPI_Wait(&s, MPI_STATUS_IGNORE);
    int ok = 1;
    for (int k = 0; k < 6; k++)
        ok &= rbuf[k] == val(left, 4, k);
    mt_ok(ok, "a receive started before its sender was made, completed by MPI_Test alone");
    MPI_Request_free(&s);
    MPI_Request_free(&r);
}

static void large(void)
{
    enum { N = 4 * 65536 };
    double *sb = malloc(N * sizeof(double)), *rb = malloc(N * sizeof(double));
    MPI_Request s, r;
    int bad = 0;
    MPI_Psend_init(sb, 4, N / 4, MPI_DOUBLE, right, 9, MPI_COMM_WORLD, MPI_INFO_NULL, &s);
    MPI_Precv_init(rb, 2, N / 2, MPI_DOUBLE, left, 9, MPI_COMM_WORLD, MPI_INFO_NULL, &r);
    for (int round = 0; round < 2; round++) {
        for (int k = 0; k < N; k++) {
            sb[k] = val(rank, round, 0) + (double)k;
            rb[k] = -1;
        }
        MPI_Start(&r);
        MPI_Start(&s);
        ready_all_reverse(s, 4);
        MPI_Wait(&r, MPI_STATUS_IGNORE);
        MPI_Wait(&s, MPI_STATUS_IGNORE);
        for (int k = 0; k < N; k++)
            bad += rb[k] != val(left, round, 0) + (double)k;
    }
    mt_is_int(bad, 0, "4 partitions of 512 KiB received as 2, twice");
    MPI_Request_free(&s);
    MPI_Request_free(&r);
    free(sb);
    free(rb);
}

struct thr {
    MPI_Request s;
    int first;
};

static void *ready_thread(void *arg)
{
    struct thr *t = arg;
    for (int p = t->first; p < 64; p += 4)
        MPI_Pready(p, t->s);
    return NULL;
}

static void threads(void)
{
    int sbuf[64 * 5] = {0}, rbuf[64 * 5], bad = 0;
    MPI_Request s, r;
    MPI_Psend_init(sbuf, 64, 5, MPI_INT, right, 10, MPI_COMM_WORLD, MPI_INFO_NULL, &s);
    MPI_Precv_init(rbuf, 8, 40, MPI_INT, left, 10, MPI_COMM_WORLD, MPI_INFO_NULL, &r);
    for (int round = 0; round < 10; round++) {
        for (int k = 0; k < 64 * 5; k++) {
            sbuf[k] = val(rank, round, k);
            rbuf[k] = -1;
        }
        MPI_Start(&r);
        MPI_Start(&s);
        pthread_t th[4];
        struct thr t[4];
        for (int i = 0; i < 4; i++) {
            t[i] = (struct thr){s, i};
            pthread_create(&th[i], NULL, ready_thread, &t[i]);
        }
        for (int i = 0; i < 4; i++)
            pthread_join(th[i], NULL);
        MPI_Wait(&r, MPI_STATUS_IGNORE);
        MPI_Wait(&s, MPI_STATUS_IGNORE);
        for (int k = 0; k < 64 * 5; k++)
            bad += rbuf[k] != val(left, round, k);
    }
    mt_is_int(bad, 0, "64 partitions marked ready by 4 threads, received as 8 (10 rounds)");
    MPI_Request_free(&s);
    MPI_Request_free(&r);
}

static void proc_null(void)
{
    int x[4] = {0}, flag = 0;
    MPI_Request s, r;
    MPI_Status st;
    MPI_Psend_init(x, 2, 2, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &s);
    MPI_Precv_init(x, 2, 2, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &r);
    MPI_Start(&s);
    MPI_Start(&r);
    MPI_Parrived(r, 1, &flag);
    MPI_Pready_range(0, 1, s);
    MPI_Wait(&s, MPI_STATUS_IGNORE);
    MPI_Wait(&r, &st);
    int count = -1;
    MPI_Get_count(&st, MPI_INT, &count);
    mt_ok(flag == 1 && st.MPI_SOURCE == MPI_PROC_NULL && count == 0,
          "MPI_PROC_NULL: complete at once, partition arrived, empty status from MPI_PROC_NULL");
    MPI_Request_free(&s);
    MPI_Request_free(&r);
}

static void churn(void)
{
    int bad = 0;
    for (int i = 0; i < 100; i++) {
        int x[3] = {rank, i, 7}, y[3] = {-1, -1, -1};
        MPI_Request s, r;
        MPI_Psend_init(x, 3, 1, MPI_INT, right, 11, MPI_COMM_WORLD, MPI_INFO_NULL, &s);
        MPI_Precv_init(y, 1, 3, MPI_INT, left, 11, MPI_COMM_WORLD, MPI_INFO_NULL, &r);
        MPI_Start(&s);
        MPI_Start(&r);
        MPI_Pready_range(0, 2, s);
        MPI_Wait(&r, MPI_STATUS_IGNORE);
        MPI_Wait(&s, MPI_STATUS_IGNORE);
        MPI_Request_free(&s);
        MPI_Request_free(&r);
        bad += y[0] != left || y[1] != i || y[2] != 7;
    }
    mt_is_int(bad, 0, "100 partitioned requests made, used and freed in turn");
}

static void edges(void)
{
    int x[4] = {1, 2, 3, 4}, y[4] = {0}, count = -1;
    MPI_Request s, r;
    MPI_Status st;
    /* no partitions at all */
    MPI_Psend_init(x, 0, 4, MPI_INT, right, 15, MPI_COMM_WORLD, MPI_INFO_NULL, &s);
    MPI_Precv_init(y, 0, 4, MPI_INT, left, 15, MPI_COMM_WORLD, MPI_INFO_NULL, &r);
    MPI_Start(&s);
    MPI_Start(&r);
    MPI_Wait(&s, MPI_STATUS_IGNORE);
    MPI_Wait(&r, &st);
    MPI_Get_count(&st, MPI_INT, &count);
    mt_ok(count == 0 && st.MPI_SOURCE == left, "0 partitions: both complete, count 0 from the left rank");
    MPI_Request_free(&s);
    MPI_Request_free(&r);
    /* partitions of 0 elements */
    MPI_Psend_init(x, 3, 0, MPI_INT, right, 16, MPI_COMM_WORLD, MPI_INFO_NULL, &s);
    MPI_Precv_init(y, 2, 0, MPI_INT, left, 16, MPI_COMM_WORLD, MPI_INFO_NULL, &r);
    MPI_Start(&s);
    MPI_Start(&r);
    MPI_Pready_range(0, 2, s);
    MPI_Wait(&s, MPI_STATUS_IGNORE);
    MPI_Wait(&r, &st);
    count = -1;
    MPI_Get_count(&st, MPI_INT, &count);
    mt_is_int(count, 0, "3 partitions of 0 ints received as 2 of 0: count 0");
    MPI_Request_free(&s);
    MPI_Request_free(&r);
    /* the communicator freed while its requests live; the send freed while active */
    MPI_Comm d;
    MPI_Comm_dup(MPI_COMM_WORLD, &d);
    MPI_Psend_init(x, 2, 2, MPI_INT, right, 17, d, MPI_INFO_NULL, &s);
    MPI_Precv_init(y, 2, 2, MPI_INT, left, 17, d, MPI_INFO_NULL, &r);
    MPI_Comm_free(&d);
    MPI_Start(&r);
    MPI_Start(&s);
    MPI_Pready_range(0, 1, s);
    MPI_Request_free(&s);
    int flag = 0;
    while (!flag)
        MPI_Request_get_status(r, &flag, MPI_STATUS_IGNORE);
    MPI_Wait(&r, &st);
    mt_ok(s == MPI_REQUEST_NULL && y[0] == 1 && y[1] == 2 && y[2] == 3 && y[3] == 4 && st.MPI_TAG == 17,
          "a freed communicator's requests still work; a send freed while active still arrives");
    MPI_Request_free(&r);

    /* a pair made and freed unused (the receive before its sender's
     * announcement came, or after), then a pair of the same tag: the
     * second receive meets the second send */
    int z[4] = {9, 8, 7, 6};
    MPI_Psend_init(x, 1, 4, MPI_INT, right, 18, MPI_COMM_WORLD, MPI_INFO_NULL, &s);
    MPI_Precv_init(y, 1, 4, MPI_INT, left, 18, MPI_COMM_WORLD, MPI_INFO_NULL, &r);
    MPI_Request_free(&r);
    MPI_Request_free(&s);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Psend_init(z, 2, 2, MPI_INT, right, 18, MPI_COMM_WORLD, MPI_INFO_NULL, &s);
    MPI_Precv_init(y, 1, 4, MPI_INT, left, 18, MPI_COMM_WORLD, MPI_INFO_NULL, &r);
    MPI_Start(&r);
    MPI_Start(&s);
    MPI_Pready_range(0, 1, s);
    MPI_Wait(&r, MPI_STATUS_IGNORE);
    MPI_Wait(&s, MPI_STATUS_IGNORE);
    mt_ok(y[0] == 9 && y[1] == 8 && y[2] == 7 && y[3] == 6,
          "a pair freed unused, then another of the same tag: the second receive meets the second send");
    MPI_Request_free(&r);
    MPI_Request_free(&s);
}

static int cls(int err)
{
    int c = err;
    if (err != MPI_SUCCESS)
        MPI_Error_class(err, &c);
    return c;
}

static void errors(void)
{
    int x[8] = {0}, flag = -1;
    MPI_Request s, r, q;
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    mt_is_int(cls(MPI_Precv_init(x, 1, 1, MPI_INT, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &q)),
              MPI_ERR_RANK, "MPI_Precv_init from MPI_ANY_SOURCE: MPI_ERR_RANK");
    mt_is_int(cls(MPI_Precv_init(x, 1, 1, MPI_INT, left, MPI_ANY_TAG, MPI_COMM_WORLD, MPI_INFO_NULL, &q)),
              MPI_ERR_TAG, "MPI_Precv_init with MPI_ANY_TAG: MPI_ERR_TAG");
    mt_is_int(cls(MPI_Psend_init(x, -1, 1, MPI_INT, right, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &q)), MPI_ERR_ARG,
              "MPI_Psend_init of -1 partitions: MPI_ERR_ARG");
    mt_is_int(cls(MPI_Psend_init(x, 1, -1, MPI_INT, right, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &q)), MPI_ERR_COUNT,
              "MPI_Psend_init of count -1: MPI_ERR_COUNT");
    mt_is_int(cls(MPI_Psend_init(x, 1, 1, MPI_INT, size, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &q)), MPI_ERR_RANK,
              "MPI_Psend_init to rank size: MPI_ERR_RANK");
    mt_is_int(cls(MPI_Psend_init(x, 1, 1, MPI_INT, right, 0, MPI_COMM_WORLD, MPI_INFO_NULL, NULL)), MPI_ERR_ARG,
              "MPI_Psend_init with a NULL request pointer: MPI_ERR_ARG");

    MPI_Psend_init(x, 4, 2, MPI_INT, right, 12, MPI_COMM_WORLD, MPI_INFO_NULL, &s);
    MPI_Precv_init(x, 4, 2, MPI_INT, left, 12, MPI_COMM_WORLD, MPI_INFO_NULL, &r);
    mt_is_int(cls(MPI_Pready(0, s)), MPI_ERR_REQUEST, "MPI_Pready before MPI_Start: MPI_ERR_REQUEST");
    mt_is_int(cls(MPI_Parrived(s, 0, &flag)), MPI_ERR_REQUEST, "MPI_Parrived of a send: MPI_ERR_REQUEST");
    MPI_Start(&r);
    MPI_Start(&s);
    mt_is_int(cls(MPI_Pready(0, r)), MPI_ERR_REQUEST, "MPI_Pready of a receive: MPI_ERR_REQUEST");
    mt_is_int(cls(MPI_Pready(4, s)), MPI_ERR_ARG, "MPI_Pready of partition 4 of 4: MPI_ERR_ARG");
    mt_is_int(cls(MPI_Pready(-1, s)), MPI_ERR_ARG, "MPI_Pready of partition -1: MPI_ERR_ARG");
    mt_is_int(cls(MPI_Pready_range(2, 1, s)), MPI_ERR_ARG, "MPI_Pready_range(2, 1): MPI_ERR_ARG");
    int dup[3] = {1, 2, 1};
    mt_is_int(cls(MPI_Pready_list(3, dup, s)), MPI_ERR_ARG, "MPI_Pready_list naming partition 1 twice: MPI_ERR_ARG");
    mt_is_int(cls(MPI_Parrived(r, 4, &flag)), MPI_ERR_ARG, "MPI_Parrived of partition 4 of 4: MPI_ERR_ARG");
    mt_is_int(cls(MPI_Parrived(r, 0, NULL)), MPI_ERR_ARG, "MPI_Parrived with a NULL flag: MPI_ERR_ARG");
    mt_is_int(cls(MPI_Pready(1, s)), MPI_SUCCESS, "the failed list marked nothing: partition 1 is still free");
    mt_is_int(cls(MPI_Pready(1, s)), MPI_ERR_ARG, "MPI_Pready of a partition already ready: MPI_ERR_ARG");
    mt_is_int(cls(MPI_Start(&s)), MPI_ERR_REQUEST, "MPI_Start of an active partitioned send: MPI_ERR_REQUEST");
    int rest[3] = {3, 0, 2};
    MPI_Pready_list(3, rest, s);
    mt_is_int(cls(MPI_Wait(&s, MPI_STATUS_IGNORE)), MPI_SUCCESS, "the send completes after the errors");
    mt_is_int(cls(MPI_Wait(&r, MPI_STATUS_IGNORE)), MPI_SUCCESS, "the receive too");
    MPI_Request_free(&s);
    MPI_Request_free(&r);

    /* 24 ints into 16: MPI_ERR_TRUNCATE, the 16 delivered; then 16 into 24 */
    int big[24], small[16], wide[24];
    for (int k = 0; k < 24; k++)
        big[k] = val(rank, 5, k);
    MPI_Psend_init(big, 3, 8, MPI_INT, right, 13, MPI_COMM_WORLD, MPI_INFO_NULL, &s);
    MPI_Precv_init(small, 4, 4, MPI_INT, left, 13, MPI_COMM_WORLD, MPI_INFO_NULL, &r);
    MPI_Start(&r);
    MPI_Start(&s);
    MPI_Pready_range(0, 2, s);
    MPI_Status st;
    mt_is_int(cls(MPI_Wait(&r, &st)), MPI_ERR_TRUNCATE, "24 ints into a partitioned receive of 16: MPI_ERR_TRUNCATE");
    mt_is_int(cls(MPI_Wait(&s, MPI_STATUS_IGNORE)), MPI_SUCCESS, "its sender completes");
    int ok = 1;
    for (int k = 0; k < 16; k++)
        ok &= small[k] == val(left, 5, k);
    mt_ok(ok, "the 16 ints that fit were delivered");
    MPI_Request_free(&s);
    MPI_Request_free(&r);
    MPI_Psend_init(big, 2, 8, MPI_INT, right, 14, MPI_COMM_WORLD, MPI_INFO_NULL, &s);
    MPI_Precv_init(wide, 3, 8, MPI_INT, left, 14, MPI_COMM_WORLD, MPI_INFO_NULL, &r);
    MPI_Start(&r);
    MPI_Start(&s);
    MPI_Pready_range(0, 1, s);
    mt_is_int(cls(MPI_Wait(&r, &st)), MPI_SUCCESS, "16 ints into a partitioned receive of 24: success");
    int count = -1;
    MPI_Get_count(&st, MPI_INT, &count);
    mt_is_int(count, 16, "its count is 16");
    MPI_Wait(&s, MPI_STATUS_IGNORE);
    MPI_Request_free(&s);
    MPI_Request_free(&r);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
}

int main(int argc, char **argv)
{
    int provided;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    mt_rank = rank;
    right = (rank + 1) % size;
    left = (rank + size - 1) % size;
    mt_is_int(provided, MPI_THREAD_MULTIPLE, "MPI_THREAD_MULTIPLE provided");
    static const int pairs[][2] = {{24, 1}, {1, 24}, {8, 3}, {3, 8}, {6, 4}, {4, 6}, {8, 8}};
    for (unsigned i = 0; i < sizeof pairs / sizeof pairs[0]; i++)
        cuts(pairs[i][0], pairs[i][1]);
    half();
    noncontig();
    order();
    late_sender();
    large();
    threads();
    proc_null();
    churn();
    edges();
    errors();
    MPI_Barrier(MPI_COMM_WORLD);
    printf("done [rank %d] %d checks, %d failed\n", rank, mt_checks, mt_failed);
    MPI_Finalize();
    return mt_failed != 0;
}

/* MPI test: what only persistent collectives do (MPI 4.0 6.13;
 * collectives/persist.c); coll_persist.c runs coll.c's checks of every
 * collective through them.
 *   - one Allreduce request started 300 times (past the node areas'
 *     depth), the input changed before every start, in place too; the
 *     same for a large one (by schedule) and a Bcast
 *   - three requests started in a different order on odd and even ranks,
 *     and by MPI_Startall with the array in a different order: starts
 *     need not be ordered
 *   - a persistent Allreduce outstanding across blocking collectives and
 *     a nonblocking one of the same communicator, and completed by
 *     MPI_Test alone
 *   - 40 requests alive at once (more than the node's slots: the rest
 *     go by schedule), each started twice; 100 made and freed in turn
 *   - MPI_Request_free while active; the datatype and the communicator
 *     freed while the request lives
 *   - an intercommunicator's persistent Allreduce
 *   - errors: MPI_Start of an active request, a bad info, a NULL request
 *     pointer; counts that do not match (an erroneous program): every rank
 *     gets MPI_ERR_TRUNCATE from MPI_Wait and goes on */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mtest.h"

static int rank, size;

static long tri(int n)
{
    return (long)n * (n - 1) / 2;
}

static void repeated(void)
{
    MPI_Request q;
    long x = 0, y = -1;
    MPI_Allreduce_init(&x, &y, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, &q);
    int bad = 0;
    for (int it = 0; it < 300; it++) {
        x = rank + 1000L * it;
        MPI_Start(&q);
        MPI_Wait(&q, MPI_STATUS_IGNORE);
        if (y != tri(size) + 1000L * it * size) {
            if (!bad)
                printf("# [rank %d] start %d: %ld, expected %ld\n", rank, it, y, tri(size) + 1000L * it * size);
            bad++;
        }
    }
    mt_is_int(bad, 0, "Allreduce_init of 8 B started 300 times, new input each time");
    MPI_Request_free(&q);
    mt_ok(q == MPI_REQUEST_NULL, "MPI_Request_free sets the handle to MPI_REQUEST_NULL");

    /* in place, a vector of 5 doubles */
    double v[5];
    MPI_Allreduce_init(MPI_IN_PLACE, v, 5, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD, MPI_INFO_NULL, &q);
    bad = 0;
    for (int it = 0; it < 100; it++) {
        for (int i = 0; i < 5; i++)
            v[i] = (rank * 7 + it + i) % size + 0.25 * it;
        MPI_Start(&q);
        MPI_Wait(&q, MPI_STATUS_IGNORE);
        for (int i = 0; i < 5; i++) {
            double m = -1;
            for (int r = 0; r < size; r++) {
                double e = (r * 7 + it + i) % size + 0.25 * it;
                m = e > m ? e : m;
            }
            bad += v[i] != m;
        }
    }
    MPI_Request_free(&q);
    mt_is_int(bad, 0, "Allreduce_init in place, MAX of 5 doubles, 100 starts");

    /* large: by schedule */
    int n = 100000;
    int *s = malloc(sizeof(int) * n), *r = malloc(sizeof(int) * n);
    MPI_Allreduce_init(s, r, n, MPI_INT, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, &q);
    bad = 0;
    for (int it = 0; it < 5; it++) {
        for (int i = 0; i < n; i++)
            s[i] = rank * it + i % 13;
        MPI_Start(&q);
        MPI_Wait(&q, MPI_STATUS_IGNORE);
        for (int i = 0; i < n; i++)
            bad += r[i] != (int)(tri(size) * it + (long)size * (i % 13));
    }
    MPI_Request_free(&q);
    mt_is_int(bad, 0, "Allreduce_init of 400 KB, 5 starts, new input each time");

    /* Bcast from the last rank */
    MPI_Bcast_init(s, 1000, MPI_INT, size - 1, MPI_COMM_WORLD, MPI_INFO_NULL, &q);
    bad = 0;
    for (int it = 0; it < 20; it++) {
        for (int i = 0; i < 1000; i++)
            s[i] = rank == size - 1 ? it * 1000 + i : -1;
        MPI_Start(&q);
        MPI_Wait(&q, MPI_STATUS_IGNORE);
        for (int i = 0; i < 1000; i++)
            bad += s[i] != it * 1000 + i;
    }
    MPI_Request_free(&q);
    mt_is_int(bad, 0, "Bcast_init from rank %d, 20 starts", size - 1);
    free(s);
    free(r);
}

/* three requests: small Allreduce, large Allgather, Barrier */
static void unordered(void)
{
    MPI_Request q[3];
    int x, y, *g = malloc(sizeof(int) * 20000 * size), *mine = malloc(sizeof(int) * 20000);
    MPI_Allreduce_init(&x, &y, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, &q[0]);
    MPI_Allgather_init(mine, 20000, MPI_INT, g, 20000, MPI_INT, MPI_COMM_WORLD, MPI_INFO_NULL, &q[1]);
    MPI_Barrier_init(MPI_COMM_WORLD, MPI_INFO_NULL, &q[2]);
    int bad = 0;
    for (int it = 0; it < 10; it++) {
        x = rank * it;
        for (int i = 0; i < 20000; i++)
            mine[i] = rank * 100000 + i + it;
        if (it % 2 == 0) {
            /* one at a time, in an order that depends on the rank */
            for (int k = 0; k < 3; k++)
                MPI_Start(&q[rank % 2 ? 2 - k : k]);
        } else {
            MPI_Request perm[3] = {q[(rank + 1) % 3], q[(rank + 2) % 3], q[rank % 3]};
            MPI_Startall(3, perm);
            for (int k = 0; k < 3; k++)
                q[(rank + 1 + k) % 3] = perm[k];
        }
        MPI_Waitall(3, q, MPI_STATUSES_IGNORE);
        bad += y != (int)tri(size) * it;
        for (int r = 0; r < size; r++)
            for (int i = 0; i < 20000; i++)
                bad += g[r * 20000 + i] != r * 100000 + i + it;
    }
    mt_is_int(bad, 0, "3 requests started in a different order on each rank (MPI_Start and MPI_Startall), 10 times");
    for (int k = 0; k < 3; k++)
        MPI_Request_free(&q[k]);
    free(g);
    free(mine);
}

static void beside_others(void)
{
    MPI_Request q, nb;
    int x = rank, y = -1, z, w;
    MPI_Allreduce_init(&x, &y, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, &q);
    int bad = 0;
    for (int it = 0; it < 50; it++) {
        x = rank + it;
        MPI_Start(&q);
        /* blocking collectives of the same communicator meanwhile */
        int one = 1, all = 0;
        MPI_Allreduce(&one, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
        bad += all != size;
        MPI_Barrier(MPI_COMM_WORLD);
        z = it;
        MPI_Iallreduce(&z, &w, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD, &nb);
        MPI_Bcast(&z, 1, MPI_INT, 0, MPI_COMM_WORLD);
        MPI_Wait(&nb, MPI_STATUS_IGNORE);
        bad += w != it;
        MPI_Wait(&q, MPI_STATUS_IGNORE);
        bad += y != (int)tri(size) + size * it;
    }
    mt_is_int(bad, 0, "a persistent Allreduce outstanding across Allreduce, Barrier, Iallreduce, Bcast, 50 times");

    /* completed by MPI_Test alone */
    x = rank;
    MPI_Start(&q);
    int flag = 0;
    long polls = 0;
    while (!flag && polls < 100000000L) {
        MPI_Test(&q, &flag, MPI_STATUS_IGNORE);
        polls++;
    }
    mt_ok(flag && y == (int)tri(size), "a persistent Allreduce completed by MPI_Test alone: %d", y);
    /* an inactive persistent request: Test says done at once, Wait returns */
    flag = 0;
    MPI_Test(&q, &flag, MPI_STATUS_IGNORE);
    mt_ok(flag, "MPI_Test of an inactive persistent collective: flag set");
    mt_is_int(MPI_Wait(&q, MPI_STATUS_IGNORE), MPI_SUCCESS, "MPI_Wait of an inactive persistent collective");
    MPI_Request_free(&q);
}

static void many(void)
{
    enum { N = 40 };
    MPI_Request q[N];
    int x[N], y[N];
    for (int k = 0; k < N; k++)
        MPI_Allreduce_init(&x[k], &y[k], 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, &q[k]);
    int bad = 0;
    for (int it = 0; it < 2; it++) {
        for (int k = 0; k < N; k++)
            x[k] = rank * (k + 1) + it;
        MPI_Startall(N, q);
        MPI_Waitall(N, q, MPI_STATUSES_IGNORE);
        for (int k = 0; k < N; k++)
            bad += y[k] != (int)tri(size) * (k + 1) + size * it;
    }
    mt_is_int(bad, 0, "%d persistent Allreduces alive at once, started together twice", N);
    for (int k = 0; k < N; k++)
        MPI_Request_free(&q[k]);
    /* made and freed in turn: their slots come back */
    bad = 0;
    for (int k = 0; k < 100; k++) {
        MPI_Request r;
        int a = rank + k, b = -1;
        MPI_Allreduce_init(&a, &b, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, &r);
        MPI_Start(&r);
        MPI_Wait(&r, MPI_STATUS_IGNORE);
        MPI_Request_free(&r);
        bad += b != (int)tri(size) + size * k;
    }
    mt_is_int(bad, 0, "100 persistent Allreduces made, started and freed in turn");
}

static void freed_things(void)
{
    /* MPI_Request_free while active: it completes on its own (its
     * buffers static: when is not for the program to know) */
    MPI_Request q;
    static int x, y;
    x = rank;
    MPI_Allreduce_init(&x, &y, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, &q);
    MPI_Start(&q);
    MPI_Request_free(&q);
    static int big[50000], bigr[50000];
    for (int i = 0; i < 50000; i++)
        big[i] = rank + i;
    MPI_Allreduce_init(big, bigr, 50000, MPI_INT, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, &q);
    MPI_Start(&q);
    MPI_Request_free(&q);
    /* (when they complete is not for the program to know: the next
     * collectives must line up all the same) */
    int one = rank, all = -1;
    MPI_Allreduce(&one, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    mt_is_int(all, (int)tri(size), "collectives line up after MPI_Request_free of active persistent ones");
    MPI_Barrier(MPI_COMM_WORLD);

    /* the type and the communicator freed while the request lives */
    MPI_Comm dup;
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    MPI_Datatype pair;
    MPI_Type_contiguous(2, MPI_INT, &pair);
    MPI_Type_commit(&pair);
    int s2[6], r2[6];
    MPI_Allreduce_init(s2, r2, 3, pair, MPI_SUM, dup, MPI_INFO_NULL, &q);
    MPI_Type_free(&pair);
    MPI_Comm_free(&dup);
    int bad = 0;
    for (int it = 0; it < 3; it++) {
        for (int i = 0; i < 6; i++)
            s2[i] = rank * i + it;
        MPI_Start(&q);
        MPI_Wait(&q, MPI_STATUS_IGNORE);
        for (int i = 0; i < 6; i++)
            bad += r2[i] != (int)tri(size) * i + size * it;
    }
    MPI_Request_free(&q);
    mt_is_int(bad, 0, "type and communicator freed after the init: 3 starts still right");
}

static void intercomm(void)
{
    if (size < 2)
        return;
    MPI_Comm half, inter;
    int color = rank % 2;
    MPI_Comm_split(MPI_COMM_WORLD, color, rank, &half);
    MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, 1 - color, 7, &inter);
    MPI_Request q;
    int x, y = -1, rsize;
    MPI_Comm_remote_size(inter, &rsize);
    MPI_Allreduce_init(&x, &y, 1, MPI_INT, MPI_SUM, inter, MPI_INFO_NULL, &q);
    int bad = 0;
    for (int it = 0; it < 4; it++) {
        x = rank + it;
        MPI_Start(&q);
        MPI_Wait(&q, MPI_STATUS_IGNORE);
        /* the sum over the other group: world ranks of the other parity */
        int e = 0;
        for (int r = 1 - color; r < size; r += 2)
            e += r + it;
        bad += y != e;
    }
    MPI_Request_free(&q);
    mt_is_int(bad, 0, "an intercommunicator's persistent Allreduce (%d remote ranks), 4 starts", rsize);
    MPI_Comm_free(&inter);
    MPI_Comm_free(&half);
}

static void errors(void)
{
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int x = rank, y, cls = -1;
    MPI_Request q;
    MPI_Allreduce_init(&x, &y, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, &q);
    MPI_Start(&q);
    MPI_Error_class(MPI_Start(&q), &cls);
    mt_is_int(cls, MPI_ERR_REQUEST, "MPI_Start of an active persistent collective: MPI_ERR_REQUEST");
    MPI_Wait(&q, MPI_STATUS_IGNORE);
    mt_is_int(y, (int)tri(size), "the request still completes right after that error");
    MPI_Request_free(&q);

    static long junk[32];
    MPI_Info bogus = (MPI_Info)(void *)junk;
    MPI_Error_class(MPI_Barrier_init(MPI_COMM_WORLD, bogus, &q), &cls);
    mt_is_int(cls, MPI_ERR_INFO, "Barrier_init with an invalid info: MPI_ERR_INFO");
    MPI_Error_class(MPI_Allreduce_init(&x, &y, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, NULL), &cls);
    mt_is_int(cls, MPI_ERR_ARG, "Allreduce_init with a NULL request pointer: MPI_ERR_ARG");
    MPI_Error_class(MPI_Allreduce_init(&x, &y, -1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, &q), &cls);
    mt_is_int(cls, MPI_ERR_COUNT, "Allreduce_init with count -1: MPI_ERR_COUNT");

    /* counts that differ (erroneous): rank 0 2 ints, the others 3 */
    if (size > 1) {
        int s[3] = {1, 2, 3}, r[3];
        MPI_Allreduce_init(s, r, rank == 0 ? 2 : 3, MPI_INT, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, &q);
        MPI_Start(&q);
        MPI_Error_class(MPI_Wait(&q, MPI_STATUS_IGNORE), &cls);
        mt_is_int(cls, MPI_ERR_TRUNCATE, "Allreduce counts 2 and 3: MPI_ERR_TRUNCATE from MPI_Wait");
        MPI_Request_free(&q);
    }
    x = rank;
    MPI_Allreduce(&x, &y, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    mt_is_int(y, (int)tri(size), "collectives line up after the errors");
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    mt_rank = rank;
    repeated();
    unordered();
    beside_others();
    many();
    freed_things();
    intercomm();
    errors();
    MPI_Finalize();
    return mt_done();
}

/* MPI test: communicators made by several threads at once
 * (MPI_THREAD_MULTIPLE): 100 times, 2 new threads per rank each make a
 * communicator at once (MPI_Comm_dup of its own parent, or
 * MPI_Comm_create_from_group of a session's mpi://WORLD with its own string
 * tag, or MPI_Comm_dup of its own intercommunicator and MPI_Intercomm_merge
 * of the copy) and pass a value of its own around a ring on it, with the same tag
 * as the other thread, thread 0's receive posted first and thread 1's
 * message sent first: two communicators given the same context would hand
 * thread 1's value to thread 0. Every value is checked. */
#include <mpi.h>
#include <pthread.h>
#include <stdio.h>

#include "mtest.h"

#define ROUNDS 100

static int rank, size;
static MPI_Comm parent[2], inter[2];
static MPI_Session session;
static int bad[2], made[2], turn;
static pthread_barrier_t both;

static void *worker(void *arg)
{
    int t = (int)(long)arg;
    MPI_Group g = MPI_GROUP_NULL;
    if (session != MPI_SESSION_NULL)
        MPI_Group_from_session_pset(session, "mpi://WORLD", &g);
    for (int i = turn; i < turn + 1; i++) {
        MPI_Comm c;
        if (g != MPI_GROUP_NULL) {
            MPI_Comm_create_from_group(g, t ? "thread.one" : "thread.zero", MPI_INFO_NULL, MPI_ERRORS_ARE_FATAL, &c);
        } else if (inter[t] != MPI_COMM_NULL) {
            /* two agreements across the groups: the copy's pair and its
             * local group's, then the merged communicator's */
            MPI_Comm ic;
            MPI_Comm_dup(inter[t], &ic);
            MPI_Intercomm_merge(ic, rank % 2, &c);
            MPI_Comm_free(&ic);
        } else {
            MPI_Comm_dup(parent[t], &c);
        }
        made[t]++;
        int me; /* (a merged communicator orders the ranks its own way) */
        MPI_Comm_rank(c, &me);
        int right = (me + 1) % size, left = (me + size - 1) % size;
        int out = 1000000 * t + 1000 * me + i, in = -1;
        /* thread 0's receive is posted first, thread 1's message sent
         * first: were the two communicators of one context, thread 0 would
         * take thread 1's message */
        MPI_Request r = MPI_REQUEST_NULL;
        if (t == 0)
            MPI_Irecv(&in, 1, MPI_INT, left, 0, c, &r);
        pthread_barrier_wait(&both);
        if (t == 1)
            MPI_Irecv(&in, 1, MPI_INT, left, 0, c, &r);
        pthread_barrier_wait(&both);
        if (t == 1)
            MPI_Send(&out, 1, MPI_INT, right, 0, c);
        pthread_barrier_wait(&both);
        if (t == 0)
            MPI_Send(&out, 1, MPI_INT, right, 0, c);
        MPI_Wait(&r, MPI_STATUS_IGNORE);
        bad[t] += in != 1000000 * t + 1000 * left + i;
        MPI_Comm_free(&c);
    }
    if (g != MPI_GROUP_NULL)
        MPI_Group_free(&g);
    return NULL;
}

static void run(const char *what)
{
    pthread_t th[2];
    pthread_barrier_init(&both, NULL, 2);
    bad[0] = bad[1] = made[0] = made[1] = 0;
    for (turn = 0; turn < ROUNDS; turn++) { /* (new threads each time: they start the creation together) */
        for (long t = 0; t < 2; t++)
            pthread_create(&th[t], NULL, worker, (void *)t);
        for (int t = 0; t < 2; t++)
            pthread_join(th[t], NULL);
    }
    pthread_barrier_destroy(&both);
    mt_ok(bad[0] == 0 && bad[1] == 0 && made[0] == ROUNDS && made[1] == ROUNDS,
          "%s: 2 threads x %d communicators at once, every message to its own thread", what, ROUNDS);
}

/* Rank 0 uses up its context pairs (MPI_Comm_dup of MPI_COMM_SELF until
 * it fails), then ranks 0 and 1 make an intercommunicator: rank 0 has no
 * pair for its local group, and both must fail (rank 1 once went on alone,
 * or, under threads, waited for ever); with the pairs back, both succeed. */
static void out_of_pairs(void)
{
    static MPI_Comm d[8192];
    int n = 0, rc = MPI_SUCCESS, cls = -1;
    MPI_Comm self, ic = MPI_COMM_NULL;
    MPI_Comm_dup(MPI_COMM_SELF, &self);
    MPI_Comm_set_errhandler(self, MPI_ERRORS_RETURN);
    if (rank == 0)
        while (n < 8192 && (rc = MPI_Comm_dup(self, &d[n])) == MPI_SUCCESS)
            n++;
    if (rank == 0)
        mt_ok(rc != MPI_SUCCESS && n > 1000, "rank 0 ran out of context pairs after %d communicators", n);
    if (n > 0)
        MPI_Comm_free(&d[--n]); /* (one back: the intercommunicator's pair, but none for its local group) */
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank < 2) {
        rc = MPI_Intercomm_create(self, 0, MPI_COMM_WORLD, 1 - rank, 77, &ic);
        MPI_Error_class(rc, &cls);
        mt_ok(rc != MPI_SUCCESS && ic == MPI_COMM_NULL, "MPI_Intercomm_create with rank 0 out of pairs fails on "
              "both ranks (class %d)", cls);
    }
    while (n > 0)
        MPI_Comm_free(&d[--n]);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank < 2) {
        rc = MPI_Intercomm_create(self, 0, MPI_COMM_WORLD, 1 - rank, 78, &ic);
        mt_ok(rc == MPI_SUCCESS && ic != MPI_COMM_NULL, "with the pairs back, it succeeds");
        if (ic != MPI_COMM_NULL)
            MPI_Comm_free(&ic);
    }
    MPI_Comm_free(&self);
}

int main(int argc, char **argv)
{
    int provided;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    mt_rank = rank;
    mt_is_int(provided, MPI_THREAD_MULTIPLE, "MPI_THREAD_MULTIPLE provided");
    MPI_Comm_dup(MPI_COMM_WORLD, &parent[0]);
    MPI_Comm_dup(MPI_COMM_WORLD, &parent[1]);
    inter[0] = inter[1] = MPI_COMM_NULL;
    run("MPI_Comm_dup of two parents");
    MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_ARE_FATAL, &session);
    run("MPI_Comm_create_from_group with two string tags");
    MPI_Session_finalize(&session);
    session = MPI_SESSION_NULL;
    /* each thread's own intercommunicator: even ranks with odd ones */
    for (int t = 0; t < 2; t++) {
        MPI_Comm half;
        MPI_Comm_split(parent[t], rank % 2, rank, &half);
        MPI_Intercomm_create(half, 0, parent[t], rank % 2 ? 0 : 1, 5, &inter[t]);
        MPI_Comm_free(&half);
    }
    run("MPI_Comm_dup of two intercommunicators and MPI_Intercomm_merge");
    MPI_Comm_free(&inter[0]);
    MPI_Comm_free(&inter[1]);
    out_of_pairs();
    MPI_Comm_free(&parent[0]);
    MPI_Comm_free(&parent[1]);
    MPI_Barrier(MPI_COMM_WORLD);
    printf("done [rank %d] %d checks, %d failed\n", rank, mt_checks, mt_failed);
    MPI_Finalize();
    return mt_failed != 0;
}

/* MPI test: MPI_THREAD_MULTIPLE. Every rank runs NT threads; thread t of
 * each rank exchanges messages of mixed sizes (eager and rendezvous) with
 * thread t of the next and previous ranks, on tag t, blocking and
 * nonblocking, all at once. Every payload is checked. */
#include <pthread.h>
#include <stdlib.h>

#include "test/mpi/p2p_common.c"

#define NT 4
#define ROUNDS 40

static int nranks, me;
static int thread_bad[NT];

static void *worker(void *arg)
{
    int t = (int)(long)arg, next = (me + 1) % nranks, prev = (me + nranks - 1) % nranks;
    static const size_t sizes[] = {0, 8, 1000, 40000, 300000};
    size_t maxn = 300000;
    char *sb = malloc(maxn), *rb = malloc(maxn);
    for (int r = 0; r < ROUNDS; r++) {
        size_t n = sizes[(r + t) % 5];
        MPI_Request q[2];
        MPI_Status st;
        p2p_fill(sb, n, me, t, r);
        MPI_Irecv(rb, (int)n, MPI_BYTE, prev, t, MPI_COMM_WORLD, &q[0]);
        if (r % 2)
            MPI_Send(sb, (int)n, MPI_BYTE, next, t, MPI_COMM_WORLD);
        else
            MPI_Isend(sb, (int)n, MPI_BYTE, next, t, MPI_COMM_WORLD, &q[1]);
        MPI_Wait(&q[0], &st);
        if (!(r % 2))
            MPI_Wait(&q[1], MPI_STATUS_IGNORE);
        int c = -1;
        MPI_Get_count(&st, MPI_BYTE, &c);
        if (c != (int)n || st.MPI_SOURCE != prev || st.MPI_TAG != t || p2p_check(rb, n, prev, t, r) >= 0)
            thread_bad[t]++;
    }
    free(sb);
    free(rb);
    return NULL;
}

int main(int argc, char **argv)
{
    int provided = -1;
    pthread_t th[NT];
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &nranks);
    mt_rank = p2p_rank = me;
    p2p_size = nranks;
    setvbuf(stdout, NULL, _IOLBF, 0);
    mt_is_int(provided, MPI_THREAD_MULTIPLE, "MPI_THREAD_MULTIPLE provided");
    for (int t = 0; t < NT; t++)
        pthread_create(&th[t], NULL, worker, (void *)(long)t);
    for (int t = 0; t < NT; t++)
        pthread_join(th[t], NULL);
    for (int t = 0; t < NT; t++)
        mt_is_int(thread_bad[t], 0, "thread %d: %d exchanges with both neighbours' thread %d intact", t,
                  ROUNDS, t);
    p2p_sync();
    MPI_Finalize();
    return mt_done();
}

/* MPI test: non-overtaking (MPI-3.1 3.5) with sizes across every protocol
 * switch, 0 B .. 4 MiB, in an order that alternates small and large
 * messages, so an eager message sent after a rendezvous one must still
 * match second. Every rank but the receiver sends to it; the receiver is
 * rank 0 in some phases and the last rank in others.
 *   A  blocking Send, Recv by specific source, one tag
 *   B  blocking Send, Recv from MPI_ANY_SOURCE, one tag: per-source order
 *   C  Isend all, receiver pre-posts Irecvs in order, Waitall
 *   D  several tags: receiver takes the tags in a different order than sent
 *      (each tag's subsequence in order), then MPI_ANY_TAG by source
 *   E  Issend + Isend mixed, receiver Irecv MPI_ANY_SOURCE posted late
 */
#include "test/mpi/p2p_common.c"

#define NMSG 24

/* the size of message k: alternate large and small so each size follows one
 * from the other side of every protocol switch */
static size_t msg_size(int k)
{
    int n = P2P_NSIZES;
    return (k % 2) ? p2p_sizes[(k / 2) % n] : p2p_sizes[n - 1 - (k / 2) % n];
}

static void report(const char *phase, int nbad)
{
    mt_is_int(nbad, 0, "%s: every message in order, right size and bytes", phase);
}

/* verify message k of src on tag; returns 1 if bad */
static int verify(const char *phase, const void *buf, const MPI_Status *st, int src, int tag, int k, int rc)
{
    int count = -1;
    size_t n = msg_size(k);
    MPI_Get_count(st, MPI_BYTE, &count);
    long long bad = p2p_check(buf, n, src, tag, k);
    if (rc != MPI_SUCCESS || st->MPI_SOURCE != src || st->MPI_TAG != tag || count != (int)n || bad >= 0) {
        printf("# [rank %d] %s: message %d from %d tag %d: rc %d source %d tag %d count %d (want %zu), "
               "first bad byte %lld\n",
               p2p_rank, phase, k, src, tag, rc, st->MPI_SOURCE, st->MPI_TAG, count, n, bad);
        return 1;
    }
    return 0;
}

static void phase_a(int root)
{
    const int tag = 11;
    int nbad = 0;
    if (p2p_rank != root) {
        char *b = malloc(4194304);
        for (int k = 0; k < NMSG; k++) {
            p2p_fill(b, msg_size(k), p2p_rank, tag, k);
            MPI_Send(b, (int)msg_size(k), MPI_BYTE, root, tag, MPI_COMM_WORLD);
        }
        free(b);
    } else {
        char *b = malloc(4194304 + 64);
        for (int src = 0; src < p2p_size; src++) {
            if (src == root)
                continue;
            for (int k = 0; k < NMSG; k++) {
                MPI_Status st;
                int rc = MPI_Recv(b, 4194304 + 64, MPI_BYTE, src, tag, MPI_COMM_WORLD, &st);
                nbad += verify("A", b, &st, src, tag, k, rc);
            }
        }
        free(b);
        report("A: blocking, by source, one tag", nbad);
    }
    p2p_sync();
}

static void phase_b(int root)
{
    const int tag = 12;
    int nbad = 0;
    if (p2p_rank != root) {
        char *b = malloc(4194304);
        for (int k = 0; k < NMSG; k++) {
            p2p_fill(b, msg_size(k), p2p_rank, tag, k);
            MPI_Send(b, (int)msg_size(k), MPI_BYTE, root, tag, MPI_COMM_WORLD);
        }
        free(b);
    } else {
        char *b = malloc(4194304 + 64);
        int next[64] = {0};
        for (int i = 0; i < (p2p_size - 1) * NMSG; i++) {
            MPI_Status st;
            int rc = MPI_Recv(b, 4194304 + 64, MPI_BYTE, MPI_ANY_SOURCE, tag, MPI_COMM_WORLD, &st);
            int src = st.MPI_SOURCE;
            if (src < 0 || src >= p2p_size || src == root) {
                printf("# [rank %d] B: bad source %d\n", p2p_rank, src);
                nbad++;
                continue;
            }
            nbad += verify("B", b, &st, src, tag, next[src]++, rc);
        }
        for (int src = 0; src < p2p_size; src++)
            if (src != root && next[src] != NMSG)
                nbad++;
        free(b);
        report("B: blocking, MPI_ANY_SOURCE, per-source order", nbad);
    }
    p2p_sync();
}

static void phase_c(int root)
{
    const int tag = 13;
    int nbad = 0;
    if (p2p_rank != root) {
        char *bufs[NMSG];
        MPI_Request reqs[NMSG];
        for (int k = 0; k < NMSG; k++) {
            bufs[k] = malloc(msg_size(k) + 1);
            p2p_fill(bufs[k], msg_size(k), p2p_rank, tag, k);
            MPI_Isend(bufs[k], (int)msg_size(k), MPI_BYTE, root, tag, MPI_COMM_WORLD, &reqs[k]);
        }
        int rc = MPI_Waitall(NMSG, reqs, MPI_STATUSES_IGNORE);
        mt_is_int(rc, MPI_SUCCESS, "C: Waitall of %d Isends", NMSG);
        for (int k = 0; k < NMSG; k++)
            free(bufs[k]);
    } else {
        int n = (p2p_size - 1) * NMSG;
        char **bufs = calloc((size_t)n, sizeof(char *));
        MPI_Request *reqs = calloc((size_t)n, sizeof(MPI_Request));
        MPI_Status *sts = calloc((size_t)n, sizeof(MPI_Status));
        /* post per source, in order; sources interleaved */
        for (int k = 0; k < NMSG; k++)
            for (int src = 0, j = 0; src < p2p_size; src++) {
                if (src == root)
                    continue;
                int i = k * (p2p_size - 1) + j++;
                bufs[i] = malloc(msg_size(k) + 64); /* room for a wrong (larger) match too */
                MPI_Irecv(bufs[i], (int)msg_size(k) + 64, MPI_BYTE, src, tag, MPI_COMM_WORLD, &reqs[i]);
            }
        int rc = MPI_Waitall(n, reqs, sts);
        mt_is_int(rc, MPI_SUCCESS, "C: Waitall of %d pre-posted Irecvs", n);
        for (int k = 0; k < NMSG; k++)
            for (int src = 0, j = 0; src < p2p_size; src++) {
                if (src == root)
                    continue;
                int i = k * (p2p_size - 1) + j++;
                nbad += verify("C", bufs[i], &sts[i], src, tag, k, MPI_SUCCESS);
                free(bufs[i]);
            }
        for (int i = 0; i < n; i++)
            if (reqs[i] != MPI_REQUEST_NULL)
                nbad++;
        free(bufs);
        free(reqs);
        free(sts);
        report("C: Isend / pre-posted Irecv by source", nbad);
    }
    p2p_sync();
}

/* D: tag of message k is 20 + k % 3; receiver takes tag 22 first, then 20,
 * then 21 (blocking), then a second round with MPI_ANY_TAG by source */
static void phase_d(int root)
{
    int nbad = 0;
    for (int round = 0; round < 2; round++) {
        if (p2p_rank != root) {
            /* round 0 must not block: the receiver takes later messages
             * first (a blocking Send there would be an unsafe program) */
            char *bufs[NMSG];
            MPI_Request reqs[NMSG];
            for (int k = 0; k < NMSG; k++) {
                int tag = 20 + k % 3;
                bufs[k] = malloc(msg_size(k) + 1);
                p2p_fill(bufs[k], msg_size(k), p2p_rank, tag, k);
                if (round == 0)
                    MPI_Isend(bufs[k], (int)msg_size(k), MPI_BYTE, root, tag, MPI_COMM_WORLD, &reqs[k]);
                else
                    MPI_Send(bufs[k], (int)msg_size(k), MPI_BYTE, root, tag, MPI_COMM_WORLD);
            }
            if (round == 0)
                MPI_Waitall(NMSG, reqs, MPI_STATUSES_IGNORE);
            for (int k = 0; k < NMSG; k++)
                free(bufs[k]);
        } else {
            char *b = malloc(4194304 + 64);
            static const int order[3] = {2, 0, 1};
            for (int src = 0; src < p2p_size; src++) {
                if (src == root)
                    continue;
                if (round == 0) {
                    for (int o = 0; o < 3; o++)
                        for (int k = order[o]; k < NMSG; k += 3) {
                            MPI_Status st;
                            int rc = MPI_Recv(b, 4194304 + 64, MPI_BYTE, src, 20 + order[o], MPI_COMM_WORLD, &st);
                            nbad += verify("D", b, &st, src, 20 + order[o], k, rc);
                        }
                } else {
                    for (int k = 0; k < NMSG; k++) {
                        MPI_Status st;
                        int rc = MPI_Recv(b, 4194304 + 64, MPI_BYTE, src, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
                        nbad += verify("D any tag", b, &st, src, 20 + k % 3, k, rc);
                    }
                }
            }
            free(b);
        }
        p2p_sync();
    }
    if (p2p_rank == root)
        report("D: three tags taken out of order, then MPI_ANY_TAG by source", nbad);
}

/* E: senders mix Issend and Isend; the receiver posts MPI_ANY_SOURCE Irecvs
 * one at a time after a delay (so most messages are unexpected). */
static void phase_e(int root)
{
    const int tag = 14;
    int nbad = 0;
    if (p2p_rank != root) {
        char *bufs[NMSG];
        MPI_Request reqs[NMSG];
        for (int k = 0; k < NMSG; k++) {
            bufs[k] = malloc(msg_size(k) + 1);
            p2p_fill(bufs[k], msg_size(k), p2p_rank, tag, k);
            if (k % 3 == 1)
                MPI_Issend(bufs[k], (int)msg_size(k), MPI_BYTE, root, tag, MPI_COMM_WORLD, &reqs[k]);
            else
                MPI_Isend(bufs[k], (int)msg_size(k), MPI_BYTE, root, tag, MPI_COMM_WORLD, &reqs[k]);
        }
        MPI_Waitall(NMSG, reqs, MPI_STATUSES_IGNORE);
        for (int k = 0; k < NMSG; k++)
            free(bufs[k]);
    } else {
        char *b = malloc(4194304 + 64);
        int next[64] = {0};
        p2p_sleep_ms(50);
        for (int i = 0; i < (p2p_size - 1) * NMSG; i++) {
            MPI_Status st;
            MPI_Request r;
            MPI_Irecv(b, 4194304 + 64, MPI_BYTE, MPI_ANY_SOURCE, tag, MPI_COMM_WORLD, &r);
            int rc = MPI_Wait(&r, &st);
            int src = st.MPI_SOURCE;
            if (src < 0 || src >= p2p_size || src == root) {
                nbad++;
                continue;
            }
            nbad += verify("E", b, &st, src, tag, next[src]++, rc);
        }
        free(b);
        report("E: Issend/Isend mixed, late MPI_ANY_SOURCE Irecv", nbad);
    }
    p2p_sync();
}

int main(int argc, char **argv)
{
    p2p_init(&argc, &argv);
    if (p2p_size < 2) {
        mt_ok(0, "needs at least 2 ranks");
        MPI_Finalize();
        return mt_done();
    }
    int last = p2p_size - 1;
    phase_a(0);
    phase_a(last);
    phase_b(0);
    phase_c(last);
    phase_c(0);
    phase_d(0);
    phase_e(last);
    /* every sender also checks its own part finished */
    mt_ok(1, "all phases finished");
    MPI_Finalize();
    return mt_done();
}

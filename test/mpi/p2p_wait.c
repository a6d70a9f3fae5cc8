/* MPI test: completion calls (MPI-3.1 3.7.3-3.7.5, 3.7.6 Request_get_status).
 * Wait, Waitall, Waitany, Waitsome, Test, Testall, Testany, Testsome on
 * null, pending and completed requests; Request_get_status does not free;
 * Request_free of an active send still delivers; 1000 Irecvs posted before
 * the sends, completed out of order; MPI 4.1's Request_get_status_any,
 * _all and _some.
 * Ranks work in pairs (0,1), (2,3); an odd last rank pairs with itself. The
 * lower rank sends, the higher one receives (a rank alone does both).
 * `idle`: a wait that sleeps between polls (RDMPI_WAIT_SLEEP; idle_wait). */
#include "test/mpi/p2p_common.c"

#include <string.h>
#include <sys/resource.h>
#include <time.h>

#define NMANY 1000

static int peer, is_send, is_recv, src;

/* the receiver tells the sender to go on (works for a rank alone too) */
static void go(int step)
{
    MPI_Request g = MPI_REQUEST_NULL;
    if (is_recv)
        MPI_Isend(&step, 1, MPI_INT, peer, P2P_TAG_GO, MPI_COMM_WORLD, &g);
    if (is_send) {
        int s = -1;
        MPI_Recv(&s, 1, MPI_INT, peer, P2P_TAG_GO, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    MPI_Wait(&g, MPI_STATUS_IGNORE);
}

static int is_empty(const MPI_Status *st)
{
    int c = -1, canc = -1;
    MPI_Get_count(st, MPI_BYTE, &c);
    MPI_Test_cancelled(st, &canc);
    return st->MPI_SOURCE == MPI_ANY_SOURCE && st->MPI_TAG == MPI_ANY_TAG && c == 0 && canc == 0;
}

static void null_requests(void)
{
    MPI_Request r = MPI_REQUEST_NULL, rs[4] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL, MPI_REQUEST_NULL, MPI_REQUEST_NULL};
    MPI_Status st, sts[4];
    int flag = -1, idx = -5, out = -5, idxs[4];
    st.MPI_SOURCE = st.MPI_TAG = -77;
    mt_is_int(MPI_Wait(&r, &st), MPI_SUCCESS, "Wait(MPI_REQUEST_NULL) returns");
    mt_ok(is_empty(&st), "with an empty status (source ANY_SOURCE, tag ANY_TAG, count 0)");
    st.MPI_SOURCE = st.MPI_TAG = -77;
    MPI_Test(&r, &flag, &st);
    mt_ok(flag == 1 && is_empty(&st), "Test(MPI_REQUEST_NULL): flag true, empty status");
    mt_is_int(MPI_Waitall(4, rs, sts), MPI_SUCCESS, "Waitall of null requests");
    mt_ok(is_empty(&sts[0]) && is_empty(&sts[3]), "Waitall of null requests: empty statuses");
    MPI_Waitany(4, rs, &idx, &st);
    mt_is_int(idx, MPI_UNDEFINED, "Waitany of all MPI_REQUEST_NULL: index MPI_UNDEFINED");
    mt_ok(is_empty(&st), "Waitany of all MPI_REQUEST_NULL: empty status");
    idx = -5;
    MPI_Waitany(0, rs, &idx, MPI_STATUS_IGNORE);
    mt_is_int(idx, MPI_UNDEFINED, "Waitany of 0 requests: index MPI_UNDEFINED");
    MPI_Waitsome(4, rs, &out, idxs, sts);
    mt_is_int(out, MPI_UNDEFINED, "Waitsome of all MPI_REQUEST_NULL: outcount MPI_UNDEFINED");
    flag = -1;
    MPI_Testall(4, rs, &flag, sts);
    mt_is_int(flag, 1, "Testall of null requests: true");
    flag = -1;
    idx = -5;
    MPI_Testany(4, rs, &idx, &flag, &st);
    mt_ok(flag == 1 && idx == MPI_UNDEFINED, "Testany of all MPI_REQUEST_NULL: flag true, index MPI_UNDEFINED");
    out = -5;
    MPI_Testsome(4, rs, &out, idxs, sts);
    mt_is_int(out, MPI_UNDEFINED, "Testsome of all MPI_REQUEST_NULL: outcount MPI_UNDEFINED");
    flag = -1;
    MPI_Request_get_status(MPI_REQUEST_NULL, &flag, &st);
    mt_ok(flag == 1 && is_empty(&st), "Request_get_status(MPI_REQUEST_NULL): true, empty status");
}

/* pending vs completed: the sender sends only after "go" */
static void test_family(void)
{
    char rb[4][256], sb[4][256];
    MPI_Request r[4] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL, MPI_REQUEST_NULL, MPI_REQUEST_NULL}, s[4];
    MPI_Status st, sts[4];
    int flag, idx, out, idxs[4];
    if (is_recv) {
        for (int i = 0; i < 3; i++)
            MPI_Irecv(rb[i], 256, MPI_BYTE, src, 10 + i, MPI_COMM_WORLD, &r[i]);
        flag = -1;
        MPI_Test(&r[0], &flag, &st);
        mt_ok(flag == 0 && r[0] != MPI_REQUEST_NULL, "Test of a pending receive: false, request kept");
        flag = -1;
        MPI_Testall(3, r, &flag, sts);
        mt_ok(flag == 0 && r[0] != MPI_REQUEST_NULL && r[2] != MPI_REQUEST_NULL, "Testall pending: false, requests kept");
        flag = -1;
        idx = -5;
        MPI_Testany(3, r, &idx, &flag, &st);
        mt_ok(flag == 0 && idx == MPI_UNDEFINED, "Testany pending: flag false, index MPI_UNDEFINED");
        out = -5;
        MPI_Testsome(3, r, &out, idxs, sts);
        mt_is_int(out, 0, "Testsome pending: outcount 0");
        flag = -1;
        MPI_Request_get_status(r[1], &flag, &st);
        mt_is_int(flag, 0, "Request_get_status pending: false");
    }
    go(1);
    if (is_send) {
        for (int i = 0; i < 3; i++) {
            p2p_fill(sb[i], 100 + i, p2p_rank, 10 + i, 0);
            MPI_Isend(sb[i], 100 + i, MPI_BYTE, peer, 10 + i, MPI_COMM_WORLD, &s[i]);
        }
    }
    if (is_recv) {
        /* Request_get_status until complete: does not free */
        flag = 0;
        double end = p2p_now() + 20;
        while (!flag && p2p_now() < end)
            MPI_Request_get_status(r[1], &flag, &st);
        int c = -1;
        MPI_Get_count(&st, MPI_BYTE, &c);
        mt_ok(flag && r[1] != MPI_REQUEST_NULL && st.MPI_TAG == 11 && c == 101,
              "Request_get_status completed: true, status filled, request not freed");
        flag = 0;
        MPI_Request_get_status(r[1], &flag, &st);
        mt_ok(flag && r[1] != MPI_REQUEST_NULL, "Request_get_status again: still true, still not freed");
        /* Testany / Testsome / Testall / Test on completing requests */
        flag = 0;
        idx = -5;
        end = p2p_now() + 20;
        while (!flag && p2p_now() < end)
            MPI_Testany(3, r, &idx, &flag, &st);
        mt_ok(flag && idx >= 0 && idx < 3 && r[idx] == MPI_REQUEST_NULL && st.MPI_TAG == 10 + idx,
              "Testany: a completed index, its request freed, its status");
        int left = 3 - 1;
        int bad = 0;
        while (left > 0 && p2p_now() < end) {
            out = -5;
            MPI_Testsome(3, r, &out, idxs, sts);
            if (out == MPI_UNDEFINED)
                break;
            for (int k = 0; k < out; k++) {
                if (r[idxs[k]] != MPI_REQUEST_NULL || sts[k].MPI_TAG != 10 + idxs[k])
                    bad++;
                left--;
            }
        }
        mt_ok(left == 0 && bad == 0, "Testsome collects the rest with indices and statuses");
        for (int i = 0; i < 3; i++)
            bad += p2p_check(rb[i], 100 + (size_t)i, src, 10 + i, 0) >= 0;
        mt_is_int(bad, 0, "the three messages' bytes");
        flag = -1;
        MPI_Testall(3, r, &flag, sts);
        mt_is_int(flag, 1, "Testall on the now null requests: true");
    }
    if (is_send)
        MPI_Waitall(3, s, MPI_STATUSES_IGNORE);

    /* Waitany / Waitsome / Waitall with a mix of null and active */
    if (is_recv) {
        r[0] = MPI_REQUEST_NULL;
        MPI_Irecv(rb[1], 256, MPI_BYTE, src, 21, MPI_COMM_WORLD, &r[1]);
        r[2] = MPI_REQUEST_NULL;
        MPI_Irecv(rb[3], 256, MPI_BYTE, src, 23, MPI_COMM_WORLD, &r[3]);
    }
    go(2);
    if (is_send) {
        p2p_fill(sb[3], 200, p2p_rank, 23, 0);
        MPI_Isend(sb[3], 200, MPI_BYTE, peer, 23, MPI_COMM_WORLD, &s[0]);
        MPI_Wait(&s[0], MPI_STATUS_IGNORE);
    }
    if (is_recv) {
        idx = -5;
        MPI_Waitany(4, r, &idx, &st);
        mt_ok(idx == 3 && r[3] == MPI_REQUEST_NULL && st.MPI_TAG == 23 && st.MPI_SOURCE == src,
              "Waitany skips null entries and returns the completed one (index %d)", idx);
    }
    go(3);
    if (is_send) {
        p2p_fill(sb[1], 0, p2p_rank, 21, 0);
        MPI_Send(sb[1], 0, MPI_BYTE, peer, 21, MPI_COMM_WORLD);
    }
    if (is_recv) {
        out = -5;
        MPI_Waitsome(4, r, &out, idxs, sts);
        mt_ok(out == 1 && idxs[0] == 1 && sts[0].MPI_TAG == 21 && r[1] == MPI_REQUEST_NULL,
              "Waitsome returns the one completed request");
    }
}

/* Request_free of an active send: the message is still delivered */
static void free_active(void)
{
    const int n = 2 * 1024 * 1024;
    char *b = malloc((size_t)n);
    if (is_send) {
        MPI_Request r;
        p2p_fill(b, (size_t)n, p2p_rank, 30, 0);
        MPI_Isend(b, n, MPI_BYTE, peer, 30, MPI_COMM_WORLD, &r);
        mt_is_int(MPI_Request_free(&r), MPI_SUCCESS, "Request_free of an active (large) send");
        mt_ok(r == MPI_REQUEST_NULL, "sets the handle to MPI_REQUEST_NULL");
        MPI_Request r2;
        MPI_Isend(b, 10, MPI_BYTE, peer, 31, MPI_COMM_WORLD, &r2);
        MPI_Request_free(&r2);
    }
    if (is_recv) {
        char *rb = malloc((size_t)n);
        MPI_Status st;
        int c = -1;
        MPI_Recv(rb, n, MPI_BYTE, src, 30, MPI_COMM_WORLD, &st);
        MPI_Get_count(&st, MPI_BYTE, &c);
        mt_ok(c == n && p2p_check(rb, (size_t)n, src, 30, 0) < 0, "the freed large send is delivered intact");
        MPI_Recv(rb, 10, MPI_BYTE, src, 31, MPI_COMM_WORLD, &st);
        mt_ok(p2p_check(rb, 10, src, 30, 0) < 0, "and the freed small one too");
        free(rb);
    }
    go(4); /* the sender keeps its buffer until the receiver has it all */
    free(b);
}

/* NMANY Irecvs posted first, one tag each; sent in reverse order; completed
 * with Waitany and Waitsome */
static void many(void)
{
    char **bufs = NULL;
    MPI_Request *r = NULL;
    size_t maxn = 70000;
    if (is_recv) {
        bufs = malloc(NMANY * sizeof(char *));
        r = malloc(NMANY * sizeof(MPI_Request));
        for (int i = 0; i < NMANY; i++) {
            bufs[i] = malloc(maxn);
            MPI_Irecv(bufs[i], (int)maxn, MPI_BYTE, src, i, MPI_COMM_WORLD, &r[i]);
        }
    }
    go(5);
    MPI_Request *sr = NULL;
    char *sb = NULL;
    if (is_send) {
        sb = malloc(maxn + NMANY);
        p2p_fill(sb, maxn + NMANY, p2p_rank, 40, 0);
        sr = malloc(NMANY * sizeof(MPI_Request));
        for (int i = NMANY - 1; i >= 0; i--) {
            size_t n = (i % 97 == 0) ? 65537 : (size_t)(i * 37 % 2000);
            if (i % 2 || is_recv)
                MPI_Isend(sb + i, (int)n, MPI_BYTE, peer, i, MPI_COMM_WORLD, &sr[i]);
            else {
                MPI_Send(sb + i, (int)n, MPI_BYTE, peer, i, MPI_COMM_WORLD);
                sr[i] = MPI_REQUEST_NULL;
            }
        }
    }
    if (is_recv) {
        char *want = malloc(maxn + NMANY);
        p2p_fill(want, maxn + NMANY, src, 40, 0);
        int *seen = calloc(NMANY, sizeof(int));
        int done = 0, bad = 0, order_first = -1;
        while (done < NMANY) {
            MPI_Status sts[NMANY];
            int idxs[NMANY], out = 0;
            if (done % 2 == 0) {
                MPI_Waitany(NMANY, r, &idxs[0], &sts[0]);
                out = 1;
            } else {
                MPI_Waitsome(NMANY, r, &out, idxs, sts);
            }
            if (out == MPI_UNDEFINED || out < 1) {
                bad++;
                break;
            }
            for (int k = 0; k < out; k++) {
                int i = idxs[k], c = -1;
                size_t n = (i % 97 == 0) ? 65537 : (size_t)(i * 37 % 2000);
                if (order_first < 0)
                    order_first = i;
                MPI_Get_count(&sts[k], MPI_BYTE, &c);
                if (i < 0 || i >= NMANY || seen[i]++ || r[i] != MPI_REQUEST_NULL || sts[k].MPI_TAG != i ||
                    c != (int)n || memcmp(bufs[i], want + i, n) != 0)
                    bad++;
                done++;
            }
        }
        mt_ok(done == NMANY && bad == 0, "%d Irecvs posted before the sends: each completes once, right data", NMANY);
        printf("# [rank %d] first completed index %d\n", p2p_rank, order_first);
        for (int i = 0; i < NMANY; i++)
            free(bufs[i]);
        free(bufs);
        free(r);
        free(seen);
        free(want);
    }
    if (is_send) {
        MPI_Waitall(NMANY, sr, MPI_STATUSES_IGNORE);
        free(sr);
        free(sb);
    }
}

/* `p2p_wait idle` on 2 ranks with RDMPI_WAIT_SLEEP set: rank 1 sends only
 * after a second outside MPI; rank 0's MPI_Recv, idle all that time, sleeps
 * between its polls, so the wait costs it a small part of that second in
 * CPU time (spinning and yielding it costs about all of it). */
static void idle_wait(void)
{
    int v = -1;
    if (p2p_rank == 1) {
        struct timespec ts = {1, 0};
        nanosleep(&ts, NULL);
        v = 42;
        MPI_Send(&v, 1, MPI_INT, 0, 5, MPI_COMM_WORLD);
    } else if (p2p_rank == 0) {
        struct rusage a, b;
        getrusage(RUSAGE_SELF, &a);
        MPI_Recv(&v, 1, MPI_INT, 1, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        getrusage(RUSAGE_SELF, &b);
        double cpu = (double)(b.ru_utime.tv_sec - a.ru_utime.tv_sec + b.ru_stime.tv_sec - a.ru_stime.tv_sec) +
                     (double)(b.ru_utime.tv_usec - a.ru_utime.tv_usec + b.ru_stime.tv_usec - a.ru_stime.tv_usec) / 1e6;
        mt_is_int(v, 42, "the message a second late arrives");
        mt_ok(cpu < 0.15, "a wait idle for a second with RDMPI_WAIT_SLEEP set used under 0.15 s of CPU time");
        printf("# [rank 0] the idle wait used %.3f s of CPU time\n", cpu);
    }
}

/* MPI 4.1: MPI_Request_get_status_any/all/some, which leave the
 * requests as they are */
static void get_status_41(void)
{
    MPI_Request r[3] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL, MPI_REQUEST_NULL}, s[3];
    MPI_Status st, sts[3];
    char rb[3][64], sb[3][64];
    int flag = -1, idx = -5, out = -5, idxs[3];
    MPI_Request_get_status_any(3, r, &idx, &flag, &st);
    mt_ok(flag == 1 && idx == MPI_UNDEFINED && is_empty(&st),
          "Request_get_status_any of null requests: flag true, index MPI_UNDEFINED, empty status");
    MPI_Request_get_status_some(3, r, &out, idxs, sts);
    mt_is_int(out, MPI_UNDEFINED, "Request_get_status_some of null requests: outcount MPI_UNDEFINED");
    flag = -1;
    MPI_Request_get_status_all(3, r, &flag, sts);
    mt_ok(flag == 1 && is_empty(&sts[0]) && is_empty(&sts[2]),
          "Request_get_status_all of null requests: true, empty statuses");
    if (is_recv) {
        for (int i = 0; i < 3; i++)
            MPI_Irecv(rb[i], 64, MPI_BYTE, src, 40 + i, MPI_COMM_WORLD, &r[i]);
        flag = -1, idx = -5, out = -5;
        MPI_Request_get_status_any(3, r, &idx, &flag, &st);
        mt_ok(flag == 0 && idx == MPI_UNDEFINED, "Request_get_status_any pending: false, index MPI_UNDEFINED");
        MPI_Request_get_status_some(3, r, &out, idxs, MPI_STATUSES_IGNORE);
        mt_is_int(out, 0, "Request_get_status_some pending: outcount 0");
        MPI_Request_get_status_all(3, r, &flag, MPI_STATUSES_IGNORE);
        mt_is_int(flag, 0, "Request_get_status_all pending: false");
    }
    go(40);
    if (is_send) { /* the middle one first */
        p2p_fill(sb[1], 41, p2p_rank, 41, 0);
        MPI_Send(sb[1], 41, MPI_BYTE, peer, 41, MPI_COMM_WORLD);
    }
    if (is_recv) {
        flag = 0;
        while (!flag)
            MPI_Request_get_status_any(3, r, &idx, &flag, &st);
        int c = -1;
        MPI_Get_count(&st, MPI_BYTE, &c);
        mt_ok(idx == 1 && r[1] != MPI_REQUEST_NULL && st.MPI_TAG == 41 && st.MPI_SOURCE == src && c == 41,
              "Request_get_status_any: index %d, tag %d, count %d, the request not freed", idx, st.MPI_TAG, c);
        MPI_Request_get_status_some(3, r, &out, idxs, sts);
        mt_ok(out == 1 && idxs[0] == 1 && sts[0].MPI_TAG == 41 && r[1] != MPI_REQUEST_NULL,
              "Request_get_status_some: the one completed (outcount %d), not freed", out);
        MPI_Request_get_status_all(3, r, &flag, sts);
        mt_is_int(flag, 0, "Request_get_status_all with two still pending: false");
    }
    go(41);
    if (is_send) {
        for (int i = 0; i < 3; i += 2) {
            p2p_fill(sb[i], 40 + i, p2p_rank, 40 + i, 0);
            MPI_Isend(sb[i], 40 + i, MPI_BYTE, peer, 40 + i, MPI_COMM_WORLD, &s[i]);
        }
        MPI_Wait(&s[0], MPI_STATUS_IGNORE);
        MPI_Wait(&s[2], MPI_STATUS_IGNORE);
    }
    if (is_recv) {
        flag = 0;
        while (!flag)
            MPI_Request_get_status_all(3, r, &flag, sts);
        int bad = 0;
        for (int i = 0; i < 3; i++) {
            int c = -1;
            MPI_Get_count(&sts[i], MPI_BYTE, &c);
            bad += sts[i].MPI_TAG != 40 + i || c != 40 + i || r[i] == MPI_REQUEST_NULL ||
                   p2p_check(rb[i], 40 + i, src, 40 + i, 0) >= 0;
        }
        mt_is_int(bad, 0, "Request_get_status_all: true, each status and message right, none freed");
        mt_is_int(MPI_Waitall(3, r, sts), MPI_SUCCESS, "Waitall collects them afterwards");
        mt_ok(r[0] == MPI_REQUEST_NULL && r[2] == MPI_REQUEST_NULL && sts[1].MPI_TAG == 41,
              "and frees them, with the same statuses");
    }
}

int main(int argc, char **argv)
{
    p2p_init(&argc, &argv);
    if (argc > 1 && strcmp(argv[1], "idle") == 0) {
        idle_wait();
        MPI_Finalize();
        return mt_done();
    }
    peer = p2p_rank ^ 1;
    if (peer >= p2p_size)
        peer = p2p_rank;
    is_send = p2p_rank <= peer;
    is_recv = p2p_rank >= peer;
    src = is_send ? p2p_rank : peer;

    null_requests();
    test_family();
    free_active();
    many();
    get_status_41();
    MPI_Finalize();
    return mt_done();
}

/* MPI test: wildcards and statuses (MPI-3.1 3.2.4, 3.2.5, 3.7.5, 3.11).
 *   - MPI_ANY_SOURCE + MPI_ANY_TAG (blocking and pre-posted), MPI_SOURCE /
 *     MPI_TAG of each status, each sender seen once
 *   - MPI_ANY_SOURCE with a tag skips pending messages of other tags;
 *     MPI_ANY_TAG with a source
 *   - MPI_Get_count / MPI_Get_elements, MPI_UNDEFINED for a partial element
 *     (5 ints received as MPI_2INT)
 *   - MPI_ERROR in statuses of MPI_Waitall when it returns MPI_ERR_IN_STATUS
 *   - MPI_PROC_NULL: send and receive complete at once, status source
 *     MPI_PROC_NULL, tag MPI_ANY_TAG, count 0, buffer untouched
 *   - MPI_STATUS_IGNORE / MPI_STATUSES_IGNORE
 *   - a rank's message to itself matched by MPI_ANY_SOURCE
 * A phase with a full wildcard on rank R runs between p2p_sync() and a
 * "done" message from R, so no other message can be in flight to R. */
#include "test/mpi/p2p_common.c"

#define TAG_DONE 31000

static void window_end(int root)
{
    char c = 0;
    if (p2p_rank == root) {
        for (int r = 0; r < p2p_size; r++)
            if (r != root)
                MPI_Send(&c, 1, MPI_CHAR, r, TAG_DONE, MPI_COMM_WORLD);
    } else {
        MPI_Recv(&c, 1, MPI_CHAR, root, TAG_DONE, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    p2p_sync();
}

/* each rank s != root sends (3 * s + 1) ints with tag 100 + s */
static void send_ints(int root, int tag, int seq, int blocking)
{
    int n = 3 * p2p_rank + 1;
    int buf[64];
    for (int i = 0; i < n; i++)
        buf[i] = p2p_rank * 1000 + seq * 100 + i;
    if (blocking) {
        MPI_Send(buf, n, MPI_INT, root, tag, MPI_COMM_WORLD);
    } else {
        MPI_Request r;
        MPI_Isend(buf, n, MPI_INT, root, tag, MPI_COMM_WORLD, &r);
        MPI_Wait(&r, MPI_STATUS_IGNORE);
    }
}

static int check_ints(const int *buf, const MPI_Status *st, int seq, int want_tag_base)
{
    int src = st->MPI_SOURCE, count = -1, elems = -1, bad = 0;
    if (src < 0 || src >= p2p_size)
        return 1;
    if (st->MPI_TAG != want_tag_base + src)
        bad++;
    MPI_Get_count(st, MPI_INT, &count);
    MPI_Get_elements(st, MPI_INT, &elems);
    if (count != 3 * src + 1 || elems != count)
        bad++;
    for (int i = 0; i < 3 * src + 1 && i < 64; i++)
        if (buf[i] != src * 1000 + seq * 100 + i)
            bad++;
    if (bad)
        printf("# [rank %d] from %d: tag %d count %d elements %d\n", p2p_rank, src, st->MPI_TAG, count, elems);
    return bad;
}

static void full_wildcards(int root)
{
    /* blocking */
    if (p2p_rank != root) {
        send_ints(root, 100 + p2p_rank, 0, 1);
    } else {
        int seen[64] = {0}, bad = 0;
        for (int i = 0; i < p2p_size - 1; i++) {
            int buf[64];
            MPI_Status st;
            st.MPI_SOURCE = st.MPI_TAG = -77;
            MPI_Recv(buf, 64, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
            bad += check_ints(buf, &st, 0, 100);
            if (st.MPI_SOURCE >= 0 && st.MPI_SOURCE < p2p_size)
                seen[st.MPI_SOURCE]++;
        }
        for (int r = 0; r < p2p_size; r++)
            bad += seen[r] != (r != root);
        mt_is_int(bad, 0, "root %d: Recv(ANY_SOURCE, ANY_TAG): source, tag, count, values; each sender once", root);
    }
    window_end(root);

    /* pre-posted Irecvs, Waitall with statuses */
    if (p2p_rank != root) {
        send_ints(root, 200 + p2p_rank, 1, 0);
    } else {
        int n = p2p_size - 1, bad = 0, seen[64] = {0};
        int(*bufs)[64] = calloc((size_t)n, sizeof(*bufs));
        MPI_Request reqs[64];
        MPI_Status sts[64];
        for (int i = 0; i < n; i++)
            MPI_Irecv(bufs[i], 64, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &reqs[i]);
        mt_is_int(MPI_Waitall(n, reqs, sts), MPI_SUCCESS, "root %d: Waitall of ANY_SOURCE/ANY_TAG Irecvs", root);
        for (int i = 0; i < n; i++) {
            bad += check_ints(bufs[i], &sts[i], 1, 200);
            if (sts[i].MPI_SOURCE >= 0 && sts[i].MPI_SOURCE < p2p_size)
                seen[sts[i].MPI_SOURCE]++;
        }
        for (int r = 0; r < p2p_size; r++)
            bad += seen[r] != (r != root);
        mt_is_int(bad, 0, "root %d: pre-posted full wildcards: statuses and values", root);
        free(bufs);
    }
    window_end(root);
}

/* rank 1 sends tag 5 then tag 6 (eager) and a large tag 7; root takes tag 6
 * first with ANY_SOURCE, then tag 7, then tag 5 with ANY_TAG by source */
static void tag_selection(void)
{
    const int root = 0, src = 1;
    const int big = 1 << 20;
    if (p2p_rank == src) {
        char small[100];
        char *b = malloc((size_t)big);
        MPI_Request r[3];
        p2p_fill(small, 100, src, 5, 0);
        MPI_Isend(small, 100, MPI_BYTE, root, 5, MPI_COMM_WORLD, &r[0]);
        char small6[10];
        p2p_fill(small6, 10, src, 6, 0);
        MPI_Isend(small6, 10, MPI_BYTE, root, 6, MPI_COMM_WORLD, &r[1]);
        p2p_fill(b, (size_t)big, src, 7, 0);
        MPI_Isend(b, big, MPI_BYTE, root, 7, MPI_COMM_WORLD, &r[2]);
        MPI_Waitall(3, r, MPI_STATUSES_IGNORE);
        free(b);
    } else if (p2p_rank == root) {
        char *b = malloc((size_t)big + 16);
        MPI_Status st;
        int count = -1;
        p2p_sleep_ms(20); /* let the messages arrive unexpected */
        MPI_Recv(b, big + 16, MPI_BYTE, MPI_ANY_SOURCE, 6, MPI_COMM_WORLD, &st);
        MPI_Get_count(&st, MPI_BYTE, &count);
        mt_ok(st.MPI_SOURCE == src && st.MPI_TAG == 6 && count == 10 && p2p_check(b, 10, src, 6, 0) < 0,
              "ANY_SOURCE with tag 6 skips the pending tag 5 message");
        MPI_Recv(b, big + 16, MPI_BYTE, MPI_ANY_SOURCE, 7, MPI_COMM_WORLD, &st);
        MPI_Get_count(&st, MPI_BYTE, &count);
        mt_ok(st.MPI_SOURCE == src && st.MPI_TAG == 7 && count == big && p2p_check(b, (size_t)big, src, 7, 0) < 0,
              "ANY_SOURCE with tag 7 takes the large message past the tag 5 one");
        MPI_Recv(b, big + 16, MPI_BYTE, src, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
        MPI_Get_count(&st, MPI_BYTE, &count);
        mt_ok(st.MPI_SOURCE == src && st.MPI_TAG == 5 && count == 100 && p2p_check(b, 100, src, 5, 0) < 0,
              "ANY_TAG from source 1 gets the tag 5 message");
        free(b);
    }
    p2p_sync();
}

/* counts and elements, incl. a partial element */
static void counts(void)
{
    const int root = 0, src = 1;
    if (p2p_rank == src) {
        int v[5] = {1, 2, 3, 4, 5};
        double d[3] = {0.5, 1.5, 2.5};
        MPI_Send(v, 5, MPI_INT, root, 30, MPI_COMM_WORLD);
        MPI_Send(v, 4, MPI_INT, root, 31, MPI_COMM_WORLD);
        MPI_Send(d, 0, MPI_DOUBLE, root, 32, MPI_COMM_WORLD);
        MPI_Send(d, 3, MPI_DOUBLE, root, 33, MPI_COMM_WORLD);
    } else if (p2p_rank == root) {
        int pairs[8];
        double d[8];
        MPI_Status st;
        int count = -1, elems = -1;
        memset(pairs, 0, sizeof(pairs));
        /* 5 ints match 3 MPI_2INT (type signature int x 5 is a prefix of int x 6) */
        mt_is_int(MPI_Recv(pairs, 3, MPI_2INT, src, 30, MPI_COMM_WORLD, &st), MPI_SUCCESS, "5 ints into 3 MPI_2INT");
        MPI_Get_count(&st, MPI_2INT, &count);
        MPI_Get_elements(&st, MPI_2INT, &elems);
        mt_is_int(count, MPI_UNDEFINED, "Get_count of 5 ints as MPI_2INT: MPI_UNDEFINED");
        /* Get_elements on the pair types is read differently by
         * implementations (Open MPI counts a pair as one element, MPICH
         * gives MPI_UNDEFINED for a partial pair): shown, not checked */
        printf("# [rank %d] Get_elements of 5 ints as MPI_2INT: %d\n", p2p_rank, elems);
        mt_ok(pairs[0] == 1 && pairs[2] == 3 && pairs[4] == 5 && pairs[5] == 0, "the 5 ints land, the 6th is untouched");
        MPI_Recv(pairs, 3, MPI_2INT, src, 31, MPI_COMM_WORLD, &st);
        MPI_Get_count(&st, MPI_2INT, &count);
        MPI_Get_elements(&st, MPI_2INT, &elems);
        mt_is_int(count, 2, "4 ints as MPI_2INT: count 2");
        printf("# [rank %d] Get_elements of 4 ints as MPI_2INT: %d\n", p2p_rank, elems);
        d[0] = 42;
        MPI_Recv(d, 8, MPI_DOUBLE, src, 32, MPI_COMM_WORLD, &st);
        MPI_Get_count(&st, MPI_DOUBLE, &count);
        MPI_Get_elements(&st, MPI_DOUBLE, &elems);
        mt_ok(count == 0 && elems == 0 && d[0] == 42 && st.MPI_TAG == 32 && st.MPI_SOURCE == src,
              "an empty message: count 0, elements 0, buffer untouched, envelope in status");
        MPI_Recv(d, 8, MPI_DOUBLE, src, 33, MPI_COMM_WORLD, &st);
        MPI_Get_count(&st, MPI_DOUBLE, &count);
        mt_ok(count == 3 && d[0] == 0.5 && d[2] == 2.5, "3 doubles into room for 8: count 3");
    }
    p2p_sync();
}

/* MPI_ERROR is set by multiple-completion calls returning MPI_ERR_IN_STATUS */
static void error_in_status(void)
{
    const int root = 0, src = 1;
    if (p2p_rank == src) {
        char b[64];
        p2p_fill(b, 64, src, 40, 0);
        MPI_Send(b, 8, MPI_BYTE, root, 40, MPI_COMM_WORLD);
        MPI_Send(b, 64, MPI_BYTE, root, 41, MPI_COMM_WORLD);
        MPI_Send(b, 8, MPI_BYTE, root, 42, MPI_COMM_WORLD);
    } else if (p2p_rank == root) {
        char b[3][64];
        MPI_Request r[3];
        MPI_Status st[3];
        int cls = -1;
        MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
        MPI_Irecv(b[0], 64, MPI_BYTE, src, 40, MPI_COMM_WORLD, &r[0]);
        MPI_Irecv(b[1], 16, MPI_BYTE, src, 41, MPI_COMM_WORLD, &r[1]); /* too small */
        MPI_Irecv(b[2], 64, MPI_BYTE, src, 42, MPI_COMM_WORLD, &r[2]);
        for (int i = 0; i < 3; i++)
            st[i].MPI_ERROR = -12345;
        int rc = MPI_Waitall(3, r, st);
        mt_is_int(rc, MPI_ERR_IN_STATUS, "Waitall with one truncated receive: MPI_ERR_IN_STATUS");
        mt_is_int(st[0].MPI_ERROR, MPI_SUCCESS, "MPI_ERROR of the good receive before it: MPI_SUCCESS");
        MPI_Error_class(st[1].MPI_ERROR, &cls);
        mt_is_int(cls, MPI_ERR_TRUNCATE, "MPI_ERROR of the truncated receive: class MPI_ERR_TRUNCATE");
        /* the third either completed or is left pending (MPI-3.1 3.7.5) */
        mt_ok(st[2].MPI_ERROR == MPI_SUCCESS || st[2].MPI_ERROR == MPI_ERR_PENDING,
              "MPI_ERROR of the good receive after it: MPI_SUCCESS or MPI_ERR_PENDING (got %d)", st[2].MPI_ERROR);
        mt_ok(r[0] == MPI_REQUEST_NULL && r[1] == MPI_REQUEST_NULL, "the completed requests are freed");
        if (st[2].MPI_ERROR == MPI_ERR_PENDING) {
            mt_ok(r[2] != MPI_REQUEST_NULL, "the pending one is still active");
            mt_is_int(MPI_Wait(&r[2], &st[2]), MPI_SUCCESS, "and completes with Wait");
        } else {
            mt_ok(r[2] == MPI_REQUEST_NULL, "the third request is freed");
        }
        mt_ok(st[0].MPI_TAG == 40 && st[2].MPI_TAG == 42 && p2p_check(b[0], 8, src, 40, 0) < 0 &&
                  p2p_check(b[2], 8, src, 40, 0) < 0,
              "the other two receives completed with their data");
        MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    }
    p2p_sync();
}

static void proc_null(void)
{
    char b[16];
    MPI_Status st;
    MPI_Request r;
    int count = -1, flag = 0;
    memset(b, 0x5a, sizeof(b));
    mt_is_int(MPI_Send(b, 16, MPI_BYTE, MPI_PROC_NULL, 1, MPI_COMM_WORLD), MPI_SUCCESS, "Send to MPI_PROC_NULL");
    mt_is_int(MPI_Ssend(b, 16, MPI_BYTE, MPI_PROC_NULL, 1, MPI_COMM_WORLD), MPI_SUCCESS, "Ssend to MPI_PROC_NULL");
    st.MPI_SOURCE = st.MPI_TAG = -77;
    mt_is_int(MPI_Recv(b, 16, MPI_BYTE, MPI_PROC_NULL, 3, MPI_COMM_WORLD, &st), MPI_SUCCESS, "Recv from MPI_PROC_NULL");
    MPI_Get_count(&st, MPI_BYTE, &count);
    mt_ok(st.MPI_SOURCE == MPI_PROC_NULL && st.MPI_TAG == MPI_ANY_TAG && count == 0,
          "Recv from MPI_PROC_NULL: source MPI_PROC_NULL, tag MPI_ANY_TAG, count 0 (got %d %d %d)", st.MPI_SOURCE,
          st.MPI_TAG, count);
    mt_ok(p2p_check_byte(b, 16, 0x5a) < 0, "the receive buffer is untouched");
    MPI_Recv(b, 16, MPI_BYTE, MPI_PROC_NULL, MPI_ANY_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Isend(b, 16, MPI_BYTE, MPI_PROC_NULL, 1, MPI_COMM_WORLD, &r);
    mt_ok(r != MPI_REQUEST_NULL, "Isend to MPI_PROC_NULL gives a request");
    MPI_Test(&r, &flag, MPI_STATUS_IGNORE);
    mt_ok(flag && r == MPI_REQUEST_NULL, "which completes at the first Test");
    MPI_Irecv(b, 16, MPI_BYTE, MPI_PROC_NULL, 1, MPI_COMM_WORLD, &r);
    st.MPI_SOURCE = st.MPI_TAG = -77;
    MPI_Wait(&r, &st);
    MPI_Get_count(&st, MPI_BYTE, &count);
    mt_ok(st.MPI_SOURCE == MPI_PROC_NULL && st.MPI_TAG == MPI_ANY_TAG && count == 0 && r == MPI_REQUEST_NULL,
          "Irecv from MPI_PROC_NULL + Wait: the same status");
    MPI_Get_elements(&st, MPI_BYTE, &count);
    mt_is_int(count, 0, "Get_elements of a MPI_PROC_NULL receive");
    mt_ok(p2p_check_byte(b, 16, 0x5a) < 0, "the receive buffer is still untouched");
}

/* a message to oneself, taken by ANY_SOURCE; statuses ignored */
static void self_and_ignore(void)
{
    int v = p2p_rank * 7 + 1, w = -1, w2 = -1;
    MPI_Request r[2];
    MPI_Status st;
    MPI_Isend(&v, 1, MPI_INT, p2p_rank, 7, MPI_COMM_WORLD, &r[0]);
    MPI_Recv(&w, 1, MPI_INT, MPI_ANY_SOURCE, 7, MPI_COMM_WORLD, &st);
    MPI_Wait(&r[0], MPI_STATUS_IGNORE);
    mt_ok(w == v && st.MPI_SOURCE == p2p_rank && st.MPI_TAG == 7, "a message to self matches ANY_SOURCE");
    MPI_Isend(&v, 1, MPI_INT, p2p_rank, 8, MPI_COMM_WORLD, &r[0]);
    MPI_Irecv(&w2, 1, MPI_INT, p2p_rank, 8, MPI_COMM_WORLD, &r[1]);
    mt_is_int(MPI_Waitall(2, r, MPI_STATUSES_IGNORE), MPI_SUCCESS, "Waitall with MPI_STATUSES_IGNORE");
    mt_ok(w2 == v && r[0] == MPI_REQUEST_NULL && r[1] == MPI_REQUEST_NULL, "and the requests are freed");
    MPI_Isend(&v, 1, MPI_INT, p2p_rank, 9, MPI_COMM_WORLD, &r[0]);
    w = -1;
    mt_is_int(MPI_Recv(&w, 1, MPI_INT, p2p_rank, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE), MPI_SUCCESS,
              "Recv with MPI_STATUS_IGNORE");
    MPI_Wait(&r[0], MPI_STATUS_IGNORE);
    mt_is_int(w, v, "value received with MPI_STATUS_IGNORE");
    p2p_sync();
}

/* ANY_SOURCE with a fixed tag from all ranks at once, large and small */
static void any_source_mixed(int root)
{
    const int tag = 50;
    size_t n = (size_t)(p2p_rank % 2 ? 300000 : 200);
    if (p2p_rank != root) {
        char *b = malloc(n);
        p2p_fill(b, n, p2p_rank, tag, 0);
        MPI_Send(b, (int)n, MPI_BYTE, root, tag, MPI_COMM_WORLD);
        free(b);
    } else {
        char *b = malloc(300000);
        int bad = 0, seen[64] = {0};
        for (int i = 0; i < p2p_size - 1; i++) {
            MPI_Status st;
            int count = -1;
            MPI_Recv(b, 300000, MPI_BYTE, MPI_ANY_SOURCE, tag, MPI_COMM_WORLD, &st);
            MPI_Get_count(&st, MPI_BYTE, &count);
            int s = st.MPI_SOURCE;
            if (s < 0 || s >= p2p_size || s == root || st.MPI_TAG != tag) {
                bad++;
                continue;
            }
            seen[s]++;
            size_t want = (size_t)(s % 2 ? 300000 : 200);
            if (count != (int)want || p2p_check(b, want, s, tag, 0) >= 0)
                bad++;
        }
        for (int r = 0; r < p2p_size; r++)
            bad += seen[r] != (r != root);
        mt_is_int(bad, 0, "root %d: ANY_SOURCE with a tag from every rank, eager and rendezvous sizes", root);
        free(b);
    }
    p2p_sync();
}

int main(int argc, char **argv)
{
    p2p_init(&argc, &argv);
    p2p_sync();
    full_wildcards(0);
    full_wildcards(p2p_size - 1);
    if (p2p_size >= 2) {
        tag_selection();
        counts();
        error_in_status();
    }
    proc_null();
    self_and_ignore();
    any_source_mixed(0);
    any_source_mixed(p2p_size - 1);
    MPI_Finalize();
    return mt_done();
}

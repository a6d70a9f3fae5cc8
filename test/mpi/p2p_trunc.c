/* MPI test: errors under MPI_ERRORS_RETURN (MPI-3.1 3.2.4, 8.3-8.4).
 *   - a message larger than the receive buffer: MPI_ERR_TRUNCATE (Recv and
 *     Irecv+Wait), eager and rendezvous sizes, nothing written past the
 *     buffer (guard zone), the sender's call succeeds, and the next messages
 *     on the same pair arrive intact
 *   - argument errors and their classes: MPI_ERR_RANK, MPI_ERR_TAG,
 *     MPI_ERR_COUNT, MPI_ERR_TYPE, MPI_ERR_BUFFER, MPI_ERR_COMM,
 *     MPI_ERR_REQUEST; after each one the rank goes on communicating
 * Ranks work in pairs (0,1), (2,3); an odd last rank only does the argument
 * checks (with itself as the peer of its exchanges). */
#include "test/mpi/p2p_common.c"

#define GUARD 4096

static int peer, is_send, is_recv, src, alone;

static int cls_of(int rc)
{
    int c = -1;
    MPI_Error_class(rc, &c);
    return c;
}

/* sender sends n bytes (tag) then a follow-up of m bytes (tag + 1); the
 * receiver has room for cap bytes */
static void truncation(int n, int cap, int m, int tag, int nonblocking)
{
    char *b = malloc((size_t)(n > m ? n : m) + 1);
    if (is_send && !alone) {
        p2p_fill(b, (size_t)n, p2p_rank, tag, 0);
        int rc = MPI_Send(b, n, MPI_BYTE, peer, tag, MPI_COMM_WORLD);
        mt_is_int(rc, MPI_SUCCESS, "sender of %d B truncated at the receiver: its Send succeeds", n);
        p2p_fill(b, (size_t)m, p2p_rank, tag + 1, 0);
        MPI_Send(b, m, MPI_BYTE, peer, tag + 1, MPI_COMM_WORLD);
    }
    if (is_recv && !alone) {
        char *rb = malloc((size_t)cap + GUARD);
        MPI_Status st;
        int rc;
        memset(rb, 0xa5, (size_t)cap + GUARD);
        if (nonblocking) {
            MPI_Request r;
            MPI_Irecv(rb, cap, MPI_BYTE, src, tag, MPI_COMM_WORLD, &r);
            rc = MPI_Wait(&r, &st);
            mt_ok(r == MPI_REQUEST_NULL, "the failed request is freed");
        } else {
            rc = MPI_Recv(rb, cap, MPI_BYTE, src, tag, MPI_COMM_WORLD, &st);
        }
        mt_is_int(cls_of(rc), MPI_ERR_TRUNCATE, "%s of %d B into %d: MPI_ERR_TRUNCATE", nonblocking ? "Irecv+Wait" : "Recv",
                  n, cap);
        long long bad = p2p_check_byte(rb + cap, GUARD, 0xa5);
        mt_ok(bad < 0, "nothing written past the %d-byte buffer (first at +%lld)", cap, bad);
        free(rb);
        rb = malloc((size_t)m + 1);
        int c = -1;
        rc = MPI_Recv(rb, m, MPI_BYTE, src, tag + 1, MPI_COMM_WORLD, &st);
        MPI_Get_count(&st, MPI_BYTE, &c);
        mt_ok(rc == MPI_SUCCESS && c == m && p2p_check(rb, (size_t)m, src, tag + 1, 0) < 0,
              "the next message (%d B) arrives intact", m);
        free(rb);
    }
    free(b);
}

/* a short exchange with the peer, to show communication goes on */
static void still_works(const char *after)
{
    int v = p2p_rank * 10 + 3, w = -1;
    MPI_Status st;
    int rc = MPI_Sendrecv(&v, 1, MPI_INT, peer, 99, &w, 1, MPI_INT, peer, 99, MPI_COMM_WORLD, &st);
    mt_ok(rc == MPI_SUCCESS && w == peer * 10 + 3, "after %s: an exchange with the peer works", after);
}

static void argument_errors(void)
{
    char b[16] = {0};
    MPI_Request r = MPI_REQUEST_NULL;
    MPI_Status st;
    /* a negative rank that is none of the special values */
    int badrank = -1000;
    while (badrank == MPI_PROC_NULL || badrank == MPI_ANY_SOURCE || badrank == MPI_ROOT)
        badrank--;
    int badtag = -1000;
    while (badtag == MPI_ANY_TAG)
        badtag--;

    mt_is_int(cls_of(MPI_Send(b, 1, MPI_BYTE, p2p_size, 0, MPI_COMM_WORLD)), MPI_ERR_RANK, "Send to rank = size: MPI_ERR_RANK");
    mt_is_int(cls_of(MPI_Send(b, 1, MPI_BYTE, badrank, 0, MPI_COMM_WORLD)), MPI_ERR_RANK, "Send to rank %d: MPI_ERR_RANK",
              badrank);
    mt_is_int(cls_of(MPI_Send(b, 1, MPI_BYTE, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD)), MPI_ERR_RANK,
              "Send to MPI_ANY_SOURCE: MPI_ERR_RANK");
    mt_is_int(cls_of(MPI_Recv(b, 1, MPI_BYTE, p2p_size + 5, 0, MPI_COMM_WORLD, &st)), MPI_ERR_RANK,
              "Recv from rank size+5: MPI_ERR_RANK");
    mt_is_int(cls_of(MPI_Isend(b, 1, MPI_BYTE, p2p_size, 0, MPI_COMM_WORLD, &r)), MPI_ERR_RANK,
              "Isend to rank = size: MPI_ERR_RANK");
    mt_is_int(cls_of(MPI_Irecv(b, 1, MPI_BYTE, badrank, 0, MPI_COMM_WORLD, &r)), MPI_ERR_RANK,
              "Irecv from rank %d: MPI_ERR_RANK", badrank);
    still_works("rank errors");

    mt_is_int(cls_of(MPI_Send(b, 1, MPI_BYTE, peer, badtag, MPI_COMM_WORLD)), MPI_ERR_TAG, "Send with tag %d: MPI_ERR_TAG",
              badtag);
    mt_is_int(cls_of(MPI_Send(b, 1, MPI_BYTE, peer, MPI_ANY_TAG, MPI_COMM_WORLD)), MPI_ERR_TAG,
              "Send with MPI_ANY_TAG: MPI_ERR_TAG");
    mt_is_int(cls_of(MPI_Isend(b, 1, MPI_BYTE, peer, -1, MPI_COMM_WORLD, &r)), MPI_ERR_TAG, "Isend with tag -1: MPI_ERR_TAG");
    mt_is_int(cls_of(MPI_Recv(b, 1, MPI_BYTE, peer, badtag, MPI_COMM_WORLD, &st)), MPI_ERR_TAG,
              "Recv with tag %d: MPI_ERR_TAG", badtag);
    still_works("tag errors");

    mt_is_int(cls_of(MPI_Send(b, -1, MPI_BYTE, peer, 0, MPI_COMM_WORLD)), MPI_ERR_COUNT, "Send of count -1: MPI_ERR_COUNT");
    mt_is_int(cls_of(MPI_Recv(b, -5, MPI_BYTE, peer, 0, MPI_COMM_WORLD, &st)), MPI_ERR_COUNT,
              "Recv of count -5: MPI_ERR_COUNT");
    mt_is_int(cls_of(MPI_Irecv(b, -1, MPI_BYTE, peer, 0, MPI_COMM_WORLD, &r)), MPI_ERR_COUNT,
              "Irecv of count -1: MPI_ERR_COUNT");
    still_works("count errors");

    mt_is_int(cls_of(MPI_Send(b, 1, MPI_DATATYPE_NULL, peer, 0, MPI_COMM_WORLD)), MPI_ERR_TYPE,
              "Send of MPI_DATATYPE_NULL: MPI_ERR_TYPE");
    mt_is_int(cls_of(MPI_Recv(b, 1, MPI_DATATYPE_NULL, peer, 0, MPI_COMM_WORLD, &st)), MPI_ERR_TYPE,
              "Recv of MPI_DATATYPE_NULL: MPI_ERR_TYPE");
    still_works("type errors");

    mt_is_int(cls_of(MPI_Send(NULL, 4, MPI_INT, peer, 0, MPI_COMM_WORLD)), MPI_ERR_BUFFER,
              "Send of 4 ints from NULL: MPI_ERR_BUFFER");
    mt_is_int(cls_of(MPI_Recv(NULL, 4, MPI_INT, peer, 0, MPI_COMM_WORLD, &st)), MPI_ERR_BUFFER,
              "Recv of 4 ints into NULL: MPI_ERR_BUFFER");
    still_works("buffer errors");

    mt_is_int(cls_of(MPI_Send(b, 1, MPI_BYTE, peer, 0, MPI_COMM_NULL)), MPI_ERR_COMM, "Send on MPI_COMM_NULL: MPI_ERR_COMM");
    mt_is_int(cls_of(MPI_Irecv(b, 1, MPI_BYTE, peer, 0, MPI_COMM_NULL, &r)), MPI_ERR_COMM,
              "Irecv on MPI_COMM_NULL: MPI_ERR_COMM");
    still_works("communicator errors");

    /* requests: Wait on no request at all, free of a null request, Start of
     * a request that is not persistent */
    mt_is_int(cls_of(MPI_Wait(NULL, &st)), MPI_ERR_REQUEST, "Wait(NULL): MPI_ERR_REQUEST");
    r = MPI_REQUEST_NULL;
    mt_is_int(cls_of(MPI_Request_free(&r)), MPI_ERR_REQUEST, "Request_free of MPI_REQUEST_NULL: MPI_ERR_REQUEST");
    MPI_Request nb;
    int v = 7, w = -1;
    MPI_Irecv(&w, 1, MPI_INT, peer, 98, MPI_COMM_WORLD, &nb);
    mt_is_int(cls_of(MPI_Start(&nb)), MPI_ERR_REQUEST, "Start of a nonpersistent request: MPI_ERR_REQUEST");
    MPI_Send(&v, 1, MPI_INT, peer, 98, MPI_COMM_WORLD);
    mt_ok(MPI_Wait(&nb, &st) == MPI_SUCCESS && w == 7, "that receive still completes normally");
    still_works("request errors");
}

int main(int argc, char **argv)
{
    p2p_init(&argc, &argv);
    peer = p2p_rank ^ 1;
    if (peer >= p2p_size)
        peer = p2p_rank;
    alone = peer == p2p_rank;
    is_send = p2p_rank <= peer;
    is_recv = p2p_rank >= peer;
    src = is_send ? p2p_rank : peer;
    mt_is_int(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN), MPI_SUCCESS, "MPI_ERRORS_RETURN on world");

    truncation(100, 50, 10, 10, 0);
    truncation(10, 0, 0, 12, 1);
    truncation(70000, 65536, 100, 14, 0);
    truncation(2 << 20, 1 << 20, 1 << 20, 16, 1);
    truncation((1 << 20) + 1, 1 << 20, 5, 18, 0);
    truncation(4 << 20, 100, 3 << 20, 20, 1);
    argument_errors();
    MPI_Finalize();
    return mt_done();
}

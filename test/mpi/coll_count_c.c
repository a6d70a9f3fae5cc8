/* MPI test: the collectives' large-count `_c` calls, 63 of them (each
 * blocking, nonblocking and persistent, the persistent ones started twice
 * with new data), their results checked element by element, holes of the
 * v forms' layouts included; the errors of the large counts; with "big":
 * an MPI_Bcast_c of a count beyond 2^31 and an MPI_Gatherv_c whose
 * displacement passes 2^31 (2 ranks, about 2 GiB each).
 *
 * The neighbourhood calls run on a periodic ring (a 1-D cartesian
 * communicator): neighbour 0 is the left one, 1 the right one. */
#include <stdint.h>
#include <stdlib.h>

#include "test/mpi/mtest.h"

static int me, n;
static MPI_Comm ring;
static int left, right;

/* what rank r holds at element i in round k */
static int val(int r, int i, int k)
{
    return r * 1000 + i + k * 100000;
}

static const char *const form[3] = {"blocking", "nonblocking", "persistent"};

/* Run one collective in each form: B (blocking), I (nonblocking, with
 * &req), P (its init, with &req); persistent: started twice, SETUP(k)
 * before each round k; CHECK(k) after each call. */
#define FORMS(NAME, SETUP, CHECK, B, I, P)                                                                    \
    do {                                                                                                      \
        for (int m_ = 0; m_ < 3; m_++) {                                                                      \
            MPI_Request req = MPI_REQUEST_NULL;                                                               \
            for (int k = 0; k < (m_ == 2 ? 2 : 1); k++) {                                                     \
                SETUP(k);                                                                                     \
                int rc_;                                                                                      \
                if (m_ == 0) {                                                                                \
                    rc_ = (B);                                                                                \
                } else if (m_ == 1) {                                                                         \
                    rc_ = (I);                                                                                \
                    if (rc_ == MPI_SUCCESS)                                                                   \
                        rc_ = MPI_Wait(&req, MPI_STATUS_IGNORE);                                              \
                } else {                                                                                      \
                    rc_ = k == 0 ? (P) : MPI_SUCCESS;                                                         \
                    if (rc_ == MPI_SUCCESS)                                                                   \
                        rc_ = MPI_Start(&req);                                                                \
                    if (rc_ == MPI_SUCCESS)                                                                   \
                        rc_ = MPI_Wait(&req, MPI_STATUS_IGNORE);                                              \
                }                                                                                             \
                int bad_ = rc_ == MPI_SUCCESS ? CHECK(k) : -2;                                                \
                mt_ok(bad_ < 0 && rc_ == MPI_SUCCESS, "%s, %s%s: every element (first wrong: %d, rc %d)",     \
                      NAME, form[m_], m_ == 2 ? (k ? ", second start" : ", first start") : "", bad_, rc_);    \
            }                                                                                                 \
            if (m_ == 2 && req != MPI_REQUEST_NULL)                                                           \
                MPI_Request_free(&req);                                                                       \
        }                                                                                                     \
    } while (0)

/* buffers: send and receive, filled with -1 where nothing should land */
#define CAP 4096
static int sb[CAP], rb[CAP];
static void clear(void)
{
    for (int i = 0; i < CAP; i++)
        rb[i] = -1;
}
/* the first index in [0, len) where rb differs from want(i), or -1 */
#define FIRST_BAD(len, want)                                                                                  \
    ({                                                                                                        \
        int fb_ = -1;                                                                                         \
        for (int i = 0; i < (len) && fb_ < 0; i++)                                                            \
            if (rb[i] != (want))                                                                              \
                fb_ = i;                                                                                      \
        fb_;                                                                                                  \
    })

/* ---- bcast, reductions */
enum { C = 5 };
static const int root1 = 1;
static void s_bcast(int k)
{
    clear();
    for (int i = 0; i < C; i++)
        rb[i] = me == root1 % n ? val(root1 % n, i, k) : -1;
}
static int c_bcast(int k)
{
    return FIRST_BAD(CAP, i < C ? val(root1 % n, i, k) : -1);
}

static void s_red(int k)
{
    clear();
    for (int i = 0; i < C; i++)
        sb[i] = val(me, i, k);
}
static int sum_upto(int hi, int i, int k) /* sum over ranks [0, hi) */
{
    int s = 0;
    for (int r = 0; r < hi; r++)
        s += val(r, i, k);
    return s;
}
static int c_reduce(int k)
{
    return me != n - 1 ? FIRST_BAD(CAP, -1) : FIRST_BAD(CAP, i < C ? sum_upto(n, i, k) : -1);
}
static int c_allreduce(int k)
{
    return FIRST_BAD(CAP, i < C ? sum_upto(n, i, k) : -1);
}
static int c_scan(int k)
{
    return FIRST_BAD(CAP, i < C ? sum_upto(me + 1, i, k) : -1);
}
static int c_exscan(int k)
{
    return me == 0 ? -1 : FIRST_BAD(CAP, i < C ? sum_upto(me, i, k) : -1);
}

/* Reduce_scatter: rank r gets r + 1 elements */
static MPI_Count rs_counts[64];
static int rs_off(int r)
{
    return r * (r + 1) / 2;
}
static void s_redscat(int k)
{
    clear();
    for (int i = 0; i < rs_off(n); i++)
        sb[i] = val(me, i, k);
}
static int c_redscat(int k)
{
    return FIRST_BAD(CAP, i < me + 1 ? sum_upto(n, rs_off(me) + i, k) : -1);
}
static void s_redscat_block(int k)
{
    clear();
    for (int i = 0; i < 2 * n; i++)
        sb[i] = val(me, i, k);
}
static int c_redscat_block(int k)
{
    return FIRST_BAD(CAP, i < 2 ? sum_upto(n, 2 * me + i, k) : -1);
}

/* ---- gather, scatter, allgather (3 each; v forms: r + 1 each, at
 * displacements 2 * rs_off(r) + 1: a hole before and between blocks) */
static MPI_Count v_counts[64];
static MPI_Aint v_displs[64];
static void s_send3(int k)
{
    clear();
    for (int i = 0; i < CAP; i++)
        sb[i] = val(me, i, k);
}
static int gathered(int i, int k) /* the block form's result element i */
{
    return i < 3 * n ? val(i / 3, i % 3, k) : -1;
}
static int vgathered(int i, int k) /* the v form's */
{
    for (int r = 0; r < n; r++)
        if (i >= v_displs[r] && i < v_displs[r] + v_counts[r])
            return val(r, (int)(i - v_displs[r]), k);
    return -1;
}
static int c_gather(int k)
{
    return me ? FIRST_BAD(CAP, -1) : FIRST_BAD(CAP, gathered(i, k));
}
static int c_gatherv(int k)
{
    return me ? FIRST_BAD(CAP, -1) : FIRST_BAD(CAP, vgathered(i, k));
}
static int c_allgather(int k)
{
    return FIRST_BAD(CAP, gathered(i, k));
}
static int c_allgatherv(int k)
{
    return FIRST_BAD(CAP, vgathered(i, k));
}
/* scatter from rank 0: rank r gets elements [3r, 3r + 3) of rank 0's */
static int c_scatter(int k)
{
    return FIRST_BAD(CAP, i < 3 ? val(0, 3 * me + i, k) : -1);
}
static int c_scatterv(int k)
{
    return FIRST_BAD(CAP, i < me + 1 ? val(0, (int)v_displs[me] + i, k) : -1);
}

/* ---- alltoall: block 2 each; v and w: rank s sends rank d (s + d) % 3 + 1
 * elements from its element 10 d; rank d puts them at 10 s + 1 */
static MPI_Count a_scounts[64], a_rcounts[64];
static MPI_Aint a_sdispls[64], a_rdispls[64], a_sbytes[64], a_rbytes[64];
static MPI_Datatype a_types[64];
static int c_alltoall(int k)
{
    return FIRST_BAD(CAP, i < 2 * n ? val(i / 2, 2 * me + i % 2, k) : -1);
}
static int a2av_want(int i, int k)
{
    int s = i / 10, j = i % 10 - 1;
    if (s >= n || j < 0 || j >= (s + me) % 3 + 1)
        return -1;
    return val(s, 10 * me + j, k);
}
static int c_alltoallv(int k)
{
    return FIRST_BAD(CAP, a2av_want(i, k));
}

/* ---- neighbourhood, on the ring: 3 each to both; v: block j at 4 j + 1;
 * alltoall: block j (3 elements at 3 j) goes to neighbour j */
static MPI_Count nb_counts[2] = {3, 3};
static MPI_Aint nb_displs[2] = {1, 5}, nb_bytes[2] = {4, 20};
static MPI_Aint nb_sdispls[2] = {0, 3}, nb_sbytes[2] = {0, 12};
static MPI_Datatype nb_types[2];
static int nbr(int j)
{
    return j == 0 ? left : right;
}
static int c_nallgather(int k)
{
    return FIRST_BAD(CAP, i < 6 ? val(nbr(i / 3), i % 3, k) : -1);
}
static int c_nallgatherv(int k)
{
    return FIRST_BAD(CAP, (i % 4 != 0 && i < 8) ? val(nbr(i / 4), i % 4 - 1, k) : -1);
}
/* what neighbour j sends this rank: its block for the other direction */
static int c_nalltoall(int k)
{
    return FIRST_BAD(CAP, i < 6 ? val(nbr(i / 3), 3 * (1 - i / 3) + i % 3, k) : -1);
}
static int c_nalltoallv(int k)
{
    return FIRST_BAD(CAP, (i % 4 != 0 && i < 8) ? val(nbr(i / 4), 3 * (1 - i / 4) + i % 4 - 1, k) : -1);
}

static void errors(void)
{
    int cls, x = 0;
    MPI_Count neg[64], big = (MPI_Count)1 << 62;
    for (int i = 0; i < n; i++)
        neg[i] = 1;
    neg[n - 1] = -3;
    MPI_Aint d[64] = {0};
    MPI_Error_class(MPI_Bcast_c(&x, -1, MPI_INT, 0, MPI_COMM_WORLD), &cls);
    mt_is_int(cls, MPI_ERR_COUNT, "MPI_Bcast_c of count -1: MPI_ERR_COUNT");
    MPI_Error_class(MPI_Bcast_c(&x, big, MPI_INT, 0, MPI_COMM_WORLD), &cls);
    mt_is_int(cls, MPI_ERR_COUNT, "MPI_Bcast_c of 2^62 ints (2^64 bytes): MPI_ERR_COUNT");
    MPI_Error_class(MPI_Allgatherv_c(&x, 1, MPI_INT, rb, neg, d, MPI_INT, MPI_COMM_WORLD), &cls);
    mt_is_int(cls, MPI_ERR_COUNT, "MPI_Allgatherv_c with a recvcount of -3: MPI_ERR_COUNT");
    MPI_Count huge[64];
    for (int i = 0; i < n; i++)
        huge[i] = INT64_MAX / 2 + 1;
    MPI_Error_class(MPI_Reduce_scatter_c(sb, rb, huge, MPI_BYTE, MPI_BOR, MPI_COMM_WORLD), &cls);
    mt_is_int(cls, MPI_ERR_COUNT, "MPI_Reduce_scatter_c whose recvcounts sum past 2^63: MPI_ERR_COUNT");
    MPI_Error_class(MPI_Reduce_scatter_block_c(sb, rb, INT64_MAX / 2 + 1, MPI_BYTE, MPI_BOR, MPI_COMM_WORLD), &cls);
    mt_is_int(cls, MPI_ERR_COUNT, "MPI_Reduce_scatter_block_c of 2^62 times %d ranks: MPI_ERR_COUNT", n);
    MPI_Request r = MPI_REQUEST_NULL;
    MPI_Error_class(MPI_Iallreduce_c(sb, rb, -2, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &r), &cls);
    mt_ok(cls == MPI_ERR_COUNT && r == MPI_REQUEST_NULL, "MPI_Iallreduce_c of count -2: MPI_ERR_COUNT, no request");
    /* block forms whose n blocks pass 2^63 bytes though one block does not
     * (2^60 of an int of extent 0: 2^62 bytes a block), on every rank */
    MPI_Datatype t0;
    MPI_Type_create_resized(MPI_INT, 0, 0, &t0);
    MPI_Type_commit(&t0);
    const MPI_Count b60 = (MPI_Count)1 << 60;
    MPI_Error_class(MPI_Alltoall_c(sb, b60, t0, rb, b60, t0, MPI_COMM_WORLD), &cls);
    mt_is_int(cls, MPI_ERR_COUNT, "MPI_Alltoall_c of %d blocks of 2^62 bytes: MPI_ERR_COUNT", n);
    MPI_Error_class(MPI_Scatter_c(sb, b60, t0, rb, b60, t0, 0, MPI_COMM_WORLD), &cls);
    mt_is_int(cls, MPI_ERR_COUNT, "MPI_Scatter_c of %d blocks of 2^62 bytes: MPI_ERR_COUNT", n);
    MPI_Error_class(MPI_Allgather_c(sb, b60, t0, rb, b60, t0, MPI_COMM_WORLD), &cls);
    mt_is_int(cls, MPI_ERR_COUNT, "MPI_Allgather_c of %d blocks of 2^62 bytes: MPI_ERR_COUNT", n);
    MPI_Type_free(&t0);
    /* the int calls are unchanged: a NULL recvcounts */
    MPI_Error_class(MPI_Allgatherv(&x, 1, MPI_INT, rb, NULL, (int *)d, MPI_INT, MPI_COMM_WORLD), &cls);
    mt_is_int(cls, MPI_ERR_ARG, "MPI_Allgatherv with recvcounts NULL: MPI_ERR_ARG");
    MPI_Barrier(MPI_COMM_WORLD);
}

/* 2 ranks: a count beyond 2^31 (MPI_Bcast_c), and a displacement beyond
 * 2^31 (MPI_Gatherv_c of 8 chars from each rank, rank 1's at 2^31 + 8). */
static void big(void)
{
    const MPI_Count cnt = ((MPI_Count)1 << 31) + 24;
    unsigned char *buf = malloc((size_t)cnt);
    if (!buf) {
        mt_ok(0, "malloc of 2^31 + 24 bytes");
        return;
    }
    for (MPI_Count i = 0; i < cnt; i++)
        buf[i] = me == 0 ? (unsigned char)(i * 7 + (i >> 20)) : 0;
    int rc = MPI_Bcast_c(buf, cnt, MPI_UNSIGNED_CHAR, 0, MPI_COMM_WORLD);
    MPI_Count bad = -1;
    for (MPI_Count i = 0; i < cnt && bad < 0; i++)
        if (buf[i] != (unsigned char)(i * 7 + (i >> 20)))
            bad = i;
    mt_ok(rc == MPI_SUCCESS && bad < 0, "MPI_Bcast_c of 2^31 + 24 bytes: every byte (first wrong: %lld)", bad);
    unsigned char mine[8];
    for (int i = 0; i < 8; i++)
        mine[i] = (unsigned char)(0xa0 + 16 * me + i);
    MPI_Count counts[2] = {8, 8};
    MPI_Aint displs[2] = {16, ((MPI_Aint)1 << 31) + 8};
    rc = MPI_Gatherv_c(mine, 8, MPI_UNSIGNED_CHAR, buf, counts, displs, MPI_UNSIGNED_CHAR, 0, MPI_COMM_WORLD);
    if (me == 0) {
        int good = rc == MPI_SUCCESS;
        for (int r = 0; r < 2; r++)
            for (int i = 0; i < 8; i++)
                good &= buf[displs[r] + i] == (unsigned char)(0xa0 + 16 * r + i);
        /* the bytes around the blocks are the broadcast's still */
        for (MPI_Aint i = displs[1] - 8; i < displs[1]; i++)
            good &= buf[i] == (unsigned char)(i * 7 + (i >> 20));
        good &= buf[displs[1] + 8] == (unsigned char)((displs[1] + 8) * 7 + ((displs[1] + 8) >> 20));
        mt_ok(good, "MPI_Gatherv_c with a displacement of 2^31 + 8: both blocks in place, the rest untouched");
    } else {
        mt_is_int(rc, MPI_SUCCESS, "MPI_Gatherv_c with a displacement of 2^31 + 8 (sender)");
    }
    free(buf);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    mt_rank = me;
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    if (argc > 1 && strcmp(argv[1], "big") == 0) {
        if (n == 2)
            big();
        else
            mt_ok(0, "big: 2 ranks, not %d", n);
        printf("done [rank %d] %d checks, %d failed\n", me, mt_checks, mt_failed);
        MPI_Finalize();
        return 0;
    }
    if (n > 20) {
        mt_ok(0, "at most 20 ranks");
        MPI_Finalize();
        return 1;
    }
    MPI_Comm w = MPI_COMM_WORLD;
    MPI_Info none = MPI_INFO_NULL;
    int dims[1] = {n}, periods[1] = {1};
    MPI_Cart_create(w, 1, dims, periods, 0, &ring);
    MPI_Cart_shift(ring, 0, 1, &left, &right);
    for (int r = 0; r < n; r++) {
        rs_counts[r] = r + 1;
        v_counts[r] = r + 1;
        v_displs[r] = 2 * rs_off(r) + 1;
    }

    FORMS("MPI_Bcast_c", s_bcast, c_bcast, MPI_Bcast_c(rb, C, MPI_INT, root1 % n, w),
          MPI_Ibcast_c(rb, C, MPI_INT, root1 % n, w, &req),
          MPI_Bcast_init_c(rb, C, MPI_INT, root1 % n, w, none, &req));
    FORMS("MPI_Reduce_c", s_red, c_reduce, MPI_Reduce_c(sb, rb, C, MPI_INT, MPI_SUM, n - 1, w),
          MPI_Ireduce_c(sb, rb, C, MPI_INT, MPI_SUM, n - 1, w, &req),
          MPI_Reduce_init_c(sb, rb, C, MPI_INT, MPI_SUM, n - 1, w, none, &req));
    FORMS("MPI_Allreduce_c", s_red, c_allreduce, MPI_Allreduce_c(sb, rb, C, MPI_INT, MPI_SUM, w),
          MPI_Iallreduce_c(sb, rb, C, MPI_INT, MPI_SUM, w, &req),
          MPI_Allreduce_init_c(sb, rb, C, MPI_INT, MPI_SUM, w, none, &req));
    FORMS("MPI_Scan_c", s_red, c_scan, MPI_Scan_c(sb, rb, C, MPI_INT, MPI_SUM, w),
          MPI_Iscan_c(sb, rb, C, MPI_INT, MPI_SUM, w, &req),
          MPI_Scan_init_c(sb, rb, C, MPI_INT, MPI_SUM, w, none, &req));
    FORMS("MPI_Exscan_c", s_red, c_exscan, MPI_Exscan_c(sb, rb, C, MPI_INT, MPI_SUM, w),
          MPI_Iexscan_c(sb, rb, C, MPI_INT, MPI_SUM, w, &req),
          MPI_Exscan_init_c(sb, rb, C, MPI_INT, MPI_SUM, w, none, &req));
    FORMS("MPI_Reduce_scatter_c", s_redscat, c_redscat,
          MPI_Reduce_scatter_c(sb, rb, rs_counts, MPI_INT, MPI_SUM, w),
          MPI_Ireduce_scatter_c(sb, rb, rs_counts, MPI_INT, MPI_SUM, w, &req),
          MPI_Reduce_scatter_init_c(sb, rb, rs_counts, MPI_INT, MPI_SUM, w, none, &req));
    FORMS("MPI_Reduce_scatter_block_c", s_redscat_block, c_redscat_block,
          MPI_Reduce_scatter_block_c(sb, rb, 2, MPI_INT, MPI_SUM, w),
          MPI_Ireduce_scatter_block_c(sb, rb, 2, MPI_INT, MPI_SUM, w, &req),
          MPI_Reduce_scatter_block_init_c(sb, rb, 2, MPI_INT, MPI_SUM, w, none, &req));

    FORMS("MPI_Gather_c", s_send3, c_gather, MPI_Gather_c(sb, 3, MPI_INT, rb, 3, MPI_INT, 0, w),
          MPI_Igather_c(sb, 3, MPI_INT, rb, 3, MPI_INT, 0, w, &req),
          MPI_Gather_init_c(sb, 3, MPI_INT, rb, 3, MPI_INT, 0, w, none, &req));
    FORMS("MPI_Gatherv_c", s_send3, c_gatherv,
          MPI_Gatherv_c(sb, me + 1, MPI_INT, rb, v_counts, v_displs, MPI_INT, 0, w),
          MPI_Igatherv_c(sb, me + 1, MPI_INT, rb, v_counts, v_displs, MPI_INT, 0, w, &req),
          MPI_Gatherv_init_c(sb, me + 1, MPI_INT, rb, v_counts, v_displs, MPI_INT, 0, w, none, &req));
    FORMS("MPI_Scatter_c", s_send3, c_scatter, MPI_Scatter_c(sb, 3, MPI_INT, rb, 3, MPI_INT, 0, w),
          MPI_Iscatter_c(sb, 3, MPI_INT, rb, 3, MPI_INT, 0, w, &req),
          MPI_Scatter_init_c(sb, 3, MPI_INT, rb, 3, MPI_INT, 0, w, none, &req));
    FORMS("MPI_Scatterv_c", s_send3, c_scatterv,
          MPI_Scatterv_c(sb, v_counts, v_displs, MPI_INT, rb, me + 1, MPI_INT, 0, w),
          MPI_Iscatterv_c(sb, v_counts, v_displs, MPI_INT, rb, me + 1, MPI_INT, 0, w, &req),
          MPI_Scatterv_init_c(sb, v_counts, v_displs, MPI_INT, rb, me + 1, MPI_INT, 0, w, none, &req));
    FORMS("MPI_Allgather_c", s_send3, c_allgather, MPI_Allgather_c(sb, 3, MPI_INT, rb, 3, MPI_INT, w),
          MPI_Iallgather_c(sb, 3, MPI_INT, rb, 3, MPI_INT, w, &req),
          MPI_Allgather_init_c(sb, 3, MPI_INT, rb, 3, MPI_INT, w, none, &req));
    FORMS("MPI_Allgatherv_c", s_send3, c_allgatherv,
          MPI_Allgatherv_c(sb, me + 1, MPI_INT, rb, v_counts, v_displs, MPI_INT, w),
          MPI_Iallgatherv_c(sb, me + 1, MPI_INT, rb, v_counts, v_displs, MPI_INT, w, &req),
          MPI_Allgatherv_init_c(sb, me + 1, MPI_INT, rb, v_counts, v_displs, MPI_INT, w, none, &req));

    for (int r = 0; r < n; r++) {
        a_scounts[r] = (me + r) % 3 + 1;
        a_sdispls[r] = 10 * r;
        a_sbytes[r] = 40 * r;
        a_rcounts[r] = (r + me) % 3 + 1;
        a_rdispls[r] = 10 * r + 1;
        a_rbytes[r] = 40 * r + 4;
        a_types[r] = MPI_INT;
    }
    FORMS("MPI_Alltoall_c", s_send3, c_alltoall, MPI_Alltoall_c(sb, 2, MPI_INT, rb, 2, MPI_INT, w),
          MPI_Ialltoall_c(sb, 2, MPI_INT, rb, 2, MPI_INT, w, &req),
          MPI_Alltoall_init_c(sb, 2, MPI_INT, rb, 2, MPI_INT, w, none, &req));
    FORMS("MPI_Alltoallv_c", s_send3, c_alltoallv,
          MPI_Alltoallv_c(sb, a_scounts, a_sdispls, MPI_INT, rb, a_rcounts, a_rdispls, MPI_INT, w),
          MPI_Ialltoallv_c(sb, a_scounts, a_sdispls, MPI_INT, rb, a_rcounts, a_rdispls, MPI_INT, w, &req),
          MPI_Alltoallv_init_c(sb, a_scounts, a_sdispls, MPI_INT, rb, a_rcounts, a_rdispls, MPI_INT, w, none,
                               &req));
    FORMS("MPI_Alltoallw_c", s_send3, c_alltoallv,
          MPI_Alltoallw_c(sb, a_scounts, a_sbytes, a_types, rb, a_rcounts, a_rbytes, a_types, w),
          MPI_Ialltoallw_c(sb, a_scounts, a_sbytes, a_types, rb, a_rcounts, a_rbytes, a_types, w, &req),
          MPI_Alltoallw_init_c(sb, a_scounts, a_sbytes, a_types, rb, a_rcounts, a_rbytes, a_types, w, none,
                               &req));

    nb_types[0] = nb_types[1] = MPI_INT;
    FORMS("MPI_Neighbor_allgather_c", s_send3, c_nallgather,
          MPI_Neighbor_allgather_c(sb, 3, MPI_INT, rb, 3, MPI_INT, ring),
          MPI_Ineighbor_allgather_c(sb, 3, MPI_INT, rb, 3, MPI_INT, ring, &req),
          MPI_Neighbor_allgather_init_c(sb, 3, MPI_INT, rb, 3, MPI_INT, ring, none, &req));
    FORMS("MPI_Neighbor_allgatherv_c", s_send3, c_nallgatherv,
          MPI_Neighbor_allgatherv_c(sb, 3, MPI_INT, rb, nb_counts, nb_displs, MPI_INT, ring),
          MPI_Ineighbor_allgatherv_c(sb, 3, MPI_INT, rb, nb_counts, nb_displs, MPI_INT, ring, &req),
          MPI_Neighbor_allgatherv_init_c(sb, 3, MPI_INT, rb, nb_counts, nb_displs, MPI_INT, ring, none, &req));
    FORMS("MPI_Neighbor_alltoall_c", s_send3, c_nalltoall,
          MPI_Neighbor_alltoall_c(sb, 3, MPI_INT, rb, 3, MPI_INT, ring),
          MPI_Ineighbor_alltoall_c(sb, 3, MPI_INT, rb, 3, MPI_INT, ring, &req),
          MPI_Neighbor_alltoall_init_c(sb, 3, MPI_INT, rb, 3, MPI_INT, ring, none, &req));
    FORMS("MPI_Neighbor_alltoallv_c", s_send3, c_nalltoallv,
          MPI_Neighbor_alltoallv_c(sb, nb_counts, nb_sdispls, MPI_INT, rb, nb_counts, nb_displs, MPI_INT, ring),
          MPI_Ineighbor_alltoallv_c(sb, nb_counts, nb_sdispls, MPI_INT, rb, nb_counts, nb_displs, MPI_INT, ring,
                                    &req),
          MPI_Neighbor_alltoallv_init_c(sb, nb_counts, nb_sdispls, MPI_INT, rb, nb_counts, nb_displs, MPI_INT,
                                        ring, none, &req));
    FORMS("MPI_Neighbor_alltoallw_c", s_send3, c_nalltoallv,
          MPI_Neighbor_alltoallw_c(sb, nb_counts, nb_sbytes, nb_types, rb, nb_counts, nb_bytes, nb_types, ring),
          MPI_Ineighbor_alltoallw_c(sb, nb_counts, nb_sbytes, nb_types, rb, nb_counts, nb_bytes, nb_types, ring,
                                    &req),
          MPI_Neighbor_alltoallw_init_c(sb, nb_counts, nb_sbytes, nb_types, rb, nb_counts, nb_bytes, nb_types,
                                        ring, none, &req));

    errors();
    MPI_Comm_free(&ring);
    printf("done [rank %d] %d checks, %d failed\n", me, mt_checks, mt_failed);
    MPI_Finalize();
    return 0;
}

/* MPI test: info arguments that may be MPI_INFO_NULL, and those that may
 * not. MPI_INFO_NULL means "no hints" for the calls that create objects
 * (MPI_Comm_dup_with_info, MPI_Comm_idup_with_info, MPI_Comm_split_type,
 * MPI_Win_create, MPI_Dist_graph_create(_adjacent)); the calls that work
 * on an info object itself, and MPI_Comm_set_info, need a valid one. A
 * handle that is not an info object is MPI_ERR_INFO everywhere, with a
 * message naming the call. */
#include <stdlib.h>

#include "test/mpi/mtest.h"

static int rank, size;

/* not an info object: zeroed memory where an info object's magic would be */
static long long not_info_mem[8];
#define NOT_INFO ((MPI_Info)(void *)not_info_mem)

static void is_msg(const char *call)
{
    char s[MPI_MAX_ERROR_STRING], want[MPI_MAX_ERROR_STRING];
    int len;
    MPI_Error_string(MPI_ERR_INFO, s, &len);
    snprintf(want, sizeof(want), "MPI_ERR_INFO: invalid info argument (%s on rank %d: invalid info)", call, rank);
    mt_ok(strcmp(s, want) == 0, "%s: the message names the call, the rank and the cause: '%s'", call, s);
}

/* newcomm is a working copy of MPI_COMM_WORLD, apart from it */
static void works(MPI_Comm c, const char *what)
{
    int res = -1, sum = -1, one = rank + 1, x = -1, y = -2;
    MPI_Comm_compare(MPI_COMM_WORLD, c, &res);
    mt_is_int(res, MPI_CONGRUENT, "%s: congruent to MPI_COMM_WORLD", what);
    MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, c);
    mt_is_int(sum, size * (size + 1) / 2, "%s: Allreduce gives the exact sum", what);
    /* a message on world with the same tag must not meet c's */
    int to = (rank + 1) % size, from = (rank + size - 1) % size;
    MPI_Request r[2];
    MPI_Irecv(&x, 1, MPI_INT, from, 0, c, &r[0]);
    MPI_Irecv(&y, 1, MPI_INT, from, 0, MPI_COMM_WORLD, &r[1]);
    int a = 1000 + rank, b = 2000 + rank;
    MPI_Send(&b, 1, MPI_INT, to, 0, MPI_COMM_WORLD);
    MPI_Send(&a, 1, MPI_INT, to, 0, c);
    MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
    mt_ok(x == 1000 + from && y == 2000 + from, "%s: its messages stay apart from MPI_COMM_WORLD's", what);
}

int main(int argc, char **argv)
{
    MPI_Comm c;
    MPI_Info info;
    int rc;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    mt_rank = rank;
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Info_create(&info);
    MPI_Info_set(info, "mpi_assert_no_any_tag", "true");

    /* MPI_Comm_dup_with_info */
    c = MPI_COMM_NULL;
    rc = MPI_Comm_dup_with_info(MPI_COMM_WORLD, MPI_INFO_NULL, &c);
    mt_is_int(rc, MPI_SUCCESS, "MPI_Comm_dup_with_info with MPI_INFO_NULL succeeds");
    if (rc == MPI_SUCCESS) {
        works(c, "MPI_Comm_dup_with_info(MPI_INFO_NULL)");
        MPI_Comm_free(&c);
    }
    rc = MPI_Comm_dup_with_info(MPI_COMM_WORLD, info, &c);
    mt_is_int(rc, MPI_SUCCESS, "MPI_Comm_dup_with_info with an info object succeeds");
    if (rc == MPI_SUCCESS) {
        works(c, "MPI_Comm_dup_with_info(info)");
        MPI_Comm_free(&c);
    }
    c = MPI_COMM_WORLD;
    rc = MPI_Comm_dup_with_info(MPI_COMM_WORLD, NOT_INFO, &c);
    mt_is_int(rc, MPI_ERR_INFO, "MPI_Comm_dup_with_info with a handle that is no info: MPI_ERR_INFO");
    is_msg("MPI_Comm_dup_with_info");
    rc = MPI_Comm_dup_with_info(MPI_COMM_NULL, MPI_INFO_NULL, &c);
    mt_is_int(rc, MPI_ERR_COMM, "MPI_Comm_dup_with_info of MPI_COMM_NULL: MPI_ERR_COMM");

    /* MPI_Comm_idup_with_info */
    MPI_Request r = MPI_REQUEST_NULL;
    rc = MPI_Comm_idup_with_info(MPI_COMM_WORLD, MPI_INFO_NULL, &c, &r);
    mt_is_int(rc, MPI_SUCCESS, "MPI_Comm_idup_with_info with MPI_INFO_NULL succeeds");
    if (rc == MPI_SUCCESS) {
        rc = MPI_Wait(&r, MPI_STATUS_IGNORE);
        mt_is_int(rc, MPI_SUCCESS, "MPI_Comm_idup_with_info(MPI_INFO_NULL) completes");
        works(c, "MPI_Comm_idup_with_info(MPI_INFO_NULL)");
        MPI_Comm_free(&c);
    }
    rc = MPI_Comm_idup_with_info(MPI_COMM_WORLD, info, &c, &r);
    mt_is_int(rc, MPI_SUCCESS, "MPI_Comm_idup_with_info with an info object succeeds");
    if (rc == MPI_SUCCESS) {
        MPI_Wait(&r, MPI_STATUS_IGNORE);
        works(c, "MPI_Comm_idup_with_info(info)");
        MPI_Comm_free(&c);
    }
    rc = MPI_Comm_idup_with_info(MPI_COMM_WORLD, NOT_INFO, &c, &r);
    mt_is_int(rc, MPI_ERR_INFO, "MPI_Comm_idup_with_info with a handle that is no info: MPI_ERR_INFO");
    is_msg("MPI_Comm_idup_with_info");

    /* MPI_Comm_split_type */
    rc = MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &c);
    mt_is_int(rc, MPI_SUCCESS, "MPI_Comm_split_type with MPI_INFO_NULL succeeds");
    if (rc == MPI_SUCCESS) {
        int n = -1;
        MPI_Comm_size(c, &n);
        mt_is_int(n, size, "MPI_Comm_split_type(SHARED) on one node: every rank");
        MPI_Comm_free(&c);
    }
    rc = MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, NOT_INFO, &c);
    mt_is_int(rc, MPI_ERR_INFO, "MPI_Comm_split_type with a handle that is no info: MPI_ERR_INFO");
    is_msg("MPI_Comm_split_type");

    /* MPI_Win_create */
    int mem[4];
    MPI_Win w = MPI_WIN_NULL;
    rc = MPI_Win_create(mem, sizeof(mem), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &w);
    mt_is_int(rc, MPI_SUCCESS, "MPI_Win_create with MPI_INFO_NULL succeeds");
    if (rc == MPI_SUCCESS)
        MPI_Win_free(&w);
    rc = MPI_Win_create(mem, sizeof(mem), sizeof(int), NOT_INFO, MPI_COMM_WORLD, &w);
    mt_is_int(rc, MPI_ERR_INFO, "MPI_Win_create with a handle that is no info: MPI_ERR_INFO");
    is_msg("MPI_Win_create");

    /* MPI_Dist_graph_create_adjacent and MPI_Dist_graph_create: a ring */
    int to = (rank + 1) % size, from = (rank + size - 1) % size;
    rc = MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 1, &from, MPI_UNWEIGHTED, 1, &to, MPI_UNWEIGHTED,
                                        MPI_INFO_NULL, 0, &c);
    mt_is_int(rc, MPI_SUCCESS, "MPI_Dist_graph_create_adjacent with MPI_INFO_NULL succeeds");
    if (rc == MPI_SUCCESS) {
        int got = -1, mine = rank;
        MPI_Neighbor_allgather(&mine, 1, MPI_INT, &got, 1, MPI_INT, c);
        mt_is_int(got, from, "the ring made with MPI_INFO_NULL carries its neighbour's rank");
        MPI_Comm_free(&c);
    }
    rc = MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 1, &from, MPI_UNWEIGHTED, 1, &to, MPI_UNWEIGHTED,
                                        NOT_INFO, 0, &c);
    mt_is_int(rc, MPI_ERR_INFO, "MPI_Dist_graph_create_adjacent with a handle that is no info: MPI_ERR_INFO");
    is_msg("MPI_Dist_graph_create_adjacent");
    int one = 1;
    rc = MPI_Dist_graph_create(MPI_COMM_WORLD, 1, &rank, &one, &to, MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &c);
    mt_is_int(rc, MPI_SUCCESS, "MPI_Dist_graph_create with MPI_INFO_NULL succeeds");
    if (rc == MPI_SUCCESS) {
        int got = -1, mine = rank;
        MPI_Neighbor_allgather(&mine, 1, MPI_INT, &got, 1, MPI_INT, c);
        mt_is_int(got, from, "the graph made with MPI_INFO_NULL carries its neighbour's rank");
        MPI_Comm_free(&c);
    }
    rc = MPI_Dist_graph_create(MPI_COMM_WORLD, 1, &rank, &one, &to, MPI_UNWEIGHTED, NOT_INFO, 0, &c);
    mt_is_int(rc, MPI_ERR_INFO, "MPI_Dist_graph_create with a handle that is no info: MPI_ERR_INFO");
    is_msg("MPI_Dist_graph_create");

    /* the calls that need an info object */
    rc = MPI_Comm_set_info(MPI_COMM_WORLD, MPI_INFO_NULL);
    mt_is_int(rc, MPI_ERR_INFO, "MPI_Comm_set_info with MPI_INFO_NULL: MPI_ERR_INFO");
    rc = MPI_Comm_set_info(MPI_COMM_WORLD, info);
    mt_is_int(rc, MPI_SUCCESS, "MPI_Comm_set_info with an info object succeeds");
    MPI_Info d = MPI_INFO_NULL;
    rc = MPI_Info_dup(MPI_INFO_NULL, &d);
    mt_is_int(rc, MPI_ERR_INFO, "MPI_Info_dup of MPI_INFO_NULL: MPI_ERR_INFO");
    int n = -1;
    rc = MPI_Info_get_nkeys(MPI_INFO_NULL, &n);
    mt_is_int(rc, MPI_ERR_INFO, "MPI_Info_get_nkeys of MPI_INFO_NULL: MPI_ERR_INFO");
    rc = MPI_Info_set(MPI_INFO_NULL, "a", "b");
    mt_is_int(rc, MPI_ERR_INFO, "MPI_Info_set on MPI_INFO_NULL: MPI_ERR_INFO");
    d = MPI_INFO_NULL;
    rc = MPI_Info_free(&d);
    mt_is_int(rc, MPI_ERR_INFO, "MPI_Info_free of MPI_INFO_NULL: MPI_ERR_INFO");

    MPI_Info_free(&info);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return mt_done();
}

/* MPI test: MPI_Op_create_c (a user function with an MPI_Count *len) and
 * MPI_Reduce_local_c: exact sums through MPI_Reduce_local_c and
 * MPI_Allreduce; an int op given more than INT_MAX elements by
 * MPI_Reduce_local_c is called in chunks (seen with a type of extent 0,
 * so that no memory is needed). On any number of ranks. */
#include <stdint.h>

#include "test/mpi/mtest.h"

static MPI_Count seen_c;
static long long total, calls;

static void add_c(void *in, void *inout, MPI_Count *len, MPI_Datatype *dt)
{
    (void)dt;
    seen_c = *len;
    for (MPI_Count i = 0; i < *len; i++)
        ((int *)inout)[i] += ((int *)in)[i];
}

static void count_only(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    (void)in, (void)inout, (void)dt;
    total += *len;
    calls++;
}

int main(int argc, char **argv)
{
    int me, np;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    mt_rank = me;
    MPI_Op op;
    mt_is_int(MPI_Op_create_c(add_c, 1, &op), MPI_SUCCESS, "MPI_Op_create_c");
    int a[5] = {1, 2, 3, 4, 5}, b[5] = {10, 20, 30, 40, 50};
    mt_is_int(MPI_Reduce_local_c(a, b, 5, MPI_INT, op), MPI_SUCCESS, "MPI_Reduce_local_c");
    mt_ok(b[0] == 11 && b[4] == 55 && seen_c == 5, "the sums, and len 5 as an MPI_Count");
    int mine[3] = {me, 2 * me, 1}, sum[3] = {0, 0, 0};
    mt_is_int(MPI_Allreduce(mine, sum, 3, MPI_INT, op, MPI_COMM_WORLD), MPI_SUCCESS, "MPI_Allreduce with it");
    mt_ok(sum[0] == np * (np - 1) / 2 && sum[1] == np * (np - 1) && sum[2] == np, "the sums over %d ranks", np);
    MPI_Op_free(&op);

    /* an int op and 2^31 + 10 elements of extent 0: chunks of INT_MAX */
    MPI_Datatype z;
    MPI_Type_create_resized(MPI_CHAR, 0, 0, &z);
    MPI_Type_commit(&z);
    mt_is_int(MPI_Op_create(count_only, 1, &op), MPI_SUCCESS, "MPI_Op_create of an int op");
    char x = 0, y = 0;
    const MPI_Count n = ((MPI_Count)1 << 31) + 10;
    mt_is_int(MPI_Reduce_local_c(&x, &y, n, z, op), MPI_SUCCESS, "MPI_Reduce_local_c of 2^31 + 10 elements");
    mt_ok(total == n && calls == 2, "the int op saw them all in 2 calls (%lld in %lld)", total, calls);
    MPI_Op_free(&op);
    MPI_Type_free(&z);
    printf("done [rank %d] %d checks, %d failed\n", me, mt_checks, mt_failed);
    MPI_Finalize();
    return mt_failed != 0;
}

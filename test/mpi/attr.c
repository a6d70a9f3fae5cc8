/* MPI test: attributes on communicators: the predefined ones, keyvals with
 * copy and delete callbacks (counted), and MPI_COMM_SELF's deleted at
 * MPI_Finalize in the reverse order of setting. */
#include <stdlib.h>

#include "test/mpi/mtest.h"

static int copies, deletes, order[3], norder;
static int extra_seen;

static int count_copy(MPI_Comm c, int k, void *extra, void *in, void *out, int *flag)
{
    copies++;
    extra_seen = *(int *)extra;
    *(void **)out = (char *)in + 1; /* a recognisably new value */
    *flag = 1;
    return MPI_SUCCESS;
}

static int count_delete(MPI_Comm c, int k, void *val, void *extra)
{
    deletes++;
    return MPI_SUCCESS;
}

static int record_delete(MPI_Comm c, int k, void *val, void *extra)
{
    order[norder++] = (int)(long)val;
    return MPI_SUCCESS;
}

static int refuse_copy(MPI_Comm c, int k, void *extra, void *in, void *out, int *flag)
{
    return MPI_ERR_OTHER;
}

int main(int argc, char **argv)
{
    int rank, size, flag = -1, *ip = NULL;
    void *v = NULL;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    mt_rank = rank;
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);

    MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &ip, &flag);
    mt_ok(flag == 1 && ip && *ip == 2147483647, "MPI_TAG_UB is 2^31-1 (at least 32767)");
    MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_HOST, &ip, &flag);
    mt_ok(flag == 1 && *ip == MPI_PROC_NULL, "MPI_HOST: MPI_PROC_NULL");
    MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_IO, &ip, &flag);
    mt_ok(flag == 1 && *ip == MPI_ANY_SOURCE, "MPI_IO: MPI_ANY_SOURCE (every rank can do I/O)");
    MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_WTIME_IS_GLOBAL, &ip, &flag);
    mt_ok(flag == 1 && *ip == 0, "MPI_WTIME_IS_GLOBAL: 0");
    MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_APPNUM, &ip, &flag);
    mt_ok(flag == 1 && *ip == 0, "MPI_APPNUM: 0");
    MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_UNIVERSE_SIZE, &ip, &flag);
    mt_ok(flag == 1 && *ip == size, "MPI_UNIVERSE_SIZE: the job size under rrun (%d)", *ip);

    int extra = 42, key = MPI_KEYVAL_INVALID, nullkey, dupkey;
    mt_is_int(MPI_Comm_create_keyval(count_copy, count_delete, &key, &extra), MPI_SUCCESS, "create a keyval");
    MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &nullkey, NULL);
    MPI_Comm_create_keyval(MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN, &dupkey, NULL);
    static char base[4];
    MPI_Comm dup;
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    MPI_Comm_get_attr(dup, key, &v, &flag);
    mt_is_int(flag, 0, "no attribute yet: flag 0");
    MPI_Comm_set_attr(dup, key, base);
    MPI_Comm_set_attr(dup, nullkey, base);
    MPI_Comm_set_attr(dup, dupkey, base + 2);
    MPI_Comm_get_attr(dup, key, &v, &flag);
    mt_ok(flag == 1 && v == base, "set then get: the same value");
    MPI_Comm_set_attr(dup, key, base);
    mt_is_int(deletes, 1, "setting again deletes the old value first");
    MPI_Comm dup2;
    MPI_Comm_dup(dup, &dup2);
    mt_ok(copies == 1 && extra_seen == 42, "dup calls the copy callback once, with its extra state");
    MPI_Comm_get_attr(dup2, key, &v, &flag);
    mt_ok(flag == 1 && v == base + 1, "the copy holds what the callback made");
    MPI_Comm_get_attr(dup2, nullkey, &v, &flag);
    mt_is_int(flag, 0, "MPI_COMM_NULL_COPY_FN: not copied");
    MPI_Comm_get_attr(dup2, dupkey, &v, &flag);
    mt_ok(flag == 1 && v == base + 2, "MPI_COMM_DUP_FN: copied as is");
    MPI_Comm_delete_attr(dup2, dupkey);
    MPI_Comm_get_attr(dup2, dupkey, &v, &flag);
    mt_is_int(flag, 0, "MPI_Comm_delete_attr removes the attribute");
    MPI_Comm_free_keyval(&key);
    mt_is_int(key, MPI_KEYVAL_INVALID, "Comm_free_keyval sets MPI_KEYVAL_INVALID");
    MPI_Comm_free(&dup2);
    mt_is_int(deletes, 2, "freeing a communicator deletes its attributes (keyval already freed)");
    MPI_Comm_free(&dup);
    mt_is_int(deletes, 3, "and the other communicator's too");
    MPI_Comm_free_keyval(&nullkey);
    MPI_Comm_free_keyval(&dupkey);

    /* errors */
    mt_is_int(MPI_Comm_get_attr(MPI_COMM_WORLD, 12345, &v, &flag), MPI_ERR_KEYVAL, "unknown keyval: MPI_ERR_KEYVAL");
    mt_is_int(MPI_Comm_set_attr(MPI_COMM_WORLD, MPI_TAG_UB, base), MPI_ERR_KEYVAL, "setting MPI_TAG_UB: MPI_ERR_KEYVAL");
    int bad = MPI_TAG_UB;
    mt_is_int(MPI_Comm_free_keyval(&bad), MPI_ERR_KEYVAL, "freeing a predefined keyval: MPI_ERR_KEYVAL");
    int rk;
    MPI_Comm_create_keyval(refuse_copy, MPI_COMM_NULL_DELETE_FN, &rk, NULL);
    MPI_Comm_set_attr(MPI_COMM_WORLD, rk, base);
    MPI_Comm d3 = MPI_COMM_WORLD;
    mt_is_int(MPI_Comm_dup(MPI_COMM_WORLD, &d3), MPI_ERR_OTHER, "a failing copy callback fails the dup");
    mt_ok(d3 == MPI_COMM_NULL, "and gives MPI_COMM_NULL");
    MPI_Comm_delete_attr(MPI_COMM_WORLD, rk);
    MPI_Comm_free_keyval(&rk);

    /* MPI_COMM_SELF's attributes go at MPI_Finalize, newest first */
    int sk;
    MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, record_delete, &sk, NULL);
    MPI_Comm_set_attr(MPI_COMM_SELF, sk, (void *)1L);
    int sk2, sk3;
    MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, record_delete, &sk2, NULL);
    MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, record_delete, &sk3, NULL);
    MPI_Comm_set_attr(MPI_COMM_SELF, sk2, (void *)2L);
    MPI_Comm_set_attr(MPI_COMM_SELF, sk3, (void *)3L);
    MPI_Finalize();
    mt_ok(norder == 3 && order[0] == 3 && order[1] == 2 && order[2] == 1,
          "MPI_Finalize deleted MPI_COMM_SELF's attributes, newest first (%d %d %d)", order[0], order[1],
          order[2]);
    return mt_done();
}

/* MPI test: info objects (MPI-3.1 section 9), MPI_INFO_ENV, and a table of
 * MPI_Dims_create cases. Usage: info EXPECTED_SIZE */
#include <sched.h>
#include <stdlib.h>
#include <unistd.h>

#include "test/mpi/mtest.h"

static int np, me;

static void dims_case(int nnodes, int ndims, const int *in, const char *want)
{
    int d[16];
    char got[128] = "", given[128] = "";
    for (int i = 0; i < ndims; i++) {
        d[i] = in ? in[i] : 0;
        snprintf(given + strlen(given), sizeof(given) - strlen(given), "%s%d", i ? "," : "", d[i]);
    }
    int rc = MPI_Dims_create(nnodes, ndims, d);
    if (rc != MPI_SUCCESS)
        snprintf(got, sizeof(got), "error %d", rc);
    else
        for (int i = 0; i < ndims; i++)
            snprintf(got + strlen(got), sizeof(got) - strlen(got), "%s%d", i ? "x" : "", d[i]);
    mt_ok(strcmp(got, want) == 0, "Dims_create(%d, %d, [%s]) = %s", nnodes, ndims, given, got);
    if (strcmp(got, want) != 0)
        printf("# expected %s\n", want);
}

int main(int argc, char **argv)
{
    int expected = argc > 1 ? atoi(argv[1]) : 1;
    int n = -1, flag = -1, len = -1;
    char val[MPI_MAX_INFO_VAL + 1], key[MPI_MAX_INFO_KEY + 1];
    char longkey[MPI_MAX_INFO_KEY + 2], longval[MPI_MAX_INFO_VAL + 2];
    MPI_Info info = MPI_INFO_NULL, dup = MPI_INFO_NULL, bad;

    if (MPI_Init(&argc, &argv) != MPI_SUCCESS)
        return 2;
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    mt_rank = me;
    mt_is_int(np, expected, "world size");
    mt_ok(MPI_MAX_INFO_KEY == 255 && MPI_MAX_INFO_VAL == 1024, "MPI_MAX_INFO_KEY 255, MPI_MAX_INFO_VAL 1024");

    /* ---- create, set, get */
    mt_is_int(MPI_Info_create(&info), MPI_SUCCESS, "MPI_Info_create");
    mt_ok(info != MPI_INFO_NULL, "a new info object is not MPI_INFO_NULL");
    MPI_Info_get_nkeys(info, &n);
    mt_is_int(n, 0, "a new info object has no key");
    mt_is_int(MPI_Info_set(info, "wdir", "/tmp"), MPI_SUCCESS, "set wdir");
    MPI_Info_set(info, "host", "node1");
    MPI_Info_set(info, "soft", "1:4");
    MPI_Info_get_nkeys(info, &n);
    mt_is_int(n, 3, "three keys");
    strcpy(val, "unchanged");
    mt_is_int(MPI_Info_get(info, "host", MPI_MAX_INFO_VAL, val, &flag), MPI_SUCCESS, "get host");
    mt_ok(flag == 1 && strcmp(val, "node1") == 0, "host = '%s'", val);
    strcpy(val, "unchanged");
    MPI_Info_get(info, "nohost", MPI_MAX_INFO_VAL, val, &flag);
    mt_ok(flag == 0 && strcmp(val, "unchanged") == 0, "absent key: flag false, value untouched");
    /* replace keeps the key's place */
    MPI_Info_set(info, "wdir", "/home/x");
    MPI_Info_get_nkeys(info, &n);
    mt_is_int(n, 3, "replacing a value adds no key");
    const char *order[] = {"wdir", "host", "soft"};
    for (int i = 0; i < 3; i++) {
        MPI_Info_get_nthkey(info, i, key);
        mt_ok(strcmp(key, order[i]) == 0, "key %d is '%s' (insertion order)", i, key);
    }
    MPI_Info_get(info, "wdir", MPI_MAX_INFO_VAL, val, &flag);
    mt_ok(flag && strcmp(val, "/home/x") == 0, "wdir replaced: '%s'", val);
    /* valuelen: at most valuelen characters, then NUL */
    memset(val, 'Z', sizeof(val));
    MPI_Info_get(info, "wdir", 3, val, &flag);
    mt_ok(flag && strcmp(val, "/ho") == 0, "get with valuelen 3 gives '%s'", val);
    memset(val, 'Z', sizeof(val));
    MPI_Info_get(info, "wdir", 0, val, &flag);
    mt_ok(flag && val[0] == '\0', "get with valuelen 0 gives the empty string");
    MPI_Info_get_valuelen(info, "wdir", &len, &flag);
    mt_ok(flag && len == 7, "valuelen of wdir is %d", len);
    len = -7;
    MPI_Info_get_valuelen(info, "nokey", &len, &flag);
    mt_ok(!flag && len == -7, "valuelen of an absent key: flag false, untouched");

    /* limits */
    memset(longkey, 'k', sizeof(longkey));
    longkey[MPI_MAX_INFO_KEY] = '\0'; /* 255 characters: allowed */
    mt_is_int(MPI_Info_set(info, longkey, "v"), MPI_SUCCESS, "a key of MPI_MAX_INFO_KEY characters");
    MPI_Info_get_nthkey(info, 3, key);
    mt_is_int(strlen(key), MPI_MAX_INFO_KEY, "nthkey returns the whole long key");
    memset(longval, 'v', sizeof(longval));
    longval[MPI_MAX_INFO_VAL] = '\0';
    mt_is_int(MPI_Info_set(info, "big", longval), MPI_SUCCESS, "a value of MPI_MAX_INFO_VAL characters");
    MPI_Info_get(info, "big", MPI_MAX_INFO_VAL, val, &flag);
    mt_ok(flag && strcmp(val, longval) == 0, "the long value comes back whole");

    /* dup is independent */
    mt_is_int(MPI_Info_dup(info, &dup), MPI_SUCCESS, "MPI_Info_dup");
    MPI_Info_get_nkeys(dup, &n);
    mt_is_int(n, 5, "dup has the 5 keys");
    MPI_Info_set(dup, "host", "node2");
    MPI_Info_get(info, "host", MPI_MAX_INFO_VAL, val, &flag);
    mt_ok(strcmp(val, "node1") == 0, "setting the dup leaves the original");
    for (int i = 0; i < 3; i++) {
        MPI_Info_get_nthkey(dup, i, key);
        mt_ok(strcmp(key, order[i]) == 0, "dup key %d is '%s'", i, key);
    }

    /* delete */
    mt_is_int(MPI_Info_delete(info, "host"), MPI_SUCCESS, "delete host");
    MPI_Info_get_nkeys(info, &n);
    mt_is_int(n, 4, "4 keys after delete");
    MPI_Info_get_nthkey(info, 1, key);
    mt_ok(strcmp(key, "soft") == 0, "after deleting key 1, key 1 is '%s'", key);
    MPI_Info_get(info, "host", MPI_MAX_INFO_VAL, val, &flag);
    mt_is_int(flag, 0, "host is gone");

    /* ---- errors */
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    mt_is_int(MPI_Info_delete(info, "host"), MPI_ERR_INFO_NOKEY, "delete an absent key: MPI_ERR_INFO_NOKEY");
    longkey[MPI_MAX_INFO_KEY] = 'k';
    longkey[MPI_MAX_INFO_KEY + 1] = '\0'; /* 256 characters */
    mt_is_int(MPI_Info_set(info, longkey, "v"), MPI_ERR_INFO_KEY, "key too long: MPI_ERR_INFO_KEY");
    mt_is_int(MPI_Info_get(info, longkey, 10, val, &flag), MPI_ERR_INFO_KEY, "get a too long key: MPI_ERR_INFO_KEY");
    mt_is_int(MPI_Info_delete(info, longkey), MPI_ERR_INFO_KEY, "delete a too long key: MPI_ERR_INFO_KEY");
    mt_is_int(MPI_Info_set(info, "", "v"), MPI_ERR_INFO_KEY, "empty key: MPI_ERR_INFO_KEY");
    longval[MPI_MAX_INFO_VAL] = 'v';
    longval[MPI_MAX_INFO_VAL + 1] = '\0';
    mt_is_int(MPI_Info_set(info, "big", longval), MPI_ERR_INFO_VALUE, "value too long: MPI_ERR_INFO_VALUE");
    mt_is_int(MPI_Info_set(info, "k", ""), MPI_ERR_INFO_VALUE, "empty value: MPI_ERR_INFO_VALUE");
    MPI_Info_get(info, "big", MPI_MAX_INFO_VAL, val, &flag);
    mt_ok(flag && strlen(val) == MPI_MAX_INFO_VAL, "a refused set leaves the old value");
    mt_is_int(MPI_Info_set(info, NULL, "v"), MPI_ERR_ARG, "NULL key: MPI_ERR_ARG");
    mt_is_int(MPI_Info_set(info, "k", NULL), MPI_ERR_ARG, "NULL value: MPI_ERR_ARG");
    mt_is_int(MPI_Info_get(info, "soft", -1, val, &flag), MPI_ERR_ARG, "valuelen -1: MPI_ERR_ARG");
    mt_is_int(MPI_Info_get(info, "soft", 5, NULL, &flag), MPI_ERR_ARG, "get into NULL: MPI_ERR_ARG");
    mt_is_int(MPI_Info_get_valuelen(info, "soft", NULL, &flag), MPI_ERR_ARG, "valuelen into NULL: MPI_ERR_ARG");
    mt_is_int(MPI_Info_get_nkeys(info, NULL), MPI_ERR_ARG, "nkeys into NULL: MPI_ERR_ARG");
    mt_is_int(MPI_Info_get_nthkey(info, 4, key), MPI_ERR_ARG, "nthkey 4 of 4: MPI_ERR_ARG");
    mt_is_int(MPI_Info_get_nthkey(info, -1, key), MPI_ERR_ARG, "nthkey -1: MPI_ERR_ARG");
    mt_is_int(MPI_Info_get_nthkey(info, 0, NULL), MPI_ERR_ARG, "nthkey into NULL: MPI_ERR_ARG");
    mt_is_int(MPI_Info_get_nkeys(MPI_INFO_NULL, &n), MPI_ERR_INFO, "nkeys of MPI_INFO_NULL: MPI_ERR_INFO");
    mt_is_int(MPI_Info_set(MPI_INFO_NULL, "a", "b"), MPI_ERR_INFO, "set on MPI_INFO_NULL: MPI_ERR_INFO");
    mt_is_int(MPI_Info_dup(MPI_INFO_NULL, &bad), MPI_ERR_INFO, "dup MPI_INFO_NULL: MPI_ERR_INFO");
    mt_is_int(MPI_Info_dup(info, NULL), MPI_ERR_ARG, "dup into NULL: MPI_ERR_ARG");
    mt_is_int(MPI_Info_create(NULL), MPI_ERR_ARG, "create into NULL: MPI_ERR_ARG");
    mt_is_int(MPI_Info_free(NULL), MPI_ERR_ARG, "free(NULL): MPI_ERR_ARG");
    bad = MPI_INFO_NULL;
    mt_is_int(MPI_Info_free(&bad), MPI_ERR_INFO, "free MPI_INFO_NULL: MPI_ERR_INFO");

    /* ---- MPI_INFO_ENV */
    mt_is_int(MPI_Info_get_nkeys(MPI_INFO_ENV, &n), MPI_SUCCESS, "MPI_INFO_ENV is a valid info object");
    mt_ok(n >= 1, "MPI_INFO_ENV has %d keys", n);
    MPI_Info_get(MPI_INFO_ENV, "maxprocs", MPI_MAX_INFO_VAL, val, &flag);
    mt_ok(flag && atoi(val) == np, "MPI_INFO_ENV maxprocs = '%s'", val);
    MPI_Info_get(MPI_INFO_ENV, "command", MPI_MAX_INFO_VAL, val, &flag);
    mt_ok(flag && strstr(val, "info") != NULL, "MPI_INFO_ENV command = '%s'", flag ? val : "(absent)");
    MPI_Info_get(MPI_INFO_ENV, "argv", MPI_MAX_INFO_VAL, val, &flag);
    mt_ok(flag && atoi(val) == expected, "MPI_INFO_ENV argv = '%s'", flag ? val : "(absent)");
    mt_is_int(MPI_Info_set(MPI_INFO_ENV, "a", "b"), MPI_ERR_INFO, "set on MPI_INFO_ENV: MPI_ERR_INFO");
    mt_is_int(MPI_Info_delete(MPI_INFO_ENV, "maxprocs"), MPI_ERR_INFO, "delete on MPI_INFO_ENV: MPI_ERR_INFO");
    bad = MPI_INFO_ENV;
    mt_is_int(MPI_Info_free(&bad), MPI_ERR_INFO, "free MPI_INFO_ENV: MPI_ERR_INFO");
    mt_is_int(MPI_Info_dup(MPI_INFO_ENV, &bad), MPI_SUCCESS, "dup MPI_INFO_ENV");
    MPI_Info_get_nkeys(bad, &len);
    mt_is_int(len, n, "the dup of MPI_INFO_ENV has its keys");
    mt_is_int(MPI_Info_set(bad, "a", "b"), MPI_SUCCESS, "the dup of MPI_INFO_ENV can be modified");
    MPI_Info_free(&bad);

    /* ---- free */
    mt_is_int(MPI_Info_free(&info), MPI_SUCCESS, "free info");
    mt_ok(info == MPI_INFO_NULL, "MPI_Info_free sets MPI_INFO_NULL");
    mt_is_int(MPI_Info_free(&dup), MPI_SUCCESS, "free dup");

    /* ---- MPI_Dims_create */
    dims_case(6, 2, NULL, "3x2");
    dims_case(7, 2, NULL, "7x1");
    dims_case(12, 3, NULL, "3x2x2");
    dims_case(16, 2, NULL, "4x4");
    dims_case(16, 4, NULL, "2x2x2x2");
    dims_case(24, 3, NULL, "4x3x2");
    dims_case(8, 3, NULL, "2x2x2");
    dims_case(1, 3, NULL, "1x1x1");
    dims_case(4, 1, NULL, "4");
    dims_case(60, 2, NULL, "10x6");
    dims_case(72, 2, NULL, "9x8");
    dims_case(64, 3, NULL, "4x4x4");
    dims_case(100, 2, NULL, "10x10");
    dims_case(2147483647, 2, NULL, "2147483647x1");
    dims_case(1024, 10, NULL, "2x2x2x2x2x2x2x2x2x2");
    dims_case(5, 4, NULL, "5x1x1x1");
    /* the most balanced answer (smallest largest - smallest, then smallest
     * largest factor), where Open MPI and MPICH differ: 360 = 9x8x5 (both
     * say 10x6x6, as spread out), 720 = 10x9x8 (Open MPI: 12x10x6),
     * 72 with 5 fixed = 9x5x8 (both: 12x5x6) */
    dims_case(360, 3, NULL, "9x8x5");
    dims_case(720, 3, NULL, "10x9x8");
    dims_case(240, 4, NULL, "5x4x4x3");
    dims_case(210, 4, NULL, "7x5x3x2");
    dims_case(1000, 3, NULL, "10x10x10");
    dims_case(1024, 3, NULL, "16x8x8");
    dims_case(168, 3, NULL, "7x6x4");
    dims_case(50, 3, NULL, "5x5x2");
    dims_case(6, 4, NULL, "3x2x1x1");
    int fix6[] = {0, 5, 0};
    dims_case(360, 3, fix6, "9x5x8");
    int fix7[] = {0, 3, 0};
    dims_case(360, 3, fix7, "12x3x10");
    int fix8[] = {0, 7, 0};
    dims_case(360, 3, fix8, "error 12"); /* 360 is not a multiple of 7 */
    int fix9[] = {2, 3, 4};
    dims_case(30, 3, fix9, "error 12"); /* nothing free, product 24 */
    int fix10[] = {0, 0, 2};
    dims_case(16, 3, fix10, "4x2x2");
    int fix1[] = {0, 3, 0};
    dims_case(6, 3, fix1, "2x3x1");  /* the standard's example */
    dims_case(7, 3, fix1, "error 12"); /* MPI_ERR_DIMS */
    dims_case(12, 3, fix1, "2x3x2");
    int fix2[] = {2, 0};
    dims_case(8, 2, fix2, "2x4");
    int fix3[] = {2, 3};
    dims_case(6, 2, fix3, "2x3");
    dims_case(12, 2, fix3, "error 12");
    int fix4[] = {-1, 0};
    dims_case(4, 2, fix4, "error 12");
    int fix5[] = {4, 0};
    dims_case(2, 2, fix5, "error 12");
    dims_case(1, 0, NULL, "");
    dims_case(0, 2, NULL, "error 13"); /* MPI_ERR_ARG */
    mt_is_int(MPI_Dims_create(4, -1, NULL), MPI_ERR_DIMS, "Dims_create ndims -1: MPI_ERR_DIMS");
    mt_is_int(MPI_Dims_create(4, 2, NULL), MPI_ERR_ARG, "Dims_create dims NULL: MPI_ERR_ARG");

    /* MPI 4.1's MPI_Get_hw_resource_info: this process's host and processors */
    MPI_Info hw;
    char v[MPI_MAX_INFO_VAL], host[256] = "";
    int vlen = sizeof v;
    flag = 0;
    cpu_set_t set;
    sched_getaffinity(0, sizeof set, &set);
    gethostname(host, sizeof host - 1);
    mt_is_int(MPI_Get_hw_resource_info(&hw), MPI_SUCCESS, "MPI_Get_hw_resource_info");
    MPI_Info_get_string(hw, "rdmpi_ncpus", &vlen, v, &flag);
    mt_ok(flag && atoi(v) == CPU_COUNT(&set), "its rdmpi_ncpus is the affinity mask's count (%d)", CPU_COUNT(&set));
    vlen = sizeof v;
    MPI_Info_get_string(hw, "rdmpi_host", &vlen, v, &flag);
    mt_ok(flag && strcmp(v, host) == 0, "its rdmpi_host is gethostname's");
    vlen = sizeof v;
    MPI_Info_get_string(hw, "rdmpi_cpus", &vlen, v, &flag);
    int ncpu = 0, ok = flag;
    for (char *p = v; ok && *p;) { /* "a-b,c": every listed processor in the mask, as many as it has */
        char *end;
        long a = strtol(p, &end, 10), b = a;
        if (*end == '-')
            b = strtol(end + 1, &end, 10);
        for (long c = a; c <= b; c++, ncpu++)
            ok &= CPU_ISSET((int)c, &set);
        p = *end == ',' ? end + 1 : end;
        ok &= *end == ',' || *end == '\0';
    }
    mt_ok(ok && ncpu == CPU_COUNT(&set), "its rdmpi_cpus (%s) lists the affinity mask", flag ? v : "-");
    MPI_Info_free(&hw);
    mt_is_int(MPI_Get_hw_resource_info(NULL), MPI_ERR_ARG, "MPI_Get_hw_resource_info(NULL): MPI_ERR_ARG");

    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    int rc = mt_done();
    MPI_Finalize();
    return rc;
}

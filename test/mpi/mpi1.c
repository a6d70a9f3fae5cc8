/* MPI test: the MPI-1 functions that MPI-3.0 removed and mpi.h still
 * declares (runtime/api/README.md, "Functions removed in MPI-3.0"):
 * MPI_Keyval_create/free, MPI_Attr_put/get/delete with their callbacks
 * and predefined MPI_NULL_COPY_FN, MPI_DUP_FN, MPI_NULL_DELETE_FN;
 * MPI_Address, MPI_Type_extent/lb/ub, MPI_Type_struct/hindexed/hvector
 * (layouts by their bounds and by sending data); MPI_Errhandler_create,
 * _set and _get, a handler called. Exact values and error classes, and
 * error messages naming the MPI-1 call. On 2 ranks (rank 0 sends, rank 1
 * receives); every check runs on both. */
#include <stdint.h>
#include <stdlib.h>

#include "test/mpi/mtest.h"

static char base[16];

/* what the callbacks saw */
static int ncopy, ndelete;
static MPI_Comm copy_comm, delete_comm;
static int copy_key, delete_key, copy_extra, delete_extra;
static void *copy_in, *delete_val;

static int copy_cb(MPI_Comm oldcomm, int keyval, void *extra, void *in, void *out, int *flag)
{
    ncopy++;
    copy_comm = oldcomm;
    copy_key = keyval;
    copy_extra = *(int *)extra;
    copy_in = in;
    *(void **)out = (char *)in + 10;
    *flag = 1;
    return MPI_SUCCESS;
}

static int delete_cb(MPI_Comm comm, int keyval, void *val, void *extra)
{
    ndelete++;
    delete_comm = comm;
    delete_key = keyval;
    delete_extra = *(int *)extra;
    delete_val = val;
    return MPI_SUCCESS;
}

/* the error handler: records its calls */
static int nhandled, handled_code;
static MPI_Comm handled_comm;

static void handler(MPI_Comm *comm, int *code, ...)
{
    nhandled++;
    handled_comm = *comm;
    handled_code = *code;
}

/* the message of the last error: does it name the call? */
static int names(int code, const char *call)
{
    char msg[MPI_MAX_ERROR_STRING];
    int len = 0;
    MPI_Error_string(code, msg, &len);
    return strstr(msg, call) != NULL;
}

static void attributes(void)
{
    int flag = -1, *ip = NULL, extra = 42, key = MPI_KEYVAL_INVALID, dupkey, nullkey, rc;
    void *v = NULL;

    rc = MPI_Attr_get(MPI_COMM_WORLD, MPI_TAG_UB, &ip, &flag);
    mt_ok(rc == MPI_SUCCESS && flag == 1 && ip && *ip == 2147483647, "MPI_Attr_get(MPI_TAG_UB): 2^31-1");
    rc = MPI_Attr_get(MPI_COMM_WORLD, MPI_WTIME_IS_GLOBAL, &ip, &flag);
    mt_ok(rc == MPI_SUCCESS && flag == 1 && *ip == 0, "MPI_Attr_get(MPI_WTIME_IS_GLOBAL): 0");

    rc = MPI_Keyval_create(copy_cb, delete_cb, &key, &extra);
    mt_ok(rc == MPI_SUCCESS && key != MPI_KEYVAL_INVALID, "MPI_Keyval_create: a keyval (%d)", key);
    MPI_Keyval_create(MPI_DUP_FN, MPI_NULL_DELETE_FN, &dupkey, NULL);
    MPI_Keyval_create(MPI_NULL_COPY_FN, MPI_NULL_DELETE_FN, &nullkey, NULL);
    mt_ok(dupkey != key && nullkey != key && nullkey != dupkey, "three keyvals, all different");

    MPI_Comm c1, c2;
    MPI_Comm_dup(MPI_COMM_WORLD, &c1);
    rc = MPI_Attr_get(c1, key, &v, &flag);
    mt_ok(rc == MPI_SUCCESS && flag == 0, "MPI_Attr_get before a put: flag 0");
    mt_is_int(MPI_Attr_put(c1, key, base), MPI_SUCCESS, "MPI_Attr_put");
    MPI_Attr_put(c1, dupkey, base + 2);
    MPI_Attr_put(c1, nullkey, base + 3);
    rc = MPI_Attr_get(c1, key, &v, &flag);
    mt_ok(rc == MPI_SUCCESS && flag == 1 && v == base, "MPI_Attr_get: the value put");
    /* one keyval space: MPI-2's calls see MPI-1's keyvals */
    v = NULL;
    MPI_Comm_get_attr(c1, key, &v, &flag);
    mt_ok(flag == 1 && v == base, "MPI_Comm_get_attr reads what MPI_Attr_put stored");
    mt_is_int(ndelete, 0, "no delete callback yet");

    MPI_Attr_put(c1, key, base + 1);
    mt_ok(ndelete == 1 && delete_comm == c1 && delete_key == key && delete_extra == 42 && delete_val == base,
          "MPI_Attr_put again: the delete callback, with the communicator, keyval, old value, extra state");

    MPI_Comm_dup(c1, &c2);
    mt_ok(ncopy == 1 && copy_comm == c1 && copy_key == key && copy_extra == 42 && copy_in == base + 1,
          "MPI_Comm_dup: the copy callback once, with the old communicator, keyval, value, extra state");
    rc = MPI_Attr_get(c2, key, &v, &flag);
    mt_ok(rc == MPI_SUCCESS && flag == 1 && v == base + 11, "the duplicate holds the copy callback's value");
    v = NULL;
    MPI_Attr_get(c2, dupkey, &v, &flag);
    mt_ok(flag == 1 && v == base + 2, "MPI_DUP_FN: the value copied as is");
    MPI_Attr_get(c2, nullkey, &v, &flag);
    mt_is_int(flag, 0, "MPI_NULL_COPY_FN: not copied");

    mt_is_int(MPI_Attr_delete(c2, key), MPI_SUCCESS, "MPI_Attr_delete");
    mt_ok(ndelete == 2 && delete_comm == c2 && delete_val == base + 11, "it called the delete callback on the copy's value");
    MPI_Attr_get(c2, key, &v, &flag);
    mt_is_int(flag, 0, "the attribute is gone");
    rc = MPI_Attr_delete(c2, key);
    mt_ok(rc == MPI_ERR_KEYVAL && names(rc, "MPI_Attr_delete"),
          "MPI_Attr_delete of an attribute not there: MPI_ERR_KEYVAL, naming MPI_Attr_delete");

    MPI_Comm old = c1;
    MPI_Comm_free(&c1);
    mt_ok(ndelete == 3 && delete_comm == old && delete_val == base + 1,
          "MPI_Comm_free: the delete callback with the freed communicator's value");
    mt_is_int(MPI_Keyval_free(&key), MPI_SUCCESS, "MPI_Keyval_free");
    mt_is_int(key, MPI_KEYVAL_INVALID, "MPI_Keyval_free sets MPI_KEYVAL_INVALID");
    int gone = copy_key;
    rc = MPI_Keyval_free(&gone);
    mt_ok(rc == MPI_ERR_KEYVAL && names(rc, "MPI_Keyval_free"),
          "MPI_Keyval_free twice: MPI_ERR_KEYVAL, naming MPI_Keyval_free");
    rc = MPI_Attr_put(c2, gone, base);
    mt_ok(rc == MPI_ERR_KEYVAL && names(rc, "MPI_Attr_put"), "MPI_Attr_put of a freed keyval: MPI_ERR_KEYVAL");
    mt_is_int(MPI_Attr_get(MPI_COMM_WORLD, 12345, &v, &flag), MPI_ERR_KEYVAL, "MPI_Attr_get of an unknown keyval: MPI_ERR_KEYVAL");
    rc = MPI_Attr_put(MPI_COMM_WORLD, MPI_TAG_UB, base);
    mt_ok(rc == MPI_ERR_KEYVAL && names(rc, "MPI_Attr_put"), "MPI_Attr_put of MPI_TAG_UB: MPI_ERR_KEYVAL");
    mt_is_int(MPI_Attr_get(MPI_COMM_NULL, MPI_TAG_UB, &v, &flag), MPI_ERR_COMM, "MPI_Attr_get on MPI_COMM_NULL: MPI_ERR_COMM");
    rc = MPI_Keyval_create(copy_cb, delete_cb, NULL, &extra);
    mt_ok(rc == MPI_ERR_ARG && names(rc, "MPI_Keyval_create"), "MPI_Keyval_create with no keyval: MPI_ERR_ARG");

    MPI_Comm_free(&c2);
    mt_is_int(ndelete, 3, "freeing the duplicate: nothing left for the delete callback");
    MPI_Keyval_free(&dupkey);
    MPI_Keyval_free(&nullkey);
}

static void datatypes(int rank)
{
    int rc, arr[8];
    MPI_Aint a = -1, b = -1;

    rc = MPI_Address(&arr[3], &a);
    mt_ok(rc == MPI_SUCCESS && a == (MPI_Aint)(intptr_t)&arr[3], "MPI_Address: the byte address");
    MPI_Get_address(&arr[3], &b);
    mt_ok(a == b, "MPI_Address and MPI_Get_address agree");
    rc = MPI_Address(arr, NULL);
    mt_ok(rc == MPI_ERR_ARG && names(rc, "MPI_Address"), "MPI_Address with no address: MPI_ERR_ARG, naming MPI_Address");

    /* bounds: a struct of 2 ints at byte 8 and a double at 16: lb 8, ub 24 */
    int bl[2] = {2, 1};
    MPI_Aint disp[2] = {8, 16};
    MPI_Datatype types[2] = {MPI_INT, MPI_DOUBLE}, st, st2;
    rc = MPI_Type_struct(2, bl, disp, types, &st);
    mt_is_int(rc, MPI_SUCCESS, "MPI_Type_struct");
    MPI_Aint lb = -1, ub = -1, ext = -1;
    MPI_Type_lb(st, &lb);
    MPI_Type_ub(st, &ub);
    MPI_Type_extent(st, &ext);
    mt_ok(lb == 8 && ub == 24 && ext == 16, "MPI_Type_struct: lb 8, ub 24, extent 16 (got %ld %ld %ld)", (long)lb,
          (long)ub, (long)ext);
    MPI_Type_create_struct(2, bl, disp, types, &st2);
    MPI_Aint lb2, ext2;
    MPI_Type_get_extent(st2, &lb2, &ext2);
    mt_ok(lb2 == lb && ext2 == ext, "the same bounds as MPI_Type_create_struct's");
    int ni, na, nd, comb;
    MPI_Type_get_envelope(st, &ni, &na, &nd, &comb);
    mt_ok(comb == MPI_COMBINER_STRUCT && ni == 3 && na == 2 && nd == 2,
          "MPI_Type_struct's envelope: MPI_COMBINER_STRUCT, 3 integers, 2 addresses, 2 types");
    MPI_Type_free(&st2);

    /* a C struct through MPI_Address differences, sent twice (its extent) */
    struct rec {
        int i[2];
        double d;
    } recs[2];
    MPI_Aint at[3];
    MPI_Address(&recs[0], &at[0]);
    MPI_Address(&recs[0].i, &at[1]);
    MPI_Address(&recs[0].d, &at[2]);
    MPI_Aint rdisp[2] = {at[1] - at[0], at[2] - at[0]};
    MPI_Datatype rt;
    MPI_Type_struct(2, bl, rdisp, types, &rt);
    MPI_Type_commit(&rt);
    MPI_Type_extent(rt, &ext);
    mt_is_int(ext, sizeof(struct rec), "a struct of the C layout: extent sizeof(struct rec)");

    /* hvector: 3 blocks of 2 ints, 24 bytes apart: ints 0,1 6,7 12,13 */
    MPI_Datatype hv, hi;
    rc = MPI_Type_hvector(3, 2, 24, MPI_INT, &hv);
    mt_is_int(rc, MPI_SUCCESS, "MPI_Type_hvector");
    MPI_Type_commit(&hv);
    MPI_Type_lb(hv, &lb);
    MPI_Type_ub(hv, &ub);
    MPI_Type_extent(hv, &ext);
    mt_ok(lb == 0 && ub == 56 && ext == 56, "MPI_Type_hvector: lb 0, ub 56, extent 56");
    MPI_Type_get_envelope(hv, &ni, &na, &nd, &comb);
    mt_is_int(comb, MPI_COMBINER_HVECTOR, "MPI_Type_hvector's combiner: MPI_COMBINER_HVECTOR");

    /* hindexed: 1 int at byte 20, 2 at 0, 1 at 8: ints 5, 0 1, 2 */
    int hbl[3] = {1, 2, 1};
    MPI_Aint hdisp[3] = {20, 0, 8};
    rc = MPI_Type_hindexed(3, hbl, hdisp, MPI_INT, &hi);
    mt_is_int(rc, MPI_SUCCESS, "MPI_Type_hindexed");
    MPI_Type_commit(&hi);
    MPI_Type_lb(hi, &lb);
    MPI_Type_ub(hi, &ub);
    MPI_Type_extent(hi, &ext);
    mt_ok(lb == 0 && ub == 24 && ext == 24, "MPI_Type_hindexed: lb 0, ub 24, extent 24");
    MPI_Type_get_envelope(hi, &ni, &na, &nd, &comb);
    mt_ok(comb == MPI_COMBINER_HINDEXED && ni == 4 && na == 3, "MPI_Type_hindexed's envelope: MPI_COMBINER_HINDEXED");

    int src[14], got[6] = {0}, gothi[4] = {0};
    for (int i = 0; i < 14; i++)
        src[i] = 100 + i;
    if (rank == 0) {
        recs[0] = (struct rec){{1, 2}, 3.5};
        recs[1] = (struct rec){{4, 5}, 6.5};
        MPI_Send(recs, 2, rt, 1, 0, MPI_COMM_WORLD);
        MPI_Send(src, 1, hv, 1, 1, MPI_COMM_WORLD);
        MPI_Send(src, 1, hi, 1, 2, MPI_COMM_WORLD);
        /* and back: the receive side of the same types */
        memset(src, 0, sizeof(src));
        MPI_Recv(src, 1, hv, 1, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        mt_ok(src[0] == 200 && src[1] == 201 && src[6] == 202 && src[7] == 203 && src[12] == 204 && src[13] == 205 &&
                  src[2] == 0 && src[11] == 0,
              "received into an MPI_Type_hvector: the blocks at ints 0, 6, 12, the gaps untouched");
    } else if (rank == 1) {
        memset(recs, 0, sizeof(recs));
        MPI_Recv(recs, 2, rt, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        mt_ok(recs[0].i[0] == 1 && recs[0].i[1] == 2 && recs[0].d == 3.5 && recs[1].i[0] == 4 && recs[1].i[1] == 5 &&
                  recs[1].d == 6.5,
              "two structs through MPI_Type_struct: 1 2 3.5, 4 5 6.5");
        MPI_Recv(got, 6, MPI_INT, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        mt_ok(got[0] == 100 && got[1] == 101 && got[2] == 106 && got[3] == 107 && got[4] == 112 && got[5] == 113,
              "sent as MPI_Type_hvector: ints 0 1 6 7 12 13 (%d %d %d %d %d %d)", got[0], got[1], got[2], got[3],
              got[4], got[5]);
        MPI_Recv(gothi, 4, MPI_INT, 0, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        mt_ok(gothi[0] == 105 && gothi[1] == 100 && gothi[2] == 101 && gothi[3] == 102,
              "sent as MPI_Type_hindexed: ints 5 0 1 2 (%d %d %d %d)", gothi[0], gothi[1], gothi[2], gothi[3]);
        int back[6] = {200, 201, 202, 203, 204, 205};
        MPI_Send(back, 6, MPI_INT, 0, 3, MPI_COMM_WORLD);
    }
    MPI_Type_free(&rt);
    MPI_Type_free(&hv);
    MPI_Type_free(&hi);
    MPI_Type_free(&st);

    /* errors, each naming the MPI-1 call */
    MPI_Datatype t = MPI_DATATYPE_NULL;
    rc = MPI_Type_hvector(-1, 1, 8, MPI_INT, &t);
    mt_ok(rc == MPI_ERR_COUNT && names(rc, "MPI_Type_hvector"), "MPI_Type_hvector, count -1: MPI_ERR_COUNT");
    MPI_Datatype badtypes[2] = {MPI_INT, MPI_DATATYPE_NULL};
    rc = MPI_Type_struct(2, bl, disp, badtypes, &t);
    mt_ok(rc == MPI_ERR_TYPE && names(rc, "MPI_Type_struct"), "MPI_Type_struct with MPI_DATATYPE_NULL: MPI_ERR_TYPE");
    int negbl[3] = {1, -1, 1};
    rc = MPI_Type_hindexed(3, negbl, hdisp, MPI_INT, &t);
    mt_ok(rc == MPI_ERR_ARG && names(rc, "MPI_Type_hindexed"), "MPI_Type_hindexed, a block length -1: MPI_ERR_ARG");
    rc = MPI_Type_extent(MPI_DATATYPE_NULL, &ext);
    mt_ok(rc == MPI_ERR_TYPE && names(rc, "MPI_Type_extent"), "MPI_Type_extent(MPI_DATATYPE_NULL): MPI_ERR_TYPE");
    rc = MPI_Type_lb(MPI_INT, NULL);
    mt_ok(rc == MPI_ERR_ARG && names(rc, "MPI_Type_lb") && names(rc, "displacement"),
          "MPI_Type_lb with no displacement: MPI_ERR_ARG, naming the argument");
    rc = MPI_Type_ub(MPI_DATATYPE_NULL, &ub);
    mt_ok(rc == MPI_ERR_TYPE && names(rc, "MPI_Type_ub"), "MPI_Type_ub(MPI_DATATYPE_NULL): MPI_ERR_TYPE");
    mt_ok(t == MPI_DATATYPE_NULL, "no type was made by the failed calls");
    MPI_Type_extent(MPI_DOUBLE, &ext);
    MPI_Type_ub(MPI_DOUBLE, &ub);
    MPI_Type_lb(MPI_DOUBLE, &lb);
    mt_ok(ext == 8 && ub == 8 && lb == 0, "MPI_DOUBLE: extent 8, lb 0, ub 8");
}

static void errhandlers(void)
{
    MPI_Errhandler eh = MPI_ERRHANDLER_NULL, got = MPI_ERRHANDLER_NULL;
    MPI_Comm c;
    int rc;

    MPI_Comm_dup(MPI_COMM_WORLD, &c);
    rc = MPI_Errhandler_create(handler, &eh);
    mt_ok(rc == MPI_SUCCESS && eh != MPI_ERRHANDLER_NULL, "MPI_Errhandler_create");
    mt_is_int(MPI_Errhandler_set(c, eh), MPI_SUCCESS, "MPI_Errhandler_set");
    rc = MPI_Errhandler_get(c, &got);
    mt_ok(rc == MPI_SUCCESS && got == eh, "MPI_Errhandler_get: the handler set");
    MPI_Errhandler_free(&got);
    got = MPI_ERRHANDLER_NULL;
    MPI_Comm_get_errhandler(c, &got);
    mt_ok(got == eh, "MPI_Comm_get_errhandler sees it too");
    MPI_Errhandler_free(&got);

    int x = 0;
    rc = MPI_Send(&x, 1, MPI_INT, -5, 0, c);
    mt_ok(nhandled == 1 && handled_comm == c && handled_code == MPI_ERR_RANK && rc == MPI_ERR_RANK,
          "MPI_Send to rank -5: the handler, with the communicator and MPI_ERR_RANK; the call returns it");

    MPI_Errhandler_free(&eh);
    mt_ok(eh == MPI_ERRHANDLER_NULL, "MPI_Errhandler_free: MPI_ERRHANDLER_NULL");
    MPI_Send(&x, 1, MPI_INT, -5, 0, c);
    mt_is_int(nhandled, 2, "the communicator keeps its handler after the handle is freed");

    MPI_Errhandler_set(c, MPI_ERRORS_RETURN);
    MPI_Errhandler_get(c, &got);
    mt_ok(got == MPI_ERRORS_RETURN, "MPI_Errhandler_get: MPI_ERRORS_RETURN after setting it");
    MPI_Errhandler_free(&got);
    rc = MPI_Send(&x, 1, MPI_INT, -5, 0, c);
    mt_ok(rc == MPI_ERR_RANK && nhandled == 2, "MPI_ERRORS_RETURN: the class returned, the handler not called");

    rc = MPI_Errhandler_set(MPI_COMM_NULL, MPI_ERRORS_RETURN);
    mt_ok(rc == MPI_ERR_COMM && names(rc, "MPI_Errhandler_set"), "MPI_Errhandler_set(MPI_COMM_NULL): MPI_ERR_COMM");
    rc = MPI_Errhandler_set(c, MPI_ERRHANDLER_NULL);
    mt_ok(rc == MPI_ERR_ARG && names(rc, "MPI_Errhandler_set"), "MPI_Errhandler_set(MPI_ERRHANDLER_NULL): MPI_ERR_ARG");
    rc = MPI_Errhandler_get(c, NULL);
    mt_ok(rc == MPI_ERR_ARG && names(rc, "MPI_Errhandler_get"), "MPI_Errhandler_get with no handle: MPI_ERR_ARG");
    rc = MPI_Errhandler_create(NULL, &eh);
    mt_ok(rc == MPI_ERR_ARG && names(rc, "MPI_Errhandler_create"), "MPI_Errhandler_create(NULL): MPI_ERR_ARG");
    MPI_Comm_free(&c);
}

int main(int argc, char **argv)
{
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    mt_rank = rank;
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    attributes();
    datatypes(rank);
    errhandlers();
    MPI_Finalize();
    return mt_done();
}

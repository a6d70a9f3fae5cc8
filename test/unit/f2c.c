/* Unit test (a singleton MPI process): the conversions between C and
 * Fortran handles and statuses (runtime/api/f2c.c,
 * runtime/objects/fhandle.h). A Fortran handle is kind << 24 | index,
 * index 0 the kind's _NULL, the predefined objects' indices fixed from 1 in
 * mpi.h's order; every object converts back to itself, a handle of another
 * kind converts to NULL, a freed object's index converts to NULL and is
 * used again. And the Fortran datatypes' C side: REAL16 and COMPLEX32
 * (binary128) in reductions and external32, MPI_Type_create_f90_*,
 * MPI_Type_match_size. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

#include "test/tap.h"

#define F(kind, i) ((MPI_Fint)((kind) << 24 | (i)))
enum { COMM = 1, TYPE, GROUP, REQUEST, OP, ERRH, INFO, WIN, MESSAGE };

static void user_sum(void *in, void *inout, int *len, MPI_Datatype *t)
{
    (void)in, (void)inout, (void)len, (void)t;
}

static void user_eh(MPI_Comm *c, int *e, ...)
{
    (void)c, (void)e;
}

int main(void)
{
    /* before MPI_Init: the predefined handles' fixed values, and back */
    tap_is_int(MPI_Comm_c2f(MPI_COMM_WORLD), F(COMM, 1), "before MPI_Init: MPI_COMM_WORLD is comm 1");
    tap_ok(MPI_Comm_f2c(F(COMM, 2)) == MPI_COMM_SELF, "before MPI_Init: comm 2 is MPI_COMM_SELF");
    MPI_Init(NULL, NULL);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);

    /* _NULL of each kind: index 0, and back */
    tap_is_int(MPI_Comm_c2f(MPI_COMM_NULL), F(COMM, 0), "MPI_COMM_NULL is comm 0");
    tap_is_int(MPI_Type_c2f(MPI_DATATYPE_NULL), F(TYPE, 0), "MPI_DATATYPE_NULL is datatype 0");
    tap_is_int(MPI_Group_c2f(MPI_GROUP_NULL), F(GROUP, 0), "MPI_GROUP_NULL is group 0");
    tap_is_int(MPI_Request_c2f(MPI_REQUEST_NULL), F(REQUEST, 0), "MPI_REQUEST_NULL is request 0");
    tap_is_int(MPI_Op_c2f(MPI_OP_NULL), F(OP, 0), "MPI_OP_NULL is op 0");
    tap_is_int(MPI_Errhandler_c2f(MPI_ERRHANDLER_NULL), F(ERRH, 0), "MPI_ERRHANDLER_NULL is errhandler 0");
    tap_is_int(MPI_Info_c2f(MPI_INFO_NULL), F(INFO, 0), "MPI_INFO_NULL is info 0");
    tap_is_int(MPI_Win_c2f(MPI_WIN_NULL), F(WIN, 0), "MPI_WIN_NULL is win 0");
    tap_is_int(MPI_Message_c2f(MPI_MESSAGE_NULL), F(MESSAGE, 0), "MPI_MESSAGE_NULL is message 0");
    tap_ok(MPI_Comm_f2c(F(COMM, 0)) == MPI_COMM_NULL && MPI_Win_f2c(F(WIN, 0)) == MPI_WIN_NULL,
           "comm 0 and win 0 convert to MPI_COMM_NULL and MPI_WIN_NULL");

    /* predefined objects: fixed indices in mpi.h's order */
    tap_is_int(MPI_Comm_c2f(MPI_COMM_SELF), F(COMM, 2), "MPI_COMM_SELF is comm 2");
    tap_is_int(MPI_Type_c2f(MPI_CHAR), F(TYPE, 1), "MPI_CHAR is datatype 1 (the first of the list)");
    tap_is_int(MPI_Type_c2f(MPI_INT), F(TYPE, 8), "MPI_INT is datatype 8");
    tap_is_int(MPI_Type_c2f(MPI_2DOUBLE_PRECISION), F(TYPE, 62), "MPI_2DOUBLE_PRECISION is datatype 62");
    tap_is_int(MPI_Type_c2f(MPI_COMPLEX32), F(TYPE, 64), "MPI_COMPLEX32 is datatype 64 (the last)");
    tap_ok(MPI_Type_f2c(F(TYPE, 47)) == MPI_INTEGER, "datatype 47 is MPI_INTEGER");
    tap_is_int(MPI_Op_c2f(MPI_MAX), F(OP, 1), "MPI_MAX is op 1");
    tap_is_int(MPI_Op_c2f(MPI_NO_OP), F(OP, 14), "MPI_NO_OP is op 14");
    tap_ok(MPI_Op_f2c(F(OP, 3)) == MPI_SUM, "op 3 is MPI_SUM");
    tap_is_int(MPI_Group_c2f(MPI_GROUP_EMPTY), F(GROUP, 1), "MPI_GROUP_EMPTY is group 1");
    tap_is_int(MPI_Errhandler_c2f(MPI_ERRORS_ARE_FATAL), F(ERRH, 1), "MPI_ERRORS_ARE_FATAL is errhandler 1");
    tap_is_int(MPI_Errhandler_c2f(MPI_ERRORS_RETURN), F(ERRH, 2), "MPI_ERRORS_RETURN is errhandler 2");
    tap_is_int(MPI_Info_c2f(MPI_INFO_ENV), F(INFO, 1), "MPI_INFO_ENV is info 1");
    tap_is_int(MPI_Message_c2f(MPI_MESSAGE_NO_PROC), F(MESSAGE, 1), "MPI_MESSAGE_NO_PROC is message 1");

    /* the kind is checked: another kind's handle, or an index never given, is NULL */
    tap_ok(MPI_Type_f2c(MPI_Comm_c2f(MPI_COMM_WORLD)) == MPI_DATATYPE_NULL,
           "MPI_COMM_WORLD's Fortran handle as a datatype: MPI_DATATYPE_NULL");
    tap_ok(MPI_Comm_f2c(F(TYPE, 1)) == MPI_COMM_NULL, "datatype 1 as a communicator: MPI_COMM_NULL");
    tap_ok(MPI_Comm_f2c(F(COMM, 5000)) == MPI_COMM_NULL, "comm 5000 (never given): MPI_COMM_NULL");
    tap_ok(MPI_Comm_f2c(0) == MPI_COMM_NULL && MPI_Comm_f2c(-1) == MPI_COMM_NULL,
           "0 and -1 as communicators: MPI_COMM_NULL");
    int cmp = -1;
    tap_is_int(MPI_Comm_compare(MPI_Comm_f2c(F(TYPE, 8)), MPI_COMM_WORLD, &cmp) != MPI_SUCCESS, 1,
               "a call given a datatype's Fortran handle as a communicator fails (MPI_ERR_COMM)");

    /* objects made at run time: an index at the first c2f, the same after, back to the object */
    MPI_Comm dup, dup2;
    MPI_Comm_dup(MPI_COMM_SELF, &dup);
    MPI_Fint fd = MPI_Comm_c2f(dup);
    tap_ok((fd >> 24) == COMM && (fd & 0xffffff) > 2, "a duplicate communicator: a comm index beyond the predefined");
    tap_is_int(MPI_Comm_c2f(dup), fd, "c2f again: the same value");
    tap_ok(MPI_Comm_f2c(fd) == dup, "f2c: the communicator itself");
    MPI_Comm_free(&dup);
    tap_ok(MPI_Comm_f2c(fd) == MPI_COMM_NULL, "after MPI_Comm_free: its Fortran handle converts to MPI_COMM_NULL");
    MPI_Comm_dup(MPI_COMM_SELF, &dup2);
    tap_is_int(MPI_Comm_c2f(dup2), fd, "the next communicator converted takes the freed index");
    tap_ok(MPI_Comm_f2c(fd) == dup2, "... and converts back to the new one");
    MPI_Comm_free(&dup2);

    MPI_Datatype vec;
    MPI_Type_vector(3, 1, 2, MPI_INT, &vec);
    MPI_Type_commit(&vec);
    MPI_Fint fv = MPI_Type_c2f(vec);
    tap_ok((fv >> 24) == TYPE && (fv & 0xffffff) > 64 && MPI_Type_f2c(fv) == vec, "a vector type: round trip");
    MPI_Type_free(&vec);
    tap_ok(MPI_Type_f2c(fv) == MPI_DATATYPE_NULL, "after MPI_Type_free: MPI_DATATYPE_NULL");

    MPI_Group g;
    MPI_Comm_group(MPI_COMM_WORLD, &g);
    MPI_Fint fg = MPI_Group_c2f(g);
    tap_ok((fg >> 24) == GROUP && MPI_Group_f2c(fg) == g, "a group: round trip");
    MPI_Group_free(&g);
    tap_ok(MPI_Group_f2c(fg) == MPI_GROUP_NULL, "after MPI_Group_free: MPI_GROUP_NULL");

    MPI_Info info;
    MPI_Info_create(&info);
    MPI_Fint fi = MPI_Info_c2f(info);
    tap_ok((fi >> 24) == INFO && (fi & 0xffffff) > 1 && MPI_Info_f2c(fi) == info, "an info: round trip");
    MPI_Info_free(&info);
    tap_ok(MPI_Info_f2c(fi) == MPI_INFO_NULL, "after MPI_Info_free: MPI_INFO_NULL");

    MPI_Op op;
    MPI_Op_create(user_sum, 1, &op);
    MPI_Fint fo = MPI_Op_c2f(op);
    tap_ok((fo >> 24) == OP && (fo & 0xffffff) > 14 && MPI_Op_f2c(fo) == op, "a user op: round trip");
    MPI_Op_free(&op);
    tap_ok(MPI_Op_f2c(fo) == MPI_OP_NULL, "after MPI_Op_free: MPI_OP_NULL");

    MPI_Errhandler eh;
    MPI_Comm_create_errhandler(user_eh, &eh);
    MPI_Fint fe = MPI_Errhandler_c2f(eh);
    tap_ok((fe >> 24) == ERRH && (fe & 0xffffff) > 2 && MPI_Errhandler_f2c(fe) == eh, "an error handler: round trip");
    MPI_Errhandler_free(&eh);
    tap_ok(MPI_Errhandler_f2c(fe) == MPI_ERRHANDLER_NULL, "after MPI_Errhandler_free: MPI_ERRHANDLER_NULL");

    int wmem[4] = {0};
    MPI_Win win;
    MPI_Win_create(wmem, sizeof(wmem), 1, MPI_INFO_NULL, MPI_COMM_SELF, &win);
    MPI_Fint fw = MPI_Win_c2f(win);
    tap_ok((fw >> 24) == WIN && (fw & 0xffffff) > 0 && MPI_Win_f2c(fw) == win, "a window: round trip");
    MPI_Win_free(&win);
    tap_ok(MPI_Win_f2c(fw) == MPI_WIN_NULL, "after MPI_Win_free: MPI_WIN_NULL");

    /* a request: waited for through its Fortran handle; gone once complete */
    int out = 41, in = 0;
    MPI_Request r;
    MPI_Irecv(&in, 1, MPI_INT, 0, 7, MPI_COMM_SELF, &r);
    MPI_Fint fr = MPI_Request_c2f(r);
    tap_ok((fr >> 24) == REQUEST && MPI_Request_f2c(fr) == r, "a receive request: round trip");
    MPI_Send(&out, 1, MPI_INT, 0, 7, MPI_COMM_SELF);
    MPI_Request back = MPI_Request_f2c(fr);
    MPI_Status st;
    tap_is_int(MPI_Wait(&back, &st), MPI_SUCCESS, "MPI_Wait on the request from its Fortran handle");
    tap_ok(in == 41 && back == MPI_REQUEST_NULL, "the message arrived (41) and the request is MPI_REQUEST_NULL");
    tap_ok(MPI_Request_f2c(fr) == MPI_REQUEST_NULL, "after completion: its Fortran handle converts to MPI_REQUEST_NULL");

    /* a matched message */
    MPI_Send(&out, 1, MPI_INT, 0, 8, MPI_COMM_SELF);
    MPI_Message m;
    MPI_Mprobe(0, 8, MPI_COMM_SELF, &m, &st);
    MPI_Fint fm = MPI_Message_c2f(m);
    tap_ok((fm >> 24) == MESSAGE && (fm & 0xffffff) > 1 && MPI_Message_f2c(fm) == m, "a matched message: round trip");
    MPI_Message mb = MPI_Message_f2c(fm);
    in = 0;
    MPI_Mrecv(&in, 1, MPI_INT, &mb, &st);
    tap_ok(in == 41 && MPI_Message_f2c(fm) == MPI_MESSAGE_NULL, "after MPI_Mrecv: the data, and MPI_MESSAGE_NULL");

    /* statuses: the C status's bytes, MPI_SOURCE, MPI_TAG and MPI_ERROR first */
    MPI_Status cs, cs2;
    memset(&cs, 0, sizeof(cs));
    MPI_Send(&out, 1, MPI_INT, 0, 9, MPI_COMM_SELF);
    MPI_Recv(&in, 1, MPI_INT, 0, 9, MPI_COMM_SELF, &cs);
    cs.MPI_ERROR = MPI_ERR_TRUNCATE;
    MPI_Fint fs[MPI_F_STATUS_SIZE];
    tap_is_int(MPI_Status_c2f(&cs, fs), MPI_SUCCESS, "MPI_Status_c2f");
    tap_ok(fs[MPI_F_SOURCE] == 0 && fs[MPI_F_TAG] == 9 && fs[MPI_F_ERROR] == MPI_ERR_TRUNCATE,
           "the Fortran status: source 0, tag 9, error MPI_ERR_TRUNCATE");
    memset(&cs2, 0xff, sizeof(cs2));
    tap_is_int(MPI_Status_f2c(fs, &cs2), MPI_SUCCESS, "MPI_Status_f2c");
    int count = -1;
    MPI_Get_count(&cs2, MPI_INT, &count);
    tap_ok(cs2.MPI_SOURCE == 0 && cs2.MPI_TAG == 9 && count == 1, "back in C: source 0, tag 9, MPI_Get_count 1");
    MPI_F08_status f08;
    tap_ok(MPI_Status_c2f08(&cs, &f08) == MPI_SUCCESS && f08.MPI_TAG == 9 && f08.MPI_ERROR == MPI_ERR_TRUNCATE,
           "MPI_Status_c2f08: tag 9, error MPI_ERR_TRUNCATE");
    MPI_Fint fs2[MPI_F_STATUS_SIZE];
    memset(&cs2, 0, sizeof(cs2));
    tap_ok(MPI_Status_f082f(&f08, fs2) == MPI_SUCCESS && MPI_Status_f2f08(fs2, &f08) == MPI_SUCCESS &&
               MPI_Status_f082c(&f08, &cs2) == MPI_SUCCESS && memcmp(&cs, &cs2, sizeof(cs)) == 0,
           "f08 -> Fortran -> f08 -> C: the same bytes as the first status");
    tap_ok(MPI_Status_f2c(MPI_F_STATUS_IGNORE, &cs2) == MPI_ERR_ARG &&
               MPI_Status_c2f(&cs, MPI_F_STATUSES_IGNORE) == MPI_ERR_ARG &&
               MPI_Status_f082c(MPI_F08_STATUS_IGNORE, &cs2) == MPI_ERR_ARG && MPI_Status_c2f(NULL, fs) == MPI_ERR_ARG,
           "the status-ignore constants and NULL: MPI_ERR_ARG");

    /* Fortran's parameterised types: gfortran's kinds, one handle per (p, r), named */
    MPI_Datatype t1, t2, t3;
    int ni, na, nd, comb, sz, ints[2];
    tap_ok(MPI_Type_create_f90_integer(9, &t1) == MPI_SUCCESS && MPI_Type_size(t1, &sz) == MPI_SUCCESS && sz == 4,
           "f90_integer(9): 4 bytes (SELECTED_INT_KIND(9) is kind 4)");
    MPI_Type_create_f90_integer(10, &t2);
    MPI_Type_size(t2, &sz);
    tap_is_int(sz, 8, "f90_integer(10): 8 bytes");
    MPI_Type_create_f90_integer(9, &t3);
    tap_ok(t3 == t1 && t2 != t1, "f90_integer(9) twice: the same handle; (10) another");
    MPI_Type_get_envelope(t1, &ni, &na, &nd, &comb);
    tap_ok(comb == MPI_COMBINER_F90_INTEGER && ni == 1 && na == 0 && nd == 0, "its envelope: MPI_COMBINER_F90_INTEGER, 1 integer");
    ints[0] = -1;
    tap_ok(MPI_Type_get_contents(t1, 1, 0, 0, ints, NULL, NULL) == MPI_SUCCESS && ints[0] == 9, "its contents: r = 9");
    tap_ok(MPI_Type_free(&t1) != MPI_SUCCESS && t1 == t3, "MPI_Type_free refuses it (a named type)");
    MPI_Type_create_f90_real(15, MPI_UNDEFINED, &t1);
    MPI_Type_size(t1, &sz);
    tap_is_int(sz, 8, "f90_real(15, MPI_UNDEFINED): 8 bytes");
    MPI_Type_create_f90_real(MPI_UNDEFINED, 400, &t1);
    MPI_Type_get_envelope(t1, &ni, &na, &nd, &comb);
    MPI_Type_get_contents(t1, 2, 0, 0, ints, NULL, NULL);
    tap_ok(comb == MPI_COMBINER_F90_REAL && ni == 2 && ints[0] == MPI_UNDEFINED && ints[1] == 400,
           "f90_real(MPI_UNDEFINED, 400): MPI_COMBINER_F90_REAL, contents (MPI_UNDEFINED, 400)");
    MPI_Type_size(t1, &sz);
    tap_is_int(sz, (int)sizeof(long double), "... of kind 10 (x87 extended, C's long double)");
    MPI_Type_create_f90_complex(30, MPI_UNDEFINED, &t1);
    MPI_Type_size(t1, &sz);
    tap_is_int(sz, 32, "f90_complex(30, MPI_UNDEFINED): 32 bytes (COMPLEX(16))");
    tap_ok(MPI_Type_create_f90_real(40, MPI_UNDEFINED, &t1) == MPI_ERR_ARG && MPI_Type_create_f90_integer(19, &t1) == MPI_ERR_ARG,
           "precision 40 or integer range 19: MPI_ERR_ARG");
    MPI_Datatype ms = MPI_DATATYPE_NULL;
    tap_ok(MPI_Type_match_size(MPI_TYPECLASS_REAL, 16, &ms) == MPI_SUCCESS && ms == MPI_REAL16,
           "match_size(REAL, 16): MPI_REAL16");
    tap_ok(MPI_Type_match_size(MPI_TYPECLASS_INTEGER, 2, &ms) == MPI_SUCCESS && ms == MPI_INTEGER2,
           "match_size(INTEGER, 2): MPI_INTEGER2");
    tap_ok(MPI_Type_match_size(MPI_TYPECLASS_COMPLEX, 32, &ms) == MPI_SUCCESS && ms == MPI_COMPLEX32,
           "match_size(COMPLEX, 32): MPI_COMPLEX32");
    tap_ok(MPI_Type_match_size(MPI_TYPECLASS_INTEGER, 3, &ms) == MPI_ERR_ARG && MPI_Type_match_size(9, 4, &ms) == MPI_ERR_ARG,
           "match_size of 3-byte integers or class 9: MPI_ERR_ARG");

    /* REAL16 and COMPLEX32: the reductions and external32 */
    __float128 qa[2] = {1.5Q, -2.0Q}, qb[2] = {2.25Q, 3.0Q};
    MPI_Reduce_local(qa, qb, 2, MPI_REAL16, MPI_SUM);
    tap_ok(qb[0] == 3.75Q && qb[1] == 1.0Q, "MPI_REAL16 MPI_SUM: 3.75 and 1");
    qb[0] = 2.25Q;
    MPI_Reduce_local(qa, qb, 1, MPI_REAL16, MPI_MAX);
    tap_ok(qb[0] == 2.25Q, "MPI_REAL16 MPI_MAX");
    _Complex float __attribute__((mode(TC))) ca = __builtin_complex(1.0Q, 2.0Q), cb = __builtin_complex(3.0Q, 4.0Q);
    MPI_Reduce_local(&ca, &cb, 1, MPI_COMPLEX32, MPI_PROD);
    tap_ok(__real__ cb == -5 && __imag__ cb == 10, "MPI_COMPLEX32 MPI_PROD: (1+2i)(3+4i) = -5+10i");
    unsigned char ext[16];
    MPI_Aint pos = 0;
    __float128 one = 1.0Q, qback = 0;
    tap_ok(MPI_Pack_external("external32", &one, 1, MPI_REAL16, ext, sizeof(ext), &pos) == MPI_SUCCESS && pos == 16 &&
               ext[0] == 0x3f && ext[1] == 0xff && ext[2] == 0 && ext[15] == 0,
           "MPI_REAL16 1.0 in external32: 3f ff 00 ... (big-endian binary128)");
    pos = 0;
    MPI_Unpack_external("external32", ext, sizeof(ext), &pos, &qback, 1, MPI_REAL16);
    tap_ok(qback == 1.0Q, "... and back: 1.0");

    MPI_Finalize();
    printf("1..%d\n", tap_n);
    return tap_failed ? 1 : 0;
}

/* MPI test: reduction operations through MPI_Reduce_local: every
 * predefined op on its types with exact results, the types an op is not
 * defined on, MAXLOC/MINLOC ties, user ops, REPLACE and NO_OP. */
#include <complex.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

#include "test/mpi/mtest.h"

static int user_calls, user_len;
static MPI_Datatype user_type;

static void user_sub(void *in, void *io, int *len, MPI_Datatype *dt)
{
    /* not commutative: io = in - io */
    user_calls++;
    user_len = *len;
    user_type = *dt;
    for (int i = 0; i < *len; i++)
        ((int *)io)[i] = ((int *)in)[i] - ((int *)io)[i];
}

#define UNPAREN(...) __VA_ARGS__
/* A, B, WANT: three values each, in parentheses */
#define CHECK_OP(T, MT, OP, A, B, WANT)                                                \
    do {                                                                               \
        T a_[3] = {UNPAREN A}, b_[3] = {UNPAREN B}, w_[3] = {UNPAREN WANT};            \
        int rc_ = MPI_Reduce_local(a_, b_, 3, MT, OP);                                 \
        mt_ok(rc_ == MPI_SUCCESS && b_[0] == w_[0] && b_[1] == w_[1] && b_[2] == w_[2], \
              #OP " on " #MT);                                                         \
    } while (0)

int main(int argc, char **argv)
{
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    mt_rank = rank;
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);

    CHECK_OP(int, MPI_INT, MPI_SUM, (1, -2, 3), (10, 20, 30), (11, 18, 33));
    CHECK_OP(int, MPI_INT, MPI_PROD, (2, -2, 0), (10, 20, 30), (20, -40, 0));
    CHECK_OP(int, MPI_INT, MPI_MAX, (1, -2, 30), (10, -20, 3), (10, -2, 30));
    CHECK_OP(int, MPI_INT, MPI_MIN, (1, -2, 30), (10, -20, 3), (1, -20, 3));
    CHECK_OP(int, MPI_INT, MPI_LAND, (1, 0, 5), (7, 7, 0), (1, 0, 0));
    CHECK_OP(int, MPI_INT, MPI_LOR, (1, 0, 0), (0, 0, 9), (1, 0, 1));
    CHECK_OP(int, MPI_INT, MPI_LXOR, (1, 0, 3), (0, 0, 9), (1, 0, 0));
    CHECK_OP(unsigned, MPI_UNSIGNED, MPI_BAND, (0xf0u, 0xffu, 1u), (0x3cu, 0x0fu, 2u), (0x30u, 0x0fu, 0u));
    CHECK_OP(unsigned, MPI_UNSIGNED, MPI_BOR, (0xf0u, 0xffu, 1u), (0x3cu, 0x0fu, 2u), (0xfcu, 0xffu, 3u));
    CHECK_OP(unsigned, MPI_UNSIGNED, MPI_BXOR, (0xf0u, 0xffu, 1u), (0x3cu, 0x0fu, 3u), (0xccu, 0xf0u, 2u));
    CHECK_OP(unsigned char, MPI_BYTE, MPI_BXOR, (0xf0, 0xff, 1), (0x3c, 0x0f, 3), (0xcc, 0xf0, 2));
    CHECK_OP(long long, MPI_LONG_LONG, MPI_SUM, (1LL << 40, -1, 5), (1LL << 40, 1, 5), (1LL << 41, 0, 10));
    CHECK_OP(unsigned long, MPI_UNSIGNED_LONG, MPI_MAX, (1ul, 9ul, 0ul), (2ul, 3ul, ~0ul), (2ul, 9ul, ~0ul));
    CHECK_OP(int8_t, MPI_INT8_T, MPI_MIN, (-128, 5, 0), (127, -5, 0), (-128, -5, 0));
    CHECK_OP(uint64_t, MPI_UINT64_T, MPI_PROD, (3, 1ull << 32, 0), (5, 2, 7), (15, 1ull << 33, 0));
    CHECK_OP(double, MPI_DOUBLE, MPI_SUM, (0.5, -1.25, 1e300), (0.25, 1.25, 1e300), (0.75, 0.0, 2e300));
    CHECK_OP(double, MPI_DOUBLE, MPI_MAX, (0.5, -1.25, 3), (0.25, 1.25, 3), (0.5, 1.25, 3));
    CHECK_OP(float, MPI_FLOAT, MPI_MIN, (0.5f, -1.25f, 3), (0.25f, 1.25f, 3), (0.25f, -1.25f, 3));
    CHECK_OP(long double, MPI_LONG_DOUBLE, MPI_PROD, (0.5L, 2, 3), (4, 8, 0.25L), (2, 16, 0.75L));
    CHECK_OP(double _Complex, MPI_C_DOUBLE_COMPLEX, MPI_PROD, (I, 1 + I, 2), (I, 1 - I, 3 * I), (-1, 2, 6 * I));
    CHECK_OP(float _Complex, MPI_C_FLOAT_COMPLEX, MPI_SUM, (I, 1, 2), (1, 1, -2), (1 + I, 2, 0));
    CHECK_OP(_Bool, MPI_C_BOOL, MPI_LOR, (true, false, false), (false, false, true), (true, false, true));
    CHECK_OP(_Bool, MPI_C_BOOL, MPI_LXOR, (true, true, false), (false, true, true), (true, false, true));
    CHECK_OP(int32_t, MPI_INTEGER, MPI_SUM, (1, 2, 3), (4, 5, 6), (5, 7, 9));
    CHECK_OP(double, MPI_DOUBLE_PRECISION, MPI_MAX, (1, 2, 3), (4, -5, 6), (4, 2, 6));
    CHECK_OP(int32_t, MPI_LOGICAL, MPI_LAND, (1, 1, 0), (1, 0, 0), (1, 0, 0));
    CHECK_OP(MPI_Aint, MPI_AINT, MPI_SUM, (1, 2, 3), (4, 5, -6), (5, 7, -3));

    /* MAXLOC / MINLOC: on equal values, the lower index wins */
    struct { double v; int i; } a[3] = {{1.0, 4}, {5.0, 2}, {3.0, 0}}, b[3] = {{1.0, 1}, {2.0, 9}, {7.0, 3}};
    MPI_Reduce_local(a, b, 3, MPI_DOUBLE_INT, MPI_MAXLOC);
    mt_ok(b[0].v == 1.0 && b[0].i == 1 && b[1].v == 5.0 && b[1].i == 2 && b[2].v == 7.0 && b[2].i == 3,
          "MPI_MAXLOC on MPI_DOUBLE_INT (tie: lower index)");
    struct { int v; int i; } c[2] = {{3, 7}, {-1, 5}}, d[2] = {{3, 2}, {0, 1}};
    MPI_Reduce_local(c, d, 2, MPI_2INT, MPI_MINLOC);
    mt_ok(d[0].v == 3 && d[0].i == 2 && d[1].v == -1 && d[1].i == 5, "MPI_MINLOC on MPI_2INT");

    /* a long vector: the vectorised kernels agree with a scalar sum */
    int n = 1 << 20, bad = 0;
    double *x = malloc(sizeof(double) * (size_t)n), *y = malloc(sizeof(double) * (size_t)n);
    for (int i = 0; i < n; i++) {
        x[i] = i;
        y[i] = 2.0 * i;
    }
    MPI_Reduce_local(x, y, n, MPI_DOUBLE, MPI_SUM);
    for (int i = 0; i < n; i++)
        bad += y[i] != 3.0 * i;
    mt_is_int(bad, 0, "MPI_SUM of 2^20 doubles");
    free(x);
    free(y);

    /* REPLACE and NO_OP */
    CHECK_OP(int, MPI_INT, MPI_REPLACE, (1, 2, 3), (7, 8, 9), (1, 2, 3));
    CHECK_OP(int, MPI_INT, MPI_NO_OP, (1, 2, 3), (7, 8, 9), (7, 8, 9));

    /* ops that are not defined on a type */
    double dz[1] = {1}, dw[1] = {2};
    float fz[1] = {1}, fw[1] = {2};
    double _Complex cz[1] = {1}, cw[1] = {2};
    mt_is_int(MPI_Reduce_local(dz, dw, 1, MPI_DOUBLE, MPI_LAND), MPI_ERR_OP, "MPI_LAND on MPI_DOUBLE: MPI_ERR_OP");
    mt_is_int(MPI_Reduce_local(fz, fw, 1, MPI_FLOAT, MPI_BAND), MPI_ERR_OP, "MPI_BAND on MPI_FLOAT: MPI_ERR_OP");
    mt_is_int(MPI_Reduce_local(cz, cw, 1, MPI_C_DOUBLE_COMPLEX, MPI_MAX), MPI_ERR_OP,
              "MPI_MAX on a complex type: MPI_ERR_OP");
    mt_is_int(MPI_Reduce_local(dz, dw, 1, MPI_DOUBLE, MPI_MAXLOC), MPI_ERR_OP, "MPI_MAXLOC on MPI_DOUBLE: MPI_ERR_OP");
    mt_is_int(MPI_Reduce_local(dz, dw, 1, MPI_DOUBLE, MPI_OP_NULL), MPI_ERR_OP, "MPI_OP_NULL: MPI_ERR_OP");

    /* user ops */
    MPI_Op sub;
    int commute = -1;
    mt_is_int(MPI_Op_create(user_sub, 0, &sub), MPI_SUCCESS, "MPI_Op_create");
    MPI_Op_commutative(sub, &commute);
    mt_is_int(commute, 0, "the user op is not commutative");
    MPI_Op_commutative(MPI_SUM, &commute);
    mt_is_int(commute, 1, "MPI_SUM is commutative");
    int ui[4] = {10, 20, 30, 40}, uo[4] = {1, 2, 3, 4};
    MPI_Reduce_local(ui, uo, 4, MPI_INT, sub);
    mt_ok(uo[0] == 9 && uo[3] == 36 && user_calls == 1 && user_len == 4 && user_type == MPI_INT,
          "a user op gets (in, inout, len, type) and computes inout = in op inout");
    mt_is_int(MPI_Op_free(&sub), MPI_SUCCESS, "MPI_Op_free");
    mt_ok(sub == MPI_OP_NULL, "and sets MPI_OP_NULL");
    MPI_Op sum = MPI_SUM;
    mt_is_int(MPI_Op_free(&sum), MPI_ERR_OP, "freeing MPI_SUM: MPI_ERR_OP");

    /* a contiguous derived type of ints works with the int kernels */
    MPI_Datatype two;
    MPI_Type_contiguous(2, MPI_INT, &two);
    MPI_Type_commit(&two);
    int ti[4] = {1, 2, 3, 4}, to[4] = {10, 20, 30, 40};
    MPI_Reduce_local(ti, to, 2, two, MPI_SUM);
    mt_ok(to[0] == 11 && to[1] == 22 && to[2] == 33 && to[3] == 44, "MPI_SUM on a contiguous type of MPI_INT");
    MPI_Type_free(&two);

    MPI_Finalize();
    return mt_done();
}

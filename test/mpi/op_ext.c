/* MPI test: reductions that MPI-3.1 does not list but MPICH and Open MPI
 * accept and programs use: every integer op on MPI_CHAR (as a signed
 * char: SUM, PROD, MIN, MAX, the logical and the bitwise ops; Fortran's
 * MPI_CHARACTER likewise), and the
 * logical and bitwise ops on MPI_AINT, MPI_OFFSET and MPI_COUNT (integer
 * types here). Exact values, negative chars and wraparound included, by
 * MPI_Reduce_local, by MPI_Allreduce over the ranks, and on a derived
 * type made of such elements. The ops that stay undefined on them still
 * give MPI_ERR_OP. */
#include <stdint.h>

#include "test/mpi/mtest.h"

static int rank, size;

#define UNPAREN(...) __VA_ARGS__
/* in, inout, want: four values each, in parentheses */
#define LOCAL(T, MT, OP, A, B, WANT)                                                   \
    do {                                                                               \
        T a_[4] = {UNPAREN A}, b_[4] = {UNPAREN B}, w_[4] = {UNPAREN WANT};            \
        int rc_ = MPI_Reduce_local(a_, b_, 4, MT, OP);                                 \
        mt_ok(rc_ == MPI_SUCCESS && memcmp(b_, w_, sizeof(w_)) == 0, #OP " on " #MT " (%d, %lld %lld %lld %lld)", \
              rc_, (long long)b_[0], (long long)b_[1], (long long)b_[2], (long long)b_[3]); \
    } while (0)

static signed char sc(int v)
{
    return (signed char)v;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    mt_rank = rank;
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);

    /* MPI_CHAR, as signed char: 100 + 100 wraps to -56, -128 - 1 to 127 */
    LOCAL(char, MPI_CHAR, MPI_SUM, (100, -128, 5, -3), (100, -1, -7, -4), (sc(200), sc(-129), -2, -7));
    LOCAL(char, MPI_CHAR, MPI_PROD, (16, -3, 7, -1), (16, 5, -2, -128), (sc(256), -15, -14, sc(128)));
    LOCAL(char, MPI_CHAR, MPI_MAX, (-5, 100, -128, 0), (3, -100, -127, -1), (3, 100, -127, 0));
    LOCAL(char, MPI_CHAR, MPI_MIN, (-5, 100, -128, 0), (3, -100, -127, -1), (-5, -100, -128, -1));
    LOCAL(char, MPI_CHAR, MPI_LAND, (-1, 0, 7, 0), (2, 5, 0, 0), (1, 0, 0, 0));
    LOCAL(char, MPI_CHAR, MPI_LOR, (-1, 0, 7, 0), (2, 5, 0, 0), (1, 1, 1, 0));
    LOCAL(char, MPI_CHAR, MPI_LXOR, (-1, 0, 7, 0), (2, 5, 0, 0), (0, 1, 1, 0));
    LOCAL(char, MPI_CHAR, MPI_BAND, (-1, 0x5a, -128, 0x0f), (0x33, 0x0f, -1, 0x70), (0x33, 0x0a, -128, 0));
    LOCAL(char, MPI_CHAR, MPI_BOR, (-128, 0x50, 1, 0), (1, 0x0a, -2, 0), (-127, 0x5a, -1, 0));
    LOCAL(char, MPI_CHAR, MPI_BXOR, (-1, 0x55, -128, 7), (0x0f, 0x55, 1, 0), (sc(0xf0), 0, -127, 7));

    /* Fortran's MPI_CHARACTER: the same (both peers accept it too) */
    LOCAL(char, MPI_CHARACTER, MPI_SUM, (100, -128, 5, -3), (100, -1, -7, -4), (sc(200), sc(-129), -2, -7));
    LOCAL(char, MPI_CHARACTER, MPI_MAX, (-5, 100, -128, 0), (3, -100, -127, -1), (3, 100, -127, 0));
    LOCAL(char, MPI_CHARACTER, MPI_LOR, (-1, 0, 7, 0), (2, 5, 0, 0), (1, 1, 1, 0));
    LOCAL(char, MPI_CHARACTER, MPI_BXOR, (-1, 0x55, -128, 7), (0x0f, 0x55, 1, 0), (sc(0xf0), 0, -127, 7));

    /* the logical and bitwise ops on the address and offset types */
#define AOC(T, MT)                                                                                        \
    LOCAL(T, MT, MPI_LAND, (-1, 0, (T)1 << 40, 0), (2, 5, 0, 0), (1, 0, 0, 0));                           \
    LOCAL(T, MT, MPI_LOR, (-1, 0, (T)1 << 40, 0), (2, 5, 0, 0), (1, 1, 1, 0));                            \
    LOCAL(T, MT, MPI_LXOR, (-1, 0, (T)1 << 40, 0), (2, 5, 0, 0), (0, 1, 1, 0));                           \
    LOCAL(T, MT, MPI_BAND, (-1, 0x5a5a, (T)3 << 40, -8), (0x3333, 0x0f0f, (T)1 << 41, 0x7f), (0x3333, 0x0a0a, (T)1 << 41, 0x78)); \
    LOCAL(T, MT, MPI_BOR, (-1, 0x5000, (T)1 << 40, 0), (0, 0x000a, 1, 0), (-1, 0x500a, ((T)1 << 40) + 1, 0)); \
    LOCAL(T, MT, MPI_BXOR, (-1, 0x55, (T)1 << 40, 7), (0x0f, 0x55, 1, 0), (~(T)0x0f, 0, ((T)1 << 40) + 1, 7)); \
    LOCAL(T, MT, MPI_SUM, (-1, (T)1 << 40, 3, 0), (1, (T)1 << 40, -5, 0), (0, (T)1 << 41, -2, 0));        \
    LOCAL(T, MT, MPI_MAX, (-1, (T)1 << 40, 3, 0), (1, (T)1 << 39, -5, 0), (1, (T)1 << 40, 3, 0))
    AOC(MPI_Aint, MPI_AINT);
    AOC(MPI_Offset, MPI_OFFSET);
    AOC(MPI_Count, MPI_COUNT);

    /* across the ranks: rank r gives 100 + r, so the sum wraps; its bit
     * (1 << r) for the bitwise ops */
    {
        char c = (char)(100 + rank), s = 0, mx = 0, band = 0, bor = 0, bxor = 0;
        int want = 0;
        for (int r = 0; r < size; r++)
            want += 100 + r;
        int rc = MPI_Allreduce(&c, &s, 1, MPI_CHAR, MPI_SUM, MPI_COMM_WORLD);
        mt_ok(rc == MPI_SUCCESS && s == sc(want), "Allreduce SUM on MPI_CHAR wraps as a signed char (%d)", s);
        c = (char)(rank % 2 ? -100 - rank : rank);
        rc = MPI_Allreduce(&c, &mx, 1, MPI_CHAR, MPI_MIN, MPI_COMM_WORLD);
        mt_ok(rc == MPI_SUCCESS && mx == (size > 1 ? sc(-100 - (size % 2 ? size - 2 : size - 1)) : 0),
              "Allreduce MIN on MPI_CHAR takes the most negative (%d)", mx);
        c = (char)(1 << rank);
        char notc = (char)~c;
        MPI_Allreduce(&notc, &band, 1, MPI_CHAR, MPI_BAND, MPI_COMM_WORLD);
        MPI_Allreduce(&c, &bor, 1, MPI_CHAR, MPI_BOR, MPI_COMM_WORLD);
        MPI_Allreduce(&c, &bxor, 1, MPI_CHAR, MPI_BXOR, MPI_COMM_WORLD);
        char all = (char)((1 << size) - 1);
        mt_ok(band == (char)~all && bor == all && bxor == all, "Allreduce BAND, BOR, BXOR on MPI_CHAR");
        MPI_Aint a = (MPI_Aint)1 << (40 + rank), ar = 0, al = 0;
        rc = MPI_Allreduce(&a, &ar, 1, MPI_AINT, MPI_BOR, MPI_COMM_WORLD);
        mt_ok(rc == MPI_SUCCESS && ar == (((MPI_Aint)1 << size) - 1) << 40, "Allreduce BOR on MPI_AINT");
        MPI_Offset o = rank == 0 ? 0 : -rank, ol = -1;
        rc = MPI_Allreduce(&o, &ol, 1, MPI_OFFSET, MPI_LAND, MPI_COMM_WORLD);
        mt_ok(rc == MPI_SUCCESS && ol == 0, "Allreduce LAND on MPI_OFFSET (rank 0 gives 0)");
        MPI_Count k = -(MPI_Count)rank - 1, kl = 0;
        rc = MPI_Allreduce(&k, &kl, 1, MPI_COUNT, MPI_LOR, MPI_COMM_WORLD);
        /* (one rank: its own value, no op applied) */
        mt_ok(rc == MPI_SUCCESS && kl == (size == 1 ? -1 : 1), "Allreduce LOR on MPI_COUNT");
        a = rank + 1;
        rc = MPI_Allreduce(&a, &al, 1, MPI_AINT, MPI_LXOR, MPI_COMM_WORLD);
        mt_ok(rc == MPI_SUCCESS && al == size % 2, "Allreduce LXOR on MPI_AINT (every rank true)");
    }

    /* a derived type of chars: every other char of 8 */
    {
        MPI_Datatype v;
        MPI_Type_vector(4, 1, 2, MPI_CHAR, &v);
        MPI_Type_commit(&v);
        char in[8] = {120, 9, -128, 9, 3, 9, -7, 9}, io[8] = {10, 1, -1, 1, -3, 1, -121, 1};
        char want[8] = {sc(130), 1, sc(-129), 1, 0, 1, sc(-128), 1};
        int rc = MPI_Reduce_local(in, io, 1, v, MPI_SUM);
        mt_ok(rc == MPI_SUCCESS && memcmp(io, want, 8) == 0, "SUM on a vector of MPI_CHAR: the chars, the gaps untouched");
        MPI_Type_free(&v);
    }

    /* still not defined on them */
    char c1 = 1, c2 = 2;
    mt_is_int(MPI_Reduce_local(&c1, &c2, 1, MPI_CHAR, MPI_MAXLOC), MPI_ERR_OP, "MPI_MAXLOC on MPI_CHAR: MPI_ERR_OP");
    double d1 = 1, d2 = 2;
    mt_is_int(MPI_Reduce_local(&d1, &d2, 1, MPI_DOUBLE, MPI_BXOR), MPI_ERR_OP, "MPI_BXOR on MPI_DOUBLE: MPI_ERR_OP");

    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return mt_done();
}

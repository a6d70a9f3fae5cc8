/* MPI test: datatype queries: dup, names, extents, envelope and contents,
 * MPI 4.1's MPI_Type_get_value_index. */
#include "test/mpi/mtest.h"

int main(int argc, char **argv)
{
    int rank, size, len, ni, na, nd, comb, ints[2];
    char name[MPI_MAX_OBJECT_NAME];
    MPI_Aint lb, ext, addrs[1];
    MPI_Count clb, cext;
    MPI_Datatype types[1], d, c, dc;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    mt_rank = rank;
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);

    MPI_Type_get_name(MPI_INT, name, &len);
    mt_ok(strcmp(name, "MPI_INT") == 0 && len == 7, "MPI_INT is named MPI_INT");
    MPI_Type_get_envelope(MPI_INT, &ni, &na, &nd, &comb);
    mt_ok(comb == MPI_COMBINER_NAMED && ni == 0 && na == 0 && nd == 0, "MPI_INT: MPI_COMBINER_NAMED");
    mt_is_int(MPI_Type_get_contents(MPI_INT, 0, 0, 1, ints, addrs, types), MPI_ERR_TYPE,
              "contents of a named type: MPI_ERR_TYPE");

    MPI_Type_get_extent(MPI_DOUBLE_INT, &lb, &ext);
    mt_ok(lb == 0 && ext == 16, "MPI_DOUBLE_INT: lb 0, extent 16");
    MPI_Type_get_true_extent(MPI_DOUBLE_INT, &lb, &ext);
    mt_ok(lb == 0 && ext == 12, "MPI_DOUBLE_INT: true lb 0, true extent 12");
    MPI_Type_get_extent_x(MPI_SHORT_INT, &clb, &cext);
    mt_ok(clb == 0 && cext == 8, "MPI_SHORT_INT: extent 8 (_x)");
    MPI_Type_get_true_extent_x(MPI_SHORT_INT, &clb, &cext);
    mt_ok(clb == 0 && cext == 8, "MPI_SHORT_INT: true extent 8 (_x)");

    MPI_Type_contiguous(3, MPI_DOUBLE, &c);
    MPI_Type_get_envelope(c, &ni, &na, &nd, &comb);
    mt_ok(comb == MPI_COMBINER_CONTIGUOUS && ni == 1 && na == 0 && nd == 1, "contiguous: its envelope");
    MPI_Type_get_contents(c, 1, 0, 1, ints, addrs, types);
    mt_ok(ints[0] == 3 && types[0] == MPI_DOUBLE, "contiguous: count 3 of MPI_DOUBLE");
    MPI_Type_get_name(c, name, &len);
    mt_ok(len == 0, "a new type has no name");
    MPI_Type_set_name(c, "three doubles");
    MPI_Type_get_name(c, name, &len);
    mt_ok(strcmp(name, "three doubles") == 0, "Type_set_name / Type_get_name");

    MPI_Type_dup(MPI_INT, &d);
    MPI_Type_get_envelope(d, &ni, &na, &nd, &comb);
    mt_ok(comb == MPI_COMBINER_DUP && ni == 0 && nd == 1, "a dup: MPI_COMBINER_DUP");
    MPI_Type_get_contents(d, 0, 0, 1, ints, addrs, types);
    mt_ok(types[0] == MPI_INT, "the dup of MPI_INT names MPI_INT");
    MPI_Type_commit(&c);
    MPI_Type_dup(c, &dc);
    MPI_Type_get_contents(dc, 0, 0, 1, ints, addrs, types);
    /* a derived type comes back as a new object equal to the original */
    MPI_Type_get_envelope(types[0], &ni, &na, &nd, &comb);
    mt_ok(types[0] != c && comb == MPI_COMBINER_CONTIGUOUS && ni == 1 && nd == 1,
          "the dup of a derived type hands back a new handle of the same combiner");
    MPI_Datatype inner = MPI_DATATYPE_NULL;
    ints[0] = -1;
    MPI_Type_get_contents(types[0], 1, 0, 1, ints, addrs, &inner);
    mt_ok(ints[0] == 3 && inner == MPI_DOUBLE, "with the same contents (3 x MPI_DOUBLE)");
    MPI_Type_free(&types[0]); /* a new object: the caller frees it */
    int sz = -1;
    MPI_Type_size(dc, &sz);
    mt_is_int(sz, 24, "the dup has the size of its original");

    /* a dup'd type carries messages */
    if (size > 1 && rank < 2) {
        double out[6] = {1, 2, 3, 4, 5, 6}, in[6] = {0};
        MPI_Sendrecv(out, 2, dc, 1 - rank, 0, in, 2, dc, 1 - rank, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        mt_ok(in[0] == 1 && in[5] == 6, "a dup of a contiguous type sends 6 doubles");
    }
    MPI_Type_free(&dc);
    MPI_Type_free(&c);
    MPI_Type_free(&d);
    mt_ok(c == MPI_DATATYPE_NULL && d == MPI_DATATYPE_NULL, "Type_free sets MPI_DATATYPE_NULL");

    /* MPI_Type_get_value_index: each predefined pair, none for others */
    {
        const struct {
            MPI_Datatype v, i, want;
            const char *what;
        } cases[] = {
            {MPI_FLOAT, MPI_INT, MPI_FLOAT_INT, "MPI_FLOAT_INT"},
            {MPI_DOUBLE, MPI_INT, MPI_DOUBLE_INT, "MPI_DOUBLE_INT"},
            {MPI_LONG, MPI_INT, MPI_LONG_INT, "MPI_LONG_INT"},
            {MPI_INT, MPI_INT, MPI_2INT, "MPI_2INT"},
            {MPI_SHORT, MPI_INT, MPI_SHORT_INT, "MPI_SHORT_INT"},
            {MPI_LONG_DOUBLE, MPI_INT, MPI_LONG_DOUBLE_INT, "MPI_LONG_DOUBLE_INT"},
            {MPI_REAL, MPI_REAL, MPI_2REAL, "MPI_2REAL"},
            {MPI_DOUBLE_PRECISION, MPI_DOUBLE_PRECISION, MPI_2DOUBLE_PRECISION, "MPI_2DOUBLE_PRECISION"},
            {MPI_INTEGER, MPI_INTEGER, MPI_2INTEGER, "MPI_2INTEGER"},
            {MPI_INT, MPI_LONG, MPI_DATATYPE_NULL, "none for (MPI_INT, MPI_LONG)"},
            {MPI_CHAR, MPI_INT, MPI_DATATYPE_NULL, "none for (MPI_CHAR, MPI_INT)"},
        };
        for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
            MPI_Datatype got = MPI_BYTE;
            int rc = MPI_Type_get_value_index(cases[k].v, cases[k].i, &got);
            mt_ok(rc == MPI_SUCCESS && got == cases[k].want, "MPI_Type_get_value_index: %s", cases[k].what);
        }
        /* the pair it gives reduces with MPI_MINLOC: the smallest value, its rank */
        MPI_Datatype p;
        MPI_Type_get_value_index(MPI_DOUBLE, MPI_INT, &p);
        struct {
            double v;
            int i;
        } in = {10.0 - rank, rank}, out = {0, -1};
        MPI_Allreduce(&in, &out, 1, p, MPI_MINLOC, MPI_COMM_WORLD);
        mt_ok(out.v == 10.0 - (size - 1) && out.i == size - 1, "MINLOC on its pair: %g at rank %d", out.v, out.i);
        MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
        mt_is_int(MPI_Type_get_value_index(MPI_DATATYPE_NULL, MPI_INT, &p), MPI_ERR_TYPE,
                  "MPI_Type_get_value_index(MPI_DATATYPE_NULL, ...): MPI_ERR_TYPE");
        mt_is_int(MPI_Type_get_value_index(MPI_INT, MPI_INT, NULL), MPI_ERR_ARG, "a NULL pair_type: MPI_ERR_ARG");
    }
    MPI_Finalize();
    return mt_done();
}

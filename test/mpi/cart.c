/* MPI test: Cartesian topologies: create, queries, shift with a halo
 * exchange, sub-grids, map, dup, errors. */
#include <stdlib.h>

#include "test/mpi/mtest.h"

int main(int argc, char **argv)
{
    int rank, size, t = -1;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    mt_rank = rank;
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);

    int dims[2] = {0, 0}, periods[2] = {1, 0};
    MPI_Dims_create(size, 2, dims);
    MPI_Comm cart;
    mt_is_int(MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &cart), MPI_SUCCESS, "MPI_Cart_create %dx%d", dims[0], dims[1]);
    MPI_Topo_test(cart, &t);
    mt_is_int(t, MPI_CART, "Topo_test: MPI_CART");
    MPI_Topo_test(MPI_COMM_WORLD, &t);
    mt_is_int(t, MPI_UNDEFINED, "Topo_test of world: MPI_UNDEFINED");
    int nd = -1, gd[2], gp[2], gc[2], cc[2], r = -1;
    MPI_Cartdim_get(cart, &nd);
    mt_is_int(nd, 2, "Cartdim_get");
    MPI_Cart_get(cart, 2, gd, gp, gc);
    mt_ok(gd[0] == dims[0] && gd[1] == dims[1] && gp[0] == 1 && gp[1] == 0, "Cart_get: dims and periods");
    mt_ok(gc[0] == rank / dims[1] && gc[1] == rank % dims[1], "Cart_get: row-major coordinates (%d,%d)", gc[0], gc[1]);
    int all_ok = 1;
    for (int q = 0; q < size; q++) {
        MPI_Cart_coords(cart, q, 2, cc);
        MPI_Cart_rank(cart, cc, &r);
        all_ok &= r == q && cc[0] == q / dims[1] && cc[1] == q % dims[1];
    }
    mt_ok(all_ok, "Cart_coords and Cart_rank are inverse for every rank");
    cc[0] = gc[0] + dims[0]; /* periodic: wraps */
    cc[1] = gc[1];
    MPI_Cart_rank(cart, cc, &r);
    mt_is_int(r, rank, "Cart_rank wraps a periodic dimension");

    /* shifts and a halo exchange along both dimensions */
    int s0, d0, s1, d1;
    MPI_Cart_shift(cart, 0, 1, &s0, &d0);
    MPI_Cart_shift(cart, 1, 1, &s1, &d1);
    mt_is_int(s0, ((gc[0] - 1 + dims[0]) % dims[0]) * dims[1] + gc[1], "shift 0 (periodic): source");
    mt_is_int(d0, ((gc[0] + 1) % dims[0]) * dims[1] + gc[1], "shift 0 (periodic): dest");
    mt_is_int(s1, gc[1] == 0 ? MPI_PROC_NULL : rank - 1, "shift 1 (not periodic): source");
    mt_is_int(d1, gc[1] == dims[1] - 1 ? MPI_PROC_NULL : rank + 1, "shift 1 (not periodic): dest");
    int from0 = -7, from1 = -7;
    MPI_Sendrecv(&rank, 1, MPI_INT, d0, 0, &from0, 1, MPI_INT, s0, 0, cart, MPI_STATUS_IGNORE);
    MPI_Sendrecv(&rank, 1, MPI_INT, d1, 1, &from1, 1, MPI_INT, s1, 1, cart, MPI_STATUS_IGNORE);
    mt_ok(from0 == s0 && from1 == (s1 == MPI_PROC_NULL ? -7 : s1), "halo exchange: each rank got its neighbours' ranks");

    /* sub-grid: keep dimension 1 (the rows) */
    int remain[2] = {0, 1}, sr = -1, ss = -1;
    MPI_Comm row;
    mt_is_int(MPI_Cart_sub(cart, remain, &row), MPI_SUCCESS, "Cart_sub");
    MPI_Comm_rank(row, &sr);
    MPI_Comm_size(row, &ss);
    mt_ok(sr == gc[1] && ss == dims[1], "Cart_sub: rank %d of %d in my row", sr, ss);
    MPI_Cartdim_get(row, &nd);
    mt_is_int(nd, 1, "the row is a 1-d grid");
    MPI_Comm_free(&row);

    /* dup keeps the topology; map; a smaller grid leaves ranks out */
    MPI_Comm cd;
    MPI_Comm_dup(cart, &cd);
    MPI_Topo_test(cd, &t);
    mt_is_int(t, MPI_CART, "a dup of a Cartesian communicator is Cartesian");
    MPI_Comm_free(&cd);
    int one[1] = {size > 1 ? size - 1 : 1}, p1[1] = {0}, nr = -2;
    MPI_Cart_map(MPI_COMM_WORLD, 1, one, p1, &nr);
    mt_is_int(nr, rank < one[0] ? rank : MPI_UNDEFINED, "Cart_map");
    MPI_Comm small;
    MPI_Cart_create(MPI_COMM_WORLD, 1, one, p1, 0, &small);
    mt_ok(rank < one[0] ? small != MPI_COMM_NULL : small == MPI_COMM_NULL, "a grid smaller than the job leaves the last ranks out");
    if (small != MPI_COMM_NULL)
        MPI_Comm_free(&small);

    /* errors */
    int big[1] = {size + 1};
    MPI_Comm bad;
    mt_is_int(MPI_Cart_create(MPI_COMM_WORLD, 1, big, p1, 0, &bad), MPI_ERR_DIMS, "a grid larger than the job: MPI_ERR_DIMS");
    cc[0] = gc[0];
    cc[1] = dims[1];
    MPI_Comm_set_errhandler(cart, MPI_ERRORS_RETURN);
    mt_is_int(MPI_Cart_rank(cart, cc, &r), MPI_ERR_ARG, "outside a non-periodic dimension: MPI_ERR_ARG");
    mt_is_int(MPI_Cartdim_get(MPI_COMM_WORLD, &nd), MPI_ERR_TOPOLOGY, "no topology: MPI_ERR_TOPOLOGY");
    mt_is_int(MPI_Cart_shift(cart, 2, 1, &s0, &d0), MPI_ERR_ARG, "shift along a missing dimension: MPI_ERR_ARG");
    MPI_Comm_free(&cart);
    MPI_Finalize();
    return mt_done();
}

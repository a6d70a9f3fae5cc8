/* Cartesian process topologies: MPI_Cart_create, Cart_get, Cartdim_get,
 * Cart_coords, Cart_rank, Cart_shift, Cart_sub, Cart_map, and Topo_test.
 * Ranks are laid out row-major (the last dimension varies fastest), as the
 * standard says; reorder is allowed to be ignored and is. */
#include <limits.h>
#include <mpi.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/api/check.h"

static int attach(MPI_Comm comm, int ndims, const int *dims, const int *periods)
{
    struct rd_cart *c = malloc(sizeof(*c));
    int *mem = malloc(sizeof(int) * (size_t)(2 * ndims + 1));
    if (!c || !mem) {
        free(c);
        free(mem);
        return MPI_ERR_NO_MEM;
    }
    c->ndims = ndims;
    c->dims = mem;
    c->periods = mem + ndims;
    for (int i = 0; i < ndims; i++) {
        c->dims[i] = dims[i];
        c->periods[i] = periods[i] != 0;
    }
    comm->cart = c;
    return MPI_SUCCESS;
}

static int check_cart(const char *call, MPI_Comm comm)
{
    RD_TRY(rd_check_comm(call, comm));
    if (!comm->cart)
        return rd_err_raise(comm, MPI_ERR_TOPOLOGY, call, "the communicator has no Cartesian topology");
    return MPI_SUCCESS;
}

/* The number of ranks of a grid, or -1 if a dimension is not positive or
 * the product overflows. */
static long grid_size(int ndims, const int *dims)
{
    long n = 1;
    for (int i = 0; i < ndims; i++) {
        if (dims[i] <= 0 || n > INT_MAX / dims[i])
            return -1;
        n *= dims[i];
    }
    return n;
}

static void coords_of(const struct rd_cart *c, int rank, int *coords)
{
    for (int i = c->ndims - 1; i >= 0; i--) {
        coords[i] = rank % c->dims[i];
        rank /= c->dims[i];
    }
}

#pragma weak MPI_Cart_create = PMPI_Cart_create
int PMPI_Cart_create(MPI_Comm comm, int ndims, const int dims[], const int periods[], int reorder,
                     MPI_Comm *comm_cart)
{
    const char *call = "MPI_Cart_create";
    RD_API_READY(call);
    RD_TRY(rd_check_intra(call, comm));
    if (!comm_cart || ndims < 0 || (ndims > 0 && (!dims || !periods)))
        return rd_err_raise(comm, ndims < 0 ? MPI_ERR_DIMS : MPI_ERR_ARG, call,
                            ndims < 0 ? "ndims %d is negative" : "a NULL argument (ndims %d)", ndims);
    long n = grid_size(ndims, dims);
    if (n < 0)
        return rd_err_raise(comm, MPI_ERR_DIMS, call, "a dimension is not positive, or the grid is too large");
    if (n > comm->size)
        return rd_err_raise(comm, MPI_ERR_DIMS, call, "the grid needs %ld ranks, the communicator has %d", n,
                            comm->size);
    /* the first n ranks form the grid, in their order */
    RD_TRY(PMPI_Comm_split(comm, comm->rank < n ? 0 : MPI_UNDEFINED, comm->rank, comm_cart));
    if (*comm_cart == MPI_COMM_NULL)
        return MPI_SUCCESS;
    int rc = attach(*comm_cart, ndims, dims, periods);
    if (rc != MPI_SUCCESS) {
        PMPI_Comm_free(comm_cart);
        return rd_err_raise(comm, rc, call, "out of memory");
    }
    return MPI_SUCCESS;
}

#pragma weak MPI_Cartdim_get = PMPI_Cartdim_get
int PMPI_Cartdim_get(MPI_Comm comm, int *ndims)
{
    RD_API_READY("MPI_Cartdim_get");
    RD_TRY(check_cart("MPI_Cartdim_get", comm));
    if (!ndims)
        return rd_err_raise(comm, MPI_ERR_ARG, "MPI_Cartdim_get", "ndims is NULL");
    *ndims = comm->cart->ndims;
    return MPI_SUCCESS;
}

#pragma weak MPI_Cart_get = PMPI_Cart_get
int PMPI_Cart_get(MPI_Comm comm, int maxdims, int dims[], int periods[], int coords[])
{
    RD_API_READY("MPI_Cart_get");
    RD_TRY(check_cart("MPI_Cart_get", comm));
    const struct rd_cart *c = comm->cart;
    if (maxdims < c->ndims || (c->ndims > 0 && (!dims || !periods || !coords)))
        return rd_err_raise(comm, MPI_ERR_ARG, "MPI_Cart_get", "maxdims %d is below ndims %d, or an array is NULL",
                            maxdims, c->ndims);
    int *mine = malloc(sizeof(int) * (size_t)(c->ndims + 1));
    if (!mine)
        return rd_err_raise(comm, MPI_ERR_NO_MEM, "MPI_Cart_get", "out of memory");
    coords_of(c, comm->rank, mine);
    for (int i = 0; i < c->ndims; i++) {
        dims[i] = c->dims[i];
        periods[i] = c->periods[i];
        coords[i] = mine[i];
    }
    free(mine);
    return MPI_SUCCESS;
}

#pragma weak MPI_Cart_coords = PMPI_Cart_coords
int PMPI_Cart_coords(MPI_Comm comm, int rank, int maxdims, int coords[])
{
    RD_API_READY("MPI_Cart_coords");
    RD_TRY(check_cart("MPI_Cart_coords", comm));
    if (rank < 0 || rank >= comm->size)
        return rd_err_raise(comm, MPI_ERR_RANK, "MPI_Cart_coords", "rank %d is not in [0, %d)", rank, comm->size);
    if (maxdims < comm->cart->ndims || (comm->cart->ndims > 0 && !coords))
        return rd_err_raise(comm, MPI_ERR_ARG, "MPI_Cart_coords", "maxdims %d is below ndims %d, or coords is NULL",
                            maxdims, comm->cart->ndims);
    coords_of(comm->cart, rank, coords);
    return MPI_SUCCESS;
}

#pragma weak MPI_Cart_rank = PMPI_Cart_rank
int PMPI_Cart_rank(MPI_Comm comm, const int coords[], int *rank)
{
    RD_API_READY("MPI_Cart_rank");
    RD_TRY(check_cart("MPI_Cart_rank", comm));
    const struct rd_cart *c = comm->cart;
    if (!rank || (c->ndims > 0 && !coords))
        return rd_err_raise(comm, MPI_ERR_ARG, "MPI_Cart_rank", "a NULL argument");
    int r = 0;
    for (int i = 0; i < c->ndims; i++) {
        int x = coords[i];
        if (c->periods[i]) {
            x %= c->dims[i];
            if (x < 0)
                x += c->dims[i];
        } else if (x < 0 || x >= c->dims[i]) {
            return rd_err_raise(comm, MPI_ERR_ARG, "MPI_Cart_rank",
                                "coordinate %d of dimension %d is outside [0, %d) and the dimension is not periodic",
                                x, i, c->dims[i]);
        }
        r = r * c->dims[i] + x;
    }
    *rank = r;
    return MPI_SUCCESS;
}

#pragma weak MPI_Cart_shift = PMPI_Cart_shift
int PMPI_Cart_shift(MPI_Comm comm, int direction, int disp, int *source, int *dest)
{
    RD_API_READY("MPI_Cart_shift");
    RD_TRY(check_cart("MPI_Cart_shift", comm));
    const struct rd_cart *c = comm->cart;
    if (!source || !dest)
        return rd_err_raise(comm, MPI_ERR_ARG, "MPI_Cart_shift", "%s is NULL", source ? "rank_dest" : "rank_source");
    if (direction < 0 || direction >= c->ndims)
        return rd_err_raise(comm, MPI_ERR_ARG, "MPI_Cart_shift", "direction %d is not in [0, %d)", direction,
                            c->ndims);
    int *co = malloc(sizeof(int) * (size_t)c->ndims);
    if (!co)
        return rd_err_raise(comm, MPI_ERR_NO_MEM, "MPI_Cart_shift", "out of memory");
    int d = c->dims[direction];
    for (int k = 0; k < 2; k++) {
        coords_of(c, comm->rank, co);
        long x = (long)co[direction] + (k ? disp : -(long)disp);
        int *out = k ? dest : source;
        if (c->periods[direction]) {
            x %= d;
            if (x < 0)
                x += d;
        } else if (x < 0 || x >= d) {
            *out = MPI_PROC_NULL;
            continue;
        }
        co[direction] = (int)x;
        int r = 0;
        for (int i = 0; i < c->ndims; i++)
            r = r * c->dims[i] + co[i];
        *out = r;
    }
    free(co);
    return MPI_SUCCESS;
}

#pragma weak MPI_Cart_sub = PMPI_Cart_sub
int PMPI_Cart_sub(MPI_Comm comm, const int remain_dims[], MPI_Comm *newcomm)
{
    const char *call = "MPI_Cart_sub";
    RD_API_READY(call);
    RD_TRY(check_cart(call, comm));
    const struct rd_cart *c = comm->cart;
    if (!newcomm || (c->ndims > 0 && !remain_dims))
        return rd_err_raise(comm, MPI_ERR_ARG, call, "a NULL argument");
    int *co = malloc(sizeof(int) * (size_t)(c->ndims + 1)), *dims = malloc(sizeof(int) * (size_t)(c->ndims + 1));
    int *per = malloc(sizeof(int) * (size_t)(c->ndims + 1));
    if (!co || !dims || !per) {
        free(co);
        free(dims);
        free(per);
        return rd_err_raise(comm, MPI_ERR_NO_MEM, call, "out of memory");
    }
    coords_of(c, comm->rank, co);
    /* the dropped dimensions name the sub-grid (colour); the kept ones order it */
    int color = 0, key = 0, nd = 0;
    for (int i = 0; i < c->ndims; i++) {
        if (remain_dims[i]) {
            key = key * c->dims[i] + co[i];
            dims[nd] = c->dims[i];
            per[nd++] = c->periods[i];
        } else {
            color = color * c->dims[i] + co[i];
        }
    }
    int rc = PMPI_Comm_split(comm, color, key, newcomm);
    if (rc == MPI_SUCCESS) {
        rc = attach(*newcomm, nd, dims, per);
        if (rc != MPI_SUCCESS) {
            PMPI_Comm_free(newcomm);
            rc = rd_err_raise(comm, rc, call, "out of memory");
        }
    }
    free(co);
    free(dims);
    free(per);
    return rc;
}

#pragma weak MPI_Cart_map = PMPI_Cart_map
int PMPI_Cart_map(MPI_Comm comm, int ndims, const int dims[], const int periods[], int *newrank)
{
    RD_API_READY("MPI_Cart_map");
    RD_TRY(rd_check_intra("MPI_Cart_map", comm));
    if (!newrank || ndims < 0 || (ndims > 0 && !dims))
        return rd_err_raise(comm, MPI_ERR_ARG, "MPI_Cart_map", "a NULL or negative argument");
    long n = grid_size(ndims, dims);
    if (n < 0 || n > comm->size)
        return rd_err_raise(comm, MPI_ERR_DIMS, "MPI_Cart_map", "the grid does not fit in the communicator");
    *newrank = comm->rank < n ? comm->rank : MPI_UNDEFINED; /* no reordering */
    return MPI_SUCCESS;
}

#pragma weak MPI_Topo_test = PMPI_Topo_test
int PMPI_Topo_test(MPI_Comm comm, int *status)
{
    RD_API_READY("MPI_Topo_test");
    RD_TRY(rd_check_comm("MPI_Topo_test", comm));
    if (!status)
        return rd_err_raise(comm, MPI_ERR_ARG, "MPI_Topo_test", "status is NULL");
    *status = comm->cart ? MPI_CART : comm->graph ? MPI_GRAPH : comm->dgraph ? MPI_DIST_GRAPH : MPI_UNDEFINED;
    return MPI_SUCCESS;
}

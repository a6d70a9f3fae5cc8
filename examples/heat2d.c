/* heat2d.c - the 2-D heat equation by Jacobi iteration on a Cartesian grid
 * of ranks: halo exchange with MPI_Sendrecv (rows contiguous, columns as a
 * vector datatype), MPI_Allreduce for the residual and the checksum.
 *
 *   rrun -np 4 ./heat2d [N [STEPS]] [--check]
 *
 * The N x N plate is held at 0 on three sides and at 1 on its top edge. The
 * program prints the largest change in the last step (the residual), the
 * temperature at the centre and a checksum of every value's bits: all three
 * are exactly the same on any number of ranks (each point is computed by
 * the same arithmetic, and the reductions used are MAX and an integer sum).
 * --check also computes the plate serially on rank 0 and compares the bits. */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t bits(double x)
{
    uint64_t u;
    memcpy(&u, &x, sizeof u);
    return u;
}

/* Owned range of n points split p ways: [lo, hi) of part k. */
static void split(int n, int p, int k, int *lo, int *hi)
{
    *lo = (int)((long)n * k / p);
    *hi = (int)((long)n * (k + 1) / p);
}

/* One Jacobi step on rows x cols interior points of a (rows+2) x (cols+2)
 * array with halos; returns the largest change. */
static double step(const double *u, double *v, int rows, int cols)
{
    int w = cols + 2;
    double dmax = 0;
    for (int i = 1; i <= rows; i++)
        for (int j = 1; j <= cols; j++) {
            double x = u[i * w + j];
            double y = x + 0.25 * (u[(i - 1) * w + j] + u[(i + 1) * w + j] + u[i * w + j - 1] +
                                   u[i * w + j + 1] - 4.0 * x);
            v[i * w + j] = y;
            double d = y > x ? y - x : x - y;
            if (d > dmax)
                dmax = d;
        }
    return dmax;
}

/* The whole plate on one process: checksum of the bits after `steps`. */
static uint64_t serial(int n, int steps, double *centre)
{
    int w = n + 2;
    double *u = calloc((size_t)w * w, sizeof(double)), *v = calloc((size_t)w * w, sizeof(double));
    if (!u || !v)
        abort();
    for (int j = 0; j < w; j++)
        u[j] = v[j] = 1.0;
    for (int s = 0; s < steps; s++) {
        step(u, v, n, n);
        double *t = u;
        u = v;
        v = t;
    }
    uint64_t sum = 0;
    for (int i = 1; i <= n; i++)
        for (int j = 1; j <= n; j++)
            sum += bits(u[i * w + j]);
    *centre = u[(n / 2 + 1) * w + n / 2 + 1];
    free(u);
    free(v);
    return sum;
}

int main(int argc, char **argv)
{
    int n = 256, steps = 2000, check = 0, npos = 0;
    MPI_Init(&argc, &argv);
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--check") == 0)
            check = 1;
        else if (npos++ == 0)
            n = atoi(argv[i]);
        else
            steps = atoi(argv[i]);
    }
    int size, rank;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int dims[2] = {0, 0}, periods[2] = {0, 0}, coords[2];
    MPI_Dims_create(size, 2, dims);
    if (n < dims[0] || n < dims[1]) {
        fprintf(stderr, "heat2d: the plate (%d) is smaller than the grid of ranks (%d x %d)\n", n, dims[0],
                dims[1]);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    MPI_Comm grid;
    MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &grid);
    MPI_Comm_rank(grid, &rank);
    MPI_Cart_coords(grid, rank, 2, coords);
    int up, down, left, right;
    MPI_Cart_shift(grid, 0, 1, &up, &down);
    MPI_Cart_shift(grid, 1, 1, &left, &right);

    int r0, r1, c0, c1;
    split(n, dims[0], coords[0], &r0, &r1);
    split(n, dims[1], coords[1], &c0, &c1);
    int rows = r1 - r0, cols = c1 - c0, w = cols + 2;
    double *u = calloc((size_t)(rows + 2) * w, sizeof(double));
    double *v = calloc((size_t)(rows + 2) * w, sizeof(double));
    if (!u || !v)
        MPI_Abort(MPI_COMM_WORLD, 1);
    if (r0 == 0) /* the hot edge is the halo row above global row 0 */
        for (int j = 0; j < w; j++)
            u[j] = v[j] = 1.0;

    /* a column of the interior: rows values, one per row */
    MPI_Datatype column;
    MPI_Type_vector(rows, 1, w, MPI_DOUBLE, &column);
    MPI_Type_commit(&column);

    double t0 = MPI_Wtime(), dmax = 0;
    for (int s = 0; s < steps; s++) {
        MPI_Sendrecv(&u[1 * w + 1], cols, MPI_DOUBLE, up, 0, &u[(rows + 1) * w + 1], cols, MPI_DOUBLE, down, 0,
                     grid, MPI_STATUS_IGNORE);
        MPI_Sendrecv(&u[rows * w + 1], cols, MPI_DOUBLE, down, 1, &u[0 * w + 1], cols, MPI_DOUBLE, up, 1, grid,
                     MPI_STATUS_IGNORE);
        MPI_Sendrecv(&u[1 * w + 1], 1, column, left, 2, &u[1 * w + cols + 1], 1, column, right, 2, grid,
                     MPI_STATUS_IGNORE);
        MPI_Sendrecv(&u[1 * w + cols], 1, column, right, 3, &u[1 * w + 0], 1, column, left, 3, grid,
                     MPI_STATUS_IGNORE);
        double local = step(u, v, rows, cols);
        /* halos and the fixed edge come along to v */
        double *t = u;
        u = v;
        v = t;
        if (s == steps - 1)
            MPI_Allreduce(&local, &dmax, 1, MPI_DOUBLE, MPI_MAX, grid);
    }
    double elapsed = MPI_Wtime() - t0;

    uint64_t mine = 0, sum = 0;
    for (int i = 1; i <= rows; i++)
        for (int j = 1; j <= cols; j++)
            mine += bits(u[i * w + j]);
    MPI_Allreduce(&mine, &sum, 1, MPI_UINT64_T, MPI_SUM, grid);
    /* the centre point (n/2, n/2) lives on one rank */
    double centre = 0, c_local = 0;
    int ci = n / 2, cj = n / 2;
    if (ci >= r0 && ci < r1 && cj >= c0 && cj < c1)
        c_local = u[(ci - r0 + 1) * w + (cj - c0 + 1)];
    MPI_Allreduce(&c_local, &centre, 1, MPI_DOUBLE, MPI_SUM, grid);
    double tmax;
    MPI_Reduce(&elapsed, &tmax, 1, MPI_DOUBLE, MPI_MAX, 0, grid);

    int status = 0;
    if (rank == 0) {
        printf("heat2d: %d x %d plate, %d steps on %d ranks (%d x %d)\n", n, n, steps, size, dims[0], dims[1]);
        printf("residual %.17g centre %.17g checksum %016llx\n", dmax, centre, (unsigned long long)sum);
        printf("time %.3f s\n", tmax);
        if (check) {
            double sc;
            uint64_t ss = serial(n, steps, &sc);
            int same = ss == sum && bits(sc) == bits(centre);
            printf("serial check: %s\n", same ? "identical" : "DIFFERENT");
            status = !same;
        }
    }
    MPI_Bcast(&status, 1, MPI_INT, 0, grid);
    MPI_Type_free(&column);
    MPI_Comm_free(&grid);
    free(u);
    free(v);
    MPI_Finalize();
    return status;
}

/* hydro3d.c - a proxy of an explicit Lagrangian shock-hydrodynamics code on
 * a cube of subdomains: the communication and the shape of the work of
 * codes such as LULESH, with arithmetic of its own.
 *
 *   rrun -np 8 ./hydro3d [-s SIZE] [-i STEPS] [-p EVERY]
 *
 * The ranks (a cube: 1, 8, 27, ...) hold SIZE^3 hexahedral elements each
 * (default 20) and the (SIZE+1)^3 nodes around them; nodes on a face, edge
 * or corner between subdomains are held by every rank that touches them.
 * Each time step:
 *
 *   1. MPI_Allreduce(MPI_MIN) of the time step every rank allows;
 *   2. forces on the nodes from each element's pressure and an hourglass
 *      damping (the heavy loop); the partial sums at shared nodes are
 *      exchanged with all 26 neighbours and added (3 fields);
 *   3. velocities and positions; shared nodes exchanged (6 fields);
 *   4. volumes and velocity gradients of the elements; the gradients of the
 *      elements along each face go to the 6 face neighbours (3 fields), for
 *      a limited artificial viscosity;
 *   5. energy, pressure and sound speed (equation of state), and the time
 *      step this rank allows (Courant and volume-change limits).
 *
 * Every exchange goes the way such codes do it: MPI_Irecv for every
 * neighbour first (before the computation that produces the data), then
 * pack and MPI_Isend to each, MPI_Waitall on the sends, then MPI_Wait on
 * each receive in turn and unpack. Faces carry about SIZE^2 values per
 * field, edges SIZE, corners 1.
 *
 * The result does not depend on the number of ranks, nor on anything the
 * run's timing could change: partial forces are summed as 64-bit fixed-point
 * integers (exact in any order), shared values are identical on every rank
 * that holds them, and the time step is a minimum. The closing checksum
 * (every element's and every node's values, each counted once) is therefore
 * the same bits on 1 rank and on 8, in any run: a wrong byte delivered
 * anywhere changes it. -p EVERY prints the step, the simulated time and the
 * seconds elapsed every EVERY steps (rank 0; a run's progress). */
#include <math.h>
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MSG_FORCE = 1024, MSG_POSVEL = 2048, MSG_GRAD = 3072 };

#define GAMMA 1.4
#define EMIN 1e-12
#define PMIN 1e-12
#define SSMIN 1e-6
#define UCUT 1e-9       /* velocities below this are zero */
#define QLIN 0.5        /* artificial viscosity: linear and quadratic */
#define QQUAD 1.5
#define HGCOEF 0.05     /* hourglass damping */
#define CFL 0.4
#define DVMAX 0.1       /* largest relative volume change per step */
#define FIX 17592186044416.0 /* 2^44: fixed-point scale of the partial forces */
#define FIXMAX 131072.0      /* 2^17: a partial force beyond it is clamped */

struct nbr {
    int rank;          /* -1: none (the global boundary) */
    int d[3];          /* direction, each -1, 0 or 1 */
    int nn, *nodes;    /* shared nodes, in an order both sides agree on */
    int face;          /* a face neighbour: 0..5 (axis * 2 + (d > 0)), else -1 */
    int ne, *elems;    /* face neighbours: the layer of elements along it */
    double *sbuf, *rbuf;
    MPI_Request sreq, rreq;
};

struct dom {
    int s, n, p, rank, size, c[3];
    long nnode, nelem;
    double h;
    /* nodes */
    double *x[3], *u[3], *mass;
    int64_t *fsum[3];
    unsigned char *sym; /* bit a: the node lies on the symmetry plane of axis a */
    /* elements */
    double *e, *pr, *q, *v, *vnew, *volo, *emass, *ss, *grad[3], *len[3], *vdov;
    double *ghost[6]; /* the face neighbours' gradients, 3 fields each */
    struct nbr nb[26];
    int face_nb[6]; /* the neighbour across each face, or -1 */
};

static long nid(const struct dom *D, int i, int j, int k)
{
    return ((long)k * D->n + j) * D->n + i;
}

static long eid(const struct dom *D, int i, int j, int k)
{
    return ((long)k * D->s + j) * D->s + i;
}

static void *xcalloc(size_t n, size_t sz)
{
    void *p = calloc(n ? n : 1, sz);
    if (!p) {
        fprintf(stderr, "hydro3d: out of memory\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    return p;
}

/* ------------------------------------------------------------ geometry */

/* The 8 nodes of element (i, j, k): corner c = bx + 2 by + 4 bz. */
static void corners(const struct dom *D, int i, int j, int k, long *nd)
{
    for (int c = 0; c < 8; c++)
        nd[c] = nid(D, i + (c & 1), j + ((c >> 1) & 1), k + ((c >> 2) & 1));
}

static void cross(const double *a, const double *b, double *r)
{
    r[0] = a[1] * b[2] - a[2] * b[1];
    r[1] = a[2] * b[0] - a[0] * b[2];
    r[2] = a[0] * b[1] - a[1] * b[0];
}

/* Volume of a hexahedron with corners X[c][3], as six tetrahedra around the
 * diagonal from corner 0 to corner 7 (one per order of the three axes), and,
 * when G is not NULL, its gradient with respect to each corner: a pressure p
 * pushes corner c with the force p G[c]. */
static const int tet_path[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
static const double tet_sign[6] = {1, -1, -1, 1, 1, -1};

static double hex_volume(double X[8][3], double G[8][3])
{
    double vol = 0;
    if (G)
        memset(G, 0, 8 * 3 * sizeof(double));
    for (int t = 0; t < 6; t++) {
        int a = 1 << tet_path[t][0], b = a | (1 << tet_path[t][1]);
        double e1[3], e2[3], e3[3], c23[3], c31[3], c12[3];
        for (int d = 0; d < 3; d++) {
            e1[d] = X[a][d] - X[0][d];
            e2[d] = X[b][d] - X[a][d];
            e3[d] = X[7][d] - X[b][d];
        }
        cross(e2, e3, c23);
        double det = e1[0] * c23[0] + e1[1] * c23[1] + e1[2] * c23[2];
        double w = tet_sign[t] / 6.0;
        vol += w * det;
        if (G) {
            cross(e3, e1, c31);
            cross(e1, e2, c12);
            for (int d = 0; d < 3; d++) {
                G[0][d] -= w * c23[d];
                G[a][d] += w * (c23[d] - c31[d]);
                G[b][d] += w * (c31[d] - c12[d]);
                G[7][d] += w * c12[d];
            }
        }
    }
    return vol;
}

/* The hourglass patterns of a hexahedron: the products of the corners'
 * signs along two or three axes (the linear fields are the others). */
static double hg[4][8];

static void init_hourglass(void)
{
    for (int c = 0; c < 8; c++) {
        double sx = (c & 1) ? 1 : -1, sy = (c & 2) ? 1 : -1, sz = (c & 4) ? 1 : -1;
        hg[0][c] = sx * sy;
        hg[1][c] = sy * sz;
        hg[2][c] = sx * sz;
        hg[3][c] = sx * sy * sz;
    }
}

/* ------------------------------------------------------------ exchanges */

/* Post a receive from every neighbour (face neighbours only when
 * faces_only) for `fields` values per shared item. */
static void post_recvs(struct dom *D, int tag, int fields, int faces_only)
{
    for (int m = 0; m < 26; m++) {
        struct nbr *B = &D->nb[m];
        B->rreq = MPI_REQUEST_NULL;
        if (B->rank < 0 || (faces_only && B->face < 0))
            continue;
        int cnt = (faces_only ? B->ne : B->nn) * fields;
        MPI_Irecv(B->rbuf, cnt, MPI_DOUBLE, B->rank, tag, MPI_COMM_WORLD, &B->rreq);
    }
}

/* Pack what each neighbour gets and send it; wait for the sends. */
static void send_all(struct dom *D, int tag)
{
    MPI_Request req[26];
    MPI_Status st[26];
    int nreq = 0;
    for (int m = 0; m < 26; m++) {
        struct nbr *B = &D->nb[m];
        if (B->rank < 0 || (tag == MSG_GRAD && B->face < 0))
            continue;
        int cnt = 0;
        if (tag == MSG_FORCE) {
            /* the fixed-point integers travel in the doubles' bytes */
            for (int a = 0; a < 3; a++)
                for (int t = 0; t < B->nn; t++)
                    memcpy(&B->sbuf[cnt++], &D->fsum[a][B->nodes[t]], sizeof(double));
        } else if (tag == MSG_POSVEL) {
            for (int a = 0; a < 3; a++)
                for (int t = 0; t < B->nn; t++)
                    B->sbuf[cnt++] = D->x[a][B->nodes[t]];
            for (int a = 0; a < 3; a++)
                for (int t = 0; t < B->nn; t++)
                    B->sbuf[cnt++] = D->u[a][B->nodes[t]];
        } else {
            for (int a = 0; a < 3; a++)
                for (int t = 0; t < B->ne; t++)
                    B->sbuf[cnt++] = D->grad[a][B->elems[t]];
        }
        MPI_Isend(B->sbuf, cnt, MPI_DOUBLE, B->rank, tag, MPI_COMM_WORLD, &req[nreq++]);
    }
    MPI_Waitall(nreq, req, st);
}

/* Wait for each neighbour's message in turn and take it in. */
static void recv_all(struct dom *D, int tag)
{
    /* the partial sums sent were this rank's own: add the others' only
     * after every message is packed (send_all ran first) */
    for (int m = 0; m < 26; m++) {
        struct nbr *B = &D->nb[m];
        if (B->rreq == MPI_REQUEST_NULL)
            continue;
        MPI_Wait(&B->rreq, MPI_STATUS_IGNORE);
        int cnt = 0;
        if (tag == MSG_FORCE) {
            for (int a = 0; a < 3; a++)
                for (int t = 0; t < B->nn; t++) {
                    int64_t f;
                    memcpy(&f, &B->rbuf[cnt++], sizeof f);
                    D->fsum[a][B->nodes[t]] += f;
                }
        } else if (tag == MSG_POSVEL) {
            for (int a = 0; a < 3; a++)
                for (int t = 0; t < B->nn; t++)
                    D->x[a][B->nodes[t]] = B->rbuf[cnt++];
            for (int a = 0; a < 3; a++)
                for (int t = 0; t < B->nn; t++)
                    D->u[a][B->nodes[t]] = B->rbuf[cnt++];
        } else {
            memcpy(D->ghost[B->face], B->rbuf, (size_t)3 * B->ne * sizeof(double));
        }
    }
}

/* ------------------------------------------------------------ set-up */

static void setup(struct dom *D, int s, int p, int rank)
{
    memset(D, 0, sizeof *D);
    D->s = s;
    D->n = s + 1;
    D->p = p;
    D->rank = rank;
    D->size = p * p * p;
    D->c[0] = rank % p;
    D->c[1] = (rank / p) % p;
    D->c[2] = rank / (p * p);
    D->nnode = (long)D->n * D->n * D->n;
    D->nelem = (long)s * s * s;
    D->h = 1.125 / (s * p);
    for (int a = 0; a < 3; a++) {
        D->x[a] = xcalloc(D->nnode, sizeof(double));
        D->u[a] = xcalloc(D->nnode, sizeof(double));
        D->fsum[a] = xcalloc(D->nnode, sizeof(int64_t));
        D->grad[a] = xcalloc(D->nelem, sizeof(double));
        D->len[a] = xcalloc(D->nelem, sizeof(double));
    }
    D->mass = xcalloc(D->nnode, sizeof(double));
    D->sym = xcalloc(D->nnode, 1);
    double **ef[] = {&D->e, &D->pr, &D->q, &D->v, &D->vnew, &D->volo, &D->emass, &D->ss, &D->vdov};
    for (size_t t = 0; t < sizeof ef / sizeof ef[0]; t++)
        *ef[t] = xcalloc(D->nelem, sizeof(double));
    for (int f = 0; f < 6; f++) {
        D->ghost[f] = xcalloc((size_t)3 * s * s, sizeof(double));
        D->face_nb[f] = -1;
    }

    /* neighbours, in a fixed order (faces, edges and corners mixed: the
     * order of m) */
    for (int m = 0, k = 0; m < 27; m++) {
        int d[3] = {m % 3 - 1, (m / 3) % 3 - 1, m / 9 - 1};
        if (!d[0] && !d[1] && !d[2])
            continue;
        struct nbr *B = &D->nb[k++];
        memcpy(B->d, d, sizeof d);
        int nc[3], lo[3], hi[3], zeros = 0;
        for (int a = 0; a < 3; a++) {
            nc[a] = D->c[a] + d[a];
            lo[a] = d[a] > 0 ? s : 0;
            hi[a] = d[a] < 0 ? 0 : s;
            zeros += d[a] == 0;
        }
        B->rank = -1;
        B->face = -1;
        if (nc[0] < 0 || nc[0] >= p || nc[1] < 0 || nc[1] >= p || nc[2] < 0 || nc[2] >= p)
            continue;
        B->rank = (nc[2] * p + nc[1]) * p + nc[0];
        B->nn = (hi[0] - lo[0] + 1) * (hi[1] - lo[1] + 1) * (hi[2] - lo[2] + 1);
        B->nodes = xcalloc(B->nn, sizeof(int));
        int t = 0;
        for (int kk = lo[2]; kk <= hi[2]; kk++)
            for (int jj = lo[1]; jj <= hi[1]; jj++)
                for (int ii = lo[0]; ii <= hi[0]; ii++)
                    B->nodes[t++] = (int)nid(D, ii, jj, kk);
        int items = B->nn;
        if (zeros == 2) {
            int a = d[0] ? 0 : d[1] ? 1 : 2;
            B->face = a * 2 + (d[a] > 0);
            B->ne = s * s;
            B->elems = xcalloc(B->ne, sizeof(int));
            int elo[3], ehi[3];
            for (int b = 0; b < 3; b++) {
                elo[b] = d[b] > 0 ? s - 1 : 0;
                ehi[b] = d[b] < 0 ? 0 : s - 1;
            }
            t = 0;
            for (int kk = elo[2]; kk <= ehi[2]; kk++)
                for (int jj = elo[1]; jj <= ehi[1]; jj++)
                    for (int ii = elo[0]; ii <= ehi[0]; ii++)
                        B->elems[t++] = (int)eid(D, ii, jj, kk);
            D->face_nb[B->face] = B->rank;
        }
        items = 6 * items; /* the largest message: positions and velocities */
        B->sbuf = xcalloc(items, sizeof(double));
        B->rbuf = xcalloc(items, sizeof(double));
    }

    /* a uniform mesh; a smooth bump of energy at the origin (a blast) */
    for (int k = 0; k <= s; k++)
        for (int j = 0; j <= s; j++)
            for (int i = 0; i <= s; i++) {
                long g[3] = {(long)D->c[0] * s + i, (long)D->c[1] * s + j, (long)D->c[2] * s + k};
                long nd = nid(D, i, j, k);
                for (int a = 0; a < 3; a++) {
                    D->x[a][nd] = g[a] * D->h;
                    if (g[a] == 0)
                        D->sym[nd] |= (unsigned char)(1 << a);
                }
            }
    double sigma = 0.15;
    for (int k = 0; k < s; k++)
        for (int j = 0; j < s; j++)
            for (int i = 0; i < s; i++) {
                long el = eid(D, i, j, k);
                double r2 = 0;
                int g[3] = {D->c[0] * s + i, D->c[1] * s + j, D->c[2] * s + k};
                for (int a = 0; a < 3; a++) {
                    double xc = (g[a] + 0.5) * D->h;
                    r2 += xc * xc;
                }
                double X[8][3];
                long nd[8];
                corners(D, i, j, k, nd);
                for (int c = 0; c < 8; c++)
                    for (int a = 0; a < 3; a++)
                        X[c][a] = D->x[a][nd[c]];
                D->volo[el] = hex_volume(X, NULL);
                D->v[el] = 1.0;
                D->emass[el] = D->volo[el]; /* density 1 */
                D->e[el] = 1e-3 + 2.0 * exp(-r2 / (sigma * sigma));
                D->pr[el] = (GAMMA - 1) * D->e[el];
                D->ss[el] = sqrt(GAMMA * D->pr[el]);
                /* an eighth of the element's mass to each corner (fixed
                 * point, summed with the neighbours' below) */
                for (int c = 0; c < 8; c++)
                    D->fsum[0][nd[c]] += (int64_t)llrint(D->emass[el] / 8 * FIX * 1024);
            }
    /* nodal masses: this rank's elements and the neighbours' */
    post_recvs(D, MSG_FORCE, 3, 0);
    send_all(D, MSG_FORCE);
    recv_all(D, MSG_FORCE);
    for (long nd = 0; nd < D->nnode; nd++) {
        D->mass[nd] = (double)D->fsum[0][nd] / (FIX * 1024);
        D->fsum[0][nd] = 0;
    }
}

/* ------------------------------------------------------------ the physics */

static int64_t to_fix(double f)
{
    if (f > FIXMAX)
        f = FIXMAX;
    else if (f < -FIXMAX)
        f = -FIXMAX;
    return (int64_t)llrint(f * FIX);
}

/* Forces: pressure and viscosity through each corner's volume gradient, and
 * the hourglass damping of the velocities' hourglass patterns. Summed at
 * the nodes in fixed point. */
static void forces(struct dom *D)
{
    int s = D->s;
    for (int a = 0; a < 3; a++)
        memset(D->fsum[a], 0, D->nnode * sizeof(int64_t));
    for (int k = 0; k < s; k++)
        for (int j = 0; j < s; j++)
            for (int i = 0; i < s; i++) {
                long el = eid(D, i, j, k), nd[8];
                double X[8][3], U[8][3], G[8][3], F[8][3];
                corners(D, i, j, k, nd);
                for (int c = 0; c < 8; c++)
                    for (int a = 0; a < 3; a++) {
                        X[c][a] = D->x[a][nd[c]];
                        U[c][a] = D->u[a][nd[c]];
                    }
                double vol = hex_volume(X, G);
                double sig = D->pr[el] + D->q[el];
                for (int c = 0; c < 8; c++)
                    for (int a = 0; a < 3; a++)
                        F[c][a] = sig * G[c][a];
                /* hourglass: damp each pattern of each velocity component,
                 * scaled by the element's density, sound speed and area */
                double rho = D->emass[el] / vol;
                double area = 0;
                for (int c = 0; c < 8; c++)
                    area += G[c][0] * G[c][0] + G[c][1] * G[c][1] + G[c][2] * G[c][2];
                double coef = -HGCOEF * rho * D->ss[el] * sqrt(area) / 8;
                for (int m = 0; m < 4; m++)
                    for (int a = 0; a < 3; a++) {
                        double amp = 0;
                        for (int c = 0; c < 8; c++)
                            amp += hg[m][c] * U[c][a];
                        amp *= coef;
                        for (int c = 0; c < 8; c++)
                            F[c][a] += amp * hg[m][c];
                    }
                for (int c = 0; c < 8; c++)
                    for (int a = 0; a < 3; a++)
                        D->fsum[a][nd[c]] += to_fix(F[c][a]);
            }
}

static void move_nodes(struct dom *D, double dt)
{
    for (long nd = 0; nd < D->nnode; nd++)
        for (int a = 0; a < 3; a++) {
            double acc = ((double)D->fsum[a][nd] / FIX) / D->mass[nd];
            double u = D->u[a][nd] + acc * dt;
            if ((D->sym[nd] >> a) & 1) /* symmetry plane: no normal motion */
                u = 0;
            if (fabs(u) < UCUT)
                u = 0;
            D->u[a][nd] = u;
            D->x[a][nd] += u * dt;
        }
}

/* New volumes; the velocity gradient along each of the element's axes
 * (from the mean velocity and position of the faces across it). */
static int kinematics(struct dom *D, double dt)
{
    int s = D->s, bad = 0;
    for (int k = 0; k < s; k++)
        for (int j = 0; j < s; j++)
            for (int i = 0; i < s; i++) {
                long el = eid(D, i, j, k), nd[8];
                double X[8][3], U[8][3];
                corners(D, i, j, k, nd);
                for (int c = 0; c < 8; c++)
                    for (int a = 0; a < 3; a++) {
                        X[c][a] = D->x[a][nd[c]];
                        U[c][a] = D->u[a][nd[c]];
                    }
                double vol = hex_volume(X, NULL);
                double vn = vol / D->volo[el];
                if (!(vn > 0))
                    bad = 1;
                D->vnew[el] = vn;
                D->vdov[el] = (vn - D->v[el]) / (vn * dt);
                for (int ax = 0; ax < 3; ax++) {
                    double dx[3] = {0, 0, 0}, du[3] = {0, 0, 0};
                    for (int c = 0; c < 8; c++) {
                        double sg = ((c >> ax) & 1) ? 0.25 : -0.25;
                        for (int a = 0; a < 3; a++) {
                            dx[a] += sg * X[c][a];
                            du[a] += sg * U[c][a];
                        }
                    }
                    double l2 = dx[0] * dx[0] + dx[1] * dx[1] + dx[2] * dx[2];
                    D->grad[ax][el] = (du[0] * dx[0] + du[1] * dx[1] + du[2] * dx[2]) / l2;
                    D->len[ax][el] = sqrt(l2);
                }
            }
    return bad;
}

/* The gradient of the neighbour of element (i, j, k) across face f, from
 * this rank, a face neighbour's ghost layer, or the element itself at the
 * edge of the problem. */
static double grad_across(const struct dom *D, int i, int j, int k, int ax, int up)
{
    int g[3] = {i, j, k}, s = D->s;
    g[ax] += up ? 1 : -1;
    if (g[ax] >= 0 && g[ax] < s)
        return D->grad[ax][eid(D, g[0], g[1], g[2])];
    if (D->face_nb[ax * 2 + up] < 0)
        return D->grad[ax][eid(D, i, j, k)];
    /* the ghost layer: 3 fields, each in the neighbour's order of the
     * layer (the other two axes, the outer one first) */
    int t = ax == 0 ? k * s + j : ax == 1 ? k * s + i : j * s + i;
    return D->ghost[ax * 2 + up][(size_t)ax * s * s + t];
}

/* Artificial viscosity, limited where the flow is smooth (the gradients
 * on both sides agree), then the energy, pressure and sound speed, and the
 * time step this rank allows. */
static double materials(struct dom *D, double dt_prev)
{
    int s = D->s;
    double dtmin = 1e20;
    for (int k = 0; k < s; k++)
        for (int j = 0; j < s; j++)
            for (int i = 0; i < s; i++) {
                long el = eid(D, i, j, k);
                double vn = D->vnew[el], rho = D->emass[el] / (vn * D->volo[el]);
                double qlin = 0, qquad = 0, lmin = 1e20;
                for (int ax = 0; ax < 3; ax++) {
                    double gv = D->grad[ax][el], l = D->len[ax][el];
                    if (l < lmin)
                        lmin = l;
                    double gm = grad_across(D, i, j, k, ax, 0), gp = grad_across(D, i, j, k, ax, 1);
                    double norm = 1.0 / (gv + (gv >= 0 ? 1e-36 : -1e-36));
                    double phi = 0.5 * (gm + gp) * norm;
                    gm *= norm;
                    gp *= norm;
                    if (2 * gm < phi)
                        phi = 2 * gm;
                    if (2 * gp < phi)
                        phi = 2 * gp;
                    if (phi > 2)
                        phi = 2;
                    if (phi < 0)
                        phi = 0;
                    if (phi > 1)
                        phi = 1;
                    double w = gv * l;
                    if (w > 0)
                        w = 0;
                    qlin += -w * (1 - phi);
                    qquad += w * w * (1 - phi * phi);
                }
                double q = D->vdov[el] < 0 ? rho * (QLIN * D->ss[el] * qlin + QQUAD * qquad) : 0;
                /* energy: predictor with the old pressure, corrector with
                 * the mean of old and new */
                double dvol = (vn - D->v[el]) * D->volo[el], m = D->emass[el];
                double e1 = D->e[el] - (D->pr[el] + q) * dvol / m;
                if (e1 < EMIN)
                    e1 = EMIN;
                double p1 = (GAMMA - 1) * rho * e1;
                double e2 = D->e[el] - (0.5 * (D->pr[el] + p1) + q) * dvol / m;
                if (e2 < EMIN)
                    e2 = EMIN;
                double p2 = (GAMMA - 1) * rho * e2;
                if (p2 < PMIN)
                    p2 = PMIN;
                double c2 = GAMMA * p2 / rho;
                double ss = c2 > SSMIN * SSMIN ? sqrt(c2) : SSMIN;
                D->e[el] = e2;
                D->pr[el] = p2;
                D->q[el] = q;
                D->ss[el] = ss;
                D->v[el] = vn;
                /* Courant, with the viscosity's speed where compressed */
                double vd = D->vdov[el], sp2 = ss * ss;
                if (vd < 0)
                    sp2 += 4 * QQUAD * QQUAD * lmin * lmin * vd * vd;
                double dtc = CFL * lmin / sqrt(sp2);
                if (dtc < dtmin)
                    dtmin = dtc;
                if (vd != 0) {
                    double dth = DVMAX / fabs(vd);
                    if (dth < dtmin)
                        dtmin = dth;
                }
            }
    double grow = 1.2 * dt_prev;
    return dtmin < grow ? dtmin : grow;
}

/* ------------------------------------------------------------ checksum */

static uint64_t mix(uint64_t z)
{
    z += 0x9e3779b97f4a7c15ull;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static uint64_t bits(double d)
{
    uint64_t b;
    memcpy(&b, &d, sizeof b);
    return b;
}

/* Every element once and every node once (a shared node by the rank with
 * the lowest coordinates that holds it), each value tied to its global
 * index: a sum, so the order of ranks does not matter. */
static uint64_t local_checksum(const struct dom *D)
{
    uint64_t sum = 0;
    long G = (long)D->s * D->p, GN = G + 1;
    for (int k = 0; k < D->s; k++)
        for (int j = 0; j < D->s; j++)
            for (int i = 0; i < D->s; i++) {
                long el = eid(D, i, j, k);
                uint64_t g = (uint64_t)((((long)D->c[2] * D->s + k) * G + (long)D->c[1] * D->s + j) * G +
                                        (long)D->c[0] * D->s + i);
                sum += mix(g * 4 + 0 + (bits(D->e[el]) << 20));
                sum += mix(g * 4 + 1 + (bits(D->v[el]) << 20));
                sum += mix(g * 4 + 2 + (bits(D->q[el]) << 20));
                sum += mix(g * 4 + 3 + (bits(D->pr[el]) << 20)) ^ bits(D->pr[el]);
            }
    for (int k = 0; k <= D->s; k++)
        for (int j = 0; j <= D->s; j++)
            for (int i = 0; i <= D->s; i++) {
                int l[3] = {i, j, k}, own = 1;
                for (int a = 0; a < 3; a++)
                    if (l[a] == D->s && D->c[a] < D->p - 1)
                        own = 0;
                if (!own)
                    continue;
                long nd = nid(D, i, j, k);
                uint64_t g = (uint64_t)((((long)D->c[2] * D->s + k) * GN + (long)D->c[1] * D->s + j) * GN +
                                        (long)D->c[0] * D->s + i);
                for (int a = 0; a < 3; a++) {
                    sum += mix((g * 8 + (uint64_t)a) ^ bits(D->x[a][nd]));
                    sum += mix((g * 8 + 4 + (uint64_t)a) ^ bits(D->u[a][nd]));
                }
            }
    return sum;
}

int main(int argc, char **argv)
{
    int s = 20, steps = 600, every = 0, rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    for (int i = 1; i < argc; i++) {
        if (i + 1 < argc && strcmp(argv[i], "-s") == 0)
            s = atoi(argv[++i]);
        else if (i + 1 < argc && strcmp(argv[i], "-i") == 0)
            steps = atoi(argv[++i]);
        else if (i + 1 < argc && strcmp(argv[i], "-p") == 0)
            every = atoi(argv[++i]);
        else {
            if (rank == 0)
                fprintf(stderr, "usage: hydro3d [-s SIZE] [-i STEPS] [-p EVERY]\n");
            MPI_Abort(MPI_COMM_WORLD, 2);
        }
    }
    int p = 1;
    while ((p + 1) * (p + 1) * (p + 1) <= size)
        p++;
    if (p * p * p != size || s < 2 || steps < 1) {
        if (rank == 0)
            fprintf(stderr, "hydro3d: needs a cube number of ranks (1, 8, 27, ...), SIZE >= 2 and "
                            "STEPS >= 1 (got %d ranks, SIZE %d, STEPS %d)\n", size, s, steps);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    init_hourglass();
    struct dom D;
    setup(&D, s, p, rank);

    double t0 = MPI_Wtime(), time = 0, dt = 1e-7, dt_mine = 1e-7;
    if (rank == 0)
        printf("hydro3d: %d ranks (%d^3), %d^3 elements each, %d steps\n", size, p, s, steps);
    for (int step = 1; step <= steps; step++) {
        /* 1: the time step everyone allows */
        MPI_Allreduce(&dt_mine, &dt, 1, MPI_DOUBLE, MPI_MIN, MPI_COMM_WORLD);
        /* 2: forces; the receives of this phase and of the next are posted
         * before the work, as the codes this imitates do */
        post_recvs(&D, MSG_FORCE, 3, 0);
        forces(&D);
        send_all(&D, MSG_FORCE);
        recv_all(&D, MSG_FORCE);
        /* 3: nodes */
        post_recvs(&D, MSG_POSVEL, 6, 0);
        move_nodes(&D, dt);
        send_all(&D, MSG_POSVEL);
        recv_all(&D, MSG_POSVEL);
        /* 4: volumes and gradients; the gradients across the faces */
        post_recvs(&D, MSG_GRAD, 3, 1);
        if (kinematics(&D, dt)) {
            fprintf(stderr, "hydro3d: rank %d: an element turned inside out at step %d\n", rank, step);
            MPI_Abort(MPI_COMM_WORLD, 3);
        }
        send_all(&D, MSG_GRAD);
        recv_all(&D, MSG_GRAD);
        /* 5: materials and the next time step */
        dt_mine = materials(&D, dt);
        time += dt;
        if (every > 0 && step % every == 0 && rank == 0) {
            printf("step %d time %.6e dt %.6e elapsed %.3f\n", step, time, dt, MPI_Wtime() - t0);
            fflush(stdout);
        }
    }
    double elapsed = MPI_Wtime() - t0, tmax;
    uint64_t mine = local_checksum(&D), sum = 0;
    MPI_Allreduce(&mine, &sum, 1, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
    MPI_Reduce(&elapsed, &tmax, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    if (rank == 0) {
        printf("steps %d time %.17g checksum %016llx\n", steps, time, (unsigned long long)sum);
        printf("elapsed %.3f s\n", tmax);
    }
    MPI_Finalize();
    return 0;
}

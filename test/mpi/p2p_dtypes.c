/* MPI test: derived datatypes through point-to-point, in eager and
 * rendezvous sizes (test/mpi/p2p_dtypes.sh runs it under every protocol).
 * Each rank sends to rank+1 and receives from rank-1. Every case sends a
 * buffer of doubles whose value at index i is V(rank, i) with one type and
 * receives with another of the same type signature; the receive buffer
 * must hold V(left, s[k]) at r[k] for the k-th element of the type maps
 * (s, r: index lists computed here) and -1 everywhere else:
 *   - vector -> vector, vector -> contiguous, contiguous -> vector
 *   - indexed (irregular blocks) -> vector, subarray -> subarray (3-d)
 *   - a vector of 2^20 doubles (8 MiB, stride 2) both ways
 *   - a padded C struct sent, received into a packed layout (resized)
 *   - truncation into a non-contiguous receive: MPI_ERR_TRUNCATE and only
 *     what fits is written; Get_elements on a partial receive */
#include <stdlib.h>

#include "test/mpi/p2p_common.c"

static int right, left, tagno = 1;

static double V(int rank, size_t i)
{
    return (double)rank * 1e7 + (double)i;
}

/* the index list of count elements of a type over doubles */
struct idx {
    size_t n;
    size_t *i;
};

static struct idx vec_idx(size_t count, size_t blen, size_t stride, size_t first)
{
    struct idx x = {count * blen, malloc(sizeof(size_t) * (count * blen + 1))};
    for (size_t c = 0; c < count; c++)
        for (size_t b = 0; b < blen; b++)
            x.i[c * blen + b] = first + c * stride + b;
    return x;
}

/* sends (sbuf of slen doubles, count sc of st), receives rc of rt into rlen doubles */
static void xchg(const char *what, MPI_Datatype st, int sc, struct idx s, size_t slen, MPI_Datatype rt, int rc,
                 struct idx r, size_t rlen)
{
    double *sb = malloc(sizeof(double) * slen), *rb = malloc(sizeof(double) * rlen);
    for (size_t i = 0; i < slen; i++)
        sb[i] = V(p2p_rank, i);
    for (size_t i = 0; i < rlen; i++)
        rb[i] = -1;
    MPI_Request q;
    MPI_Status status;
    MPI_Isend(sb, sc, st, right, tagno, MPI_COMM_WORLD, &q);
    int rcode = MPI_Recv(rb, rc, rt, left, tagno, MPI_COMM_WORLD, &status);
    MPI_Wait(&q, MPI_STATUS_IGNORE);
    tagno++;
    /* expected: V(left, s[k]) at r[k], -1 elsewhere */
    double *want = malloc(sizeof(double) * rlen);
    for (size_t i = 0; i < rlen; i++)
        want[i] = -1;
    size_t n = s.n < r.n ? s.n : r.n, bad = 0, first_bad = 0;
    for (size_t k = 0; k < n; k++)
        want[r.i[k]] = V(left, s.i[k]);
    for (size_t i = 0; i < rlen; i++)
        if (rb[i] != want[i] && !bad++)
            first_bad = i;
    int cnt = -1;
    MPI_Get_count(&status, MPI_DOUBLE, &cnt);
    mt_ok(rcode == MPI_SUCCESS && bad == 0 && cnt == (int)s.n,
          "%s: %zu doubles placed exactly (%zu wrong), nothing else written, count %d", what, n, bad, cnt);
    if (bad)
        printf("# [rank %d] first wrong index %zu: %g, expected %g\n", p2p_rank, first_bad, rb[first_bad],
               want[first_bad]);
    free(sb);
    free(rb);
    free(want);
}

int main(int argc, char **argv)
{
    p2p_init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    right = (p2p_rank + 1) % p2p_size;
    left = (p2p_rank + p2p_size - 1) % p2p_size;

    /* small (eager by default) and large (rendezvous) */
    size_t sizes[] = {5, 3000, 100000};
    for (int z = 0; z < 3; z++) {
        size_t n = sizes[z];
        char w[128];
        MPI_Datatype vec, vec3, con;
        MPI_Type_vector((int)n, 1, 2, MPI_DOUBLE, &vec);
        MPI_Type_commit(&vec);
        MPI_Type_vector((int)(n / 5), 5, 7, MPI_DOUBLE, &vec3);
        MPI_Type_commit(&vec3);
        MPI_Type_contiguous((int)n, MPI_DOUBLE, &con);
        MPI_Type_commit(&con);
        struct idx iv = vec_idx(n, 1, 2, 0), ic = vec_idx(1, n, 0, 0), iv3 = vec_idx(n / 5, 5, 7, 0);

        snprintf(w, sizeof(w), "vector(%zu, 1, 2) -> vector(%zu, 1, 2)", n, n);
        xchg(w, vec, 1, iv, 2 * n, vec, 1, iv, 2 * n);
        snprintf(w, sizeof(w), "vector(%zu, 1, 2) -> %zu MPI_DOUBLE", n, n);
        xchg(w, vec, 1, iv, 2 * n, MPI_DOUBLE, (int)n, ic, n + 3);
        snprintf(w, sizeof(w), "%zu MPI_DOUBLE -> vector(%zu, 1, 2)", n, n);
        xchg(w, MPI_DOUBLE, (int)n, ic, n, vec, 1, iv, 2 * n + 1);
        snprintf(w, sizeof(w), "contiguous(%zu) -> vector(%zu, 5, 7)", n, n / 5);
        xchg(w, con, 1, ic, n, vec3, 1, iv3, 7 * (n / 5));
        snprintf(w, sizeof(w), "vector(%zu, 5, 7) -> vector(%zu, 1, 2)", n / 5, n);
        xchg(w, vec3, 1, iv3, 7 * (n / 5), vec, 1, iv, 2 * n);

        /* irregular indexed blocks: lengths 1..4, gaps 0..2 */
        {
            int nb = 0, *bl = malloc(sizeof(int) * n), *dp = malloc(sizeof(int) * n);
            size_t tot = 0, pos = 0;
            struct idx ii = {0, malloc(sizeof(size_t) * (n + 4))};
            while (tot < n) {
                int b = 1 + (nb * 7) % 4;
                if (tot + (size_t)b > n)
                    b = (int)(n - tot);
                pos += (size_t)(nb % 3); /* gap */
                bl[nb] = b;
                dp[nb] = (int)pos;
                for (int j = 0; j < b; j++)
                    ii.i[ii.n++] = pos + (size_t)j;
                pos += (size_t)b;
                tot += (size_t)b;
                nb++;
            }
            MPI_Datatype ix;
            MPI_Type_indexed(nb, bl, dp, MPI_DOUBLE, &ix);
            MPI_Type_commit(&ix);
            snprintf(w, sizeof(w), "indexed (%d irregular blocks) -> vector(%zu, 1, 2)", nb, n);
            xchg(w, ix, 1, ii, pos, vec, 1, iv, 2 * n);
            snprintf(w, sizeof(w), "vector(%zu, 1, 2) -> indexed (%d irregular blocks)", n, nb);
            xchg(w, vec, 1, iv, 2 * n, ix, 1, ii, pos);
            MPI_Type_free(&ix);
            free(ii.i);
            free(bl);
            free(dp);
        }
        MPI_Type_free(&vec);
        MPI_Type_free(&vec3);
        MPI_Type_free(&con);
        free(iv.i);
        free(ic.i);
        free(iv3.i);
    }

    /* 3-d subarrays: a 12 x 20 x 30 block of 40 x 50 x 60 doubles (96 KiB
     * of data), received into a 12 x 20 x 30 block of another array */
    {
        MPI_Datatype sa, sb;
        int gs[3] = {40, 50, 60}, ss[3] = {12, 20, 30}, st1[3] = {3, 7, 11}, gr[3] = {20, 25, 40}, st2[3] = {8, 5, 9};
        MPI_Type_create_subarray(3, gs, ss, st1, MPI_ORDER_C, MPI_DOUBLE, &sa);
        MPI_Type_create_subarray(3, gr, ss, st2, MPI_ORDER_FORTRAN, MPI_DOUBLE, &sb);
        MPI_Type_commit(&sa);
        MPI_Type_commit(&sb);
        size_t n = 12 * 20 * 30;
        struct idx is = {0, malloc(sizeof(size_t) * n)}, ir = {0, malloc(sizeof(size_t) * n)};
        for (int i = 0; i < 12; i++)
            for (int j = 0; j < 20; j++)
                for (int k = 0; k < 30; k++)
                    is.i[is.n++] = ((size_t)(i + 3) * 50 + (size_t)(j + 7)) * 60 + (size_t)(k + 11);
        /* Fortran order: the first index fastest */
        for (int k = 0; k < 30; k++)
            for (int j = 0; j < 20; j++)
                for (int i = 0; i < 12; i++)
                    ir.i[ir.n++] = (size_t)(i + 8) + 20 * ((size_t)(j + 5) + 25 * (size_t)(k + 9));
        xchg("subarray C 12x20x30 of 40x50x60 -> subarray Fortran of 20x25x40", sa, 1, is, 40 * 50 * 60, sb, 1, ir,
             20 * 25 * 40);
        MPI_Type_free(&sa);
        MPI_Type_free(&sb);
        free(is.i);
        free(ir.i);
    }

    /* a vector of 2^20 doubles, stride 2: 8 MiB of data */
    {
        size_t n = 1 << 20;
        MPI_Datatype big;
        MPI_Type_vector((int)n, 1, 2, MPI_DOUBLE, &big);
        MPI_Type_commit(&big);
        struct idx iv = vec_idx(n, 1, 2, 0), ic = vec_idx(1, n, 0, 0);
        xchg("vector(2^20, 1, 2) -> vector(2^20, 1, 2)", big, 1, iv, 2 * n + 1, big, 1, iv, 2 * n + 1);
        xchg("vector(2^20, 1, 2) -> 2^20 MPI_DOUBLE", big, 1, iv, 2 * n + 1, MPI_DOUBLE, (int)n, ic, n);
        free(iv.i);
        free(ic.i);
        MPI_Type_free(&big);
    }

    /* a padded C struct into a packed layout of the same signature */
    {
        struct s { int a; double b; char c[3]; };
        size_t n = 20000; /* 300 KiB of data */
        struct s *sv = malloc(sizeof(struct s) * n);
        unsigned char *rv = malloc(15 * n + 1);
        memset(sv, 0x77, sizeof(struct s) * n);
        for (size_t i = 0; i < n; i++) {
            sv[i].a = p2p_rank * 1000000 + (int)i;
            sv[i].b = V(p2p_rank, i);
            sv[i].c[0] = 'a', sv[i].c[1] = (char)i, sv[i].c[2] = (char)p2p_rank;
        }
        memset(rv, 0xee, 15 * n + 1);
        MPI_Datatype ts, tp, tp1;
        MPI_Type_create_struct(3, (int[]){1, 1, 3}, (MPI_Aint[]){offsetof(struct s, a), offsetof(struct s, b),
                                                                  offsetof(struct s, c)},
                               (MPI_Datatype[]){MPI_INT, MPI_DOUBLE, MPI_CHAR}, &ts);
        MPI_Type_create_struct(3, (int[]){1, 1, 3}, (MPI_Aint[]){0, 4, 12}, (MPI_Datatype[]){MPI_INT, MPI_DOUBLE, MPI_CHAR},
                               &tp1);
        MPI_Type_create_resized(tp1, 0, 15, &tp);
        MPI_Type_commit(&ts);
        MPI_Type_commit(&tp);
        MPI_Aint lb, ext;
        MPI_Type_get_extent(ts, &lb, &ext);
        mt_is_int(ext, sizeof(struct s), "struct {int; double; char[3]}: extent sizeof (%zu)", sizeof(struct s));
        MPI_Request q;
        MPI_Status status;
        MPI_Isend(sv, (int)n, ts, right, tagno, MPI_COMM_WORLD, &q);
        MPI_Recv(rv, (int)n, tp, left, tagno, MPI_COMM_WORLD, &status);
        MPI_Wait(&q, MPI_STATUS_IGNORE);
        tagno++;
        size_t bad = 0;
        for (size_t i = 0; i < n; i++) {
            int a;
            double b;
            memcpy(&a, rv + 15 * i, 4);
            memcpy(&b, rv + 15 * i + 4, 8);
            bad += a != left * 1000000 + (int)i || b != V(left, i) || rv[15 * i + 12] != 'a' ||
                   rv[15 * i + 13] != (unsigned char)(char)i || rv[15 * i + 14] != (unsigned char)left;
        }
        int el = -1, cnt = -1;
        MPI_Get_elements(&status, tp, &el);
        MPI_Get_count(&status, tp, &cnt);
        mt_ok(bad == 0 && rv[15 * n] == 0xee && cnt == (int)n && el == 5 * (int)n,
              "%zu padded structs into a packed 15-byte layout: exact (%zu wrong), count %d, elements %d", n, bad, cnt,
              el);
        MPI_Type_free(&ts);
        MPI_Type_free(&tp);
        MPI_Type_free(&tp1);
        free(sv);
        free(rv);
    }

    /* truncation into a non-contiguous receive, and a partial element */
    {
        size_t n = 50000;
        MPI_Datatype vec;
        MPI_Type_vector((int)(n / 2), 1, 2, MPI_DOUBLE, &vec);
        MPI_Type_commit(&vec);
        double *sb = malloc(sizeof(double) * n), *rb = malloc(sizeof(double) * n);
        for (size_t i = 0; i < n; i++)
            sb[i] = V(p2p_rank, i), rb[i] = -1;
        MPI_Request q;
        MPI_Status status;
        MPI_Isend(sb, (int)n, MPI_DOUBLE, right, tagno, MPI_COMM_WORLD, &q);
        int rc = MPI_Recv(rb, 1, vec, left, tagno, MPI_COMM_WORLD, &status);
        MPI_Wait(&q, MPI_STATUS_IGNORE);
        tagno++;
        size_t bad = 0;
        for (size_t i = 0; i < n; i++)
            bad += rb[i] != (i % 2 == 0 && i < n ? V(left, i / 2) : -1);
        mt_ok(rc == MPI_ERR_TRUNCATE && bad == 0,
              "%zu doubles into vector(%zu, 1, 2): MPI_ERR_TRUNCATE, the first %zu placed, nothing else", n, n / 2,
              n / 2);
        /* 3 ints into a vector of pairs of doubles: 12 bytes, one and a half doubles */
        int three[3] = {1, 2, 3};
        MPI_Isend(three, 3, MPI_INT, right, tagno, MPI_COMM_WORLD, &q);
        rc = MPI_Recv(rb, 1, vec, left, tagno, MPI_COMM_WORLD, &status);
        MPI_Wait(&q, MPI_STATUS_IGNORE);
        tagno++;
        int el = 0, cnt = 0;
        MPI_Get_elements(&status, vec, &el);
        MPI_Get_count(&status, vec, &cnt);
        mt_ok(rc == MPI_SUCCESS && el == MPI_UNDEFINED && cnt == MPI_UNDEFINED,
              "12 bytes into a vector of doubles: Get_elements and Get_count MPI_UNDEFINED");
        MPI_Type_free(&vec);
        free(sb);
        free(rb);
    }

    MPI_Finalize();
    return mt_done();
}

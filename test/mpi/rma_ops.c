/* Every one-sided communication call against a reference computed
 * locally. Part 1: MPI_Put, MPI_Get, MPI_Accumulate, MPI_Get_accumulate
 * (and, in passive-target epochs, MPI_Rput, MPI_Rget, MPI_Raccumulate,
 * MPI_Rget_accumulate) under fence, post-start-complete-wait, lock shared,
 * lock exclusive and lock_all, each with contiguous and derived datatypes
 * (vector, indexed, struct of one basic type, subarray) on the origin, the
 * target and the result side; 32- and 64-bit Fetch_and_op and
 * Compare_and_swap under every mode. Part 2: every predefined op on every
 * type the standard allows it for (SUM and PROD on integers, floating
 * point and complex; MAX and MIN on integers and floating point; LAND, LOR
 * and LXOR on integers and C_BOOL; BAND, BOR and BXOR on integers and
 * BYTE; MAXLOC and MINLOC on the pair types; MPI_REPLACE; MPI_NO_OP for
 * the fetching calls) through Accumulate, Get_accumulate and Fetch_and_op,
 * and Compare_and_swap on every integer, logical and byte type, both when
 * it swaps and when it does not.
 *
 * Every rank is the origin of the next rank (rank + 1) and the target of
 * the previous one, so each element has one writer. The element positions
 * a datatype touches come from MPI_Pack of an array of indices, so the
 * reference works for any type. Written against the MPI standard only;
 * rma_ops.sh runs it on 1 to 4 ranks. */
#include <complex.h>
#include <mpi.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "mtest.h"

static int rank, size, to, from;
static MPI_Group gfrom, gto;

/* ------------------------------------------------------- epochs */

enum { M_FENCE, M_PSCW, M_LOCK_SH, M_LOCK_EX, M_LOCK_ALL, NMODES };
static const char *mname[NMODES] = {"fence", "PSCW", "lock shared", "lock exclusive", "lock_all"};

static void open_epoch(int mode, MPI_Win win)
{
    switch (mode) {
    case M_FENCE:
        MPI_Win_fence(MPI_MODE_NOPRECEDE, win);
        break;
    case M_PSCW:
        MPI_Win_post(gfrom, 0, win);
        MPI_Win_start(gto, 0, win);
        break;
    case M_LOCK_SH:
    case M_LOCK_EX:
        MPI_Win_lock(mode == M_LOCK_SH ? MPI_LOCK_SHARED : MPI_LOCK_EXCLUSIVE, to, 0, win);
        break;
    default:
        MPI_Win_lock_all(0, win);
    }
}

static void close_epoch(int mode, MPI_Win win)
{
    switch (mode) {
    case M_FENCE:
        MPI_Win_fence(MPI_MODE_NOSUCCEED, win);
        break;
    case M_PSCW:
        MPI_Win_complete(win);
        MPI_Win_wait(win);
        break;
    case M_LOCK_SH:
    case M_LOCK_EX:
        MPI_Win_unlock(to, win);
        break;
    default:
        MPI_Win_unlock_all(win);
    }
    MPI_Barrier(MPI_COMM_WORLD);
}

/* local access to my own window, outside any other epoch */
static void self_lock(MPI_Win win)
{
    MPI_Win_lock(MPI_LOCK_EXCLUSIVE, rank, 0, win);
}
static void self_unlock(MPI_Win win)
{
    MPI_Win_unlock(rank, win);
}

/* ------------------------------------------------------- part 1: shapes */

#define NW 64 /* ints in the window and in the origin buffers */
#define TDISP 2

typedef struct {
    const char *name;
    MPI_Datatype t;
    int count, n, pos[NW];
} shape;

enum { S_CONTIG, S_VECTOR, S_INDEXED, S_STRUCT, S_SUBARRAY, NSHAPES };
static shape shapes[NSHAPES];

/* the int positions (from the buffer start) that count x t touch, in order */
static void shape_init(shape *s, const char *name, MPI_Datatype t, int count)
{
    int idx[NW], packed[NW], p = 0, bytes;
    s->name = name;
    s->t = t;
    s->count = count;
    for (int i = 0; i < NW; i++)
        idx[i] = i;
    MPI_Pack_size(count, t, MPI_COMM_WORLD, &bytes);
    MPI_Pack(idx, count, t, packed, sizeof packed, &p, MPI_COMM_WORLD);
    s->n = p / (int)sizeof(int);
    memcpy(s->pos, packed, (size_t)p);
}

static void shapes_init(void)
{
    MPI_Datatype t;
    shape_init(&shapes[S_CONTIG], "contiguous", MPI_INT, 8);
    MPI_Type_vector(4, 2, 3, MPI_INT, &t); /* 0 1 3 4 6 7 9 10 */
    MPI_Type_commit(&t);
    shape_init(&shapes[S_VECTOR], "vector", t, 1);
    int bl[3] = {3, 1, 4}, dp[3] = {9, 0, 4}; /* 9-11 0 4-7: not in address order */
    MPI_Type_indexed(3, bl, dp, MPI_INT, &t);
    MPI_Type_commit(&t);
    shape_init(&shapes[S_INDEXED], "indexed", t, 1);
    int sbl[2] = {5, 3};
    MPI_Aint sdp[2] = {0, 10 * sizeof(int)};
    MPI_Datatype sty[2] = {MPI_INT, MPI_INT};
    MPI_Type_create_struct(2, sbl, sdp, sty, &t);
    MPI_Type_commit(&t);
    shape_init(&shapes[S_STRUCT], "struct", t, 1);
    int sz[2] = {6, 6}, sub[2] = {2, 4}, st[2] = {1, 1};
    MPI_Type_create_subarray(2, sz, sub, st, MPI_ORDER_C, MPI_INT, &t);
    MPI_Type_commit(&t);
    shape_init(&shapes[S_SUBARRAY], "subarray", t, 1);
}

static const int combos[][3] = {
    /* origin, target, result */
    {S_CONTIG, S_CONTIG, S_CONTIG},     {S_VECTOR, S_INDEXED, S_STRUCT},   {S_STRUCT, S_SUBARRAY, S_VECTOR},
    {S_INDEXED, S_VECTOR, S_SUBARRAY},  {S_CONTIG, S_SUBARRAY, S_INDEXED}, {S_SUBARRAY, S_STRUCT, S_CONTIG},
};
#define NCOMBOS (int)(sizeof combos / sizeof combos[0])

enum { K_PUT, K_GET, K_ACC, K_GACC, K_RPUT, K_RGET, K_RACC, K_RGACC, NKINDS };
static const char *kname[NKINDS] = {"Put",  "Get",  "Accumulate",  "Get_accumulate",
                                    "Rput", "Rget", "Raccumulate", "Rget_accumulate"};

static int winit(int r, int i)
{
    return 1000 * r + i;
}
static int oinit(int r, int i)
{
    return 100 * r + i + 1;
}

static void check_arr(const int *got, const int *exp, int n, const char *what)
{
    int bad = -1;
    for (int i = 0; i < n && bad < 0; i++)
        if (got[i] != exp[i])
            bad = i;
    mt_ok(bad < 0, "%s", what);
    if (bad >= 0)
        printf("# [rank %d] %s: element %d is %d, expected %d\n", rank, what, bad, got[bad], exp[bad]);
}

static void run_shape(MPI_Win win, int *w, int mode, int kind, const int *c)
{
    const shape *os = &shapes[c[0]], *ts = &shapes[c[1]], *rs = &shapes[c[2]];
    int o[NW], r[NW], eo[NW], er[NW], ew[NW];
    char what[160];
    self_lock(win);
    for (int i = 0; i < NW; i++)
        w[i] = winit(rank, i);
    self_unlock(win);
    for (int i = 0; i < NW; i++) {
        o[i] = eo[i] = oinit(rank, i);
        r[i] = er[i] = -1;
        ew[i] = winit(rank, i);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    open_epoch(mode, win);
    MPI_Request rq = MPI_REQUEST_NULL;
    switch (kind) {
    case K_PUT:
        MPI_Put(o, os->count, os->t, to, TDISP, ts->count, ts->t, win);
        break;
    case K_GET:
        MPI_Get(o, os->count, os->t, to, TDISP, ts->count, ts->t, win);
        break;
    case K_ACC:
        MPI_Accumulate(o, os->count, os->t, to, TDISP, ts->count, ts->t, MPI_SUM, win);
        break;
    case K_GACC:
        MPI_Get_accumulate(o, os->count, os->t, r, rs->count, rs->t, to, TDISP, ts->count, ts->t, MPI_SUM, win);
        break;
    case K_RPUT:
        MPI_Rput(o, os->count, os->t, to, TDISP, ts->count, ts->t, win, &rq);
        break;
    case K_RGET:
        MPI_Rget(o, os->count, os->t, to, TDISP, ts->count, ts->t, win, &rq);
        break;
    case K_RACC:
        MPI_Raccumulate(o, os->count, os->t, to, TDISP, ts->count, ts->t, MPI_SUM, win, &rq);
        break;
    case K_RGACC:
        MPI_Rget_accumulate(o, os->count, os->t, r, rs->count, rs->t, to, TDISP, ts->count, ts->t, MPI_SUM, win,
                            &rq);
        break;
    }
    if (rq != MPI_REQUEST_NULL) {
        MPI_Wait(&rq, MPI_STATUS_IGNORE);
        mt_ok(rq == MPI_REQUEST_NULL, "%s (%s): MPI_Wait frees the request", kname[kind], mname[mode]);
        /* the request's completion is local: the origin buffer is
         * reusable (and a Get's data there) before the epoch ends */
        if (kind == K_RGET || kind == K_RGACC) {
            int *dst = kind == K_RGET ? o : r;
            const shape *ds = kind == K_RGET ? os : rs;
            int ok = 1;
            for (int k = 0; k < ds->n; k++)
                if (dst[ds->pos[k]] != winit(to, TDISP + ts->pos[k]))
                    ok = 0;
            mt_ok(ok, "%s (%s) origin %s target %s: data there when the request completes", kname[kind], mname[mode],
                  ds->name, ts->name);
        } else
            for (int i = 0; i < NW; i++)
                o[i] = -9; /* must not change what the target gets */
    }
    close_epoch(mode, win);
    /* references: my window was written by rank from, my buffers read
     * from rank to */
    int sum = kind == K_ACC || kind == K_GACC || kind == K_RACC || kind == K_RGACC;
    int put = kind == K_PUT || kind == K_RPUT;
    for (int k = 0; k < ts->n; k++) {
        int *e = &ew[TDISP + ts->pos[k]];
        if (put)
            *e = oinit(from, os->pos[k]);
        else if (sum)
            *e += oinit(from, os->pos[k]);
    }
    if (kind == K_GET || kind == K_RGET)
        for (int k = 0; k < ts->n; k++)
            eo[os->pos[k]] = winit(to, TDISP + ts->pos[k]);
    if (kind == K_GACC || kind == K_RGACC)
        for (int k = 0; k < ts->n; k++)
            er[rs->pos[k]] = winit(to, TDISP + ts->pos[k]);
    const char *res = kind == K_GACC || kind == K_RGACC ? rs->name : "-";
    snprintf(what, sizeof what, "%s (%s) origin %s target %s result %s: target window", kname[kind], mname[mode],
             os->name, ts->name, res);
    self_lock(win);
    check_arr(w, ew, NW, what);
    self_unlock(win);
    if (kind == K_GET || kind == K_RGET) {
        snprintf(what, sizeof what, "%s (%s) origin %s target %s: origin buffer", kname[kind], mname[mode],
                 os->name, ts->name);
        check_arr(o, eo, NW, what);
    }
    if (kind == K_GACC || kind == K_RGACC) {
        snprintf(what, sizeof what, "%s (%s) origin %s target %s result %s: result buffer", kname[kind],
                 mname[mode], os->name, ts->name, rs->name);
        check_arr(r, er, NW, what);
    }
    MPI_Barrier(MPI_COMM_WORLD);
}

/* 32- and 64-bit Fetch_and_op (SUM) and Compare_and_swap (swapping) */
static void run_atomics(MPI_Win win, int *w, int mode)
{
    int32_t *w32 = (int32_t *)w;
    int64_t *w64 = (int64_t *)(w + 32); /* 8-aligned: Win_allocate's base is */
    self_lock(win);
    w32[0] = 10 * rank;
    w32[1] = 20 * rank + 3;
    w64[0] = ((int64_t)rank << 33) + 5;
    w64[1] = ((int64_t)rank << 40) - 7;
    self_unlock(win);
    MPI_Barrier(MPI_COMM_WORLD);
    int32_t a32 = 7 + rank, f32 = -1, c32 = 20 * to + 3, n32 = -3 - rank, p32 = -1;
    int64_t a64 = ((int64_t)1 << 35) + rank, f64 = -1, c64 = ((int64_t)to << 40) - 7, n64 = -((int64_t)rank << 36),
            p64 = -1;
    open_epoch(mode, win);
    MPI_Fetch_and_op(&a32, &f32, MPI_INT32_T, to, 0, MPI_SUM, win);
    MPI_Compare_and_swap(&n32, &c32, &p32, MPI_INT32_T, to, 1, win);
    MPI_Fetch_and_op(&a64, &f64, MPI_INT64_T, to, 32, MPI_SUM, win); /* disp in ints: byte 128 */
    MPI_Compare_and_swap(&n64, &c64, &p64, MPI_INT64_T, to, 34, win);
    close_epoch(mode, win);
    mt_is_int(f32, 10 * to, "32-bit Fetch_and_op (%s): fetched", mname[mode]);
    mt_is_int(p32, 20 * to + 3, "32-bit Compare_and_swap (%s): fetched", mname[mode]);
    mt_is_int(f64, ((int64_t)to << 33) + 5, "64-bit Fetch_and_op (%s): fetched", mname[mode]);
    mt_is_int(p64, ((int64_t)to << 40) - 7, "64-bit Compare_and_swap (%s): fetched", mname[mode]);
    self_lock(win);
    mt_is_int(w32[0], 10 * rank + 7 + from, "32-bit Fetch_and_op (%s): target", mname[mode]);
    mt_is_int(w32[1], -3 - from, "32-bit Compare_and_swap (%s): target swapped", mname[mode]);
    mt_is_int(w64[0], ((int64_t)rank << 33) + 5 + ((int64_t)1 << 35) + from, "64-bit Fetch_and_op (%s): target",
              mname[mode]);
    mt_is_int(w64[1], -((int64_t)from << 36), "64-bit Compare_and_swap (%s): target swapped", mname[mode]);
    self_unlock(win);
    MPI_Barrier(MPI_COMM_WORLD);
}

static void part1(void)
{
    int *w;
    MPI_Win win;
    MPI_Win_allocate(NW * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &w, &win);
    for (int mode = 0; mode < NMODES; mode++) {
        int passive = mode == M_LOCK_SH || mode == M_LOCK_EX || mode == M_LOCK_ALL;
        for (int kind = 0; kind < NKINDS; kind++) {
            if (kind >= K_RPUT && !passive) /* request forms: passive target only */
                continue;
            for (int c = 0; c < NCOMBOS; c++) {
                    run_shape(win, w, mode, kind, combos[c]);
            }
        }
        run_atomics(win, w, mode);
    }
    MPI_Win_free(&win);
}

/* ------------------------------------------------------- part 2: ops x types */

enum { O_SUM, O_PROD, O_MAX, O_MIN, O_LAND, O_LOR, O_LXOR, O_BAND, O_BOR, O_BXOR, O_MAXLOC, O_MINLOC,
       O_REPLACE, O_NOOP, NOPS };
static const char *oname[NOPS] = {"MPI_SUM",  "MPI_PROD", "MPI_MAX",    "MPI_MIN",    "MPI_LAND",
                                  "MPI_LOR",  "MPI_LXOR", "MPI_BAND",   "MPI_BOR",    "MPI_BXOR",
                                  "MPI_MAXLOC", "MPI_MINLOC", "MPI_REPLACE", "MPI_NO_OP"};
static MPI_Op ops[NOPS];

/* type classes and the ops each allows (REPLACE and NO_OP: all) */
enum { C_INT = 1, C_FLT = 2, C_LOG = 4, C_BYTE = 8, C_CPLX = 16, C_PAIR = 32 };
static const int op_classes[NOPS] = {
    C_INT | C_FLT | C_CPLX, C_INT | C_FLT | C_CPLX, C_INT | C_FLT, C_INT | C_FLT, C_INT | C_LOG, C_INT | C_LOG,
    C_INT | C_LOG,          C_INT | C_BYTE,         C_INT | C_BYTE, C_INT | C_BYTE, C_PAIR,       C_PAIR,
    63,                     63};

typedef struct {
    const char *name;
    MPI_Datatype t;
    int size, cls;
    void (*gen)(void *, int);
    void (*ap)(int, void *, const void *);
    int (*eq)(const void *, const void *);
} tinfo;

static int sval(int s)
{
    return (s * 5) % 13 - 6; /* -6..6 */
}

#define INT_T(N, CT, SG)                                                                                        \
    static void gen_##N(void *p, int s)                                                                       \
    {                                                                                                         \
        CT v = (CT)(SG ? sval(s) : sval(s) + 6);                                                              \
        memcpy(p, &v, sizeof v);                                                                              \
    }                                                                                                         \
    static void ap_##N(int op, void *pa, const void *pb)                                                      \
    {                                                                                                         \
        CT a, b, r;                                                                                           \
        memcpy(&a, pa, sizeof a);                                                                             \
        memcpy(&b, pb, sizeof b);                                                                             \
        switch (op) {                                                                                         \
        case O_SUM: r = (CT)(a + b); break;                                                                   \
        case O_PROD: r = (CT)(a * b); break;                                                                  \
        case O_MAX: r = a > b ? a : b; break;                                                                 \
        case O_MIN: r = a < b ? a : b; break;                                                                 \
        case O_LAND: r = (CT)(a && b); break;                                                                 \
        case O_LOR: r = (CT)(a || b); break;                                                                  \
        case O_LXOR: r = (CT)(!a != !b); break;                                                               \
        case O_BAND: r = (CT)(a & b); break;                                                                  \
        case O_BOR: r = (CT)(a | b); break;                                                                   \
        case O_BXOR: r = (CT)(a ^ b); break;                                                                  \
        case O_REPLACE: r = b; break;                                                                         \
        default: r = a;                                                                                       \
        }                                                                                                     \
        memcpy(pa, &r, sizeof r);                                                                             \
    }                                                                                                         \
    static int eq_##N(const void *pa, const void *pb)                                                         \
    {                                                                                                         \
        CT a, b;                                                                                              \
        memcpy(&a, pa, sizeof a);                                                                             \
        memcpy(&b, pb, sizeof b);                                                                             \
        return a == b;                                                                                        \
    }

#define FLT_T(N, CT)                                                                                          \
    static void gen_##N(void *p, int s)                                                                       \
    {                                                                                                         \
        CT v = (CT)sval(s) * (CT)0.5;                                                                         \
        memcpy(p, &v, sizeof v);                                                                              \
    }                                                                                                         \
    static void ap_##N(int op, void *pa, const void *pb)                                                      \
    {                                                                                                         \
        CT a, b, r;                                                                                           \
        memcpy(&a, pa, sizeof a);                                                                             \
        memcpy(&b, pb, sizeof b);                                                                             \
        switch (op) {                                                                                         \
        case O_SUM: r = a + b; break;                                                                         \
        case O_PROD: r = a * b; break;                                                                        \
        case O_MAX: r = a > b ? a : b; break;                                                                 \
        case O_MIN: r = a < b ? a : b; break;                                                                 \
        case O_REPLACE: r = b; break;                                                                         \
        default: r = a;                                                                                       \
        }                                                                                                     \
        memcpy(pa, &r, sizeof r);                                                                             \
    }                                                                                                         \
    static int eq_##N(const void *pa, const void *pb)                                                         \
    {                                                                                                         \
        CT a, b;                                                                                              \
        memcpy(&a, pa, sizeof a);                                                                             \
        memcpy(&b, pb, sizeof b);                                                                             \
        return a == b;                                                                                        \
    }

#define CPLX_T(N, CT, RT)                                                                                     \
    static void gen_##N(void *p, int s)                                                                       \
    {                                                                                                         \
        CT v = (RT)sval(s) + (RT)((s * 3) % 7 - 3) * I;                                                       \
        memcpy(p, &v, sizeof v);                                                                              \
    }                                                                                                         \
    static void ap_##N(int op, void *pa, const void *pb)                                                      \
    {                                                                                                         \
        CT a, b, r;                                                                                           \
        memcpy(&a, pa, sizeof a);                                                                             \
        memcpy(&b, pb, sizeof b);                                                                             \
        switch (op) {                                                                                         \
        case O_SUM: r = a + b; break;                                                                         \
        case O_PROD: r = a * b; break;                                                                        \
        case O_REPLACE: r = b; break;                                                                         \
        default: r = a;                                                                                       \
        }                                                                                                     \
        memcpy(pa, &r, sizeof r);                                                                             \
    }                                                                                                         \
    static int eq_##N(const void *pa, const void *pb)                                                         \
    {                                                                                                         \
        CT a, b;                                                                                              \
        memcpy(&a, pa, sizeof a);                                                                             \
        memcpy(&b, pb, sizeof b);                                                                             \
        return a == b;                                                                                        \
    }

/* value-index pairs; the value small so that ties happen */
#define PAIR_T(N, CT)                                                                                         \
    typedef struct {                                                                                          \
        CT v;                                                                                                 \
        int i;                                                                                                \
    } N##_pair;                                                                                               \
    static void gen_##N(void *p, int s)                                                                       \
    {                                                                                                         \
        N##_pair v;                                                                                           \
        memset(&v, 0, sizeof v);                                                                              \
        v.v = (CT)(s % 3);                                                                                    \
        v.i = (s * 7) % 10;                                                                                   \
        memcpy(p, &v, sizeof v);                                                                              \
    }                                                                                                         \
    static void ap_##N(int op, void *pa, const void *pb)                                                      \
    {                                                                                                         \
        N##_pair a, b, r;                                                                                     \
        memcpy(&a, pa, sizeof a);                                                                             \
        memcpy(&b, pb, sizeof b);                                                                             \
        r = a;                                                                                                \
        if (op == O_REPLACE)                                                                                  \
            r = b;                                                                                            \
        else if (op == O_MAXLOC || op == O_MINLOC) {                                                          \
            int better = op == O_MAXLOC ? b.v > a.v : b.v < a.v;                                              \
            if (better)                                                                                       \
                r = b;                                                                                        \
            else if (b.v == a.v && b.i < a.i)                                                                 \
                r.i = b.i;                                                                                    \
        }                                                                                                     \
        memcpy(pa, &r, sizeof r);                                                                             \
    }                                                                                                         \
    static int eq_##N(const void *pa, const void *pb)                                                         \
    {                                                                                                         \
        N##_pair a, b;                                                                                        \
        memcpy(&a, pa, sizeof a);                                                                             \
        memcpy(&b, pb, sizeof b);                                                                             \
        return a.v == b.v && a.i == b.i;                                                                      \
    }

INT_T(int, int, 1)
INT_T(short, short, 1)
INT_T(long, long, 1)
INT_T(llong, long long, 1)
INT_T(schar, signed char, 1)
INT_T(uchar, unsigned char, 0)
INT_T(ushort, unsigned short, 0)
INT_T(uint, unsigned, 0)
INT_T(ulong, unsigned long, 0)
INT_T(ullong, unsigned long long, 0)
INT_T(i8, int8_t, 1)
INT_T(i16, int16_t, 1)
INT_T(i32, int32_t, 1)
INT_T(i64, int64_t, 1)
INT_T(u8, uint8_t, 0)
INT_T(u16, uint16_t, 0)
INT_T(u32, uint32_t, 0)
INT_T(u64, uint64_t, 0)
INT_T(aint, MPI_Aint, 1)
INT_T(byte, unsigned char, 0)
static void gen_cbool(void *p, int s)
{
    bool v = (s % 3) != 0;
    memcpy(p, &v, sizeof v);
}
static void ap_cbool(int op, void *pa, const void *pb)
{
    bool a, b, r;
    memcpy(&a, pa, sizeof a);
    memcpy(&b, pb, sizeof b);
    r = op == O_LAND ? a && b : op == O_LOR ? a || b : op == O_LXOR ? a != b : op == O_REPLACE ? b : a;
    memcpy(pa, &r, sizeof r);
}
static int eq_cbool(const void *pa, const void *pb)
{
    bool a, b;
    memcpy(&a, pa, sizeof a);
    memcpy(&b, pb, sizeof b);
    return a == b;
}
FLT_T(flt, float)
FLT_T(dbl, double)
FLT_T(ldbl, long double)
CPLX_T(cflt, float _Complex, float)
CPLX_T(cdbl, double _Complex, double)
PAIR_T(p2int, int)
PAIR_T(pfloat, float)
PAIR_T(pdouble, double)
PAIR_T(plong, long)
PAIR_T(pshort, short)

#define T(N, MT, CT, CLS) {#MT, MT, (int)sizeof(CT), CLS, gen_##N, ap_##N, eq_##N}
static const tinfo types[] = {
    T(int, MPI_INT, int, C_INT),
    T(short, MPI_SHORT, short, C_INT),
    T(long, MPI_LONG, long, C_INT),
    T(llong, MPI_LONG_LONG, long long, C_INT),
    T(schar, MPI_SIGNED_CHAR, signed char, C_INT),
    T(uchar, MPI_UNSIGNED_CHAR, unsigned char, C_INT),
    T(ushort, MPI_UNSIGNED_SHORT, unsigned short, C_INT),
    T(uint, MPI_UNSIGNED, unsigned, C_INT),
    T(ulong, MPI_UNSIGNED_LONG, unsigned long, C_INT),
    T(ullong, MPI_UNSIGNED_LONG_LONG, unsigned long long, C_INT),
    T(i8, MPI_INT8_T, int8_t, C_INT),
    T(i16, MPI_INT16_T, int16_t, C_INT),
    T(i32, MPI_INT32_T, int32_t, C_INT),
    T(i64, MPI_INT64_T, int64_t, C_INT),
    T(u8, MPI_UINT8_T, uint8_t, C_INT),
    T(u16, MPI_UINT16_T, uint16_t, C_INT),
    T(u32, MPI_UINT32_T, uint32_t, C_INT),
    T(u64, MPI_UINT64_T, uint64_t, C_INT),
    T(aint, MPI_AINT, MPI_Aint, C_INT),
    T(cbool, MPI_C_BOOL, bool, C_LOG),
    T(byte, MPI_BYTE, unsigned char, C_BYTE),
    T(flt, MPI_FLOAT, float, C_FLT),
    T(dbl, MPI_DOUBLE, double, C_FLT),
    T(ldbl, MPI_LONG_DOUBLE, long double, C_FLT),
    T(cflt, MPI_C_FLOAT_COMPLEX, float _Complex, C_CPLX),
    T(cdbl, MPI_C_DOUBLE_COMPLEX, double _Complex, C_CPLX),
    T(p2int, MPI_2INT, p2int_pair, C_PAIR),
    T(pfloat, MPI_FLOAT_INT, pfloat_pair, C_PAIR),
    T(pdouble, MPI_DOUBLE_INT, pdouble_pair, C_PAIR),
    T(plong, MPI_LONG_INT, plong_pair, C_PAIR),
    T(pshort, MPI_SHORT_INT, pshort_pair, C_PAIR),
};
#define NTYPES (int)(sizeof types / sizeof types[0])

#define NEL 3     /* elements per combination */
#define SLOT 128  /* bytes per combination and region */
#define MAXC 512

static void gen(const tinfo *t, void *p, int s)
{
    t->gen(p, s);
}
/* target values of rank r in combination c, element e; origin values */
static int tseed(int r, int c, int e)
{
    return c * 7 + e * 5 + r * 3 + 1;
}
static int oseed(int r, int c, int e)
{
    return c * 11 + e * 3 + r + 2;
}

enum { P_ACC, P_GACC, P_FOP, P_CAS, NPCALLS };
static const char *pname[NPCALLS] = {"Accumulate", "Get_accumulate", "Fetch_and_op", "Compare_and_swap"};

/* every allowed (type, op) of call pc in one epoch of MODE, then the checks */
static void part2_call(int pc, int mode)
{
    int nc = 0, ct[MAXC], co[MAXC];
    for (int t = 0; t < NTYPES; t++) {
        if (pc == P_CAS) {
            if (types[t].cls & (C_INT | C_LOG | C_BYTE)) {
                ct[nc] = t, co[nc++] = 0; /* swaps */
                ct[nc] = t, co[nc++] = 1; /* does not */
            }
            continue;
        }
        for (int o = 0; o < NOPS; o++)
            if ((op_classes[o] & types[t].cls) && !(pc == P_ACC && o == O_NOOP))
                ct[nc] = t, co[nc++] = o;
    }
    int nel = pc == P_FOP || pc == P_CAS ? 1 : NEL;
    unsigned char *w, *org = calloc((size_t)nc, SLOT), *res = calloc((size_t)nc, SLOT),
                      *cmp = calloc((size_t)nc, SLOT), *exp = calloc((size_t)nc, SLOT);
    MPI_Win win;
    MPI_Win_allocate((MPI_Aint)nc * SLOT, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &w, &win);
    self_lock(win);
    for (int c = 0; c < nc; c++)
        for (int e = 0; e < nel; e++)
            gen(&types[ct[c]], w + c * SLOT + e * types[ct[c]].size, tseed(rank, c, e));
    self_unlock(win);
    for (int c = 0; c < nc; c++) {
        const tinfo *t = &types[ct[c]];
        for (int e = 0; e < nel; e++) {
            gen(t, org + c * SLOT + e * t->size, oseed(rank, c, e));
            /* CAS compare: the target's value (swap) or another one */
            if (pc == P_CAS) {
                gen(t, cmp + c * SLOT, tseed(to, c, 0));
                if (co[c] == 1) {
                    unsigned char *p = cmp + c * SLOT;
                    p[0] ^= 1; /* lowest byte differs (little or big endian, still different) */
                }
            }
        }
        memset(res + c * SLOT, 0xa5, SLOT);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    open_epoch(mode, win);
    for (int c = 0; c < nc; c++) {
        const tinfo *t = &types[ct[c]];
        MPI_Aint d = (MPI_Aint)c * SLOT;
        void *ob = org + c * SLOT, *rb = res + c * SLOT;
        switch (pc) {
        case P_ACC:
            MPI_Accumulate(ob, nel, t->t, to, d, nel, t->t, ops[co[c]], win);
            break;
        case P_GACC:
            MPI_Get_accumulate(ob, nel, t->t, rb, nel, t->t, to, d, nel, t->t, ops[co[c]], win);
            break;
        case P_FOP:
            MPI_Fetch_and_op(ob, rb, t->t, to, d, ops[co[c]], win);
            break;
        default:
            MPI_Compare_and_swap(ob, cmp + c * SLOT, rb, t->t, to, d, win);
        }
    }
    close_epoch(mode, win);
    char what[160];
    self_lock(win);
    for (int c = 0; c < nc; c++) {
        const tinfo *t = &types[ct[c]];
        int ok = 1;
        for (int e = 0; e < nel; e++) {
            unsigned char v[64], ov[64];
            gen(t, v, tseed(rank, c, e));
            gen(t, ov, oseed(from, c, e));
            if (pc == P_CAS) {
                if (co[c] == 0)
                    memcpy(v, ov, (size_t)t->size);
            } else
                t->ap(co[c], v, ov);
            if (!t->eq(w + c * SLOT + e * t->size, v))
                ok = 0;
        }
        if (pc == P_CAS)
            snprintf(what, sizeof what, "%s on %s (%s) %s: target", pname[pc], t->name, mname[mode],
                     co[c] ? "compare differs" : "compare equal");
        else
            snprintf(what, sizeof what, "%s %s on %s (%s): target", pname[pc], oname[co[c]], t->name,
                     mname[mode]);
        mt_ok(ok, "%s", what);
    }
    self_unlock(win);
    if (pc != P_ACC)
        for (int c = 0; c < nc; c++) {
            const tinfo *t = &types[ct[c]];
            int ok = 1;
            for (int e = 0; e < nel; e++) {
                unsigned char v[64];
                gen(t, v, tseed(to, c, e));
                if (!t->eq(res + c * SLOT + e * t->size, v))
                    ok = 0;
            }
            if (pc == P_CAS)
                snprintf(what, sizeof what, "%s on %s (%s) %s: fetched", pname[pc], t->name, mname[mode],
                         co[c] ? "compare differs" : "compare equal");
            else
                snprintf(what, sizeof what, "%s %s on %s (%s): fetched", pname[pc], oname[co[c]], t->name,
                         mname[mode]);
            mt_ok(ok, "%s", what);
        }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_free(&win);
    free(org);
    free(res);
    free(cmp);
    free(exp);
}

static void part2(void)
{
    MPI_Op o[NOPS] = {MPI_SUM,  MPI_PROD, MPI_MAX,    MPI_MIN,    MPI_LAND,    MPI_LOR,  MPI_LXOR,
                      MPI_BAND, MPI_BOR,  MPI_BXOR,   MPI_MAXLOC, MPI_MINLOC, MPI_REPLACE, MPI_NO_OP};
    memcpy(ops, o, sizeof o);
    part2_call(P_ACC, M_FENCE);
    part2_call(P_ACC, M_LOCK_ALL);
    part2_call(P_GACC, M_PSCW);
    part2_call(P_GACC, M_LOCK_SH);
    part2_call(P_FOP, M_LOCK_EX);
    part2_call(P_FOP, M_FENCE);
    part2_call(P_CAS, M_LOCK_ALL);
    part2_call(P_CAS, M_PSCW);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    mt_rank = rank;
    to = (rank + 1) % size;
    from = (rank + size - 1) % size;
    MPI_Group wg;
    MPI_Comm_group(MPI_COMM_WORLD, &wg);
    MPI_Group_incl(wg, 1, &from, &gfrom);
    MPI_Group_incl(wg, 1, &to, &gto);
    MPI_Group_free(&wg);
    shapes_init();
    int n8 = 1;
    for (int s = 0; s < NSHAPES; s++)
        n8 &= shapes[s].n == 8;
    mt_ok(n8, "every datatype shape touches 8 ints");
    part1();
    part2();
    MPI_Group_free(&gfrom);
    MPI_Group_free(&gto);
    MPI_Finalize();
    return mt_done();
}

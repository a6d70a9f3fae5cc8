/* affine.h - a non-commutative, associative reduction for the collective
 * tests: composing affine maps x -> a x + b (mod 2^32); "in op inout" means
 * apply in, then inout, so the result depends on the ranks' order. */
#ifndef RD_TEST_AFFINE_H
#define RD_TEST_AFFINE_H

#include <mpi.h>
#include <stdint.h>

typedef struct {
    uint32_t a, b;
} affine;

static inline affine acompose(affine x, affine y)
{
    affine r = {x.a * y.a, y.a * x.b + y.b};
    return r;
}

static void affine_fn(void *in_, void *io_, int *len, MPI_Datatype *dt)
{
    (void)dt;
    affine *in = in_, *io = io_;
    for (int i = 0; i < *len; i++)
        io[i] = acompose(in[i], io[i]);
}

/* rank r's element i */
static inline affine aval(int r, long i)
{
    affine x = {(uint32_t)(2 * r + 3 + i), (uint32_t)(r + 7 * i + 1)};
    return x;
}

/* aval(lo, i) op ... op aval(hi - 1, i) */
static inline affine aexpect(int lo, int hi, long i)
{
    affine e = aval(lo, i);
    for (int r = lo + 1; r < hi; r++)
        e = acompose(e, aval(r, i));
    return e;
}

#endif

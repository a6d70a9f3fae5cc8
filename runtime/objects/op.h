/* op.h - reduction operations (op.c). */
#ifndef RD_OP_H
#define RD_OP_H

#include <mpi.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>

#include "runtime/objects/fhandle.h"

#define RD_OP_MAGIC 0x4f704f70u /* "OpOp" */

enum rd_op_code {
    RD_OP_MAX, RD_OP_MIN, RD_OP_SUM, RD_OP_PROD, RD_OP_LAND, RD_OP_BAND, RD_OP_LOR, RD_OP_BOR,
    RD_OP_LXOR, RD_OP_BXOR, RD_OP_MAXLOC, RD_OP_MINLOC, RD_OP_REPLACE, RD_OP_NO_OP, RD_OP_USER,
    RD_OP_FUSER, /* a user op in Fortran (runtime/fortran/README.md): called with MPI_Fint * for the datatype */
    RD_OP_CUSER, /* a large-count user op (MPI_Op_create_c): called with MPI_Count *len; user holds an
                  * MPI_User_function_c * */
    RD_OP_NCODES
};

struct rd_op_s {
    uint32_t magic;
    uint8_t predefined;
    uint8_t commute;
    uint16_t code;           /* enum rd_op_code */
    _Atomic int refs;        /* user ops: the handle + pending operations */
    _Atomic int32_t fidx;    /* its Fortran handle's index, 0: none (objects/fhandle.h; in what was padding) */
    MPI_User_function *user; /* RD_OP_USER, RD_OP_FUSER (a Fortran subroutine's address) */
};
/* the predefined ops are exported objects: their size stays what it was
 * (programs linked with the library hold copies of them) */
_Static_assert(sizeof(struct rd_op_s) == 24 || sizeof(void *) != 8, "struct rd_op_s changed size");

static inline int rd_op_valid(MPI_Op op)
{
    return op != MPI_OP_NULL && op->magic == RD_OP_MAGIC;
}

/* Pending operations (the reduction steps of a schedule) hold a reference
 * to a user op, so that MPI_Op_free may come before they complete: the op
 * goes with its last reference. */
static inline void rd_op_retain(MPI_Op op)
{
    if (!op->predefined)
        atomic_fetch_add_explicit(&op->refs, 1, memory_order_relaxed);
}

static inline void rd_op_release(MPI_Op op)
{
    if (!op->predefined && atomic_fetch_sub_explicit(&op->refs, 1, memory_order_acq_rel) == 1) {
        op->magic = 0;
        rd_fh_drop(RD_FH_OP, &op->fidx);
        free(op);
    }
}

/* inout[i] = in[i] op inout[i] for count elements of dt. Returns
 * MPI_SUCCESS, or MPI_ERR_OP when op is not defined on dt. */
int rd_op_apply(MPI_Op op, const void *in, void *inout, MPI_Count count, MPI_Datatype dt);
/* MPI_SUCCESS if op is defined on dt, else MPI_ERR_OP (checked before a
 * collective starts, so that no rank finds out half way). */
int rd_op_check(MPI_Op op, MPI_Datatype dt);

/* A predefined op's loop over n elements of one predefined type:
 * io[i] = in[i] op io[i]. */
typedef void (*rd_kernel)(const void *in, void *io, size_t n);
/* The loop that rd_op_apply runs for op on a contiguous dt whose elements
 * are back to back, and how many of the loop's elements one element of dt
 * holds (*per); NULL where there is no such loop (user ops, MPI_REPLACE,
 * MPI_NO_OP, layouts with gaps, op not defined on dt). */
rd_kernel rd_op_kernel(MPI_Op op, MPI_Datatype dt, size_t *per);

/* Naming reductions across processes (one-sided accumulates): a
 * predefined type's index in the kernels' table (-1: no kernels), the type
 * at an index (NULL: none), the predefined op of a code (NULL: none). */
int rd_op_type_index(MPI_Datatype basic);
MPI_Datatype rd_op_type_at(int index);
MPI_Op rd_op_of_code(int code);

#endif

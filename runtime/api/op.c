/* MPI_Op_create, MPI_Op_free, MPI_Op_commutative, MPI_Reduce_local. */
#include <mpi.h>
#include <stdlib.h>

#include "runtime/api/check.h"
#include "runtime/api/fspecial.h"
#include "runtime/objects/op.h"

#pragma weak MPI_Op_create = PMPI_Op_create
/* MPI_Op_create (code RD_OP_USER) and MPI_Op_create_c (RD_OP_CUSER: its
 * function takes an MPI_Count *len) */
static int op_create(const char *call, void (*fn)(void), int code, int commute, MPI_Op *op)
{
    RD_API_READY(call);
    if (!fn || !op)
        return rd_err_raise(MPI_COMM_WORLD, MPI_ERR_ARG, call, "%s is NULL", fn ? "op" : "user_fn");
    struct rd_op_s *o = calloc(1, sizeof(*o));
    if (!o)
        return rd_err_raise(MPI_COMM_WORLD, MPI_ERR_NO_MEM, call, "out of memory");
    o->magic = RD_OP_MAGIC;
    o->commute = commute != 0;
    o->code = (uint16_t)code;
    o->user = (MPI_User_function *)fn;
    atomic_init(&o->refs, 1);
    *op = o;
    return MPI_SUCCESS;
}

int PMPI_Op_create(MPI_User_function *fn, int commute, MPI_Op *op)
{
    return op_create("MPI_Op_create", (void (*)(void))fn, RD_OP_USER, commute, op);
}

#pragma weak MPI_Op_create_c = PMPI_Op_create_c
int PMPI_Op_create_c(MPI_User_function_c *fn, int commute, MPI_Op *op)
{
    return op_create("MPI_Op_create_c", (void (*)(void))fn, RD_OP_CUSER, commute, op);
}

/* The Fortran glue's MPI_OP_CREATE: the op it has just made from a Fortran
 * subroutine is called the Fortran way (objects/op.c, RD_OP_FUSER). The
 * predefined datatypes get their Fortran indices first (PMPI_Type_c2f
 * does that once), so that the op names them right. */
void rd_mpi_f_op(MPI_Op op)
{
    (void)PMPI_Type_c2f(MPI_DATATYPE_NULL);
    if (rd_op_valid(op) && op->code == RD_OP_USER)
        op->code = RD_OP_FUSER;
}

#pragma weak MPI_Op_free = PMPI_Op_free
int PMPI_Op_free(MPI_Op *op)
{
    RD_API_READY("MPI_Op_free");
    if (!op || !rd_op_valid(*op))
        return rd_err_raise(MPI_COMM_WORLD, MPI_ERR_OP, "MPI_Op_free", "invalid op");
    if ((*op)->predefined)
        return rd_err_raise(MPI_COMM_WORLD, MPI_ERR_OP, "MPI_Op_free", "a predefined op cannot be freed");
    rd_op_release(*op); /* pending reductions hold their own reference */
    *op = MPI_OP_NULL;
    return MPI_SUCCESS;
}

#pragma weak MPI_Op_commutative = PMPI_Op_commutative
int PMPI_Op_commutative(MPI_Op op, int *commute)
{
    RD_API_READY("MPI_Op_commutative");
    if (!rd_op_valid(op))
        return rd_err_raise(MPI_COMM_WORLD, MPI_ERR_OP, "MPI_Op_commutative", "invalid op");
    if (!commute)
        return rd_err_raise(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Op_commutative", "commute is NULL");
    *commute = op->commute;
    return MPI_SUCCESS;
}

static int reduce_local(const char *call, const void *inbuf, void *inoutbuf, MPI_Count count, MPI_Datatype dt,
                        MPI_Op op)
{
    RD_API_READY(call);
    if (!rd_op_valid(op))
        return rd_err_raise(MPI_COMM_WORLD, MPI_ERR_OP, call, "invalid op");
    RD_TRY(rd_check_buf(call, MPI_COMM_WORLD, inbuf, count, dt));
    RD_TRY(rd_check_buf(call, MPI_COMM_WORLD, inoutbuf, count, dt));
    int rc = rd_op_apply(op, inbuf, inoutbuf, count, dt);
    if (rc == MPI_ERR_OP)
        return rd_err_raise(MPI_COMM_WORLD, rc, call, "the op is not defined on %s", dt->name);
    if (rc != MPI_SUCCESS)
        return rd_err_raise(MPI_COMM_WORLD, rc, call, "out of memory");
    return MPI_SUCCESS;
}

#pragma weak MPI_Reduce_local = PMPI_Reduce_local
int PMPI_Reduce_local(const void *inbuf, void *inoutbuf, int count, MPI_Datatype dt, MPI_Op op)
{
    return reduce_local("MPI_Reduce_local", inbuf, inoutbuf, count, dt, op);
}

#pragma weak MPI_Reduce_local_c = PMPI_Reduce_local_c
int PMPI_Reduce_local_c(const void *inbuf, void *inoutbuf, MPI_Count count, MPI_Datatype dt, MPI_Op op)
{
    return reduce_local("MPI_Reduce_local_c", inbuf, inoutbuf, count, dt, op);
}

/* The conversions between C and Fortran handles (MPI_*_c2f, MPI_*_f2c:
 * runtime/objects/fhandle.h) and statuses (MPI_Status_c2f and the rest).
 * They need no MPI_Init. c2f of a handle that is not a live object gives 0,
 * f2c of a value that is not a live object of the kind its _NULL: every
 * call that then gets it raises its own error class. */
#include "config.h"

#include <mpi.h>
#include <pthread.h>
#include <stddef.h>
#include <string.h>

#include "runtime/objects/comm.h"
#include "runtime/objects/datatype.h"
#include "runtime/objects/errhandler.h"
#include "runtime/objects/fhandle.h"
#include "runtime/objects/file.h"
#include "runtime/objects/group.h"
#include "runtime/objects/info.h"
#include "runtime/objects/op.h"
#include "runtime/objects/session.h"
#include "runtime/objects/win.h"
#include "runtime/p2p/engine.h"
#include "runtime/p2p/request.h"

/* a Fortran status holds the C status's bytes */
_Static_assert(sizeof(MPI_Status) == MPI_F_STATUS_SIZE * sizeof(MPI_Fint), "MPI_Status is not MPI_F_STATUS_SIZE INTEGERs");
_Static_assert(sizeof(MPI_F08_status) == sizeof(MPI_Status), "MPI_F08_status differs from MPI_Status");
_Static_assert(offsetof(MPI_Status, MPI_SOURCE) == MPI_F_SOURCE * sizeof(MPI_Fint) &&
                   offsetof(MPI_Status, MPI_TAG) == MPI_F_TAG * sizeof(MPI_Fint) &&
                   offsetof(MPI_Status, MPI_ERROR) == MPI_F_ERROR * sizeof(MPI_Fint),
               "MPI_Status's public fields are not where Fortran reads them");

/* The special statuses' storage (the Fortran bindings name them too).
 * mpi_f08's MPI_STATUS_IGNORE and MPI_STATUSES_IGNORE are these same
 * objects (BIND(C) variables of mpi_f08_types: mpi_f08's glue is mpif.h's),
 * so C's MPI_F08_STATUS(ES)_IGNORE point at them as well: what mpi_f08
 * passes to MPI_STATUS_F2F08 is then known as a status-ignore constant. */
MPI_Fint rd_mpi_f_status_ignore_[MPI_F_STATUS_SIZE];
MPI_Fint rd_mpi_f_statuses_ignore_[MPI_F_STATUS_SIZE];
MPI_Fint *MPI_F_STATUS_IGNORE = rd_mpi_f_status_ignore_;
MPI_Fint *MPI_F_STATUSES_IGNORE = rd_mpi_f_statuses_ignore_;
_Static_assert(_Alignof(MPI_F08_status) == _Alignof(MPI_Fint) && sizeof(MPI_F08_status) == sizeof rd_mpi_f_status_ignore_,
               "MPI_F08_status is not MPI_F_STATUS_SIZE MPI_Fints");
MPI_F08_status *MPI_F08_STATUS_IGNORE = (MPI_F08_status *)(void *)rd_mpi_f_status_ignore_;
MPI_F08_status *MPI_F08_STATUSES_IGNORE = (MPI_F08_status *)(void *)rd_mpi_f_statuses_ignore_;

/* The predefined objects of each kind, in their fixed order (index 1
 * up: mpi.h's lists; the Fortran bindings' PARAMETERs are these). */
#define RD_FH_TYPE(NAME, name) &rd_mpi_##name,
#define RD_FH_OP(name) &rd_mpi_op_##name,
static void *const pre_comm[] = {MPI_COMM_WORLD, MPI_COMM_SELF};
static void *const pre_type[] = {RD_MPI_PREDEFINED_TYPES(RD_FH_TYPE)};
static void *const pre_group[] = {MPI_GROUP_EMPTY};
static void *const pre_op[] = {RD_MPI_PREDEFINED_OPS(RD_FH_OP)};
static void *const pre_errh[] = {MPI_ERRORS_ARE_FATAL, MPI_ERRORS_RETURN};
static void *const pre_info[] = {MPI_INFO_ENV};
static void *const pre_msg[] = {MPI_MESSAGE_NO_PROC};
#undef RD_FH_TYPE
#undef RD_FH_OP
#define N(a) ((int)(sizeof(a) / sizeof((a)[0])))

static pthread_once_t pre_once = PTHREAD_ONCE_INIT;

static void predefine(void)
{
    rd_fh_predefine(RD_FH_COMM, pre_comm, N(pre_comm));
    rd_fh_predefine(RD_FH_DATATYPE, pre_type, N(pre_type));
    rd_fh_predefine(RD_FH_GROUP, pre_group, N(pre_group));
    rd_fh_predefine(RD_FH_OP, pre_op, N(pre_op));
    rd_fh_predefine(RD_FH_ERRHANDLER, pre_errh, N(pre_errh));
    rd_fh_predefine(RD_FH_INFO, pre_info, N(pre_info));
    rd_fh_predefine(RD_FH_MESSAGE, pre_msg, N(pre_msg));
}

static int msg_valid(MPI_Message m)
{
    return m != MPI_MESSAGE_NULL && (m == MPI_MESSAGE_NO_PROC || m->magic == RD_MSG_MAGIC);
}

/* MPI_X_c2f and MPI_X_f2c for handle type T of kind K, live objects being
 * those VALID(h) accepts */
#define RD_F2C(X, T, K, VALID)                                                         \
    _Pragma(RD_STR(weak MPI_##X##_c2f = PMPI_##X##_c2f))                              \
    MPI_Fint PMPI_##X##_c2f(T h)                                                       \
    {                                                                                  \
        if (h && !VALID(h))                                                            \
            return 0;                                                                  \
        pthread_once(&pre_once, predefine);                                            \
        return rd_fh_c2f(K, h, h ? &h->fidx : NULL);                                   \
    }                                                                                  \
    _Pragma(RD_STR(weak MPI_##X##_f2c = PMPI_##X##_f2c))                              \
    T PMPI_##X##_f2c(MPI_Fint f)                                                       \
    {                                                                                  \
        pthread_once(&pre_once, predefine);                                            \
        T h = rd_fh_f2c(K, f);                                                         \
        return h && VALID(h) ? h : (T)0;                                               \
    }
#define RD_STR(x) #x

RD_F2C(Comm, MPI_Comm, RD_FH_COMM, rd_comm_valid)
RD_F2C(Type, MPI_Datatype, RD_FH_DATATYPE, rd_dt_valid)
RD_F2C(Group, MPI_Group, RD_FH_GROUP, rd_group_valid)
RD_F2C(Request, MPI_Request, RD_FH_REQUEST, rd_req_valid)
RD_F2C(Op, MPI_Op, RD_FH_OP, rd_op_valid)
RD_F2C(Errhandler, MPI_Errhandler, RD_FH_ERRHANDLER, rd_errh_valid)
RD_F2C(Info, MPI_Info, RD_FH_INFO, rd_info_valid)
RD_F2C(Win, MPI_Win, RD_FH_WIN, rd_win_valid)
RD_F2C(Message, MPI_Message, RD_FH_MESSAGE, msg_valid)
RD_F2C(File, MPI_File, RD_FH_FILE, rd_file_valid)
RD_F2C(Session, MPI_Session, RD_FH_SESSION, rd_session_valid)

/* one status's bytes from src to dst (both MPI_F_STATUS_SIZE INTEGERs) */
static int status_copy(const char *call, const void *src, int src_ignored, void *dst, int dst_ignored)
{
    if (!src || !dst || src_ignored || dst_ignored)
        return rd_err_raise(MPI_COMM_WORLD, MPI_ERR_ARG, call, "%s is %s", !src || src_ignored ? "the status to convert" : "the result",
                            !src || !dst ? "NULL" : "a status-ignore constant (nothing to convert)");
    memmove(dst, src, sizeof(MPI_Status));
    return MPI_SUCCESS;
}

static int f_ignored(const MPI_Fint *f)
{
    return f == MPI_F_STATUS_IGNORE || f == MPI_F_STATUSES_IGNORE;
}

static int f08_ignored(const MPI_F08_status *f)
{
    return f == MPI_F08_STATUS_IGNORE || f == MPI_F08_STATUSES_IGNORE;
}

#pragma weak MPI_Status_c2f = PMPI_Status_c2f
int PMPI_Status_c2f(const MPI_Status *c_status, MPI_Fint *f_status)
{
    return status_copy("MPI_Status_c2f", c_status, 0, f_status, f_ignored(f_status));
}

#pragma weak MPI_Status_f2c = PMPI_Status_f2c
int PMPI_Status_f2c(const MPI_Fint *f_status, MPI_Status *c_status)
{
    return status_copy("MPI_Status_f2c", f_status, f_ignored(f_status), c_status, 0);
}

#pragma weak MPI_Status_c2f08 = PMPI_Status_c2f08
int PMPI_Status_c2f08(const MPI_Status *c_status, MPI_F08_status *f08_status)
{
    return status_copy("MPI_Status_c2f08", c_status, 0, f08_status, f08_ignored(f08_status));
}

#pragma weak MPI_Status_f082c = PMPI_Status_f082c
int PMPI_Status_f082c(const MPI_F08_status *f08_status, MPI_Status *c_status)
{
    return status_copy("MPI_Status_f082c", f08_status, f08_ignored(f08_status), c_status, 0);
}

#pragma weak MPI_Status_f2f08 = PMPI_Status_f2f08
int PMPI_Status_f2f08(const MPI_Fint *f_status, MPI_F08_status *f08_status)
{
    return status_copy("MPI_Status_f2f08", f_status, f_ignored(f_status), f08_status, f08_ignored(f08_status));
}

#pragma weak MPI_Status_f082f = PMPI_Status_f082f
int PMPI_Status_f082f(const MPI_F08_status *f08_status, MPI_Fint *f_status)
{
    return status_copy("MPI_Status_f082f", f08_status, f08_ignored(f08_status), f_status, f_ignored(f_status));
}

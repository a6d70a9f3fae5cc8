/*
 * mpi.h - the MPI C API of rdmpi.
 *
 * Only what rdmpi implements is declared here: a function that is declared
 * works as the MPI standard says. Every MPI_ function has a PMPI_ twin (the
 * profiling interface); the MPI_ names are weak aliases of the PMPI_ ones.
 *
 * Handles are pointers to opaque objects, so that the compiler tells a
 * communicator from an error handler.
 *
 * The MPI-1 functions that MPI-3.0 removed (MPI_Keyval_create,
 * MPI_Attr_get, MPI_Address, MPI_Type_struct, MPI_Errhandler_set ... and
 * their types and callbacks), which older programs still call, are
 * declared too: each does what its replacement does (runtime/api/README.md,
 * "Functions removed in MPI-3.0"). A program that wants the strict
 * standard hides them by defining RDMPI_NO_MPI1_COMPAT, or Open MPI's
 * OMPI_OMIT_MPI1_COMPAT_DECLS to a non-zero value, before including mpi.h.
 */
#ifndef RDMPI_MPI_H
#define RDMPI_MPI_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------ versions */
#define MPI_VERSION 3
#define MPI_SUBVERSION 1
#define RDMPI 1
#define RDMPI_VERSION_STRING "0.1.0"
#define RDMPI_VERSION_MAJOR 0
#define RDMPI_VERSION_MINOR 1
#define RDMPI_VERSION_PATCH 0

/* ------------------------------------------------------------ sizes */
#define MPI_MAX_PROCESSOR_NAME 256
#define MPI_MAX_PORT_NAME 256
#define MPI_MAX_ERROR_STRING 512
#define MPI_MAX_LIBRARY_VERSION_STRING 8192
#define MPI_MAX_OBJECT_NAME 128
#define MPI_MAX_INFO_KEY 255
#define MPI_MAX_INFO_VAL 1024

/* ------------------------------------------------------------ scalar types */
typedef intptr_t MPI_Aint;
typedef long long MPI_Offset;
typedef long long MPI_Count;

/* ------------------------------------------------------------ handles */
typedef struct rd_comm_s *MPI_Comm;
typedef struct rd_datatype_s *MPI_Datatype;
typedef struct rd_request_s *MPI_Request;
typedef struct rd_message_s *MPI_Message;
typedef struct rd_op_s *MPI_Op;
typedef struct rd_errhandler_s *MPI_Errhandler;
typedef struct rd_group_s *MPI_Group;
typedef struct rd_info_s *MPI_Info;
typedef void MPI_Comm_errhandler_function(MPI_Comm *, int *, ...);
typedef struct rd_win_s *MPI_Win;
typedef void MPI_Win_errhandler_function(MPI_Win *, int *, ...);

/* predefined objects live in librdmpi; their addresses are the handles */
extern struct rd_comm_s rd_mpi_comm_world;
extern struct rd_comm_s rd_mpi_comm_self;
extern struct rd_errhandler_s rd_mpi_errors_are_fatal;
extern struct rd_errhandler_s rd_mpi_errors_return;
extern struct rd_group_s rd_mpi_group_empty;
extern struct rd_info_s rd_mpi_info_env;

#define MPI_COMM_NULL ((MPI_Comm)0)
#define MPI_COMM_WORLD (&rd_mpi_comm_world)
#define MPI_COMM_SELF (&rd_mpi_comm_self)
#define MPI_ERRHANDLER_NULL ((MPI_Errhandler)0)
#define MPI_ERRORS_ARE_FATAL (&rd_mpi_errors_are_fatal)
#define MPI_ERRORS_RETURN (&rd_mpi_errors_return)
#define MPI_GROUP_NULL ((MPI_Group)0)
#define MPI_GROUP_EMPTY (&rd_mpi_group_empty)
#define MPI_INFO_NULL ((MPI_Info)0)
#define MPI_WIN_NULL ((MPI_Win)0)
#define MPI_INFO_ENV (&rd_mpi_info_env)

#define MPI_DATATYPE_NULL ((MPI_Datatype)0)
#define MPI_REQUEST_NULL ((MPI_Request)0)
#define MPI_MESSAGE_NULL ((MPI_Message)0)
extern struct rd_message_s rd_mpi_message_no_proc;
#define MPI_MESSAGE_NO_PROC (&rd_mpi_message_no_proc)

/* ------------------------------------------------------------ predefined datatypes */
#define RD_MPI_PREDEFINED_TYPES(X)                                                     \
    X(CHAR, char) X(SIGNED_CHAR, signed_char) X(UNSIGNED_CHAR, unsigned_char)          \
    X(BYTE, byte) X(WCHAR, wchar) X(SHORT, short) X(UNSIGNED_SHORT, unsigned_short)    \
    X(INT, int) X(UNSIGNED, unsigned) X(LONG, long) X(UNSIGNED_LONG, unsigned_long)    \
    X(LONG_LONG_INT, long_long_int) X(LONG_LONG, long_long)                            \
    X(UNSIGNED_LONG_LONG, unsigned_long_long) X(FLOAT, float) X(DOUBLE, double)        \
    X(LONG_DOUBLE, long_double) X(C_BOOL, c_bool) X(INT8_T, int8_t)                    \
    X(INT16_T, int16_t) X(INT32_T, int32_t) X(INT64_T, int64_t) X(UINT8_T, uint8_t)    \
    X(UINT16_T, uint16_t) X(UINT32_T, uint32_t) X(UINT64_T, uint64_t)                  \
    X(AINT, aint) X(OFFSET, offset) X(COUNT, count) X(C_COMPLEX, c_complex)            \
    X(C_FLOAT_COMPLEX, c_float_complex) X(C_DOUBLE_COMPLEX, c_double_complex)          \
    X(C_LONG_DOUBLE_COMPLEX, c_long_double_complex) X(PACKED, packed)                  \
    X(FLOAT_INT, float_int) X(DOUBLE_INT, double_int) X(LONG_INT, long_int)            \
    X(2INT, 2int) X(SHORT_INT, short_int) X(LONG_DOUBLE_INT, long_double_int)         \
    X(CXX_BOOL, cxx_bool) X(CXX_FLOAT_COMPLEX, cxx_float_complex)                      \
    X(CXX_DOUBLE_COMPLEX, cxx_double_complex)                                          \
    X(CXX_LONG_DOUBLE_COMPLEX, cxx_long_double_complex) X(CHARACTER, character)        \
    X(LOGICAL, logical) X(INTEGER, integer) X(REAL, real)                              \
    X(DOUBLE_PRECISION, double_precision) X(COMPLEX, complex)                          \
    X(DOUBLE_COMPLEX, double_complex) X(INTEGER1, integer1) X(INTEGER2, integer2)      \
    X(INTEGER4, integer4) X(INTEGER8, integer8) X(REAL4, real4) X(REAL8, real8)        \
    X(COMPLEX8, complex8) X(COMPLEX16, complex16) X(2INTEGER, 2integer)                \
    X(2REAL, 2real) X(2DOUBLE_PRECISION, 2double_precision) X(REAL16, real16)         \
    X(COMPLEX32, complex32)

#define RD_MPI_DECLARE_TYPE(NAME, name) extern struct rd_datatype_s rd_mpi_##name;
RD_MPI_PREDEFINED_TYPES(RD_MPI_DECLARE_TYPE)
#undef RD_MPI_DECLARE_TYPE

#define MPI_CHAR (&rd_mpi_char)
#define MPI_SIGNED_CHAR (&rd_mpi_signed_char)
#define MPI_UNSIGNED_CHAR (&rd_mpi_unsigned_char)
#define MPI_BYTE (&rd_mpi_byte)
#define MPI_WCHAR (&rd_mpi_wchar)
#define MPI_SHORT (&rd_mpi_short)
#define MPI_UNSIGNED_SHORT (&rd_mpi_unsigned_short)
#define MPI_INT (&rd_mpi_int)
#define MPI_UNSIGNED (&rd_mpi_unsigned)
#define MPI_LONG (&rd_mpi_long)
#define MPI_UNSIGNED_LONG (&rd_mpi_unsigned_long)
#define MPI_LONG_LONG_INT (&rd_mpi_long_long_int)
#define MPI_LONG_LONG (&rd_mpi_long_long)
#define MPI_UNSIGNED_LONG_LONG (&rd_mpi_unsigned_long_long)
#define MPI_FLOAT (&rd_mpi_float)
#define MPI_DOUBLE (&rd_mpi_double)
#define MPI_LONG_DOUBLE (&rd_mpi_long_double)
#define MPI_C_BOOL (&rd_mpi_c_bool)
#define MPI_INT8_T (&rd_mpi_int8_t)
#define MPI_INT16_T (&rd_mpi_int16_t)
#define MPI_INT32_T (&rd_mpi_int32_t)
#define MPI_INT64_T (&rd_mpi_int64_t)
#define MPI_UINT8_T (&rd_mpi_uint8_t)
#define MPI_UINT16_T (&rd_mpi_uint16_t)
#define MPI_UINT32_T (&rd_mpi_uint32_t)
#define MPI_UINT64_T (&rd_mpi_uint64_t)
#define MPI_AINT (&rd_mpi_aint)
#define MPI_OFFSET (&rd_mpi_offset)
#define MPI_COUNT (&rd_mpi_count)
#define MPI_C_COMPLEX (&rd_mpi_c_complex)
#define MPI_C_FLOAT_COMPLEX (&rd_mpi_c_float_complex)
#define MPI_C_DOUBLE_COMPLEX (&rd_mpi_c_double_complex)
#define MPI_C_LONG_DOUBLE_COMPLEX (&rd_mpi_c_long_double_complex)
#define MPI_PACKED (&rd_mpi_packed)
#define MPI_FLOAT_INT (&rd_mpi_float_int)
#define MPI_DOUBLE_INT (&rd_mpi_double_int)
#define MPI_LONG_INT (&rd_mpi_long_int)
#define MPI_2INT (&rd_mpi_2int)
#define MPI_SHORT_INT (&rd_mpi_short_int)
#define MPI_LONG_DOUBLE_INT (&rd_mpi_long_double_int)
/* C++ types */
#define MPI_CXX_BOOL (&rd_mpi_cxx_bool)
#define MPI_CXX_FLOAT_COMPLEX (&rd_mpi_cxx_float_complex)
#define MPI_CXX_DOUBLE_COMPLEX (&rd_mpi_cxx_double_complex)
#define MPI_CXX_LONG_DOUBLE_COMPLEX (&rd_mpi_cxx_long_double_complex)
/* Fortran types (gfortran's default sizes) */
#define MPI_CHARACTER (&rd_mpi_character)
#define MPI_LOGICAL (&rd_mpi_logical)
#define MPI_INTEGER (&rd_mpi_integer)
#define MPI_REAL (&rd_mpi_real)
#define MPI_DOUBLE_PRECISION (&rd_mpi_double_precision)
#define MPI_COMPLEX (&rd_mpi_complex)
#define MPI_DOUBLE_COMPLEX (&rd_mpi_double_complex)
#define MPI_INTEGER1 (&rd_mpi_integer1)
#define MPI_INTEGER2 (&rd_mpi_integer2)
#define MPI_INTEGER4 (&rd_mpi_integer4)
#define MPI_INTEGER8 (&rd_mpi_integer8)
#define MPI_REAL4 (&rd_mpi_real4)
#define MPI_REAL8 (&rd_mpi_real8)
#define MPI_COMPLEX8 (&rd_mpi_complex8)
#define MPI_COMPLEX16 (&rd_mpi_complex16)
#define MPI_2INTEGER (&rd_mpi_2integer)
#define MPI_2REAL (&rd_mpi_2real)
#define MPI_2DOUBLE_PRECISION (&rd_mpi_2double_precision)
/* gfortran's REAL(16) and COMPLEX(16): IEEE binary128 (__float128) */
#define MPI_REAL16 (&rd_mpi_real16)
#define MPI_COMPLEX32 (&rd_mpi_complex32)

/* ------------------------------------------------------------ reduction operations */
typedef void MPI_User_function(void *invec, void *inoutvec, int *len, MPI_Datatype *datatype);
typedef void MPI_User_function_c(void *invec, void *inoutvec, MPI_Count *len, MPI_Datatype *datatype);
#define RD_MPI_PREDEFINED_OPS(X)                                                       \
    X(max) X(min) X(sum) X(prod) X(land) X(band) X(lor) X(bor) X(lxor) X(bxor) X(maxloc) \
    X(minloc) X(replace) X(no_op)
#define RD_MPI_DECLARE_OP(name) extern struct rd_op_s rd_mpi_op_##name;
RD_MPI_PREDEFINED_OPS(RD_MPI_DECLARE_OP)
#undef RD_MPI_DECLARE_OP
#define MPI_OP_NULL ((MPI_Op)0)
#define MPI_MAX (&rd_mpi_op_max)
#define MPI_MIN (&rd_mpi_op_min)
#define MPI_SUM (&rd_mpi_op_sum)
#define MPI_PROD (&rd_mpi_op_prod)
#define MPI_LAND (&rd_mpi_op_land)
#define MPI_BAND (&rd_mpi_op_band)
#define MPI_LOR (&rd_mpi_op_lor)
#define MPI_BOR (&rd_mpi_op_bor)
#define MPI_LXOR (&rd_mpi_op_lxor)
#define MPI_BXOR (&rd_mpi_op_bxor)
#define MPI_MAXLOC (&rd_mpi_op_maxloc)
#define MPI_MINLOC (&rd_mpi_op_minloc)
#define MPI_REPLACE (&rd_mpi_op_replace)
#define MPI_NO_OP (&rd_mpi_op_no_op)

/* ------------------------------------------------------------ point-to-point constants */
#define MPI_ANY_SOURCE (-1)
#define MPI_ANY_TAG (-1)
#define MPI_PROC_NULL (-2)
#define MPI_ROOT (-3)
#define MPI_UNDEFINED (-32766)
#define MPI_BOTTOM ((void *)0)
#define MPI_IN_PLACE ((void *)1)
#define MPI_BSEND_OVERHEAD 64
#define MPI_BUFFER_AUTOMATIC ((void *)2) /* MPI 4.1: attach a buffer that grows as needed */
/* MPI_Comm_split_type's split types (MPICH's values) */
#define MPI_COMM_TYPE_SHARED 1
#define MPI_COMM_TYPE_HW_GUIDED 2
#define MPI_COMM_TYPE_HW_UNGUIDED 3
#define MPI_COMM_TYPE_RESOURCE_GUIDED 4 /* MPI 4.1 */
/* topology kinds (MPI_Topo_test) */
#define MPI_GRAPH 1
#define MPI_CART 2
#define MPI_DIST_GRAPH 3
extern int rd_mpi_unweighted[1];
extern int rd_mpi_weights_empty[1];
#define MPI_UNWEIGHTED (rd_mpi_unweighted)
#define MPI_WEIGHTS_EMPTY (rd_mpi_weights_empty)

/* ------------------------------------------------------------ attributes */
typedef int MPI_Comm_copy_attr_function(MPI_Comm oldcomm, int comm_keyval, void *extra_state,
                                        void *attribute_val_in, void *attribute_val_out, int *flag);
typedef int MPI_Comm_delete_attr_function(MPI_Comm comm, int comm_keyval, void *attribute_val,
                                          void *extra_state);
int rd_mpi_comm_null_copy_fn(MPI_Comm, int, void *, void *, void *, int *);
int rd_mpi_comm_dup_fn(MPI_Comm, int, void *, void *, void *, int *);
int rd_mpi_comm_null_delete_fn(MPI_Comm, int, void *, void *);
#define MPI_COMM_NULL_COPY_FN rd_mpi_comm_null_copy_fn
#define MPI_COMM_DUP_FN rd_mpi_comm_dup_fn
#define MPI_COMM_NULL_DELETE_FN rd_mpi_comm_null_delete_fn
#define MPI_KEYVAL_INVALID (-1)
/* predefined attribute keys (their values are ints, got through a pointer) */
#define MPI_TAG_UB 1000
#define MPI_HOST 1001
#define MPI_IO 1002
#define MPI_WTIME_IS_GLOBAL 1003
#define MPI_APPNUM 1004
#define MPI_UNIVERSE_SIZE 1005
#define MPI_LASTUSEDCODE 1006
/* combiners (MPI_Type_get_envelope) */
#define MPI_COMBINER_NAMED 0
#define MPI_COMBINER_DUP 1
#define MPI_COMBINER_CONTIGUOUS 2
#define MPI_COMBINER_VECTOR 3
#define MPI_COMBINER_HVECTOR 4
#define MPI_COMBINER_INDEXED 5
#define MPI_COMBINER_HINDEXED 6
#define MPI_COMBINER_INDEXED_BLOCK 7
#define MPI_COMBINER_HINDEXED_BLOCK 8
#define MPI_COMBINER_STRUCT 9
#define MPI_COMBINER_SUBARRAY 10
#define MPI_COMBINER_DARRAY 11
#define MPI_COMBINER_F90_REAL 12
#define MPI_COMBINER_F90_COMPLEX 13
#define MPI_COMBINER_F90_INTEGER 14
#define MPI_TYPECLASS_REAL 1
#define MPI_TYPECLASS_INTEGER 2
#define MPI_TYPECLASS_COMPLEX 3
#define MPI_COMBINER_RESIZED 15
#define RDMPI_TAG_UB 2147483647 /* the value of the MPI_TAG_UB attribute */
/* datatype constructors: array orders, distributions (subarray, darray) */
#define MPI_ORDER_C 56
#define MPI_ORDER_FORTRAN 57
#define MPI_DISTRIBUTE_BLOCK 121
#define MPI_DISTRIBUTE_CYCLIC 122
#define MPI_DISTRIBUTE_NONE 123
#define MPI_DISTRIBUTE_DFLT_DARG (-49767)
/* attributes on datatypes */
typedef int MPI_Type_copy_attr_function(MPI_Datatype oldtype, int type_keyval, void *extra_state,
                                        void *attribute_val_in, void *attribute_val_out, int *flag);
typedef int MPI_Type_delete_attr_function(MPI_Datatype datatype, int type_keyval,
                                          void *attribute_val, void *extra_state);
int rd_mpi_type_null_copy_fn(MPI_Datatype, int, void *, void *, void *, int *);
int rd_mpi_type_dup_fn(MPI_Datatype, int, void *, void *, void *, int *);
int rd_mpi_type_null_delete_fn(MPI_Datatype, int, void *, void *);
#define MPI_TYPE_NULL_COPY_FN rd_mpi_type_null_copy_fn
#define MPI_TYPE_DUP_FN rd_mpi_type_dup_fn
#define MPI_TYPE_NULL_DELETE_FN rd_mpi_type_null_delete_fn
/* windows: attributes, predefined attribute keys and their values */
typedef int MPI_Win_copy_attr_function(MPI_Win oldwin, int win_keyval, void *extra_state,
                                       void *attribute_val_in, void *attribute_val_out, int *flag);
typedef int MPI_Win_delete_attr_function(MPI_Win win, int win_keyval, void *attribute_val,
                                         void *extra_state);
int rd_mpi_win_null_copy_fn(MPI_Win, int, void *, void *, void *, int *);
int rd_mpi_win_dup_fn(MPI_Win, int, void *, void *, void *, int *);
int rd_mpi_win_null_delete_fn(MPI_Win, int, void *, void *);
#define MPI_WIN_NULL_COPY_FN rd_mpi_win_null_copy_fn
#define MPI_WIN_DUP_FN rd_mpi_win_dup_fn
#define MPI_WIN_NULL_DELETE_FN rd_mpi_win_null_delete_fn
#define MPI_WIN_BASE 1010
#define MPI_WIN_SIZE 1011
#define MPI_WIN_DISP_UNIT 1012
#define MPI_WIN_CREATE_FLAVOR 1013
#define MPI_WIN_MODEL 1014
#define MPI_WIN_FLAVOR_CREATE 1
#define MPI_WIN_FLAVOR_ALLOCATE 2
#define MPI_WIN_FLAVOR_DYNAMIC 3
#define MPI_WIN_FLAVOR_SHARED 4
#define MPI_WIN_SEPARATE 1
#define MPI_WIN_UNIFIED 2
/* one-sided: assertions and lock types */
#define MPI_MODE_NOCHECK 1024
#define MPI_MODE_NOSTORE 2048
#define MPI_MODE_NOPUT 4096
#define MPI_MODE_NOPRECEDE 8192
#define MPI_MODE_NOSUCCEED 16384
#define MPI_LOCK_EXCLUSIVE 234
#define MPI_LOCK_SHARED 235

typedef struct MPI_Status {
    int MPI_SOURCE;
    int MPI_TAG;
    int MPI_ERROR;
    int rd_cancelled;   /* private */
    MPI_Count rd_bytes; /* private: bytes received */
} MPI_Status;

/* generalized requests (MPI-3.1 12.2): the user's callbacks */
typedef int MPI_Grequest_query_function(void *extra_state, MPI_Status *status);
typedef int MPI_Grequest_free_function(void *extra_state);
typedef int MPI_Grequest_cancel_function(void *extra_state, int complete);

/* ------------------------------------------------------------ Fortran interoperability */
/* A Fortran INTEGER (gfortran's default, 4 bytes); a Fortran handle is
 * kind << 24 | index, its kind's _NULL index 0 (runtime/objects/fhandle.h).
 * A Fortran status is MPI_STATUS_SIZE INTEGERs holding the C status's
 * bytes, MPI_SOURCE, MPI_TAG and MPI_ERROR first (Fortran indices 1-3). */
typedef int MPI_Fint;
#define MPI_F_STATUS_SIZE 6
#define MPI_F_SOURCE 0
#define MPI_F_TAG 1
#define MPI_F_ERROR 2
typedef struct MPI_F08_status {
    MPI_Fint MPI_SOURCE;
    MPI_Fint MPI_TAG;
    MPI_Fint MPI_ERROR;
    MPI_Fint rd_internal[3]; /* private */
} MPI_F08_status;
extern MPI_Fint *MPI_F_STATUS_IGNORE;
extern MPI_Fint *MPI_F_STATUSES_IGNORE;
extern MPI_F08_status *MPI_F08_STATUS_IGNORE;
extern MPI_F08_status *MPI_F08_STATUSES_IGNORE;

#define MPI_STATUS_IGNORE ((MPI_Status *)0)
#define MPI_STATUSES_IGNORE ((MPI_Status *)0)

/* results of MPI_Group_compare (and MPI_Comm_compare) */
#define MPI_IDENT 0
#define MPI_CONGRUENT 1
#define MPI_SIMILAR 2
#define MPI_UNEQUAL 3

/* ------------------------------------------------------------ threads */
#define MPI_THREAD_SINGLE 0
#define MPI_THREAD_FUNNELED 1
#define MPI_THREAD_SERIALIZED 2
#define MPI_THREAD_MULTIPLE 3

/* ------------------------------------------------------------ error classes (MPI-3.1) */
#define MPI_SUCCESS 0
#define MPI_ERR_BUFFER 1
#define MPI_ERR_COUNT 2
#define MPI_ERR_TYPE 3
#define MPI_ERR_TAG 4
#define MPI_ERR_COMM 5
#define MPI_ERR_RANK 6
#define MPI_ERR_REQUEST 7
#define MPI_ERR_ROOT 8
#define MPI_ERR_GROUP 9
#define MPI_ERR_OP 10
#define MPI_ERR_TOPOLOGY 11
#define MPI_ERR_DIMS 12
#define MPI_ERR_ARG 13
#define MPI_ERR_UNKNOWN 14
#define MPI_ERR_TRUNCATE 15
#define MPI_ERR_OTHER 16
#define MPI_ERR_INTERN 17
#define MPI_ERR_IN_STATUS 18
#define MPI_ERR_PENDING 19
#define MPI_ERR_ACCESS 20
#define MPI_ERR_AMODE 21
#define MPI_ERR_ASSERT 22
#define MPI_ERR_BAD_FILE 23
#define MPI_ERR_BASE 24
#define MPI_ERR_CONVERSION 25
#define MPI_ERR_DISP 26
#define MPI_ERR_DUP_DATAREP 27
#define MPI_ERR_FILE_EXISTS 28
#define MPI_ERR_FILE_IN_USE 29
#define MPI_ERR_FILE 30
#define MPI_ERR_INFO_KEY 31
#define MPI_ERR_INFO_NOKEY 32
#define MPI_ERR_INFO_VALUE 33
#define MPI_ERR_INFO 34
#define MPI_ERR_IO 35
#define MPI_ERR_KEYVAL 36
#define MPI_ERR_LOCKTYPE 37
#define MPI_ERR_NAME 38
#define MPI_ERR_NO_MEM 39
#define MPI_ERR_NOT_SAME 40
#define MPI_ERR_NO_SPACE 41
#define MPI_ERR_NO_SUCH_FILE 42
#define MPI_ERR_PORT 43
#define MPI_ERR_QUOTA 44
#define MPI_ERR_READ_ONLY 45
#define MPI_ERR_RMA_ATTACH 46
#define MPI_ERR_RMA_CONFLICT 47
#define MPI_ERR_RMA_RANGE 48
#define MPI_ERR_RMA_SHARED 49
#define MPI_ERR_RMA_SYNC 50
#define MPI_ERR_RMA_FLAVOR 51
#define MPI_ERR_SERVICE 52
#define MPI_ERR_SIZE 53
#define MPI_ERR_SPAWN 54
#define MPI_ERR_UNSUPPORTED_DATAREP 55
#define MPI_ERR_UNSUPPORTED_OPERATION 56
#define MPI_ERR_WIN 57
#define MPI_T_ERR_MEMORY 58
#define MPI_T_ERR_NOT_INITIALIZED 59
#define MPI_T_ERR_CANNOT_INIT 60
#define MPI_T_ERR_INVALID_INDEX 61
#define MPI_T_ERR_INVALID_ITEM 62
#define MPI_T_ERR_INVALID_HANDLE 63
#define MPI_T_ERR_OUT_OF_HANDLES 64
#define MPI_T_ERR_OUT_OF_SESSIONS 65
#define MPI_T_ERR_INVALID_SESSION 66
#define MPI_T_ERR_CVAR_SET_NOT_NOW 67
#define MPI_T_ERR_CVAR_SET_NEVER 68
#define MPI_T_ERR_PVAR_NO_STARTSTOP 69
#define MPI_T_ERR_PVAR_NO_WRITE 70
#define MPI_T_ERR_PVAR_NO_ATOMIC 71
#define MPI_T_ERR_INVALID_NAME 72
#define MPI_T_ERR_INVALID 73
#define MPI_ERR_PROC_ABORTED 74
#define MPI_ERR_VALUE_TOO_LARGE 75
#define MPI_ERR_SESSION 76
#define MPI_ERR_ERRHANDLER 77
#define MPI_ERR_LASTCODE 78

/* ------------------------------------------------------------ functions */
#define RD_MPI_PROTO(ret, name, args) ret MPI_##name args; ret PMPI_##name args;

RD_MPI_PROTO(int, Init, (int *argc, char ***argv))
RD_MPI_PROTO(int, Init_thread, (int *argc, char ***argv, int required, int *provided))
RD_MPI_PROTO(int, Finalize, (void))
RD_MPI_PROTO(int, Initialized, (int *flag))
RD_MPI_PROTO(int, Finalized, (int *flag))
RD_MPI_PROTO(int, Query_thread, (int *provided))
RD_MPI_PROTO(int, Is_thread_main, (int *flag))
RD_MPI_PROTO(int, Abort, (MPI_Comm comm, int errorcode))

RD_MPI_PROTO(int, Comm_rank, (MPI_Comm comm, int *rank))
RD_MPI_PROTO(int, Comm_size, (MPI_Comm comm, int *size))
RD_MPI_PROTO(int, Comm_dup, (MPI_Comm comm, MPI_Comm *newcomm))
RD_MPI_PROTO(int, Comm_split, (MPI_Comm comm, int color, int key, MPI_Comm *newcomm))
RD_MPI_PROTO(int, Comm_create, (MPI_Comm comm, MPI_Group group, MPI_Comm *newcomm))
RD_MPI_PROTO(int, Comm_create_group, (MPI_Comm comm, MPI_Group group, int tag, MPI_Comm *newcomm))
RD_MPI_PROTO(int, Cart_create, (MPI_Comm comm_old, int ndims, const int dims[], const int periods[],
                                int reorder, MPI_Comm *comm_cart))
RD_MPI_PROTO(int, Cart_get, (MPI_Comm comm, int maxdims, int dims[], int periods[], int coords[]))
RD_MPI_PROTO(int, Cartdim_get, (MPI_Comm comm, int *ndims))
RD_MPI_PROTO(int, Cart_coords, (MPI_Comm comm, int rank, int maxdims, int coords[]))
RD_MPI_PROTO(int, Cart_rank, (MPI_Comm comm, const int coords[], int *rank))
RD_MPI_PROTO(int, Cart_shift, (MPI_Comm comm, int direction, int disp, int *rank_source, int *rank_dest))
RD_MPI_PROTO(int, Cart_sub, (MPI_Comm comm, const int remain_dims[], MPI_Comm *newcomm))
RD_MPI_PROTO(int, Cart_map, (MPI_Comm comm, int ndims, const int dims[], const int periods[], int *newrank))
RD_MPI_PROTO(int, Topo_test, (MPI_Comm comm, int *status))
RD_MPI_PROTO(int, Graph_create, (MPI_Comm comm_old, int nnodes, const int index[], const int edges[],
                                 int reorder, MPI_Comm *comm_graph))
RD_MPI_PROTO(int, Graphdims_get, (MPI_Comm comm, int *nnodes, int *nedges))
RD_MPI_PROTO(int, Graph_get, (MPI_Comm comm, int maxindex, int maxedges, int index[], int edges[]))
RD_MPI_PROTO(int, Graph_neighbors_count, (MPI_Comm comm, int rank, int *nneighbors))
RD_MPI_PROTO(int, Graph_neighbors, (MPI_Comm comm, int rank, int maxneighbors, int neighbors[]))
RD_MPI_PROTO(int, Graph_map, (MPI_Comm comm, int nnodes, const int index[], const int edges[], int *newrank))
RD_MPI_PROTO(int, Dist_graph_create_adjacent, (MPI_Comm comm_old, int indegree, const int sources[],
                                               const int sourceweights[], int outdegree,
                                               const int destinations[], const int destweights[],
                                               MPI_Info info, int reorder, MPI_Comm *comm_dist_graph))
RD_MPI_PROTO(int, Dist_graph_create, (MPI_Comm comm_old, int n, const int sources[], const int degrees[],
                                      const int destinations[], const int weights[], MPI_Info info,
                                      int reorder, MPI_Comm *comm_dist_graph))
RD_MPI_PROTO(int, Dist_graph_neighbors_count, (MPI_Comm comm, int *indegree, int *outdegree, int *weighted))
RD_MPI_PROTO(int, Dist_graph_neighbors, (MPI_Comm comm, int maxindegree, int sources[], int sourceweights[],
                                         int maxoutdegree, int destinations[], int destweights[]))
RD_MPI_PROTO(int, Comm_create_keyval, (MPI_Comm_copy_attr_function *comm_copy_attr_fn,
                                       MPI_Comm_delete_attr_function *comm_delete_attr_fn,
                                       int *comm_keyval, void *extra_state))
RD_MPI_PROTO(int, Comm_free_keyval, (int *comm_keyval))
RD_MPI_PROTO(int, Comm_set_attr, (MPI_Comm comm, int comm_keyval, void *attribute_val))
RD_MPI_PROTO(int, Comm_get_attr, (MPI_Comm comm, int comm_keyval, void *attribute_val, int *flag))
RD_MPI_PROTO(int, Comm_delete_attr, (MPI_Comm comm, int comm_keyval))
RD_MPI_PROTO(int, Comm_free, (MPI_Comm *comm))
RD_MPI_PROTO(int, Comm_compare, (MPI_Comm comm1, MPI_Comm comm2, int *result))
RD_MPI_PROTO(int, Comm_set_name, (MPI_Comm comm, const char *comm_name))
RD_MPI_PROTO(int, Comm_get_name, (MPI_Comm comm, char *comm_name, int *resultlen))
RD_MPI_PROTO(int, Comm_dup_with_info, (MPI_Comm comm, MPI_Info info, MPI_Comm *newcomm))
RD_MPI_PROTO(int, Comm_split_type, (MPI_Comm comm, int split_type, int key, MPI_Info info, MPI_Comm *newcomm))
RD_MPI_PROTO(int, Comm_test_inter, (MPI_Comm comm, int *flag))
RD_MPI_PROTO(int, Comm_set_info, (MPI_Comm comm, MPI_Info info))
RD_MPI_PROTO(int, Comm_get_info, (MPI_Comm comm, MPI_Info *info_used))
/* intercommunicators */
RD_MPI_PROTO(int, Intercomm_create, (MPI_Comm local_comm, int local_leader, MPI_Comm peer_comm,
                                     int remote_leader, int tag, MPI_Comm *newintercomm))
RD_MPI_PROTO(int, Intercomm_merge, (MPI_Comm intercomm, int high, MPI_Comm *newintracomm))
RD_MPI_PROTO(int, Comm_remote_size, (MPI_Comm comm, int *size))
RD_MPI_PROTO(int, Comm_remote_group, (MPI_Comm comm, MPI_Group *group))

RD_MPI_PROTO(int, Get_processor_name, (char *name, int *resultlen))
RD_MPI_PROTO(int, Get_version, (int *version, int *subversion))
RD_MPI_PROTO(int, Get_library_version, (char *version, int *resultlen))
RD_MPI_PROTO(int, Pcontrol, (const int level, ...))
RD_MPI_PROTO(double, Wtime, (void))
RD_MPI_PROTO(double, Wtick, (void))

RD_MPI_PROTO(int, Error_string, (int errorcode, char *string, int *resultlen))
RD_MPI_PROTO(int, Error_class, (int errorcode, int *errorclass))
RD_MPI_PROTO(int, Add_error_class, (int *errorclass))
RD_MPI_PROTO(int, Add_error_code, (int errorclass, int *errorcode))
RD_MPI_PROTO(int, Add_error_string, (int errorcode, const char *string))
RD_MPI_PROTO(int, Remove_error_class, (int errorclass))
RD_MPI_PROTO(int, Remove_error_code, (int errorcode))
RD_MPI_PROTO(int, Remove_error_string, (int errorcode))
RD_MPI_PROTO(int, Comm_set_errhandler, (MPI_Comm comm, MPI_Errhandler errhandler))
RD_MPI_PROTO(int, Comm_get_errhandler, (MPI_Comm comm, MPI_Errhandler *errhandler))
RD_MPI_PROTO(int, Errhandler_free, (MPI_Errhandler *errhandler))
RD_MPI_PROTO(int, Comm_create_errhandler,
             (MPI_Comm_errhandler_function *comm_errhandler_fn, MPI_Errhandler *errhandler))
RD_MPI_PROTO(int, Comm_call_errhandler, (MPI_Comm comm, int errorcode))

/* windows: creation, group, names, attributes and error handlers (one-sided
 * communication itself is not provided yet, and not declared) */
RD_MPI_PROTO(int, Win_create, (void *base, MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm,
                               MPI_Win *win))
RD_MPI_PROTO(int, Win_free, (MPI_Win *win))
RD_MPI_PROTO(int, Win_get_group, (MPI_Win win, MPI_Group *group))
RD_MPI_PROTO(int, Win_set_name, (MPI_Win win, const char *win_name))
RD_MPI_PROTO(int, Win_get_name, (MPI_Win win, char *win_name, int *resultlen))
RD_MPI_PROTO(int, Win_create_keyval, (MPI_Win_copy_attr_function *win_copy_attr_fn,
                                      MPI_Win_delete_attr_function *win_delete_attr_fn, int *win_keyval,
                                      void *extra_state))
RD_MPI_PROTO(int, Win_free_keyval, (int *win_keyval))
RD_MPI_PROTO(int, Win_set_attr, (MPI_Win win, int win_keyval, void *attribute_val))
RD_MPI_PROTO(int, Win_get_attr, (MPI_Win win, int win_keyval, void *attribute_val, int *flag))
RD_MPI_PROTO(int, Win_delete_attr, (MPI_Win win, int win_keyval))
RD_MPI_PROTO(int, Win_create_errhandler, (MPI_Win_errhandler_function *win_errhandler_fn,
                                          MPI_Errhandler *errhandler))
RD_MPI_PROTO(int, Win_set_errhandler, (MPI_Win win, MPI_Errhandler errhandler))
RD_MPI_PROTO(int, Win_get_errhandler, (MPI_Win win, MPI_Errhandler *errhandler))
RD_MPI_PROTO(int, Win_call_errhandler, (MPI_Win win, int errorcode))
/* one-sided communication (runtime/rma/) */
RD_MPI_PROTO(int, Win_allocate, (MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm, void *baseptr,
                                 MPI_Win *win))
RD_MPI_PROTO(int, Win_allocate_shared, (MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm,
                                        void *baseptr, MPI_Win *win))
RD_MPI_PROTO(int, Win_shared_query, (MPI_Win win, int rank, MPI_Aint *size, int *disp_unit, void *baseptr))
RD_MPI_PROTO(int, Win_create_dynamic, (MPI_Info info, MPI_Comm comm, MPI_Win *win))
RD_MPI_PROTO(int, Win_attach, (MPI_Win win, void *base, MPI_Aint size))
RD_MPI_PROTO(int, Win_detach, (MPI_Win win, const void *base))
RD_MPI_PROTO(int, Win_get_info, (MPI_Win win, MPI_Info *info_used))
RD_MPI_PROTO(int, Win_set_info, (MPI_Win win, MPI_Info info))
RD_MPI_PROTO(int, Alloc_mem, (MPI_Aint size, MPI_Info info, void *baseptr))
RD_MPI_PROTO(int, Free_mem, (void *base))
RD_MPI_PROTO(int, Put, (const void *origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank,
                        MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Win win))
RD_MPI_PROTO(int, Get, (void *origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank,
                        MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Win win))
RD_MPI_PROTO(int, Accumulate, (const void *origin_addr, int origin_count, MPI_Datatype origin_datatype,
                               int target_rank, MPI_Aint target_disp, int target_count,
                               MPI_Datatype target_datatype, MPI_Op op, MPI_Win win))
RD_MPI_PROTO(int, Get_accumulate, (const void *origin_addr, int origin_count, MPI_Datatype origin_datatype,
                                   void *result_addr, int result_count, MPI_Datatype result_datatype,
                                   int target_rank, MPI_Aint target_disp, int target_count,
                                   MPI_Datatype target_datatype, MPI_Op op, MPI_Win win))
RD_MPI_PROTO(int, Fetch_and_op, (const void *origin_addr, void *result_addr, MPI_Datatype datatype,
                                 int target_rank, MPI_Aint target_disp, MPI_Op op, MPI_Win win))
RD_MPI_PROTO(int, Compare_and_swap, (const void *origin_addr, const void *compare_addr, void *result_addr,
                                     MPI_Datatype datatype, int target_rank, MPI_Aint target_disp, MPI_Win win))
RD_MPI_PROTO(int, Rput, (const void *origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank,
                         MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Win win,
                         MPI_Request *request))
RD_MPI_PROTO(int, Rget, (void *origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank,
                         MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Win win,
                         MPI_Request *request))
RD_MPI_PROTO(int, Raccumulate, (const void *origin_addr, int origin_count, MPI_Datatype origin_datatype,
                                int target_rank, MPI_Aint target_disp, int target_count,
                                MPI_Datatype target_datatype, MPI_Op op, MPI_Win win, MPI_Request *request))
RD_MPI_PROTO(int, Rget_accumulate, (const void *origin_addr, int origin_count, MPI_Datatype origin_datatype,
                                    void *result_addr, int result_count, MPI_Datatype result_datatype,
                                    int target_rank, MPI_Aint target_disp, int target_count,
                                    MPI_Datatype target_datatype, MPI_Op op, MPI_Win win, MPI_Request *request))
RD_MPI_PROTO(int, Win_fence, (int assert, MPI_Win win))
RD_MPI_PROTO(int, Win_lock, (int lock_type, int rank, int assert, MPI_Win win))
RD_MPI_PROTO(int, Win_unlock, (int rank, MPI_Win win))
RD_MPI_PROTO(int, Win_lock_all, (int assert, MPI_Win win))
RD_MPI_PROTO(int, Win_unlock_all, (MPI_Win win))
RD_MPI_PROTO(int, Win_flush, (int rank, MPI_Win win))
RD_MPI_PROTO(int, Win_flush_all, (MPI_Win win))
RD_MPI_PROTO(int, Win_flush_local, (int rank, MPI_Win win))
RD_MPI_PROTO(int, Win_flush_local_all, (MPI_Win win))
RD_MPI_PROTO(int, Win_sync, (MPI_Win win))
RD_MPI_PROTO(int, Win_post, (MPI_Group group, int assert, MPI_Win win))
RD_MPI_PROTO(int, Win_start, (MPI_Group group, int assert, MPI_Win win))
RD_MPI_PROTO(int, Win_complete, (MPI_Win win))
RD_MPI_PROTO(int, Win_wait, (MPI_Win win))
RD_MPI_PROTO(int, Win_test, (MPI_Win win, int *flag))

/* point-to-point */
RD_MPI_PROTO(int, Send, (const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm))
RD_MPI_PROTO(int, Ssend, (const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm))
RD_MPI_PROTO(int, Rsend, (const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm))
RD_MPI_PROTO(int, Bsend, (const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm))
RD_MPI_PROTO(int, Recv, (void *buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm, MPI_Status *status))
RD_MPI_PROTO(int, Isend, (const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm, MPI_Request *request))
RD_MPI_PROTO(int, Issend, (const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm, MPI_Request *request))
RD_MPI_PROTO(int, Irsend, (const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm, MPI_Request *request))
RD_MPI_PROTO(int, Ibsend, (const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm, MPI_Request *request))
RD_MPI_PROTO(int, Irecv, (void *buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm, MPI_Request *request))
RD_MPI_PROTO(int, Sendrecv, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, int dest, int sendtag,
                             void *recvbuf, int recvcount, MPI_Datatype recvtype, int source, int recvtag,
                             MPI_Comm comm, MPI_Status *status))
RD_MPI_PROTO(int, Isendrecv, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, int dest, int sendtag,
                              void *recvbuf, int recvcount, MPI_Datatype recvtype, int source, int recvtag,
                              MPI_Comm comm, MPI_Request *request))
RD_MPI_PROTO(int, Isendrecv_replace, (void *buf, int count, MPI_Datatype datatype, int dest, int sendtag,
                                      int source, int recvtag, MPI_Comm comm, MPI_Request *request))
RD_MPI_PROTO(int, Sendrecv_replace, (void *buf, int count, MPI_Datatype datatype, int dest, int sendtag,
                                     int source, int recvtag, MPI_Comm comm, MPI_Status *status))
RD_MPI_PROTO(int, Buffer_attach, (void *buffer, int size))
RD_MPI_PROTO(int, Buffer_detach, (void *buffer_addr, int *size))
RD_MPI_PROTO(int, Buffer_attach_c, (void *buffer, MPI_Count size))
RD_MPI_PROTO(int, Buffer_detach_c, (void *buffer_addr, MPI_Count *size))
/* MPI 4.1: flushes, and communicators' own buffers (taken first by their buffered sends) */
RD_MPI_PROTO(int, Buffer_flush, (void))
RD_MPI_PROTO(int, Buffer_iflush, (MPI_Request *request))
RD_MPI_PROTO(int, Comm_attach_buffer, (MPI_Comm comm, void *buffer, int size))
RD_MPI_PROTO(int, Comm_attach_buffer_c, (MPI_Comm comm, void *buffer, MPI_Count size))
RD_MPI_PROTO(int, Comm_detach_buffer, (MPI_Comm comm, void *buffer_addr, int *size))
RD_MPI_PROTO(int, Comm_detach_buffer_c, (MPI_Comm comm, void *buffer_addr, MPI_Count *size))
RD_MPI_PROTO(int, Comm_flush_buffer, (MPI_Comm comm))
RD_MPI_PROTO(int, Comm_iflush_buffer, (MPI_Comm comm, MPI_Request *request))
RD_MPI_PROTO(int, Probe, (int source, int tag, MPI_Comm comm, MPI_Status *status))
RD_MPI_PROTO(int, Iprobe, (int source, int tag, MPI_Comm comm, int *flag, MPI_Status *status))
RD_MPI_PROTO(int, Mprobe, (int source, int tag, MPI_Comm comm, MPI_Message *message, MPI_Status *status))
RD_MPI_PROTO(int, Improbe, (int source, int tag, MPI_Comm comm, int *flag, MPI_Message *message, MPI_Status *status))
RD_MPI_PROTO(int, Mrecv, (void *buf, int count, MPI_Datatype datatype, MPI_Message *message, MPI_Status *status))
RD_MPI_PROTO(int, Imrecv, (void *buf, int count, MPI_Datatype datatype, MPI_Message *message, MPI_Request *request))

/* requests */
RD_MPI_PROTO(int, Wait, (MPI_Request *request, MPI_Status *status))
RD_MPI_PROTO(int, Waitall, (int count, MPI_Request requests[], MPI_Status statuses[]))
RD_MPI_PROTO(int, Waitany, (int count, MPI_Request requests[], int *index, MPI_Status *status))
RD_MPI_PROTO(int, Waitsome, (int incount, MPI_Request requests[], int *outcount, int indices[], MPI_Status statuses[]))
RD_MPI_PROTO(int, Test, (MPI_Request *request, int *flag, MPI_Status *status))
RD_MPI_PROTO(int, Testall, (int count, MPI_Request requests[], int *flag, MPI_Status statuses[]))
RD_MPI_PROTO(int, Testany, (int count, MPI_Request requests[], int *index, int *flag, MPI_Status *status))
RD_MPI_PROTO(int, Testsome, (int incount, MPI_Request requests[], int *outcount, int indices[], MPI_Status statuses[]))
RD_MPI_PROTO(int, Request_free, (MPI_Request *request))
RD_MPI_PROTO(int, Request_get_status, (MPI_Request request, int *flag, MPI_Status *status))
/* MPI 4.1: the status of completed requests, which stay as they are */
RD_MPI_PROTO(int, Request_get_status_any, (int count, const MPI_Request array_of_requests[], int *index,
                                           int *flag, MPI_Status *status))
RD_MPI_PROTO(int, Request_get_status_all, (int count, const MPI_Request array_of_requests[], int *flag,
                                           MPI_Status array_of_statuses[]))
RD_MPI_PROTO(int, Request_get_status_some, (int incount, const MPI_Request array_of_requests[],
                                            int *outcount, int array_of_indices[],
                                            MPI_Status array_of_statuses[]))
RD_MPI_PROTO(int, Cancel, (MPI_Request *request))
RD_MPI_PROTO(int, Test_cancelled, (const MPI_Status *status, int *flag))
RD_MPI_PROTO(int, Send_init, (const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
                              MPI_Comm comm, MPI_Request *request))
RD_MPI_PROTO(int, Ssend_init, (const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
                               MPI_Comm comm, MPI_Request *request))
RD_MPI_PROTO(int, Rsend_init, (const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
                               MPI_Comm comm, MPI_Request *request))
RD_MPI_PROTO(int, Bsend_init, (const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
                               MPI_Comm comm, MPI_Request *request))
RD_MPI_PROTO(int, Recv_init, (void *buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm,
                              MPI_Request *request))
RD_MPI_PROTO(int, Start, (MPI_Request *request))
RD_MPI_PROTO(int, Startall, (int count, MPI_Request requests[]))
/* partitioned communication (MPI 4.0; runtime/p2p/part.c) */
RD_MPI_PROTO(int, Psend_init, (const void *buf, int partitions, MPI_Count count, MPI_Datatype datatype, int dest,
                               int tag, MPI_Comm comm, MPI_Info info, MPI_Request *request))
RD_MPI_PROTO(int, Precv_init, (void *buf, int partitions, MPI_Count count, MPI_Datatype datatype, int source,
                               int tag, MPI_Comm comm, MPI_Info info, MPI_Request *request))
RD_MPI_PROTO(int, Pready, (int partition, MPI_Request request))
RD_MPI_PROTO(int, Pready_range, (int partition_low, int partition_high, MPI_Request request))
RD_MPI_PROTO(int, Pready_list, (int length, const int array_of_partitions[], MPI_Request request))
RD_MPI_PROTO(int, Parrived, (MPI_Request request, int partition, int *flag))
RD_MPI_PROTO(int, Get_count, (const MPI_Status *status, MPI_Datatype datatype, int *count))
RD_MPI_PROTO(int, Get_elements, (const MPI_Status *status, MPI_Datatype datatype, int *count))
RD_MPI_PROTO(int, Get_elements_x, (const MPI_Status *status, MPI_Datatype datatype, MPI_Count *count))

/* datatypes (the rest arrive with derived datatypes) */
RD_MPI_PROTO(int, Type_size, (MPI_Datatype datatype, int *size))
RD_MPI_PROTO(int, Type_size_x, (MPI_Datatype datatype, MPI_Count *size))
RD_MPI_PROTO(int, Type_get_extent, (MPI_Datatype datatype, MPI_Aint *lb, MPI_Aint *extent))
RD_MPI_PROTO(int, Type_contiguous, (int count, MPI_Datatype oldtype, MPI_Datatype *newtype))
RD_MPI_PROTO(int, Type_commit, (MPI_Datatype *datatype))
RD_MPI_PROTO(int, Type_free, (MPI_Datatype *datatype))
RD_MPI_PROTO(int, Pack_size, (int incount, MPI_Datatype datatype, MPI_Comm comm, int *size))
RD_MPI_PROTO(int, Type_dup, (MPI_Datatype oldtype, MPI_Datatype *newtype))
RD_MPI_PROTO(int, Type_create_f90_integer, (int r, MPI_Datatype *newtype))
RD_MPI_PROTO(int, Type_create_f90_real, (int p, int r, MPI_Datatype *newtype))
RD_MPI_PROTO(int, Type_create_f90_complex, (int p, int r, MPI_Datatype *newtype))
RD_MPI_PROTO(int, Type_match_size, (int typeclass, int size, MPI_Datatype *datatype))
RD_MPI_PROTO(int, Type_get_value_index, (MPI_Datatype value_type, MPI_Datatype index_type, MPI_Datatype *pair_type))
RD_MPI_PROTO(int, Type_get_extent_x, (MPI_Datatype datatype, MPI_Count *lb, MPI_Count *extent))
RD_MPI_PROTO(int, Type_get_true_extent, (MPI_Datatype datatype, MPI_Aint *true_lb, MPI_Aint *true_extent))
RD_MPI_PROTO(int, Type_get_true_extent_x, (MPI_Datatype datatype, MPI_Count *true_lb, MPI_Count *true_extent))
RD_MPI_PROTO(int, Type_set_name, (MPI_Datatype datatype, const char *type_name))
RD_MPI_PROTO(int, Type_get_name, (MPI_Datatype datatype, char *type_name, int *resultlen))
RD_MPI_PROTO(int, Type_get_envelope, (MPI_Datatype datatype, int *num_integers, int *num_addresses,
                                      int *num_datatypes, int *combiner))
RD_MPI_PROTO(int, Type_get_contents, (MPI_Datatype datatype, int max_integers, int max_addresses,
                                      int max_datatypes, int array_of_integers[],
                                      MPI_Aint array_of_addresses[], MPI_Datatype array_of_datatypes[]))
/* derived datatypes, packing, datatype attributes */
RD_MPI_PROTO(int, Type_vector, (int count, int blocklength, int stride, MPI_Datatype oldtype,
                                MPI_Datatype *newtype))
RD_MPI_PROTO(int, Type_create_hvector, (int count, int blocklength, MPI_Aint stride, MPI_Datatype oldtype,
                                        MPI_Datatype *newtype))
RD_MPI_PROTO(int, Type_indexed, (int count, const int array_of_blocklengths[],
                                 const int array_of_displacements[], MPI_Datatype oldtype,
                                 MPI_Datatype *newtype))
RD_MPI_PROTO(int, Type_create_hindexed, (int count, const int array_of_blocklengths[],
                                         const MPI_Aint array_of_displacements[], MPI_Datatype oldtype,
                                         MPI_Datatype *newtype))
RD_MPI_PROTO(int, Type_create_indexed_block, (int count, int blocklength, const int array_of_displacements[],
                                              MPI_Datatype oldtype, MPI_Datatype *newtype))
RD_MPI_PROTO(int, Type_create_hindexed_block, (int count, int blocklength,
                                               const MPI_Aint array_of_displacements[],
                                               MPI_Datatype oldtype, MPI_Datatype *newtype))
RD_MPI_PROTO(int, Type_create_struct, (int count, const int array_of_blocklengths[],
                                       const MPI_Aint array_of_displacements[],
                                       const MPI_Datatype array_of_types[], MPI_Datatype *newtype))
RD_MPI_PROTO(int, Type_create_subarray, (int ndims, const int array_of_sizes[], const int array_of_subsizes[],
                                         const int array_of_starts[], int order, MPI_Datatype oldtype,
                                         MPI_Datatype *newtype))
RD_MPI_PROTO(int, Type_create_darray, (int size, int rank, int ndims, const int array_of_gsizes[],
                                       const int array_of_distribs[], const int array_of_dargs[],
                                       const int array_of_psizes[], int order, MPI_Datatype oldtype,
                                       MPI_Datatype *newtype))
RD_MPI_PROTO(int, Type_create_resized, (MPI_Datatype oldtype, MPI_Aint lb, MPI_Aint extent,
                                        MPI_Datatype *newtype))
RD_MPI_PROTO(int, Get_address, (const void *location, MPI_Aint *address))
RD_MPI_PROTO(MPI_Aint, Aint_add, (MPI_Aint base, MPI_Aint disp))
RD_MPI_PROTO(MPI_Aint, Aint_diff, (MPI_Aint addr1, MPI_Aint addr2))

/* conversions between C and Fortran handles and statuses (runtime/api/f2c.c) */
RD_MPI_PROTO(MPI_Fint, Comm_c2f, (MPI_Comm comm))
RD_MPI_PROTO(MPI_Comm, Comm_f2c, (MPI_Fint comm))
RD_MPI_PROTO(MPI_Fint, Type_c2f, (MPI_Datatype datatype))
RD_MPI_PROTO(MPI_Datatype, Type_f2c, (MPI_Fint datatype))
RD_MPI_PROTO(MPI_Fint, Group_c2f, (MPI_Group group))
RD_MPI_PROTO(MPI_Group, Group_f2c, (MPI_Fint group))
RD_MPI_PROTO(MPI_Fint, Request_c2f, (MPI_Request request))
RD_MPI_PROTO(MPI_Request, Request_f2c, (MPI_Fint request))
RD_MPI_PROTO(MPI_Fint, Op_c2f, (MPI_Op op))
RD_MPI_PROTO(MPI_Op, Op_f2c, (MPI_Fint op))
RD_MPI_PROTO(MPI_Fint, Errhandler_c2f, (MPI_Errhandler errhandler))
RD_MPI_PROTO(MPI_Errhandler, Errhandler_f2c, (MPI_Fint errhandler))
RD_MPI_PROTO(MPI_Fint, Info_c2f, (MPI_Info info))
RD_MPI_PROTO(MPI_Info, Info_f2c, (MPI_Fint info))
RD_MPI_PROTO(MPI_Fint, Win_c2f, (MPI_Win win))
RD_MPI_PROTO(MPI_Win, Win_f2c, (MPI_Fint win))
RD_MPI_PROTO(MPI_Fint, Message_c2f, (MPI_Message message))
RD_MPI_PROTO(MPI_Message, Message_f2c, (MPI_Fint message))
RD_MPI_PROTO(int, Status_c2f, (const MPI_Status *c_status, MPI_Fint *f_status))
RD_MPI_PROTO(int, Status_f2c, (const MPI_Fint *f_status, MPI_Status *c_status))
RD_MPI_PROTO(int, Status_c2f08, (const MPI_Status *c_status, MPI_F08_status *f08_status))
RD_MPI_PROTO(int, Status_f082c, (const MPI_F08_status *f08_status, MPI_Status *c_status))
RD_MPI_PROTO(int, Status_f2f08, (const MPI_Fint *f_status, MPI_F08_status *f08_status))
RD_MPI_PROTO(int, Status_f082f, (const MPI_F08_status *f08_status, MPI_Fint *f_status))
RD_MPI_PROTO(int, Status_set_elements, (MPI_Status *status, MPI_Datatype datatype, int count))
RD_MPI_PROTO(int, Status_set_cancelled, (MPI_Status *status, int flag))
RD_MPI_PROTO(int, Status_get_source, (MPI_Status *status, int *source))
RD_MPI_PROTO(int, Status_get_tag, (MPI_Status *status, int *tag))
RD_MPI_PROTO(int, Status_get_error, (MPI_Status *status, int *error))
RD_MPI_PROTO(int, Status_set_source, (MPI_Status *status, int source))
RD_MPI_PROTO(int, Status_set_tag, (MPI_Status *status, int tag))
RD_MPI_PROTO(int, Status_set_error, (MPI_Status *status, int error))
RD_MPI_PROTO(int, Grequest_start, (MPI_Grequest_query_function *query_fn, MPI_Grequest_free_function *free_fn,
                                   MPI_Grequest_cancel_function *cancel_fn, void *extra_state,
                                   MPI_Request *request))
RD_MPI_PROTO(int, Grequest_complete, (MPI_Request request))
RD_MPI_PROTO(int, Status_set_elements_x, (MPI_Status *status, MPI_Datatype datatype, MPI_Count count))
RD_MPI_PROTO(int, Pack, (const void *inbuf, int incount, MPI_Datatype datatype, void *outbuf, int outsize,
                         int *position, MPI_Comm comm))
RD_MPI_PROTO(int, Unpack, (const void *inbuf, int insize, int *position, void *outbuf, int outcount,
                           MPI_Datatype datatype, MPI_Comm comm))
RD_MPI_PROTO(int, Pack_external, (const char datarep[], const void *inbuf, int incount, MPI_Datatype datatype,
                                  void *outbuf, MPI_Aint outsize, MPI_Aint *position))
RD_MPI_PROTO(int, Unpack_external, (const char datarep[], const void *inbuf, MPI_Aint insize,
                                    MPI_Aint *position, void *outbuf, int outcount, MPI_Datatype datatype))
RD_MPI_PROTO(int, Pack_external_size, (const char datarep[], int incount, MPI_Datatype datatype,
                                       MPI_Aint *size))
RD_MPI_PROTO(int, Type_create_keyval, (MPI_Type_copy_attr_function *type_copy_attr_fn,
                                       MPI_Type_delete_attr_function *type_delete_attr_fn,
                                       int *type_keyval, void *extra_state))
RD_MPI_PROTO(int, Type_free_keyval, (int *type_keyval))
RD_MPI_PROTO(int, Type_set_attr, (MPI_Datatype datatype, int type_keyval, void *attribute_val))
RD_MPI_PROTO(int, Type_get_attr, (MPI_Datatype datatype, int type_keyval, void *attribute_val, int *flag))
RD_MPI_PROTO(int, Type_delete_attr, (MPI_Datatype datatype, int type_keyval))

/* reduction operations */
RD_MPI_PROTO(int, Op_create, (MPI_User_function *user_fn, int commute, MPI_Op *op))
RD_MPI_PROTO(int, Op_free, (MPI_Op *op))
RD_MPI_PROTO(int, Op_commutative, (MPI_Op op, int *commute))
RD_MPI_PROTO(int, Reduce_local, (const void *inbuf, void *inoutbuf, int count, MPI_Datatype datatype, MPI_Op op))

/* groups */
RD_MPI_PROTO(int, Comm_group, (MPI_Comm comm, MPI_Group *group))
RD_MPI_PROTO(int, Group_size, (MPI_Group group, int *size))
RD_MPI_PROTO(int, Group_rank, (MPI_Group group, int *rank))
RD_MPI_PROTO(int, Group_translate_ranks, (MPI_Group group1, int n, const int ranks1[], MPI_Group group2, int ranks2[]))
RD_MPI_PROTO(int, Group_compare, (MPI_Group group1, MPI_Group group2, int *result))
RD_MPI_PROTO(int, Group_union, (MPI_Group group1, MPI_Group group2, MPI_Group *newgroup))
RD_MPI_PROTO(int, Group_intersection, (MPI_Group group1, MPI_Group group2, MPI_Group *newgroup))
RD_MPI_PROTO(int, Group_difference, (MPI_Group group1, MPI_Group group2, MPI_Group *newgroup))
RD_MPI_PROTO(int, Group_incl, (MPI_Group group, int n, const int ranks[], MPI_Group *newgroup))
RD_MPI_PROTO(int, Group_excl, (MPI_Group group, int n, const int ranks[], MPI_Group *newgroup))
RD_MPI_PROTO(int, Group_range_incl, (MPI_Group group, int n, int ranges[][3], MPI_Group *newgroup))
RD_MPI_PROTO(int, Group_range_excl, (MPI_Group group, int n, int ranges[][3], MPI_Group *newgroup))
RD_MPI_PROTO(int, Group_free, (MPI_Group *group))

/* info objects */
RD_MPI_PROTO(int, Info_create, (MPI_Info *info))
RD_MPI_PROTO(int, Info_set, (MPI_Info info, const char *key, const char *value))
RD_MPI_PROTO(int, Info_delete, (MPI_Info info, const char *key))
RD_MPI_PROTO(int, Info_get, (MPI_Info info, const char *key, int valuelen, char *value, int *flag))
RD_MPI_PROTO(int, Info_get_valuelen, (MPI_Info info, const char *key, int *valuelen, int *flag))
RD_MPI_PROTO(int, Info_get_string, (MPI_Info info, const char *key, int *buflen, char *value, int *flag))
RD_MPI_PROTO(int, Info_create_env, (int argc, char *argv[], MPI_Info *info))
RD_MPI_PROTO(int, Get_hw_resource_info, (MPI_Info *hw_info))
RD_MPI_PROTO(int, Info_get_nkeys, (MPI_Info info, int *nkeys))
RD_MPI_PROTO(int, Info_get_nthkey, (MPI_Info info, int n, char *key))
RD_MPI_PROTO(int, Info_dup, (MPI_Info info, MPI_Info *newinfo))
RD_MPI_PROTO(int, Info_free, (MPI_Info *info))

/* topologies (the rest arrive with Cartesian and graph communicators) */
RD_MPI_PROTO(int, Dims_create, (int nnodes, int ndims, int dims[]))

/* collectives */
RD_MPI_PROTO(int, Comm_idup, (MPI_Comm comm, MPI_Comm *newcomm, MPI_Request *request))
RD_MPI_PROTO(int, Comm_idup_with_info, (MPI_Comm comm, MPI_Info info, MPI_Comm *newcomm, MPI_Request *request))
RD_MPI_PROTO(int, Barrier, (MPI_Comm comm))
RD_MPI_PROTO(int, Bcast, (void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm))
RD_MPI_PROTO(int, Reduce, (const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                           int root, MPI_Comm comm))
RD_MPI_PROTO(int, Allreduce, (const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                              MPI_Comm comm))
RD_MPI_PROTO(int, Gather, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                           int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm))
RD_MPI_PROTO(int, Gatherv, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                            const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root,
                            MPI_Comm comm))
RD_MPI_PROTO(int, Scatter, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                            int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm))
RD_MPI_PROTO(int, Scatterv, (const void *sendbuf, const int sendcounts[], const int displs[],
                             MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype,
                             int root, MPI_Comm comm))
RD_MPI_PROTO(int, Allgather, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                              int recvcount, MPI_Datatype recvtype, MPI_Comm comm))
RD_MPI_PROTO(int, Allgatherv, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                               const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                               MPI_Comm comm))
RD_MPI_PROTO(int, Alltoall, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                             int recvcount, MPI_Datatype recvtype, MPI_Comm comm))
RD_MPI_PROTO(int, Alltoallv, (const void *sendbuf, const int sendcounts[], const int sdispls[],
                              MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                              const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm))
RD_MPI_PROTO(int, Alltoallw, (const void *sendbuf, const int sendcounts[], const int sdispls[],
                              const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
                              const int rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm))
RD_MPI_PROTO(int, Reduce_scatter, (const void *sendbuf, void *recvbuf, const int recvcounts[],
                                   MPI_Datatype datatype, MPI_Op op, MPI_Comm comm))
RD_MPI_PROTO(int, Reduce_scatter_block, (const void *sendbuf, void *recvbuf, int recvcount,
                                         MPI_Datatype datatype, MPI_Op op, MPI_Comm comm))
RD_MPI_PROTO(int, Scan, (const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                         MPI_Comm comm))
RD_MPI_PROTO(int, Exscan, (const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                           MPI_Comm comm))
RD_MPI_PROTO(int, Ibarrier, (MPI_Comm comm, MPI_Request *request))
RD_MPI_PROTO(int, Ibcast, (void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm,
                           MPI_Request *request))
RD_MPI_PROTO(int, Ireduce, (const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                            int root, MPI_Comm comm, MPI_Request *request))
RD_MPI_PROTO(int, Iallreduce, (const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                               MPI_Op op, MPI_Comm comm, MPI_Request *request))
RD_MPI_PROTO(int, Igather, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                            int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                            MPI_Request *request))
RD_MPI_PROTO(int, Igatherv, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                             const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root,
                             MPI_Comm comm, MPI_Request *request))
RD_MPI_PROTO(int, Iscatter, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                             int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                             MPI_Request *request))
RD_MPI_PROTO(int, Iscatterv, (const void *sendbuf, const int sendcounts[], const int displs[],
                              MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype,
                              int root, MPI_Comm comm, MPI_Request *request))
RD_MPI_PROTO(int, Iallgather, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                               int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request))
RD_MPI_PROTO(int, Iallgatherv, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                                const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                                MPI_Comm comm, MPI_Request *request))
RD_MPI_PROTO(int, Ialltoall, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                              int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request))
RD_MPI_PROTO(int, Ialltoallv, (const void *sendbuf, const int sendcounts[], const int sdispls[],
                               MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                               const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm,
                               MPI_Request *request))
RD_MPI_PROTO(int, Ialltoallw, (const void *sendbuf, const int sendcounts[], const int sdispls[],
                               const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
                               const int rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm,
                               MPI_Request *request))
RD_MPI_PROTO(int, Ireduce_scatter, (const void *sendbuf, void *recvbuf, const int recvcounts[],
                                    MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request *request))
RD_MPI_PROTO(int, Ireduce_scatter_block, (const void *sendbuf, void *recvbuf, int recvcount,
                                          MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                                          MPI_Request *request))
RD_MPI_PROTO(int, Iscan, (const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                          MPI_Comm comm, MPI_Request *request))
RD_MPI_PROTO(int, Iexscan, (const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                            MPI_Comm comm, MPI_Request *request))
RD_MPI_PROTO(int, Neighbor_allgather, (const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                                       void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm))
RD_MPI_PROTO(int, Neighbor_allgatherv, (const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                                        void *recvbuf, const int recvcounts[], const int displs[],
                                        MPI_Datatype recvtype, MPI_Comm comm))
RD_MPI_PROTO(int, Neighbor_alltoall, (const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                                      void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm))
RD_MPI_PROTO(int, Neighbor_alltoallv, (const void *sendbuf, const int sendcounts[], const int sdispls[],
                                       MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                                       const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm))
RD_MPI_PROTO(int, Neighbor_alltoallw, (const void *sendbuf, const int sendcounts[], const MPI_Aint sdispls[],
                                       const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
                                       const MPI_Aint rdispls[], const MPI_Datatype recvtypes[],
                                       MPI_Comm comm))
RD_MPI_PROTO(int, Ineighbor_allgather, (const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                                        void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                                        MPI_Request *request))
RD_MPI_PROTO(int, Ineighbor_allgatherv, (const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                                         void *recvbuf, const int recvcounts[], const int displs[],
                                         MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request))
RD_MPI_PROTO(int, Ineighbor_alltoall, (const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                                       void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                                       MPI_Request *request))
RD_MPI_PROTO(int, Ineighbor_alltoallv, (const void *sendbuf, const int sendcounts[], const int sdispls[],
                                        MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                                        const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm,
                                        MPI_Request *request))
RD_MPI_PROTO(int, Ineighbor_alltoallw, (const void *sendbuf, const int sendcounts[],
                                        const MPI_Aint sdispls[], const MPI_Datatype sendtypes[],
                                        void *recvbuf, const int recvcounts[], const MPI_Aint rdispls[],
                                        const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Request *request))

/* persistent collectives (MPI 4.0): built once at the init, run by MPI_Start (collectives/persist.c) */
RD_MPI_PROTO(int, Barrier_init, (MPI_Comm comm, MPI_Info info, MPI_Request *request))
RD_MPI_PROTO(int, Bcast_init, (void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm,
                               MPI_Info info, MPI_Request *request))
RD_MPI_PROTO(int, Reduce_init, (const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                                MPI_Op op, int root, MPI_Comm comm, MPI_Info info, MPI_Request *request))
RD_MPI_PROTO(int, Allreduce_init, (const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                                   MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request *request))
RD_MPI_PROTO(int, Scan_init, (const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                              MPI_Comm comm, MPI_Info info, MPI_Request *request))
RD_MPI_PROTO(int, Exscan_init, (const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                                MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request *request))
RD_MPI_PROTO(int, Reduce_scatter_init, (const void *sendbuf, void *recvbuf, const int recvcounts[],
                                        MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info,
                                        MPI_Request *request))
RD_MPI_PROTO(int, Reduce_scatter_block_init, (const void *sendbuf, void *recvbuf, int recvcount,
                                              MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info,
                                              MPI_Request *request))
RD_MPI_PROTO(int, Gather_init, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                                int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info,
                                MPI_Request *request))
RD_MPI_PROTO(int, Gatherv_init, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                                 const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root,
                                 MPI_Comm comm, MPI_Info info, MPI_Request *request))
RD_MPI_PROTO(int, Scatter_init, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                                 int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info,
                                 MPI_Request *request))
RD_MPI_PROTO(int, Scatterv_init, (const void *sendbuf, const int sendcounts[], const int displs[],
                                  MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype,
                                  int root, MPI_Comm comm, MPI_Info info, MPI_Request *request))
RD_MPI_PROTO(int, Allgather_init, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                                   int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                                   MPI_Request *request))
RD_MPI_PROTO(int, Allgatherv_init, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                                    const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                                    MPI_Comm comm, MPI_Info info, MPI_Request *request))
RD_MPI_PROTO(int, Neighbor_allgather_init, (const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                                            void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                                            MPI_Info info, MPI_Request *request))
RD_MPI_PROTO(int, Neighbor_allgatherv_init, (const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                                             void *recvbuf, const int recvcounts[], const int displs[],
                                             MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                                             MPI_Request *request))
RD_MPI_PROTO(int, Alltoall_init, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                                  int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                                  MPI_Request *request))
RD_MPI_PROTO(int, Alltoallv_init, (const void *sendbuf, const int sendcounts[], const int sdispls[],
                                   MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                                   const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                                   MPI_Request *request))
RD_MPI_PROTO(int, Neighbor_alltoallv_init, (const void *sendbuf, const int sendcounts[], const int sdispls[],
                                            MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                                            const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm,
                                            MPI_Info info, MPI_Request *request))
RD_MPI_PROTO(int, Alltoallw_init, (const void *sendbuf, const int sendcounts[], const int sdispls[],
                                   const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
                                   const int rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm,
                                   MPI_Info info, MPI_Request *request))
RD_MPI_PROTO(int, Neighbor_alltoallw_init, (const void *sendbuf, const int sendcounts[],
                                            const MPI_Aint sdispls[], const MPI_Datatype sendtypes[],
                                            void *recvbuf, const int recvcounts[], const MPI_Aint rdispls[],
                                            const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Info info,
                                            MPI_Request *request))
RD_MPI_PROTO(int, Neighbor_alltoall_init, (const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                                           void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                                           MPI_Info info, MPI_Request *request))

/* the name service (runtime/api/names.c) */
RD_MPI_PROTO(int, Publish_name, (const char *service_name, MPI_Info info, const char *port_name))
RD_MPI_PROTO(int, Lookup_name, (const char *service_name, MPI_Info info, char *port_name))
RD_MPI_PROTO(int, Unpublish_name, (const char *service_name, MPI_Info info, const char *port_name))

/* ================================================================ parallel I/O (MPI_File,
 * runtime/io/PLAN.md): one section per part of the floor */

/* ---- the file object, open/close, contiguous access (PLAN stage 1) */
typedef struct rd_file_s *MPI_File;
#define MPI_FILE_NULL ((MPI_File)0)
typedef void MPI_File_errhandler_function(MPI_File *, int *, ...);
typedef MPI_File_errhandler_function MPI_File_errhandler_fn; /* MPI-2's name */
typedef int MPI_Datarep_conversion_function(void *userbuf, MPI_Datatype datatype, int count, void *filebuf,
                                            MPI_Offset position, void *extra_state);
typedef int MPI_Datarep_extent_function(MPI_Datatype datatype, MPI_Aint *file_extent, void *extra_state);
#define MPI_CONVERSION_FN_NULL ((MPI_Datarep_conversion_function *)0)
typedef int MPI_Datarep_conversion_function_c(void *userbuf, MPI_Datatype datatype, MPI_Count count, void *filebuf,
                                              MPI_Offset position, void *extra_state);
#define MPI_CONVERSION_FN_NULL_C ((MPI_Datarep_conversion_function_c *)0)
/* access modes and whence values: ROMIO's (and Open MPI's) numbers */
#define MPI_MODE_CREATE 1
#define MPI_MODE_RDONLY 2
#define MPI_MODE_WRONLY 4
#define MPI_MODE_RDWR 8
#define MPI_MODE_DELETE_ON_CLOSE 16
#define MPI_MODE_UNIQUE_OPEN 32
#define MPI_MODE_EXCL 64
#define MPI_MODE_APPEND 128
#define MPI_MODE_SEQUENTIAL 256
#define MPI_SEEK_SET 600
#define MPI_SEEK_CUR 602
#define MPI_SEEK_END 604
#define MPI_DISPLACEMENT_CURRENT -54278278
#define MPI_MAX_DATAREP_STRING 128
RD_MPI_PROTO(MPI_Fint, File_c2f, (MPI_File file))
RD_MPI_PROTO(MPI_File, File_f2c, (MPI_Fint file))
RD_MPI_PROTO(int, File_open, (MPI_Comm comm, const char *filename, int amode, MPI_Info info, MPI_File *fh))
RD_MPI_PROTO(int, File_close, (MPI_File *fh))
RD_MPI_PROTO(int, File_delete, (const char *filename, MPI_Info info))
RD_MPI_PROTO(int, File_set_size, (MPI_File fh, MPI_Offset size))
RD_MPI_PROTO(int, File_preallocate, (MPI_File fh, MPI_Offset size))
RD_MPI_PROTO(int, File_get_size, (MPI_File fh, MPI_Offset *size))
RD_MPI_PROTO(int, File_get_group, (MPI_File fh, MPI_Group *group))
RD_MPI_PROTO(int, File_get_amode, (MPI_File fh, int *amode))
RD_MPI_PROTO(int, File_set_info, (MPI_File fh, MPI_Info info))
RD_MPI_PROTO(int, File_get_info, (MPI_File fh, MPI_Info *info_used))
RD_MPI_PROTO(int, File_sync, (MPI_File fh))
RD_MPI_PROTO(int, File_create_errhandler, (MPI_File_errhandler_function *file_errhandler_fn,
                                           MPI_Errhandler *errhandler))
RD_MPI_PROTO(int, File_set_errhandler, (MPI_File file, MPI_Errhandler errhandler))
RD_MPI_PROTO(int, File_get_errhandler, (MPI_File file, MPI_Errhandler *errhandler))
RD_MPI_PROTO(int, File_call_errhandler, (MPI_File fh, int errorcode))
RD_MPI_PROTO(int, File_read_at, (MPI_File fh, MPI_Offset offset, void *buf, int count, MPI_Datatype datatype,
                                 MPI_Status *status))
RD_MPI_PROTO(int, File_write_at, (MPI_File fh, MPI_Offset offset, const void *buf, int count,
                                  MPI_Datatype datatype, MPI_Status *status))
RD_MPI_PROTO(int, File_read_at_all, (MPI_File fh, MPI_Offset offset, void *buf, int count,
                                     MPI_Datatype datatype, MPI_Status *status))
RD_MPI_PROTO(int, File_write_at_all, (MPI_File fh, MPI_Offset offset, const void *buf, int count,
                                      MPI_Datatype datatype, MPI_Status *status))
RD_MPI_PROTO(int, File_read, (MPI_File fh, void *buf, int count, MPI_Datatype datatype, MPI_Status *status))
RD_MPI_PROTO(int, File_write, (MPI_File fh, const void *buf, int count, MPI_Datatype datatype,
                               MPI_Status *status))
RD_MPI_PROTO(int, File_read_all, (MPI_File fh, void *buf, int count, MPI_Datatype datatype, MPI_Status *status))
RD_MPI_PROTO(int, File_write_all, (MPI_File fh, const void *buf, int count, MPI_Datatype datatype,
                                   MPI_Status *status))
RD_MPI_PROTO(int, File_read_at_all_begin, (MPI_File fh, MPI_Offset offset, void *buf, int count,
                                           MPI_Datatype datatype))
RD_MPI_PROTO(int, File_read_at_all_end, (MPI_File fh, void *buf, MPI_Status *status))
RD_MPI_PROTO(int, File_write_at_all_begin, (MPI_File fh, MPI_Offset offset, const void *buf, int count,
                                            MPI_Datatype datatype))
RD_MPI_PROTO(int, File_write_at_all_end, (MPI_File fh, const void *buf, MPI_Status *status))
RD_MPI_PROTO(int, File_read_all_begin, (MPI_File fh, void *buf, int count, MPI_Datatype datatype))
RD_MPI_PROTO(int, File_read_all_end, (MPI_File fh, void *buf, MPI_Status *status))
RD_MPI_PROTO(int, File_write_all_begin, (MPI_File fh, const void *buf, int count, MPI_Datatype datatype))
RD_MPI_PROTO(int, File_write_all_end, (MPI_File fh, const void *buf, MPI_Status *status))
RD_MPI_PROTO(int, File_seek, (MPI_File fh, MPI_Offset offset, int whence))
RD_MPI_PROTO(int, File_get_position, (MPI_File fh, MPI_Offset *offset))
RD_MPI_PROTO(int, File_get_byte_offset, (MPI_File fh, MPI_Offset offset, MPI_Offset *disp))
RD_MPI_PROTO(int, File_get_view, (MPI_File fh, MPI_Offset *disp, MPI_Datatype *etype, MPI_Datatype *filetype,
                                  char *datarep))
RD_MPI_PROTO(int, File_get_type_extent, (MPI_File fh, MPI_Datatype datatype, MPI_Aint *extent))


/* ---- views, strided independent access, data sieving, locks, datareps (stage 2) */
RD_MPI_PROTO(int, File_set_view, (MPI_File fh, MPI_Offset disp, MPI_Datatype etype, MPI_Datatype filetype,
                                  const char *datarep, MPI_Info info))
RD_MPI_PROTO(int, File_set_atomicity, (MPI_File fh, int flag))
RD_MPI_PROTO(int, File_get_atomicity, (MPI_File fh, int *flag))
RD_MPI_PROTO(int, Register_datarep_c, (const char *datarep,
                                       MPI_Datarep_conversion_function_c *read_conversion_fn,
                                       MPI_Datarep_conversion_function_c *write_conversion_fn,
                                       MPI_Datarep_extent_function *dtype_file_extent_fn, void *extra_state))
RD_MPI_PROTO(int, Register_datarep, (const char *datarep, MPI_Datarep_conversion_function *read_conversion_fn,
                                     MPI_Datarep_conversion_function *write_conversion_fn,
                                     MPI_Datarep_extent_function *dtype_file_extent_fn, void *extra_state))


/* ---- two-phase collective access (stage 3) */


/* ---- the shared file pointer and the ordered calls (stage 4) */
RD_MPI_PROTO(int, File_read_shared, (MPI_File fh, void *buf, int count, MPI_Datatype datatype, MPI_Status *status))
RD_MPI_PROTO(int, File_write_shared, (MPI_File fh, const void *buf, int count, MPI_Datatype datatype,
                                      MPI_Status *status))
RD_MPI_PROTO(int, File_iread_shared, (MPI_File fh, void *buf, int count, MPI_Datatype datatype,
                                      MPI_Request *request))
RD_MPI_PROTO(int, File_iwrite_shared, (MPI_File fh, const void *buf, int count, MPI_Datatype datatype,
                                       MPI_Request *request))
RD_MPI_PROTO(int, File_read_ordered, (MPI_File fh, void *buf, int count, MPI_Datatype datatype, MPI_Status *status))
RD_MPI_PROTO(int, File_write_ordered, (MPI_File fh, const void *buf, int count, MPI_Datatype datatype,
                                       MPI_Status *status))
RD_MPI_PROTO(int, File_read_ordered_begin, (MPI_File fh, void *buf, int count, MPI_Datatype datatype))
RD_MPI_PROTO(int, File_read_ordered_end, (MPI_File fh, void *buf, MPI_Status *status))
RD_MPI_PROTO(int, File_write_ordered_begin, (MPI_File fh, const void *buf, int count, MPI_Datatype datatype))
RD_MPI_PROTO(int, File_write_ordered_end, (MPI_File fh, const void *buf, MPI_Status *status))
RD_MPI_PROTO(int, File_seek_shared, (MPI_File fh, MPI_Offset offset, int whence))
RD_MPI_PROTO(int, File_get_position_shared, (MPI_File fh, MPI_Offset *offset))


/* ---- nonblocking I/O (stage 5) */
RD_MPI_PROTO(int, File_iread_at, (MPI_File fh, MPI_Offset offset, void *buf, int count, MPI_Datatype datatype,
                                  MPI_Request *request))
RD_MPI_PROTO(int, File_iwrite_at, (MPI_File fh, MPI_Offset offset, const void *buf, int count,
                                   MPI_Datatype datatype, MPI_Request *request))
RD_MPI_PROTO(int, File_iread, (MPI_File fh, void *buf, int count, MPI_Datatype datatype, MPI_Request *request))
RD_MPI_PROTO(int, File_iwrite, (MPI_File fh, const void *buf, int count, MPI_Datatype datatype,
                                MPI_Request *request))
RD_MPI_PROTO(int, File_iread_at_all, (MPI_File fh, MPI_Offset offset, void *buf, int count,
                                      MPI_Datatype datatype, MPI_Request *request))
RD_MPI_PROTO(int, File_iwrite_at_all, (MPI_File fh, MPI_Offset offset, const void *buf, int count,
                                       MPI_Datatype datatype, MPI_Request *request))
RD_MPI_PROTO(int, File_iread_all, (MPI_File fh, void *buf, int count, MPI_Datatype datatype,
                                   MPI_Request *request))
RD_MPI_PROTO(int, File_iwrite_all, (MPI_File fh, const void *buf, int count, MPI_Datatype datatype,
                                    MPI_Request *request))

/* ================================================================ end of parallel I/O */

/* ================================================================ sessions (MPI 4.0 11.3;
 * runtime/api/session.c): the library brought up without MPI_Init, process
 * sets mpi://WORLD and mpi://SELF, communicators made from their groups */
typedef struct rd_session_s *MPI_Session;
#define MPI_SESSION_NULL ((MPI_Session)0)
typedef void MPI_Session_errhandler_function(MPI_Session *, int *, ...);
#define MPI_MAX_PSET_NAME_LEN 256
#define MPI_MAX_STRINGTAG_LEN 256
RD_MPI_PROTO(int, Session_init, (MPI_Info info, MPI_Errhandler errhandler, MPI_Session *session))
RD_MPI_PROTO(int, Session_finalize, (MPI_Session *session))
RD_MPI_PROTO(int, Session_get_num_psets, (MPI_Session session, MPI_Info info, int *npset_names))
RD_MPI_PROTO(int, Session_get_nth_pset, (MPI_Session session, MPI_Info info, int n, int *pset_len,
                                         char *pset_name))
RD_MPI_PROTO(int, Session_get_pset_info, (MPI_Session session, const char *pset_name, MPI_Info *info))
RD_MPI_PROTO(int, Session_get_info, (MPI_Session session, MPI_Info *info_used))
RD_MPI_PROTO(int, Session_create_errhandler, (MPI_Session_errhandler_function *session_errhandler_fn,
                                              MPI_Errhandler *errhandler))
RD_MPI_PROTO(int, Session_set_errhandler, (MPI_Session session, MPI_Errhandler errhandler))
RD_MPI_PROTO(int, Session_get_errhandler, (MPI_Session session, MPI_Errhandler *errhandler))
RD_MPI_PROTO(int, Session_call_errhandler, (MPI_Session session, int errorcode))
/* MPI 4.1: the session's buffer for the buffered sends of the communicators derived from it */
RD_MPI_PROTO(int, Session_attach_buffer, (MPI_Session session, void *buffer, int size))
RD_MPI_PROTO(int, Session_attach_buffer_c, (MPI_Session session, void *buffer, MPI_Count size))
RD_MPI_PROTO(int, Session_detach_buffer, (MPI_Session session, void *buffer_addr, int *size))
RD_MPI_PROTO(int, Session_detach_buffer_c, (MPI_Session session, void *buffer_addr, MPI_Count *size))
RD_MPI_PROTO(int, Session_flush_buffer, (MPI_Session session))
RD_MPI_PROTO(int, Session_iflush_buffer, (MPI_Session session, MPI_Request *request))
RD_MPI_PROTO(MPI_Fint, Session_c2f, (MPI_Session session))
RD_MPI_PROTO(MPI_Session, Session_f2c, (MPI_Fint session))
RD_MPI_PROTO(int, Group_from_session_pset, (MPI_Session session, const char *pset_name, MPI_Group *newgroup))
RD_MPI_PROTO(int, Comm_create_from_group, (MPI_Group group, const char *stringtag, MPI_Info info,
                                           MPI_Errhandler errhandler, MPI_Comm *newcomm))
RD_MPI_PROTO(int, Intercomm_create_from_groups, (MPI_Group local_group, int local_leader, MPI_Group remote_group,
                                                 int remote_leader, const char *stringtag, MPI_Info info,
                                                 MPI_Errhandler errhandler, MPI_Comm *newintercomm))

/* ================================================================ large counts (MPI 4.0): the
 * calls with MPI_Count counts, the same code as their int twins
 * (runtime/api/README.md, "Large counts") */
RD_MPI_PROTO(int, Send_c, (const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm))
RD_MPI_PROTO(int, Ssend_c, (const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm))
RD_MPI_PROTO(int, Rsend_c, (const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm))
RD_MPI_PROTO(int, Bsend_c, (const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm))
RD_MPI_PROTO(int, Isend_c, (const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
                            MPI_Request *request))
RD_MPI_PROTO(int, Issend_c, (const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
                             MPI_Request *request))
RD_MPI_PROTO(int, Irsend_c, (const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
                             MPI_Request *request))
RD_MPI_PROTO(int, Ibsend_c, (const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
                             MPI_Request *request))
RD_MPI_PROTO(int, Recv_c, (void *buf, MPI_Count count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm,
                           MPI_Status *status))
RD_MPI_PROTO(int, Irecv_c, (void *buf, MPI_Count count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm,
                            MPI_Request *request))
RD_MPI_PROTO(int, Mrecv_c, (void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Message *message,
                            MPI_Status *status))
RD_MPI_PROTO(int, Imrecv_c, (void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Message *message,
                             MPI_Request *request))
RD_MPI_PROTO(int, Sendrecv_c, (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, int dest, int sendtag,
                               void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int source, int recvtag,
                               MPI_Comm comm, MPI_Status *status))
RD_MPI_PROTO(int, Isendrecv_c, (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, int dest,
                                int sendtag, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int source,
                                int recvtag, MPI_Comm comm, MPI_Request *request))
RD_MPI_PROTO(int, Sendrecv_replace_c, (void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int sendtag,
                                       int source, int recvtag, MPI_Comm comm, MPI_Status *status))
RD_MPI_PROTO(int, Isendrecv_replace_c, (void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int sendtag,
                                        int source, int recvtag, MPI_Comm comm, MPI_Request *request))
RD_MPI_PROTO(int, Send_init_c, (const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag,
                                MPI_Comm comm, MPI_Request *request))
RD_MPI_PROTO(int, Ssend_init_c, (const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag,
                                 MPI_Comm comm, MPI_Request *request))
RD_MPI_PROTO(int, Rsend_init_c, (const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag,
                                 MPI_Comm comm, MPI_Request *request))
RD_MPI_PROTO(int, Bsend_init_c, (const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag,
                                 MPI_Comm comm, MPI_Request *request))
RD_MPI_PROTO(int, Recv_init_c, (void *buf, MPI_Count count, MPI_Datatype datatype, int source, int tag,
                                MPI_Comm comm, MPI_Request *request))
RD_MPI_PROTO(int, Get_count_c, (const MPI_Status *status, MPI_Datatype datatype, MPI_Count *count))
RD_MPI_PROTO(int, Get_elements_c, (const MPI_Status *status, MPI_Datatype datatype, MPI_Count *count))
RD_MPI_PROTO(int, Type_size_c, (MPI_Datatype datatype, MPI_Count *size))
RD_MPI_PROTO(int, Type_get_extent_c, (MPI_Datatype datatype, MPI_Count *lb, MPI_Count *extent))
RD_MPI_PROTO(int, Type_get_true_extent_c, (MPI_Datatype datatype, MPI_Count *true_lb, MPI_Count *true_extent))
/* datatype constructors and decoding */
RD_MPI_PROTO(int, Type_contiguous_c, (MPI_Count count, MPI_Datatype oldtype, MPI_Datatype *newtype))
RD_MPI_PROTO(int, Type_vector_c, (MPI_Count count, MPI_Count blocklength, MPI_Count stride, MPI_Datatype oldtype,
                                  MPI_Datatype *newtype))
RD_MPI_PROTO(int, Type_create_hvector_c, (MPI_Count count, MPI_Count blocklength, MPI_Count stride,
                                          MPI_Datatype oldtype, MPI_Datatype *newtype))
RD_MPI_PROTO(int, Type_indexed_c, (MPI_Count count, const MPI_Count array_of_blocklengths[],
                                   const MPI_Count array_of_displacements[], MPI_Datatype oldtype,
                                   MPI_Datatype *newtype))
RD_MPI_PROTO(int, Type_create_hindexed_c, (MPI_Count count, const MPI_Count array_of_blocklengths[],
                                           const MPI_Count array_of_displacements[], MPI_Datatype oldtype,
                                           MPI_Datatype *newtype))
RD_MPI_PROTO(int, Type_create_indexed_block_c, (MPI_Count count, MPI_Count blocklength,
                                                const MPI_Count array_of_displacements[], MPI_Datatype oldtype,
                                                MPI_Datatype *newtype))
RD_MPI_PROTO(int, Type_create_hindexed_block_c, (MPI_Count count, MPI_Count blocklength,
                                                 const MPI_Count array_of_displacements[], MPI_Datatype oldtype,
                                                 MPI_Datatype *newtype))
RD_MPI_PROTO(int, Type_create_struct_c, (MPI_Count count, const MPI_Count array_of_blocklengths[],
                                         const MPI_Count array_of_displacements[], const MPI_Datatype array_of_types[],
                                         MPI_Datatype *newtype))
RD_MPI_PROTO(int, Type_create_subarray_c, (int ndims, const MPI_Count array_of_sizes[],
                                           const MPI_Count array_of_subsizes[], const MPI_Count array_of_starts[],
                                           int order, MPI_Datatype oldtype, MPI_Datatype *newtype))
RD_MPI_PROTO(int, Type_create_darray_c, (int size, int rank, int ndims, const MPI_Count array_of_gsizes[],
                                         const int array_of_distribs[], const int array_of_dargs[],
                                         const int array_of_psizes[], int order, MPI_Datatype oldtype,
                                         MPI_Datatype *newtype))
RD_MPI_PROTO(int, Type_create_resized_c, (MPI_Datatype oldtype, MPI_Count lb, MPI_Count extent,
                                          MPI_Datatype *newtype))
/* (a type made by a _c constructor: MPI_Type_get_envelope and _get_contents
 * raise MPI_ERR_TYPE, its large counts have no place in them) */
RD_MPI_PROTO(int, Type_get_envelope_c, (MPI_Datatype datatype, MPI_Count *num_integers, MPI_Count *num_addresses,
                                        MPI_Count *num_large_counts, MPI_Count *num_datatypes, int *combiner))
RD_MPI_PROTO(int, Type_get_contents_c, (MPI_Datatype datatype, MPI_Count max_integers, MPI_Count max_addresses,
                                        MPI_Count max_large_counts, MPI_Count max_datatypes, int array_of_integers[],
                                        MPI_Aint array_of_addresses[], MPI_Count array_of_large_counts[],
                                        MPI_Datatype array_of_datatypes[]))
/* packing */
RD_MPI_PROTO(int, Pack_c, (const void *inbuf, MPI_Count incount, MPI_Datatype datatype, void *outbuf,
                           MPI_Count outsize, MPI_Count *position, MPI_Comm comm))
RD_MPI_PROTO(int, Unpack_c, (const void *inbuf, MPI_Count insize, MPI_Count *position, void *outbuf,
                             MPI_Count outcount, MPI_Datatype datatype, MPI_Comm comm))
RD_MPI_PROTO(int, Pack_size_c, (MPI_Count incount, MPI_Datatype datatype, MPI_Comm comm, MPI_Count *size))
RD_MPI_PROTO(int, Pack_external_c, (const char datarep[], const void *inbuf, MPI_Count incount,
                                    MPI_Datatype datatype, void *outbuf, MPI_Count outsize, MPI_Count *position))
RD_MPI_PROTO(int, Unpack_external_c, (const char datarep[], const void *inbuf, MPI_Count insize,
                                      MPI_Count *position, void *outbuf, MPI_Count outcount, MPI_Datatype datatype))
RD_MPI_PROTO(int, Pack_external_size_c, (const char datarep[], MPI_Count incount, MPI_Datatype datatype,
                                         MPI_Count *size))
/* reductions */
RD_MPI_PROTO(int, Op_create_c, (MPI_User_function_c *user_fn, int commute, MPI_Op *op))
RD_MPI_PROTO(int, Reduce_local_c, (const void *inbuf, void *inoutbuf, MPI_Count count, MPI_Datatype datatype,
                                   MPI_Op op))
/* collectives (runtime/api/coll.c: the int calls' entry points, made by the same macros) */
RD_MPI_PROTO(int, Bcast_c, (void *buffer, MPI_Count count, MPI_Datatype datatype, int root, MPI_Comm comm))
RD_MPI_PROTO(int, Reduce_c, (const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op,
                             int root, MPI_Comm comm))
RD_MPI_PROTO(int, Allreduce_c, (const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
                                MPI_Op op, MPI_Comm comm))
RD_MPI_PROTO(int, Gather_c, (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                             MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm))
RD_MPI_PROTO(int, Gatherv_c, (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                              const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype,
                              int root, MPI_Comm comm))
RD_MPI_PROTO(int, Scatter_c, (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                              MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm))
RD_MPI_PROTO(int, Scatterv_c, (const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint displs[],
                               MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
                               int root, MPI_Comm comm))
RD_MPI_PROTO(int, Allgather_c, (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                                MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm))
RD_MPI_PROTO(int, Allgatherv_c, (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                                 const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype,
                                 MPI_Comm comm))
RD_MPI_PROTO(int, Alltoall_c, (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                               MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm))
RD_MPI_PROTO(int, Alltoallv_c, (const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                                MPI_Datatype sendtype, void *recvbuf, const MPI_Count recvcounts[],
                                const MPI_Aint rdispls[], MPI_Datatype recvtype, MPI_Comm comm))
RD_MPI_PROTO(int, Alltoallw_c, (const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                                const MPI_Datatype sendtypes[], void *recvbuf, const MPI_Count recvcounts[],
                                const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm))
RD_MPI_PROTO(int, Reduce_scatter_c, (const void *sendbuf, void *recvbuf, const MPI_Count recvcounts[],
                                     MPI_Datatype datatype, MPI_Op op, MPI_Comm comm))
RD_MPI_PROTO(int, Reduce_scatter_block_c, (const void *sendbuf, void *recvbuf, MPI_Count recvcount,
                                           MPI_Datatype datatype, MPI_Op op, MPI_Comm comm))
RD_MPI_PROTO(int, Scan_c, (const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op,
                           MPI_Comm comm))
RD_MPI_PROTO(int, Exscan_c, (const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op,
                             MPI_Comm comm))
RD_MPI_PROTO(int, Ibcast_c, (void *buffer, MPI_Count count, MPI_Datatype datatype, int root, MPI_Comm comm,
                             MPI_Request *request))
RD_MPI_PROTO(int, Ireduce_c, (const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op,
                              int root, MPI_Comm comm, MPI_Request *request))
RD_MPI_PROTO(int, Iallreduce_c, (const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
                                 MPI_Op op, MPI_Comm comm, MPI_Request *request))
RD_MPI_PROTO(int, Igather_c, (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                              MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                              MPI_Request *request))
RD_MPI_PROTO(int, Igatherv_c, (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                               const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype,
                               int root, MPI_Comm comm, MPI_Request *request))
RD_MPI_PROTO(int, Iscatter_c, (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                               MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                               MPI_Request *request))
RD_MPI_PROTO(int, Iscatterv_c, (const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint displs[],
                                MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
                                int root, MPI_Comm comm, MPI_Request *request))
RD_MPI_PROTO(int, Iallgather_c, (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                                 MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request))
RD_MPI_PROTO(int, Iallgatherv_c, (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                                  const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype,
                                  MPI_Comm comm, MPI_Request *request))
RD_MPI_PROTO(int, Ialltoall_c, (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                                MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request))
RD_MPI_PROTO(int, Ialltoallv_c, (const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                                 MPI_Datatype sendtype, void *recvbuf, const MPI_Count recvcounts[],
                                 const MPI_Aint rdispls[], MPI_Datatype recvtype, MPI_Comm comm,
                                 MPI_Request *request))
RD_MPI_PROTO(int, Ialltoallw_c, (const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                                 const MPI_Datatype sendtypes[], void *recvbuf, const MPI_Count recvcounts[],
                                 const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm,
                                 MPI_Request *request))
RD_MPI_PROTO(int, Ireduce_scatter_c, (const void *sendbuf, void *recvbuf, const MPI_Count recvcounts[],
                                      MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request *request))
RD_MPI_PROTO(int, Ireduce_scatter_block_c, (const void *sendbuf, void *recvbuf, MPI_Count recvcount,
                                            MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request *request))
RD_MPI_PROTO(int, Iscan_c, (const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op,
                            MPI_Comm comm, MPI_Request *request))
RD_MPI_PROTO(int, Iexscan_c, (const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op,
                              MPI_Comm comm, MPI_Request *request))
RD_MPI_PROTO(int, Neighbor_allgather_c, (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                                         void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm))
RD_MPI_PROTO(int, Neighbor_allgatherv_c, (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                                          void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint displs[],
                                          MPI_Datatype recvtype, MPI_Comm comm))
RD_MPI_PROTO(int, Neighbor_alltoall_c, (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                                        void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm))
RD_MPI_PROTO(int, Neighbor_alltoallv_c, (const void *sendbuf, const MPI_Count sendcounts[],
                                         const MPI_Aint sdispls[], MPI_Datatype sendtype, void *recvbuf,
                                         const MPI_Count recvcounts[], const MPI_Aint rdispls[],
                                         MPI_Datatype recvtype, MPI_Comm comm))
RD_MPI_PROTO(int, Neighbor_alltoallw_c, (const void *sendbuf, const MPI_Count sendcounts[],
                                         const MPI_Aint sdispls[], const MPI_Datatype sendtypes[], void *recvbuf,
                                         const MPI_Count recvcounts[], const MPI_Aint rdispls[],
                                         const MPI_Datatype recvtypes[], MPI_Comm comm))
RD_MPI_PROTO(int, Ineighbor_allgather_c, (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                                          void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                                          MPI_Request *request))
RD_MPI_PROTO(int, Ineighbor_allgatherv_c, (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                                           void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint displs[],
                                           MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request))
RD_MPI_PROTO(int, Ineighbor_alltoall_c, (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                                         void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                                         MPI_Request *request))
RD_MPI_PROTO(int, Ineighbor_alltoallv_c, (const void *sendbuf, const MPI_Count sendcounts[],
                                          const MPI_Aint sdispls[], MPI_Datatype sendtype, void *recvbuf,
                                          const MPI_Count recvcounts[], const MPI_Aint rdispls[],
                                          MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request))
RD_MPI_PROTO(int, Ineighbor_alltoallw_c, (const void *sendbuf, const MPI_Count sendcounts[],
                                          const MPI_Aint sdispls[], const MPI_Datatype sendtypes[], void *recvbuf,
                                          const MPI_Count recvcounts[], const MPI_Aint rdispls[],
                                          const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Request *request))
RD_MPI_PROTO(int, Bcast_init_c, (void *buffer, MPI_Count count, MPI_Datatype datatype, int root, MPI_Comm comm,
                                 MPI_Info info, MPI_Request *request))
RD_MPI_PROTO(int, Reduce_init_c, (const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
                                  MPI_Op op, int root, MPI_Comm comm, MPI_Info info, MPI_Request *request))
RD_MPI_PROTO(int, Allreduce_init_c, (const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
                                     MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request *request))
RD_MPI_PROTO(int, Scan_init_c, (const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
                                MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request *request))
RD_MPI_PROTO(int, Exscan_init_c, (const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
                                  MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request *request))
RD_MPI_PROTO(int, Reduce_scatter_init_c, (const void *sendbuf, void *recvbuf, const MPI_Count recvcounts[],
                                          MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info,
                                          MPI_Request *request))
RD_MPI_PROTO(int, Reduce_scatter_block_init_c, (const void *sendbuf, void *recvbuf, MPI_Count recvcount,
                                                MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info,
                                                MPI_Request *request))
RD_MPI_PROTO(int, Gather_init_c, (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                                  MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                                  MPI_Info info, MPI_Request *request))
RD_MPI_PROTO(int, Gatherv_init_c, (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                                   const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype,
                                   int root, MPI_Comm comm, MPI_Info info, MPI_Request *request))
RD_MPI_PROTO(int, Scatter_init_c, (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                                   MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                                   MPI_Info info, MPI_Request *request))
RD_MPI_PROTO(int, Scatterv_init_c, (const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint displs[],
                                    MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                                    MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info,
                                    MPI_Request *request))
RD_MPI_PROTO(int, Allgather_init_c, (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                                     MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                                     MPI_Request *request))
RD_MPI_PROTO(int, Allgatherv_init_c, (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                                      void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint displs[],
                                      MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request *request))
RD_MPI_PROTO(int, Neighbor_allgather_init_c, (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                                              void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
                                              MPI_Comm comm, MPI_Info info, MPI_Request *request))
RD_MPI_PROTO(int, Neighbor_allgatherv_init_c, (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                                               void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint displs[],
                                               MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                                               MPI_Request *request))
RD_MPI_PROTO(int, Alltoall_init_c, (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                                    MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                                    MPI_Request *request))
RD_MPI_PROTO(int, Alltoallv_init_c, (const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                                     MPI_Datatype sendtype, void *recvbuf, const MPI_Count recvcounts[],
                                     const MPI_Aint rdispls[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                                     MPI_Request *request))
RD_MPI_PROTO(int, Neighbor_alltoallv_init_c, (const void *sendbuf, const MPI_Count sendcounts[],
                                              const MPI_Aint sdispls[], MPI_Datatype sendtype, void *recvbuf,
                                              const MPI_Count recvcounts[], const MPI_Aint rdispls[],
                                              MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                                              MPI_Request *request))
RD_MPI_PROTO(int, Alltoallw_init_c, (const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                                     const MPI_Datatype sendtypes[], void *recvbuf, const MPI_Count recvcounts[],
                                     const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm,
                                     MPI_Info info, MPI_Request *request))
RD_MPI_PROTO(int, Neighbor_alltoallw_init_c, (const void *sendbuf, const MPI_Count sendcounts[],
                                              const MPI_Aint sdispls[], const MPI_Datatype sendtypes[],
                                              void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint rdispls[],
                                              const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Info info,
                                              MPI_Request *request))
RD_MPI_PROTO(int, Neighbor_alltoall_init_c, (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                                             void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
                                             MPI_Comm comm, MPI_Info info, MPI_Request *request))
/* one-sided communication */
RD_MPI_PROTO(int, Put_c, (const void *origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype,
                          int target_rank, MPI_Aint target_disp, MPI_Count target_count,
                          MPI_Datatype target_datatype, MPI_Win win))
RD_MPI_PROTO(int, Get_c, (void *origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype, int target_rank,
                          MPI_Aint target_disp, MPI_Count target_count, MPI_Datatype target_datatype, MPI_Win win))
RD_MPI_PROTO(int, Accumulate_c, (const void *origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype,
                                 int target_rank, MPI_Aint target_disp, MPI_Count target_count,
                                 MPI_Datatype target_datatype, MPI_Op op, MPI_Win win))
RD_MPI_PROTO(int, Get_accumulate_c, (const void *origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype,
                                     void *result_addr, MPI_Count result_count, MPI_Datatype result_datatype,
                                     int target_rank, MPI_Aint target_disp, MPI_Count target_count,
                                     MPI_Datatype target_datatype, MPI_Op op, MPI_Win win))
RD_MPI_PROTO(int, Rput_c, (const void *origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype,
                           int target_rank, MPI_Aint target_disp, MPI_Count target_count,
                           MPI_Datatype target_datatype, MPI_Win win, MPI_Request *request))
RD_MPI_PROTO(int, Rget_c, (void *origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype, int target_rank,
                           MPI_Aint target_disp, MPI_Count target_count, MPI_Datatype target_datatype, MPI_Win win,
                           MPI_Request *request))
RD_MPI_PROTO(int, Raccumulate_c, (const void *origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype,
                                  int target_rank, MPI_Aint target_disp, MPI_Count target_count,
                                  MPI_Datatype target_datatype, MPI_Op op, MPI_Win win, MPI_Request *request))
RD_MPI_PROTO(int, Rget_accumulate_c, (const void *origin_addr, MPI_Count origin_count,
                                      MPI_Datatype origin_datatype, void *result_addr, MPI_Count result_count,
                                      MPI_Datatype result_datatype, int target_rank, MPI_Aint target_disp,
                                      MPI_Count target_count, MPI_Datatype target_datatype, MPI_Op op, MPI_Win win,
                                      MPI_Request *request))
RD_MPI_PROTO(int, Win_create_c, (void *base, MPI_Aint size, MPI_Aint disp_unit, MPI_Info info, MPI_Comm comm,
                                 MPI_Win *win))
RD_MPI_PROTO(int, Win_allocate_c, (MPI_Aint size, MPI_Aint disp_unit, MPI_Info info, MPI_Comm comm, void *baseptr,
                                   MPI_Win *win))
RD_MPI_PROTO(int, Win_allocate_shared_c, (MPI_Aint size, MPI_Aint disp_unit, MPI_Info info, MPI_Comm comm,
                                          void *baseptr, MPI_Win *win))
RD_MPI_PROTO(int, Win_shared_query_c, (MPI_Win win, int rank, MPI_Aint *size, MPI_Aint *disp_unit, void *baseptr))
/* parallel I/O */
RD_MPI_PROTO(int, File_read_at_c, (MPI_File fh, MPI_Offset offset, void *buf, MPI_Count count, MPI_Datatype datatype,
                               MPI_Status *status))
RD_MPI_PROTO(int, File_write_at_c, (MPI_File fh, MPI_Offset offset, const void *buf, MPI_Count count, MPI_Datatype datatype,
                                MPI_Status *status))
RD_MPI_PROTO(int, File_read_at_all_c, (MPI_File fh, MPI_Offset offset, void *buf, MPI_Count count, MPI_Datatype datatype,
                                   MPI_Status *status))
RD_MPI_PROTO(int, File_write_at_all_c, (MPI_File fh, MPI_Offset offset, const void *buf, MPI_Count count, MPI_Datatype datatype,
                                    MPI_Status *status))
RD_MPI_PROTO(int, File_iread_at_c, (MPI_File fh, MPI_Offset offset, void *buf, MPI_Count count, MPI_Datatype datatype,
                                MPI_Request *request))
RD_MPI_PROTO(int, File_iwrite_at_c, (MPI_File fh, MPI_Offset offset, const void *buf, MPI_Count count, MPI_Datatype datatype,
                                 MPI_Request *request))
RD_MPI_PROTO(int, File_iread_at_all_c, (MPI_File fh, MPI_Offset offset, void *buf, MPI_Count count, MPI_Datatype datatype,
                                    MPI_Request *request))
RD_MPI_PROTO(int, File_iwrite_at_all_c, (MPI_File fh, MPI_Offset offset, const void *buf, MPI_Count count, MPI_Datatype datatype,
                                     MPI_Request *request))
RD_MPI_PROTO(int, File_read_c, (MPI_File fh, void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Status *status))
RD_MPI_PROTO(int, File_write_c, (MPI_File fh, const void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Status *status))
RD_MPI_PROTO(int, File_read_all_c, (MPI_File fh, void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Status *status))
RD_MPI_PROTO(int, File_write_all_c, (MPI_File fh, const void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Status *status))
RD_MPI_PROTO(int, File_read_shared_c, (MPI_File fh, void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Status *status))
RD_MPI_PROTO(int, File_write_shared_c, (MPI_File fh, const void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Status *status))
RD_MPI_PROTO(int, File_read_ordered_c, (MPI_File fh, void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Status *status))
RD_MPI_PROTO(int, File_write_ordered_c, (MPI_File fh, const void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Status *status))
RD_MPI_PROTO(int, File_iread_c, (MPI_File fh, void *buf, MPI_Count count, MPI_Datatype datatype,
                             MPI_Request *request))
RD_MPI_PROTO(int, File_iwrite_c, (MPI_File fh, const void *buf, MPI_Count count, MPI_Datatype datatype,
                              MPI_Request *request))
RD_MPI_PROTO(int, File_iread_all_c, (MPI_File fh, void *buf, MPI_Count count, MPI_Datatype datatype,
                                 MPI_Request *request))
RD_MPI_PROTO(int, File_iwrite_all_c, (MPI_File fh, const void *buf, MPI_Count count, MPI_Datatype datatype,
                                  MPI_Request *request))
RD_MPI_PROTO(int, File_iread_shared_c, (MPI_File fh, void *buf, MPI_Count count, MPI_Datatype datatype,
                                    MPI_Request *request))
RD_MPI_PROTO(int, File_iwrite_shared_c, (MPI_File fh, const void *buf, MPI_Count count, MPI_Datatype datatype,
                                     MPI_Request *request))
RD_MPI_PROTO(int, File_read_at_all_begin_c, (MPI_File fh, MPI_Offset offset, void *buf, MPI_Count count,
                                         MPI_Datatype datatype))
RD_MPI_PROTO(int, File_write_at_all_begin_c, (MPI_File fh, MPI_Offset offset, const void *buf, MPI_Count count,
                                          MPI_Datatype datatype))
RD_MPI_PROTO(int, File_read_all_begin_c, (MPI_File fh, void *buf, MPI_Count count, MPI_Datatype datatype))
RD_MPI_PROTO(int, File_write_all_begin_c, (MPI_File fh, const void *buf, MPI_Count count, MPI_Datatype datatype))
RD_MPI_PROTO(int, File_read_ordered_begin_c, (MPI_File fh, void *buf, MPI_Count count, MPI_Datatype datatype))
RD_MPI_PROTO(int, File_write_ordered_begin_c, (MPI_File fh, const void *buf, MPI_Count count, MPI_Datatype datatype))
RD_MPI_PROTO(int, File_get_type_extent_c, (MPI_File fh, MPI_Datatype datatype, MPI_Count *extent))

/* ================================================================ the tool information interface
 * (MPI 4.1 chapter 15; runtime/api/mpit.c): control variables (every
 * RDMPI_* parameter), performance variables (the engine's counters),
 * categories, enums, event sources. C only, usable before MPI_Init and
 * after MPI_Finalize; the constants are enums (no Fortran bindings). */
typedef struct rd_t_enum_s *MPI_T_enum;
typedef struct rd_t_cvar_handle_s *MPI_T_cvar_handle;
typedef struct rd_t_pvar_handle_s *MPI_T_pvar_handle;
typedef struct rd_t_pvar_session_s *MPI_T_pvar_session;
typedef struct rd_t_event_instance_s *MPI_T_event_instance;
typedef struct rd_t_event_registration_s *MPI_T_event_registration;
#define MPI_T_ENUM_NULL ((MPI_T_enum)0)
#define MPI_T_CVAR_HANDLE_NULL ((MPI_T_cvar_handle)0)
#define MPI_T_PVAR_HANDLE_NULL ((MPI_T_pvar_handle)0)
#define MPI_T_PVAR_SESSION_NULL ((MPI_T_pvar_session)0)
#define MPI_T_PVAR_ALL_HANDLES ((MPI_T_pvar_handle)-1)
enum {
    MPI_T_VERBOSITY_USER_BASIC = 221, MPI_T_VERBOSITY_USER_DETAIL, MPI_T_VERBOSITY_USER_ALL,
    MPI_T_VERBOSITY_TUNER_BASIC, MPI_T_VERBOSITY_TUNER_DETAIL, MPI_T_VERBOSITY_TUNER_ALL,
    MPI_T_VERBOSITY_MPIDEV_BASIC, MPI_T_VERBOSITY_MPIDEV_DETAIL, MPI_T_VERBOSITY_MPIDEV_ALL
};
enum {
    MPI_T_BIND_NO_OBJECT = 241, MPI_T_BIND_MPI_COMM, MPI_T_BIND_MPI_DATATYPE, MPI_T_BIND_MPI_ERRHANDLER,
    MPI_T_BIND_MPI_FILE, MPI_T_BIND_MPI_GROUP, MPI_T_BIND_MPI_OP, MPI_T_BIND_MPI_REQUEST, MPI_T_BIND_MPI_WIN,
    MPI_T_BIND_MPI_MESSAGE, MPI_T_BIND_MPI_INFO, MPI_T_BIND_MPI_SESSION
};
enum {
    MPI_T_SCOPE_CONSTANT = 261, MPI_T_SCOPE_READONLY, MPI_T_SCOPE_LOCAL, MPI_T_SCOPE_GROUP,
    MPI_T_SCOPE_GROUP_EQ, MPI_T_SCOPE_ALL, MPI_T_SCOPE_ALL_EQ
};
enum {
    MPI_T_PVAR_CLASS_STATE = 281, MPI_T_PVAR_CLASS_LEVEL, MPI_T_PVAR_CLASS_SIZE, MPI_T_PVAR_CLASS_PERCENTAGE,
    MPI_T_PVAR_CLASS_HIGHWATERMARK, MPI_T_PVAR_CLASS_LOWWATERMARK, MPI_T_PVAR_CLASS_COUNTER,
    MPI_T_PVAR_CLASS_AGGREGATE, MPI_T_PVAR_CLASS_TIMER, MPI_T_PVAR_CLASS_GENERIC
};
typedef enum MPI_T_cb_safety {
    MPI_T_CB_REQUIRE_NONE = 0, MPI_T_CB_REQUIRE_MPI_RESTRICTED, MPI_T_CB_REQUIRE_THREAD_SAFE,
    MPI_T_CB_REQUIRE_ASYNC_SIGNAL_SAFE
} MPI_T_cb_safety;
typedef enum MPI_T_source_order { MPI_T_SOURCE_ORDERED = 0, MPI_T_SOURCE_UNORDERED } MPI_T_source_order;
typedef void MPI_T_event_cb_function(MPI_T_event_instance event_instance,
                                     MPI_T_event_registration event_registration, MPI_T_cb_safety cb_safety,
                                     void *user_data);
typedef void MPI_T_event_free_cb_function(MPI_T_event_registration event_registration, MPI_T_cb_safety cb_safety,
                                          void *user_data);
typedef void MPI_T_event_dropped_cb_function(MPI_Count count, MPI_T_event_registration event_registration,
                                             int source_index, MPI_T_cb_safety cb_safety, void *user_data);
RD_MPI_PROTO(int, T_init_thread, (int required, int *provided))
RD_MPI_PROTO(int, T_finalize, (void))
RD_MPI_PROTO(int, T_enum_get_info, (MPI_T_enum enumtype, int *num, char *name, int *name_len))
RD_MPI_PROTO(int, T_enum_get_item, (MPI_T_enum enumtype, int index, int *value, char *name, int *name_len))
RD_MPI_PROTO(int, T_cvar_get_num, (int *num_cvar))
RD_MPI_PROTO(int, T_cvar_get_info, (int cvar_index, char *name, int *name_len, int *verbosity,
                                    MPI_Datatype *datatype, MPI_T_enum *enumtype, char *desc, int *desc_len,
                                    int *bind, int *scope))
RD_MPI_PROTO(int, T_cvar_get_index, (const char *name, int *cvar_index))
RD_MPI_PROTO(int, T_cvar_handle_alloc, (int cvar_index, void *obj_handle, MPI_T_cvar_handle *handle, int *count))
RD_MPI_PROTO(int, T_cvar_handle_free, (MPI_T_cvar_handle *handle))
RD_MPI_PROTO(int, T_cvar_read, (MPI_T_cvar_handle handle, void *buf))
RD_MPI_PROTO(int, T_cvar_write, (MPI_T_cvar_handle handle, const void *buf))
RD_MPI_PROTO(int, T_pvar_get_num, (int *num_pvar))
RD_MPI_PROTO(int, T_pvar_get_info, (int pvar_index, char *name, int *name_len, int *verbosity, int *var_class,
                                    MPI_Datatype *datatype, MPI_T_enum *enumtype, char *desc, int *desc_len,
                                    int *bind, int *readonly, int *continuous, int *atomic))
RD_MPI_PROTO(int, T_pvar_get_index, (const char *name, int var_class, int *pvar_index))
RD_MPI_PROTO(int, T_pvar_session_create, (MPI_T_pvar_session *session))
RD_MPI_PROTO(int, T_pvar_session_free, (MPI_T_pvar_session *session))
RD_MPI_PROTO(int, T_pvar_handle_alloc, (MPI_T_pvar_session session, int pvar_index, void *obj_handle,
                                        MPI_T_pvar_handle *handle, int *count))
RD_MPI_PROTO(int, T_pvar_handle_free, (MPI_T_pvar_session session, MPI_T_pvar_handle *handle))
RD_MPI_PROTO(int, T_pvar_start, (MPI_T_pvar_session session, MPI_T_pvar_handle handle))
RD_MPI_PROTO(int, T_pvar_stop, (MPI_T_pvar_session session, MPI_T_pvar_handle handle))
RD_MPI_PROTO(int, T_pvar_read, (MPI_T_pvar_session session, MPI_T_pvar_handle handle, void *buf))
RD_MPI_PROTO(int, T_pvar_write, (MPI_T_pvar_session session, MPI_T_pvar_handle handle, const void *buf))
RD_MPI_PROTO(int, T_pvar_reset, (MPI_T_pvar_session session, MPI_T_pvar_handle handle))
RD_MPI_PROTO(int, T_pvar_readreset, (MPI_T_pvar_session session, MPI_T_pvar_handle handle, void *buf))
RD_MPI_PROTO(int, T_category_get_num, (int *num_cat))
RD_MPI_PROTO(int, T_category_get_info, (int cat_index, char *name, int *name_len, char *desc, int *desc_len,
                                        int *num_cvars, int *num_pvars, int *num_categories))
RD_MPI_PROTO(int, T_category_get_num_events, (int cat_index, int *num_events))
RD_MPI_PROTO(int, T_category_get_index, (const char *name, int *cat_index))
RD_MPI_PROTO(int, T_category_get_cvars, (int cat_index, int len, int indices[]))
RD_MPI_PROTO(int, T_category_get_pvars, (int cat_index, int len, int indices[]))
RD_MPI_PROTO(int, T_category_get_events, (int cat_index, int len, int indices[]))
RD_MPI_PROTO(int, T_category_get_categories, (int cat_index, int len, int indices[]))
RD_MPI_PROTO(int, T_category_changed, (int *update_number))
RD_MPI_PROTO(int, T_source_get_num, (int *num_sources))
RD_MPI_PROTO(int, T_source_get_info, (int source_index, char *name, int *name_len, char *desc, int *desc_len,
                                      MPI_T_source_order *ordering, MPI_Count *ticks_per_second,
                                      MPI_Count *max_ticks, MPI_Info *info))
RD_MPI_PROTO(int, T_source_get_timestamp, (int source_index, MPI_Count *timestamp))
RD_MPI_PROTO(int, T_event_get_num, (int *num_events))
RD_MPI_PROTO(int, T_event_get_info, (int event_index, char *name, int *name_len, int *verbosity,
                                     MPI_Datatype array_of_datatypes[], MPI_Aint array_of_displacements[],
                                     int *num_elements, MPI_T_enum *enumtype, MPI_Info *info, char *desc,
                                     int *desc_len, int *bind))
RD_MPI_PROTO(int, T_event_get_index, (const char *name, int *event_index))
RD_MPI_PROTO(int, T_event_handle_alloc, (int event_index, void *obj_handle, MPI_Info info,
                                         MPI_T_event_registration *event_registration))
RD_MPI_PROTO(int, T_event_handle_set_info, (MPI_T_event_registration event_registration, MPI_Info info))
RD_MPI_PROTO(int, T_event_handle_get_info, (MPI_T_event_registration event_registration, MPI_Info *info_used))
RD_MPI_PROTO(int, T_event_register_callback, (MPI_T_event_registration event_registration,
                                              MPI_T_cb_safety cb_safety, MPI_Info info, void *user_data,
                                              MPI_T_event_cb_function *event_cb_function))
RD_MPI_PROTO(int, T_event_callback_set_info, (MPI_T_event_registration event_registration,
                                              MPI_T_cb_safety cb_safety, MPI_Info info))
RD_MPI_PROTO(int, T_event_callback_get_info, (MPI_T_event_registration event_registration,
                                              MPI_T_cb_safety cb_safety, MPI_Info *info_used))
RD_MPI_PROTO(int, T_event_handle_free, (MPI_T_event_registration event_registration, void *user_data,
                                        MPI_T_event_free_cb_function *free_cb_function))
RD_MPI_PROTO(int, T_event_set_dropped_handler, (MPI_T_event_registration event_registration,
                                                MPI_T_event_dropped_cb_function *dropped_cb_function))
RD_MPI_PROTO(int, T_event_read, (MPI_T_event_instance event_instance, int element_index, void *buffer))
RD_MPI_PROTO(int, T_event_copy, (MPI_T_event_instance event_instance, void *buffer))
RD_MPI_PROTO(int, T_event_get_timestamp, (MPI_T_event_instance event_instance, MPI_Count *event_timestamp))
RD_MPI_PROTO(int, T_event_get_source, (MPI_T_event_instance event_instance, int *source_index))

/* ------------------------------------------------------------ removed in MPI-3.0 */
/* MPI-1's names of MPI-2 functions (see the top of this file): the same
 * semantics as the replacement named beside each. */
#if !defined(RDMPI_NO_MPI1_COMPAT) && !(defined(OMPI_OMIT_MPI1_COMPAT_DECLS) && OMPI_OMIT_MPI1_COMPAT_DECLS)
typedef int MPI_Copy_function(MPI_Comm oldcomm, int keyval, void *extra_state, void *attribute_val_in,
                              void *attribute_val_out, int *flag);
typedef int MPI_Delete_function(MPI_Comm comm, int keyval, void *attribute_val, void *extra_state);
typedef void MPI_Handler_function(MPI_Comm *, int *, ...);
#define MPI_NULL_COPY_FN rd_mpi_comm_null_copy_fn
#define MPI_DUP_FN rd_mpi_comm_dup_fn
#define MPI_NULL_DELETE_FN rd_mpi_comm_null_delete_fn
/* MPI_Comm_create_keyval, MPI_Comm_free_keyval, MPI_Comm_set_attr,
 * MPI_Comm_get_attr, MPI_Comm_delete_attr */
RD_MPI_PROTO(int, Keyval_create, (MPI_Copy_function *copy_fn, MPI_Delete_function *delete_fn, int *keyval,
                                  void *extra_state))
RD_MPI_PROTO(int, Keyval_free, (int *keyval))
RD_MPI_PROTO(int, Attr_put, (MPI_Comm comm, int keyval, void *attribute_val))
RD_MPI_PROTO(int, Attr_get, (MPI_Comm comm, int keyval, void *attribute_val, int *flag))
RD_MPI_PROTO(int, Attr_delete, (MPI_Comm comm, int keyval))
/* MPI_Get_address; MPI_Type_get_extent (extent, lb, lb + extent) */
RD_MPI_PROTO(int, Address, (void *location, MPI_Aint *address))
RD_MPI_PROTO(int, Type_extent, (MPI_Datatype datatype, MPI_Aint *extent))
RD_MPI_PROTO(int, Type_lb, (MPI_Datatype datatype, MPI_Aint *displacement))
RD_MPI_PROTO(int, Type_ub, (MPI_Datatype datatype, MPI_Aint *displacement))
/* MPI_Type_create_struct, MPI_Type_create_hindexed, MPI_Type_create_hvector */
RD_MPI_PROTO(int, Type_struct, (int count, const int array_of_blocklengths[],
                                const MPI_Aint array_of_displacements[], const MPI_Datatype array_of_types[],
                                MPI_Datatype *newtype))
RD_MPI_PROTO(int, Type_hindexed, (int count, const int array_of_blocklengths[],
                                  const MPI_Aint array_of_displacements[], MPI_Datatype oldtype,
                                  MPI_Datatype *newtype))
RD_MPI_PROTO(int, Type_hvector, (int count, int blocklength, MPI_Aint stride, MPI_Datatype oldtype,
                                 MPI_Datatype *newtype))
/* MPI_Comm_create_errhandler, MPI_Comm_get_errhandler, MPI_Comm_set_errhandler */
RD_MPI_PROTO(int, Errhandler_create, (MPI_Handler_function *function, MPI_Errhandler *errhandler))
RD_MPI_PROTO(int, Errhandler_get, (MPI_Comm comm, MPI_Errhandler *errhandler))
RD_MPI_PROTO(int, Errhandler_set, (MPI_Comm comm, MPI_Errhandler errhandler))
#endif

#undef RD_MPI_PROTO

#ifdef __cplusplus
}
#endif

#endif /* RDMPI_MPI_H */

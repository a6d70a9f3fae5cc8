/*
 * mpi.h - the MPI C API of rdmpi.
 *
 * Only what rdmpi implements is declared here: a function that is declared
 * works as the MPI standard says. Every MPI_ function has a PMPI_ twin (the
 * profiling interface); the MPI_ names are weak aliases of the PMPI_ ones.
 *
 * Handles are pointers to opaque objects, so that the compiler tells a
 * communicator from an error handler.
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
#define MPI_MAX_ERROR_STRING 512
#define MPI_MAX_LIBRARY_VERSION_STRING 8192
#define MPI_MAX_OBJECT_NAME 128

/* ------------------------------------------------------------ scalar types */
typedef intptr_t MPI_Aint;
typedef long long MPI_Offset;
typedef long long MPI_Count;

/* ------------------------------------------------------------ handles */
typedef struct rd_comm_s *MPI_Comm;
typedef struct rd_errhandler_s *MPI_Errhandler;

/* predefined objects live in librdmpi; their addresses are the handles */
extern struct rd_comm_s rd_mpi_comm_world;
extern struct rd_comm_s rd_mpi_comm_self;
extern struct rd_errhandler_s rd_mpi_errors_are_fatal;
extern struct rd_errhandler_s rd_mpi_errors_return;

#define MPI_COMM_NULL ((MPI_Comm)0)
#define MPI_COMM_WORLD (&rd_mpi_comm_world)
#define MPI_COMM_SELF (&rd_mpi_comm_self)
#define MPI_ERRHANDLER_NULL ((MPI_Errhandler)0)
#define MPI_ERRORS_ARE_FATAL (&rd_mpi_errors_are_fatal)
#define MPI_ERRORS_RETURN (&rd_mpi_errors_return)

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
#define MPI_ERR_LASTCODE 74

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

RD_MPI_PROTO(int, Get_processor_name, (char *name, int *resultlen))
RD_MPI_PROTO(int, Get_version, (int *version, int *subversion))
RD_MPI_PROTO(int, Get_library_version, (char *version, int *resultlen))
RD_MPI_PROTO(double, Wtime, (void))
RD_MPI_PROTO(double, Wtick, (void))

RD_MPI_PROTO(int, Error_string, (int errorcode, char *string, int *resultlen))
RD_MPI_PROTO(int, Error_class, (int errorcode, int *errorclass))
RD_MPI_PROTO(int, Comm_set_errhandler, (MPI_Comm comm, MPI_Errhandler errhandler))
RD_MPI_PROTO(int, Comm_get_errhandler, (MPI_Comm comm, MPI_Errhandler *errhandler))
RD_MPI_PROTO(int, Errhandler_free, (MPI_Errhandler *errhandler))

#undef RD_MPI_PROTO

#ifdef __cplusplus
}
#endif

#endif /* RDMPI_MPI_H */

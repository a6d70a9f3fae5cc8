/* errhandler.h - error handlers and the one way errors are reported.
 *
 * Every MPI call that fails returns through rd_err_raise(): it formats a
 * message naming the call, the rank and the cause, keeps it for
 * MPI_Error_string, and then does what the communicator's handler says:
 * print and end the job (MPI_ERRORS_ARE_FATAL), return the class
 * (MPI_ERRORS_RETURN) or call the user's function. */
#ifndef RD_ERRHANDLER_H
#define RD_ERRHANDLER_H

#include <mpi.h>
#include <stdint.h>

#include "runtime/base/error.h"

#define RD_ERRH_MAGIC 0x45727248u /* "ErrH" */

/* RD_ERRH_FUSER: a user handler in Fortran (runtime/fortran/README.md,
 * "Callbacks"), called with the communicator's or window's Fortran handle
 * and the code, both MPI_Fint by reference */
enum rd_errh_kind { RD_ERRH_FATAL, RD_ERRH_RETURN, RD_ERRH_USER, RD_ERRH_FUSER };


struct rd_errhandler_s {
    uint32_t magic;
    enum rd_errh_kind kind;
    int predefined;
    _Atomic int refs;             /* user handlers only */
    _Atomic int32_t fidx;         /* its Fortran handle's index, 0: none (objects/fhandle.h) */
    MPI_Comm_errhandler_function *fn;
    MPI_Win_errhandler_function *wfn; /* made by MPI_Win_create_errhandler (fn is NULL) */
    MPI_File_errhandler_function *ffn; /* made by MPI_File_create_errhandler (fn, wfn NULL) */
    MPI_Session_errhandler_function *sfn; /* made by MPI_Session_create_errhandler (the others NULL) */
};

static inline int rd_errh_valid(MPI_Errhandler e)
{
    return e != MPI_ERRHANDLER_NULL && e->magic == RD_ERRH_MAGIC;
}

/* Report error class cls found in call on comm (MPI_COMM_NULL or an invalid
 * communicator: MPI_COMM_WORLD's handler is used). Returns the class, unless
 * the handler ends the job. */
int rd_err_raise(MPI_Comm comm, int cls, const char *call, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* The same for an error found in a call on a window: the window's handler
 * decides (an invalid window: MPI_COMM_WORLD's). */
int rd_err_raise_win(MPI_Win win, int cls, const char *call, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
int rd_err_invoke_win(MPI_Win win, int cls);

/* The same for a file: the file's handler decides; MPI_FILE_NULL or an
 * invalid file: MPI_FILE_NULL's handler (objects/file.h). */
int rd_err_raise_file(MPI_File file, int cls, const char *call, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
int rd_err_invoke_file(MPI_File file, int cls);

/* The same for a session: its handler decides (an invalid session:
 * MPI_ERRORS_ARE_FATAL, the default). */
int rd_err_raise_session(MPI_Session s, int cls, const char *call, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
int rd_err_invoke_session(MPI_Session s, int cls);

/* The same where no object holds the handler yet (MPI_Session_init, the
 * communicators made from groups): eh decides (MPI_ERRHANDLER_NULL: fatal);
 * a user function is called with a null handle. */
int rd_err_raise_errh(MPI_Errhandler eh, int cls, const char *call, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* Apply comm's handler to an error class the caller already described. */
int rd_err_invoke(MPI_Comm comm, int cls);

/* A user handler for communicators (fn) or windows (wfn); one reference. */
rd_status rd_errh_new(MPI_Comm_errhandler_function *fn, MPI_Win_errhandler_function *wfn,
                      MPI_Errhandler *out);
/* References held by objects and by the user's handles (predefined: none). */
void rd_errh_retain(MPI_Errhandler eh);
void rd_errh_release(MPI_Errhandler eh);

/* Report a call made before MPI_Init or after MPI_Finalize. */
int rd_err_not_ready(const char *call);

/* The detailed message of this thread's last error, if it had class cls. */
const char *rd_err_last_detail(int cls);

/* The standard name and meaning of an error class; NULL if not a class. */
const char *rd_err_class_string(int cls);

/* Classes and codes added at run time (errcode.c): values above
 * MPI_ERR_LASTCODE, never reused. why: the cause of an MPI_ERR_* return,
 * after the value ("%d is not an error class"). */
int rd_err_code_class(int code);   /* the class of any code in use; -1: none */
int rd_err_add(int is_code, int cls, int *out, const char **why); /* a new class, or a code of cls */
int rd_err_remove(int code, int is_class, const char **why);
int rd_err_set_string(int code, const char *s, const char **why);
int rd_err_remove_string(int code, const char **why);
/* an added value's string (empty when none was set) into buf; 0: not added */
int rd_err_user_string(int code, char *buf, size_t n);
int rd_err_lastused(void);         /* MPI_LASTUSEDCODE */

#endif

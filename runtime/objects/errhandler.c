/* errhandler.c - error handlers and error reporting (errhandler.h). */
#include "runtime/objects/errhandler.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/base/job.h"
#include "runtime/base/state.h"
#include "runtime/objects/comm.h"
#include "runtime/objects/win.h"
#include "runtime/objects/file.h"
#include "runtime/objects/fhandle.h"
#include "runtime/objects/session.h"

struct rd_errhandler_s rd_mpi_errors_are_fatal = {
    .magic = RD_ERRH_MAGIC, .kind = RD_ERRH_FATAL, .predefined = 1};
struct rd_errhandler_s rd_mpi_errors_return = {
    .magic = RD_ERRH_MAGIC, .kind = RD_ERRH_RETURN, .predefined = 1};

static _Thread_local struct {
    int cls;
    char text[MPI_MAX_ERROR_STRING];
} rd_err_last;

static const char *const class_strings[MPI_ERR_LASTCODE] = {
    [MPI_SUCCESS] = "MPI_SUCCESS: no errors",
    [MPI_ERR_BUFFER] = "MPI_ERR_BUFFER: invalid buffer pointer",
    [MPI_ERR_COUNT] = "MPI_ERR_COUNT: invalid count argument",
    [MPI_ERR_TYPE] = "MPI_ERR_TYPE: invalid datatype",
    [MPI_ERR_TAG] = "MPI_ERR_TAG: invalid tag",
    [MPI_ERR_COMM] = "MPI_ERR_COMM: invalid communicator",
    [MPI_ERR_RANK] = "MPI_ERR_RANK: invalid rank",
    [MPI_ERR_REQUEST] = "MPI_ERR_REQUEST: invalid request",
    [MPI_ERR_ROOT] = "MPI_ERR_ROOT: invalid root",
    [MPI_ERR_GROUP] = "MPI_ERR_GROUP: invalid group",
    [MPI_ERR_OP] = "MPI_ERR_OP: invalid reduce operation",
    [MPI_ERR_TOPOLOGY] = "MPI_ERR_TOPOLOGY: invalid communicator topology",
    [MPI_ERR_DIMS] = "MPI_ERR_DIMS: invalid topology dimension",
    [MPI_ERR_ARG] = "MPI_ERR_ARG: invalid argument of some other kind",
    [MPI_ERR_UNKNOWN] = "MPI_ERR_UNKNOWN: unknown error",
    [MPI_ERR_TRUNCATE] = "MPI_ERR_TRUNCATE: message truncated",
    [MPI_ERR_OTHER] = "MPI_ERR_OTHER: known error not in this list",
    [MPI_ERR_INTERN] = "MPI_ERR_INTERN: internal error",
    [MPI_ERR_IN_STATUS] = "MPI_ERR_IN_STATUS: error code is in status",
    [MPI_ERR_PENDING] = "MPI_ERR_PENDING: pending request",
    [MPI_ERR_ACCESS] = "MPI_ERR_ACCESS: permission denied",
    [MPI_ERR_AMODE] = "MPI_ERR_AMODE: error related to the amode passed to MPI_FILE_OPEN",
    [MPI_ERR_ASSERT] = "MPI_ERR_ASSERT: invalid assert argument",
    [MPI_ERR_BAD_FILE] = "MPI_ERR_BAD_FILE: invalid file name",
    [MPI_ERR_BASE] = "MPI_ERR_BASE: invalid base argument",
    [MPI_ERR_CONVERSION] = "MPI_ERR_CONVERSION: error in a user data conversion function",
    [MPI_ERR_DISP] = "MPI_ERR_DISP: invalid displacement argument",
    [MPI_ERR_DUP_DATAREP] = "MPI_ERR_DUP_DATAREP: data representation identifier already registered",
    [MPI_ERR_FILE_EXISTS] = "MPI_ERR_FILE_EXISTS: file exists",
    [MPI_ERR_FILE_IN_USE] = "MPI_ERR_FILE_IN_USE: file operation could not be completed, file in use",
    [MPI_ERR_FILE] = "MPI_ERR_FILE: invalid file handle",
    [MPI_ERR_INFO_KEY] = "MPI_ERR_INFO_KEY: key longer than MPI_MAX_INFO_KEY",
    [MPI_ERR_INFO_NOKEY] = "MPI_ERR_INFO_NOKEY: invalid key passed to MPI_INFO_DELETE",
    [MPI_ERR_INFO_VALUE] = "MPI_ERR_INFO_VALUE: value longer than MPI_MAX_INFO_VAL",
    [MPI_ERR_INFO] = "MPI_ERR_INFO: invalid info argument",
    [MPI_ERR_IO] = "MPI_ERR_IO: other I/O error",
    [MPI_ERR_KEYVAL] = "MPI_ERR_KEYVAL: invalid keyval",
    [MPI_ERR_LOCKTYPE] = "MPI_ERR_LOCKTYPE: invalid locktype argument",
    [MPI_ERR_NAME] = "MPI_ERR_NAME: invalid service name passed to MPI_LOOKUP_NAME",
    [MPI_ERR_NO_MEM] = "MPI_ERR_NO_MEM: out of memory",
    [MPI_ERR_NOT_SAME] = "MPI_ERR_NOT_SAME: collective argument not identical on all processes",
    [MPI_ERR_NO_SPACE] = "MPI_ERR_NO_SPACE: not enough space",
    [MPI_ERR_NO_SUCH_FILE] = "MPI_ERR_NO_SUCH_FILE: file does not exist",
    [MPI_ERR_PORT] = "MPI_ERR_PORT: invalid port name passed to MPI_COMM_CONNECT",
    [MPI_ERR_QUOTA] = "MPI_ERR_QUOTA: quota exceeded",
    [MPI_ERR_READ_ONLY] = "MPI_ERR_READ_ONLY: read-only file or file system",
    [MPI_ERR_RMA_ATTACH] = "MPI_ERR_RMA_ATTACH: memory cannot be attached",
    [MPI_ERR_RMA_CONFLICT] = "MPI_ERR_RMA_CONFLICT: conflicting accesses to window",
    [MPI_ERR_RMA_RANGE] = "MPI_ERR_RMA_RANGE: target memory is not part of the window",
    [MPI_ERR_RMA_SHARED] = "MPI_ERR_RMA_SHARED: memory cannot be shared",
    [MPI_ERR_RMA_SYNC] = "MPI_ERR_RMA_SYNC: wrong synchronization of RMA calls",
    [MPI_ERR_RMA_FLAVOR] = "MPI_ERR_RMA_FLAVOR: passed window has the wrong flavor for the called function",
    [MPI_ERR_SERVICE] = "MPI_ERR_SERVICE: invalid service name passed to MPI_UNPUBLISH_NAME",
    [MPI_ERR_SIZE] = "MPI_ERR_SIZE: invalid size argument",
    [MPI_ERR_SPAWN] = "MPI_ERR_SPAWN: error in spawning processes",
    [MPI_ERR_UNSUPPORTED_DATAREP] = "MPI_ERR_UNSUPPORTED_DATAREP: unsupported datarep passed to MPI_FILE_SET_VIEW",
    [MPI_ERR_UNSUPPORTED_OPERATION] = "MPI_ERR_UNSUPPORTED_OPERATION: unsupported operation",
    [MPI_ERR_WIN] = "MPI_ERR_WIN: invalid win argument",
    [MPI_T_ERR_MEMORY] = "MPI_T_ERR_MEMORY: out of memory",
    [MPI_T_ERR_NOT_INITIALIZED] = "MPI_T_ERR_NOT_INITIALIZED: interface not initialized",
    [MPI_T_ERR_CANNOT_INIT] = "MPI_T_ERR_CANNOT_INIT: interface not in the state to be initialized",
    [MPI_T_ERR_INVALID_INDEX] = "MPI_T_ERR_INVALID_INDEX: the index is invalid or has been deleted",
    [MPI_T_ERR_INVALID_ITEM] = "MPI_T_ERR_INVALID_ITEM: item index queried is out of range",
    [MPI_T_ERR_INVALID_HANDLE] = "MPI_T_ERR_INVALID_HANDLE: the handle is invalid",
    [MPI_T_ERR_OUT_OF_HANDLES] = "MPI_T_ERR_OUT_OF_HANDLES: no more handles available",
    [MPI_T_ERR_OUT_OF_SESSIONS] = "MPI_T_ERR_OUT_OF_SESSIONS: no more sessions available",
    [MPI_T_ERR_INVALID_SESSION] = "MPI_T_ERR_INVALID_SESSION: session argument is not valid",
    [MPI_T_ERR_CVAR_SET_NOT_NOW] = "MPI_T_ERR_CVAR_SET_NOT_NOW: variable cannot be set at this moment",
    [MPI_T_ERR_CVAR_SET_NEVER] = "MPI_T_ERR_CVAR_SET_NEVER: variable cannot be set until end of execution",
    [MPI_T_ERR_PVAR_NO_STARTSTOP] = "MPI_T_ERR_PVAR_NO_STARTSTOP: variable cannot be started or stopped",
    [MPI_T_ERR_PVAR_NO_WRITE] = "MPI_T_ERR_PVAR_NO_WRITE: variable cannot be written or reset",
    [MPI_T_ERR_PVAR_NO_ATOMIC] = "MPI_T_ERR_PVAR_NO_ATOMIC: variable cannot be read and written atomically",
    [MPI_T_ERR_INVALID_NAME] = "MPI_T_ERR_INVALID_NAME: variable or category name is not valid",
    [MPI_T_ERR_INVALID] = "MPI_T_ERR_INVALID: invalid use of the interface or bad parameter value",
    [MPI_ERR_PROC_ABORTED] = "MPI_ERR_PROC_ABORTED: operation failed because a peer process aborted",
    [MPI_ERR_VALUE_TOO_LARGE] = "MPI_ERR_VALUE_TOO_LARGE: value is too large to store",
    [MPI_ERR_SESSION] = "MPI_ERR_SESSION: invalid session argument",
    [MPI_ERR_ERRHANDLER] = "MPI_ERR_ERRHANDLER: invalid errhandler argument",
};

const char *rd_err_class_string(int cls)
{
    if (cls < 0 || cls >= MPI_ERR_LASTCODE)
        return NULL;
    return class_strings[cls];
}

const char *rd_err_last_detail(int cls)
{
    if (cls != MPI_SUCCESS && rd_err_last.cls == cls && rd_err_last.text[0])
        return rd_err_last.text;
    return NULL;
}

/* MPI_ERRORS_ARE_FATAL: print the last error and end the job. */
static _Noreturn void fatal(int cls)
{
    char user[MPI_MAX_ERROR_STRING];
    const char *what = rd_err_class_string(cls);
    if (!what) /* a code the program added (or none) */
        what = rd_err_user_string(cls, user, sizeof user) && user[0] ? user : "an error code of the program";
    fprintf(stderr, "rdmpi: %s (%s); ending the job (MPI_ERRORS_ARE_FATAL)\n", rd_err_last.text, what);
    rd_job_abort(cls, rd_err_last.text);
}

/* Keep "call on rank R: cause" as this thread's last error. */
static void remember(int cls, const char *call, const char *fmt, va_list ap)
{
    char cause[384];
    vsnprintf(cause, sizeof(cause), fmt, ap);
    rd_err_last.cls = cls;
    snprintf(rd_err_last.text, sizeof(rd_err_last.text), "%s on rank %d: %s", call, rd_job.rank,
             cause);
}

/* a Fortran handler: SUBROUTINE h(comm_or_win, errcode) */
typedef void rd_errh_ffn(MPI_Fint *, MPI_Fint *);

int rd_err_invoke(MPI_Comm comm, int cls)
{
    MPI_Comm target = rd_comm_valid(comm) ? comm : MPI_COMM_WORLD;
    MPI_Errhandler eh = target->errh;
    if (!rd_errh_valid(eh))
        eh = MPI_ERRORS_ARE_FATAL;
    if (eh->kind == RD_ERRH_RETURN)
        return cls;
    if (eh->kind == RD_ERRH_USER && eh->fn) {
        int code = cls;
        eh->fn(&target, &code);
        return cls;
    }
    if (eh->kind == RD_ERRH_FUSER && eh->fn) {
        MPI_Fint f = rd_fh_c2f(RD_FH_COMM, target, &target->fidx), code = cls;
        ((rd_errh_ffn *)(void (*)(void))eh->fn)(&f, &code);
        return cls;
    }
    fatal(cls);
}

int rd_err_raise(MPI_Comm comm, int cls, const char *call, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    remember(cls, call, fmt, ap);
    va_end(ap);
    return rd_err_invoke(comm, cls);
}

int rd_err_invoke_win(MPI_Win win, int cls)
{
    if (!rd_win_valid(win))
        return rd_err_invoke(MPI_COMM_WORLD, cls);
    MPI_Errhandler eh = win->errh;
    if (rd_errh_valid(eh) && eh->kind == RD_ERRH_RETURN)
        return cls;
    if (rd_errh_valid(eh) && eh->kind == RD_ERRH_USER && eh->wfn) {
        int code = cls;
        eh->wfn(&win, &code);
        return cls;
    }
    if (rd_errh_valid(eh) && eh->kind == RD_ERRH_FUSER && eh->wfn) {
        MPI_Fint f = rd_fh_c2f(RD_FH_WIN, win, &win->fidx), code = cls;
        ((rd_errh_ffn *)(void (*)(void))eh->wfn)(&f, &code);
        return cls;
    }
    fatal(cls);
}

int rd_err_raise_win(MPI_Win win, int cls, const char *call, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    remember(cls, call, fmt, ap);
    va_end(ap);
    return rd_err_invoke_win(win, cls);
}

/* MPI-3.1 13.7: the default handler for files is MPI_ERRORS_RETURN. An
 * atomic pointer: a reader on another thread never sees a torn value. */
static _Atomic(MPI_Errhandler) file_null_errh = MPI_ERRORS_RETURN;

MPI_Errhandler rd_file_null_errh(void)
{
    return atomic_load(&file_null_errh);
}

void rd_file_null_set_errh(MPI_Errhandler eh)
{
    rd_errh_retain(eh);
    rd_errh_release(atomic_exchange(&file_null_errh, eh));
}

int rd_err_invoke_file(MPI_File file, int cls)
{
    int valid = rd_file_valid(file);
    MPI_Errhandler eh = valid ? file->errh : rd_file_null_errh();
    MPI_File target = valid ? file : MPI_FILE_NULL;
    if (rd_errh_valid(eh) && eh->kind == RD_ERRH_RETURN)
        return cls;
    if (rd_errh_valid(eh) && eh->kind == RD_ERRH_USER && eh->ffn) {
        int code = cls;
        eh->ffn(&target, &code);
        return cls;
    }
    if (rd_errh_valid(eh) && eh->kind == RD_ERRH_FUSER && eh->ffn) {
        MPI_Fint f = rd_fh_c2f(RD_FH_FILE, target, target ? &target->fidx : NULL),
                 code = cls;
        ((rd_errh_ffn *)(void (*)(void))eh->ffn)(&f, &code);
        return cls;
    }
    fatal(cls);
}

int rd_err_raise_file(MPI_File file, int cls, const char *call, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    remember(cls, call, fmt, ap);
    va_end(ap);
    return rd_err_invoke_file(file, cls);
}

int rd_err_invoke_session(MPI_Session s, int cls)
{
    MPI_Errhandler eh = rd_session_valid(s) ? s->errh : MPI_ERRORS_ARE_FATAL;
    if (rd_errh_valid(eh) && eh->kind == RD_ERRH_RETURN)
        return cls;
    if (rd_errh_valid(eh) && eh->kind == RD_ERRH_USER && eh->sfn) {
        int code = cls;
        eh->sfn(&s, &code);
        return cls;
    }
    if (rd_errh_valid(eh) && eh->kind == RD_ERRH_FUSER && eh->sfn) {
        MPI_Fint f = rd_fh_c2f(RD_FH_SESSION, s, rd_session_valid(s) ? &s->fidx : NULL), code = cls;
        ((rd_errh_ffn *)(void (*)(void))eh->sfn)(&f, &code);
        return cls;
    }
    fatal(cls);
}

int rd_err_raise_session(MPI_Session s, int cls, const char *call, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    remember(cls, call, fmt, ap);
    va_end(ap);
    return rd_err_invoke_session(s, cls);
}

int rd_err_raise_errh(MPI_Errhandler eh, int cls, const char *call, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    remember(cls, call, fmt, ap);
    va_end(ap);
    if (!rd_errh_valid(eh))
        fatal(cls);
    int code = cls;
    MPI_Fint fnull = 0;
    if (eh->kind == RD_ERRH_RETURN)
        return cls;
    if (eh->kind == RD_ERRH_USER && (eh->fn || eh->sfn)) {
        MPI_Comm c = MPI_COMM_NULL;
        MPI_Session s = MPI_SESSION_NULL;
        if (eh->fn)
            eh->fn(&c, &code);
        else
            eh->sfn(&s, &code);
        return cls;
    }
    if (eh->kind == RD_ERRH_FUSER && (eh->fn || eh->sfn)) {
        ((rd_errh_ffn *)(void (*)(void))(eh->fn ? (void (*)(void))eh->fn : (void (*)(void))eh->sfn))(&fnull, &code);
        return cls;
    }
    fatal(cls);
}

/* ------------------------------------------------------------ handler objects */

rd_status rd_errh_new(MPI_Comm_errhandler_function *fn, MPI_Win_errhandler_function *wfn,
                      MPI_Errhandler *out)
{
    struct rd_errhandler_s *eh = calloc(1, sizeof(*eh));
    if (!eh)
        return RD_ERR_NOMEM;
    eh->magic = RD_ERRH_MAGIC;
    eh->kind = RD_ERRH_USER;
    eh->fn = fn;
    eh->wfn = wfn;
    atomic_init(&eh->refs, 1);
    *out = eh;
    return RD_OK;
}

void rd_errh_retain(MPI_Errhandler eh)
{
    if (!eh->predefined)
        atomic_fetch_add(&eh->refs, 1);
}

void rd_errh_release(MPI_Errhandler eh)
{
    if (rd_errh_valid(eh) && !eh->predefined && atomic_fetch_sub(&eh->refs, 1) == 1) {
        eh->magic = 0;
        rd_fh_drop(RD_FH_ERRHANDLER, &eh->fidx);
        free(eh);
    }
}

int rd_err_not_ready(const char *call)
{
    int phase = atomic_load(&rd_state.phase);
    rd_err_last.cls = MPI_ERR_OTHER;
    snprintf(rd_err_last.text, sizeof(rd_err_last.text), "%s on rank %d: called %s", call,
             rd_job.rank, phase == RD_PHASE_NONE ? "before MPI_Init" : "after MPI_Finalize");
    /* no communicator exists to hold another handler: the default applies */
    fprintf(stderr, "rdmpi: %s\n", rd_err_last.text);
    rd_job_abort(MPI_ERR_OTHER, rd_err_last.text);
}

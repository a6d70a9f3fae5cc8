/* io_int.h - the I/O floor's shared structures and the contracts between
 * its files (runtime/io/PLAN.md, sections 2-4). Each file of the floor owns
 * the functions listed under its name; runtime/api/ (floor 8) calls the
 * floor through these and through io.h. Nothing below floor 7 sees this.
 *
 * Conventions of the floor:
 *  - a function that can fail returns an MPI error class (MPI_SUCCESS or
 *    MPI_ERR_*) and, when it fails, describes the cause in *why (the caller,
 *    an entry point, raises the class with that text: call and rank are
 *    added there);
 *  - offsets: "stream" offsets count the data bytes a view selects (etype
 *    offsets times the etype's size); "file" offsets are bytes from the
 *    file's start;
 *  - nothing here takes the big lock: the entry points do, as for every call. */
#ifndef RD_IO_INT_H
#define RD_IO_INT_H

#include <mpi.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* why a call failed: written by the floor, reported by the entry point */
typedef struct {
    char msg[256];
} rd_io_why;

static inline int rd_io_fail(rd_io_why *why, int cls, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static inline int rd_io_fail(rd_io_why *why, int cls, const char *fmt, ...)
{
    if (why) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(why->msg, sizeof why->msg, fmt, ap);
        va_end(ap);
    }
    return cls;
}

/* A path for a message (the 256 bytes of why): itself when shorter than
 * RD_IO_PATH_SHORT, else its first and last 60 bytes around "...", so
 * that the cause after it is not cut off. */
#define RD_IO_PATH_SHORT 128
static inline const char *rd_io_path_short(const char *path, char out[RD_IO_PATH_SHORT])
{
    size_t n = strlen(path);
    if (n < RD_IO_PATH_SHORT)
        return path;
    snprintf(out, RD_IO_PATH_SHORT, "%.60s...%s", path, path + n - 60);
    return out;
}

struct rd_io_datarep; /* datarep.c: a data representation (native, internal, external32, user) */

/* ---- view.c: a file view (MPI-3.1 13.3) and its stream <-> file mapping.
 * Instance k of the filetype starts at file offset disp + k * ftext; the
 * data byte o of the stream lies in instance o / ftsize, at the
 * displacement (relative to that instance) the filetype's tree gives for
 * packed byte o % ftsize. Never flattened to offset lists. */
struct rd_io_view {
    MPI_Offset disp;              /* bytes from the file's start */
    MPI_Datatype etype, filetype; /* held (rd_dt_retain) */
    size_t esize;                 /* etype's size in the file's representation */
    size_t ftsize;                /* data bytes of one filetype instance */
    MPI_Aint ftext;               /* the filetype's extent in the file */
    int contig;                   /* stream byte o is at file offset disp + o */
    int monotone;                 /* (stage 2) the stream's file offsets go up, without
                                   * overlap, across instances too: below() is two
                                   * O(depth) seeks and a stream range's part in a file
                                   * interval is one range (PLAN 4.3) */
    const struct rd_io_datarep *rep; /* NULL: native */
    char datarep[128];            /* MPI_MAX_DATAREP_STRING */
};

/* The default view: displacement 0, etype and filetype MPI_BYTE, "native". */
void rd_io_view_init(struct rd_io_view *v);
/* Release the types a view holds. */
void rd_io_view_fini(struct rd_io_view *v);
/* The file offset of stream byte o (MPI_File_get_byte_offset). */
MPI_Offset rd_io_view_offset(const struct rd_io_view *v, MPI_Offset o);
/* fn(arg, file offset, length) for each file run of stream bytes
 * [o, o + len), in order, adjacent runs merged; stops at the first
 * non-zero result and returns it. */
int rd_io_view_runs(const struct rd_io_view *v, MPI_Offset o, MPI_Offset len,
                    int (*fn)(void *arg, MPI_Offset foff, size_t n), void *arg);
/* Stream bytes whose file offset is below file offset x (the inverse map). */
MPI_Offset rd_io_view_below(const struct rd_io_view *v, MPI_Offset x);

/* (stage 2, view.c) Check (disp, etype, filetype, datarep) as
 * MPI_File_set_view must (PLAN 4.1, 6) and, when they pass, make them v's
 * view (the old one's types released, the new ones held). writable: the
 * file is open for writing (no overlapping filetype); sequential: opened
 * with MPI_MODE_SEQUENTIAL, the only case where disp may be
 * MPI_DISPLACEMENT_CURRENT, which then stands for current (the shared
 * pointer's byte offset). Fails with MPI_ERR_ARG (disp, sizes,
 * displacements, naming the first bad one), MPI_ERR_TYPE (an uncommitted
 * or invalid type) or MPI_ERR_UNSUPPORTED_DATAREP, leaving v as it was.
 * The floor keeps no MPI_File here: the caller passes the file's flags. */
int rd_io_view_set(struct rd_io_view *v, MPI_Offset disp, MPI_Datatype etype, MPI_Datatype filetype,
                   const char *datarep, int writable, int sequential, MPI_Offset current,
                   rd_io_why *why);
/* The file bytes [*lo, *hi) that stream bytes [o, o + len) touch, len > 0:
 * two seeks on a monotone view, one walk of the runs otherwise (atomic
 * mode's locks, sieving windows). */
void rd_io_view_span(const struct rd_io_view *v, MPI_Offset o, MPI_Offset len, MPI_Offset *lo,
                     MPI_Offset *hi);

/* ---- datarep.c (stage 2): data representations (MPI-3.1 13.5). The
 * conversion and extent functions have the C signatures of
 * MPI_Datarep_conversion_function and MPI_Datarep_extent_function. */
typedef int (*rd_io_conv_fn)(void *userbuf, MPI_Datatype dt, int count, void *filebuf,
                             MPI_Offset position, void *extra_state);
typedef int (*rd_io_extent_fn)(MPI_Datatype dt, MPI_Aint *extent, void *extra_state);

enum { RD_REP_NATIVE, RD_REP_INTERNAL, RD_REP_EXTERNAL32, RD_REP_USER };

struct rd_io_datarep {
    char name[128];               /* MPI_MAX_DATAREP_STRING */
    int kind;                     /* RD_REP_* */
    rd_io_conv_fn read_fn, write_fn; /* user: NULL is MPI_CONVERSION_FN_NULL */
    rd_io_extent_fn extent_fn;
    void *extra_state;
    int fortran;                  /* registered from Fortran: callbacks take Fortran arguments */
    int large;                    /* MPI_Register_datarep_c: the conversions take an MPI_Count count
                                   * (read_fn, write_fn hold MPI_Datarep_conversion_function_c *) */
    struct rd_io_datarep *next;
};

/* The representation called name, NULL when none is. */
const struct rd_io_datarep *rd_io_datarep_find(const char *name);
/* 0 when every basic element of dt has in rep the size it has in memory
 * (the filetype's tree then maps file bytes as it is, PLAN 4.7); else
 * MPI_ERR_UNSUPPORTED_DATAREP (a size differs, or a basic type has no
 * form in rep) or the extent function's error, with the cause in *why. */
int rd_io_datarep_sizes_native(const struct rd_io_datarep *rep, MPI_Datatype dt, rd_io_why *why);
/* The extent of dt in files of rep (MPI_File_get_type_extent): basic types
 * through rep's extent function (user) or table; derived types keep their
 * layout, so their basic types must keep their sizes (else
 * MPI_ERR_UNSUPPORTED_DATAREP). */
int rd_io_datarep_extent(const struct rd_io_datarep *rep, MPI_Datatype dt, MPI_Aint *extent, rd_io_why *why);
/* MPI_Register_datarep: a new representation (name taken:
 * MPI_ERR_DUP_DATAREP; empty or too long: MPI_ERR_ARG); NULL conversion
 * functions stand for MPI_CONVERSION_FN_NULL. */
int rd_io_datarep_register(const char *name, rd_io_conv_fn read_fn, rd_io_conv_fn write_fn,
                           rd_io_extent_fn extent_fn, void *extra_state, rd_io_why *why);
/* The representation name just registered by MPI_Register_datarep_c: its
 * conversions are MPI_Datarep_conversion_function_c (rd_io_conv_fn's
 * pointers hold them). */
void rd_io_datarep_large(const char *name);
/* The Fortran glue's MPI_REGISTER_DATAREP: name's callbacks are Fortran's. */
void rd_io_datarep_fortran(const char *name);
/* Elements [e0, e0 + k) of dt tiled over buf to (write) or from file
 * representation at filebuf (k * dt->size bytes: sizes equal native ones
 * in every view we accept). external32 through objects/dtx32.c; user
 * representations through their functions (count and position in data
 * items, MPI-3.1 13.5.3; the floor holds no lock while they run), native bytes for
 * MPI_CONVERSION_FN_NULL. A failing function: MPI_ERR_CONVERSION. */
int rd_io_datarep_convert(const struct rd_io_datarep *rep, int write, void *buf, MPI_Datatype dt, size_t e0,
                          size_t k, void *filebuf, rd_io_why *why);

/* ---- hints.c: the info keys of PLAN 5 in effect for a file */
struct rd_io_hints {
    size_t cb_buffer_size;        /* two-phase chunk */
    int cb_nodes;                 /* cap on aggregators, 0: none */
    int cb_per_node;              /* aggregators per node (cb_config_list "*:k"); 0: automatic (rd_io_coll_per_node) */
    int cb_read, cb_write;        /* 0 automatic, 1 enable, -1 disable */
    int ds_read, ds_write;        /* data sieving: 0 automatic, 1 enable, -1 disable */
    size_t ind_rd_buffer_size, ind_wr_buffer_size;
    int striping_factor;          /* 0: unset */
    size_t striping_unit;         /* 0: unset */
    int direct_io;                /* rdmpi_direct_io */
    /* added by stage 1 (hints.c) */
    int file_perm;                /* creation mode; -1: 0666 & ~umask */
    int access_style;             /* 0 unset, else POSIX_FADV_* + 1 */
    int no_indep_rw;              /* romio_no_indep_rw (recorded only) */
};

/* ---- the state of an open file: struct rd_file_s's io (objects/file.h) */
struct rd_io_shfp; /* shfp.c: the shared file pointer */
struct rd_io_coll; /* coll.c: what two-phase keeps between calls (the peers' views) */

struct rd_io_file {
    int fd;                       /* this rank's descriptor */
    int readable;                 /* fd can read (a write-only amode is opened O_RDWR when the
                                   * file allows: file.c), so sieving may read-modify-write */
    char *path;                   /* as given to open (messages, DELETE_ON_CLOSE) */
    int amode;
    struct rd_io_view view;
    MPI_Offset fp;                /* individual file pointer, in etypes of the view */
    struct rd_io_shfp *shfp;      /* shared file pointer (shfp.c) */
    int atomic;                   /* MPI_File_set_atomicity */
    struct rd_io_hints hints;
    struct rd_io_coll *coll;      /* coll.c, NULL until the first collective access */
    MPI_Request split;            /* the split collective (_all, _at_all) begun and not yet
                                   * ended: its nonblocking access (rd_io_coll_start) */
    int split_op;                 /* which begin made it (fileio.c's RD_IO_OP_*), 0: none */
    MPI_Status split_status;      /* the ordered forms: the begin's access done, its status
                                   * for the end */
    _Atomic int inflight;         /* nonblocking operations not yet completed (aio.c) */
    unsigned long long ino;       /* the file's inode number (open: every rank's is rank 0's) */
};

/* ---- indep.c: one rank's access to the file, no other rank involved.
 * count elements of dt at buf, to (write) or from the view's stream at
 * stream offset o. *bytes: the data bytes moved (a read may stop at the
 * end of the file). Contiguous views: pread/pwrite loops; others: the
 * strided path (data sieving, PLAN 4.2); in atomic mode under a byte-range
 * lock (lock.c). */
int rd_io_indep(struct rd_io_file *f, int write, MPI_Offset o, void *buf, size_t count,
                MPI_Datatype dt, size_t *bytes, rd_io_why *why);

/* ---- sieve.c (stage 2): the strided path of rd_io_indep: every access
 * whose view is not contiguous, and every access in atomic mode (the whole
 * span locked). Same contract as rd_io_indep. */
int rd_io_strided(struct rd_io_file *f, int write, MPI_Offset o, void *buf, size_t count,
                  MPI_Datatype dt, size_t *bytes, rd_io_why *why);

/* ---- lock.c (stage 2): byte-range locks on [lo, hi) of fd, waiting for
 * them (F_OFD_SETLKW, else F_SETLKW; EINTR retried); shared (excl 0: the
 * descriptor must be readable) or exclusive (writable). hi <= lo: nothing. */
int rd_io_lock(int fd, int excl, MPI_Offset lo, MPI_Offset hi, rd_io_why *why);
int rd_io_unlock(int fd, MPI_Offset lo, MPI_Offset hi, rd_io_why *why);

/* ---- shfp.c: the shared file pointer and the ordered calls (PLAN 4.5).
 * The pointer counts etypes of the current view; it lives in an rma
 * counter at rank 0 of the file's communicator (runtime/rma/rma.h).
 * Collective: open, close, ordered, seek_shared, reset. */
/* At open, once every rank has its descriptor: make the pointer (0, or the
 * file's size with MPI_MODE_APPEND); comm: the file's communicator, which
 * outlives it. f->shfp is NULL when it fails (every rank fails alike). */
int rd_io_shfp_open(struct rd_io_file *f, MPI_Comm comm, rd_io_why *why);
/* At close (nothing if it was never made). */
int rd_io_shfp_close(struct rd_io_file *f, rd_io_why *why);
/* MPI_File_set_view: the pointer back to 0 (every rank arrives, rank 0
 * stores, every rank leaves after); nothing if there is no pointer. */
int rd_io_shfp_reset(struct rd_io_file *f, rd_io_why *why);
/* read/write_shared: count elements of dt (a whole number of etypes: the
 * entry point checked) at the pointer, which moves past them. */
int rd_io_shared(struct rd_io_file *f, int write, void *buf, size_t count, MPI_Datatype dt, size_t *bytes,
                 rd_io_why *why);
/* iread/iwrite_shared: the place of count elements of dt (a stream
 * offset, bytes), taken at the call; the access is the I/O engine's. */
int rd_io_shfp_take(struct rd_io_file *f, size_t count, MPI_Datatype dt, MPI_Offset *o, rd_io_why *why);
/* read/write_ordered: the ranks' accesses one after the other in rank
 * order from the pointer, which moves past them all. */
int rd_io_ordered(struct rd_io_file *f, int write, void *buf, size_t count, MPI_Datatype dt, size_t *bytes,
                  rd_io_why *why);
/* MPI_File_seek_shared (offset in etypes; differing arguments:
 * MPI_ERR_NOT_SAME at every rank; a negative result: MPI_ERR_ARG) and
 * MPI_File_get_position_shared. */
int rd_io_seek_shared(struct rd_io_file *f, MPI_Offset offset, int whence, rd_io_why *why);
int rd_io_position_shared(struct rd_io_file *f, MPI_Offset *offset, rd_io_why *why);

/* ---- coll.c: a collective access (the _all and _at_all forms), collective
 * over comm (the file's). The same arguments as rd_io_indep. Two-phase I/O
 * when the ranks' file extents interleave (hints romio_cb_read/write:
 * automatic, enable, disable), else, and in atomic mode, rd_io_indep on
 * every rank. Every rank returns the same error class. */
int rd_io_coll(struct rd_io_file *f, MPI_Comm comm, int write, MPI_Offset o, void *buf,
               size_t count, MPI_Datatype dt, size_t *bytes, rd_io_why *why);
/* A rank whose own checks refused a collective access (class cls, already
 * reported) still takes its part in rd_io_coll's first exchange, marked
 * failed, so that the others do not wait for it: every rank then returns
 * the highest class. Returns that class. */
int rd_io_coll_abstain(MPI_Comm comm, int cls);
/* The nonblocking form (MPI_File_iread_all ...): the same access as a
 * schedule started now (coll.c), whose file accesses run on the I/O
 * thread. *request (a collective request whose errors go to fh's
 * handler) completes when every rank agreed on the outcome; its status
 * counts the data bytes moved. The file counts it in inflight until then.
 * Returns MPI_SUCCESS, or a class with why (out of memory: the rank then
 * meets the others as rd_io_coll_abstain_nb does). Big lock held. */
int rd_io_coll_start(struct rd_io_file *f, void *fh, MPI_Comm comm, int write, MPI_Offset o, void *buf,
                     size_t count, MPI_Datatype dt, MPI_Request *request, rd_io_why *why);
/* rd_io_coll_abstain for a nonblocking call: the rank's part ends in
 * later progress, on its own; the call returns at once. */
void rd_io_coll_abstain_nb(MPI_Comm comm, int cls);
/* MPI_Finalize (big lock held): the abstentions of rd_io_coll_abstain_nb
 * still running end first (the others' accesses wait for them; a program
 * may finalize without any other MPI call after the failing one). */
void rd_io_coll_fini(void);

#endif

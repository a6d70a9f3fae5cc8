/* file.h - files (MPI_File): the object parallel I/O works on. A file
 * holds a duplicate of the opening communicator (its group, and the
 * context the file's collective calls use), its access mode, an error
 * handler and its Fortran index; the I/O state (descriptor, view, file
 * pointers, hints: struct rd_io_file of runtime/io/io_int.h) hangs from io,
 * which this floor does not see. MPI_FILE_NULL's error handler (the one
 * open, delete and calls on an invalid handle use, and every new file
 * starts with) lives in errhandler.c: MPI_ERRORS_RETURN until the program sets
 * another (MPI-3.1 13.7). runtime/api/file.c makes and frees files. */
#ifndef RD_FILE_H
#define RD_FILE_H

#include <mpi.h>
#include <stdint.h>

#define RD_FILE_MAGIC 0x46696c65u /* "File" */

struct rd_file_s {
    uint32_t magic;
    MPI_Comm comm;          /* a duplicate of the opening communicator (owned) */
    int amode;              /* MPI_MODE_* as given to open */
    MPI_Errhandler errh;    /* held (rd_errh_retain) */
    void *io;               /* the I/O state (runtime/io/: struct rd_io_file) */
    _Atomic int32_t fidx;   /* its Fortran handle's index, 0: none (objects/fhandle.h) */
};

static inline int rd_file_valid(MPI_File f)
{
    return f != MPI_FILE_NULL && f->magic == RD_FILE_MAGIC;
}

/* MPI_FILE_NULL's error handler (held; initially MPI_ERRORS_RETURN). */
MPI_Errhandler rd_file_null_errh(void);
/* Replace it (MPI_File_set_errhandler(MPI_FILE_NULL, eh)): eh is retained,
 * the old one released. */
void rd_file_null_set_errh(MPI_Errhandler eh);

#endif

/* io.h - what runtime/api (floor 8) calls on the I/O floor for the file
 * object (PLAN stage 1): opening, closing, deleting, sizes, sync, hints.
 * Arguments are already checked by the entry points; every function that
 * can fail returns an MPI error class and describes the cause in *why
 * (io_int.h's conventions). The collective agreement of open, close and
 * set_info is the entry points' (runtime/api/file.c): each function here
 * is one rank's part. */
#ifndef RD_IO_H
#define RD_IO_H

#include <mpi.h>

#include "runtime/io/io_int.h"

/* ---- file.c */
/* The class of an errno value (PLAN 6): ENOENT -> NO_SUCH_FILE, EEXIST ->
 * FILE_EXISTS, EACCES/EPERM -> ACCESS, EROFS -> READ_ONLY, ENOSPC ->
 * NO_SPACE, EDQUOT -> QUOTA, ENAMETOOLONG/ENOTDIR/EISDIR/ELOOP ->
 * BAD_FILE, others -> IO. */
int rd_io_errno_class(int e);
/* This rank's open of path with amode (MPI_MODE_*): create (rank 0 of a
 * CREATE open) adds O_CREAT, and O_EXCL with MPI_MODE_EXCL; the others
 * open what rank 0 made. *out: the new state (view: the default; pointer
 * at 0, or at the end with MPI_MODE_APPEND). */
int rd_io_file_open(const char *path, int amode, int create, const struct rd_io_hints *hints,
                    struct rd_io_file **out, rd_io_why *why);
/* Close the descriptor and free the state (f may be NULL). The path is
 * not removed here: DELETE_ON_CLOSE is done by one rank (api/file.c). */
int rd_io_file_close(struct rd_io_file *f, rd_io_why *why);
/* unlink(2) (MPI_File_delete and DELETE_ON_CLOSE). */
int rd_io_delete(const char *path, rd_io_why *why);
/* ftruncate(2) to size (MPI_File_set_size: grows or shrinks). */
int rd_io_set_size(struct rd_io_file *f, MPI_Offset size, rd_io_why *why);
/* Make sure the file has storage for its first size bytes; never shrinks
 * (MPI_File_preallocate). */
int rd_io_preallocate(struct rd_io_file *f, MPI_Offset size, rd_io_why *why);
/* The file's size in bytes (fstat). */
int rd_io_get_size(struct rd_io_file *f, MPI_Offset *size, rd_io_why *why);
/* fsync(2) of this rank's descriptor. */
int rd_io_sync(struct rd_io_file *f, rd_io_why *why);

/* ---- hints.c (PLAN 5) */
/* The defaults of every key. */
void rd_io_hints_default(struct rd_io_hints *h);
/* The keys of info that rdmpi knows, over h (info may be MPI_INFO_NULL);
 * values that do not parse are ignored. */
void rd_io_hints_parse(struct rd_io_hints *h, MPI_Info info);
/* Every key in effect into info (MPI_File_get_info). 0, or -1 out of memory. */
int rd_io_hints_to_info(const struct rd_io_hints *h, MPI_Info info);
/* Apply what a hint asks of the descriptor (access_style: posix_fadvise). */
void rd_io_hints_apply(struct rd_io_file *f);

#endif

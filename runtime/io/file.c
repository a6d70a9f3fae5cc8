/* file.c - one rank's part of opening, closing, deleting and sizing a file
 * (io.h; runtime/io/PLAN.md 2, 6). */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "runtime/io/io.h"

int rd_io_errno_class(int e)
{
    switch (e) {
    case ENOENT:
        return MPI_ERR_NO_SUCH_FILE;
    case EEXIST:
        return MPI_ERR_FILE_EXISTS;
    case EACCES:
    case EPERM:
        return MPI_ERR_ACCESS;
    case EROFS:
        return MPI_ERR_READ_ONLY;
    case ENOSPC:
        return MPI_ERR_NO_SPACE;
#ifdef EDQUOT
    case EDQUOT:
        return MPI_ERR_QUOTA;
#endif
    case ENAMETOOLONG:
    case ENOTDIR:
    case EISDIR:
    case ELOOP:
        return MPI_ERR_BAD_FILE;
    case ENOMEM:
        return MPI_ERR_NO_MEM;
    default:
        return MPI_ERR_IO;
    }
}

/* fail with errno e's class, "what 'path': strerror" */
static int sys_fail(rd_io_why *why, int e, const char *what, const char *path)
{
    char sh[RD_IO_PATH_SHORT];
    return rd_io_fail(why, rd_io_errno_class(e), "%s '%s': %s", what, rd_io_path_short(path, sh), strerror(e));
}

int rd_io_file_open(const char *path, int amode, int create, const struct rd_io_hints *hints,
                    struct rd_io_file **out, rd_io_why *why)
{
    int flags = O_CLOEXEC;
    if (amode & MPI_MODE_RDONLY)
        flags |= O_RDONLY;
    else if (amode & MPI_MODE_WRONLY)
        flags |= O_WRONLY;
    else
        flags |= O_RDWR;
    if (create && (amode & MPI_MODE_CREATE)) {
        flags |= O_CREAT;
        if (amode & MPI_MODE_EXCL)
            flags |= O_EXCL;
    }
    struct rd_io_file *f = calloc(1, sizeof(*f));
    char *p = strdup(path);
    if (!f || !p) {
        free(f);
        free(p);
        return rd_io_fail(why, MPI_ERR_NO_MEM, "out of memory opening a file");
    }
    mode_t perm = hints->file_perm >= 0 ? (mode_t)hints->file_perm : 0666; /* umask applies */
    /* O_NONBLOCK: a FIFO must not block the open (no writer, no reader);
     * it is refused below, and cleared for what is kept */
    /* A write-only file is opened for reading too when the file allows
     * it (as ROMIO does): data sieving and two-phase write-back merge the
     * bytes around a strided write by read-modify-write, which a
     * write-only descriptor cannot; without it every run of a strided
     * write is a pwrite of its own (bench/io: 256-byte blocks 40x slower).
     * The program's own accesses are checked against amode, never the
     * descriptor. */
    int fd, wronly = (flags & O_ACCMODE) == O_WRONLY;
    do
        fd = open(path, (wronly ? (flags & ~O_ACCMODE) | O_RDWR : flags) | O_NONBLOCK, perm);
    while (fd < 0 && errno == EINTR);
    if (fd < 0 && wronly && errno == EACCES) /* not readable: as asked */
        do
            fd = open(path, flags | O_NONBLOCK, perm);
        while (fd < 0 && errno == EINTR);
    struct stat st;
    char sh[RD_IO_PATH_SHORT];
    if (fd < 0) {
        int e = errno;
        free(f);
        free(p);
        /* ENXIO: a FIFO opened write-only with no reader */
        if (e == ENXIO && stat(path, &st) == 0 && S_ISFIFO(st.st_mode))
            return rd_io_fail(why, MPI_ERR_BAD_FILE, "'%s' is a FIFO, not a file", rd_io_path_short(path, sh));
        return sys_fail(why, e, "cannot open", path);
    }
    const char *kind = NULL;
    if (fstat(fd, &st) != 0) {
        int e = errno;
        close(fd);
        free(f);
        free(p);
        return sys_fail(why, e, "cannot stat", path);
    }
    if (S_ISDIR(st.st_mode))
        kind = "a directory";
    else if (S_ISFIFO(st.st_mode))
        kind = "a FIFO, not a file";
    else if (S_ISSOCK(st.st_mode))
        kind = "a socket, not a file";
    int fl = kind ? 0 : fcntl(fd, F_GETFL);
    if (kind || fl < 0 || fcntl(fd, F_SETFL, fl & ~O_NONBLOCK) != 0) {
        int e = errno;
        close(fd);
        free(f);
        free(p);
        if (kind)
            return rd_io_fail(why, MPI_ERR_BAD_FILE, "'%s' is %s", rd_io_path_short(path, sh), kind);
        return sys_fail(why, e, "cannot set the flags of", path);
    }
    f->ino = (unsigned long long)st.st_ino;
    f->fd = fd;
    f->readable = (fl & O_ACCMODE) != O_WRONLY;
    f->path = p;
    f->amode = amode;
    f->hints = *hints;
    rd_io_view_init(&f->view);
    if (amode & MPI_MODE_APPEND) /* MPI-3.1 13.2.1: the pointers start at the end */
        f->fp = (MPI_Offset)st.st_size;
    rd_io_hints_apply(f);
    *out = f;
    return MPI_SUCCESS;
}

int rd_io_file_close(struct rd_io_file *f, rd_io_why *why)
{
    if (!f)
        return MPI_SUCCESS;
    int rc = MPI_SUCCESS;
    /* close(2) is not retried on EINTR: Linux has released the descriptor */
    if (f->fd >= 0 && close(f->fd) != 0 && errno != EINTR)
        rc = sys_fail(why, errno, "closing", f->path);
    rd_io_view_fini(&f->view);
    free(f->path);
    free(f);
    return rc;
}

int rd_io_delete(const char *path, rd_io_why *why)
{
    if (unlink(path) != 0)
        return sys_fail(why, errno, "cannot delete", path);
    return MPI_SUCCESS;
}

int rd_io_set_size(struct rd_io_file *f, MPI_Offset size, rd_io_why *why)
{
    int r;
    do
        r = ftruncate(f->fd, (off_t)size);
    while (r != 0 && errno == EINTR);
    if (r == 0)
        return MPI_SUCCESS;
    int e = errno;
    char sh[RD_IO_PATH_SHORT];
    return rd_io_fail(why, rd_io_errno_class(e), "cannot set the size of '%s' to %lld: %s",
                      rd_io_path_short(f->path, sh), (long long)size, strerror(e));
}

int rd_io_preallocate(struct rd_io_file *f, MPI_Offset size, rd_io_why *why)
{
    MPI_Offset cur = 0;
    int rc = rd_io_get_size(f, &cur, why);
    if (rc != MPI_SUCCESS || size <= cur)
        return rc; /* never shrinks */
    /* storage for the bytes beyond the end; where the file system cannot
     * reserve (EOPNOTSUPP: tmpfs of old kernels, some network file
     * systems), growing the size is what the standard asks at least */
    int e = posix_fallocate(f->fd, (off_t)cur, (off_t)(size - cur));
    if (e == EOPNOTSUPP || e == EINVAL)
        return rd_io_set_size(f, size, why);
    if (e == 0)
        return MPI_SUCCESS;
    char sh[RD_IO_PATH_SHORT];
    return rd_io_fail(why, rd_io_errno_class(e), "cannot preallocate %lld bytes of '%s': %s", (long long)size,
                      rd_io_path_short(f->path, sh), strerror(e));
}

int rd_io_get_size(struct rd_io_file *f, MPI_Offset *size, rd_io_why *why)
{
    struct stat st;
    if (fstat(f->fd, &st) != 0)
        return sys_fail(why, errno, "cannot stat", f->path);
    *size = (MPI_Offset)st.st_size;
    return MPI_SUCCESS;
}

int rd_io_sync(struct rd_io_file *f, rd_io_why *why)
{
    int r;
    do
        r = fsync(f->fd);
    while (r != 0 && errno == EINTR);
    /* a descriptor open read-only on a file system without fsync for it */
    if (r != 0 && errno != EINVAL)
        return sys_fail(why, errno, "cannot sync", f->path);
    return MPI_SUCCESS;
}

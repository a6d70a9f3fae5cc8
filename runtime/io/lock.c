/* lock.c - byte-range locks on a file (runtime/io/PLAN.md 4.2, 4.4):
 * open-file-description locks (F_OFD_SETLKW, Linux >= 3.15), which
 * conflict between any two descriptors, also two of one process, and go
 * with the descriptor, not the process; where the kernel refuses them,
 * classic process locks (F_SETLKW), which conflict between processes
 * only: ranks are processes, so two ranks still exclude each other.
 * EINTR is retried: a signal does not make a lock fail. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "runtime/io/io_int.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

static int rd_io_lock_cmd(int *ofd)
{
#ifdef F_OFD_SETLKW
    if (*ofd)
        return F_OFD_SETLKW;
#endif
    *ofd = 0;
    return F_SETLKW;
}

static int setlk(int fd, short type, MPI_Offset lo, MPI_Offset hi, rd_io_why *why)
{
    static int ofd = 1; /* F_OFD_SETLKW until the kernel says EINVAL */
    if (hi <= lo)
        return MPI_SUCCESS;
    for (;;) {
        struct flock fl;
        memset(&fl, 0, sizeof fl);
        fl.l_type = type;
        fl.l_whence = SEEK_SET;
        fl.l_start = (off_t)lo;
        fl.l_len = (off_t)(hi - lo);
        int cmd = rd_io_lock_cmd(&ofd);
        if (fcntl(fd, cmd, &fl) == 0)
            return MPI_SUCCESS;
        if (errno == EINTR)
            continue;
        if (errno == EINVAL && ofd) {
            ofd = 0;
            continue;
        }
        int e = errno;
        return rd_io_fail(why, MPI_ERR_IO, "cannot %s bytes [%lld, %lld) of the file: %s%s",
                          type == F_UNLCK ? "unlock" : "lock", (long long)lo, (long long)hi, strerror(e),
                          e == ENOLCK ? " (the file system keeps no byte-range locks)" : "");
    }
}

int rd_io_lock(int fd, int excl, MPI_Offset lo, MPI_Offset hi, rd_io_why *why)
{
    return setlk(fd, excl ? F_WRLCK : F_RDLCK, lo, hi, why);
}

int rd_io_unlock(int fd, MPI_Offset lo, MPI_Offset hi, rd_io_why *why)
{
    return setlk(fd, F_UNLCK, lo, hi, why);
}

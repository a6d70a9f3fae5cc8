/* iotest.h - what the MPI-IO test programs share (test/mpi/io_*.c): the
 * whole of a file read back by POSIX calls against the test's own image,
 * and the check of an error's class and message. Uses mtest.h's mt_rank. */
#ifndef RD_IOTEST_H
#define RD_IOTEST_H

#include <fcntl.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "mtest.h"

/* the whole file by POSIX, n bytes expected: 1 if every byte is img's
 * (else the first difference is printed) */
static inline int io_file_is(const char *p, const unsigned char *img, long n)
{
    int fd = open(p, O_RDONLY);
    if (fd < 0)
        return 0;
    struct stat st;
    int ok = fstat(fd, &st) == 0 && st.st_size == n;
    if (!ok)
        printf("# [rank %d] %s: %lld bytes, expected %ld\n", mt_rank, p, (long long)st.st_size, n);
    unsigned char *b = malloc(n ? (size_t)n : 1);
    long got = 0;
    while (ok && got < n) {
        ssize_t r = pread(fd, b + got, (size_t)(n - got), got);
        if (r <= 0)
            break;
        got += r;
    }
    ok = ok && got == n && memcmp(b, img, (size_t)n) == 0;
    if (!ok && got == n)
        for (long i = 0; i < n; i++)
            if (b[i] != img[i]) {
                printf("# [rank %d] %s: byte %ld is %d, expected %d\n", mt_rank, p, i, b[i], img[i]);
                break;
            }
    free(b);
    close(fd);
    return ok;
}

/* rc is class cls and the message of the error names call and says cause */
#define ERR_IS(rc, cls, call, cause, ...)                                              \
    do {                                                                               \
        int rc_ = (rc), c_ = -1, len_ = 0;                                             \
        char m_[MPI_MAX_ERROR_STRING] = "";                                            \
        if (rc_ != MPI_SUCCESS) {                                                      \
            MPI_Error_class(rc_, &c_);                                                 \
            MPI_Error_string(rc_, m_, &len_);                                          \
        }                                                                              \
        mt_ok(c_ == (cls) && strstr(m_, call) && strstr(m_, cause), __VA_ARGS__);      \
        if (c_ != (cls) || !strstr(m_, call) || !strstr(m_, cause))                    \
            printf("# [rank %d] class %d (expected %d), message: %s\n", mt_rank, c_, (cls), m_); \
    } while (0)

#endif

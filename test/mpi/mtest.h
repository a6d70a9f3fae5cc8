/* mtest.h - checks inside MPI test programs.
 *
 * Every rank prints "ok [rank R] what" or "not ok [rank R] what" for each
 * check and ends with "done [rank R] N checks, F failed"; test/mpi/lib.sh
 * turns the lines of all ranks into TAP. */
#ifndef RD_MTEST_H
#define RD_MTEST_H

#include <mpi.h>
#include <stdio.h>
#include <string.h>

static int mt_rank = -1, mt_checks, mt_failed;

#define mt_ok(cond, ...)                                                               \
    do {                                                                               \
        int mt_c_ = (cond);                                                            \
        mt_checks++;                                                                   \
        if (!mt_c_)                                                                    \
            mt_failed++;                                                               \
        printf("%s [rank %d] ", mt_c_ ? "ok" : "not ok", mt_rank);                     \
        printf(__VA_ARGS__);                                                           \
        if (!mt_c_)                                                                    \
            printf(" (%s:%d: %s)", __FILE__, __LINE__, #cond);                         \
        printf("\n");                                                                  \
    } while (0)

#define mt_is_int(got, exp, ...)                                                       \
    do {                                                                               \
        long long mt_g_ = (long long)(got), mt_e_ = (long long)(exp);                  \
        mt_ok(mt_g_ == mt_e_, __VA_ARGS__);                                            \
        if (mt_g_ != mt_e_)                                                            \
            printf("# [rank %d] got %lld, expected %lld\n", mt_rank, mt_g_, mt_e_);    \
    } while (0)

static inline int mt_done(void)
{
    printf("done [rank %d] %d checks, %d failed\n", mt_rank, mt_checks, mt_failed);
    fflush(stdout);
    return mt_failed ? 1 : 0;
}

#endif

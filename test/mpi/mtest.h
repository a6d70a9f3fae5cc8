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

/* Which ranks of MPI_COMM_WORLD share a node: those with the same
 * processor name (collective over MPI_COMM_WORLD; call it the same number
 * of times on every rank). Fills node[r] with the lowest world rank on r's
 * node; returns the number of nodes. */
static inline int mt_nodes(int *node)
{
    int size, len, n = 0;
    char me[MPI_MAX_PROCESSOR_NAME] = {0};
    static char all[64][MPI_MAX_PROCESSOR_NAME];

    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size > 64)
        return -1;
    MPI_Get_processor_name(me, &len);
    MPI_Allgather(me, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, all, MPI_MAX_PROCESSOR_NAME, MPI_CHAR,
                  MPI_COMM_WORLD);
    for (int r = 0; r < size; r++) {
        node[r] = r;
        for (int q = 0; q < r; q++)
            if (strcmp(all[q], all[r]) == 0) {
                node[r] = node[q];
                break;
            }
        n += node[r] == r;
    }
    return n;
}

/* The world ranks of comm's group (local group for an intercommunicator),
 * in comm's rank order, into w[]; returns how many. */
static inline int mt_world_ranks(MPI_Comm comm, int remote, int *w)
{
    MPI_Group g, wg;
    int n, idx[64];

    if (remote)
        MPI_Comm_remote_group(comm, &g);
    else
        MPI_Comm_group(comm, &g);
    MPI_Group_size(g, &n);
    if (n > 64)
        n = 64;
    for (int i = 0; i < n; i++)
        idx[i] = i;
    MPI_Comm_group(MPI_COMM_WORLD, &wg);
    MPI_Group_translate_ranks(g, n, idx, wg, w);
    MPI_Group_free(&g);
    MPI_Group_free(&wg);
    return n;
}

static inline int mt_done(void)
{
    printf("done [rank %d] %d checks, %d failed\n", mt_rank, mt_checks, mt_failed);
    fflush(stdout);
    return mt_failed ? 1 : 0;
}

#endif

/* MPI test: the launcher's process sets in sessions (MPI 4.1 11.3.2;
 * runtime/api/session.c, runtime/base/job.c's rd_job_psets, rrun --pset).
 *
 *   session_pset sets   under rrun -np 4 --pset even=0,2 --pset odd=1,3
 *                       --pset all=0-3: five sets on every rank, in order
 *                       (mpi://WORLD, mpi://SELF, even, odd, all); each
 *                       name (asked size, truncated), its mpi_size, its
 *                       group's members in MPI_COMM_WORLD (translated), a
 *                       communicator of each set the rank is in
 *                       (MPI_Comm_create_from_group: an Allreduce), an
 *                       intercommunicator between even and odd (each side
 *                       names the other's set: every rank lists every
 *                       set), names without regard to case, a second
 *                       session that lists the same; unknown names and
 *                       indices (MPI_ERR_ARG)
 *   session_pset none   under rrun without --pset: the two built-in sets
 *                       only
 *
 * The World Model runs alongside (MPI_Init first), for MPI_COMM_WORLD's
 * group. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mtest.h"

#define NSETS 5
static const char *const names[NSETS] = {"mpi://WORLD", "mpi://SELF", "even", "odd", "all"};

static int rank, size;

static int cls(int err)
{
    int c = err;
    if (err != MPI_SUCCESS)
        MPI_Error_class(err, &c);
    return c;
}

/* The members of set k, world ranks ascending, into m; how many. */
static int members(int k, int *m)
{
    int n = 0;
    for (int r = 0; r < size; r++)
        if (k == 0 || (k == 1 && r == rank) || (k == 2 && r % 2 == 0) || (k == 3 && r % 2 == 1) || k == 4)
            m[n++] = r;
    return n;
}

/* The names of s's sets, in order, against names[0 .. expect). */
static void list(MPI_Session s, int expect, const char *what)
{
    int n = -1;
    MPI_Session_get_num_psets(s, MPI_INFO_NULL, &n);
    mt_is_int(n, expect, "%s: MPI_Session_get_num_psets gives %d", what, expect);
    for (int k = 0; k < expect; k++) {
        char name[MPI_MAX_PSET_NAME_LEN] = "";
        int len = 0;
        int rc = MPI_Session_get_nth_pset(s, MPI_INFO_NULL, k, &len, NULL);
        mt_ok(rc == MPI_SUCCESS && len == (int)strlen(names[k]) + 1, "%s: process set %d's name takes %d bytes",
              what, k, (int)strlen(names[k]) + 1);
        len = sizeof name;
        rc = MPI_Session_get_nth_pset(s, MPI_INFO_NULL, k, &len, name);
        mt_ok(rc == MPI_SUCCESS && strcmp(name, names[k]) == 0, "%s: process set %d is %s", what, k, names[k]);
        if (rc == MPI_SUCCESS && strcmp(name, names[k]) != 0)
            printf("# [rank %d] got '%s'\n", rank, name);
    }
    int len = 0;
    mt_is_int(cls(MPI_Session_get_nth_pset(s, MPI_INFO_NULL, expect, &len, NULL)), MPI_ERR_ARG,
              "%s: process set %d of %d: MPI_ERR_ARG", what, expect, expect);
}

/* mpi_size of set k (-1: none given). */
static int info_size(MPI_Session s, const char *name)
{
    MPI_Info info = MPI_INFO_NULL;
    char v[32] = "";
    int flag = 0, vlen = sizeof v;
    if (MPI_Session_get_pset_info(s, name, &info) != MPI_SUCCESS)
        return -2;
    MPI_Info_get_string(info, "mpi_size", &vlen, v, &flag);
    MPI_Info_free(&info);
    return flag ? atoi(v) : -1;
}

static void sets(MPI_Session s)
{
    MPI_Group world;
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    list(s, NSETS, "with --pset");

    /* a name truncated to the room given */
    char small[4];
    int len = sizeof small;
    MPI_Session_get_nth_pset(s, MPI_INFO_NULL, 4, &len, small);
    mt_ok(strcmp(small, "all") == 0 && len == 4, "process set 4 asked with 4 bytes: \"all\", needs 4");
    len = 3;
    MPI_Session_get_nth_pset(s, MPI_INFO_NULL, 3, &len, small);
    mt_ok(strcmp(small, "od") == 0 && len == 4, "process set 3 truncated to 3 bytes: \"od\", needs 4");

    for (int k = 0; k < NSETS; k++) {
        int m[64], n = members(k, m), gs = -1, in[64], out[64], bad = 0, me = -1, mine = -1;
        mt_is_int(info_size(s, names[k]), n, "%s: mpi_size %d", names[k], n);

        MPI_Group g = MPI_GROUP_NULL;
        int rc = MPI_Group_from_session_pset(s, names[k], &g);
        if (rc == MPI_SUCCESS)
            MPI_Group_size(g, &gs);
        mt_ok(rc == MPI_SUCCESS && gs == n, "%s: its group has %d members", names[k], n);
        if (rc != MPI_SUCCESS || gs != n)
            continue;
        for (int i = 0; i < n; i++)
            in[i] = i, out[i] = -1;
        MPI_Group_translate_ranks(g, n, in, world, out);
        for (int i = 0; i < n; i++) {
            bad += out[i] != m[i];
            mine = m[i] == rank ? i : mine;
        }
        mt_is_int(bad, 0, "%s: its group's ranks in MPI_COMM_WORLD's group are its members, ascending",
                  names[k]);
        MPI_Group_rank(g, &me);
        mt_is_int(me, mine < 0 ? MPI_UNDEFINED : mine, "%s: this rank's place in its group (%s)", names[k],
                  mine < 0 ? "not a member: MPI_UNDEFINED" : "a member");

        /* the members make a communicator of it: the sum of their world
         * ranks, by an Allreduce */
        if (mine >= 0) {
            MPI_Comm c = MPI_COMM_NULL;
            char tag[64];
            snprintf(tag, sizeof tag, "org.rdmpi.test.pset.%d", k);
            rc = MPI_Comm_create_from_group(g, tag, MPI_INFO_NULL, MPI_ERRORS_RETURN, &c);
            int cr = -1, cs = -1, sum = -1, want = 0;
            if (rc == MPI_SUCCESS) {
                MPI_Comm_rank(c, &cr);
                MPI_Comm_size(c, &cs);
                MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, c);
                MPI_Comm_free(&c);
            }
            for (int i = 0; i < n; i++)
                want += m[i];
            mt_ok(rc == MPI_SUCCESS && cr == mine && cs == n,
                  "%s: MPI_Comm_create_from_group: size %d, each member's rank its place in the group", names[k], n);
            mt_is_int(sum, want, "%s: an Allreduce over its communicator sums its world ranks", names[k]);
        }
        MPI_Group_free(&g);
    }

    /* even and odd: each side names the other's set, so an
     * intercommunicator across (its Allreduce: the remote side's sum) */
    MPI_Group mine = MPI_GROUP_NULL, other = MPI_GROUP_NULL;
    int rc = MPI_Group_from_session_pset(s, rank % 2 ? "odd" : "even", &mine);
    if (rc == MPI_SUCCESS)
        rc = MPI_Group_from_session_pset(s, rank % 2 ? "even" : "odd", &other);
    MPI_Comm ic = MPI_COMM_NULL;
    if (rc == MPI_SUCCESS)
        rc = MPI_Intercomm_create_from_groups(mine, 0, other, 0, "org.rdmpi.test.pset.inter", MPI_INFO_NULL,
                                              MPI_ERRORS_RETURN, &ic);
    int rsize = -1, sum = -1;
    if (rc == MPI_SUCCESS) {
        MPI_Comm_remote_size(ic, &rsize);
        MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, ic);
        MPI_Comm_free(&ic);
    }
    mt_ok(rc == MPI_SUCCESS && rsize == 2, "MPI_Intercomm_create_from_groups between even and odd");
    mt_is_int(sum, rank % 2 ? 0 + 2 : 1 + 3, "an Allreduce across it gives the other set's sum");
    if (mine != MPI_GROUP_NULL)
        MPI_Group_free(&mine);
    if (other != MPI_GROUP_NULL)
        MPI_Group_free(&other);

    /* names without regard to case, as the built-in ones */
    MPI_Group a = MPI_GROUP_NULL, b = MPI_GROUP_NULL;
    int cmp = -1;
    rc = MPI_Group_from_session_pset(s, "even", &a);
    if (rc == MPI_SUCCESS)
        rc = MPI_Group_from_session_pset(s, "EvEn", &b);
    if (rc == MPI_SUCCESS) {
        MPI_Group_compare(a, b, &cmp);
        MPI_Group_free(&b);
    }
    mt_ok(rc == MPI_SUCCESS && cmp == MPI_IDENT, "\"EvEn\" names the set even");
    if (a != MPI_GROUP_NULL)
        MPI_Group_free(&a);
    mt_is_int(info_size(s, "ALL"), 4, "\"ALL\": mpi_size 4");

    /* a second session lists the same sets */
    MPI_Session s2;
    MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &s2);
    list(s2, NSETS, "a second session");
    MPI_Session_finalize(&s2);
    MPI_Group_free(&world);
}

static void unknown(MPI_Session s, const char *name)
{
    MPI_Group g = MPI_GROUP_NULL;
    MPI_Info info = MPI_INFO_NULL;
    mt_is_int(cls(MPI_Group_from_session_pset(s, name, &g)), MPI_ERR_ARG,
              "MPI_Group_from_session_pset of '%s': MPI_ERR_ARG", name);
    mt_is_int(cls(MPI_Session_get_pset_info(s, name, &info)), MPI_ERR_ARG,
              "MPI_Session_get_pset_info of '%s': MPI_ERR_ARG", name);
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "";
    if (strcmp(mode, "sets") != 0 && strcmp(mode, "none") != 0) {
        fprintf(stderr, "usage: session_pset sets|none\n");
        return 2;
    }
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    mt_rank = rank;
    MPI_Session s;
    int rc = MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &s);
    mt_ok(rc == MPI_SUCCESS, "MPI_Session_init");

    if (strcmp(mode, "sets") == 0) {
        mt_is_int(size, 4, "4 ranks (the sets are for 4)");
        if (size == 4)
            sets(s);
    } else {
        list(s, 2, "without --pset");
        unknown(s, "even");
    }
    unknown(s, "nosuch");
    unknown(s, "mpi://NOWHERE");
    MPI_Session_finalize(&s);
    MPI_Barrier(MPI_COMM_WORLD);
    printf("done [rank %d] %d checks, %d failed\n", rank, mt_checks, mt_failed);
    MPI_Finalize();
    return mt_failed != 0;
}

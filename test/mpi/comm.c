/* MPI test: creating communicators (dup, split, create), their isolation,
 * comparison, names, error handler inheritance, and freeing them. */
#include <stdlib.h>

#include "test/mpi/mtest.h"

int main(int argc, char **argv)
{
    int rank, size, r, s, res, len;
    char name[MPI_MAX_OBJECT_NAME];
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    mt_rank = rank;
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);

    /* dup */
    MPI_Comm dup = MPI_COMM_NULL;
    mt_is_int(MPI_Comm_dup(MPI_COMM_WORLD, &dup), MPI_SUCCESS, "MPI_Comm_dup of world");
    MPI_Comm_rank(dup, &r);
    MPI_Comm_size(dup, &s);
    mt_ok(r == rank && s == size, "the dup has the same rank (%d) and size (%d)", r, s);
    MPI_Comm_compare(MPI_COMM_WORLD, dup, &res);
    mt_is_int(res, MPI_CONGRUENT, "world and its dup are MPI_CONGRUENT");
    MPI_Comm_compare(dup, dup, &res);
    mt_is_int(res, MPI_IDENT, "a communicator is MPI_IDENT to itself");
    MPI_Errhandler eh;
    MPI_Comm_get_errhandler(dup, &eh);
    mt_ok(eh == MPI_ERRORS_RETURN, "the dup inherits world's error handler");
    MPI_Errhandler_free(&eh);
    MPI_Comm_get_name(dup, name, &len);
    mt_ok(len == 0 && name[0] == '\0', "a new communicator has no name");
    MPI_Comm_set_name(dup, "my dup");
    MPI_Comm_get_name(dup, name, &len);
    mt_ok(len == 6 && strcmp(name, "my dup") == 0, "Comm_set_name / Comm_get_name");
    MPI_Comm_get_name(MPI_COMM_WORLD, name, &len);
    mt_ok(strcmp(name, "MPI_COMM_WORLD") == 0, "world is named MPI_COMM_WORLD");

    /* isolation: a message on the dup never matches a receive on world */
    if (size > 1) {
        int a = -1, b = -1;
        if (rank == 0) {
            int one = 1, two = 2;
            MPI_Send(&one, 1, MPI_INT, 1, 5, dup);
            MPI_Send(&two, 1, MPI_INT, 1, 5, MPI_COMM_WORLD);
        } else if (rank == 1) {
            MPI_Recv(&a, 1, MPI_INT, 0, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Recv(&b, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, dup, MPI_STATUS_IGNORE);
            mt_ok(a == 2 && b == 1, "world's receive got world's message (%d), the dup's its own (%d)", a, b);
        }
    }

    /* split: parity colours, reversed order by key */
    MPI_Comm half;
    mt_is_int(MPI_Comm_split(MPI_COMM_WORLD, rank % 2, -rank, &half), MPI_SUCCESS, "MPI_Comm_split");
    MPI_Comm_rank(half, &r);
    MPI_Comm_size(half, &s);
    int want_size = (size + 1 - rank % 2) / 2;
    mt_is_int(s, want_size, "split: size of my colour");
    mt_is_int(r, want_size - 1 - rank / 2, "split: ranks ordered by key (reversed)");
    /* a ring inside each half, checked value */
    {
        int to = (r + 1) % s, from = (r - 1 + s) % s, got = -1;
        MPI_Sendrecv(&rank, 1, MPI_INT, to, 7, &got, 1, MPI_INT, from, 7, half, MPI_STATUS_IGNORE);
        /* the world rank of my left neighbour in the half: key order is reversed */
        int left_world = rank % 2 + 2 * (want_size - 1 - from);
        mt_is_int(got, left_world, "split: a ring in the half carries the right world ranks");
    }
    MPI_Group g, wg;
    int zero = 0, tr = -1;
    MPI_Comm_group(half, &g);
    MPI_Comm_group(MPI_COMM_WORLD, &wg);
    MPI_Group_translate_ranks(g, 1, &zero, wg, &tr);
    mt_is_int(tr, rank % 2 + 2 * (want_size - 1), "split: rank 0 of the half is the highest world rank of the colour");
    MPI_Group_free(&g);
    if (size > 1) {
        MPI_Comm_compare(half, MPI_COMM_WORLD, &res);
        mt_is_int(res, MPI_UNEQUAL, "a half and world are MPI_UNEQUAL");
    }

    /* split with MPI_UNDEFINED, and a reordering split (MPI_SIMILAR) */
    MPI_Comm none;
    MPI_Comm_split(MPI_COMM_WORLD, rank == 0 ? MPI_UNDEFINED : 1, 0, &none);
    mt_ok(rank == 0 ? none == MPI_COMM_NULL : none != MPI_COMM_NULL, "MPI_UNDEFINED gives MPI_COMM_NULL");
    if (none != MPI_COMM_NULL) {
        MPI_Comm_size(none, &s);
        mt_is_int(s, size - 1, "the others form one communicator");
        MPI_Comm_free(&none);
    }
    MPI_Comm rev;
    MPI_Comm_split(MPI_COMM_WORLD, 0, size - rank, &rev);
    MPI_Comm_compare(rev, MPI_COMM_WORLD, &res);
    mt_is_int(res, size > 1 ? MPI_SIMILAR : MPI_CONGRUENT, "the reversed world is MPI_SIMILAR");
    MPI_Comm_free(&rev);

    /* create from a group: the even ranks */
    MPI_Group evens;
    int nev = (size + 1) / 2, *ev = malloc(sizeof(int) * (size_t)nev);
    for (int i = 0; i < nev; i++)
        ev[i] = 2 * i;
    MPI_Group_incl(wg, nev, ev, &evens);
    MPI_Comm ec;
    mt_is_int(MPI_Comm_create(MPI_COMM_WORLD, evens, &ec), MPI_SUCCESS, "MPI_Comm_create");
    if (rank % 2 == 0) {
        MPI_Comm_rank(ec, &r);
        MPI_Comm_size(ec, &s);
        mt_ok(ec != MPI_COMM_NULL && r == rank / 2 && s == nev, "the even ranks get rank %d of %d", r, s);
        MPI_Comm_free(&ec);
    } else {
        mt_ok(ec == MPI_COMM_NULL, "the odd ranks get MPI_COMM_NULL");
    }
    /* create_group: only the members call it; odd ranks make their own at once */
    MPI_Group odds;
    MPI_Group_excl(wg, nev, ev, &odds);
    MPI_Comm gc = MPI_COMM_NULL;
    if (rank % 2 == 0)
        mt_is_int(MPI_Comm_create_group(MPI_COMM_WORLD, evens, 3, &gc), MPI_SUCCESS,
                  "MPI_Comm_create_group by the even ranks only");
    else
        mt_is_int(MPI_Comm_create_group(MPI_COMM_WORLD, odds, 3, &gc), MPI_SUCCESS,
                  "MPI_Comm_create_group by the odd ranks only");
    MPI_Comm_rank(gc, &r);
    MPI_Comm_size(gc, &s);
    mt_ok(r == rank / 2 && s == (rank % 2 ? size / 2 : nev), "create_group: rank %d of %d", r, s);
    {
        int sum = -1, mine2 = rank;
        /* a ring sum of world ranks inside the new communicator */
        int acc = rank, got = -1;
        for (int step = 1; step < s; step++) {
            MPI_Sendrecv(&mine2, 1, MPI_INT, (r + 1) % s, 9, &got, 1, MPI_INT, (r - 1 + s) % s, 9, gc,
                         MPI_STATUS_IGNORE);
            acc += got;
            mine2 = got;
        }
        sum = 0;
        for (int k = rank % 2; k < size; k += 2)
            sum += k;
        mt_is_int(acc, sum, "create_group: a ring in it sums its members' world ranks");
    }
    MPI_Comm_free(&gc);
    /* create_group among all ranks but the last, which takes no part: with
     * 3 members or more than a power of two, the agreement folds the
     * members beyond the largest power of two in and back (collectives/agree.c) */
    if (size > 1) {
        MPI_Group most;
        int last = size - 1;
        MPI_Group_excl(wg, 1, &last, &most);
        if (rank < last) {
            MPI_Comm mc = MPI_COMM_NULL;
            mt_is_int(MPI_Comm_create_group(MPI_COMM_WORLD, most, 7, &mc), MPI_SUCCESS,
                      "MPI_Comm_create_group by all ranks but the last");
            int sum = -1;
            MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, mc);
            MPI_Comm_size(mc, &s);
            mt_ok(s == last && sum == last * (last - 1) / 2,
                  "create_group without the last rank: %d ranks, their world ranks sum to %d", s, sum);
            MPI_Comm_free(&mc);
        }
        MPI_Group_free(&most);
    }
    MPI_Group_free(&odds);
    free(ev);
    MPI_Group_free(&evens);
    MPI_Group_free(&wg);

    /* many communicators alive at once, then freed and made again */
    enum { LIVE = 40 };
    MPI_Comm many[LIVE];
    int ok = 1;
    for (int i = 0; i < LIVE; i++)
        ok &= MPI_Comm_dup(i % 2 ? dup : MPI_COMM_WORLD, &many[i]) == MPI_SUCCESS;
    /* traffic on each, received in reverse order of communicators */
    if (size > 1 && rank < 2) {
        int other = 1 - rank;
        MPI_Request q[LIVE];
        int got[LIVE];
        for (int i = 0; i < LIVE; i++)
            MPI_Irecv(&got[i], 1, MPI_INT, other, 0, many[LIVE - 1 - i], &q[i]);
        for (int i = 0; i < LIVE; i++)
            MPI_Send(&i, 1, MPI_INT, other, 0, many[i]);
        MPI_Waitall(LIVE, q, MPI_STATUSES_IGNORE);
        for (int i = 0; i < LIVE; i++)
            ok &= got[i] == LIVE - 1 - i;
    }
    for (int i = 0; i < LIVE; i++)
        ok &= MPI_Comm_free(&many[i]) == MPI_SUCCESS && many[i] == MPI_COMM_NULL;
    for (int i = 0; i < 200; i++) {
        MPI_Comm t;
        ok &= MPI_Comm_dup(dup, &t) == MPI_SUCCESS;
        ok &= MPI_Comm_free(&t) == MPI_SUCCESS;
    }
    mt_ok(ok, "%d communicators at once, each with its own traffic; 200 dup/free cycles", LIVE);

    /* shared-memory split: the ranks of each node; info calls */
    MPI_Comm node, wi;
    MPI_Info info, used;
    int nkeys = -1, flag = -1;
    mt_is_int(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &node),
              MPI_SUCCESS, "MPI_Comm_split_type(MPI_COMM_TYPE_SHARED)");
    {
        /* the ranks of my node, in rank order (one node: all of world) */
        int nodes_of[64], nn = mt_nodes(nodes_of), got[64], ng, want = 0, same = 1;

        ng = mt_world_ranks(node, 0, got);
        for (int q = 0; q < size && q < 64; q++)
            if (nodes_of[q] == nodes_of[rank])
                same &= want < ng && got[want++] == q;
        mt_ok(same && ng == want, "split_type(SHARED): exactly the ranks of my node, in rank order");
        MPI_Comm_compare(node, MPI_COMM_WORLD, &res);
        mt_is_int(res, nn == 1 ? MPI_CONGRUENT : MPI_UNEQUAL,
                  "split_type(SHARED) is congruent to world exactly when the job is on one node");
    }
    MPI_Comm_free(&node);
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_UNDEFINED, 0, MPI_INFO_NULL, &node);
    mt_ok(node == MPI_COMM_NULL, "split_type MPI_UNDEFINED gives MPI_COMM_NULL");
    MPI_Info_create(&info);
    MPI_Info_set(info, "no_such_hint", "true");
    mt_is_int(MPI_Comm_dup_with_info(MPI_COMM_WORLD, info, &wi), MPI_SUCCESS, "MPI_Comm_dup_with_info");
    MPI_Comm_compare(wi, MPI_COMM_WORLD, &res);
    mt_is_int(res, MPI_CONGRUENT, "dup_with_info: congruent to world");
    mt_is_int(MPI_Comm_set_info(wi, info), MPI_SUCCESS, "MPI_Comm_set_info");
    mt_is_int(MPI_Comm_get_info(wi, &used), MPI_SUCCESS, "MPI_Comm_get_info");
    MPI_Info_get_nkeys(used, &nkeys);
    mt_is_int(nkeys, 0, "no hint is in use (unknown hints are ignored)");
    MPI_Info_free(&used);
    MPI_Info_free(&info);
    MPI_Comm_test_inter(wi, &flag);
    mt_is_int(flag, 0, "MPI_Comm_test_inter: an intracommunicator");
    MPI_Comm_free(&wi);

    /* errors */
    MPI_Comm w = MPI_COMM_WORLD;
    mt_is_int(MPI_Comm_free(&w), MPI_ERR_COMM, "freeing MPI_COMM_WORLD: MPI_ERR_COMM");
    mt_is_int(MPI_Comm_dup(MPI_COMM_NULL, &w), MPI_ERR_COMM, "dup of MPI_COMM_NULL: MPI_ERR_COMM");
    mt_is_int(MPI_Comm_split(MPI_COMM_WORLD, -5, 0, &w), MPI_ERR_ARG, "split with colour -5: MPI_ERR_ARG");

    MPI_Comm_free(&half);
    MPI_Comm_free(&dup);
    mt_ok(dup == MPI_COMM_NULL && half == MPI_COMM_NULL, "MPI_Comm_free sets MPI_COMM_NULL");
    MPI_Finalize();
    return mt_done();
}

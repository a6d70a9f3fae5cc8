/* MPI test: many MPI_Comm_idup outstanding at once, on one parent and on
 * several, completed by MPI_Waitall, MPI_Waitany and MPI_Test loops (MPI
 * allows any number of them: they are collectives started in the same
 * order on every rank of each parent; the order across parents may differ
 * between ranks). Every new communicator must work (a collective and
 * point-to-point with exact values), be congruent to its parent and to the
 * others, and keep its traffic apart from theirs. */
#include <stdlib.h>
#include <unistd.h>

#include "test/mpi/mtest.h"

#define MAXK 64

static int rank, size;

enum how { WAITALL, WAITANY, TESTLOOP, TEST_EACH };
static const char *how_name[] = {"Waitall", "Waitany", "Test loop", "Test after each start"};

/* Complete the k requests; returns the number of failures. */
static int complete(enum how how, int k, MPI_Request *r)
{
    int bad = 0;
    if (how == WAITALL) {
        MPI_Status st[MAXK];
        int rc = MPI_Waitall(k, r, st);
        if (rc != MPI_SUCCESS) {
            for (int i = 0; i < k; i++)
                if (st[i].MPI_ERROR != MPI_SUCCESS)
                    bad++;
            if (!bad)
                bad = 1;
        }
        return bad;
    }
    if (how == WAITANY) {
        for (int n = 0; n < k; n++) {
            int idx = -1;
            if (MPI_Waitany(k, r, &idx, MPI_STATUS_IGNORE) != MPI_SUCCESS || idx == MPI_UNDEFINED)
                bad++;
        }
        return bad;
    }
    int left = 0;
    for (int i = 0; i < k; i++)
        left += r[i] != MPI_REQUEST_NULL;
    while (left > 0)
        for (int i = 0; i < k; i++) {
            if (r[i] == MPI_REQUEST_NULL)
                continue;
            int flag = 0;
            if (MPI_Test(&r[i], &flag, MPI_STATUS_IGNORE) != MPI_SUCCESS) {
                bad++;
                left--;
            } else if (flag) {
                left--;
            }
        }
    return bad;
}

/* c[0..k-1] are duplicates of parent[i % np]: check each works and that
 * none hears another's traffic. */
static void check_comms(const char *what, int k, MPI_Comm *c, MPI_Comm *parent, int np)
{
    int ok_cmp = 1, ok_sum = 1, ok_p2p = 1, ok_apart = 1;
    for (int i = 0; i < k; i++) {
        int res = -1;
        if (c[i] == MPI_COMM_NULL) {
            ok_cmp = 0;
            continue;
        }
        MPI_Comm_compare(parent[i % np], c[i], &res);
        ok_cmp &= res == MPI_CONGRUENT;
        if (i > 0 && c[i - 1] != MPI_COMM_NULL) {
            MPI_Comm_compare(c[i - 1], c[i], &res);
            ok_cmp &= res == MPI_CONGRUENT;
        }
    }
    mt_ok(ok_cmp, "%s: all %d communicators exist and are congruent to their parent and to each other", what, k);
    if (!ok_cmp)
        return;
    for (int i = 0; i < k; i++) {
        int v = (rank + 1) * (i + 1), sum = -1;
        MPI_Allreduce(&v, &sum, 1, MPI_INT, MPI_SUM, c[i]);
        ok_sum &= sum == size * (size + 1) / 2 * (i + 1);
    }
    mt_ok(ok_sum, "%s: Allreduce on each of the %d communicators gives its exact sum", what, k);
    /* every communicator at once, same tag, sent in the reverse order of
     * the receives: each receive must get its own communicator's value */
    int to = (rank + 1) % size, from = (rank + size - 1) % size;
    int got[MAXK], sent[MAXK];
    MPI_Request rr[MAXK], sr[MAXK];
    for (int i = 0; i < k; i++) {
        got[i] = -1;
        MPI_Irecv(&got[i], 1, MPI_INT, from, 7, c[i], &rr[i]);
    }
    for (int i = k - 1; i >= 0; i--) {
        sent[i] = rank * 1000 + i;
        MPI_Isend(&sent[i], 1, MPI_INT, to, 7, c[i], &sr[i]);
    }
    MPI_Waitall(k, rr, MPI_STATUSES_IGNORE);
    MPI_Waitall(k, sr, MPI_STATUSES_IGNORE);
    for (int i = 0; i < k; i++)
        ok_apart &= got[i] == from * 1000 + i;
    mt_ok(ok_apart, "%s: messages with one tag on all %d communicators stay on their own", what, k);
    /* point to point with rank 0 as a hub, on each communicator */
    for (int i = 0; i < k; i++) {
        if (rank == 0) {
            for (int s = 1; s < size; s++) {
                int x = -1;
                MPI_Status st;
                MPI_Recv(&x, 1, MPI_INT, MPI_ANY_SOURCE, i, c[i], &st);
                ok_p2p &= x == st.MPI_SOURCE * 10 + i;
            }
        } else {
            int x = rank * 10 + i;
            MPI_Send(&x, 1, MPI_INT, 0, i, c[i]);
        }
    }
    mt_ok(ok_p2p, "%s: point to point to rank 0 on each communicator: exact values", what);
}

static void free_all(int k, MPI_Comm *c)
{
    for (int i = 0; i < k; i++)
        if (c[i] != MPI_COMM_NULL)
            MPI_Comm_free(&c[i]);
}

/* k idups of parent[i % np], started in order i = 0..k-1 */
static void round_(enum how how, int k, MPI_Comm *parent, int np, int late)
{
    MPI_Comm c[MAXK];
    MPI_Request r[MAXK];
    char what[160];
    snprintf(what, sizeof(what), "%d idups on %d parent%s, %s%s", k, np, np > 1 ? "s" : "", how_name[how],
             late ? ", rank 0 late" : "");
    if (late && rank == 0)
        usleep(30000);
    int bad_start = 0;
    for (int i = 0; i < k; i++) {
        c[i] = MPI_COMM_NULL;
        bad_start += MPI_Comm_idup(parent[i % np], &c[i], &r[i]) != MPI_SUCCESS;
        if (how == TEST_EACH) {
            int flag;
            MPI_Test(&r[i], &flag, MPI_STATUS_IGNORE);
            if (flag)
                r[i] = MPI_REQUEST_NULL;
        }
    }
    mt_is_int(bad_start, 0, "%s: every MPI_Comm_idup starts", what);
    int bad = complete(how == TEST_EACH ? TESTLOOP : how, k, r);
    mt_is_int(bad, 0, "%s: every request completes without error", what);
    check_comms(what, k, c, parent, np);
    free_all(k, c);
}

/* Several parents, idups started in a different order across parents on
 * odd and even ranks (the same order on each parent, as MPI requires). */
static void crossed(int k, MPI_Comm *parent, int np)
{
    MPI_Comm c[MAXK];
    MPI_Request r[MAXK];
    char what[128];
    snprintf(what, sizeof(what), "%d idups on %d parents, parents in opposite orders on odd ranks", k, np);
    int per = k / np, bad_start = 0;
    for (int n = 0; n < np; n++) {
        int p = rank % 2 ? np - 1 - n : n;
        for (int j = 0; j < per; j++) {
            int i = p + j * np; /* c[i] duplicates parent[i % np] */
            c[i] = MPI_COMM_NULL;
            bad_start += MPI_Comm_idup(parent[p], &c[i], &r[i]) != MPI_SUCCESS;
        }
    }
    mt_is_int(bad_start, 0, "%s: every MPI_Comm_idup starts", what);
    mt_is_int(complete(WAITALL, k, r), 0, "%s: every request completes without error", what);
    check_comms(what, k, c, parent, np);
    free_all(k, c);
}

/* Blocking dups and collectives between the idups' starts and their
 * completion, on the same parent. */
static void mixed(int k)
{
    MPI_Comm c[MAXK], d[4];
    MPI_Request r[MAXK];
    const char *what = "idups with blocking Comm_dup and Allreduce in between";
    int bad_start = 0, sum = 0, one = 1;
    for (int i = 0; i < k; i++) {
        c[i] = MPI_COMM_NULL;
        bad_start += MPI_Comm_idup(MPI_COMM_WORLD, &c[i], &r[i]) != MPI_SUCCESS;
        if (i % 4 == 3) {
            MPI_Comm_dup(MPI_COMM_WORLD, &d[i / 4 % 4]);
            MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
            if (i / 4 % 4 == 3)
                free_all(4, d);
        }
    }
    mt_is_int(bad_start, 0, "%s: every MPI_Comm_idup starts", what);
    mt_is_int(complete(WAITALL, k, r), 0, "%s: every request completes without error", what);
    check_comms(what, k, c, (MPI_Comm[]){MPI_COMM_WORLD}, 1);
    free_all(k, c);
}

/* Ranks whose context ids differ: every rank but rank 0 is in 100 more
 * communicators, so the lowest free ids of rank 0 are in use on
 * the others (the first round's windows do not meet). Then idups on
 * world, and one that rank 0 completes only after a blocking Comm_dup
 * that the other ranks make only after completing it. */
static void skewed(MPI_Comm *par)
{
    enum { EXTRA = 100 };
    MPI_Comm extra[EXTRA], c[8], d;
    MPI_Request r[8];
    const char *what = "8 idups, rank 0 in 100 fewer communicators";
    for (int i = 0; i < EXTRA; i++)
        MPI_Comm_split(MPI_COMM_WORLD, rank == 0 ? MPI_UNDEFINED : 0, 0, &extra[i]);
    int bad_start = 0;
    for (int i = 0; i < 8; i++)
        bad_start += MPI_Comm_idup(MPI_COMM_WORLD, &c[i], &r[i]) != MPI_SUCCESS;
    mt_is_int(bad_start, 0, "%s: every MPI_Comm_idup starts", what);
    mt_is_int(complete(WAITALL, 8, r), 0, "%s: every request completes without error", what);
    check_comms(what, 8, c, (MPI_Comm[]){MPI_COMM_WORLD}, 1);
    free_all(8, c);

    what = "an idup completed by rank 0 after a Comm_dup the others make after it, rank 0 skewed";
    int rc = MPI_Comm_idup(MPI_COMM_WORLD, &c[0], &r[0]), rc2;
    if (rank == 0) {
        rc2 = MPI_Comm_dup(par[0], &d);
        rc = rc == MPI_SUCCESS ? MPI_Wait(&r[0], MPI_STATUS_IGNORE) : rc;
    } else {
        rc = rc == MPI_SUCCESS ? MPI_Wait(&r[0], MPI_STATUS_IGNORE) : rc;
        rc2 = MPI_Comm_dup(par[0], &d);
    }
    mt_ok(rc == MPI_SUCCESS && rc2 == MPI_SUCCESS, "%s: both succeed", what);
    check_comms(what, 1, c, (MPI_Comm[]){MPI_COMM_WORLD}, 1);
    check_comms(what, 1, &d, par, 1);
    int res = -1;
    MPI_Comm_compare(c[0], d, &res);
    mt_is_int(res, MPI_CONGRUENT, "%s: the idup and the dup are different communicators", what);
    MPI_Comm_free(&c[0]);
    MPI_Comm_free(&d);
    for (int i = 0; i < EXTRA; i++)
        if (extra[i] != MPI_COMM_NULL)
            MPI_Comm_free(&extra[i]);
}

/* Several idups of an intercommunicator (even and odd world ranks). */
static void inter(void)
{
    MPI_Comm half, ic, c[8];
    MPI_Request r[8];
    const char *what = "8 idups of an intercommunicator, Waitall";
    MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half);
    MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, rank % 2 ? 0 : 1, 5, &ic);
    int bad_start = 0;
    for (int i = 0; i < 8; i++)
        bad_start += MPI_Comm_idup(ic, &c[i], &r[i]) != MPI_SUCCESS;
    mt_is_int(bad_start, 0, "%s: every MPI_Comm_idup starts", what);
    mt_is_int(complete(WAITALL, 8, r), 0, "%s: every request completes without error", what);
    int ok_cmp = 1, ok_sum = 1, remote[64], nr = mt_world_ranks(ic, 1, remote);
    for (int i = 0; i < 8; i++) {
        int res = -1, v = rank + 1 + i, sum = -1, want = 0;
        MPI_Comm_compare(ic, c[i], &res);
        ok_cmp &= res == MPI_CONGRUENT;
        MPI_Allreduce(&v, &sum, 1, MPI_INT, MPI_SUM, c[i]);
        for (int k = 0; k < nr; k++)
            want += remote[k] + 1 + i;
        ok_sum &= sum == want;
    }
    mt_ok(ok_cmp, "%s: each is congruent to the intercommunicator", what);
    mt_ok(ok_sum, "%s: Allreduce on each gives the remote group's exact sum", what);
    free_all(8, c);
    MPI_Comm_free(&ic);
    MPI_Comm_free(&half);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    mt_rank = rank;
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);

    MPI_Comm world[1] = {MPI_COMM_WORLD}, par[3];
    for (int i = 0; i < 3; i++) {
        MPI_Comm_dup(MPI_COMM_WORLD, &par[i]);
        MPI_Comm_set_errhandler(par[i], MPI_ERRORS_RETURN);
    }
    for (int how = WAITALL; how <= TEST_EACH; how++)
        for (int k = 8; k <= 32; k *= 4) {
            round_(how, k, world, 1, 0);
            round_(how, k, par, 3, 0);
        }
    round_(WAITALL, 32, world, 1, 1);
    round_(TEST_EACH, 32, world, 1, 1);
    round_(WAITALL, MAXK, par, 3, 0);
    crossed(24, par, 3);
    crossed(48, par, 3);
    mixed(32);
    skewed(par);
    inter();
    /* many rounds: context ids are freed and reused */
    for (int i = 0; i < 10; i++)
        round_(i % 2 ? WAITANY : WAITALL, 32, par, 2, 0);
    free_all(3, par);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return mt_done();
}

/* MPI test: intercommunicators. For three ways of splitting MPI_COMM_WORLD
 * in two groups (halves, the last rank against the rest, even against odd
 * ranks in reverse order with the last rank as leader): MPI_Intercomm_create,
 * local and remote groups, point-to-point across in every mode with exact
 * payloads and MPI_SOURCE, isolation from the parent and the dup,
 * Intercomm_merge in both orders and on a tie, dup (attributes),
 * Comm_compare, Comm_split / Comm_create / Comm_split_type on the
 * intercommunicator, an intercommunicator as peer_comm, free, and errors
 * under MPI_ERRORS_RETURN. Needs at least 2 ranks. */
#include <stdlib.h>

#include "test/mpi/mtest.h"

static int wrank, wsize;

/* the class of a returned code (other MPI libraries return codes) */
static int ec(int rc)
{
    int c = rc;
    if (rc != MPI_SUCCESS)
        MPI_Error_class(rc, &c);
    return c;
}

struct split {
    const char *name;
    int color[64], key[64]; /* of each world rank */
    int last_leader;        /* the local leader is the last rank, not 0 */
};

/* The world ranks of colour c in (key, world rank) order; their count. */
static int members(const struct split *sp, int c, int *out)
{
    int n = 0;
    for (int w = 0; w < wsize; w++)
        if (sp->color[w] == c)
            out[n++] = w;
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && sp->key[out[j]] < sp->key[out[j - 1]]; j--) {
            int t = out[j];
            out[j] = out[j - 1];
            out[j - 1] = t;
        }
    return n;
}

/* world ranks of group g, as a list */
static void group_world(MPI_Group g, int n, int *out)
{
    MPI_Group wg;
    int *r = malloc(sizeof(int) * (size_t)n);
    MPI_Comm_group(MPI_COMM_WORLD, &wg);
    for (int i = 0; i < n; i++)
        r[i] = i;
    MPI_Group_translate_ranks(g, n, r, wg, out);
    MPI_Group_free(&wg);
    free(r);
}

static int same_list(const int *a, const int *b, int n)
{
    for (int i = 0; i < n; i++)
        if (a[i] != b[i])
            return 0;
    return 1;
}

/* The local and remote groups of ic are exactly lw[ln] and rw[rn]. */
static void check_groups(MPI_Comm ic, const char *what, const int *lw, int ln, const int *rw, int rn)
{
    int flag = -1, s = -1, r = -1, rs = -1, gs = -1, got[64];
    MPI_Group g;
    MPI_Comm_test_inter(ic, &flag);
    mt_is_int(flag, 1, "%s: MPI_Comm_test_inter is true", what);
    MPI_Comm_size(ic, &s);
    mt_is_int(s, ln, "%s: MPI_Comm_size is the local group's size", what);
    MPI_Comm_remote_size(ic, &rs);
    mt_is_int(rs, rn, "%s: MPI_Comm_remote_size", what);
    MPI_Comm_rank(ic, &r);
    mt_ok(r >= 0 && r < ln && lw[r] == wrank, "%s: MPI_Comm_rank %d is my place in the local group", what, r);
    MPI_Comm_group(ic, &g);
    MPI_Group_size(g, &gs);
    group_world(g, ln, got);
    mt_ok(gs == ln && same_list(got, lw, ln), "%s: MPI_Comm_group is the local group in order", what);
    MPI_Group_free(&g);
    MPI_Comm_remote_group(ic, &g);
    MPI_Group_size(g, &gs);
    group_world(g, rn, got);
    mt_ok(gs == rn && same_list(got, rw, rn), "%s: MPI_Comm_remote_group is the remote group in order", what);
    MPI_Group_free(&g);
}

/* Every rank sends to every remote rank and receives from each:
 * payload and status checked. */
static void all_to_all(MPI_Comm ic, const char *what, const int *lw, int ln, const int *rw, int rn, int base)
{
    int me, ok = 1;
    MPI_Comm_rank(ic, &me);
    int *out = malloc(sizeof(int) * (size_t)rn), *in = malloc(sizeof(int) * (size_t)rn);
    MPI_Request *q = malloc(sizeof(MPI_Request) * 2 * (size_t)rn);
    MPI_Status *st = malloc(sizeof(MPI_Status) * 2 * (size_t)rn);
    for (int j = 0; j < rn; j++) {
        in[j] = -1;
        MPI_Irecv(&in[j], 1, MPI_INT, j, base + j, ic, &q[j]);
    }
    for (int j = 0; j < rn; j++) {
        out[j] = wrank * 1000 + j;
        MPI_Isend(&out[j], 1, MPI_INT, j, base + me, ic, &q[rn + j]);
    }
    MPI_Waitall(2 * rn, q, st);
    for (int j = 0; j < rn; j++)
        ok &= in[j] == rw[j] * 1000 + me && st[j].MPI_SOURCE == j && st[j].MPI_TAG == base + j;
    mt_ok(ok, "%s: all-to-all across, %d messages in with exact payloads, MPI_SOURCE and MPI_TAG", what, rn);

    /* MPI_ANY_SOURCE: one message from each remote rank, in any order */
    int seen[64] = {0};
    ok = 1;
    for (int j = 0; j < rn; j++)
        MPI_Isend(&wrank, 1, MPI_INT, j, base + 100, ic, &q[j]);
    for (int j = 0; j < rn; j++) {
        int v = -1;
        MPI_Status s;
        MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, base + 100, ic, &s);
        ok &= s.MPI_SOURCE >= 0 && s.MPI_SOURCE < rn && v == rw[s.MPI_SOURCE] && !seen[s.MPI_SOURCE];
        if (s.MPI_SOURCE >= 0 && s.MPI_SOURCE < rn)
            seen[s.MPI_SOURCE] = 1;
    }
    MPI_Waitall(rn, q, MPI_STATUSES_IGNORE);
    mt_ok(ok, "%s: MPI_ANY_SOURCE receives one message from each remote rank, MPI_SOURCE naming it", what);
    (void)lw;
    (void)ln;
    free(out);
    free(in);
    free(q);
    free(st);
}

/* Local rank 0 of each group talks to remote rank 0 in every mode. */
static void modes(MPI_Comm ic, const char *what, int first, int peer_world)
{
    int me;
    MPI_Comm_rank(ic, &me);
    if (me != 0)
        return;
    MPI_Status s;
    int v = -1, x = wrank, flag = 0, count = -1;
    /* synchronous, both ways: the first group's leader sends first */
    if (first) {
        MPI_Ssend(&x, 1, MPI_INT, 0, 1, ic);
        MPI_Recv(&v, 1, MPI_INT, 0, 1, ic, &s);
    } else {
        MPI_Recv(&v, 1, MPI_INT, 0, 1, ic, &s);
        MPI_Ssend(&x, 1, MPI_INT, 0, 1, ic);
    }
    mt_ok(v == peer_world && s.MPI_SOURCE == 0, "%s: MPI_Ssend / MPI_Recv with the remote leader (got %d)", what, v);

    /* probe, iprobe, mprobe */
    int three[3] = {wrank, wrank + 1, wrank + 2}, got[3] = {-1, -1, -1};
    MPI_Request sq;
    /* both leaders send first: nonblocking, so that rendezvous cannot deadlock */
    MPI_Isend(three, 3, MPI_INT, 0, 2, ic, &sq);
    MPI_Probe(MPI_ANY_SOURCE, 2, ic, &s);
    MPI_Get_count(&s, MPI_INT, &count);
    mt_ok(s.MPI_SOURCE == 0 && s.MPI_TAG == 2 && count == 3, "%s: MPI_Probe: source 0, tag 2, 3 ints", what);
    MPI_Recv(got, 3, MPI_INT, s.MPI_SOURCE, 2, ic, MPI_STATUS_IGNORE);
    MPI_Wait(&sq, MPI_STATUS_IGNORE);
    mt_ok(got[0] == peer_world && got[2] == peer_world + 2, "%s: the probed message", what);
    MPI_Isend(&x, 1, MPI_INT, 0, 3, ic, &sq);
    do
        MPI_Iprobe(0, 3, ic, &flag, &s);
    while (!flag);
    mt_is_int(s.MPI_SOURCE, 0, "%s: MPI_Iprobe finds the message of remote rank 0", what);
    MPI_Recv(&v, 1, MPI_INT, 0, 3, ic, MPI_STATUS_IGNORE);
    MPI_Wait(&sq, MPI_STATUS_IGNORE);
    MPI_Message m;
    MPI_Isend(&x, 1, MPI_INT, 0, 4, ic, &sq);
    MPI_Mprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, ic, &m, &s);
    v = -1;
    MPI_Mrecv(&v, 1, MPI_INT, &m, &s);
    MPI_Wait(&sq, MPI_STATUS_IGNORE);
    mt_ok(v == peer_world && s.MPI_SOURCE == 0 && s.MPI_TAG == 4, "%s: MPI_Mprobe / MPI_Mrecv", what);

    /* persistent requests, started twice */
    MPI_Request ps, pr;
    int sv = 0, rv = -1, ok = 1;
    MPI_Send_init(&sv, 1, MPI_INT, 0, 5, ic, &ps);
    MPI_Recv_init(&rv, 1, MPI_INT, 0, 5, ic, &pr);
    for (int round = 0; round < 2; round++) {
        sv = wrank * 10 + round;
        MPI_Start(&pr);
        MPI_Start(&ps);
        MPI_Wait(&ps, MPI_STATUS_IGNORE);
        MPI_Wait(&pr, &s);
        ok &= rv == peer_world * 10 + round && s.MPI_SOURCE == 0;
    }
    MPI_Request_free(&ps);
    MPI_Request_free(&pr);
    mt_ok(ok, "%s: persistent send and receive, two rounds", what);

    /* ready mode (the receive is posted before a zero-byte handshake),
     * buffered mode */
    MPI_Request r;
    v = -1;
    MPI_Irecv(&v, 1, MPI_INT, 0, 6, ic, &r);
    MPI_Sendrecv(NULL, 0, MPI_INT, 0, 7, NULL, 0, MPI_INT, 0, 7, ic, MPI_STATUS_IGNORE);
    MPI_Rsend(&x, 1, MPI_INT, 0, 6, ic);
    MPI_Wait(&r, &s);
    mt_ok(v == peer_world && s.MPI_SOURCE == 0, "%s: MPI_Rsend", what);
    int bsize = 1024 + MPI_BSEND_OVERHEAD;
    char *buf = malloc((size_t)bsize);
    MPI_Buffer_attach(buf, bsize);
    MPI_Bsend(&x, 1, MPI_INT, 0, 8, ic);
    v = -1;
    MPI_Recv(&v, 1, MPI_INT, 0, 8, ic, &s);
    MPI_Buffer_detach(&buf, &bsize);
    free(buf);
    mt_ok(v == peer_world && s.MPI_SOURCE == 0, "%s: MPI_Bsend", what);

    /* a large message (rendezvous), both ways at once */
    enum { BIG = 300000 };
    int *bo = malloc(sizeof(int) * BIG), *bi = malloc(sizeof(int) * BIG);
    for (int i = 0; i < BIG; i++) {
        bo[i] = wrank * 7 + i;
        bi[i] = -1;
    }
    MPI_Sendrecv(bo, BIG, MPI_INT, 0, 9, bi, BIG, MPI_INT, 0, 9, ic, &s);
    ok = s.MPI_SOURCE == 0;
    for (int i = 0; i < BIG; i++)
        ok &= bi[i] == peer_world * 7 + i;
    mt_ok(ok, "%s: %d ints both ways at once (rendezvous)", what, BIG);
    free(bo);
    free(bi);

    /* MPI_PROC_NULL */
    v = 77;
    mt_is_int(ec(MPI_Send(&x, 1, MPI_INT, MPI_PROC_NULL, 1, ic)), MPI_SUCCESS, "%s: send to MPI_PROC_NULL", what);
    MPI_Recv(&v, 1, MPI_INT, MPI_PROC_NULL, 1, ic, &s);
    mt_ok(v == 77 && s.MPI_SOURCE == MPI_PROC_NULL, "%s: receive from MPI_PROC_NULL", what);
}

/* The same tag at the same time on the parent, the local comm, the
 * intercommunicator and its dup: nothing crosses. */
static void isolation(MPI_Comm ic, MPI_Comm dup, MPI_Comm local, const char *what, int first, int peer_world)
{
    int me, ls;
    MPI_Comm_rank(ic, &me);
    MPI_Comm_size(local, &ls);
    if (me != 0)
        return;
    int a = -1, b = -1, c = -1;
    if (first) {
        int v[3] = {1, 2, 3};
        MPI_Request q[3];
        MPI_Isend(&v[0], 1, MPI_INT, 0, 5, ic, &q[0]);
        MPI_Isend(&v[1], 1, MPI_INT, 0, 5, dup, &q[1]);
        MPI_Isend(&v[2], 1, MPI_INT, peer_world, 5, MPI_COMM_WORLD, &q[2]);
        MPI_Waitall(3, q, MPI_STATUSES_IGNORE);
    } else {
        /* in the reverse order of sending; the other ranks' traffic of
         * later steps uses other tags */
        MPI_Recv(&a, 1, MPI_INT, peer_world, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Recv(&b, 1, MPI_INT, 0, 5, dup, MPI_STATUS_IGNORE);
        MPI_Recv(&c, 1, MPI_INT, 0, 5, ic, MPI_STATUS_IGNORE);
        mt_ok(a == 3 && b == 2 && c == 1, "%s: world, dup and intercomm each get their own message (%d %d %d)",
              what, a, b, c);
    }
    /* the local intracommunicator too: its rank 0 is also the intercomm's */
    if (ls > 1) {
        int v = 4;
        MPI_Send(&v, 1, MPI_INT, 1, 5, local);
    }
}

static void local_isolation_recv(MPI_Comm ic, MPI_Comm local)
{
    int me;
    MPI_Comm_rank(ic, &me);
    if (me == 1) {
        int v = -1, flag = 1;
        MPI_Status s;
        MPI_Iprobe(MPI_ANY_SOURCE, 5, ic, &flag, &s);
        MPI_Recv(&v, 1, MPI_INT, 0, 5, local, MPI_STATUS_IGNORE);
        mt_ok(v == 4 && !flag, "the local comm's message reaches only the local comm");
    }
}

static int copies;
static int count_copy(MPI_Comm c, int k, void *extra, void *in, void *out, int *flag)
{
    (void)c;
    (void)k;
    (void)extra;
    copies++;
    *(void **)out = in;
    *flag = 1;
    return MPI_SUCCESS;
}

static void run(struct split *sp, int tag)
{
    const char *what = sp->name;
    int my = sp->color[wrank], lw[64], rw[64];
    int ln = members(sp, my, lw), rn = members(sp, 1 - my, rw);
    MPI_Comm local, ic;
    MPI_Comm_split(MPI_COMM_WORLD, my, sp->key[wrank], &local);
    int lleader = sp->last_leader ? ln - 1 : 0, rleader = sp->last_leader ? rw[rn - 1] : rw[0];
    mt_is_int(ec(MPI_Intercomm_create(local, lleader, MPI_COMM_WORLD, rleader, tag, &ic)), MPI_SUCCESS,
              "%s: MPI_Intercomm_create (%d + %d ranks, tag %d)", what, ln, rn, tag);
    check_groups(ic, what, lw, ln, rw, rn);
    MPI_Errhandler eh;
    MPI_Comm_get_errhandler(ic, &eh);
    mt_ok(eh == MPI_ERRORS_RETURN, "%s: the intercomm takes local_comm's error handler", what);
    all_to_all(ic, what, lw, ln, rw, rn, 10);
    modes(ic, what, my == 0, rw[0]);

    /* names */
    char name[MPI_MAX_OBJECT_NAME];
    int len = -1;
    MPI_Comm_set_name(ic, "bridge");
    MPI_Comm_get_name(ic, name, &len);
    mt_ok(len == 6 && strcmp(name, "bridge") == 0, "%s: Comm_set_name / Comm_get_name", what);

    /* dup: attributes copied, same groups, a context of its own */
    int key, val = 42, *pv = NULL, flag = 0, res = -1;
    MPI_Comm_create_keyval(count_copy, MPI_COMM_NULL_DELETE_FN, &key, NULL);
    MPI_Comm_set_attr(ic, key, &val);
    copies = 0;
    MPI_Comm dup;
    mt_is_int(ec(MPI_Comm_dup(ic, &dup)), MPI_SUCCESS, "%s: MPI_Comm_dup of the intercomm", what);
    MPI_Comm_get_attr(dup, key, &pv, &flag);
    mt_ok(flag && pv == &val && copies == 1, "%s: the dup has the attribute (copy callback ran %d time)", what,
          copies);
    check_groups(dup, "dup", lw, ln, rw, rn);
    MPI_Comm_compare(ic, dup, &res);
    mt_is_int(res, MPI_CONGRUENT, "%s: intercomm and its dup are MPI_CONGRUENT", what);
    MPI_Comm_compare(ic, ic, &res);
    mt_is_int(res, MPI_IDENT, "%s: an intercomm is MPI_IDENT to itself", what);
    MPI_Comm_compare(ic, MPI_COMM_WORLD, &res);
    mt_is_int(res, MPI_UNEQUAL, "%s: intercomm and world are MPI_UNEQUAL", what);
    MPI_Comm_compare(local, ic, &res);
    mt_is_int(res, MPI_UNEQUAL, "%s: the local comm and the intercomm are MPI_UNEQUAL", what);
    isolation(ic, dup, local, what, my == 0, rw[0]);
    local_isolation_recv(ic, local);
    all_to_all(dup, "dup", lw, ln, rw, rn, 20);
    MPI_Comm_delete_attr(dup, key);
    MPI_Comm_free_keyval(&key);

    /* an intercomm of the same groups in reverse order: MPI_SIMILAR */
    MPI_Comm rlocal, ric;
    MPI_Comm_split(MPI_COMM_WORLD, my, -sp->key[wrank], &rlocal);
    MPI_Intercomm_create(rlocal, 0, MPI_COMM_WORLD, rw[rn - 1], tag, &ric);
    MPI_Comm_compare(ic, ric, &res);
    mt_is_int(res, ln > 1 || rn > 1 ? MPI_SIMILAR : MPI_CONGRUENT,
              "%s: the same groups in reverse order are MPI_SIMILAR", what);
    MPI_Comm_free(&ric);
    MPI_Comm_free(&rlocal);

    /* an intercommunicator as peer_comm: rank 0 of each side names the
     * other's rank 0 in ic (MPI-3.1 does not restrict peer_comm to
     * intracommunicators; Open MPI refuses it, hence the guard for
     * checking this test against other libraries) */
#ifndef OPEN_MPI
    MPI_Comm via;
    mt_is_int(ec(MPI_Intercomm_create(local, 0, ic, 0, 123, &via)), MPI_SUCCESS,
              "%s: MPI_Intercomm_create with an intercommunicator as peer_comm", what);
    MPI_Comm_compare(ic, via, &res);
    mt_is_int(res, MPI_CONGRUENT, "%s: ... which is congruent to it", what);
    all_to_all(via, "via intercomm", lw, ln, rw, rn, 30);
    MPI_Comm_free(&via);
#endif

    /* merge: high = 1 on the colour 0 side puts colour 1 first, and back */
    for (int hi_side = 0; hi_side < 2; hi_side++) {
        MPI_Comm merged;
        int r = -1, s = -1, inter = -1, mw[64], want[64];
        mt_is_int(ec(MPI_Intercomm_merge(ic, my == hi_side, &merged)), MPI_SUCCESS,
                  "%s: MPI_Intercomm_merge, high on colour %d", what, hi_side);
        int lo = 1 - hi_side, nlo = members(sp, lo, want);
        members(sp, hi_side, want + nlo);
        MPI_Comm_rank(merged, &r);
        MPI_Comm_size(merged, &s);
        MPI_Comm_test_inter(merged, &inter);
        mt_ok(s == wsize && want[r] == wrank && inter == 0, "%s: merged rank %d of %d (colour %d first)", what, r,
              s, lo);
        MPI_Group g;
        MPI_Comm_group(merged, &g);
        group_world(g, wsize, mw);
        MPI_Group_free(&g);
        mt_ok(same_list(mw, want, wsize), "%s: the merged group is colour %d's group, then colour %d's", what, lo,
              hi_side);
        /* a ring over the merged communicator */
        int got = -1;
        MPI_Sendrecv(&wrank, 1, MPI_INT, (r + 1) % s, 3, &got, 1, MPI_INT, (r + s - 1) % s, 3, merged,
                     MPI_STATUS_IGNORE);
        mt_is_int(got, want[(r + s - 1) % s], "%s: a ring over the merged communicator", what);
        MPI_Comm_free(&merged);
    }
#ifdef RDMPI
    /* a tie: rdmpi puts first the group whose rank 0 has the lower world rank */
    {
        MPI_Comm merged;
        int r = -1, want[64];
        MPI_Intercomm_merge(ic, 1, &merged);
        int lo = lw[0] < rw[0] ? my : 1 - my, nlo = members(sp, lo, want);
        members(sp, 1 - lo, want + nlo);
        MPI_Comm_rank(merged, &r);
        mt_is_int(want[r], wrank, "%s: merge with high equal on both sides: colour %d first", what, lo);
        MPI_Comm_free(&merged);
    }
#endif

    /* split the intercomm: parity of the local rank, reversed by key */
    {
        int lr, sub_l[64], sub_r[64], nl = 0, nr = 0;
        MPI_Comm_rank(ic, &lr);
        for (int i = ln - 1; i >= 0; i--)
            if (i % 2 == lr % 2)
                sub_l[nl++] = lw[i];
        for (int i = rn - 1; i >= 0; i--)
            if (i % 2 == lr % 2)
                sub_r[nr++] = rw[i];
        MPI_Comm sc;
        mt_is_int(ec(MPI_Comm_split(ic, lr % 2, -lr, &sc)), MPI_SUCCESS, "%s: MPI_Comm_split of the intercomm", what);
        if (nr == 0) {
            mt_ok(sc == MPI_COMM_NULL, "%s: split: no remote rank of my colour gives MPI_COMM_NULL", what);
        } else {
            mt_ok(sc != MPI_COMM_NULL, "%s: split: colour %d has %d + %d ranks", what, lr % 2, nl, nr);
            if (sc != MPI_COMM_NULL) {
                check_groups(sc, "split intercomm", sub_l, nl, sub_r, nr);
                all_to_all(sc, "split intercomm", sub_l, nl, sub_r, nr, 40);
                MPI_Comm_free(&sc);
            }
        }
        /* MPI_UNDEFINED on local rank 0 of colour 0 only */
        int c = my == 0 && lr == 0 ? MPI_UNDEFINED : 5;
        MPI_Comm_split(ic, c, 0, &sc);
        /* colour 5: colour 0's side without its rank 0, all of colour 1's */
        int want_null = my == 0 ? c == MPI_UNDEFINED : rn == 1;
        mt_ok(want_null ? sc == MPI_COMM_NULL : sc != MPI_COMM_NULL,
              "%s: split with MPI_UNDEFINED on colour 0's rank 0: %s", what, want_null ? "null" : "a comm");
        if (sc != MPI_COMM_NULL) {
            int rs = -1, s = -1;
            MPI_Comm_size(sc, &s);
            MPI_Comm_remote_size(sc, &rs);
            mt_ok(s == (my == 0 ? ln - 1 : ln) && rs == (my == 0 ? rn : rn - 1),
                  "%s: ... sizes %d and remote %d", what, s, rs);
            MPI_Comm_free(&sc);
        }
    }

    /* Comm_create on the intercomm: colour 0 drops its rank 0 */
    {
        MPI_Group g, sub;
        int zero = 0, lr;
        MPI_Comm_rank(ic, &lr);
        MPI_Comm_group(ic, &g);
        if (my == 0) {
            MPI_Group_excl(g, 1, &zero, &sub);
            MPI_Group_free(&g);
        } else {
            sub = g; /* all of colour 1 */
        }
        MPI_Comm cc;
        mt_is_int(ec(MPI_Comm_create(ic, sub, &cc)), MPI_SUCCESS, "%s: MPI_Comm_create on the intercomm", what);
        int n0 = my == 0 ? ln - 1 : rn - 1; /* colour 0's part */
        int in = !(my == 0 && lr == 0);
        if (n0 == 0 || !in) {
            mt_ok(cc == MPI_COMM_NULL, "%s: create: MPI_COMM_NULL (not in it, or an empty side)", what);
        } else {
            int s = -1, rs = -1, r = -1;
            MPI_Comm_size(cc, &s);
            MPI_Comm_remote_size(cc, &rs);
            MPI_Comm_rank(cc, &r);
            mt_ok(cc != MPI_COMM_NULL && s == (my == 0 ? ln - 1 : ln) && rs == (my == 0 ? rn : rn - 1) &&
                      r == (my == 0 ? lr - 1 : lr),
                  "%s: create: rank %d, sizes %d and remote %d", what, r, s, rs);
            if (cc != MPI_COMM_NULL) {
                int l2[64], r2[64];
                for (int i = 0; i < s; i++)
                    l2[i] = my == 0 ? lw[i + 1] : lw[i];
                for (int i = 0; i < rs; i++)
                    r2[i] = my == 0 ? rw[i] : rw[i + 1];
                all_to_all(cc, "created intercomm", l2, s, r2, rs, 50);
                MPI_Comm_free(&cc);
            }
        }
        MPI_Group_free(&sub);
    }

    /* split_type on the intercomm: on each side, the ranks of my node (MPI-3.1
     * does not restrict comm to intracommunicators; Open MPI 4 crashes).
     * One node: the same groups. */
#ifndef OPEN_MPI
    {
        MPI_Comm node;
        int nodes_of[64], nn = mt_nodes(nodes_of), wme;
        MPI_Comm_rank(MPI_COMM_WORLD, &wme);
        mt_is_int(ec(MPI_Comm_split_type(ic, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node)), MPI_SUCCESS,
                  "%s: MPI_Comm_split_type on the intercomm", what);
        if (nn == 1) {
            MPI_Comm_compare(ic, node, &res);
            mt_is_int(res, MPI_CONGRUENT, "%s: split_type(SHARED) on one node is congruent to the intercomm",
                      what);
        }
        /* expected: each group of ic restricted to my node, in ic's order */
        int side_ok = 1, any_remote = 0;
        for (int remote = 0; remote < 2; remote++) {
            int all[64], n = mt_world_ranks(ic, remote, all), exp[64], ne = 0, got[64], ng = 0;
            for (int i = 0; i < n; i++)
                if (nodes_of[all[i]] == nodes_of[wme])
                    exp[ne++] = all[i];
            if (remote)
                any_remote = ne > 0;
            if (node != MPI_COMM_NULL)
                ng = mt_world_ranks(node, remote, got);
            side_ok &= node == MPI_COMM_NULL || (ng == ne && memcmp(got, exp, sizeof(int) * (size_t)ne) == 0);
        }
        mt_ok(side_ok && (node != MPI_COMM_NULL) == any_remote,
              "%s: split_type(SHARED) on the intercomm: my node's part of each group (none: MPI_COMM_NULL)",
              what);
        if (node != MPI_COMM_NULL)
            MPI_Comm_free(&node);
    }
#endif

    /* errors */
    int rc, lr;
    MPI_Comm_rank(ic, &lr);
    MPI_Comm bad = MPI_COMM_NULL;
    mt_is_int(ec(MPI_Send(&rc, 1, MPI_INT, rn, 0, ic)), MPI_ERR_RANK, "%s: send to rank %d = remote size: MPI_ERR_RANK",
              what, rn);
    mt_is_int(ec(MPI_Recv(&rc, 1, MPI_INT, rn, 0, ic, MPI_STATUS_IGNORE)), MPI_ERR_RANK,
              "%s: receive from rank %d: MPI_ERR_RANK", what, rn);
#ifndef MPICH_VERSION /* MPICH 4 fails an assertion here */
    mt_is_int(ec(MPI_Intercomm_merge(local, 0, &bad)), MPI_ERR_COMM, "%s: Intercomm_merge on an intracomm: MPI_ERR_COMM",
              what);
#endif
    mt_is_int(ec(MPI_Intercomm_merge(ic, 0, NULL)), MPI_ERR_ARG, "%s: Intercomm_merge with NULL: MPI_ERR_ARG", what);
    mt_is_int(ec(MPI_Intercomm_create(ic, 0, MPI_COMM_WORLD, 0, 1, &bad)), MPI_ERR_COMM,
              "%s: Intercomm_create from an intercomm: MPI_ERR_COMM", what);
    mt_is_int(ec(MPI_Intercomm_create(local, ln, MPI_COMM_WORLD, rleader, 1, &bad)), MPI_ERR_RANK,
              "%s: Intercomm_create with local_leader = size: MPI_ERR_RANK", what);
    mt_is_int(ec(MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, wsize, 1, &bad)), MPI_ERR_RANK,
              "%s: Intercomm_create with remote_leader = world size: MPI_ERR_RANK on every local rank", what);
    mt_is_int(ec(MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, rw[0], -3, &bad)), MPI_ERR_TAG,
              "%s: Intercomm_create with tag -3: MPI_ERR_TAG on every local rank", what);
    int dims[1] = {ln}, periods[1] = {0}, index[1] = {0};
    mt_is_int(ec(MPI_Cart_create(ic, 1, dims, periods, 0, &bad)), MPI_ERR_COMM, "%s: Cart_create on an intercomm: MPI_ERR_COMM",
              what);
    mt_is_int(ec(MPI_Graph_create(ic, 1, index, NULL, 0, &bad)), MPI_ERR_COMM,
              "%s: Graph_create on an intercomm: MPI_ERR_COMM", what);
    mt_is_int(ec(MPI_Dist_graph_create_adjacent(ic, 0, NULL, MPI_UNWEIGHTED, 0, NULL, MPI_UNWEIGHTED, MPI_INFO_NULL, 0,
                                             &bad)),
              MPI_ERR_COMM, "%s: Dist_graph_create_adjacent on an intercomm: MPI_ERR_COMM", what);
    MPI_Group rg;
    MPI_Comm_remote_group(ic, &rg);
    mt_is_int(ec(MPI_Comm_create_group(ic, rg, 0, &bad)), MPI_ERR_COMM, "%s: Comm_create_group on an intercomm: MPI_ERR_COMM",
              what);
    mt_is_int(ec(MPI_Comm_create(ic, rg, &bad)), MPI_ERR_GROUP,
              "%s: Comm_create on an intercomm with the remote group: MPI_ERR_GROUP", what);
    MPI_Group_free(&rg);
    mt_ok(bad == MPI_COMM_NULL, "%s: no communicator came out of the failed calls", what);

    mt_is_int(ec(MPI_Comm_free(&dup)), MPI_SUCCESS, "%s: free the dup", what);
    mt_is_int(ec(MPI_Comm_free(&ic)), MPI_SUCCESS, "%s: free the intercomm", what);
    mt_ok(ic == MPI_COMM_NULL && dup == MPI_COMM_NULL, "%s: MPI_Comm_free sets MPI_COMM_NULL", what);
    MPI_Comm_free(&local);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
    MPI_Comm_size(MPI_COMM_WORLD, &wsize);
    mt_rank = wrank;
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    if (wsize < 2 || wsize > 64) {
        mt_ok(0, "needs 2 to 64 ranks, not %d", wsize);
        MPI_Finalize();
        return mt_done();
    }

    struct split halves = {.name = "halves"}, last = {.name = "last vs rest"},
                 parity = {.name = "even vs odd, reversed", .last_leader = 1};
    for (int w = 0; w < wsize; w++) {
        halves.color[w] = w < wsize / 2 ? 0 : 1;
        halves.key[w] = w;
        last.color[w] = w == wsize - 1 ? 0 : 1;
        last.key[w] = w;
        parity.color[w] = w % 2;
        parity.key[w] = -w;
    }
    run(&halves, 0);
    run(&last, 2147483647); /* MPI_TAG_UB */
    run(&parity, 9);

    /* errors that need no intercommunicator */
    int v = -1, flag = -1;
    MPI_Group g;
    MPI_Comm bad = MPI_COMM_NULL;
    mt_is_int(ec(MPI_Comm_remote_size(MPI_COMM_WORLD, &v)), MPI_ERR_COMM, "Comm_remote_size on world: MPI_ERR_COMM");
    mt_is_int(ec(MPI_Comm_remote_group(MPI_COMM_WORLD, &g)), MPI_ERR_COMM, "Comm_remote_group on world: MPI_ERR_COMM");
#ifndef MPICH_VERSION /* MPICH 4 fails an assertion here */
    mt_is_int(ec(MPI_Intercomm_merge(MPI_COMM_WORLD, 0, &bad)), MPI_ERR_COMM, "Intercomm_merge on world: MPI_ERR_COMM");
#endif
    MPI_Comm_test_inter(MPI_COMM_WORLD, &flag);
    mt_is_int(flag, 0, "world is not an intercommunicator");
    /* the remote leader is the local leader itself: the groups overlap
     * (errors are raised on local_comm) */
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    mt_is_int(ec(MPI_Intercomm_create(MPI_COMM_SELF, 0, MPI_COMM_WORLD, wrank, 4, &bad)), MPI_ERR_COMM,
              "Intercomm_create with myself as remote leader: MPI_ERR_COMM");
    mt_is_int(ec(MPI_Intercomm_create(MPI_COMM_SELF, 0, MPI_COMM_NULL, 0, 4, &bad)), MPI_ERR_COMM,
              "Intercomm_create with peer_comm MPI_COMM_NULL at the leader: MPI_ERR_COMM");
    mt_ok(bad == MPI_COMM_NULL, "no communicator came out of the failed calls");

    /* pairs across world from MPI_COMM_SELF: rank 2k with 2k + 1 */
    int partner = wrank ^ 1;
    if (partner < wsize) {
        MPI_Comm ic;
        int s = -1, rs = -1, got = -1;
        MPI_Status st;
        mt_is_int(ec(MPI_Intercomm_create(MPI_COMM_SELF, 0, MPI_COMM_WORLD, partner, 11, &ic)), MPI_SUCCESS,
                  "Intercomm_create of two MPI_COMM_SELFs");
        MPI_Comm_size(ic, &s);
        MPI_Comm_remote_size(ic, &rs);
        MPI_Sendrecv(&wrank, 1, MPI_INT, 0, 0, &got, 1, MPI_INT, 0, 0, ic, &st);
        mt_ok(s == 1 && rs == 1 && got == partner && st.MPI_SOURCE == 0, "pair intercomm: 1 + 1 ranks, partner %d",
              got);
        MPI_Comm merged;
        int r = -1;
        MPI_Intercomm_merge(ic, wrank > partner, &merged);
        MPI_Comm_rank(merged, &r);
        mt_is_int(r, wrank > partner, "pair merge: the high side is rank 1");
        MPI_Comm_free(&merged);
        MPI_Comm_free(&ic);
    }
    MPI_Finalize();
    return mt_done();
}

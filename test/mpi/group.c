/* MPI test: groups (MPI-3.1 section 6.3) on every rank: accessors, the
 * constructors with exact members and order, comparison, translation, and
 * every error class. Usage: group EXPECTED_SIZE */
#include <stdlib.h>

#include "test/mpi/mtest.h"

static int np, me;

/* the world ranks of g's members, in order, as a string "0,2,1" */
static const char *members(MPI_Group g)
{
    static char buf[256];
    MPI_Group world;
    int n = -1, r1[64], r2[64];
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    MPI_Group_size(g, &n);
    for (int i = 0; i < n && i < 64; i++)
        r1[i] = i;
    MPI_Group_translate_ranks(g, n, r1, world, r2);
    buf[0] = '\0';
    for (int i = 0; i < n && i < 64; i++)
        snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf), "%s%d", i ? "," : "", r2[i]);
    MPI_Group_free(&world);
    return buf;
}

/* "a,b,c" from a list of ints */
static const char *list(int n, const int *v)
{
    static char buf[256];
    buf[0] = '\0';
    for (int i = 0; i < n; i++)
        snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf), "%s%d", i ? "," : "", v[i]);
    return buf;
}

#define is_members(g, exp, what)                                                       \
    do {                                                                               \
        const char *got_ = members(g);                                                 \
        mt_ok(strcmp(got_, exp) == 0, "%s: members [%s]", what, got_);                 \
        if (strcmp(got_, exp) != 0)                                                    \
            printf("# expected [%s]\n", exp);                                          \
    } while (0)

int main(int argc, char **argv)
{
    int expected = argc > 1 ? atoi(argv[1]) : 1;
    int v = -1, res = -1, r[8], out[8];
    char exp[256];
    MPI_Group world, self, g, evens, odds, rev, empty;

    if (MPI_Init(&argc, &argv) != MPI_SUCCESS)
        return 2;
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    mt_rank = me;
    mt_is_int(np, expected, "world size");

    /* ---- MPI_Comm_group, size, rank */
    mt_is_int(MPI_Comm_group(MPI_COMM_WORLD, &world), MPI_SUCCESS, "MPI_Comm_group(world)");
    MPI_Group_size(world, &v);
    mt_is_int(v, np, "world group size");
    MPI_Group_rank(world, &v);
    mt_is_int(v, me, "my rank in the world group");
    MPI_Comm_group(MPI_COMM_SELF, &self);
    MPI_Group_size(self, &v);
    mt_is_int(v, 1, "self group size");
    MPI_Group_rank(self, &v);
    mt_is_int(v, 0, "my rank in the self group");
    snprintf(exp, sizeof(exp), "%d", me);
    is_members(self, exp, "self group");
    MPI_Group_size(MPI_GROUP_EMPTY, &v);
    mt_is_int(v, 0, "MPI_GROUP_EMPTY has size 0");
    MPI_Group_rank(MPI_GROUP_EMPTY, &v);
    mt_is_int(v, MPI_UNDEFINED, "rank in MPI_GROUP_EMPTY is MPI_UNDEFINED");

    /* ---- compare */
    MPI_Comm_group(MPI_COMM_WORLD, &g);
    MPI_Group_compare(world, g, &res);
    mt_is_int(res, MPI_IDENT, "two groups of world: MPI_IDENT");
    MPI_Group_free(&g);
    mt_ok(g == MPI_GROUP_NULL, "MPI_Group_free sets MPI_GROUP_NULL");
    MPI_Group_compare(world, self, &res);
    mt_is_int(res, np == 1 ? MPI_IDENT : MPI_UNEQUAL, "world vs self");
    MPI_Group_compare(MPI_GROUP_EMPTY, MPI_GROUP_EMPTY, &res);
    mt_is_int(res, MPI_IDENT, "empty vs empty: MPI_IDENT");
    mt_ok(MPI_IDENT == 0 && MPI_CONGRUENT == 1 && MPI_SIMILAR == 2 && MPI_UNEQUAL == 3,
          "comparison constants have MPICH's values");

    /* ---- incl: world in reverse order */
    for (int i = 0; i < np; i++)
        r[i] = np - 1 - i;
    mt_is_int(MPI_Group_incl(world, np, r, &rev), MPI_SUCCESS, "MPI_Group_incl reversed");
    is_members(rev, list(np, r), "incl reversed");
    MPI_Group_rank(rev, &v);
    mt_is_int(v, np - 1 - me, "my rank in the reversed group");
    MPI_Group_compare(world, rev, &res);
    mt_is_int(res, np == 1 ? MPI_IDENT : MPI_SIMILAR, "world vs reversed");
    mt_is_int(MPI_Group_incl(world, 0, NULL, &g), MPI_SUCCESS, "incl of no rank");
    mt_ok(g == MPI_GROUP_EMPTY, "incl of no rank is MPI_GROUP_EMPTY");

    /* ---- excl */
    r[0] = 0;
    mt_is_int(MPI_Group_excl(world, 1, r, &g), MPI_SUCCESS, "excl rank 0");
    for (int i = 1; i < np; i++)
        out[i - 1] = i;
    is_members(g, list(np - 1, out), "excl rank 0");
    MPI_Group_rank(g, &v);
    mt_is_int(v, me == 0 ? MPI_UNDEFINED : me - 1, "my rank after excluding 0");
    if (np == 1)
        mt_ok(g == MPI_GROUP_EMPTY, "excluding the only rank gives MPI_GROUP_EMPTY");
    MPI_Group_free(&g);
    mt_is_int(MPI_Group_excl(world, 0, NULL, &g), MPI_SUCCESS, "excl of no rank");
    MPI_Group_compare(world, g, &res);
    mt_is_int(res, MPI_IDENT, "excl of no rank is identical to the group");
    MPI_Group_free(&g);

    /* ---- range_incl / range_excl, negative strides */
    int rg[3][3] = {{0, np - 1, 2}};
    mt_is_int(MPI_Group_range_incl(world, 1, rg, &evens), MPI_SUCCESS, "range_incl (0, np-1, 2)");
    int ne = 0;
    for (int i = 0; i < np; i += 2)
        out[ne++] = i;
    is_members(evens, list(ne, out), "evens");
    mt_is_int(MPI_Group_range_excl(world, 1, rg, &odds), MPI_SUCCESS, "range_excl (0, np-1, 2)");
    int no = 0;
    for (int i = 1; i < np; i += 2)
        out[no++] = i;
    is_members(odds, list(no, out), "odds");
    if (np == 1)
        mt_ok(odds == MPI_GROUP_EMPTY, "odds of one rank: MPI_GROUP_EMPTY");
    int rgneg[1][3] = {{np - 1, 0, -2}};
    mt_is_int(MPI_Group_range_incl(world, 1, rgneg, &g), MPI_SUCCESS, "range_incl (np-1, 0, -2)");
    int nn = 0;
    for (int i = np - 1; i >= 0; i -= 2)
        out[nn++] = i;
    is_members(g, list(nn, out), "negative stride");
    MPI_Group_free(&g);
    /* two triplets: (last, last, 1) then (0, last-1, 1) = a rotation */
    int rot[2][3] = {{np - 1, np - 1, 1}, {0, np - 2, 1}};
    mt_is_int(MPI_Group_range_incl(world, np > 1 ? 2 : 1, rot, &g), MPI_SUCCESS, "range_incl rotation");
    out[0] = np - 1;
    for (int i = 0; i < np - 1; i++)
        out[i + 1] = i;
    is_members(g, list(np, out), "rotation");
    MPI_Group_free(&g);
    /* stride larger than the range: only first */
    int rgbig[1][3] = {{0, np - 1, 10}};
    MPI_Group_range_incl(world, 1, rgbig, &g);
    is_members(g, "0", "stride 10: only the first");
    MPI_Group_free(&g);
    int rgall[1][3] = {{np - 1, 0, -1}};
    MPI_Group_range_excl(world, 1, rgall, &g);
    mt_ok(g == MPI_GROUP_EMPTY, "range_excl of everything is MPI_GROUP_EMPTY");
    mt_is_int(MPI_Group_range_incl(world, 0, NULL, &g), MPI_SUCCESS, "range_incl of no range");
    mt_ok(g == MPI_GROUP_EMPTY, "range_incl of no range is MPI_GROUP_EMPTY");

    /* ---- union, intersection, difference */
    MPI_Group_union(odds, evens, &g);
    int nu = 0;
    for (int i = 1; i < np; i += 2)
        out[nu++] = i;
    for (int i = 0; i < np; i += 2)
        out[nu++] = i;
    is_members(g, list(nu, out), "union(odds, evens): odds then evens");
    MPI_Group_compare(g, world, &res);
    mt_is_int(res, np == 1 ? MPI_IDENT : MPI_SIMILAR, "union(odds, evens) vs world");
    MPI_Group_free(&g);
    MPI_Group_union(rev, world, &g);
    for (int i = 0; i < np; i++)
        out[i] = np - 1 - i;
    is_members(g, list(np, out), "union(rev, world) keeps rev's order");
    MPI_Group_free(&g);
    MPI_Group_union(MPI_GROUP_EMPTY, MPI_GROUP_EMPTY, &g);
    mt_ok(g == MPI_GROUP_EMPTY, "union of empties is MPI_GROUP_EMPTY");
    MPI_Group_union(MPI_GROUP_EMPTY, self, &g);
    snprintf(exp, sizeof(exp), "%d", me);
    is_members(g, exp, "union(empty, self)");
    MPI_Group_free(&g);

    MPI_Group_intersection(rev, evens, &g);
    int nx = 0;
    for (int i = np - 1; i >= 0; i--)
        if (i % 2 == 0)
            out[nx++] = i;
    is_members(g, list(nx, out), "intersection(rev, evens) in rev's order");
    MPI_Group_free(&g);
    MPI_Group_intersection(world, rev, &g);
    MPI_Group_compare(g, world, &res);
    mt_is_int(res, MPI_IDENT, "intersection(world, rev) is world");
    MPI_Group_free(&g);
    MPI_Group_intersection(evens, odds, &g);
    mt_ok(g == MPI_GROUP_EMPTY, "intersection(evens, odds) is MPI_GROUP_EMPTY");

    MPI_Group_difference(rev, evens, &g);
    int nd = 0;
    for (int i = np - 1; i >= 0; i--)
        if (i % 2 == 1)
            out[nd++] = i;
    is_members(g, list(nd, out), "difference(rev, evens) in rev's order");
    MPI_Group_free(&g);
    MPI_Group_difference(world, world, &g);
    mt_ok(g == MPI_GROUP_EMPTY, "difference(world, world) is MPI_GROUP_EMPTY");
    MPI_Group_difference(world, self, &g);
    MPI_Group_size(g, &v);
    mt_is_int(v, np - 1, "difference(world, self) has np-1 members");
    MPI_Group_rank(g, &v);
    mt_is_int(v, MPI_UNDEFINED, "I am not in difference(world, self)");
    MPI_Group_free(&g);

    /* ---- translate */
    for (int i = 0; i < np; i++)
        r[i] = i;
    r[np] = MPI_PROC_NULL;
    MPI_Group_translate_ranks(world, np + 1, r, evens, out);
    for (int i = 0; i < np; i++)
        r[i] = i % 2 ? MPI_UNDEFINED : i / 2;
    r[np] = MPI_PROC_NULL;
    mt_ok(memcmp(out, r, (size_t)(np + 1) * sizeof(int)) == 0, "translate world -> evens: [%s]", list(np + 1, out));
    r[0] = 0;
    MPI_Group_translate_ranks(self, 1, r, world, out);
    mt_is_int(out[0], me, "translate self 0 -> world");
    MPI_Group_translate_ranks(self, 1, r, rev, out);
    mt_is_int(out[0], np - 1 - me, "translate self 0 -> reversed");
    mt_is_int(MPI_Group_translate_ranks(world, 0, NULL, self, NULL), MPI_SUCCESS, "translate no rank");
    r[0] = np - 1;
    MPI_Group_translate_ranks(world, 1, r, MPI_GROUP_EMPTY, out);
    mt_is_int(out[0], MPI_UNDEFINED, "translate into MPI_GROUP_EMPTY: MPI_UNDEFINED");

    if (np >= 2) {
        MPI_Group a, b;
        r[0] = 0;
        MPI_Group_incl(world, 1, r, &a);
        r[0] = 1;
        MPI_Group_incl(world, 1, r, &b);
        MPI_Group_compare(a, b, &res);
        mt_is_int(res, MPI_UNEQUAL, "{0} vs {1}: MPI_UNEQUAL");
        MPI_Group_free(&a);
        MPI_Group_free(&b);
    }

    /* ---- errors */
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    mt_is_int(MPI_Comm_group(MPI_COMM_NULL, &g), MPI_ERR_COMM, "Comm_group(MPI_COMM_NULL): MPI_ERR_COMM");
    mt_is_int(MPI_Comm_group(MPI_COMM_WORLD, NULL), MPI_ERR_ARG, "Comm_group into NULL: MPI_ERR_ARG");
    mt_is_int(MPI_Group_size(MPI_GROUP_NULL, &v), MPI_ERR_GROUP, "Group_size(MPI_GROUP_NULL): MPI_ERR_GROUP");
    mt_is_int(MPI_Group_size(world, NULL), MPI_ERR_ARG, "Group_size into NULL: MPI_ERR_ARG");
    mt_is_int(MPI_Group_rank(MPI_GROUP_NULL, &v), MPI_ERR_GROUP, "Group_rank(MPI_GROUP_NULL): MPI_ERR_GROUP");
    mt_is_int(MPI_Group_rank(world, NULL), MPI_ERR_ARG, "Group_rank into NULL: MPI_ERR_ARG");
    mt_is_int(MPI_Group_compare(world, MPI_GROUP_NULL, &res), MPI_ERR_GROUP, "compare with NULL: MPI_ERR_GROUP");
    mt_is_int(MPI_Group_compare(world, world, NULL), MPI_ERR_ARG, "compare into NULL: MPI_ERR_ARG");
    r[0] = np;
    mt_is_int(MPI_Group_incl(world, 1, r, &g), MPI_ERR_RANK, "incl rank np: MPI_ERR_RANK");
    r[0] = -1;
    mt_is_int(MPI_Group_incl(world, 1, r, &g), MPI_ERR_RANK, "incl rank -1: MPI_ERR_RANK");
    r[0] = r[1] = 0;
    mt_is_int(MPI_Group_incl(world, 2, r, &g), np >= 2 ? MPI_ERR_RANK : MPI_ERR_ARG,
              "incl rank 0 twice: %s", np >= 2 ? "MPI_ERR_RANK" : "MPI_ERR_ARG (n > size)");
    mt_is_int(MPI_Group_incl(world, -1, r, &g), MPI_ERR_ARG, "incl n = -1: MPI_ERR_ARG");
    mt_is_int(MPI_Group_incl(world, 1, NULL, &g), MPI_ERR_ARG, "incl ranks NULL: MPI_ERR_ARG");
    mt_is_int(MPI_Group_incl(world, 1, r, NULL), MPI_ERR_ARG, "incl newgroup NULL: MPI_ERR_ARG");
    mt_is_int(MPI_Group_incl(MPI_GROUP_NULL, 1, r, &g), MPI_ERR_GROUP, "incl from MPI_GROUP_NULL: MPI_ERR_GROUP");
    r[0] = np + 3;
    mt_is_int(MPI_Group_excl(world, 1, r, &g), MPI_ERR_RANK, "excl rank np+3: MPI_ERR_RANK");
    r[0] = r[1] = np - 1;
    if (np >= 2)
        mt_is_int(MPI_Group_excl(world, 2, r, &g), MPI_ERR_RANK, "excl a rank twice: MPI_ERR_RANK");
    mt_is_int(MPI_Group_excl(world, np + 1, r, &g), MPI_ERR_ARG, "excl n > size: MPI_ERR_ARG");
    int bad0[1][3] = {{0, np - 1, 0}};
    mt_is_int(MPI_Group_range_incl(world, 1, bad0, &g), MPI_ERR_ARG, "range stride 0: MPI_ERR_ARG");
    mt_is_int(MPI_Group_range_excl(world, 1, bad0, &g), MPI_ERR_ARG, "range_excl stride 0: MPI_ERR_ARG");
    if (np >= 2) {
        int bad1[1][3] = {{np - 1, 0, 1}};
        mt_is_int(MPI_Group_range_incl(world, 1, bad1, &g), MPI_ERR_ARG, "range (np-1, 0, 1): MPI_ERR_ARG");
        int bad2[1][3] = {{0, np - 1, -1}};
        mt_is_int(MPI_Group_range_excl(world, 1, bad2, &g), MPI_ERR_ARG, "range (0, np-1, -1): MPI_ERR_ARG");
        int dup[2][3] = {{0, 1, 1}, {1, 1, 1}};
        mt_is_int(MPI_Group_range_incl(world, 2, dup, &g), MPI_ERR_RANK, "ranges sharing rank 1: MPI_ERR_RANK");
    }
    int bad3[1][3] = {{0, np, 1}};
    mt_is_int(MPI_Group_range_incl(world, 1, bad3, &g), MPI_ERR_RANK, "range up to np: MPI_ERR_RANK");
    int bad4[1][3] = {{-1, 0, 1}};
    mt_is_int(MPI_Group_range_excl(world, 1, bad4, &g), MPI_ERR_RANK, "range from -1: MPI_ERR_RANK");
    mt_is_int(MPI_Group_range_incl(world, -1, bad4, &g), MPI_ERR_ARG, "range n = -1: MPI_ERR_ARG");
    mt_is_int(MPI_Group_range_incl(world, 1, NULL, &g), MPI_ERR_ARG, "ranges NULL: MPI_ERR_ARG");
    mt_is_int(MPI_Group_union(world, MPI_GROUP_NULL, &g), MPI_ERR_GROUP, "union with NULL: MPI_ERR_GROUP");
    mt_is_int(MPI_Group_intersection(MPI_GROUP_NULL, world, &g), MPI_ERR_GROUP,
              "intersection with NULL: MPI_ERR_GROUP");
    mt_is_int(MPI_Group_difference(world, world, NULL), MPI_ERR_ARG, "difference into NULL: MPI_ERR_ARG");
    r[0] = np;
    mt_is_int(MPI_Group_translate_ranks(world, 1, r, self, out), MPI_ERR_RANK, "translate rank np: MPI_ERR_RANK");
    mt_is_int(MPI_Group_translate_ranks(world, -1, r, self, out), MPI_ERR_ARG, "translate n = -1: MPI_ERR_ARG");
    mt_is_int(MPI_Group_translate_ranks(world, 1, r, self, NULL), MPI_ERR_ARG, "translate into NULL: MPI_ERR_ARG");
    mt_is_int(MPI_Group_translate_ranks(world, 1, r, MPI_GROUP_NULL, out), MPI_ERR_GROUP,
              "translate to MPI_GROUP_NULL: MPI_ERR_GROUP");
    mt_is_int(MPI_Group_free(NULL), MPI_ERR_ARG, "Group_free(NULL): MPI_ERR_ARG");
    g = MPI_GROUP_NULL;
    mt_is_int(MPI_Group_free(&g), MPI_ERR_GROUP, "free MPI_GROUP_NULL: MPI_ERR_GROUP");
    char s[MPI_MAX_ERROR_STRING];
    int len;
    r[0] = np;
    MPI_Group_incl(world, 1, r, &g);
    MPI_Error_string(MPI_ERR_RANK, s, &len);
    mt_ok(strstr(s, "MPI_Group_incl") && strstr(s, "is not a rank of the group"),
          "error string names the call and the cause: '%s'", s);

    /* ---- free: MPI_GROUP_EMPTY may be freed and stays usable */
    empty = MPI_GROUP_EMPTY;
    mt_is_int(MPI_Group_free(&empty), MPI_SUCCESS, "free MPI_GROUP_EMPTY");
    mt_ok(empty == MPI_GROUP_NULL, "freeing MPI_GROUP_EMPTY sets MPI_GROUP_NULL");
    mt_is_int(MPI_Group_size(MPI_GROUP_EMPTY, &v), MPI_SUCCESS, "MPI_GROUP_EMPTY is still valid");
    mt_is_int(MPI_Group_free(&evens), MPI_SUCCESS, "free evens");
    mt_is_int(MPI_Group_free(&odds), MPI_SUCCESS, "free odds");
    mt_is_int(MPI_Group_free(&rev), MPI_SUCCESS, "free reversed");
    mt_is_int(MPI_Group_free(&self), MPI_SUCCESS, "free self group");
    mt_is_int(MPI_Group_free(&world), MPI_SUCCESS, "free world group");
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    int rc = mt_done();
    MPI_Finalize();
    return rc;
}

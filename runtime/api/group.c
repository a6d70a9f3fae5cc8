/* Groups (MPI-3.1 section 6.3): accessors, constructors from a group or
 * two, MPI_Comm_group, and MPI_Group_free. Errors in calls that have no
 * communicator go to MPI_COMM_WORLD's handler. */
#include <mpi.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/api/check.h"
#include "runtime/objects/group.h"
#include "runtime/objects/session.h"

#define WORLD MPI_COMM_WORLD

static int check_group(const char *call, MPI_Group g, const char *what)
{
    return rd_group_valid(g) ? MPI_SUCCESS : rd_err_raise(WORLD, MPI_ERR_GROUP, call, "%s is not a valid group", what);
}

static int no_mem(const char *call)
{
    return rd_err_raise(WORLD, MPI_ERR_NO_MEM, call, "out of memory");
}

/* Hand out a group made of the n world ranks in w (w is taken over): the
 * empty group, the identity, or an array. */
/* (from: the group it derives from, whose session it takes) */
static int make_group(const char *call, int *w, int n, MPI_Group from, MPI_Group *out)
{
    if (n == 0) {
        free(w);
        *out = MPI_GROUP_EMPTY;
        return MPI_SUCCESS;
    }
    int identity = 1;
    for (int i = 0; i < n && identity; i++)
        identity = w[i] == i;
    struct rd_group_s *g;
    if (identity) {
        free(w);
        g = rd_group_identity(n);
    } else {
        g = calloc(1, sizeof(*g));
        if (g) {
            g->magic = RD_GROUP_MAGIC;
            atomic_init(&g->refs, 1);
            atomic_init(&g->index, NULL);
            g->size = n;
            g->ranks = w;
        } else {
            free(w);
        }
    }
    if (!g)
        return no_mem(call);
    g->session = from->session;
    rd_session_retain(g->session);
    *out = g;
    return MPI_SUCCESS;
}

#pragma weak MPI_Comm_group = PMPI_Comm_group
int PMPI_Comm_group(MPI_Comm comm, MPI_Group *group)
{
    RD_API_READY("MPI_Comm_group");
    RD_TRY(rd_check_comm("MPI_Comm_group", comm));
    if (!group)
        return rd_err_raise(comm, MPI_ERR_ARG, "MPI_Comm_group", "group is NULL");
    struct rd_group_s *g;
    if (!comm->world_ranks) {
        g = rd_group_identity(comm->size);
    } else {
        g = rd_group_alloc(comm->size);
        if (g)
            memcpy(g->ranks, comm->world_ranks, (size_t)comm->size * sizeof(int));
    }
    if (!g)
        return rd_err_raise(comm, MPI_ERR_NO_MEM, "MPI_Comm_group", "out of memory");
    g->session = comm->session;
    rd_session_retain(g->session);
    *group = g;
    return MPI_SUCCESS;
}

#pragma weak MPI_Group_size = PMPI_Group_size
int PMPI_Group_size(MPI_Group group, int *size)
{
    RD_API_READY("MPI_Group_size");
    RD_TRY(check_group("MPI_Group_size", group, "group"));
    if (!size)
        return rd_err_raise(WORLD, MPI_ERR_ARG, "MPI_Group_size", "size is NULL");
    *size = group->size;
    return MPI_SUCCESS;
}

#pragma weak MPI_Group_rank = PMPI_Group_rank
int PMPI_Group_rank(MPI_Group group, int *rank)
{
    RD_API_READY("MPI_Group_rank");
    RD_TRY(check_group("MPI_Group_rank", group, "group"));
    if (!rank)
        return rd_err_raise(WORLD, MPI_ERR_ARG, "MPI_Group_rank", "rank is NULL");
    int r = rd_group_find(group, rd_mpi_comm_world.rank);
    *rank = r < 0 ? MPI_UNDEFINED : r;
    return MPI_SUCCESS;
}

#pragma weak MPI_Group_translate_ranks = PMPI_Group_translate_ranks
int PMPI_Group_translate_ranks(MPI_Group group1, int n, const int ranks1[], MPI_Group group2, int ranks2[])
{
    static const char call[] = "MPI_Group_translate_ranks";
    RD_API_READY(call);
    RD_TRY(check_group(call, group1, "group1"));
    RD_TRY(check_group(call, group2, "group2"));
    if (n < 0)
        return rd_err_raise(WORLD, MPI_ERR_ARG, call, "n = %d is negative", n);
    if (n > 0 && (!ranks1 || !ranks2))
        return rd_err_raise(WORLD, MPI_ERR_ARG, call, "%s is NULL", ranks1 ? "ranks2" : "ranks1");
    for (int i = 0; i < n; i++)
        if (ranks1[i] != MPI_PROC_NULL && (ranks1[i] < 0 || ranks1[i] >= group1->size))
            return rd_err_raise(WORLD, MPI_ERR_RANK, call, "ranks1[%d] = %d is not a rank of group1 (size %d)", i,
                                ranks1[i], group1->size);
    for (int i = 0; i < n; i++) {
        if (ranks1[i] == MPI_PROC_NULL) {
            ranks2[i] = MPI_PROC_NULL;
            continue;
        }
        int r = rd_group_find(group2, rd_group_world(group1, ranks1[i]));
        ranks2[i] = r < 0 ? MPI_UNDEFINED : r;
    }
    return MPI_SUCCESS;
}

#pragma weak MPI_Group_compare = PMPI_Group_compare
int PMPI_Group_compare(MPI_Group group1, MPI_Group group2, int *result)
{
    static const char call[] = "MPI_Group_compare";
    RD_API_READY(call);
    RD_TRY(check_group(call, group1, "group1"));
    RD_TRY(check_group(call, group2, "group2"));
    if (!result)
        return rd_err_raise(WORLD, MPI_ERR_ARG, call, "result is NULL");
    if (group1->size != group2->size) {
        *result = MPI_UNEQUAL;
        return MPI_SUCCESS;
    }
    int ident = 1;
    for (int i = 0; i < group1->size && ident; i++)
        ident = rd_group_world(group1, i) == rd_group_world(group2, i);
    if (ident) {
        *result = MPI_IDENT;
        return MPI_SUCCESS;
    }
    /* same size, distinct members: similar iff every member of 1 is in 2 */
    *result = MPI_SIMILAR;
    for (int i = 0; i < group1->size; i++)
        if (rd_group_find(group2, rd_group_world(group1, i)) < 0) {
            *result = MPI_UNEQUAL;
            break;
        }
    return MPI_SUCCESS;
}

enum setop { OP_UNION, OP_INTERSECTION, OP_DIFFERENCE };

static int set_op(const char *call, enum setop op, MPI_Group g1, MPI_Group g2, MPI_Group *newgroup)
{
    RD_API_READY(call);
    RD_TRY(check_group(call, g1, "group1"));
    RD_TRY(check_group(call, g2, "group2"));
    if (!newgroup)
        return rd_err_raise(WORLD, MPI_ERR_ARG, call, "newgroup is NULL");
    size_t max = op == OP_UNION ? (size_t)g1->size + (size_t)g2->size : (size_t)g1->size;
    int *w = malloc((max ? max : 1) * sizeof(int));
    if (!w)
        return no_mem(call);
    int n = 0;
    if (op == OP_UNION) {
        /* all of group1, then the members of group2 not in group1 */
        for (int i = 0; i < g1->size; i++)
            w[n++] = rd_group_world(g1, i);
        for (int i = 0; i < g2->size; i++) {
            int x = rd_group_world(g2, i);
            if (rd_group_find(g1, x) < 0)
                w[n++] = x;
        }
    } else {
        /* the members of group1 in (not in) group2, in group1's order */
        for (int i = 0; i < g1->size; i++) {
            int x = rd_group_world(g1, i);
            if ((rd_group_find(g2, x) >= 0) == (op == OP_INTERSECTION))
                w[n++] = x;
        }
    }
    return make_group(call, w, n, g1->session ? g1 : g2, newgroup);
}

#pragma weak MPI_Group_union = PMPI_Group_union
int PMPI_Group_union(MPI_Group group1, MPI_Group group2, MPI_Group *newgroup)
{
    return set_op("MPI_Group_union", OP_UNION, group1, group2, newgroup);
}

#pragma weak MPI_Group_intersection = PMPI_Group_intersection
int PMPI_Group_intersection(MPI_Group group1, MPI_Group group2, MPI_Group *newgroup)
{
    return set_op("MPI_Group_intersection", OP_INTERSECTION, group1, group2, newgroup);
}

#pragma weak MPI_Group_difference = PMPI_Group_difference
int PMPI_Group_difference(MPI_Group group1, MPI_Group group2, MPI_Group *newgroup)
{
    return set_op("MPI_Group_difference", OP_DIFFERENCE, group1, group2, newgroup);
}

/* Check a list of n ranks of group (all valid, all distinct) and mark them
 * in marks[group->size]. */
static int mark_ranks(const char *call, MPI_Group group, int n, const int ranks[], char *marks)
{
    for (int i = 0; i < n; i++) {
        int r = ranks[i];
        if (r < 0 || r >= group->size)
            return rd_err_raise(WORLD, MPI_ERR_RANK, call, "ranks[%d] = %d is not a rank of the group (size %d)", i, r,
                                group->size);
        if (marks[r])
            return rd_err_raise(WORLD, MPI_ERR_RANK, call, "ranks[%d] = %d appears twice", i, r);
        marks[r] = 1;
    }
    return MPI_SUCCESS;
}

static int check_list(const char *call, MPI_Group group, int n, const void *list, MPI_Group *newgroup)
{
    RD_TRY(check_group(call, group, "group"));
    if (!newgroup)
        return rd_err_raise(WORLD, MPI_ERR_ARG, call, "newgroup is NULL");
    if (n < 0 || n > group->size)
        return rd_err_raise(WORLD, MPI_ERR_ARG, call, "n = %d is not in [0, %d] (the group size)", n, group->size);
    if (n > 0 && !list)
        return rd_err_raise(WORLD, MPI_ERR_ARG, call, "the rank list is NULL");
    return MPI_SUCCESS;
}

/* Members of group marked (keep = 1) or not marked (keep = 0), in order. */
static int select_marked(const char *call, MPI_Group group, const char *marks, int keep, MPI_Group *newgroup)
{
    int *w = malloc((size_t)(group->size ? group->size : 1) * sizeof(int));
    if (!w)
        return no_mem(call);
    int n = 0;
    for (int i = 0; i < group->size; i++)
        if (!!marks[i] == keep)
            w[n++] = rd_group_world(group, i);
    return make_group(call, w, n, group, newgroup);
}

#pragma weak MPI_Group_incl = PMPI_Group_incl
int PMPI_Group_incl(MPI_Group group, int n, const int ranks[], MPI_Group *newgroup)
{
    static const char call[] = "MPI_Group_incl";
    RD_API_READY(call);
    RD_TRY(check_list(call, group, n, ranks, newgroup));
    char *marks = calloc((size_t)group->size + 1, 1);
    int *w = malloc((size_t)(n ? n : 1) * sizeof(int));
    if (!marks || !w) {
        free(marks);
        free(w);
        return no_mem(call);
    }
    int rc = mark_ranks(call, group, n, ranks, marks);
    free(marks);
    if (rc != MPI_SUCCESS) {
        free(w);
        return rc;
    }
    for (int i = 0; i < n; i++)
        w[i] = rd_group_world(group, ranks[i]);
    return make_group(call, w, n, group, newgroup);
}

#pragma weak MPI_Group_excl = PMPI_Group_excl
int PMPI_Group_excl(MPI_Group group, int n, const int ranks[], MPI_Group *newgroup)
{
    static const char call[] = "MPI_Group_excl";
    RD_API_READY(call);
    RD_TRY(check_list(call, group, n, ranks, newgroup));
    char *marks = calloc((size_t)group->size + 1, 1);
    if (!marks)
        return no_mem(call);
    int rc = mark_ranks(call, group, n, ranks, marks);
    if (rc == MPI_SUCCESS)
        rc = select_marked(call, group, marks, 0, newgroup);
    free(marks);
    return rc;
}

/* Expand n triplets (first, last, stride) into the ranks they denote, in
 * order; *out is malloc'd (*count ranks). MPI-3.1 6.3.2: the stride may be
 * negative but not zero; every computed rank must be valid and distinct. */
static int expand_ranges(const char *call, MPI_Group group, int n, int ranges[][3], int **out, int *count)
{
    long long total = 0;
    for (int i = 0; i < n; i++) {
        int first = ranges[i][0], last = ranges[i][1], stride = ranges[i][2];
        if (stride == 0)
            return rd_err_raise(WORLD, MPI_ERR_ARG, call, "ranges[%d] has stride 0", i);
        if (first < 0 || first >= group->size || last < 0 || last >= group->size)
            return rd_err_raise(WORLD, MPI_ERR_RANK, call,
                                "ranges[%d] = (%d, %d, %d) has an end that is not a rank of the group (size %d)", i,
                                first, last, stride, group->size);
        if ((stride > 0 && first > last) || (stride < 0 && first < last))
            return rd_err_raise(WORLD, MPI_ERR_ARG, call,
                                "ranges[%d] = (%d, %d, %d): the stride goes away from last", i, first, last, stride);
        total += ((long long)last - first) / stride + 1;
        if (total > group->size)
            return rd_err_raise(WORLD, MPI_ERR_RANK, call, "the ranges denote more ranks than the group has (%d)",
                                group->size);
    }
    int *r = malloc((size_t)(total ? total : 1) * sizeof(int));
    if (!r)
        return no_mem(call);
    int k = 0;
    for (int i = 0; i < n; i++) {
        int first = ranges[i][0], last = ranges[i][1], stride = ranges[i][2];
        long long cnt = ((long long)last - first) / stride + 1;
        for (long long j = 0; j < cnt; j++)
            r[k++] = (int)(first + j * stride);
    }
    *out = r;
    *count = k;
    return MPI_SUCCESS;
}

static int range_op(const char *call, int incl, MPI_Group group, int n, int ranges[][3], MPI_Group *newgroup)
{
    RD_API_READY(call);
    RD_TRY(check_group(call, group, "group"));
    if (!newgroup)
        return rd_err_raise(WORLD, MPI_ERR_ARG, call, "newgroup is NULL");
    if (n < 0)
        return rd_err_raise(WORLD, MPI_ERR_ARG, call, "n = %d is negative", n);
    if (n > 0 && !ranges)
        return rd_err_raise(WORLD, MPI_ERR_ARG, call, "ranges is NULL");
    int *r = NULL, cnt = 0;
    RD_TRY(expand_ranges(call, group, n, ranges, &r, &cnt));
    char *marks = calloc((size_t)group->size + 1, 1);
    if (!marks) {
        free(r);
        return no_mem(call);
    }
    int rc = mark_ranks(call, group, cnt, r, marks);
    if (rc == MPI_SUCCESS) {
        if (incl) {
            for (int i = 0; i < cnt; i++)
                r[i] = rd_group_world(group, r[i]);
            rc = make_group(call, r, cnt, group, newgroup);
            r = NULL;
        } else {
            rc = select_marked(call, group, marks, 0, newgroup);
        }
    }
    free(marks);
    free(r);
    return rc;
}

#pragma weak MPI_Group_range_incl = PMPI_Group_range_incl
int PMPI_Group_range_incl(MPI_Group group, int n, int ranges[][3], MPI_Group *newgroup)
{
    return range_op("MPI_Group_range_incl", 1, group, n, ranges, newgroup);
}

#pragma weak MPI_Group_range_excl = PMPI_Group_range_excl
int PMPI_Group_range_excl(MPI_Group group, int n, int ranges[][3], MPI_Group *newgroup)
{
    return range_op("MPI_Group_range_excl", 0, group, n, ranges, newgroup);
}

/* MPI-3.1 does not forbid freeing MPI_GROUP_EMPTY, and the constructors
 * return it for empty results, so freeing it succeeds (the handle becomes
 * MPI_GROUP_NULL; the object itself stays), as in MPICH and Open MPI. */
#pragma weak MPI_Group_free = PMPI_Group_free
int PMPI_Group_free(MPI_Group *group)
{
    RD_API_READY("MPI_Group_free");
    if (!group)
        return rd_err_raise(WORLD, MPI_ERR_ARG, "MPI_Group_free", "group is NULL");
    RD_TRY(check_group("MPI_Group_free", *group, "group"));
    rd_group_release(*group);
    *group = MPI_GROUP_NULL;
    return MPI_SUCCESS;
}

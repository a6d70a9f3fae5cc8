/* MPI_Comm_rank, MPI_Comm_size; creating and freeing communicators:
 * MPI_Comm_dup, Comm_split, Comm_create, Comm_free, Comm_compare, names. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "collectives/agree.h"
#include "runtime/api/check.h"
#include "runtime/api/intercomm.h"
#include "runtime/api/topo.h"
#include "runtime/base/state.h"
#include "runtime/objects/attr.h"
#include "runtime/objects/comm.h"
#include "runtime/objects/errhandler.h"
#include "runtime/objects/group.h"
#include "runtime/objects/session.h"
#include "runtime/p2p/p2p.h"
#include "runtime/p2p/request.h"

#pragma weak MPI_Comm_rank = PMPI_Comm_rank
int PMPI_Comm_rank(MPI_Comm comm, int *rank)
{
    if (!rd_ready())
        return rd_err_not_ready("MPI_Comm_rank");
    if (!rd_comm_valid(comm))
        return rd_err_raise(comm, MPI_ERR_COMM, "MPI_Comm_rank", "invalid communicator");
    if (!rank)
        return rd_err_raise(comm, MPI_ERR_ARG, "MPI_Comm_rank", "rank is NULL");
    *rank = comm->rank;
    return MPI_SUCCESS;
}

#pragma weak MPI_Comm_size = PMPI_Comm_size
int PMPI_Comm_size(MPI_Comm comm, int *size)
{
    if (!rd_ready())
        return rd_err_not_ready("MPI_Comm_size");
    if (!rd_comm_valid(comm))
        return rd_err_raise(comm, MPI_ERR_COMM, "MPI_Comm_size", "invalid communicator");
    if (!size)
        return rd_err_raise(comm, MPI_ERR_ARG, "MPI_Comm_size", "size is NULL");
    *size = comm->size;
    return MPI_SUCCESS;
}

/* ------------------------------------------------------------ creating communicators */

static int comm_fail(MPI_Comm comm, const char *call, rd_status st)
{
    return rd_err_raise(comm, rd_status_to_mpi(st), call, "%s", rd_status_string(st));
}

/* The new communicator of ranks (taken over) in context ctx, this rank
 * being rank; it inherits parent's error handler. */
static int make_comm(MPI_Comm parent, const char *call, int rank, int size, int *ranks, uint32_t ctx,
                     MPI_Comm *newcomm)
{
    rd_status st = rd_comm_new(rank, size, ranks, ctx, newcomm);
    if (st != RD_OK) {
        free(ranks);
        return comm_fail(parent, call, st);
    }
    rd_comm_inherit(parent, *newcomm);
    return MPI_SUCCESS;
}

static int comm_dup(MPI_Comm comm, MPI_Comm *newcomm)
{
    const char *call = "MPI_Comm_dup";
    uint32_t ctx;
    int *ranks = NULL;
    RD_API_READY(call);
    RD_TRY(rd_check_comm(call, comm));
    if (!newcomm)
        return rd_err_raise(comm, MPI_ERR_ARG, call, "newcomm is NULL");
    if (comm->is_inter) {
        RD_TRY(rd_inter_dup(comm, call, newcomm));
    } else {
        rd_status st = rd_comm_agree_ctx(comm, &ctx);
        if (st != RD_OK)
            return comm_fail(comm, call, st);
        if (comm->world_ranks) {
            ranks = malloc(sizeof(int) * (size_t)comm->size);
            if (!ranks)
                return comm_fail(comm, call, RD_ERR_NOMEM);
            memcpy(ranks, comm->world_ranks, sizeof(int) * (size_t)comm->size);
        }
        RD_TRY(make_comm(comm, call, comm->rank, comm->size, ranks, ctx, newcomm));
    }
    if (rd_topo_copy(comm, *newcomm) != MPI_SUCCESS) { /* a dup keeps the topology */
        RD_LOCK();
        rd_comm_release(*newcomm);
        RD_UNLOCK();
        *newcomm = MPI_COMM_NULL;
        return comm_fail(comm, call, RD_ERR_NOMEM);
    }
    int rc = rd_attr_dup(comm, *newcomm);
    if (rc != MPI_SUCCESS) {
        rd_attr_delete_all(*newcomm);
        RD_LOCK();
        rd_comm_release(*newcomm);
        RD_UNLOCK();
        *newcomm = MPI_COMM_NULL;
        return rd_err_raise(comm, rc, call, "an attribute copy callback failed");
    }
    return MPI_SUCCESS;
}

/* its agreements' pairs are kept from nonblocking ones until it returns (comm.h) */
#pragma weak MPI_Comm_dup = PMPI_Comm_dup
int PMPI_Comm_dup(MPI_Comm comm, MPI_Comm *newcomm)
{
    rd_comm_creating(1);
    int rc = comm_dup(comm, newcomm);
    rd_comm_creating(0);
    return rc;
}

struct rd_split_entry {
    int color, key, rank;
};

static int split_order(const void *a, const void *b)
{
    const struct rd_split_entry *x = a, *y = b;
    if (x->key != y->key)
        return x->key < y->key ? -1 : 1;
    return x->rank < y->rank ? -1 : x->rank > y->rank;
}

static int comm_split(MPI_Comm comm, int color, int key, MPI_Comm *newcomm)
{
    const char *call = "MPI_Comm_split";
    uint32_t ctx;
    RD_API_READY(call);
    RD_TRY(rd_check_comm(call, comm));
    if (!newcomm)
        return rd_err_raise(comm, MPI_ERR_ARG, call, "newcomm is NULL");
    if (color < 0 && color != MPI_UNDEFINED)
        return rd_err_raise(comm, MPI_ERR_ARG, call, "color %d is negative and not MPI_UNDEFINED", color);
    if (comm->is_inter)
        return rd_inter_split(comm, call, color, key, newcomm);
    struct rd_split_entry me = {color, key, comm->rank};
    struct rd_split_entry *all = malloc(sizeof(*all) * (size_t)comm->size);
    if (!all)
        return comm_fail(comm, call, RD_ERR_NOMEM);
    rd_status st = rd_comm_allgather(comm, &me, sizeof(me), all);
    if (st == RD_OK)
        st = rd_comm_agree_ctx(comm, &ctx);
    if (st != RD_OK) {
        free(all);
        return comm_fail(comm, call, st);
    }
    *newcomm = MPI_COMM_NULL;
    if (color == MPI_UNDEFINED) {
        free(all);
        return MPI_SUCCESS;
    }
    int n = 0;
    for (int i = 0; i < comm->size; i++)
        if (all[i].color == color)
            all[n++] = all[i];
    qsort(all, (size_t)n, sizeof(*all), split_order);
    int *ranks = malloc(sizeof(int) * (size_t)n), myrank = -1;
    if (!ranks) {
        free(all);
        return comm_fail(comm, call, RD_ERR_NOMEM);
    }
    for (int i = 0; i < n; i++) {
        ranks[i] = rd_comm_world_rank(comm, all[i].rank);
        if (all[i].rank == comm->rank)
            myrank = i;
    }
    free(all);
    return make_comm(comm, call, myrank, n, ranks, ctx, newcomm);
}

/* its agreements' pairs are kept from nonblocking ones until it returns (comm.h) */
#pragma weak MPI_Comm_split = PMPI_Comm_split
int PMPI_Comm_split(MPI_Comm comm, int color, int key, MPI_Comm *newcomm)
{
    rd_comm_creating(1);
    int rc = comm_split(comm, color, key, newcomm);
    rd_comm_creating(0);
    return rc;
}

static int comm_create(MPI_Comm comm, MPI_Group group, MPI_Comm *newcomm)
{
    const char *call = "MPI_Comm_create";
    uint32_t ctx;
    RD_API_READY(call);
    RD_TRY(rd_check_comm(call, comm));
    if (!rd_group_valid(group))
        return rd_err_raise(comm, MPI_ERR_GROUP, call, "invalid group");
    if (!newcomm)
        return rd_err_raise(comm, MPI_ERR_ARG, call, "newcomm is NULL");
    /* the group must be a subset of comm's */
    for (int i = 0; i < group->size; i++) {
        int w = rd_group_world(group, i), in = 0;
        for (int r = 0; r < comm->size && !in; r++)
            in = rd_comm_world_rank(comm, r) == w;
        if (!in)
            return rd_err_raise(comm, MPI_ERR_GROUP, call,
                                "rank %d of the group (world rank %d) is not in the %s", i, w,
                                comm->is_inter ? "local group of the intercommunicator" : "communicator");
    }
    int me = rd_group_find(group, rd_comm_world_rank(comm, comm->rank));
    if (comm->is_inter) /* each group names its part; the group's order is the new order */
        return rd_inter_split(comm, call, me < 0 ? MPI_UNDEFINED : 0, me, newcomm);
    rd_status st = rd_comm_agree_ctx(comm, &ctx);
    if (st != RD_OK)
        return comm_fail(comm, call, st);
    *newcomm = MPI_COMM_NULL;
    if (me < 0)
        return MPI_SUCCESS;
    int *ranks = malloc(sizeof(int) * (size_t)group->size);
    if (!ranks)
        return comm_fail(comm, call, RD_ERR_NOMEM);
    for (int i = 0; i < group->size; i++)
        ranks[i] = rd_group_world(group, i);
    return make_comm(comm, call, me, group->size, ranks, ctx, newcomm);
}

/* its agreements' pairs are kept from nonblocking ones until it returns (comm.h) */
#pragma weak MPI_Comm_create = PMPI_Comm_create
int PMPI_Comm_create(MPI_Comm comm, MPI_Group group, MPI_Comm *newcomm)
{
    rd_comm_creating(1);
    int rc = comm_create(comm, group, newcomm);
    rd_comm_creating(0);
    return rc;
}

#pragma weak MPI_Comm_free = PMPI_Comm_free
int PMPI_Comm_free(MPI_Comm *comm)
{
    RD_API_READY("MPI_Comm_free");
    if (!comm)
        return rd_err_raise(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Comm_free", "comm is NULL");
    RD_TRY(rd_check_comm("MPI_Comm_free", *comm));
    if ((*comm)->predefined)
        return rd_err_raise(*comm, MPI_ERR_COMM, "MPI_Comm_free", "%s cannot be freed", (*comm)->name);
    int rc = rd_attr_delete_all(*comm);
    if (rc != MPI_SUCCESS)
        return rd_err_raise(*comm, rc, "MPI_Comm_free", "an attribute delete callback failed");
    RD_LOCK();
    rd_comm_release(*comm); /* pending operations keep it until they end */
    RD_UNLOCK();
    *comm = MPI_COMM_NULL;
    return MPI_SUCCESS;
}

static int cmp_int(const void *x, const void *y)
{
    int a = *(const int *)x, b = *(const int *)y;
    return a < b ? -1 : a > b;
}

/* Two lists of world ranks: MPI_IDENT (same order), MPI_SIMILAR (same
 * members) or MPI_UNEQUAL. */
static int compare_lists(int n, const int *a, const int *b)
{
    if (memcmp(a, b, sizeof(int) * (size_t)n) == 0)
        return MPI_IDENT;
    int *x = malloc(sizeof(int) * (size_t)n), *y = malloc(sizeof(int) * (size_t)n), r = MPI_UNEQUAL;
    if (x && y) {
        memcpy(x, a, sizeof(int) * (size_t)n);
        memcpy(y, b, sizeof(int) * (size_t)n);
        qsort(x, (size_t)n, sizeof(int), cmp_int);
        qsort(y, (size_t)n, sizeof(int), cmp_int);
        r = memcmp(x, y, sizeof(int) * (size_t)n) == 0 ? MPI_SIMILAR : MPI_UNEQUAL;
    }
    free(x);
    free(y);
    return r;
}

/* MPI_Comm_compare when either is an intercommunicator (MPI-3.1 6.6.1):
 * CONGRUENT when both local and both remote groups are identical,
 * SIMILAR when both are similar, else UNEQUAL. */
static int compare_inter(MPI_Comm a, MPI_Comm b)
{
    if (!a->is_inter || !b->is_inter || a->size != b->size || a->remote_size != b->remote_size)
        return MPI_UNEQUAL;
    int n = a->size > a->remote_size ? a->size : a->remote_size;
    int *x = malloc(sizeof(int) * (size_t)n), *y = malloc(sizeof(int) * (size_t)n);
    int r = MPI_UNEQUAL;
    if (x && y) {
        for (int i = 0; i < a->size; i++) {
            x[i] = rd_comm_world_rank(a, i);
            y[i] = rd_comm_world_rank(b, i);
        }
        int rl = compare_lists(a->size, x, y);
        for (int i = 0; i < a->remote_size; i++) {
            x[i] = rd_comm_peer_world(a, i);
            y[i] = rd_comm_peer_world(b, i);
        }
        int rr = compare_lists(a->remote_size, x, y);
        r = rl == MPI_IDENT && rr == MPI_IDENT ? MPI_CONGRUENT
            : rl != MPI_UNEQUAL && rr != MPI_UNEQUAL ? MPI_SIMILAR : MPI_UNEQUAL;
    }
    free(x);
    free(y);
    return r;
}

#pragma weak MPI_Comm_compare = PMPI_Comm_compare
int PMPI_Comm_compare(MPI_Comm a, MPI_Comm b, int *result)
{
    RD_API_READY("MPI_Comm_compare");
    RD_TRY(rd_check_comm("MPI_Comm_compare", a));
    RD_TRY(rd_check_comm("MPI_Comm_compare", b));
    if (!result)
        return rd_err_raise(a, MPI_ERR_ARG, "MPI_Comm_compare", "result is NULL");
    if (a == b) {
        *result = MPI_IDENT;
        return MPI_SUCCESS;
    }
    if (a->is_inter || b->is_inter) {
        *result = compare_inter(a, b);
        return MPI_SUCCESS;
    }
    if (a->size != b->size) {
        *result = MPI_UNEQUAL;
        return MPI_SUCCESS;
    }
    int same_order = 1;
    for (int i = 0; i < a->size && same_order; i++)
        same_order = rd_comm_world_rank(a, i) == rd_comm_world_rank(b, i);
    if (same_order) {
        *result = MPI_CONGRUENT;
        return MPI_SUCCESS;
    }
    /* the same members in another order? */
    MPI_Group ga, gb;
    int r = MPI_UNEQUAL;
    if (PMPI_Comm_group(a, &ga) == MPI_SUCCESS) {
        if (PMPI_Comm_group(b, &gb) == MPI_SUCCESS) {
            PMPI_Group_compare(ga, gb, &r);
            PMPI_Group_free(&gb);
        }
        PMPI_Group_free(&ga);
    }
    *result = r == MPI_IDENT ? MPI_CONGRUENT : r;
    return MPI_SUCCESS;
}

#pragma weak MPI_Comm_set_name = PMPI_Comm_set_name
int PMPI_Comm_set_name(MPI_Comm comm, const char *name)
{
    RD_API_READY("MPI_Comm_set_name");
    RD_TRY(rd_check_comm("MPI_Comm_set_name", comm));
    if (!name)
        return rd_err_raise(comm, MPI_ERR_ARG, "MPI_Comm_set_name", "name is NULL");
    snprintf(comm->name, sizeof(comm->name), "%s", name); /* longer names are cut, as allowed */
    return MPI_SUCCESS;
}

#pragma weak MPI_Comm_get_name = PMPI_Comm_get_name
int PMPI_Comm_get_name(MPI_Comm comm, char *name, int *resultlen)
{
    RD_API_READY("MPI_Comm_get_name");
    RD_TRY(rd_check_comm("MPI_Comm_get_name", comm));
    if (!name || !resultlen)
        return rd_err_raise(comm, MPI_ERR_ARG, "MPI_Comm_get_name", "%s is NULL", name ? "resultlen" : "name");
    *resultlen = snprintf(name, MPI_MAX_OBJECT_NAME, "%s", comm->name);
    return MPI_SUCCESS;
}

#include "runtime/base/job.h"
#include "runtime/objects/info.h"

static int info_true(MPI_Info info, const char *key)
{
    int i = info != MPI_INFO_NULL ? rd_info_find(info, key) : -1;
    return i >= 0 && strcasecmp(info->ent[i].value, "true") == 0;
}

/* A communicator with wildcard hints freed: its context back to one queue. */
static void hints_freed(MPI_Comm c)
{
    if (c->no_any_source || c->no_any_tag)
        rd_p2p_ctx_plain(c->ctx);
}

#pragma weak MPI_Comm_dup_with_info = PMPI_Comm_dup_with_info
int PMPI_Comm_dup_with_info(MPI_Comm comm, MPI_Info info, MPI_Comm *newcomm)
{
    RD_API_READY("MPI_Comm_dup_with_info");
    RD_TRY(rd_check_comm("MPI_Comm_dup_with_info", comm));
    /* MPI_INFO_NULL: no hints (MPI-4.1; Open MPI and MPICH accept it) */
    if (info != MPI_INFO_NULL && !rd_info_valid(info))
        return rd_err_raise(comm, MPI_ERR_INFO, "MPI_Comm_dup_with_info", "invalid info");
    RD_TRY(PMPI_Comm_dup(comm, newcomm));
    /* the hints that rule out wildcards: its matching in lanes (p2p.h);
     * the others are accepted and not used */
    int no_src = info_true(info, "mpi_assert_no_any_source"), no_tag = info_true(info, "mpi_assert_no_any_tag");
    if (no_src || no_tag) {
        static int hooked;
        RD_LOCK();
        if (!hooked) {
            rd_comm_on_free(hints_freed);
            hooked = 1;
        }
        rd_status st = rd_p2p_ctx_hints((*newcomm)->ctx, no_src, no_tag);
        if (st == RD_OK) {
            (*newcomm)->no_any_source = (uint8_t)no_src;
            (*newcomm)->no_any_tag = (uint8_t)no_tag;
        }
        RD_UNLOCK();
        if (st != RD_OK) {
            PMPI_Comm_free(newcomm);
            return comm_fail(comm, "MPI_Comm_dup_with_info", st);
        }
    }
    return MPI_SUCCESS;
}

#pragma weak MPI_Comm_test_inter = PMPI_Comm_test_inter
int PMPI_Comm_test_inter(MPI_Comm comm, int *flag)
{
    RD_API_READY("MPI_Comm_test_inter");
    RD_TRY(rd_check_comm("MPI_Comm_test_inter", comm));
    if (!flag)
        return rd_err_raise(comm, MPI_ERR_ARG, "MPI_Comm_test_inter", "flag is NULL");
    *flag = comm->is_inter;
    return MPI_SUCCESS;
}

#pragma weak MPI_Comm_set_info = PMPI_Comm_set_info
int PMPI_Comm_set_info(MPI_Comm comm, MPI_Info info)
{
    RD_API_READY("MPI_Comm_set_info");
    RD_TRY(rd_check_comm("MPI_Comm_set_info", comm));
    if (!rd_info_valid(info))
        return rd_err_raise(comm, MPI_ERR_INFO, "MPI_Comm_set_info", "invalid info");
    return MPI_SUCCESS; /* hints may be ignored; none is used yet */
}

#pragma weak MPI_Comm_get_info = PMPI_Comm_get_info
int PMPI_Comm_get_info(MPI_Comm comm, MPI_Info *info_used)
{
    RD_API_READY("MPI_Comm_get_info");
    RD_TRY(rd_check_comm("MPI_Comm_get_info", comm));
    if (!info_used)
        return rd_err_raise(comm, MPI_ERR_ARG, "MPI_Comm_get_info", "info_used is NULL");
    /* the hints in use: those that rule out wildcards (MPI_Comm_dup_with_info);
     * and what MPI_Comm_split_type made it of (runtime/api/splittype.c) */
    RD_TRY(PMPI_Info_create(info_used));
    if (comm->no_any_source)
        PMPI_Info_set(*info_used, "mpi_assert_no_any_source", "true");
    if (comm->no_any_tag)
        PMPI_Info_set(*info_used, "mpi_assert_no_any_tag", "true");
    if (comm->split_key)
        PMPI_Info_set(*info_used, comm->split_key, comm->split_value);
    return MPI_SUCCESS;
}

static int comm_create_group(MPI_Comm comm, MPI_Group group, int tag, MPI_Comm *newcomm)
{
    const char *call = "MPI_Comm_create_group";
    uint32_t ctx;
    RD_API_READY(call);
    RD_TRY(rd_check_intra(call, comm));
    if (!rd_group_valid(group))
        return rd_err_raise(comm, MPI_ERR_GROUP, call, "invalid group");
    if (!newcomm)
        return rd_err_raise(comm, MPI_ERR_ARG, call, "newcomm is NULL");
    if (tag < 0 || tag > RDMPI_TAG_UB - RD_TAG_CREATE_GROUP_BASE)
        return rd_err_raise(comm, MPI_ERR_TAG, call, "tag %d is not in [0, MPI_TAG_UB]", tag);
    int me = rd_group_find(group, rd_comm_world_rank(comm, comm->rank));
    if (me < 0)
        return rd_err_raise(comm, MPI_ERR_GROUP, call, "the calling rank is not in the group");
    /* collective over the group's members only: their ranks in comm */
    int n = group->size;
    int *members = malloc(sizeof(int) * (size_t)n), *ranks = malloc(sizeof(int) * (size_t)n);
    if (!members || !ranks) {
        free(members);
        free(ranks);
        return comm_fail(comm, call, RD_ERR_NOMEM);
    }
    for (int i = 0; i < n; i++) {
        int w = rd_group_world(group, i), r = -1;
        for (int k = 0; k < comm->size && r < 0; k++)
            if (rd_comm_world_rank(comm, k) == w)
                r = k;
        if (r < 0) {
            free(members);
            free(ranks);
            return rd_err_raise(comm, MPI_ERR_GROUP, call,
                                "rank %d of the group (world rank %d) is not in the communicator", i, w);
        }
        members[i] = r;
        ranks[i] = w;
    }
    rd_status st = rd_comm_agree_ctx_among(comm, members, n, me, RD_TAG_CREATE_GROUP_BASE + tag, &ctx);
    free(members);
    if (st != RD_OK) {
        free(ranks);
        return comm_fail(comm, call, st);
    }
    return make_comm(comm, call, me, n, ranks, ctx, newcomm);
}

/* ------------------------------------------------------------ communicators from groups (MPI 4.0) */

int rd_comm_from_group_tag(const char *stringtag)
{
    uint32_t h = 2166136261u; /* FNV-1a */
    for (const unsigned char *p = (const unsigned char *)stringtag; *p; p++)
        h = (h ^ *p) * 16777619u;
    return RD_TAG_FROM_GROUP_BASE + 64 * (int)(h % (RD_TAG_FROM_GROUP_SPAN / 64));
}

/* The new communicator's handler (MPI_ERRHANDLER_NULL: MPI_ERRORS_ARE_FATAL):
 * a predefined one or one made for communicators. */
static int comm_errh(const char *call, MPI_Errhandler errhandler, MPI_Errhandler *errh)
{
    *errh = errhandler == MPI_ERRHANDLER_NULL ? MPI_ERRORS_ARE_FATAL : errhandler;
    if (!rd_errh_valid(*errh) || !((*errh)->predefined || (*errh)->fn))
        return rd_err_raise_errh(MPI_ERRORS_ARE_FATAL, MPI_ERR_ERRHANDLER, call,
                                 "the error handler is not a communicator's (predefined, or from "
                                 "MPI_Comm_create_errhandler)");
    return MPI_SUCCESS;
}

/* The arguments both calls share; errors through errh (no communicator
 * holds a handler yet). */
static int check_from_group(const char *call, MPI_Group group, const char *stringtag, MPI_Info info,
                            MPI_Errhandler errh, MPI_Comm *newcomm)
{
    if (!rd_group_valid(group))
        return rd_err_raise_errh(errh, MPI_ERR_GROUP, call, "invalid group");
    if (!stringtag)
        return rd_err_raise_errh(errh, MPI_ERR_ARG, call, "stringtag is NULL");
    if (strlen(stringtag) >= MPI_MAX_STRINGTAG_LEN)
        return rd_err_raise_errh(errh, MPI_ERR_ARG, call, "stringtag is %zu characters, more than MPI_MAX_STRINGTAG_LEN - 1",
                                 strlen(stringtag));
    if (info != MPI_INFO_NULL && !rd_info_valid(info))
        return rd_err_raise_errh(errh, MPI_ERR_INFO, call, "invalid info");
    if (!newcomm)
        return rd_err_raise_errh(errh, MPI_ERR_ARG, call, "the communicator pointer is NULL");
    if (rd_group_find(group, rd_job.rank) < 0)
        return rd_err_raise_errh(errh, MPI_ERR_GROUP, call, "the calling process is not in the group");
    return MPI_SUCCESS;
}

/* The group's members agree (by tag, on MPI_COMM_WORLD's library context)
 * on a context pair for their new communicator, whose handler is errh. */
static int from_group(const char *call, MPI_Group group, int tag, MPI_Errhandler errh, MPI_Comm *newcomm)
{
    MPI_Comm world = MPI_COMM_WORLD;
    int n = group->size, me = rd_group_find(group, rd_job.rank);
    int *members = malloc(sizeof(int) * (size_t)n), *ranks = malloc(sizeof(int) * (size_t)n);
    uint32_t ctx;
    rd_status st = members && ranks ? RD_OK : RD_ERR_NOMEM;
    for (int i = 0; st == RD_OK && i < n; i++)
        members[i] = ranks[i] = rd_group_world(group, i); /* (world ranks are MPI_COMM_WORLD's) */
    if (st == RD_OK)
        st = rd_comm_agree_ctx_among(world, members, n, me, tag, &ctx);
    free(members);
    if (st == RD_OK)
        st = rd_comm_new(me, n, ranks, ctx, newcomm);
    if (st != RD_OK) {
        free(ranks);
        return rd_err_raise_errh(errh, rd_status_to_mpi(st), call, "%s", rd_status_string(st));
    }
    MPI_Errhandler old = (*newcomm)->errh;
    rd_errh_retain(errh);
    (*newcomm)->errh = errh;
    rd_errh_release(old);
    (*newcomm)->session = group->session; /* (its buffered sends may use the session's buffer) */
    rd_session_retain(group->session);
    return MPI_SUCCESS;
}

#pragma weak MPI_Comm_create_from_group = PMPI_Comm_create_from_group
int PMPI_Comm_create_from_group(MPI_Group group, const char *stringtag, MPI_Info info, MPI_Errhandler errhandler,
                                MPI_Comm *newcomm)
{
    const char *call = "MPI_Comm_create_from_group";
    RD_API_READY(call);
    MPI_Errhandler errh;
    RD_TRY(comm_errh(call, errhandler, &errh));
    RD_TRY(check_from_group(call, group, stringtag, info, errh, newcomm));
    rd_comm_creating(1);
    int rc = from_group(call, group, rd_comm_from_group_tag(stringtag), errh, newcomm);
    rd_comm_creating(0);
    return rc;
}

#pragma weak MPI_Intercomm_create_from_groups = PMPI_Intercomm_create_from_groups
int PMPI_Intercomm_create_from_groups(MPI_Group local_group, int local_leader, MPI_Group remote_group,
                                      int remote_leader, const char *stringtag, MPI_Info info,
                                      MPI_Errhandler errhandler, MPI_Comm *newintercomm)
{
    const char *call = "MPI_Intercomm_create_from_groups";
    RD_API_READY(call);
    MPI_Errhandler errh;
    RD_TRY(comm_errh(call, errhandler, &errh));
    RD_TRY(check_from_group(call, local_group, stringtag, info, errh, newintercomm));
    if (!rd_group_valid(remote_group))
        return rd_err_raise_errh(errh, MPI_ERR_GROUP, call, "invalid remote group");
    if (local_leader < 0 || local_leader >= local_group->size)
        return rd_err_raise_errh(errh, MPI_ERR_RANK, call, "local_leader %d is not in [0, %d)", local_leader,
                                 local_group->size);
    if (remote_leader < 0 || remote_leader >= remote_group->size)
        return rd_err_raise_errh(errh, MPI_ERR_RANK, call, "remote_leader %d is not in [0, %d)", remote_leader,
                                 remote_group->size);
    int tag = rd_comm_from_group_tag(stringtag);
    MPI_Comm local;
    rd_comm_creating(1);
    int rc = from_group(call, local_group, tag, errh, &local);
    if (rc == MPI_SUCCESS) {
        rc = rd_inter_create_tagged(local, local_leader, MPI_COMM_WORLD, rd_group_world(remote_group, remote_leader),
                                    tag + 32, newintercomm);
        PMPI_Comm_free(&local);
    }
    rd_comm_creating(0);
    return rc;
}

/* its agreements' pairs are kept from nonblocking ones until it returns (comm.h) */
#pragma weak MPI_Comm_create_group = PMPI_Comm_create_group
int PMPI_Comm_create_group(MPI_Comm comm, MPI_Group group, int tag, MPI_Comm *newcomm)
{
    rd_comm_creating(1);
    int rc = comm_create_group(comm, group, tag, newcomm);
    rd_comm_creating(0);
    return rc;
}

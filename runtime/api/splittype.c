/* MPI_Comm_split_type (MPI 4.1, 7.4.2): the ranks of one node
 * (MPI_COMM_TYPE_SHARED), of one hardware object (MPI_COMM_TYPE_HW_GUIDED,
 * and MPI_COMM_TYPE_RESOURCE_GUIDED with "mpi_hw_resource_type"), of one
 * process set (MPI_COMM_TYPE_RESOURCE_GUIDED with "mpi_pset_name"), or of
 * one object of the largest hardware level that splits the group
 * (MPI_COMM_TYPE_HW_UNGUIDED).
 *
 * The node of a rank is rd_job_node_of's (PMIx's node id, or
 * RDMPI_COLL_FAKE_NODES's world rank mod k), as for the collectives'
 * hierarchy and MPI_Win_allocate_shared; a hardware object is the one of
 * its kind whose processors hold every processor the rank may run on
 * (runtime/base/hwtopo.h: hwloc, loaded at the first such split only), on
 * that node. A rank not within exactly one object of the kind gets
 * MPI_COMM_NULL, and so does every rank for a value not recognised, a
 * missing key or MPI_INFO_NULL (as the standard says).
 *
 * On an intracommunicator every rank, whatever its split_type (or
 * MPI_UNDEFINED), makes one allgather of what it asks and where it is,
 * so that all of them decide the same: the errors that the standard
 * calls erroneous (split types or resource values that differ among the
 * ranks, both keys of MPI_COMM_TYPE_RESOURCE_GUIDED) are raised by every
 * rank with the same class, and MPI_COMM_TYPE_HW_UNGUIDED's level is
 * chosen from every rank's objects. Then one context agreement, as for
 * MPI_Comm_split. An intercommunicator is split by colour
 * (rd_inter_split) without those checks; MPI_COMM_TYPE_HW_UNGUIDED gives
 * MPI_COMM_NULL there (a strict subset of which group?). */
#include <mpi.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "collectives/agree.h"
#include "runtime/api/check.h"
#include "runtime/api/intercomm.h"
#include "runtime/base/hwtopo.h"
#include "runtime/base/job.h"
#include "runtime/base/state.h"
#include "runtime/objects/comm.h"
#include "runtime/objects/errhandler.h"
#include "runtime/objects/info.h"

#define HW_KEY "mpi_hw_resource_type"
#define PSET_KEY "mpi_pset_name"

/* What a guided split groups by. */
enum what {
    W_NONE,    /* nothing recognised: MPI_COMM_NULL */
    W_NODE,    /* the node: MPI_COMM_TYPE_SHARED */
    W_CLUSTER, /* every rank (Open MPI's "cluster") */
    W_HW,      /* one hardware object of a kind */
    W_WORLD,   /* the process set mpi://WORLD */
    W_SELF,    /* mpi://SELF: each rank alone */
};

/* The values of "mpi_hw_resource_type", compared without regard to case
 * and with or without the "hwloc://" of MPI 5.0's URIs: hwloc's type
 * names, Open MPI's (socket, numanode, hwthread, host, board, cluster)
 * and MPICH's (node, machine, numa, l1dcache ...). */
static const struct {
    const char *name;
    enum what what;
    enum rd_hw_kind kind;
} hw_values[] = {
    {"mpi_shared_memory", W_NODE, 0},
    {"node", W_NODE, 0},
    {"machine", W_NODE, 0},
    {"host", W_NODE, 0},
    {"board", W_NODE, 0},
    {"cluster", W_CLUSTER, 0},
    {"package", W_HW, RD_HW_PACKAGE},
    {"socket", W_HW, RD_HW_PACKAGE},
    {"die", W_HW, RD_HW_DIE},
    {"numanode", W_HW, RD_HW_NUMA},
    {"numa", W_HW, RD_HW_NUMA},
    {"l3cache", W_HW, RD_HW_L3},
    {"l3dcache", W_HW, RD_HW_L3},
    {"l3ucache", W_HW, RD_HW_L3},
    {"l2cache", W_HW, RD_HW_L2},
    {"l2dcache", W_HW, RD_HW_L2},
    {"l2ucache", W_HW, RD_HW_L2},
    {"l1cache", W_HW, RD_HW_L1},
    {"l1dcache", W_HW, RD_HW_L1},
    {"l1ucache", W_HW, RD_HW_L1},
    {"core", W_HW, RD_HW_CORE},
    {"pu", W_HW, RD_HW_PU},
    {"hwthread", W_HW, RD_HW_PU},
};

/* The levels of MPI_COMM_TYPE_HW_UNGUIDED: the node, then the kinds of
 * hardware objects from the largest. */
#define NLEVELS (1 + RD_HW_NKINDS)

/* What each rank tells the others. */
struct entry {
    int32_t type;   /* its split_type (MPI_UNDEFINED: it takes no part) */
    int32_t key;
    int32_t err;    /* an error class its own arguments gave (0: none) */
    int32_t node;   /* its node */
    uint64_t value; /* a hash of the resource value asked for (0: none) */
    int32_t gnode, gobj; /* guided: its instance (gnode < 0: none) */
    int32_t level[RD_HW_NKINDS]; /* unguided: its object of each kind (-1: none) */
};

static uint64_t fnv(uint64_t h, const char *s)
{
    for (const unsigned char *p = (const unsigned char *)s; *p; p++)
        h = (h ^ (unsigned char)(*p >= 'A' && *p <= 'Z' ? *p - 'A' + 'a' : *p)) * 1099511628211ull;
    return h;
}

/* A value without its "hwloc://" */
static const char *bare(const char *v)
{
    return strncasecmp(v, "hwloc://", 8) == 0 ? v + 8 : v;
}

static int my_node(void)
{
    int n = rd_job_node_of(rd_job.rank);
    return n >= 0 ? n : rd_job.node_id;
}

/* Where this rank stands for a guided split on `value` of key `is_pset`. */
static void guided(struct entry *e, const char *value, int is_pset)
{
    enum what what = W_NONE;
    enum rd_hw_kind kind = 0;
    e->value = fnv(is_pset ? 0x5053455400000000ull : 1469598103934665603ull, bare(value));
    if (is_pset) {
        if (strcasecmp(value, "mpi://WORLD") == 0)
            what = W_WORLD;
        else if (strcasecmp(value, "mpi://SELF") == 0)
            what = W_SELF;
    } else {
        for (size_t i = 0; i < sizeof hw_values / sizeof hw_values[0]; i++)
            if (strcasecmp(bare(value), hw_values[i].name) == 0) {
                what = hw_values[i].what;
                kind = hw_values[i].kind;
                break;
            }
    }
    switch (what) {
    case W_NONE:
        break;
    case W_NODE:
        e->gnode = e->node;
        e->gobj = 0;
        break;
    case W_CLUSTER:
    case W_WORLD:
        e->gnode = e->gobj = 0;
        break;
    case W_SELF:
        e->gnode = rd_job.rank;
        e->gobj = 0;
        break;
    case W_HW: {
        int idx[RD_HW_NKINDS];
        (void)rd_hwtopo_indices(idx); /* (failed: all -1, MPI_COMM_NULL) */
        if (idx[kind] >= 0) {
            e->gnode = e->node;
            e->gobj = idx[kind];
        }
        break;
    }
    }
}

/* The instance of entry e at unguided level l (gnode < 0: none). */
static void at_level(const struct entry *e, int l, int32_t *gnode, int32_t *gobj)
{
    *gnode = e->node;
    *gobj = 0;
    if (l > 0 && (*gobj = e->level[l - 1]) < 0)
        *gnode = -1;
}

/* The first unguided level at which the ranks that take part split into
 * strict subsets of them: some rank is within one object of that level,
 * and no object holds them all. -1: none. */
static int unguided_level(const struct entry *all, int n)
{
    int first = -1, takers = 0;
    for (int r = 0; r < n; r++)
        if (all[r].type != MPI_UNDEFINED) {
            takers++;
            if (first < 0)
                first = r;
        }
    if (takers < 2) /* a group of one has no strict subset but the empty one */
        return -1;
    for (int l = 0; l < NLEVELS; l++) {
        int any = 0, whole = 1;
        int32_t n0, o0;
        at_level(&all[first], l, &n0, &o0);
        for (int r = 0; r < n; r++) {
            if (all[r].type == MPI_UNDEFINED)
                continue;
            int32_t gn, go;
            at_level(&all[r], l, &gn, &go);
            any |= gn >= 0;
            whole &= gn >= 0 && gn == n0 && go == o0;
        }
        if (any && !whole)
            return l;
    }
    return -1;
}

struct member {
    int key, rank;
};

static int member_order(const void *a, const void *b)
{
    const struct member *x = a, *y = b;
    if (x->key != y->key)
        return x->key < y->key ? -1 : 1;
    return x->rank < y->rank ? -1 : x->rank > y->rank;
}

static int fail(MPI_Comm comm, const char *call, rd_status st)
{
    return rd_err_raise(comm, rd_status_to_mpi(st), call, "%s", rd_status_string(st));
}

/* Tell newcomm what it is (MPI_Comm_get_info). */
static int label(MPI_Comm comm, const char *call, MPI_Comm *newcomm, const char *key, const char *value)
{
    if (*newcomm == MPI_COMM_NULL || !key)
        return MPI_SUCCESS;
    if (!((*newcomm)->split_value = strdup(value))) {
        RD_LOCK();
        rd_comm_release(*newcomm);
        RD_UNLOCK();
        *newcomm = MPI_COMM_NULL;
        return fail(comm, call, RD_ERR_NOMEM);
    }
    (*newcomm)->split_key = key;
    return MPI_SUCCESS;
}

/* An intercommunicator: each group by colour, the colour the instance. */
static int split_inter(MPI_Comm comm, const char *call, const struct entry *me, int key, MPI_Comm *newcomm,
                       const char *lkey, const char *lvalue)
{
    int color = MPI_UNDEFINED;
    if (me->type != MPI_UNDEFINED && me->type != MPI_COMM_TYPE_HW_UNGUIDED && me->gnode >= 0 &&
        me->gnode < 32768 && me->gobj >= 0 && me->gobj < 65536)
        color = me->gnode * 65536 + me->gobj;
    RD_TRY(rd_inter_split(comm, call, color, key, newcomm));
    return label(comm, call, newcomm, lkey, lvalue);
}

static int split_type(MPI_Comm comm, int split_type, int key, MPI_Info info, MPI_Comm *newcomm)
{
    const char *call = "MPI_Comm_split_type";
    RD_API_READY(call);
    RD_TRY(rd_check_comm(call, comm));
    if (!newcomm)
        return rd_err_raise(comm, MPI_ERR_ARG, call, "newcomm is NULL");
    if (info != MPI_INFO_NULL && !rd_info_valid(info))
        return rd_err_raise(comm, MPI_ERR_INFO, call, "invalid info");
    if (split_type != MPI_UNDEFINED && split_type != MPI_COMM_TYPE_SHARED &&
        split_type != MPI_COMM_TYPE_HW_GUIDED && split_type != MPI_COMM_TYPE_HW_UNGUIDED &&
        split_type != MPI_COMM_TYPE_RESOURCE_GUIDED)
        return rd_err_raise(comm, MPI_ERR_ARG, call,
                            "split_type %d is none of MPI_UNDEFINED, MPI_COMM_TYPE_SHARED, "
                            "MPI_COMM_TYPE_HW_GUIDED, MPI_COMM_TYPE_HW_UNGUIDED, MPI_COMM_TYPE_RESOURCE_GUIDED",
                            split_type);
    *newcomm = MPI_COMM_NULL;

    struct entry me;
    memset(&me, 0, sizeof me);
    me.type = split_type;
    me.key = key;
    me.node = my_node();
    me.gnode = -1;
    for (int k = 0; k < RD_HW_NKINDS; k++)
        me.level[k] = -1;
    /* the key the new communicator's info gets, and its value */
    const char *lkey = NULL, *lvalue = NULL;
    if (split_type == MPI_COMM_TYPE_SHARED) {
        me.gnode = me.node;
    } else if (split_type == MPI_COMM_TYPE_HW_GUIDED || split_type == MPI_COMM_TYPE_RESOURCE_GUIDED) {
        int h = info != MPI_INFO_NULL ? rd_info_find(info, HW_KEY) : -1;
        int p = info != MPI_INFO_NULL && split_type == MPI_COMM_TYPE_RESOURCE_GUIDED ? rd_info_find(info, PSET_KEY)
                                                                                     : -1;
        if (h >= 0 && p >= 0) {
            me.err = MPI_ERR_INFO;
        } else if (h >= 0 || p >= 0) {
            lkey = h >= 0 ? HW_KEY : PSET_KEY;
            lvalue = info->ent[h >= 0 ? h : p].value;
            guided(&me, lvalue, p >= 0);
        } /* (no key, or MPI_INFO_NULL: MPI_COMM_NULL) */
    } else if (split_type == MPI_COMM_TYPE_HW_UNGUIDED) {
        (void)rd_hwtopo_indices(me.level); /* (failed: the node level only) */
    }
    if (comm->is_inter) {
        if (me.err)
            return rd_err_raise(comm, me.err, call, "the info has both \"" HW_KEY "\" and \"" PSET_KEY
                                                    "\" (MPI 4.1: using more than one is erroneous)");
        return split_inter(comm, call, &me, key, newcomm, lkey, lvalue);
    }

    int n = comm->size;
    struct entry *all = malloc(sizeof(*all) * (size_t)n);
    struct member *mem = malloc(sizeof(*mem) * (size_t)n);
    if (!all || !mem) {
        free(all);
        free(mem);
        return fail(comm, call, RD_ERR_NOMEM);
    }
    rd_status st = rd_comm_allgather(comm, &me, sizeof me, all);
    if (st != RD_OK) {
        free(all);
        free(mem);
        return fail(comm, call, st);
    }
    /* what is erroneous, seen alike by every rank */
    int first = -1, rc = MPI_SUCCESS;
    for (int r = 0; r < n && rc == MPI_SUCCESS; r++) {
        const struct entry *e = &all[r];
        if (e->err) {
            rc = rd_err_raise(comm, e->err, call,
                              "rank %d's info has both \"" HW_KEY "\" and \"" PSET_KEY
                              "\" (MPI 4.1: using more than one is erroneous)",
                              r);
        } else if (e->type != MPI_UNDEFINED) {
            if (first < 0)
                first = r;
            else if (e->type != all[first].type)
                rc = rd_err_raise(comm, MPI_ERR_ARG, call,
                                  "ranks %d and %d passed different split types (%d and %d)", first, r,
                                  all[first].type, e->type);
            else if (e->value != all[first].value)
                rc = rd_err_raise(comm, MPI_ERR_ARG, call,
                                  "ranks %d and %d gave different resource values (the info key \"%s\"): "
                                  "every rank must give the same",
                                  first, r, split_type == MPI_COMM_TYPE_RESOURCE_GUIDED ? HW_KEY "\" or \"" PSET_KEY : HW_KEY);
        }
    }
    if (rc != MPI_SUCCESS) {
        free(all);
        free(mem);
        return rc;
    }
    /* each rank's instance: its own (guided), or at the chosen level */
    int level = -1;
    if (first >= 0 && all[first].type == MPI_COMM_TYPE_HW_UNGUIDED) {
        level = unguided_level(all, n);
        for (int r = 0; r < n; r++)
            if (level < 0)
                all[r].gnode = -1;
            else
                at_level(&all[r], level, &all[r].gnode, &all[r].gobj);
        lkey = HW_KEY;
        lvalue = level == 0 ? "mpi_shared_memory" : level > 0 ? rd_hwtopo_kind_name(level - 1) : NULL;
    }
    int any = 0;
    for (int r = 0; r < n; r++)
        any |= all[r].type != MPI_UNDEFINED && all[r].gnode >= 0;
    if (!any) { /* every rank gets MPI_COMM_NULL: no context to agree on */
        free(all);
        free(mem);
        return MPI_SUCCESS;
    }
    uint32_t ctx;
    st = rd_comm_agree_ctx(comm, &ctx);
    if (st != RD_OK) {
        free(all);
        free(mem);
        return fail(comm, call, st);
    }
    const struct entry *mine = &all[comm->rank];
    if (mine->type == MPI_UNDEFINED || mine->gnode < 0) {
        free(all);
        free(mem);
        return MPI_SUCCESS;
    }
    int m = 0;
    for (int r = 0; r < n; r++)
        if (all[r].type != MPI_UNDEFINED && all[r].gnode == mine->gnode && all[r].gobj == mine->gobj)
            mem[m++] = (struct member){all[r].key, r};
    qsort(mem, (size_t)m, sizeof *mem, member_order);
    int *ranks = malloc(sizeof(int) * (size_t)m), myrank = -1;
    if (!ranks) {
        free(all);
        free(mem);
        return fail(comm, call, RD_ERR_NOMEM);
    }
    for (int i = 0; i < m; i++) {
        ranks[i] = rd_comm_world_rank(comm, mem[i].rank);
        if (mem[i].rank == comm->rank)
            myrank = i;
    }
    free(all);
    free(mem);
    st = rd_comm_new(myrank, m, ranks, ctx, newcomm);
    if (st != RD_OK) {
        free(ranks);
        *newcomm = MPI_COMM_NULL;
        return fail(comm, call, st);
    }
    rd_comm_inherit(comm, *newcomm);
    RD_TRY(label(comm, call, newcomm, lkey, lvalue));
    /* MPI 4.1: for HW_UNGUIDED, the info argument also gets the level */
    if (level >= 0 && info != MPI_INFO_NULL && !info->predefined && rd_info_set(info, HW_KEY, lvalue) != 0) {
        RD_LOCK();
        rd_comm_release(*newcomm);
        RD_UNLOCK();
        *newcomm = MPI_COMM_NULL;
        return fail(comm, call, RD_ERR_NOMEM);
    }
    return MPI_SUCCESS;
}

/* its agreements' pairs are kept from nonblocking ones until it returns (comm.h) */
#pragma weak MPI_Comm_split_type = PMPI_Comm_split_type
int PMPI_Comm_split_type(MPI_Comm comm, int split_type_, int key, MPI_Info info, MPI_Comm *newcomm)
{
    rd_comm_creating(1);
    int rc = split_type(comm, split_type_, key, info, newcomm);
    rd_comm_creating(0);
    return rc;
}

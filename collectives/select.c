/* select.c - the algorithm menus, the selection table and the node paths.
 *
 * Selection is data, not code: a table of rows (collective, largest
 * communicator size, largest message, algorithm); the first row that
 * matches the call and whose algorithm can serve it wins. The node paths
 * (through the node's memory: shmcoll.c, shmdirect.c) are entries of the
 * same menus, after the algorithms, each with its usable() check; which of
 * them a communicator may take is decided once, when it claims its slot
 * of the node's memory (its node table), and each blocking call walks
 * that short list (algorithms.h: rd_coll_node_run). The defaults
 * come from bench/coll measurements on a 2-core node over shared memory
 * (see collectives/README.md). RDMPI_COLL_<NAME> forces an
 * algorithm; one that cannot serve a call (a commutative-only algorithm
 * with a non-commutative op) falls back to the table. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "collectives/algorithms.h"
#include "collectives/sched.h"
#include "collectives/shmcoll.h"
#include "runtime/base/log.h"
#include "runtime/base/params.h"
#include "runtime/objects/comm.h"
#include "runtime/objects/op.h"

#ifndef RD_COLL_NAMES_ONLY
static int commutative(int kind, const struct rd_coll_args *a)
{
    (void)kind;
    return a->op->commute;
}

static int spans_nodes(int kind, const struct rd_coll_args *a)
{
    (void)kind;
    return rd_coll_hier_useful(a);
}

static int commutative_spans_nodes(int kind, const struct rd_coll_args *a)
{
    (void)kind;
    return a->op->commute && rd_coll_hier_useful(a);
}

static int pow2_size(int kind, const struct rd_coll_args *a)
{
    (void)kind;
    return (a->comm->size & (a->comm->size - 1)) == 0;
}
#endif

#ifdef RD_COLL_NAMES_ONLY /* test/unit/coll_menu: the names, without the code */
#define ALG(name, fn, usable) {name, NULL, NULL, NULL, 0, 0, 0}
#define NODE(name, run, usable, always, max_size) {name, NULL, NULL, NULL, 1, always, max_size}
#else
#define ALG(name, fn, usable) {name, fn, usable, NULL, 0, 0, 0}
#define NODE(name, run, usable, always, max_size) {name, NULL, usable, run, 1, always, max_size}
#endif
#define END {NULL, NULL, NULL, NULL, 0, 0, 0}

/* The node paths (shmcoll.h), in the order they are tried: a Bcast's or
 * Scatter's other ranks follow whatever path the root took; the data in
 * the areas (small); single copies, mapped buffers or the stages
 * (direct: on communicators of up to 64 ranks, the lend's claim words);
 * by messages, after the ranks agreed on the algorithm and the counts
 * through the areas (always usable: the last). A forced RDMPI_COLL_<NAME>
 * leaves only the following and the agreement (`always`). */
#define FOLLOW NODE("node_follow", rd_nc_follow, rd_nc_not_root, 1, 0)
#define SMALL NODE("node_small", rd_nc_small, rd_nc_small_fits, 0, 0)
#define REDUCE_SMALL NODE("node_small", rd_nc_reduce_small, rd_nc_reduce_fits, 0, 0)
#define EXCHANGE NODE("node_small", rd_nc_exchange_small, rd_nc_exchange_fits, 0, 0)
#define DIRECT NODE("node_direct", rd_shmdirect_run, rd_shmdirect_eligible, 0, 64)
#define MESSAGES NODE("node_messages", rd_nc_messages, NULL, 1, 0)

/* Menus: in the order of their parameter's choices (after "auto"), then
 * the node paths. */
static const struct rd_coll_alg barrier_menu[] = {
    ALG("dissemination", rd_barrier_dissemination, NULL), ALG("linear", rd_barrier_linear, NULL),
    ALG("hierarchical", rd_barrier_hier, spans_nodes), NODE("node", rd_nc_barrier, NULL, 1, 0), END};
static const struct rd_coll_alg bcast_menu[] = {
    ALG("binomial", rd_bcast_binomial, NULL), ALG("scatter_allgather", rd_bcast_scatter_allgather, NULL),
    ALG("pipeline", rd_bcast_pipeline, NULL), ALG("linear", rd_bcast_linear, NULL),
    ALG("hierarchical", rd_bcast_hier, spans_nodes), FOLLOW, SMALL, DIRECT, MESSAGES, END};
static const struct rd_coll_alg reduce_menu[] = {
    ALG("binomial", rd_reduce_binomial, NULL), ALG("linear", rd_reduce_linear, NULL),
    ALG("hierarchical", rd_reduce_hier, commutative_spans_nodes),
    REDUCE_SMALL, DIRECT, MESSAGES, END};
static const struct rd_coll_alg allreduce_menu[] = {
    ALG("recursive_doubling", rd_allreduce_recursive_doubling, NULL),
    ALG("rabenseifner", rd_allreduce_rabenseifner, commutative),
    ALG("ring", rd_allreduce_ring, commutative),
    ALG("reduce_bcast", rd_allreduce_reduce_bcast, NULL),
    ALG("hierarchical", rd_allreduce_hier, commutative_spans_nodes),
    REDUCE_SMALL, DIRECT, MESSAGES, END};
static const struct rd_coll_alg gather_menu[] = {
    ALG("binomial", rd_gather_binomial, NULL), ALG("linear", rd_gather_linear, NULL), SMALL, DIRECT, MESSAGES,
    END};
static const struct rd_coll_alg gatherv_menu[] = {ALG("linear", rd_gatherv_linear, NULL), END};
static const struct rd_coll_alg scatter_menu[] = {
    ALG("binomial", rd_scatter_binomial, NULL), ALG("linear", rd_scatter_linear, NULL), FOLLOW, SMALL, DIRECT,
    MESSAGES, END};
static const struct rd_coll_alg scatterv_menu[] = {ALG("linear", rd_scatterv_linear, NULL), END};
static const struct rd_coll_alg allgather_menu[] = {
    ALG("recursive_doubling", rd_allgather_recursive_doubling, pow2_size),
    ALG("bruck", rd_allgather_bruck, NULL), ALG("ring", rd_allgather_ring, NULL), EXCHANGE, DIRECT, MESSAGES,
    END};
static const struct rd_coll_alg allgatherv_menu[] = {
    ALG("ring", rd_allgatherv_ring, NULL), ALG("linear", rd_allgatherv_linear, NULL), END};
static const struct rd_coll_alg alltoall_menu[] = {
    ALG("bruck", rd_alltoall_bruck, NULL), ALG("pairwise", rd_alltoall_pairwise, NULL),
    ALG("linear", rd_alltoall_linear, NULL), EXCHANGE, DIRECT, MESSAGES, END};
static const struct rd_coll_alg alltoallv_menu[] = {
    ALG("pairwise", rd_alltoallv_pairwise, NULL), ALG("linear", rd_alltoallv_linear, NULL), END};
static const struct rd_coll_alg alltoallw_menu[] = {
    ALG("pairwise", rd_alltoallw_pairwise, NULL), ALG("linear", rd_alltoallw_linear, NULL), END};
static const struct rd_coll_alg reduce_scatter_menu[] = {
    ALG("pairwise", rd_reduce_scatter_pairwise, commutative),
    ALG("reduce_scatterv", rd_reduce_scatter_reduce_scatterv, NULL), SMALL, DIRECT, MESSAGES, END};
static const struct rd_coll_alg reduce_scatter_block_menu[] = {
    ALG("pairwise", rd_reduce_scatter_block_pairwise, commutative),
    ALG("reduce_scatterv", rd_reduce_scatter_block_reduce_scatter, NULL), SMALL, DIRECT, MESSAGES, END};
static const struct rd_coll_alg scan_menu[] = {
    ALG("recursive_doubling", rd_scan_recursive_doubling, NULL), ALG("linear", rd_scan_linear, NULL), END};
static const struct rd_coll_alg exscan_menu[] = {
    ALG("recursive_doubling", rd_exscan_recursive_doubling, NULL), ALG("linear", rd_exscan_linear, NULL), END};
static const struct rd_coll_alg nb_allgather_menu[] = {ALG("linear", rd_neighbor_allgather, NULL), END};
static const struct rd_coll_alg nb_allgatherv_menu[] = {ALG("linear", rd_neighbor_allgatherv, NULL), END};
static const struct rd_coll_alg nb_alltoall_menu[] = {ALG("linear", rd_neighbor_alltoall, NULL), END};
static const struct rd_coll_alg nb_alltoallv_menu[] = {ALG("linear", rd_neighbor_alltoallv, NULL), END};
static const struct rd_coll_alg nb_alltoallw_menu[] = {ALG("linear", rd_neighbor_alltoallw, NULL), END};

/* `forced` reads 0 as auto for every collective. */
_Static_assert(RD_COLL_BARRIER_AUTO == 0 && RD_COLL_BCAST_AUTO == 0 && RD_COLL_REDUCE_AUTO == 0 &&
                   RD_COLL_ALLREDUCE_AUTO == 0 && RD_COLL_GATHER_AUTO == 0 && RD_COLL_SCATTER_AUTO == 0 &&
                   RD_COLL_ALLGATHER_AUTO == 0 && RD_COLL_ALLGATHERV_AUTO == 0 && RD_COLL_ALLTOALL_AUTO == 0 &&
                   RD_COLL_ALLTOALLV_AUTO == 0 && RD_COLL_REDUCE_SCATTER_AUTO == 0 && RD_COLL_SCAN_AUTO == 0,
               "auto is every RDMPI_COLL_<NAME>'s first choice");

struct coll_entry {
    const char *name;                /* for messages */
    const struct rd_coll_alg *menu;
    const long *forced;              /* the RDMPI_COLL_* value: 0 auto, else menu index + 1 */
    const char *param;               /* its RDMPI_COLL_* variable, whose choices the menu mirrors */
};

static const struct coll_entry colls[RD_COLL_NKINDS] = {
    [RD_COLL_BARRIER] = {"barrier", barrier_menu, &rd_param.coll_barrier, "RDMPI_COLL_BARRIER"},
    [RD_COLL_BCAST] = {"bcast", bcast_menu, &rd_param.coll_bcast, "RDMPI_COLL_BCAST"},
    [RD_COLL_REDUCE] = {"reduce", reduce_menu, &rd_param.coll_reduce, "RDMPI_COLL_REDUCE"},
    [RD_COLL_ALLREDUCE] = {"allreduce", allreduce_menu, &rd_param.coll_allreduce, "RDMPI_COLL_ALLREDUCE"},
    [RD_COLL_GATHER] = {"gather", gather_menu, &rd_param.coll_gather, "RDMPI_COLL_GATHER"},
    [RD_COLL_GATHERV] = {"gatherv", gatherv_menu, NULL, NULL},
    [RD_COLL_SCATTER] = {"scatter", scatter_menu, &rd_param.coll_scatter, "RDMPI_COLL_SCATTER"},
    [RD_COLL_SCATTERV] = {"scatterv", scatterv_menu, NULL, NULL},
    [RD_COLL_ALLGATHER] = {"allgather", allgather_menu, &rd_param.coll_allgather, "RDMPI_COLL_ALLGATHER"},
    [RD_COLL_ALLGATHERV] = {"allgatherv", allgatherv_menu, &rd_param.coll_allgatherv, "RDMPI_COLL_ALLGATHERV"},
    [RD_COLL_ALLTOALL] = {"alltoall", alltoall_menu, &rd_param.coll_alltoall, "RDMPI_COLL_ALLTOALL"},
    [RD_COLL_ALLTOALLV] = {"alltoallv", alltoallv_menu, &rd_param.coll_alltoallv, "RDMPI_COLL_ALLTOALLV"},
    [RD_COLL_ALLTOALLW] = {"alltoallw", alltoallw_menu, &rd_param.coll_alltoallv, "RDMPI_COLL_ALLTOALLV"},
    [RD_COLL_REDUCE_SCATTER] = {"reduce_scatter", reduce_scatter_menu, &rd_param.coll_reduce_scatter,
                                "RDMPI_COLL_REDUCE_SCATTER"},
    [RD_COLL_REDUCE_SCATTER_BLOCK] = {"reduce_scatter_block", reduce_scatter_block_menu,
                                      &rd_param.coll_reduce_scatter, "RDMPI_COLL_REDUCE_SCATTER"},
    [RD_COLL_SCAN] = {"scan", scan_menu, &rd_param.coll_scan, "RDMPI_COLL_SCAN"},
    [RD_COLL_EXSCAN] = {"exscan", exscan_menu, &rd_param.coll_scan, "RDMPI_COLL_SCAN"},
    [RD_COLL_NEIGHBOR_ALLGATHER] = {"neighbor_allgather", nb_allgather_menu, NULL, NULL},
    [RD_COLL_NEIGHBOR_ALLGATHERV] = {"neighbor_allgatherv", nb_allgatherv_menu, NULL, NULL},
    [RD_COLL_NEIGHBOR_ALLTOALL] = {"neighbor_alltoall", nb_alltoall_menu, NULL, NULL},
    [RD_COLL_NEIGHBOR_ALLTOALLV] = {"neighbor_alltoallv", nb_alltoallv_menu, NULL, NULL},
    [RD_COLL_NEIGHBOR_ALLTOALLW] = {"neighbor_alltoallw", nb_alltoallw_menu, NULL, NULL},
};

/* The selection table. max_size/max_bytes 0: no limit. Bytes are the
 * whole vector for bcast/reduce/allreduce/scan, one block for the
 * gather/scatter/alltoall families. Measured with bench/coll on 2 and 4
 * ranks of a 2-core node (4: oversubscribed, where fewer rounds win):
 * binomial Bcast beat scatter-allgather at 4 ranks up to 1 MiB (100-120 us
 * against 210-290), and linear Alltoall beat pairwise (290-335 us against
 * 375-395 at 1 MiB), recursive-doubling Allgather beat the ring at 4 ranks
 * and 64 KiB (20-27 us against 23-44). Blocking calls of node-local communicators take
 * their node paths first (rd_coll_node); the node's message path asks
 * here for its algorithm. */
struct rule {
    int kind;
    int max_size;
    size_t max_bytes;
    const char *alg;
};

static const struct rule table[] = {
    /* communicators that span nodes (the algorithm declines otherwise) */
    {RD_COLL_BARRIER, 0, 0, "hierarchical"},
    {RD_COLL_BCAST, 0, 0, "hierarchical"},
    {RD_COLL_REDUCE, 0, 0, "hierarchical"},
    {RD_COLL_ALLREDUCE, 0, 65536, "hierarchical"},
    /* the rest */
    {RD_COLL_BARRIER, 0, 0, "dissemination"},
    {RD_COLL_BCAST, 8, 0, "binomial"},
    {RD_COLL_BCAST, 0, 16384, "binomial"},
    {RD_COLL_BCAST, 0, 0, "scatter_allgather"},
    {RD_COLL_REDUCE, 0, 0, "binomial"},
    {RD_COLL_ALLREDUCE, 0, 16384, "recursive_doubling"},
    {RD_COLL_ALLREDUCE, 0, 0, "rabenseifner"},
    {RD_COLL_ALLREDUCE, 0, 0, "recursive_doubling"},
    {RD_COLL_GATHER, 0, 8192, "binomial"},
    {RD_COLL_GATHER, 0, 0, "linear"},
    {RD_COLL_SCATTER, 0, 8192, "binomial"},
    {RD_COLL_SCATTER, 0, 0, "linear"},
    {RD_COLL_ALLGATHER, 0, 65536, "recursive_doubling"},
    {RD_COLL_ALLGATHER, 0, 4096, "bruck"},
    {RD_COLL_ALLGATHER, 0, 0, "ring"},
    {RD_COLL_ALLGATHERV, 0, 0, "ring"},
    {RD_COLL_ALLTOALL, 8, 0, "linear"},
    {RD_COLL_ALLTOALL, 0, 32768, "linear"},
    {RD_COLL_ALLTOALL, 0, 0, "pairwise"},
    {RD_COLL_ALLTOALLV, 0, 0, "linear"},
    {RD_COLL_ALLTOALLW, 0, 0, "linear"},
    {RD_COLL_REDUCE_SCATTER, 0, 0, "pairwise"},
    {RD_COLL_REDUCE_SCATTER, 0, 0, "reduce_scatterv"},
    {RD_COLL_REDUCE_SCATTER_BLOCK, 0, 0, "pairwise"},
    {RD_COLL_REDUCE_SCATTER_BLOCK, 0, 0, "reduce_scatterv"},
    {RD_COLL_SCAN, 0, 0, "recursive_doubling"},
    {RD_COLL_EXSCAN, 0, 0, "recursive_doubling"},
};

static size_t msg_bytes(int kind, const struct rd_coll_args *a)
{
    switch (kind) {
    case RD_COLL_BCAST:
    case RD_COLL_REDUCE:
    case RD_COLL_ALLREDUCE:
    case RD_COLL_SCAN:
    case RD_COLL_EXSCAN:
    case RD_COLL_REDUCE_SCATTER_BLOCK:
        return (size_t)a->count * a->dt->size;
    case RD_COLL_GATHER:
    case RD_COLL_SCATTER:
    case RD_COLL_ALLGATHER:
    case RD_COLL_ALLTOALL:
        return a->rdt ? (size_t)a->rcount * a->rdt->size : (size_t)a->scount * a->sdt->size;
    default:
        return 0;
    }
}

static const struct rd_coll_alg *find(const struct rd_coll_alg *menu, const char *name)
{
    for (; menu->name && !menu->node; menu++)
        if (strcmp(menu->name, name) == 0)
            return menu;
    return NULL;
}

/* Whether RDMPI_COLL_<NAME> forces an algorithm of kind: the one place
 * the forced choices are read (the schedules' choice and the node paths'). */
static int forced(int kind)
{
    const struct coll_entry *e = &colls[kind];
    return e->forced && *e->forced > 0;
}

static const struct rd_coll_alg *choose(int kind, const struct rd_coll_args *a)
{
    const struct coll_entry *e = &colls[kind];
    if (forced(kind)) {
        const struct rd_coll_alg *alg = &e->menu[*e->forced - 1];
        if (!alg->usable || alg->usable(kind, a))
            return alg;
        rd_debug("coll", "%s: %s cannot serve this call, using the table", e->name, alg->name);
    }
    size_t bytes = msg_bytes(kind, a);
    for (size_t i = 0; i < sizeof(table) / sizeof(table[0]); i++) {
        const struct rule *r = &table[i];
        if (r->kind != kind || (r->max_size && a->comm->size > r->max_size) ||
            (r->max_bytes && bytes > r->max_bytes))
            continue;
        const struct rd_coll_alg *alg = find(e->menu, r->alg);
        if (alg && (!alg->usable || alg->usable(kind, a)))
            return alg;
    }
    /* no row: the menu's first algorithm that serves the call */
    for (const struct rd_coll_alg *alg = e->menu; alg->name && !alg->node; alg++)
        if (!alg->usable || alg->usable(kind, a))
            return alg;
    return NULL;
}

rd_status rd_coll_build(int kind, struct rd_sched *s, const struct rd_coll_args *a)
{
#ifndef RD_COLL_NAMES_ONLY
    if (a->comm->is_inter)
        return rd_inter_build(kind, s, a);
#endif
    const struct rd_coll_alg *alg = choose(kind, a);
    if (!alg)
        return RD_ERR_INTERNAL;
    if (RD_PV_ON())
        rd_pv_coll(kind, (int)(alg - colls[kind].menu));
    return alg->build(s, a);
}

int rd_coll_pick(int kind, const struct rd_coll_args *a)
{
    const struct rd_coll_alg *alg = choose(kind, a);
    return alg ? (int)(alg - colls[kind].menu) : -1;
}

rd_status rd_coll_build_alg(int kind, int alg, struct rd_sched *s, const struct rd_coll_args *a)
{
    const struct rd_coll_alg *menu = colls[kind].menu;
    for (int i = 0; menu[i].name && !menu[i].node; i++)
        if (i == alg) {
            if (RD_PV_ON())
                rd_pv_coll(kind, i);
            return menu[i].build(s, a);
        }
    return RD_ERR_INTERNAL;
}

const char *rd_coll_kind_name(int kind)
{
    return (unsigned)kind < RD_COLL_NKINDS ? colls[kind].name : NULL;
}

const struct rd_coll_alg *rd_coll_menu(int kind)
{
    return (unsigned)kind < RD_COLL_NKINDS ? colls[kind].menu : NULL;
}

/* ------------------------------------------------------------ node paths */

int rd_coll_node_choose(int kind, int size, const struct rd_coll_alg **out)
{
    int n = 0;
    for (const struct rd_coll_alg *alg = colls[kind].menu; alg->name; alg++)
        if (alg->node && (alg->always || !forced(kind)) && (!alg->max_size || size <= alg->max_size) &&
            n < RD_COLL_NODE_MAX)
            out[n++] = alg;
    out[n] = NULL;
    return n;
}

#ifndef RD_COLL_NAMES_ONLY
static void node_table_free(MPI_Comm comm)
{
    free(comm->coll_node);
    comm->coll_node = NULL;
}

int rd_coll_node(int kind, const struct rd_coll_args *a, int *err)
{
    MPI_Comm comm = a->comm;
    if (comm->coll_node)
        return rd_coll_node_run(kind, a, err);
    const struct rd_coll_alg *paths[RD_COLL_NODE_MAX + 1];
    /* the first call of a kind that has node paths decides, for good and
     * the same on every rank, whether the communicator gets a slot */
    if (comm->node_slot != 0 || !rd_param.coll_shm || comm->size < 2 || comm->is_inter ||
        !rd_coll_node_choose(kind, comm->size, paths))
        return 0;
    struct rd_coll_node_table *t = malloc(sizeof(*t));
    if (!rd_nc_setup(comm) || !t) { /* (no memory after the claim: the ranks disagree, as they would anyway) */
        free(t);
        return 0;
    }
    for (int k = 0; k < RD_COLL_NKINDS; k++)
        rd_coll_node_choose(k, comm->size, t->path[k]);
    comm->coll_node = t;
    return rd_coll_node_run(kind, a, err);
}

int rd_coll_run(int kind, const struct rd_coll_args *a)
{
    int err = MPI_SUCCESS;
    if (rd_coll_node(kind, a, &err))
        return err;
    struct rd_sched *s = rd_sched_new(a->comm);
    if (!s)
        return MPI_ERR_NO_MEM;
    rd_status st = rd_coll_build(kind, s, a);
    if (st != RD_OK) {
        rd_sched_discard(s);
        return rd_status_to_mpi(st);
    }
    return rd_sched_run(s);
}

void rd_coll_select_init(void)
{
    rd_comm_on_free(node_table_free);
}
#endif

const char *rd_coll_choice(int kind, const struct rd_coll_args *a)
{
    const struct rd_coll_alg *alg = choose(kind, a);
    return alg ? alg->name : "(none)";
}

int rd_coll_check_menus(void)
{
    int bad = 0;
    for (int k = 0; k < RD_COLL_NKINDS; k++) {
        const struct coll_entry *e = &colls[k];
        if (!e->menu) {
            fprintf(stderr, "collective %d has no menu\n", k);
            bad++;
            continue;
        }
        if (!e->param)
            continue;
        const struct rd_param_desc *d = rd_param_find(e->param);
        char want[512] = "auto|";
        for (const struct rd_coll_alg *alg = e->menu; alg->name && !alg->node; alg++) {
            strncat(want, alg->name, sizeof(want) - strlen(want) - 1);
            strncat(want, "|", sizeof(want) - strlen(want) - 1);
        }
        if (!d || d->type != RD_PT_ENUM || strcasecmp(d->choices, want) != 0) {
            fprintf(stderr, "%s: menu \"%s\" but %s's choices \"%s\"\n", e->name, want, e->param,
                    d && d->choices ? d->choices : "(none)");
            bad++;
        }
    }
    for (size_t i = 0; i < sizeof(table) / sizeof(table[0]); i++) {
        if (!find(colls[table[i].kind].menu, table[i].alg)) {
            fprintf(stderr, "table row %zu names %s, not on the %s menu\n", i, table[i].alg,
                    colls[table[i].kind].name);
            bad++;
        }
    }
    return bad;
}

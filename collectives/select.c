/* select.c - the algorithm menus and the selection table.
 *
 * Selection is data, not code: a table of rows (collective, largest
 * communicator size, largest message, algorithm); the first row that
 * matches the call and whose algorithm can serve it wins. The defaults
 * come from bench/coll measurements on a 2-core node over shared memory
 * (see ARCHITECTURE.md, "Collectives"). RDMPI_COLL_<NAME> forces an
 * algorithm; one that cannot serve a call (a commutative-only algorithm
 * with a non-commutative op) falls back to the table. */
#include "config.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "collectives/algorithms.h"
#include "runtime/base/log.h"
#include "runtime/base/params.h"
#include "runtime/objects/comm.h"
#include "runtime/objects/op.h"

#ifndef RD_COLL_NAMES_ONLY
static int commutative(const struct rd_coll_args *a)
{
    return a->op->commute;
}

static int commutative_spans_nodes(const struct rd_coll_args *a)
{
    return a->op->commute && rd_coll_hier_useful(a);
}

static int pow2_size(const struct rd_coll_args *a)
{
    return (a->comm->size & (a->comm->size - 1)) == 0;
}
#endif

#ifdef RD_COLL_NAMES_ONLY /* test/unit/coll_menu: the names, without the code */
#define ALG(name, fn, usable) {name, NULL, NULL}
#else
#define ALG(name, fn, usable) {name, fn, usable}
#endif
#define END {NULL, NULL, NULL}

/* Menus: in the order of their parameter's choices (after "auto"). */
static const struct rd_coll_alg barrier_menu[] = {
    ALG("dissemination", rd_barrier_dissemination, NULL), ALG("linear", rd_barrier_linear, NULL),
    ALG("hierarchical", rd_barrier_hier, rd_coll_hier_useful), END};
static const struct rd_coll_alg bcast_menu[] = {
    ALG("binomial", rd_bcast_binomial, NULL), ALG("scatter_allgather", rd_bcast_scatter_allgather, NULL),
    ALG("pipeline", rd_bcast_pipeline, NULL), ALG("linear", rd_bcast_linear, NULL),
    ALG("hierarchical", rd_bcast_hier, rd_coll_hier_useful), END};
static const struct rd_coll_alg reduce_menu[] = {
    ALG("binomial", rd_reduce_binomial, NULL), ALG("linear", rd_reduce_linear, NULL),
    ALG("hierarchical", rd_reduce_hier, commutative_spans_nodes), END};
static const struct rd_coll_alg allreduce_menu[] = {
    ALG("recursive_doubling", rd_allreduce_recursive_doubling, NULL),
    ALG("rabenseifner", rd_allreduce_rabenseifner, commutative),
    ALG("ring", rd_allreduce_ring, commutative),
    ALG("reduce_bcast", rd_allreduce_reduce_bcast, NULL),
    ALG("hierarchical", rd_allreduce_hier, commutative_spans_nodes), END};
static const struct rd_coll_alg gather_menu[] = {
    ALG("binomial", rd_gather_binomial, NULL), ALG("linear", rd_gather_linear, NULL), END};
static const struct rd_coll_alg gatherv_menu[] = {ALG("linear", rd_gatherv_linear, NULL), END};
static const struct rd_coll_alg scatter_menu[] = {
    ALG("binomial", rd_scatter_binomial, NULL), ALG("linear", rd_scatter_linear, NULL), END};
static const struct rd_coll_alg scatterv_menu[] = {ALG("linear", rd_scatterv_linear, NULL), END};
static const struct rd_coll_alg allgather_menu[] = {
    ALG("recursive_doubling", rd_allgather_recursive_doubling, pow2_size),
    ALG("bruck", rd_allgather_bruck, NULL), ALG("ring", rd_allgather_ring, NULL), END};
static const struct rd_coll_alg allgatherv_menu[] = {
    ALG("ring", rd_allgatherv_ring, NULL), ALG("linear", rd_allgatherv_linear, NULL), END};
static const struct rd_coll_alg alltoall_menu[] = {
    ALG("bruck", rd_alltoall_bruck, NULL), ALG("pairwise", rd_alltoall_pairwise, NULL),
    ALG("linear", rd_alltoall_linear, NULL), END};
static const struct rd_coll_alg alltoallv_menu[] = {
    ALG("pairwise", rd_alltoallv_pairwise, NULL), ALG("linear", rd_alltoallv_linear, NULL), END};
static const struct rd_coll_alg alltoallw_menu[] = {
    ALG("pairwise", rd_alltoallw_pairwise, NULL), ALG("linear", rd_alltoallw_linear, NULL), END};
static const struct rd_coll_alg reduce_scatter_menu[] = {
    ALG("pairwise", rd_reduce_scatter_pairwise, commutative),
    ALG("reduce_scatterv", rd_reduce_scatter_reduce_scatterv, NULL), END};
static const struct rd_coll_alg reduce_scatter_block_menu[] = {
    ALG("pairwise", rd_reduce_scatter_block_pairwise, commutative),
    ALG("reduce_scatterv", rd_reduce_scatter_block_reduce_scatter, NULL), END};
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
 * and 64 KiB (20-27 us against 23-44). Small calls of node-local communicators do not get
 * here (shmcoll.c). */
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
    for (; menu->name; menu++)
        if (strcmp(menu->name, name) == 0)
            return menu;
    return NULL;
}

static const struct rd_coll_alg *choose(int kind, const struct rd_coll_args *a)
{
    const struct coll_entry *e = &colls[kind];
    if (e->forced && *e->forced > 0) {
        const struct rd_coll_alg *alg = &e->menu[*e->forced - 1];
        if (!alg->usable || alg->usable(a))
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
        if (alg && (!alg->usable || alg->usable(a)))
            return alg;
    }
    /* no row: the menu's first algorithm that serves the call */
    for (const struct rd_coll_alg *alg = e->menu; alg->name; alg++)
        if (!alg->usable || alg->usable(a))
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
    for (int i = 0; menu[i].name; i++)
        if (i == alg)
            return menu[i].build(s, a);
    return RD_ERR_INTERNAL;
}

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
        for (const struct rd_coll_alg *alg = e->menu; alg->name; alg++) {
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

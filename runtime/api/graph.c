/* Graph topologies: MPI_Graph_create and its queries (Graphdims_get,
 * Graph_get, Graph_neighbors_count, Graph_neighbors, Graph_map), and the
 * adjacent form of distributed graphs (Dist_graph_create_adjacent,
 * Dist_graph_neighbors_count, Dist_graph_neighbors). No reordering. */
#include <mpi.h>
#include <stdlib.h>
#include <string.h>

#include "collectives/agree.h"
#include "runtime/api/check.h"
#include "runtime/api/topo.h"
#include "runtime/objects/info.h"

int rd_mpi_unweighted[1];
int rd_mpi_weights_empty[1];

void rd_topo_free(MPI_Comm comm)
{
    if (comm->cart) {
        free(comm->cart->dims);
        free(comm->cart);
        comm->cart = NULL;
    }
    if (comm->graph) {
        free(comm->graph->index);
        free(comm->graph);
        comm->graph = NULL;
    }
    if (comm->dgraph) {
        free(comm->dgraph->sources);
        free(comm->dgraph);
        comm->dgraph = NULL;
    }
}

static int check_graph(const char *call, MPI_Comm comm)
{
    RD_TRY(rd_check_comm(call, comm));
    if (!comm->graph)
        return rd_err_raise(comm, MPI_ERR_TOPOLOGY, call, "the communicator has no graph topology");
    return MPI_SUCCESS;
}

/* index and edges describe a graph of nnodes nodes: index non-decreasing,
 * every edge a node number. Returns the number of edges or -1. */
static int graph_valid(int nnodes, const int *index, const int *edges)
{
    int prev = 0;
    for (int i = 0; i < nnodes; i++) {
        if (index[i] < prev)
            return -1;
        prev = index[i];
    }
    int nedges = nnodes ? index[nnodes - 1] : 0;
    for (int e = 0; e < nedges; e++)
        if (edges[e] < 0 || edges[e] >= nnodes)
            return -1;
    return nedges;
}

#pragma weak MPI_Graph_create = PMPI_Graph_create
int PMPI_Graph_create(MPI_Comm comm, int nnodes, const int index[], const int edges[], int reorder,
                      MPI_Comm *comm_graph)
{
    const char *call = "MPI_Graph_create";
    RD_API_READY(call);
    RD_TRY(rd_check_intra(call, comm));
    if (!comm_graph || nnodes < 0 || (nnodes > 0 && (!index || (index[nnodes - 1] > 0 && !edges))))
        return rd_err_raise(comm, MPI_ERR_ARG, call, "a NULL or negative argument (nnodes %d)", nnodes);
    if (nnodes > comm->size)
        return rd_err_raise(comm, MPI_ERR_ARG, call, "%d nodes but the communicator has %d ranks", nnodes,
                            comm->size);
    int nedges = graph_valid(nnodes, index, edges);
    if (nedges < 0)
        return rd_err_raise(comm, MPI_ERR_TOPOLOGY, call,
                            "index is not non-decreasing or an edge names a node outside [0, %d)", nnodes);
    RD_TRY(PMPI_Comm_split(comm, comm->rank < nnodes ? 0 : MPI_UNDEFINED, comm->rank, comm_graph));
    if (*comm_graph == MPI_COMM_NULL)
        return MPI_SUCCESS;
    struct rd_graph *g = malloc(sizeof(*g));
    int *mem = malloc(sizeof(int) * (size_t)(nnodes + nedges + 1));
    if (!g || !mem) {
        free(g);
        free(mem);
        PMPI_Comm_free(comm_graph);
        return rd_err_raise(comm, MPI_ERR_NO_MEM, call, "out of memory");
    }
    g->nnodes = nnodes;
    g->nedges = nedges;
    g->index = mem;
    g->edges = mem + nnodes;
    memcpy(g->index, index, sizeof(int) * (size_t)nnodes);
    if (nedges)
        memcpy(g->edges, edges, sizeof(int) * (size_t)nedges);
    (*comm_graph)->graph = g;
    return MPI_SUCCESS;
}

#pragma weak MPI_Graphdims_get = PMPI_Graphdims_get
int PMPI_Graphdims_get(MPI_Comm comm, int *nnodes, int *nedges)
{
    RD_API_READY("MPI_Graphdims_get");
    RD_TRY(check_graph("MPI_Graphdims_get", comm));
    if (!nnodes || !nedges)
        return rd_err_raise(comm, MPI_ERR_ARG, "MPI_Graphdims_get", "a NULL argument");
    *nnodes = comm->graph->nnodes;
    *nedges = comm->graph->nedges;
    return MPI_SUCCESS;
}

#pragma weak MPI_Graph_get = PMPI_Graph_get
int PMPI_Graph_get(MPI_Comm comm, int maxindex, int maxedges, int index[], int edges[])
{
    RD_API_READY("MPI_Graph_get");
    RD_TRY(check_graph("MPI_Graph_get", comm));
    const struct rd_graph *g = comm->graph;
    if (maxindex < 0 || maxedges < 0 || (maxindex > 0 && !index) || (maxedges > 0 && !edges))
        return rd_err_raise(comm, MPI_ERR_ARG, "MPI_Graph_get", "a NULL or negative argument");
    for (int i = 0; i < g->nnodes && i < maxindex; i++)
        index[i] = g->index[i];
    for (int e = 0; e < g->nedges && e < maxedges; e++)
        edges[e] = g->edges[e];
    return MPI_SUCCESS;
}

#pragma weak MPI_Graph_neighbors_count = PMPI_Graph_neighbors_count
int PMPI_Graph_neighbors_count(MPI_Comm comm, int rank, int *n)
{
    RD_API_READY("MPI_Graph_neighbors_count");
    RD_TRY(check_graph("MPI_Graph_neighbors_count", comm));
    const struct rd_graph *g = comm->graph;
    if (rank < 0 || rank >= g->nnodes)
        return rd_err_raise(comm, MPI_ERR_RANK, "MPI_Graph_neighbors_count", "rank %d is not in [0, %d)", rank,
                            g->nnodes);
    if (!n)
        return rd_err_raise(comm, MPI_ERR_ARG, "MPI_Graph_neighbors_count", "nneighbors is NULL");
    *n = g->index[rank] - (rank ? g->index[rank - 1] : 0);
    return MPI_SUCCESS;
}

#pragma weak MPI_Graph_neighbors = PMPI_Graph_neighbors
int PMPI_Graph_neighbors(MPI_Comm comm, int rank, int maxneighbors, int neighbors[])
{
    RD_API_READY("MPI_Graph_neighbors");
    RD_TRY(check_graph("MPI_Graph_neighbors", comm));
    const struct rd_graph *g = comm->graph;
    if (rank < 0 || rank >= g->nnodes)
        return rd_err_raise(comm, MPI_ERR_RANK, "MPI_Graph_neighbors", "rank %d is not in [0, %d)", rank,
                            g->nnodes);
    if (maxneighbors < 0 || (maxneighbors > 0 && !neighbors))
        return rd_err_raise(comm, MPI_ERR_ARG, "MPI_Graph_neighbors", "a NULL or negative argument");
    int first = rank ? g->index[rank - 1] : 0;
    for (int e = first, k = 0; e < g->index[rank] && k < maxneighbors; e++, k++)
        neighbors[k] = g->edges[e];
    return MPI_SUCCESS;
}

#pragma weak MPI_Graph_map = PMPI_Graph_map
int PMPI_Graph_map(MPI_Comm comm, int nnodes, const int index[], const int edges[], int *newrank)
{
    RD_API_READY("MPI_Graph_map");
    RD_TRY(rd_check_intra("MPI_Graph_map", comm));
    if (!newrank || nnodes < 0 || nnodes > comm->size)
        return rd_err_raise(comm, MPI_ERR_ARG, "MPI_Graph_map", "nnodes %d does not fit the communicator", nnodes);
    *newrank = comm->rank < nnodes ? comm->rank : MPI_UNDEFINED;
    return MPI_SUCCESS;
}

/* ------------------------------------------------------------ distributed graphs */

static int weights_ok(int degree, const int *w)
{
    if (w == MPI_UNWEIGHTED)
        return 1;
    if (w == MPI_WEIGHTS_EMPTY)
        return degree == 0;
    for (int i = 0; i < degree; i++)
        if (!w || w[i] < 0)
            return 0;
    return 1;
}

#pragma weak MPI_Dist_graph_create_adjacent = PMPI_Dist_graph_create_adjacent
int PMPI_Dist_graph_create_adjacent(MPI_Comm comm, int indegree, const int sources[],
                                    const int sourceweights[], int outdegree, const int destinations[],
                                    const int destweights[], MPI_Info info, int reorder, MPI_Comm *newcomm)
{
    const char *call = "MPI_Dist_graph_create_adjacent";
    RD_API_READY(call);
    RD_TRY(rd_check_intra(call, comm));
    if (!newcomm || indegree < 0 || outdegree < 0 || (indegree > 0 && !sources) ||
        (outdegree > 0 && !destinations))
        return rd_err_raise(comm, MPI_ERR_ARG, call, "a NULL or negative argument");
    if (info != MPI_INFO_NULL && !rd_info_valid(info))
        return rd_err_raise(comm, MPI_ERR_INFO, call, "invalid info");
    for (int i = 0; i < indegree; i++)
        if (sources[i] < 0 || sources[i] >= comm->size)
            return rd_err_raise(comm, MPI_ERR_RANK, call, "source %d is not in [0, %d)", sources[i], comm->size);
    for (int i = 0; i < outdegree; i++)
        if (destinations[i] < 0 || destinations[i] >= comm->size)
            return rd_err_raise(comm, MPI_ERR_RANK, call, "destination %d is not in [0, %d)", destinations[i],
                                comm->size);
    if (!weights_ok(indegree, sourceweights) || !weights_ok(outdegree, destweights))
        return rd_err_raise(comm, MPI_ERR_ARG, call, "invalid weights");
    int weighted = sourceweights != MPI_UNWEIGHTED;
    RD_TRY(PMPI_Comm_dup(comm, newcomm));
    struct rd_dgraph *d = malloc(sizeof(*d));
    int *mem = malloc(sizeof(int) * (size_t)(2 * indegree + 2 * outdegree + 1));
    if (!d || !mem) {
        free(d);
        free(mem);
        PMPI_Comm_free(newcomm);
        return rd_err_raise(comm, MPI_ERR_NO_MEM, call, "out of memory");
    }
    rd_topo_free(*newcomm); /* a dup keeps the old topology: this one replaces it */
    d->indegree = indegree;
    d->outdegree = outdegree;
    d->weighted = weighted;
    d->sources = mem;
    d->sourceweights = mem + indegree;
    d->destinations = mem + 2 * indegree;
    d->destweights = mem + 2 * indegree + outdegree;
    for (int i = 0; i < indegree; i++) {
        d->sources[i] = sources[i];
        d->sourceweights[i] = weighted && sourceweights != MPI_WEIGHTS_EMPTY ? sourceweights[i] : 1;
    }
    for (int i = 0; i < outdegree; i++) {
        d->destinations[i] = destinations[i];
        d->destweights[i] = weighted && destweights != MPI_WEIGHTS_EMPTY && destweights != MPI_UNWEIGHTED
                                ? destweights[i]
                                : 1;
    }
    (*newcomm)->dgraph = d;
    return MPI_SUCCESS;
}

#pragma weak MPI_Dist_graph_neighbors_count = PMPI_Dist_graph_neighbors_count
int PMPI_Dist_graph_neighbors_count(MPI_Comm comm, int *indegree, int *outdegree, int *weighted)
{
    RD_API_READY("MPI_Dist_graph_neighbors_count");
    RD_TRY(rd_check_comm("MPI_Dist_graph_neighbors_count", comm));
    if (!comm->dgraph)
        return rd_err_raise(comm, MPI_ERR_TOPOLOGY, "MPI_Dist_graph_neighbors_count",
                            "the communicator has no distributed graph topology");
    if (!indegree || !outdegree || !weighted)
        return rd_err_raise(comm, MPI_ERR_ARG, "MPI_Dist_graph_neighbors_count", "a NULL argument");
    *indegree = comm->dgraph->indegree;
    *outdegree = comm->dgraph->outdegree;
    *weighted = comm->dgraph->weighted;
    return MPI_SUCCESS;
}

#pragma weak MPI_Dist_graph_neighbors = PMPI_Dist_graph_neighbors
int PMPI_Dist_graph_neighbors(MPI_Comm comm, int maxin, int sources[], int sourceweights[], int maxout,
                              int destinations[], int destweights[])
{
    const char *call = "MPI_Dist_graph_neighbors";
    RD_API_READY(call);
    RD_TRY(rd_check_comm(call, comm));
    const struct rd_dgraph *d = comm->dgraph;
    if (!d)
        return rd_err_raise(comm, MPI_ERR_TOPOLOGY, call, "the communicator has no distributed graph topology");
    if (maxin < d->indegree || maxout < d->outdegree || (d->indegree && !sources) ||
        (d->outdegree && !destinations))
        return rd_err_raise(comm, MPI_ERR_ARG, call, "arrays smaller than the degrees (%d in, %d out) or NULL",
                            d->indegree, d->outdegree);
    for (int i = 0; i < d->indegree; i++) {
        sources[i] = d->sources[i];
        if (d->weighted && sourceweights && sourceweights != MPI_UNWEIGHTED)
            sourceweights[i] = d->sourceweights[i];
    }
    for (int i = 0; i < d->outdegree; i++) {
        destinations[i] = d->destinations[i];
        if (d->weighted && destweights && destweights != MPI_UNWEIGHTED)
            destweights[i] = d->destweights[i];
    }
    return MPI_SUCCESS;
}

static void *dup_ints(const int *a, size_t n)
{
    int *b = malloc(sizeof(int) * (n ? n : 1));
    if (b && n)
        memcpy(b, a, sizeof(int) * n);
    return b;
}

int rd_topo_copy(MPI_Comm from, MPI_Comm to)
{
    if (from->cart) {
        struct rd_cart *c = malloc(sizeof(*c));
        int *mem = dup_ints(from->cart->dims, (size_t)(2 * from->cart->ndims));
        if (!c || !mem)
            goto nomem_cart;
        c->ndims = from->cart->ndims;
        c->dims = mem;
        c->periods = mem + c->ndims;
        to->cart = c;
        goto graph;
    nomem_cart:
        free(c);
        free(mem);
        return MPI_ERR_NO_MEM;
    }
graph:
    if (from->graph) {
        const struct rd_graph *g = from->graph;
        struct rd_graph *h = malloc(sizeof(*h));
        int *mem = dup_ints(g->index, (size_t)(g->nnodes + g->nedges));
        if (!h || !mem) {
            free(h);
            free(mem);
            return MPI_ERR_NO_MEM;
        }
        *h = *g;
        h->index = mem;
        h->edges = mem + g->nnodes;
        to->graph = h;
    }
    if (from->dgraph) {
        const struct rd_dgraph *d = from->dgraph;
        struct rd_dgraph *e = malloc(sizeof(*e));
        int *mem = dup_ints(d->sources, (size_t)(2 * d->indegree + 2 * d->outdegree));
        if (!e || !mem) {
            free(e);
            free(mem);
            return MPI_ERR_NO_MEM;
        }
        *e = *d;
        e->sources = mem;
        e->sourceweights = mem + d->indegree;
        e->destinations = mem + 2 * d->indegree;
        e->destweights = mem + 2 * d->indegree + d->outdegree;
        to->dgraph = e;
    }
    return MPI_SUCCESS;
}

struct rd_edge {
    int src, dst, weight;
};

#pragma weak MPI_Dist_graph_create = PMPI_Dist_graph_create
int PMPI_Dist_graph_create(MPI_Comm comm, int n, const int sources[], const int degrees[],
                           const int destinations[], const int weights[], MPI_Info info, int reorder,
                           MPI_Comm *newcomm)
{
    const char *call = "MPI_Dist_graph_create";
    RD_API_READY(call);
    RD_TRY(rd_check_intra(call, comm));
    if (!newcomm || n < 0 || (n > 0 && (!sources || !degrees)))
        return rd_err_raise(comm, MPI_ERR_ARG, call, "a NULL or negative argument");
    if (info != MPI_INFO_NULL && !rd_info_valid(info))
        return rd_err_raise(comm, MPI_ERR_INFO, call, "invalid info");
    /* the edges this rank names, checked */
    long total = 0;
    for (int i = 0; i < n; i++) {
        if (degrees[i] < 0 || sources[i] < 0 || sources[i] >= comm->size)
            return rd_err_raise(comm, degrees[i] < 0 ? MPI_ERR_ARG : MPI_ERR_RANK, call,
                                "source %d (degree %d) is invalid", sources[i], degrees[i]);
        total += degrees[i];
    }
    if (total > 0 && !destinations)
        return rd_err_raise(comm, MPI_ERR_ARG, call, "destinations is NULL");
    if (!weights_ok((int)total, weights))
        return rd_err_raise(comm, MPI_ERR_ARG, call, "invalid weights");
    for (long e = 0; e < total; e++)
        if (destinations[e] < 0 || destinations[e] >= comm->size)
            return rd_err_raise(comm, MPI_ERR_RANK, call, "destination %d is not in [0, %d)", destinations[e],
                                comm->size);
    int weighted = weights != MPI_UNWEIGHTED;
    /* everyone learns every edge: the counts, then the padded edge lists
     * (simple and collective-free; the neighbourhood layer will do better) */
    int mine = (int)total, *counts = malloc(sizeof(int) * (size_t)comm->size);
    if (!counts)
        return rd_err_raise(comm, MPI_ERR_NO_MEM, call, "out of memory");
    rd_status st = rd_comm_allgather(comm, &mine, sizeof(int), counts);
    int max = 0;
    for (int r = 0; st == RD_OK && r < comm->size; r++)
        if (counts[r] > max)
            max = counts[r];
    struct rd_edge *my = calloc((size_t)(max ? max : 1), sizeof(*my));
    struct rd_edge *all = calloc((size_t)(max ? max : 1) * (size_t)comm->size, sizeof(*all));
    if (!my || !all) {
        st = RD_ERR_NOMEM;
    } else if (st == RD_OK) {
        long e = 0;
        for (int i = 0; i < n; i++)
            for (int k = 0; k < degrees[i]; k++, e++)
                my[e] = (struct rd_edge){sources[i], destinations[e],
                                         weighted && weights != MPI_WEIGHTS_EMPTY ? weights[e] : 1};
        st = rd_comm_allgather(comm, my, sizeof(*my) * (size_t)(max ? max : 1), all);
    }
    int in = 0, out = 0;
    for (int r = 0; st == RD_OK && r < comm->size; r++)
        for (int k = 0; k < counts[r]; k++) {
            const struct rd_edge *x = &all[(size_t)r * (size_t)(max ? max : 1) + (size_t)k];
            in += x->dst == comm->rank;
            out += x->src == comm->rank;
        }
    int *mem = st == RD_OK ? malloc(sizeof(int) * (size_t)(2 * in + 2 * out + 1)) : NULL;
    struct rd_dgraph *d = st == RD_OK ? malloc(sizeof(*d)) : NULL;
    if (st == RD_OK && (!mem || !d))
        st = RD_ERR_NOMEM;
    if (st == RD_OK) {
        d->indegree = in;
        d->outdegree = out;
        d->weighted = weighted;
        d->sources = mem;
        d->sourceweights = mem + in;
        d->destinations = mem + 2 * in;
        d->destweights = mem + 2 * in + out;
        int a = 0, b = 0;
        for (int r = 0; r < comm->size; r++)
            for (int k = 0; k < counts[r]; k++) {
                const struct rd_edge *x = &all[(size_t)r * (size_t)(max ? max : 1) + (size_t)k];
                if (x->dst == comm->rank) {
                    d->sources[a] = x->src;
                    d->sourceweights[a++] = x->weight;
                }
                if (x->src == comm->rank) {
                    d->destinations[b] = x->dst;
                    d->destweights[b++] = x->weight;
                }
            }
    }
    free(counts);
    free(my);
    free(all);
    if (st != RD_OK) {
        free(mem);
        free(d);
        return rd_err_raise(comm, rd_status_to_mpi(st), call, "%s", rd_status_string(st));
    }
    int rc = PMPI_Comm_dup(comm, newcomm);
    if (rc != MPI_SUCCESS) {
        free(mem);
        free(d);
        return rc;
    }
    rd_topo_free(*newcomm);
    (*newcomm)->dgraph = d;
    return MPI_SUCCESS;
}

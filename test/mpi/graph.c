/* MPI test: graph and distributed graph topologies. */
#include <stdlib.h>

#include "test/mpi/mtest.h"

int main(int argc, char **argv)
{
    int rank, size, t = -1;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    mt_rank = rank;
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int left = (rank - 1 + size) % size, right = (rank + 1) % size;

    /* a ring as a graph: node i's neighbours are i-1 and i+1 */
    int *index = malloc(sizeof(int) * (size_t)size), *edges = malloc(sizeof(int) * (size_t)(2 * size));
    for (int i = 0; i < size; i++) {
        index[i] = 2 * (i + 1);
        edges[2 * i] = (i - 1 + size) % size;
        edges[2 * i + 1] = (i + 1) % size;
    }
    MPI_Comm g;
    mt_is_int(MPI_Graph_create(MPI_COMM_WORLD, size, index, edges, 0, &g), MPI_SUCCESS, "MPI_Graph_create (ring)");
    MPI_Topo_test(g, &t);
    mt_is_int(t, MPI_GRAPH, "Topo_test: MPI_GRAPH");
    int nn = -1, ne = -1, cnt = -1, nb[2] = {-1, -1};
    MPI_Graphdims_get(g, &nn, &ne);
    mt_ok(nn == size && ne == 2 * size, "Graphdims_get: %d nodes, %d edges", nn, ne);
    int *gi = malloc(sizeof(int) * (size_t)size), *ge = malloc(sizeof(int) * (size_t)(2 * size)), same = 1;
    MPI_Graph_get(g, size, 2 * size, gi, ge);
    for (int i = 0; i < size; i++)
        same &= gi[i] == index[i] && ge[2 * i] == edges[2 * i] && ge[2 * i + 1] == edges[2 * i + 1];
    mt_ok(same, "Graph_get returns index and edges");
    MPI_Graph_neighbors_count(g, rank, &cnt);
    MPI_Graph_neighbors(g, rank, 2, nb);
    mt_ok(cnt == 2 && nb[0] == left && nb[1] == right, "Graph_neighbors: %d and %d", nb[0], nb[1]);
    int got[2] = {-1, -1};
    MPI_Sendrecv(&rank, 1, MPI_INT, nb[1], 0, &got[0], 1, MPI_INT, nb[0], 0, g, MPI_STATUS_IGNORE);
    mt_is_int(got[0], left, "a message along the graph's edge arrives from the left neighbour");
    int nr = -2;
    MPI_Graph_map(MPI_COMM_WORLD, size, index, edges, &nr);
    mt_is_int(nr, rank, "Graph_map keeps the rank");
    MPI_Comm gd;
    MPI_Comm_dup(g, &gd);
    MPI_Topo_test(gd, &t);
    mt_is_int(t, MPI_GRAPH, "a dup keeps the graph");
    MPI_Comm_free(&gd);
    MPI_Comm_free(&g);

    /* errors */
    edges[0] = size; /* not a node */
    MPI_Comm bad;
    mt_is_int(MPI_Graph_create(MPI_COMM_WORLD, size, index, edges, 0, &bad), MPI_ERR_TOPOLOGY,
              "an edge to a missing node: MPI_ERR_TOPOLOGY");
    mt_is_int(MPI_Graphdims_get(MPI_COMM_WORLD, &nn, &ne), MPI_ERR_TOPOLOGY, "no graph: MPI_ERR_TOPOLOGY");
    free(index);
    free(edges);
    free(gi);
    free(ge);

    /* distributed graph, weighted: receive from the left, send to the right */
    int src[1] = {left}, sw[1] = {10 + left}, dst[1] = {right}, dw[1] = {20 + right};
    MPI_Comm dg;
    mt_is_int(MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 1, src, sw, 1, dst, dw, MPI_INFO_NULL, 0, &dg),
              MPI_SUCCESS, "MPI_Dist_graph_create_adjacent (weighted)");
    MPI_Topo_test(dg, &t);
    mt_is_int(t, MPI_DIST_GRAPH, "Topo_test: MPI_DIST_GRAPH");
    int in = -1, out = -1, w = -1, s2[1], sw2[1], d2[1], dw2[1];
    MPI_Dist_graph_neighbors_count(dg, &in, &out, &w);
    mt_ok(in == 1 && out == 1 && w == 1, "neighbours count: 1 in, 1 out, weighted");
    MPI_Dist_graph_neighbors(dg, 1, s2, sw2, 1, d2, dw2);
    mt_ok(s2[0] == left && sw2[0] == 10 + left && d2[0] == right && dw2[0] == 20 + right,
          "Dist_graph_neighbors: sources, destinations and weights");
    MPI_Comm_free(&dg);
    mt_is_int(MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 1, src, MPI_UNWEIGHTED, 1, dst, MPI_UNWEIGHTED,
                                             MPI_INFO_NULL, 0, &dg),
              MPI_SUCCESS, "MPI_Dist_graph_create_adjacent (unweighted)");
    MPI_Dist_graph_neighbors_count(dg, &in, &out, &w);
    mt_is_int(w, 0, "unweighted");
    MPI_Comm_free(&dg);
    MPI_Comm none;
    mt_is_int(MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 0, NULL, MPI_WEIGHTS_EMPTY, 0, NULL,
                                             MPI_WEIGHTS_EMPTY, MPI_INFO_NULL, 0, &none),
              MPI_SUCCESS, "no neighbours at all (MPI_WEIGHTS_EMPTY)");
    MPI_Dist_graph_neighbors_count(none, &in, &out, &w);
    mt_ok(in == 0 && out == 0, "zero degrees");
    MPI_Comm_free(&none);
    /* the general form: rank 0 names every edge of a ring (i -> i+1, weight i) */
    int n0 = rank == 0 ? size : 0;
    int *gs = malloc(sizeof(int) * (size_t)(size + 1)), *gdeg = malloc(sizeof(int) * (size_t)(size + 1));
    int *gdst = malloc(sizeof(int) * (size_t)(size + 1)), *gw = malloc(sizeof(int) * (size_t)(size + 1));
    for (int i = 0; i < size; i++) {
        gs[i] = i;
        gdeg[i] = 1;
        gdst[i] = (i + 1) % size;
        gw[i] = 100 + i;
    }
    MPI_Comm dg2;
    mt_is_int(MPI_Dist_graph_create(MPI_COMM_WORLD, n0, gs, gdeg, gdst, gw, MPI_INFO_NULL, 0, &dg2), MPI_SUCCESS,
              "MPI_Dist_graph_create: one rank names every edge");
    MPI_Dist_graph_neighbors_count(dg2, &in, &out, &w);
    mt_ok(in == 1 && out == 1 && w == 1, "each rank has one in- and one out-neighbour");
    MPI_Dist_graph_neighbors(dg2, 1, s2, sw2, 1, d2, dw2);
    mt_ok(s2[0] == left && sw2[0] == 100 + left && d2[0] == right && dw2[0] == 100 + rank,
          "the edges reached their ranks with their weights");
    MPI_Comm_free(&dg2);
    free(gs);
    free(gdeg);
    free(gdst);
    free(gw);
    int badsrc[1] = {size};
    mt_is_int(MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 1, badsrc, MPI_UNWEIGHTED, 0, NULL, MPI_UNWEIGHTED,
                                             MPI_INFO_NULL, 0, &none),
              MPI_ERR_RANK, "a source outside the communicator: MPI_ERR_RANK");
    MPI_Finalize();
    return mt_done();
}

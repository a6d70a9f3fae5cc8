/* The collectives' algorithm menus list their algorithms in the order of
 * their RDMPI_COLL_* parameters' choices, and the selection table names
 * only algorithms on the menus (a forced choice must run what it names).
 * The node paths that follow them on the menus: which of them a
 * communicator's node table gets (rd_coll_node_choose), by the forced
 * choices and the communicator's size. */
#include <stdio.h>
#include <string.h>

#include "collectives/algorithms.h"
#include "runtime/base/params.h"
#include "test/tap.h"

/* The names of the node paths kind gets on a communicator of size ranks,
 * joined by spaces. */
static const char *paths(int kind, int size)
{
    static char out[256];
    const struct rd_coll_alg *p[RD_COLL_NODE_MAX + 1];
    int n = rd_coll_node_choose(kind, size, p);
    out[0] = 0;
    for (int i = 0; i < n; i++) {
        if (i)
            strcat(out, " ");
        strcat(out, p[i]->name);
    }
    return p[n] == NULL ? out : "(not terminated)";
}

int main(void)
{
    printf("1..17\n");
    int bad = rd_coll_check_menus();
    tap_ok(bad == 0, "every menu matches its parameter and every table row its menu (%d mismatches)", bad);

    /* every parameter at auto */
    tap_is_str(paths(RD_COLL_BARRIER, 2), "node", "Barrier: the done words");
    tap_is_str(paths(RD_COLL_ALLREDUCE, 2), "node_small node_direct node_messages", "Allreduce: every node path");
    tap_is_str(paths(RD_COLL_BCAST, 4), "node_follow node_small node_direct node_messages",
               "Bcast: the others follow the root, whose paths come next");
    tap_is_str(paths(RD_COLL_SCATTER, 4), "node_follow node_small node_direct node_messages", "Scatter: the same");
    tap_is_str(paths(RD_COLL_REDUCE_SCATTER_BLOCK, 3), "node_small node_direct node_messages",
               "Reduce_scatter_block: every node path");
    tap_is_str(paths(RD_COLL_ALLGATHER, 64), "node_small node_direct node_messages", "64 ranks: direct copies too");
    tap_is_str(paths(RD_COLL_ALLGATHER, 65), "node_small node_messages", "65 ranks: no direct copies");
    tap_is_str(paths(RD_COLL_SCAN, 2), "", "Scan: no node path (a schedule)");
    tap_is_str(paths(RD_COLL_ALLTOALLV, 2), "", "Alltoallv: no node path");

    /* a forced algorithm leaves the agreement (and the following) only */
    rd_param.coll_allreduce = RD_COLL_ALLREDUCE_RING;
    tap_is_str(paths(RD_COLL_ALLREDUCE, 2), "node_messages", "RDMPI_COLL_ALLREDUCE=ring: by messages, agreed");
    tap_is_str(paths(RD_COLL_REDUCE, 2), "node_small node_direct node_messages", "... and Reduce keeps its paths");
    rd_param.coll_allreduce = RD_COLL_ALLREDUCE_AUTO;
    rd_param.coll_bcast = RD_COLL_BCAST_LINEAR;
    tap_is_str(paths(RD_COLL_BCAST, 4), "node_follow node_messages", "RDMPI_COLL_BCAST=linear: the root's messages");
    rd_param.coll_bcast = RD_COLL_BCAST_AUTO;
    rd_param.coll_barrier = RD_COLL_BARRIER_LINEAR;
    tap_is_str(paths(RD_COLL_BARRIER, 2), "node", "RDMPI_COLL_BARRIER=linear: still the done words");
    rd_param.coll_barrier = RD_COLL_BARRIER_AUTO;
    rd_param.coll_reduce_scatter = RD_COLL_REDUCE_SCATTER_PAIRWISE;
    tap_is_str(paths(RD_COLL_REDUCE_SCATTER_BLOCK, 2), "node_messages",
               "RDMPI_COLL_REDUCE_SCATTER also rules the block form");
    rd_param.coll_reduce_scatter = RD_COLL_REDUCE_SCATTER_AUTO;

    /* every kind with node paths ends on one that is always usable */
    int open_ended = 0;
    for (int k = 0; k < RD_COLL_NKINDS; k++) {
        const struct rd_coll_alg *p[RD_COLL_NODE_MAX + 1];
        int n = rd_coll_node_choose(k, 2, p);
        if (n > 0 && (!p[n - 1]->always || (strcmp(p[n - 1]->name, "node_messages") != 0 &&
                                             strcmp(p[n - 1]->name, "node") != 0)))
            open_ended++;
    }
    tap_ok(open_ended == 0, "every collective's last node path serves every call (%d do not)", open_ended);
    tap_is_str(paths(RD_COLL_GATHERV, 2), "", "Gatherv: no node path");
    return tap_failed != 0;
}

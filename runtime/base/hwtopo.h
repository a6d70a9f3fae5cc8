/* hwtopo.h - this node's hardware (hwloc), for the hardware splits of
 * MPI_Comm_split_type (runtime/api/splittype.c).
 *
 * The topology is loaded on the first question only, once per process
 * (hwloc_topology_load takes milliseconds: never at MPI_Init), and freed
 * at MPI_Finalize (rd_hwtopo_fini). Where this process runs is read at
 * each question (hwloc_get_cpubind of the whole process, as the program
 * or the launcher bound it), since it may have been moved since. */
#ifndef RD_HWTOPO_H
#define RD_HWTOPO_H

#include "runtime/base/error.h"

/* The kinds of hardware objects, from the largest: the levels that
 * MPI_COMM_TYPE_HW_UNGUIDED walks after the node. */
enum rd_hw_kind {
    RD_HW_PACKAGE,
    RD_HW_DIE,
    RD_HW_NUMA,
    RD_HW_L3,
    RD_HW_L2,
    RD_HW_L1,
    RD_HW_CORE,
    RD_HW_PU,
    RD_HW_NKINDS
};

/* hwloc's name of kind k ("Package", "Die", "NUMANode", "L3Cache",
 * "L2Cache", "L1Cache", "Core", "PU"). */
const char *rd_hwtopo_kind_name(enum rd_hw_kind k);

/* For each kind k, idx[k]: the logical index (hwloc's, within this node)
 * of the one object of that kind whose processors hold every processor
 * this process may run on; -1 where the process may run on processors of
 * several such objects, or the node has no object of that kind.
 * RD_ERR_* when the topology or the binding could not be read (idx all
 * -1 then). Thread-safe. */
rd_status rd_hwtopo_indices(int idx[RD_HW_NKINDS]);

/* Free the topology, if it was loaded (MPI_Finalize). */
void rd_hwtopo_fini(void);

#endif

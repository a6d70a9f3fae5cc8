/* hwtopo.c - this node's hardware topology, loaded on first use (hwtopo.h). */
#include "runtime/base/hwtopo.h"

#include <hwloc.h>
#include <pthread.h>
#include <stdlib.h>
#include <time.h>

#include "runtime/base/log.h"

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static hwloc_topology_t topo;
static int loaded; /* 1: topo is up; -1: loading failed (not tried again) */

static const char *const names[RD_HW_NKINDS] = {"Package", "Die",     "NUMANode", "L3Cache",
                                                "L2Cache", "L1Cache", "Core",     "PU"};

const char *rd_hwtopo_kind_name(enum rd_hw_kind k)
{
    return k >= 0 && k < RD_HW_NKINDS ? names[k] : "?";
}

/* hwloc's type of kind k; 0 in *have where this hwloc has none (Die came
 * with hwloc 2.1) */
static hwloc_obj_type_t kind_type(enum rd_hw_kind k, int *have)
{
    *have = 1;
    switch (k) {
    case RD_HW_PACKAGE:
        return HWLOC_OBJ_PACKAGE;
    case RD_HW_DIE:
#if HWLOC_API_VERSION >= 0x00020100
        return HWLOC_OBJ_DIE;
#else
        *have = 0;
        return HWLOC_OBJ_PACKAGE;
#endif
    case RD_HW_NUMA:
        return HWLOC_OBJ_NUMANODE;
    case RD_HW_L3:
        return HWLOC_OBJ_L3CACHE;
    case RD_HW_L2:
        return HWLOC_OBJ_L2CACHE;
    case RD_HW_L1:
        return HWLOC_OBJ_L1CACHE;
    case RD_HW_CORE:
        return HWLOC_OBJ_CORE;
    default:
        return HWLOC_OBJ_PU;
    }
}

/* Load the topology once (under lock). */
static int load(void)
{
    if (loaded)
        return loaded > 0;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    loaded = -1;
    if (hwloc_topology_init(&topo) != 0) {
        rd_warn("hwtopo", "hwloc_topology_init failed: the hardware splits of MPI_Comm_split_type give MPI_COMM_NULL");
        return 0;
    }
    if (hwloc_topology_load(topo) != 0) {
        rd_warn("hwtopo", "hwloc_topology_load failed: the hardware splits of MPI_Comm_split_type give MPI_COMM_NULL");
        hwloc_topology_destroy(topo);
        return 0;
    }
    loaded = 1;
    clock_gettime(CLOCK_MONOTONIC, &t1);
    rd_debug("hwtopo", "hwloc topology loaded in %.1f ms (%d packages, %d cores, %d PUs)",
             (double)(t1.tv_sec - t0.tv_sec) * 1e3 + (double)(t1.tv_nsec - t0.tv_nsec) / 1e6,
             hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_PACKAGE), hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_CORE),
             hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_PU));
    return 1;
}

rd_status rd_hwtopo_indices(int idx[RD_HW_NKINDS])
{
    for (int k = 0; k < RD_HW_NKINDS; k++)
        idx[k] = -1;
    pthread_mutex_lock(&lock);
    if (!load()) {
        pthread_mutex_unlock(&lock);
        return RD_ERR_UNSUPPORTED;
    }
    rd_status st = RD_OK;
    hwloc_bitmap_t bind = hwloc_bitmap_alloc();
    if (!bind)
        st = RD_ERR_NOMEM;
    else if (hwloc_get_cpubind(topo, bind, HWLOC_CPUBIND_PROCESS) != 0) {
        rd_debug("hwtopo", "hwloc_get_cpubind failed: the process is taken as bound to no single object");
        st = RD_ERR_IO;
    } else {
        /* only processors the machine has (an unbound mask may name more) */
        hwloc_bitmap_and(bind, bind, hwloc_topology_get_topology_cpuset(topo));
        for (int k = 0; k < RD_HW_NKINDS && !hwloc_bitmap_iszero(bind); k++) {
            int have, n = 0, at = -1;
            hwloc_obj_type_t t = kind_type((enum rd_hw_kind)k, &have);
            for (hwloc_obj_t o = NULL; have && (o = hwloc_get_next_obj_by_type(topo, t, o)) != NULL;)
                if (o->cpuset && hwloc_bitmap_isincluded(bind, o->cpuset)) {
                    n++;
                    at = (int)o->logical_index;
                }
            idx[k] = n == 1 ? at : -1;
        }
        if (rd_log_threshold >= RD_LOG_DEBUG) {
            char *s = NULL;
            hwloc_bitmap_list_asprintf(&s, bind);
            rd_debug("hwtopo", "bound to PUs %s: package %d, die %d, NUMA node %d, L3 %d, L2 %d, L1 %d, core %d, PU %d",
                     s ? s : "?", idx[RD_HW_PACKAGE], idx[RD_HW_DIE], idx[RD_HW_NUMA], idx[RD_HW_L3],
                     idx[RD_HW_L2], idx[RD_HW_L1], idx[RD_HW_CORE], idx[RD_HW_PU]);
            free(s);
        }
    }
    hwloc_bitmap_free(bind);
    pthread_mutex_unlock(&lock);
    return st;
}

void rd_hwtopo_fini(void)
{
    pthread_mutex_lock(&lock);
    if (loaded > 0)
        hwloc_topology_destroy(topo);
    loaded = 0;
    pthread_mutex_unlock(&lock);
}

/* binding.c - which core each rank runs on, decided with hwloc.
 *
 * Only cores matter here, so the topology is loaded with every other object
 * type filtered out (no caches, no I/O devices): that keeps the load short,
 * and startup time is what a user waits for. The topology is restricted to
 * the CPUs rrun itself may use (its affinity mask or cgroup), so "core i" is
 * the i-th core available to this job. The masks are turned into cpu_set_t
 * here, in the parent, so the child only has to call sched_setaffinity.
 *
 * The same topology is handed to PMIx_server_init (PMIX_TOPOLOGY2): without
 * it libpmix discovers a full one of its own, PCI devices and all, which
 * costs more than the rest of rrun's startup together. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "config.h"

#include <sched.h>
#include <stdio.h>
#include <stdlib.h>

#include <hwloc.h>

#include "launcher/rrun/rrun.h"

/* Kept until after PMIx_server_finalize: libpmix uses it. */
static hwloc_topology_t topology;
static bool topology_loaded;

/* hwloc plugins rrun has no use for; loading them (libxml2, OpenCL, X11,
 * libpciaccess) would take longer than the discovery itself. */
#define RRUN_HWLOC_SKIP_PLUGINS "hwloc_xml_libxml,hwloc_opencl,hwloc_gl,hwloc_pci,hwloc_cuda,hwloc_nvml,hwloc_rsmi,hwloc_levelzero"

static int load_topology(hwloc_topology_t *topo)
{
    /* hwloc reads the plugin blacklist from the environment, once, in the
     * first topology_init; a user's own setting wins. Set only for that
     * call, so the ranks' environments do not inherit it. */
    bool set_blacklist = getenv("HWLOC_PLUGINS_BLACKLIST") == NULL;
    int rc;

    if (set_blacklist)
        setenv("HWLOC_PLUGINS_BLACKLIST", RRUN_HWLOC_SKIP_PLUGINS, 0);
    rc = hwloc_topology_init(topo);
    if (set_blacklist)
        unsetenv("HWLOC_PLUGINS_BLACKLIST");
    if (rc != 0)
        return -1;
    if (hwloc_topology_set_all_types_filter(*topo, HWLOC_TYPE_FILTER_KEEP_NONE) != 0 ||
        hwloc_topology_set_type_filter(*topo, HWLOC_OBJ_CORE, HWLOC_TYPE_FILTER_KEEP_ALL) != 0 ||
        hwloc_topology_set_flags(*topo, HWLOC_TOPOLOGY_FLAG_IS_THISSYSTEM |
                                            HWLOC_TOPOLOGY_FLAG_RESTRICT_TO_CPUBINDING) != 0 ||
        hwloc_topology_load(*topo) != 0) {
        hwloc_topology_destroy(*topo);
        return -1;
    }
    return 0;
}

/* A glibc cpu set of the CPUs in an hwloc bitmap. */
static cpu_set_t *cpuset_from_bitmap(hwloc_const_bitmap_t bitmap, size_t *size)
{
    int last = hwloc_bitmap_last(bitmap);
    int ncpus = last < 0 ? 1 : last + 1;
    cpu_set_t *set = CPU_ALLOC((size_t)ncpus);
    unsigned cpu;

    if (set == NULL)
        return NULL;
    *size = CPU_ALLOC_SIZE((size_t)ncpus);
    CPU_ZERO_S(*size, set);
    hwloc_bitmap_foreach_begin(cpu, bitmap)
        CPU_SET_S(cpu, *size, set);
    hwloc_bitmap_foreach_end();
    return set;
}

int rrun_binding_plan(struct rrun_job *job, enum rrun_bind mode)
{
    hwloc_topology_t topo;
    hwloc_obj_type_t unit = HWLOC_OBJ_CORE;
    int nunits, i, rc = -1;

    if (load_topology(&topology) != 0) {
        fprintf(stderr, "rrun: cannot read the hardware topology with hwloc\n");
        return -1;
    }
    topology_loaded = true;
    topo = topology;
    nunits = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_CORE);
    if (nunits <= 0) {
        /* Some virtual machines report no cores: count processing units. */
        unit = HWLOC_OBJ_PU;
        nunits = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_PU);
    }
    if (nunits <= 0)
        nunits = 1;

    job->oversubscribed = job->np > nunits;
    /* By default an oversubscribed job is left unbound (as Open MPI's and
     * MPICH's launchers leave it). Bound, the ranks sharing a core cannot
     * leave it when something else runs there: the kernel shares a busy
     * core between the process groups on it, so 4 ranks bound to a core
     * where another program (or a VM's virtual CPU) runs got 1-4% of it
     * each while the other core's ranks had theirs, and a code that waits
     * on all its neighbours every step ran at the pace of the starved
     * core: an 8-rank hydrodynamics proxy on 2 cores beside a build and a
     * VM made no progress for 13-18 s at a time (ranks in MPI_Wait and
     * Allreduce, each yielding its core 10,000 times a second), 3-8x the
     * run's median step gap; unbound the kernel moves them
     * (test/mpi/hydro_stall.sh, bench/stall.sh). --bind-to core still
     * wraps ranks around the cores. */
    if (mode == RRUN_BIND_NONE || (mode == RRUN_BIND_DEFAULT && job->oversubscribed)) {
        rc = 0;
        goto out;
    }
    /* Rank i on core i, wrapping around when ranks outnumber cores (with
     * --bind-to core): each core takes its share, and the ranks sharing
     * one stay together. On a quiet machine this is a little faster: left
     * unbound, the kernel's balancer now and then puts three of 4 ranks
     * on one of 2 cores, and a small collective, which needs every rank
     * to run once per call, waits on the crowded core. 4 ranks on 2
     * cores, 8-byte Allreduce over 11 rounds: median 5.2 us unbound and
     * 4.9 bound, slowest round 6.9 and 5.5 (bench/coll). */
    for (i = 0; i < job->np; i++) {
        hwloc_obj_t obj = hwloc_get_obj_by_type(topo, unit, (unsigned)(i % nunits));
        struct rrun_rank *r = &job->ranks[i];

        if (obj == NULL || obj->cpuset == NULL)
            goto out;
        r->cpuset = cpuset_from_bitmap(obj->cpuset, &r->cpuset_size);
        if (r->cpuset == NULL) {
            perror("rrun");
            goto out;
        }
    }
    rc = 0;
out:
    if (rc != 0 && mode != RRUN_BIND_NONE)
        fprintf(stderr, "rrun: cannot compute the binding of the ranks\n");
    return rc;
}

void *rrun_binding_topology(void)
{
    return topology_loaded ? topology : NULL;
}

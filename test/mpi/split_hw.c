/* MPI test: MPI_Comm_split_type's hardware and resource splits (MPI 4.1,
 * 7.4.2): MPI_COMM_TYPE_HW_GUIDED and MPI_COMM_TYPE_RESOURCE_GUIDED with
 * "mpi_hw_resource_type" (hwloc's type names and Open MPI's and MPICH's,
 * in any case, with or without "hwloc://"; "mpi_shared_memory" the same
 * as MPI_COMM_TYPE_SHARED), RESOURCE_GUIDED with "mpi_pset_name",
 * MPI_COMM_TYPE_HW_UNGUIDED (strict, disjoint subsets, the level named in
 * both infos, and split again down to MPI_COMM_NULL), MPI_UNDEFINED on
 * some ranks, an intercommunicator, and the errors the standard calls
 * erroneous (raised alike on every rank under MPI_ERRORS_RETURN).
 *
 * The expected groups are worked out here, not by the library's code:
 * where each rank may run from sched_getaffinity, the objects holding it
 * from this program's own hwloc topology
 * (hwloc_get_next_obj_covering_cpuset_by_type), its node from
 * RDMPI_COLL_FAKE_NODES (world rank mod k) or else the processor name.
 * argv[1] names what split_hw.sh set up, whose exact sizes are checked
 * besides: "bound" (2 ranks, each bound to a core of its own), "unbound"
 * (rrun --bind-to none), "fake2" (4 ranks as 2 nodes), "xml2pkg" (a
 * synthetic machine of 2 packages: HWLOC_XMLFILE). "--write-xml FILE"
 * writes that machine's XML (no MPI). */
#include <hwloc.h>
#include <sched.h>
#include <stdlib.h>
#include <strings.h>

#include "test/mpi/mtest.h"

#define MAXR 64
#define NONE (-1LL)

static int rank, size;
static const char *scenario = "";
/* not an info object: zeroed memory where an info object's magic would be */
static long long not_info_mem[8];
#define NOT_INFO ((MPI_Info)(void *)not_info_mem)
static hwloc_topology_t topo;
static hwloc_bitmap_t where;   /* the processors this rank may run on */
static int node_of[MAXR];      /* each world rank's node */
static int npackages_sys;      /* packages by /sys (0: unknown) */

/* ---------------------------------------------------------------- what to expect */

/* The node of world rank r, as the library is told it. */
static void nodes(void)
{
    const char *fake = getenv("RDMPI_COLL_FAKE_NODES");
    int k = fake ? atoi(fake) : 0;
    if (k > 0) {
        for (int r = 0; r < size; r++)
            node_of[r] = r % k;
    } else {
        mt_nodes(node_of);
    }
}

/* The logical index of the one object of type t holding `where`, or -1:
 * by hwloc's helper that lists the objects meeting a set of processors. */
static long long object_of(hwloc_obj_type_t t)
{
    hwloc_obj_t o = NULL, found = NULL;
    int n = 0;
    if (hwloc_bitmap_iszero(where))
        return NONE;
    while ((o = hwloc_get_next_obj_covering_cpuset_by_type(topo, where, t, o)) != NULL) {
        n++;
        found = o;
    }
    /* (covering: intersecting; within one: the only one, and inside it) */
    return n == 1 && hwloc_bitmap_isincluded(where, found->cpuset) ? (long long)found->logical_index : NONE;
}

static const struct {
    const char *name;
    int node;   /* 1: the node; 2: everything; 0: an object of type t */
    hwloc_obj_type_t t;
} values[] = {
    {"mpi_shared_memory", 1, 0}, {"node", 1, 0},     {"Machine", 1, 0},   {"host", 1, 0},
    {"board", 1, 0},             {"cluster", 2, 0},  {"Package", 0, HWLOC_OBJ_PACKAGE},
    {"socket", 0, HWLOC_OBJ_PACKAGE},                {"Die", 0, HWLOC_OBJ_DIE},
    {"NUMANode", 0, HWLOC_OBJ_NUMANODE},             {"numa", 0, HWLOC_OBJ_NUMANODE},
    {"L3Cache", 0, HWLOC_OBJ_L3CACHE},               {"L2Cache", 0, HWLOC_OBJ_L2CACHE},
    {"l2cache", 0, HWLOC_OBJ_L2CACHE},               {"L1Cache", 0, HWLOC_OBJ_L1CACHE},
    {"Core", 0, HWLOC_OBJ_CORE},                     {"core", 0, HWLOC_OBJ_CORE},
    {"CORE", 0, HWLOC_OBJ_CORE},                     {"hwloc://Core", 0, HWLOC_OBJ_CORE},
    {"hwloc://Package", 0, HWLOC_OBJ_PACKAGE},       {"PU", 0, HWLOC_OBJ_PU},
    {"HWThread", 0, HWLOC_OBJ_PU},                   {"hwthread", 0, HWLOC_OBJ_PU},
};
#define NVALUES ((int)(sizeof values / sizeof values[0]))
/* values no implementation knows: MPI_COMM_NULL on every rank */
static const char *const unknown[] = {"no_such_resource", "hwloc://NoSuch", "Cores", "cu", "mpi://WORLD"};

/* The instance this rank should be grouped by for value v (NONE: MPI_COMM_NULL). */
static long long instance(const char *v)
{
    for (int i = 0; i < NVALUES; i++)
        if (strcmp(values[i].name, v) == 0) {
            if (values[i].node == 1)
                return (long long)node_of[rank] << 32;
            if (values[i].node == 2)
                return 0;
            long long o = object_of(values[i].t);
            return o < 0 ? NONE : ((long long)node_of[rank] << 32) + o;
        }
    return NONE;
}

/* HW_UNGUIDED's levels: the node, then Package, Die, NUMANode, L3, L2, L1, Core, PU */
#define NLEVELS 9
static const char *const level_name[NLEVELS] = {"mpi_shared_memory", "Package", "Die", "NUMANode", "L3Cache",
                                                "L2Cache", "L1Cache", "Core", "PU"};
static const hwloc_obj_type_t level_type[NLEVELS] = {0,
                                                     HWLOC_OBJ_PACKAGE,
                                                     HWLOC_OBJ_DIE,
                                                     HWLOC_OBJ_NUMANODE,
                                                     HWLOC_OBJ_L3CACHE,
                                                     HWLOC_OBJ_L2CACHE,
                                                     HWLOC_OBJ_L1CACHE,
                                                     HWLOC_OBJ_CORE,
                                                     HWLOC_OBJ_PU};

static long long level_instance(int l)
{
    if (l == 0)
        return (long long)node_of[rank] << 32;
    long long o = object_of(level_type[l]);
    return o < 0 ? NONE : ((long long)node_of[rank] << 32) + o;
}

/* The level HW_UNGUIDED should choose among the ranks with take[r]: the
 * first where someone is in one object and no object holds them all;
 * inst[r] gets each rank's instance there. -1: none (all MPI_COMM_NULL). */
static int unguided_expect(const int *take, long long *inst)
{
    long long lv[NLEVELS], all[MAXR * NLEVELS];
    for (int l = 0; l < NLEVELS; l++)
        lv[l] = level_instance(l);
    MPI_Allgather(lv, NLEVELS, MPI_LONG_LONG, all, NLEVELS, MPI_LONG_LONG, MPI_COMM_WORLD);
    int takers = 0, first = -1;
    for (int r = 0; r < size; r++)
        if (take[r]) {
            takers++;
            if (first < 0)
                first = r;
        }
    for (int l = 0; takers > 1 && l < NLEVELS; l++) {
        int any = 0, whole = 1;
        for (int r = 0; r < size; r++)
            if (take[r]) {
                long long x = all[r * NLEVELS + l];
                any |= x != NONE;
                whole &= x != NONE && x == all[first * NLEVELS + l];
            }
        if (any && !whole) {
            for (int r = 0; r < size; r++)
                inst[r] = take[r] ? all[r * NLEVELS + l] : NONE;
            return l;
        }
    }
    for (int r = 0; r < size; r++)
        inst[r] = NONE;
    return -1;
}

/* ---------------------------------------------------------------- checking */

/* got is the group of ranks q with inst[q] == inst[rank], ordered by
 * key[q] then q; MPI_COMM_NULL where inst[rank] is NONE. Returns its size
 * (0: MPI_COMM_NULL). */
static int check_group(MPI_Comm got, const long long *inst, const int *key, const char *what)
{
    int want[MAXR], n = 0;
    if (inst[rank] == NONE) {
        mt_ok(got == MPI_COMM_NULL, "%s: MPI_COMM_NULL where the rank is in no single instance", what);
        return 0;
    }
    mt_ok(got != MPI_COMM_NULL, "%s: a communicator where the rank is in one instance", what);
    if (got == MPI_COMM_NULL)
        return 0;
    for (int q = 0; q < size; q++)
        if (inst[q] == inst[rank])
            want[n++] = q;
    for (int i = 1; i < n; i++) /* by key, then world rank */
        for (int j = i; j > 0 && (key[want[j - 1]] > key[want[j]] ||
                                  (key[want[j - 1]] == key[want[j]] && want[j - 1] > want[j]));
             j--) {
            int t = want[j];
            want[j] = want[j - 1];
            want[j - 1] = t;
        }
    int w[MAXR], gn = mt_world_ranks(got, 0, w), same = gn == n, inter = 1;
    for (int i = 0; same && i < n; i++)
        same = w[i] == want[i];
    MPI_Comm_test_inter(got, &inter);
    mt_ok(same && !inter, "%s: exactly the ranks of the same instance, ordered by key then rank", what);
    if (!same) {
        printf("# [rank %d] %s: got", rank, what);
        for (int i = 0; i < gn; i++)
            printf(" %d", w[i]);
        printf(", expected");
        for (int i = 0; i < n; i++)
            printf(" %d", want[i]);
        printf("\n");
    }
    return gn;
}

/* comm's info has key = value */
static void check_info(MPI_Comm c, const char *key, const char *value, const char *what)
{
    MPI_Info used = MPI_INFO_NULL;
    char v[MPI_MAX_INFO_VAL + 1] = "";
    int len = (int)sizeof v, flag = 0;
    mt_is_int(MPI_Comm_get_info(c, &used), MPI_SUCCESS, "%s: MPI_Comm_get_info", what);
    MPI_Info_get_string(used, key, &len, v, &flag);
    mt_ok(flag && strcmp(v, value) == 0, "%s: the new communicator's info has %s = \"%s\"", what, key, value);
    if (!(flag && strcmp(v, value) == 0))
        printf("# [rank %d] %s: flag %d, value \"%s\"\n", rank, what, flag, v);
    MPI_Info_free(&used);
}

static void gather_inst(long long mine, long long *inst)
{
    MPI_Allgather(&mine, 1, MPI_LONG_LONG, inst, 1, MPI_LONG_LONG, MPI_COMM_WORLD);
}

static void gather_int(int mine, int *all)
{
    MPI_Allgather(&mine, 1, MPI_INT, all, 1, MPI_INT, MPI_COMM_WORLD);
}

static MPI_Info hw_info(const char *key, const char *value)
{
    MPI_Info i;
    MPI_Info_create(&i);
    MPI_Info_set(i, key, value);
    return i;
}

/* one guided split of world on value v, checked against the expectation */
static MPI_Comm guided(int type, const char *v, int keymode, int *gsize)
{
    char what[160];
    long long inst[MAXR];
    int key[MAXR], k = keymode == 0 ? 0 : keymode == 1 ? size - rank : rank % 2;
    MPI_Comm c = MPI_COMM_NULL;
    MPI_Info info = hw_info("mpi_hw_resource_type", v);
    snprintf(what, sizeof what, "%s \"%s\" (keys %s)",
             type == MPI_COMM_TYPE_HW_GUIDED ? "HW_GUIDED" : "RESOURCE_GUIDED", v,
             keymode == 0 ? "all 0" : keymode == 1 ? "reversed" : "odd/even");
    gather_inst(instance(v), inst);
    gather_int(k, key);
    mt_is_int(MPI_Comm_split_type(MPI_COMM_WORLD, type, k, info, &c), MPI_SUCCESS, "%s: MPI_SUCCESS", what);
    MPI_Info_free(&info);
    *gsize = check_group(c, inst, key, what);
    if (c != MPI_COMM_NULL)
        check_info(c, "mpi_hw_resource_type", v, what);
    return c;
}

static int sys_packages(void)
{
    int ids[256], n = 0;
    for (int c = 0; c < 1024; c++) {
        char p[128];
        snprintf(p, sizeof p, "/sys/devices/system/cpu/cpu%d/topology/physical_package_id", c);
        FILE *f = fopen(p, "r");
        if (!f)
            continue;
        int id = -1, seen = 0;
        if (fscanf(f, "%d", &id) == 1) {
            for (int i = 0; i < n; i++)
                seen |= ids[i] == id;
            if (!seen && n < 256)
                ids[n++] = id;
        }
        fclose(f);
    }
    return n;
}

/* ---------------------------------------------------------------- the checks */

static void check_guided(void)
{
    for (int i = 0; i < NVALUES; i++) {
        int gs = 0;
        MPI_Comm c = guided(MPI_COMM_TYPE_HW_GUIDED, values[i].name, i % 3, &gs);
        /* the exact sizes of the scenario */
        const char *v = values[i].name;
        int core = strcasecmp(v, "core") == 0 || strcmp(v, "hwloc://Core") == 0 || strcasecmp(v, "pu") == 0 ||
                   strcasecmp(v, "hwthread") == 0;
        int pkg = strcmp(v, "Package") == 0 || strcmp(v, "socket") == 0 || strcmp(v, "hwloc://Package") == 0;
        int nodewide = values[i].node == 1;
        if (strcmp(scenario, "bound") == 0) {
            if (core)
                mt_is_int(gs, 1, "bound: \"%s\" gives each rank a communicator of 1", v);
            if (nodewide || (pkg && npackages_sys == 1))
                mt_is_int(gs, size, "bound: \"%s\" on one node%s: one communicator of all %d", v,
                          pkg ? " of one package (/sys)" : "", size);
        } else if (strcmp(scenario, "unbound") == 0) {
            if (core)
                mt_ok(c == MPI_COMM_NULL, "unbound: \"%s\" gives MPI_COMM_NULL (no rank is within one)", v);
            if (nodewide || (pkg && npackages_sys == 1))
                mt_is_int(gs, size, "unbound: \"%s\": one communicator of all %d", v, size);
        } else if (strcmp(scenario, "fake2") == 0) {
            if (nodewide)
                mt_is_int(gs, size / 2, "fake2: \"%s\": the ranks of my fake node, %d of them", v, size / 2);
        } else if (strcmp(scenario, "xml2pkg") == 0) {
            if (pkg || core)
                mt_is_int(gs, 1, "xml2pkg: \"%s\" on 2 packages of a core each: a communicator of 1", v);
            if (nodewide)
                mt_is_int(gs, size, "xml2pkg: \"%s\": one communicator of all %d", v, size);
        }
        if (strcmp(v, "mpi_shared_memory") == 0) {
            /* the same as MPI_COMM_TYPE_SHARED */
            MPI_Comm s = MPI_COMM_NULL;
            int res = -1;
            int k = i % 3 == 0 ? 0 : i % 3 == 1 ? size - rank : rank % 2; /* (guided()'s keys) */
            MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, k, MPI_INFO_NULL, &s);
            if (c != MPI_COMM_NULL && s != MPI_COMM_NULL)
                MPI_Comm_compare(c, s, &res);
            mt_is_int(res, MPI_CONGRUENT, "\"mpi_shared_memory\" gives the group of MPI_COMM_TYPE_SHARED, same order");
            if (s != MPI_COMM_NULL)
                MPI_Comm_free(&s);
        }
        if (c != MPI_COMM_NULL) {
            /* it works */
            int one = 1, sum = 0, csize = 0;
            MPI_Comm_size(c, &csize);
            MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, c);
            mt_is_int(sum, csize, "HW_GUIDED \"%s\": an Allreduce on it", v);
            MPI_Comm_free(&c);
        }
    }
    /* RESOURCE_GUIDED with "mpi_hw_resource_type": the same */
    const char *some[] = {"mpi_shared_memory", "Package", "Core", "L3Cache", "hwloc://PU"};
    for (int i = 0; i < 5; i++) {
        int gs;
        const char *v = some[i];
        if (strcmp(v, "hwloc://PU") == 0) { /* (not in values[]: its expectation by hand) */
            long long inst[MAXR], o = object_of(HWLOC_OBJ_PU);
            int key[MAXR];
            MPI_Comm c = MPI_COMM_NULL;
            MPI_Info info = hw_info("mpi_hw_resource_type", v);
            gather_inst(o < 0 ? NONE : ((long long)node_of[rank] << 32) + o, inst);
            gather_int(0, key);
            MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_RESOURCE_GUIDED, 0, info, &c);
            MPI_Info_free(&info);
            check_group(c, inst, key, "RESOURCE_GUIDED \"hwloc://PU\"");
            if (c != MPI_COMM_NULL) {
                check_info(c, "mpi_hw_resource_type", v, "RESOURCE_GUIDED \"hwloc://PU\"");
                MPI_Comm_free(&c);
            }
            continue;
        }
        MPI_Comm c = guided(MPI_COMM_TYPE_RESOURCE_GUIDED, v, 1, &gs);
        if (c != MPI_COMM_NULL)
            MPI_Comm_free(&c);
    }
    /* values not known, no key, no info: MPI_COMM_NULL everywhere */
    for (int i = 0; i < (int)(sizeof unknown / sizeof unknown[0]); i++) {
        MPI_Comm c = MPI_COMM_WORLD;
        MPI_Info info = hw_info("mpi_hw_resource_type", unknown[i]);
        mt_is_int(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_HW_GUIDED, rank, info, &c), MPI_SUCCESS,
                  "HW_GUIDED \"%s\" (not a resource): MPI_SUCCESS", unknown[i]);
        mt_ok(c == MPI_COMM_NULL, "HW_GUIDED \"%s\" (not a resource): MPI_COMM_NULL", unknown[i]);
        c = MPI_COMM_WORLD;
        MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_RESOURCE_GUIDED, rank, info, &c);
        mt_ok(c == MPI_COMM_NULL, "RESOURCE_GUIDED \"%s\" (not a resource): MPI_COMM_NULL", unknown[i]);
        MPI_Info_free(&info);
    }
    MPI_Info other = hw_info("mpi_pset_name", "mpi://WORLD");
    MPI_Comm c = MPI_COMM_WORLD;
    mt_is_int(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_HW_GUIDED, 0, MPI_INFO_NULL, &c), MPI_SUCCESS,
              "HW_GUIDED with MPI_INFO_NULL: MPI_SUCCESS");
    mt_ok(c == MPI_COMM_NULL, "HW_GUIDED with MPI_INFO_NULL: MPI_COMM_NULL");
    c = MPI_COMM_WORLD;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_HW_GUIDED, 0, other, &c);
    mt_ok(c == MPI_COMM_NULL, "HW_GUIDED with an info without \"mpi_hw_resource_type\": MPI_COMM_NULL");
    c = MPI_COMM_WORLD;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_RESOURCE_GUIDED, 0, MPI_INFO_NULL, &c);
    mt_ok(c == MPI_COMM_NULL, "RESOURCE_GUIDED with MPI_INFO_NULL: MPI_COMM_NULL");
    MPI_Info_free(&other);
}

/* MPI_UNDEFINED on the odd ranks: the even ones split alone */
static void check_undefined(void)
{
    long long inst[MAXR];
    int key[MAXR], take[MAXR];
    const char *v = "mpi_shared_memory";
    MPI_Info info = hw_info("mpi_hw_resource_type", v);
    MPI_Comm c = MPI_COMM_WORLD;
    gather_inst(rank % 2 ? NONE : instance(v), inst);
    gather_int(rank, key);
    MPI_Comm_split_type(MPI_COMM_WORLD, rank % 2 ? MPI_UNDEFINED : MPI_COMM_TYPE_HW_GUIDED, rank, info, &c);
    check_group(c, inst, key, "MPI_UNDEFINED on the odd ranks, HW_GUIDED \"mpi_shared_memory\" on the even");
    if (c != MPI_COMM_NULL)
        MPI_Comm_free(&c);
    /* HW_UNGUIDED among the even ranks */
    for (int r = 0; r < size; r++)
        take[r] = r % 2 == 0;
    int l = unguided_expect(take, inst);
    c = MPI_COMM_WORLD;
    MPI_Comm_split_type(MPI_COMM_WORLD, rank % 2 ? MPI_UNDEFINED : MPI_COMM_TYPE_HW_UNGUIDED, rank, info, &c);
    check_group(c, inst, key, "MPI_UNDEFINED on the odd ranks, HW_UNGUIDED on the even");
    if (c != MPI_COMM_NULL) {
        check_info(c, "mpi_hw_resource_type", l >= 0 ? level_name[l] : "(none)", "HW_UNGUIDED on the even ranks");
        MPI_Comm_free(&c);
    }
    MPI_Info_free(&info);
}

/* HW_UNGUIDED on world: strict, disjoint subsets covering the ranks that
 * did not get MPI_COMM_NULL; the level in both infos; then again and
 * again down to MPI_COMM_NULL. */
static void check_unguided(void)
{
    long long inst[MAXR];
    int key[MAXR], take[MAXR], k = size - rank;
    for (int r = 0; r < size; r++)
        take[r] = 1;
    int l = unguided_expect(take, inst);
    gather_int(k, key);
    MPI_Info info;
    MPI_Info_create(&info);
    MPI_Info_set(info, "some_other_key", "x");
    MPI_Comm c = MPI_COMM_WORLD;
    mt_is_int(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_HW_UNGUIDED, k, info, &c), MPI_SUCCESS,
              "HW_UNGUIDED: MPI_SUCCESS");
    int n = check_group(c, inst, key, "HW_UNGUIDED on world (the level worked out here)");
    /* the standard's rules, checked directly */
    int lowest = -1, all_lowest[MAXR], all_n[MAXR], ok = 1;
    if (c != MPI_COMM_NULL) {
        int w[MAXR], gn = mt_world_ranks(c, 0, w);
        lowest = w[0];
        for (int i = 1; i < gn; i++)
            lowest = w[i] < lowest ? w[i] : lowest;
        mt_ok(n < size, "HW_UNGUIDED: the new group is a strict subset of world's (%s)", n < size ? "yes" : "no");
    }
    gather_int(lowest, all_lowest);
    gather_int(n, all_n);
    for (int r = 0; r < size; r++) /* disjoint: each group's size is how many name its lowest rank */
        if (all_lowest[r] >= 0) {
            int m = 0;
            for (int q = 0; q < size; q++)
                m += all_lowest[q] == all_lowest[r];
            ok &= m == all_n[r] && all_lowest[all_lowest[r]] == all_lowest[r];
        }
    mt_ok(ok, "HW_UNGUIDED: the groups are disjoint and cover exactly the ranks without MPI_COMM_NULL");
    if (c != MPI_COMM_NULL) {
        char v[MPI_MAX_INFO_VAL + 1] = "";
        int len = (int)sizeof v, flag = 0;
        const char *name = l >= 0 ? level_name[l] : "(none)";
        check_info(c, "mpi_hw_resource_type", name, "HW_UNGUIDED");
        MPI_Info_get_string(info, "mpi_hw_resource_type", &len, v, &flag);
        mt_ok(flag && strcmp(v, name) == 0, "HW_UNGUIDED: the info argument got mpi_hw_resource_type = \"%s\"", name);
    } else {
        int flag = 1, len = 0;
        char v[8];
        MPI_Info_get_string(info, "mpi_hw_resource_type", &len, v, &flag);
        mt_ok(!flag, "HW_UNGUIDED: MPI_COMM_NULL: the info argument is left alone");
    }
    if (strcmp(scenario, "bound") == 0)
        mt_is_int(n, 1, "bound: HW_UNGUIDED splits 2 ranks on 2 cores into communicators of 1");
    if (strcmp(scenario, "unbound") == 0 && npackages_sys == 1)
        mt_ok(c == MPI_COMM_NULL, "unbound on one package: HW_UNGUIDED has nothing smaller: MPI_COMM_NULL");
    if (strcmp(scenario, "fake2") == 0) {
        mt_ok(l == 0, "fake2: HW_UNGUIDED splits by node first");
        mt_is_int(n, size / 2, "fake2: HW_UNGUIDED: the ranks of my fake node");
    }
    if (strcmp(scenario, "xml2pkg") == 0) {
        mt_ok(l == 1, "xml2pkg: HW_UNGUIDED splits by package");
        mt_is_int(n, 1, "xml2pkg: HW_UNGUIDED: a communicator of 1");
    }
    MPI_Info_free(&info);
    /* again, each time strictly smaller, down to MPI_COMM_NULL */
    int steps = 0, smaller = 1, prev = size;
    MPI_Comm cur = c;
    while (cur != MPI_COMM_NULL && steps < 12) {
        MPI_Comm next = MPI_COMM_NULL;
        int r, s, ns = 0;
        MPI_Comm_rank(cur, &r);
        MPI_Comm_size(cur, &s);
        smaller &= s < prev;
        prev = s;
        MPI_Comm_split_type(cur, MPI_COMM_TYPE_HW_UNGUIDED, r, MPI_INFO_NULL, &next);
        if (next != MPI_COMM_NULL)
            MPI_Comm_size(next, &ns);
        MPI_Comm_free(&cur);
        cur = next;
        steps++;
    }
    mt_ok(cur == MPI_COMM_NULL && smaller, "HW_UNGUIDED again and again: strictly smaller each time, then MPI_COMM_NULL");
    if (cur != MPI_COMM_NULL)
        MPI_Comm_free(&cur);
}

/* RESOURCE_GUIDED with "mpi_pset_name" */
static void check_pset(void)
{
    const struct {
        const char *name;
        int self; /* 0: all, 1: each alone, -1: MPI_COMM_NULL */
    } ps[] = {{"mpi://WORLD", 0}, {"mpi://world", 0}, {"mpi://SELF", 1}, {"MPI://Self", 1}, {"mpi://nothing", -1}};
    for (int i = 0; i < 5; i++) {
        long long inst[MAXR];
        int key[MAXR];
        char what[96];
        MPI_Comm c = MPI_COMM_WORLD;
        MPI_Info info = hw_info("mpi_pset_name", ps[i].name);
        snprintf(what, sizeof what, "RESOURCE_GUIDED mpi_pset_name \"%s\"", ps[i].name);
        gather_inst(ps[i].self < 0 ? NONE : ps[i].self ? rank : 0, inst);
        gather_int(size - rank, key);
        mt_is_int(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_RESOURCE_GUIDED, size - rank, info, &c),
                  MPI_SUCCESS, "%s: MPI_SUCCESS", what);
        int n = check_group(c, inst, key, what);
        if (ps[i].self >= 0)
            mt_is_int(n, ps[i].self ? 1 : size, "%s: its size", what);
        if (c != MPI_COMM_NULL) {
            check_info(c, "mpi_pset_name", ps[i].name, what);
            MPI_Comm_free(&c);
        }
        MPI_Info_free(&info);
    }
}

static int cls(int rc)
{
    int k = -1;
    MPI_Error_class(rc, &k);
    return k;
}

/* Errors: every rank alike, under MPI_ERRORS_RETURN; the communicator
 * still works after them. */
static void check_errors(void)
{
    MPI_Comm d, c = MPI_COMM_NULL;
    MPI_Comm_dup(MPI_COMM_WORLD, &d);
    MPI_Comm_set_errhandler(d, MPI_ERRORS_RETURN);
    MPI_Info core = hw_info("mpi_hw_resource_type", "Core");
    mt_is_int(cls(MPI_Comm_split_type(d, 12345, 0, MPI_INFO_NULL, &c)), MPI_ERR_ARG,
              "split_type 12345: MPI_ERR_ARG");
    mt_is_int(cls(MPI_Comm_split_type(d, MPI_COMM_TYPE_HW_GUIDED, 0, core, NULL)), MPI_ERR_ARG,
              "newcomm NULL: MPI_ERR_ARG");
    mt_is_int(cls(MPI_Comm_split_type(d, MPI_COMM_TYPE_HW_GUIDED, 0, NOT_INFO, &c)), MPI_ERR_INFO,
              "a handle that is not an info object: MPI_ERR_INFO");
    /* both keys of RESOURCE_GUIDED, on rank 0 only: every rank fails */
    MPI_Info both = hw_info("mpi_hw_resource_type", "Core");
    if (rank == 0)
        MPI_Info_set(both, "mpi_pset_name", "mpi://WORLD");
    c = MPI_COMM_WORLD;
    mt_is_int(cls(MPI_Comm_split_type(d, MPI_COMM_TYPE_RESOURCE_GUIDED, 0, both, &c)), MPI_ERR_INFO,
              "RESOURCE_GUIDED with both keys on rank 0: MPI_ERR_INFO on every rank");
    mt_ok(c == MPI_COMM_NULL, "RESOURCE_GUIDED with both keys: newcomm MPI_COMM_NULL");
    MPI_Info_free(&both);
    if (size > 1) {
        /* different values */
        MPI_Info mine = hw_info("mpi_hw_resource_type", rank == 0 ? "Core" : "Package");
        c = MPI_COMM_WORLD;
        mt_is_int(cls(MPI_Comm_split_type(d, MPI_COMM_TYPE_HW_GUIDED, 0, mine, &c)), MPI_ERR_ARG,
                  "HW_GUIDED \"Core\" on rank 0, \"Package\" on the others: MPI_ERR_ARG on every rank");
        mt_ok(c == MPI_COMM_NULL, "different values: newcomm MPI_COMM_NULL");
        mt_is_int(cls(MPI_Comm_split_type(d, MPI_COMM_TYPE_HW_GUIDED, 0, rank == 0 ? MPI_INFO_NULL : core, &c)),
                  MPI_ERR_ARG, "HW_GUIDED: no info on rank 0, \"Core\" on the others: MPI_ERR_ARG on every rank");
        MPI_Info_free(&mine);
        /* different split types */
        mt_is_int(cls(MPI_Comm_split_type(d, rank == 0 ? MPI_COMM_TYPE_SHARED : MPI_COMM_TYPE_HW_GUIDED, 0, core,
                                          &c)),
                  MPI_ERR_ARG, "MPI_COMM_TYPE_SHARED on rank 0, HW_GUIDED on the others: MPI_ERR_ARG on every rank");
        mt_is_int(cls(MPI_Comm_split_type(d, rank == 0 ? MPI_COMM_TYPE_HW_UNGUIDED : MPI_COMM_TYPE_HW_GUIDED, 0, core,
                                          &c)),
                  MPI_ERR_ARG, "HW_UNGUIDED on rank 0, HW_GUIDED on the others: MPI_ERR_ARG on every rank");
        /* "core" and "Core" are one value */
        MPI_Info cased = hw_info("mpi_hw_resource_type", rank == 0 ? "core" : "hwloc://CORE");
        mt_is_int(MPI_Comm_split_type(d, MPI_COMM_TYPE_HW_GUIDED, 0, cased, &c), MPI_SUCCESS,
                  "\"core\" on rank 0, \"hwloc://CORE\" on the others: one value, MPI_SUCCESS");
        if (c != MPI_COMM_NULL)
            MPI_Comm_free(&c);
        MPI_Info_free(&cased);
    }
    /* d still works: a split and an Allreduce */
    MPI_Info shm = hw_info("mpi_hw_resource_type", "mpi_shared_memory");
    c = MPI_COMM_NULL;
    mt_is_int(MPI_Comm_split_type(d, MPI_COMM_TYPE_HW_GUIDED, 0, shm, &c), MPI_SUCCESS,
              "after the errors: a split of the same communicator succeeds");
    int one = 1, sum = 0, n = 0;
    if (c != MPI_COMM_NULL) {
        MPI_Comm_size(c, &n);
        MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, c);
        MPI_Comm_free(&c);
    }
    mt_ok(n > 0 && sum == n, "after the errors: the new communicator works (Allreduce)");
    MPI_Info_free(&shm);
    MPI_Info_free(&core);
    MPI_Comm_free(&d);
}

/* An intercommunicator of the even and the odd ranks: each side keeps the
 * ranks of the same instance, with those of the other side; HW_UNGUIDED
 * gives MPI_COMM_NULL there. */
static void check_inter(void)
{
    if (size < 2)
        return;
    MPI_Comm half, ic;
    MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half);
    MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, rank % 2 ? 0 : 1, 77, &ic);
    const char *vals[] = {"mpi_shared_memory", "Core", "Package"};
    for (int i = 0; i < 3; i++) {
        long long inst[MAXR];
        MPI_Comm c = MPI_COMM_WORLD;
        MPI_Info info = hw_info("mpi_hw_resource_type", vals[i]);
        gather_inst(instance(vals[i]), inst);
        mt_is_int(MPI_Comm_split_type(ic, MPI_COMM_TYPE_HW_GUIDED, rank, info, &c), MPI_SUCCESS,
                  "intercommunicator, HW_GUIDED \"%s\": MPI_SUCCESS", vals[i]);
        /* the local and remote groups: same instance, my side and the other */
        int lw[MAXR], rw[MAXR], nl = 0, nr = 0;
        for (int q = 0; q < size; q++)
            if (inst[rank] != NONE && inst[q] == inst[rank]) {
                if (q % 2 == rank % 2)
                    lw[nl++] = q;
                else
                    rw[nr++] = q;
            }
        if (nl == 0 || nr == 0) {
            mt_ok(c == MPI_COMM_NULL, "intercommunicator, HW_GUIDED \"%s\": MPI_COMM_NULL where a side has none",
                  vals[i]);
        } else {
            int gl[MAXR], gr[MAXR], ok = c != MPI_COMM_NULL, inter = 0;
            if (ok) {
                MPI_Comm_test_inter(c, &inter);
                ok = inter && mt_world_ranks(c, 0, gl) == nl && mt_world_ranks(c, 1, gr) == nr;
                for (int j = 0; ok && j < nl; j++)
                    ok = gl[j] == lw[j];
                for (int j = 0; ok && j < nr; j++)
                    ok = gr[j] == rw[j];
                check_info(c, "mpi_hw_resource_type", vals[i], "intercommunicator, HW_GUIDED");
            }
            mt_ok(ok, "intercommunicator, HW_GUIDED \"%s\": both groups of the same instance, in rank order", vals[i]);
        }
        if (c != MPI_COMM_NULL)
            MPI_Comm_free(&c);
        MPI_Info_free(&info);
    }
    MPI_Comm c = MPI_COMM_WORLD;
    mt_is_int(MPI_Comm_split_type(ic, MPI_COMM_TYPE_HW_UNGUIDED, 0, MPI_INFO_NULL, &c), MPI_SUCCESS,
              "intercommunicator, HW_UNGUIDED: MPI_SUCCESS");
    mt_ok(c == MPI_COMM_NULL, "intercommunicator, HW_UNGUIDED: MPI_COMM_NULL");
    MPI_Comm_free(&ic);
    MPI_Comm_free(&half);
}

static int write_xml(const char *path)
{
    hwloc_topology_t t;
    if (hwloc_topology_init(&t) != 0 || hwloc_topology_set_synthetic(t, "pack:2 core:1 pu:1") != 0 ||
        hwloc_topology_load(t) != 0 || hwloc_topology_export_xml(t, path, 0) != 0) {
        fprintf(stderr, "split_hw: cannot write %s\n", path);
        return 1;
    }
    hwloc_topology_destroy(t);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc > 2 && strcmp(argv[1], "--write-xml") == 0)
        return write_xml(argv[2]);
    if (argc > 1)
        scenario = argv[1];
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    mt_rank = rank;
    if (size > MAXR) {
        printf("# more than %d ranks\n", MAXR);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    mt_is_int(MPI_COMM_TYPE_HW_GUIDED, 2, "MPI_COMM_TYPE_HW_GUIDED is MPICH's 2");
    mt_is_int(MPI_COMM_TYPE_HW_UNGUIDED, 3, "MPI_COMM_TYPE_HW_UNGUIDED is MPICH's 3");
    mt_ok(MPI_COMM_TYPE_RESOURCE_GUIDED != MPI_COMM_TYPE_SHARED && MPI_COMM_TYPE_RESOURCE_GUIDED != 2 &&
              MPI_COMM_TYPE_RESOURCE_GUIDED != 3,
          "MPI_COMM_TYPE_RESOURCE_GUIDED is a split type of its own");
    /* this program's own view of where it runs */
    hwloc_topology_init(&topo);
    hwloc_topology_load(topo);
    where = hwloc_bitmap_alloc();
    cpu_set_t set;
    CPU_ZERO(&set);
    sched_getaffinity(0, sizeof set, &set);
    for (int cpu = 0; cpu < CPU_SETSIZE; cpu++)
        if (CPU_ISSET(cpu, &set))
            hwloc_bitmap_set(where, (unsigned)cpu);
    hwloc_bitmap_and(where, where, hwloc_topology_get_topology_cpuset(topo));
    npackages_sys = sys_packages();
    nodes();
    {
        char *s = NULL;
        hwloc_bitmap_list_asprintf(&s, where);
        printf("# [rank %d] scenario \"%s\", node %d, may run on PUs %s (core %lld), %d package(s) by /sys\n", rank,
               scenario, node_of[rank], s, object_of(HWLOC_OBJ_CORE), npackages_sys);
        free(s);
    }

    check_guided();
    check_undefined();
    check_unguided();
    check_pset();
    check_errors();
    check_inter();

    hwloc_bitmap_free(where);
    hwloc_topology_destroy(topo);
    MPI_Finalize();
    return mt_done();
}

/* algorithms.h - the collectives: algorithms (schedule builders), their menus and
 * the selection table.
 *
 * A builder appends to a schedule the steps of one algorithm for one call;
 * it sees the arguments the API layer has checked. Each collective has a
 * menu of algorithms (select.c), in the order of its RDMPI_COLL_<NAME>
 * parameter's choices; rd_coll_build() picks one (the parameter when set,
 * else the selection table by communicator size and message size) and
 * builds it. */
#ifndef RD_COLL_ALGORITHMS_H
#define RD_COLL_ALGORITHMS_H

#include <mpi.h>
#include <stddef.h>
#include <stdint.h>

#include "collectives/sched.h"
#include "runtime/base/pvar.h"
#include "runtime/objects/comm.h"
#include "runtime/objects/datatype.h"

enum rd_coll_kind {
    RD_COLL_BARRIER,
    RD_COLL_BCAST,
    RD_COLL_REDUCE,
    RD_COLL_ALLREDUCE,
    RD_COLL_GATHER,
    RD_COLL_GATHERV,
    RD_COLL_SCATTER,
    RD_COLL_SCATTERV,
    RD_COLL_ALLGATHER,
    RD_COLL_ALLGATHERV,
    RD_COLL_ALLTOALL,
    RD_COLL_ALLTOALLV,
    RD_COLL_ALLTOALLW,
    RD_COLL_REDUCE_SCATTER,
    RD_COLL_REDUCE_SCATTER_BLOCK,
    RD_COLL_SCAN,
    RD_COLL_EXSCAN,
    RD_COLL_NEIGHBOR_ALLGATHER,
    RD_COLL_NEIGHBOR_ALLGATHERV,
    RD_COLL_NEIGHBOR_ALLTOALL,
    RD_COLL_NEIGHBOR_ALLTOALLV,
    RD_COLL_NEIGHBOR_ALLTOALLW,
    RD_COLL_NKINDS
};
_Static_assert(RD_COLL_NKINDS <= RD_PV_NCOLL, "MPI_T keeps each collective's last choice (runtime/base/pvar.h)");

/* The arguments of any collective (unused ones zero). sbuf may be
 * MPI_IN_PLACE where the standard allows it. */
struct rd_coll_args {
    MPI_Comm comm;
    const void *sbuf;
    void *rbuf;
    MPI_Count scount, rcount;    /* gather/scatter/allgather/alltoall family */
    MPI_Datatype sdt, rdt;
    MPI_Count count;             /* bcast/reduce family: count and dt */
    MPI_Datatype dt;
    MPI_Op op;
    int root;
    /* v and w forms: per-rank counts and displacements (w: in bytes), read
     * through rd_coll_cnt / rd_coll_displ. The int calls pass int arrays;
     * the large-count `_c` calls MPI_Count counts and MPI_Aint
     * displacements (wide_counts, wide_displs set), as does
     * MPI_Neighbor_alltoallw for its displacements. */
    const void *scounts, *sdispls, *rcounts, *rdispls;
    unsigned char wide_counts, wide_displs;
    const MPI_Datatype *sdts, *rdts;                  /* w forms */
};

/* Element i of a counts array (MPI_Count when wide, else int), or of a
 * displacements array (MPI_Aint when wide, else int); and the same for
 * the arrays of a. */
static inline MPI_Count rd_count_at(const void *v, int wide, int i)
{
    return wide ? ((const MPI_Count *)v)[i] : ((const int *)v)[i];
}
static inline MPI_Aint rd_displ_at(const void *v, int wide, int i)
{
    return wide ? ((const MPI_Aint *)v)[i] : ((const int *)v)[i];
}
static inline MPI_Count rd_coll_cnt(const struct rd_coll_args *a, const void *v, int i)
{
    return rd_count_at(v, a->wide_counts, i);
}
static inline MPI_Aint rd_coll_displ(const struct rd_coll_args *a, const void *v, int i)
{
    return rd_displ_at(v, a->wide_displs, i);
}

typedef rd_status (*rd_coll_builder)(struct rd_sched *s, const struct rd_coll_args *a);

/* A node path: one blocking call of collective `kind` on a communicator
 * that has its slot of the node's memory, run there (shmcoll.c,
 * shmdirect.c); returns the MPI error class. */
typedef int (*rd_coll_runner)(int kind, const struct rd_coll_args *a);

/* One entry of a menu: an algorithm of messages (build: a schedule, for
 * blocking and nonblocking calls alike), or a node path (run; node set).
 * It may decline a call it cannot serve (a non-commutative op, a message
 * too large for the node's areas): `usable` NULL means it serves every
 * call. Node paths come after the algorithms (whose order is that of the
 * RDMPI_COLL_<NAME> choices) in the order they are tried; `always`: taken
 * also when RDMPI_COLL_<NAME> forces an algorithm (the ranks' agreement
 * before the messages, following the root); max_size: only on
 * communicators of at most that many ranks (0: any). */
struct rd_coll_alg {
    const char *name;
    rd_coll_builder build;
    int (*usable)(int kind, const struct rd_coll_args *a);
    rd_coll_runner run;
    int node, always, max_size;
};

/* A collective's name ("allreduce") and its menu, ended by an entry
 * without name (MPI_T's enums of the algorithms chosen). */
const char *rd_coll_kind_name(int kind);
const struct rd_coll_alg *rd_coll_menu(int kind);

/* A communicator's node paths, chosen once when it claimed its slot of the
 * node's memory (select.c: by the forced RDMPI_COLL_<NAME> and the
 * communicator's size): per collective, the usable entries in the order
 * they are tried, NULL-terminated (none: by schedule). comm->coll_node
 * points to it (NULL: the communicator has no slot, or not yet). */
#define RD_COLL_NODE_MAX 4
struct rd_coll_node_table {
    const struct rd_coll_alg *path[RD_COLL_NKINDS][RD_COLL_NODE_MAX + 1];
};

/* The node paths a communicator of `size` ranks gets for `kind` under the
 * current parameters, into out (RD_COLL_NODE_MAX + 1, NULL-terminated);
 * returns how many (also for test/unit/coll_menu). */
int rd_coll_node_choose(int kind, int size, const struct rd_coll_alg **out);

/* A blocking call of a communicator that has its node table: the first of
 * its node paths that serves the call runs it (1, *err its MPI error
 * class); 0: none, the caller builds the schedule. The per-call cost of a
 * small collective: two loads, a usable() and the run (lock held). */
static inline int rd_coll_node_run(int kind, const struct rd_coll_args *a, int *err)
{
    const struct rd_coll_alg *const *e = a->comm->coll_node->path[kind];
    for (; *e; e++)
        if (!(*e)->usable || (*e)->usable(kind, a)) {
            if (RD_PV_ON())
                rd_pv_coll(kind, (int)(*e - rd_coll_menu(kind)));
            *err = (*e)->run(kind, a);
            return 1;
        }
    return 0;
}

/* The same for any blocking call: a node-local communicator's first call
 * of a kind that has node paths claims its slot (collectively) and fills
 * its table; 0: no node path (no slot, another kind, RDMPI_COLL_SHM=0, an
 * intercommunicator), the caller builds the schedule. Lock held. */
int rd_coll_node(int kind, const struct rd_coll_args *a, int *err);

/* One blocking call of collective `kind` for the floors above the API's
 * own entry points (rma's counter, io): the node path where there is one,
 * else the schedule built and run. Lock held. Returns an MPI class. */
int rd_coll_run(int kind, const struct rd_coll_args *a);

/* Build the schedule of one call of collective `kind`. */
rd_status rd_coll_build(int kind, struct rd_sched *s, const struct rd_coll_args *a);
/* The algorithm rd_coll_build would use, as its index in the menu (-1:
 * none); and building one given by its index (another rank's pick, which
 * this rank follows: shmcoll.c). */
int rd_coll_pick(int kind, const struct rd_coll_args *a);
rd_status rd_coll_build_alg(int kind, int alg, struct rd_sched *s, const struct rd_coll_args *a);
/* The algorithm rd_coll_build would use (for tests and rdmpi_info). */
const char *rd_coll_choice(int kind, const struct rd_coll_args *a);
/* Check that every menu matches its parameter's choices: returns the
 * number of mismatches, describing each one on stderr (a unit test). */
int rd_coll_check_menus(void);

/* The schedule of a collective on an intercommunicator (inter.c). */
rd_status rd_inter_build(int kind, struct rd_sched *s, const struct rd_coll_args *a);

/* Communicators that span nodes (hier.c): whether the two-level
 * algorithms apply (more than one node, and some node with more than one
 * of its ranks). */
int rd_coll_hier_useful(const struct rd_coll_args *a);
/* Free the node hierarchy a collective kept on comm (a communicator
 * release hook). */
void rd_coll_hier_free(MPI_Comm comm);

/* At MPI_Init: register the collectives' communicator hooks (select.c's
 * through rd_coll_select_init: the node table). */
void rd_coll_init(void);
void rd_coll_select_init(void);

/* ---- algorithms, by family (the menus in select.c list them) */
rd_status rd_barrier_dissemination(struct rd_sched *s, const struct rd_coll_args *a);
rd_status rd_barrier_linear(struct rd_sched *s, const struct rd_coll_args *a);
rd_status rd_barrier_hier(struct rd_sched *s, const struct rd_coll_args *a);
rd_status rd_bcast_hier(struct rd_sched *s, const struct rd_coll_args *a);
rd_status rd_reduce_hier(struct rd_sched *s, const struct rd_coll_args *a);
rd_status rd_allreduce_hier(struct rd_sched *s, const struct rd_coll_args *a);

rd_status rd_bcast_binomial(struct rd_sched *s, const struct rd_coll_args *a);
rd_status rd_bcast_scatter_allgather(struct rd_sched *s, const struct rd_coll_args *a);
rd_status rd_bcast_pipeline(struct rd_sched *s, const struct rd_coll_args *a);
rd_status rd_bcast_linear(struct rd_sched *s, const struct rd_coll_args *a);

rd_status rd_reduce_binomial(struct rd_sched *s, const struct rd_coll_args *a);
rd_status rd_reduce_linear(struct rd_sched *s, const struct rd_coll_args *a);

rd_status rd_allreduce_recursive_doubling(struct rd_sched *s, const struct rd_coll_args *a);
rd_status rd_allreduce_rabenseifner(struct rd_sched *s, const struct rd_coll_args *a);
rd_status rd_allreduce_ring(struct rd_sched *s, const struct rd_coll_args *a);
rd_status rd_allreduce_reduce_bcast(struct rd_sched *s, const struct rd_coll_args *a);

rd_status rd_reduce_scatter_pairwise(struct rd_sched *s, const struct rd_coll_args *a);
rd_status rd_reduce_scatter_reduce_scatterv(struct rd_sched *s, const struct rd_coll_args *a);
rd_status rd_reduce_scatter_block_pairwise(struct rd_sched *s, const struct rd_coll_args *a);
rd_status rd_reduce_scatter_block_reduce_scatter(struct rd_sched *s, const struct rd_coll_args *a);

rd_status rd_scan_recursive_doubling(struct rd_sched *s, const struct rd_coll_args *a);
rd_status rd_scan_linear(struct rd_sched *s, const struct rd_coll_args *a);
rd_status rd_exscan_recursive_doubling(struct rd_sched *s, const struct rd_coll_args *a);
rd_status rd_exscan_linear(struct rd_sched *s, const struct rd_coll_args *a);

rd_status rd_gather_binomial(struct rd_sched *s, const struct rd_coll_args *a);
rd_status rd_gather_linear(struct rd_sched *s, const struct rd_coll_args *a);
rd_status rd_gatherv_linear(struct rd_sched *s, const struct rd_coll_args *a);
rd_status rd_scatter_binomial(struct rd_sched *s, const struct rd_coll_args *a);
rd_status rd_scatter_linear(struct rd_sched *s, const struct rd_coll_args *a);
rd_status rd_scatterv_linear(struct rd_sched *s, const struct rd_coll_args *a);
rd_status rd_allgather_recursive_doubling(struct rd_sched *s, const struct rd_coll_args *a);
rd_status rd_allgather_bruck(struct rd_sched *s, const struct rd_coll_args *a);
rd_status rd_allgather_ring(struct rd_sched *s, const struct rd_coll_args *a);
rd_status rd_allgatherv_ring(struct rd_sched *s, const struct rd_coll_args *a);
rd_status rd_allgatherv_linear(struct rd_sched *s, const struct rd_coll_args *a);

rd_status rd_alltoall_bruck(struct rd_sched *s, const struct rd_coll_args *a);
rd_status rd_alltoall_pairwise(struct rd_sched *s, const struct rd_coll_args *a);
rd_status rd_alltoall_linear(struct rd_sched *s, const struct rd_coll_args *a);
rd_status rd_alltoallv_pairwise(struct rd_sched *s, const struct rd_coll_args *a);
rd_status rd_alltoallv_linear(struct rd_sched *s, const struct rd_coll_args *a);
rd_status rd_alltoallw_pairwise(struct rd_sched *s, const struct rd_coll_args *a);
rd_status rd_alltoallw_linear(struct rd_sched *s, const struct rd_coll_args *a);

rd_status rd_neighbor_allgather(struct rd_sched *s, const struct rd_coll_args *a);
rd_status rd_neighbor_allgatherv(struct rd_sched *s, const struct rd_coll_args *a);
rd_status rd_neighbor_alltoall(struct rd_sched *s, const struct rd_coll_args *a);
rd_status rd_neighbor_alltoallv(struct rd_sched *s, const struct rd_coll_args *a);
rd_status rd_neighbor_alltoallw(struct rd_sched *s, const struct rd_coll_args *a);

/* ---- counts that do not match between ranks (an erroneous program)
 *
 * A receive is never given more than its buffer holds: where a collective
 * finds that what arrives (or, through the node's memory, what another
 * rank says it has) differs from what this rank's arguments say, it moves
 * what fits and returns MPI_ERR_TRUNCATE, and the reason is kept for the
 * error message: the first one found in a call, until the call reports it
 * (rd_coll_reason: the text, forgotten; NULL when none was kept). */
void rd_coll_why(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
const char *rd_coll_reason(void);
/* Keep the reason "`who` sends `sent` bytes[each], this rank's buffer
 * holds (expects) `holds`"; returns MPI_ERR_TRUNCATE. */
int rd_coll_mismatch(const char *who, uint64_t sent, uint64_t holds, const char *each);

/* ---- helpers shared by the algorithms (util.c) */
#define RD_CNEW(p)                                                                     \
    do {                                                                               \
        if (!(p))                                                                      \
            return RD_ERR_NOMEM;                                                       \
    } while (0)
/* Address of element i of (buf, dt). */
static inline void *rd_coll_at(const void *buf, MPI_Aint i, MPI_Datatype dt)
{
    return (char *)buf + i * dt->extent;
}
/* Blocks of count elements split n ways as evenly as possible: block b
 * holds cnt[b] elements from element displ[b]. Arrays come from scratch. */
rd_status rd_coll_split(struct rd_sched *s, MPI_Count count, int n, MPI_Count **cnt, MPI_Count **displ);
/* Exchange two buffer pointers while building (reductions that alternate
 * their accumulator to keep operands in rank order). */
#define RD_SWAP(x, y)                                                                  \
    do {                                                                               \
        void *t_ = (x);                                                                \
        (x) = (y);                                                                     \
        (y) = t_;                                                                      \
    } while (0)

/* Largest power of two <= n. */
static inline int rd_coll_pow2_floor(int n)
{
    int p = 1;
    while (p * 2 <= n)
        p *= 2;
    return p;
}

#endif

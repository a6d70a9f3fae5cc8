/* pvar.h - the counters behind MPI_T's performance variables
 * (runtime/api/mpit.c serves them; runtime/api/README.md, "MPI_T").
 *
 * The engine counts messages and bytes, per transport and protocol, only
 * while rd_pv_on is set: while some MPI_T performance-variable session
 * exists. Off, each counting point costs one predictable branch on a
 * global; the collectives record their choices under the same condition.
 * The unexpected queue's length and high-water mark are kept always
 * (they change on its slow path only). Every counter is written with relaxed atomics and read the same
 * way, from any thread. */
#ifndef RD_PVAR_H
#define RD_PVAR_H

#include <stdint.h>

/* The transports, in rd_tl_entries' order (a fixed list here, so that a
 * variable's element i means the same transport in every build). */
enum { RD_PV_TL_SELF, RD_PV_TL_SHM, RD_PV_TL_VERBS, RD_PV_TL_UCX, RD_PV_TL_OFI, RD_PV_NTL };
/* The protocols: eager, then the rendezvous ones in RD_RNDV_* order
 * (runtime/p2p/params.def: get, put, pipeline, split, transport). */
enum { RD_PV_EAGER, RD_PV_GET, RD_PV_PUT, RD_PV_PIPELINE, RD_PV_SPLIT, RD_PV_TRANSPORT, RD_PV_NPROTO };
#define RD_PV_NCOLL 32 /* >= RD_COLL_NKINDS (collectives/algorithms.h checks) */

struct rd_pv {
    uint64_t msgs[2][RD_PV_NPROTO][RD_PV_NTL];  /* [0] sent, [1] received */
    uint64_t bytes[2][RD_PV_NPROTO][RD_PV_NTL];
    uint64_t unexpected, unexpected_hwm;        /* messages in the unexpected queues */
    uint64_t wait_ns;                           /* in the waits' progress steps */
    int coll_alg[RD_PV_NCOLL];                  /* last algorithm chosen (menu index), -1: none */
};

extern struct rd_pv rd_pv;
extern int rd_pv_on;

#define RD_PV_ON() __builtin_expect(__atomic_load_n(&rd_pv_on, __ATOMIC_RELAXED) != 0, 0)

/* tl: RD_PV_TL_*; proto: RD_PV_*; dir 0 sent, 1 received */
static inline void rd_pv_msg(int dir, int proto, int tl, uint64_t bytes)
{
    if ((unsigned)tl < RD_PV_NTL && (unsigned)proto < RD_PV_NPROTO) {
        __atomic_fetch_add(&rd_pv.msgs[dir][proto][tl], 1, __ATOMIC_RELAXED);
        __atomic_fetch_add(&rd_pv.bytes[dir][proto][tl], bytes, __ATOMIC_RELAXED);
    }
}

static inline void rd_pv_unexpected(int delta)
{
    uint64_t n = __atomic_add_fetch(&rd_pv.unexpected, (uint64_t)(int64_t)delta, __ATOMIC_RELAXED);
    if (delta > 0 && n > __atomic_load_n(&rd_pv.unexpected_hwm, __ATOMIC_RELAXED))
        __atomic_store_n(&rd_pv.unexpected_hwm, n, __ATOMIC_RELAXED);
}

static inline void rd_pv_coll(int kind, int alg)
{
    if ((unsigned)kind < RD_PV_NCOLL)
        __atomic_store_n(&rd_pv.coll_alg[kind], alg, __ATOMIC_RELAXED);
}

/* RD_PV_TL_* of a transport's name (RD_PV_NTL: none of them). */
int rd_pv_tl_index(const char *name);
/* The transports' names, by RD_PV_TL_*. */
extern const char *const rd_pv_tl_names[RD_PV_NTL];

/* A monotonic clock, in nanoseconds. */
uint64_t rd_pv_now_ns(void);

#endif

/* rma_int.h - what the files of runtime/rma share (private; the API uses rma.h).
 *   win.c   windows: ids, creation, flavours, the per-target path table,
 *           shared segments, dynamic regions, info, free
 *   am.c    the wire: the active messages and everything the target does
 *   ops.c   the origin side of Put, Get, Accumulate, Get_accumulate,
 *           Fetch_and_op, Compare_and_swap (and the R-forms)
 *   sync.c  fence, post/start/complete/wait, locks, flush */
#ifndef RD_RMA_INT_H
#define RD_RMA_INT_H

#include <mpi.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "runtime/objects/win.h"
#include "runtime/p2p/p2p.h"
#include "runtime/rma/rma.h"

enum rma_am {
    RMA_PUT = RD_P2P_AM_FIRST, /* data at addr; answered by ACK */
    RMA_GET,                   /* arg bytes at addr; answered by RESP */
    RMA_RESP,                  /* data for the origin's record token at packed offset ooff */
    RMA_ACC,                   /* arg: op | type << 8; data applied at addr; ACK */
    RMA_GACC,                  /* same, the old contents come back in a RESP */
    RMA_CAS,                   /* data: compare then new value; RESP with the old value */
    RMA_ACK,                   /* one PUT/ACC piece done; arg: an error class or 0 */
    RMA_LOCK,                  /* arg: MPI_LOCK_SHARED / EXCLUSIVE; answered by GRANT */
    RMA_GRANT,
    RMA_UNLOCK,                /* answered by UNLOCKED */
    RMA_UNLOCKED,
    RMA_POST,                  /* PSCW: the target exposes its window to the receiver */
    RMA_COMPLETE,              /* PSCW: the origin's accesses to the receiver are done */
    RMA_KICK,                  /* a node origin released the lock word: grant the waiters */
    RMA_SPLIT                  /* a node Get's tail offered to the target (fast.c): arg bytes at
                                * addr to the origin's address token, if claim ooff still offers it */
};

struct rma_hdr {
    uint32_t win;   /* the receiver's window id */
    uint32_t back;  /* the sender's window id */
    int32_t from;   /* the sender's rank in the window's communicator */
    uint32_t arg;
    uint64_t addr;  /* target bytes: offset from the base, or an address (dynamic) */
    uint64_t token; /* the origin's record of a GET/GACC/CAS */
    uint64_t ooff;  /* where the answer goes in that record's packed data */
};

/* How the origin reaches each target (the per-window table, RDMPI_LOG=debug:rma).
 * CMA: Put and Get by single copies into a node peer's user memory
 * (create windows), accumulates and locks by AM. RDMA: Put and Get by the
 * network transport's put/get into the target's registered window,
 * accumulates and locks by AM; HW_ATOMIC: the same, and accumulates on
 * 8-byte elements and the locks by the device's atomics (rdma.c). */
enum rma_path { RMA_PATH_SELF, RMA_PATH_NODE, RMA_PATH_AM, RMA_PATH_RDMA, RMA_PATH_HW_ATOMIC, RMA_PATH_CMA };

struct rma_peer {
    int world, pid;
    uint32_t id;
    uint64_t size;
    int64_t disp_unit;
    uint8_t path;      /* Put/Get, accumulates and locks alike, today */
    int64_t pending;   /* my operations to it not yet done there */
    int lock;          /* the lock I hold on it (0: none; negative: NOCHECK, none taken) */
    int direct;        /* ... taken on its lock word with CPU atomics (NODE, SELF) */
    int want;          /* the lock type asked for */
    int granted, unlocked;
    int posted, completed; /* PSCW messages received from it, not yet consumed */
    /* NODE: its window memory mapped here, and its accumulate lock word */
    char *mem;
    _Atomic uint32_t *acc;
    void *map;         /* what to unmap (allocate: its segment) */
    uint64_t base;     /* CMA: its window's address in its process */
    size_t map_len;
    /* the node fast path (fast.c): its window memory as loads and stores
     * reach it here (NODE: the mapping; SELF: this rank's own memory),
     * NULL where operations go another way */
    char *fast;
    /* create over MPI_Alloc_mem memory: the mapping of its control words'
     * chunk, where that is not the data's chunk */
    void *ctl_map;
    size_t ctl_map_len;
    struct rma_net_peer *net; /* RDMA, HW_ATOMIC: its endpoint and keys (rdma.c), or NULL */
};

struct rma_waiter {
    struct rma_waiter *next;
    int wsrc, from, type;
    uint32_t back;
};

struct rma_region {
    struct rma_region *next;
    uintptr_t base;
    size_t len;
};

struct rd_rma_win {
    MPI_Win win;
    uint32_t id;
    int flavor;
    int rank, size;
    struct rma_peer *peers;
    /* target side: its lock (passive target) */
    int lock_excl, lock_shared;
    struct rma_waiter *wait_head, *wait_tail;
    /* origin side: the epochs open */
    int fence, lock_all, nlocks;
    int *start, nstart; /* ranks of the access group (PSCW) */
    int *post, npost;   /* ranks of the exposure group */
    int err;            /* the first error a target reported */
    char errwhy[RD_RMA_WHY];
    /* memory */
    struct rma_region *regions; /* dynamic */
    void *own;          /* allocate: its node segment (or malloc'd); shared: the mapping */
    size_t own_len;
    int own_malloc;     /* own came from malloc (no node segment) */
    int shm_fd;
    _Atomic uint32_t *my_acc; /* this rank's accumulate lock word (node segment), or NULL */
    MPI_Aint *shoff;    /* shared: each rank's offset in the segment */
    int noncontig;
    MPI_Info info;      /* the keys the user gave (a copy) */
    _Atomic unsigned idle_flushes; /* fast flushes since the last progress call (fast.c) */
    void *ctl_blk;      /* create over MPI_Alloc_mem memory: its control words (a pool block) */
    struct rma_net *net; /* the network's direct paths (rdma.c), or NULL */
};

/* win.c */
struct rd_rma_win *rma_win(uint32_t id);
static inline struct rd_rma_win *rma_of(MPI_Win w)
{
    return (struct rd_rma_win *)w->rma;
}
/* The target's memory for [addr, addr + len) of window rw, or NULL (range). */
void *rma_target_ptr(struct rd_rma_win *rw, uint64_t addr, size_t len);

/* am.c */
void rma_am_handler(int wsrc, unsigned id, const void *hdr, size_t hlen, const void *data, size_t len);
/* Post an active message (aborts the job if the engine cannot). */
void rma_post(int world, unsigned id, const struct rma_hdr *h, const void *data, size_t len);
/* The accumulate lock of a target with a node segment: taken by every
 * accumulate applied to its memory, by its own handler, by itself (SELF)
 * and by node origins (NODE) alike. NULL: no segment (only the target
 * applies, under its big lock). */
static inline void rma_acc_lock(_Atomic uint32_t *w)
{
    if (!w)
        return;
    for (;;) {
        uint32_t z = 0;
        if (atomic_compare_exchange_weak_explicit(w, &z, 1, memory_order_acquire, memory_order_relaxed))
            return;
        while (atomic_load_explicit(w, memory_order_relaxed))
            __builtin_ia32_pause();
    }
}
static inline void rma_acc_unlock(_Atomic uint32_t *w)
{
    if (w)
        atomic_store_explicit(w, 0, memory_order_release);
}
/* The passive-target lock word, the line's second word (the third counts
 * the requests the target's handler has queued): the writer bit or the
 * number of readers. Node origins take it with CPU atomics, no target CPU
 * needed; the target's handler takes the same word for AM origins. */
#define RMA_WRITER 0x80000000u
static inline _Atomic uint32_t *rma_lockw(_Atomic uint32_t *acc)
{
    return acc + 1;
}
static inline _Atomic uint32_t *rma_waitw(_Atomic uint32_t *acc)
{
    return acc + 2;
}
static inline int rma_lockw_try(_Atomic uint32_t *w, int type)
{
    if (type == MPI_LOCK_EXCLUSIVE) {
        uint32_t z = 0;
        return atomic_compare_exchange_strong_explicit(w, &z, RMA_WRITER, memory_order_acquire,
                                                       memory_order_relaxed);
    }
    if (!(atomic_fetch_add_explicit(w, 1, memory_order_acquire) & RMA_WRITER))
        return 1;
    atomic_fetch_sub_explicit(w, 1, memory_order_relaxed);
    return 0;
}
static inline void rma_lockw_release(_Atomic uint32_t *w, int type)
{
    /* (readers that try while a writer holds add and take back 1: never store 0) */
    atomic_fetch_sub_explicit(w, type == MPI_LOCK_EXCLUSIVE ? RMA_WRITER : 1, memory_order_release);
}
/* Accumulate / compare-and-swap at p under lock (rma_acc_lock); the
 * target bytes len packed bytes of accumulate arg cover. */
size_t rma_acc_span(uint32_t arg, size_t len);
int rma_acc_at(void *p, _Atomic uint32_t *lock, uint32_t arg, const void *data, size_t len, void *old);
int rma_cas_at(void *p, _Atomic uint32_t *lock, const void *data, size_t len, void *old);
/* Apply at the target (also the SELF path): returns an MPI error class. */
int rma_apply_put(struct rd_rma_win *rw, uint64_t addr, const void *data, size_t len);
int rma_apply_acc(struct rd_rma_win *rw, uint64_t addr, uint32_t arg, const void *data, size_t len,
                  void *old);
int rma_apply_cas(struct rd_rma_win *rw, uint64_t addr, const void *data, size_t len, void *old);
/* ops.c: an answer (len bytes of data, covering `covered` bytes of the
 * record's packed result) from rank from */
void rma_resp_arrived(struct rd_rma_win *rw, int from, uint64_t token, uint64_t ooff, const void *data,
                      size_t len, uint64_t covered);

/* fast.c: accumulate-type operations on elements of the atomic types
 * (integers and Fortran LOGICAL of 4 or 8 bytes) at naturally aligned
 * addresses are CPU atomics, one element at a time, whoever applies them
 * (origin, target, handler): the accumulate lock word is for the other
 * types only. The class of element type t (rma_atom_class), 0: none. */
enum { RMA_ATOM_NONE, RMA_ATOM_S32, RMA_ATOM_U32, RMA_ATOM_S64, RMA_ATOM_U64 };
int rma_atom_class(MPI_Datatype t);
static inline int rma_atom_at(int cls, const void *p)
{
    size_t sz = cls >= RMA_ATOM_S64 ? 8 : 4;
    return cls != RMA_ATOM_NONE && (uintptr_t)p % sz == 0;
}
/* k elements at p (rma_atom_at): p[i] = in[i] op p[i] with op code `code`
 * (in: NULL for MPI_NO_OP), the previous values to old (NULL: not
 * wanted); in and old at any alignment. */
void rma_atom_apply(int cls, int code, void *p, const void *in, void *old, size_t k);
/* compare-and-swap of one element of n bytes (4 or 8) at p, aligned:
 * data is compare then new; old gets the previous value */
void rma_atom_cas(void *p, size_t n, const void *data, void *old);
/* The split Get's claim word (fast.c): in the origin's control line
 * (byte 32), seq << 2 | state */
enum { RMA_CLAIM_NONE, RMA_CLAIM_OFFERED, RMA_CLAIM_TAKEN, RMA_CLAIM_DONE };
static inline _Atomic uint64_t *rma_claimw(_Atomic uint32_t *acc)
{
    return (_Atomic uint64_t *)(void *)((char *)acc + 32);
}
/* the target's side: copy its part into the origin's memory if still offered */
void rma_split_serve(struct rd_rma_win *rw, const struct rma_hdr *h);
/* A full memory fence (flush, unlock on the direct paths). */
static inline void rma_fence(void)
{
#if defined(__x86_64__)
    /* a locked instruction on the stack orders like mfence for ordinary
     * memory and costs less (the Linux kernel's smp_mb) */
    __asm__ __volatile__("lock orq $0, (%%rsp)" ::: "memory", "cc");
#else
    atomic_thread_fence(memory_order_seq_cst);
#endif
}

/* mem.c: the pool of MPI_Alloc_mem (node memory). find: the chunk
 * holding [addr, addr + len), if any (1: its fd, addr's offset in it,
 * its length). */
void *rma_mem_alloc(size_t size, size_t align);
int rma_mem_free(void *ptr);
int rma_mem_find(const void *addr, size_t len, int *fd, size_t *off, size_t *chunk_len);
/* the registration of the pool's chunk holding [addr, addr + len) with
 * the network transport, if it has one (1: *mr and its packed key; the
 * chunk keeps it, the caller must not deregister it) */
int rma_mem_net(const void *addr, size_t len, rd_mr **mr, void *rkey, size_t *rkey_len);

/* sync.c */
/* Progress until every operation to target t (-1: to all) is done there. */
void rma_flush(struct rd_rma_win *rw, int t);
/* May this rank access target t now? */
int rma_in_epoch(struct rd_rma_win *rw, int t);

/* rdma.c: the network's direct paths (RDMA, HW_ATOMIC) */
/* At open: register the window's memory and lock word, fill mine's net
 * fields (nothing when the network is not used). */
int rma_net_open(struct rd_rma_win *rw, struct rd_rma_info *mine, char *why);
/* At table: whether origin this rank reaches target t by RDMA (fills
 * the peer's net state), and whether the window's accumulates and locks
 * go by the device (every rank said hw_ok). */
int rma_net_peer(struct rd_rma_win *rw, int t, const struct rd_rma_info *all);
void rma_net_close(struct rd_rma_win *rw);
/* whether the network transport's put() completes at the target
 * (transport.h: not verbs on iWARP, caps.put_sent_only); else Put goes by
 * active messages on the RDMA path */
int rma_net_put_placed(void);
/* Put or Get of n bytes at target address addr (an offset from its base)
 * by RDMA: src, n packed bytes (Put, copied); rec/ooff: the Get's record
 * and offset (rma_resp_arrived on completion). */
void rma_net_piece(struct rd_rma_win *rw, int t, int put, uint64_t addr, const void *src, size_t n,
                   uint64_t rec, uint64_t ooff);
/* Accumulate-type call o on target t by the device's atomics, if the
 * window goes by them and o's elements qualify (1: done, *err its class;
 * 0: not taken, the caller goes on). e: the element type; tb: target
 * displacement in bytes. */
int rma_hw_do(struct rd_rma_win *rw, const struct rd_rma_call *o, MPI_Datatype e, int64_t tb,
              struct rd_request_s *req, int *err);
/* The fast path's Fetch_and_op (fetch-and-add of operand: MPI_SUM, or 0
 * for MPI_NO_OP) or Compare_and_swap (cas) of one 8-byte integer at
 * target offset off (inside the window), if the window goes by the
 * device's atomics and the address is aligned (1: done, the old value in
 * old; a transport failure is the window's error, rw->err, raised at the
 * next synchronisation; 0: not taken). Single-threaded callers only. */
int rma_hw_fetch(struct rd_rma_win *rw, int t, uint64_t off, int cas, uint64_t operand, uint64_t compare,
                 void *old);
/* Passive-target locks on target t by device atomics on its lock word:
 * whether they do (HW windows), try (1: taken), release. */
int rma_hw_locks(struct rd_rma_win *rw, int t);
int rma_hw_lock_try(struct rd_rma_win *rw, int t, int type);
void rma_hw_lock_release(struct rd_rma_win *rw, int t, int type);

#endif

/* rma.h - one-sided communication (runtime/rma/), as runtime/api/ calls it.
 * Callers have checked handles and hold the big lock. The functions that
 * may fail return an MPI error class and, in why (RD_RMA_WHY bytes), the
 * cause for the message; the API raises it on the window. Collective steps
 * (the exchange at creation, the barriers of fence and free) are the
 * API's: it runs them between these calls. */
#ifndef RD_RMA_H
#define RD_RMA_H

#include <mpi.h>
#include <stdint.h>

#include "runtime/base/error.h"
#include "runtime/p2p/request.h"

#define RD_RMA_WHY 160
/* the largest packed remote key a window's creation exchange carries */
#define RD_RMA_RKEY_MAX 256

/* At MPI_Init: register the active-message handler with the engine. */
void rd_rma_init(void);

/* The progress thread (RDMPI_RMA_PROGRESS_THREAD): started once the
 * engine is up (it turns the big lock on), stopped first at MPI_Finalize. */
void rd_rma_progress_start(void);
void rd_rma_progress_stop(void);
/* The same thread, whatever RDMPI_RMA_PROGRESS_THREAD says, for a floor
 * whose operations need a target's progress while it computes (the
 * counter below); it runs until MPI_Finalize. The caller holds the big
 * lock: when the lock was off (no thread yet, not MPI_THREAD_MULTIPLE) it
 * is turned on and taken here, so the caller's RD_UNLOCK releases it. */
void rd_rma_progress_need(void);

/* A 64-bit counter at rank 0 of a communicator for the floors above (the
 * I/O floor's shared file pointer): an internal 8-byte allocate window,
 * no user-visible object; it borrows comm, which must outlive it. open
 * and close are collective over comm (its collective traffic goes over
 * comm's library context) and run with the big lock held, like the
 * other calls here; open sets the counter to init (rank 0's value).
 * fetch_add and store are not collective: fetch_add is one atomic of
 * rma's (a CPU atomic on a node, the device's over RDMA, else an active
 * message answered by rank 0's progress, for which open starts rma's
 * progress thread at rank 0: rd_rma_progress_need), complete at return;
 * store replaces the value (an accumulate with MPI_REPLACE, atomic with
 * the fetch-and-adds). Each returns an MPI error class, the cause in why. */
struct rd_rma_counter;
int rd_rma_counter_open(MPI_Comm comm, int64_t init, struct rd_rma_counter **out, char *why);
int rd_rma_counter_fetch_add(struct rd_rma_counter *c, int64_t add, int64_t *old, char *why);
int rd_rma_counter_store(struct rd_rma_counter *c, int64_t v, char *why);
int rd_rma_counter_close(struct rd_rma_counter *c, char *why);

/* At MPI_Finalize, before the transports close: MPI_Alloc_mem's chunks
 * give their network registrations back (mem.c). */
void rd_rma_mem_close(void);

/* What each rank tells the others when a window is made (allgathered). */
struct rd_rma_info {
    uint64_t size;
    int64_t disp_unit;
    uint32_t id;       /* its window's id in its process */
    int32_t pid;
    int32_t fd;        /* its node segment's descriptor (allocate), -1: none */
    int32_t node;      /* its node (rd_job_node_of), -1: unknown */
    uint64_t base;     /* its window's address (create: node peers copy by CMA) */
    /* create over MPI_Alloc_mem memory (mem.c): fd is the pool chunk
     * holding the window, at seg_off in its seg_len bytes; ctl_* the
     * chunk of its accumulate and lock words (ctl_fd -1: none) */
    uint64_t seg_off, seg_len, ctl_off, ctl_len;
    int32_t ctl_fd, pad;
    /* the network's direct paths (rdma.c): its window memory and its
     * lock word registered on the network transport, with their keys */
    uint8_t net;       /* 1: the window memory is registered (rkey, base) */
    uint8_t hw_ok;     /* it reaches every rank, itself included, by RDMA with atomics */
    uint16_t rkey_len, ctl_rkey_len;
    uint64_t ctl;      /* its lock word's address (hw_ok) */
    unsigned char rkey[RD_RMA_RKEY_MAX], ctl_rkey[RD_RMA_RKEY_MAX];
};

/* Creation, in three steps around the API's allgather of rd_rma_info:
 * open (local state; for MPI_WIN_FLAVOR_ALLOCATE the memory), then
 * table (every rank's info: the per-target paths), and for
 * MPI_WIN_FLAVOR_SHARED segment (the node segment: rank 0 makes it and
 * the API broadcasts its fd). info: the window's info keys (may be NULL). */
int rd_rma_win_open(MPI_Win w, int flavor, MPI_Info info, struct rd_rma_info *mine, char *why);
int rd_rma_win_table(MPI_Win w, const struct rd_rma_info *all, char *why);
int rd_rma_shared_make(MPI_Win w, int *fd, char *why);       /* rank 0 of the window */
int rd_rma_shared_map(MPI_Win w, int fd0, char *why);        /* every rank, fd0 from rank 0 */
/* Before the closing barrier: what must hold for MPI_Win_free. */
int rd_rma_win_can_free(MPI_Win w, char *why);
void rd_rma_win_close(MPI_Win w);

int rd_rma_flavor(MPI_Win w);
int rd_rma_shared_query(MPI_Win w, int rank, MPI_Aint *size, MPI_Aint *disp_unit, void *baseptr, char *why);
int rd_rma_attach(MPI_Win w, void *base, MPI_Aint size, char *why);
int rd_rma_detach(MPI_Win w, const void *base, char *why);
int rd_rma_get_info(MPI_Win w, MPI_Info *info, char *why);
int rd_rma_set_info(MPI_Win w, MPI_Info info, char *why);

/* Communication. kind: which call; req: the request of an R-form (NULL
 * otherwise), completed when the operation completes at the origin. */
enum rd_rma_kind { RD_RMA_PUT, RD_RMA_GET, RD_RMA_ACC, RD_RMA_GACC, RD_RMA_CAS };
struct rd_rma_call {
    int kind;
    const void *obuf; MPI_Count ocount; MPI_Datatype odt; /* origin (ACC/GACC/PUT), compare+origin for CAS */
    const void *cbuf;                                     /* CAS: compare */
    void *rbuf; MPI_Count rcount; MPI_Datatype rdt;       /* GET: origin; GACC/CAS: result */
    int target; MPI_Aint tdisp; MPI_Count tcount; MPI_Datatype tdt; /* (counts: the _c calls' too) */
    MPI_Op op;
};
int rd_rma_do(MPI_Win w, const struct rd_rma_call *o, struct rd_request_s *req, char *why);

/* The node fast path (fast.c): the common case done at once, without the
 * big lock: contiguous types, an epoch open (fence, lock, lock_all), the
 * target's memory reachable by loads and stores here (a node peer's
 * mapped segment, or this rank's own window). Each returns MPI_SUCCESS
 * when it did the operation, RD_RMA_SLOW when the general call must run
 * instead (which checks everything again and raises what is wrong); the
 * fast path changes nothing before it is sure to succeed. Callers have
 * checked that the library is ready and the window valid. Targets the
 * network transport reaches (RDMA, HW_ATOMIC) take it too, single-threaded:
 * a contiguous Put is one transport put, a Fetch_and_op (MPI_SUM,
 * MPI_NO_OP) or Compare_and_swap of an 8-byte integer on a window by the
 * device's atomics one device atomic (fast.c, "the network's fast path"). */
#define RD_RMA_SLOW (-1)
int rd_rma_put_fast(MPI_Win w, const void *obuf, MPI_Count ocount, MPI_Datatype odt, int t, MPI_Aint tdisp,
                    MPI_Count tcount,
                    MPI_Datatype tdt);
int rd_rma_get_fast(MPI_Win w, void *obuf, MPI_Count ocount, MPI_Datatype odt, int t, MPI_Aint tdisp,
                    MPI_Count tcount,
                    MPI_Datatype tdt);
/* Accumulate (rbuf NULL) and Get_accumulate, one predefined element type */
int rd_rma_acc_fast(MPI_Win w, const void *obuf, MPI_Count ocount, MPI_Datatype odt, void *rbuf, MPI_Count rcount,
                    MPI_Datatype rdt, int t, MPI_Aint tdisp, MPI_Count tcount, MPI_Datatype tdt, MPI_Op op);
int rd_rma_fop_fast(MPI_Win w, const void *obuf, void *rbuf, MPI_Datatype dt, int t, MPI_Aint tdisp, MPI_Op op);
int rd_rma_cas_fast(MPI_Win w, const void *obuf, const void *cbuf, void *rbuf, MPI_Datatype dt, int t,
                    MPI_Aint tdisp);
/* flush and flush_local to rank t (RD_RMA_ALL: every rank) when nothing
 * is pending: a memory fence (and, one call in RMA_FLUSH_POLL, the
 * general call, for its progress); to one target the network reaches,
 * single-threaded: its transfers' completions waited for, then the fence */
int rd_rma_flush_fast(MPI_Win w, int t);
/* lock and unlock of a target whose lock word is mapped here (NODE, SELF
 * with a segment), single-threaded, at the first try: the word's atomic
 * and the epoch's bookkeeping (unlock: nothing pending; one call in
 * RMA_FLUSH_POLL runs the general unlock, for its progress call) */
int rd_rma_lock_fast(MPI_Win w, int type, int t, int assert);
int rd_rma_unlock_fast(MPI_Win w, int t);

/* MPI_Alloc_mem / MPI_Free_mem: node memory (mem.c). free_mem refuses
 * (MPI_ERR_BASE) what alloc_mem did not give; NULL is fine. */
int rd_rma_alloc_mem(MPI_Aint size, MPI_Info info, void **ptr, char *why);
int rd_rma_free_mem(void *ptr, char *why);

/* Whether a passive-target epoch (lock or lock_all) to rank t is open. */
int rd_rma_passive(MPI_Win w, int t);

/* Synchronisation (fence: before the API's barrier; fence_end after it). */
int rd_rma_fence(MPI_Win w, int assert, char *why);
void rd_rma_fence_end(MPI_Win w, int assert);
int rd_rma_lock(MPI_Win w, int type, int rank, int assert, char *why);
int rd_rma_unlock(MPI_Win w, int rank, char *why);
int rd_rma_lock_all(MPI_Win w, int assert, char *why);
int rd_rma_unlock_all(MPI_Win w, char *why);
#define RD_RMA_ALL (-1000000)
int rd_rma_flush(MPI_Win w, int rank, char *why); /* rank RD_RMA_ALL: every rank */
int rd_rma_post(MPI_Win w, MPI_Group g, int assert, char *why);
int rd_rma_start(MPI_Win w, MPI_Group g, int assert, char *why);
int rd_rma_complete(MPI_Win w, char *why);
int rd_rma_wait(MPI_Win w, int blocking, int *flag, char *why);

#endif

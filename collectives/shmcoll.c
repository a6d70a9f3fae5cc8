/* shmcoll.c - small blocking collectives of node-local communicators
 * through the node's memory (runtime/nodemem.h) instead of messages.
 *
 * A communicator whose ranks all live on this node takes a slot of the
 * arena at its first such collective (its rank 0 claims one and broadcasts
 * the number). Collective number s of the communicator then goes:
 *
 *   1. guard: before a rank overwrites its area s % D (D = RD_NODE_DEPTH),
 *      every reader of it must have read collective s - D: each rank
 *      publishes in its done word how far it has read, so a rank runs up
 *      to D - 1 collectives ahead of the slowest reader;
 *   2. the rank writes its data (if any) into its area and posts s in the
 *      area's sequence word (a release store: the data is visible first);
 *   3. it waits for the posts it needs (acquire loads), reads, and
 *      stores s in its done word.
 *
 * A larger Bcast (up to RDMPI_COLL_SHM_BCAST_MAX) streams: each chunk of
 * an area's size takes a collective number of its own, so the root writes
 * up to D - 1 chunks ahead of the readers. (Streaming Allgather and
 * Alltoall the same way was measured 2-4 times slower than the rendezvous
 * path at 64 KiB and 1 MiB, and is not done.)
 *
 * A small payload shares the cache line of the sequence word, so an 8-byte
 * Allreduce of 2 ranks costs one line each way. Reductions are applied in
 * rank order on every rank, so every rank gets the same bits, and
 * non-commutative operations are right. MPI_Allreduce with plainly valid
 * arguments, a predefined op and a slot already claimed comes straight
 * here (rd_shmcoll_allreduce), past the argument checks and the
 * dispatch, which were half of an 8-byte Allreduce's time on 2 ranks
 * (0.23 -> 0.16 us). While waiting, the rank keeps the
 * p2p engine moving (other ranks' messages, nonblocking collectives) and
 * yields its core when the node is oversubscribed. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "collectives/coll.h"
#include "collectives/shmcoll.h"
#include "runtime/comm.h"
#include "runtime/job.h"
#include "runtime/nodemem.h"
#include "runtime/op.h"
#include "runtime/params.h"

static int all_local(MPI_Comm comm)
{
    for (int i = 0; i < comm->size; i++) {
        int w = rd_comm_world_rank(comm, i), found = 0;
        for (int k = 0; k < rd_job.local_size && !found; k++)
            found = rd_job.local_peers[k] == w;
        if (!found)
            return 0;
    }
    return 1;
}

/* First use: decide for good whether comm goes through the node's memory.
 * Every rank reaches the same answer; the claim itself is collective. */
int rd_nc_setup(MPI_Comm comm)
{
    comm->node_slot = -1;
    if (!rd_node_arena.base || comm->size < 2 || comm->size > rd_node_arena.local_size ||
        !all_local(comm))
        return 0;
    static uint32_t claims;
    int slot = -1;
    if (comm->rank == 0) {
        uint64_t token = ((uint64_t)(rd_job.rank + 1) << 32) | ++claims;
        for (int i = 0; i < rd_node_arena.nslots && slot < 0; i++) {
            uint64_t free_ = 0;
            struct rd_node_slot_hdr *h = rd_node_slot(i);
            if (atomic_compare_exchange_strong(&h->owner, &free_, token)) {
                atomic_store_explicit(&h->released, 0, memory_order_relaxed);
                for (int r = 0; r < comm->size; r++) {
                    atomic_store_explicit(rd_node_done(i, r), 0, memory_order_relaxed);
                    for (int p = 0; p < RD_NODE_DEPTH; p++)
                        atomic_store_explicit(&rd_node_area(i, r, (uint64_t)p)->seq, 0, memory_order_relaxed);
                }
                slot = i;
            }
        }
    }
    /* the number travels by message, after the slot was cleared */
    struct rd_sched *s = rd_sched_new(comm);
    struct rd_coll_args a = {.comm = comm, .rbuf = &slot, .count = 1, .dt = MPI_INT, .root = 0};
    if (!s)
        return 0;
    if (rd_bcast_binomial(s, &a) != RD_OK) {
        rd_sched_discard(s); /* out of memory: every rank is in trouble anyway */
        return 0;
    }
    if (rd_sched_run(s) != MPI_SUCCESS || slot < 0)
        return 0;
    comm->node_known = calloc(2 * (size_t)comm->size, sizeof(uint64_t)); /* posted, done */
    if (!comm->node_known) {
        rd_node_slot_release(slot, comm->size);
        return 0;
    }
    comm->node_slot = slot + 1;
    comm->node_seq = 0;
    comm->node_staged = 0;
    return 1;
}

/* Has rank j read everything up to `want`? (no waiting) */
static int done_reading(MPI_Comm comm, int j, uint64_t want)
{
    uint64_t *known = &comm->node_known[comm->size + j];
    if (*known >= want)
        return 1;
    uint64_t v = atomic_load_explicit(rd_node_done(comm->node_slot - 1, j), memory_order_acquire);
    *known = v;
    return v >= want;
}

/* Has rank j posted at least `want`? (no waiting) */
int rd_nc_posted(MPI_Comm comm, int j, uint64_t want)
{
    if (comm->node_known[j] >= want)
        return 1;
    uint64_t v = atomic_load_explicit(&rd_node_area(comm->node_slot - 1, j, want)->seq, memory_order_acquire);
    if (v < want)
        return 0;
    comm->node_known[j] = v;
    return 1;
}

/* Wait until rank j has posted at least `want`. */
void rd_nc_wait_posted(MPI_Comm comm, int j, uint64_t want)
{
    long idle = 0;
    /* a peer on another core posts within a few hundred loads: watch the
     * word alone first (a round of progress between loads made the wait
     * see the post late), unless ranks share cores (then yield at once) */
    for (int k = rd_job.oversubscribed ? 256 : 0; k < 256; k++)
        if (rd_nc_posted(comm, j, want))
            return;
    while (!rd_nc_posted(comm, j, want))
        rd_wait_step(&idle);
}

void rd_nc_wait_all(MPI_Comm comm, uint64_t want)
{
    for (int j = 0; j < comm->size; j++)
        if (j != comm->rank)
            rd_nc_wait_posted(comm, j, want);
}

unsigned char *rd_nc_data(MPI_Comm comm, int j, uint64_t s)
{
    return rd_node_area(comm->node_slot - 1, j, s)->data;
}

/* A reader of a rank that may run ahead (a rooted collective's one side
 * does not wait for the other) asks for that rank's next two area lines
 * while it reads area s, so that they travel together instead of one
 * after the other (Bcast of 8 B back to back on 2 ranks in the host's
 * slow state: 0.19 -> 0.075 us). */
static void prefetch_next(MPI_Comm comm, int j, uint64_t s)
{
    __builtin_prefetch(rd_node_area(comm->node_slot - 1, j, s + 1));
    __builtin_prefetch(rd_node_area(comm->node_slot - 1, j, s + 2));
}

/* This rank has read everything up to s. */
void rd_nc_finish(MPI_Comm comm, uint64_t s)
{
    atomic_store_explicit(rd_node_done(comm->node_slot - 1, comm->rank), s, memory_order_release);
    comm->node_known[comm->size + comm->rank] = s;
}

void rd_nc_post(MPI_Comm comm, uint64_t s)
{
    atomic_store_explicit(&rd_node_area(comm->node_slot - 1, comm->rank, s)->seq, s,
                          memory_order_release);
    comm->node_known[comm->rank] = s;
}

/* Step 1: may this rank overwrite its area for s (every reader has read
 * collective s - D)? rd_nc_guard() waits for it. */
static int guard_ready(MPI_Comm comm, uint64_t s)
{
    if (s <= RD_NODE_DEPTH)
        return 1;
    for (int j = 0; j < comm->size; j++)
        if (j != comm->rank && !done_reading(comm, j, s - RD_NODE_DEPTH))
            return 0;
    return 1;
}

void rd_nc_guard(MPI_Comm comm, uint64_t s)
{
    long idle = 0;
    while (!guard_ready(comm, s))
        rd_wait_step(&idle);
}

/* Wait until every other rank has read everything up to s (what this
 * rank lent for collective s may be reused then). */
void rd_nc_wait_done(MPI_Comm comm, uint64_t s)
{
    long idle = 0;
    for (int j = 0; j < comm->size; j++)
        while (j != comm->rank && !done_reading(comm, j, s))
            rd_wait_step(&idle);
}

/* The largest payload of a collective through the areas. */
static size_t small_max(void)
{
    size_t max = (size_t)rd_param.coll_shm_max;
    return max < rd_node_arena.data ? max : rd_node_arena.data;
}

/* Does this call go through the node's memory? Every rank answers alike:
 * the answer depends on arguments that MPI requires to match. */
static int eligible(int kind, const struct rd_coll_args *a, size_t *bytes)
{
    size_t max = small_max(), n = (size_t)a->comm->size;
    switch (kind) {
    case RD_COLL_BARRIER:
        *bytes = 0;
        return rd_param.coll_barrier == 0;
    case RD_COLL_BCAST:
        /* larger broadcasts stream in chunks of one area each, from 3
         * ranks on (with 2, one single-copy rendezvous is faster: 2.3
         * against 5.8 us at 64 KiB) */
        *bytes = (size_t)a->count * a->dt->size;
        return rd_param.coll_bcast == 0 &&
               (*bytes <= max ||
                (n > 2 && *bytes <= (size_t)rd_param.coll_shm_bcast_max && !rd_shmdirect_staging()));
    case RD_COLL_REDUCE:
    case RD_COLL_ALLREDUCE:
        *bytes = (size_t)a->count * a->dt->size;
        return (kind == RD_COLL_REDUCE ? rd_param.coll_reduce : rd_param.coll_allreduce) == 0 &&
               a->dt->contig && *bytes <= max;
    case RD_COLL_ALLGATHER:
        *bytes = a->sbuf == MPI_IN_PLACE ? (size_t)a->rcount * a->rdt->size : (size_t)a->scount * a->sdt->size;
        return rd_param.coll_allgather == 0 && *bytes <= max;
    case RD_COLL_ALLTOALL:
        *bytes = (size_t)a->rcount * a->rdt->size;
        return rd_param.coll_alltoall == 0 && *bytes * n <= max;
    case RD_COLL_GATHER:
        *bytes = rd_nc_rooted_block(kind, a);
        return rd_param.coll_gather == 0 && *bytes <= max;
    case RD_COLL_SCATTER:
        *bytes = rd_nc_rooted_block(kind, a);
        return rd_param.coll_scatter == 0 && *bytes * n <= max;
    case RD_COLL_REDUCE_SCATTER:
    case RD_COLL_REDUCE_SCATTER_BLOCK: {
        long e0, e1, total;
        rd_nc_redscat_block(a, a->comm->rank, &e0, &e1, &total);
        *bytes = (size_t)total * a->dt->size; /* the whole vector */
        return rd_param.coll_reduce_scatter == 0 && a->dt->contig && *bytes <= max;
    }
    default:
        return 0;
    }
}

size_t rd_nc_rooted_block(int kind, const struct rd_coll_args *a)
{
    int sendside = (kind == RD_COLL_GATHER) != (a->comm->rank == a->root);
    return sendside ? (size_t)a->scount * a->sdt->size : (size_t)a->rcount * a->rdt->size;
}

void rd_nc_redscat_block(const struct rd_coll_args *a, int r, long *e0, long *e1, long *total)
{
    *e0 = *e1 = *total = 0;
    for (int j = 0; j < a->comm->size; j++) {
        long c = a->rcounts ? a->rcounts[j] : a->count;
        if (j == r)
            *e0 = *total, *e1 = *total + c;
        *total += c;
    }
}

/* Elements [e0, e1) of every rank's vector in its area s, reduced in rank
 * order into rbuf (a contiguous type). */
static void reduce_part(MPI_Comm comm, uint64_t s, void *rbuf, long e0, long e1, MPI_Datatype dt, MPI_Op op)
{
    size_t off = (size_t)e0 * dt->size, per;
    int n = comm->size;
    char *out = (char *)rbuf + dt->true_lb;
    rd_kernel k = rd_op_kernel(op, dt, &per);
    memcpy(out, rd_nc_data(comm, n - 1, s) + off, (size_t)(e1 - e0) * dt->size);
    for (int j = n - 2; j >= 0; j--) {
        const unsigned char *in = rd_nc_data(comm, j, s) + off;
        if (k)
            k(in, out, (size_t)(e1 - e0) * per);
        else
            rd_op_apply(op, in - dt->true_lb, rbuf, (int)(e1 - e0), dt);
    }
}

/* Allreduce, or Reduce to root (root >= 0), of count elements of a
 * contiguous dt (bytes > 0 of them, within an area): every rank leaves
 * its vector in its area; the ranks that need the result reduce them all. */
static void reduce_small(MPI_Comm comm, const void *mine, void *rbuf, int count, MPI_Datatype dt, MPI_Op op,
                         int root, size_t bytes)
{
    uint64_t s = ++comm->node_seq;
    rd_nc_guard(comm, s);
    memcpy(rd_nc_data(comm, comm->rank, s), (const char *)mine + dt->true_lb, bytes);
    rd_nc_post(comm, s);
    if (root < 0 || comm->rank == root) {
        rd_nc_wait_all(comm, s);
        if (root >= 0) /* the other ranks of a Reduce run ahead */
            for (int j = 0; j < comm->size; j++)
                if (j != root)
                    prefetch_next(comm, j, s);
        reduce_part(comm, s, rbuf, 0, count, dt, op);
    }
    rd_nc_finish(comm, s);
}

int rd_shmcoll_allreduce(const void *sbuf, void *rbuf, int count, MPI_Datatype dt, MPI_Op op, MPI_Comm comm)
{
    size_t per, bytes = (size_t)count * dt->size;
    /* what eligible() asks, on a communicator that has its slot already */
    if (comm->node_slot <= 0 || !rd_param.coll_shm || rd_param.coll_allreduce != 0 || bytes == 0 || bytes > small_max() || !rd_op_kernel(op, dt, &per))
        return 0;
    reduce_small(comm, sbuf == MPI_IN_PLACE ? rbuf : sbuf, rbuf, count, dt, op, -1, bytes);
    return 1;
}

int rd_shmcoll_run(int kind, const struct rd_coll_args *a, int *err)
{
    MPI_Comm comm = a->comm;
    size_t bytes;
    if (comm->node_slot < 0 || !rd_param.coll_shm || comm->size < 2 || comm->is_inter)
        return 0;
    int small = eligible(kind, a, &bytes);
    if (!small && !rd_shmdirect_eligible(kind, a))
        return 0;
    if (comm->node_slot == 0 && !rd_nc_setup(comm))
        return 0;
    if (!small) {
        *err = rd_shmdirect_run(kind, a);
        return 1;
    }
    *err = MPI_SUCCESS;
    int me = comm->rank, n = comm->size;
    if (kind != RD_COLL_BARRIER && bytes == 0)
        return 1; /* nothing moves (all ranks agree) */
    if (kind == RD_COLL_BCAST) {
        /* chunk by chunk, one collective number (one area) each: the root
         * streams up to RD_NODE_DEPTH - 1 chunks ahead of the readers */
        size_t chunk = rd_node_arena.data;
        for (size_t off = 0; off < bytes; off += chunk) {
            size_t len = bytes - off < chunk ? bytes - off : chunk;
            uint64_t s = ++comm->node_seq;
            if (me == a->root) {
                rd_nc_guard(comm, s);
                rd_dt_pack(a->rbuf, a->dt, off, rd_nc_data(comm, me, s), len);
                rd_nc_post(comm, s);
            } else {
                rd_nc_post(comm, s);
                rd_nc_wait_posted(comm, a->root, s);
                prefetch_next(comm, a->root, s);
                rd_dt_unpack(a->rbuf, a->dt, off, rd_nc_data(comm, a->root, s), len);
            }
            rd_nc_finish(comm, s);
        }
        return 1;
    }
    if (kind == RD_COLL_REDUCE || kind == RD_COLL_ALLREDUCE) {
        reduce_small(comm, a->sbuf == MPI_IN_PLACE ? a->rbuf : a->sbuf, a->rbuf, a->count, a->dt, a->op,
                     kind == RD_COLL_REDUCE ? a->root : -1, bytes);
        return 1;
    }
    uint64_t s = ++comm->node_seq;
    switch (kind) {
    case RD_COLL_BARRIER:
        /* No data, so no area: a rank that arrives has read everything up
         * to s (its earlier collectives are complete), so its done word
         * says both "arrived" and "done". One line per rank, the same one
         * every time, instead of an area's line that changes with s. */
        rd_nc_finish(comm, s);
        rd_nc_wait_done(comm, s);
        return 1;
    case RD_COLL_ALLGATHER: {
        MPI_Datatype rdt = a->rdt;
        MPI_Aint bstride = (MPI_Aint)a->rcount * rdt->extent;
        rd_nc_guard(comm, s);
        if (a->sbuf == MPI_IN_PLACE)
            rd_dt_pack((char *)a->rbuf + me * bstride, rdt, 0, rd_nc_data(comm, me, s), bytes);
        else
            rd_dt_pack(a->sbuf, a->sdt, 0, rd_nc_data(comm, me, s), bytes);
        rd_nc_post(comm, s);
        rd_nc_wait_all(comm, s);
        for (int j = 0; j < n; j++)
            if (j != me || a->sbuf != MPI_IN_PLACE)
                rd_dt_unpack((char *)a->rbuf + j * bstride, rdt, 0, rd_nc_data(comm, j, s), bytes);
        break;
    }
    case RD_COLL_GATHER: {
        /* every rank leaves its block in its area; the root takes them */
        int inplace = me == a->root && a->sbuf == MPI_IN_PLACE;
        if (!inplace) {
            rd_nc_guard(comm, s);
            rd_dt_pack(a->sbuf, a->sdt, 0, rd_nc_data(comm, me, s), bytes);
        }
        rd_nc_post(comm, s);
        if (me == a->root) {
            MPI_Aint bstride = (MPI_Aint)a->rcount * a->rdt->extent;
            for (int j = 0; j < n; j++) {
                if (j == me && inplace)
                    continue;
                rd_nc_wait_posted(comm, j, s);
                rd_dt_unpack((char *)a->rbuf + j * bstride, a->rdt, 0, rd_nc_data(comm, j, s), bytes);
            }
        }
        break;
    }
    case RD_COLL_SCATTER: {
        /* the root leaves every block in its area; each rank takes its own */
        if (me == a->root) {
            MPI_Aint bstride = (MPI_Aint)a->scount * a->sdt->extent;
            unsigned char *out = rd_nc_data(comm, me, s);
            rd_nc_guard(comm, s);
            for (int j = 0; j < n; j++)
                rd_dt_pack((const char *)a->sbuf + j * bstride, a->sdt, 0, out + (size_t)j * bytes, bytes);
            rd_nc_post(comm, s);
            if (a->rbuf != MPI_IN_PLACE)
                rd_dt_unpack(a->rbuf, a->rdt, 0, out + (size_t)me * bytes, bytes);
        } else {
            rd_nc_post(comm, s);
            rd_nc_wait_posted(comm, a->root, s);
            rd_dt_unpack(a->rbuf, a->rdt, 0, rd_nc_data(comm, a->root, s) + (size_t)me * bytes, bytes);
        }
        break;
    }
    case RD_COLL_REDUCE_SCATTER:
    case RD_COLL_REDUCE_SCATTER_BLOCK: {
        /* every rank leaves its whole vector; each reduces its own block */
        const void *mine = a->sbuf == MPI_IN_PLACE ? a->rbuf : a->sbuf;
        long e0, e1, total;
        rd_nc_redscat_block(a, me, &e0, &e1, &total);
        rd_nc_guard(comm, s);
        memcpy(rd_nc_data(comm, me, s), (const char *)mine + a->dt->true_lb, bytes);
        rd_nc_post(comm, s);
        rd_nc_wait_all(comm, s);
        if (e1 > e0)
            reduce_part(comm, s, a->rbuf, e0, e1, a->dt, a->op);
        break;
    }
    case RD_COLL_ALLTOALL: {
        int inplace = a->sbuf == MPI_IN_PLACE;
        const void *sbuf = inplace ? a->rbuf : a->sbuf;
        MPI_Datatype sdt = inplace ? a->rdt : a->sdt;
        MPI_Aint sstride = (MPI_Aint)(inplace ? a->rcount : a->scount) * sdt->extent;
        MPI_Aint rstride = (MPI_Aint)a->rcount * a->rdt->extent;
        unsigned char *out = rd_nc_data(comm, me, s);
        rd_nc_guard(comm, s);
        for (int j = 0; j < n; j++)
            rd_dt_pack((const char *)sbuf + j * sstride, sdt, 0, out + (size_t)j * bytes, bytes);
        rd_nc_post(comm, s);
        rd_nc_wait_all(comm, s);
        for (int j = 0; j < n; j++)
            rd_dt_unpack((char *)a->rbuf + j * rstride, a->rdt, 0, rd_nc_data(comm, j, s) + (size_t)me * bytes,
                         bytes);
        break;
    }
    }
    rd_nc_finish(comm, s);
    return 1;
}

/* shmcoll.c - small blocking collectives of node-local communicators
 * through the node's memory (runtime/base/nodemem.h) instead of messages, and
 * the choice of the path of every blocking collective of such
 * communicators that has one.
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
 *      area's sequence word (a release store: the data, and what the rank
 *      says of it, are visible first);
 *   3. it waits for the posts it needs (acquire loads), reads, and
 *      stores s in its done word.
 *
 * What a rank posts says its path and its bytes (shmcoll.h). The ranks'
 * counts may not match (an erroneous program), and each rank chooses its
 * path from its own arguments, so ranks may take different paths; every
 * path of a collective begins with a post at the same collective number,
 * and a rank reads, before it copies anything, what the ranks it copies
 * from or to posted:
 *   - Bcast and Scatter: the ranks other than the root take the root's
 *     path, whatever their own arguments say (follow): through the areas,
 *     the stage, the root's lent buffer, or the root's algorithm of
 *     messages, with the root's byte count (over scratch where theirs
 *     differs, so that what they pass on is whole), each copying what
 *     fits its buffer;
 *   - Gather and Reduce: the root reads every other rank's post (a block
 *     small enough for the areas is taken from there, as far as it fits);
 *     the others, when not in the areas, take the root's path;
 *   - the others (Allreduce, Allgather, Alltoall, Reduce_scatter): every
 *     rank reads every other's post.
 * A rank whose bytes differ from what it reads copies what fits its own
 * buffer, from where the other rank's geometry puts it, and returns
 * MPI_ERR_TRUNCATE; a rank on another path moves nothing with it. Since
 * the paths' collective numbers are agreed (a follower counts the root's
 * chunks), the communicator goes on as before. The message path posts too
 * (by_messages): whoever follows learns the algorithm and the bytes, and
 * no rank starts a schedule whose peers went another way.
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
 * non-commutative operations are right. The paths are entries of the
 * collectives' menus (select.c: node_follow, node_small, node_messages;
 * shmdirect.c's node_direct), each with its usable() check, and a
 * communicator's node table, filled when it claims its slot, lists the
 * ones it may take; MPI_Allreduce with plainly valid arguments on a
 * communicator that has its table goes from the entry point straight to
 * it, past the argument checks, which were half of an 8-byte Allreduce's
 * time on 2 ranks (0.23 -> 0.16 us). While waiting, the rank keeps the
 * p2p engine moving (other ranks' messages, nonblocking collectives) and
 * yields its core when the node is oversubscribed. */
#include "config.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collectives/algorithms.h"
#include "collectives/shmcoll.h"
#include "runtime/base/job.h"
#include "runtime/base/nodemem.h"
#include "runtime/base/params.h"
#include "runtime/base/report.h"
#include "runtime/objects/comm.h"
#include "runtime/objects/op.h"

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

/* Whether comm's ranks may share a slot of the node's memory: an arena,
 * at least 2 ranks, all on this node (the same answer on every rank). */
int rd_nc_local(MPI_Comm comm)
{
    return rd_node_arena.base && comm->size >= 2 && comm->size <= rd_node_arena.local_size && all_local(comm);
}

/* Slots a claim leaves free for communicators (a persistent collective
 * takes one only while more than this many are free). */
#define RD_NC_SLOTS_KEPT 8

int rd_nc_claim(MPI_Comm comm, int want, int for_request)
{
    static uint32_t claims;
    int slot = -1;
    if (comm->rank == 0 && want) {
        int nfree = 0;
        for (int i = 0; i < rd_node_arena.nslots && for_request; i++)
            nfree += atomic_load_explicit(&rd_node_slot(i)->owner, memory_order_relaxed) == 0;
        uint64_t token = ((uint64_t)(rd_job.rank + 1) << 32) | ++claims;
        for (int i = 0; i < rd_node_arena.nslots && slot < 0 && (!for_request || nfree > RD_NC_SLOTS_KEPT); i++) {
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
        return -1;
    if (rd_bcast_binomial(s, &a) != RD_OK) {
        rd_sched_discard(s); /* out of memory: every rank is in trouble anyway */
        return -1;
    }
    if (rd_sched_run(s) != MPI_SUCCESS)
        return -1;
    return slot;
}

/* First use: decide for good whether comm goes through the node's memory.
 * Every rank reaches the same answer; the claim itself is collective. */
int rd_nc_setup(MPI_Comm comm)
{
    comm->node_slot = -1;
    if (!rd_nc_local(comm))
        return 0;
    int slot = rd_nc_claim(comm, 1, 0);
    if (slot < 0)
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

/* ------------------------------------------------------------ what a wait waits for */

/* Set when a wait of these collectives starts polling (never on the first
 * loads of a wait, the fast path), for a report (runtime/base/report.h). */
static struct {
    MPI_Comm comm;
    int j;      /* the rank waited for; -1: any that has not arrived */
    uint64_t s; /* the collective's number */
    const char *what;
} nc_wait;

static void report_node_wait(struct rd_report_buf *b)
{
    MPI_Comm comm = nc_wait.comm;
    char name[160];

    if (comm == MPI_COMM_NULL || comm == NULL || comm->magic != RD_COMM_MAGIC || comm->node_slot <= 0)
        return;
    if (comm->name[0])
        snprintf(name, sizeof(name), "%s", comm->name);
    else if (comm->ctx == RD_CTX_WORLD)
        snprintf(name, sizeof(name), "MPI_COMM_WORLD");
    else
        snprintf(name, sizeof(name), "communicator #%u (%d ranks)", comm->ctx & ~1u, comm->size);
    for (int j = 0; j < comm->size; j++) {
        if (j == comm->rank || (nc_wait.j >= 0 && j != nc_wait.j))
            continue;
        if (nc_wait.j < 0 && rd_nc_posted(comm, j, nc_wait.s))
            continue;
        int w = rd_comm_world_rank(comm, j);
        const char *what = nc_wait.j >= 0 ? nc_wait.what : "arrive at";
        rd_report_printf(b, "W %d for %d to %s node-local collective #%llu\tnode-local collective "
                         "#%llu on %s: waits for rank %d to %s it\n", w, w, what,
                         (unsigned long long)nc_wait.s, (unsigned long long)nc_wait.s, name, j, what);
    }
}

static void nc_wait_begin(MPI_Comm comm, int j, uint64_t s, const char *what)
{
    rd_report_register(report_node_wait); /* (once: it keeps one of each) */
    nc_wait.comm = comm;
    nc_wait.j = j;
    nc_wait.s = s;
    nc_wait.what = what;
}

void rd_nc_wait_any(MPI_Comm comm, uint64_t s)
{
    nc_wait_begin(comm, -1, s, "arrive at");
}

void rd_nc_wait_end(void)
{
    nc_wait.comm = MPI_COMM_NULL;
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
    if (rd_nc_posted(comm, j, want))
        return;
    nc_wait_begin(comm, j, want, "arrive at");
    while (!rd_nc_posted(comm, j, want))
        rd_wait_step(&idle);
    rd_nc_wait_end();
}

/* Wait until every other rank has posted s; the first whose post is not
 * `want` (another path or count), or -1. */
static int wait_all_same(MPI_Comm comm, uint64_t s, uint64_t want)
{
    int odd = -1;
    for (int j = 0; j < comm->size; j++)
        if (j != comm->rank) {
            rd_nc_wait_posted(comm, j, s);
            if (odd < 0 && rd_nc_desc_of(comm, j, s) != want)
                odd = j;
        }
    return odd;
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

void rd_nc_post(MPI_Comm comm, uint64_t s, uint64_t desc)
{
    struct rd_node_area *ar = rd_node_area(comm->node_slot - 1, comm->rank, s);
    ar->desc = desc;
    atomic_store_explicit(&ar->seq, s, memory_order_release); /* the desc and the data first */
    comm->node_known[comm->rank] = s;
}

uint64_t rd_nc_desc_of(MPI_Comm comm, int j, uint64_t s)
{
    return rd_node_area(comm->node_slot - 1, j, s)->desc;
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
    if (guard_ready(comm, s))
        return;
    for (int j = 0; j < comm->size; j++)
        if (j != comm->rank && !done_reading(comm, j, s - RD_NODE_DEPTH)) {
            nc_wait_begin(comm, j, s - RD_NODE_DEPTH, "finish");
            break;
        }
    while (!guard_ready(comm, s))
        rd_wait_step(&idle);
    rd_nc_wait_end();
}

/* Wait until every other rank has read everything up to s (what this
 * rank lent for collective s may be reused then). */
void rd_nc_wait_done(MPI_Comm comm, uint64_t s)
{
    long idle = 0;
    for (int j = 0; j < comm->size; j++) {
        if (j == comm->rank || done_reading(comm, j, s))
            continue;
        nc_wait_begin(comm, j, s, "finish");
        while (!done_reading(comm, j, s))
            rd_wait_step(&idle);
    }
    rd_nc_wait_end();
}

/* ------------------------------------------------------------ counts that differ */

int rd_nc_differ(int j, uint64_t theirs, uint64_t mine, const char *each)
{
    char who[32];
    snprintf(who, sizeof who, "rank %d", j);
    return rd_coll_mismatch(who, rd_nc_bytes(theirs), mine, each);
}

int rd_nc_root_differs(uint64_t root, uint64_t mine, const char *each)
{
    uint64_t holds = rd_nc_bytes(root);
    if (rd_nc_path(root) == RD_NC_FAIL && holds == mine)
        rd_coll_why("the ranks' counts do not match: the root found that another rank sends another number of "
                    "bytes than its buffer holds");
    else if (mine > holds)
        rd_coll_why("message truncated at the root: this rank sends %llu bytes, the root's buffer holds %llu%s",
                    (unsigned long long)mine, (unsigned long long)holds, each);
    else
        rd_coll_why("message size mismatch: this rank sends %llu bytes, the root expects %llu%s",
                    (unsigned long long)mine, (unsigned long long)holds, each);
    return MPI_ERR_TRUNCATE;
}

/* ------------------------------------------------------------ which path */

/* The largest payload of a collective through the areas. */
static size_t small_max(void)
{
    size_t max = (size_t)rd_param.coll_shm_max;
    return max < rd_node_arena.data ? max : rd_node_arena.data;
}

/* The bytes of one block an Allgather or Alltoall sends and receives on
 * this rank (in place: what it receives). */
static size_t send_block(const struct rd_coll_args *a)
{
    return a->sbuf == MPI_IN_PLACE ? (size_t)a->rcount * a->rdt->size : (size_t)a->scount * a->sdt->size;
}

static size_t recv_block(const struct rd_coll_args *a)
{
    return (size_t)a->rcount * a->rdt->size;
}

/* What this rank posts for the call (a Bcast's whole vector, a block for
 * Gather, Scatter, Allgather and Alltoall, the whole vector of the
 * reductions), by this rank's own arguments. */
static size_t nc_bytes(int kind, const struct rd_coll_args *a)
{
    switch (kind) {
    case RD_COLL_BCAST:
    case RD_COLL_REDUCE:
    case RD_COLL_ALLREDUCE:
        return (size_t)a->count * a->dt->size;
    case RD_COLL_ALLGATHER:
    case RD_COLL_ALLTOALL:
        return send_block(a);
    case RD_COLL_GATHER:
    case RD_COLL_SCATTER:
        return rd_nc_rooted_block(kind, a);
    case RD_COLL_REDUCE_SCATTER:
    case RD_COLL_REDUCE_SCATTER_BLOCK: {
        long e0, e1, total;
        rd_nc_redscat_block(a, a->comm->rank, &e0, &e1, &total);
        return (size_t)total * a->dt->size; /* the whole vector */
    }
    default:
        return 0;
    }
}

/* Does this rank's side of the call go through the areas? Decided by this
 * rank's own arguments (the root's alone for Bcast and Scatter, which the
 * other ranks follow): ranks whose counts do not match may answer
 * differently, which what they post then shows. (Whether the areas may
 * be used at all, RDMPI_COLL_<NAME>, is the communicator's node table's
 * business: select.c.) */
int rd_nc_small_fits(int kind, const struct rd_coll_args *a)
{
    size_t max = small_max(), n = (size_t)a->comm->size, bytes = nc_bytes(kind, a);
    switch (kind) {
    case RD_COLL_BCAST:
        /* larger broadcasts stream in chunks of one area each, from 3
         * ranks on (with 2, one single-copy rendezvous is faster: 2.3
         * against 5.8 us at 64 KiB) */
        return bytes <= max || (n > 2 && bytes <= (size_t)rd_param.coll_shm_bcast_max && !rd_shmdirect_staging());
    case RD_COLL_REDUCE:
    case RD_COLL_ALLREDUCE:
    case RD_COLL_REDUCE_SCATTER:
    case RD_COLL_REDUCE_SCATTER_BLOCK:
        return a->dt->contig && bytes <= max;
    case RD_COLL_ALLGATHER:
    case RD_COLL_GATHER:
        return bytes <= max;
    case RD_COLL_ALLTOALL:
    case RD_COLL_SCATTER:
        return bytes * n <= max;
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
        long c = a->rcounts ? rd_coll_cnt(a, a->rcounts, j) : a->count;
        if (j == r)
            *e0 = *total, *e1 = *total + c;
        *total += c;
    }
}

/* ------------------------------------------------------------ the areas */

/* Elements [e0, e1) of every rank's vector in its area s, reduced in rank
 * order into rbuf (a contiguous type), by the op's loop k (per: its
 * elements per element of dt), or rd_op_apply where k is NULL (looked up
 * once per call, by the caller). Every rank must have posted d (the
 * same path and count as this one): the first that did not, or -1; its
 * area may hold fewer bytes, or something else, so that rbuf is then not
 * defined (nothing is read outside the areas). The check rides on the
 * reads, for the small Allreduce's sake: one load of a word in the line
 * the data comes in. */
int rd_nc_reduce_areas(int slot, int n, uint64_t s, uint64_t d, void *rbuf, long e0, long e1, MPI_Datatype dt,
                       MPI_Op op, rd_kernel k, size_t per)
{
    size_t off = (size_t)e0 * dt->size;
    int odd = -1;
    char *out = (char *)rbuf + dt->true_lb;
    const struct rd_node_area *ar = rd_node_area(slot, n - 1, s);
    if (ar->desc != d)
        odd = n - 1;
    memcpy(out, ar->data + off, (size_t)(e1 - e0) * dt->size);
    for (int j = n - 2; j >= 0; j--) {
        ar = rd_node_area(slot, j, s);
        if (ar->desc != d)
            odd = j;
        const unsigned char *in = ar->data + off;
        if (k)
            k(in, out, (size_t)(e1 - e0) * per);
        else
            rd_op_apply(op, in - dt->true_lb, rbuf, (MPI_Count)(e1 - e0), dt);
    }
    return odd;
}

static int reduce_part(MPI_Comm comm, uint64_t s, uint64_t d, void *rbuf, long e0, long e1, MPI_Datatype dt,
                       MPI_Op op, rd_kernel k, size_t per)
{
    return rd_nc_reduce_areas(comm->node_slot - 1, comm->size, s, d, rbuf, e0, e1, dt, op, k, per);
}

/* Allreduce, or Reduce to root (root >= 0), of count elements of a
 * contiguous dt (bytes of them, within an area): every rank leaves its
 * vector in its area; the ranks that need the result reduce them all,
 * and find whether every rank has the same count (else MPI_ERR_TRUNCATE:
 * the result is not defined). */
static int reduce_small(MPI_Comm comm, const void *mine, void *rbuf, MPI_Count count, MPI_Datatype dt, MPI_Op op,
                        int root, size_t bytes)
{
    size_t per = 0;
    rd_kernel k = NULL;
    if (root < 0 || comm->rank == root) {
        k = rd_op_kernel(op, dt, &per); /* (once per call) */
        if (!k && op->predefined && rd_op_check(op, dt) != MPI_SUCCESS) {
            /* (an Allreduce that came past the API's checks by its short way) */
            rd_coll_why("the operation is not defined on datatype %s", dt->name);
            return MPI_ERR_OP;
        }
    }
    uint64_t s = ++comm->node_seq, d = (uint64_t)RD_NC_SMALL << 56 | bytes; /* (bytes < RD_NC_BYTES) */
    int odd = -1;
    rd_nc_guard(comm, s);
    memcpy(rd_nc_data(comm, comm->rank, s), (const char *)mine + dt->true_lb, bytes);
    rd_nc_post(comm, s, d);
    if (root < 0 || comm->rank == root) {
        for (int j = 0; j < comm->size; j++)
            if (j != comm->rank)
                rd_nc_wait_posted(comm, j, s);
        if (root >= 0) /* the other ranks of a Reduce run ahead */
            for (int j = 0; j < comm->size; j++)
                if (j != root)
                    prefetch_next(comm, j, s);
        odd = reduce_part(comm, s, d, rbuf, 0, count, dt, op, k, per);
    }
    rd_nc_finish(comm, s);
    return odd < 0 ? MPI_SUCCESS : rd_nc_differ(odd, rd_nc_desc_of(comm, odd, s), bytes, "");
}

/* Reduce and Allreduce through the areas (the menus' node_small of
 * both): a contiguous type, within an area. */
int rd_nc_reduce_fits(int kind, const struct rd_coll_args *a)
{
    (void)kind;
    return a->dt->contig && (size_t)a->count * a->dt->size <= small_max();
}

int rd_nc_reduce_small(int kind, const struct rd_coll_args *a)
{
    return reduce_small(a->comm, a->sbuf == MPI_IN_PLACE ? a->rbuf : a->sbuf, a->rbuf, a->count, a->dt, a->op,
                        kind == RD_COLL_REDUCE ? a->root : -1, (size_t)a->count * a->dt->size);
}

/* Bcast through the areas, at the root: chunk by chunk, one collective
 * number (one area) each, so that it streams up to RD_NODE_DEPTH - 1
 * chunks ahead of the readers; each chunk says how many bytes there are in
 * all (an empty vector takes one empty chunk: the readers must learn it). */
static int bcast_small(MPI_Comm comm, const struct rd_coll_args *a, size_t bytes)
{
    size_t chunk = rd_node_arena.data, off = 0;
    uint64_t d = (uint64_t)RD_NC_SMALL << 56 | bytes; /* (bytes < RD_NC_BYTES) */
    do {
        size_t len = bytes - off < chunk ? bytes - off : chunk;
        uint64_t s = ++comm->node_seq;
        rd_nc_guard(comm, s);
        rd_dt_pack(a->rbuf, a->dt, off, rd_nc_data(comm, comm->rank, s), len);
        rd_nc_post(comm, s, d);
        rd_nc_finish(comm, s);
        off += len;
    } while (off < bytes);
    return MPI_SUCCESS;
}

/* ... and at another rank, from collective number s, whose root posted
 * `total` bytes (its area: ar): every chunk is read (the root's collective
 * numbers are the same on every rank), what fits this rank's `own` bytes
 * copied. */
static int bcast_small_follow(MPI_Comm comm, const struct rd_coll_args *a, uint64_t s,
                              const struct rd_node_area *ar, size_t total, size_t own)
{
    size_t chunk = rd_node_arena.data, off = 0;
    for (;;) {
        size_t len = total - off < chunk ? total - off : chunk;
        prefetch_next(comm, a->root, s);
        if (off < own)
            rd_dt_unpack(a->rbuf, a->dt, off, ar->data, own - off < len ? own - off : len);
        rd_nc_finish(comm, s);
        off += len;
        if (off >= total)
            break;
        s = ++comm->node_seq;
        rd_nc_wait_posted(comm, a->root, s);
        ar = rd_node_area(comm->node_slot - 1, a->root, s);
    }
    return own == total ? MPI_SUCCESS : rd_coll_mismatch("the root", total, own, "");
}

/* Gather: every rank leaves its block in its area; the root takes them,
 * each as far as it fits the root's blocks. */
static int gather_small(MPI_Comm comm, const struct rd_coll_args *a, size_t bytes)
{
    int me = comm->rank, n = comm->size, err = MPI_SUCCESS;
    uint64_t s = ++comm->node_seq, d = rd_nc_desc(RD_NC_SMALL, 0, bytes);
    int inplace = me == a->root && a->sbuf == MPI_IN_PLACE;
    size_t sb = me == a->root && !inplace ? (size_t)a->scount * a->sdt->size : bytes;
    rd_nc_guard(comm, s);
    if (!inplace)
        rd_dt_pack(a->sbuf, a->sdt, 0, rd_nc_data(comm, me, s), sb < bytes ? sb : bytes);
    rd_nc_post(comm, s, d);
    if (me == a->root) {
        if (!inplace && sb != bytes)
            err = rd_coll_mismatch("this rank", sb, bytes, " to itself");
        MPI_Aint bstride = (MPI_Aint)a->rcount * a->rdt->extent;
        for (int j = 0; j < n; j++) {
            if (j == me && inplace)
                continue;
            rd_nc_wait_posted(comm, j, s);
            uint64_t dj = j == me ? d : rd_nc_desc_of(comm, j, s);
            size_t got = rd_nc_bytes(dj);
            if (dj != d && err == MPI_SUCCESS)
                err = rd_nc_differ(j, dj, bytes, "");
            if (rd_nc_path(dj) == RD_NC_SMALL) /* (another path left nothing here) */
                rd_dt_unpack((char *)a->rbuf + j * bstride, a->rdt, 0, rd_nc_data(comm, j, s),
                             got < bytes ? got : bytes);
        }
    }
    rd_nc_finish(comm, s);
    return err;
}

/* Scatter: the root leaves every block in its area; each rank takes its
 * own (the others in scatter_small_follow). */
static int scatter_small(MPI_Comm comm, const struct rd_coll_args *a, size_t bytes)
{
    int me = comm->rank, n = comm->size, err = MPI_SUCCESS;
    uint64_t s = ++comm->node_seq;
    MPI_Aint bstride = (MPI_Aint)a->scount * a->sdt->extent;
    unsigned char *out = rd_nc_data(comm, me, s);
    rd_nc_guard(comm, s);
    for (int j = 0; j < n; j++)
        rd_dt_pack((const char *)a->sbuf + j * bstride, a->sdt, 0, out + (size_t)j * bytes, bytes);
    rd_nc_post(comm, s, rd_nc_desc(RD_NC_SMALL, 0, bytes));
    if (a->rbuf != MPI_IN_PLACE) {
        size_t rb = recv_block(a);
        rd_dt_unpack(a->rbuf, a->rdt, 0, out + (size_t)me * bytes, rb < bytes ? rb : bytes);
        if (rb != bytes)
            err = rd_coll_mismatch("this rank", bytes, rb, " to itself");
    }
    rd_nc_finish(comm, s);
    return err;
}

static int scatter_small_follow(MPI_Comm comm, const struct rd_coll_args *a, uint64_t s, size_t blk)
{
    size_t own = recv_block(a);
    rd_dt_unpack(a->rbuf, a->rdt, 0, rd_nc_data(comm, a->root, s) + (size_t)comm->rank * blk,
                 own < blk ? own : blk);
    rd_nc_finish(comm, s);
    return own == blk ? MPI_SUCCESS : rd_coll_mismatch("the root", blk, own, "");
}

/* Allgather and Alltoall: every rank leaves its block(s) in its area, then
 * takes what is for it from every area, as far as it fits its blocks. */
static int exchange_small(MPI_Comm comm, const struct rd_coll_args *a, size_t sb, int all2all)
{
    int me = comm->rank, n = comm->size, err = MPI_SUCCESS;
    int inplace = a->sbuf == MPI_IN_PLACE;
    size_t rb = recv_block(a);
    MPI_Aint rstride = (MPI_Aint)a->rcount * a->rdt->extent;
    const void *sbuf = inplace ? (all2all ? a->rbuf : (char *)a->rbuf + me * rstride) : a->sbuf;
    MPI_Datatype sdt = inplace ? a->rdt : a->sdt;
    MPI_Aint sstride = inplace ? rstride : (MPI_Aint)a->scount * a->sdt->extent;
    uint64_t s = ++comm->node_seq, d = rd_nc_desc(RD_NC_SMALL, 0, sb);
    unsigned char *out = rd_nc_data(comm, me, s);
    rd_nc_guard(comm, s);
    for (int j = 0; j < (all2all ? n : 1); j++)
        rd_dt_pack((const char *)sbuf + j * sstride, sdt, 0, out + (size_t)j * sb, sb);
    rd_nc_post(comm, s, d);
    for (int j = 0; j < n; j++) {
        if (j != me)
            rd_nc_wait_posted(comm, j, s);
        uint64_t dj = j == me ? d : rd_nc_desc_of(comm, j, s);
        size_t got = rd_nc_bytes(dj);
        if (got != rb && err == MPI_SUCCESS)
            err = j == me ? rd_coll_mismatch("this rank", got, rb, " to itself") : rd_nc_differ(j, dj, rb, "");
        else if (rd_nc_path(dj) != RD_NC_SMALL && err == MPI_SUCCESS)
            err = rd_nc_differ(j, dj, rb, "");
        if (rd_nc_path(dj) != RD_NC_SMALL || (j == me && inplace && !all2all))
            continue;
        rd_dt_unpack((char *)a->rbuf + j * rstride, a->rdt, 0, rd_nc_data(comm, j, s) + (all2all ? me * got : 0),
                     got < rb ? got : rb);
    }
    rd_nc_finish(comm, s);
    return err;
}

/* Reduce_scatter(_block): every rank leaves its whole vector; each
 * reduces its own block, once it finds that every vector is as long as
 * its own. */
static int redscat_small(MPI_Comm comm, const struct rd_coll_args *a, size_t bytes)
{
    const void *mine = a->sbuf == MPI_IN_PLACE ? a->rbuf : a->sbuf;
    long e0, e1, total;
    int err = MPI_SUCCESS;
    rd_nc_redscat_block(a, comm->rank, &e0, &e1, &total);
    uint64_t s = ++comm->node_seq, d = rd_nc_desc(RD_NC_SMALL, 0, bytes);
    rd_nc_guard(comm, s);
    memcpy(rd_nc_data(comm, comm->rank, s), (const char *)mine + a->dt->true_lb, bytes);
    rd_nc_post(comm, s, d);
    int odd = wait_all_same(comm, s, d);
    if (odd >= 0)
        err = rd_nc_differ(odd, rd_nc_desc_of(comm, odd, s), bytes, "");
    else if (e1 > e0) {
        size_t per;
        rd_kernel k = rd_op_kernel(a->op, a->dt, &per);
        reduce_part(comm, s, d, a->rbuf, e0, e1, a->dt, a->op, k, per);
    }
    rd_nc_finish(comm, s);
    return err;
}

/* ------------------------------------------------------------ by messages */

/* The schedule of algorithm alg (the menu's index), built and run here. */
static int run_alg(int kind, int alg, const struct rd_coll_args *a)
{
    struct rd_sched *s = rd_sched_new(a->comm);
    if (!s)
        return MPI_ERR_NO_MEM;
    rd_status st = rd_coll_build_alg(kind, alg, s, a);
    if (st != RD_OK) {
        rd_sched_discard(s);
        rd_coll_why("%s", rd_status_string(st));
        return rd_status_to_mpi(st);
    }
    return rd_sched_run(s);
}

/* The message path of a communicator that has a slot: the ranks agree on
 * it through the areas before any message, so that a rank never waits
 * for messages from a rank that went another way (its counts differ), and
 * ranks with different counts run the same algorithm:
 *   - Bcast and Scatter: the root posts its algorithm and bytes; the others
 *     follow it (message_follow);
 *   - Gather and Reduce: the other ranks post their bytes; the root, once
 *     it has them all, posts its algorithm, or RD_NC_FAIL if some rank's
 *     differ (then nobody sends anything);
 *   - the others: every rank posts its algorithm and bytes and waits for
 *     everyone's; all run the algorithm only if all are the same.
 * What this costs is one line from the root (or to it), or one line from
 * every rank, before the first message: a fraction of a microsecond, on
 * collectives from 4 KiB up that take several. */
static int by_messages(int kind, const struct rd_coll_args *a, uint64_t bytes)
{
    MPI_Comm comm = a->comm;
    int me = comm->rank, alg = rd_coll_pick(kind, a);
    uint64_t s = ++comm->node_seq, d = rd_nc_desc(RD_NC_P2P, alg, bytes);
    const char *each = kind == RD_COLL_GATHER || kind == RD_COLL_SCATTER ? " per rank" : "";
    if (alg < 0) /* (no algorithm serves the call: none is built, on any rank, but all post) */
        alg = 0xff;
    switch (kind) {
    case RD_COLL_BCAST:
    case RD_COLL_SCATTER: /* (the root: the others follow) */
        rd_nc_guard(comm, s);
        rd_nc_post(comm, s, d);
        rd_nc_finish(comm, s);
        return run_alg(kind, alg, a);
    case RD_COLL_GATHER:
    case RD_COLL_REDUCE:
        if (me == a->root) {
            int odd = wait_all_same(comm, s, rd_nc_desc(RD_NC_P2P, 0, bytes));
            rd_nc_guard(comm, s);
            rd_nc_post(comm, s, odd < 0 ? d : rd_nc_desc(RD_NC_FAIL, 0, bytes));
            rd_nc_finish(comm, s);
            return odd < 0 ? run_alg(kind, alg, a) : rd_nc_differ(odd, rd_nc_desc_of(comm, odd, s), bytes, each);
        } else {
            rd_nc_guard(comm, s);
            rd_nc_post(comm, s, rd_nc_desc(RD_NC_P2P, 0, bytes));
            rd_nc_wait_posted(comm, a->root, s);
            uint64_t dr = rd_nc_desc_of(comm, a->root, s);
            rd_nc_finish(comm, s);
            if (rd_nc_path(dr) != RD_NC_P2P || rd_nc_bytes(dr) != rd_nc_bytes(d))
                return rd_nc_root_differs(dr, bytes, each);
            return run_alg(kind, rd_nc_alg(dr), a);
        }
    default: {
        rd_nc_guard(comm, s);
        rd_nc_post(comm, s, d);
        int odd = wait_all_same(comm, s, d);
        rd_nc_finish(comm, s);
        return odd < 0 ? run_alg(kind, alg, a) : rd_nc_differ(odd, rd_nc_desc_of(comm, odd, s), bytes, "");
    }
    }
}

/* A rank of a Bcast or Scatter other than the root, on the root's message
 * path: the same algorithm; where this rank's bytes differ from the
 * root's, over scratch of the root's size (so that it passes on what the
 * algorithm has it pass on), then what fits is copied. */
static int message_follow(int kind, const struct rd_coll_args *a, uint64_t dr)
{
    size_t root = rd_nc_bytes(dr);
    size_t own = kind == RD_COLL_BCAST ? (size_t)a->count * a->dt->size : recv_block(a);
    if (own == root)
        return run_alg(kind, rd_nc_alg(dr), a);
    const char *each = kind == RD_COLL_SCATTER ? " per rank" : "";
    struct rd_scratch tmp = rd_scratch_get(root);
    if (!tmp.p)
        return MPI_ERR_NO_MEM; /* (the algorithm's other ranks may wait: out of memory) */
    struct rd_coll_args b = *a;
    if (kind == RD_COLL_BCAST) {
        b.rbuf = tmp.p;
        b.count = (MPI_Count)root;
        b.dt = MPI_BYTE;
    } else {
        b.rbuf = tmp.p;
        b.rcount = (MPI_Count)root;
        b.rdt = MPI_BYTE;
    }
    int err = run_alg(kind, rd_nc_alg(dr), &b);
    size_t n = own < root ? own : root;
    if (err == MPI_SUCCESS && kind == RD_COLL_BCAST)
        rd_dt_unpack(a->rbuf, a->dt, 0, tmp.p, n);
    else if (err == MPI_SUCCESS)
        rd_dt_unpack(a->rbuf, a->rdt, 0, tmp.p, n);
    rd_scratch_put(tmp);
    return err == MPI_SUCCESS ? rd_coll_mismatch("the root", root, own, each) : err;
}

/* A rank of a Bcast or Scatter other than the root: it takes whatever
 * path the root took (the root's arguments alone decide: this rank's
 * counts might differ), from the root's first collective number. */
int rd_nc_not_root(int kind, const struct rd_coll_args *a)
{
    (void)kind;
    return a->comm->rank != a->root;
}

int rd_nc_follow(int kind, const struct rd_coll_args *a)
{
    MPI_Comm comm = a->comm;
    uint64_t s = ++comm->node_seq;
    rd_nc_wait_posted(comm, a->root, s);
    const struct rd_node_area *ar = rd_node_area(comm->node_slot - 1, a->root, s);
    uint64_t dr = ar->desc;
    switch (rd_nc_path(dr)) {
    case RD_NC_SMALL:
        if (kind == RD_COLL_BCAST)
            return bcast_small_follow(comm, a, s, ar, rd_nc_bytes(dr), (size_t)a->count * a->dt->size);
        return scatter_small_follow(comm, a, s, rd_nc_bytes(dr));
    case RD_NC_P2P:
        rd_nc_finish(comm, s);
        return message_follow(kind, a, dr);
    default:
        return rd_shmdirect_follow(kind, a, s, dr);
    }
}

/* ------------------------------------------------------------ the entries */

/* Barrier: no data, so no area: a rank that arrives has read everything
 * up to s (its earlier collectives are complete), so its done word says
 * both "arrived" and "done". One line per rank, the same one every time,
 * instead of an area's line that changes with s. */
int rd_nc_barrier(int kind, const struct rd_coll_args *a)
{
    (void)kind;
    MPI_Comm comm = a->comm;
    uint64_t s = ++comm->node_seq;
    rd_nc_finish(comm, s);
    rd_nc_wait_done(comm, s);
    return MPI_SUCCESS;
}

/* Allgather and Alltoall through the areas (their menus' node_small). */
int rd_nc_exchange_fits(int kind, const struct rd_coll_args *a)
{
    return send_block(a) * (kind == RD_COLL_ALLTOALL ? (size_t)a->comm->size : 1) <= small_max();
}

int rd_nc_exchange_small(int kind, const struct rd_coll_args *a)
{
    return exchange_small(a->comm, a, send_block(a), kind == RD_COLL_ALLTOALL);
}

int rd_nc_small(int kind, const struct rd_coll_args *a)
{
    MPI_Comm comm = a->comm;
    size_t bytes = nc_bytes(kind, a);
    switch (kind) {
    case RD_COLL_BCAST:
        return bcast_small(comm, a, bytes);
    case RD_COLL_REDUCE:
    case RD_COLL_ALLREDUCE:
        return rd_nc_reduce_small(kind, a);
    case RD_COLL_GATHER:
        return gather_small(comm, a, bytes);
    case RD_COLL_SCATTER:
        return scatter_small(comm, a, bytes);
    case RD_COLL_ALLGATHER:
    case RD_COLL_ALLTOALL:
        return exchange_small(comm, a, bytes, kind == RD_COLL_ALLTOALL);
    default:
        return redscat_small(comm, a, bytes);
    }
}

int rd_nc_op_check(int kind, const struct rd_coll_args *a)
{
    if ((kind != RD_COLL_REDUCE && kind != RD_COLL_ALLREDUCE && kind != RD_COLL_REDUCE_SCATTER &&
         kind != RD_COLL_REDUCE_SCATTER_BLOCK) ||
        rd_op_check(a->op, a->dt) == MPI_SUCCESS)
        return MPI_SUCCESS;
    rd_coll_why("the operation is not defined on datatype %s", a->dt->name);
    return MPI_ERR_OP;
}

int rd_nc_messages(int kind, const struct rd_coll_args *a)
{
    int err = rd_nc_op_check(kind, a);
    if (err != MPI_SUCCESS)
        return err;
    /* what this rank posts: its bytes as the areas count them, an
     * Allgather's or Alltoall's only if both its sides agree */
    size_t bytes = nc_bytes(kind, a);
    if (kind == RD_COLL_ALLGATHER || kind == RD_COLL_ALLTOALL)
        bytes = send_block(a) == recv_block(a) ? bytes : RD_NC_BYTES;
    return by_messages(kind, a, bytes);
}

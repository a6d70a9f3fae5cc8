/* shmdirect.c - large blocking collectives of node-local communicators by
 * direct single-copy writes into the other ranks' buffers (Cross Memory
 * Attach, lent by the shm transport through runtime/base/nodemem.h), with no
 * messages at all.
 *
 * Collective number s of the communicator's slot (shmcoll.h): each rank
 * lends, in its area, its pid, where its incoming blocks land and where
 * its outgoing blocks are, and posts; then every block is copied once,
 * by whichever of its two ranks claims it first (a compare-and-swap on a
 * word of the destination's area): the source writes it, or the
 * destination reads it. Counters in the areas say how many blocks have
 * landed in a rank and left it; when both are complete, nothing touches
 * the rank's buffers any more and it returns.
 *
 * Why: the message path moves each block with a rendezvous handshake, and
 * each handshake needs the peer to be running. Here a rank needs nobody
 * after lending: the last rank to arrive copies everything that involves
 * it, both ways, so with more ranks than cores each rank needs its core
 * about twice per collective (to lend and copy, then to see that it is
 * complete). Sources write by preference: their data is in their cache
 * (measured on the message path too: a put-based Allgather of 1 MiB took
 * 48 us against 135 by get); a destination reads only what its source
 * has not written yet.
 *
 * (An Allreduce built the same way over CMA — each rank writes segment r
 * of its contribution to rank r, which reduces the pieces, then every
 * rank writes its reduced segment to all — measured slower than the
 * message path at every size on 2 and 4 ranks: 12 against 5.5 us at 64
 * KiB on 2 ranks, 156 against 130 at 512 KiB. With the buffers mapped
 * (shm_xmap.c) the reducer reads the contributions where they lie, with
 * no copy, and it wins from 16 KiB, the smallest buffer that is mapped: below.)
 *
 * A rank whose own layout is not one run of bytes packs what it sends
 * into scratch, or lends scratch and unpacks what arrived: the ranks need
 * not agree on their datatypes, only on the sizes, as MPI requires. */
#include "config.h"

#include <string.h>
#include <unistd.h>

#include "collectives/shmcoll.h"
#include "collectives/shmdirect.h"
#include "runtime/base/job.h"
#include "runtime/base/nodemem.h"
#include "runtime/base/params.h"
#include "runtime/objects/comm.h"
#include "runtime/objects/datatype.h"
#include "runtime/objects/op.h"

/* Lend for s: nland bytes at land in blocks of lbytes, nout at out in
 * blocks of obytes; posted as `desc`. */
void sd_lend(MPI_Comm comm, uint64_t s, const void *land, size_t nland, const void *out, size_t nout,
                 uint64_t desc, size_t lbytes, size_t obytes)
{
    struct rd_node_xkey kland = {0}, kout = {0};
    if (land) {
        rd_node_expose(land, nland, &kland);
        if (out == land && nout == nland) /* (once: a second call would count as a second use) */
            kout = kland;
        else
            rd_node_expose(out, nout, &kout);
    }
    rd_nc_guard(comm, s);
    struct lend *l = sd_lend_of(comm, comm->rank, s);
    l->pid = (uint64_t)getpid();
    l->land = (uint64_t)(uintptr_t)land;
    l->out = (uint64_t)(uintptr_t)out;
    l->kland = kland;
    l->kout = kout;
    l->lbytes = lbytes;
    l->obytes = obytes;
    atomic_store_explicit(&l->landed, 0, memory_order_relaxed);
    atomic_store_explicit(&l->sent, 0, memory_order_relaxed);
    for (int i = 0; i < comm->size; i++)
        atomic_store_explicit(&l->taken[i], 0, memory_order_relaxed);
    rd_nc_post(comm, s, desc); /* a release: the fields are visible first */
}

static struct xgeo geometry(MPI_Comm comm, const struct rd_coll_args *a, int all2all)
{
    struct xgeo g = {(size_t)a->rcount * a->rdt->size, 0, all2all, a->sbuf == MPI_IN_PLACE, a->sbuf, a->sdt, 0,
                     (MPI_Aint)a->rcount * a->rdt->extent};
    if (g.inplace) {
        g.sb = (const char *)a->rbuf + comm->rank * g.rstride;
        g.sdt = a->rdt;
        g.sbytes = g.bytes;
    } else {
        g.sstride = (MPI_Aint)a->scount * a->sdt->extent;
        g.sbytes = (size_t)a->scount * a->sdt->size;
    }
    return g;
}

/* This rank's own block, from its send buffer to its receive buffer (what
 * fits). */
static int own_block(const struct rd_coll_args *a, int me, const struct xgeo *g)
{
    if (!g->inplace)
        rd_coll_copy(g->sb + (g->all2all ? me * g->sstride : 0), a->scount, a->sdt, (char *)a->rbuf + me * g->rstride,
                     a->rcount, a->rdt);
    return g->sbytes == g->bytes ? MPI_SUCCESS : rd_coll_mismatch("this rank", g->sbytes, g->bytes, " to itself");
}

/* Copy block src -> dst if nobody has taken it yet; this rank is one of
 * the two. The block is as long as the smaller of what src sends and what
 * dst receives, and each sits where its own rank's geometry puts it. 1:
 * copied here, 0: somebody else has it, < 0: an MPI error. */
int sd_take(MPI_Comm comm, const struct xgeo *g, int src, int dst, struct lend *ls,
                struct lend *ld)
{
    uint32_t free_ = 0;
    if (!atomic_compare_exchange_strong_explicit(&ld->taken[src], &free_, 1, memory_order_acq_rel,
                                                 memory_order_relaxed))
        return 0;
    if (!ls->land || !ld->land) /* a rank that cannot take part: the error spreads */
        return -MPI_ERR_OTHER;
    size_t len = ls->obytes < ld->lbytes ? ls->obytes : ld->lbytes;
    size_t off = g->all2all ? (size_t)dst * ls->obytes : 0, at = (size_t)src * ld->lbytes;
    rd_status st;
    if (src == comm->rank)
        st = rd_node_copy(1, (pid_t)ld->pid, rd_comm_world_rank(comm, dst), &ld->kland,
                          (char *)(uintptr_t)ls->out + off, ld->land + at, len);
    else
        st = rd_node_copy(0, (pid_t)ls->pid, rd_comm_world_rank(comm, src), &ls->kout,
                          (char *)(uintptr_t)ld->land + at, ls->out + off, len);
    if (st != RD_OK)
        return -rd_status_to_mpi(st);
    atomic_fetch_add_explicit(&ld->landed, 1, memory_order_release);
    atomic_fetch_add_explicit(&ls->sent, 1, memory_order_release);
    return 1;
}

/* Where n blocks of `bytes` land in (buf, dt) laid out at `stride`: buf
 * itself when the blocks are one run, else scratch (NULL: out of memory)
 * unpacked by land_unpack. */
static char *landing(void *buf, MPI_Datatype dt, size_t bytes, int n, struct rd_scratch *tmp)
{
    if (dt->contig)
        return (char *)buf + dt->true_lb;
    *tmp = rd_scratch_get(bytes * (size_t)n);
    return tmp->p;
}

static void land_unpack(void *buf, MPI_Datatype dt, MPI_Aint stride, size_t bytes, int n, int skip,
                        const struct rd_scratch *tmp)
{
    if (dt->contig)
        return;
    for (int j = 0; j < n; j++)
        if (j != skip)
            rd_dt_unpack((char *)buf + j * stride, dt, 0, (char *)tmp->p + (size_t)j * bytes, bytes);
}

/* Allgather and Alltoall. Every rank lends both ends of its blocks, then
 * each block is copied once, by whichever of its two ranks takes it
 * first: the source writes it (preferred: its data is in its cache) or
 * the destination reads it. A rank that arrives after the others does
 * everything that involves it, so the others need not run again until
 * they return: with more ranks than cores, each rank needs the core
 * about twice per collective. A rank returns when all its blocks have
 * landed and all it lent out has left (nothing touches its buffers any
 * more). Everything that could fail happens before the rank lends: a
 * rank that cannot take part lends nothing, and every other rank, which
 * has blocks to exchange with it, fails too instead of returning with a
 * hole in its result; after an error a rank waits until every rank has
 * finished, so no copy into or out of its buffers is still running. */
static int exchange(MPI_Comm comm, const struct rd_coll_args *a, int all2all)
{
    int me = comm->rank, n = comm->size, err = MPI_SUCCESS, trunc = MPI_SUCCESS;
    struct xgeo g = geometry(comm, a, all2all);
    int nout = all2all ? n : 1;
    /* what this rank sends, as runs of bytes: block j (Alltoall) at j * sbytes */
    struct rd_scratch land_tmp = {0}, out_tmp = {0};
    const char *out = g.sb + g.sdt->true_lb;
    if (!g.sdt->contig) {
        out_tmp = rd_scratch_get(g.sbytes * (size_t)nout);
        if (out_tmp.p)
            for (int j = 0; j < nout; j++)
                rd_dt_pack(g.sb + j * g.sstride, g.sdt, 0, (char *)out_tmp.p + (size_t)j * g.sbytes, g.sbytes);
        out = out_tmp.p;
    }
    char *land = landing(a->rbuf, a->rdt, g.bytes, n, &land_tmp);
    if (!out || !land) {
        err = MPI_ERR_NO_MEM;
        land = NULL;
    }
    uint64_t s = ++comm->node_seq;
    sd_lend(comm, s, land, g.bytes * (size_t)n, out, g.sbytes * (size_t)nout, rd_nc_desc(RD_NC_DIRECT, 0, g.bytes),
         g.bytes, g.sbytes);
    struct lend *mine = sd_lend_of(comm, me, s);
    /* this rank's own block: once nothing else can be done (the others
     * wait for what this rank sends, not for this) */
    int own = err != MPI_SUCCESS;
    long idle = 0;
    uint32_t want = (uint32_t)n - 1;
    uint64_t seen = 0; /* ranks whose block sizes were compared with this rank's */
    while (err == MPI_SUCCESS && (atomic_load_explicit(&mine->landed, memory_order_acquire) < want ||
                                  atomic_load_explicit(&mine->sent, memory_order_acquire) < want)) {
        int did = 0;
        /* push what this rank sends to every rank that has lent, then
         * pull what has not come from every rank that has lent */
        for (int pass = 0; pass < 2 && err == MPI_SUCCESS; pass++)
            for (int k = 1; k < n && err == MPI_SUCCESS; k++) {
                int j = (me + k) % n;
                struct lend *lj;
                int st = sd_lent(comm, j, s, &lj);
                if (st < 0) { /* j went another way: nothing of it comes */
                    err = rd_nc_differ(j, rd_nc_desc_of(comm, j, s), g.bytes, " per rank");
                    break;
                }
                if (!st)
                    continue;
                if (!(seen >> j & 1)) {
                    seen |= UINT64_C(1) << j;
                    if (lj->land && lj->obytes != g.bytes && trunc == MPI_SUCCESS)
                        trunc = rd_nc_differ(j, lj->obytes, g.bytes, " per rank");
                }
                int r = pass == 0 ? sd_take(comm, &g, me, j, mine, lj)
                                  : rd_node_arena.read ? sd_take(comm, &g, j, me, lj, mine) : 0;
                if (r < 0)
                    err = -r;
                did |= r > 0;
            }
        if (!did && err == MPI_SUCCESS && !own) {
            trunc = own_block(a, me, &g) != MPI_SUCCESS && trunc == MPI_SUCCESS ? MPI_ERR_TRUNCATE : trunc;
            own = did = 1;
        }
        if (!did && err == MPI_SUCCESS) {
            if (idle == 0)
                rd_nc_wait_any(comm, s);
            rd_wait_step(&idle);
        }
    }
    rd_nc_wait_end();
    if (!own && err == MPI_SUCCESS && own_block(a, me, &g) != MPI_SUCCESS && trunc == MPI_SUCCESS)
        trunc = MPI_ERR_TRUNCATE;
    rd_nc_finish(comm, s);
    if (err != MPI_SUCCESS)
        rd_nc_wait_done(comm, s);
    else
        land_unpack(a->rbuf, a->rdt, g.rstride, g.bytes, n, me, &land_tmp);
    rd_scratch_put(land_tmp);
    rd_scratch_put(out_tmp);
    return err != MPI_SUCCESS ? err : trunc;
}

/* Staged: the blocks fit this rank's stage (shared memory of the slot), so
 * each goes in two user-space copies (source into its stage, destination
 * out of it). Measured here (2-core VM): when ranks outnumber cores it
 * wins, since ranks that share a core find each other's blocks in its
 * cache (4 ranks, 64 KiB: Allgather 33 us against 53 by CMA, Alltoall 46
 * against 70); with a core per rank it loses, since the reader pulls every
 * line from the other core (2 ranks, 64 KiB: 10.4 us against 7.4; a 64 KiB
 * block takes 6.5 us by CMA, whose writes stay in the writer's cache). So
 * RDMPI_COLL_SHM_STAGED=auto takes it only when oversubscribed. There is
 * one wait: until the others have posted. The stage is reused by the
 * next staged collective, which first waits until every rank has read
 * this one (by then, it usually has). The ranks' datatypes pack straight
 * into the stage and unpack out of it. */
int rd_shmdirect_staging(void)
{
    long mode = rd_param.coll_shm_staged;
    return rd_node_arena.stage &&
           (mode == RD_COLL_SHM_STAGED_YES || (mode == RD_COLL_SHM_STAGED_AUTO && rd_job.oversubscribed));
}

static int staged_fits(int all2all, const struct rd_coll_args *a)
{
    struct xgeo g = geometry(a->comm, a, all2all);
    size_t need = all2all ? g.sbytes * (size_t)(a->comm->size - 1) : g.sbytes;
    /* auto: not where buffers are mapped (one memcpy beats two: 4 ranks on
     * 2 cores, 64 KiB: Allgather 30 us against 48 staged) */
    long mode = rd_param.coll_shm_staged;
    int want = rd_shmdirect_staging() && (mode == RD_COLL_SHM_STAGED_YES || !rd_node_arena.attach);
    return want && need <= rd_node_arena.stage;
}

static void stage_out(const char *buf, MPI_Datatype dt, unsigned char *to, size_t bytes)
{
    if (dt->contig)
        memcpy(to, buf + dt->true_lb, bytes);
    else
        rd_dt_pack(buf, dt, 0, to, bytes);
}

static void stage_in(char *buf, MPI_Datatype dt, const unsigned char *from, size_t bytes)
{
    if (dt->contig)
        memcpy(buf + dt->true_lb, from, bytes);
    else
        rd_dt_unpack(buf, dt, 0, from, bytes);
}

static int staged(MPI_Comm comm, const struct rd_coll_args *a, int all2all)
{
    int me = comm->rank, n = comm->size, slot = comm->node_slot - 1, err = MPI_SUCCESS;
    struct xgeo g = geometry(comm, a, all2all);
    size_t sb = g.sbytes, rb = g.bytes;
    uint64_t s = ++comm->node_seq;
    if (comm->node_staged)
        rd_nc_wait_done(comm, comm->node_staged);
    rd_nc_guard(comm, s);
    /* Alltoall: the block for rank (me + k) % n at k - 1 */
    unsigned char *mine = rd_node_stage(slot, me);
    if (!all2all)
        stage_out(g.sb, g.sdt, mine, sb);
    else
        for (int k = 1; k < n; k++)
            stage_out(g.sb + ((me + k) % n) * g.sstride, g.sdt, mine + (size_t)(k - 1) * sb, sb);
    rd_nc_post(comm, s, rd_nc_desc(RD_NC_STAGED, 0, sb));
    err = own_block(a, me, &g);
    /* copy out of every stage as it is posted, what fits this rank's
     * blocks (a rank that posted another path left nothing there) */
    long idle = 0;
    uint64_t got = 0; /* n <= RD_SHM_COLL_MAX_RANKS = 64 */
    for (int left = n - 1; left > 0;) {
        int did = 0;
        for (int k = 1; k < n; k++) {
            int j = (me + k) % n;
            if ((got >> j & 1) || !rd_nc_posted(comm, j, s))
                continue;
            uint64_t dj = rd_nc_desc_of(comm, j, s);
            size_t bj = rd_nc_bytes(dj);
            if ((rd_nc_path(dj) != RD_NC_STAGED || bj != rb) && err == MPI_SUCCESS)
                err = rd_nc_differ(j, dj, rb, " per rank");
            if (rd_nc_path(dj) == RD_NC_STAGED) {
                size_t at = all2all ? (size_t)(n - k - 1) * bj : 0; /* j's block for me */
                stage_in((char *)a->rbuf + j * g.rstride, a->rdt, rd_node_stage(slot, j) + at, bj < rb ? bj : rb);
            }
            got |= 1ULL << j;
            left--;
            did = 1;
        }
        if (!did) {
            if (idle == 0)
                rd_nc_wait_any(comm, s);
            rd_wait_step(&idle);
        }
    }
    rd_nc_wait_end();
    rd_nc_finish(comm, s);
    comm->node_staged = s;
    return err;
}

/* Bcast through the root's stage, streamed: chunks of an eighth of the
 * stage, one collective number each, the root writing up to 8 chunks
 * ahead of the slowest reader. One copy in, one out per reader, and a
 * reader needs nobody but the root (a tree of messages makes every
 * inner rank wait for its parent). Only when staging (above). */
#define RD_STAGE_SLICES 8
static int stage_bcast(MPI_Comm comm, const struct rd_coll_args *a)
{
    int slot = comm->node_slot - 1;
    size_t bytes = (size_t)a->count * a->dt->size, off = 0;
    size_t chunk = rd_node_arena.stage / RD_STAGE_SLICES;
    uint64_t before = comm->node_staged; /* readers of the root's stage up to then */
    do { /* (an empty vector: one empty chunk, which tells the readers) */
        size_t len = bytes - off < chunk ? bytes - off : chunk;
        uint64_t s = ++comm->node_seq;
        unsigned char *slice = rd_node_stage(slot, a->root) + (size_t)(s % RD_STAGE_SLICES) * chunk;
        /* the slice's last contents: chunk s - 8, or an earlier staged
         * collective (which also keeps the areas' guard) */
        uint64_t need = s > RD_STAGE_SLICES ? s - RD_STAGE_SLICES : 0;
        if (need < before)
            need = before;
        if (need)
            rd_nc_wait_done(comm, need);
        rd_dt_pack(a->rbuf, a->dt, off, slice, len);
        rd_nc_post(comm, s, rd_nc_desc(RD_NC_STAGED, 0, bytes));
        comm->node_staged = s;
        rd_nc_finish(comm, s);
        off += len;
    } while (off < bytes);
    return MPI_SUCCESS;
}

/* A reader, from collective number s, whose root streams `total` bytes:
 * every chunk is read (so that it counts the root's collective numbers),
 * what fits its own bytes copied. */
static int stage_bcast_follow(MPI_Comm comm, const struct rd_coll_args *a, uint64_t s, size_t total)
{
    int slot = comm->node_slot - 1;
    size_t own = (size_t)a->count * a->dt->size, off = 0;
    size_t chunk = rd_node_arena.stage / RD_STAGE_SLICES;
    for (;;) {
        size_t len = total - off < chunk ? total - off : chunk;
        unsigned char *slice = rd_node_stage(slot, a->root) + (size_t)(s % RD_STAGE_SLICES) * chunk;
        if (off < own)
            rd_dt_unpack(a->rbuf, a->dt, off, slice, own - off < len ? own - off : len);
        rd_nc_finish(comm, s);
        off += len;
        if (off >= total)
            break;
        s = ++comm->node_seq;
        rd_nc_wait_posted(comm, a->root, s);
    }
    return own == total ? MPI_SUCCESS : rd_coll_mismatch("the root", total, own, "");
}

/* Wait until rank j says its part is done (its landed word: segment
 * reduced, or block copied): MPI_ERR_OTHER if it failed. */
int sd_wait_landed(struct lend *lj)
{
    long idle = 0;
    uint32_t st;
    while (!(st = atomic_load_explicit(&lj->landed, memory_order_acquire)))
        rd_wait_step(&idle);
    return st == 1 ? MPI_SUCCESS : MPI_ERR_OTHER;
}

int rd_shmdirect_follow(int kind, const struct rd_coll_args *a, uint64_t s, uint64_t desc)
{
    MPI_Comm comm = a->comm;
    if (kind == RD_COLL_BCAST && rd_nc_path(desc) == RD_NC_DIRECT)
        return sd_mapped_bcast_follow(comm, a, s);
    if (kind == RD_COLL_BCAST && rd_nc_path(desc) == RD_NC_STAGED)
        return stage_bcast_follow(comm, a, s, rd_nc_bytes(desc));
    if (kind == RD_COLL_SCATTER && rd_nc_path(desc) == RD_NC_DIRECT)
        return sd_scatter_follow(comm, a, s);
    rd_nc_finish(comm, s); /* (no root posts anything else) */
    return MPI_ERR_INTERN;
}

/* (The forced RDMPI_COLL_<NAME> and the communicator's size, which rule
 * this path out for good, are the node table's business: select.c.) */
int rd_shmdirect_eligible(int kind, const struct rd_coll_args *a)
{
    size_t min = (size_t)rd_param.coll_shm_direct_min;
    size_t armin = (size_t)rd_param.coll_shm_allreduce_min;
    int all2all = kind == RD_COLL_ALLTOALL;
    switch (kind) {
    case RD_COLL_ALLGATHER:
        break;
    case RD_COLL_ALLTOALL:
        if (a->sbuf == MPI_IN_PLACE)
            return 0;
        break;
    case RD_COLL_BCAST: /* (the small ones took the areas already) */
        return min && (sd_mapped_bcast_fits(a) || rd_shmdirect_staging());
    case RD_COLL_GATHER:
    case RD_COLL_SCATTER: {
        size_t rmin = (size_t)rd_param.coll_shm_rooted_min;
        return rmin && rd_nc_rooted_block(kind, a) >= rmin && rd_node_arena.write;
    }
    case RD_COLL_REDUCE:
        return rd_param.coll_shm_reduce_min && rd_node_arena.attach && a->dt->contig &&
               (size_t)a->count * a->dt->size >= (size_t)rd_param.coll_shm_reduce_min;
    case RD_COLL_REDUCE_SCATTER:
    case RD_COLL_REDUCE_SCATTER_BLOCK: {
        /* by the average block */
        long e0, e1, total;
        rd_nc_redscat_block(a, a->comm->rank, &e0, &e1, &total);
        return rd_param.coll_shm_reduce_min && rd_node_arena.attach &&
               a->dt->contig &&
               (size_t)total * a->dt->size >= (size_t)rd_param.coll_shm_reduce_min * (size_t)a->comm->size;
    }
    case RD_COLL_ALLREDUCE:
        /* mapped, or through the stages (stage_allreduce) when they are
         * used and nothing is mapped: by CMA it loses to the rings (above). From 16 KiB
         * (the smallest buffer that is mapped) it beats Rabenseifner on
         * 2 and 4 ranks alike: 2 ranks 32 KiB 4.8-5.5 against 6.0-6.6
         * us, 64 KiB 7.7-9.6 against 10.9-12.8; 4 ranks 32 KiB 23-32
         * against 34-41 (6 alternating runs; an earlier session, on a
         * faster state of the machine, had found Rabenseifner as fast on
         * 2 ranks up to 128 KiB) */
        return armin && (rd_node_arena.attach || sd_stage_allreduce_fits(a)) &&
               a->dt->contig && (size_t)a->count * a->dt->size >= armin;
    default:
        return 0;
    }
    return min && (size_t)a->rcount * a->rdt->size >= min && (staged_fits(all2all, a) || rd_node_arena.write);
}

int rd_shmdirect_run(int kind, const struct rd_coll_args *a)
{
    int all2all = kind == RD_COLL_ALLTOALL, err = rd_nc_op_check(kind, a);
    if (err != MPI_SUCCESS)
        return err;
    if (kind == RD_COLL_BCAST)
        return sd_mapped_bcast_fits(a) ? sd_mapped_bcast(a->comm, a) : stage_bcast(a->comm, a);
    if (kind == RD_COLL_ALLREDUCE)
        return sd_stage_allreduce_fits(a) ? sd_stage_allreduce(a->comm, a) : sd_allreduce(a->comm, a);
    if (kind == RD_COLL_REDUCE)
        return sd_reduce(a->comm, a);
    if (kind == RD_COLL_SCATTER || (kind == RD_COLL_GATHER && a->comm->rank == a->root))
        return sd_rooted_root(a->comm, a, kind == RD_COLL_GATHER);
    if (kind == RD_COLL_GATHER)
        return sd_gather_send(a->comm, a);
    if (kind == RD_COLL_REDUCE_SCATTER || kind == RD_COLL_REDUCE_SCATTER_BLOCK)
        return sd_reduce_scatter(a->comm, a);
    return staged_fits(all2all, a) ? staged(a->comm, a, all2all) : exchange(a->comm, a, all2all);
}

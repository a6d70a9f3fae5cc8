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
#include "runtime/objects/comm.h"
#include "runtime/objects/datatype.h"
#include "runtime/base/job.h"
#include "runtime/base/nodemem.h"
#include "runtime/objects/op.h"
#include "runtime/base/params.h"

/* What a rank lends for one collective number (in its area, posted as
 * RD_NC_DIRECT): where its incoming blocks land and where its outgoing
 * ones are, and the bytes of one block of each (they differ between ranks
 * only when the counts do not match, and every copy takes the smaller);
 * how many blocks have landed in it and left it so far; and, per source
 * rank, whether somebody has taken the block from that rank to this one. */
struct lend {
    uint64_t pid;
    uint64_t land; /* 0: this rank cannot take part */
    uint64_t out;
    uint64_t lbytes, obytes;
    struct rd_node_xkey kland, kout; /* land and out exposed for direct mapping */
    _Atomic uint32_t landed;
    _Atomic uint32_t sent;
    _Atomic uint32_t taken[];
};

static struct lend *lend_of(MPI_Comm comm, int j, uint64_t s)
{
    return (struct lend *)(void *)rd_nc_data(comm, j, s);
}

/* Lend for s: nland bytes at land in blocks of lbytes, nout at out in
 * blocks of obytes; posted as `desc`. */
static void lend(MPI_Comm comm, uint64_t s, const void *land, size_t nland, const void *out, size_t nout,
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
    struct lend *l = lend_of(comm, comm->rank, s);
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

/* Rank j's lending for s (no waiting): 1 lent (*l), 0 not posted yet, -1
 * posted something else (it took another path: its counts differ). */
static int lent(MPI_Comm comm, int j, uint64_t s, struct lend **l)
{
    if (!rd_nc_posted(comm, j, s))
        return 0;
    if (rd_nc_path(rd_nc_desc_of(comm, j, s)) != RD_NC_DIRECT)
        return -1;
    *l = lend_of(comm, j, s);
    return 1;
}

/* The geometry of one exchange: block k of rank j's result comes from
 * rank k (Allgather: k's one block; Alltoall: k's block j). */
struct xgeo {
    size_t bytes;   /* one block received */
    size_t sbytes;  /* one block sent (the same unless the counts do not match) */
    int all2all;
    int inplace;    /* (Allgather only) */
    const char *sb; /* what this rank sends: in sdt, Alltoall's blocks sstride apart */
    MPI_Datatype sdt;
    MPI_Aint sstride, rstride;
};

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
static int take(MPI_Comm comm, const struct xgeo *g, int src, int dst, struct lend *ls,
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
    lend(comm, s, land, g.bytes * (size_t)n, out, g.sbytes * (size_t)nout, rd_nc_desc(RD_NC_DIRECT, 0, g.bytes),
         g.bytes, g.sbytes);
    struct lend *mine = lend_of(comm, me, s);
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
                int st = lent(comm, j, s, &lj);
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
                int r = pass == 0 ? take(comm, &g, me, j, mine, lj)
                                  : rd_node_arena.read ? take(comm, &g, j, me, lj, mine) : 0;
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
    long mode = rd_param.coll_shm_staged; /* auto|yes|no */
    return rd_node_arena.stage && (mode == 1 || (mode == 0 && rd_job.oversubscribed));
}

static int staged_fits(int all2all, const struct rd_coll_args *a)
{
    struct xgeo g = geometry(a->comm, a, all2all);
    size_t need = all2all ? g.sbytes * (size_t)(a->comm->size - 1) : g.sbytes;
    /* auto: not where buffers are mapped (one memcpy beats two: 4 ranks on
     * 2 cores, 64 KiB: Allgather 30 us against 48 staged) */
    long mode = rd_param.coll_shm_staged;
    int want = rd_shmdirect_staging() && (mode == 1 || !rd_node_arena.attach);
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

/* ------------------------------------------------------------ Allreduce */

/* Allreduce of a node-local communicator with the buffers mapped (no
 * messages): rank r reduces segment r of the vector, reading every
 * rank's contribution to it where it lies (through the mapping of that
 * rank's send buffer, by CMA where nothing is mapped yet), into segment r
 * of its own result, and says so; then it copies every other segment from
 * the result of the rank that reduced it. Every rank ends with the same
 * bits (each segment is reduced once), in rank order for an op that does
 * not commute. It returns once every rank has copied what it needs (its
 * contribution and its segment are read by the others). The lend record
 * of exchange() serves: land is the result, out the contribution, and
 * landed says "reduced". */

/* How many elements a CMA copy of a contribution moves at once. */
#define AR_CHUNK (256 * 1024)

/* The scratch bytes for CMA reads of contributions whose largest segment
 * is maxseg bytes (of elements of es bytes). */
static size_t cma_chunk(size_t maxseg, size_t es)
{
    size_t n = maxseg < AR_CHUNK ? maxseg : AR_CHUNK;
    return n < es ? es : n; /* (one element larger than the chunk) */
}

/* inout (the origin of element e0 of this rank's result) op= rank j's
 * elements [e0, e0 + ne) of its contribution: in place through the
 * mapping where j exposed them, else copied by CMA into tmp (tmpn bytes)
 * first. */
static int fold_in(MPI_Comm comm, int j, const struct lend *lj, const struct rd_coll_args *a, long e0, long ne,
                   char *inout, char *tmp, size_t tmpn)
{
    MPI_Datatype dt = a->dt;
    size_t es = dt->size;
    uint64_t r0 = lj->out + (uint64_t)e0 * es, blo, bhi;
    int peer = rd_comm_world_rank(comm, j);
    unsigned char *m = rd_node_mapped((pid_t)lj->pid, peer, &lj->kout, r0, (size_t)ne * es, &blo, &bhi);
    /* the whole elements among the mapped bytes: [lo, hi) */
    long lo = (long)((blo - r0 + es - 1) / es), hi = (long)((bhi - r0) / es);
    if (lo >= hi)
        lo = hi = 0;
    if (hi > lo) {
        int err = rd_op_apply(a->op, m + (r0 + (uint64_t)lo * es - blo) - dt->true_lb, inout + lo * dt->extent,
                              (int)(hi - lo), dt);
        if (err != MPI_SUCCESS)
            return err;
    }
    long per = (long)(tmpn / es) > 0 ? (long)(tmpn / es) : 1;
    for (int piece = 0; piece < 2; piece++) {
        long p0 = piece ? hi : 0, p1 = piece ? ne : lo; /* (nothing mapped: all in the second) */
        for (long e = p0; e < p1; e += per) {
            long c = p1 - e < per ? p1 - e : per;
            rd_status st = rd_node_arena.read((pid_t)lj->pid, peer, tmp, r0 + (uint64_t)e * es, (size_t)c * es);
            if (st != RD_OK)
                return rd_status_to_mpi(st);
            int err = rd_op_apply(a->op, tmp - dt->true_lb, inout + e * dt->extent, (int)c, dt);
            if (err != MPI_SUCCESS)
                return err;
        }
    }
    return MPI_SUCCESS;
}

/* Elements [e0, e1) of every rank's contribution reduced into accb (the
 * bytes of element e0 of the result segment), in rank order for an op
 * that does not commute. Rank `alias`'s contribution already lies in accb
 * (in place; -1: nobody's): where it is not the first operand it is kept
 * aside in own (seg bytes) first. This rank's own contribution starts at
 * mine_b; the others' are read where they lent them (fold_in). */
static int reduce_segment(MPI_Comm comm, const struct rd_coll_args *a, struct lend *const *l, long e0, long e1,
                          char *accb, const char *mine_b, int alias, char *own, char *tmp, size_t tmpn)
{
    int me = comm->rank, n = comm->size, ordered = !a->op->commute, err = MPI_SUCCESS;
    MPI_Datatype dt = a->dt;
    size_t es = dt->size, seg = (size_t)(e1 - e0) * es;
    char *acc = accb - dt->true_lb; /* origin of the segment, for the op */
    int first = ordered ? n - 1 : alias >= 0 ? alias : me;
    if (!seg)
        return MPI_SUCCESS;
    if (alias >= 0 && alias != first)
        memcpy(own, accb, seg);
    if (first == me && first != alias)
        memcpy(accb, mine_b + (size_t)e0 * es, seg);
    else if (first != alias)
        err = rd_status_to_mpi(rd_node_copy(0, (pid_t)l[first]->pid, rd_comm_world_rank(comm, first),
                                            &l[first]->kout, accb, l[first]->out + (size_t)e0 * es, seg));
    for (int k = 1; k < n && err == MPI_SUCCESS; k++) {
        int j = ordered ? n - 1 - k : (first + k) % n;
        if (j == alias)
            err = rd_op_apply(a->op, own - dt->true_lb, acc, (int)(e1 - e0), dt);
        else if (j == me)
            err = rd_op_apply(a->op, (char *)mine_b + (size_t)e0 * es - dt->true_lb, acc, (int)(e1 - e0), dt);
        else
            err = fold_in(comm, j, l[j], a, e0, e1 - e0, acc, tmp, tmpn);
    }
    return err;
}

/* Lend (contribution `in`, result `land`: NULL when this rank cannot take
 * part) for the next collective number and wait for every rank's lending
 * (l[j]); MPI_ERR_OTHER if some rank cannot take part. MPI_ERR_TRUNCATE
 * if some rank has another count or took another path: every rank that
 * lent sees the same posts, so none touches another's buffers (and none
 * waits for another's progress: the caller goes straight to the end). */
static int lend_all(MPI_Comm comm, uint64_t s, const char *land, const char *in, size_t bytes, struct lend **l)
{
    int err = MPI_SUCCESS, odd = -1;
    uint64_t d = rd_nc_desc(RD_NC_DIRECT, 0, bytes);
    lend(comm, s, land, bytes, in, bytes, d, bytes, bytes);
    for (int j = 0; j < comm->size; j++) {
        rd_nc_wait_posted(comm, j, s);
        l[j] = lend_of(comm, j, s);
        if (rd_nc_desc_of(comm, j, s) != d && odd < 0)
            odd = j;
        else if (!l[j]->land)
            err = MPI_ERR_OTHER; /* a rank that cannot take part: all fail */
    }
    return odd >= 0 ? rd_nc_differ(odd, rd_nc_desc_of(comm, odd, s), bytes, "") : err;
}

/* Wait until rank j says its part is done (its landed word: segment
 * reduced, or block copied): MPI_ERR_OTHER if it failed. */
static int wait_landed(struct lend *lj)
{
    long idle = 0;
    uint32_t st;
    while (!(st = atomic_load_explicit(&lj->landed, memory_order_acquire)))
        rd_wait_step(&idle);
    return st == 1 ? MPI_SUCCESS : MPI_ERR_OTHER;
}

static int allreduce(MPI_Comm comm, const struct rd_coll_args *a)
{
    int me = comm->rank, n = comm->size, err = MPI_SUCCESS;
    MPI_Datatype dt = a->dt;
    size_t es = dt->size, bytes = (size_t)a->count * es;
    int inplace = a->sbuf == MPI_IN_PLACE;
    char *res = (char *)a->rbuf + dt->true_lb; /* the result's bytes */
    const char *in = inplace ? res : (const char *)a->sbuf + dt->true_lb;
    long e0 = (long)((int64_t)a->count * me / n), e1 = (long)((int64_t)a->count * (me + 1) / n);
    size_t seg = (size_t)(e1 - e0) * es, tmpn = cma_chunk(((size_t)a->count / (size_t)n + 1) * es, es);
    struct rd_scratch tmp = rd_scratch_get(tmpn), own = {0};
    if (inplace && !a->op->commute && seg)
        own = rd_scratch_get(seg); /* this rank's own segment, kept aside */
    if (!tmp.p || (inplace && !a->op->commute && seg && !own.p))
        err = MPI_ERR_NO_MEM;
    uint64_t s = ++comm->node_seq;
    struct lend *l[64];
    int lerr = lend_all(comm, s, err == MPI_SUCCESS ? res : NULL, in, bytes, l);
    struct lend *mine = l[me];
    if (lerr == MPI_ERR_TRUNCATE) /* the counts differ: nobody does anything */
        goto done;
    if (err == MPI_SUCCESS)
        err = lerr;
    if (err == MPI_SUCCESS)
        err = reduce_segment(comm, a, l, e0, e1, res + (size_t)e0 * es, in, inplace ? me : -1, own.p, tmp.p, tmpn);
    /* reduced (1) or failed (2): the others may copy this segment now,
     * or fail too; nobody waits for a rank that failed */
    atomic_store_explicit(&mine->landed, err == MPI_SUCCESS ? 1 : 2, memory_order_release);
    for (int k = 1; k < n; k++) {
        int j = (me + k) % n;
        int jerr = wait_landed(l[j]);
        if (err == MPI_SUCCESS)
            err = jerr; /* its segment is not reduced */
        long f0 = (long)((int64_t)a->count * j / n), f1 = (long)((int64_t)a->count * (j + 1) / n);
        if (err == MPI_SUCCESS && f1 > f0)
            err = rd_status_to_mpi(rd_node_copy(0, (pid_t)l[j]->pid, rd_comm_world_rank(comm, j), &l[j]->kland,
                                                res + (size_t)f0 * es, l[j]->land + (size_t)f0 * es,
                                                (size_t)(f1 - f0) * es));
    }
done:
    rd_nc_finish(comm, s);
    rd_nc_wait_done(comm, s); /* nobody reads this rank's buffers any more */
    rd_scratch_put(tmp);
    rd_scratch_put(own);
    return lerr == MPI_ERR_TRUNCATE ? lerr : err;
}

/* ------------------------------------------------------------ staged Allreduce */

/* Allreduce through the node's stages, with no buffer mapping (the
 * default: RDMPI_SHM_XMAP is opt-in), when the stages are used
 * (rd_shmdirect_staging(): ranks outnumber cores, or forced). The vector
 * goes in chunks of half a stage, alternating between the two halves:
 *   s1: each rank copies its contribution's chunk into its half, posts;
 *       rank r reduces segment r of the chunk out of every rank's half
 *       (its own first, then the next ranks in turn; an op that does not
 *       commute: in rank order, into its result), and leaves the reduced
 *       segment in place of its own contribution's segment r (nobody else
 *       reads that one) and in its result;
 *   s2: it posts; every rank copies the other segments out of their
 *       reducers' halves.
 * A half is overwritten once every rank has finished reading the chunk
 * before the last (its s2), so a rank can be one chunk ahead of the
 * slowest. Each segment is reduced once, in a fixed order: every rank
 * gets the same bits, from run to run too. */
static int stage_allreduce_fits(const struct rd_coll_args *a)
{
    long mode = rd_param.coll_shm_staged;
    return rd_shmdirect_staging() && (mode == 1 || !rd_node_arena.attach) && a->dt->contig &&
           a->dt->size > 0 && rd_node_arena.stage / 2 >= a->dt->size;
}

static int stage_allreduce(MPI_Comm comm, const struct rd_coll_args *a)
{
    int me = comm->rank, n = comm->size, slot = comm->node_slot - 1, err = MPI_SUCCESS;
    MPI_Datatype dt = a->dt;
    size_t es = dt->size, bytes = (size_t)a->count * es, half = rd_node_arena.stage / 2;
    long per = (long)(half / es); /* elements per chunk */
    char *res = (char *)a->rbuf + dt->true_lb;
    const char *in = a->sbuf == MPI_IN_PLACE ? res : (const char *)a->sbuf + dt->true_lb;
    uint64_t d = rd_nc_desc(RD_NC_STAGED, 0, bytes);
    uint64_t last[2] = {comm->node_staged, comm->node_staged}; /* each half's last readers */
    int ordered = !a->op->commute;
    long k = 0, c0 = 0;
    do {
        long ce = a->count - c0 < per ? a->count - c0 : per;
        int h = (int)(k & 1);
        uint64_t s1 = ++comm->node_seq;
        if (last[h])
            rd_nc_wait_done(comm, last[h]);
        rd_nc_guard(comm, s1);
        unsigned char *mine = rd_node_stage(slot, me) + (size_t)h * half;
        memcpy(mine, in + (size_t)c0 * es, (size_t)ce * es);
        rd_nc_post(comm, s1, d);
        if (k == 0) { /* every path begins with this post: do the counts and paths agree? */
            int odd = -1;
            for (int j = 0; j < n; j++) {
                rd_nc_wait_posted(comm, j, s1);
                if (odd < 0 && rd_nc_desc_of(comm, j, s1) != d)
                    odd = j;
            }
            if (odd >= 0) { /* nobody reads anybody's stage */
                rd_nc_finish(comm, s1);
                comm->node_staged = s1;
                return rd_nc_differ(odd, rd_nc_desc_of(comm, odd, s1), bytes, "");
            }
        }
        /* segment me of the chunk: elements [e0, e1) */
        long e0 = ce * me / n, e1 = ce * (me + 1) / n;
        size_t seg = (size_t)(e1 - e0) * es, off = (size_t)e0 * es;
        char *out = res + (size_t)(c0 + e0) * es;
        if (seg && !ordered) {
            char *acc = (char *)mine + off - dt->true_lb;
            for (int i = 1; i < n && err == MPI_SUCCESS; i++) {
                int j = (me + i) % n;
                rd_nc_wait_posted(comm, j, s1);
                err = rd_op_apply(a->op, rd_node_stage(slot, j) + (size_t)h * half + off - dt->true_lb, acc,
                                  (int)(e1 - e0), dt);
            }
            memcpy(out, mine + off, seg);
        } else if (seg) { /* c_0 op (c_1 op (... op c_n-1)), into the result */
            rd_nc_wait_posted(comm, n - 1, s1);
            memcpy(out, rd_node_stage(slot, n - 1) + (size_t)h * half + off, seg);
            for (int j = n - 2; j >= 0 && err == MPI_SUCCESS; j--) {
                rd_nc_wait_posted(comm, j, s1);
                err = rd_op_apply(a->op, rd_node_stage(slot, j) + (size_t)h * half + off - dt->true_lb,
                                  out - dt->true_lb, (int)(e1 - e0), dt);
            }
            memcpy(mine + off, out, seg);
        }
        uint64_t s2 = ++comm->node_seq;
        rd_nc_guard(comm, s2);
        rd_nc_post(comm, s2, d);
        /* the other segments, as their reducers post them */
        long idle = 0;
        uint64_t got = 0; /* n <= 64 */
        for (int left = n - 1; left > 0;) {
            int did = 0;
            for (int i = 1; i < n; i++) {
                int j = (me + i) % n;
                if ((got >> j & 1) || !rd_nc_posted(comm, j, s2))
                    continue;
                long f0 = ce * j / n, f1 = ce * (j + 1) / n;
                memcpy(res + (size_t)(c0 + f0) * es, rd_node_stage(slot, j) + (size_t)h * half + (size_t)f0 * es,
                       (size_t)(f1 - f0) * es);
                got |= 1ULL << j;
                left--;
                did = 1;
            }
            if (!did) {
                if (idle == 0)
                    rd_nc_wait_any(comm, s2);
                rd_wait_step(&idle);
            }
        }
        if (idle)
            rd_nc_wait_end();
        rd_nc_finish(comm, s2);
        last[h] = s2;
        comm->node_staged = s2;
        c0 += ce;
        k++;
    } while (c0 < a->count);
    return err;
}

/* Reduce the same way: rank r reduces segment r straight into the
 * root's result (through the mapping of the root's buffer; into scratch,
 * then written by CMA, before it is mapped), and the root returns once
 * every segment has landed. No contribution is copied before it is
 * reduced, and all ranks reduce at once: 1 MiB on 2 ranks 37 us against
 * 508 by the binomial tree (receive, then reduce) and Open MPI's 153;
 * from RDMPI_COLL_SHM_REDUCE_MIN (16 KiB, the smallest buffer that is
 * mapped: 2 ranks 4.0 against 8.4 us by the tree, 4 ranks 14 against 27). */
static int reduce(MPI_Comm comm, const struct rd_coll_args *a)
{
    int me = comm->rank, n = comm->size, root = a->root, err = MPI_SUCCESS;
    MPI_Datatype dt = a->dt;
    size_t es = dt->size, bytes = (size_t)a->count * es;
    int inplace = me == root && a->sbuf == MPI_IN_PLACE;
    char *res = me == root ? (char *)a->rbuf + dt->true_lb : NULL;
    const char *in = inplace ? res : (const char *)a->sbuf + dt->true_lb;
    long e0 = (long)((int64_t)a->count * me / n), e1 = (long)((int64_t)a->count * (me + 1) / n);
    size_t seg = (size_t)(e1 - e0) * es, tmpn = cma_chunk(((size_t)a->count / (size_t)n + 1) * es, es);
    /* scratch: the segment (when the root's buffer is not mapped), the
     * root's contribution kept aside (in place, op not commuting), and
     * CMA reads */
    struct rd_scratch tmp = rd_scratch_get(tmpn + 2 * seg);
    if (!tmp.p)
        err = MPI_ERR_NO_MEM;
    uint64_t s = ++comm->node_seq;
    struct lend *l[64];
    int lerr = lend_all(comm, s, err != MPI_SUCCESS ? NULL : me == root ? res : in, in, bytes, l);
    if (lerr == MPI_ERR_TRUNCATE) { /* the counts differ: nobody does anything */
        err = lerr;
        goto done;
    }
    if (err == MPI_SUCCESS)
        err = lerr;
    if (err == MPI_SUCCESS && seg) {
        struct lend *lr = l[root];
        int rootin = lr->out == lr->land; /* the root's contribution is its result */
        uint64_t rseg = lr->land + (size_t)e0 * es, lo, hi;
        char *dest = me == root ? res + (size_t)e0 * es : NULL;
        if (!dest) {
            dest = (char *)rd_node_mapped((pid_t)lr->pid, rd_comm_world_rank(comm, root), &lr->kland, rseg, seg, &lo, &hi);
            if (dest && (lo != rseg || hi != rseg + seg))
                dest = NULL; /* partly mapped: whole through scratch */
        }
        char *at = dest ? dest : (char *)tmp.p + tmpn + seg;
        err = reduce_segment(comm, a, l, e0, e1, at, in, dest && rootin ? root : -1, (char *)tmp.p + tmpn, tmp.p,
                             tmpn);
        if (err == MPI_SUCCESS && !dest)
            err = rd_status_to_mpi(
                rd_node_copy(1, (pid_t)lr->pid, rd_comm_world_rank(comm, root), &lr->kland, at, rseg, seg));
    }
    atomic_store_explicit(&l[me]->landed, err == MPI_SUCCESS ? 1 : 2, memory_order_release);
    if (me == root)
        for (int j = 0; j < n; j++) {
            int jerr = j == me ? MPI_SUCCESS : wait_landed(l[j]);
            if (err == MPI_SUCCESS)
                err = jerr;
        }
done:
    rd_nc_finish(comm, s);
    rd_nc_wait_done(comm, s); /* nobody reads this rank's buffers any more */
    rd_scratch_put(tmp);
    return err;
}

/* Reduce_scatter(_block) the same way: rank r reduces its own block of
 * the vector straight out of every rank's contribution into its receive
 * buffer (in place, into scratch first: the others read its contribution
 * there until they are done). */
static int reduce_scatter(MPI_Comm comm, const struct rd_coll_args *a)
{
    int err = MPI_SUCCESS;
    MPI_Datatype dt = a->dt;
    size_t es = dt->size, maxseg = 0;
    long e0, e1, total;
    for (int j = 0; j < comm->size; j++) {
        rd_nc_redscat_block(a, j, &e0, &e1, &total);
        maxseg = (size_t)(e1 - e0) * es > maxseg ? (size_t)(e1 - e0) * es : maxseg;
    }
    rd_nc_redscat_block(a, comm->rank, &e0, &e1, &total);
    size_t seg = (size_t)(e1 - e0) * es, tmpn = cma_chunk(maxseg, es);
    int inplace = a->sbuf == MPI_IN_PLACE;
    const char *in = (const char *)(inplace ? a->rbuf : a->sbuf) + dt->true_lb;
    struct rd_scratch tmp = rd_scratch_get(tmpn + (inplace ? seg : 0));
    if (!tmp.p)
        err = MPI_ERR_NO_MEM;
    uint64_t s = ++comm->node_seq;
    struct lend *l[64];
    int lerr = lend_all(comm, s, err == MPI_SUCCESS ? in : NULL, in, (size_t)total * es, l);
    if (err == MPI_SUCCESS || lerr == MPI_ERR_TRUNCATE)
        err = lerr;
    char *dest = inplace ? (char *)tmp.p + tmpn : (char *)a->rbuf + dt->true_lb;
    if (err == MPI_SUCCESS)
        err = reduce_segment(comm, a, l, e0, e1, dest, in, -1, NULL, tmp.p, tmpn);
    rd_nc_finish(comm, s);
    rd_nc_wait_done(comm, s); /* nobody reads this rank's contribution any more */
    if (err == MPI_SUCCESS && inplace)
        memcpy((char *)a->rbuf + dt->true_lb, dest, seg);
    rd_scratch_put(tmp);
    return err;
}

/* ------------------------------------------------------------ Gather, Scatter */

/* Gather and Scatter: the root lends its whole buffer (receive buffer for
 * Gather, send buffer for Scatter; scratch where its type is not one run
 * of bytes), and every other rank copies its block straight into it or
 * out of it (through the mapping; by CMA before it is mapped), with no
 * message and no wait for the other ranks. The root returns once every
 * block has been copied. Every copy takes the smaller of the root's block
 * and the other rank's. This is the root's side. */
static int rooted_root(MPI_Comm comm, const struct rd_coll_args *a, int gather)
{
    int me = comm->rank, n = comm->size, err = MPI_SUCCESS, trunc = MPI_SUCCESS;
    const void *buf = gather ? a->rbuf : a->sbuf;
    MPI_Datatype dt = gather ? a->rdt : a->sdt;
    int cnt = gather ? a->rcount : a->scount;
    size_t blk = (size_t)cnt * dt->size, len = (size_t)n * blk;
    struct rd_scratch tmp = {0};
    char *bytes = (char *)buf + dt->true_lb;
    if (!dt->contig || (MPI_Aint)blk != cnt * dt->extent) {
        tmp = rd_scratch_get(len);
        bytes = tmp.p;
        if (bytes && !gather) /* what leaves: packed first */
            rd_dt_pack(buf, dt, 0, bytes, len);
        if (!bytes)
            err = MPI_ERR_NO_MEM;
    }
    uint64_t s = ++comm->node_seq;
    const void *own = gather ? a->sbuf : a->rbuf;
    char *mine = bytes + (size_t)me * blk;
    if (err == MPI_SUCCESS && own != MPI_IN_PLACE) {
        size_t ob = gather ? (size_t)a->scount * a->sdt->size : (size_t)a->rcount * a->rdt->size;
        if (gather)
            rd_dt_pack(own, a->sdt, 0, mine, ob < blk ? ob : blk);
        else
            rd_dt_unpack((void *)own, a->rdt, 0, mine, ob < blk ? ob : blk);
        if (ob != blk)
            trunc = gather ? rd_coll_mismatch("this rank", ob, blk, " to itself")
                           : rd_coll_mismatch("this rank", blk, ob, " to itself");
    } else if (err == MPI_SUCCESS && gather && tmp.p) {
        rd_dt_pack(a->rbuf, a->rdt, (size_t)me * blk, mine, blk); /* in place: unpacked again below */
    }
    lend(comm, s, err == MPI_SUCCESS ? bytes : NULL, len, err == MPI_SUCCESS ? bytes : NULL, len,
         rd_nc_desc(RD_NC_DIRECT, 0, blk), blk, blk);
    for (int j = 0; gather && j < n; j++) { /* every block has landed (or failed) */
        if (j == me)
            continue;
        rd_nc_wait_posted(comm, j, s);
        uint64_t dj = rd_nc_desc_of(comm, j, s);
        size_t got = rd_nc_bytes(dj);
        if (rd_nc_path(dj) == RD_NC_DIRECT) {
            struct lend *lj = lend_of(comm, j, s);
            int jerr = wait_landed(lj);
            if (err == MPI_SUCCESS)
                err = jerr;
        } else if (rd_nc_path(dj) == RD_NC_SMALL && err == MPI_SUCCESS) {
            /* a rank whose block was small enough for the areas left it there */
            memcpy(bytes + (size_t)j * blk, rd_nc_data(comm, j, s), got < blk ? got : blk);
        }
        if ((rd_nc_path(dj) != RD_NC_DIRECT && rd_nc_path(dj) != RD_NC_SMALL) || got != blk)
            if (trunc == MPI_SUCCESS)
                trunc = rd_nc_differ(j, dj, blk, " per rank");
    }
    rd_nc_finish(comm, s);
    if (!gather)
        rd_nc_wait_done(comm, s); /* every block has been read */
    if (err == MPI_SUCCESS && tmp.p && gather)
        rd_dt_unpack(a->rbuf, a->rdt, 0, bytes, len);
    rd_scratch_put(tmp);
    return err != MPI_SUCCESS ? err : trunc;
}

/* A Gather's other rank: lends its block (only its landed word is read)
 * and, when the root lent its buffer, copies the block into it. */
static int gather_send(MPI_Comm comm, const struct rd_coll_args *a)
{
    int me = comm->rank, err = MPI_SUCCESS, trunc = MPI_SUCCESS;
    size_t blk = (size_t)a->scount * a->sdt->size;
    struct rd_scratch tmp = {0};
    char *bytes = (char *)a->sbuf + a->sdt->true_lb;
    if (!a->sdt->contig) {
        tmp = rd_scratch_get(blk);
        bytes = tmp.p;
        if (bytes)
            rd_dt_pack(a->sbuf, a->sdt, 0, bytes, blk);
        else
            err = MPI_ERR_NO_MEM;
    }
    uint64_t s = ++comm->node_seq;
    lend(comm, s, bytes, 0, bytes, 0, rd_nc_desc(RD_NC_DIRECT, 0, blk), 0, blk);
    rd_nc_wait_posted(comm, a->root, s);
    uint64_t dr = rd_nc_desc_of(comm, a->root, s);
    if (rd_nc_path(dr) != RD_NC_DIRECT) {
        trunc = rd_nc_root_differs(dr, blk, " per rank"); /* the root took another path: nothing to copy */
    } else {
        struct lend *lr = lend_of(comm, a->root, s);
        size_t room = lr->lbytes;
        if (!lr->land && err == MPI_SUCCESS)
            err = MPI_ERR_OTHER; /* the root cannot take part */
        if (err == MPI_SUCCESS && blk && room)
            err = rd_status_to_mpi(rd_node_copy(1, (pid_t)lr->pid, rd_comm_world_rank(comm, a->root), &lr->kland,
                                                bytes, lr->land + (uint64_t)me * room, blk < room ? blk : room));
        if (room != blk)
            trunc = rd_nc_root_differs(dr, blk, " per rank");
    }
    atomic_store_explicit(&lend_of(comm, me, s)->landed, err == MPI_SUCCESS ? 1 : 2, memory_order_release);
    rd_nc_finish(comm, s);
    rd_scratch_put(tmp);
    return err != MPI_SUCCESS ? err : trunc;
}

/* A Scatter's other rank, whose root lent its buffer for s: copies out
 * its block, as far as it fits. */
static int scatter_follow(MPI_Comm comm, const struct rd_coll_args *a, uint64_t s)
{
    int err = MPI_SUCCESS;
    struct lend *lr = lend_of(comm, a->root, s);
    size_t blk = lr->obytes, own = (size_t)a->rcount * a->rdt->size, n = own < blk ? own : blk;
    struct rd_scratch tmp = {0};
    char *bytes = (char *)a->rbuf + a->rdt->true_lb;
    if (!a->rdt->contig) {
        tmp = rd_scratch_get(n);
        bytes = tmp.p;
        if (!bytes)
            err = MPI_ERR_NO_MEM;
    }
    if (!lr->land && err == MPI_SUCCESS)
        err = MPI_ERR_OTHER; /* the root cannot take part */
    if (err == MPI_SUCCESS && n)
        err = rd_status_to_mpi(rd_node_copy(0, (pid_t)lr->pid, rd_comm_world_rank(comm, a->root), &lr->kland, bytes,
                                            lr->land + (uint64_t)comm->rank * blk, n));
    rd_nc_finish(comm, s);
    if (err == MPI_SUCCESS && tmp.p)
        rd_dt_unpack(a->rbuf, a->rdt, 0, bytes, n);
    rd_scratch_put(tmp);
    if (err == MPI_SUCCESS && own != blk)
        err = rd_coll_mismatch("the root", blk, own, " per rank");
    return err;
}

/* ------------------------------------------------------------ Bcast */

/* Bcast with the root's buffer mapped: the root lends it and waits until
 * every rank has copied it out (each straight into its own buffer; by CMA
 * before the buffer is mapped). A rank whose type is not one run of bytes
 * packs into scratch (the root) or unpacks from it: the ranks need only
 * agree on the type signature. */
static int mapped_bcast_fits(const struct rd_coll_args *a)
{
    size_t min = (size_t)rd_param.coll_shm_direct_min;
    return rd_node_arena.attach && min && (size_t)a->count * a->dt->size >= min;
}

static int mapped_bcast(MPI_Comm comm, const struct rd_coll_args *a)
{
    size_t bytes = (size_t)a->count * a->dt->size;
    struct rd_scratch tmp = {0};
    char *buf = (char *)a->rbuf + a->dt->true_lb;
    if (!a->dt->contig) {
        tmp = rd_scratch_get(bytes);
        buf = tmp.p;
        if (buf)
            rd_dt_pack(a->rbuf, a->dt, 0, buf, bytes);
    }
    uint64_t s = ++comm->node_seq;
    lend(comm, s, buf, bytes, buf, bytes, rd_nc_desc(RD_NC_DIRECT, 0, bytes), bytes, bytes); /* (NULL: the readers fail) */
    rd_nc_finish(comm, s);
    rd_nc_wait_done(comm, s);
    rd_scratch_put(tmp);
    return buf ? MPI_SUCCESS : MPI_ERR_NO_MEM;
}

/* A reader, whose root lent its buffer for s: copies what fits. */
static int mapped_bcast_follow(MPI_Comm comm, const struct rd_coll_args *a, uint64_t s)
{
    int err = MPI_SUCCESS;
    struct lend *lr = lend_of(comm, a->root, s);
    size_t total = lr->obytes, own = (size_t)a->count * a->dt->size, n = own < total ? own : total;
    struct rd_scratch tmp = {0};
    char *buf = (char *)a->rbuf + a->dt->true_lb;
    if (!a->dt->contig) {
        tmp = rd_scratch_get(n);
        buf = tmp.p;
        if (!buf)
            err = MPI_ERR_NO_MEM;
    }
    if (!lr->land && err == MPI_SUCCESS)
        err = MPI_ERR_OTHER;
    if (err == MPI_SUCCESS)
        err = rd_status_to_mpi(
            rd_node_copy(0, (pid_t)lr->pid, rd_comm_world_rank(comm, a->root), &lr->kout, buf, lr->out, n));
    if (err == MPI_SUCCESS && tmp.p)
        rd_dt_unpack(a->rbuf, a->dt, 0, buf, n);
    rd_nc_finish(comm, s);
    rd_scratch_put(tmp);
    if (err == MPI_SUCCESS && own != total)
        err = rd_coll_mismatch("the root", total, own, "");
    return err;
}

int rd_shmdirect_follow(int kind, const struct rd_coll_args *a, uint64_t s, uint64_t desc)
{
    MPI_Comm comm = a->comm;
    if (kind == RD_COLL_BCAST && rd_nc_path(desc) == RD_NC_DIRECT)
        return mapped_bcast_follow(comm, a, s);
    if (kind == RD_COLL_BCAST && rd_nc_path(desc) == RD_NC_STAGED)
        return stage_bcast_follow(comm, a, s, rd_nc_bytes(desc));
    if (kind == RD_COLL_SCATTER && rd_nc_path(desc) == RD_NC_DIRECT)
        return scatter_follow(comm, a, s);
    rd_nc_finish(comm, s); /* (no root posts anything else) */
    return MPI_ERR_INTERN;
}

int rd_shmdirect_eligible(int kind, const struct rd_coll_args *a)
{
    size_t min = (size_t)rd_param.coll_shm_direct_min;
    size_t armin = (size_t)rd_param.coll_shm_allreduce_min;
    int all2all = kind == RD_COLL_ALLTOALL;
    if (a->comm->size > 64)
        return 0;
    switch (kind) {
    case RD_COLL_ALLGATHER:
        if (rd_param.coll_allgather != 0)
            return 0;
        break;
    case RD_COLL_ALLTOALL:
        if (rd_param.coll_alltoall != 0 || a->sbuf == MPI_IN_PLACE)
            return 0;
        break;
    case RD_COLL_BCAST: /* (the small ones took the areas already) */
        return min && rd_param.coll_bcast == 0 && (mapped_bcast_fits(a) || rd_shmdirect_staging());
    case RD_COLL_GATHER:
    case RD_COLL_SCATTER: {
        size_t rmin = (size_t)rd_param.coll_shm_rooted_min;
        return rmin && rd_nc_rooted_block(kind, a) >= rmin && rd_node_arena.write &&
               (kind == RD_COLL_GATHER ? rd_param.coll_gather : rd_param.coll_scatter) == 0;
    }
    case RD_COLL_REDUCE:
        return rd_param.coll_shm_reduce_min && rd_param.coll_reduce == 0 && rd_node_arena.attach && a->dt->contig &&
               (size_t)a->count * a->dt->size >= (size_t)rd_param.coll_shm_reduce_min;
    case RD_COLL_REDUCE_SCATTER:
    case RD_COLL_REDUCE_SCATTER_BLOCK: {
        /* by the average block */
        long e0, e1, total;
        rd_nc_redscat_block(a, a->comm->rank, &e0, &e1, &total);
        return rd_param.coll_shm_reduce_min && rd_param.coll_reduce_scatter == 0 && rd_node_arena.attach &&
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
        return armin && rd_param.coll_allreduce == 0 && (rd_node_arena.attach || stage_allreduce_fits(a)) &&
               a->dt->contig && (size_t)a->count * a->dt->size >= armin;
    default:
        return 0;
    }
    return min && (size_t)a->rcount * a->rdt->size >= min && (staged_fits(all2all, a) || rd_node_arena.write);
}

int rd_shmdirect_run(int kind, const struct rd_coll_args *a)
{
    int all2all = kind == RD_COLL_ALLTOALL;
    if (kind == RD_COLL_BCAST)
        return mapped_bcast_fits(a) ? mapped_bcast(a->comm, a) : stage_bcast(a->comm, a);
    if (kind == RD_COLL_ALLREDUCE)
        return stage_allreduce_fits(a) ? stage_allreduce(a->comm, a) : allreduce(a->comm, a);
    if (kind == RD_COLL_REDUCE)
        return reduce(a->comm, a);
    if (kind == RD_COLL_SCATTER || (kind == RD_COLL_GATHER && a->comm->rank == a->root))
        return rooted_root(a->comm, a, kind == RD_COLL_GATHER);
    if (kind == RD_COLL_GATHER)
        return gather_send(a->comm, a);
    if (kind == RD_COLL_REDUCE_SCATTER || kind == RD_COLL_REDUCE_SCATTER_BLOCK)
        return reduce_scatter(a->comm, a);
    return staged_fits(all2all, a) ? staged(a->comm, a, all2all) : exchange(a->comm, a, all2all);
}

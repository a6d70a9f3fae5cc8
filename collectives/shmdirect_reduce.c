/* shmdirect_reduce.c - Allreduce, Reduce and Reduce_scatter of node-local
 * communicators through the node's memory, with no messages (the ways
 * and their measured reasons: shmdirect.c, and each function below). */
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
                              (MPI_Count)(hi - lo), dt);
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
            int err = rd_op_apply(a->op, tmp - dt->true_lb, inout + e * dt->extent, (MPI_Count)c, dt);
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
            err = rd_op_apply(a->op, own - dt->true_lb, acc, (MPI_Count)(e1 - e0), dt);
        else if (j == me)
            err = rd_op_apply(a->op, (char *)mine_b + (size_t)e0 * es - dt->true_lb, acc, (MPI_Count)(e1 - e0), dt);
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
    sd_lend(comm, s, land, bytes, in, bytes, d, bytes, bytes);
    for (int j = 0; j < comm->size; j++) {
        rd_nc_wait_posted(comm, j, s);
        l[j] = sd_lend_of(comm, j, s);
        if (rd_nc_desc_of(comm, j, s) != d && odd < 0)
            odd = j;
        else if (!l[j]->land)
            err = MPI_ERR_OTHER; /* a rank that cannot take part: all fail */
    }
    return odd >= 0 ? rd_nc_differ(odd, rd_nc_desc_of(comm, odd, s), bytes, "") : err;
}

int sd_allreduce(MPI_Comm comm, const struct rd_coll_args *a)
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
        int jerr = sd_wait_landed(l[j]);
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
int sd_stage_allreduce_fits(const struct rd_coll_args *a)
{
    long mode = rd_param.coll_shm_staged;
    return rd_shmdirect_staging() && (mode == 1 || !rd_node_arena.attach) && a->dt->contig &&
           a->dt->size > 0 && rd_node_arena.stage / 2 >= a->dt->size;
}

int sd_stage_allreduce(MPI_Comm comm, const struct rd_coll_args *a)
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
                                  (MPI_Count)(e1 - e0), dt);
            }
            memcpy(out, mine + off, seg);
        } else if (seg) { /* c_0 op (c_1 op (... op c_n-1)), into the result */
            rd_nc_wait_posted(comm, n - 1, s1);
            memcpy(out, rd_node_stage(slot, n - 1) + (size_t)h * half + off, seg);
            for (int j = n - 2; j >= 0 && err == MPI_SUCCESS; j--) {
                rd_nc_wait_posted(comm, j, s1);
                err = rd_op_apply(a->op, rd_node_stage(slot, j) + (size_t)h * half + off - dt->true_lb,
                                  out - dt->true_lb, (MPI_Count)(e1 - e0), dt);
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
int sd_reduce(MPI_Comm comm, const struct rd_coll_args *a)
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
            int jerr = j == me ? MPI_SUCCESS : sd_wait_landed(l[j]);
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
int sd_reduce_scatter(MPI_Comm comm, const struct rd_coll_args *a)
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

/* shmdirect_rooted.c - Gather, Scatter and Bcast of node-local
 * communicators through the node's memory, with no messages (shmdirect.c
 * says how ranks lend their buffers). */
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

/* ------------------------------------------------------------ Gather, Scatter */

/* Gather and Scatter: the root lends its whole buffer (receive buffer for
 * Gather, send buffer for Scatter; scratch where its type is not one run
 * of bytes), and every other rank copies its block straight into it or
 * out of it (through the mapping; by CMA before it is mapped), with no
 * message and no wait for the other ranks. The root returns once every
 * block has been copied. Every copy takes the smaller of the root's block
 * and the other rank's. This is the root's side. */
int sd_rooted_root(MPI_Comm comm, const struct rd_coll_args *a, int gather)
{
    int me = comm->rank, n = comm->size, err = MPI_SUCCESS, trunc = MPI_SUCCESS;
    const void *buf = gather ? a->rbuf : a->sbuf;
    MPI_Datatype dt = gather ? a->rdt : a->sdt;
    MPI_Count cnt = gather ? a->rcount : a->scount;
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
    sd_lend(comm, s, err == MPI_SUCCESS ? bytes : NULL, len, err == MPI_SUCCESS ? bytes : NULL, len,
         rd_nc_desc(RD_NC_DIRECT, 0, blk), blk, blk);
    for (int j = 0; gather && j < n; j++) { /* every block has landed (or failed) */
        if (j == me)
            continue;
        rd_nc_wait_posted(comm, j, s);
        uint64_t dj = rd_nc_desc_of(comm, j, s);
        size_t got = rd_nc_bytes(dj);
        if (rd_nc_path(dj) == RD_NC_DIRECT) {
            struct lend *lj = sd_lend_of(comm, j, s);
            int jerr = sd_wait_landed(lj);
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
int sd_gather_send(MPI_Comm comm, const struct rd_coll_args *a)
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
    sd_lend(comm, s, bytes, 0, bytes, 0, rd_nc_desc(RD_NC_DIRECT, 0, blk), 0, blk);
    rd_nc_wait_posted(comm, a->root, s);
    uint64_t dr = rd_nc_desc_of(comm, a->root, s);
    if (rd_nc_path(dr) != RD_NC_DIRECT) {
        trunc = rd_nc_root_differs(dr, blk, " per rank"); /* the root took another path: nothing to copy */
    } else {
        struct lend *lr = sd_lend_of(comm, a->root, s);
        size_t room = lr->lbytes;
        if (!lr->land && err == MPI_SUCCESS)
            err = MPI_ERR_OTHER; /* the root cannot take part */
        if (err == MPI_SUCCESS && blk && room)
            err = rd_status_to_mpi(rd_node_copy(1, (pid_t)lr->pid, rd_comm_world_rank(comm, a->root), &lr->kland,
                                                bytes, lr->land + (uint64_t)me * room, blk < room ? blk : room));
        if (room != blk)
            trunc = rd_nc_root_differs(dr, blk, " per rank");
    }
    atomic_store_explicit(&sd_lend_of(comm, me, s)->landed, err == MPI_SUCCESS ? 1 : 2, memory_order_release);
    rd_nc_finish(comm, s);
    rd_scratch_put(tmp);
    return err != MPI_SUCCESS ? err : trunc;
}

/* A Scatter's other rank, whose root lent its buffer for s: copies out
 * its block, as far as it fits. */
int sd_scatter_follow(MPI_Comm comm, const struct rd_coll_args *a, uint64_t s)
{
    int err = MPI_SUCCESS;
    struct lend *lr = sd_lend_of(comm, a->root, s);
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
int sd_mapped_bcast_fits(const struct rd_coll_args *a)
{
    size_t min = (size_t)rd_param.coll_shm_direct_min;
    return rd_node_arena.attach && min && (size_t)a->count * a->dt->size >= min;
}

int sd_mapped_bcast(MPI_Comm comm, const struct rd_coll_args *a)
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
    sd_lend(comm, s, buf, bytes, buf, bytes, rd_nc_desc(RD_NC_DIRECT, 0, bytes), bytes, bytes); /* (NULL: the readers fail) */
    rd_nc_finish(comm, s);
    rd_nc_wait_done(comm, s);
    rd_scratch_put(tmp);
    return buf ? MPI_SUCCESS : MPI_ERR_NO_MEM;
}

/* A reader, whose root lent its buffer for s: copies what fits. */
int sd_mapped_bcast_follow(MPI_Comm comm, const struct rd_coll_args *a, uint64_t s)
{
    int err = MPI_SUCCESS;
    struct lend *lr = sd_lend_of(comm, a->root, s);
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

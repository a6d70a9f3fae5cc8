/* shfp.c - the shared file pointer and the ordered calls (PLAN 4.5).
 *
 * The pointer (in etypes of the current view) is a counter of rma's
 * (runtime/rma/counter.c): 8 bytes in an internal window at rank 0 of the
 * file's communicator, made at open (collective) and freed at close.
 * read/write_shared take their place with one fetch-and-add of the
 * access's etypes (one CPU atomic on a node), then access it as an
 * explicit offset would (rd_io_indep). The ordered calls agree on their
 * places with one allgather of the counts (prefixes and total), one
 * fetch-and-add of the total at rank 0 and a broadcast of the base: O(log
 * p) steps, where a token passed from rank to rank would take p. seek and
 * reset are "every rank arrived, rank 0 stores, every rank leaves after". */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "collectives/algorithms.h"
#include "runtime/io/io_int.h"
#include "runtime/rma/rma.h"

struct rd_io_shfp {
    struct rd_rma_counter *ctr;
    MPI_Comm comm;             /* the file's communicator (struct rd_file_s's) */
};

static int bcast(MPI_Comm comm, void *buf, int count, MPI_Datatype dt)
{
    struct rd_coll_args a = {.comm = comm, .rbuf = buf, .count = count, .dt = dt, .root = 0};
    return rd_coll_run(RD_COLL_BCAST, &a);
}

/* The file's size in bytes, at rank 0 (fstat). */
static int file_size(struct rd_io_file *f, MPI_Offset *size, rd_io_why *why)
{
    struct stat st;
    if (fstat(f->fd, &st) != 0)
        return rd_io_fail(why, MPI_ERR_IO, "cannot stat %s: %s", f->path, strerror(errno));
    *size = (MPI_Offset)st.st_size;
    return MPI_SUCCESS;
}

int rd_io_shfp_open(struct rd_io_file *f, MPI_Comm comm, rd_io_why *why)
{
    f->shfp = NULL;
    struct rd_io_shfp *s = calloc(1, sizeof(*s));
    /* MPI_MODE_APPEND: the pointer starts at the end (the default view:
     * etypes are bytes); rank 0's value is the counter's */
    MPI_Offset init = 0;
    int rc = s ? MPI_SUCCESS : rd_io_fail(why, MPI_ERR_NO_MEM, "out of memory");
    if (rc == MPI_SUCCESS && comm->rank == 0 && (f->amode & MPI_MODE_APPEND))
        rc = file_size(f, &init, why);
    /* every rank makes the counter, also one that failed above, so that
     * the counter's collective steps match; a failure reaches every rank
     * by the allreduce below */
    char rwhy[RD_RMA_WHY] = "";
    struct rd_rma_counter *ctr = NULL;
    int crc = rd_rma_counter_open(comm, (int64_t)init, &ctr, rwhy);
    if (rc == MPI_SUCCESS && crc != MPI_SUCCESS)
        rc = rd_io_fail(why, crc, "the shared file pointer: %s", rwhy);
    int all = rc;
    struct rd_coll_args a = {.comm = comm, .sbuf = &rc, .rbuf = &all, .count = 1, .dt = MPI_INT, .op = MPI_MAX};
    int arc = rd_coll_run(RD_COLL_ALLREDUCE, &a);
    if (arc != MPI_SUCCESS)
        rc = rd_io_fail(why, arc, "the shared file pointer's agreement failed");
    else if (rc == MPI_SUCCESS && all != MPI_SUCCESS)
        rc = rd_io_fail(why, all, "another rank could not set the shared file pointer up");
    if (rc != MPI_SUCCESS) {
        if (ctr)
            rd_rma_counter_close(ctr, rwhy);
        free(s);
        return rc;
    }
    s->ctr = ctr;
    s->comm = comm;
    f->shfp = s;
    return MPI_SUCCESS;
}

int rd_io_shfp_close(struct rd_io_file *f, rd_io_why *why)
{
    struct rd_io_shfp *s = f->shfp;
    if (!s)
        return MPI_SUCCESS;
    char rwhy[RD_RMA_WHY] = "";
    int rc = rd_rma_counter_close(s->ctr, rwhy);
    free(s);
    f->shfp = NULL;
    return rc == MPI_SUCCESS ? rc : rd_io_fail(why, rc, "the shared file pointer: %s", rwhy);
}

/* The etypes of count elements of dt (checked by the entry point: a
 * whole number). */
static int64_t etypes(const struct rd_io_file *f, size_t count, MPI_Datatype dt)
{
    return (int64_t)(count * dt->size / f->view.esize);
}

static int fetch_add(struct rd_io_shfp *s, int64_t n, int64_t *old, rd_io_why *why)
{
    char rwhy[RD_RMA_WHY] = "";
    int rc = rd_rma_counter_fetch_add(s->ctr, n, old, rwhy);
    return rc == MPI_SUCCESS ? rc : rd_io_fail(why, rc, "the shared file pointer: %s", rwhy);
}

int rd_io_shfp_take(struct rd_io_file *f, size_t count, MPI_Datatype dt, MPI_Offset *o, rd_io_why *why)
{
    int64_t n = etypes(f, count, dt), at = 0;
    *o = 0;
    if (n == 0)
        return MPI_SUCCESS;
    int rc = fetch_add(f->shfp, n, &at, why);
    if (rc == MPI_SUCCESS)
        *o = (MPI_Offset)at * (MPI_Offset)f->view.esize;
    return rc;
}

int rd_io_shared(struct rd_io_file *f, int write, void *buf, size_t count, MPI_Datatype dt, size_t *bytes,
                 rd_io_why *why)
{
    *bytes = 0;
    MPI_Offset o;
    int rc = rd_io_shfp_take(f, count, dt, &o, why);
    if (rc != MPI_SUCCESS || count == 0 || dt->size == 0)
        return rc;
    return rd_io_indep(f, write, o, buf, count, dt, bytes, why);
}

int rd_io_ordered(struct rd_io_file *f, int write, void *buf, size_t count, MPI_Datatype dt, size_t *bytes,
                  rd_io_why *why)
{
    struct rd_io_shfp *s = f->shfp;
    MPI_Comm comm = s->comm;
    *bytes = 0;
    /* the etypes of the ranks before this one (an exscan: no memory per
     * rank); the last rank, which then knows the total, takes the whole
     * range with one fetch-and-add and broadcasts where it starts (its
     * failure travels as -1) */
    int64_t n = etypes(f, count, dt), before = 0, base = 0;
    struct rd_coll_args a = {.comm = comm, .sbuf = &n, .rbuf = &before, .count = 1, .dt = MPI_INT64_T,
                             .op = MPI_SUM};
    int rc = rd_coll_run(RD_COLL_EXSCAN, &a);
    if (comm->rank == 0)
        before = 0; /* (MPI_Exscan leaves rank 0's result undefined) */
    int last = comm->size - 1, frc = MPI_SUCCESS;
    if (comm->rank == last) {
        int64_t total = before + n;
        if (rc != MPI_SUCCESS)
            base = -1;
        else if (total > 0 && (frc = fetch_add(s, total, &base, why)) != MPI_SUCCESS)
            base = -1;
    }
    struct rd_coll_args b = {.comm = comm, .rbuf = &base, .count = 1, .dt = MPI_INT64_T, .root = last};
    int brc = rd_coll_run(RD_COLL_BCAST, &b);
    if (rc != MPI_SUCCESS)
        return rd_io_fail(why, rc, "the exchange of the ranks' counts failed");
    if (frc != MPI_SUCCESS)
        return frc;
    if (brc != MPI_SUCCESS)
        return rd_io_fail(why, brc, "the broadcast of the ordered access's place failed");
    if (base < 0)
        return rd_io_fail(why, MPI_ERR_IO, "rank %d could not take the shared file pointer's range", last);
    if (n == 0)
        return MPI_SUCCESS;
    return rd_io_indep(f, write, (MPI_Offset)(base + before) * (MPI_Offset)f->view.esize, buf, count, dt, bytes,
                       why);
}

/* Every rank has arrived (an allreduce of the arguments, which also
 * finds ranks that differ), rank 0 sets the pointer to what value(at)
 * gives, every rank leaves after (a broadcast of rank 0's result).
 * args: (offset, whence) to compare, or NULL. */
static int set_pointer(struct rd_io_file *f, const int64_t *args, int64_t off, int whence, rd_io_why *why)
{
    struct rd_io_shfp *s = f->shfp;
    MPI_Comm comm = s->comm;
    /* min and max of the arguments in one allreduce: (a, -a) under MPI_MIN */
    int64_t in[4] = {args ? args[0] : 0, args ? -args[0] : 0, args ? args[1] : 0, args ? -args[1] : 0}, out[4];
    struct rd_coll_args a = {.comm = comm, .sbuf = in, .rbuf = out, .count = 4, .dt = MPI_INT64_T, .op = MPI_MIN};
    int rc = rd_coll_run(RD_COLL_ALLREDUCE, &a);
    if (rc != MPI_SUCCESS)
        return rd_io_fail(why, rc, "the ranks' agreement failed");
    if (args && (out[0] != -out[1] || out[2] != -out[3]))
        return rd_io_fail(why, MPI_ERR_NOT_SAME,
                          "the ranks gave different arguments (offsets from %lld to %lld, whence from %lld to "
                          "%lld)",
                          (long long)out[0], (long long)-out[1], (long long)out[2], (long long)-out[3]);
    /* rank 0 computes and stores; its result (class, and the cause's
     * text) reaches every rank */
    struct {
        int rc;
        char msg[sizeof(why->msg)];
    } res;
    memset(&res, 0, sizeof(res));
    if (comm->rank == 0) {
        rd_io_why w0 = {""};
        int64_t to = off;
        if (whence != MPI_SEEK_SET && whence != MPI_SEEK_CUR && whence != MPI_SEEK_END) {
            res.rc = rd_io_fail(&w0, MPI_ERR_ARG, "whence %d is not MPI_SEEK_SET, MPI_SEEK_CUR nor MPI_SEEK_END",
                                whence);
        } else if (whence == MPI_SEEK_CUR) {
            int64_t cur = 0;
            res.rc = fetch_add(s, 0, &cur, &w0);
            to = cur + off;
        } else if (whence == MPI_SEEK_END) {
            /* the end of the view: the place after the last whole etype
             * the view gives below the file's end */
            MPI_Offset size = 0;
            res.rc = file_size(f, &size, &w0);
            to = (int64_t)(rd_io_view_below(&f->view, size) / (MPI_Offset)f->view.esize) + off;
        }
        if (res.rc == MPI_SUCCESS && to < 0)
            res.rc = rd_io_fail(&w0, MPI_ERR_ARG, "the position %lld etypes would lie before the view's start",
                                (long long)to);
        if (res.rc == MPI_SUCCESS) {
            char rwhy[RD_RMA_WHY] = "";
            res.rc = rd_rma_counter_store(s->ctr, to, rwhy);
            if (res.rc != MPI_SUCCESS)
                rd_io_fail(&w0, res.rc, "the shared file pointer: %s", rwhy);
        }
        memcpy(res.msg, w0.msg, sizeof(res.msg));
    }
    rc = bcast(comm, &res, (int)sizeof(res), MPI_BYTE);
    if (rc != MPI_SUCCESS)
        return rd_io_fail(why, rc, "the broadcast of rank 0's result failed");
    if (res.rc != MPI_SUCCESS)
        return rd_io_fail(why, res.rc, "%s%s", comm->rank ? "at rank 0: " : "", res.msg);
    return MPI_SUCCESS;
}

int rd_io_seek_shared(struct rd_io_file *f, MPI_Offset offset, int whence, rd_io_why *why)
{
    int64_t args[2] = {(int64_t)offset, whence};
    return set_pointer(f, args, (int64_t)offset, whence, why);
}

int rd_io_shfp_reset(struct rd_io_file *f, rd_io_why *why)
{
    if (!f->shfp)
        return MPI_SUCCESS;
    return set_pointer(f, NULL, 0, MPI_SEEK_SET, why);
}

int rd_io_position_shared(struct rd_io_file *f, MPI_Offset *offset, rd_io_why *why)
{
    int64_t cur = 0;
    int rc = fetch_add(f->shfp, 0, &cur, why);
    if (rc == MPI_SUCCESS)
        *offset = (MPI_Offset)cur;
    return rc;
}

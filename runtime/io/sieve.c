/* sieve.c - independent access through a view that is not contiguous
 * (runtime/io/PLAN.md 4.2): data sieving for reads and writes, byte-range
 * locks (lock.c), and atomic mode (4.4), which also takes contiguous views
 * here. rd_io_indep (indep.c) hands over every access its contiguous path
 * does not take.
 *
 * The access is the stream range [o, o + total). On a monotone view it goes
 * window by window: a window starts at the file offset of the next stream
 * byte and spans at most a sieving buffer; the stream bytes in it are
 * [s, below(window end)) (two O(depth) seeks, no run lists). Then
 *  - reads: one pread of the window's span when its data is dense enough
 *    (>= 1/16 of the span, romio_ds_read "automatic"; always with
 *    "enable"), the runs copied out to memory; else one pread per run;
 *  - writes: a window with no hole is one pwrite; runs averaging >= 64 KiB
 *    go one pwrite each; smaller ones are a read-modify-write of the
 *    window's span under an exclusive lock (romio_ds_write "enable":
 *    always; "disable": never). Writes that are not read-modify-write
 *    hold a shared lock over their window, so that another rank's
 *    read-modify-write of a window around their bytes (which rewrites its
 *    holes) waits for them and they for it.
 * Views whose copies interleave (not monotone) go run by run, in stream
 * chunks of a buffer, no sieving. In atomic mode the whole access's file
 * span is locked first (shared for reads, exclusive for writes) and no
 * window takes a lock of its own (a rank holds one lock at a time).
 *
 * Memory is (buf, count, dt): packed offset p of it is stream byte o + p,
 * moved with rd_dt_pack/rd_dt_unpack (one O(depth) seek per run), or a
 * memcpy when dt is contiguous. Reads stop at the end of the file: *bytes
 * counts the stream bytes that came, in stream order. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "runtime/io/io_int.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "runtime/objects/datatype.h"

#define RD_SIEVE_RD_DEFAULT (4u << 20)  /* ind_rd_buffer_size */
#define RD_SIEVE_WR_DEFAULT (512u << 10) /* ind_wr_buffer_size */
#define RD_SIEVE_DENSE 16                /* reads: sieve when data >= span / 16 */
#define RD_SIEVE_BIGRUN (64u << 10)      /* writes: runs this big go one pwrite each */
#define RD_IO_CALL_MAX ((size_t)1 << 30) /* Linux moves at most 0x7ffff000 bytes a call */

static int errno_class(int e)
{
    switch (e) {
    case ENOSPC: return MPI_ERR_NO_SPACE;
#ifdef EDQUOT
    case EDQUOT: return MPI_ERR_QUOTA;
#endif
    default: return MPI_ERR_IO;
    }
}

/* ------------------------------------------------------------ whole transfers */

/* n bytes at file offset off; *got: bytes read before the end of the file */
static int pread_all(const struct rd_io_file *f, void *p, size_t n, MPI_Offset off, size_t *got, rd_io_why *why)
{
    int fd = f->fd;
    size_t done = 0;
    while (done < n) {
        size_t m = n - done < RD_IO_CALL_MAX ? n - done : RD_IO_CALL_MAX;
        ssize_t r = pread(fd, (char *)p + done, m, (off_t)(off + (MPI_Offset)done));
        if (r < 0) {
            if (errno == EINTR)
                continue;
            int e = errno;
            return rd_io_fail(why, errno_class(e), "reading '%s' at byte %lld: %s", f->path ? f->path : "",
                              (long long)(off + (MPI_Offset)done), strerror(e));
        }
        if (r == 0)
            break;
        done += (size_t)r;
    }
    *got = done;
    return MPI_SUCCESS;
}

static int pwrite_all(const struct rd_io_file *f, const void *p, size_t n, MPI_Offset off, rd_io_why *why)
{
    int fd = f->fd;
    size_t done = 0;
    while (done < n) {
        size_t m = n - done < RD_IO_CALL_MAX ? n - done : RD_IO_CALL_MAX;
        ssize_t r = pwrite(fd, (const char *)p + done, m, (off_t)(off + (MPI_Offset)done));
        if (r < 0) {
            if (errno == EINTR)
                continue;
            int e = errno;
            return rd_io_fail(why, errno_class(e), "writing '%s' at byte %lld: %s", f->path ? f->path : "",
                              (long long)(off + (MPI_Offset)done), strerror(e));
        }
        if (r == 0)
            return rd_io_fail(why, MPI_ERR_IO, "writing '%s' at byte %lld: the file system wrote nothing",
                              f->path ? f->path : "", (long long)(off + (MPI_Offset)done));
        done += (size_t)r;
    }
    return MPI_SUCCESS;
}

/* ------------------------------------------------------------ one access */

struct acc {
    struct rd_io_file *f;
    const struct rd_io_view *v;
    int fd;
    MPI_Offset o;       /* stream offset of memory's packed byte 0 */
    char *buf;          /* memory */
    MPI_Datatype dt;
    char *mc;           /* dt contiguous: where packed byte 0 lies, else NULL */
    char *w;            /* the sieving buffer */
    size_t wcap;
    /* the window being walked */
    MPI_Offset wa;      /* its first file offset */
    size_t wgot;        /* reads: bytes of it read */
    MPI_Offset s;       /* stream offset of the next run */
    size_t done;        /* reads: stream bytes delivered in order */
    int eof;
    rd_io_why *why;
    int rc;
};

/* memory side: packed bytes [p, p + n) of memory to (write) or from (read) q */
static void mem_get(struct acc *a, size_t p, void *q, size_t n)
{
    if (a->mc)
        memcpy(q, a->mc + p, n);
    else
        rd_dt_pack(a->buf, a->dt, p, q, n);
}

static void mem_put(struct acc *a, size_t p, const void *q, size_t n)
{
    if (a->mc)
        memcpy(a->mc + p, q, n);
    else
        rd_dt_unpack(a->buf, a->dt, p, q, n);
}

/* a run's bytes between the window buffer and memory */
static int win_copy_out(void *arg, MPI_Offset foff, size_t n)
{
    struct acc *a = arg;
    size_t at = (size_t)(foff - a->wa), have = at < a->wgot ? a->wgot - at : 0;
    size_t m = have < n ? have : n;
    mem_put(a, (size_t)(a->s - a->o), a->w + at, m);
    a->s += (MPI_Offset)m;
    a->done += m;
    if (m < n) {
        a->eof = 1;
        return 1;
    }
    return 0;
}

static int win_copy_in(void *arg, MPI_Offset foff, size_t n)
{
    struct acc *a = arg;
    mem_get(a, (size_t)(a->s - a->o), a->w + (foff - a->wa), n);
    a->s += (MPI_Offset)n;
    return 0;
}

/* one pread or pwrite per run, straight to memory when it is contiguous,
 * else through the buffer (a run is never longer than the buffer) */
static int run_read(void *arg, MPI_Offset foff, size_t n)
{
    struct acc *a = arg;
    size_t p = (size_t)(a->s - a->o), got;
    char *q = a->mc ? a->mc + p : a->w;
    a->rc = pread_all(a->f, q, n, foff, &got, a->why);
    if (a->rc)
        return 1;
    if (!a->mc)
        mem_put(a, p, q, got);
    a->s += (MPI_Offset)got;
    a->done += got;
    if (got < n) {
        a->eof = 1;
        return 1;
    }
    return 0;
}

static int run_write(void *arg, MPI_Offset foff, size_t n)
{
    struct acc *a = arg;
    size_t p = (size_t)(a->s - a->o);
    char *q = a->mc ? a->mc + p : a->w;
    if (!a->mc)
        mem_get(a, p, q, n);
    a->rc = pwrite_all(a->f, q, n, foff, a->why);
    if (a->rc)
        return 1;
    a->s += (MPI_Offset)n;
    return 0;
}

struct count {
    size_t runs;
};

static int count_run(void *arg, MPI_Offset foff, size_t n)
{
    ((struct count *)arg)->runs++;
    return 0;
}

/* the runs of stream [s, e), one call each (s advances) */
static int each_run(struct acc *a, MPI_Offset e, int (*fn)(void *, MPI_Offset, size_t))
{
    a->rc = MPI_SUCCESS;
    rd_io_view_runs(a->v, a->s, e - a->s, fn, a);
    return a->rc;
}

static int lock(struct acc *a, int nolock, int excl, MPI_Offset lo, MPI_Offset hi)
{
    return nolock ? MPI_SUCCESS : rd_io_lock(a->fd, excl, lo, hi, a->why);
}

static int unlock(struct acc *a, int nolock, MPI_Offset lo, MPI_Offset hi, int rc)
{
    if (nolock)
        return rc;
    rd_io_why w2;
    int rc2 = rd_io_unlock(a->fd, lo, hi, rc ? &w2 : a->why);
    return rc ? rc : rc2;
}

/* a monotone view, window by window */
static int mono_read(struct acc *a, MPI_Offset end, int ds)
{
    const struct rd_io_view *v = a->v;
    while (a->s < end && !a->eof) {
        MPI_Offset lo = rd_io_view_offset(v, a->s);
        MPI_Offset e = rd_io_view_below(v, lo + (MPI_Offset)a->wcap);
        if (e > end)
            e = end;
        MPI_Offset hi = rd_io_view_offset(v, e - 1) + 1, n = e - a->s, span = hi - lo;
        int rc;
        if (span == n) { /* one run */
            rc = each_run(a, e, run_read);
        } else if (ds == 1 || (ds == 0 && n * RD_SIEVE_DENSE >= span)) {
            a->wa = lo;
            rc = pread_all(a->f, a->w, (size_t)span, lo, &a->wgot, a->why);
            if (rc == MPI_SUCCESS)
                rc = each_run(a, e, win_copy_out);
        } else {
            rc = each_run(a, e, run_read);
        }
        if (rc)
            return rc;
    }
    return MPI_SUCCESS;
}

static int mono_write(struct acc *a, MPI_Offset end, int ds, int nolock, int can_read)
{
    const struct rd_io_view *v = a->v;
    while (a->s < end) {
        MPI_Offset lo = rd_io_view_offset(v, a->s);
        MPI_Offset e = rd_io_view_below(v, lo + (MPI_Offset)a->wcap);
        if (e > end)
            e = end;
        MPI_Offset hi = rd_io_view_offset(v, e - 1) + 1, n = e - a->s, span = hi - lo;
        int rmw = 0;
        if (span > n && can_read && ds != -1) {
            if (ds == 1) {
                rmw = 1;
            } else {
                struct count c = {0};
                rd_io_view_runs(v, a->s, n, count_run, &c);
                rmw = (size_t)n / c.runs < RD_SIEVE_BIGRUN;
            }
        }
        int rc;
        if (rmw) {
            /* read the span, merge the runs in, write it back: the holes
             * keep what the file had, under an exclusive lock */
            if ((rc = lock(a, nolock, 1, lo, hi)))
                return rc;
            a->wa = lo;
            rc = pread_all(a->f, a->w, (size_t)span, lo, &a->wgot, a->why);
            if (rc == MPI_SUCCESS) {
                if (a->wgot < (size_t)span) /* past the end of the file: holes read as zeros */
                    memset(a->w + a->wgot, 0, (size_t)span - a->wgot);
                rc = each_run(a, e, win_copy_in);
            }
            if (rc == MPI_SUCCESS)
                rc = pwrite_all(a->f, a->w, (size_t)span, lo, a->why);
            rc = unlock(a, nolock, lo, hi, rc);
        } else {
            if ((rc = lock(a, nolock || !can_read, 0, lo, hi)))
                return rc;
            rc = each_run(a, e, run_write);
            rc = unlock(a, nolock || !can_read, lo, hi, rc);
        }
        if (rc)
            return rc;
    }
    return MPI_SUCCESS;
}

/* copies interleave: run by run, a buffer of stream at a time */
static int runs_rw(struct acc *a, MPI_Offset end, int write, int nolock, int can_read)
{
    while (a->s < end && !a->eof) {
        MPI_Offset e = a->s + (MPI_Offset)a->wcap < end ? a->s + (MPI_Offset)a->wcap : end;
        int rc;
        if (write) {
            MPI_Offset lo, hi;
            rd_io_view_span(a->v, a->s, e - a->s, &lo, &hi);
            int nl = nolock || !can_read;
            if ((rc = lock(a, nl, 0, lo, hi)))
                return rc;
            rc = each_run(a, e, run_write);
            rc = unlock(a, nl, lo, hi, rc);
        } else {
            rc = each_run(a, e, run_read);
        }
        if (rc)
            return rc;
    }
    return MPI_SUCCESS;
}

/* (buf, count, dt) native bytes to or from stream [o, o + total) */
static int strided_native(struct rd_io_file *f, int write, MPI_Offset o, void *buf, size_t count, MPI_Datatype dt,
                          int nolock, int can_read, size_t *bytes, rd_io_why *why)
{
    *bytes = 0;
    size_t total = count * dt->size;
    if (total == 0)
        return MPI_SUCCESS;
    const struct rd_io_view *v = &f->view;
    struct acc a = {.f = f, .v = v, .fd = f->fd, .o = o, .buf = buf, .dt = dt, .s = o, .why = why};
    if (dt->contig)
        a.mc = (char *)buf + dt->true_lb;
    MPI_Offset end = o + (MPI_Offset)total, lo, hi;
    rd_io_view_span(v, o, (MPI_Offset)total, &lo, &hi);
    size_t cap = write ? f->hints.ind_wr_buffer_size : f->hints.ind_rd_buffer_size;
    if (cap == 0)
        cap = write ? RD_SIEVE_WR_DEFAULT : RD_SIEVE_RD_DEFAULT;
    if ((MPI_Offset)cap > hi - lo)
        cap = (size_t)(hi - lo);
    a.wcap = cap;
    a.w = malloc(cap);
    if (!a.w)
        return rd_io_fail(why, MPI_ERR_NO_MEM, "no memory for a sieving buffer of %zu bytes", cap);
    int ds = write ? f->hints.ds_write : f->hints.ds_read, rc;
    if (v->monotone)
        rc = write ? mono_write(&a, end, ds, nolock, can_read) : mono_read(&a, end, ds);
    else
        rc = runs_rw(&a, end, write, nolock, can_read);
    free(a.w);
    *bytes = write ? (rc ? 0 : total) : a.done;
    return rc;
}

/* a view with a data representation: whole elements of dt converted
 * through a staging buffer, a buffer's worth at a time (at least one
 * element), each chunk then moved as native bytes */
static int strided_rep(struct rd_io_file *f, int write, MPI_Offset o, void *buf, size_t count, MPI_Datatype dt,
                       int nolock, int can_read, size_t *bytes, rd_io_why *why)
{
    const struct rd_io_datarep *rep = f->view.rep;
    size_t es = dt->size, cap = write ? f->hints.ind_wr_buffer_size : f->hints.ind_rd_buffer_size;
    if (cap == 0)
        cap = write ? RD_SIEVE_WR_DEFAULT : RD_SIEVE_RD_DEFAULT;
    size_t per = cap / es ? cap / es : 1; /* elements per chunk */
    if (per > count)
        per = count;
    char *stage = malloc(per * es);
    if (!stage)
        return rd_io_fail(why, MPI_ERR_NO_MEM, "no memory for a conversion buffer of %zu bytes", per * es);
    int rc = MPI_SUCCESS;
    size_t e = 0;
    while (e < count && rc == MPI_SUCCESS) {
        size_t k = count - e < per ? count - e : per, got = 0;
        MPI_Offset at = o + (MPI_Offset)(e * es);
        if (write) {
            rc = rd_io_datarep_convert(rep, 1, buf, dt, e, k, stage, why);
            if (rc == MPI_SUCCESS)
                rc = strided_native(f, 1, at, stage, k * es, MPI_BYTE, nolock, can_read, &got, why);
            if (rc == MPI_SUCCESS)
                e += k;
        } else {
            rc = strided_native(f, 0, at, stage, k * es, MPI_BYTE, nolock, can_read, &got, why);
            size_t whole = got / es; /* a part of an element at the end of the file is not converted */
            if (rc == MPI_SUCCESS)
                rc = rd_io_datarep_convert(rep, 0, buf, dt, e, whole, stage, why);
            if (rc == MPI_SUCCESS)
                e += whole;
            if (got < k * es)
                break;
        }
    }
    free(stage);
    *bytes = e * es;
    return rc;
}

int rd_io_strided(struct rd_io_file *f, int write, MPI_Offset o, void *buf, size_t count, MPI_Datatype dt,
                  size_t *bytes, rd_io_why *why)
{
    *bytes = 0;
    size_t total = count * dt->size;
    if (total == 0)
        return MPI_SUCCESS;
    int can_read = f->readable; /* read-modify-write needs it */
    MPI_Offset lo = 0, hi = 0;
    int rc;
    if (f->atomic) {
        /* the whole span, once; the windows then lock nothing */
        rd_io_view_span(&f->view, o, (MPI_Offset)total, &lo, &hi);
        if ((rc = rd_io_lock(f->fd, write || !can_read, lo, hi, why)))
            return rc;
    }
    if (f->view.rep)
        rc = strided_rep(f, write, o, buf, count, dt, f->atomic, can_read, bytes, why);
    else
        rc = strided_native(f, write, o, buf, count, dt, f->atomic, can_read, bytes, why);
    if (f->atomic) {
        rd_io_why w2;
        int rc2 = rd_io_unlock(f->fd, lo, hi, rc ? &w2 : why);
        if (!rc)
            rc = rc2;
    }
    return rc;
}

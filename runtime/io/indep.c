/* indep.c - one rank's access to a file, no other rank involved
 * (io_int.h's rd_io_indep; runtime/io/PLAN.md 4.2). Stage 1: contiguous
 * views. Memory contiguous: one pread/pwrite loop straight from the
 * user's buffer; memory non-contiguous: packed or unpacked through a
 * staging buffer of ind_wr_buffer_size / ind_rd_buffer_size bytes. The
 * strided path (non-contiguous views: data sieving) is stage 2's. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "runtime/io/io_int.h"
#include "runtime/objects/datatype.h"

/* Linux moves at most 0x7ffff000 bytes per call; ask for no more than 1 GiB */
#define RD_IO_MAX_CALL ((size_t)1 << 30)

static int io_fail(rd_io_why *why, int e, int write, const struct rd_io_file *f, MPI_Offset at)
{
    int cls;
    switch (e) {
    case ENOSPC:
        cls = MPI_ERR_NO_SPACE;
        break;
#ifdef EDQUOT
    case EDQUOT:
        cls = MPI_ERR_QUOTA;
        break;
#endif
    case EBADF:
        cls = write ? MPI_ERR_READ_ONLY : MPI_ERR_ACCESS;
        break;
    default:
        cls = MPI_ERR_IO;
    }
    char sh[RD_IO_PATH_SHORT];
    return rd_io_fail(why, cls, "%s '%s' at byte %lld: %s", write ? "writing" : "reading",
                      rd_io_path_short(f->path, sh), (long long)at, e ? strerror(e) : "the file system wrote nothing");
}

/* write n bytes of p at file offset at: every byte, or an error */
static int pwrite_all(const struct rd_io_file *f, const char *p, size_t n, MPI_Offset at, rd_io_why *why)
{
    while (n) {
        ssize_t r = pwrite(f->fd, p, n < RD_IO_MAX_CALL ? n : RD_IO_MAX_CALL, (off_t)at);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            return io_fail(why, r < 0 ? errno : 0, 1, f, at);
        p += r, n -= (size_t)r, at += r;
    }
    return MPI_SUCCESS;
}

/* read up to n bytes at file offset at into p; *got: fewer at the end of the file */
static int pread_all(const struct rd_io_file *f, char *p, size_t n, MPI_Offset at, size_t *got, rd_io_why *why)
{
    *got = 0;
    while (n) {
        ssize_t r = pread(f->fd, p, n < RD_IO_MAX_CALL ? n : RD_IO_MAX_CALL, (off_t)at);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0)
            return io_fail(why, errno, 0, f, at);
        if (r == 0)
            break; /* the end of the file */
        p += r, n -= (size_t)r, at += r, *got += (size_t)r;
    }
    return MPI_SUCCESS;
}

static int indep_contig(struct rd_io_file *f, int write, MPI_Offset at, void *buf, size_t total,
                        MPI_Datatype dt, size_t *bytes, rd_io_why *why);

int rd_io_indep(struct rd_io_file *f, int write, MPI_Offset o, void *buf, size_t count,
                MPI_Datatype dt, size_t *bytes, rd_io_why *why)
{
    *bytes = 0;
    size_t total = count * dt->size;
    if (!total)
        return MPI_SUCCESS;
    if (!f->view.contig || f->atomic || f->view.rep) /* sieve.c: views, atomic mode, datareps */
        return rd_io_strided(f, write, o, buf, count, dt, bytes, why);
    MPI_Offset at = f->view.disp + o;
    /* Another rank's data sieving may rewrite the holes of a window around
     * these bytes (sieve.c: a read-modify-write under an exclusive lock);
     * a write holds a shared lock on its bytes so that the two wait for
     * each other and neither loses the other's data. No rank sieves writes
     * when the descriptors are write-only (a file the ranks cannot read:
     * file.c) or romio_ds_write is "disable" (rank 0's hints are every
     * rank's): then no lock (a shared lock needs a readable descriptor). */
    int guard = write && f->readable && f->hints.ds_write != -1;
    if (guard) {
        int rc = rd_io_lock(f->fd, 0, at, at + (MPI_Offset)total, why);
        if (rc != MPI_SUCCESS)
            return rc;
    }
    int rc = indep_contig(f, write, at, buf, total, dt, bytes, why);
    if (guard) {
        rd_io_why w2;
        int rc2 = rd_io_unlock(f->fd, at, at + (MPI_Offset)total, rc ? &w2 : why);
        if (rc == MPI_SUCCESS)
            rc = rc2;
    }
    return rc;
}

/* a contiguous view: (buf, count, dt), total bytes, at file offset at */
static int indep_contig(struct rd_io_file *f, int write, MPI_Offset at, void *buf, size_t total,
                        MPI_Datatype dt, size_t *bytes, rd_io_why *why)
{
    if (dt->contig) {
        char *p = (char *)buf + dt->true_lb;
        if (write) {
            int rc = pwrite_all(f, p, total, at, why);
            if (rc == MPI_SUCCESS)
                *bytes = total;
            return rc;
        }
        return pread_all(f, p, total, at, bytes, why);
    }
    /* memory non-contiguous: through a staging buffer */
    size_t chunk = write ? f->hints.ind_wr_buffer_size : f->hints.ind_rd_buffer_size;
    if (chunk < 65536)
        chunk = 65536;
    if (chunk > total)
        chunk = total;
    char *stage = malloc(chunk);
    if (!stage)
        return rd_io_fail(why, MPI_ERR_NO_MEM, "out of memory for a staging buffer of %zu bytes", chunk);
    int rc = MPI_SUCCESS;
    for (size_t done = 0; done < total && rc == MPI_SUCCESS;) {
        size_t n = total - done < chunk ? total - done : chunk;
        if (write) {
            rd_dt_pack(buf, dt, done, stage, n);
            rc = pwrite_all(f, stage, n, at + (MPI_Offset)done, why);
            if (rc == MPI_SUCCESS)
                done += n;
        } else {
            size_t got;
            rc = pread_all(f, stage, n, at + (MPI_Offset)done, &got, why);
            if (rc == MPI_SUCCESS && got)
                rd_dt_unpack(buf, dt, done, stage, got);
            done += got;
            if (got < n)
                n = 0, total = done; /* the end of the file */
        }
        *bytes = done;
    }
    free(stage);
    return rc;
}

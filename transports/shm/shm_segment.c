/* shm_segment.c - create, attach and unlink the node's segment
 * (shm_segment.h). */
#include "config.h"

#include "transports/shm/shm_segment.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <time.h>
#include <unistd.h>

#include "runtime/base/log.h"
#include "runtime/base/nodemem.h"

#define RD_SHM_SEG_MAGIC 0x72646d7069736d31ULL /* "rdmpism1" */
#define RD_SHM_SEG_VERSION 2
#define RD_SHM_PAGE 4096

static size_t align_up(size_t v, size_t a)
{
    return (v + a - 1) & ~(a - 1);
}

/* Offsets of every part; returns the total size (0: overflow). */
static size_t seg_layout(rd_shm_seg *seg, int local_size, size_t ring_size)
{
    size_t l = (size_t)local_size;
    seg->local_size = local_size;
    seg->ring_size = ring_size;
    seg->info_off = align_up(sizeof(rd_shm_seg_hdr), RD_SHM_LINE);
    seg->active_off = seg->info_off + l * sizeof(rd_shm_rank_info);
    seg->active_stride = align_up(sizeof(rd_shm_active) + l * sizeof(uint32_t), RD_SHM_LINE);
    seg->ctl_off = seg->active_off + l * seg->active_stride;
    seg->ring_off = align_up(seg->ctl_off + l * l * sizeof(rd_shm_ring_ctl), RD_SHM_PAGE);
    if (l > 65536 || ring_size > RD_SHM_RING_MAX)
        return 0;
    seg->coll_off = seg->ring_off + l * l * ring_size;
    seg->coll_slots = local_size >= 2 && local_size <= RD_SHM_COLL_MAX_RANKS ? RD_SHM_COLL_SLOTS : 0;
    return seg->coll_off + rd_node_arena_bytes(seg->coll_slots, local_size, RD_SHM_COLL_DATA, RD_SHM_COLL_STAGE);
}

static void make_name(char *out, size_t outlen, const char *nspace)
{
    uint64_t rnd;
    char ns[160];
    size_t i;
    if (getrandom(&rnd, sizeof(rnd), GRND_NONBLOCK) != (ssize_t)sizeof(rnd)) {
        struct timespec ts;
        clock_gettime(CLOCK_MONOTONIC, &ts);
        rnd = ((uint64_t)ts.tv_nsec << 20) ^ (uint64_t)ts.tv_sec ^ ((uint64_t)getpid() << 40);
    }
    for (i = 0; nspace[i] && i < sizeof(ns) - 1; i++) {
        char c = nspace[i];
        int ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                 c == '.' || c == '_';
        ns[i] = ok ? c : '_';
    }
    ns[i] = '\0';
    snprintf(out, outlen, "%s%s-%016llx", RD_SHM_SEG_PREFIX, ns, (unsigned long long)rnd);
}

static void warn_if_small(size_t need)
{
    struct statvfs vfs;
    if (statvfs("/dev/shm", &vfs) == 0) {
        unsigned long long avail = (unsigned long long)vfs.f_bavail * vfs.f_frsize;
        if (avail < need)
            rd_warn("shm", "/dev/shm has %llu bytes free, the rings of this node may use up to "
                    "%zu: a rank may get SIGBUS; enlarge /dev/shm or lower RDMPI_SHM_RING_SIZE",
                    avail, need);
    }
}

/* Remove the name of a named segment (a memory file has none). */
static void seg_unlink(rd_shm_seg *seg)
{
    if (seg->fd < 0 && strncmp(seg->name, "/proc/", 6) != 0 && shm_unlink(seg->name) != 0 &&
        errno != ENOENT)
        rd_warn("shm", "shm_unlink(%s) failed: %s", seg->name, strerror(errno));
}

rd_status rd_shm_seg_create(rd_shm_seg *seg, const char *nspace, int local_size,
                            size_t ring_size, int memfd)
{
    rd_status st;
    int fd;
    memset(seg, 0, sizeof(*seg));
    size_t total = seg_layout(seg, local_size, ring_size);
    if (total == 0 || local_size < 1 || (ring_size & (ring_size - 1)) || ring_size < RD_SHM_RING_MIN) {
        rd_error("shm", "bad segment geometry: %d local ranks, rings of %zu bytes", local_size,
                 ring_size);
        return RD_ERR_ARG;
    }
    seg->fd = -1;
    fd = memfd ? memfd_create("rdmpi-node-segment", MFD_CLOEXEC) : -1;
    if (fd >= 0) {
        snprintf(seg->name, sizeof(seg->name), "/proc/%ld/fd/%d", (long)getpid(), fd);
        seg->fd = fd;
    } else {
        if (memfd)
            rd_debug("shm", "memfd_create failed (%s): a named segment instead", strerror(errno));
        make_name(seg->name, sizeof(seg->name), nspace);
        fd = shm_open(seg->name, O_CREAT | O_EXCL | O_RDWR, 0600);
        if (fd < 0) {
            int e = errno;
            rd_error("shm", "shm_open(%s) failed: %s%s", seg->name, strerror(e),
                     e == EEXIST ? " (the name is already taken)" : "");
            return RD_ERR_IO;
        }
    }
    if (ftruncate(fd, (off_t)total) != 0) {
        rd_error("shm", "ftruncate(%s, %zu) failed: %s", seg->name, total, strerror(errno));
        st = RD_ERR_IO;
        goto err_unlink;
    }
    seg->base = mmap(NULL, total, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (seg->base == MAP_FAILED) {
        seg->base = NULL;
        rd_error("shm", "mmap of %s (%zu bytes) failed: %s", seg->name, total, strerror(errno));
        st = RD_ERR_IO;
        goto err_unlink;
    }
    if (seg->fd < 0)
        close(fd);
    warn_if_small((size_t)local_size * (size_t)(local_size - 1) * ring_size + seg->ring_off);
    seg->size = total;
    seg->local_rank = 0;
    seg->creator = 1;

    rd_shm_seg_hdr *h = rd_shm_seg_header(seg);
    h->magic = RD_SHM_SEG_MAGIC;
    h->version = RD_SHM_SEG_VERSION;
    h->local_size = (uint32_t)local_size;
    h->ring_size = ring_size;
    h->total_size = total;
    atomic_store_explicit(&rd_shm_seg_info(seg, 0)->pid, (int32_t)getpid(), memory_order_relaxed);
    atomic_store_explicit(&h->attached, 1, memory_order_release);
    if (local_size == 1 || seg->fd >= 0) {
        seg_unlink(seg);
        atomic_store(&h->unlinked, 1);
    }
    rd_debug("shm", "created %s: %zu bytes, %d local ranks, rings of %zu bytes", seg->name,
             total, local_size, ring_size);
    return RD_OK;

err_unlink:
    close(fd);
    seg_unlink(seg);
    seg->fd = -1;
    return st;
}

rd_status rd_shm_seg_attach(rd_shm_seg *seg, const char *name, int local_rank, int local_size)
{
    rd_status st;
    struct stat sb;
    int fd;
    memset(seg, 0, sizeof(*seg));
    seg->fd = -1;
    snprintf(seg->name, sizeof(seg->name), "%s", name);
    /* the creator's memory file through /proc, or a named segment */
    fd = strncmp(name, "/proc/", 6) == 0 ? open(name, O_RDWR | O_CLOEXEC) : shm_open(seg->name, O_RDWR, 0);
    if (fd < 0) {
        rd_error("shm", "cannot open the node segment %s to attach: %s%s", seg->name, strerror(errno),
                 name[1] == 'p' ? " (ranks that cannot see each other's /proc: try RDMPI_SHM_MEMFD=0)" : "");
        return RD_ERR_IO;
    }
    if (fstat(fd, &sb) != 0) {
        rd_error("shm", "fstat of %s failed: %s", seg->name, strerror(errno));
        st = RD_ERR_IO;
        goto err_close;
    }
    seg->base = mmap(NULL, (size_t)sb.st_size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (seg->base == MAP_FAILED) {
        seg->base = NULL;
        rd_error("shm", "mmap of %s (%lld bytes) failed: %s", seg->name, (long long)sb.st_size,
                 strerror(errno));
        st = RD_ERR_IO;
        goto err_close;
    }
    close(fd);
    seg->size = (size_t)sb.st_size;
    rd_shm_seg_hdr *h = rd_shm_seg_header(seg);
    if (seg->size < sizeof(*h) || h->magic != RD_SHM_SEG_MAGIC ||
        h->version != RD_SHM_SEG_VERSION || h->local_size != (uint32_t)local_size ||
        h->total_size != seg->size || seg_layout(seg, local_size, h->ring_size) != seg->size ||
        local_rank <= 0 || local_rank >= local_size) {
        rd_error("shm", "segment %s is not this job's (bad header, or local rank %d of %d)",
                 seg->name, local_rank, local_size);
        munmap(seg->base, seg->size);
        seg->base = NULL;
        return RD_ERR_INTERNAL;
    }
    seg->local_rank = local_rank;
    atomic_store_explicit(&rd_shm_seg_info(seg, local_rank)->pid, (int32_t)getpid(),
                          memory_order_relaxed);
    if (atomic_fetch_add_explicit(&h->attached, 1, memory_order_acq_rel) + 1 ==
        (uint32_t)local_size && !atomic_load(&h->unlinked)) {
        seg_unlink(seg);
        atomic_store(&h->unlinked, 1);
        rd_debug("shm", "every local rank attached %s: unlinked", seg->name);
    }
    return RD_OK;

err_close:
    close(fd);
    return st;
}

void rd_shm_seg_close(rd_shm_seg *seg)
{
    if (!seg->base)
        return;
    if (seg->creator && !atomic_load(&rd_shm_seg_header(seg)->unlinked)) {
        /* a rank never attached (it died first): the name is still there */
        seg_unlink(seg);
        atomic_store(&rd_shm_seg_header(seg)->unlinked, 1);
    }
    munmap(seg->base, seg->size);
    seg->base = NULL;
    if (seg->fd >= 0)
        close(seg->fd);
    seg->fd = -1;
}

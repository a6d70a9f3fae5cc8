/* mem.c - MPI_Alloc_mem's memory: node memory, so that a window made by
 * MPI_Win_create over it is reached by the node's other ranks with loads
 * and stores (the NODE path) rather than by single copies (CMA).
 *
 * A per-process pool of memfd chunks (RMA_CHUNK bytes each, mapped
 * MAP_SHARED; pages are backed when first touched), carved first fit into
 * blocks aligned to a cache line (or to the info key
 * mpi_minimum_memory_alignment, MPI-4.1 9.2, up to a page); freed blocks
 * go back to their chunk's free list, merged with their neighbours, and
 * pool chunks stay for the next requests, as malloc's heap does.
 * Requests above RMA_CHUNK / 4, or aligned beyond a page, get a chunk of
 * their own, unmapped and closed by MPI_Free_mem. Where memfd or mmap
 * fails the block comes from posix_memalign (no NODE path for windows
 * over it). Every block is recorded (a sorted table), so MPI_Free_mem
 * refuses what it did not give (MPI_ERR_BASE).
 *
 * A node peer maps a whole chunk through /proc/PID/fd/N when a window is
 * made over memory in it (win.c); the window's accumulate and lock words
 * are a line of the same pool.
 *
 * Where one-sided operations go by the network (the job spans nodes, or
 * RDMPI_RMA_PATH=rdma) each chunk is registered with the network
 * transport when it is made, whole, and stays registered until it is
 * unmapped (or MPI_Finalize): a window over the memory uses that
 * registration and its key (rdma.c, rma_mem_net) rather than registering
 * again, and the transport's own registration cache (verbs) serves
 * transfers from the memory without a new registration. A registration
 * that fails leaves the chunk as it was (windows register their range).
 *
 * fork(): the memory is shared memory, but a child made by fork() gets a
 * copy of it, as of malloc's memory (linking rdmpi changes nothing a
 * program sees of fork): an atfork handler in the child reads each chunk's
 * data (holes stay unbacked) into private memory that takes the chunk's
 * place, while the parent's fork() waits for it (a pipe), so that nothing
 * the parent writes once fork() has returned reaches the child. The pool's
 * lock is held across the fork, as malloc's are. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "runtime/base/job.h"
#include "runtime/base/log.h"
#include "runtime/base/params.h"
#include "runtime/objects/info.h"
#include "runtime/p2p/net.h"
#include "runtime/rma/rma_int.h"

#define RMA_CHUNK ((size_t)4 << 20)
#define RMA_LINE 64

struct rma_free {
    struct rma_free *next;
    size_t off, len;
};

struct rma_chunk {
    struct rma_chunk *next;
    char *base;
    size_t len;
    int fd;
    int own;               /* one block of its own (large, or aligned beyond a page) */
    struct rma_free *free; /* pool chunks: free ranges by offset, merged */
    rd_mr *mr;             /* its registration with the network transport, or NULL */
    size_t rkey_len;
    unsigned char rkey[RD_RMA_RKEY_MAX];
};

struct rma_blk {
    uintptr_t addr;
    size_t len;            /* bytes taken from the chunk (its free list's unit) */
    struct rma_chunk *c;   /* NULL: posix_memalign */
};

static struct rma_chunk *chunks;
static int net_closed; /* MPI_Finalize released the registrations: no more */
static struct rma_blk *blks;
static size_t nblks, capblks;
/* the pool's lock: MPI_Alloc_mem and MPI_Free_mem may be called by any
 * thread, without the big lock, and fork() holds it (below) */
static pthread_mutex_t mem_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_once_t fork_once = PTHREAD_ONCE_INIT;
static int fork_pipe[2] = {-1, -1};

static void fork_prepare(void)
{
    pthread_mutex_lock(&mem_lock);
    fork_pipe[0] = fork_pipe[1] = -1;
    if (chunks && pipe2(fork_pipe, O_CLOEXEC) != 0)
        fork_pipe[0] = fork_pipe[1] = -1;
}

static void fork_parent(void)
{
    if (fork_pipe[0] >= 0) {
        char b;
        close(fork_pipe[1]);
        /* until the child has its copy (or is gone: end of file) */
        while (read(fork_pipe[0], &b, 1) < 0 && errno == EINTR)
            ;
        close(fork_pipe[0]);
    }
    pthread_mutex_unlock(&mem_lock);
}

/* (in the child: system calls only) */
static void fork_child(void)
{
    for (struct rma_chunk *c = chunks; c; c = c->next) {
        if (c->fd < 0)
            continue;
        char *p = mmap(NULL, c->len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (p != MAP_FAILED) {
            off_t at = 0, end = (off_t)c->len;
            int ok = 1;
            while (ok && at < end) {
                off_t d = lseek(c->fd, at, SEEK_DATA), h;
                if (d < 0 || d >= end)
                    break; /* (ENXIO: no data after at) */
                h = lseek(c->fd, d, SEEK_HOLE);
                if (h < 0 || h > end)
                    h = end;
                for (off_t o = d; ok && o < h;) {
                    ssize_t r = pread(c->fd, p + o, (size_t)(h - o), o);
                    if (r > 0)
                        o += r;
                    else if (r < 0 && errno == EINTR)
                        continue;
                    else
                        ok = 0;
                }
                at = h;
            }
            /* the copy takes the shared mapping's place (if anything
             * failed the child keeps sharing, as before this handler) */
            if (!ok || mremap(p, c->len, c->len, MREMAP_MAYMOVE | MREMAP_FIXED, c->base) == MAP_FAILED)
                munmap(p, c->len);
        }
        close(c->fd);
        c->fd = -1; /* (no window of the child's maps it) */
    }
    if (fork_pipe[1] >= 0) {
        char b = 1;
        while (write(fork_pipe[1], &b, 1) < 0 && errno == EINTR)
            ;
        close(fork_pipe[0]);
        close(fork_pipe[1]);
    }
    pthread_mutex_unlock(&mem_lock);
}

static void fork_register(void) { pthread_atfork(fork_prepare, fork_parent, fork_child); }

/* the first block whose address is >= a */
static size_t blk_search(uintptr_t a)
{
    size_t lo = 0, hi = nblks;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (blks[mid].addr < a)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

static int blk_add(uintptr_t a, size_t len, struct rma_chunk *c)
{
    if (nblks == capblks) {
        size_t n = capblks ? 2 * capblks : 64;
        struct rma_blk *b = realloc(blks, n * sizeof(*b));
        if (!b)
            return -1;
        blks = b;
        capblks = n;
    }
    size_t i = blk_search(a);
    memmove(blks + i + 1, blks + i, (nblks - i) * sizeof(*blks));
    blks[i] = (struct rma_blk){a, len, c};
    nblks++;
    return 0;
}

/* Register chunk c with the network transport if one-sided operations
 * go by it (the callers hold the big lock: transport calls are the
 * engine's, one thread at a time). */
static void chunk_register(struct rma_chunk *c)
{
    rd_tl *tl = rd_net_tl();
    if (net_closed || !tl || rd_param.rma_path == RD_RMA_PATH_AM || tl->caps.rkey_max > RD_RMA_RKEY_MAX ||
        (rd_param.rma_path != RD_RMA_PATH_RDMA && rd_job.num_nodes <= 1))
        return;
    size_t klen = 0;
    if (rd_net_mem_reg(c->base, c->len, &c->mr, c->rkey, &klen) != RD_OK) {
        c->mr = NULL;
        rd_debug("rma", "MPI_Alloc_mem: cannot register a chunk of %zu bytes on %s: windows register their own",
                 c->len, tl->ops->name);
        return;
    }
    c->rkey_len = klen;
    rd_debug("rma", "MPI_Alloc_mem: a chunk of %zu bytes registered on %s", c->len, tl->ops->name);
}

static struct rma_chunk *chunk_new(size_t len, int own)
{
    pthread_once(&fork_once, fork_register);
    struct rma_chunk *c = calloc(1, sizeof(*c));
    if (!c)
        return NULL;
    int f = memfd_create("rdmpi-mem", MFD_CLOEXEC);
    void *m = MAP_FAILED;
    if (f >= 0 && ftruncate(f, (off_t)len) == 0)
        m = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, f, 0);
    if (m == MAP_FAILED) {
        if (f >= 0)
            close(f);
        free(c);
        return NULL;
    }
    c->base = m;
    c->len = len;
    c->fd = f;
    c->own = own;
    if (!own) {
        c->free = malloc(sizeof(*c->free));
        if (!c->free) {
            munmap(m, len);
            close(f);
            free(c);
            return NULL;
        }
        *c->free = (struct rma_free){NULL, 0, len};
    }
    c->next = chunks;
    chunks = c;
    chunk_register(c);
    return c;
}

static void chunk_drop(struct rma_chunk *c)
{
    if (c->mr)
        rd_net_mem_dereg(c->mr);
    for (struct rma_chunk **pc = &chunks; *pc; pc = &(*pc)->next)
        if (*pc == c) {
            *pc = c->next;
            break;
        }
    munmap(c->base, c->len);
    close(c->fd);
    while (c->free) {
        struct rma_free *f = c->free;
        c->free = f->next;
        free(f);
    }
    free(c);
}

/* first fit in pool chunk c: len bytes at an offset aligned to align */
static char *chunk_take(struct rma_chunk *c, size_t len, size_t align)
{
    for (struct rma_free **pf = &c->free; *pf; pf = &(*pf)->next) {
        struct rma_free *f = *pf;
        size_t at = (f->off + align - 1) & ~(align - 1), pad = at - f->off;
        if (pad > f->len || f->len - pad < len)
            continue;
        size_t tail = f->len - pad - len;
        if (pad && tail) {
            /* the range splits in two: keep the head here, the tail after it */
            struct rma_free *t = malloc(sizeof(*t));
            if (!t)
                return NULL;
            *t = (struct rma_free){f->next, at + len, tail};
            f->len = pad;
            f->next = t;
        } else if (pad) {
            f->len = pad;
        } else if (tail) {
            f->off = at + len;
            f->len = tail;
        } else {
            *pf = f->next;
            free(f);
        }
        return c->base + at;
    }
    return NULL;
}

/* give [off, off + len) back to pool chunk c's free list, merged */
static void chunk_give(struct rma_chunk *c, size_t off, size_t len)
{
    struct rma_free **pf = &c->free, *prev = NULL;
    while (*pf && (*pf)->off < off) {
        prev = *pf;
        pf = &(*pf)->next;
    }
    struct rma_free *next = *pf;
    if (prev && prev->off + prev->len == off) {
        prev->len += len;
        if (next && off + len == next->off) {
            prev->len += next->len;
            prev->next = next->next;
            free(next);
        }
        return;
    }
    if (next && off + len == next->off) {
        next->off = off;
        next->len += len;
        return;
    }
    struct rma_free *f = malloc(sizeof(*f));
    if (!f)
        return; /* (the range is lost to the pool, nothing worse) */
    *f = (struct rma_free){next, off, len};
    *pf = f;
}

/* the alignment the info asks for (mpi_minimum_memory_alignment), at
 * least a line; values that are not a power of two are ignored */
static size_t info_align(MPI_Info info)
{
    if (!info || info == MPI_INFO_NULL)
        return RMA_LINE;
    int i = rd_info_find(info, "mpi_minimum_memory_alignment");
    if (i < 0)
        return RMA_LINE;
    char *end;
    unsigned long long a = strtoull(info->ent[i].value, &end, 10);
    if (*end || a == 0 || (a & (a - 1)) || a > ((size_t)1 << 30))
        return RMA_LINE;
    return a > RMA_LINE ? (size_t)a : RMA_LINE;
}

static void *mem_alloc(size_t size, size_t align)
{
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    if (size > ((size_t)1 << 62))
        return NULL;
    size_t len = size ? (size + RMA_LINE - 1) & ~(size_t)(RMA_LINE - 1) : RMA_LINE;
    char *p = NULL;
    struct rma_chunk *c = NULL;
    if (len > RMA_CHUNK / 4 || align > page) {
        /* a chunk of its own, over-mapped for an alignment beyond a page */
        size_t extra = align > page ? align - page : 0;
        c = chunk_new(((len + page - 1) & ~(page - 1)) + extra, 1);
        if (c)
            p = (char *)(((uintptr_t)c->base + align - 1) & ~(uintptr_t)(align - 1));
    } else {
        for (c = chunks; c && !p; c = p ? c : c->next)
            if (!c->own)
                p = chunk_take(c, len, align);
        if (!p && (c = chunk_new(RMA_CHUNK, 0)))
            p = chunk_take(c, len, align);
    }
    if (!p) {
        /* no node memory: plain memory (windows over it go by CMA) */
        c = NULL;
        if (posix_memalign((void **)&p, align, len) != 0)
            return NULL;
    }
    if (blk_add((uintptr_t)p, len, c) != 0) {
        if (!c)
            free(p);
        else if (c->own)
            chunk_drop(c);
        else
            chunk_give(c, (size_t)(p - c->base), len);
        return NULL;
    }
    return p;
}

static int mem_free(void *ptr)
{
    size_t i = blk_search((uintptr_t)ptr);
    if (i == nblks || blks[i].addr != (uintptr_t)ptr)
        return MPI_ERR_BASE;
    struct rma_blk b = blks[i];
    memmove(blks + i, blks + i + 1, (nblks - i - 1) * sizeof(*blks));
    nblks--;
    if (!b.c)
        free(ptr);
    else if (b.c->own)
        chunk_drop(b.c);
    else
        chunk_give(b.c, (size_t)((char *)ptr - b.c->base), b.len);
    return MPI_SUCCESS;
}

/* the pool's chunk holding [addr, addr + len), or NULL (mem_lock held) */
static struct rma_chunk *chunk_holding(const void *addr, size_t len)
{
    uintptr_t a = (uintptr_t)addr;
    for (struct rma_chunk *c = chunks; c; c = c->next)
        if (a >= (uintptr_t)c->base && len <= c->len && a - (uintptr_t)c->base <= c->len - len)
            return c;
    return NULL;
}

static int mem_find(const void *addr, size_t len, int *fd, size_t *off, size_t *chunk_len)
{
    struct rma_chunk *c = chunk_holding(addr, len);
    if (!c)
        return 0;
    *fd = c->fd;
    *off = (size_t)((uintptr_t)addr - (uintptr_t)c->base);
    *chunk_len = c->len;
    return 1;
}

void *rma_mem_alloc(size_t size, size_t align)
{
    pthread_mutex_lock(&mem_lock);
    void *p = mem_alloc(size, align);
    pthread_mutex_unlock(&mem_lock);
    return p;
}

int rma_mem_free(void *ptr)
{
    pthread_mutex_lock(&mem_lock);
    int rc = mem_free(ptr);
    pthread_mutex_unlock(&mem_lock);
    return rc;
}

int rma_mem_find(const void *addr, size_t len, int *fd, size_t *off, size_t *chunk_len)
{
    pthread_mutex_lock(&mem_lock);
    int r = mem_find(addr, len, fd, off, chunk_len);
    pthread_mutex_unlock(&mem_lock);
    return r;
}

int rma_mem_net(const void *addr, size_t len, rd_mr **mr, void *rkey, size_t *rkey_len)
{
    pthread_mutex_lock(&mem_lock);
    struct rma_chunk *c = chunk_holding(addr, len);
    int r = c && c->mr;
    if (r) {
        *mr = c->mr;
        memcpy(rkey, c->rkey, c->rkey_len);
        *rkey_len = c->rkey_len;
    }
    pthread_mutex_unlock(&mem_lock);
    return r;
}

void rd_rma_mem_close(void)
{
    pthread_mutex_lock(&mem_lock);
    for (struct rma_chunk *c = chunks; c; c = c->next)
        if (c->mr) {
            rd_net_mem_dereg(c->mr);
            c->mr = NULL;
        }
    net_closed = 1;
    pthread_mutex_unlock(&mem_lock);
}

int rd_rma_alloc_mem(MPI_Aint size, MPI_Info info, void **ptr, char *why)
{
    void *p = rma_mem_alloc((size_t)size, info_align(info));
    if (!p) {
        snprintf(why, RD_RMA_WHY, "cannot allocate %lld bytes", (long long)size);
        return MPI_ERR_NO_MEM;
    }
    *ptr = p;
    return MPI_SUCCESS;
}

int rd_rma_free_mem(void *ptr, char *why)
{
    if (!ptr)
        return MPI_SUCCESS; /* (as free(NULL)) */
    if (rma_mem_free(ptr) != MPI_SUCCESS) {
        snprintf(why, RD_RMA_WHY, "%p is not memory MPI_Alloc_mem gave (or it was freed already)", ptr);
        return MPI_ERR_BASE;
    }
    return MPI_SUCCESS;
}

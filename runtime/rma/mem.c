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
 * are a line of the same pool. The memory is shared memory: a child made
 * by fork() shares it with its parent instead of getting a copy. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "runtime/objects/info.h"
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
};

struct rma_blk {
    uintptr_t addr;
    size_t len;            /* bytes taken from the chunk (its free list's unit) */
    struct rma_chunk *c;   /* NULL: posix_memalign */
};

static struct rma_chunk *chunks;
static struct rma_blk *blks;
static size_t nblks, capblks;

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

static struct rma_chunk *chunk_new(size_t len, int own)
{
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
    return c;
}

static void chunk_drop(struct rma_chunk *c)
{
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

void *rma_mem_alloc(size_t size, size_t align)
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

int rma_mem_free(void *ptr)
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

int rma_mem_find(const void *addr, size_t len, int *fd, size_t *off, size_t *chunk_len)
{
    uintptr_t a = (uintptr_t)addr;
    for (struct rma_chunk *c = chunks; c; c = c->next)
        if (a >= (uintptr_t)c->base && len <= c->len && a - (uintptr_t)c->base <= c->len - len) {
            *fd = c->fd;
            *off = a - (uintptr_t)c->base;
            *chunk_len = c->len;
            return 1;
        }
    return 0;
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

/*
 * verbs_rcache.h - a registration cache keyed by address range.
 *
 * get() returns a registration covering [addr, addr + len), reusing one
 * that already covers it; put() gives it back. Idle registrations stay
 * registered, least recently used first out once their bytes pass the
 * limit. Entries are page ranges kept sorted and disjoint: a new
 * registration that overlaps existing ones covers their union and replaces
 * them.
 *
 * Memory that the application unmaps (munmap, free() of a large block,
 * brk shrinking, madvise(DONTNEED), mremap) must not be served from the
 * cache afterwards: a new mapping at the same address has other pages.
 * The event source is UCX's libucm (UCM_EVENT_VM_UNMAPPED), which patches
 * the C library's functions so that glibc's internal calls (free() calling
 * munmap, trimming calling brk) are seen too. The handler only unlinks the
 * entries it hits (no allocation, no system call); deregistration happens
 * later, outside the handler. Without an event source (built without
 * libucm, hooks not installable, or max_bytes = 0) nothing is kept: every
 * get() registers and every put() deregisters.
 *
 * Not thread-safe except for the event handler, which may run on any
 * thread: get/put/destroy are called by one thread at a time (the p2p
 * engine serialises transport calls).
 */
#ifndef RD_VERBS_RCACHE_H
#define RD_VERBS_RCACHE_H

#include <stddef.h>
#include <stdint.h>

#include "runtime/base/error.h"

typedef struct vb_rcache vb_rcache;

typedef struct vb_rreg {
    uintptr_t start, end; /* page-aligned [start, end) */
    void *handle;         /* what reg() returned */
    int refs;
    int state; /* private */
    struct vb_rreg *lru_prev, *lru_next, *gc_next;
} vb_rreg;

/* Register [addr, addr + len): a handle, or NULL with errno set. */
typedef void *(*vb_reg_fn)(void *arg, void *addr, size_t len);
typedef void (*vb_dereg_fn)(void *arg, void *handle);

struct vb_rcache_stats {
    unsigned long hits, misses, regs, deregs, invalidated, evicted;
    size_t bytes; /* registered bytes kept in the cache */
    int entries;
};

/* max_bytes 0: no caching. use_events 0: do not install memory hooks (no
 * caching either). *mode (may be NULL) receives a line saying which. */
rd_status vb_rcache_create(size_t max_bytes, int use_events, vb_reg_fn reg, vb_dereg_fn dereg,
                           void *arg, vb_rcache **out, const char **mode);
int vb_rcache_caching(const vb_rcache *rc);
rd_status vb_rcache_get(vb_rcache *rc, void *addr, size_t len, vb_rreg **out);
void vb_rcache_put(vb_rcache *rc, vb_rreg *r);
void vb_rcache_stats(vb_rcache *rc, struct vb_rcache_stats *st);
/* Deregister everything (no entry may still be held). */
void vb_rcache_destroy(vb_rcache *rc);

/* For tests: report an unmapped range as the memory hooks would. */
void vb_rcache_invalidate(vb_rcache *rc, uintptr_t start, size_t len);

#endif

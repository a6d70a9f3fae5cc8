/*
 * verbs_rcache.c - the registration cache (see verbs_rcache.h).
 *
 * The index is an array of entries sorted by start address, disjoint, so a
 * lookup is one binary search. A spin lock guards the index, the LRU list
 * and the garbage list against the memory-event handler, which may run on
 * any thread and at any moment (inside free() called by this very code
 * too): so nothing that can allocate, free or unmap runs while the lock is
 * held, and the handler itself only unlinks entries.
 *
 * Entry states: IN_INDEX (findable; on the LRU list when idle), DETACHED
 * (out of the index: invalidated, replaced by a larger registration, or
 * never indexed; deregistered when its last user puts it back), GARBAGE
 * (detached and idle: deregistered at the next get/put).
 */
#include "config.h"

#include <errno.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#ifdef RD_HAVE_UCM
#include <ucm/api/ucm.h>
#endif

#include "runtime/base/log.h"
#include "transports/verbs/verbs_rcache.h"

enum { RC_IN_INDEX = 1, RC_DETACHED, RC_GARBAGE };

struct vb_rcache {
    atomic_flag lock;
    int caching;
    size_t max_bytes;
    vb_reg_fn reg;
    vb_dereg_fn dereg;
    void *arg;
    uintptr_t page;
    vb_rreg **idx;
    int n, cap;
    vb_rreg *lru_head, *lru_tail; /* idle entries in the index, most recent first */
    vb_rreg *gc;                  /* garbage: deregister outside the lock */
    /* unmapped ranges seen while a miss registers outside the lock */
    int miss_active;
    uintptr_t ev_lo, ev_hi;
    int hooked;
    volatile unsigned long events;
    struct vb_rcache_stats st;
};

static void lock(vb_rcache *rc)
{
    while (atomic_flag_test_and_set_explicit(&rc->lock, memory_order_acquire))
        sched_yield();
}

static void unlock(vb_rcache *rc)
{
    atomic_flag_clear_explicit(&rc->lock, memory_order_release);
}

/* ------------------------------------------------------------ index (lock held) */

/* The position of the last entry starting at or before a (-1: none). */
static int find_le(const vb_rcache *rc, uintptr_t a)
{
    int lo = 0, hi = rc->n - 1, ans = -1;
    while (lo <= hi) {
        int mid = (lo + hi) / 2;
        if (rc->idx[mid]->start <= a) {
            ans = mid;
            lo = mid + 1;
        } else {
            hi = mid - 1;
        }
    }
    return ans;
}

static void lru_unlink(vb_rcache *rc, vb_rreg *e)
{
    if (e->lru_prev)
        e->lru_prev->lru_next = e->lru_next;
    else if (rc->lru_head == e)
        rc->lru_head = e->lru_next;
    if (e->lru_next)
        e->lru_next->lru_prev = e->lru_prev;
    else if (rc->lru_tail == e)
        rc->lru_tail = e->lru_prev;
    e->lru_prev = e->lru_next = NULL;
}

static void lru_push(vb_rcache *rc, vb_rreg *e)
{
    e->lru_prev = NULL;
    e->lru_next = rc->lru_head;
    if (rc->lru_head)
        rc->lru_head->lru_prev = e;
    rc->lru_head = e;
    if (!rc->lru_tail)
        rc->lru_tail = e;
}

/* Take index entry i out: idle ones become garbage, used ones detached. */
static void detach_at(vb_rcache *rc, int i)
{
    vb_rreg *e = rc->idx[i];
    memmove(&rc->idx[i], &rc->idx[i + 1], (size_t)(rc->n - i - 1) * sizeof(*rc->idx));
    rc->n--;
    rc->st.bytes -= e->end - e->start;
    if (e->refs == 0) {
        lru_unlink(rc, e);
        e->state = RC_GARBAGE;
        e->gc_next = rc->gc;
        rc->gc = e;
    } else {
        e->state = RC_DETACHED;
    }
}

/* Detach every entry overlapping [start, end); returns how many. */
static int detach_range(vb_rcache *rc, uintptr_t start, uintptr_t end)
{
    int k = 0;
    int i = find_le(rc, start);
    if (i < 0 || rc->idx[i]->end <= start)
        i++;
    while (i < rc->n && rc->idx[i]->start < end) {
        detach_at(rc, i);
        k++;
    }
    return k;
}

/* ------------------------------------------------------------ events */

void vb_rcache_invalidate(vb_rcache *rc, uintptr_t start, size_t len)
{
    if (!rc || !len)
        return;
    uintptr_t s = start & ~(rc->page - 1), e = (start + len + rc->page - 1) & ~(rc->page - 1);
    lock(rc);
    rc->events++;
    if (rc->miss_active) {
        if (s < rc->ev_lo)
            rc->ev_lo = s;
        if (e > rc->ev_hi)
            rc->ev_hi = e;
    }
    rc->st.invalidated += (unsigned long)detach_range(rc, s, e);
    unlock(rc);
}

#if defined(RD_HAVE_UCM) && !defined(__SANITIZE_ADDRESS__)
#define RC_HOOKS 1
static void vm_unmapped(ucm_event_type_t type, ucm_event_t *ev, void *arg)
{
    (void)type;
    vb_rcache_invalidate(arg, (uintptr_t)ev->vm_unmapped.address, ev->vm_unmapped.size);
}

/* Install the hooks and check that an munmap is really seen. */
static int hook(vb_rcache *rc, const char **why)
{
    /* only the unmapping events: no replacement of malloc */
    ucm_global_config_t opts = ucm_global_opts;
    opts.enable_malloc_hooks = 0;
    opts.enable_malloc_reloc = 0;
    ucm_set_global_opts(&opts);
    ucs_status_t s = ucm_set_event_handler(UCM_EVENT_VM_UNMAPPED, 0, vm_unmapped, rc);
    if (s != UCS_OK) {
        *why = "libucm could not install its memory hooks";
        return 0;
    }
    void *p = mmap(NULL, rc->page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    unsigned long before = rc->events;
    if (p != MAP_FAILED)
        munmap(p, rc->page);
    if (p == MAP_FAILED || rc->events == before) {
        ucm_unset_event_handler(UCM_EVENT_VM_UNMAPPED, vm_unmapped, rc);
        *why = "libucm's hooks did not report a test munmap";
        return 0;
    }
    return 1;
}
#endif

/* ------------------------------------------------------------ life cycle */

rd_status vb_rcache_create(size_t max_bytes, int use_events, vb_reg_fn reg, vb_dereg_fn dereg,
                           void *arg, vb_rcache **out, const char **mode)
{
    vb_rcache *rc = calloc(1, sizeof(*rc));
    if (!rc)
        return RD_ERR_NOMEM;
    atomic_flag_clear(&rc->lock);
    rc->reg = reg;
    rc->dereg = dereg;
    rc->arg = arg;
    rc->max_bytes = max_bytes;
    long pg = sysconf(_SC_PAGESIZE);
    rc->page = pg > 0 ? (uintptr_t)pg : 4096;
    const char *why = "caching off (RDMPI_VERBS_RCACHE_MAX=0)";
    if (max_bytes && use_events) {
#if defined(__SANITIZE_ADDRESS__)
        /* its allocator unmaps with raw system calls, which no hook sees */
        why = "no caching under AddressSanitizer (its allocator unmaps behind the hooks' back)";
#elif defined(RD_HAVE_UCM)
        rc->hooked = hook(rc, &why);
#else
        why = "no memory event source (built without libucm)";
#endif
    } else if (max_bytes) {
        why = "memory events not asked for";
    }
    rc->caching = rc->hooked;
    if (mode)
        *mode = rc->caching ? "cached, invalidated by libucm memory events" : why;
    *out = rc;
    return RD_OK;
}

int vb_rcache_caching(const vb_rcache *rc)
{
    return rc->caching;
}

/* Deregister the garbage (outside the lock). */
static void collect(vb_rcache *rc)
{
    if (!rc->gc)
        return;
    lock(rc);
    vb_rreg *g = rc->gc;
    rc->gc = NULL;
    unlock(rc);
    while (g) {
        vb_rreg *next = g->gc_next;
        rc->dereg(rc->arg, g->handle);
        rc->st.deregs++;
        free(g);
        g = next;
    }
}

/* Room for one more index entry, made outside the lock (the handler may
 * be reading the old array meanwhile: swap under the lock). */
static rd_status reserve(vb_rcache *rc)
{
    if (rc->n + 1 <= rc->cap)
        return RD_OK;
    int cap = rc->cap ? rc->cap * 2 : 64;
    vb_rreg **a = malloc((size_t)cap * sizeof(*a));
    if (!a)
        return RD_ERR_NOMEM;
    lock(rc);
    memcpy(a, rc->idx, (size_t)rc->n * sizeof(*a));
    vb_rreg **old = rc->idx;
    rc->idx = a;
    rc->cap = cap;
    unlock(rc);
    free(old);
    return RD_OK;
}

static vb_rreg *new_entry(vb_rcache *rc, uintptr_t s, uintptr_t e)
{
    vb_rreg *r = calloc(1, sizeof(*r));
    if (!r)
        return NULL;
    r->handle = rc->reg(rc->arg, (void *)s, e - s);
    if (!r->handle) {
        free(r);
        return NULL;
    }
    rc->st.regs++;
    r->start = s;
    r->end = e;
    r->refs = 1;
    return r;
}

rd_status vb_rcache_get(vb_rcache *rc, void *addr, size_t len, vb_rreg **out)
{
    uintptr_t a = (uintptr_t)addr;
    uintptr_t s = a & ~(rc->page - 1), e = (a + (len ? len : 1) + rc->page - 1) & ~(rc->page - 1);
    collect(rc);
    if (!rc->caching) {
        vb_rreg *r = new_entry(rc, a, a + (len ? len : 1));
        if (!r)
            return errno == ENOMEM ? RD_ERR_NOMEM : RD_ERR_IO;
        r->state = RC_DETACHED;
        rc->st.misses++;
        *out = r;
        return RD_OK;
    }
    if (reserve(rc) != RD_OK)
        return RD_ERR_NOMEM;
    lock(rc);
    int i = find_le(rc, s);
    if (i >= 0 && rc->idx[i]->end >= e) {
        vb_rreg *r = rc->idx[i];
        if (r->refs++ == 0)
            lru_unlink(rc, r);
        rc->st.hits++;
        unlock(rc);
        *out = r;
        return RD_OK;
    }
    /* a miss: cover the union with the entries it overlaps (they are
     * contiguous in the index) and replace them */
    uintptr_t us = s, ue = e;
    int j = i >= 0 && rc->idx[i]->end > s ? i : i + 1;
    for (; j < rc->n && rc->idx[j]->start < e; j++) {
        if (rc->idx[j]->start < us)
            us = rc->idx[j]->start;
        if (rc->idx[j]->end > ue)
            ue = rc->idx[j]->end;
    }
    rc->miss_active = 1;
    rc->ev_lo = UINTPTR_MAX;
    rc->ev_hi = 0;
    rc->st.misses++;
    unlock(rc);

    vb_rreg *r = new_entry(rc, us, ue);
    if (!r && (us != s || ue != e)) /* the union may hold pages we cannot register */
        r = new_entry(rc, us = s, ue = e);
    if (!r) {
        int err = errno;
        lock(rc);
        rc->miss_active = 0;
        unlock(rc);
        return err == ENOMEM ? RD_ERR_NOMEM : RD_ERR_IO;
    }
    lock(rc);
    rc->miss_active = 0;
    if (rc->ev_lo < ue && rc->ev_hi > us) {
        /* part of it was unmapped meanwhile: use once, never index */
        r->state = RC_DETACHED;
    } else {
        detach_range(rc, us, ue);
        int at = find_le(rc, us) + 1;
        memmove(&rc->idx[at + 1], &rc->idx[at], (size_t)(rc->n - at) * sizeof(*rc->idx));
        rc->idx[at] = r;
        rc->n++;
        r->state = RC_IN_INDEX;
        rc->st.bytes += ue - us;
        /* over the limit: the least recently used idle entries go */
        while (rc->st.bytes > rc->max_bytes && rc->lru_tail) {
            vb_rreg *old = rc->lru_tail;
            int k = find_le(rc, old->start);
            detach_at(rc, k);
            rc->st.evicted++;
        }
    }
    unlock(rc);
    collect(rc);
    *out = r;
    return RD_OK;
}

void vb_rcache_put(vb_rcache *rc, vb_rreg *r)
{
    if (!r)
        return;
    lock(rc);
    int drop = 0;
    if (--r->refs == 0) {
        if (r->state == RC_IN_INDEX) {
            lru_push(rc, r);
            /* an entry larger than the whole cache is not kept */
            while (rc->st.bytes > rc->max_bytes && rc->lru_tail) {
                vb_rreg *old = rc->lru_tail;
                detach_at(rc, find_le(rc, old->start));
                rc->st.evicted++;
            }
        } else {
            drop = 1;
        }
    }
    unlock(rc);
    if (drop) {
        rc->dereg(rc->arg, r->handle);
        rc->st.deregs++;
        free(r);
    }
    collect(rc);
}

void vb_rcache_stats(vb_rcache *rc, struct vb_rcache_stats *st)
{
    lock(rc);
    *st = rc->st;
    st->entries = rc->n;
    unlock(rc);
}

void vb_rcache_destroy(vb_rcache *rc)
{
    if (!rc)
        return;
#ifdef RC_HOOKS
    if (rc->hooked)
        ucm_unset_event_handler(UCM_EVENT_VM_UNMAPPED, vm_unmapped, rc);
#endif
    lock(rc);
    while (rc->n)
        detach_at(rc, rc->n - 1);
    unlock(rc);
    collect(rc);
    free(rc->idx);
    free(rc);
}

/* verbs_rcache.c - the verbs registration cache alone, with a fake
 * "registration" that records the range and a serial number (no device
 * needed): hits and misses, merging of overlapping ranges, the LRU bound,
 * and invalidation by every way memory leaves the process — munmap, free()
 * of a large malloc (glibc's internal munmap), brk shrinking, madvise
 * (MADV_DONTNEED), mremap — then the same address served again by new
 * memory must get a new registration. Without libucm, or with caching
 * off, every get registers and every put deregisters. */
#include "config.h"

#include <malloc.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "test/tap.h"
#include "transports/verbs/verbs_rcache.h"

struct fake {
    uintptr_t start;
    size_t len;
    int serial;
};

static int serial, live;

static void *fake_reg(void *arg, void *addr, size_t len)
{
    (void)arg;
    struct fake *f = malloc(sizeof(*f));
    f->start = (uintptr_t)addr;
    f->len = len;
    f->serial = ++serial;
    live++;
    return f;
}

static void fake_dereg(void *arg, void *h)
{
    (void)arg;
    live--;
    free(h);
}

static int serial_of(vb_rreg *r)
{
    return ((struct fake *)r->handle)->serial;
}

static int covers(vb_rreg *r, void *a, size_t len)
{
    struct fake *f = r->handle;
    return f->start <= (uintptr_t)a && f->start + f->len >= (uintptr_t)a + len;
}

/* get + put; returns the registration's serial number */
static int touch(vb_rcache *rc, void *a, size_t len)
{
    vb_rreg *r = NULL;
    if (vb_rcache_get(rc, a, len, &r) != RD_OK || !r)
        return -1;
    int s = covers(r, a, len) ? serial_of(r) : -2;
    vb_rcache_put(rc, r);
    return s;
}

static void caching_tests(vb_rcache *rc, long page)
{
    struct vb_rcache_stats st;
    /* hits and misses on one mapping */
    char *m = mmap(NULL, 64 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    tap_ok(m != MAP_FAILED, "mmap of 64 pages");
    int s1 = touch(rc, m, 4 * page);
    tap_ok(s1 > 0, "first get registers (serial %d)", s1);
    tap_is_int(touch(rc, m, 4 * page), s1, "the same range again: a hit");
    tap_is_int(touch(rc, m + page, 100), s1, "a range inside it: a hit");
    int s2 = touch(rc, m + 2 * page, 4 * page);
    tap_ok(s2 > s1, "a range overlapping its end: a new registration");
    tap_is_int(touch(rc, m, 6 * page), s2, "which covers the union: the union is a hit");
    vb_rcache_stats(rc, &st);
    tap_is_int(st.entries, 1, "one entry (the union replaced the first)");
    tap_is_int(live, 1, "the replaced registration was deregistered");

    /* munmap of part of it: gone; mapping again at the same address: new */
    tap_ok(munmap(m + 3 * page, page) == 0, "munmap of one page inside the cached range");
    vb_rcache_stats(rc, &st);
    tap_is_int(st.entries, 0, "munmap invalidated the entry");
    char *again = mmap(m + 3 * page, page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
    tap_ok(again == m + 3 * page, "a new page mapped at the same address");
    int s3 = touch(rc, m, 6 * page);
    tap_ok(s3 > s2, "the same range afterwards: a new registration (%d > %d)", s3, s2);
    munmap(m, 64 * page);

    /* free() of a large malloc unmaps inside glibc: seen too */
    size_t big = 4u << 20;
    char *b = malloc(big);
    memset(b, 1, big);
    int sb = touch(rc, b, big);
    tap_is_int(touch(rc, b, big), sb, "a large malloc'd buffer: cached");
    unsigned long inv0 = (vb_rcache_stats(rc, &st), st.invalidated);
    free(b);
    vb_rcache_stats(rc, &st);
    tap_ok(st.invalidated > inv0, "free() of it invalidated the entry (glibc's own munmap)");
    char *b2 = malloc(big);
    memset(b2, 2, big);
    int sb2 = touch(rc, b2, big);
    tap_ok(sb2 != sb, "a new malloc%s: a new registration", b2 == b ? " at the same address" : "");
    free(b2);

    /* brk shrinking: memory from the heap top given back to the system.
     * The small blocks that get() allocates must come from below it:
     * warm the allocator's caches of their sizes first. */
    mallopt(M_MMAP_THRESHOLD, 64 << 20); /* 4 MiB from the heap, not mmap */
    mallopt(M_TRIM_THRESHOLD, 0);
    void *warm[2][6];
    for (int i = 0; i < 6; i++) {
        warm[0][i] = malloc(sizeof(vb_rreg));
        warm[1][i] = malloc(sizeof(struct fake));
    }
    for (int i = 0; i < 6; i++) {
        free(warm[0][i]);
        free(warm[1][i]);
    }
    char *h = malloc(big);
    memset(h, 3, big);
    int sh = touch(rc, h, big);
    inv0 = (vb_rcache_stats(rc, &st), st.invalidated);
    void *top = sbrk(0);
    free(h);
    int shrank = sbrk(0) < top;
    vb_rcache_stats(rc, &st);
    tap_ok(shrank, "free() of the heap top shrank the heap (brk)");
    tap_ok(st.invalidated > inv0, "the brk shrink invalidated the entry");
    char *h2 = malloc(big);
    memset(h2, 4, big);
    tap_ok(touch(rc, h2, big) != sh, "heap memory again%s: a new registration", h2 == h ? " at the same address" : "");
    free(h2);
    mallopt(M_MMAP_THRESHOLD, 128 << 10);
    mallopt(M_TRIM_THRESHOLD, 128 << 10);

    /* madvise(DONTNEED): the pages are replaced by fresh zero pages */
    m = mmap(NULL, 9 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    int sm = touch(rc, m, 8 * page);
    madvise(m + page, page, MADV_DONTNEED);
    tap_ok(touch(rc, m, 8 * page) != sm, "madvise(MADV_DONTNEED) invalidated the entry");
    /* mremap moves the pages away (growing, with a neighbour in the way) */
    mprotect(m + 8 * page, page, PROT_NONE);
    char *n = mremap(m, 8 * page, 16 * page, MREMAP_MAYMOVE);
    tap_ok(n != MAP_FAILED && n != m, "mremap moved the mapping");
    vb_rcache_stats(rc, &st);
    tap_is_int(st.entries, 0, "mremap invalidated the entry of the old address");
    munmap(m + 8 * page, page);
    munmap(n, 16 * page);

    /* sbrk with a negative increment */
    char *sb0 = sbrk(0);
    char *g = sbrk(8 * page);
    if (g == sb0) {
        int sg = touch(rc, g, 8 * page);
        sbrk(-4 * page);
        sbrk(4 * page);
        tap_ok(touch(rc, g, 8 * page) != sg, "sbrk(-n) invalidated the entry");
        sbrk(-8 * page);
    } else {
        tap_ok(0, "sbrk(8 pages) returned the old break");
    }

    /* a registration in use when its memory goes: kept until put */
    m = mmap(NULL, 4 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    vb_rreg *held;
    vb_rcache_get(rc, m, 4 * page, &held);
    int before = live;
    munmap(m, 4 * page);
    tap_is_int(live, before, "unmapped while in use: still registered");
    vb_rcache_put(rc, held);
    tap_is_int(live, before - 1, "deregistered when given back");
}

static void lru_tests(long page)
{
    vb_rcache *rc;
    const char *mode;
    vb_rcache_create((size_t)(10 * page), 1, fake_reg, fake_dereg, NULL, &rc, &mode);
    if (!vb_rcache_caching(rc)) {
        tap_skip(4, "no memory events: %s", mode);
        vb_rcache_destroy(rc);
        return;
    }
    char *m = mmap(NULL, 64 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    int first = serial + 1;
    for (int i = 0; i < 6; i++) /* six disjoint 4-page entries: 24 pages */
        touch(rc, m + i * 8 * page, 4 * page);
    struct vb_rcache_stats st;
    vb_rcache_stats(rc, &st);
    tap_ok(st.bytes <= (size_t)(10 * page), "the cache keeps at most its limit (%zu <= %ld bytes)", st.bytes,
           10 * page);
    tap_is_int(st.entries, 2, "the two most recent entries stay");
    int s5 = touch(rc, m + 5 * 8 * page, 4 * page), s0 = touch(rc, m, 4 * page);
    tap_is_int(s5, first + 5, "the newest is a hit");
    tap_is_int(s0, first + 6, "the oldest was evicted: registered again");
    munmap(m, 64 * page);
    vb_rcache_destroy(rc);
}

int main(void)
{
    long page = sysconf(_SC_PAGESIZE);
    vb_rcache *rc;
    const char *mode = NULL;

    tap_is_int(vb_rcache_create(1 << 30, 1, fake_reg, fake_dereg, NULL, &rc, &mode), RD_OK, "create");
    tap_diag("mode: %s", mode);
#if defined(__SANITIZE_ADDRESS__)
    tap_ok(!vb_rcache_caching(rc), "AddressSanitizer: no caching");
#elif defined(RD_HAVE_UCM)
    tap_ok(vb_rcache_caching(rc), "built with libucm: caching, invalidated by memory events");
#else
    tap_ok(!vb_rcache_caching(rc), "built without libucm: no caching");
#endif
    if (vb_rcache_caching(rc))
        caching_tests(rc, page);
    else
        tap_diag("no caching here: the invalidation tests do not apply");
    vb_rcache_destroy(rc);
    tap_is_int(live, 0, "destroy deregistered everything");

    lru_tests(page);

    /* caching off: a registration per get, none kept */
    vb_rcache_create(0, 1, fake_reg, fake_dereg, NULL, &rc, &mode);
    tap_ok(!vb_rcache_caching(rc), "max_bytes 0: no caching (%s)", mode);
    char *m = malloc(3 * (size_t)page);
    int a = touch(rc, m, 100), b = touch(rc, m, 100);
    tap_ok(a > 0 && b > a, "every get registers anew (%d, %d)", a, b);
    tap_is_int(live, 0, "and every put deregisters");
    free(m);
    vb_rcache_destroy(rc);
    return tap_done();
}

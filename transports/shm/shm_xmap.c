/* shm_xmap.c - user buffers mapped into the node's other ranks (shm_xmap.h). */
#include "config.h"

#include "transports/shm/shm_xmap.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "runtime/base/log.h"
#include "runtime/base/sanitizer.h"

#if defined(RD_HAVE_UCM)
#include <ucm/api/ucm.h>
#define XMAP_EVENTS 1
#endif

#ifdef XMAP_EVENTS
/* libucm is loaded only when xmap is turned on: linked into every program,
 * it brings libucs, whose load installs handlers for fatal signals. */
static struct {
    ucm_global_config_t *opts;
    void (*set_opts)(const ucm_global_config_t *);
    ucs_status_t (*set_handler)(ucm_event_type_t, int, ucm_event_callback_t, void *);
    void (*unset_handler)(ucm_event_type_t, ucm_event_callback_t, void *);
} ucm;

static int load_ucm(const char **why)
{
    /* libucm needs libucs's symbols but does not name libucs itself */
    void *h = dlopen("libucs.so.0", RTLD_NOW | RTLD_GLOBAL) ? dlopen("libucm.so.0", RTLD_NOW | RTLD_LOCAL)
                                                             : NULL;

    if (h != NULL) {
        ucm.opts = dlsym(h, "ucm_global_opts");
        *(void **)&ucm.set_opts = dlsym(h, "ucm_set_global_opts");
        *(void **)&ucm.set_handler = dlsym(h, "ucm_set_event_handler");
        *(void **)&ucm.unset_handler = dlsym(h, "ucm_unset_event_handler");
    }
    if (h == NULL || !ucm.opts || !ucm.set_opts || !ucm.set_handler || !ucm.unset_handler) {
        *why = "off: libucm.so.0 (UCX's memory hooks) cannot be loaded";
        return 0;
    }
    return 1;
}
#endif

#define XMAP_REGIONS 64 /* regions this process exposes at once */
#define XMAP_SEEN 16    /* page ranges asked for once, not exposed yet */
#define XMAP_ATTS 64    /* peers' regions mapped here */
#define XMAP_NAME "rdmpi-xmap"
#define XMAP_KEEP_USES 4 /* a moved buffer unmapped before this many more uses was not worth it */

enum { R_FREE, R_LIVE, R_DEAD, R_GONE /* dead, file closed (kept for the churn test) */ };

/* A region of this process in a file of its own. The memory-event hook
 * (any thread, inside munmap) only turns R_LIVE into R_DEAD; the rest is
 * done under the lock: addr and len are set before the state turns live. */
struct region {
    _Atomic int state;
    uintptr_t addr;
    size_t len;
    int fd;
    uint64_t id, ino, used;
    unsigned uses; /* exposures since the move */
};

struct seen {
    uintptr_t addr, end;
    int refused; /* not private anonymous memory: never moved */
};

/* A peer's region mapped here. */
struct att {
    pid_t pid; /* 0: free */
    int peer, fd;
    uint64_t id, addr, len, used, ino;
    unsigned char *map;
};

static struct {
    int on, no_attach;
    size_t min, cache_max, att_bytes, page;
    uint64_t next_id, tick;
    unsigned seen_next;
    pthread_mutex_t lock;
    struct region regions[XMAP_REGIONS];
    struct seen seen[XMAP_SEEN];
    struct att atts[XMAP_ATTS];
} xm = {.lock = PTHREAD_MUTEX_INITIALIZER};

static int overlap(uintptr_t a, size_t alen, uintptr_t b, size_t blen)
{
    return a < b + blen && b < a + alen;
}

#ifdef XMAP_EVENTS
/* [a, a + len) no longer holds what it held: a live region among those
 * pages is dead. (Any thread, inside munmap or free: no lock, nothing that
 * allocates.) */
static void retire(uintptr_t a, size_t len)
{
    for (int i = 0; i < XMAP_REGIONS; i++) {
        struct region *r = &xm.regions[i];
        int live = R_LIVE;
        if (atomic_load_explicit(&r->state, memory_order_acquire) == R_LIVE && overlap(a, len, r->addr, r->len))
            atomic_compare_exchange_strong(&r->state, &live, R_DEAD);
    }
}

static void vm_unmapped(ucm_event_type_t type, ucm_event_t *ev, void *arg)
{
    (void)type;
    (void)arg;
    retire((uintptr_t)ev->vm_unmapped.address, ev->vm_unmapped.size);
}

/* Install the hook (only the unmapping events, no malloc replacement) and
 * check that an munmap of a region is really seen. */
static int hook(const char **why)
{
    if (!load_ucm(why))
        return 0;
    ucm_global_config_t opts = *ucm.opts;
    opts.enable_malloc_hooks = 0;
    opts.enable_malloc_reloc = 0;
    ucm.set_opts(&opts);
    if (ucm.set_handler(UCM_EVENT_VM_UNMAPPED, 0, vm_unmapped, NULL) != UCS_OK) {
        *why = "libucm could not install its memory hooks";
        return 0;
    }
    void *p = mmap(NULL, xm.page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    struct region *r = &xm.regions[0];
    if (p != MAP_FAILED) {
        r->addr = (uintptr_t)p;
        r->len = xm.page;
        atomic_store(&r->state, R_LIVE);
        munmap(p, xm.page);
    }
    int seen = p != MAP_FAILED && atomic_load(&r->state) == R_DEAD;
    atomic_store(&r->state, R_FREE);
    if (!seen) {
        ucm.unset_handler(UCM_EVENT_VM_UNMAPPED, vm_unmapped, NULL);
        *why = "libucm's hooks did not report a test munmap";
    }
    return seen;
}
#endif

#if defined(XMAP_EVENTS) && defined(RD_ASAN)
/* Under AddressSanitizer the program's malloc is the sanitizer's
 * allocator, which maps and unmaps its memory by raw system calls: libucm's
 * hooks, which patch the C library's mmap, munmap, madvise, mremap and
 * brk, never see them. A large buffer freed (the allocator's secondary
 * part maps each one on its own) is unmapped behind the hooks' back once
 * it leaves the quarantine, and a new buffer may then be mapped at the
 * same address: a region still live there would hand its peers the old
 * file, and their copies would go to the old pages instead of the new
 * buffer. The allocator's free hook sees every free, realloc and delete,
 * before the chunk is released: a region inside the freed chunk is dead
 * from then on, before its pages can be unmapped or given to another
 * allocation. What the program maps and unmaps itself goes through the C
 * library, where libucm sees it as without the sanitizer. The allocator
 * counts on no page reading zero after madvise (its calloc clears what it
 * reuses; a large chunk is a fresh mapping). */
static void asan_malloc(const volatile void *p, size_t n)
{
    (void)p;
    (void)n;
}

/* (installed once xmap was on; after rd_shm_xmap_fini no region is live) */
static void asan_free(const volatile void *p)
{
    retire((uintptr_t)p, __sanitizer_get_allocated_size(p));
}

static int allocator_ok(const char **why)
{
    static int hooked; /* a hook stays for the process's life */
    void *p = malloc(1);
    int asan = p != NULL && __sanitizer_get_ownership(p);
    free(p);
    if (!asan) {
        *why = "off: the program's malloc is not AddressSanitizer's";
        return 0;
    }
    if (!hooked)
        hooked = __sanitizer_install_malloc_and_free_hooks(asan_malloc, asan_free);
    if (!hooked)
        *why = "off: AddressSanitizer has no room for another free hook";
    return hooked;
}
#elif defined(XMAP_EVENTS)
/* Whether malloc is glibc's: other allocators (jemalloc, tcmalloc) purge
 * with madvise(MADV_DONTNEED) and may count on the pages reading zero
 * afterwards, which is not so for shared pages; glibc's does not count on
 * it (its calloc clears what it reuses), and libucm sees its munmap,
 * madvise and brk, the C library's own functions. */
static int allocator_ok(const char **why)
{
    Dl_info d;
    void *(*volatile fn)(size_t) = malloc;
    if (dladdr((void *)fn, &d) && d.dli_fname && strstr(d.dli_fname, "libc.so"))
        return 1;
    *why = "off: the program's malloc is not the C library's (an allocator may count on madvise("
           "MADV_DONTNEED) zeroing pages, which moved pages do not)";
    return 0;
}
#endif

int rd_shm_xmap_init(size_t min, size_t cache, const char **why)
{
    long pg = sysconf(_SC_PAGESIZE);
    xm.page = pg > 0 ? (size_t)pg : 4096;
    xm.min = min > 2 * xm.page ? min : 2 * xm.page;
    xm.cache_max = cache;
    xm.next_id = 1;
    xm.on = 0;
#if defined(XMAP_EVENTS)
    if (!allocator_ok(why))
        return 0;
    xm.on = cache > 0 ? hook(why) : 0;
    if (cache == 0)
        *why = "off (RDMPI_SHM_XMAP_CACHE=0)";
#else
    *why = "off: no memory event source (built without libucm)";
#endif
    return xm.on;
}

static void drop_att(struct att *t)
{
    munmap(t->map, t->len);
    xm.att_bytes -= t->len;
    t->pid = 0;
}

void rd_shm_xmap_fini(void)
{
    if (!xm.on)
        return;
#ifdef XMAP_EVENTS
    ucm.unset_handler(UCM_EVENT_VM_UNMAPPED, vm_unmapped, NULL);
#endif
    pthread_mutex_lock(&xm.lock);
    for (int i = 0; i < XMAP_ATTS; i++)
        if (xm.atts[i].pid)
            drop_att(&xm.atts[i]);
    /* the moved pages stay mapped (they are the program's memory); only
     * the files' descriptors go */
    for (int i = 0; i < XMAP_REGIONS; i++) {
        int st = atomic_load(&xm.regions[i].state);
        if (st == R_LIVE || st == R_DEAD)
            close(xm.regions[i].fd);
        atomic_store(&xm.regions[i].state, R_FREE);
    }
    xm.on = 0;
    pthread_mutex_unlock(&xm.lock);
}

/* ------------------------------------------------------------ exposing */

/* Whether [a, e) is all private anonymous read-write memory (or pages of
 * earlier regions), by /proc/self/maps, and not this thread's stack (which
 * the maps do not always name: under valgrind, or a thread's). */
static int movable(uintptr_t a, uintptr_t e)
{
    pthread_attr_t at;
    if (pthread_getattr_np(pthread_self(), &at) == 0) {
        void *sa = NULL;
        size_t sl = 0;
        int got = pthread_attr_getstack(&at, &sa, &sl) == 0;
        pthread_attr_destroy(&at);
        if (got && overlap(a, e - a, (uintptr_t)sa, sl))
            return 0;
    }
    FILE *f = fopen("/proc/self/maps", "re");
    if (!f)
        return 0;
    char line[512];
    uintptr_t cur = a;
    int ok = 1;
    while (ok && cur < e && fgets(line, sizeof line, f)) {
        unsigned long lo, hi, ino;
        char perm[8], path[256] = "";
        if (sscanf(line, "%lx-%lx %7s %*s %*s %lu %255[^\n]", &lo, &hi, perm, &ino, path) < 4)
            continue;
        if (hi <= cur)
            continue;
        if (lo > cur) {
            ok = 0; /* a hole */
            break;
        }
        const char *p = path;
        while (*p == ' ')
            p++;
        int anon = ino == 0 && (!*p || !strcmp(p, "[heap]")) && !strcmp(perm, "rw-p");
        int ours = !strcmp(perm, "rw-s") && !strncmp(p, "/memfd:" XMAP_NAME, strlen("/memfd:" XMAP_NAME));
        ok = anon || ours;
        cur = hi;
    }
    fclose(f);
    return ok && cur >= e;
}

/* Move [a, e) into a file of its own; 0 on success. */
static int move(uintptr_t a, uintptr_t e, int *fdp, uint64_t *ino)
{
    size_t len = e - a;
    int fd = memfd_create(XMAP_NAME, MFD_CLOEXEC);
    if (fd < 0)
        return -1;
    struct stat st;
    if (ftruncate(fd, (off_t)len) != 0 || fstat(fd, &st) != 0)
        goto fail;
    for (size_t done = 0; done < len;) {
        ssize_t n = pwrite(fd, (const char *)a + done, len - done, (off_t)done);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            goto fail;
        done += (size_t)n;
    }
    if (mmap((void *)a, len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED | MAP_POPULATE, fd, 0) == MAP_FAILED) {
        /* the old pages may be gone: put the contents back in fresh ones */
        int e0 = errno;
        if (mmap((void *)a, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) ==
                MAP_FAILED ||
            pread(fd, (void *)a, len, 0) != (ssize_t)len)
            rd_error("shm", "moving %zu bytes at %#lx into shared memory failed (%s) and their contents "
                     "could not be put back", len, (unsigned long)a, strerror(e0));
        goto fail;
    }
    *fdp = fd;
    *ino = (uint64_t)st.st_ino;
    return 0;
fail:
    close(fd);
    return -1;
}

static void fill(struct rd_node_xkey *key, const struct region *r)
{
    key->id = r->id;
    key->addr = r->addr;
    key->len = r->len;
    key->ino = r->ino;
    key->fd = r->fd;
}

/* Close the files of regions whose pages went (their memory is freed
 * once no peer maps them either). */
static void reap(void)
{
    for (int i = 0; i < XMAP_REGIONS; i++) {
        struct region *r = &xm.regions[i];
        int dead = R_DEAD;
        if (atomic_compare_exchange_strong(&r->state, &dead, R_GONE)) {
            close(r->fd);
            r->fd = -1;
        }
    }
}

/* A free entry: one of a region gone (reap), else the least recently used
 * live region forgotten (its pages stay shared). */
static struct region *free_region(void)
{
    struct region *lru = NULL;
    reap();
    for (int i = 0; i < XMAP_REGIONS; i++) {
        struct region *r = &xm.regions[i];
        int st = atomic_load_explicit(&r->state, memory_order_acquire);
        if (st == R_GONE) {
            atomic_store(&r->state, R_FREE);
            st = R_FREE;
        }
        if (st == R_FREE)
            lru = r;
        else if (!lru || (atomic_load(&lru->state) == R_LIVE && r->used < lru->used))
            lru = r;
    }
    if (atomic_load(&lru->state) == R_LIVE) {
        atomic_store(&lru->state, R_FREE);
        close(lru->fd);
    }
    return lru;
}

void rd_shm_xmap_expose(const void *buf, size_t len, struct rd_node_xkey *key)
{
    key->id = 0;
    if (!xm.on || len < xm.min)
        return;
    uintptr_t a = ((uintptr_t)buf + xm.page - 1) & ~(uintptr_t)(xm.page - 1);
    uintptr_t e = ((uintptr_t)buf + len) & ~(uintptr_t)(xm.page - 1);
    if (e <= a || e - a < xm.min / 2)
        return;
    pthread_mutex_lock(&xm.lock);
    xm.tick++;
    reap();
    /* a live region holding these pages; or the same pages moved before
     * and unmapped after a few uses (churn: a buffer allocated afresh for
     * each call, where a move would cost more than it saves; CMA for it) */
    int churn = 0;
    for (int i = 0; i < XMAP_REGIONS; i++) {
        struct region *r = &xm.regions[i];
        int st = atomic_load_explicit(&r->state, memory_order_acquire);
        if (st == R_LIVE && r->addr <= a && e <= r->addr + r->len) {
            r->used = xm.tick;
            r->uses++;
            fill(key, r);
            pthread_mutex_unlock(&xm.lock);
            return;
        }
        churn |= (st == R_DEAD || st == R_GONE) && r->addr == a && r->len == e - a && r->uses < XMAP_KEEP_USES;
    }
    struct seen *s = NULL;
    for (int i = 0; i < XMAP_SEEN && !s; i++)
        if (xm.seen[i].addr == a && xm.seen[i].end == e)
            s = &xm.seen[i];
    if (!s) { /* the first time: remembered, copied by CMA */
        s = &xm.seen[xm.seen_next++ % XMAP_SEEN];
        *s = (struct seen){a, e, 0};
    } else if (churn) {
        s->refused = 1;
        rd_debug("shm", "buffer %#lx+%zu not exposed again: its last move was unmapped after a few uses",
                 (unsigned long)a, (size_t)(e - a));
    } else if (!s->refused) {
        struct region *r = free_region();
        int fd;
        uint64_t ino;
        if (!movable(a, e) || move(a, e, &fd, &ino) != 0) {
            s->refused = 1;
            rd_debug("shm", "buffer %#lx+%zu not exposed to the node (not private anonymous memory, or "
                     "the move failed)", (unsigned long)a, (size_t)(e - a));
        } else {
            r->addr = a;
            r->len = e - a;
            r->fd = fd;
            r->ino = ino;
            r->id = xm.next_id++;
            r->used = xm.tick;
            r->uses = 0;
            atomic_store_explicit(&r->state, R_LIVE, memory_order_release);
            rd_debug("shm", "buffer %#lx+%zu exposed to the node (region %llu)", (unsigned long)a, (size_t)(e - a),
                     (unsigned long long)r->id);
            s->addr = s->end = 0;
            fill(key, r);
        }
    }
    pthread_mutex_unlock(&xm.lock);
}

/* ------------------------------------------------------------ attaching */

void *rd_shm_xmap_attach(pid_t pid, int peer, const struct rd_node_xkey *key)
{
    if (!xm.on || xm.no_attach || !key->id || key->len > xm.cache_max)
        return NULL;
    pthread_mutex_lock(&xm.lock);
    xm.tick++;
    struct att *t = NULL;
    for (int i = 0; i < XMAP_ATTS; i++) {
        struct att *x = &xm.atts[i];
        if (x->pid == pid && x->id == key->id && x->ino == key->ino) {
            x->used = xm.tick;
            pthread_mutex_unlock(&xm.lock);
            return x->map;
        }
    }
    /* a new region of that process: drop its older regions at these
     * addresses, and those it has let go (its descriptor no longer names
     * their file), so that their memory goes back */
    for (int i = 0; i < XMAP_ATTS; i++) {
        struct att *x = &xm.atts[i];
        char p[64];
        struct stat st;
        if (x->pid != pid)
            continue;
        snprintf(p, sizeof p, "/proc/%d/fd/%d", (int)pid, x->fd);
        if (overlap(x->addr, x->len, key->addr, key->len) || stat(p, &st) != 0 || (uint64_t)st.st_ino != x->ino)
            drop_att(x);
    }
    /* room: a free entry, and the bytes under the bound */
    for (;;) {
        struct att *lru = NULL;
        t = NULL;
        for (int i = 0; i < XMAP_ATTS; i++) {
            struct att *x = &xm.atts[i];
            if (!x->pid)
                t = x;
            else if (!lru || x->used < lru->used)
                lru = x;
        }
        if (t && xm.att_bytes + key->len <= xm.cache_max)
            break;
        drop_att(lru);
    }
    void *map = NULL;
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/fd/%d", (int)pid, (int)key->fd);
    int fd = open(path, O_RDWR | O_CLOEXEC);
    struct stat st;
    if (fd < 0) {
        int e = errno;
        rd_debug("shm", "rank %d's buffer file %s: %s (copies by CMA%s)", peer, path, strerror(e),
                 e == EACCES || e == EPERM ? "; no more attempts" : "");
        if (e == EACCES || e == EPERM)
            xm.no_attach = 1; /* not permitted here: do not try on every copy */
    } else if (fstat(fd, &st) != 0 || (uint64_t)st.st_ino != key->ino || (uint64_t)st.st_size < key->len) {
        rd_debug("shm", "rank %d's buffer file %s is not the one it exposed (copies by CMA)", peer, path);
    } else {
        map = mmap(NULL, key->len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, fd, 0);
        if (map == MAP_FAILED) {
            rd_debug("shm", "mapping rank %d's buffer file: %s (copies by CMA)", peer, strerror(errno));
            map = NULL;
        }
    }
    if (fd >= 0)
        close(fd);
    if (map) {
        *t = (struct att){pid, peer, (int)key->fd, key->id, key->addr, key->len, xm.tick, key->ino, map};
        xm.att_bytes += key->len;
    }
    pthread_mutex_unlock(&xm.lock);
    return map;
}

/* fhandle.c - the Fortran handles' tables (fhandle.h). */
#include "config.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

#include "runtime/objects/fhandle.h"

#define RD_FH_CHUNK 1024
#define RD_FH_CHUNKS (RD_FH_MAX / RD_FH_CHUNK)

struct fh_table {
    _Atomic(void *) *_Atomic *dir; /* RD_FH_CHUNKS chunk pointers (made on first use) */
    int32_t next;                  /* the lowest index never used */
    int32_t *free;                 /* indices given back (a stack) */
    int32_t nfree, capfree;
};

static struct fh_table tabs[RD_FH_NKINDS];
static pthread_mutex_t fh_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_once_t fh_once = PTHREAD_ONCE_INIT;

/* slot i of kind k (the chunk made if need be, under fh_lock); NULL: no memory */
static _Atomic(void *) *slot(struct fh_table *t, int32_t i, int make)
{
    _Atomic(void *) *c = atomic_load_explicit(&t->dir[i / RD_FH_CHUNK], memory_order_acquire);
    if (!c && make) {
        c = calloc(RD_FH_CHUNK, sizeof(*c));
        if (!c)
            return NULL;
        atomic_store_explicit(&t->dir[i / RD_FH_CHUNK], c, memory_order_release);
    }
    return c ? &c[i % RD_FH_CHUNK] : NULL;
}

/* The predefined objects of each kind, in their fixed order (index 1
 * up), as rd_fh_predefine gave them (the API floor names them: this file
 * links into unit tests that have none). */
static struct {
    void *const *obj;
    int n;
} pre[RD_FH_NKINDS];

static void init(void)
{
    for (int k = 1; k < RD_FH_NKINDS; k++) {
        tabs[k].dir = calloc(RD_FH_CHUNKS, sizeof(*tabs[k].dir));
        tabs[k].next = 1; /* (no directory: every conversion of this kind gives NULL / 0) */
    }
}

void rd_fh_predefine(int k, void *const *objs, int n)
{
    pthread_once(&fh_once, init);
    struct fh_table *t = &tabs[k];
    pthread_mutex_lock(&fh_lock);
    pre[k].obj = objs;
    pre[k].n = n;
    for (int i = 0; i < n && t->dir; i++) {
        _Atomic(void *) *s = slot(t, i + 1, 1);
        if (s)
            atomic_store_explicit(s, objs[i], memory_order_release);
    }
    if (t->next <= n)
        t->next = n + 1;
    pthread_mutex_unlock(&fh_lock);
}

/* the fixed index of predefined object obj of kind k, or 0 */
static int32_t pre_index(int k, const void *obj)
{
    for (int i = 0; i < pre[k].n; i++)
        if (pre[k].obj[i] == obj)
            return i + 1;
    return 0;
}

MPI_Fint rd_fh_c2f(int k, void *obj, _Atomic int32_t *fidx)
{
    if (k <= 0 || k >= RD_FH_NKINDS)
        return 0;
    if (!obj)
        return (MPI_Fint)((uint32_t)k << RD_FH_SHIFT);
    int32_t i = atomic_load_explicit(fidx, memory_order_acquire);
    if (i > 0)
        return (MPI_Fint)((uint32_t)k << RD_FH_SHIFT | (uint32_t)i);
    pthread_once(&fh_once, init);
    struct fh_table *t = &tabs[k];
    if (!t->dir)
        return 0;
    pthread_mutex_lock(&fh_lock);
    i = atomic_load_explicit(fidx, memory_order_relaxed); /* (another thread may have given it one) */
    if (i <= 0)
        i = pre_index(k, obj);
    if (i <= 0) {
        int popped = 0;
        if (t->nfree)
            i = t->free[--t->nfree], popped = 1;
        else if (t->next < RD_FH_MAX)
            i = t->next++;
        _Atomic(void *) *s = i > 0 ? slot(t, i, 1) : NULL;
        if (s) {
            atomic_store_explicit(s, obj, memory_order_release);
        } else if (i > 0) {
            /* (no memory for its chunk: the index goes back, unused) */
            if (popped)
                t->nfree++;
            else
                t->next--;
            i = 0;
        }
    }
    if (i > 0)
        atomic_store_explicit(fidx, i, memory_order_release);
    pthread_mutex_unlock(&fh_lock);
    return i > 0 ? (MPI_Fint)((uint32_t)k << RD_FH_SHIFT | (uint32_t)i) : 0;
}

void *rd_fh_f2c(int k, MPI_Fint f)
{
    uint32_t u = (uint32_t)f;
    int32_t i = (int32_t)(u & (RD_FH_MAX - 1));
    if (k <= 0 || k >= RD_FH_NKINDS || (int)(u >> RD_FH_SHIFT) != k || i == 0)
        return NULL;
    pthread_once(&fh_once, init);
    struct fh_table *t = &tabs[k];
    _Atomic(void *) *s = t->dir ? slot(t, i, 0) : NULL;
    return s ? atomic_load_explicit(s, memory_order_acquire) : NULL;
}

void rd_fh_drop(int k, _Atomic int32_t *fidx)
{
    int32_t i = atomic_load_explicit(fidx, memory_order_acquire);
    if (i <= 0 || k <= 0 || k >= RD_FH_NKINDS)
        return;
    struct fh_table *t = &tabs[k];
    pthread_mutex_lock(&fh_lock);
    _Atomic(void *) *s = t->dir ? slot(t, i, 0) : NULL;
    if (s)
        atomic_store_explicit(s, NULL, memory_order_release);
    atomic_store_explicit(fidx, 0, memory_order_relaxed);
    if (i > pre[k].n && t->nfree == t->capfree) {
        int32_t cap = t->capfree ? 2 * t->capfree : 64;
        int32_t *n = realloc(t->free, (size_t)cap * sizeof(*n));
        if (n) {
            t->free = n;
            t->capfree = cap;
        }
    }
    if (i > pre[k].n && t->nfree < t->capfree)
        t->free[t->nfree++] = i; /* (no room to remember it: the index stays unused) */
    pthread_mutex_unlock(&fh_lock);
}

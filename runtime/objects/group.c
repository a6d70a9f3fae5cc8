/* group.c - process groups (group.h). */
#include "runtime/objects/group.h"
#include "runtime/objects/session.h"
#include "runtime/objects/fhandle.h"

#include <stdlib.h>

struct rd_group_s rd_mpi_group_empty = {.magic = RD_GROUP_MAGIC, .predefined = 1, .refs = 1, .size = 0};

/* Below this size a scan is cheaper than building an index. */
#define RD_GROUP_SCAN_MAX 16

struct rd_group_s *rd_group_alloc(int size)
{
    struct rd_group_s *g = calloc(1, sizeof(*g));
    if (!g)
        return NULL;
    g->ranks = malloc((size_t)(size > 0 ? size : 1) * sizeof(int));
    if (!g->ranks) {
        free(g);
        return NULL;
    }
    g->magic = RD_GROUP_MAGIC;
    atomic_init(&g->refs, 1);
    atomic_init(&g->index, NULL);
    g->size = size;
    return g;
}

struct rd_group_s *rd_group_identity(int size)
{
    struct rd_group_s *g = calloc(1, sizeof(*g));
    if (!g)
        return NULL;
    g->magic = RD_GROUP_MAGIC;
    atomic_init(&g->refs, 1);
    atomic_init(&g->index, NULL);
    g->size = size;
    g->ranks = NULL;
    return g;
}

static int cmp_index(const void *a, const void *b)
{
    const struct rd_group_index *x = a, *y = b;
    return (x->world > y->world) - (x->world < y->world);
}

/* The sorted index of g, built on first use; NULL when out of memory. Two
 * threads may build it at once: one wins, the other frees its copy. */
static struct rd_group_index *group_index(MPI_Group g)
{
    struct rd_group_index *ix = atomic_load_explicit(&g->index, memory_order_acquire);
    if (ix)
        return ix;
    ix = malloc((size_t)g->size * sizeof(*ix));
    if (!ix)
        return NULL;
    for (int i = 0; i < g->size; i++) {
        ix[i].world = g->ranks[i];
        ix[i].rank = i;
    }
    qsort(ix, (size_t)g->size, sizeof(*ix), cmp_index);
    struct rd_group_index *expected = NULL;
    if (!atomic_compare_exchange_strong_explicit(&g->index, &expected, ix, memory_order_acq_rel,
                                                 memory_order_acquire)) {
        free(ix);
        ix = expected;
    }
    return ix;
}

int rd_group_find(MPI_Group g, int world)
{
    if (!g->ranks)
        return world >= 0 && world < g->size ? world : -1;
    struct rd_group_index *ix = g->size > RD_GROUP_SCAN_MAX ? group_index(g) : NULL;
    if (!ix) {
        for (int i = 0; i < g->size; i++)
            if (g->ranks[i] == world)
                return i;
        return -1;
    }
    int lo = 0, hi = g->size - 1;
    while (lo <= hi) {
        int mid = lo + (hi - lo) / 2;
        if (ix[mid].world == world)
            return ix[mid].rank;
        if (ix[mid].world < world)
            lo = mid + 1;
        else
            hi = mid - 1;
    }
    return -1;
}

void rd_group_release(MPI_Group g)
{
    if (g->predefined)
        return;
    if (atomic_fetch_sub(&g->refs, 1) != 1)
        return;
    g->magic = 0;
    rd_session_release(g->session);
    free(atomic_load(&g->index));
    free(g->ranks);
    rd_fh_drop(RD_FH_GROUP, &g->fidx);
    free(g);
}

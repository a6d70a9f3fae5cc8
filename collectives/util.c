/* util.c - helpers shared by the collective algorithms. */
#include "config.h"

#include "collectives/coll.h"

rd_status rd_coll_split(struct rd_sched *s, int count, int n, int **cnt, int **displ)
{
    int *c = rd_sched_alloc(s, 2 * (size_t)n * sizeof(int));
    RD_CNEW(c);
    int *d = c + n;
    int q = count / n, rem = count % n, off = 0;
    for (int b = 0; b < n; b++) {
        c[b] = q + (b < rem);
        d[b] = off;
        off += c[b];
    }
    *cnt = c;
    *displ = d;
    return RD_OK;
}

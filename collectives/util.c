/* util.c - helpers shared by the collective algorithms. */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>

#include "collectives/algorithms.h"

rd_status rd_coll_split(struct rd_sched *s, MPI_Count count, int n, MPI_Count **cnt, MPI_Count **displ)
{
    MPI_Count *c = rd_sched_alloc(s, 2 * (size_t)n * sizeof(MPI_Count));
    RD_CNEW(c);
    MPI_Count *d = c + n;
    MPI_Count q = count / n, rem = count % n, off = 0;
    for (int b = 0; b < n; b++) {
        c[b] = q + (b < rem);
        d[b] = off;
        off += c[b];
    }
    *cnt = c;
    *displ = d;
    return RD_OK;
}

/* The reason of this thread's collective call that failed, until the call
 * reports it. */
static _Thread_local char reason[200];
static _Thread_local int have_reason;

void rd_coll_why(const char *fmt, ...)
{
    if (have_reason)
        return; /* the first one found says most */
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(reason, sizeof reason, fmt, ap);
    va_end(ap);
    have_reason = 1;
}

const char *rd_coll_reason(void)
{
    if (!have_reason)
        return NULL;
    have_reason = 0;
    return reason;
}

int rd_coll_mismatch(const char *who, uint64_t sent, uint64_t holds, const char *each)
{
    if (sent > holds)
        rd_coll_why("message truncated: %s sends %llu bytes%s, this rank's buffer holds %llu", who,
                    (unsigned long long)sent, each, (unsigned long long)holds);
    else
        rd_coll_why("message size mismatch: %s sends %llu bytes%s, this rank expects %llu", who,
                    (unsigned long long)sent, each, (unsigned long long)holds);
    return MPI_ERR_TRUNCATE;
}

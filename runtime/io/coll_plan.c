/* coll_plan.c - two-phase collective I/O without the messages (coll.h):
 * the decision, the aggregators, the file domains, a rank's share of a
 * chunk, and an aggregator's write-back and read of a chunk. */
#include "runtime/io/coll.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---------------------------------------------------------------- decision */

struct span {
    int64_t lo, hi;
};

static int by_lo(const void *x, const void *y)
{
    const struct span *a = x, *b = y;
    return a->lo < b->lo ? -1 : a->lo > b->lo ? 1 : (a->hi > b->hi) - (a->hi < b->hi);
}

int rd_io_coll_decide(const struct rd_io_acc *acc, int p, int hint, int atomic)
{
    if (atomic || hint < 0)
        return 0;
    int m = 0;
    for (int r = 0; r < p; r++) {
        if (acc[r].flags & (RD_IO_ACC_NOMAP | RD_IO_ACC_REP | RD_IO_ACC_FAIL))
            return 0;
        m += acc[r].n > 0;
    }
    if (m == 0)
        return 0;
    if (hint > 0)
        return 1;
    /* automatic: two phases when two ranks' extents interleave */
    struct span *sp = malloc((size_t)m * sizeof *sp);
    if (!sp) {
        /* no room for the sort: the same answer pair by pair (every rank
         * must decide alike; one that went independent alone would leave
         * the others waiting for its messages) */
        for (int r = 0; r < p; r++)
            for (int q = r + 1; q < p && acc[r].n > 0; q++)
                if (acc[q].n > 0 && acc[r].lo < acc[q].hi && acc[q].lo < acc[r].hi)
                    return 1;
        return 0;
    }
    m = 0;
    for (int r = 0; r < p; r++)
        if (acc[r].n > 0)
            sp[m++] = (struct span){acc[r].lo, acc[r].hi};
    qsort(sp, (size_t)m, sizeof *sp, by_lo);
    int inter = 0;
    for (int i = 1; i < m && !inter; i++)
        inter = sp[i].lo < sp[i - 1].hi;
    free(sp);
    return inter;
}

/* ------------------------------------------------------------- aggregators */

int rd_io_coll_per_node(int hint, int write)
{
    return hint > 0 ? hint : write ? 1 : 2;
}

struct onnode {
    int64_t key; /* the node, or a node of its own for an unknown one */
    int rank;
};

static int by_node(const void *x, const void *y)
{
    const struct onnode *a = x, *b = y;
    if (a->key != b->key)
        return a->key < b->key ? -1 : 1;
    return (a->rank > b->rank) - (a->rank < b->rank);
}

int rd_io_coll_aggregators(int p, const int *node, int per_node, int cap, int *aggr)
{
    if (per_node < 1)
        per_node = 1;
    struct onnode *v = malloc((size_t)p * sizeof *v);
    int *first = malloc((size_t)(p + 1) * sizeof *first); /* groups: [first[g], first[g+1]) */
    if (!v || !first) {
        free(v);
        free(first);
        return -1;
    }
    for (int r = 0; r < p; r++)
        v[r] = (struct onnode){node[r] >= 0 ? node[r] : (int64_t)r - p - 1, r};
    qsort(v, (size_t)p, sizeof *v, by_node);
    int ng = 0;
    for (int i = 0; i < p; i++)
        if (i == 0 || v[i].key != v[i - 1].key)
            first[ng++] = i;
    first[ng] = p;
    int n = 0;
    for (int i = 0; i < per_node; i++) {
        int any = 0;
        for (int g = 0; g < ng; g++) {
            int L = first[g + 1] - first[g];
            int k = per_node < L ? per_node : L;
            if (i >= k)
                continue;
            any = 1;
            aggr[n++] = v[first[g] + (int)((int64_t)i * L / k)].rank;
        }
        if (!any)
            break;
    }
    free(v);
    free(first);
    if (cap > 0 && n > cap)
        n = cap;
    return n;
}

/* ----------------------------------------------------------------- domains */

int64_t rd_io_coll_domains(int64_t lo, int64_t hi, int na, int64_t align, int64_t cb,
                           int64_t *bound)
{
    if (align < 1)
        align = 1;
    bound[0] = lo;
    bound[na] = hi;
    int64_t per = (hi - lo + na - 1) / na;
    for (int j = 1; j < na; j++) {
        int64_t x = lo + j * per;
        x = (x + align / 2) / align * align; /* the nearest boundary */
        if (x < bound[j - 1])
            x = bound[j - 1];
        if (x > hi)
            x = hi;
        bound[j] = x;
    }
    int64_t rounds = 0;
    for (int j = 0; j < na; j++) {
        int64_t c = (bound[j + 1] - bound[j] + cb - 1) / cb;
        if (c > rounds)
            rounds = c;
    }
    return rounds;
}

/* ------------------------------------------------------------- the shares */

void rd_io_runs_free(struct rd_io_runs *l)
{
    free(l->r);
    l->r = NULL;
    l->n = l->cap = 0;
}

static int add_run(void *arg, MPI_Offset off, size_t len)
{
    struct rd_io_runs *l = arg;
    if (l->n && l->r[2 * l->n - 2] + l->r[2 * l->n - 1] == off) {
        l->r[2 * l->n - 1] += (int64_t)len;
        return 0;
    }
    if (l->n == l->cap) {
        size_t cap = l->cap ? 2 * l->cap : 64;
        int64_t *r = realloc(l->r, 2 * cap * sizeof *r);
        if (!r)
            return MPI_ERR_NO_MEM;
        l->r = r;
        l->cap = cap;
    }
    l->r[2 * l->n] = off;
    l->r[2 * l->n + 1] = (int64_t)len;
    l->n++;
    return 0;
}

int rd_io_coll_share(const struct rd_io_view *v, int64_t s, int64_t n, int64_t a, int64_t b,
                     int64_t *ss, int64_t *sn, struct rd_io_runs *runs, rd_io_why *why)
{
    runs->n = 0;
    int64_t x = rd_io_view_below(v, a), y = rd_io_view_below(v, b);
    if (x < s)
        x = s;
    if (y > s + n)
        y = s + n;
    *ss = x;
    *sn = y > x ? y - x : 0;
    if (y <= x)
        return MPI_SUCCESS;
    int err = rd_io_view_runs(v, x, y - x, add_run, runs);
    if (err)
        return rd_io_fail(why, MPI_ERR_NO_MEM, "out of memory listing the file runs of a chunk");
    return MPI_SUCCESS;
}

/* ------------------------------------------------- an aggregator's chunk */

static int io_class(int e)
{
    switch (e) {
    case ENOSPC:
        return MPI_ERR_NO_SPACE;
#ifdef EDQUOT
    case EDQUOT:
        return MPI_ERR_QUOTA;
#endif
    case EROFS:
        return MPI_ERR_READ_ONLY;
    case EBADF:
    case EACCES:
    case EPERM:
        return MPI_ERR_ACCESS;
    default:
        return MPI_ERR_IO;
    }
}

static int put_all(int fd, const char *p, size_t len, int64_t off, rd_io_why *why)
{
    while (len) {
        ssize_t k = pwrite(fd, p, len > (size_t)1 << 30 ? (size_t)1 << 30 : len, (off_t)off);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0) {
            int e = k < 0 ? errno : ENOSPC;
            return rd_io_fail(why, io_class(e), "two-phase write of %zu bytes at offset %lld: %s",
                              len, (long long)off, strerror(e));
        }
        p += k;
        len -= (size_t)k;
        off += k;
    }
    return MPI_SUCCESS;
}

/* reads len bytes at off; what lies beyond the end of the file reads as 0 */
static int get_all(int fd, char *p, size_t len, int64_t off, rd_io_why *why)
{
    while (len) {
        ssize_t k = pread(fd, p, len > (size_t)1 << 30 ? (size_t)1 << 30 : len, (off_t)off);
        if (k < 0 && errno == EINTR)
            continue;
        if (k < 0)
            return rd_io_fail(why, io_class(errno), "two-phase read of %zu bytes at offset %lld: %s",
                              len, (long long)off, strerror(errno));
        if (k == 0) {
            memset(p, 0, len);
            return MPI_SUCCESS;
        }
        p += k;
        len -= (size_t)k;
        off += k;
    }
    return MPI_SUCCESS;
}

/* An exclusive byte-range lock on [off, off + len) (type F_WRLCK) or its
 * release (F_UNLCK): open-file-description locks, which also exclude the
 * other descriptors of this process, else classic ones. */
static int range_lock(int fd, int type, int64_t off, int64_t len, rd_io_why *why)
{
    struct flock l;
    memset(&l, 0, sizeof l);
    l.l_type = (short)type;
    l.l_whence = SEEK_SET;
    l.l_start = (off_t)off;
    l.l_len = (off_t)len;
    int r;
#ifdef F_OFD_SETLKW
    do
        r = fcntl(fd, F_OFD_SETLKW, &l);
    while (r < 0 && errno == EINTR);
    if (r == 0 || errno != EINVAL)
        goto out;
    l.l_pid = 0;
#endif
    do
        r = fcntl(fd, F_SETLKW, &l);
    while (r < 0 && errno == EINTR);
#ifdef F_OFD_SETLKW
out:
#endif
    if (r < 0)
        return rd_io_fail(why, MPI_ERR_IO, "byte-range %s of [%lld, %lld) for read-modify-write: %s",
                          type == F_UNLCK ? "unlock" : "lock", (long long)off,
                          (long long)(off + len), strerror(errno));
    return MPI_SUCCESS;
}

struct ent {
    int64_t off, len;
    char *data; /* the piece's bytes of this run */
};

static int by_off(const void *x, const void *y)
{
    const struct ent *a = x, *b = y;
    return (a->off > b->off) - (a->off < b->off);
}

/* a piece's next run, in the merge's heap (smallest offset on top) */
struct head {
    int64_t off;
    size_t k;   /* its index in the piece */
    int piece;
    char *data; /* where its bytes are */
};

static void sift(struct head *h, int n, int i)
{
    for (;;) {
        int l = 2 * i + 1, m = i;
        if (l < n && h[l].off < h[m].off)
            m = l;
        if (l + 1 < n && h[l + 1].off < h[m].off)
            m = l + 1;
        if (m == i)
            return;
        struct head x = h[i];
        h[i] = h[m];
        h[m] = x;
        i = m;
    }
}

/* The runs of all pieces sorted by offset, each with its bytes in its
 * piece's data, checked to lie in [a, b); the covered stretches written
 * to st (pairs; at most RD_IO_COLL_STRETCHES + 1 kept), their count to
 * *nst. */
static int gather_runs(int64_t a, int64_t b, const struct rd_io_piece *pc, int np, struct ent **out,
                       size_t *nout, int64_t *st, int *nst, rd_io_why *why)
{
    size_t n = 0;
    for (int i = 0; i < np; i++)
        n += pc[i].nruns;
    *out = NULL;
    *nout = n;
    *nst = 0;
    if (!n)
        return MPI_SUCCESS;
    struct ent *e = malloc(n * sizeof *e);
    struct head *h = malloc((size_t)np * sizeof *h);
    if (!e || !h) {
        free(e);
        free(h);
        return rd_io_fail(why, MPI_ERR_NO_MEM, "out of memory sorting %zu runs of a chunk", n);
    }
    int sorted = 1, nh = 0;
    for (int i = 0; i < np; i++) {
        for (size_t k = 0; k < pc[i].nruns; k++) {
            int64_t off = pc[i].runs[2 * k], len = pc[i].runs[2 * k + 1];
            if (off < a || len < 0 || off + len > b) {
                free(e);
                free(h);
                return rd_io_fail(why, MPI_ERR_INTERN,
                                  "a run [%lld, %lld) outside its chunk [%lld, %lld)",
                                  (long long)off, (long long)(off + len), (long long)a,
                                  (long long)b);
            }
            if (k && off < pc[i].runs[2 * k - 2])
                sorted = 0;
        }
        if (pc[i].nruns)
            h[nh++] = (struct head){pc[i].runs[0], 0, i, pc[i].data};
    }
    if (sorted) {
        /* a monotone view gives each piece's runs in file order: merge
         * them (O(n log np)) instead of sorting all */
        for (int i = nh / 2 - 1; i >= 0; i--)
            sift(h, nh, i);
        n = 0;
        while (nh) {
            struct head *t = &h[0];
            const struct rd_io_piece *q = &pc[t->piece];
            int64_t len = q->runs[2 * t->k + 1];
            e[n++] = (struct ent){t->off, len, t->data};
            t->data += len;
            if (++t->k < q->nruns)
                t->off = q->runs[2 * t->k];
            else
                h[0] = h[--nh];
            sift(h, nh, 0);
        }
    } else {
        n = 0;
        for (int i = 0; i < np; i++) {
            char *d = pc[i].data;
            for (size_t k = 0; k < pc[i].nruns; k++) {
                int64_t len = pc[i].runs[2 * k + 1];
                e[n++] = (struct ent){pc[i].runs[2 * k], len, d};
                d += len;
            }
        }
        qsort(e, n, sizeof *e, by_off);
    }
    free(h);
    int m = 0;
    int64_t lo = e[0].off, hi = e[0].off + e[0].len;
    for (size_t k = 1; k <= n; k++) {
        if (k < n && e[k].off <= hi) {
            if (e[k].off + e[k].len > hi)
                hi = e[k].off + e[k].len;
            continue;
        }
        if (m <= RD_IO_COLL_STRETCHES) {
            st[2 * m] = lo;
            st[2 * m + 1] = hi;
        } else {
            st[2 * RD_IO_COLL_STRETCHES + 1] = hi; /* the last one's end */
        }
        m++;
        if (k < n) {
            lo = e[k].off;
            hi = e[k].off + e[k].len;
        }
    }
    *out = e;
    *nst = m;
    return MPI_SUCCESS;
}

int rd_io_coll_put(int fd, int64_t a, int64_t b, char *chunk, const struct rd_io_piece *pc,
                   int np, int *how, rd_io_why *why)
{
    struct ent *e;
    size_t n;
    int nst;
    int64_t st[2 * (RD_IO_COLL_STRETCHES + 1)];
    int err = gather_runs(a, b, pc, np, &e, &n, st, &nst, why);
    *how = RD_IO_COLL_NONE;
    if (err || !n)
        return err;
    int64_t first = st[0], last = st[2 * (nst <= RD_IO_COLL_STRETCHES ? nst - 1 : RD_IO_COLL_STRETCHES) + 1];
    int fl = nst > RD_IO_COLL_STRETCHES ? fcntl(fd, F_GETFL) : -1;
    if (fl >= 0 && (fl & O_ACCMODE) == O_WRONLY) {
        /* a descriptor that cannot read (a file the process may not read:
         * file.c opens write-only files O_RDWR otherwise): no
         * read-modify-write; every stretch of adjacent runs is a pwrite */
        *how = RD_IO_COLL_PIECES;
        for (size_t k = 0; k < n; k++)
            memcpy(chunk + (e[k].off - a), e[k].data, (size_t)e[k].len);
        for (size_t k = 0; k < n && !err;) {
            int64_t lo = e[k].off, hi = e[k].off + e[k].len;
            for (k++; k < n && e[k].off <= hi; k++)
                if (e[k].off + e[k].len > hi)
                    hi = e[k].off + e[k].len;
            err = put_all(fd, chunk + (lo - a), (size_t)(hi - lo), lo, why);
        }
    } else if (nst > RD_IO_COLL_STRETCHES) {
        /* holes everywhere: the old bytes of the span under an exclusive
         * lock (another process may write the holes meanwhile) */
        *how = RD_IO_COLL_RMW;
        err = range_lock(fd, F_WRLCK, first, last - first, why);
        if (!err) {
            err = get_all(fd, chunk + (first - a), (size_t)(last - first), first, why);
            if (!err) {
                for (size_t k = 0; k < n; k++)
                    memcpy(chunk + (e[k].off - a), e[k].data, (size_t)e[k].len);
                err = put_all(fd, chunk + (first - a), (size_t)(last - first), first, why);
            }
            rd_io_why w2;
            int e2 = range_lock(fd, F_UNLCK, first, last - first, &w2);
            if (!err && e2) {
                err = e2;
                if (why)
                    *why = w2;
            }
        }
    } else {
        *how = nst == 1 && first == a && last == b ? RD_IO_COLL_WHOLE : RD_IO_COLL_PIECES;
        for (size_t k = 0; k < n; k++)
            memcpy(chunk + (e[k].off - a), e[k].data, (size_t)e[k].len);
        for (int j = 0; j < nst && !err; j++)
            err = put_all(fd, chunk + (st[2 * j] - a), (size_t)(st[2 * j + 1] - st[2 * j]), st[2 * j],
                          why);
    }
    free(e);
    return err;
}

int rd_io_coll_get(int fd, int64_t a, int64_t b, char *chunk, const struct rd_io_piece *pc,
                   int np, int *how, rd_io_why *why)
{
    struct ent *e;
    size_t n;
    int nst;
    int64_t st[2 * (RD_IO_COLL_STRETCHES + 1)];
    int err = gather_runs(a, b, pc, np, &e, &n, st, &nst, why);
    *how = RD_IO_COLL_NONE;
    if (err || !n)
        return err;
    if (nst > RD_IO_COLL_STRETCHES) {
        *how = RD_IO_COLL_RMW; /* one read of the whole span */
        int64_t first = st[0], last = st[2 * RD_IO_COLL_STRETCHES + 1];
        err = get_all(fd, chunk + (first - a), (size_t)(last - first), first, why);
    } else {
        *how = nst == 1 && st[0] == a && st[1] == b ? RD_IO_COLL_WHOLE : RD_IO_COLL_PIECES;
        for (int j = 0; j < nst && !err; j++)
            err = get_all(fd, chunk + (st[2 * j] - a), (size_t)(st[2 * j + 1] - st[2 * j]), st[2 * j],
                          why);
    }
    if (!err)
        for (size_t k = 0; k < n; k++)
            memcpy(e[k].data, chunk + (e[k].off - a), (size_t)e[k].len);
    free(e);
    return err;
}

/* Unit test of two-phase collective I/O without the messages
 * (runtime/io/coll_plan.c, linked directly; runtime/io/coll.h):
 *   - the decision (interleave test, hints, atomic mode, unsliceable views);
 *   - the aggregators (per node, spread, capped), the file domains and rounds;
 *   - whole two-phase writes and reads of simulated ranks in one process:
 *     every round, every aggregator's chunk gets each rank's share (runs
 *     and packed data, as the ranks compute them) and goes to a real file:
 *     a 23x17x13 array of doubles block-distributed by 3-D subarray views
 *     (value = global index) on 4 ranks, read back by 3 ranks in slabs, with
 *     cb_buffer_size 4096 (many rounds) and 2 or 1 aggregators; interleaved
 *     vector views with holes whose old bytes must stay (read-modify-write
 *     and stretch-by-stretch write-back).
 * The file's bytes are checked against an image computed here by plain
 * index arithmetic, read back by pread. Views are made by view.c's
 * rd_io_view_set, as MPI_File_set_view makes them. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "runtime/io/coll.h"
#include "runtime/objects/datatype.h"
#include "test/tap.h"

/* ---- types */

static MPI_Datatype vec(size_t count, size_t blen, MPI_Aint stride, MPI_Datatype old)
{
    int err = 0;
    return rd_dt_make_vector(count, blen, stride, old, &err);
}

/* a 3-D C-order subarray of doubles as MPI builds it */
static MPI_Datatype sub3(const int *size, const int *sub, const int *start)
{
    int err = 0;
    MPI_Datatype row = vec((size_t)sub[2], 1, 8, MPI_DOUBLE);
    MPI_Datatype plane = vec((size_t)sub[1], 1, (MPI_Aint)size[2] * 8, row);
    MPI_Datatype vol = vec((size_t)sub[0], 1, (MPI_Aint)size[1] * size[2] * 8, plane);
    MPI_Aint at = (((MPI_Aint)start[0] * size[1] + start[1]) * size[2] + start[2]) * 8;
    MPI_Datatype d = rd_dt_make_blocks(1, (size_t[]){1}, (MPI_Aint[]){at}, (MPI_Datatype[]){vol}, 1, 0, &err);
    MPI_Datatype s = rd_dt_make_resized(d, 0, (MPI_Aint)size[0] * size[1] * size[2] * 8, &err);
    rd_dt_release(row);
    rd_dt_release(plane);
    rd_dt_release(vol);
    rd_dt_release(d);
    return s;
}

/* v = (disp, etype, ft) as set_view makes it; drops the caller's hold on ft */
static void view_of(struct rd_io_view *v, MPI_Offset disp, MPI_Datatype et, MPI_Datatype ft)
{
    rd_io_why why = {{0}};
    ft->committed = 1;
    rd_io_view_init(v);
    int rc = rd_io_view_set(v, disp, et, ft, "native", 1, 0, 0, &why);
    if (rc)
        tap_diag("rd_io_view_set: %s", why.msg);
    rd_dt_release(ft);
}

/* ---- a simulated collective access */

struct rank {
    struct rd_io_view v;
    char *buf;      /* the user's buffer: contiguous bytes */
    int64_t s, n;   /* stream range */
};

static int hows[4];

static struct rd_io_acc acc_of(const struct rank *r)
{
    struct rd_io_acc a = {0, 0, r->s, r->n, 0};
    if (r->n > 0) {
        a.lo = rd_io_view_offset(&r->v, r->s);
        a.hi = rd_io_view_offset(&r->v, r->s + r->n - 1) + 1;
    }
    return a;
}

/* The rounds of one collective access of p ranks, as coll.c runs them but
 * without messages. Returns the number of failures. */
static int simulate(int fd, int write, struct rank *rk, int p, int per_node, int cap, int64_t cb)
{
    struct rd_io_acc acc[8];
    int node[8] = {0}, aggr[8];
    int64_t bound[9];
    for (int i = 0; i < p; i++) {
        acc[i] = acc_of(&rk[i]);
        node[i] = 0;
    }
    int na = rd_io_coll_aggregators(p, node, per_node, cap, aggr);
    int64_t lo = INT64_MAX, hi = 0;
    for (int i = 0; i < p; i++)
        if (acc[i].n) {
            lo = acc[i].lo < lo ? acc[i].lo : lo;
            hi = acc[i].hi > hi ? acc[i].hi : hi;
        }
    int64_t rounds = rd_io_coll_domains(lo, hi, na, RD_IO_COLL_ALIGN, cb, bound);
    char *chunk = malloc((size_t)cb);
    struct rd_io_runs runs[8] = {{0}};
    char *data[8] = {0};
    int bad = 0;
    for (int64_t r = 0; r < rounds; r++)
        for (int j = 0; j < na; j++) {
            int64_t a, b;
            rd_io_coll_chunk(bound[j], bound[j + 1], cb, r, &a, &b);
            struct rd_io_piece pc[8];
            int np = 0;
            int64_t ss[8], sn[8];
            for (int i = 0; i < p; i++) {
                if (!rd_io_coll_meets(&acc[i], a, b))
                    continue;
                rd_io_why why;
                if (rd_io_coll_share(&rk[i].v, rk[i].s, rk[i].n, a, b, &ss[i], &sn[i], &runs[i], &why)) {
                    bad++;
                    continue;
                }
                if (!runs[i].n)
                    continue;
                data[i] = realloc(data[i], (size_t)sn[i]);
                if (write)
                    rd_dt_pack(rk[i].buf, MPI_BYTE, (size_t)(ss[i] - rk[i].s), data[i], (size_t)sn[i]);
                pc[np++] = (struct rd_io_piece){runs[i].r, runs[i].n, data[i]};
            }
            int how;
            rd_io_why why;
            int e = write ? rd_io_coll_put(fd, a, b, chunk, pc, np, &how, &why)
                          : rd_io_coll_get(fd, a, b, chunk, pc, np, &how, &why);
            if (e) {
                tap_diag("chunk [%lld, %lld): %s", (long long)a, (long long)b, why.msg);
                bad++;
            }
            hows[how]++;
            if (!write)
                for (int i = 0, k = 0; i < p; i++)
                    if (rd_io_coll_meets(&acc[i], a, b) && runs[i].n) {
                        memcpy(rk[i].buf + (ss[i] - rk[i].s), pc[k].data, (size_t)sn[i]);
                        k++;
                    }
        }
    for (int i = 0; i < p; i++) {
        rd_io_runs_free(&runs[i]);
        free(data[i]);
    }
    free(chunk);
    return bad;
}

/* ---- the 3-D array */

enum { NZ = 23, NY = 17, NX = 13 };
#define DISP 1000 /* bytes before the array: must keep their old value */

static void decompose(int n, int parts, int k, int *start, int *len)
{
    *start = n * k / parts;
    *len = n * (k + 1) / parts - *start;
}

/* rank i of grid g[3]: its subarray view and its buffer of global indices
 * (write) or zeros (read) */
static void bt_rank(struct rank *r, const int *g, int i, int fill)
{
    int c[3] = {i / (g[1] * g[2]), i / g[2] % g[1], i % g[2]};
    int size[3] = {NZ, NY, NX}, sub[3], st[3];
    for (int d = 0; d < 3; d++)
        decompose(size[d], g[d], c[d], &st[d], &sub[d]);
    view_of(&r->v, DISP, MPI_DOUBLE, sub3(size, sub, st));
    r->s = 0;
    r->n = (int64_t)sub[0] * sub[1] * sub[2] * 8;
    r->buf = calloc(1, (size_t)r->n);
    double *x = (double *)r->buf;
    size_t k = 0;
    for (int z = st[0]; z < st[0] + sub[0]; z++)
        for (int y = st[1]; y < st[1] + sub[1]; y++)
            for (int w = st[2]; w < st[2] + sub[2]; w++)
                x[k++] = fill ? (double)((z * NY + y) * NX + w) : 0.0;
}

static int bt_check_read(const struct rank *r, const int *g, int i)
{
    struct rank e;
    bt_rank(&e, g, i, 1);
    int ok = memcmp(e.buf, r->buf, (size_t)r->n) == 0;
    free(e.buf);
    rd_io_view_fini(&e.v);
    return ok;
}

static int file_is(int fd, const unsigned char *img, size_t n)
{
    unsigned char *got = malloc(n + 1);
    ssize_t k = pread(fd, got, n + 1, 0);
    int ok = k == (ssize_t)n && memcmp(got, img, n) == 0;
    if (!ok && k >= 0)
        for (size_t i = 0; i < n && i < (size_t)k; i++)
            if (got[i] != img[i]) {
                tap_diag("file byte %zu: %02x, expected %02x (file %zd bytes, expected %zu)", i,
                         got[i], img[i], k, n);
                break;
            }
    free(got);
    return ok;
}

static void bt(const char *dir, int per_node, int cap)
{
    char path[512];
    snprintf(path, sizeof path, "%s/bt.%d.%d", dir, per_node, cap);
    int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
    unsigned char pre[DISP];
    memset(pre, 0xEE, sizeof pre);
    tap_ok(fd >= 0 && pwrite(fd, pre, DISP, 0) == DISP, "bt: file made, %d bytes of 0xEE before the array", DISP);

    int gw[3] = {2, 2, 1}; /* 4 ranks: z and y halves */
    struct rank w[4];
    for (int i = 0; i < 4; i++)
        bt_rank(&w[i], gw, i, 1);
    memset(hows, 0, sizeof hows);
    tap_is_int(simulate(fd, 1, w, 4, per_node, cap, 4096), 0,
               "bt write (4 ranks 2x2x1, %d per node, cap %d, cb 4096): no failure", per_node, cap);
    size_t n = DISP + (size_t)NZ * NY * NX * 8;
    unsigned char *img = malloc(n);
    memset(img, 0xEE, DISP);
    for (size_t k = 0; k < (size_t)NZ * NY * NX; k++) {
        double x = (double)k;
        memcpy(img + DISP + 8 * k, &x, 8);
    }
    tap_ok(file_is(fd, img, n), "bt write: the file holds 0xEE then every double = its global index");
    tap_ok(hows[RD_IO_COLL_WHOLE] >= 10 && hows[RD_IO_COLL_PIECES] == 0 && hows[RD_IO_COLL_RMW] == 0,
           "bt write: %d rounds' chunks fully covered, written whole (%d pieces, %d rmw)",
           hows[RD_IO_COLL_WHOLE], hows[RD_IO_COLL_PIECES], hows[RD_IO_COLL_RMW]);

    int gr[3] = {1, 3, 1}; /* read back by 3 ranks: slabs of y */
    struct rank r[3];
    for (int i = 0; i < 3; i++)
        bt_rank(&r[i], gr, i, 0);
    tap_is_int(simulate(fd, 0, r, 3, per_node, cap, 4096), 0, "bt read (3 ranks 1x3x1): no failure");
    int ok = 1;
    for (int i = 0; i < 3; i++)
        ok &= bt_check_read(&r[i], gr, i);
    tap_ok(ok, "bt read: every rank's slab holds its global indices");
    for (int i = 0; i < 4; i++) {
        free(w[i].buf);
        rd_io_view_fini(&w[i].v);
    }
    for (int i = 0; i < 3; i++) {
        free(r[i].buf);
        rd_io_view_fini(&r[i].v);
    }
    free(img);
    close(fd);
    unlink(path);
}

/* Interleaved vector views with holes: p ranks, rank i owns blocks of blen
 * bytes at disp + k * stride + i * blen, for k < nb; the holes keep the
 * file's old bytes (0x5A). wronly: the write goes through a write-only
 * descriptor (no read-modify-write possible: a pwrite per stretch). */
static void holes(const char *dir, int p, size_t blen, MPI_Aint stride, size_t nb, int how_exp, int wronly)
{
    char path[512];
    snprintf(path, sizeof path, "%s/holes.%zu", dir, blen);
    int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
    MPI_Offset disp = 300;
    size_t n = (size_t)disp + nb * (size_t)stride;
    unsigned char *img = malloc(n);
    memset(img, 0x5A, n);
    tap_ok(fd >= 0 && pwrite(fd, img, n, 0) == (ssize_t)n, "holes: old file of %zu bytes 0x5A", n);
    struct rank rk[4];
    for (int i = 0; i < p; i++) {
        int err = 0;
        MPI_Datatype blk = vec(1, blen, 1, MPI_BYTE);
        MPI_Datatype d = rd_dt_make_blocks(1, (size_t[]){1}, (MPI_Aint[]){(MPI_Aint)(i * blen)},
                                           (MPI_Datatype[]){blk}, 1, 0, &err);
        MPI_Datatype ft = rd_dt_make_resized(d, 0, stride, &err);
        rd_dt_release(blk);
        rd_dt_release(d);
        view_of(&rk[i].v, disp, MPI_BYTE, ft);
        rk[i].s = 0;
        rk[i].n = (int64_t)(nb * blen);
        rk[i].buf = malloc((size_t)rk[i].n);
        for (size_t k = 0; k < nb * blen; k++) {
            rk[i].buf[k] = (char)(1 + i * 37 + k % 89);
            img[disp + (k / blen) * stride + i * blen + k % blen] = (unsigned char)rk[i].buf[k];
        }
    }
    memset(hows, 0, sizeof hows);
    int wfd = wronly ? open(path, O_WRONLY) : fd;
    tap_is_int(simulate(wfd, 1, rk, p, 2, 0, 4096), 0, "holes (%d ranks, blocks of %zu every %ld%s): write",
               p, blen, (long)stride, wronly ? ", write-only descriptor" : "");
    if (wronly)
        close(wfd);
    tap_ok(file_is(fd, img, n), "holes (blocks of %zu): file = image, holes keep 0x5A", blen);
    tap_ok(hows[how_exp] > 0, "holes (blocks of %zu): written by the expected way %d (none %d whole %d pieces %d rmw %d)",
           blen, how_exp, hows[0], hows[1], hows[2], hows[3]);
    for (int i = 0; i < p; i++)
        memset(rk[i].buf, 0, (size_t)rk[i].n);
    tap_is_int(simulate(fd, 0, rk, p, 2, 0, 4096), 0, "holes (blocks of %zu): read", blen);
    int ok = 1;
    for (int i = 0; i < p; i++)
        for (size_t k = 0; k < nb * blen; k++)
            ok &= rk[i].buf[k] == (char)(1 + i * 37 + k % 89);
    tap_ok(ok, "holes (blocks of %zu): every rank reads back its own bytes", blen);
    for (int i = 0; i < p; i++) {
        free(rk[i].buf);
        rd_io_view_fini(&rk[i].v);
    }
    free(img);
    close(fd);
    unlink(path);
}

int main(void)
{
    /* the decision */
    struct rd_io_acc blk[3] = {{0, 100, 0, 100, 0}, {100, 200, 0, 100, 0}, {200, 300, 0, 100, 0}};
    struct rd_io_acc itl[3] = {{0, 290, 0, 100, 0}, {10, 300, 0, 100, 0}, {0, 0, 0, 0, 0}};
    tap_is_int(rd_io_coll_decide(blk, 3, 0, 0), 0, "decide: blocks side by side, automatic: independent");
    tap_is_int(rd_io_coll_decide(itl, 3, 0, 0), 1, "decide: interleaved extents, automatic: two phases");
    tap_is_int(rd_io_coll_decide(blk, 3, 1, 0), 1, "decide: blocks, romio_cb enable: two phases");
    tap_is_int(rd_io_coll_decide(itl, 3, -1, 0), 0, "decide: interleaved, romio_cb disable: independent");
    tap_is_int(rd_io_coll_decide(itl, 3, 1, 1), 0, "decide: atomic mode: independent");
    itl[1].flags = RD_IO_ACC_NOMAP;
    tap_is_int(rd_io_coll_decide(itl, 3, 1, 0), 0, "decide: a view not sliceable by file range: independent");
    struct rd_io_acc none[2] = {{0, 0, 0, 0, 0}, {0, 0, 5, 0, 0}};
    tap_is_int(rd_io_coll_decide(none, 2, 1, 0), 0, "decide: no rank moves data: independent");
    struct rd_io_acc unsorted[3] = {{200, 300, 0, 1, 0}, {0, 100, 0, 1, 0}, {100, 201, 0, 1, 0}};
    tap_is_int(rd_io_coll_decide(unsorted, 3, 0, 0), 1, "decide: interleave found after sorting by lo");

    /* aggregators */
    int node8[8] = {0, 0, 0, 0, 1, 1, 1, 1}, ag[8];
    int na = rd_io_coll_aggregators(8, node8, 2, 0, ag);
    tap_ok(na == 4 && ag[0] == 0 && ag[1] == 4 && ag[2] == 2 && ag[3] == 6,
           "aggregators: 2 nodes of 4, 2 per node: 0 4 2 6 (got %d: %d %d %d %d)", na, ag[0], ag[1], ag[2], ag[3]);
    na = rd_io_coll_aggregators(8, node8, 2, 3, ag);
    tap_ok(na == 3 && ag[0] == 0 && ag[1] == 4 && ag[2] == 2, "aggregators: cb_nodes 3 keeps 0 4 2");
    na = rd_io_coll_aggregators(8, node8, 1, 0, ag);
    tap_ok(na == 2 && ag[0] == 0 && ag[1] == 4, "aggregators: 1 per node: 0 4");
    tap_is_int(rd_io_coll_per_node(0, 1), 1, "aggregators per node, automatic: 1 for a write");
    tap_is_int(rd_io_coll_per_node(0, 0), 2, "aggregators per node, automatic: 2 for a read");
    tap_is_int(rd_io_coll_per_node(3, 1), 3, "aggregators per node, cb_config_list *:3: 3 for a write");
    tap_is_int(rd_io_coll_per_node(3, 0), 3, "aggregators per node, cb_config_list *:3: 3 for a read");
    int nodeu[3] = {-1, -1, -1};
    na = rd_io_coll_aggregators(3, nodeu, 2, 0, ag);
    tap_ok(na == 3 && ag[0] == 0 && ag[1] == 1 && ag[2] == 2, "aggregators: unknown nodes, one node each");
    int node4[4] = {7, 7, 7, 7};
    na = rd_io_coll_aggregators(4, node4, 10, 0, ag);
    tap_ok(na == 4 && ag[0] == 0 && ag[1] == 1 && ag[2] == 2 && ag[3] == 3, "aggregators: 10 per node of 4 ranks: all 4");
    int node3[3] = {5, 5, 5};
    na = rd_io_coll_aggregators(3, node3, 2, 0, ag);
    tap_ok(na == 2 && ag[0] == 0 && ag[1] == 1, "aggregators: 2 of 3 ranks: local 0 and 1 (3/2)");
    na = rd_io_coll_aggregators(4, node4, 2, 1, ag);
    tap_ok(na == 1 && ag[0] == 0, "aggregators: cb_nodes 1: rank 0 alone");

    /* domains and rounds */
    int64_t bd[5];
    int64_t rounds = rd_io_coll_domains(100, 100000, 3, 4096, 4096, bd);
    tap_ok(bd[0] == 100 && bd[1] == 32768 && bd[2] == 65536 && bd[3] == 100000 && rounds == 9,
           "domains: [100, 100000) in 3 on 4 KiB: 100 32768 65536 100000, 9 rounds (got %lld %lld %lld %lld, %lld)",
           (long long)bd[0], (long long)bd[1], (long long)bd[2], (long long)bd[3], (long long)rounds);
    rounds = rd_io_coll_domains(0, 1000, 4, 4096, 4096, bd);
    tap_ok(bd[0] == 0 && bd[1] == 0 && bd[2] == 0 && bd[3] == 0 && bd[4] == 1000 && rounds == 1,
           "domains: 1000 bytes in 4: all in the last, 1 round");
    rounds = rd_io_coll_domains(0, 1 << 20, 2, 4096, 1 << 24, bd);
    tap_ok(bd[1] == 1 << 19 && rounds == 1, "domains: 1 MiB in 2 halves, one round of 16 MiB");
    int64_t a, b;
    rd_io_coll_chunk(100, 32768, 4096, 7, &a, &b);
    tap_ok(a == 28772 && b == 32768, "chunk 7 of [100, 32768): [28772, 32768)");
    rd_io_coll_chunk(100, 32768, 4096, 8, &a, &b);
    tap_ok(a == b, "chunk 8 of [100, 32768): empty");

    /* whole accesses on a file */
    const char *dir = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
    char tmpl[512];
    snprintf(tmpl, sizeof tmpl, "%s/iocoll.XXXXXX", dir);
    char *d = mkdtemp(tmpl);
    tap_ok(d != NULL, "a directory for the files");
    if (d) {
        bt(d, 2, 0);
        bt(d, 2, 1);
        holes(d, 2, 8, 32, 600, RD_IO_COLL_RMW, 0);
        holes(d, 2, 8, 32, 600, RD_IO_COLL_PIECES, 1);
        holes(d, 2, 1500, 4000, 12, RD_IO_COLL_PIECES, 0);
        holes(d, 3, 4096, 3 * 4096, 4, RD_IO_COLL_WHOLE, 0);

        /* a read beyond the end of the file reads zeros */
        char path[600];
        snprintf(path, sizeof path, "%s/eof", d);
        int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
        tap_ok(fd >= 0 && pwrite(fd, "abcdef", 6, 0) == 6, "eof: a file of 6 bytes");
        int64_t run[2] = {2, 10};
        char out[10], chunk[16];
        memset(out, 'x', sizeof out);
        struct rd_io_piece pc = {run, 1, out};
        int how;
        rd_io_why why;
        tap_ok(rd_io_coll_get(fd, 0, 16, chunk, &pc, 1, &how, &why) == MPI_SUCCESS &&
                   memcmp(out, "cdef\0\0\0\0\0\0", 10) == 0,
               "eof: bytes [2, 12) of a 6-byte file read as cdef and six zeros");
        int64_t outside[2] = {10, 10};
        pc.runs = outside;
        tap_is_int(rd_io_coll_put(fd, 0, 16, chunk, &pc, 1, &how, &why), MPI_ERR_INTERN,
                   "put: a run beyond its chunk is refused");
        close(fd);
        unlink(path);
        rmdir(d);
    }
    return tap_done();
}

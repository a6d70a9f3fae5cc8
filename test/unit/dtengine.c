/* Unit test of the datatype engine (runtime/objects/datatype.c, linked directly):
 * random nested types (vector, hvector, indexed, struct, resized, up to 4
 * levels) are built both by the engine's constructors and as a plain list
 * of their basic elements (offset, size) made here by brute force. Then:
 *   - size, element count, true lb / true extent, lb / extent agree;
 *   - the full pack equals the bytes of the list in order;
 *   - packing any byte range [off, off + len) gives that slice of the full
 *     pack (many random ranges per type);
 *   - unpacking the stream in random pieces rebuilds exactly the bytes of
 *     the list and writes nothing else (types without overlaps);
 *   - rd_dt_elements on every byte count, and its inverse;
 *   - rd_dt_segments covers the data in order;
 * plus the shapes that must stay small (a vector of 2^20 blocks is one
 * node) and merging of adjacent blocks. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/objects/datatype.h"
#include "test/tap.h"

/* ------------------------------------------------------------ the model */

struct el {
    MPI_Aint off;
    size_t size;
};

struct model {
    struct el *e;
    size_t n;
    MPI_Aint lb, ub; /* extent = ub - lb */
    size_t align;
    int sticky;
};

static uint64_t rng = 0x9E3779B97F4A7C15ULL;
static uint64_t rnd(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}
static long rr(long lo, long hi) /* [lo, hi] */
{
    return lo + (long)(rnd() % (uint64_t)(hi - lo + 1));
}

static void push(struct model *m, MPI_Aint off, size_t size)
{
    if ((m->n & (m->n + 1)) == 0 || m->n == 0)
        m->e = realloc(m->e, sizeof(*m->e) * (2 * m->n + 2));
    m->e[m->n].off = off;
    m->e[m->n].size = size;
    m->n++;
}

/* a copy of t at displacement d: its elements, and its bounds */
static void add_copy(struct model *m, const struct model *t, MPI_Aint d, int *first)
{
    for (size_t i = 0; i < t->n; i++)
        push(m, t->e[i].off + d, t->e[i].size);
    MPI_Aint l = d + t->lb, u = d + t->ub;
    if (*first || l < m->lb)
        m->lb = l;
    if (*first || u > m->ub)
        m->ub = u;
    *first = 0;
    if (t->align > m->align)
        m->align = t->align;
    m->sticky |= t->sticky;
}

struct ty {
    MPI_Datatype dt;
    struct model m;
};

static struct ty basics[4];

static void free_ty(struct ty *t)
{
    if (!t->dt->predefined) {
        rd_dt_release(t->dt);
        free(t->m.e);
    }
}

static size_t total(const struct ty *t)
{
    return t->m.n;
}

/* a random type of at most depth levels above the basic ones */
static struct ty gen(int depth)
{
    struct ty r = {0};
    int err = 0;
    if (depth == 0 || rr(0, 5) == 0)
        return basics[rr(0, 3)];
    int kind = (int)rr(0, 5);
    struct ty c = gen(depth - 1);
    MPI_Aint ext = c.m.ub - c.m.lb;
    int first = 1;
    r.m.align = 1;
    switch (kind) {
    case 0:   /* vector: stride in extents, maybe negative */
    case 1: { /* hvector: stride in bytes */
        size_t count = (size_t)rr(0, 6), blen = (size_t)rr(0, 4);
        MPI_Aint stride = kind == 0 ? (MPI_Aint)rr(-6, 6) * ext : (MPI_Aint)rr(-64, 64);
        if (rr(0, 3) == 0 && total(&c) * count * blen < 4096)
            count *= 40; /* long ones too */
        if (total(&c) * count * blen > 20000)
            count = 1;
        for (size_t i = 0; i < count; i++)
            for (size_t j = 0; j < blen; j++)
                add_copy(&r.m, &c.m, (MPI_Aint)i * stride + (MPI_Aint)j * ext, &first);
        r.m.align = c.m.align; /* a type's alignment, whatever its count */
        r.m.sticky = c.m.sticky;
        r.dt = rd_dt_make_vector(count, blen, stride, c.dt, &err);
        break;
    }
    case 2:   /* indexed (displacements in extents) */
    case 3: { /* struct of several types */
        size_t n = (size_t)rr(0, 5), bl[5];
        MPI_Aint d[5];
        struct ty ts[5];
        MPI_Datatype dts[5];
        for (size_t i = 0; i < n; i++) {
            ts[i] = kind == 3 && i ? gen(depth - 1) : c;
            bl[i] = (size_t)rr(0, 3);
            MPI_Aint e = ts[i].m.ub - ts[i].m.lb;
            /* sometimes adjacent to the previous block: merged */
            d[i] = i && rr(0, 2) == 0 && kind == 2 ? d[i - 1] + (MPI_Aint)bl[i - 1] * ext
                                                  : (kind == 2 ? (MPI_Aint)rr(-5, 8) * ext : (MPI_Aint)rr(-40, 80));
            if (total(&ts[i]) * bl[i] > 5000)
                bl[i] = 1;
            for (size_t j = 0; j < bl[i]; j++)
                add_copy(&r.m, &ts[i].m, d[i] + (MPI_Aint)j * e, &first);
            dts[i] = ts[i].dt;
        }
        r.dt = rd_dt_make_blocks(n, bl, d, dts, 0, kind == 3, &err);
        if (kind == 3 && !r.m.sticky && r.m.align > 1 && !first) {
            MPI_Aint x = r.m.ub - r.m.lb, a = (MPI_Aint)r.m.align;
            if (x % a)
                r.m.ub += a - x % a;
        }
        for (size_t i = 1; i < n; i++)
            if (kind == 3)
                free_ty(&ts[i]);
        break;
    }
    case 4: { /* resized */
        MPI_Aint lb = rr(-16, 16), e = rr(0, 64);
        for (size_t i = 0; i < c.m.n; i++)
            push(&r.m, c.m.e[i].off, c.m.e[i].size);
        r.m.lb = lb;
        r.m.ub = lb + e;
        r.m.align = c.m.align;
        r.m.sticky = 1;
        first = 0;
        r.dt = rd_dt_make_resized(c.dt, lb, e, &err);
        break;
    }
    default: { /* contiguous */
        size_t count = (size_t)rr(0, 5);
        for (size_t i = 0; i < count; i++)
            add_copy(&r.m, &c.m, (MPI_Aint)i * ext, &first);
        r.m.align = c.m.align;
        r.m.sticky = c.m.sticky;
        r.dt = rd_dt_make_vector(count, 1, ext, c.dt, &err);
        break;
    }
    }
    if (first)
        r.m.lb = r.m.ub = 0;
    free_ty(&c);
    if (!r.dt) {
        printf("# constructor failed: %d\n", err);
        exit(1);
    }
    return r;
}

/* ------------------------------------------------------------ checks */

static int seg_check_fn(void *arg, MPI_Aint disp, size_t len)
{
    /* appends the segment's bytes */
    unsigned char **p = arg;
    memcpy(p[0], p[1] + disp, len);
    p[0] += len;
    return 0;
}

static void dump(const struct rd_dt_node *d, int ind)
{
    printf("# %*s%s size %zu flat %d off %ld", ind, "", d->kind == RD_DN_LEAF ? "LEAF" : d->kind == RD_DN_VEC ? "VEC" : "IDX",
           d->size, d->flat, (long)d->off);
    if (d->kind == RD_DN_VEC) {
        printf(" count %zu blen %zu stride %ld cext %ld bflat %d\n", d->count, d->blen, (long)d->stride, (long)d->cext, d->bflat);
        dump(d->child, ind + 2);
    } else if (d->kind == RD_DN_IDX) {
        printf(" nblk %zu\n", d->nblk);
        for (size_t i = 0; i < d->nblk; i++) {
            printf("# %*s blk disp %ld blen %zu cext %ld pre %zu\n", ind, "", (long)d->blk[i].disp, d->blk[i].blen,
                   (long)d->blk[i].cext, d->blk[i].pre);
            dump(d->blk[i].child, ind + 4);
        }
    } else {
        printf(" basic %s\n", d->basic->name);
    }
}

static int check_type(struct ty *t, int verbose)
{
    int bad = 0;
    MPI_Datatype dt = t->dt;
    size_t count = (size_t)rr(1, 3);
    MPI_Aint ext = t->m.ub - t->m.lb;
    /* the elements of count copies */
    size_t n = t->m.n * count, size = 0;
    struct el *e = malloc(sizeof(*e) * (n ? n : 1));
    MPI_Aint lo = 0, hi = 1, tlo = 0, thi = 0;
    for (size_t c = 0, k = 0; c < count; c++)
        for (size_t i = 0; i < t->m.n; i++, k++) {
            e[k].off = t->m.e[i].off + (MPI_Aint)c * ext;
            e[k].size = t->m.e[i].size;
            if (!k || e[k].off < lo)
                lo = e[k].off;
            if (!k || e[k].off + (MPI_Aint)e[k].size > hi)
                hi = e[k].off + (MPI_Aint)e[k].size;
        }
    for (size_t i = 0; i < t->m.n; i++) {
        if (!i || t->m.e[i].off < tlo)
            tlo = t->m.e[i].off;
        if (!i || t->m.e[i].off + (MPI_Aint)t->m.e[i].size > thi)
            thi = t->m.e[i].off + (MPI_Aint)t->m.e[i].size;
        size += t->m.e[i].size;
    }
    /* metadata */
    if (dt->size != size || dt->elements != (MPI_Count)t->m.n || dt->lb != t->m.lb || dt->extent != ext ||
        (size && (dt->true_lb != tlo || dt->true_extent != thi - tlo))) {
        printf("# metadata: size %zu/%zu elements %lld/%zu lb %ld/%ld extent %ld/%ld true %ld+%ld/%ld+%ld\n",
               dt->size, size, dt->elements, t->m.n, (long)dt->lb, (long)t->m.lb, (long)dt->extent, (long)ext,
               (long)dt->true_lb, (long)dt->true_extent, (long)tlo, (long)(thi - tlo));
        bad++;
    }
    size_t span = (size_t)(hi - lo) + 1, bytes = size * count;
    unsigned char *mem = malloc(span), *full = malloc(bytes + 1), *ref = malloc(bytes + 1), *part = malloc(bytes + 1);
    unsigned char *buf = mem - lo; /* buf + off for off in [lo, hi) */
    for (size_t i = 0; i < span; i++)
        mem[i] = (unsigned char)(rnd() >> 24);
    for (size_t k = 0, p = 0; k < n; k++, p += e[k - 1].size)
        memcpy(ref + p, buf + e[k].off, e[k].size);
    rd_dt_pack(buf, dt, 0, full, bytes);
    if (bytes && memcmp(full, ref, bytes) != 0) {
        printf("# full pack differs\n");
        bad++;
    }
    /* random ranges */
    for (int r = 0; r < 60 && bytes; r++) {
        size_t off = (size_t)rr(0, (long)bytes - 1), len = (size_t)rr(0, (long)(bytes - off));
        memset(part, 0xee, len + 1);
        rd_dt_pack(buf, dt, off, part, len);
        if (memcmp(part, ref + off, len) != 0 || part[len] != 0xee) {
            printf("# pack of [%zu, %zu) differs\n", off, off + len);
            bad++;
            break;
        }
    }
    /* unpack in random pieces, when no byte is covered twice */
    unsigned char *cover = calloc(span, 1);
    int overlap = 0;
    for (size_t k = 0; k < n; k++)
        for (size_t b = 0; b < e[k].size; b++)
            overlap |= cover[(size_t)(e[k].off - lo) + b]++;
    if (!overlap) {
        unsigned char *dst = calloc(span, 1), *dbuf = dst - lo;
        for (size_t off = 0; off < bytes;) {
            size_t len = (size_t)rr(1, (long)(bytes - off));
            if (rr(0, 1))
                len = len > 7 ? (size_t)rr(1, 7) : len;
            rd_dt_unpack(dbuf, dt, off, ref + off, len);
            off += len;
        }
        for (size_t i = 0; i < span; i++)
            if (dst[i] != (cover[i] ? mem[i] : 0)) {
                printf("# unpack: byte %zu is %d\n", i, dst[i]);
                bad++;
                break;
            }
        free(dst);
    }
    free(cover);
    /* elements */
    for (size_t b = 0, k = 0, acc = 0; b <= bytes && b < 3000; b++) {
        while (k < n && acc + e[k].size <= b)
            acc += e[k++].size;
        MPI_Count want = acc == b ? (MPI_Count)k : -1;
        MPI_Count got = rd_dt_elements(dt, (MPI_Count)b);
        if (got != want) {
            printf("# elements of %zu bytes: %lld, expected %lld\n", b, got, want);
            bad++;
            break;
        }
        if (want >= 0 && rd_dt_elements_bytes(dt, want) != (MPI_Count)b) {
            printf("# bytes of %lld elements: %lld, expected %zu\n", want, rd_dt_elements_bytes(dt, want), b);
            bad++;
            break;
        }
    }
    /* segments */
    unsigned char *p[2] = {part, buf};
    rd_dt_segments(dt, count, seg_check_fn, p);
    if ((size_t)(p[0] - part) != bytes || (bytes && memcmp(part, ref, bytes) != 0)) {
        printf("# segments cover %zu bytes, not the %zu of the data\n", (size_t)(p[0] - part), bytes);
        bad++;
    }
    if (bad && verbose && getenv("DT_DUMP")) {
        dump(dt->dn, 0);
        for (size_t i = 0; i < t->m.n && i < 40; i++)
            printf("# el %ld+%zu\n", (long)t->m.e[i].off, t->m.e[i].size);
    }
    if (bad && verbose)
        printf("# type of %zu elements, count %zu, combiner-free model; node kind %d\n", t->m.n, count, dt->dn->kind);
    free(e);
    free(mem);
    free(full);
    free(ref);
    free(part);
    return bad;
}

static int depth_of(const struct rd_dt_node *d)
{
    if (d->kind == RD_DN_LEAF)
        return 0;
    int m = 0;
    if (d->kind == RD_DN_VEC)
        m = depth_of(d->child);
    for (size_t i = 0; d->kind == RD_DN_IDX && i < d->nblk; i++) {
        int x = depth_of(d->blk[i].child);
        if (x > m)
            m = x;
    }
    return m + 1;
}

int main(void)
{
    MPI_Datatype b[4] = {MPI_CHAR, MPI_SHORT, MPI_INT, MPI_DOUBLE};
    for (int i = 0; i < 4; i++) {
        basics[i].dt = b[i];
        basics[i].m.e = malloc(sizeof(struct el));
        basics[i].m.e[0] = (struct el){0, b[i]->size};
        basics[i].m.n = 1;
        basics[i].m.lb = 0;
        basics[i].m.ub = (MPI_Aint)b[i]->size;
        basics[i].m.align = b[i]->size;
    }

    if (getenv("DT_SEED")) /* another sequence of random types */
        rng ^= strtoull(getenv("DT_SEED"), NULL, 0) * 0x2545F4914F6CDD1DULL;
    /* random types: depth up to 4 */
    int failed = 0, deep = 0, ntypes = 400;
    for (int i = 0; i < ntypes; i++) {
        struct ty t = gen(4);
        if (depth_of(t.dt->dn) >= 3)
            deep++;
        if (check_type(&t, 1)) {
            failed++;
            printf("# random type %d failed\n", i);
        }
        free_ty(&t);
    }
    tap_is_int(failed, 0, "%d random types: metadata, full pack, 60 ranges each, unpack, elements, segments",
               ntypes);
    tap_ok(deep >= 40, "%d of them are nested 3 levels deep or more", deep);

    int err = 0;
    /* a vector of 2^20 blocks is one node, not 2^20 descriptors */
    MPI_Datatype v = rd_dt_make_vector(1 << 20, 1, 16, MPI_DOUBLE, &err);
    tap_ok(v->dn->kind == RD_DN_VEC && v->dn->count == 1 << 20 && v->dn->blk == NULL && v->dn->bflat,
           "vector of 2^20 doubles, stride 2: one VEC node of 8-byte runs");
    tap_ok(!v->contig && v->size == 8u << 20 && v->extent == 16 * ((1 << 20) - 1) + 8,
           "its size is 8 MiB, its extent 16 * (2^20 - 1) + 8");
    double *src = malloc(16u << 20), *dst = malloc(8u << 20);
    for (size_t i = 0; i < 2u << 20; i++)
        src[i] = (double)i;
    rd_dt_pack(src, v, 3, (char *)dst, (8u << 20) - 3); /* from inside the first double */
    int ok = memcmp(dst, (char *)&src[0] + 3, 5) == 0;
    for (size_t i = 1; i < 1u << 20 && ok; i++)
        ok = memcmp((char *)dst + 8 * i - 3, &src[2 * i], 8) == 0;
    tap_ok(ok, "packing from byte 3 on: the doubles at even indices, shifted by 3 bytes");
    free(src);
    free(dst);
    rd_dt_release(v);

    /* contiguous of a contiguous: one leaf */
    MPI_Datatype c1 = rd_dt_make_vector(1000, 1, 8, MPI_DOUBLE, &err);
    MPI_Datatype c2 = rd_dt_make_vector(1000, 1, c1->extent, c1, &err);
    tap_ok(c2->dn->kind == RD_DN_LEAF && c2->contig && c2->size == 8000000 && c2->elements == 1000000,
           "contiguous(1000, contiguous(1000, double)) is one leaf of 10^6 doubles");
    rd_dt_release(c2);
    rd_dt_release(c1);

    /* adjacent indexed blocks merge */
    size_t bl[4] = {2, 3, 1, 4};
    MPI_Aint d[4] = {0, 8, 20, 40};
    MPI_Datatype ix = rd_dt_make_blocks(4, bl, d, (MPI_Datatype[]){MPI_INT}, 1, 0, &err);
    tap_ok(ix->dn->kind == RD_DN_IDX && ix->dn->nblk == 2 && ix->dn->blk[0].blen == 6 && ix->dn->blk[1].disp == 40,
           "indexed {2@0, 3@8, 1@20, 4@40} of int: two blocks (6 ints at 0, 4 at 40)");
    tap_is_int(rd_dt_elements(ix, 28), 7, "Get_elements of 28 bytes: 7 ints");
    tap_is_int(rd_dt_elements(ix, 30), -1, "of 30 bytes: not a whole number");
    rd_dt_release(ix);

    /* struct padding (epsilon) as the C compiler lays out the struct */
    struct s { double a; char c; };
    MPI_Datatype st = rd_dt_make_blocks(2, (size_t[]){1, 1}, (MPI_Aint[]){0, 8},
                                        (MPI_Datatype[]){MPI_DOUBLE, MPI_CHAR}, 0, 1, &err);
    tap_ok(st->extent == sizeof(struct s) && st->true_extent == 9 && st->size == 9,
           "struct {double; char}: extent %ld (sizeof 16), true extent 9, size 9", (long)st->extent);
    rd_dt_release(st);

    for (int i = 0; i < 4; i++)
        free(basics[i].m.e);
    return tap_done();
}

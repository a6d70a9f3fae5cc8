/* Collectives whose ranks' counts do not match (an erroneous program), under
 * MPI_ERRORS_RETURN. For every collective that receives data, blocking and
 * nonblocking, and sizes of 8 B, 4 KiB, 64 KiB and 1 MiB (per block, or
 * the whole vector of a reduction): one rank (the victim) gives a receive
 * buffer half the size of what is sent to it. Then:
 *   - the victim's call returns MPI_ERR_TRUNCATE;
 *   - every other rank's call returns MPI_SUCCESS with its whole result
 *     exact, or MPI_ERR_TRUNCATE (rdmpi's contract: a rank that finds the
 *     mismatch may report it too; its buffer is then undefined);
 *   - nothing is written past the buffer any rank gave (guard bytes after
 *     every receive buffer);
 *   - nothing hangs (the script runs it under a timeout);
 *   - the same collective with matching counts, on the same communicator
 *     and the same buffers, then gives exact results.
 * Every case runs twice over the same buffers (the shared-memory paths map
 * a buffer from its second use). The victim: the root of Gather(v) and
 * Reduce (the last rank), the middle rank of Bcast and Scatter(v) (root
 * 0; an inner rank of the binomial tree on 4 ranks), rank 0 of the
 * others (the last rank of Scan and Exscan) - rank 0 because a larger
 * block of a higher rank lands past the end of a smaller buffer.
 * coll_mismatch.sh runs it with every path forced in turn.
 *
 * Usage: coll_mismatch [NAME [BYTES]] runs one collective (NAME as MPI
 * says it without MPI_: Bcast, Ibcast, Neighbor_alltoallw) and size;
 * coll_mismatch fatal: a mismatched Bcast under MPI_ERRORS_ARE_FATAL (1 MiB
 * from rank 0, 512 KiB at rank 1), which must end the job. */
#include <ctype.h>
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mtest.h"

#define GUARD 4096
#define CANARY 0xa5

static int rank, size, salt;
static MPI_Comm ring; /* a periodic ring for the neighbourhood collectives */

static void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p)
        abort();
    return p;
}

static int cls(int rc)
{
    int c = -1;
    MPI_Error_class(rc, &c);
    return c;
}

/* byte i of the block rank `from` sends to rank (or direction) `to` */
static unsigned char pat(int from, int to, long i)
{
    return (unsigned char)(from * 131 + to * 17 + i + (i >> 8) * 7 + salt * 5 + 1);
}

/* int i of rank r's vector in the reductions */
static int ival(int r, long i)
{
    return r * 1000 + (int)(i % 997) - 300 + salt;
}

/* One case: the buffers of one collective and size, reused by every call. */
struct ctx {
    int nb;           /* nonblocking form */
    long N;           /* bytes per block (vector of a reduction) */
    int bad;          /* this call is the mismatched one */
    int victim;       /* the rank whose receive buffer is too small */
    unsigned char *s; /* send buffer */
    unsigned char *r; /* receive buffer (and GUARD bytes) */
    size_t given;     /* bytes of r this call was given */
    int data_ok;      /* the result is exact (meaningful when the call succeeded) */
    int skip;         /* nothing checked for this rank's data (undefined result) */
};

/* this rank's share: half when it is the victim of a mismatched call */
static long mine(const struct ctx *c, long full)
{
    return c->bad && rank == c->victim ? full / 2 : full;
}

static int finish(const struct ctx *c, int rc, MPI_Request *q)
{
    if (c->nb && rc == MPI_SUCCESS)
        rc = MPI_Wait(q, MPI_STATUS_IGNORE);
    return rc;
}

/* pat() as a constant per (from, to) added to a row the same for all:
 * fill and check a block as byte adds and compares over the row, which the
 * compiler vectorizes at -O3 (byte by byte, the pattern was most of the
 * program's own time: 60% of a 4-rank run's CPU) */
static unsigned char *prow;
static long prow_len;

static const unsigned char *pat_row(long n)
{
    if (n > prow_len) {
        prow = realloc(prow, (size_t)n);
        if (!prow)
            abort();
        for (long i = prow_len; i < n; i++)
            prow[i] = (unsigned char)(i + (i >> 8) * 7);
        prow_len = n;
    }
    return prow;
}

/* Under the sanitizers these two loops stay plain (no_sanitize): they are
 * the test's own arithmetic over buffers it sized itself, and instrumented
 * byte by byte they were half of the sanitizer pass's coll_mismatch CPU
 * time; rdmpi's code that writes these buffers is instrumented as ever. */
#define PAT_LOOP __attribute__((optimize("O3"), no_sanitize("address,undefined")))

PAT_LOOP static void pat_fill(unsigned char *b, long n, int from, int to)
{
    const unsigned char *g = pat_row(n);
    unsigned char k = pat(from, to, 0);
    for (long i = 0; i < n; i++)
        b[i] = (unsigned char)(g[i] + k);
}

PAT_LOOP static int bytes_are(const unsigned char *b, long n, int from, int to)
{
    const unsigned char *g = pat_row(n);
    unsigned char k = pat(from, to, 0), d = 0;
    for (long i = 0; i < n; i++)
        d |= (unsigned char)(b[i] ^ (unsigned char)(g[i] + k));
    return d == 0;
}

/* ------------------------------------------------------------ the collectives */

static int k_bcast(struct ctx *c, MPI_Comm comm)
{
    int root = 0;
    long n = mine(c, c->N);
    MPI_Request q;
    c->given = (size_t)n;
    if (rank == root)
        pat_fill(c->r, n, root, 0);
    int rc = c->nb ? MPI_Ibcast(c->r, (int)n, MPI_BYTE, root, comm, &q) : MPI_Bcast(c->r, (int)n, MPI_BYTE, root, comm);
    rc = finish(c, rc, &q);
    c->data_ok = bytes_are(c->r, n, root, 0);
    return rc;
}

static int k_gather(struct ctx *c, MPI_Comm comm)
{
    int root = size - 1;
    c->victim = root;
    long sn = rank == root ? mine(c, c->N) : c->N, rn = mine(c, c->N);
    MPI_Request q;
    pat_fill(c->s, sn, rank, 0);
    c->given = rank == root ? (size_t)(rn * size) : 0;
    int rc = c->nb ? MPI_Igather(c->s, (int)sn, MPI_BYTE, c->r, (int)rn, MPI_BYTE, root, comm, &q)
                   : MPI_Gather(c->s, (int)sn, MPI_BYTE, c->r, (int)rn, MPI_BYTE, root, comm);
    rc = finish(c, rc, &q);
    c->data_ok = 1;
    for (int j = 0; j < size && rank == root; j++)
        c->data_ok &= bytes_are(c->r + j * rn, rn, j, 0);
    return rc;
}

static int k_gatherv(struct ctx *c, MPI_Comm comm)
{
    int root = size - 1, rc, cnt[64], dsp[64], off = 0;
    c->victim = root;
    MPI_Request q;
    for (int j = 0; j < size; j++) {
        cnt[j] = (int)(j == 0 ? mine(c, c->N) : c->N); /* the root's room for rank 0's block */
        dsp[j] = off;
        off += cnt[j];
    }
    pat_fill(c->s, c->N, rank, 0);
    long sn = rank == root ? cnt[root] : c->N;
    c->given = rank == root ? (size_t)off : 0;
    rc = c->nb ? MPI_Igatherv(c->s, (int)sn, MPI_BYTE, c->r, cnt, dsp, MPI_BYTE, root, comm, &q)
               : MPI_Gatherv(c->s, (int)sn, MPI_BYTE, c->r, cnt, dsp, MPI_BYTE, root, comm);
    rc = finish(c, rc, &q);
    c->data_ok = 1;
    for (int j = 0; j < size && rank == root; j++)
        c->data_ok &= bytes_are(c->r + dsp[j], cnt[j], j, 0);
    return rc;
}

static int k_scatter(struct ctx *c, MPI_Comm comm)
{
    int root = 0;
    long rn = mine(c, c->N);
    MPI_Request q;
    if (rank == root)
        for (int j = 0; j < size; j++)
            pat_fill(c->s + j * c->N, c->N, root, j);
    c->given = (size_t)rn;
    int rc = c->nb ? MPI_Iscatter(c->s, (int)c->N, MPI_BYTE, c->r, (int)rn, MPI_BYTE, root, comm, &q)
                   : MPI_Scatter(c->s, (int)c->N, MPI_BYTE, c->r, (int)rn, MPI_BYTE, root, comm);
    rc = finish(c, rc, &q);
    c->data_ok = bytes_are(c->r, rn, root, rank);
    return rc;
}

static int k_scatterv(struct ctx *c, MPI_Comm comm)
{
    int root = 0, cnt[64], dsp[64];
    long rn = mine(c, c->N);
    MPI_Request q;
    for (int j = 0; j < size; j++) {
        cnt[j] = (int)c->N;
        dsp[j] = (int)(j * c->N);
        if (rank == root)
            pat_fill(c->s + j * c->N, c->N, root, j);
    }
    c->given = (size_t)rn;
    int rc = c->nb ? MPI_Iscatterv(c->s, cnt, dsp, MPI_BYTE, c->r, (int)rn, MPI_BYTE, root, comm, &q)
                   : MPI_Scatterv(c->s, cnt, dsp, MPI_BYTE, c->r, (int)rn, MPI_BYTE, root, comm);
    rc = finish(c, rc, &q);
    c->data_ok = bytes_are(c->r, rn, root, rank);
    return rc;
}

static int k_allgather(struct ctx *c, MPI_Comm comm)
{
    long rn = mine(c, c->N);
    MPI_Request q;
    pat_fill(c->s, c->N, rank, 0);
    c->given = (size_t)(rn * size);
    int rc = c->nb ? MPI_Iallgather(c->s, (int)c->N, MPI_BYTE, c->r, (int)rn, MPI_BYTE, comm, &q)
                   : MPI_Allgather(c->s, (int)c->N, MPI_BYTE, c->r, (int)rn, MPI_BYTE, comm);
    rc = finish(c, rc, &q);
    c->data_ok = 1;
    for (int j = 0; j < size; j++)
        c->data_ok &= bytes_are(c->r + j * rn, rn, j, 0);
    return rc;
}

static int k_allgatherv(struct ctx *c, MPI_Comm comm)
{
    long rn = mine(c, c->N);
    int cnt[64], dsp[64];
    MPI_Request q;
    for (int j = 0; j < size; j++) {
        cnt[j] = (int)rn;
        dsp[j] = (int)(j * rn);
    }
    pat_fill(c->s, c->N, rank, 0);
    c->given = (size_t)(rn * size);
    int rc = c->nb ? MPI_Iallgatherv(c->s, (int)c->N, MPI_BYTE, c->r, cnt, dsp, MPI_BYTE, comm, &q)
                   : MPI_Allgatherv(c->s, (int)c->N, MPI_BYTE, c->r, cnt, dsp, MPI_BYTE, comm);
    rc = finish(c, rc, &q);
    c->data_ok = 1;
    for (int j = 0; j < size; j++)
        c->data_ok &= bytes_are(c->r + j * rn, rn, j, 0);
    return rc;
}

/* Alltoall in its three forms (0 block, 1 v, 2 w) */
static int alltoall_form(struct ctx *c, MPI_Comm comm, int form)
{
    long rn = mine(c, c->N);
    int sc[64], sd[64], rcn[64], rd[64];
    MPI_Datatype ty[64];
    MPI_Request q;
    int rc;
    for (int j = 0; j < size; j++) {
        sc[j] = (int)c->N;
        sd[j] = (int)(j * c->N);
        rcn[j] = (int)rn;
        rd[j] = (int)(j * rn);
        ty[j] = MPI_BYTE;
        pat_fill(c->s + j * c->N, c->N, rank, j);
    }
    c->given = (size_t)(rn * size);
    if (form == 0)
        rc = c->nb ? MPI_Ialltoall(c->s, (int)c->N, MPI_BYTE, c->r, (int)rn, MPI_BYTE, comm, &q)
                   : MPI_Alltoall(c->s, (int)c->N, MPI_BYTE, c->r, (int)rn, MPI_BYTE, comm);
    else if (form == 1)
        rc = c->nb ? MPI_Ialltoallv(c->s, sc, sd, MPI_BYTE, c->r, rcn, rd, MPI_BYTE, comm, &q)
                   : MPI_Alltoallv(c->s, sc, sd, MPI_BYTE, c->r, rcn, rd, MPI_BYTE, comm);
    else
        rc = c->nb ? MPI_Ialltoallw(c->s, sc, sd, ty, c->r, rcn, rd, ty, comm, &q)
                   : MPI_Alltoallw(c->s, sc, sd, ty, c->r, rcn, rd, ty, comm);
    rc = finish(c, rc, &q);
    c->data_ok = 1;
    for (int j = 0; j < size; j++)
        c->data_ok &= bytes_are(c->r + j * rn, rn, j, rank);
    return rc;
}

static int k_alltoall(struct ctx *c, MPI_Comm comm) { return alltoall_form(c, comm, 0); }
static int k_alltoallv(struct ctx *c, MPI_Comm comm) { return alltoall_form(c, comm, 1); }
static int k_alltoallw(struct ctx *c, MPI_Comm comm) { return alltoall_form(c, comm, 2); }

/* The reductions: MPI_SUM of ints, N / 4 of them (the victim's half). */
static int ints_are(const int *got, long n, long first, int lo, int hi)
{
    for (long i = 0; i < n; i++) {
        int e = 0;
        for (int r = lo; r < hi; r++)
            e += ival(r, first + i);
        if (got[i] != e)
            return 0;
    }
    return 1;
}

static void fill_ints(int *b, long n)
{
    for (long i = 0; i < n; i++)
        b[i] = ival(rank, i);
}

static int k_reduce(struct ctx *c, MPI_Comm comm)
{
    int root = size - 1;
    c->victim = root;
    long n = mine(c, c->N) / 4;
    MPI_Request q;
    fill_ints((int *)c->s, n);
    c->given = rank == root ? (size_t)n * 4 : 0;
    int rc = c->nb ? MPI_Ireduce(c->s, c->r, (int)n, MPI_INT, MPI_SUM, root, comm, &q)
                   : MPI_Reduce(c->s, c->r, (int)n, MPI_INT, MPI_SUM, root, comm);
    rc = finish(c, rc, &q);
    c->data_ok = rank != root || ints_are((const int *)c->r, n, 0, 0, size);
    return rc;
}

static int k_allreduce(struct ctx *c, MPI_Comm comm)
{
    long n = mine(c, c->N) / 4;
    MPI_Request q;
    fill_ints((int *)c->s, n);
    c->given = (size_t)n * 4;
    int rc = c->nb ? MPI_Iallreduce(c->s, c->r, (int)n, MPI_INT, MPI_SUM, comm, &q)
                   : MPI_Allreduce(c->s, c->r, (int)n, MPI_INT, MPI_SUM, comm);
    rc = finish(c, rc, &q);
    c->data_ok = ints_are((const int *)c->r, n, 0, 0, size);
    return rc;
}

/* Reduce_scatter_block (block) and Reduce_scatter: N / 4 ints per rank */
static int redscat_form(struct ctx *c, MPI_Comm comm, int block)
{
    long n = mine(c, c->N) / 4;
    int cnt[64];
    MPI_Request q;
    int rc;
    for (int j = 0; j < size; j++)
        cnt[j] = (int)n;
    fill_ints((int *)c->s, n * size);
    c->given = (size_t)n * 4;
    if (block)
        rc = c->nb ? MPI_Ireduce_scatter_block(c->s, c->r, (int)n, MPI_INT, MPI_SUM, comm, &q)
                   : MPI_Reduce_scatter_block(c->s, c->r, (int)n, MPI_INT, MPI_SUM, comm);
    else
        rc = c->nb ? MPI_Ireduce_scatter(c->s, c->r, cnt, MPI_INT, MPI_SUM, comm, &q)
                   : MPI_Reduce_scatter(c->s, c->r, cnt, MPI_INT, MPI_SUM, comm);
    rc = finish(c, rc, &q);
    c->data_ok = ints_are((const int *)c->r, n, n * rank, 0, size);
    return rc;
}

static int k_redscat_block(struct ctx *c, MPI_Comm comm) { return redscat_form(c, comm, 1); }
static int k_redscat(struct ctx *c, MPI_Comm comm) { return redscat_form(c, comm, 0); }

static int scan_form(struct ctx *c, MPI_Comm comm, int inclusive)
{
    long n = mine(c, c->N) / 4;
    MPI_Request q;
    int rc;
    fill_ints((int *)c->s, n);
    c->given = (size_t)n * 4;
    if (inclusive)
        rc = c->nb ? MPI_Iscan(c->s, c->r, (int)n, MPI_INT, MPI_SUM, comm, &q)
                   : MPI_Scan(c->s, c->r, (int)n, MPI_INT, MPI_SUM, comm);
    else
        rc = c->nb ? MPI_Iexscan(c->s, c->r, (int)n, MPI_INT, MPI_SUM, comm, &q)
                   : MPI_Exscan(c->s, c->r, (int)n, MPI_INT, MPI_SUM, comm);
    rc = finish(c, rc, &q);
    c->skip = !inclusive && rank == 0; /* Exscan leaves rank 0's buffer undefined */
    c->data_ok = ints_are((const int *)c->r, n, 0, 0, inclusive ? rank + 1 : rank);
    return rc;
}

static int k_scan(struct ctx *c, MPI_Comm comm) { return scan_form(c, comm, 1); }
static int k_exscan(struct ctx *c, MPI_Comm comm) { return scan_form(c, comm, 0); }

/* Neighbourhood collectives on the ring: in-neighbours left then right;
 * block k of what a rank sends goes to its out-neighbour k (left, right). */
static int nbr_form(struct ctx *c, int form)
{
    long rn = mine(c, c->N);
    int left = (rank - 1 + size) % size, right = (rank + 1) % size;
    int sc[2] = {(int)c->N, (int)c->N}, sd[2] = {0, (int)c->N}, rcn[2] = {(int)rn, (int)rn}, rd[2] = {0, (int)rn};
    MPI_Aint sa[2] = {0, (MPI_Aint)c->N}, ra[2] = {0, (MPI_Aint)rn};
    MPI_Datatype ty[2] = {MPI_BYTE, MPI_BYTE};
    MPI_Request q;
    int rc, gather = form < 2;
    for (int k = 0; k < 2; k++)
        pat_fill(c->s + k * c->N, c->N, rank, gather ? 0 : 2 + k);
    c->given = (size_t)(2 * rn);
    switch (form) {
    case 0:
        rc = c->nb ? MPI_Ineighbor_allgather(c->s, (int)c->N, MPI_BYTE, c->r, (int)rn, MPI_BYTE, ring, &q)
                   : MPI_Neighbor_allgather(c->s, (int)c->N, MPI_BYTE, c->r, (int)rn, MPI_BYTE, ring);
        break;
    case 1:
        rc = c->nb ? MPI_Ineighbor_allgatherv(c->s, (int)c->N, MPI_BYTE, c->r, rcn, rd, MPI_BYTE, ring, &q)
                   : MPI_Neighbor_allgatherv(c->s, (int)c->N, MPI_BYTE, c->r, rcn, rd, MPI_BYTE, ring);
        break;
    case 2:
        rc = c->nb ? MPI_Ineighbor_alltoall(c->s, (int)c->N, MPI_BYTE, c->r, (int)rn, MPI_BYTE, ring, &q)
                   : MPI_Neighbor_alltoall(c->s, (int)c->N, MPI_BYTE, c->r, (int)rn, MPI_BYTE, ring);
        break;
    case 3:
        rc = c->nb ? MPI_Ineighbor_alltoallv(c->s, sc, sd, MPI_BYTE, c->r, rcn, rd, MPI_BYTE, ring, &q)
                   : MPI_Neighbor_alltoallv(c->s, sc, sd, MPI_BYTE, c->r, rcn, rd, MPI_BYTE, ring);
        break;
    default:
        rc = c->nb ? MPI_Ineighbor_alltoallw(c->s, sc, sa, ty, c->r, rcn, ra, ty, ring, &q)
                   : MPI_Neighbor_alltoallw(c->s, sc, sa, ty, c->r, rcn, ra, ty, ring);
        break;
    }
    rc = finish(c, rc, &q);
    if (gather)
        c->data_ok = bytes_are(c->r, rn, left, 0) && bytes_are(c->r + rn, rn, right, 0);
    else
        c->data_ok = bytes_are(c->r, rn, left, 3) && bytes_are(c->r + rn, rn, right, 2);
    return rc;
}

static int k_nbr_allgather(struct ctx *c, MPI_Comm comm) { (void)comm; return nbr_form(c, 0); }
static int k_nbr_allgatherv(struct ctx *c, MPI_Comm comm) { (void)comm; return nbr_form(c, 1); }
static int k_nbr_alltoall(struct ctx *c, MPI_Comm comm) { (void)comm; return nbr_form(c, 2); }
static int k_nbr_alltoallv(struct ctx *c, MPI_Comm comm) { (void)comm; return nbr_form(c, 3); }
static int k_nbr_alltoallw(struct ctx *c, MPI_Comm comm) { (void)comm; return nbr_form(c, 4); }

struct kind {
    const char *name;
    int (*run)(struct ctx *c, MPI_Comm comm);
    int sblocks, rblocks; /* buffer sizes in blocks of N: 0 = the communicator's size */
    int victim;           /* whose buffer is too small: 0 rank 0, 1 the middle rank, 2 the last (the
                           * rooted ones set it themselves) */
};

static const struct kind kinds[] = {
    {"Bcast", k_bcast, 1, 1, 1},
    {"Gather", k_gather, 1, 0, 2},
    {"Gatherv", k_gatherv, 1, 0, 2},
    {"Scatter", k_scatter, 0, 1, 1},
    {"Scatterv", k_scatterv, 0, 1, 1},
    {"Allgather", k_allgather, 1, 0, 0},
    {"Allgatherv", k_allgatherv, 1, 0, 0},
    {"Alltoall", k_alltoall, 0, 0, 0},
    {"Alltoallv", k_alltoallv, 0, 0, 0},
    {"Alltoallw", k_alltoallw, 0, 0, 0},
    {"Reduce", k_reduce, 1, 1, 2},
    {"Allreduce", k_allreduce, 1, 1, 0},
    {"Reduce_scatter_block", k_redscat_block, 0, 1, 0},
    {"Reduce_scatter", k_redscat, 0, 1, 0},
    {"Scan", k_scan, 1, 1, 2},
    {"Exscan", k_exscan, 1, 1, 2},
    {"Neighbor_allgather", k_nbr_allgather, 2, 2, 0},
    {"Neighbor_allgatherv", k_nbr_allgatherv, 2, 2, 0},
    {"Neighbor_alltoall", k_nbr_alltoall, 2, 2, 0},
    {"Neighbor_alltoallv", k_nbr_alltoallv, 2, 2, 0},
    {"Neighbor_alltoallw", k_nbr_alltoallw, 2, 2, 0},
};

/* The nonblocking forms run as schedules of messages, whose algorithm
 * decides the messages from the local count: a Bcast forced through the
 * pipeline cuts the vector in segments of RDMPI_COLL_SEGMENT bytes, so
 * ranks with different counts disagree on their number (documented in
 * collectives/README.md: not detected, it hangs). */
static int undetectable(const struct kind *k, int nb, long N)
{
    const char *alg = getenv("RDMPI_COLL_BCAST"), *seg = getenv("RDMPI_COLL_SEGMENT");
    long segment = seg ? strtol(seg, NULL, 10) * (strchr(seg, 'k') ? 1024 : 1) : 65536;
    return nb && strcmp(k->name, "Bcast") == 0 && alg && strcmp(alg, "pipeline") == 0 && N / 2 > segment;
}

/* The MPI name of the call without "MPI_": Bcast, Ibcast, ... */
static void call_name(const struct kind *k, int nb, char *out, size_t n)
{
    if (nb)
        snprintf(out, n, "I%c%s", tolower((unsigned char)k->name[0]), k->name + 1);
    else
        snprintf(out, n, "%s", k->name);
}

static long first_bad(const unsigned char *b, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (b[i] != CANARY)
            return (long)i;
    return -1;
}

static void one_case(const struct kind *k, int nb, long N)
{
    struct ctx c = {.nb = nb, .N = N, .victim = k->victim == 0 ? 0 : k->victim == 1 ? size / 2 : size - 1};
    size_t sb = (size_t)N * (size_t)(k->sblocks ? k->sblocks : size);
    size_t rb = (size_t)N * (size_t)(k->rblocks ? k->rblocks : size);
    char name[64], call[48];
    call_name(k, nb, call, sizeof call);
    snprintf(name, sizeof name, "%s %ld B", call, N);
    c.s = xmalloc(sb);
    c.r = xmalloc(rb + GUARD);
    for (int use = 1; use <= 2; use++) {
        /* the mismatched call */
        salt = 2 * use;
        c.bad = 1;
        c.skip = 0;
        memset(c.r, CANARY, rb + GUARD);
        int rc = k->run(&c, MPI_COMM_WORLD), e = cls(rc);
        long over = first_bad(c.r + c.given, rb + GUARD - c.given);
        if (rank == c.victim) {
            char msg[MPI_MAX_ERROR_STRING] = "";
            int len = 0;
            if (rc != MPI_SUCCESS)
                MPI_Error_string(rc, msg, &len);
            /* the message names the call (MPI_Wait for a nonblocking one) and the rank */
            char who[96];
            snprintf(who, sizeof who, "MPI_%s on rank %d: ", nb ? "Wait" : k->name, rank);
            int named = strstr(msg, who) != NULL;
            mt_ok(e == MPI_ERR_TRUNCATE && over < 0 && named,
                  "%s use %d, counts mismatched: the rank whose buffer is too small gets MPI_ERR_TRUNCATE "
                  "(a message naming the call and the rank), nothing written past its %zu bytes",
                  name, use, c.given);
            if (e != MPI_ERR_TRUNCATE || over >= 0 || !named)
                printf("# [rank %d] %s: class %d, first byte written past the buffer: %ld, message: %s\n", rank,
                       name, e, over, msg);
        } else {
            int fine = e == MPI_SUCCESS ? c.data_ok || c.skip : e == MPI_ERR_TRUNCATE;
            mt_ok(fine && over < 0,
                  "%s use %d, counts mismatched: another rank gets MPI_SUCCESS with an exact result, or "
                  "MPI_ERR_TRUNCATE; nothing written past its %zu bytes",
                  name, use, c.given);
            if (!fine || over >= 0)
                printf("# [rank %d] %s: class %d, data %s, first byte written past the buffer: %ld\n", rank, name, e,
                       c.data_ok ? "exact" : "wrong", over);
        }
        /* the same collective with matching counts, same buffers */
        salt = 2 * use + 1;
        c.bad = 0;
        c.skip = 0;
        memset(c.r, CANARY, rb + GUARD);
        rc = k->run(&c, MPI_COMM_WORLD);
        over = first_bad(c.r + c.given, rb + GUARD - c.given);
        mt_ok(rc == MPI_SUCCESS && (c.data_ok || c.skip) && over < 0,
              "%s use %d, then with matching counts: exact result", name, use);
        if (!(rc == MPI_SUCCESS && (c.data_ok || c.skip) && over < 0))
            printf("# [rank %d] %s: class %d, data %s, first byte written past the buffer: %ld\n", rank, name,
                   cls(rc), c.data_ok ? "exact" : "wrong", over);
    }
    free(c.s);
    free(c.r);
}

/* Under MPI_ERRORS_ARE_FATAL: the job ends with one message naming the
 * call, the rank and the cause. */
static int fatal(void)
{
    long n = rank == 1 ? 512 * 1024 : 1024 * 1024;
    unsigned char *b = xmalloc((size_t)n + GUARD);
    memset(b, 0, (size_t)n + GUARD);
    MPI_Bcast(b, (int)n, MPI_BYTE, 0, MPI_COMM_WORLD);
    MPI_Barrier(MPI_COMM_WORLD); /* rank 0 waits here to be ended */
    printf("not reached [rank %d]\n", rank);
    free(b);
    MPI_Finalize();
    return 0;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    mt_rank = rank;
    if (argc > 1 && strcmp(argv[1], "fatal") == 0)
        return fatal();
    if (size < 2 || size > 64) {
        printf("# [rank %d] needs 2 to 64 ranks\n", rank);
        MPI_Finalize();
        return mt_done();
    }
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int dims[1] = {size}, periods[1] = {1};
    MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &ring);
    MPI_Comm_set_errhandler(ring, MPI_ERRORS_RETURN);
    const long sizes[] = {8, 4096, 65536, 1 << 20};
    const char *only = argc > 1 ? argv[1] : NULL;
    long only_n = argc > 2 ? atol(argv[2]) : 0;
    int ran = 0;
    for (size_t si = 0; si < sizeof(sizes) / sizeof(sizes[0]); si++) {
        if (only_n && sizes[si] != only_n)
            continue;
        for (size_t ki = 0; ki < sizeof(kinds) / sizeof(kinds[0]); ki++)
            for (int nb = 0; nb < 2; nb++) {
                const struct kind *k = &kinds[ki];
                char full[48];
                call_name(k, nb, full, sizeof full);
                if (only && strcmp(only, full) != 0)
                    continue;
                ran++;
                if (undetectable(k, nb, sizes[si])) {
                    printf("# [rank %d] %s %ld B skipped: the forced pipeline's segments depend on the count\n",
                           rank, full, sizes[si]);
                    continue;
                }
                one_case(k, nb, sizes[si]);
            }
    }
    if (only)
        mt_ok(ran > 0, "%s %ld: a collective and size of this test", only, only_n);
    MPI_Comm_free(&ring);
    MPI_Finalize();
    return mt_done();
}

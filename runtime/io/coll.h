/* coll.h - two-phase collective I/O (runtime/io/PLAN.md 4.3; README.md,
 * "Stage 3"): the pieces of coll.c that need no messages, in coll_plan.c,
 * so that test/unit/iocoll can run a whole two-phase access of simulated
 * ranks in one process.
 *
 * A collective access: every rank has a stream range [s, s + n) (data
 * bytes of its view) whose file bytes lie in [lo, hi). One allgather of
 * those (struct rd_io_acc) lets every rank take the same decisions: two
 * phases or independent access, the aggregators, the file domains (one
 * per aggregator, [bound[j], bound[j+1])) and the rounds (chunks of
 * cb_buffer_size of each domain). In a round, a rank's share of a chunk
 * [a, b) is the one stream range [below(a), below(b)) clipped to its
 * access (a view is monotone); it sends the aggregator that share's file
 * runs, (offset, length) pairs, and (writes) its packed data. */
#ifndef RD_IO_COLL_H
#define RD_IO_COLL_H

#include <stddef.h>
#include <stdint.h>

#include "runtime/io/io_int.h"

/* one rank's access, as the allgather gives it to all */
struct rd_io_acc {
    int64_t lo, hi; /* file bytes [lo, hi); both 0 when n == 0 */
    int64_t s, n;   /* stream bytes [s, s + n) */
    int64_t flags;  /* RD_IO_ACC_* */
};
#define RD_IO_ACC_NOMAP 1 /* the view cannot be sliced by file range (not monotone) */
#define RD_IO_ACC_REP 2   /* a data representation other than native */
#define RD_IO_ACC_FAIL 4  /* this rank failed before the exchange (its class follows) */

/* a chunk's write-back with at most this many covered stretches writes
 * them one by one; more: read-modify-write of the chunk's span */
#define RD_IO_COLL_STRETCHES 16
#define RD_IO_COLL_ALIGN 4096

/* 1: two phases; 0: every rank accesses independently. hint: romio_cb_*
 * (1 enable, -1 disable, 0 automatic: two phases when the ranks' file
 * extents interleave). Atomic mode, a non-native representation or a view
 * that cannot be sliced always go independent. */
int rd_io_coll_decide(const struct rd_io_acc *acc, int p, int hint, int atomic);

/* The aggregators (ranks of the communicator, written to aggr, returned:
 * how many): per node (node[r] of each rank r, -1 unknown: a node of its
 * own), per_node of its ranks (at most all of them), spread over them
 * (local index i*L/k); nodes taken in turn (a node's first aggregator,
 * then each node's second...) so that a cap (cap > 0) keeps them spread. */
int rd_io_coll_aggregators(int p, const int *node, int per_node, int cap, int *aggr);

/* Aggregators per node for an access: the hint's (cb_config_list "*:k",
 * or RDMPI_IO_CB_PER_NODE) when set; automatic (hint 0): 1 for a write, 2
 * for a read (runtime/io/README.md, stage 6: what was measured). */
int rd_io_coll_per_node(int hint, int write);

/* File domains: [lo, hi) cut into na pieces bound[0..na], inner bounds
 * multiples of align (some pieces may be empty). Returns the rounds: the
 * most chunks of cb bytes in any piece. */
int64_t rd_io_coll_domains(int64_t lo, int64_t hi, int na, int64_t align, int64_t cb,
                           int64_t *bound);

/* The chunk of domain [d0, d1) in round r: [*a, *b) (empty: *a == *b). */
static inline void rd_io_coll_chunk(int64_t d0, int64_t d1, int64_t cb, int64_t r, int64_t *a,
                                    int64_t *b)
{
    int64_t x = d0 + r * cb;
    *a = x < d1 ? x : d1;
    *b = x + cb < d1 ? x + cb : d1;
}

/* 1 when access acc may have bytes in [a, b) (its extent meets it) */
static inline int rd_io_coll_meets(const struct rd_io_acc *acc, int64_t a, int64_t b)
{
    return acc->n > 0 && a < b && acc->lo < b && a < acc->hi;
}

/* A list of file runs: n pairs (offset, length) in r[2i], r[2i+1]. */
struct rd_io_runs {
    int64_t *r;
    size_t n, cap;
};
void rd_io_runs_free(struct rd_io_runs *l);

/* A rank's share of chunk [a, b): the stream range [*ss, *ss + *sn) of its
 * access (s, n) that view v maps into it, and its file runs (appended to
 * runs, which is emptied first). MPI_SUCCESS or MPI_ERR_NO_MEM. */
int rd_io_coll_share(const struct rd_io_view *v, int64_t s, int64_t n, int64_t a, int64_t b,
                     int64_t *ss, int64_t *sn, struct rd_io_runs *runs, rd_io_why *why);

/* What an aggregator holds of one rank for one chunk: its runs and its
 * data, packed in run order (writes: what came; reads: where it goes). */
struct rd_io_piece {
    const int64_t *runs;
    size_t nruns;
    char *data;
};

/* How a chunk went to the file (for tests and the README's figures). */
enum rd_io_coll_how {
    RD_IO_COLL_NONE,    /* nothing to do */
    RD_IO_COLL_WHOLE,   /* covered: one call */
    RD_IO_COLL_PIECES,  /* a few stretches: one call each */
    RD_IO_COLL_RMW,     /* many stretches: lock, read, merge, write, unlock (reads: one read) */
};

/* Aggregator, writes: place every piece's data into chunk (the buffer of
 * file bytes [a, b)) and write the covered bytes to fd. *how: which way. */
int rd_io_coll_put(int fd, int64_t a, int64_t b, char *chunk, const struct rd_io_piece *pc,
                   int np, int *how, rd_io_why *why);
/* Aggregator, reads: read the bytes the pieces ask for into chunk and copy
 * each piece's runs to its data. Bytes at or beyond the end of the file
 * read as zeros (the ranks clip their accesses to the end first). */
int rd_io_coll_get(int fd, int64_t a, int64_t b, char *chunk, const struct rd_io_piece *pc,
                   int np, int *how, rd_io_why *why);

#endif

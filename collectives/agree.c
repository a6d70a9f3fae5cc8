/* agree.c - the library's own small exchanges for making communicators
 * (agree.h): a context pair free on every rank, the broadcasts and
 * leader exchanges of intercommunicator creation, an allgather of split
 * colours. They are schedule builders (sched.h) over a communicator's
 * library context (its coll twin): the whole-communicator AND, broadcast
 * and allgather are the collectives' own algorithms (allreduce by
 * recursive doubling with MPI_BAND, binomial bcast, ring allgather); only
 * the AND over a member list (MPI_Comm_create_group, among some ranks of
 * the parent, without the others) is written here. A blocking caller
 * builds one schedule with a fixed tag of comm.h's scheme
 * (rd_sched_new_tagged, so that no collective tag of the communicator is
 * taken: ranks that do not join in, the non-members of
 * MPI_Comm_create_group or the non-leaders on MPI_Intercomm_create's
 * peer_comm, stay in step with the others) and runs it to completion; the
 * nonblocking agreement of MPI_Comm_idup builds the same steps into its
 * own schedule, on a collective tag (runtime/api/comm_idup.c). So there
 * is one agreement, blocking or not. */
#include "collectives/agree.h"

#include <stdlib.h>
#include <string.h>

#include "collectives/algorithms.h"
#include "runtime/base/state.h"

/* tags on the library context; Comm_create_group's own tags are offset
 * past these */
#define RD_TAG_CTX 1
#define RD_TAG_GATHER 2

/* ------------------------------------------------------------ builders */

rd_status rd_agree_and(struct rd_sched *s, MPI_Comm comm, const int *members, int n, int me,
                       uint64_t *map, int count)
{
    if (!members) {
        struct rd_coll_args a = {.comm = comm, .sbuf = MPI_IN_PLACE, .rbuf = map, .count = count,
                                 .dt = MPI_UINT64_T, .op = MPI_BAND};
        return rd_allreduce_recursive_doubling(s, &a);
    }
    if (n == 1)
        return RD_OK;
    uint64_t *theirs = rd_sched_alloc(s, sizeof(uint64_t) * (size_t)count);
    if (!theirs)
        return RD_ERR_NOMEM;
    int p = 1;
    while (p * 2 <= n)
        p *= 2;
    int extra = n - p;
    if (me >= p) {
        /* fold into member me - p, and take the result back from it */
        int peer = members[me - p];
        RD_TRY(rd_sched_send(s, map, count, MPI_UINT64_T, peer));
        RD_TRY(rd_sched_wait(s));
        RD_TRY(rd_sched_recv(s, map, count, MPI_UINT64_T, peer));
        return rd_sched_wait(s);
    }
    if (me < extra) {
        RD_TRY(rd_sched_recv(s, theirs, count, MPI_UINT64_T, members[me + p]));
        RD_TRY(rd_sched_wait(s));
        RD_TRY(rd_sched_reduce(s, theirs, map, count, MPI_UINT64_T, MPI_BAND));
    }
    for (int mask = 1; mask < p; mask <<= 1) {
        int peer = members[me ^ mask];
        RD_TRY(rd_sched_send(s, map, count, MPI_UINT64_T, peer));
        RD_TRY(rd_sched_recv(s, theirs, count, MPI_UINT64_T, peer));
        RD_TRY(rd_sched_wait(s));
        RD_TRY(rd_sched_reduce(s, theirs, map, count, MPI_UINT64_T, MPI_BAND));
    }
    if (me < extra) {
        RD_TRY(rd_sched_send(s, map, count, MPI_UINT64_T, members[me + p]));
        RD_TRY(rd_sched_wait(s));
    }
    return RD_OK;
}

rd_status rd_agree_bcast(struct rd_sched *s, MPI_Comm comm, int root, void *buf, size_t bytes)
{
    struct rd_coll_args a = {.comm = comm, .rbuf = buf, .count = (int)bytes, .dt = MPI_BYTE,
                             .root = root};
    return rd_bcast_binomial(s, &a);
}

rd_status rd_agree_allgather(struct rd_sched *s, MPI_Comm comm, const void *mine, size_t bytes,
                             void *all)
{
    struct rd_coll_args a = {.comm = comm, .sbuf = mine, .scount = (int)bytes, .sdt = MPI_BYTE,
                             .rbuf = all, .rcount = (int)bytes, .rdt = MPI_BYTE};
    return rd_allgather_ring(s, &a);
}

rd_status rd_agree_leader(struct rd_sched *s, MPI_Comm group, int leader, MPI_Comm bridge, int rleader,
                          int btag, const void *mine, size_t mine_bytes, void *theirs,
                          size_t theirs_bytes)
{
    if (group->rank == leader) {
        MPI_Comm lib = s->cur;
        int tag = s->curtag;
        rd_sched_on_tag(s, bridge->coll, btag);
        RD_TRY(rd_sched_send(s, mine, (int)mine_bytes, MPI_BYTE, rleader));
        RD_TRY(rd_sched_recv(s, theirs, (int)theirs_bytes, MPI_BYTE, rleader));
        RD_TRY(rd_sched_wait(s));
        rd_sched_on_tag(s, lib, tag);
    }
    return rd_agree_bcast(s, group, leader, theirs, theirs_bytes);
}

/* ------------------------------------------------------------ blocking */

static rd_status from_mpi(int err)
{
    switch (err) {
    case MPI_SUCCESS: return RD_OK;
    case MPI_ERR_NO_MEM: return RD_ERR_NOMEM;
    case MPI_ERR_TRUNCATE: return RD_ERR_TRUNCATE;
    case MPI_ERR_OTHER: return RD_ERR_PEER;
    default: return RD_ERR_INTERNAL;
    }
}

/* What a blocking exchange builds (comm: the schedule's communicator). */
struct job {
    int kind;
    MPI_Comm comm, bridge;
    const int *members;
    int n, me, root, peer, src, btag;
    const void *sb;
    void *rb;
    size_t sn, rn;
};
enum { J_AND = 1, J_BCAST, J_GATHER, J_LEADER, J_SENDRECV };

static rd_status build(struct rd_sched *s, const struct job *j)
{
    switch (j->kind) {
    case J_AND:
        return rd_agree_and(s, j->comm, j->members, j->n, j->me, j->rb, RD_CTX_WORDS);
    case J_BCAST:
        return rd_agree_bcast(s, j->comm, j->root, j->rb, j->rn);
    case J_GATHER:
        return rd_agree_allgather(s, j->comm, j->sb, j->sn, j->rb);
    case J_LEADER:
        return rd_agree_leader(s, j->comm, j->root, j->bridge, j->peer, j->btag, j->sb, j->sn, j->rb, j->rn);
    case J_SENDRECV:
        if (j->src >= 0)
            RD_TRY(rd_sched_recv(s, j->rb, (int)j->rn, MPI_BYTE, j->src));
        if (j->peer >= 0)
            RD_TRY(rd_sched_send(s, j->sb, (int)j->sn, MPI_BYTE, j->peer));
        return rd_sched_wait(s);
    }
    return RD_ERR_INTERNAL;
}

/* Build the exchange into a schedule with tag `tag` on comm's library
 * context and run it to completion. */
static rd_status run(const struct job *j, int tag)
{
    RD_LOCK();
    struct rd_sched *s = rd_sched_new_tagged(j->comm, tag);
    rd_status st = s ? build(s, j) : RD_ERR_NOMEM;
    if (st == RD_OK)
        st = from_mpi(rd_sched_run(s));
    else if (s)
        rd_sched_discard(s);
    RD_UNLOCK();
    return st;
}

rd_status rd_comm_sendrecv(MPI_Comm c, const void *sb, size_t sn, int dst, void *rb, size_t rn, int src,
                           int tag)
{
    struct job j = {.kind = J_SENDRECV, .comm = c, .sb = sb, .sn = sn, .peer = dst, .rb = rb, .rn = rn,
                    .src = src};
    return run(&j, tag);
}

/* The k-th free pair of map, k from a hash of (parent's context, tag,
 * round) below min(free pairs, 16): after a clash, two agreements that
 * clashed most likely pick apart (every member computes the same). */
rd_status rd_comm_spread_ctx(const uint64_t *map, uint32_t seed, uint32_t *ctx)
{
    int nfree = 0;
    for (int i = 0; i < RD_CTX_WORDS; i++)
        nfree += __builtin_popcountll(map[i]);
    if (nfree == 0)
        return RD_ERR_NOMEM;
    seed = (seed ^ (seed >> 16)) * 0x45d9f3bu;
    int k = (int)((seed ^ (seed >> 16)) % (uint32_t)(nfree < 16 ? nfree : 16));
    for (int i = 0; i < RD_CTX_WORDS; i++)
        for (uint64_t w = map[i]; w; w &= w - 1)
            if (k-- == 0) {
                *ctx = (uint32_t)(2 * (i * 64 + __builtin_ctzll(w)));
                return RD_OK;
            }
    return RD_ERR_NOMEM;
}

/* The members AND their offers and take the lowest common pair. Another
 * blocking agreement running at once on another thread of some member may
 * take the same pair there (its offer was made before either finished), so
 * when any member runs threads (its offer's top bit, a pair offers never
 * hold: rd_comm_ctx_offer keeps the highest free ones back) each member
 * claims the pick (rd_comm_ctx_claim) and the members AND the claims: all
 * held, it is theirs; else the holders give it back and they agree again,
 * picking apart (rd_comm_spread_ctx). */
rd_status rd_comm_agree_ctx_among(MPI_Comm parent, const int *members, int n, int me, int tag,
                                  uint32_t *ctx)
{
    for (uint32_t round = 0;; round++) {
        uint64_t map[RD_CTX_WORDS];
        rd_comm_ctx_offer(map);
        map[RD_CTX_WORDS - 1] &= ~RD_CTX_THREADED_BIT;
        if (!rd_threaded) /* (AND: set on every member only if none runs threads) */
            map[RD_CTX_WORDS - 1] |= RD_CTX_THREADED_BIT;
        struct job j = {.kind = J_AND, .comm = parent, .members = members, .n = n, .me = me, .rb = map};
        rd_status st = run(&j, tag);
        if (st != RD_OK)
            return st;
        int single = rd_ctx_map_single(map);
        uint32_t pick;
        st = round == 0 ? rd_comm_lowest_ctx(map, UINT32_MAX, &pick)
                        : rd_comm_spread_ctx(map, parent->ctx * 2654435761u ^ (uint32_t)tag ^ round * 40503u, &pick);
        if (st != RD_OK || single) {
            if (st == RD_OK)
                *ctx = pick;
            return st;
        }
        int held = rd_comm_ctx_claim(pick);
        uint64_t all[RD_CTX_WORDS];
        memset(all, held ? 0xff : 0, sizeof(all));
        struct job k = {.kind = J_AND, .comm = parent, .members = members, .n = n, .me = me, .rb = all};
        st = run(&k, tag);
        if (st == RD_OK && all[0]) {
            *ctx = pick;
            return RD_OK;
        }
        if (held)
            rd_comm_ctx_unclaim(pick);
        if (st != RD_OK)
            return st;
    }
}

rd_status rd_comm_free_map(MPI_Comm comm, uint64_t *map)
{
    rd_comm_ctx_offer(map);
    map[RD_CTX_WORDS - 1] &= ~RD_CTX_THREADED_BIT;
    if (!rd_threaded)
        map[RD_CTX_WORDS - 1] |= RD_CTX_THREADED_BIT;
    return rd_comm_and(comm, map);
}

rd_status rd_comm_and(MPI_Comm comm, uint64_t *map)
{
    struct job j = {.kind = J_AND, .comm = comm, .n = comm->size, .me = comm->rank, .rb = map};
    return run(&j, RD_TAG_CTX);
}

rd_status rd_comm_bcast(MPI_Comm comm, int root, void *buf, size_t bytes)
{
    struct job j = {.kind = J_BCAST, .comm = comm, .root = root, .rb = buf, .rn = bytes};
    return run(&j, RD_TAG_BCAST);
}

rd_status rd_comm_leader_exchange(MPI_Comm group, int leader, MPI_Comm bridge, int rleader, int tag,
                                  const void *mine, size_t mine_bytes, void *theirs,
                                  size_t theirs_bytes)
{
    struct job j = {.kind = J_LEADER, .comm = group, .root = leader, .bridge = bridge, .peer = rleader,
                    .btag = tag, .sb = mine, .sn = mine_bytes, .rb = theirs, .rn = theirs_bytes};
    return run(&j, RD_TAG_BCAST);
}

/* The same seed on every rank of both groups: from the map they share,
 * the agreement's salt and the round. */
static uint32_t map_seed(const uint64_t *map, uint32_t salt, uint32_t round)
{
    uint64_t h = (1469598103934665603ull ^ salt) * 1099511628211ull ^ round;
    for (int i = 0; i < RD_CTX_WORDS; i++)
        h = (h ^ map[i]) * 1099511628211ull;
    return (uint32_t)(h ^ (h >> 32));
}

rd_status rd_comm_agree_ctx_inter(MPI_Comm group, int leader, MPI_Comm bridge, int rleader, int btag,
                                  uint32_t salt, uint32_t *ctx, uint32_t *lctx)
{
    enum { N = RD_CTX_WORDS };
    for (uint32_t round = 0;; round++) {
        uint64_t local[N], theirs[N], both[N];
        rd_status st = rd_comm_free_map(group, local);
        if (st == RD_OK)
            st = rd_comm_leader_exchange(group, leader, bridge, rleader, btag, local, sizeof(local), theirs,
                                         sizeof(theirs));
        if (st != RD_OK)
            return st;
        for (int i = 0; i < N; i++)
            both[i] = local[i] & theirs[i];
        int single = rd_ctx_map_single(both); /* (no rank of either group runs threads) */
        (void)rd_ctx_map_single(local);
        /* the pair of both groups, then the local group's apart from it */
        rd_status pst = round == 0 ? rd_comm_lowest_ctx(both, UINT32_MAX, ctx)
                                   : rd_comm_spread_ctx(both, map_seed(both, salt, round), ctx);
        if (pst == RD_OK && lctx) { /* (the local map differs by group: so may its outcome) */
            local[*ctx / 2 / 64] &= ~(1ULL << (*ctx / 2 % 64));
            pst = round == 0 ? rd_comm_lowest_ctx(local, *ctx, lctx)
                             : rd_comm_spread_ctx(local, map_seed(local, salt, round), lctx);
        }
        /* every rank of both groups learns whether all picked (one group
         * out of pairs fails both), and, when some rank runs threads,
         * claims the picks, all of which must hold them */
        int held = 0, lheld = 0;
        if (pst == RD_OK && !single) {
            held = rd_comm_ctx_claim(*ctx);
            lheld = held && lctx ? rd_comm_ctx_claim(*lctx) : 0;
        }
        int ok = pst == RD_OK && (single || (held && (!lctx || lheld)));
        uint64_t all[N], theirs_all[N];
        memset(all, 0, sizeof(all));
        all[0] = (ok ? 1u : 0u) | (pst == RD_OK ? 2u : 0u); /* (ANDed: 1 all held, 2 all picked) */
        st = rd_comm_and(group, all);
        if (st == RD_OK)
            st = rd_comm_leader_exchange(group, leader, bridge, rleader, btag, all, sizeof(all), theirs_all,
                                         sizeof(theirs_all));
        if (st == RD_OK && (all[0] & theirs_all[0] & 1u))
            return RD_OK;
        if (held)
            rd_comm_ctx_unclaim(*ctx);
        if (lheld)
            rd_comm_ctx_unclaim(*lctx);
        if (st != RD_OK)
            return st;
        if (!(all[0] & theirs_all[0] & 2u))
            return RD_ERR_NOMEM; /* some rank of either group has no pair left */
    }
}

rd_status rd_comm_agree_ctx(MPI_Comm parent, uint32_t *ctx)
{
    return rd_comm_agree_ctx_among(parent, NULL, parent->size, parent->rank, RD_TAG_CTX, ctx);
}

rd_status rd_comm_allgather(MPI_Comm comm, const void *mine, size_t bytes, void *all)
{
    struct job j = {.kind = J_GATHER, .comm = comm, .sb = mine, .sn = bytes, .rb = all};
    return run(&j, RD_TAG_GATHER);
}

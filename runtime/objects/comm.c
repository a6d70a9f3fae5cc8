/* comm.c - communicators (comm.h): creation, context ids, release. */
#include "runtime/objects/comm.h"

#include <stdlib.h>
#include <string.h>

#include "runtime/objects/errhandler.h"
#include "runtime/base/job.h"
#include "runtime/base/nodemem.h"
#include "runtime/p2p/p2p.h"
#include "runtime/p2p/request.h"

/* Usable before MPI_Init so that errors found then reach a handler. */
static int rd_self_world_rank[1];
static struct rd_comm_s rd_comm_world_coll, rd_comm_self_coll;

struct rd_comm_s rd_mpi_comm_world = {
    .magic = RD_COMM_MAGIC, .rank = 0, .size = 1, .ctx = RD_CTX_WORLD, .remote_size = 1,
    .errh = MPI_ERRORS_ARE_FATAL, .coll = &rd_comm_world_coll, .predefined = 1, .name = "MPI_COMM_WORLD"};
struct rd_comm_s rd_mpi_comm_self = {
    .magic = RD_COMM_MAGIC, .rank = 0, .size = 1, .ctx = RD_CTX_SELF,
    .world_ranks = rd_self_world_rank, .remote_size = 1, .remote_world_ranks = rd_self_world_rank,
    .errh = MPI_ERRORS_ARE_FATAL, .coll = &rd_comm_self_coll,
    .predefined = 1, .name = "MPI_COMM_SELF"};

/* Context pairs in use here: bit k stands for contexts 2k and 2k + 1. */
#define RD_CTX_PAIRS 4096
static uint64_t rd_ctx_used[RD_CTX_PAIRS / 64];
/* Pairs offered by this rank to nonblocking agreements still running
 * (MPI_Comm_idup): no other agreement may offer them meanwhile. */
static uint64_t rd_ctx_reserved[RD_CTX_PAIRS / 64];
/* Pairs offered by the blocking agreements of the communicator-creating
 * calls in progress here (rd_comm_creating), and how deep they nest. */
static uint64_t rd_ctx_blocking[RD_CTX_PAIRS / 64];
static int rd_ctx_creating;
_Static_assert(RD_CTX_PAIRS / 64 == RD_CTX_WORDS, "RD_CTX_WORDS is the size of the pair bitmap");

static void twin(struct rd_comm_s *c, struct rd_comm_s *t)
{
    *t = *c;
    t->ctx = c->ctx + 1;
    t->coll = NULL;
    t->errh = MPI_ERRORS_RETURN;
    t->predefined = 1; /* lives and dies with c */
}

void rd_comm_init_predefined(void)
{
    rd_mpi_comm_world.rank = rd_job.rank;
    rd_mpi_comm_world.size = rd_job.size;
    rd_mpi_comm_world.remote_size = rd_job.size;
    rd_mpi_comm_world.errh = MPI_ERRORS_ARE_FATAL;
    rd_self_world_rank[0] = rd_job.rank;
    rd_mpi_comm_self.rank = 0;
    rd_mpi_comm_self.size = 1;
    rd_mpi_comm_self.errh = MPI_ERRORS_ARE_FATAL;
    twin(&rd_mpi_comm_world, &rd_comm_world_coll);
    twin(&rd_mpi_comm_self, &rd_comm_self_coll);
    memset(rd_ctx_used, 0, sizeof(rd_ctx_used));
    rd_ctx_used[0] = 3; /* pairs 0 (world) and 1 (self) */
}

void rd_comm_fini(void)
{
    free(rd_mpi_comm_world.node_known);
    free(rd_mpi_comm_self.node_known);
    rd_coll_hier_free(&rd_mpi_comm_world);
    rd_coll_hier_free(&rd_mpi_comm_self);
    rd_mpi_comm_world.node_known = rd_mpi_comm_self.node_known = NULL;
    rd_mpi_comm_world.node_slot = rd_mpi_comm_self.node_slot = 0;
    rd_mpi_comm_world.node_seq = rd_mpi_comm_self.node_seq = 0;
    memset(rd_ctx_used, 0, sizeof(rd_ctx_used));
    memset(rd_ctx_reserved, 0, sizeof(rd_ctx_reserved));
    memset(rd_ctx_blocking, 0, sizeof(rd_ctx_blocking));
    rd_ctx_creating = 0;
}

rd_status rd_comm_new(int rank, int size, int *world_ranks, uint32_t ctx, MPI_Comm *out)
{
    struct rd_comm_s *c = calloc(1, sizeof(*c));
    struct rd_comm_s *t = calloc(1, sizeof(*t));
    if (!c || !t) {
        free(c);
        free(t);
        return RD_ERR_NOMEM;
    }
    c->magic = RD_COMM_MAGIC;
    c->rank = rank;
    c->size = size;
    c->ctx = ctx;
    c->world_ranks = world_ranks;
    c->remote_size = size;
    c->remote_world_ranks = world_ranks;
    c->errh = MPI_ERRORS_ARE_FATAL;
    c->coll = t;
    atomic_init(&c->refs, 1);
    twin(c, t);
    if (ctx != RD_CTX_PENDING)
        rd_ctx_used[ctx / 2 / 64] |= 1ULL << (ctx / 2 % 64);
    *out = c;
    return RD_OK;
}

rd_status rd_comm_new_inter(int rank, int size, int *world_ranks, int remote_size,
                            int *remote_world_ranks, uint32_t ctx, MPI_Comm local, MPI_Comm *out)
{
    rd_status st = rd_comm_new(rank, size, world_ranks, ctx, out);
    if (st != RD_OK)
        return st;
    struct rd_comm_s *c = *out;
    c->remote_size = remote_size;
    c->remote_world_ranks = remote_world_ranks;
    c->is_inter = 1;
    c->local = local;
    twin(c, c->coll); /* the library twin talks to the remote group too */
    return RD_OK;
}

void rd_comm_release(MPI_Comm comm)
{
    if (comm->predefined || atomic_fetch_sub_explicit(&comm->refs, 1, memory_order_acq_rel) != 1)
        return;
    if (comm->ctx != RD_CTX_PENDING)
        rd_ctx_used[comm->ctx / 2 / 64] &= ~(1ULL << (comm->ctx / 2 % 64));
    rd_errh_release(comm->errh);
    rd_topo_free(comm);
    if (comm->node_slot > 0)
        rd_node_slot_release(comm->node_slot - 1, comm->size);
    free(comm->node_known);
    rd_coll_hier_free(comm);
    comm->magic = 0;
    comm->coll->magic = 0;
    free(comm->coll);
    if (comm->is_inter) {
        free(comm->remote_world_ranks);
        rd_comm_release(comm->local);
    }
    free(comm->world_ranks);
    free(comm);
}

/* One blocking exchange with two peers on comm's library context. */
rd_status rd_comm_sendrecv(MPI_Comm c, const void *sb, size_t sn, int dst, void *rb, size_t rn, int src,
                          int tag)
{
    rd_status st = RD_OK;
    struct rd_request_s *r = NULL, *s = NULL;
    RD_LOCK();
    if (src >= 0) {
        r = rd_req_new(RD_REQ_RECV, 0, rb, (int)rn, MPI_BYTE, src, tag, c->coll);
        st = r ? rd_p2p_start_recv(r) : RD_ERR_NOMEM;
    }
    if (st == RD_OK && dst >= 0) {
        s = rd_req_new(RD_REQ_SEND, RD_MODE_STANDARD, sb, (int)sn, MPI_BYTE, dst, tag, c->coll);
        st = s ? rd_p2p_start_send(s) : RD_ERR_NOMEM;
    }
    if (st == RD_OK && s)
        rd_req_wait(s);
    if (st == RD_OK && r)
        rd_req_wait(r);
    if (s)
        rd_req_release(s);
    if (r)
        rd_req_release(r);
    RD_UNLOCK();
    return st;
}

/* tags on the library context; Comm_create_group's own tags are offset
 * past these */
#define RD_TAG_CTX 1
#define RD_TAG_GATHER 2

/* The AND of the free maps of the members (parent ranks members[0..n-1],
 * this rank being members[me]) into mine, by recursive doubling; the
 * members beyond the largest power of two fold into the first ones and
 * back. */
static rd_status and_free_maps(MPI_Comm parent, const int *members, int n, int me, int tag,
                               uint64_t *mine)
{
    enum { N = RD_CTX_PAIRS / 64 };
    uint64_t theirs[N];
    int p = 1;
    rd_status st = RD_OK;
#define RD_MEMBER(i) (members ? members[i] : (i))
    RD_LOCK();
    for (int i = 0; i < N; i++)
        mine[i] = ~(rd_ctx_used[i] | rd_ctx_reserved[i]);
    /* the highest free pairs are left to nonblocking agreements, which
     * may need them meanwhile (rd_comm_creating) */
    for (int i = N - 1, k = 0; i >= 0 && k < RD_CTX_NB_KEEP; i--)
        while (mine[i] && k < RD_CTX_NB_KEEP) {
            mine[i] &= ~(1ULL << (63 - __builtin_clzll(mine[i])));
            k++;
        }
    for (int i = 0; i < N; i++)
        rd_ctx_blocking[i] |= mine[i];
    RD_UNLOCK();
    while (p * 2 <= n)
        p *= 2;
    int extra = n - p;
    size_t bytes = N * sizeof(uint64_t);
    if (me >= p) {
        int peer = RD_MEMBER(me - p);
        st = rd_comm_sendrecv(parent, mine, bytes, peer, mine, bytes, peer, tag);
    } else {
        if (me < extra) {
            st = rd_comm_sendrecv(parent, NULL, 0, -1, theirs, bytes, RD_MEMBER(me + p), tag);
            for (int i = 0; i < N; i++)
                mine[i] &= theirs[i];
        }
        for (int mask = 1; st == RD_OK && mask < p; mask <<= 1) {
            int peer = RD_MEMBER(me ^ mask);
            st = rd_comm_sendrecv(parent, mine, bytes, peer, theirs, bytes, peer, tag);
            for (int i = 0; i < N; i++)
                mine[i] &= theirs[i];
        }
        if (st == RD_OK && me < extra)
            st = rd_comm_sendrecv(parent, mine, bytes, RD_MEMBER(me + p), NULL, 0, -1, tag);
    }
#undef RD_MEMBER
    return st;
}

rd_status rd_comm_lowest_ctx(const uint64_t *map, uint32_t except, uint32_t *ctx)
{
    for (int i = 0; i < RD_CTX_PAIRS / 64; i++) {
        uint64_t w = map[i];
        if (except != UINT32_MAX && except / 2 / 64 == (uint32_t)i)
            w &= ~(1ULL << (except / 2 % 64));
        if (w) {
            *ctx = (uint32_t)(2 * (i * 64 + __builtin_ctzll(w)));
            return RD_OK;
        }
    }
    return RD_ERR_NOMEM; /* every context pair is in use */
}

rd_status rd_comm_agree_ctx_among(MPI_Comm parent, const int *members, int n, int me, int tag,
                                  uint32_t *ctx)
{
    uint64_t map[RD_CTX_PAIRS / 64];
    rd_status st = and_free_maps(parent, members, n, me, tag, map);
    return st != RD_OK ? st : rd_comm_lowest_ctx(map, UINT32_MAX, ctx);
}

rd_status rd_comm_free_map(MPI_Comm comm, uint64_t *map)
{
    return and_free_maps(comm, NULL, comm->size, comm->rank, RD_TAG_CTX, map);
}

rd_status rd_comm_bcast(MPI_Comm comm, int root, void *buf, size_t bytes)
{
    /* binomial tree on ranks relative to root: receive from the parent,
     * then send to the children, largest subtree first */
    int n = comm->size, rel = (comm->rank - root + n) % n, mask = 1;
    rd_status st = RD_OK;
    while (mask < n) {
        if (rel & mask) {
            st = rd_comm_sendrecv(comm, NULL, 0, -1, buf, bytes, (rel - mask + root) % n, RD_TAG_BCAST);
            break;
        }
        mask <<= 1;
    }
    for (mask >>= 1; st == RD_OK && mask > 0; mask >>= 1)
        if (rel + mask < n)
            st = rd_comm_sendrecv(comm, buf, bytes, (rel + mask + root) % n, NULL, 0, -1, RD_TAG_BCAST);
    return st;
}

rd_status rd_comm_leader_exchange(MPI_Comm group, int leader, MPI_Comm bridge, int rleader, int tag,
                                  const void *mine, size_t mine_bytes, void *theirs,
                                  size_t theirs_bytes)
{
    if (group->rank == leader) {
        rd_status st = rd_comm_sendrecv(bridge, mine, mine_bytes, rleader, theirs, theirs_bytes, rleader, tag);
        if (st != RD_OK)
            return st;
    }
    return rd_comm_bcast(group, leader, theirs, theirs_bytes);
}

rd_status rd_comm_inter_free_maps(MPI_Comm inter, uint64_t *both, uint64_t *local_only)
{
    enum { N = RD_CTX_PAIRS / 64 };
    uint64_t theirs[N];
    rd_status st = rd_comm_free_map(inter->local, local_only);
    if (st == RD_OK)
        st = rd_comm_leader_exchange(inter->local, 0, inter, 0, RD_TAG_INTER, local_only,
                                     sizeof(theirs), theirs, sizeof(theirs));
    for (int i = 0; st == RD_OK && i < N; i++)
        both[i] = local_only[i] & theirs[i];
    return st;
}

rd_status rd_comm_agree_ctx(MPI_Comm parent, uint32_t *ctx)
{
    return rd_comm_agree_ctx_among(parent, NULL, parent->size, parent->rank, RD_TAG_CTX, ctx);
}

rd_status rd_comm_allgather(MPI_Comm comm, const void *mine, size_t bytes, void *all)
{
    /* a ring: n - 1 steps, each passing one block to the right */
    int n = comm->size, me = comm->rank;
    char *out = all;
    memcpy(out + (size_t)me * bytes, mine, bytes);
    for (int step = 1; step < n; step++) {
        int sblock = (me - step + 1 + n) % n, rblock = (me - step + n) % n;
        rd_status st = rd_comm_sendrecv(comm, out + (size_t)sblock * bytes, bytes, (me + 1) % n,
                                out + (size_t)rblock * bytes, bytes, (me - 1 + n) % n, RD_TAG_GATHER);
        if (st != RD_OK)
            return st;
    }
    return RD_OK;
}

uint64_t rd_comm_ctx_reserve(uint64_t win[RD_CTX_WORDS], int n)
{
    int k = 0, any = 0, withheld = 0;
    for (int i = 0; i < RD_CTX_WORDS; i++) {
        uint64_t unused = ~rd_ctx_used[i], free_ = unused & ~(rd_ctx_reserved[i] | rd_ctx_blocking[i]);
        any |= unused != 0;
        withheld |= free_ != unused;
        win[i] = 0;
        while (free_ && k < n) {
            uint64_t bit = free_ & -free_;
            win[i] |= bit;
            free_ &= free_ - 1;
            k++;
        }
        withheld |= free_ != 0; /* beyond the window */
        rd_ctx_reserved[i] |= win[i];
    }
    return (k > 0 ? RD_CTX_F_OFFERED : 0) | (any ? RD_CTX_F_FREE : 0) | (withheld ? 0 : RD_CTX_F_ALL);
}

void rd_comm_creating(int enter)
{
    RD_LOCK();
    if (enter)
        rd_ctx_creating++;
    else if (--rd_ctx_creating == 0)
        memset(rd_ctx_blocking, 0, sizeof(rd_ctx_blocking));
    RD_UNLOCK();
}

void rd_comm_ctx_unreserve(const uint64_t win[RD_CTX_WORDS])
{
    for (int i = 0; i < RD_CTX_WORDS; i++)
        rd_ctx_reserved[i] &= ~win[i];
}

void rd_comm_set_ctx(MPI_Comm comm, uint32_t ctx)
{
    comm->ctx = ctx;
    comm->coll->ctx = ctx + 1;
    rd_ctx_used[ctx / 2 / 64] |= 1ULL << (ctx / 2 % 64);
}

void rd_comm_inherit(MPI_Comm parent, MPI_Comm c)
{
    c->errh = parent->errh;
    rd_errh_retain(c->errh);
}

int *rd_comm_world_ranks_copy(MPI_Comm comm)
{
    int *w = malloc(sizeof(int) * (size_t)(comm->size ? comm->size : 1));
    for (int i = 0; w && i < comm->size; i++)
        w[i] = rd_comm_world_rank(comm, i);
    return w;
}

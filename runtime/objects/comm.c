/* comm.c - communicators (comm.h): creation, the context-id bitmaps,
 * release. The agreements on context ids, which need messages, are in
 * collectives/agree.c. */
#include "runtime/objects/comm.h"

#include <stdlib.h>
#include <string.h>

#include "runtime/base/job.h"
#include "runtime/base/nodemem.h"
#include "runtime/base/state.h"
#include "runtime/objects/errhandler.h"
#include "runtime/objects/session.h"
#include "runtime/objects/fhandle.h"

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
/* Pairs that a blocking agreement of this process picked and is
 * confirming with its peers (rd_comm_ctx_claim), so that another one
 * running at once on another thread does not take them too; cleared with
 * rd_ctx_blocking when no blocking creation is left (rd_comm_creating). */
static uint64_t rd_ctx_claimed[RD_CTX_PAIRS / 64];
static int rd_ctx_creating;
_Static_assert(RD_CTX_PAIRS / 64 == RD_CTX_WORDS, "RD_CTX_WORDS is the size of the pair bitmap");

/* What the floors above keep on a communicator (a topology, the node
 * hierarchy of the collectives) is freed by the hooks they register. */
static rd_comm_hook rd_comm_hooks[4];
static int rd_comm_nhooks;

void rd_comm_on_free(rd_comm_hook fn)
{
    for (int i = 0; i < rd_comm_nhooks; i++)
        if (rd_comm_hooks[i] == fn)
            return;
    if (rd_comm_nhooks == (int)(sizeof(rd_comm_hooks) / sizeof(rd_comm_hooks[0])))
        abort(); /* a floor added a hook without making room for it */
    rd_comm_hooks[rd_comm_nhooks++] = fn;
}

static void twin(struct rd_comm_s *c, struct rd_comm_s *t)
{
    *t = *c;
    t->ctx = c->ctx + 1;
    t->coll = NULL;
    t->errh = MPI_ERRORS_RETURN;
    t->predefined = 1; /* lives and dies with c */
    atomic_store(&t->fidx, 0);
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
    for (int i = 0; i < rd_comm_nhooks; i++) {
        rd_comm_hooks[i](&rd_mpi_comm_world);
        rd_comm_hooks[i](&rd_mpi_comm_self);
    }
    rd_mpi_comm_world.node_known = rd_mpi_comm_self.node_known = NULL;
    rd_mpi_comm_world.node_slot = rd_mpi_comm_self.node_slot = 0;
    rd_mpi_comm_world.node_seq = rd_mpi_comm_self.node_seq = 0;
    memset(rd_ctx_used, 0, sizeof(rd_ctx_used));
    memset(rd_ctx_reserved, 0, sizeof(rd_ctx_reserved));
    memset(rd_ctx_blocking, 0, sizeof(rd_ctx_blocking));
    memset(rd_ctx_claimed, 0, sizeof(rd_ctx_claimed));
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
    if (ctx != RD_CTX_PENDING) /* (atomic: creations on other threads set bits of the same word) */
        __atomic_fetch_or(&rd_ctx_used[ctx / 2 / 64], 1ULL << (ctx / 2 % 64), __ATOMIC_RELAXED);
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
        __atomic_fetch_and(&rd_ctx_used[comm->ctx / 2 / 64], ~(1ULL << (comm->ctx / 2 % 64)), __ATOMIC_RELAXED);
    rd_errh_release(comm->errh);
    for (int i = 0; i < rd_comm_nhooks; i++)
        rd_comm_hooks[i](comm);
    rd_session_release(comm->session);
    if (comm->node_slot > 0)
        rd_node_slot_release(comm->node_slot - 1, comm->size);
    free(comm->node_known);
    comm->magic = 0;
    comm->coll->magic = 0;
    free(comm->coll);
    if (comm->is_inter) {
        free(comm->remote_world_ranks);
        rd_comm_release(comm->local);
    }
    free(comm->world_ranks);
    free(comm->split_value);
    rd_fh_drop(RD_FH_COMM, &comm->fidx);
    free(comm);
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

uint64_t rd_comm_ctx_reserve(uint64_t win[RD_CTX_WORDS], int n)
{
    int k = 0, any = 0, withheld = 0;
    for (int i = 0; i < RD_CTX_WORDS; i++) {
        uint64_t unused = ~rd_ctx_used[i],
                 free_ = unused & ~(rd_ctx_reserved[i] | rd_ctx_blocking[i] | rd_ctx_claimed[i]);
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

void rd_comm_ctx_offer(uint64_t mine[RD_CTX_WORDS])
{
    enum { N = RD_CTX_WORDS };
    RD_LOCK();
    for (int i = 0; i < N; i++)
        mine[i] = ~(rd_ctx_used[i] | rd_ctx_reserved[i] | rd_ctx_claimed[i]);
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
}

void rd_comm_creating(int enter)
{
    RD_LOCK();
    if (enter)
        rd_ctx_creating++;
    else if (--rd_ctx_creating == 0) {
        memset(rd_ctx_blocking, 0, sizeof(rd_ctx_blocking));
        memset(rd_ctx_claimed, 0, sizeof(rd_ctx_claimed));
    }
    RD_UNLOCK();
}

int rd_comm_ctx_claim(uint32_t ctx)
{
    uint64_t bit = 1ULL << (ctx / 2 % 64);
    int i = (int)(ctx / 2 / 64), ok;
    RD_LOCK();
    ok = !((rd_ctx_used[i] | rd_ctx_reserved[i] | rd_ctx_claimed[i]) & bit);
    if (ok)
        rd_ctx_claimed[i] |= bit;
    RD_UNLOCK();
    return ok;
}

void rd_comm_ctx_unclaim(uint32_t ctx)
{
    RD_LOCK();
    rd_ctx_claimed[ctx / 2 / 64] &= ~(1ULL << (ctx / 2 % 64));
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
    __atomic_fetch_or(&rd_ctx_used[ctx / 2 / 64], 1ULL << (ctx / 2 % 64), __ATOMIC_RELAXED);
}

void rd_comm_inherit(MPI_Comm parent, MPI_Comm c)
{
    c->errh = parent->errh;
    rd_errh_retain(c->errh);
    c->session = parent->session;
    rd_session_retain(c->session);
}

int *rd_comm_world_ranks_copy(MPI_Comm comm)
{
    int *w = malloc(sizeof(int) * (size_t)(comm->size ? comm->size : 1));
    for (int i = 0; w && i < comm->size; i++)
        w[i] = rd_comm_world_rank(comm, i);
    return w;
}

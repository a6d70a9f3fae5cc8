/* agree.c - the library's own small exchanges for making communicators
 * (agree.h): a context pair free on every rank, the broadcasts and
 * leader exchanges of intercommunicator creation, an allgather of split
 * colours. They run on a communicator's library context (its coll twin)
 * by blocking p2p messages, with tags of their own (comm.h), so that they
 * need no schedule and can run among some ranks of a communicator only
 * (MPI_Comm_create_group). The nonblocking agreement of MPI_Comm_idup
 * runs as a schedule (runtime/api/comm_idup.c). */
#include "collectives/agree.h"

#include <stdlib.h>
#include <string.h>

#include "runtime/base/state.h"
#include "runtime/p2p/p2p.h"
#include "runtime/p2p/request.h"

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
    enum { N = RD_CTX_WORDS };
    uint64_t theirs[N];
    int p = 1;
    rd_status st = RD_OK;
#define RD_MEMBER(i) (members ? members[i] : (i))
    rd_comm_ctx_offer(mine);
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

rd_status rd_comm_agree_ctx_among(MPI_Comm parent, const int *members, int n, int me, int tag,
                                  uint32_t *ctx)
{
    uint64_t map[RD_CTX_WORDS];
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
    enum { N = RD_CTX_WORDS };
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


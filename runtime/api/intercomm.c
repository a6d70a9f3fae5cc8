/* Intercommunicators (MPI-3.1 section 6.6): MPI_Intercomm_create,
 * MPI_Intercomm_merge, MPI_Comm_remote_size, MPI_Comm_remote_group, and
 * the intercommunicator forms of Comm_dup, Comm_split and Comm_create
 * (called from api/comm.c).
 *
 * Every construction runs in the same steps: inside each group over its
 * local intracommunicator's library context (the AND of the free context
 * maps, gathers), one exchange between the two groups' leaders, and a
 * broadcast of what the leader received in each group. No step involves
 * more than one group's ranks at a time except the leaders' exchange. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collectives/agree.h"
#include "runtime/api/check.h"
#include "runtime/api/intercomm.h"
#include "runtime/objects/comm.h"
#include "runtime/objects/group.h"
#include "runtime/p2p/request.h"

static int fail(MPI_Comm comm, const char *call, rd_status st)
{
    return rd_err_raise(comm, rd_status_to_mpi(st), call, "%s", rd_status_string(st));
}

/* The world ranks of comm's local group, or NULL when out of memory. */
static int *copy_ints(const int *a, int n)
{
    int *c = malloc(sizeof(int) * (size_t)(n ? n : 1));
    if (c)
        memcpy(c, a, sizeof(int) * (size_t)n);
    return c;
}

static void release(MPI_Comm c)
{
    RD_LOCK();
    rd_comm_release(c);
    RD_UNLOCK();
}

/* The intercommunicator of local group lw[ln] (this rank being `rank`)
 * and remote group rw[rn], in context ctx with its local intracommunicator
 * in lctx; lw and rw are taken over. */
static int make_inter(MPI_Comm parent, const char *call, int rank, int ln, int *lw, int rn, int *rw,
                      uint32_t ctx, uint32_t lctx, MPI_Comm *out)
{
    MPI_Comm local = MPI_COMM_NULL;
    int *lw2 = copy_ints(lw, ln);
    rd_status st = lw2 ? rd_comm_new(rank, ln, lw2, lctx, &local) : RD_ERR_NOMEM;
    if (st != RD_OK) {
        free(lw2);
        free(lw);
        free(rw);
        return fail(parent, call, st);
    }
    st = rd_comm_new_inter(rank, ln, lw, rn, rw, ctx, local, out);
    if (st != RD_OK) {
        release(local);
        free(lw);
        free(rw);
        *out = MPI_COMM_NULL;
        return fail(parent, call, st);
    }
    rd_comm_inherit(parent, *out);
    return MPI_SUCCESS;
}

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return x < y ? -1 : x > y;
}

/* A world rank in both a[na] and b[nb], or -1. */
static int common_member(const int *a, int na, const int *b, int nb, int *dup)
{
    int n = na + nb, *all = malloc(sizeof(int) * (size_t)n);
    if (!all)
        return -1;
    memcpy(all, a, sizeof(int) * (size_t)na);
    memcpy(all + na, b, sizeof(int) * (size_t)nb);
    qsort(all, (size_t)n, sizeof(int), cmp_int);
    *dup = -1;
    for (int i = 1; i < n && *dup < 0; i++)
        if (all[i] == all[i - 1])
            *dup = all[i];
    free(all);
    return 0;
}

/* ------------------------------------------------------------ MPI_Intercomm_create */

struct rd_ic_hello {
    int size; /* the leader's group size */
};

struct rd_ic_result {
    int err;                    /* an MPI class the leader found, or MPI_SUCCESS */
    uint32_t salt;              /* the context agreement's (the same in both groups: from peer_comm and the tag) */
    struct rd_ic_hello remote;
};

/* libtag: peer_comm's library tag for the leaders, or 0: from the user's tag */
static int intercomm_create(const char *call, MPI_Comm local_comm, int local_leader, MPI_Comm peer_comm,
                            int remote_leader, int tag, int libtag, MPI_Comm *newintercomm)
{
    RD_API_READY(call);
    RD_TRY(rd_check_comm(call, local_comm));
    if (local_comm->is_inter)
        return rd_err_raise(local_comm, MPI_ERR_COMM, call, "local_comm is an intercommunicator");
    if (!newintercomm)
        return rd_err_raise(local_comm, MPI_ERR_ARG, call, "newintercomm is NULL");
    if (local_leader < 0 || local_leader >= local_comm->size)
        return rd_err_raise(local_comm, MPI_ERR_RANK, call, "local_leader %d is not in [0, %d)", local_leader,
                            local_comm->size);
    int leader = local_comm->rank == local_leader, ln = local_comm->size;
    int *lw = rd_comm_world_ranks_copy(local_comm), *rw = NULL;
    struct rd_ic_hello mine = {.size = ln};
    struct rd_ic_result res = {.err = MPI_SUCCESS};
    char why[160] = "";
    rd_status st = RD_OK;
    if (!lw)
        return fail(local_comm, call, RD_ERR_NOMEM);

    /* the leader checks what only it uses and talks to the other leader */
    if (leader) {
        if (!rd_comm_valid(peer_comm)) {
            res.err = MPI_ERR_COMM;
            snprintf(why, sizeof(why), "peer_comm is not a valid communicator");
        } else if (remote_leader < 0 || remote_leader >= peer_comm->remote_size) {
            res.err = MPI_ERR_RANK;
            snprintf(why, sizeof(why), "remote_leader %d is not in [0, %d) of peer_comm", remote_leader,
                     peer_comm->remote_size);
        } else if (!libtag && (tag < 0 || tag > RDMPI_TAG_UB)) {
            res.err = MPI_ERR_TAG;
            snprintf(why, sizeof(why), "tag %d is not in [0, MPI_TAG_UB]", tag);
        } else if (rd_comm_peer_world(peer_comm, remote_leader) == rd_comm_world_rank(local_comm, local_comm->rank)) {
            res.err = MPI_ERR_COMM;
            snprintf(why, sizeof(why), "remote_leader %d of peer_comm is the local leader itself", remote_leader);
        }
        if (res.err == MPI_SUCCESS) {
            int t = libtag ? libtag : rd_comm_intercomm_tag(tag);
            res.salt = peer_comm->ctx * 2654435761u ^ (uint32_t)t;
            st = rd_comm_sendrecv(peer_comm, &mine, sizeof(mine), remote_leader, &res.remote,
                                  sizeof(res.remote), remote_leader, t);
            if (st == RD_OK && res.remote.size <= 0) {
                res.err = MPI_ERR_INTERN;
                snprintf(why, sizeof(why), "the remote leader sent a group of %d ranks", res.remote.size);
            } else if (st == RD_OK) {
                rw = malloc(sizeof(int) * (size_t)res.remote.size);
                st = rw ? rd_comm_sendrecv(peer_comm, lw, sizeof(int) * (size_t)ln, remote_leader, rw,
                                           sizeof(int) * (size_t)res.remote.size, remote_leader, t)
                        : RD_ERR_NOMEM;
            }
            if (st != RD_OK) {
                res.err = rd_status_to_mpi(st);
                snprintf(why, sizeof(why), "exchange with the remote leader: %s", rd_status_string(st));
            }
        }
    }
    st = rd_comm_bcast(local_comm, local_leader, &res, sizeof(res));
    if (st == RD_OK && res.err == MPI_SUCCESS) {
        if (!leader)
            rw = malloc(sizeof(int) * (size_t)res.remote.size);
        st = rw ? rd_comm_bcast(local_comm, local_leader, rw, sizeof(int) * (size_t)res.remote.size)
                : RD_ERR_NOMEM;
    }
    if (st != RD_OK || res.err != MPI_SUCCESS) {
        free(lw);
        free(rw);
        if (st != RD_OK)
            return fail(local_comm, call, st);
        if (leader)
            return rd_err_raise(local_comm, res.err, call, "%s", why);
        return rd_err_raise(local_comm, res.err, call, "the local leader (rank %d) failed", local_leader);
    }

    /* both groups see both lists: both find an overlap */
    int rn = res.remote.size, dup = -1;
    if (common_member(lw, ln, rw, rn, &dup) != 0 || dup >= 0) {
        free(lw);
        free(rw);
        if (dup < 0)
            return fail(local_comm, call, RD_ERR_NOMEM);
        return rd_err_raise(local_comm, MPI_ERR_COMM, call,
                            "the local and remote groups overlap (world rank %d is in both)", dup);
    }
    /* (the bridge and its tag: the leader's only) */
    uint32_t ctx, lctx;
    st = rd_comm_agree_ctx_inter(local_comm, local_leader, peer_comm, remote_leader,
                                 libtag ? libtag : rd_comm_intercomm_tag(tag), res.salt, &ctx, &lctx);
    if (st != RD_OK) {
        free(lw);
        free(rw);
        return fail(local_comm, call, st);
    }
    return make_inter(local_comm, call, local_comm->rank, ln, lw, rn, rw, ctx, lctx, newintercomm);
}

/* its agreements' pairs are kept from nonblocking ones until it returns (comm.h) */
#pragma weak MPI_Intercomm_create = PMPI_Intercomm_create
int PMPI_Intercomm_create(MPI_Comm local_comm, int local_leader, MPI_Comm peer_comm, int remote_leader,
                          int tag, MPI_Comm *newintercomm)
{
    rd_comm_creating(1);
    int rc = intercomm_create("MPI_Intercomm_create", local_comm, local_leader, peer_comm, remote_leader, tag, 0,
                              newintercomm);
    rd_comm_creating(0);
    return rc;
}

int rd_inter_create_tagged(MPI_Comm local_comm, int local_leader, MPI_Comm peer_comm, int remote_leader,
                           int libtag, MPI_Comm *newintercomm)
{
    return intercomm_create("MPI_Intercomm_create_from_groups", local_comm, local_leader, peer_comm, remote_leader,
                            0, libtag, newintercomm);
}

/* ------------------------------------------------------------ MPI_Intercomm_merge */

static int intercomm_merge(MPI_Comm intercomm, int high, MPI_Comm *newintracomm)
{
    const char *call = "MPI_Intercomm_merge";
    RD_API_READY(call);
    RD_TRY(rd_check_comm(call, intercomm));
    if (!intercomm->is_inter)
        return rd_err_raise(intercomm, MPI_ERR_COMM, call, "%s is not an intercommunicator",
                            intercomm->name[0] ? intercomm->name : "the communicator");
    if (!newintracomm)
        return rd_err_raise(intercomm, MPI_ERR_ARG, call, "newintracomm is NULL");
    MPI_Comm c = intercomm;
    int mine = high ? 1 : 0, theirs = 0;
    uint32_t ctx;
    rd_status st = rd_comm_leader_exchange(c->local, 0, c, 0, RD_TAG_INTER, &mine, sizeof(mine), &theirs,
                                           sizeof(theirs));
    if (st == RD_OK)
        st = rd_comm_agree_ctx_inter(c->local, 0, c, 0, RD_TAG_INTER, c->ctx ^ 0x6d657267u, &ctx, NULL);
    if (st != RD_OK)
        return fail(c, call, st);
    /* the group with high = false first; on a tie, the group whose rank 0
     * has the lower world rank (both groups decide the same) */
    int first = mine != theirs ? mine < theirs
                               : rd_comm_world_rank(c, 0) < rd_comm_peer_world(c, 0);
    int n = c->size + c->remote_size, *w = malloc(sizeof(int) * (size_t)n);
    if (!w)
        return fail(c, call, RD_ERR_NOMEM);
    int loff = first ? 0 : c->remote_size, roff = first ? c->size : 0;
    for (int i = 0; i < c->size; i++)
        w[loff + i] = rd_comm_world_rank(c, i);
    for (int i = 0; i < c->remote_size; i++)
        w[roff + i] = rd_comm_peer_world(c, i);
    st = rd_comm_new(loff + c->rank, n, w, ctx, newintracomm);
    if (st != RD_OK) {
        free(w);
        return fail(c, call, st);
    }
    rd_comm_inherit(c, *newintracomm);
    return MPI_SUCCESS;
}

/* its agreements' pairs are kept from nonblocking ones until it returns (comm.h) */
#pragma weak MPI_Intercomm_merge = PMPI_Intercomm_merge
int PMPI_Intercomm_merge(MPI_Comm intercomm, int high, MPI_Comm *newintracomm)
{
    rd_comm_creating(1);
    int rc = intercomm_merge(intercomm, high, newintracomm);
    rd_comm_creating(0);
    return rc;
}

/* ------------------------------------------------------------ remote group */

#pragma weak MPI_Comm_remote_size = PMPI_Comm_remote_size
int PMPI_Comm_remote_size(MPI_Comm comm, int *size)
{
    const char *call = "MPI_Comm_remote_size";
    RD_API_READY(call);
    RD_TRY(rd_check_comm(call, comm));
    if (!comm->is_inter)
        return rd_err_raise(comm, MPI_ERR_COMM, call, "%s is not an intercommunicator",
                            comm->name[0] ? comm->name : "the communicator");
    if (!size)
        return rd_err_raise(comm, MPI_ERR_ARG, call, "size is NULL");
    *size = comm->remote_size;
    return MPI_SUCCESS;
}

#pragma weak MPI_Comm_remote_group = PMPI_Comm_remote_group
int PMPI_Comm_remote_group(MPI_Comm comm, MPI_Group *group)
{
    const char *call = "MPI_Comm_remote_group";
    RD_API_READY(call);
    RD_TRY(rd_check_comm(call, comm));
    if (!comm->is_inter)
        return rd_err_raise(comm, MPI_ERR_COMM, call, "%s is not an intercommunicator",
                            comm->name[0] ? comm->name : "the communicator");
    if (!group)
        return rd_err_raise(comm, MPI_ERR_ARG, call, "group is NULL");
    struct rd_group_s *g = rd_group_alloc(comm->remote_size);
    if (!g)
        return rd_err_raise(comm, MPI_ERR_NO_MEM, call, "out of memory");
    for (int i = 0; i < comm->remote_size; i++)
        g->ranks[i] = rd_comm_peer_world(comm, i);
    *group = g;
    return MPI_SUCCESS;
}

/* ------------------------------------------------------------ dup, split, create */

int rd_inter_dup(MPI_Comm comm, const char *call, MPI_Comm *newcomm)
{
    uint32_t ctx, lctx;
    rd_status st = rd_comm_agree_ctx_inter(comm->local, 0, comm, 0, RD_TAG_INTER, comm->ctx ^ 0x64757075u, &ctx, &lctx);
    if (st != RD_OK)
        return fail(comm, call, st);
    int *lw = rd_comm_world_ranks_copy(comm), *rw = malloc(sizeof(int) * (size_t)comm->remote_size);
    if (!lw || !rw) {
        free(lw);
        free(rw);
        return fail(comm, call, RD_ERR_NOMEM);
    }
    for (int i = 0; i < comm->remote_size; i++)
        rw[i] = rd_comm_peer_world(comm, i);
    return make_inter(comm, call, comm->rank, comm->size, lw, comm->remote_size, rw, ctx, lctx, newcomm);
}

struct rd_split_entry {
    int color, key, rank;
};

static int split_order(const void *a, const void *b)
{
    const struct rd_split_entry *x = a, *y = b;
    if (x->key != y->key)
        return x->key < y->key ? -1 : 1;
    return x->rank < y->rank ? -1 : x->rank > y->rank;
}

/* Keep the entries of colour `color`, in (key, rank) order; their count. */
static int select_color(struct rd_split_entry *e, int n, int color)
{
    int k = 0;
    for (int i = 0; i < n; i++)
        if (e[i].color == color)
            e[k++] = e[i];
    qsort(e, (size_t)k, sizeof(*e), split_order);
    return k;
}

int rd_inter_split(MPI_Comm comm, const char *call, int color, int key, MPI_Comm *newcomm)
{
    int ln = comm->size, rn = comm->remote_size;
    struct rd_split_entry me = {color, key, comm->rank};
    struct rd_split_entry *mine = malloc(sizeof(*mine) * (size_t)ln);
    struct rd_split_entry *theirs = malloc(sizeof(*theirs) * (size_t)rn);
    uint32_t ctx, lctx;
    rd_status st = mine && theirs ? RD_OK : RD_ERR_NOMEM;
    /* each group gathers its colours; the leaders swap them */
    if (st == RD_OK)
        st = rd_comm_allgather(comm->local, &me, sizeof(me), mine);
    if (st == RD_OK)
        st = rd_comm_leader_exchange(comm->local, 0, comm, 0, RD_TAG_INTER, mine, sizeof(*mine) * (size_t)ln,
                                     theirs, sizeof(*theirs) * (size_t)rn);
    if (st == RD_OK)
        st = rd_comm_agree_ctx_inter(comm->local, 0, comm, 0, RD_TAG_INTER, comm->ctx ^ 0x73706c69u, &ctx, &lctx);
    if (st != RD_OK) {
        free(mine);
        free(theirs);
        return fail(comm, call, st);
    }
    /* one context pair serves every colour: their members are disjoint */
    *newcomm = MPI_COMM_NULL;
    int nl = color == MPI_UNDEFINED ? 0 : select_color(mine, ln, color);
    int nr = color == MPI_UNDEFINED ? 0 : select_color(theirs, rn, color);
    if (nl == 0 || nr == 0) {
        free(mine);
        free(theirs);
        return MPI_SUCCESS;
    }
    int *lw = malloc(sizeof(int) * (size_t)nl), *rw = malloc(sizeof(int) * (size_t)nr), myrank = -1;
    if (!lw || !rw) {
        free(lw);
        free(rw);
        free(mine);
        free(theirs);
        return fail(comm, call, RD_ERR_NOMEM);
    }
    for (int i = 0; i < nl; i++) {
        lw[i] = rd_comm_world_rank(comm, mine[i].rank);
        if (mine[i].rank == comm->rank)
            myrank = i;
    }
    for (int i = 0; i < nr; i++)
        rw[i] = rd_comm_peer_world(comm, theirs[i].rank);
    free(mine);
    free(theirs);
    return make_inter(comm, call, myrank, nl, lw, nr, rw, ctx, lctx, newcomm);
}

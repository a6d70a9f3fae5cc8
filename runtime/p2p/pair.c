/* pair.c - one request for a send and a receive (MPI_Isendrecv,
 * MPI_Isendrecv_replace; pair.h). The two parts are ordinary requests of
 * the engine, started by the API as MPI_Isend and MPI_Irecv start theirs
 * (eager fast path included); the pair's own request, of kind
 * RD_REQ_COLL (an operation with a reason kept for its error: the Wait
 * and Test family reports it through the communicator's handler),
 * completes when both have, from a progress hook that runs while any pair
 * is pending. Its status is the receive's; its error the receive's, else
 * the send's. Called under the big lock. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/objects/comm.h"
#include "runtime/p2p/p2p.h"
#include "runtime/p2p/pair.h"

struct pair {
    struct rd_request_s *user, *send, *recv;
    void *copy; /* MPI_Isendrecv_replace's packed send buffer, freed at the end */
    struct pair *next;
};

static struct pair *pending;
static int advancing;

static void finish(struct pair *p)
{
    struct rd_request_s *u = p->user, *s = p->send, *r = p->recv;
    rd_status_out(&u->status, &r->status);
    char why[160] = "";
    if (r->error != MPI_SUCCESS) {
        u->error = r->error;
        if (r->error == MPI_ERR_TRUNCATE)
            snprintf(why, sizeof why, "the message from rank %d (tag %d) is longer than the receive buffer",
                     r->status.MPI_SOURCE, r->status.MPI_TAG);
        else
            snprintf(why, sizeof why, "the receive from rank %d failed", r->peer);
    } else if (s->error != MPI_SUCCESS) {
        u->error = s->error;
        snprintf(why, sizeof why, "the send to rank %d failed", s->peer);
    }
    if (why[0] && !u->user_freed) /* (freed in flight: nobody reads it) */
        u->why = strdup(why);      /* NULL when out of memory: the Wait then says less */
    rd_req_release(s);
    rd_req_release(r);
    free(p->copy);
    free(p);
    rd_req_complete(u); /* (MPI_Request_free'd in flight: released here) */
}

static int both_done(const struct pair *p)
{
    return rd_req_done(p->send) && rd_req_done(p->recv);
}

int rd_pair_progress(void)
{
    if (advancing)
        return 0;
    advancing = 1;
    int n = 0;
    for (struct pair **pp = &pending; *pp;) {
        struct pair *p = *pp;
        if (both_done(p)) {
            *pp = p->next;
            finish(p);
            n++;
        } else {
            pp = &p->next;
        }
    }
    if (!pending)
        rd_progress_remove(rd_pair_progress);
    advancing = 0;
    return n;
}

struct rd_request_s *rd_pair_start(MPI_Comm comm, struct rd_request_s *send, struct rd_request_s *recv,
                                   void *copy)
{
    struct rd_request_s *u = rd_req_alloc(RD_REQ_COLL);
    struct pair *p = malloc(sizeof *p);
    if (!u || !p || (!both_done(&(struct pair){.send = send, .recv = recv}) && rd_progress_add(rd_pair_progress) != 0)) {
        if (u)
            rd_req_release(u);
        free(p);
        return NULL;
    }
    u->comm = comm;
    rd_comm_retain(comm);
    u->why = NULL;
    u->io.file = NULL;
    rd_status_empty(&u->status);
    *p = (struct pair){.user = u, .send = send, .recv = recv, .copy = copy};
    if (both_done(p)) { /* both went at once (eager, or MPI_PROC_NULL) */
        finish(p);
        return u;
    }
    p->next = pending;
    pending = p;
    return u;
}

/* bsend.c - the buffers of buffered sends and the allocator that they
 * use inside them (bsend.h): the process's (MPI_Buffer_attach) and, MPI
 * 4.1, a communicator's (MPI_Comm_attach_buffer), which its buffered
 * sends take first. */
#include <mpi.h>
#include <stdlib.h>

#include "runtime/objects/comm.h"
#include "runtime/objects/session.h"
#include "runtime/objects/datatype.h"
#include "runtime/p2p/bsend.h"
#include "runtime/p2p/p2p.h"
#include "runtime/p2p/request.h"

/* Used regions of an attached buffer, sorted by address. Each region is
 * charged MPI_BSEND_OVERHEAD bytes besides its data, as the standard says
 * users must provide; the overhead's first bytes say which buffer the
 * region belongs to, so that a message's release finds it. */
struct rd_bsend_region {
    struct rd_bsend_region *next;
    char *start;
    size_t len; /* including the overhead */
};

struct rd_bsend_buf {
    char *buf;       /* the user's memory; NULL: none (MPI_BUFFER_AUTOMATIC: automatic) */
    size_t size;
    int automatic;   /* each message in memory of its own, as much as it needs */
    struct rd_bsend_region *used;
    long nauto;      /* automatic: messages in flight */
    int orphan;      /* its communicator is gone: freed when its last message has left */
};

_Static_assert(MPI_BSEND_OVERHEAD >= sizeof(struct rd_bsend_buf *), "the overhead holds the owner");

static struct rd_bsend_buf process_buf;

static int in_use(const struct rd_bsend_buf *b)
{
    return b->used != NULL || b->nauto > 0;
}

struct rd_bsend_buf *rd_bsend_process(void)
{
    return &process_buf;
}

int rd_bsend_attached(const struct rd_bsend_buf *b)
{
    return b && (b->buf || b->automatic);
}

/* A communicator freed with a buffer attached lets it go: at once if no
 * message is in it, else when the last one has left. */
static void comm_freed(MPI_Comm comm)
{
    struct rd_bsend_buf *b = comm->bsend;
    comm->bsend = NULL;
    if (!b)
        return;
    if (in_use(b))
        b->orphan = 1;
    else
        free(b);
}

rd_status rd_bsend_attach(struct rd_bsend_buf **where, void *buf, size_t size)
{
    struct rd_bsend_buf *b = *where;
    if (!b) {
        static int hooked;
        if (!hooked) {
            rd_comm_on_free(comm_freed);
            hooked = 1;
        }
        b = calloc(1, sizeof(*b));
        if (!b)
            return RD_ERR_NOMEM;
        *where = b;
    }
    b->automatic = buf == MPI_BUFFER_AUTOMATIC;
    b->buf = b->automatic ? NULL : buf;
    b->size = b->automatic ? 0 : size;
    return RD_OK;
}

void rd_bsend_flush(struct rd_bsend_buf *b)
{
    /* the standard: until the buffered messages are sent */
    while (b && in_use(b))
        rd_progress();
}

int rd_bsend_flushed(const struct rd_bsend_buf *b)
{
    return !b || !in_use(b);
}

void rd_bsend_detach(struct rd_bsend_buf **where, void **buf, size_t *size)
{
    struct rd_bsend_buf *b = *where;
    rd_bsend_flush(b);
    *buf = b->automatic ? MPI_BUFFER_AUTOMATIC : b->buf;
    *size = b->size;
    b->buf = NULL;
    b->size = 0;
    b->automatic = 0;
    if (b != &process_buf) {
        free(b);
        *where = NULL;
    }
}

static void *region_alloc(struct rd_bsend_buf *b, size_t bytes)
{
    /* exactly what the standard tells users to provide: no padding (the
     * packed bytes need no alignment) */
    size_t need = bytes + MPI_BSEND_OVERHEAD;
    if (b->automatic) {
        char *m = malloc(need);
        if (!m)
            return NULL;
        *(struct rd_bsend_buf **)(void *)m = b;
        b->nauto++;
        return m + MPI_BSEND_OVERHEAD;
    }
    if (!b->buf)
        return NULL;
    char *cur = b->buf;
    struct rd_bsend_region **pp = &b->used;
    for (;;) {
        char *limit = *pp ? (*pp)->start : b->buf + b->size;
        if (limit >= cur && (size_t)(limit - cur) >= need) {
            struct rd_bsend_region *r = malloc(sizeof(*r));
            if (!r)
                return NULL;
            r->start = cur;
            r->len = need;
            r->next = *pp;
            *pp = r;
            /* (the user's buffer need not be aligned for a pointer) */
            __builtin_memcpy(cur, &b, sizeof(b));
            return cur + MPI_BSEND_OVERHEAD;
        }
        if (!*pp)
            return NULL;
        cur = (*pp)->start + (*pp)->len;
        pp = &(*pp)->next;
    }
}

void rd_bsend_release(void *block)
{
    char *start = (char *)block - MPI_BSEND_OVERHEAD;
    struct rd_bsend_buf *b;
    __builtin_memcpy(&b, start, sizeof(b));
    if (b->automatic) { /* (still: detaching waits for its messages) */
        free(start);
        b->nauto--;
    } else {
        for (struct rd_bsend_region **pp = &b->used; *pp; pp = &(*pp)->next) {
            if ((*pp)->start == start) {
                struct rd_bsend_region *r = *pp;
                *pp = r->next;
                free(r);
                break;
            }
        }
    }
    if (b->orphan && !in_use(b))
        free(b);
}

rd_status rd_bsend_start(const void *buf, MPI_Count count, MPI_Datatype dt, int dest, int tag,
                         MPI_Comm comm, int *mpi_err)
{
    size_t bytes = (size_t)count * dt->size;
    struct rd_bsend_buf *b = rd_bsend_attached(comm->bsend) ? comm->bsend
                             : comm->session && rd_bsend_attached(comm->session->bsend) ? comm->session->bsend
                                                                                       : &process_buf;
    void *block = region_alloc(b, bytes);
    *mpi_err = MPI_SUCCESS;
    if (!block) {
        *mpi_err = MPI_ERR_BUFFER;
        return RD_OK;
    }
    rd_dt_pack(buf, dt, 0, block, bytes);
    struct rd_request_s *req = rd_req_new(RD_REQ_SEND, RD_MODE_STANDARD, block, 0, MPI_BYTE, dest, tag,
                                          comm);
    if (!req) {
        rd_bsend_release(block);
        return RD_ERR_NOMEM;
    }
    req->internal = 1;
    req->bsend_block = block;
    req->raw = 1;
    req->bytes = bytes;
    rd_status st = rd_p2p_start_send(req);
    if (st != RD_OK) { /* not sent: its room goes back */
        req->bsend_block = NULL;
        rd_req_release(req);
        rd_bsend_release(block);
    }
    return st;
}

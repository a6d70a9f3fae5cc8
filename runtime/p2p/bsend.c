/* bsend.c - the attached buffer of buffered sends and the allocator
 * that they use inside it (bsend.h). */
#include <mpi.h>
#include <stdlib.h>

#include "runtime/objects/datatype.h"
#include "runtime/p2p/bsend.h"
#include "runtime/p2p/p2p.h"
#include "runtime/p2p/request.h"

/* Used regions of the attached buffer, sorted by address. Each region is
 * charged MPI_BSEND_OVERHEAD bytes besides its data, as the standard says
 * users must provide. */
struct rd_bsend_region {
    struct rd_bsend_region *next;
    char *start;
    size_t len; /* including the overhead */
};

static struct {
    char *buf;
    size_t size;
    struct rd_bsend_region *used;
} B;

int rd_bsend_attached(void)
{
    return B.buf != NULL;
}

void rd_bsend_attach(void *buf, size_t size)
{
    B.buf = buf;
    B.size = size;
}

void rd_bsend_detach(void **buf, size_t *size)
{
    /* the standard: detach waits until the buffered messages are sent */
    while (B.used)
        rd_progress();
    *buf = B.buf;
    *size = B.size;
    B.buf = NULL;
    B.size = 0;
}

void *rd_bsend_alloc(size_t bytes)
{
    /* exactly what the standard tells users to provide: no padding (the
     * packed bytes need no alignment) */
    size_t need = bytes + MPI_BSEND_OVERHEAD;
    if (!B.buf)
        return NULL;
    char *cur = B.buf;
    struct rd_bsend_region **pp = &B.used;
    for (;;) {
        char *limit = *pp ? (*pp)->start : B.buf + B.size;
        if (limit >= cur && (size_t)(limit - cur) >= need) {
            struct rd_bsend_region *r = malloc(sizeof(*r));
            if (!r)
                return NULL;
            r->start = cur;
            r->len = need;
            r->next = *pp;
            *pp = r;
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
    for (struct rd_bsend_region **pp = &B.used; *pp; pp = &(*pp)->next) {
        if ((*pp)->start == start) {
            struct rd_bsend_region *r = *pp;
            *pp = r->next;
            free(r);
            return;
        }
    }
}

rd_status rd_bsend_start(const void *buf, int count, MPI_Datatype dt, int dest, int tag,
                         MPI_Comm comm, int *mpi_err)
{
    size_t bytes = (size_t)count * dt->size;
    void *block = rd_bsend_alloc(bytes);
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
    return rd_p2p_start_send(req);
}

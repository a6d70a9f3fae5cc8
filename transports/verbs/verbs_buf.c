/*
 * verbs_buf.c - the verbs data path's registered eager buffers.
 *
 * Every QP shares one receive queue (SRQ) of registered buffers of
 * buf_size bytes; each peer that gets a QP adds `credits` of them
 * (vb_srq_grow, from the wire-up), so the SRQ never runs dry (verbs_am.c
 * says why). Messages too long to go inline are copied into a send
 * buffer; there are at most as many as the credits we can hold, registered
 * VB_SBUF_CHUNK at a time as they are needed. Buffers are registered in
 * blocks (vb_chunk), deregistered at close.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/base/log.h"
#include "transports/verbs/verbs_data.h"

#define VB_SBUF_CHUNK 32

void *vb_chunk_alloc(size_t bytes)
{
    void *p = NULL;
    if (posix_memalign(&p, 4096, bytes ? bytes : 1) != 0)
        return NULL;
    return p;
}

/* One block of n registered buffers; descs gets n descriptors of dsize. */
static vb_chunk *chunk_new(vb_tl *tl, uint32_t n, size_t dsize)
{
    vb_chunk *c = calloc(1, sizeof(*c));
    if (!c)
        return NULL;
    c->mem = vb_chunk_alloc((size_t)n * tl->buf_size);
    c->descs = calloc(n, dsize);
    if (c->mem && c->descs)
        c->mr = ibv_reg_mr(tl->pd, c->mem, (size_t)n * tl->buf_size, IBV_ACCESS_LOCAL_WRITE);
    if (!c->mr) {
        rd_error("verbs", "registering %u eager buffers of %zu bytes: %s%s", n, tl->buf_size,
                 strerror(errno), errno == ENOMEM ? " (ulimit -l too low?)" : "");
        free(c->mem);
        free(c->descs);
        free(c);
        return NULL;
    }
    return c;
}

void vb_chunks_free(vb_chunk *c)
{
    while (c) {
        vb_chunk *n = c->next;
        ibv_dereg_mr(c->mr);
        free(c->mem);
        free(c->descs);
        free(c);
        c = n;
    }
}

rd_status vb_srq_grow(vb_tl *tl)
{
    uint32_t n = tl->credits;
    if (tl->srq_posted + n > tl->srq_max) {
        rd_error("verbs", "the shared receive queue is full (%u buffers): %u more for a new peer do not fit "
                 "(device limit %d; lower RDMPI_VERBS_CREDITS)", tl->srq_posted, n, tl->dev.attr.max_srq_wr);
        return RD_ERR_NOMEM;
    }
    vb_chunk *c = chunk_new(tl, n, sizeof(struct vb_rbuf));
    if (!c)
        return RD_ERR_NOMEM;
    struct vb_rbuf *d = c->descs;
    for (uint32_t i = 0; i < n; i++) {
        d[i].buf = c->mem + (size_t)i * tl->buf_size;
        d[i].lkey = c->mr->lkey;
    }
    uint32_t done = 0;
    while (done < n) {
        uint32_t k = n - done < VB_RECV_BATCH ? n - done : VB_RECV_BATCH;
        for (uint32_t i = 0; i < k; i++) {
            struct vb_rbuf *b = &d[done + i];
            tl->rsge[i] = (struct ibv_sge){.addr = (uintptr_t)b->buf, .length = (uint32_t)tl->buf_size,
                                           .lkey = b->lkey};
            tl->rwr[i] = (struct ibv_recv_wr){.wr_id = (uintptr_t)b, .sg_list = &tl->rsge[i], .num_sge = 1,
                                              .next = i + 1 < k ? &tl->rwr[i + 1] : NULL};
        }
        struct ibv_recv_wr *bad;
        if (ibv_post_srq_recv(tl->srq, tl->rwr, &bad) != 0) {
            rd_error("verbs", "ibv_post_srq_recv: %s", strerror(errno));
            c->next = tl->rchunks;
            tl->rchunks = c;
            return RD_ERR_IO;
        }
        done += k;
    }
    c->next = tl->rchunks;
    tl->rchunks = c;
    tl->srq_posted += n;
    tl->sbuf_max += n; /* send buffers: at most the credits we can hold */
    return RD_OK;
}

struct vb_sbuf *vb_sbuf_get(vb_tl *tl)
{
    if (!tl->sfree && tl->nsbuf < tl->sbuf_max) {
        vb_chunk *c = chunk_new(tl, VB_SBUF_CHUNK, sizeof(struct vb_sbuf));
        if (!c)
            return NULL;
        struct vb_sbuf *d = c->descs;
        for (int i = VB_SBUF_CHUNK - 1; i >= 0; i--) {
            d[i].buf = c->mem + (size_t)i * tl->buf_size;
            d[i].lkey = c->mr->lkey;
            d[i].next = tl->sfree;
            tl->sfree = &d[i];
        }
        c->next = tl->schunks;
        tl->schunks = c;
        tl->nsbuf += VB_SBUF_CHUNK;
    }
    struct vb_sbuf *s = tl->sfree;
    if (s)
        tl->sfree = s->next;
    return s;
}

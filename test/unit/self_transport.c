/* self_transport.c - the self transport: reachability, in-order delivery
 * from progress() only (never inside am_send), a handler that sends again,
 * and get/put as memcpy with done() inline. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "test/tap.h"
#include "transports/transport.h"

typedef struct rx_state {
    rd_ep *ep;
    int got, bad, resend;
    unsigned ids[300];
    size_t lens[300];
} rx_state;

static void on_am(void *arg, int src, unsigned id, const void *hdr, size_t hlen, const void *data,
                  size_t len)
{
    rx_state *s = arg;
    int ok = src == 5 && hlen == sizeof(unsigned) && memcmp(hdr, &id, sizeof(id)) == 0;
    for (size_t i = 0; ok && i < len; i++)
        ok = ((const unsigned char *)data)[i] == (unsigned char)(id + i);
    if (s->got < 300) {
        s->ids[s->got] = id;
        s->lens[s->got] = len;
    }
    s->got++;
    s->bad += !ok;
    if (s->resend && id < 1000) { /* a handler may send: delivered by a later call */
        unsigned nid = id + 1000;
        s->ep->tl->ops->am_send(s->ep, nid, &nid, sizeof(nid), NULL, 0);
    }
}

static rd_status send_id(rd_ep *ep, unsigned id, size_t len)
{
    unsigned char *data = malloc(len + 1);
    for (size_t i = 0; i < len; i++)
        data[i] = (unsigned char)(id + i);
    rd_status st = ep->tl->ops->am_send(ep, id, &id, sizeof(id), data, len);
    memset(data, 0, len + 1); /* the buffer is reusable at once */
    free(data);
    return st;
}

static int done_calls;
static rd_status done_st;
static void on_done(rd_rma_op *op, rd_status st)
{
    done_calls++;
    done_st = st;
}

int main(void)
{
    const struct rd_transport *t = &rd_transport_self;
    static int peers[2] = {4, 5};
    struct rd_job job;
    rd_tl *tl = NULL;
    rd_ep *ep = NULL;
    rx_state rx;
    memset(&job, 0, sizeof(job));
    memset(&rx, 0, sizeof(rx));
    job.rank = 5;
    job.size = 8;
    job.local_rank = 1;
    job.local_size = 2;
    job.local_peers = peers;

    tap_is_str(t->name, "self", "name");
    tap_is_int(t->size, sizeof(struct rd_transport), "ops table size");
    tap_is_int(t->open(&job, NULL, on_am, &rx, &tl), RD_OK, "open");
    tap_ok(tl && tl->ops == t, "the tl points at its ops");
    tap_is_int(tl->caps.rma, 1, "caps.rma");
    tap_is_int(tl->caps.needs_reg, 0, "caps.needs_reg");
    tap_is_int(tl->caps.am_max, 65536, "caps.am_max");
    tap_is_int(t->reachable(tl, 5), 1, "reaches itself");
    tap_is_int(t->reachable(tl, 4), 0, "not a local peer");
    tap_is_int(t->reachable(tl, 0), 0, "not another rank");
    tap_is_int(t->connect(tl, 4, &ep), RD_ERR_UNREACH, "connect to another rank fails");
    tap_is_int(t->connect(tl, 5, &ep), RD_OK, "connect to itself");
    tap_ok(ep && ep->peer == 5 && ep->tl == tl, "the endpoint is for rank 5");
    rx.ep = ep;

    tap_is_int(t->progress(tl), 0, "nothing queued: progress returns 0");
    int ok = 1;
    for (unsigned i = 0; i < 200; i++)
        ok &= send_id(ep, i, (i * 97) % 5000) == RD_OK;
    tap_ok(ok, "200 am_send calls succeed");
    tap_is_int(rx.got, 0, "the handler never runs inside am_send");
    tap_is_int(t->progress(tl), 64, "one progress call delivers at most 64");
    int total = 64, n;
    while ((n = t->progress(tl)) > 0)
        total += n;
    tap_is_int(total, 200, "all 200 delivered");
    ok = rx.got == 200;
    for (int i = 0; i < 200 && ok; i++)
        ok = rx.ids[i] == (unsigned)i && rx.lens[i] == (size_t)((i * 97) % 5000);
    tap_ok(ok, "in order, with their lengths");
    tap_is_int(rx.bad, 0, "headers and payloads intact, source is rank 5");

    /* a handler that sends again: the new message waits for the next call */
    memset(rx.ids, 0, sizeof(rx.ids));
    rx.got = 0;
    rx.resend = 1;
    send_id(ep, 1, 10);
    send_id(ep, 2, 0);
    tap_is_int(t->progress(tl), 2, "progress delivers the 2 queued before the call");
    tap_is_int(t->progress(tl), 2, "the 2 sent by the handler come with the next call");
    tap_is_int(t->progress(tl), 0, "then nothing");
    tap_ok(rx.ids[0] == 1 && rx.ids[1] == 2 && rx.ids[2] == 1001 && rx.ids[3] == 1002,
           "order: 1, 2, 1001, 1002");
    rx.resend = 0;
    tap_is_int(t->am_send(ep, 1, &rx, RD_AM_HDR_MAX + 1, NULL, 0), RD_ERR_ARG,
               "a header over RD_AM_HDR_MAX is refused");

    /* get / put */
    char src[100], dst[100];
    rd_rma_op op;
    rd_mr *mr = NULL;
    size_t klen = 7;
    tap_is_int(t->mem_reg(tl, src, sizeof(src), &mr, NULL, &klen), RD_OK, "mem_reg");
    tap_ok(mr != NULL && klen == 0, "a non-NULL registration and an empty key");
    for (int i = 0; i < 100; i++)
        src[i] = (char)i;
    memset(dst, 0, sizeof(dst));
    memset(&op, 0, sizeof(op));
    op.local = dst + 1;
    op.len = 50;
    op.remote_addr = (uint64_t)(uintptr_t)(src + 3);
    op.done = on_done;
    tap_is_int(t->get(ep, &op), RD_OK, "get");
    tap_is_int(done_calls, 1, "done() ran inside get");
    tap_is_int(done_st, RD_OK, "with RD_OK");
    tap_ok(dst[0] == 0 && dst[1] == 3 && dst[50] == 52 && dst[51] == 0, "get copied 50 bytes");
    memset(dst, 9, sizeof(dst));
    op.local = dst;
    op.len = 10;
    op.remote_addr = (uint64_t)(uintptr_t)(src + 90);
    tap_is_int(t->put(ep, &op), RD_OK, "put");
    tap_is_int(done_calls, 2, "done() ran inside put");
    tap_ok(src[89] == 89 && src[90] == 9 && src[99] == 9, "put copied 10 bytes");
    op.len = 0;
    tap_is_int(t->get(ep, &op), RD_OK, "get of 0 bytes");
    tap_is_int(done_calls, 3, "completes too");
    t->mem_dereg(tl, mr);

    send_id(ep, 3, 100); /* left queued: close frees it */
    t->close(tl);
    return tap_done();
}

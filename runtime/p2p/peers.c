/* peers.c - a peer's transport and its protocol table.
 *
 * A peer is connected on first use (a send to it, or its first message to
 * us): the first transport in RDMPI_TRANSPORTS order that reaches it serves
 * it, and its protocols are chosen there, once, into a table (struct
 * rd_proto, engine.h) that the send path, the receiver and the CTS handler
 * read. The table is printed in one line per peer (RDMPI_LOG=debug:p2p):
 *
 *   rank 1 via shm: eager <= 8192 B, rndv get 8193..65535 B, split 65536 B..inf, exchange put
 *
 * Why one table: the choice used to be made at connect, again per message
 * in the send path, again on the receiver and when a CTS arrived; a table
 * says in one place what a peer gets, and a log line shows it. */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "runtime/base/log.h"
#include "runtime/base/params.h"
#include "runtime/p2p/engine.h"

static const char *proto_name(int proto)
{
    switch (proto) {
    case RD_RNDV_GET: return "get";
    case RD_RNDV_PUT: return "put";
    case RD_RNDV_PIPELINE: return "pipeline";
    case RD_RNDV_SPLIT: return "split";
    case RD_RNDV_TRANSPORT: return "transport";
    default: return "?";
    }
}

/* The table for a peer served by tl: every setting folded in once. */
static void proto_choose(struct rd_proto *t, const rd_tl *tl)
{
    size_t lim = rd_param.eager_limit > 0 ? (size_t)rd_param.eager_limit : tl->caps.eager_limit;
    size_t max = tl->caps.am_max > sizeof(struct rd_wire_sync) ? tl->caps.am_max - sizeof(struct rd_wire_sync) : 0;
    if (max > UINT32_MAX)
        max = UINT32_MAX;
    t->eager_limit = (uint32_t)(lim < max ? lim : max);
    int want = (int)rd_param.rndv_protocol; /* get|put|pipeline|split|transport|auto */
    /* the transport's own where it has one (asked for or auto), else auto */
    if (want == RD_RNDV_AUTO || want == RD_RNDV_TRANSPORT)
        want = tl->caps.own_rndv ? RD_RNDV_TRANSPORT : RD_RNDV_AUTO;
    /* without RMA only active messages move data */
    if (!tl->caps.rma && want != RD_RNDV_TRANSPORT)
        want = RD_RNDV_PIPELINE;
    /* split needs both sides' keys: not for registered transports yet */
    int split = tl->caps.needs_reg ? RD_RNDV_GET : RD_RNDV_SPLIT;
    if (want == RD_RNDV_AUTO) {
        /* by size: both cores copy (split) large messages, the receiver
         * reads smaller ones; an exchange's sender pushes its own */
        t->split_min = (size_t)rd_param.rndv_split_min;
        t->small = RD_RNDV_GET;
        t->large = (uint8_t)split;
        t->exchange = RD_RNDV_PUT;
    } else {
        /* forced, or the only one there is: every size, every send */
        if (want == RD_RNDV_SPLIT)
            want = split;
        t->split_min = 0;
        t->small = t->large = t->exchange = (uint8_t)want;
    }
}

/* One line: "eager <= N B, rndv P lo..hi B, P lo B..inf, exchange P". */
static void proto_print(char *buf, size_t n, const struct rd_proto *t)
{
    size_t lo = (size_t)t->eager_limit + 1, at = 0;
    at += (size_t)snprintf(buf + at, n - at, "eager <= %zu B, rndv", (size_t)t->eager_limit);
    if (t->small != t->large && lo < t->split_min) {
        at += (size_t)snprintf(buf + at, n - at, " %s %zu..%zu B,", proto_name(t->small), lo, (size_t)t->split_min - 1);
        lo = t->split_min;
    }
    if (at < n) /* the rest, from the split point or from the eager limit */
        at += (size_t)snprintf(buf + at, n - at, " %s %zu B..inf", proto_name(t->large), lo);
    if (at < n)
        snprintf(buf + at, n - at, ", exchange %s", proto_name(t->exchange));
}

rd_status rd_eng_connect(int w)
{
    struct rd_peer *p = &rd_eng.peers[w];
    for (int i = 0; i < rd_eng.ntls; i++) {
        rd_tl *tl = rd_eng.tls[i];
        if (!tl->ops->reachable(tl, w))
            continue;
        rd_status st = tl->ops->connect(tl, w, &p->ep);
        if (st != RD_OK) {
            rd_error("p2p", "%s cannot connect to rank %d: %s", tl->ops->name, w,
                     rd_status_string(st));
            return st;
        }
        proto_choose(&p->proto, tl);
        p->proto.tl = (uint8_t)rd_pv_tl_index(tl->ops->name);
        if (RD_LOG_DEBUG <= rd_log_threshold && rd_log_component_enabled("p2p")) {
            char line[192];
            proto_print(line, sizeof(line), &p->proto);
            rd_debug("p2p", "rank %d via %s: %s", w, tl->ops->name, line);
        }
        return RD_OK;
    }
    rd_error("p2p", "no transport reaches rank %d (RDMPI_TRANSPORTS='%s')", w, rd_param.transports);
    return RD_ERR_UNREACH;
}

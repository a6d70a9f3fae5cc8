/*
 * verbs.c - the verbs transport: RC queue pairs of libibverbs (and
 * librdmacm for iWARP) under the transport contract (transport.h).
 *
 * open(): choose the device (verbs_dev.c), decide the connection mode
 * (RDMPI_VERBS_CM: auto takes rdma_cm for iWARP and for jobs of at least
 * RDMPI_VERBS_LAZY_MIN ranks, else PMIx), build the data path (verbs_data.c: protection domain, completion
 * queues, shared receive queue, credit words, registration cache) and the
 * wire-up (verbs_wire.c), which publishes this rank's address. activate()
 * connects the PMIx mode's QPs after the fence; connect() hands out
 * endpoints (rdma_cm: connecting on first use).
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "runtime/base/log.h"
#include "runtime/base/params.h"
#include "runtime/base/report.h"
#include "transports/verbs/verbs.h"

static void vb_close(rd_tl *base);

/* The open transport, for the hung-job report (one per process). */
static vb_tl *report_tl;

static void report_verbs(struct rd_report_buf *b)
{
    if (report_tl)
        vb_report(report_tl, b);
}

/* Open with connection mode cm (RD_VERBS_CM_AUTO, _PMIX or _RDMACM). quiet_cm: an
 * rdma_cm that finds no address is not an error (the caller falls back). */
static rd_status open_mode(const struct rd_job *job, const unsigned char *peers, rd_am_handler handler, void *harg,
                           int fault, long cm, int quiet_cm, vb_tl **out)
{
    vb_tl *tl = calloc(1, sizeof(*tl));
    if (!tl)
        return RD_ERR_NOMEM;
    tl->fault = fault;
    tl->base.ops = &rd_transport_verbs;
    tl->handler = handler;
    tl->harg = harg;
    tl->rank = job->rank;
    tl->size = job->size;
    tl->local_rank = job->local_rank;
    tl->credits = (uint32_t)rd_param.verbs_credits;
    tl->buf_size = (size_t)rd_param.verbs_buf_size;
    tl->sq_depth = (uint32_t)rd_param.verbs_sq_depth;
    tl->sig_every = tl->sq_depth / 4;
    tl->max_inline = (uint32_t)rd_param.verbs_inline;
    tl->cm_quiet = quiet_cm;

    rd_status st = vb_dev_open(&tl->dev, cm == RD_VERBS_CM_RDMACM, job->local_rank);
    if (st == RD_OK && cm == RD_VERBS_CM_AUTO && tl->dev.iwarp) {
        /* iWARP: only rdma_cm connects; reopen through its device list */
        vb_dev_close(&tl->dev);
        st = vb_dev_open(&tl->dev, 1, job->local_rank);
        cm = 2;
    }
    if (st != RD_OK) {
        free(tl);
        return st;
    }
    if (cm == RD_VERBS_CM_PMIX && tl->dev.iwarp) {
        rd_error("verbs", "%s is an iWARP device: it connects only through rdma_cm (RDMPI_VERBS_CM=rdmacm "
                 "or auto)", tl->dev.name);
        vb_dev_close(&tl->dev);
        free(tl);
        return RD_ERR_UNSUPPORTED;
    }
    tl->cm = cm == RD_VERBS_CM_RDMACM ? VB_CM_RDMACM : VB_CM_PMIX;
    tl->base.caps.atomics = tl->dev.attr.atomic_cap != IBV_ATOMIC_NONE;
    if ((st = vb_wire_plan(tl, peers)) != RD_OK || (st = vb_data_open(tl)) != RD_OK ||
        (st = vb_wire_open(tl)) != RD_OK) {
        vb_close(&tl->base);
        return st;
    }
    tl->base.caps.am_max = tl->buf_size - sizeof(struct vb_hdr);
    tl->base.caps.eager_limit = tl->base.caps.am_max - RD_AM_HDR_MAX;
    tl->base.caps.rma = 1;
    tl->base.caps.put_sent_only = tl->dev.iwarp; /* (transport.h, rd_rma_op) */
    tl->base.caps.needs_reg = 1;
    tl->base.caps.rkey_max = 4;
    tl->base.caps.latency_ns = 2000;
    tl->base.caps.bandwidth_mbs = 10000;
    rd_debug("verbs", "%s, %s wire-up, %u credits of %zu-byte buffers per peer, inline up to %u bytes, "
             "send queue %u, atomics %s", tl->dev.name, tl->cm == VB_CM_RDMACM ? "rdma_cm" : "PMIx", tl->credits,
             tl->buf_size, tl->max_inline, tl->sq_depth, tl->base.caps.atomics ? "yes" : "no");
    *out = tl;
    return RD_OK;
}

static rd_status vb_open(const struct rd_job *job, const unsigned char *peers, rd_am_handler handler, void *harg,
                         rd_tl **out)
{
    /* (the ranges of the numbers are declared in params.def, and MPI_Init
     * refuses a value out of them) */
    long cm = rd_param.verbs_cm;
    int fault = VB_FAULT_NONE;
    if (rd_param.verbs_fault[0]) {
        static const char *kinds[] = {"", "qp_error", "bad_rkey", "lost_peer"};
        const char *colon = strchr(rd_param.verbs_fault, ':');
        char *end = NULL;
        long who = colon ? strtol(colon + 1, &end, 10) : -1;
        for (int k = 1; k < 4 && colon; k++)
            if (strlen(kinds[k]) == (size_t)(colon - rd_param.verbs_fault) &&
                strncmp(rd_param.verbs_fault, kinds[k], strlen(kinds[k])) == 0)
                fault = k;
        if (!fault || !end || *end || who < 0) {
            rd_error("verbs", "RDMPI_VERBS_FAULT='%s': expected qp_error|bad_rkey|lost_peer:RANK", rd_param.verbs_fault);
            return RD_ERR_PARAM;
        }
        if (who != job->rank)
            fault = VB_FAULT_NONE;
    }
    /* auto: a large job connects on first use (memory grows with the peers
     * a rank talks to) where rdma_cm finds the device's address; a small
     * one, or a device without an address, wires every QP up front */
    int lazy = cm == RD_VERBS_CM_AUTO && rd_param.verbs_lazy_min > 0 && job->size >= rd_param.verbs_lazy_min;
    vb_tl *tl = NULL;
    rd_status st = open_mode(job, peers, handler, harg, fault, lazy ? RD_VERBS_CM_RDMACM : cm, lazy, &tl);
    if (st == RD_ERR_UNSUPPORTED && lazy) {
        rd_debug("verbs", "no rdma_cm address for connections on first use: PMIx wire-up");
        st = open_mode(job, peers, handler, harg, fault, RD_VERBS_CM_AUTO, 0, &tl);
    }
    if (st == RD_OK) {
        *out = &tl->base;
        report_tl = tl;
        rd_report_register(report_verbs);
    }
    return st;
}

static rd_status vb_activate(rd_tl *base)
{
    return vb_wire_activate((vb_tl *)base);
}

static int vb_reachable(rd_tl *base, int peer)
{
    return vb_wire_serves((vb_tl *)base, peer);
}

static rd_status vb_connect(rd_tl *base, int peer, rd_ep **out)
{
    vb_ep *ep;
    rd_status st = vb_wire_connect((vb_tl *)base, peer, &ep);
    if (st == RD_OK)
        *out = &ep->base;
    return st;
}

static void vb_close(rd_tl *base)
{
    vb_tl *tl = (vb_tl *)base;
    if (!tl)
        return;
    if (report_tl == tl)
        report_tl = NULL;
    vb_wire_close(tl); /* the QPs first: they use the queues below */
    vb_data_close(tl);
    vb_dev_close(&tl->dev);
    free(tl);
}

const struct rd_transport rd_transport_verbs = {
    .size = sizeof(struct rd_transport),
    .name = "verbs",
    .open = vb_open,
    .activate = vb_activate,
    .reachable = vb_reachable,
    .connect = vb_connect,
    .am_send = vb_am_send,
    .mem_reg = vb_mem_reg,
    .mem_dereg = vb_mem_dereg,
    .get = vb_get,
    .put = vb_put,
    .progress = vb_progress,
    .close = vb_close,
    .busy = vb_busy,
    .network = 1,
    .atomic = vb_atomic,
    .activate_fence = 1,
};

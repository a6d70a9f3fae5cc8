/*
 * verbs_wire.c - RC queue pairs and how they get connected.
 *
 * pmix mode (InfiniBand, RoCE): open() makes one RC QP for every rank this
 * transport serves and publishes, in one PMIx key, the LID, the GID, the
 * MTU, a PSN, where peers write credit counts, and the QP numbers (one per
 * world rank). After the job's fence, activate() reads each peer's key and
 * moves that QP through INIT -> RTR -> RTS with the peer's attributes: the
 * launcher's key exchange is the whole connection protocol. A QP exists for
 * every served peer from the start, because its number must be known
 * before the fence.
 *
 * rdmacm mode (iWARP, which has no other way; or RDMPI_VERBS_CM=rdmacm):
 * open() listens on the device's IP address and publishes that address;
 * connect() starts rdma_resolve_addr on first use of a peer and returns an
 * endpoint that is not ready yet (am_send says RD_ERR_AGAIN until the
 * connection is established, and the engine queues). Only ranks that talk
 * get a QP and their share of receive buffers. Two ranks connecting to each
 * other at once: the request of the lower rank wins; the higher rank accepts
 * it and drops its own attempt, which the lower rank rejects.
 */
#include "config.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <ifaddrs.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <unistd.h>

#include "runtime/base/job.h"
#include "runtime/base/log.h"
#include "runtime/base/params.h"
#include "transports/verbs/verbs.h"

#define VB_CM_TIMEOUT_MS 5000
#define VB_RD_ATOMIC 16

int vb_wire_serves(const vb_tl *tl, int r)
{
    return r >= 0 && r < tl->size && tl->serves[r];
}

void vb_wire_qp_init_attr(vb_tl *tl, struct ibv_qp_init_attr *a)
{
    memset(a, 0, sizeof(*a));
    a->send_cq = tl->scq;
    a->recv_cq = tl->rcq;
    a->srq = tl->srq;
    a->cap.max_send_wr = tl->sq_depth;
    a->cap.max_send_sge = 3;
    a->cap.max_inline_data = tl->max_inline;
    a->qp_type = IBV_QPT_RC;
    a->sq_sig_all = 0;
}

rd_status vb_ep_new(vb_tl *tl, int peer, vb_ep **out)
{
    vb_ep *ep = calloc(1, sizeof(*ep));
    if (!ep)
        return RD_ERR_NOMEM;
    ep->sq = calloc(tl->sq_depth, sizeof(*ep->sq));
    if (!ep->sq) {
        free(ep);
        return RD_ERR_NOMEM;
    }
    rd_status st = vb_srq_grow(tl);
    if (st != RD_OK) {
        free(ep->sq);
        free(ep);
        return st;
    }
    ep->base.tl = &tl->base;
    ep->base.peer = peer;
    tl->eps[peer] = ep;
    tl->neps++;
    *out = ep;
    return RD_OK;
}

void vb_ep_free(vb_tl *tl, vb_ep *ep)
{
    if (!ep)
        return;
    if (ep->cm_out) {
        if (ep->cm_out->qp)
            rdma_destroy_qp(ep->cm_out);
        rdma_destroy_id(ep->cm_out);
    }
    if (ep->lost_qp) { /* ep->qp is the fault's QP, lost_qp the real one */
        ibv_destroy_qp(ep->qp);
        ep->qp = ep->cm_id ? NULL : ep->lost_qp;
    }
    if (ep->cm_id) {
        if (ep->cm_id->qp)
            rdma_destroy_qp(ep->cm_id);
        rdma_destroy_id(ep->cm_id);
    } else if (ep->qp) {
        ibv_destroy_qp(ep->qp);
    }
    tl->eps[ep->base.peer] = NULL;
    free(ep->sq);
    free(ep);
}

/* Read peer's published address; *qpn gets its QP number for us (pmix). */
static rd_status peer_addr(vb_tl *tl, int peer, struct vb_addr *a, uint32_t *qpn)
{
    void *data = NULL;
    size_t len = 0;
    rd_status st = rd_job_get(peer, VB_KEY, &data, &len);
    if (st != RD_OK) {
        rd_error("verbs", "no verbs address from rank %d: %s", peer, rd_status_string(st));
        return st;
    }
    if (len < sizeof(*a)) {
        free(data);
        rd_error("verbs", "rank %d published a malformed verbs address (%zu bytes)", peer, len);
        return RD_ERR_INTERNAL;
    }
    memcpy(a, data, sizeof(*a));
    if (a->magic != VB_MAGIC) {
        free(data);
        rd_error("verbs", "rank %d published a verbs address of another version", peer);
        return RD_ERR_INTERNAL;
    }
    if (a->cm != tl->cm) {
        free(data);
        rd_error("verbs", "rank %d connects through %s, this rank through %s (RDMPI_VERBS_CM and the "
                 "devices must agree)", peer, a->cm == VB_CM_RDMACM ? "rdma_cm" : "PMIx",
                 tl->cm == VB_CM_RDMACM ? "rdma_cm" : "PMIx");
        return RD_ERR_UNREACH;
    }
    if (qpn) {
        *qpn = 0;
        if (a->size == (uint32_t)tl->size && len >= sizeof(*a) + (size_t)tl->size * 4)
            memcpy(qpn, (char *)data + sizeof(*a) + (size_t)tl->rank * 4, 4);
    }
    free(data);
    return RD_OK;
}

/* ------------------------------------------------------------ pmix mode */

static rd_status qp_create(vb_tl *tl, vb_ep *ep)
{
    struct ibv_qp_init_attr ia;
    for (;;) {
        vb_wire_qp_init_attr(tl, &ia);
        ep->qp = ibv_create_qp(tl->pd, &ia);
        if (ep->qp || tl->max_inline == 0)
            break;
        tl->max_inline /= 2; /* more inline data than the device takes */
        if (tl->max_inline < 16)
            tl->max_inline = 0;
    }
    if (!ep->qp) {
        rd_error("verbs", "ibv_create_qp for rank %d on %s: %s", ep->base.peer, tl->dev.name,
                 strerror(errno));
        return RD_ERR_IO;
    }
    if (ia.cap.max_inline_data < tl->max_inline)
        tl->max_inline = ia.cap.max_inline_data;
    struct ibv_qp_attr qa = {0};
    qa.qp_state = IBV_QPS_INIT;
    qa.pkey_index = 0;
    qa.port_num = tl->dev.port;
    qa.qp_access_flags = IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_READ | IBV_ACCESS_REMOTE_WRITE |
                         (tl->base.caps.atomics ? IBV_ACCESS_REMOTE_ATOMIC : 0);
    if (ibv_modify_qp(ep->qp, &qa, IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT | IBV_QP_ACCESS_FLAGS)) {
        rd_error("verbs", "QP for rank %d to INIT: %s", ep->base.peer, strerror(errno));
        return RD_ERR_IO;
    }
    return RD_OK;
}

static int rd_atom(const vb_tl *tl, int init)
{
    int m = init ? tl->dev.attr.max_qp_init_rd_atom : tl->dev.attr.max_qp_rd_atom;
    return m < VB_RD_ATOMIC ? m : VB_RD_ATOMIC;
}

static rd_status qp_connect(vb_tl *tl, vb_ep *ep, const struct vb_addr *pa, uint32_t qpn)
{
    struct ibv_qp_attr qa = {0};
    int peer = ep->base.peer;
    qa.qp_state = IBV_QPS_RTR;
    qa.path_mtu = pa->mtu < tl->dev.port_attr.active_mtu ? (enum ibv_mtu)pa->mtu : tl->dev.port_attr.active_mtu;
    qa.dest_qp_num = qpn;
    qa.rq_psn = pa->psn;
    qa.max_dest_rd_atomic = (uint8_t)rd_atom(tl, 0);
    qa.min_rnr_timer = 12;
    qa.ah_attr.port_num = tl->dev.port;
    qa.ah_attr.dlid = pa->lid;
    qa.ah_attr.sl = 0;
    if (tl->dev.ethernet || tl->dev.port_attr.lid == 0 || pa->lid == 0) {
        qa.ah_attr.is_global = 1;
        memcpy(qa.ah_attr.grh.dgid.raw, pa->gid, 16);
        qa.ah_attr.grh.sgid_index = (uint8_t)tl->dev.gid_index;
        qa.ah_attr.grh.hop_limit = 64;
    }
    if (ibv_modify_qp(ep->qp, &qa, IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU | IBV_QP_DEST_QPN |
                                       IBV_QP_RQ_PSN | IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER)) {
        rd_error("verbs", "QP to rank %d (QP number %u) to RTR: %s", peer, qpn, strerror(errno));
        return RD_ERR_IO;
    }
    memset(&qa, 0, sizeof(qa));
    qa.qp_state = IBV_QPS_RTS;
    qa.timeout = (uint8_t)rd_param.verbs_timeout;
    qa.retry_cnt = (uint8_t)rd_param.verbs_retry_count;
    qa.rnr_retry = 7;
    qa.sq_psn = tl->psn;
    qa.max_rd_atomic = (uint8_t)rd_atom(tl, 1);
    if (ibv_modify_qp(ep->qp, &qa, IBV_QP_STATE | IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY |
                                       IBV_QP_SQ_PSN | IBV_QP_MAX_QP_RD_ATOMIC)) {
        rd_error("verbs", "QP to rank %d to RTS: %s", peer, strerror(errno));
        return RD_ERR_IO;
    }
    ep->state = VB_EP_READY;
    return RD_OK;
}

/* RDMPI_VERBS_FAULT=lost_peer (tests): ep's QP replaced by one toward a QP
 * number nobody owns (IB and RoCE); tl->lose_qp. */
static rd_status lost_qp(vb_tl *tl, vb_ep *ep)
{
    struct vb_addr pa;
    uint32_t qpn;
    rd_status st = peer_addr(tl, ep->base.peer, &pa, &qpn);
    if (st != RD_OK)
        return st;
    struct ibv_qp *real = ep->qp;
    if ((st = qp_create(tl, ep)) != RD_OK) {
        ep->qp = real;
        return st;
    }
    ep->lost_qp = real;
    /* a QP number far from any the device handed out */
    return qp_connect(tl, ep, &pa, (real->qp_num ^ 0x5a5a00) & 0xffffff);
}

/* ------------------------------------------------------------ rdma_cm mode */

/* The IPv4 address of our device's port: the first interface address that
 * rdma_cm binds to this device and port. */
static rd_status cm_find_addr(vb_tl *tl, struct sockaddr_in *out)
{
    struct ifaddrs *ifs = NULL, *i;
    if (getifaddrs(&ifs) != 0) {
        rd_error("verbs", "getifaddrs: %s", strerror(errno));
        return RD_ERR_IO;
    }
    rd_status st = RD_ERR_UNSUPPORTED;
    for (i = ifs; i; i = i->ifa_next) {
        if (!i->ifa_addr || i->ifa_addr->sa_family != AF_INET)
            continue;
        struct rdma_cm_id *id;
        if (rdma_create_id(tl->ch, &id, NULL, RDMA_PS_TCP) != 0)
            continue;
        struct sockaddr_in sin;
        memcpy(&sin, i->ifa_addr, sizeof(sin));
        sin.sin_port = 0;
        int match = rdma_bind_addr(id, (struct sockaddr *)&sin) == 0 && id->verbs &&
                    strcmp(ibv_get_device_name(id->verbs->device), tl->dev.name) == 0 &&
                    id->port_num == tl->dev.port;
        rdma_destroy_id(id);
        if (match) {
            *out = sin;
            st = RD_OK;
            break;
        }
    }
    freeifaddrs(ifs);
    if (st != RD_OK && tl->cm_quiet)
        rd_debug("verbs", "%s port %d: no IPv4 address for rdma_cm", tl->dev.name, tl->dev.port);
    else if (st != RD_OK)
        rd_error("verbs", "%s port %d: no IPv4 address for rdma_cm (the port's network device "
                 "needs one%s)", tl->dev.name, tl->dev.port,
                 tl->dev.iwarp ? "" : "; RDMPI_VERBS_CM=pmix wires every QP up through PMIx instead");
    return st;
}

static rd_status cm_open(vb_tl *tl)
{
    tl->ch = rdma_create_event_channel();
    if (!tl->ch) {
        rd_error("verbs", "rdma_create_event_channel: %s", strerror(errno));
        return RD_ERR_IO;
    }
    int fl = fcntl(tl->ch->fd, F_GETFL);
    if (fl < 0 || fcntl(tl->ch->fd, F_SETFL, fl | O_NONBLOCK) < 0) {
        rd_error("verbs", "rdma_cm channel non-blocking: %s", strerror(errno));
        return RD_ERR_IO;
    }
    rd_status st = cm_find_addr(tl, &tl->laddr);
    if (st != RD_OK)
        return st;
    if (rdma_create_id(tl->ch, &tl->listen, tl, RDMA_PS_TCP) != 0 ||
        rdma_bind_addr(tl->listen, (struct sockaddr *)&tl->laddr) != 0 || rdma_listen(tl->listen, 128) != 0) {
        rd_error("verbs", "rdma_cm listen on %s: %s", inet_ntoa(tl->laddr.sin_addr), strerror(errno));
        return RD_ERR_IO;
    }
    tl->laddr.sin_port = rdma_get_src_port(tl->listen);
    rd_debug("verbs", "rdma_cm: listening on %s:%u", inet_ntoa(tl->laddr.sin_addr), ntohs(tl->laddr.sin_port));
    return RD_OK;
}

static void cm_conn_param(vb_tl *tl, struct rdma_conn_param *p, struct vb_cm_priv *priv)
{
    memset(p, 0, sizeof(*p));
    priv->magic = VB_MAGIC;
    priv->rank = tl->rank;
    p->private_data = priv;
    p->private_data_len = sizeof(*priv);
    p->responder_resources = (uint8_t)rd_atom(tl, 0);
    p->initiator_depth = (uint8_t)rd_atom(tl, 1);
    p->retry_count = (uint8_t)rd_param.verbs_retry_count;
    p->rnr_retry_count = 7;
}

static rd_status cm_create_qp(vb_tl *tl, struct rdma_cm_id *id, int peer)
{
    struct ibv_qp_init_attr ia;
    for (;;) {
        vb_wire_qp_init_attr(tl, &ia);
        if (rdma_create_qp(id, tl->pd, &ia) == 0)
            break;
        if (tl->max_inline == 0) {
            rd_error("verbs", "rdma_create_qp for rank %d on %s: %s", peer, tl->dev.name, strerror(errno));
            return RD_ERR_IO;
        }
        tl->max_inline /= 2;
        if (tl->max_inline < 16)
            tl->max_inline = 0;
    }
    if (ia.cap.max_inline_data < tl->max_inline)
        tl->max_inline = ia.cap.max_inline_data;
    uint8_t t = (uint8_t)rd_param.verbs_timeout;
    if (!tl->dev.iwarp)
        rdma_set_option(id, RDMA_OPTION_ID, RDMA_OPTION_ID_ACK_TIMEOUT, &t, sizeof(t));
    return RD_OK;
}

/* The connection on id is there: the endpoint can send, except on iWARP
 * where this side accepted: MPA (RFC 5044) lets the responder send only
 * after the initiator's first message, and siw refuses the connection when
 * a message is already in its socket as it reads the MPA reply (its
 * siw_recv_mpa_rr reads past the reply's private data: EPROTO, and the
 * initiator's rdma_cm sees RDMA_CM_EVENT_CONNECT_ERROR, EINVAL). So the
 * side that connected sends a hello at once, and again until it hears from
 * the peer: siw's accepting side sends its MPA reply before it hands the
 * socket to the QP, and what lands in between stays in the socket, unread,
 * until more data comes (siw_accept, siw_cm_llp_data_ready in RDMA mode).
 * The side that accepted waits for the first message, then answers with a
 * hello (vb_hello_start). */
static void cm_ready(vb_tl *tl, vb_ep *ep, struct rdma_cm_id *id)
{
    int connected_out = ep->cm_out == id;
    if (connected_out)
        ep->cm_out = NULL;
    ep->cm_id = id;
    ep->qp = id->qp;
    if (ep->state == VB_EP_CONNECTING)
        tl->nconnecting--;
    ep->state = tl->dev.iwarp && !connected_out && !ep->heard ? VB_EP_WAIT_FIRST : VB_EP_READY;
    rd_debug("verbs", "rdma_cm: connected to rank %d (QP %u)%s", ep->base.peer, ep->qp->qp_num,
             ep->state == VB_EP_WAIT_FIRST ? "; waiting for its first message before sending" : "");
    if (tl->dev.iwarp && (connected_out || ep->heard))
        vb_hello_start(tl, ep, connected_out);
}

static void cm_bury(vb_tl *tl, struct rdma_cm_id *id)
{
    if (tl->ndead == tl->dead_cap) {
        int cap = tl->dead_cap ? tl->dead_cap * 2 : 8;
        struct rdma_cm_id **d = realloc(tl->dead_ids, (size_t)cap * sizeof(*d));
        if (!d) { /* keep it: leaked until exit rather than destroyed with events pending */
            return;
        }
        tl->dead_ids = d;
        tl->dead_cap = cap;
    }
    tl->dead_ids[tl->ndead++] = id;
}

static rd_status cm_start(vb_tl *tl, vb_ep *ep, const struct vb_addr *pa)
{
    struct rdma_cm_id *id;
    struct sockaddr_in dst = {.sin_family = AF_INET, .sin_addr.s_addr = pa->ip, .sin_port = pa->port};
    struct sockaddr_in src = tl->laddr;
    src.sin_port = 0;
    if (rdma_create_id(tl->ch, &id, ep, RDMA_PS_TCP) != 0) {
        rd_error("verbs", "rdma_create_id for rank %d: %s", ep->base.peer, strerror(errno));
        return RD_ERR_IO;
    }
    if (rdma_resolve_addr(id, (struct sockaddr *)&src, (struct sockaddr *)&dst, VB_CM_TIMEOUT_MS) != 0) {
        rd_error("verbs", "rdma_resolve_addr of rank %d (%s): %s", ep->base.peer, inet_ntoa(dst.sin_addr),
                 strerror(errno));
        rdma_destroy_id(id);
        return RD_ERR_UNREACH;
    }
    ep->cm_out = id;
    ep->state = VB_EP_CONNECTING;
    tl->nconnecting++;
    return RD_OK;
}

/* A peer's connection request. */
static void cm_request(vb_tl *tl, struct rdma_cm_id *id, const struct vb_cm_priv *priv)
{
    int peer = priv ? priv->rank : -1;
    struct vb_cm_priv mine;
    struct rdma_conn_param p;
    if (!priv || priv->magic != VB_MAGIC || peer < 0 || peer >= tl->size || peer == tl->rank ||
        !tl->serves[peer]) {
        rd_warn("verbs", "rdma_cm: refusing a connection request that is not from a rank of this job");
        rdma_reject(id, NULL, 0);
        cm_bury(tl, id);
        return;
    }
    vb_ep *ep = tl->eps[peer];
    if (ep && (ep->cm_id || (ep->cm_out && tl->rank < peer))) {
        /* we have a connection, or ours wins the simultaneous connect */
        rd_debug("verbs", "rdma_cm: rank %d's request refused (%s)", peer,
                 ep->cm_id ? "already connected" : "our own request wins");
        rdma_reject(id, NULL, 0);
        cm_bury(tl, id);
        return;
    }
    if (!ep) {
        struct vb_addr pa;
        if (peer_addr(tl, peer, &pa, NULL) != RD_OK || vb_ep_new(tl, peer, &ep) != RD_OK)
            vb_fatal(tl, peer, "cannot accept the connection from rank %d", peer);
        ep->remote_cw = pa.cw_addr + (uint64_t)tl->rank * 4;
        ep->remote_cw_rkey = pa.cw_rkey;
        ep->state = VB_EP_CONNECTING;
        tl->nconnecting++;
    }
    id->context = ep;
    if (cm_create_qp(tl, id, peer) != RD_OK)
        vb_fatal(tl, peer, "cannot make a QP for rank %d's connection", peer);
    cm_conn_param(tl, &p, &mine);
    if (rdma_accept(id, &p) != 0)
        vb_fatal(tl, peer, "rdma_accept of rank %d: %s", peer, strerror(errno));
    ep->cm_id = id;
    ep->qp = id->qp; /* RTR: the peer may send once it sees the connection */
    rd_debug("verbs", "rdma_cm: accepted rank %d", peer);
}

/* rdma_cm events (tl->cm_progress, called from progress). */
static int cm_progress(vb_tl *tl)
{
    int n = 0;
    struct rdma_cm_event *ev;
    while (tl->ndead) { /* rejected ids, their events all acknowledged */
        struct rdma_cm_id *id = tl->dead_ids[--tl->ndead];
        if (id->qp)
            rdma_destroy_qp(id);
        rdma_destroy_id(id);
    }
    while (rdma_get_cm_event(tl->ch, &ev) == 0) {
        enum rdma_cm_event_type type = ev->event;
        struct rdma_cm_id *id = ev->id;
        int status = ev->status;
        struct vb_cm_priv priv, *pp = NULL;
        if (ev->param.conn.private_data && ev->param.conn.private_data_len >= sizeof(priv)) {
            memcpy(&priv, ev->param.conn.private_data, sizeof(priv));
            pp = &priv;
        }
        rdma_ack_cm_event(ev);
        n++;
        vb_ep *ep = type == RDMA_CM_EVENT_CONNECT_REQUEST ? NULL : id->context;
        int peer = ep ? ep->base.peer : -1;
        switch (type) {
        case RDMA_CM_EVENT_CONNECT_REQUEST:
            cm_request(tl, id, pp);
            break;
        case RDMA_CM_EVENT_ADDR_RESOLVED:
            if (id == ep->cm_out && ep->cm_id) { /* the peer's request connected us meanwhile */
                rd_debug("verbs", "rdma_cm: our request to rank %d not needed (its own connected us)", peer);
                ep->cm_out = NULL;
                cm_bury(tl, id);
                break;
            }
            if (rdma_resolve_route(id, VB_CM_TIMEOUT_MS) != 0)
                vb_fatal(tl, peer, "rdma_resolve_route to rank %d: %s", peer, strerror(errno));
            break;
        case RDMA_CM_EVENT_ROUTE_RESOLVED: {
            struct vb_cm_priv mine;
            struct rdma_conn_param p;
            if (id != ep->cm_out || ep->cm_id) { /* superseded: the peer's request connected us */
                if (id == ep->cm_out) {
                    rd_debug("verbs", "rdma_cm: our request to rank %d not needed (its own connected us)", peer);
                    ep->cm_out = NULL;
                }
                cm_bury(tl, id);
                break;
            }
            if (cm_create_qp(tl, id, peer) != RD_OK)
                vb_fatal(tl, peer, "cannot make a QP for rank %d", peer);
            cm_conn_param(tl, &p, &mine);
            if (rdma_connect(id, &p) != 0)
                vb_fatal(tl, peer, "rdma_connect to rank %d: %s", peer, strerror(errno));
            break;
        }
        case RDMA_CM_EVENT_ESTABLISHED:
            if (id == ep->cm_out || id == ep->cm_id)
                cm_ready(tl, ep, id);
            break;
        case RDMA_CM_EVENT_REJECTED:
            if (ep && id == ep->cm_out && peer < tl->rank) {
                /* the lower rank's request won: ours is dropped */
                rd_debug("verbs", "rdma_cm: rank %d refused our request (its own wins)", peer);
                ep->cm_out = NULL;
                cm_bury(tl, id);
                break;
            }
            vb_fatal(tl, peer, "rdma_cm: rank %d refused the connection (status %d)", peer, status);
        case RDMA_CM_EVENT_ADDR_ERROR:
        case RDMA_CM_EVENT_ROUTE_ERROR:
        case RDMA_CM_EVENT_CONNECT_ERROR:
        case RDMA_CM_EVENT_UNREACHABLE:
            vb_fatal(tl, peer, "rdma_cm: connecting to rank %d: %s (%s)", peer, rdma_event_str(type),
                     strerror(status < 0 ? -status : status));
        case RDMA_CM_EVENT_DEVICE_REMOVAL:
            vb_fatal(tl, peer, "rdma_cm: device %s removed", tl->dev.name);
        case RDMA_CM_EVENT_DISCONNECTED:
            /* ranks close their connections only after the job's last
             * fence, past their last progress: a disconnection seen here
             * is a failure (the peer's QP went to the error state, or the
             * connection broke) */
            if (ep && id == ep->cm_id && ep->state != VB_EP_FAILED) {
                ep->state = VB_EP_FAILED;
                vb_fatal(tl, peer, "rdma_cm: the connection to rank %d broke (%s)", peer, rdma_event_str(type));
            }
            break;
        default:
            rd_debug("verbs", "rdma_cm: %s (status %d)", rdma_event_str(type), status);
            break;
        }
    }
    if (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)
        vb_fatal(tl, -1, "rdma_get_cm_event: %s", strerror(errno));
    return n;
}

/* ------------------------------------------------------------ both */

/* Which ranks verbs serves is the engine's word (the open's peers): it
 * knows which transports opened before verbs and which ranks they carry
 * (shm the node's, unless RDMPI_TRANSPORTS orders otherwise or shm could
 * not open), so verbs makes QPs for exactly the ranks it will carry. */
rd_status vb_wire_plan(vb_tl *tl, const unsigned char *peers)
{
    tl->cm_progress = cm_progress;
    tl->lose_qp = lost_qp;
    tl->serves = calloc((size_t)tl->size, 1);
    tl->eps = calloc((size_t)tl->size, sizeof(*tl->eps));
    if (!tl->serves || !tl->eps)
        return RD_ERR_NOMEM;
    for (int r = 0; r < tl->size; r++)
        tl->serves[r] = r != tl->rank && (!peers || peers[r]);
    return RD_OK;
}

rd_status vb_wire_open(vb_tl *tl)
{
    rd_status st;
    struct timeval tv;
    gettimeofday(&tv, NULL);
    tl->psn = (uint32_t)(tv.tv_usec ^ (tv.tv_sec << 8) ^ ((unsigned)tl->rank * 2654435761u)) & 0xffffff;

    size_t nq = tl->cm == VB_CM_PMIX ? (size_t)tl->size : 0;
    struct vb_addr *a = calloc(1, sizeof(*a) + nq * 4);
    if (!a)
        return RD_ERR_NOMEM;
    a->magic = VB_MAGIC;
    a->cm = (uint8_t)tl->cm;
    a->mtu = (uint8_t)tl->dev.port_attr.active_mtu;
    a->lid = tl->dev.port_attr.lid;
    memcpy(a->gid, tl->dev.gid.raw, 16);
    a->psn = tl->psn;
    a->cw_addr = (uint64_t)(uintptr_t)tl->cw;
    a->cw_rkey = tl->cw_mr->rkey;
    a->size = (uint32_t)nq;
    if (tl->cm == VB_CM_RDMACM) {
        st = cm_open(tl);
        if (st != RD_OK)
            goto out;
        a->ip = tl->laddr.sin_addr.s_addr;
        a->port = tl->laddr.sin_port;
    } else {
        uint32_t *qpn = (uint32_t *)(a + 1);
        for (int r = 0; r < tl->size; r++) {
            if (!tl->serves[r])
                continue;
            vb_ep *ep;
            if ((st = vb_ep_new(tl, r, &ep)) != RD_OK || (st = qp_create(tl, ep)) != RD_OK)
                goto out;
            qpn[r] = ep->qp->qp_num;
        }
    }
    st = rd_job_put(VB_KEY, a, sizeof(*a) + nq * 4);
out:
    free(a);
    return st;
}

rd_status vb_wire_activate(vb_tl *tl)
{
    if (tl->cm != VB_CM_PMIX)
        return RD_OK;
    for (int r = 0; r < tl->size; r++) {
        vb_ep *ep = tl->eps[r];
        if (!ep)
            continue;
        struct vb_addr pa;
        uint32_t qpn;
        rd_status st = peer_addr(tl, r, &pa, &qpn);
        if (st != RD_OK)
            return st;
        if (qpn == 0) {
            rd_error("verbs", "rank %d has no QP for rank %d (do both use the same RDMPI_TRANSPORTS?)", r,
                     tl->rank);
            return RD_ERR_UNREACH;
        }
        ep->remote_cw = pa.cw_addr + (uint64_t)tl->rank * 4;
        ep->remote_cw_rkey = pa.cw_rkey;
        if ((st = qp_connect(tl, ep, &pa, qpn)) != RD_OK)
            return st;
    }
    rd_debug("verbs", "pmix wire-up: %d QPs connected", tl->neps);
    return RD_OK;
}

/* This rank itself: a QP connected to itself (a loopback, made on first
 * use from local facts only, whatever the wire-up), which the engine never
 * asks for (the self transport carries a rank's own messages) but the
 * floors above may, through the engine's runtime/p2p/net.h: one-sided
 * windows use the device's atomics only where every rank, the target
 * itself included, goes through the device (runtime/rma/rdma.c). Not on
 * iWARP, whose QPs connect only through rdma_cm. */
static rd_status self_connect(vb_tl *tl, vb_ep **out)
{
    if (tl->dev.iwarp)
        return RD_ERR_UNREACH;
    /* (as vb_ep_new, without receive buffers: no active message comes
     * this way, the shared receive queue keeps its size) */
    vb_ep *ep = calloc(1, sizeof(*ep));
    if (!ep || !(ep->sq = calloc(tl->sq_depth, sizeof(*ep->sq)))) {
        free(ep);
        return RD_ERR_NOMEM;
    }
    ep->base.tl = &tl->base;
    ep->base.peer = tl->rank;
    tl->eps[tl->rank] = ep;
    rd_status st;
    struct vb_addr me = {.mtu = (uint8_t)tl->dev.port_attr.active_mtu, .lid = tl->dev.port_attr.lid,
                         .psn = tl->psn};
    memcpy(me.gid, tl->dev.gid.raw, 16);
    ep->remote_cw = (uint64_t)(uintptr_t)tl->cw + (uint64_t)tl->rank * 4;
    ep->remote_cw_rkey = tl->cw_mr->rkey;
    if ((st = qp_create(tl, ep)) != RD_OK || (st = qp_connect(tl, ep, &me, ep->qp->qp_num)) != RD_OK) {
        vb_ep_free(tl, ep);
        return st;
    }
    rd_debug("verbs", "a loopback QP for this rank (%u)", ep->qp->qp_num);
    *out = ep;
    return RD_OK;
}

rd_status vb_wire_connect(vb_tl *tl, int peer, vb_ep **out)
{
    vb_ep *ep = tl->eps[peer];
    if (ep) {
        *out = ep;
        return RD_OK;
    }
    if (peer == tl->rank)
        return self_connect(tl, out);
    if (tl->cm == VB_CM_PMIX || !tl->serves[peer]) {
        rd_error("verbs", "no QP for rank %d", peer);
        return RD_ERR_UNREACH;
    }
    struct vb_addr pa;
    rd_status st = peer_addr(tl, peer, &pa, NULL);
    if (st != RD_OK)
        return st;
    if ((st = vb_ep_new(tl, peer, &ep)) != RD_OK)
        return st;
    ep->remote_cw = pa.cw_addr + (uint64_t)tl->rank * 4;
    ep->remote_cw_rkey = pa.cw_rkey;
    if ((st = cm_start(tl, ep, &pa)) != RD_OK) {
        vb_ep_free(tl, ep);
        return st;
    }
    *out = ep;
    return RD_OK;
}

void vb_wire_close(vb_tl *tl)
{
    if (tl->eps)
        for (int r = 0; r < tl->size; r++)
            vb_ep_free(tl, tl->eps[r]);
    while (tl->ndead) {
        struct rdma_cm_id *id = tl->dead_ids[--tl->ndead];
        if (id->qp)
            rdma_destroy_qp(id);
        rdma_destroy_id(id);
    }
    free(tl->dead_ids);
    tl->dead_ids = NULL;
    if (tl->listen)
        rdma_destroy_id(tl->listen);
    tl->listen = NULL;
    if (tl->ch)
        rdma_destroy_event_channel(tl->ch);
    tl->ch = NULL;
    free(tl->eps);
    free(tl->serves);
    tl->eps = NULL;
    tl->serves = NULL;
}

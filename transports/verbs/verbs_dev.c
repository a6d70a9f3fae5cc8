/*
 * verbs_dev.c - which device, port and GID the verbs transport uses.
 *
 * Candidates are the active ports of every device, or those named by
 * RDMPI_VERBS_DEVICE ("mlx5_0:1", "mlx5_0", a comma-separated list). Only
 * the best kind present is kept (InfiniBand, then RoCE, then iWARP: ranks
 * that chose different kinds could not talk). When several remain, hwloc
 * says which devices are attached near the cores
 * this rank is bound to (a device without locality, such as a software
 * one, is near every core); ranks of one node spread over the nearest ones
 * by local rank. With rdma_cm the device's context comes from librdmacm's
 * own list, since its connection ids carry that context and the protection
 * domain, queues and QPs must belong to the same one.
 *
 * GID: InfiniBand uses the port's LID (GID index 0 for the GRH-less path).
 * RoCE needs a GID: RDMPI_VERBS_GID_INDEX, else the table is scanned for a
 * RoCE v2 entry holding an IPv4 address (routable, and what rdma_cm picks),
 * then RoCE v2 with a global IPv6 address, then any RoCE v2, then v1.
 */
#include "config.h"

#include <errno.h>
#include <hwloc.h>
#include <hwloc/openfabrics-verbs.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "runtime/base/log.h"
#include "runtime/base/params.h"
#include "transports/verbs/verbs.h"

int vb_dev_parse_spec(const char *spec, char *name, size_t nlen, int *port)
{
    const char *colon = strchr(spec, ':');
    size_t n = colon ? (size_t)(colon - spec) : strlen(spec);
    if (n == 0 || n >= nlen)
        return -1;
    memcpy(name, spec, n);
    name[n] = '\0';
    *port = 0;
    if (colon) {
        char *end;
        long p = strtol(colon + 1, &end, 10);
        if (end == colon + 1 || *end || p < 1 || p > 255)
            return -1;
        *port = (int)p;
    }
    return 0;
}

int vb_dev_pick(const struct vb_cand *c, int n, int local_rank)
{
    int kind = 0, near = 0;
    for (int i = 0; i < n; i++)
        if (c[i].kind > kind)
            kind = c[i].kind;
    for (int i = 0; i < n; i++)
        near += c[i].kind == kind && c[i].near;
    int want_near = near > 0, count = 0;
    for (int i = 0; i < n; i++)
        count += c[i].kind == kind && (!want_near || c[i].near);
    if (count == 0)
        return -1;
    int k = (local_rank < 0 ? 0 : local_rank) % count;
    for (int i = 0; i < n; i++) {
        if (c[i].kind != kind || (want_near && !c[i].near))
            continue;
        if (k-- == 0)
            return i;
    }
    return -1;
}

static int gid_is_ipv4(const uint8_t *g)
{
    static const uint8_t prefix[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff};
    return memcmp(g, prefix, 12) == 0;
}

static int gid_is_zero(const uint8_t *g)
{
    for (int i = 0; i < 16; i++)
        if (g[i])
            return 0;
    return 1;
}

static int gid_rank(const struct vb_gid_ent *e)
{
    int link_local = e->raw[0] == 0xfe && (e->raw[1] & 0xc0) == 0x80;
    if (gid_is_zero(e->raw))
        return 0;
    if (e->type == VB_GID_ROCE_V2)
        return gid_is_ipv4(e->raw) ? 5 : link_local ? 3 : 4;
    if (e->type == VB_GID_ROCE_V1)
        return gid_is_ipv4(e->raw) ? 2 : 1;
    return 1; /* IB */
}

int vb_gid_pick(const struct vb_gid_ent *e, int n)
{
    int best = -1, best_rank = 0;
    for (int i = 0; i < n; i++) {
        int r = gid_rank(&e[i]);
        if (r > best_rank) {
            best_rank = r;
            best = e[i].index;
        }
    }
    return best;
}

/* Which devices are near this rank's cores (hwloc): near[i] for each
 * candidate. Only asked when there is a choice to make. */
static void mark_near(struct ibv_device **devs, int ndevs, struct vb_cand *c, int n)
{
    hwloc_topology_t topo;
    if (hwloc_topology_init(&topo) != 0)
        return;
    hwloc_bitmap_t bind = hwloc_bitmap_alloc(), set = hwloc_bitmap_alloc();
    if (hwloc_topology_load(topo) != 0 || !bind || !set ||
        hwloc_get_cpubind(topo, bind, HWLOC_CPUBIND_PROCESS) != 0)
        goto out_free; /* no locality known: every candidate stays near */
    for (int i = 0; i < n; i++) {
        for (int d = 0; d < ndevs; d++) {
            if (strcmp(ibv_get_device_name(devs[d]), c[i].name) != 0)
                continue;
            if (hwloc_ibv_get_device_cpuset(topo, devs[d], set) == 0)
                c[i].near = hwloc_bitmap_intersects(set, bind);
            char *s = NULL;
            hwloc_bitmap_asprintf(&s, set);
            rd_debug("verbs", "%s:%d: cpuset %s, %s", c[i].name, c[i].port, s ? s : "?",
                     c[i].near ? "near" : "far");
            free(s);
        }
    }
out_free:
    hwloc_bitmap_free(bind);
    hwloc_bitmap_free(set);
    hwloc_topology_destroy(topo);
}

/* Does RDMPI_VERBS_DEVICE allow (name, port)? */
static int spec_allows(const char *list, const char *name, int port)
{
    if (!list || !*list)
        return 1;
    const char *p = list;
    while (*p) {
        const char *e = strchr(p, ',');
        size_t l = e ? (size_t)(e - p) : strlen(p);
        char one[128], n[64];
        int sport;
        if (l < sizeof(one)) {
            memcpy(one, p, l);
            one[l] = '\0';
            if (vb_dev_parse_spec(one, n, sizeof(n), &sport) == 0 && strcmp(n, name) == 0 &&
                (sport == 0 || sport == port))
                return 1;
        }
        p = e ? e + 1 : p + l;
    }
    return 0;
}

static int check_spec(const char *list)
{
    const char *p = list;
    while (p && *p) {
        const char *e = strchr(p, ',');
        size_t l = e ? (size_t)(e - p) : strlen(p);
        char one[128], n[64];
        int port;
        if (l >= sizeof(one))
            return -1;
        memcpy(one, p, l);
        one[l] = '\0';
        if (vb_dev_parse_spec(one, n, sizeof(n), &port) != 0)
            return -1;
        p = e ? e + 1 : p + l;
    }
    return 0;
}

static rd_status choose_gid(vb_dev *dev)
{
    if (rd_param.verbs_gid_index >= 0) {
        dev->gid_index = (int)rd_param.verbs_gid_index;
    } else if (!dev->ethernet) {
        dev->gid_index = 0;
    } else {
        int n = dev->port_attr.gid_tbl_len;
        struct vb_gid_ent *e = calloc((size_t)(n > 0 ? n : 1), sizeof(*e));
        if (!e)
            return RD_ERR_NOMEM;
        int k = 0;
        for (int i = 0; i < n; i++) {
            struct ibv_gid_entry ent;
            if (ibv_query_gid_ex(dev->ctx, dev->port, (uint32_t)i, &ent, 0) != 0)
                continue; /* empty slot */
            e[k].index = i;
            e[k].type = ent.gid_type == IBV_GID_TYPE_ROCE_V2   ? VB_GID_ROCE_V2
                        : ent.gid_type == IBV_GID_TYPE_ROCE_V1 ? VB_GID_ROCE_V1
                                                               : VB_GID_IB;
            memcpy(e[k].raw, ent.gid.raw, 16);
            k++;
        }
        dev->gid_index = vb_gid_pick(e, k);
        free(e);
        if (dev->gid_index < 0) {
            rd_error("verbs", "%s port %d: no usable GID (RoCE needs an IP address on the port's "
                     "network device)", dev->name, dev->port);
            return RD_ERR_UNSUPPORTED;
        }
    }
    if (ibv_query_gid(dev->ctx, dev->port, dev->gid_index, &dev->gid) != 0) {
        rd_error("verbs", "%s port %d: GID index %d: %s", dev->name, dev->port, dev->gid_index,
                 strerror(errno));
        return RD_ERR_UNSUPPORTED;
    }
    return RD_OK;
}

int vb_post_send_nosigpipe(struct ibv_qp *qp, struct ibv_send_wr *wr, struct ibv_send_wr **bad)
{
    sigset_t pipe, old, pending;
    sigemptyset(&pipe);
    sigaddset(&pipe, SIGPIPE);
    pthread_sigmask(SIG_BLOCK, &pipe, &old);
    int before = sigpending(&pending) == 0 && sigismember(&pending, SIGPIPE);
    int rc = ibv_post_send(qp, wr, bad);
    int err = errno;
    if (!before && sigpending(&pending) == 0 && sigismember(&pending, SIGPIPE)) {
        const struct timespec now = {0, 0};
        while (sigtimedwait(&pipe, NULL, &now) < 0 && errno == EINTR)
            ;
    }
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    errno = err;
    return rc;
}

rd_status vb_dev_open(vb_dev *dev, int use_cm, int local_rank)
{
    const char *spec = rd_param.verbs_device;
    memset(dev, 0, sizeof(*dev));
    if (spec[0] && check_spec(spec) != 0) {
        rd_error("verbs", "RDMPI_VERBS_DEVICE='%s': expected device[:port][,device[:port]...]", spec);
        return RD_ERR_PARAM;
    }
    int ndevs = 0;
    struct ibv_device **devs = ibv_get_device_list(&ndevs);
    if (!devs || ndevs == 0) {
        rd_debug("verbs", "no verbs device");
        if (devs)
            ibv_free_device_list(devs);
        return RD_ERR_UNSUPPORTED;
    }
    struct vb_cand *c = calloc((size_t)ndevs * 4, sizeof(*c));
    int n = 0, cap = ndevs * 4;
    rd_status st = RD_ERR_UNSUPPORTED;
    if (!c) {
        st = RD_ERR_NOMEM;
        goto out_list;
    }
    for (int d = 0; d < ndevs; d++) {
        const char *name = ibv_get_device_name(devs[d]);
        struct ibv_context *ctx = ibv_open_device(devs[d]);
        struct ibv_device_attr da;
        if (!ctx) {
            rd_debug("verbs", "%s: cannot open: %s", name, strerror(errno));
            continue;
        }
        if (ibv_query_device(ctx, &da) == 0) {
            for (int p = 1; p <= da.phys_port_cnt; p++) {
                struct ibv_port_attr pa;
                if (ibv_query_port(ctx, (uint8_t)p, &pa) != 0)
                    continue;
                if (!spec_allows(spec, name, p))
                    continue;
                if (pa.state != IBV_PORT_ACTIVE) {
                    rd_debug("verbs", "%s:%d: port not active (%s)", name, p,
                             ibv_port_state_str(pa.state));
                    continue;
                }
                if (n < cap) {
                    snprintf(c[n].name, sizeof(c[n].name), "%s", name);
                    c[n].port = p;
                    c[n].kind = ctx->device->transport_type == IBV_TRANSPORT_IWARP ? VB_KIND_IWARP
                                : pa.link_layer == IBV_LINK_LAYER_ETHERNET   ? VB_KIND_ROCE
                                                                             : VB_KIND_IB;
                    c[n].near = 1;
                    n++;
                }
            }
        }
        ibv_close_device(ctx);
    }
    if (n == 0) {
        if (spec[0])
            rd_error("verbs", "RDMPI_VERBS_DEVICE='%s': no such device with an active port", spec);
        else
            rd_debug("verbs", "no active port on any of %d devices", ndevs);
        goto out_cand;
    }
    if (n > 1)
        mark_near(devs, ndevs, c, n);
    int pick = vb_dev_pick(c, n, local_rank);
    snprintf(dev->name, sizeof(dev->name), "%s", c[pick].name);
    dev->port = (uint8_t)c[pick].port;

    if (use_cm) {
        int nc = 0;
        struct ibv_context **list = rdma_get_devices(&nc);
        for (int i = 0; list && i < nc; i++)
            if (strcmp(ibv_get_device_name(list[i]->device), dev->name) == 0)
                dev->ctx = list[i];
        if (list)
            rdma_free_devices(list); /* the contexts stay open, owned by librdmacm */
        if (!dev->ctx) {
            rd_error("verbs", "%s: not in librdmacm's device list", dev->name);
            goto out_cand;
        }
    } else {
        for (int d = 0; d < ndevs && !dev->ctx; d++)
            if (strcmp(ibv_get_device_name(devs[d]), dev->name) == 0)
                dev->ctx = ibv_open_device(devs[d]);
        if (!dev->ctx) {
            rd_error("verbs", "%s: cannot open: %s", dev->name, strerror(errno));
            goto out_cand;
        }
        dev->own_ctx = 1;
    }
    if (ibv_query_device(dev->ctx, &dev->attr) != 0 ||
        ibv_query_port(dev->ctx, dev->port, &dev->port_attr) != 0) {
        rd_error("verbs", "%s: cannot query the device: %s", dev->name, strerror(errno));
        goto out_close;
    }
    dev->iwarp = dev->ctx->device->transport_type == IBV_TRANSPORT_IWARP;
    dev->kernel_tx = dev->iwarp && dev->attr.vendor_id == VB_SIW_VENDOR_ID;
    dev->ethernet = dev->port_attr.link_layer == IBV_LINK_LAYER_ETHERNET;
    if (!dev->iwarp && (st = choose_gid(dev)) != RD_OK)
        goto out_close;
    rd_debug("verbs", "device %s port %d (%s%s), GID index %d, MTU %d, of %d candidate port%s", dev->name,
             dev->port, dev->iwarp ? "iWARP" : dev->ethernet ? "RoCE" : "InfiniBand",
             use_cm ? ", through rdma_cm" : "", dev->gid_index, 128 << dev->port_attr.active_mtu, n,
             n == 1 ? "" : "s");
    st = RD_OK;
    goto out_cand;

out_close:
    if (dev->own_ctx)
        ibv_close_device(dev->ctx);
    dev->ctx = NULL;
out_cand:
    free(c);
out_list:
    ibv_free_device_list(devs);
    return st;
}

void vb_dev_close(vb_dev *dev)
{
    if (dev->ctx && dev->own_ctx)
        ibv_close_device(dev->ctx);
    dev->ctx = NULL;
}

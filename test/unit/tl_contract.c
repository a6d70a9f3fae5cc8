/* tl_contract.c - one transport's contract (transports/transport.h),
 * checked the same way for every backend: this source is built once per
 * transport with -DTL_SELF, -DTL_SHM, -DTL_UCX, -DTL_OFI or -DTL_VERBS
 * (test/transports.mk, transports_net.mk, verbs.mk), linking that
 * transport's sources directly. The ranks are forked processes and the
 * job service is a stub (test/unit/tl_harness.h: files for PMIx, a
 * barrier for the fences), so no launcher is involved.
 *
 * What every backend must do (the contract):
 *   - open, fence, activate, fence; caps that hold together (eager_limit
 *     <= am_max, a key size when needs_reg); the peers reachable; connect
 *     on first use of a peer, the same endpoint again after; a peer that
 *     cannot be reached (no address published, another node) refused
 *   - active messages of every size class: headers of 0, 8 and
 *     RD_AM_HDR_MAX bytes (8-byte aligned for the handler), payloads of 0,
 *     1, around 64, 256, 1 KiB, 4 KiB, 8 KiB, the eager limit and am_max
 *     exactly; a header over RD_AM_HDR_MAX and a message over am_max are
 *     refused (RD_ERR_ARG)
 *   - every rank streaming to every other at once, many messages in flight
 *     (flow control, credits, RD_ERR_AGAIN): delivered in order per pair,
 *     ids, headers and payloads intact
 *   - get and put (caps.rma) of odd sizes (1 B .. 3 MiB + 5) at odd
 *     offsets on both sides: exactly those bytes move, done() runs once
 *     with RD_OK; the transport's own rendezvous where it has one
 *     (caps.own_rndv: received, and dropped); atomics where the backend
 *     has them (caps.atomics), else atomic() says RD_ERR_UNSUPPORTED
 * And what one backend adds (its own section below): self's delivery from
 * progress() only; shm's nameless segment, a full ring, the limits per
 * progress call, the fallback without CMA, a rank alone on its node;
 * verbs' read completed before the messages posted behind it (iWARP);
 * ofi's registered-buffer mode (FI_MR_LOCAL) run through everything again.
 *
 * Each rank records its checks in shared memory; the parent prints one TAP
 * point per distinct check (tl_harness.h). */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "runtime/base/job.h"
#include "runtime/base/log.h"
#include "runtime/base/params.h"
#include "test/tap.h"
#include "transports/transport.h"
#ifdef TL_SHM
#include "transports/shm/shm_cma.h"
#endif

/* ---- the backend: its table, its ranks (world ranks of the forked
 * processes), the job's size, a rank that cannot be reached (-1: none) */
#if defined(TL_SELF)
#define TL_T rd_transport_self
#define NR 1
static const int world_of[NR] = {5};
#define JOB_SIZE 8
#define PHANTOM 4 /* on the node, but self reaches only itself */
#define NSTREAM 5000
#elif defined(TL_SHM)
#define TL_T rd_transport_shm
#define NR 3
static const int world_of[NR] = {0, 2, 3};
#define JOB_SIZE 4
#define PHANTOM 1 /* on the other node */
#define NSTREAM 10000
#elif defined(TL_UCX)
#define TL_T rd_transport_ucx
#define NR 3
static const int world_of[NR] = {0, 1, 2};
#define JOB_SIZE 4
#define PHANTOM 3 /* publishes no address */
#define NSTREAM 3000
#elif defined(TL_OFI)
#define TL_T rd_transport_ofi
#define NR 3
static const int world_of[NR] = {0, 1, 2};
#define JOB_SIZE 4
#define PHANTOM 3
#define NSTREAM 3000
#elif defined(TL_VERBS)
#define TL_T rd_transport_verbs
#define NR 2
static const int world_of[NR] = {0, 1};
#define JOB_SIZE 2
#define PHANTOM (-1) /* (PMIx wire-up connects every rank of the job) */
#define NSTREAM 2000
#else
#error "build with one of -DTL_SELF -DTL_SHM -DTL_UCX -DTL_OFI -DTL_VERBS"
#endif

#define TL_NRANKS NR
#include "test/unit/tl_harness.h"

_Noreturn void rd_job_abort(int code, const char *msg)
{
    fprintf(stderr, "rank %d: abort %d: %s\n", stub_rank, code, msg);
    _exit(3);
}

/* RMA regions: big enough for every put of the sweep side by side */
#define REGION ((size_t)9 << 20)
/* each rank's slice of memory all ranks map (vis): a put's target, which
 * the writer reads back through the mapping when done() runs */
#define VIS ((size_t)512 << 10)
/* fetch-and-adds of 1 each rank but the first does on the first's word */
#define NFADD 500

typedef struct shared {
    struct tl_shared tl; /* checks and barrier (tl_harness.h) */
    _Atomic int open_failed; /* some rank could not open or activate */
    uint64_t addr[NR];   /* each rank's RMA region */
    unsigned char rkey[NR][256];
    size_t rkey_len[NR];
    uint64_t word_addr[NR]; /* each rank's atomic words */
    unsigned char wkey[NR][256];
    size_t wkey_len[NR];
    uint64_t vis_addr[NR]; /* each rank's slice of vis, its key */
    unsigned char vkey[NR][256];
    size_t vkey_len[NR];
    _Atomic int vis_done[NR]; /* a rank's puts into its successor's slice are done */
    uint64_t fetched[NR][NFADD]; /* what each rank's fetch-and-adds on one word saw */
    uint64_t swapped[NR];        /* what each rank's compare-and-swap on one word saw */
} shared;

static shared *sh;
static unsigned char *vis; /* NR slices of VIS bytes, mapped by every rank */
static const struct rd_transport *t = &TL_T;
static rd_tl *tl;
static int me;          /* index of this process in world_of */
static int idle_off;    /* no progress while waiting at the barrier (shm's full ring) */
#ifdef TL_SHM
static int cma_permitted = 1;
#endif

static void progress_idle(void)
{
    if (tl && !idle_off)
        t->progress(tl);
}

static int succ(int i) { return (i + 1) % NR; }
static int pred(int i) { return (i + NR - 1) % NR; }

/* ---- active messages: what sequence number seq from src looks like */
#define NSWEEP_MAX 40
static size_t sw_hlen[NSWEEP_MAX], sw_len[NSWEEP_MAX];
static int nsweep;

static unsigned char pat(int src, long seq, size_t i)
{
    return (unsigned char)(src * 29 + seq * 7 + (long)i * 13 + 1);
}

static void msg_shape(long seq, size_t *hlen, size_t *len)
{
    if (seq < nsweep) {
        *hlen = sw_hlen[seq];
        *len = sw_len[seq];
        return;
    }
    *hlen = 8 + (size_t)(seq % 3) * 8;
    *len = seq % 50 == 0 ? tl->caps.am_max - *hlen : (size_t)(seq * 37 % 3000);
    if (*hlen + *len > tl->caps.am_max)
        *len = tl->caps.am_max - *hlen;
}

static void add_sweep(size_t hlen, size_t len)
{
    if (hlen + len > tl->caps.am_max || nsweep == NSWEEP_MAX)
        return;
    for (int i = 0; i < nsweep; i++)
        if (sw_hlen[i] == hlen && sw_len[i] == len)
            return;
    sw_hlen[nsweep] = hlen;
    sw_len[nsweep] = len;
    nsweep++;
}

static void make_sweep(void)
{
    size_t a = tl->caps.am_max, e = tl->caps.eager_limit;
    static const size_t lens[] = {0, 1, 7, 8, 63, 64, 65, 255, 256, 257, 1023, 1024, 4095, 4096, 4097,
                                  8191, 8192, 8193};
    nsweep = 0;
    add_sweep(0, 0);
    add_sweep(RD_AM_HDR_MAX, 0);
    for (size_t k = 0; k < sizeof(lens) / sizeof(lens[0]); k++)
        add_sweep(8, lens[k]);
    add_sweep(8, e - 1);
    add_sweep(8, e);
    add_sweep(8, e + 1);
    add_sweep(8, a - 8 - 1);
    add_sweep(8, a - 8);
    add_sweep(RD_AM_HDR_MAX, a - RD_AM_HDR_MAX);
    add_sweep(0, a);
}

typedef struct rx_peer {
    long next, got, bad, misaligned, disorder;
    long first_bad, first_disorder;
} rx_peer;
static rx_peer rx[JOB_SIZE];
static long rx_other; /* messages of no stream (wrong source, ...) */
static long rx_total;

/* the transport's own rendezvous: the announcement this rank got */
static void *rv_desc;
static size_t rv_len;
static int rv_src = -1, rv_got;

#ifdef TL_SELF
static rd_ep *self_ep;
static int self_resend, self_in_send;
static long self_in_send_calls;
static unsigned self_ids[8];
static int self_nids;
#endif

/* the remote-completion section's note (caps.put_sent_only: a message
 * sent after the puts' done()): the bytes the handler does not find in
 * place (section_remote) */
#define VIS_NOTE_ID 50000u
static long vis_note_bad = -1;
static long vis_bad_now(int writer);

static void on_am(void *arg, int src, unsigned id, const void *hdr, size_t hlen, const void *data, size_t len)
{
    (void)arg;
    if (id == VIS_NOTE_ID) {
        vis_note_bad = src >= 0 && src < JOB_SIZE ? vis_bad_now(src) : -2;
        return;
    }
#ifdef TL_SELF
    self_in_send_calls += self_in_send;
    if (id >= 60000) { /* self's own section: ids only */
        if (self_nids < 8)
            self_ids[self_nids++] = id;
        if (self_resend && id < 61000) {
            unsigned nid = id + 1000;
            self_ep->tl->ops->am_send(self_ep, nid, &nid, sizeof(nid), NULL, 0);
        }
        return;
    }
#endif
    if (id & RD_AM_RNDV) {
        rv_desc = (void *)data;
        rv_len = len;
        rv_src = src;
        rv_got++;
        return;
    }
    rx_total++;
    if (src < 0 || src >= JOB_SIZE) {
        rx_other++;
        return;
    }
    rx_peer *p = &rx[src];
    /* the header says which message this is (a header of 0 bytes: the
     * next one); a message out of its place counts once as out of order */
    long seq = p->next;
    if (hlen >= 8)
        memcpy(&seq, hdr, sizeof(seq));
    else /* (only sweep messages have no sequence number: known by id and length) */
        for (int i = 0; i < nsweep; i++)
            if (sw_hlen[i] == hlen && sw_len[i] == len && (unsigned)(i & 0xff) == id)
                seq = i;
    if (seq != p->next && !p->disorder++)
        p->first_disorder = p->next;
    p->next = seq + 1;
    p->got++;
    size_t eh, el;
    msg_shape(seq, &eh, &el);
    int ok = seq >= 0 && id == (unsigned)(seq & 0xff) && hlen == eh && len == el;
    for (size_t i = 8; ok && i < hlen; i++)
        ok = ((const unsigned char *)hdr)[i] == pat(src, seq, 1000 + i);
    if (hlen && ((uintptr_t)hdr & 7))
        p->misaligned++;
    size_t at = 0;
    for (; ok && at < len; at++)
        ok = ((const unsigned char *)data)[at] == pat(src, seq, at);
    if (!ok && !p->bad++) {
        p->first_bad = seq;
        fprintf(stderr, "rank %d: message %ld from %d damaged: id %u (%u), header %zu (%zu) bytes, payload %zu (%zu) "
                "bytes, first wrong byte %zu of it\n", stub_rank, seq, src, id, (unsigned)(seq & 0xff), hlen, eh, len, el,
                at ? at - 1 : 0);
    }
}

static unsigned char *sbuf;

static rd_status send_seq(rd_ep *ep, long seq)
{
    size_t hlen, len;
    unsigned char h[RD_AM_HDR_MAX];
    msg_shape(seq, &hlen, &len);
    if (hlen >= 8)
        memcpy(h, &seq, sizeof(seq));
    for (size_t i = 8; i < hlen; i++)
        h[i] = pat(world_of[me], seq, 1000 + i);
    for (size_t i = 0; i < len; i++)
        sbuf[i] = pat(world_of[me], seq, i);
    rd_status st;
    while ((st = t->am_send(ep, (unsigned)(seq & 0xff), h, hlen, sbuf, len)) == RD_ERR_AGAIN)
        t->progress(tl);
    return st;
}

/* progress until every peer's stream reached n (or a long while passed) */
static void wait_streams(long n)
{
    for (long spins = 0; spins < 400000000L; spins++) {
        int all = 1;
        for (int i = 0; i < NR; i++)
            all &= rx[world_of[i]].got >= n || (NR > 1 && i == me);
        if (all)
            return;
        t->progress(tl);
    }
}

static int wait_flag(volatile int *f)
{
    for (long spins = 0; !*f && spins < 400000000L; spins++)
        t->progress(tl);
    return *f;
}

/* ---- RMA completions */
typedef struct done_rec {
    volatile int calls;
    rd_status st;
} done_rec;

static void done_cb(rd_rma_op *op, rd_status st)
{
    done_rec *d = op->arg;
    d->st = st;
    d->calls++;
}

static void atom_cb(rd_atomic_op *op, rd_status st)
{
    *(volatile int *)op->arg = st == RD_OK ? 1 : -1;
}

static struct rd_job make_job(const char *nspace)
{
    static int peers_all[NR], peers_one[1];
    struct rd_job job;
    memset(&job, 0, sizeof(job));
    job.rank = world_of[me];
    job.size = JOB_SIZE;
    snprintf(job.nspace, sizeof(job.nspace), "%s", nspace);
#if defined(TL_SHM)
    for (int i = 0; i < NR; i++)
        peers_all[i] = world_of[i];
    job.local_rank = me;
    job.local_size = NR;
    job.num_nodes = 2;
    job.local_peers = peers_all;
    (void)peers_one;
#elif defined(TL_SELF)
    static int self_peers[2] = {4, 5};
    job.local_rank = 1;
    job.local_size = 2;
    job.num_nodes = 1;
    job.local_peers = self_peers;
    (void)peers_all, (void)peers_one;
#else
    peers_one[0] = world_of[me];
    job.local_rank = 0;
    job.local_size = 1;
    job.num_nodes = NR;
    job.local_peers = peers_one;
    (void)peers_all;
#endif
    return job;
}

/* ------------------------------------------------------------ the contract */

static int open_all(const char *nspace, rd_am_handler h)
{
    struct rd_job job = make_job(nspace);
    rd_status st = RD_OK;
    tl = NULL;
    sh->open_failed = 0;
    barrier();
    /* the node's first rank first (shm: it makes the segment) */
    if (me == 0)
        CHECK_INT(st = t->open(&job, NULL, h, NULL, &tl), RD_OK, "open");
    barrier();
    if (me != 0)
        CHECK_INT(st = t->open(&job, NULL, h, NULL, &tl), RD_OK, "open");
    barrier(); /* the fence */
    if (st == RD_OK)
        CHECK_INT(st = t->activate ? t->activate(tl) : RD_OK, RD_OK, "activate");
    if (st != RD_OK)
        sh->open_failed = 1;
    barrier(); /* the engine's fence after activate (activate_fence) */
    if (sh->open_failed && tl) { /* every rank stops here, so that none waits for another */
        t->close(tl);
        tl = NULL;
    }
    return !sh->open_failed;
}

static void section_caps_connect(rd_ep **eps)
{
    CHECK(tl->ops == t, "the open transport points at its table");
    CHECK(tl->caps.am_max >= 1024 && tl->caps.eager_limit > 0 && tl->caps.eager_limit <= tl->caps.am_max,
          "caps: eager_limit (%zu) within am_max (%zu)", tl->caps.eager_limit, tl->caps.am_max);
    CHECK(!tl->caps.needs_reg || (tl->caps.rkey_max > 0 && tl->caps.rkey_max <= sizeof(sh->rkey[0])),
          "caps: a registering transport has a remote key size (rkey_max %zu)", tl->caps.rkey_max);
    CHECK(!tl->caps.own_rndv || (t->rndv_send && t->rndv_recv && t->rndv_drop),
          "caps: own_rndv comes with rndv_send, rndv_recv and rndv_drop");
    CHECK(!tl->caps.atomics || t->atomic, "caps: atomics come with atomic()");
    int reach = 1;
    for (int i = 0; i < NR; i++)
        reach &= NR > 1 && i == me ? 1 : t->reachable(tl, world_of[i]) == 1;
    CHECK(reach, "reachable: %s", NR == 1 ? "itself (self)" : "the other ranks");
#ifdef TL_VERBS
    CHECK_INT(t->reachable(tl, world_of[me]), 0, "verbs: not this rank itself (self's job)");
#endif
#ifdef TL_SHM
    CHECK_INT(t->reachable(tl, world_of[me]), 1, "shm: this rank itself too (one of the node's ranks)");
#endif
    rd_ep *again = NULL;
    int same = 1;
    for (int i = 0; i < NR; i++) {
        eps[i] = NULL;
        if (NR > 1 && i == me)
            continue;
        rd_status st = t->connect(tl, world_of[i], &eps[i]);
        CHECK_INT(st, RD_OK, "connect to a peer on first use");
        same &= st == RD_OK && t->connect(tl, world_of[i], &again) == RD_OK && again == eps[i] &&
                eps[i]->peer == world_of[i] && eps[i]->tl == tl;
    }
    CHECK(same, "connect again: the same endpoint, for that peer, on this transport");
    if (PHANTOM >= 0) {
        rd_ep *ph = NULL;
        rd_status st = t->connect(tl, PHANTOM, &ph);
        CHECK_INT(st, RD_ERR_UNREACH, "connect to a rank it cannot reach: RD_ERR_UNREACH");
    }
}

static void section_am(rd_ep **eps)
{
    size_t amax = tl->caps.am_max;
    unsigned char h[RD_AM_HDR_MAX + 8] = {0};
    rd_ep *ep = eps[succ(me)];
    /* the sweep, then the stream, to every peer at once */
    make_sweep();
    long total = nsweep + NSTREAM;
    int sent_ok = 1;
    for (long seq = 0; seq < total && sent_ok; seq++)
        for (int k = 1; k <= (NR > 1 ? NR - 1 : 1); k++) {
            rd_status st = send_seq(eps[(me + k) % NR], seq);
            if (st != RD_OK) {
                CHECK_INT(st, RD_OK, "am_send of message %ld", seq);
                sent_ok = 0;
            }
        }
    CHECK(sent_ok, "%d messages of every size class (headers 0..%d bytes, payloads 0..am_max), then %d more, "
          "to every peer at once", nsweep, RD_AM_HDR_MAX, NSTREAM);
    wait_streams(total);
    long got = 0, bad = 0, mis = 0, dis = 0, first_bad = -1, first_dis = -1;
    for (int i = 0; i < NR; i++) {
        if (NR > 1 && i == me)
            continue;
        rx_peer *p = &rx[world_of[i]];
        got += p->got;
        bad += p->bad;
        mis += p->misaligned;
        dis += p->disorder;
        if (p->bad && first_bad < 0)
            first_bad = p->first_bad;
        if (p->disorder && first_dis < 0)
            first_dis = p->first_disorder;
    }
    long peers = NR > 1 ? NR - 1 : 1;
    CHECK_INT(got, total * peers, "every message of every peer arrived");
    /* (ofi: tcp;ofi_rxm completes a message it segments, near am_max,
     * after smaller ones sent behind it; ofi.c restores the order with
     * its own sequence numbers) */
    CHECK_INT(dis, 0, "in the order each peer sent them");
    CHECK_INT(bad, 0, "ids, header and payload lengths and bytes intact");
    if (first_dis >= 0 || first_bad >= 0)
        fprintf(stderr, "rank %d: first message out of order: %ld, first damaged: %ld\n", stub_rank, first_dis,
                first_bad);
    CHECK_INT(mis, 0, "headers reach the handler 8-byte aligned");
    CHECK_INT(rx_other, 0, "no message from an unknown source");
    /* refused (on an endpoint that is ready: rdma_cm's says RD_ERR_AGAIN
     * until it is connected) */
    CHECK_INT(t->am_send(ep, 1, h, RD_AM_HDR_MAX + 1, NULL, 0), RD_ERR_ARG,
              "am_send: a header over RD_AM_HDR_MAX is refused");
    CHECK_INT(t->am_send(ep, 1, h, 8, sbuf, amax - 8 + 1), RD_ERR_ARG,
              "am_send: a header and payload over am_max is refused");
    barrier();
}

/* get and put: (len, offset in the remote region, offset in the local buffer) */
static const size_t rma_len[] = {1, 3, 7, 64, 4097, 65537, (1 << 20) + 3, (3 << 20) + 5};
static const size_t rma_roff[] = {0, 1, 3, 5, 13, 5, 1, 3};
static const size_t rma_loff[] = {0, 5, 1, 3, 3, 7, 3, 0};
#define NRMA (sizeof(rma_len) / sizeof(rma_len[0]))

static unsigned char region_pat(int rank, size_t i) { return (unsigned char)(rank * 31 + i * 3 + (i >> 12)); }
static unsigned char put_pat(int rank, size_t k, size_t i) { return (unsigned char)(rank * 17 + k * 5 + i * 11 + 0x40); }

static void section_rma(rd_ep **eps)
{
    unsigned char *region = malloc(REGION), *local = malloc(REGION);
    for (size_t i = 0; i < REGION; i++)
        region[i] = region_pat(world_of[me], i);
    rd_mr *rmr = NULL, *lmr = NULL;
    unsigned char key[256];
    size_t klen = 0;
    rd_status st = t->mem_reg(tl, region, REGION, &rmr, key, &klen);
    CHECK_INT(st, RD_OK, "mem_reg of the region");
    CHECK(klen <= tl->caps.rkey_max && (klen > 0) == (tl->caps.needs_reg != 0),
          "its packed key: %zu bytes, at most rkey_max, empty unless needs_reg", klen);
    CHECK_INT(t->mem_reg(tl, local, REGION, &lmr, NULL, NULL), RD_OK, "mem_reg of a local buffer, no key asked");
    sh->addr[me] = (uint64_t)(uintptr_t)region;
    memcpy(sh->rkey[me], key, klen < sizeof(key) ? klen : sizeof(key));
    sh->rkey_len[me] = klen;
    barrier();
    int peer = succ(me), pw = world_of[peer];
    rd_ep *ep = eps[peer];
    done_rec d;
    rd_rma_op op = {.lmr = lmr, .rkey = sh->rkey[peer], .rkey_len = sh->rkey_len[peer], .done = done_cb,
                    .arg = &d};
    /* get: the successor's region into this rank's buffer */
    for (size_t k = 0; k < NRMA; k++) {
        memset(local, 0xee, rma_len[k] + 16);
        op.local = local + rma_loff[k];
        op.len = rma_len[k];
        op.remote_addr = sh->addr[peer] + rma_roff[k];
        d.calls = 0;
        d.st = RD_ERR_INTERNAL;
        st = t->get(ep, &op);
        CHECK_INT(st, RD_OK, "get of %zu bytes (remote offset %zu, local offset %zu)", rma_len[k], rma_roff[k],
                  rma_loff[k]);
        if (st == RD_OK)
            wait_flag(&d.calls);
        CHECK_INT(d.calls * 1000 + d.st, 1000, "get of %zu bytes: done() ran once, with RD_OK", rma_len[k]);
        size_t bad = 0;
        for (size_t i = 0; i < rma_len[k]; i++)
            bad += local[rma_loff[k] + i] != region_pat(pw, rma_roff[k] + i);
        for (size_t i = 0; i < rma_loff[k]; i++)
            bad += local[i] != 0xee;
        bad += local[rma_loff[k] + rma_len[k]] != 0xee;
        CHECK_INT(bad, 0, "get of %zu bytes brought exactly the peer's bytes, nothing around them", rma_len[k]);
    }
    barrier();
    /* put: into the successor's region, case k at its own slice */
    size_t at = 0;
    for (size_t k = 0; k < NRMA; k++) {
        for (size_t i = 0; i < rma_len[k]; i++)
            local[rma_loff[k] + i] = put_pat(world_of[me], k, i);
        op.local = local + rma_loff[k];
        op.len = rma_len[k];
        op.remote_addr = sh->addr[peer] + at + rma_roff[k];
        d.calls = 0;
        d.st = RD_ERR_INTERNAL;
        st = t->put(ep, &op);
        CHECK_INT(st, RD_OK, "put of %zu bytes (remote offset %zu, local offset %zu)", rma_len[k], rma_roff[k],
                  rma_loff[k]);
        if (st == RD_OK)
            wait_flag(&d.calls);
        CHECK_INT(d.calls * 1000 + d.st, 1000, "put of %zu bytes: done() ran once, with RD_OK", rma_len[k]);
        at += rma_roff[k] + rma_len[k] + 16;
    }
    barrier();
    /* what the predecessor wrote here */
    int writer = world_of[pred(me)];
    at = 0;
    for (size_t k = 0; k < NRMA; k++) {
        size_t bad = 0, s = at + rma_roff[k];
        for (size_t i = 0; i < rma_len[k]; i++)
            bad += region[s + i] != put_pat(writer, k, i);
        for (size_t i = at; i < s; i++)
            bad += region[i] != region_pat(world_of[me], i);
        bad += region[s + rma_len[k]] != region_pat(world_of[me], s + rma_len[k]);
        CHECK_INT(bad, 0, "put of %zu bytes landed exactly, nothing around it touched", rma_len[k]);
        at += rma_roff[k] + rma_len[k] + 16;
    }
    barrier();

    /* the transport's own rendezvous: 1 MiB + 3 from an odd address to the
     * successor, fetched to an odd address; then one the receiver drops */
    if (tl->caps.own_rndv) {
        size_t n = (1 << 20) + 3;
        unsigned char *src = region + 1, *dst = local + 5;
        for (size_t i = 0; i < n; i++)
            src[i] = put_pat(world_of[me], 99, i);
        memset(local, 0xee, n + 16);
        long hv = 4242;
        done_rec ds = {0}, dr = {0};
        rd_rma_op sop = {.local = src, .len = n, .lmr = rmr, .done = done_cb, .arg = &ds};
        rd_rma_op rop = {.local = dst, .len = n, .lmr = lmr, .done = done_cb, .arg = &dr};
        rv_got = 0;
        CHECK_INT(t->rndv_send(ep, 9, &hv, sizeof(hv), &sop), RD_OK, "rndv_send of %zu bytes", n);
        for (long s = 0; !rv_got && s < 400000000L; s++)
            t->progress(tl);
        CHECK_INT(rv_got * 10000 + (long)rv_len, 10000 + (long)n,
                  "rndv: the announcement arrived once, with the data's length");
        CHECK_INT(rv_src, world_of[pred(me)], "rndv: from the sender");
        if (rv_got == 1) {
            CHECK_INT(t->rndv_recv(tl, rv_desc, &rop), RD_OK, "rndv_recv");
            wait_flag(&dr.calls);
            CHECK_INT(dr.calls * 1000 + dr.st, 1000, "rndv_recv: done() ran once, with RD_OK");
        }
        wait_flag(&ds.calls);
        CHECK_INT(ds.calls * 1000 + ds.st, 1000, "rndv_send: done() ran once, with RD_OK, after the receive");
        size_t bad = 0;
        for (size_t i = 0; i < n; i++)
            bad += dst[i] != put_pat(writer, 99, i);
        bad += local[4] != 0xee || dst[n] != 0xee;
        CHECK_INT(bad, 0, "rndv: exactly the sender's bytes arrived");
        barrier();
        ds.calls = 0;
        rv_got = 0;
        CHECK_INT(t->rndv_send(ep, 10, &hv, sizeof(hv), &sop), RD_OK, "rndv_send of a message to drop");
        for (long s = 0; !rv_got && s < 400000000L; s++)
            t->progress(tl);
        if (rv_got == 1)
            t->rndv_drop(tl, rv_desc);
        wait_flag(&ds.calls);
        CHECK_INT(ds.calls * 1000 + rv_got, 1001, "rndv_drop: the sender's done() ran once all the same");
        barrier();
    }
    t->mem_dereg(tl, lmr);
    t->mem_dereg(tl, rmr);
    free(region);
    free(local);
}

/* ---- beyond 2 GiB: one get, one put and (caps.own_rndv) one rendezvous
 * message of 2 GiB + 1 MiB + 8 bytes between ranks 0 and 1, every 64-bit
 * word checked (word i is a + i * b, b odd: no other content passes). A
 * length kept in an int or a 32-bit field anywhere on the way shows here,
 * at the transport, once per backend; the engine's offsets beyond 2 GiB
 * are test/mpi/p2p_large.sh's (over shm). On by default for the network
 * backends over loopback (TL_CONTRACT_LARGE=0: off; the VM's verbs has
 * 2 GiB of memory: off there unless asked). */
#if defined(TL_UCX) || defined(TL_OFI)
#define LARGE_DEFAULT 1
#else
#define LARGE_DEFAULT 0
#endif
#define LARGE (((size_t)2 << 30) + ((size_t)1 << 20) + 8)

static uint64_t large_a(int k) { return 0x9e3779b97f4a7c15ULL * (uint64_t)(k + 1); }
static uint64_t large_b(int k) { return (0xd1b54a32d192ed03ULL * (uint64_t)(k + 7)) | 1; }

__attribute__((optimize("O3"))) static void large_fill(uint64_t *w, int k)
{
    const uint64_t a = large_a(k), b = large_b(k);
    for (size_t i = 0; i < LARGE / 8; i++)
        w[i] = a + i * b;
}

__attribute__((optimize("O3"))) static size_t large_bad(const uint64_t *w, int k)
{
    const uint64_t a = large_a(k), b = large_b(k);
    size_t bad = 0;
    for (size_t i = 0; i < LARGE / 8; i++)
        bad += w[i] != a + i * b;
    return bad;
}

static void section_large(rd_ep **eps)
{
    const char *e = getenv("TL_CONTRACT_LARGE");
    if (!(e && *e ? atoi(e) : LARGE_DEFAULT) || NR < 2)
        return;
    /* rank 1 exposes the region, rank 0 moves the data; the others wait */
    uint64_t *buf = me < 2 ? malloc(LARGE) : NULL;
    rd_mr *mr = NULL;
    unsigned char key[256];
    size_t klen = 0;
    if (me < 2) {
        CHECK(buf != NULL, "beyond 2 GiB: %zu bytes allocated", LARGE);
        if (!buf)
            exit(1);
        large_fill(buf, me == 1 ? 1 : 0);
        CHECK_INT(t->mem_reg(tl, buf, LARGE, &mr, me == 1 ? key : NULL, me == 1 ? &klen : NULL), RD_OK,
                  "beyond 2 GiB: mem_reg of %zu bytes", LARGE);
        if (me == 1) {
            sh->addr[1] = (uint64_t)(uintptr_t)buf;
            memcpy(sh->rkey[1], key, klen < sizeof(key) ? klen : sizeof(key));
            sh->rkey_len[1] = klen;
        }
    }
    barrier();
    if (me == 0) {
        done_rec d = {0, RD_ERR_INTERNAL};
        rd_rma_op op = {.local = buf, .len = LARGE, .lmr = mr, .remote_addr = sh->addr[1], .rkey = sh->rkey[1],
                        .rkey_len = sh->rkey_len[1], .done = done_cb, .arg = &d};
        CHECK_INT(t->get(eps[1], &op), RD_OK, "beyond 2 GiB: get of %zu bytes", LARGE);
        wait_flag(&d.calls);
        CHECK_INT(d.calls * 1000 + d.st, 1000, "beyond 2 GiB: get's done() ran once, with RD_OK");
        CHECK_INT(large_bad(buf, 1), 0, "beyond 2 GiB: get brought every word of the peer's");
        large_fill(buf, 2);
        d.calls = 0;
        d.st = RD_ERR_INTERNAL;
        CHECK_INT(t->put(eps[1], &op), RD_OK, "beyond 2 GiB: put of %zu bytes", LARGE);
        wait_flag(&d.calls);
        CHECK_INT(d.calls * 1000 + d.st, 1000, "beyond 2 GiB: put's done() ran once, with RD_OK");
    }
    barrier();
    if (me == 1)
        CHECK_INT(large_bad(buf, 2), 0, "beyond 2 GiB: put placed every word at the target");
    barrier();
    if (tl->caps.own_rndv) {
        long hv = 4343;
        done_rec ds = {0, RD_ERR_INTERNAL}, dr = {0, RD_ERR_INTERNAL};
        rv_got = 0;
        barrier();
        if (me == 0) {
            large_fill(buf, 3);
            rd_rma_op sop = {.local = buf, .len = LARGE, .lmr = mr, .done = done_cb, .arg = &ds};
            CHECK_INT(t->rndv_send(eps[1], 11, &hv, sizeof(hv), &sop), RD_OK, "beyond 2 GiB: rndv_send");
            wait_flag(&ds.calls);
            CHECK_INT(ds.calls * 1000 + ds.st, 1000, "beyond 2 GiB: rndv_send's done() ran once, with RD_OK");
        } else if (me == 1) {
            for (long s = 0; !rv_got && s < 400000000L; s++)
                t->progress(tl);
            CHECK_INT(rv_got * 10000 + (rv_len == LARGE), 10001,
                      "beyond 2 GiB: the rendezvous announcement arrived once, with the data's length");
            if (rv_got == 1) {
                rd_rma_op rop = {.local = buf, .len = LARGE, .lmr = mr, .done = done_cb, .arg = &dr};
                CHECK_INT(t->rndv_recv(tl, rv_desc, &rop), RD_OK, "beyond 2 GiB: rndv_recv");
                wait_flag(&dr.calls);
                CHECK_INT(dr.calls * 1000 + dr.st, 1000, "beyond 2 GiB: rndv_recv's done() ran once, with RD_OK");
                CHECK_INT(large_bad(buf, 3), 0, "beyond 2 GiB: the rendezvous message arrived, every word");
            }
        }
        barrier();
    }
    if (mr)
        t->mem_dereg(tl, mr);
    free(buf);
}

/* ---- remote completion: a put's done() means the data is in the
 * target's memory, visible to its loads (transport.h). The target's memory
 * here is a slice of vis, which the writer maps too: done() itself reads
 * the bytes there; then the target, told by a flag in shared memory (no
 * message of the transport, no progress call after it), reads them. */
static const size_t vis_len[] = {1, 8, 4099, 65537, 262147};
#define NVIS (sizeof(vis_len) / sizeof(vis_len[0]))
#define NVBATCH 32

typedef struct vis_op {
    rd_rma_op op;
    done_rec d;
    const unsigned char *target; /* where the bytes land, as this rank maps it */
    long bad_at_done;            /* bytes not yet in place when done() ran (-1: not run) */
} vis_op;

static void vis_done_cb(rd_rma_op *op, rd_status st)
{
    vis_op *v = (vis_op *)op;
    v->bad_at_done = 0;
    for (size_t i = 0; i < op->len; i++)
        v->bad_at_done += v->target[i] != ((const unsigned char *)op->local)[i];
    v->d.st = st;
    v->d.calls++;
}

/* where case k of vis_len lands in a slice (odd offsets), and the batch */
static size_t vis_at(size_t k)
{
    size_t at = 0;
    for (size_t j = 0; j < k; j++)
        at += 3 + vis_len[j] + 16;
    return at + 3;
}
#define VIS_BATCH_AT (vis_at(NVIS) + 64)
static unsigned char vis_pat(int rank, size_t k, size_t i) { return (unsigned char)(put_pat(rank, 200 + k, i) ^ 0x5a); }

/* the bytes of this rank's slice that writer's puts have not placed */
static long vis_bad_now(int writer)
{
    const unsigned char *mine = vis + (size_t)me * VIS;
    long bad = 0;
    for (size_t k = 0; k < NVIS; k++)
        for (size_t i = 0; i < vis_len[k]; i++)
            bad += mine[vis_at(k) + i] != vis_pat(writer, k, i);
    for (int j = 0; j < NVBATCH; j++)
        for (size_t i = 0; i < 8; i++)
            bad += mine[VIS_BATCH_AT + (size_t)j * 16 + i] != vis_pat(writer, 50 + (size_t)j, i);
    bad += mine[0] != 0 || mine[vis_at(0) + 1] != 0 || mine[VIS_BATCH_AT - 1] != 0;
    return bad;
}

static void cleanup_remote(rd_mr *vmr, rd_mr *smr, unsigned char *src)
{
    t->mem_dereg(tl, vmr);
    t->mem_dereg(tl, smr);
    free(src);
}

static void section_remote(rd_ep **eps)
{
    /* caps.put_sent_only (verbs on iWARP): done() means the bytes have
     * left; what holds is that a message sent after it finds them placed */
    const int sent_only = tl->caps.put_sent_only;
    int peer = succ(me), writer = world_of[pred(me)];
    unsigned char *mine = vis + (size_t)me * VIS, *theirs = vis + (size_t)peer * VIS;
    size_t nsrc = vis_len[NVIS - 1] + 16 * NVBATCH + 64;
    unsigned char *src = malloc(nsrc);
    memset(mine, 0, VIS);
    rd_mr *vmr = NULL, *smr = NULL;
    unsigned char key[256];
    size_t klen = 0;
    CHECK_INT(t->mem_reg(tl, mine, VIS, &vmr, key, &klen), RD_OK, "remote completion: mem_reg of the target memory");
    CHECK_INT(t->mem_reg(tl, src, nsrc, &smr, NULL, NULL), RD_OK, "remote completion: mem_reg of the source");
    sh->vis_addr[me] = (uint64_t)(uintptr_t)mine;
    memcpy(sh->vkey[me], key, klen < sizeof(key) ? klen : sizeof(key));
    sh->vkey_len[me] = klen;
    atomic_store(&sh->vis_done[me], 0);
    barrier();
    rd_ep *ep = eps[peer];
    vis_op v[NVBATCH];
    /* one put at a time: done() finds every byte in place */
    long late = 0, calls = 0;
    for (size_t k = 0; k < NVIS; k++) {
        for (size_t i = 0; i < vis_len[k]; i++)
            src[i] = vis_pat(world_of[me], k, i);
        memset(&v[0], 0, sizeof(v[0]));
        v[0].op = (rd_rma_op){.local = src, .len = vis_len[k], .lmr = smr, .remote_addr = sh->vis_addr[peer] + vis_at(k),
                              .rkey = sh->vkey[peer], .rkey_len = sh->vkey_len[peer], .done = vis_done_cb};
        v[0].target = theirs + vis_at(k);
        v[0].bad_at_done = -1;
        v[0].d.st = RD_ERR_INTERNAL;
        if (t->put(ep, &v[0].op) == RD_OK)
            wait_flag(&v[0].d.calls);
        calls += v[0].d.calls == 1 && v[0].d.st == RD_OK;
        late += v[0].bad_at_done;
    }
    CHECK_INT(calls, NVIS, "remote completion: %zu puts of 1 B .. %zu B, done() once each with RD_OK", NVIS,
              vis_len[NVIS - 1]);
    if (!sent_only)
        CHECK_INT(late, 0, "remote completion: when a put's done() runs, every byte is in the target's memory");
    /* NVBATCH puts of 8 bytes at once */
    unsigned char *bsrc = src + vis_len[NVIS - 1] + 8;
    int posted = 0;
    for (int j = 0; j < NVBATCH; j++) {
        for (size_t i = 0; i < 8; i++)
            bsrc[j * 16 + i] = vis_pat(world_of[me], 50 + (size_t)j, i);
        memset(&v[j], 0, sizeof(v[j]));
        v[j].op = (rd_rma_op){.local = bsrc + j * 16, .len = 8, .lmr = smr,
                              .remote_addr = sh->vis_addr[peer] + VIS_BATCH_AT + (size_t)j * 16, .rkey = sh->vkey[peer],
                              .rkey_len = sh->vkey_len[peer], .done = vis_done_cb};
        v[j].target = theirs + VIS_BATCH_AT + (size_t)j * 16;
        v[j].bad_at_done = -1;
        v[j].d.st = RD_ERR_INTERNAL;
        posted += t->put(ep, &v[j].op) == RD_OK;
    }
    CHECK_INT(posted, NVBATCH, "remote completion: %d puts of 8 B posted back to back", NVBATCH);
    late = calls = 0;
    for (int j = 0; j < NVBATCH; j++) {
        wait_flag(&v[j].d.calls);
        calls += v[j].d.calls == 1 && v[j].d.st == RD_OK;
        late += v[j].bad_at_done;
    }
    CHECK_INT(calls, NVBATCH, "remote completion: the %d puts' done() once each with RD_OK", NVBATCH);
    if (!sent_only)
        CHECK_INT(late, 0, "remote completion: each of the %d in place when its done() ran", NVBATCH);
    if (sent_only) {
        /* the note, sent after every put's done(); the target's handler
         * counts what is not in place when it arrives */
        long n = 0;
        uint64_t h = 0;
        while (t->am_send(ep, VIS_NOTE_ID, &h, sizeof(h), NULL, 0) == RD_ERR_AGAIN && n++ < 100000000L)
            t->progress(tl);
        for (n = 0; vis_note_bad == -1 && n < 400000000L; n++)
            t->progress(tl);
        CHECK_INT(vis_note_bad, 0,
                  "remote completion (put_sent_only): a message sent after the puts' done() finds every byte placed");
        vis_note_bad = -1;
        barrier();
        cleanup_remote(vmr, smr, src);
        return;
    }
    atomic_store(&sh->vis_done[me], 1);
    /* the target: once the writer's done() ran (the flag), its loads see
     * the data, with no progress call in between */
    for (long spins = 0; !atomic_load(&sh->vis_done[pred(me)]) && spins < 400000000L; spins++)
        t->progress(tl);
    CHECK_INT(vis_bad_now(writer), 0, "remote completion: the target reads every byte once the writer's done() ran, "
              "with no message and no progress call after it");
    barrier();
    cleanup_remote(vmr, smr, src);
}

/* Every rank but the first on one word of the first rank at once:
 * NFADD fetch-and-adds of 1 each (the total exact, every value from 0
 * below it fetched exactly once), then one compare-and-swap each of 0 for
 * its own value (exactly one hits). The first rank only progresses (in
 * the barrier): software atomics (UCX over TCP, rxm) need it. */
static void section_atomics_one_word(rd_ep **eps, rd_atomic_op *a, const uint64_t *words)
{
    volatile int *flag = a->arg;
    barrier();
    if (NR > 1 && me != 0) {
        a->kind = RD_ATOMIC_FADD;
        a->operand = 1;
        a->remote_addr = sh->word_addr[0] + 16;
        a->rkey = sh->wkey[0];
        a->rkey_len = sh->wkey_len[0];
        int ok = 1, rising = 1;
        for (int i = 0; i < NFADD; i++) {
            *flag = 0;
            *a->result = ~0ULL;
            if (t->atomic(eps[0], a) != RD_OK || wait_flag(flag) != 1)
                ok = 0;
            sh->fetched[me][i] = *a->result;
            if (i && sh->fetched[me][i] <= sh->fetched[me][i - 1])
                rising = 0;
        }
        CHECK(ok && rising, "%d fetch-and-adds of 1 from each of %d ranks on one word at once: done, each value "
              "fetched above the one before", NFADD, NR - 1);
    }
    barrier();
    if (NR > 1 && me == 0) {
        long total = (long)(NR - 1) * NFADD, dup = 0, out = 0;
        unsigned char *seen = calloc((size_t)total, 1);
        for (int r = 1; r < NR; r++)
            for (int i = 0; i < NFADD; i++) {
                uint64_t v = sh->fetched[r][i];
                if (v >= (uint64_t)total)
                    out++;
                else if (seen[v]++)
                    dup++;
            }
        free(seen);
        CHECK_INT(words[2], total, "one word after %d ranks' %d fetch-and-adds each: the exact total", NR - 1, NFADD);
        CHECK_INT(dup + out, 0, "every value from 0 to the total fetched exactly once (duplicates %ld, out of range %ld)",
                  dup, out);
    }
    barrier();
    if (NR > 1 && me != 0) {
        a->kind = RD_ATOMIC_CSWAP;
        a->compare = 0;
        a->operand = 100 + (uint64_t)world_of[me];
        a->remote_addr = sh->word_addr[0] + 24;
        *flag = 0;
        sh->swapped[me] = t->atomic(eps[0], a) == RD_OK && wait_flag(flag) == 1 ? *a->result : ~0ULL;
    }
    barrier();
    if (NR > 1 && me == 0) {
        int hits = 0, winner = -1, agree = 1;
        for (int r = 1; r < NR; r++)
            if (sh->swapped[r] == 0) {
                hits++;
                winner = r;
            }
        CHECK_INT(hits, 1, "compare-and-swap 0 -> 100 + rank by %d ranks on one word at once: exactly one hit", NR - 1);
        for (int r = 1; r < NR && winner > 0; r++)
            agree &= r == winner || sh->swapped[r] == 100 + (uint64_t)world_of[winner];
        CHECK(winner > 0 && words[3] == 100 + (uint64_t)world_of[winner] && agree,
              "compare-and-swap race: the word holds the winner's value, the others' misses returned it");
    }
    barrier();
}

static void section_atomics(rd_ep **eps)
{
    rd_ep *ep = eps[succ(me)];
    int peer = succ(me);
    uint64_t *words = aligned_alloc(64, 64), *res = aligned_alloc(64, 64);
    memset(words, 0, 64);
    rd_mr *wmr = NULL, *rmr = NULL;
    unsigned char key[256];
    size_t klen = 0;
    volatile int flag = 0;
    t->mem_reg(tl, words, 64, &wmr, key, &klen);
    t->mem_reg(tl, res, 64, &rmr, NULL, NULL);
    sh->word_addr[me] = (uint64_t)(uintptr_t)words;
    memcpy(sh->wkey[me], key, klen < sizeof(key) ? klen : sizeof(key));
    sh->wkey_len[me] = klen;
    barrier();
    rd_atomic_op a = {.kind = RD_ATOMIC_FADD, .operand = 3, .result = res, .lmr = rmr,
                      .remote_addr = sh->word_addr[peer], .rkey = sh->wkey[peer], .rkey_len = sh->wkey_len[peer],
                      .done = atom_cb, .arg = (void *)&flag};
    if (!tl->caps.atomics) {
        rd_status ast = t->atomic ? t->atomic(ep, &a) : RD_ERR_UNSUPPORTED;
        CHECK_INT(ast, RD_ERR_UNSUPPORTED, "no atomics (caps.atomics 0): atomic() says RD_ERR_UNSUPPORTED");
        for (int i = 0; i < 7; i++) /* (as many as the other branch) */
            barrier();
    } else {
        int seqok = 1;
        for (int i = 0; i < 100; i++) {
            flag = 0;
            *res = ~0ULL;
            if (t->atomic(ep, &a) != RD_OK || wait_flag(&flag) != 1 || *res != (uint64_t)(3 * i))
                seqok = 0;
        }
        CHECK(seqok, "100 fetch-and-adds of 3 on the peer's word: each saw the previous value");
        a.remote_addr = sh->word_addr[peer] + 8;
        a.operand = 1;
        int ok1 = 1;
        for (int i = 0; i < 200; i++) {
            flag = 0;
            if (t->atomic(ep, &a) != RD_OK || wait_flag(&flag) != 1 || *res >= 200)
                ok1 = 0;
        }
        CHECK(ok1, "200 fetch-and-adds of 1 while every rank does the same: each old value below 200");
        barrier();
        CHECK_INT(words[1], 200, "this rank's second word: its predecessor's 200 adds");
        a.remote_addr = sh->word_addr[peer];
        a.kind = RD_ATOMIC_CSWAP;
        a.compare = 300;
        a.operand = 7 + (uint64_t)me;
        flag = 0;
        CHECK_INT(t->atomic(ep, &a) == RD_OK && wait_flag(&flag) == 1 ? (long long)*res : -1, 300,
                  "compare-and-swap 300 -> 7 + rank: hit, old value 300");
        flag = 0;
        a.operand = 99;
        CHECK_INT(t->atomic(ep, &a) == RD_OK && wait_flag(&flag) == 1 ? (long long)*res : -1, 7 + me,
                  "compare-and-swap 300 -> 99: miss, old value 7 + rank");
        barrier();
        CHECK_INT(words[0], 7 + pred(me), "this rank's first word after its predecessor's swaps");
        section_atomics_one_word(eps, &a, words);
    }
    t->mem_dereg(tl, wmr);
    t->mem_dereg(tl, rmr);
    free(words);
    free(res);
}

static void close_all(void)
{
    if (t->busy)
        for (long s = 0; t->busy(tl) && s < 400000000L; s++)
            t->progress(tl);
    barrier();
    t->close(tl);
    tl = NULL;
    barrier();
}

static void contract(const char *nspace)
{
    rd_ep *eps[NR];
    memset(rx, 0, sizeof(rx));
    rx_other = rx_total = 0;
    if (!open_all(nspace, on_am))
        return;
    section_caps_connect(eps);
    sbuf = malloc(tl->caps.am_max + 64);
    section_am(eps);
    if (tl->caps.rma) {
        section_rma(eps);
        section_large(eps);
        section_remote(eps);
    } else
        CHECK(1, "no get/put here (caps.rma 0): the engine pipelines through active messages");
    section_atomics(eps);
    free(sbuf);
    sbuf = NULL;
}

/* ------------------------------------------------------------ backend sections */

#ifdef TL_SELF
/* self delivers from progress() only, at most 64 per call; what a handler
 * sends comes with the next call; get/put complete inside the call */
static void backend_section(void)
{
    rd_ep *ep = NULL;
    CHECK_INT(t->connect(tl, world_of[0], &ep), RD_OK, "self: connect to itself");
    self_ep = ep;
    CHECK_INT(tl->caps.am_max, 65536, "self: am_max");
    CHECK_INT(t->progress(tl), 0, "self: nothing queued: progress returns 0");
    unsigned char d[100] = {0};
    int ok = 1;
    self_in_send = 1;
    for (unsigned i = 0; i < 200; i++) {
        unsigned id = 60000 + (i % 100);
        ok &= t->am_send(ep, id, &id, sizeof(id), d, i % 100) == RD_OK;
    }
    self_in_send = 0;
    CHECK(ok, "self: 200 am_send calls succeed");
    CHECK_INT(self_in_send_calls, 0, "self: the handler never runs inside am_send");
    CHECK_INT(t->progress(tl), 64, "self: one progress call delivers at most 64");
    int total = 64, n;
    while ((n = t->progress(tl)) > 0)
        total += n;
    CHECK_INT(total, 200, "self: all 200 delivered");
    self_nids = 0;
    self_resend = 1;
    unsigned i1 = 60001, i2 = 60002;
    t->am_send(ep, i1, &i1, sizeof(i1), NULL, 0);
    t->am_send(ep, i2, &i2, sizeof(i2), NULL, 0);
    CHECK_INT(t->progress(tl), 2, "self: progress delivers the 2 queued before the call");
    CHECK_INT(t->progress(tl), 2, "self: the 2 sent by the handler come with the next call");
    CHECK_INT(t->progress(tl), 0, "self: then nothing");
    CHECK(self_ids[0] == 60001 && self_ids[1] == 60002 && self_ids[2] == 61001 && self_ids[3] == 61002,
          "self: order 1, 2, 1001, 1002");
    self_resend = 0;
    char src[100], dst[100];
    done_rec dr = {0};
    for (int i = 0; i < 100; i++)
        src[i] = (char)i;
    memset(dst, 0, sizeof(dst));
    rd_rma_op op = {.local = dst + 1, .len = 50, .remote_addr = (uint64_t)(uintptr_t)(src + 3), .done = done_cb,
                    .arg = &dr};
    CHECK_INT(t->get(ep, &op), RD_OK, "self: get");
    CHECK_INT(dr.calls, 1, "self: done() ran inside get");
    memset(dst, 9, sizeof(dst));
    op.local = dst;
    op.len = 10;
    op.remote_addr = (uint64_t)(uintptr_t)(src + 90);
    CHECK_INT(t->put(ep, &op), RD_OK, "self: put");
    CHECK_INT(dr.calls, 2, "self: done() ran inside put");
    CHECK(src[89] == 89 && src[90] == 9 && src[99] == 9, "self: put copied 10 bytes, nothing around them");
    op.len = 0;
    CHECK_INT(t->get(ep, &op), RD_OK, "self: get of 0 bytes");
    CHECK_INT(dr.calls, 3, "self: completes too, inside the call");
    unsigned i3 = 60003;
    t->am_send(ep, i3, &i3, sizeof(i3), d, 10); /* left queued: close frees it */
}
#endif

#ifdef TL_SHM
static int shm_entries(const char *prefix)
{
    int n = 0;
    DIR *d = opendir("/dev/shm");
    struct dirent *e;
    if (!d)
        return -1;
    while ((e = readdir(d)))
        n += strncmp(e->d_name, prefix, strlen(prefix)) == 0;
    closedir(d);
    return n;
}

static char prefix1[96];
static long shm_got;
static void on_count(void *arg, int src, unsigned id, const void *hdr, size_t hlen, const void *data, size_t len)
{
    (void)arg, (void)src, (void)id, (void)hdr, (void)hlen, (void)data, (void)len;
    shm_got++;
}

/* shm (ranks 0, 2, 3 here, rank 1 elsewhere): the segment, caps, what it
 * does not reach, ids over 16 bits */
static void backend_section(void)
{
    rd_ep *ep = NULL;
    CHECK_INT(shm_entries(prefix1), 0, "shm: the segment has no name in /dev/shm (a memory file)");
    CHECK_INT(tl->caps.am_max, 65528, "shm: am_max of 256 KiB rings");
    CHECK_INT(tl->caps.eager_limit, 32768, "shm: eager_limit default");
    CHECK_INT(tl->caps.needs_reg * 10 + (int)tl->caps.rkey_max, 0, "shm: needs_reg 0, rkey_max 0");
    CHECK_INT(tl->caps.rma, cma_permitted, "shm: rma: %s", cma_permitted ? "CMA permitted here"
                                                                          : "CMA not permitted here");
    CHECK_INT(t->reachable(tl, 1) + t->reachable(tl, 4) + t->reachable(tl, -1), 0,
              "shm: not reachable: 1 (other node), 4, -1");
    long h8 = 0;
    CHECK_INT(t->connect(tl, world_of[succ(me)], &ep), RD_OK, "shm: connect to the next rank");
    CHECK_INT(t->am_send(ep, 65536, &h8, 8, NULL, 0), RD_ERR_ARG, "shm: an id over 65535 is refused");
    barrier();
}

/* after close: a transport opened again without CMA (its rings fresh: the
 * full ring and the limits per progress call are counted there), and a
 * rank alone on its node */
static void backend_after(const char *ns2)
{
    rd_param.shm_cma = 0;
    if (open_all(ns2, on_count)) {
        CHECK_INT(tl->caps.rma, 0, "shm without CMA (RDMPI_SHM_CMA=0): caps.rma 0");
        rd_ep *ep = NULL;
        /* a full ring: rank 2 -> rank 3 with 1 KiB records, rank 3 not polling */
        idle_off = 1;
        if (me == 1) {
            unsigned char data[1000];
            long hdr[2] = {0, 0};
            memset(data, 0x5a, sizeof(data));
            CHECK_INT(t->connect(tl, 3, &ep), RD_OK, "shm: connect to 3");
            int n = 0;
            while (t->am_send(ep, 7, hdr, 16, data, sizeof(data)) == RD_OK)
                n++;
            CHECK_INT(n, 256, "shm: 256 records of 1024 bytes fill a 256 KiB ring");
            CHECK_INT(t->am_send(ep, 7, hdr, 16, data, sizeof(data)), RD_ERR_AGAIN, "shm: the next one gets RD_ERR_AGAIN");
        }
        barrier();
        if (me == 2) {
            long total = 0;
            int n = t->progress(tl);
            CHECK_INT(n, 16, "shm: one progress call takes at most 16 records from one ring");
            total += n;
            while ((n = t->progress(tl)) > 0)
                total += n;
            CHECK_INT(total, 256, "shm: rank 3 receives the 256 records");
        }
        barrier();
        if (me == 1) {
            long hdr[2] = {0, 0};
            CHECK_INT(t->am_send(ep, 7, hdr, 16, hdr, 8), RD_OK, "shm: after progress there is room");
        }
        barrier();
        if (me == 2)
            while (t->progress(tl) == 0)
                ;
        barrier();
        /* at most 64 records per progress call: ranks 2 and 3 send 200 each to 0 */
        if (me != 0) {
            unsigned char d[8] = {0};
            CHECK_INT(t->connect(tl, 0, &ep), RD_OK, "shm: connect to 0");
            for (int i = 0; i < 200; i++)
                while (t->am_send(ep, 7, d, 8, d, 8) == RD_ERR_AGAIN)
                    ;
        }
        barrier();
        if (me == 0) {
            int maxn = 0, n;
            long total = 0;
            while (total < 400) {
                n = t->progress(tl);
                total += n;
                if (n > maxn)
                    maxn = n;
            }
            CHECK(maxn <= 64, "shm: one progress call handles at most 64 records");
            CHECK_INT(t->progress(tl), 0, "shm: nothing more: progress returns 0");
        }
        idle_off = 0;
        barrier();
        if (me == 1) {
            done_rec d = {0};
            unsigned char x;
            rd_rma_op op = {.local = &x, .len = 1, .remote_addr = (uint64_t)(uintptr_t)&x, .done = done_cb, .arg = &d};
            CHECK_INT(t->connect(tl, 0, &ep), RD_OK, "shm without CMA: connect");
            fprintf(stderr, "# the next error message is expected:\n");
            CHECK_INT(t->get(ep, &op), RD_ERR_UNSUPPORTED, "shm without CMA: get says RD_ERR_UNSUPPORTED");
            CHECK_INT(d.calls, 0, "shm without CMA: and done() is not called");
        }
        barrier();
        close_all();
    }
    rd_param.shm_cma = 1;
    if (me == 0) {
        static int mine[1] = {0};
        struct rd_job solo = make_job("solo");
        solo.local_size = 1;
        solo.local_peers = mine;
        solo.size = 1;
        tl = NULL;
        CHECK_INT(t->open(&solo, NULL, on_count, NULL, &tl), RD_OK, "shm alone on a node: open");
        CHECK_INT(t->activate(tl), RD_OK, "shm alone on a node: activate");
        CHECK_INT(t->reachable(tl, 0), 0, "shm alone on a node: not even itself (self does that)");
        CHECK_INT(t->progress(tl), 0, "shm alone on a node: progress returns 0");
        t->close(tl);
        tl = NULL;
        CHECK_INT(shm_entries("rdmpi-solo"), 0, "shm alone on a node: no segment");
    }
}
#endif

#ifdef TL_VERBS
static long bad_at_done = -1;
static unsigned char *check_got;
static size_t check_n;
static int check_peer;
static void done_check_cb(rd_rma_op *op, rd_status st)
{
    bad_at_done = 0;
    for (size_t i = 0; i < check_n; i++)
        bad_at_done += check_got[i] != region_pat(check_peer, i);
    done_cb(op, st);
}

/* verbs: a read, then 40 messages posted right behind it: every byte is in
 * place when the read completes (iWARP completes those sends first) */
static void backend_section(void)
{
    size_t n = (3 << 20) + 5;
    unsigned char *region = malloc(n), *got = malloc(n);
    for (size_t i = 0; i < n; i++)
        region[i] = region_pat(world_of[me], i);
    rd_mr *rmr = NULL, *gmr = NULL;
    unsigned char key[256];
    size_t klen = 0;
    t->mem_reg(tl, region, n, &rmr, key, &klen);
    t->mem_reg(tl, got, n, &gmr, NULL, NULL);
    sh->addr[me] = (uint64_t)(uintptr_t)region;
    memcpy(sh->rkey[me], key, klen);
    sh->rkey_len[me] = klen;
    rd_ep *ep = NULL;
    t->connect(tl, world_of[succ(me)], &ep);
    memset(rx, 0, sizeof(rx));
    nsweep = 0;
    sbuf = malloc(tl->caps.am_max);
    barrier();
    if (me == 0) {
        done_rec d = {0};
        memset(got, 0, n);
        check_got = got;
        check_n = n;
        check_peer = world_of[succ(me)];
        rd_rma_op op = {.local = got, .len = n, .lmr = gmr, .remote_addr = sh->addr[succ(me)],
                        .rkey = sh->rkey[succ(me)], .rkey_len = sh->rkey_len[succ(me)], .done = done_check_cb,
                        .arg = &d};
        CHECK_INT(t->get(ep, &op), RD_OK, "verbs: get of %zu bytes, then 40 messages", n);
        int sent = 0;
        for (long seq = 0; seq < 40; seq++)
            sent += send_seq(ep, seq) == RD_OK;
        CHECK_INT(sent, 40, "verbs: 40 messages posted behind the get");
        wait_flag(&d.calls);
        CHECK_INT(d.calls * 1000 + d.st, 1000, "verbs: the get completed");
        CHECK_INT(bad_at_done, 0, "verbs: when it completed, every byte of the get was in place");
    } else {
        wait_streams(40);
        CHECK_INT(rx[world_of[pred(me)]].got, 40, "verbs: the 40 messages posted behind the peer's get arrived");
        CHECK_INT(rx[world_of[pred(me)]].bad + rx[world_of[pred(me)]].disorder, 0, "verbs: in order, contents intact");
    }
    barrier();
    t->mem_dereg(tl, rmr);
    t->mem_dereg(tl, gmr);
    free(region);
    free(got);
    free(sbuf);
    sbuf = NULL;
}
#endif

/* ------------------------------------------------------------ ranks */

static char ns1[64], ns2[64];

static void rank_main(int i)
{
    me = i;
    stub_rank = world_of[i];
    rd_log_set_rank(stub_rank);
    contract(ns1);
    if (tl) {
#if defined(TL_SHM) || defined(TL_SELF) || defined(TL_VERBS)
        backend_section();
#endif
        close_all();
    }
#ifdef TL_SHM
    backend_after(ns2);
#endif
#ifdef TL_OFI
    /* providers that need local buffers registered (FI_MR_LOCAL, as
     * verbs;ofi_rxm does): the same contract with that mode forced on tcp */
    rd_param.ofi_mr_local = 1;
    tl_check_prefix = "RDMPI_OFI_MR_LOCAL=1: ";
    contract(ns2);
    if (tl)
        close_all();
#endif
    _exit(0);
}

int main(void)
{
    char err[512];
#ifdef TL_UCX
    setenv("UCX_TLS", "tcp", 0); /* loopback TCP, as test/mpi/ucx.sh */
    setenv("UCX_NET_DEVICES", "lo", 0);
#endif
#ifdef TL_OFI
    setenv("FI_PROVIDER", "tcp", 0); /* as test/mpi/ofi.sh */
    setenv("FI_TCP_IFACE", "lo", 0);
#endif
    if (rd_params_load(err, sizeof(err)) < 0) {
        printf("Bail out! %s\n", err);
        return 1;
    }
    rd_log_configure(rd_param.log);
#ifdef TL_SHM
    { /* can this environment do CMA at all? (containers, Yama) */
        int pfd[2];
        char c = 0;
        if (pipe(pfd) != 0)
            return 1;
        pid_t probe = fork();
        if (probe == 0) {
            close(pfd[1]);
            if (read(pfd[0], &c, 1) < 0)
                _exit(1);
            _exit(0);
        }
        cma_permitted = rd_shm_cma_probe(probe, (uint64_t)(uintptr_t)&rd_shm_cma_probe_word) == RD_OK;
        close(pfd[1]);
        waitpid(probe, NULL, 0);
        close(pfd[0]);
        if (!cma_permitted)
            printf("# CMA is not permitted here: get/put checks are left out\n");
    }
    snprintf(prefix1, sizeof(prefix1), "rdmpi-tlcontract_%ld-", (long)getpid());
#endif
    printf("# the %s transport's contract, %d ranks\n", t->name, NR);
    snprintf(kvdir, sizeof(kvdir), "%s/tl-contract.XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    vis = mmap(NULL, NR * VIS, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (sh == MAP_FAILED || vis == MAP_FAILED || !mkdtemp(kvdir)) {
        printf("Bail out! set-up\n");
        return 1;
    }
    tl_sh = &sh->tl;
    tl_barrier_idle = progress_idle;
    snprintf(ns1, sizeof(ns1), "tlcontract/%ld", (long)getpid());
    snprintf(ns2, sizeof(ns2), "tlcontract2/%ld", (long)getpid());
    fflush(stdout);
    pid_t pid[NR];
    for (int i = 0; i < NR; i++)
        if ((pid[i] = fork()) == 0)
            rank_main(i);
    for (int i = 0; i < NR; i++) {
        int status = 0;
        waitpid(pid[i], &status, 0);
        tap_ok(WIFEXITED(status) && WEXITSTATUS(status) == 0, "rank %d exited 0 (status 0x%x)", world_of[i], status);
    }
    tl_report();
    tap_ok(t->size == sizeof(struct rd_transport) && strcmp(t->name,
#if defined(TL_SELF)
                                                           "self"
#elif defined(TL_SHM)
                                                           "shm"
#elif defined(TL_UCX)
                                                           "ucx"
#elif defined(TL_OFI)
                                                           "ofi"
#else
                                                           "verbs"
#endif
                                                           ) == 0,
           "the table's size and name");
#ifdef TL_SHM
    char p2[96];
    snprintf(p2, sizeof(p2), "rdmpi-tlcontract2_%ld-", (long)getpid());
    tap_is_int(shm_entries(prefix1) + shm_entries(p2), 0, "shm: nothing left in /dev/shm");
#endif
    char cmd[600];
    snprintf(cmd, sizeof(cmd), "rm -rf '%s'", kvdir);
    if (system(cmd) != 0)
        tap_diag("could not remove %s", kvdir);
    return tap_done();
}

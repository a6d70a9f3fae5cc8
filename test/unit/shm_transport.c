/* shm_transport.c - the shm transport through its contract (transport.h),
 * with three forked "ranks" of one node. The job's key exchange is a stub
 * here (a directory of files), so no launcher is needed: rd_job_put writes
 * <dir>/<rank>.<key>, rd_job_get reads it, and the test's own barrier
 * stands in for the fence.
 *
 * World ranks 0, 2 and 3 share the node (local ranks 0, 1, 2); rank 1 is
 * elsewhere. Each rank records its checks in shared memory; the parent
 * prints them as TAP (test/unit/tl_harness.h, shared with verbs_unit.c). */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "runtime/base/job.h"
#include "runtime/base/params.h"
#include "test/tap.h"
#include "transports/shm/shm_cma.h"
#include "transports/transport.h"

#define NRANKS 3
#define TL_NRANKS NRANKS
#include "test/unit/tl_harness.h"

#define NMSG 20000

typedef struct shared {
    struct tl_shared tl; /* checks and barrier (tl_harness.h) */
    uint64_t buf_addr;   /* rank 3's buffer for get/put */
    _Atomic int seen_peer[4];
} shared;

static shared *sh;
static int cma_permitted; /* found out before the ranks start */
static const int world_of_local[NRANKS] = {0, 2, 3};

/* ---- the handler: checks per-source order and payloads */
typedef struct rx_state {
    long next_seq[4];
    long got, bad;
    long bytes;
} rx_state;

static void on_am(void *arg, int src, unsigned id, const void *hdr, size_t hlen, const void *data,
                  size_t len)
{
    rx_state *s = arg;
    long seq = -1;
    if (hlen == sizeof(long))
        memcpy(&seq, hdr, sizeof(seq));
    int ok = src >= 0 && src < 4 && seq == s->next_seq[src] && id == (unsigned)(seq & 0xffff) &&
             len == (size_t)(seq % 200);
    for (size_t i = 0; ok && i < len; i++)
        ok = ((const unsigned char *)data)[i] == (unsigned char)(src + seq + (long)i);
    if (src >= 0 && src < 4)
        s->next_seq[src] = seq + 1;
    s->got++;
    s->bad += !ok;
    s->bytes += (long)len;
}

static rd_status send_seq(rd_ep *ep, long seq)
{
    unsigned char data[256];
    size_t len = (size_t)(seq % 200);
    for (size_t i = 0; i < len; i++)
        data[i] = (unsigned char)(stub_rank + seq + (long)i);
    return ep->tl->ops->am_send(ep, (unsigned)(seq & 0xffff), &seq, sizeof(seq), data, len);
}

static int done_calls;
static rd_status done_status;
static void on_done(rd_rma_op *op, rd_status st)
{
    done_calls++;
    done_status = st;
}

static struct rd_job make_job(int lr, const char *nspace)
{
    static int peers[NRANKS] = {0, 2, 3};
    struct rd_job job;
    memset(&job, 0, sizeof(job));
    job.rank = world_of_local[lr];
    job.size = 4;
    job.local_rank = lr;
    job.local_size = NRANKS;
    job.num_nodes = 2;
    job.local_peers = peers;
    snprintf(job.nspace, sizeof(job.nspace), "%s", nspace);
    return job;
}

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

static char ns1[64], ns2[64], prefix1[96];

static void rank_main(int lr)
{
    const struct rd_transport *t = &rd_transport_shm;
    rd_tl *tl = NULL;
    rx_state rx;
    struct rd_job job = make_job(lr, ns1);
    stub_rank = job.rank;
    memset(&rx, 0, sizeof(rx));

    /* ---- open (rank 0 creates), fence, activate */
    if (lr == 0) {
        CHECK_INT(t->open(&job, NULL, on_am, &rx, &tl), RD_OK, "open");
        CHECK_INT(shm_entries(prefix1), 0, "the segment has no name in /dev/shm (a memory file)");
    }
    barrier();
    if (lr != 0)
        CHECK_INT(t->open(&job, NULL, on_am, &rx, &tl), RD_OK, "open");
    barrier(); /* the fence */
    CHECK_INT(t->activate(tl), RD_OK, "activate");
    barrier();
    if (lr == 0)
        CHECK_INT(shm_entries(prefix1), 0, "no /dev/shm entry once every rank activated");

    /* ---- caps and reachability */
    CHECK_INT(tl->caps.am_max, 65528, "am_max of 256 KiB rings");
    CHECK_INT(tl->caps.eager_limit, 32768, "eager_limit default");
    CHECK_INT(tl->caps.needs_reg, 0, "needs_reg");
    CHECK_INT(tl->caps.rkey_max, 0, "rkey_max");
    CHECK_INT(tl->caps.rma, cma_permitted, "rma: %s", cma_permitted ? "CMA permitted here"
                                                                     : "CMA not permitted here");
    CHECK_INT(t->reachable(tl, 0) + t->reachable(tl, 2) * 2 + t->reachable(tl, 3) * 4, 7,
              "reachable: 0, 2, 3");
    CHECK_INT(t->reachable(tl, 1) + t->reachable(tl, 4) + t->reachable(tl, -1), 0,
              "not reachable: 1 (other node), 4, -1");
    rd_ep *ep = NULL, *ep2 = NULL;
    CHECK_INT(t->connect(tl, 1, &ep), RD_ERR_UNREACH, "connect to a rank elsewhere fails");

    /* ---- ranks 2 and 3 send NMSG each to rank 0 */
    if (lr != 0) {
        CHECK_INT(t->connect(tl, 0, &ep), RD_OK, "connect to 0");
        CHECK_INT(t->connect(tl, 0, &ep2), RD_OK, "connect to 0 again");
        CHECK(ep == ep2 && ep->peer == 0 && ep->tl == tl, "the same endpoint, peer 0");
        unsigned char big[65536] = {0};
        CHECK_INT(t->am_send(ep, 1, big, RD_AM_HDR_MAX + 1, NULL, 0), RD_ERR_ARG,
                  "a header over RD_AM_HDR_MAX is refused");
        CHECK_INT(t->am_send(ep, 1, big, 8, big, 65521), RD_ERR_ARG,
                  "hlen + len over am_max is refused");
        CHECK_INT(t->am_send(ep, 65536, big, 8, NULL, 0), RD_ERR_ARG, "an id over 65535 is refused");
        long again = 0;
        for (long seq = 0; seq < NMSG; seq++) {
            rd_status st;
            while ((st = send_seq(ep, seq)) == RD_ERR_AGAIN) {
                again++;
                t->progress(tl);
            }
            if (st != RD_OK) {
                CHECK_INT(st, RD_OK, "am_send %ld", seq);
                break;
            }
        }
        CHECK(1, "sent %d messages (%ld times RD_ERR_AGAIN)", NMSG, again);
    } else {
        int max_events = 0, calls = 0;
        while (rx.got < 2L * NMSG) {
            int n = t->progress(tl);
            if (n > max_events)
                max_events = n;
            calls++;
        }
        CHECK_INT(rx.got, 2L * NMSG, "received every message");
        CHECK_INT(rx.bad, 0, "in order per source, with ids, headers and payloads intact");
        CHECK_INT(rx.next_seq[2] + rx.next_seq[3], 2L * NMSG, "from ranks 2 and 3");
        CHECK(max_events <= 64, "progress handles at most 64 records per call (max %d)",
              max_events);
        CHECK_INT(t->progress(tl), 0, "nothing more: progress returns 0");
    }
    barrier();

    /* ---- ring full: rank 2 -> rank 3 with 1 KiB records, rank 3 not polling */
    if (lr == 1) {
        unsigned char data[1000];
        long hdr[2] = {0, 0};
        memset(data, 0x5a, sizeof(data));
        CHECK_INT(t->connect(tl, 3, &ep), RD_OK, "connect to 3");
        int n = 0;
        while (t->am_send(ep, 7, hdr, 16, data, sizeof(data)) == RD_OK)
            n++;
        CHECK_INT(n, 256, "256 records of 1024 bytes fill a 256 KiB ring");
        CHECK_INT(t->am_send(ep, 7, hdr, 16, data, sizeof(data)), RD_ERR_AGAIN,
                  "the next one gets RD_ERR_AGAIN");
    }
    barrier();
    if (lr == 2) {
        memset(&rx, 0, sizeof(rx));
        long total = 0;
        int n;
        n = t->progress(tl);
        CHECK_INT(n, 16, "one progress call takes at most 16 records from one ring");
        total += n;
        while ((n = t->progress(tl)) > 0)
            total += n;
        CHECK_INT(total, 256, "rank 3 receives the 256 records");
    }
    barrier();
    if (lr == 1) {
        long hdr[2] = {0, 0};
        CHECK_INT(t->am_send(ep, 7, hdr, 16, hdr, 8), RD_OK, "after progress there is room");
    }
    barrier();
    if (lr == 2) {
        while (t->progress(tl) == 0)
            ;
    }

    /* ---- CMA get/put: rank 2 to rank 3's buffer */
    unsigned char *buf = malloc((1 << 20) + 64);
    for (size_t i = 0; i < (1 << 20) + 64; i++)
        buf[i] = (unsigned char)(lr * 31 + i * 3);
    if (lr == 2)
        sh->buf_addr = (uint64_t)(uintptr_t)buf;
    barrier();
    if (lr == 1 && cma_permitted) {
        rd_rma_op op = {0};
        rd_mr *mr = NULL;
        size_t rkey_len = 99;
        CHECK_INT(t->mem_reg(tl, buf, 1 << 20, &mr, NULL, &rkey_len), RD_OK, "mem_reg succeeds");
        CHECK(mr != NULL && rkey_len == 0, "with an empty key");
        static const size_t lens[] = {0, 1, 1 << 20, 100003};
        static const size_t offs[] = {0, 0, 0, 3};
        for (int k = 0; k < 4; k++) {
            memset(buf, 0, (1 << 20) + 64);
            op.local = buf + offs[k];
            op.len = lens[k];
            op.remote_addr = sh->buf_addr + offs[k] * 2;
            op.done = on_done;
            done_calls = 0;
            done_status = RD_ERR_INTERNAL;
            CHECK_INT(t->get(ep, &op), RD_OK, "get of %zu bytes", lens[k]);
            CHECK_INT(done_calls * 100 + done_status, 100, "done() ran once, with RD_OK");
            int same = buf[lens[k] + offs[k]] == 0;
            for (size_t i = 0; i < lens[k]; i++)
                same &= buf[offs[k] + i] == (unsigned char)(2 * 31 + (i + offs[k] * 2) * 3);
            CHECK(same, "get of %zu bytes brought exactly the peer's bytes", lens[k]);
        }
        /* put 1 MiB - 1 at offset 1 */
        for (size_t i = 0; i < (1 << 20); i++)
            buf[i] = (unsigned char)(i ^ 0x77);
        op.local = buf;
        op.len = (1 << 20) - 1;
        op.remote_addr = sh->buf_addr + 1;
        done_calls = 0;
        CHECK_INT(t->put(ep, &op), RD_OK, "put of 1 MiB - 1 to an odd address");
        CHECK_INT(done_calls * 100 + done_status, 100, "done() ran once, with RD_OK");
        t->mem_dereg(tl, mr);
    }
    barrier();
    if (lr == 2 && cma_permitted) {
        int same = buf[0] == (unsigned char)(2 * 31) && buf[1 << 20] == (unsigned char)(2 * 31 + (1 << 20) * 3);
        for (size_t i = 0; i < (1 << 20) - 1; i++)
            same &= buf[1 + i] == (unsigned char)(i ^ 0x77);
        CHECK(same, "the put landed exactly");
    }
    barrier();
    t->close(tl);
    free(buf);
    barrier();

    /* ---- forced fallback: RDMPI_SHM_CMA=0 */
    rd_param.shm_cma = 0;
    job = make_job(lr, ns2);
    tl = NULL;
    if (lr == 0)
        CHECK_INT(t->open(&job, NULL, on_am, &rx, &tl), RD_OK, "open (shm_cma = 0)");
    barrier();
    if (lr != 0)
        CHECK_INT(t->open(&job, NULL, on_am, &rx, &tl), RD_OK, "open (shm_cma = 0)");
    barrier();
    CHECK_INT(t->activate(tl), RD_OK, "activate (shm_cma = 0)");
    CHECK_INT(tl->caps.rma, 0, "shm_cma = 0 gives caps.rma = 0");
    if (lr == 1) {
        rd_rma_op op = {0};
        unsigned char x;
        op.local = &x;
        op.len = 1;
        op.remote_addr = (uint64_t)(uintptr_t)&x;
        op.done = on_done;
        done_calls = 0;
        CHECK_INT(t->connect(tl, 0, &ep), RD_OK, "connect");
        fprintf(stderr, "# the next error message is expected:\n");
        CHECK_INT(t->get(ep, &op), RD_ERR_UNSUPPORTED, "get without rma: RD_ERR_UNSUPPORTED");
        CHECK_INT(done_calls, 0, "and done() is not called");
    }
    barrier();
    t->close(tl);
    barrier();

    /* ---- alone on a node: no segment, nothing reachable */
    if (lr == 0) {
        static int me[1] = {0};
        struct rd_job solo = make_job(0, "solo");
        solo.local_size = 1;
        solo.local_peers = me;
        solo.size = 1;
        tl = NULL;
        CHECK_INT(t->open(&solo, NULL, on_am, &rx, &tl), RD_OK, "open alone on a node");
        CHECK_INT(t->activate(tl), RD_OK, "activate alone");
        CHECK_INT(t->reachable(tl, 0), 0, "alone: not even itself through shm (self does that)");
        CHECK_INT(t->progress(tl), 0, "alone: progress returns 0");
        t->close(tl);
        CHECK_INT(shm_entries("rdmpi-solo"), 0, "alone: no segment");
    }
}

int main(void)
{
    char err[256];
    rd_params_load(err, sizeof(err));
    /* can this environment do CMA at all? (containers, Yama) */
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
    sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    snprintf(kvdir, sizeof(kvdir), "/tmp/rdmpi-shm-test-%ld", (long)getpid());
    if (sh == MAP_FAILED || mkdir(kvdir, 0700) != 0) {
        perror("set-up");
        return 1;
    }
    tl_sh = &sh->tl;
    snprintf(ns1, sizeof(ns1), "shmtest/%ld", (long)getpid());
    snprintf(ns2, sizeof(ns2), "shmtest2/%ld", (long)getpid());
    snprintf(prefix1, sizeof(prefix1), "rdmpi-shmtest_%ld-", (long)getpid());

    pid_t kids[NRANKS];
    for (int lr = 0; lr < NRANKS; lr++) {
        fflush(stdout);
        kids[lr] = fork();
        if (kids[lr] == 0) {
            rank_main(lr);
            _exit(0);
        }
    }
    for (int lr = 0; lr < NRANKS; lr++) {
        int st = -1;
        waitpid(kids[lr], &st, 0);
        tap_ok(WIFEXITED(st) && WEXITSTATUS(st) == 0, "rank %d exited 0", world_of_local[lr]);
    }
    int n = tl_report();
    tap_is_int(n, cma_permitted ? 91 : 91 - 17, "every check ran");
    char p2[96];
    snprintf(p2, sizeof(p2), "rdmpi-shmtest2_%ld-", (long)getpid());
    tap_is_int(shm_entries(prefix1) + shm_entries(p2), 0, "nothing left in /dev/shm");
    /* clean the stub's key files */
    DIR *d = opendir(kvdir);
    struct dirent *e;
    while (d && (e = readdir(d))) {
        char path[600];
        if (e->d_name[0] == '.')
            continue;
        snprintf(path, sizeof(path), "%s/%s", kvdir, e->d_name);
        unlink(path);
    }
    if (d)
        closedir(d);
    rmdir(kvdir);
    return tap_done();
}

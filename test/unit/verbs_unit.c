/* verbs_unit.c - the verbs transport through its contract (transport.h),
 * with two forked "ranks" on different "nodes" and a stubbed job service
 * (a directory of files stands for PMIx, the test's own barrier for the
 * fences). Run by test/mpi/verbs_suite.sh on a verbs device (choose it
 * with RDMPI_VERBS_DEVICE, the wire-up with RDMPI_VERBS_CM):
 *   - active messages both ways: 0 bytes, inline sizes, the largest; 2000
 *     of them in a row (many times the credits) in order, contents checked
 *   - get and put of 3 MiB + 5 bytes at an odd offset, contents checked;
 *     a get with 40 messages posted right behind it: every byte is in
 *     place when it completes (iWARP completes those sends first)
 *   - atomics where the device has them (caps.atomics): 100 fetch-and-adds
 *     on the peer's word with every old value checked, both ranks at once,
 *     compare-and-swap that hits and one that misses;
 *     where it has none, atomic() says RD_ERR_UNSUPPORTED
 * The ranks record their checks in shared memory; the parent prints TAP
 * (test/unit/tl_harness.h, shared with shm_transport.c). */
#include "config.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "runtime/base/job.h"
#include "runtime/base/log.h"
#include "runtime/base/params.h"
#include "test/tap.h"
#include "transports/transport.h"

#define TL_NRANKS 2
#include "test/unit/tl_harness.h"

_Noreturn void rd_job_abort(int code, const char *msg)
{
    fprintf(stderr, "rank %d: abort %d: %s\n", stub_rank, code, msg);
    _exit(3);
}

typedef struct shared {
    struct tl_shared tl;   /* checks and barrier (tl_harness.h) */
    uint64_t addr[2];      /* each rank's RMA buffer */
    unsigned char rkey[2][64];
    size_t rkey_len[2];
    uint64_t word_addr[2]; /* each rank's atomic words */
    unsigned char wkey[2][64];
    size_t wkey_len[2];
} shared;

static shared *sh;
static rd_tl *tl;

/* while the other rank is awaited at the barrier: progress (the peer may
 * need our credits or completions) */
static void progress_tl(void)
{
    if (tl)
        tl->ops->progress(tl);
}

/* ---- receiving */
#define NSTREAM 2000
static long next_seq, got_stream, bad_stream;
static size_t sweep_len[8];
static int sweep_ok[8];

static unsigned char pat(long seq, size_t i)
{
    return (unsigned char)(seq * 7 + (long)i * 13 + 1);
}

static void on_am(void *arg, int src, unsigned id, const void *hdr, size_t hlen, const void *data, size_t len)
{
    (void)arg;
    long seq = -1;
    if (hlen == sizeof(seq))
        memcpy(&seq, hdr, sizeof(seq));
    int ok = src == 1 - stub_rank && id == (unsigned)(seq & 0xff) + 1 && seq == next_seq;
    for (size_t i = 0; ok && i < len; i++)
        ok = ((const unsigned char *)data)[i] == pat(seq, i);
    next_seq = seq + 1;
    got_stream++;
    bad_stream += !ok;
    if (seq >= 0 && seq < 8) {
        sweep_len[seq] = len;
        sweep_ok[seq] = ok;
    }
}

static rd_status send_seq(rd_ep *ep, long seq, const unsigned char *buf, size_t len)
{
    rd_status st;
    while ((st = tl->ops->am_send(ep, (unsigned)(seq & 0xff) + 1, &seq, sizeof(seq), buf, len)) == RD_ERR_AGAIN)
        tl->ops->progress(tl);
    return st;
}

static void wait_got(long n)
{
    for (long spins = 0; got_stream < n && spins < 200000000L; spins++)
        tl->ops->progress(tl);
}

static void done_cb(rd_rma_op *op, rd_status st)
{
    *(int *)op->arg = st == RD_OK ? 1 : -1;
}

/* the bytes of the get into `got` still wrong when it completed */
static unsigned char *check_got;
static size_t check_n;
static int check_peer;
static long bad_at_done;

static void done_check_cb(rd_rma_op *op, rd_status st)
{
    bad_at_done = 0;
    for (size_t i = 0; i < check_n; i++)
        bad_at_done += check_got[i] != (unsigned char)(i * 11 + (size_t)check_peer);
    *(int *)op->arg = st == RD_OK ? 1 : -1;
}

static void atom_cb(rd_atomic_op *op, rd_status st)
{
    *(int *)op->arg = st == RD_OK ? 1 : -1;
}

static int wait_flag(volatile int *f)
{
    for (long spins = 0; !*f && spins < 200000000L; spins++)
        tl->ops->progress(tl);
    return *f;
}

static void rank_main(int rank)
{
    stub_rank = rank;
    rd_log_set_rank(rank);
    int peers[1] = {rank};
    struct rd_job job = {.rank = rank, .size = 2, .local_rank = 0, .local_size = 1, .local_peers = peers};
    rd_status st = rd_transport_verbs.open(&job, NULL, on_am, NULL, &tl);
    CHECK_INT(st, RD_OK, "open the verbs transport");
    if (st != RD_OK) {
        barrier();
        barrier();
        _exit(0);
    }
    barrier(); /* the fence: both have published */
    st = tl->ops->activate(tl);
    CHECK_INT(st, RD_OK, "activate");
    barrier(); /* the second fence */
    int peer = 1 - rank;
    CHECK_INT(tl->ops->reachable(tl, peer), 1, "the other rank is reachable");
    CHECK_INT(tl->ops->reachable(tl, rank), 0, "this rank itself is not (self's job)");
    rd_ep *ep = NULL;
    CHECK_INT(tl->ops->connect(tl, peer, &ep), RD_OK, "connect to rank %d", peer);

    /* active messages: a size sweep, then a stream */
    size_t amax = tl->caps.am_max - sizeof(long);
    unsigned char *buf = malloc(amax);
    const size_t sizes[] = {0, 1, 100, 180, 200, 1000, 4096, amax};
    long seq = 0;
    for (int k = 0; k < 8; k++) {
        for (size_t i = 0; i < sizes[k]; i++)
            buf[i] = pat(seq, i);
        CHECK_INT(send_seq(ep, seq, buf, sizes[k]), RD_OK, "am_send of %zu bytes", sizes[k]);
        seq++;
        wait_got(seq);
        CHECK(sweep_len[k] == sizes[k] && sweep_ok[k], "the peer's %zu-byte message arrived intact", sizes[k]);
    }
    for (long i = 0; i < NSTREAM; i++) {
        size_t len = (size_t)(seq * 37 % 3000);
        for (size_t j = 0; j < len; j++)
            buf[j] = pat(seq, j);
        if (send_seq(ep, seq, buf, len) != RD_OK)
            break;
        seq++;
    }
    wait_got(seq);
    CHECK_INT(got_stream, seq, "every message of a stream of %d arrived (many times the credits)", NSTREAM);
    CHECK_INT(bad_stream, 0, "in order, contents intact");
    barrier();

    /* get and put */
    size_t n = (3 << 20) + 5, off = 3;
    unsigned char *mem = malloc(n + off + 16);
    for (size_t i = 0; i < n; i++)
        mem[off + i] = (unsigned char)(i * 11 + (size_t)rank);
    rd_mr *mr;
    unsigned char key[64];
    size_t klen = 0;
    CHECK_INT(tl->ops->mem_reg(tl, mem + off, n, &mr, key, &klen), RD_OK, "mem_reg of %zu bytes", n);
    CHECK(klen > 0 && klen <= tl->caps.rkey_max, "a packed key of %zu bytes", klen);
    sh->addr[rank] = (uint64_t)(uintptr_t)(mem + off);
    memcpy(sh->rkey[rank], key, klen);
    sh->rkey_len[rank] = klen;
    barrier();
    unsigned char *got = malloc(n);
    memset(got, 0, n);
    rd_mr *gmr;
    tl->ops->mem_reg(tl, got, n, &gmr, NULL, NULL);
    volatile int flag = 0;
    rd_rma_op op = {.local = got, .len = n, .lmr = gmr, .remote_addr = sh->addr[peer], .rkey = sh->rkey[peer],
                    .rkey_len = sh->rkey_len[peer], .done = done_cb, .arg = (void *)&flag};
    CHECK_INT(tl->ops->get(ep, &op), RD_OK, "get of %zu bytes", n);
    CHECK_INT(wait_flag(&flag), 1, "the get completed");
    size_t bad = 0;
    for (size_t i = 0; i < n; i++)
        bad += got[i] != (unsigned char)(i * 11 + (size_t)peer);
    CHECK_INT(bad, 0, "every byte read from the peer");
    barrier();
    /* rank 0 reads again and posts messages behind the read at once */
    long got_before = got_stream;
    if (rank == 0) {
        memset(got, 0, n);
        check_got = got;
        check_n = n;
        check_peer = peer;
        bad_at_done = -1;
        flag = 0;
        op.done = done_check_cb;
        CHECK_INT(tl->ops->get(ep, &op), RD_OK, "get of %zu bytes, then 40 messages", n);
        int sent = 0;
        for (int k = 0; k < 40; k++, seq++) {
            for (size_t j = 0; j < 1000; j++)
                buf[j] = pat(seq, j);
            sent += send_seq(ep, seq, buf, 1000) == RD_OK;
        }
        CHECK_INT(sent, 40, "40 messages of 1000 bytes posted behind the get");
        CHECK_INT(wait_flag(&flag), 1, "the get completed");
        CHECK_INT(bad_at_done, 0, "when it completed, every byte of the get was in place");
        op.done = done_cb;
    } else {
        wait_got(got_before + 40);
        CHECK_INT(got_stream - got_before, 40, "the 40 messages posted behind the peer's get arrived");
        CHECK_INT(bad_stream, 0, "in order, contents intact");
    }
    barrier();
    /* put: rank 0 writes into rank 1's buffer, then rank 1 checks */
    if (rank == 0) {
        for (size_t i = 0; i < n; i++)
            got[i] = (unsigned char)(i * 5 + 77);
        flag = 0;
        op.remote_addr = sh->addr[1];
        op.rkey = sh->rkey[1];
        op.rkey_len = sh->rkey_len[1];
        CHECK_INT(tl->ops->put(ep, &op), RD_OK, "put of %zu bytes", n);
        CHECK_INT(wait_flag(&flag), 1, "the put completed");
    }
    barrier();
    if (rank == 1) {
        bad = 0;
        for (size_t i = 0; i < n; i++)
            bad += mem[off + i] != (unsigned char)(i * 5 + 77);
        CHECK_INT(bad, 0, "every byte the peer wrote");
    }
    tl->ops->mem_dereg(tl, gmr);
    tl->ops->mem_dereg(tl, mr);

    /* atomics */
    uint64_t *words = aligned_alloc(64, 64), *res = aligned_alloc(64, 64);
    memset(words, 0, 64);
    rd_mr *wmr, *rmr;
    tl->ops->mem_reg(tl, words, 64, &wmr, key, &klen);
    tl->ops->mem_reg(tl, res, 64, &rmr, NULL, NULL);
    sh->word_addr[rank] = (uint64_t)(uintptr_t)words;
    memcpy(sh->wkey[rank], key, klen);
    sh->wkey_len[rank] = klen;
    barrier();
    rd_atomic_op a = {.kind = RD_ATOMIC_FADD, .operand = 3, .result = res, .lmr = rmr,
                      .remote_addr = sh->word_addr[peer], .rkey = sh->wkey[peer], .rkey_len = sh->wkey_len[peer],
                      .done = atom_cb, .arg = (void *)&flag};
    if (!tl->caps.atomics || !tl->ops->atomic) {
        rd_status ast = tl->ops->atomic ? tl->ops->atomic(ep, &a) : RD_ERR_UNSUPPORTED;
        CHECK_INT(ast, RD_ERR_UNSUPPORTED, "no atomics on this device: atomic() says so");
        barrier();
        barrier();
    } else {
        int seqok = 1;
        for (int i = 0; i < 100; i++) {
            flag = 0;
            *res = ~0ULL;
            if (tl->ops->atomic(ep, &a) != RD_OK || wait_flag(&flag) != 1 || *res != (uint64_t)(3 * i))
                seqok = 0;
        }
        CHECK(seqok, "100 fetch-and-adds of 3 on the peer's word: each saw the previous value");
        /* both ranks at once, each on the other's second word */
        a.remote_addr = sh->word_addr[peer] + 8;
        a.operand = 1;
        int ok1 = 1;
        for (int i = 0; i < 200; i++) {
            flag = 0;
            if (tl->ops->atomic(ep, &a) != RD_OK || wait_flag(&flag) != 1 || *res >= 200)
                ok1 = 0;
        }
        CHECK(ok1, "200 fetch-and-adds of 1 while the peer does the same: each old value below 200");
        barrier();
        if (rank == 0)
            CHECK_INT(words[1], 200, "rank 0's second word: rank 1's 200 adds (rank 0 adds to rank 1's)");
        else
            CHECK_INT(words[1], 200, "rank 1's second word: rank 0's 200 adds");
        /* compare-and-swap on the peer's first word (300 after the adds) */
        a.remote_addr = sh->word_addr[peer];
        a.rkey = sh->wkey[peer];
        a.kind = RD_ATOMIC_CSWAP;
        a.compare = 300;
        a.operand = 7 + (uint64_t)rank;
        flag = 0;
        CHECK_INT(tl->ops->atomic(ep, &a) == RD_OK && wait_flag(&flag) == 1 ? (long long)*res : -1, 300,
                  "compare-and-swap 300 -> %d: hit, old value 300", 7 + rank);
        flag = 0;
        a.operand = 99;
        CHECK_INT(tl->ops->atomic(ep, &a) == RD_OK && wait_flag(&flag) == 1 ? (long long)*res : -1, 7 + rank,
                  "compare-and-swap 300 -> 99: miss, old value %d", 7 + rank);
        barrier();
        CHECK_INT(words[0], 7 + peer, "this rank's first word after the peer's swaps");
    }
    tl->ops->mem_dereg(tl, wmr);
    tl->ops->mem_dereg(tl, rmr);
    while (tl->ops->busy(tl))
        tl->ops->progress(tl);
    barrier();
    tl->ops->close(tl);
    tl = NULL;
    free(buf);
    free(mem);
    free(got);
    free(words);
    free(res);
    _exit(0);
}

int main(void)
{
    char err[512];
    if (rd_params_load(err, sizeof(err)) < 0) {
        printf("Bail out! %s\n", err);
        return 1;
    }
    rd_log_configure(rd_param.log);
    snprintf(kvdir, sizeof(kvdir), "%s/verbs-unit.XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    if (!mkdtemp(kvdir)) {
        printf("Bail out! mkdtemp\n");
        return 1;
    }
    sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    tl_sh = &sh->tl;
    tl_barrier_idle = progress_tl;
    fflush(stdout);
    pid_t pid[2];
    for (int r = 0; r < 2; r++)
        if ((pid[r] = fork()) == 0)
            rank_main(r);
    for (int r = 0; r < 2; r++) {
        int status = 0;
        waitpid(pid[r], &status, 0);
        tap_ok(WIFEXITED(status) && WEXITSTATUS(status) == 0, "rank %d exited 0 (status 0x%x)", r, status);
    }
    tl_report();
    char cmd[600];
    snprintf(cmd, sizeof(cmd), "rm -rf '%s'", kvdir);
    if (system(cmd) != 0)
        tap_diag("could not remove %s", kvdir);
    return tap_done();
}

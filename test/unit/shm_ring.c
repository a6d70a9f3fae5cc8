/* shm_ring.c - the shared-memory SPSC ring alone: limits, full ring,
 * wrap-around, and >= 1e6 random records between two threads and between
 * two processes with verified payloads, ids and order. */
#include "config.h"

#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "test/tap.h"
#include "transports/shm/shm_ring.h"
#include "transports/transport.h"

#define NREC 1000000
#define PATN (1 << 16)
#define STRESS_RING (16 * 1024)

static unsigned char *pat; /* random bytes that payloads are cut from */

/* ring memory: ctl line then data, page aligned */
typedef struct ring_mem {
    rd_shm_ring_ctl *ctl;
    unsigned char *data;
    size_t size;
    void *base;
    size_t total;
} ring_mem;

static void ring_mem_init(ring_mem *m, size_t size)
{
    m->size = size;
    m->total = size + 4096;
    m->base = mmap(NULL, m->total, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (m->base == MAP_FAILED) {
        perror("mmap");
        exit(1);
    }
    m->ctl = m->base;
    m->data = (unsigned char *)m->base + 4096;
}

static void ring_mem_free(ring_mem *m)
{
    munmap(m->base, m->total);
}

static uint64_t rng_next(uint64_t *s)
{
    uint64_t x = *s;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    *s = x;
    return x * 0x2545F4914F6CDD1DULL;
}

typedef struct rec_spec {
    unsigned id;
    size_t hlen, len;
    const unsigned char *hdr, *data;
} rec_spec;

static void rec_make(uint64_t *s, size_t am_max, rec_spec *r)
{
    size_t total = (size_t)(rng_next(s) % (am_max + 1));
    size_t h = (size_t)(rng_next(s) % 9) * 8;
    r->hlen = h < total ? h : total;
    r->len = total - r->hlen;
    r->id = (unsigned)(rng_next(s) & 0xffff);
    r->hdr = pat + rng_next(s) % PATN;
    r->data = pat + rng_next(s) % PATN;
}

/* consumer state: checks every record against the same random sequence */
typedef struct checker {
    uint64_t seed;
    size_t am_max;
    long got, bad, first_bad;
} checker;

static void check_rec(void *arg, unsigned id, const void *hdr, size_t hlen, const void *data,
                      size_t len)
{
    checker *c = arg;
    rec_spec r;
    rec_make(&c->seed, c->am_max, &r);
    if (id != r.id || hlen != r.hlen || len != r.len || memcmp(hdr, r.hdr, hlen) != 0 ||
        memcmp(data, r.data, len) != 0) {
        if (!c->bad)
            c->first_bad = c->got;
        c->bad++;
    }
    c->got++;
}

static void produce(ring_mem *m, uint64_t seed, long n)
{
    rd_shm_ring_tx tx;
    rec_spec r;
    size_t am_max = rd_shm_ring_am_max(m->size);
    rd_shm_ring_tx_init(&tx, m->data, m->size, m->ctl);
    for (long k = 0; k < n; k++) {
        rec_make(&seed, am_max, &r);
        while (rd_shm_ring_send(&tx, r.id, r.hdr, r.hlen, r.data, r.len) == RD_ERR_AGAIN)
            sched_yield();
    }
}

static void consume(ring_mem *m, uint64_t seed, long n, checker *c)
{
    rd_shm_ring_rx rx;
    c->seed = seed;
    c->am_max = rd_shm_ring_am_max(m->size);
    c->got = c->bad = 0;
    c->first_bad = -1;
    rd_shm_ring_rx_init(&rx, m->data, m->size, m->ctl);
    while (c->got < n)
        if (rd_shm_ring_poll(&rx, 32, check_rec, c) == 0)
            sched_yield();
}

typedef struct thr_arg {
    ring_mem *m;
    uint64_t seed;
    long n;
} thr_arg;

static void *producer_thread(void *p)
{
    thr_arg *a = p;
    produce(a->m, a->seed, a->n);
    return NULL;
}

/* ---- deterministic single-thread tests */

typedef struct collect {
    int n;
    unsigned ids[128];
    size_t lens[128], hlens[128];
    int ok_payload;
} collect;

static void collect_rec(void *arg, unsigned id, const void *hdr, size_t hlen, const void *data,
                        size_t len)
{
    collect *c = arg;
    if (c->n < 128) {
        c->ids[c->n] = id;
        c->lens[c->n] = len;
        c->hlens[c->n] = hlen;
    }
    /* payload byte i of record id is (id + i) & 0xff, header bytes are ~id */
    for (size_t i = 0; i < hlen; i++)
        if (((const unsigned char *)hdr)[i] != (unsigned char)~id)
            c->ok_payload = 0;
    for (size_t i = 0; i < len; i++)
        if (((const unsigned char *)data)[i] != (unsigned char)(id + i))
            c->ok_payload = 0;
    c->n++;
}

static rd_status send_pattern(rd_shm_ring_tx *tx, unsigned id, size_t hlen, size_t len)
{
    unsigned char hdr[RD_AM_HDR_MAX], data[8192];
    memset(hdr, (unsigned char)~id, sizeof(hdr));
    for (size_t i = 0; i < len; i++)
        data[i] = (unsigned char)(id + i);
    return rd_shm_ring_send(tx, id, hdr, hlen, data, len);
}

static void test_limits(void)
{
    tap_is_int(rd_shm_ring_size_round(0), 4096, "ring size 0 rounds up to 4096");
    tap_is_int(rd_shm_ring_size_round(5000), 8192, "ring size 5000 rounds up to 8192");
    tap_is_int(rd_shm_ring_size_round(262144), 262144, "256 KiB ring stays 256 KiB");
    tap_is_int(rd_shm_ring_am_max(4096), 1016, "am_max of a 4 KiB ring is 1016");
    tap_is_int(rd_shm_ring_am_max(262144), 65528, "am_max of a 256 KiB ring is 65528");
    tap_is_int(rd_shm_ring_am_max(1 << 20), 65536, "am_max is capped at 64 KiB");
    tap_is_int(rd_shm_rec_bytes(0), 64, "an empty record takes one line");
    tap_is_int(rd_shm_rec_bytes(56), 64, "56 bytes of payload fit one line");
    tap_is_int(rd_shm_rec_bytes(57), 128, "57 bytes of payload take two lines");
}

static void test_full(void)
{
    ring_mem m;
    rd_shm_ring_tx tx;
    rd_shm_ring_rx rx;
    collect c = {.ok_payload = 1};
    int sent = 0;
    ring_mem_init(&m, 4096);
    rd_shm_ring_tx_init(&tx, m.data, m.size, m.ctl);
    rd_shm_ring_rx_init(&rx, m.data, m.size, m.ctl);
    tap_is_int(rd_shm_ring_ready(&rx), 0, "a new ring has nothing ready");
    tap_is_int(rd_shm_ring_poll(&rx, 10, collect_rec, &c), 0, "polling an empty ring delivers 0");
    while (send_pattern(&tx, (unsigned)sent, 8, 0) == RD_OK)
        sent++;
    tap_is_int(sent, 64, "64 one-line records fill a 4 KiB ring");
    tap_is_int(send_pattern(&tx, 999, 0, 0), RD_ERR_AGAIN, "a full ring says RD_ERR_AGAIN");
    tap_is_int(rd_shm_ring_ready(&rx), 1, "the consumer sees a record");
    tap_is_int(rd_shm_ring_poll(&rx, 10, collect_rec, &c), 10, "poll delivers at most max (10)");
    tap_is_int(atomic_load(&m.ctl->head), 640, "the head is published after delivery");
    int more = 0;
    while (send_pattern(&tx, (unsigned)(sent + more), 8, 0) == RD_OK)
        more++;
    tap_is_int(more, 10, "after 10 records were consumed, exactly 10 more fit");
    int n = 0, got;
    while ((got = rd_shm_ring_poll(&rx, 16, collect_rec, &c)) > 0)
        n += got;
    tap_is_int(n, 64, "the remaining 64 records are delivered");
    int in_order = c.n == 74;
    for (int i = 0; i < c.n && i < 74; i++)
        in_order = in_order && c.ids[i] == (unsigned)i && c.hlens[i] == 8 && c.lens[i] == 0;
    tap_ok(in_order, "74 records arrive in order with their ids and lengths");
    tap_ok(c.ok_payload, "their headers are intact");
    ring_mem_free(&m);
}

static void test_wrap(void)
{
    ring_mem m;
    rd_shm_ring_tx tx;
    rd_shm_ring_rx rx;
    collect c = {.ok_payload = 1};
    ring_mem_init(&m, 4096);
    rd_shm_ring_tx_init(&tx, m.data, m.size, m.ctl);
    rd_shm_ring_rx_init(&rx, m.data, m.size, m.ctl);
    /* 1 line, then 3 records of 1024 bytes: the tail is at 3136 */
    tap_is_int(send_pattern(&tx, 1, 0, 40), RD_OK, "a 1-line record");
    for (unsigned i = 0; i < 3; i++)
        tap_is_int(send_pattern(&tx, 2 + i, 16, 1000), RD_OK, "a 1024-byte record (%u)", i);
    tap_is_int(send_pattern(&tx, 9, 16, 1000), RD_ERR_AGAIN,
               "a 4th 1024-byte record does not fit before the consumer moves");
    tap_is_int(rd_shm_ring_poll(&rx, 100, collect_rec, &c), 4, "4 records delivered");
    tap_is_int(tx.tail, 3136, "the tail is at 3136");
    /* 1024 bytes do not fit in the 960 left before the end: skip + wrap */
    tap_is_int(send_pattern(&tx, 5, 16, 1000), RD_OK, "a record that wraps around");
    uint64_t skipw = atomic_load((_Atomic uint64_t *)(void *)(m.data + 3136));
    tap_is_int(skipw & RD_SHM_REC_SKIP, RD_SHM_REC_SKIP, "a skip record marks the end of the lap");
    tap_is_int(skipw & 0xffffffffu, 960, "the skip record covers the 960 bytes left");
    tap_is_int(tx.tail, 5120, "the tail is at 5120 (4096 + 1024)");
    tap_is_int(send_pattern(&tx, 6, 0, 0), RD_OK, "an empty record after the wrapped one");
    tap_is_int(rd_shm_ring_poll(&rx, 100, collect_rec, &c), 2,
               "the wrapped record and the next are delivered, the skip is not counted");
    tap_is_int(rx.head, 5184, "the head follows (5120 + 64)");
    tap_is_int(c.n, 6, "6 records in all");
    tap_ok(c.ids[0] == 1 && c.ids[1] == 2 && c.ids[2] == 3 && c.ids[3] == 4 && c.ids[4] == 5 &&
               c.ids[5] == 6,
           "in the order sent");
    tap_ok(c.lens[4] == 1000 && c.hlens[4] == 16 && c.lens[5] == 0 && c.hlens[5] == 0,
           "with their lengths");
    tap_ok(c.ok_payload, "and their payloads intact");
    /* many laps of mixed sizes */
    int ok = 1;
    for (unsigned i = 0; i < 2000; i++) {
        size_t len = (i * 37) % 950; /* hlen + len <= am_max (1016) */
        if (send_pattern(&tx, 100 + i, i % 65, len) != RD_OK)
            ok = 0;
        int before = c.n;
        if (rd_shm_ring_poll(&rx, 4, collect_rec, &c) != 1 || c.n != before + 1)
            ok = 0;
    }
    tap_ok(ok, "2000 records of mixed sizes over many laps: each sent and delivered");
    tap_ok(c.ok_payload, "their headers and payloads are intact");
    ring_mem_free(&m);
}

static void test_threads(void)
{
    ring_mem m;
    pthread_t t;
    checker c;
    thr_arg a;
    ring_mem_init(&m, STRESS_RING);
    a.m = &m;
    a.seed = 0x1234567;
    a.n = NREC;
    pthread_create(&t, NULL, producer_thread, &a);
    consume(&m, a.seed, NREC, &c);
    pthread_join(t, NULL);
    tap_is_int(c.got, NREC, "two threads: %d records of 0..%zu bytes delivered", NREC,
               rd_shm_ring_am_max(STRESS_RING));
    tap_is_int(c.bad, 0, "two threads: every id, header and payload verified, in order");
    if (c.bad)
        printf("# first bad record: %ld\n", c.first_bad);
    ring_mem_free(&m);
}

static void test_processes(void)
{
    ring_mem m;
    int status = -1;
    checker *c = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    uint64_t seed = 0xfeedbeef;
    ring_mem_init(&m, STRESS_RING);
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        consume(&m, seed, NREC, c);
        _exit(0);
    }
    produce(&m, seed, NREC);
    waitpid(pid, &status, 0);
    tap_ok(WIFEXITED(status) && WEXITSTATUS(status) == 0, "the consumer process exited 0");
    tap_is_int(c->got, NREC, "two processes: %d records delivered", NREC);
    tap_is_int(c->bad, 0, "two processes: every id, header and payload verified, in order");
    if (c->bad)
        printf("# first bad record: %ld\n", c->first_bad);
    munmap(c, 4096);
    ring_mem_free(&m);
}

int main(void)
{
    uint64_t s = 42;
    pat = malloc(PATN + 65536 + RD_AM_HDR_MAX);
    for (size_t i = 0; i < PATN + 65536 + RD_AM_HDR_MAX; i++)
        pat[i] = (unsigned char)rng_next(&s);
    test_limits();
    test_full();
    test_wrap();
    test_threads();
    test_processes();
    free(pat);
    return tap_done();
}

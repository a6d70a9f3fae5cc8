/* shm_xmap.c - the direct mapping of user buffers between a node's ranks
 * (transports/shm/shm_xmap.c) and the copies through it (rd_node_copy in
 * runtime/base/nodemem.c), between two processes: a forked owner exposes
 * buffers and reports what it sees over a pipe; the parent, its peer,
 * maps them, reads and writes through the mappings (the edges outside the
 * whole pages by CMA) and checks the owner's memory by CMA as well. */
#include "config.h"

#include <malloc.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

#include "runtime/base/nodemem.h"
#include "runtime/base/sanitizer.h"
#include "test/tap.h"
#include "transports/shm/shm_cma.h"
#include "transports/shm/shm_xmap.h"

#define MIB (1UL << 20)

#ifdef RD_ASAN
/* AddressSanitizer: a freed buffer's memory goes back at once, as glibc's
 * malloc gives back a large one, so that the next buffer can come at its
 * address (section 3) */
const char *__asan_default_options(void);
const char *__asan_default_options(void)
{
    return "quarantine_size_mb=0";
}
#endif

/* what the owner reports */
struct msg {
    struct rd_node_xkey k;
    uint64_t addr, len;
    int64_t v[6];
};

static int to_peer[2], to_owner[2];

static void put(const struct msg *m)
{
    if (write(to_peer[1], m, sizeof *m) != (ssize_t)sizeof *m)
        _exit(3);
}

/* (the parent) the owner's next report; its end is the test's end */
static struct msg get(void)
{
    struct msg m;
    memset(&m, 0, sizeof m);
    if (read(to_peer[0], &m, sizeof m) != (ssize_t)sizeof m) {
        tap_ok(0, "the owner reports (it ended early)");
        printf("1..%d\n", tap_n);
        exit(1);
    }
    return m;
}

static void ack(void)
{
    char c = 1;
    if (write(to_owner[1], &c, 1) != 1)
        _exit(3);
}

static void wait_ack(void)
{
    char c;
    if (read(to_owner[0], &c, 1) != 1)
        _exit(3);
}

static unsigned char pat(int gen, size_t i)
{
    return (unsigned char)(gen * 37 + i * 7 + i / 4093);
}

static void fill(unsigned char *p, size_t n, int gen)
{
    for (size_t i = 0; i < n; i++)
        p[i] = pat(gen, i);
}

/* the first index where p differs from generation gen, or -1 */
static long differs(const unsigned char *p, size_t n, int gen)
{
    for (size_t i = 0; i < n; i++)
        if (p[i] != pat(gen, i))
            return (long)i;
    return -1;
}

/* expose twice: the first time nothing, the second the region */
static void expose2(const void *p, size_t n, struct msg *m, int first_slot)
{
    struct rd_node_xkey k;
    rd_shm_xmap_expose(p, n, &k);
    m->v[first_slot] = (int64_t)k.id;
    rd_shm_xmap_expose(p, n, &m->k);
    m->addr = (uint64_t)(uintptr_t)p;
    m->len = n;
}

/* q (MIB bytes) unmapped, and a fresh mapping at the same address filled
 * with generation gen and exposed twice into *m (m->v[1]: same address) */
static unsigned char *remap(unsigned char *q, int gen, struct msg *m)
{
    munmap(q, MIB);
    unsigned char *p = mmap(q, MIB, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
    fill(p, MIB, gen);
    memset(m, 0, sizeof *m);
    expose2(p, MIB, m, 0);
    m->v[1] = p == q;
    return p;
}

static int count_fds(void)
{
    char path[64], target[256];
    int n = 0;
    for (int fd = 0; fd < 1024; fd++) {
        snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
        ssize_t l = readlink(path, target, sizeof target - 1);
        if (l > 0) {
            target[l] = 0;
            n += strstr(target, "memfd:rdmpi-xmap") != NULL;
        }
    }
    return n;
}

static void owner(void)
{
    const char *why = "";
    struct msg m = {0};
    m.v[0] = rd_shm_xmap_init(16384, 64 * MIB, &why);
    put(&m);
    if (!m.v[0])
        _exit(0);
    /* glibc's malloc maps every buffer from 128 KiB on its own (it would
     * raise that bound when the first is freed) */
    mallopt(M_MMAP_THRESHOLD, 128 * 1024);

    /* 1. a malloc'd buffer at an odd offset */
    unsigned char *b = malloc(MIB + 3000), *p = b + 13;
    fill(p, MIB, 1);
    memset(&m, 0, sizeof m);
    expose2(p, MIB, &m, 0);
    m.v[1] = differs(p, MIB, 1); /* the move kept the contents */
    put(&m);
    wait_ack(); /* the peer read it, then wrote generation 2 into [5, MIB - 7) */
    memset(&m, 0, sizeof m);
    m.v[0] = differs(p, 5, 1);
    m.v[1] = -1;
    for (size_t i = 5; i < MIB && m.v[1] == -1; i++)
        if (p[i] != pat(i < MIB - 7 ? 2 : 1, i))
            m.v[1] = (long)i;
    /* the owner writes after the peer mapped: the peer must see it */
    fill(p, MIB, 4);
    put(&m);
    wait_ack();
    free(b);

    /* 2. unmapped and mapped again at the same address: a new region */
    unsigned char *q = mmap(NULL, MIB, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    fill(q, MIB, 5);
    memset(&m, 0, sizeof m);
    expose2(q, MIB, &m, 0);
    put(&m);
    wait_ack();
    uint64_t old = m.k.id;
    struct rd_node_xkey again;
    for (int i = 0; i < 4; i++) /* used a few times: worth its move */
        rd_shm_xmap_expose(q, MIB, &again);
    unsigned char *q2 = remap(q, 6, &m);
    m.v[2] = m.k.id != old;
    m.v[3] = again.id == old;
    put(&m);
    wait_ack();
    /* unmapped right after its move (a buffer allocated for each call):
     * not moved again */
    unsigned char *q3 = remap(q2, 7, &m);
    put(&m);
    wait_ack();
    /* (q3 and, below, h stay: pages at their addresses are refused, or
     * taken for theirs, by the churn rule, whatever buffer is mapped there
     * later) */

    /* 3. a malloc'd buffer freed, and the next one at its address: its
     * free is seen (glibc's munmap by libucm's hooks, AddressSanitizer's
     * allocator, which unmaps by a raw system call, by its free hook) */
    unsigned char *h = malloc(MIB);
    uintptr_t h_at = (uintptr_t)h;
    fill(h, MIB, 8);
    memset(&m, 0, sizeof m);
    expose2(h, MIB, &m, 0);
    put(&m);
    wait_ack();
    uint64_t h_id = m.k.id;
    free(h);
    h = malloc(MIB);
    fill(h, MIB, 9);
    memset(&m, 0, sizeof m);
    expose2(h, MIB, &m, 0);
    m.v[1] = (uintptr_t)h == h_at;
    m.v[2] = m.k.id == h_id;
    put(&m);
    wait_ack();

    /* 4. what is never exposed */
    memset(&m, 0, sizeof m);
    {
        unsigned char stackbuf[65536];
        memset(stackbuf, 1, sizeof stackbuf);
        struct rd_node_xkey k;
        rd_shm_xmap_expose(stackbuf, sizeof stackbuf, &k);
        rd_shm_xmap_expose(stackbuf, sizeof stackbuf, &k);
        m.v[0] = (int64_t)k.id;
    }
    void *ro = mmap(NULL, 65536, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    struct rd_node_xkey k;
    rd_shm_xmap_expose(ro, 65536, &k);
    rd_shm_xmap_expose(ro, 65536, &k);
    m.v[1] = (int64_t)k.id;
    int fd = memfd_create("not-ours", 0);
    if (ftruncate(fd, 65536) != 0)
        _exit(3);
    void *sh = mmap(NULL, 65536, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    rd_shm_xmap_expose(sh, 65536, &k);
    rd_shm_xmap_expose(sh, 65536, &k);
    m.v[2] = (int64_t)k.id;
    void *small = malloc(8192);
    rd_shm_xmap_expose(small, 8192, &k);
    rd_shm_xmap_expose(small, 8192, &k);
    m.v[3] = (int64_t)k.id;
    put(&m);
    wait_ack();

    /* 5. four regions of 1 MiB for a peer that keeps 3 MiB mapped */
    unsigned char *four[4];
    for (int i = 0; i < 4; i++) {
        four[i] = mmap(NULL, MIB, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        fill(four[i], MIB, 10 + i);
        memset(&m, 0, sizeof m);
        expose2(four[i], MIB, &m, 0);
        put(&m);
    }
    wait_ack();

    /* 6. the files go with fini; the memory stays */
    memset(&m, 0, sizeof m);
    m.v[0] = count_fds();
    rd_shm_xmap_fini();
    m.v[1] = count_fds();
    m.v[2] = differs(four[3], MIB, 13);
    put(&m);
    munmap(q3, MIB);
    free(h);
    _exit(0);
}

/* the peer reads [addr, addr + len) of the owner by CMA: where it differs from gen */
static long cma_differs(pid_t pid, uint64_t addr, size_t len, int gen)
{
    unsigned char *tmp = malloc(len);
    long r = rd_shm_cma_read(pid, 1, tmp, addr, len) == RD_OK ? differs(tmp, len, gen) : -3;
    free(tmp);
    return r;
}

int main(void)
{
    if (pipe(to_peer) || pipe(to_owner))
        return 1;
    pid_t pid = fork();
    if (pid == 0) {
        close(to_peer[0]);
        close(to_owner[1]);
        owner();
    }
    close(to_peer[1]);
    close(to_owner[0]);
    const char *why = "";
    int on = rd_shm_xmap_init(16384, 3 * MIB, &why);
    struct msg m = get();
#if !defined(RD_HAVE_UCM)
    tap_ok(!on && !m.v[0], "off without libucm's events: %s", why);
    kill(pid, SIGKILL);
    waitpid(pid, NULL, 0);
    printf("1..%d\n", tap_n);
    return tap_failed != 0;
#endif
    tap_ok(on && m.v[0] == 1, "the module starts with libucm's events (%s)", on ? "on" : why);
    if (!on || !m.v[0]) {
        kill(pid, SIGKILL);
        waitpid(pid, NULL, 0);
        printf("1..%d\n", tap_n);
        return 1;
    }
    rd_node_arena.read = rd_shm_cma_read;
    rd_node_arena.write = rd_shm_cma_write;
    rd_node_arena.expose = rd_shm_xmap_expose;
    rd_node_arena.attach = rd_shm_xmap_attach;

    /* 1 */
    m = get();
    uint64_t pa = (m.addr + 4095) & ~4095UL, pe = (m.addr + m.len) & ~4095UL;
    tap_is_int(m.v[0], 0, "a buffer asked for the first time is not exposed");
    tap_ok(m.k.id != 0, "the second time it is");
    tap_ok(m.k.addr == pa && m.k.len == pe - pa, "its whole pages: %#lx+%lu for %#lx+%lu",
           (unsigned long)m.k.addr, (unsigned long)m.k.len, (unsigned long)m.addr, (unsigned long)m.len);
    tap_is_int(m.v[1], -1, "moving the pages kept the buffer's contents");
    unsigned char *map = rd_shm_xmap_attach(pid, 1, &m.k);
    tap_ok(map != NULL, "the peer maps the region");
    long d = -1;
    for (uint64_t i = 0; map && i < m.k.len && d < 0; i++)
        if (map[i] != pat(1, (size_t)(m.k.addr - m.addr + i)))
            d = (long)i;
    tap_is_int(d, -1, "the mapping shows the owner's data");
    tap_ok(rd_shm_xmap_attach(pid, 1, &m.k) == map, "a second attach finds the same mapping");
    unsigned char *buf = malloc(m.len);
    memset(buf, 0, m.len);
    tap_is_int(rd_node_copy(0, pid, 1, &m.k, buf, m.addr, m.len), RD_OK, "read the whole buffer (edges by CMA)");
    tap_is_int(differs(buf, m.len, 1), -1, "every byte read is the owner's");
    fill(buf, m.len, 2);
    tap_is_int(rd_node_copy(1, pid, 1, &m.k, buf + 5, m.addr + 5, m.len - 12), RD_OK,
               "write [5, len - 7) into the owner's buffer");
    tap_ok(rd_shm_xmap_attach(pid, 1, &(struct rd_node_xkey){m.k.id + 100, m.k.addr + m.k.len, 4096, m.k.ino + 1,
                                                              m.k.fd}) == NULL,
           "a key whose file is not the exposed one maps nothing");
    ack();
    struct msg m1 = m;
    m = get();
    tap_is_int(m.v[0], -1, "the owner's bytes before the write are untouched");
    tap_is_int(m.v[1], -1, "the owner sees exactly the bytes written, and its own after them");
    /* the owner wrote generation 4 after the peer had mapped */
    d = -1;
    for (uint64_t i = 0; map && i < m1.k.len && d < 0; i++)
        if (map[i] != pat(4, (size_t)(m1.k.addr - m1.addr + i)))
            d = (long)i;
    tap_ok(map && d == -1, "the peer's mapping shows what the owner wrote later");
    ack();

    /* 2 */
    m = get();
    tap_ok(m.k.id != 0, "a fresh mapping, exposed the second time");
    unsigned char *one = rd_shm_xmap_attach(pid, 1, &m.k);
    tap_ok(one && one[0] == pat(5, m.k.addr - m.addr), "mapped with its data");
    ack();
    m = get();
    tap_is_int(m.v[0], 0, "after munmap and a new mapping at the same address, not exposed at first");
    tap_ok(m.v[1] == 1, "(the new mapping is at the same address)");
    tap_ok(m.v[3] == 1, "(the region served four more calls before that)");
    tap_ok(m.k.id != 0 && m.v[2] == 1, "then exposed under a new number");
    memset(buf, 0, m.len);
    tap_is_int(rd_node_copy(0, pid, 1, &m.k, buf, m.addr, m.len), RD_OK, "read the new buffer");
    tap_is_int(differs(buf, m.len, 6), -1, "the peer sees the new contents, not the old region's");
    ack();
    m = get();
    tap_ok(m.v[1] == 1, "(a third mapping at the same address)");
    tap_ok(m.v[0] == 0 && m.k.id == 0, "a buffer unmapped right after its move is not moved again");
    memset(buf, 0, m.len);
    tap_is_int(rd_node_copy(0, pid, 1, &m.k, buf, m.addr, m.len), RD_OK, "read it (by CMA)");
    tap_is_int(differs(buf, m.len, 7), -1, "its contents");
    ack();

    /* 3 */
    m = get();
    tap_ok(m.k.id != 0, "a malloc'd buffer, exposed the second time");
    memset(buf, 0, m.len);
    tap_is_int(rd_node_copy(0, pid, 1, &m.k, buf, m.addr, m.len), RD_OK, "read it through its mapping");
    tap_is_int(differs(buf, m.len, 8), -1, "its contents");
    ack();
    m = get();
    tap_ok(m.v[1] == 1, "(after free, the next malloc'd buffer is at the same address)");
    tap_ok(m.v[0] == 0 && m.k.id == 0 && m.v[2] == 0, "a buffer freed right after its move is not moved again");
    memset(buf, 0, m.len);
    tap_is_int(rd_node_copy(0, pid, 1, &m.k, buf, m.addr, m.len), RD_OK, "read the new buffer");
    tap_is_int(differs(buf, m.len, 9), -1, "the peer sees the new buffer's contents, not the freed one's");
    ack();

    /* 4 */
    m = get();
    tap_is_int(m.v[0], 0, "a buffer on the stack is never exposed");
    tap_is_int(m.v[1], 0, "nor read-only memory");
    tap_is_int(m.v[2], 0, "nor a shared mapping of another file");
    tap_is_int(m.v[3], 0, "nor a buffer below the minimum");
    ack();

    /* 5 */
    struct msg f[4];
    for (int i = 0; i < 4; i++)
        f[i] = get();
    int ok = 1;
    for (int i = 0; i < 4; i++) {
        memset(buf, 0, MIB);
        ok &= f[i].k.id != 0 && rd_node_copy(0, pid, 1, &f[i].k, buf, f[i].addr, MIB) == RD_OK &&
              differs(buf, MIB, 10 + i) == -1;
    }
    tap_ok(ok, "four regions read right through a cache of three");
    FILE *maps = fopen("/proc/self/maps", "r");
    char line[512];
    int n = 0;
    while (maps && fgets(line, sizeof line, maps))
        n += strstr(line, "memfd:rdmpi-xmap") != NULL;
    if (maps)
        fclose(maps);
    tap_ok(n <= 3 && n >= 1, "at most three of them stay mapped here (%d)", n);
    tap_is_int(cma_differs(pid, f[3].addr, MIB, 13), -1, "the owner's last region by CMA too");
    ack();

    /* 6 */
    m = get();
    tap_ok(m.v[0] >= 1, "the owner holds its regions' files (%ld)", (long)m.v[0]);
    tap_is_int(m.v[1], 0, "fini closes them");
    tap_is_int(m.v[2], -1, "the moved memory keeps its contents after fini");
    int status = 0;
    waitpid(pid, &status, 0);
    tap_ok(WIFEXITED(status) && WEXITSTATUS(status) == 0, "the owner exits cleanly");
    rd_shm_xmap_fini();
    free(buf);
    printf("1..%d\n", tap_n);
    return tap_failed != 0;
}

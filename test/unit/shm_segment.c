/* shm_segment.c - the node segment's life cycle (created 0600, unlinked once
 * every local rank attached, or by the creator at close when one never did,
 * nothing left in /dev/shm) and Cross Memory Attach between forked
 * processes (0 B, 1 B, 1 MiB, unaligned; probe; a dead peer). */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "runtime/base/params.h"
#include "test/tap.h"
#include "transports/shm/shm_cma.h"
#include "transports/shm/shm_segment.h"

static char nspace[64], prefix[96];

/* how many /dev/shm entries this test created are still there */
static int leftovers(void)
{
    int n = 0;
    DIR *d = opendir("/dev/shm");
    struct dirent *e;
    if (!d)
        return -1;
    while ((e = readdir(d)))
        if (strncmp(e->d_name, prefix + 1, strlen(prefix) - 1) == 0)
            n++;
    closedir(d);
    return n;
}

static int shm_stat(const char *name, struct stat *sb)
{
    char path[512];
    snprintf(path, sizeof(path), "/dev/shm%s", name);
    return stat(path, sb);
}

static void test_life_cycle(void)
{
    rd_shm_seg seg;
    struct stat sb;
    int go[2];
    tap_is_int(rd_shm_seg_create(&seg, nspace, 3, 4096, 0), RD_OK, "local rank 0 creates the segment");
    tap_ok(strncmp(seg.name, prefix, strlen(prefix)) == 0 && strlen(seg.name) == strlen(prefix) + 16,
           "its name is %s + 16 hex digits (%s)", prefix, seg.name);
    tap_is_int(shm_stat(seg.name, &sb), 0, "it exists in /dev/shm");
    tap_is_int(sb.st_mode & 0777, 0600, "with mode 0600");
    tap_is_int(sb.st_size, seg.size, "and the size of the layout");
    tap_is_int(seg.ring_off % 4096, 0, "the rings start on a page");
    tap_is_int(atomic_load(&rd_shm_seg_header(&seg)->attached), 1, "the creator counts itself");
    tap_is_int(rd_shm_seg_info(&seg, 0)->pid, getpid(), "the creator wrote its pid");

    rd_shm_seg bad;
    tap_is_int(rd_shm_seg_attach(&bad, seg.name, 1, 4), RD_ERR_INTERNAL,
               "attaching with the wrong local size is refused");
    tap_is_int(rd_shm_seg_attach(&bad, "/rdmpi-no-such-segment", 1, 3), RD_ERR_IO,
               "attaching to a missing name fails with RD_ERR_IO");

    if (pipe(go) != 0)
        return;
    pid_t kids[2];
    for (int i = 0; i < 2; i++) {
        fflush(stdout);
        kids[i] = fork();
        if (kids[i] == 0) {
            rd_shm_seg s;
            char c;
            close(go[1]);
            int rc = rd_shm_seg_attach(&s, seg.name, i + 1, 3) == RD_OK ? 0 : 1;
            /* stay alive until the parent has looked at the pids */
            if (read(go[0], &c, 1) < 0)
                rc = 2;
            rd_shm_seg_close(&s);
            _exit(rc);
        }
    }
    close(go[0]);
    rd_shm_seg_hdr *h = rd_shm_seg_header(&seg);
    for (int i = 0; i < 20000 && (atomic_load(&h->attached) < 3 || !atomic_load(&h->unlinked)); i++)
        usleep(1000); /* the last to attach unlinks, then sets the flag */
    tap_is_int(atomic_load(&h->attached), 3, "both other local ranks attached");
    tap_is_int(atomic_load(&h->unlinked), 1, "the last one unlinked the name");
    tap_ok(shm_stat(seg.name, &sb) != 0 && errno == ENOENT, "the name is gone from /dev/shm");
    tap_is_int(rd_shm_seg_info(&seg, 1)->pid, kids[0], "local rank 1 wrote its pid");
    tap_is_int(rd_shm_seg_info(&seg, 2)->pid, kids[1], "local rank 2 wrote its pid");
    close(go[1]);
    for (int i = 0; i < 2; i++) {
        int st = -1;
        waitpid(kids[i], &st, 0);
        tap_ok(WIFEXITED(st) && WEXITSTATUS(st) == 0, "attached rank %d exited 0", i + 1);
    }
    rd_shm_seg_close(&seg);
    tap_ok(seg.base == NULL, "close unmaps");

    /* a rank that never attaches (it died first): the creator unlinks */
    tap_is_int(rd_shm_seg_create(&seg, nspace, 2, 4096, 0), RD_OK, "a second segment for 2 ranks");
    tap_is_int(shm_stat(seg.name, &sb), 0, "it exists");
    rd_shm_seg_close(&seg);
    tap_ok(shm_stat(seg.name, &sb) != 0 && errno == ENOENT,
           "the creator unlinks it at close when a rank never attached");

    /* alone on the node: unlinked at once */
    tap_is_int(rd_shm_seg_create(&seg, nspace, 1, 4096, 0), RD_OK, "a segment for 1 rank");
    tap_ok(shm_stat(seg.name, &sb) != 0 && errno == ENOENT, "is unlinked at once");
    rd_shm_seg_close(&seg);

    tap_is_int(rd_shm_seg_create(&seg, nspace, 2, 1000, 0), RD_ERR_ARG,
               "a ring size that is not a power of two is refused");
    tap_is_int(leftovers(), 0, "no %s* entry left in /dev/shm", prefix);
}

#define BIG (1 << 20)

static unsigned char pattern(size_t i, int which)
{
    return (unsigned char)(which ? (i * 13 + 5) : (i * 7 + 1));
}

static void test_cma(void)
{
    int ready[2], go[2];
    unsigned char *buf = malloc(BIG + 64), *local = malloc(BIG + 64);
    uint64_t addr = (uint64_t)(uintptr_t)buf;
    char c = 0;
    if (!buf || !local || pipe(ready) != 0 || pipe(go) != 0)
        return;
    memset(buf, 0, BIG + 64);
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        int bad = 0;
        for (size_t i = 0; i < BIG + 64; i++)
            buf[i] = pattern(i, 0);
        if (write(ready[1], &c, 1) != 1 || read(go[0], &c, 1) != 1)
            _exit(3);
        /* the parent wrote pattern 1 into [5, 5 + BIG - 7) and byte 0 */
        for (size_t i = 0; i < BIG + 64; i++) {
            unsigned char want = (i == 0) ? 0xab : (i >= 5 && i < 5 + BIG - 7) ? pattern(i - 5, 1)
                                                                            : pattern(i, 0);
            bad += buf[i] != want;
        }
        free(buf);
        free(local);
        _exit(bad ? 1 : 0);
    }
    if (read(ready[0], &c, 1) != 1)
        return;
    if (rd_shm_cma_probe(pid, (uint64_t)(uintptr_t)&rd_shm_cma_probe_word) != RD_OK) {
        printf("ok %d # SKIP Cross Memory Attach is not permitted here\n", ++tap_n);
        kill(pid, SIGKILL);
        waitpid(pid, NULL, 0);
        free(buf);
        free(local);
        return;
    }
    tap_ok(1, "the probe reads the child's magic word (CMA permitted here)");
    memset(local, 0xee, BIG + 64);
    tap_is_int(rd_shm_cma_read(pid, 1, local, addr, 0), RD_OK, "read of 0 bytes");
    tap_is_int(local[0], 0xee, "touches nothing");
    tap_is_int(rd_shm_cma_read(pid, 1, local, addr + 9, 1), RD_OK, "read of 1 byte");
    tap_is_int(local[0], pattern(9, 0), "gets the child's byte");
    tap_is_int(local[1], 0xee, "and only it");
    tap_is_int(rd_shm_cma_read(pid, 1, local, addr, BIG), RD_OK, "read of 1 MiB");
    int same = 1;
    for (size_t i = 0; i < BIG; i++)
        same &= local[i] == pattern(i, 0);
    tap_ok(same, "1 MiB read intact");
    memset(local, 0xee, BIG + 64);
    tap_is_int(rd_shm_cma_read(pid, 1, local + 3, addr + 1, BIG - 5), RD_OK,
               "read into and from non-aligned addresses");
    same = local[2] == 0xee && local[3 + BIG - 5] == 0xee;
    for (size_t i = 0; i < BIG - 5; i++)
        same &= local[3 + i] == pattern(i + 1, 0);
    tap_ok(same, "non-aligned read intact, nothing outside touched");

    for (size_t i = 0; i < BIG; i++)
        local[i] = pattern(i, 1);
    unsigned char ab = 0xab;
    tap_is_int(rd_shm_cma_write(pid, 1, local, addr, 0), RD_OK, "write of 0 bytes");
    tap_is_int(rd_shm_cma_write(pid, 1, &ab, addr, 1), RD_OK, "write of 1 byte");
    tap_is_int(rd_shm_cma_write(pid, 1, local, addr + 5, BIG - 7), RD_OK,
               "non-aligned write of 1 MiB - 7 bytes");
    if (write(go[1], &c, 1) != 1)
        return;
    int st = -1;
    waitpid(pid, &st, 0);
    tap_ok(WIFEXITED(st) && WEXITSTATUS(st) == 0, "the child saw exactly the bytes written");

    /* the peer is gone */
    tap_is_int(rd_shm_cma_probe(pid, (uint64_t)(uintptr_t)&rd_shm_cma_probe_word), RD_ERR_PEER,
               "probing a dead process: RD_ERR_PEER");
    fprintf(stderr, "# the next error message is expected:\n");
    tap_is_int(rd_shm_cma_read(pid, 1, local, addr, 8), RD_ERR_PEER,
               "reading from a dead process: RD_ERR_PEER");
    tap_is_int(rd_shm_cma_probe(getpid(), 8), RD_ERR_UNSUPPORTED,
               "a probe at a bad address says not usable");
    free(buf);
    free(local);
    close(ready[0]);
    close(ready[1]);
    close(go[0]);
    close(go[1]);
}

/* The default: an anonymous memory file opened through /proc. */
static void test_memfd(void)
{
    rd_shm_seg seg;
    char want[64];
    tap_is_int(rd_shm_seg_create(&seg, nspace, 3, 4096, 1), RD_OK, "memfd: local rank 0 creates the segment");
    snprintf(want, sizeof(want), "/proc/%ld/fd/%d", (long)getpid(), seg.fd);
    tap_ok(seg.fd >= 0 && strcmp(seg.name, want) == 0, "memfd: it publishes %s (%s)", want, seg.name);
    tap_is_int(leftovers(), 0, "memfd: nothing appears in /dev/shm");
    tap_is_int(atomic_load(&rd_shm_seg_header(&seg)->unlinked), 1, "memfd: there is no name to unlink");
    rd_shm_seg_info(&seg, 0)->probe_addr = 0x5eed;
    pid_t kids[2];
    for (int i = 0; i < 2; i++) {
        fflush(stdout);
        kids[i] = fork();
        if (kids[i] == 0) {
            rd_shm_seg s;
            int rc = rd_shm_seg_attach(&s, seg.name, i + 1, 3) == RD_OK ? 0 : 1;
            /* what the creator wrote is there; what this rank writes reaches it */
            if (rc == 0 && atomic_load(&rd_shm_seg_info(&s, 0)->probe_addr) != 0x5eed)
                rc = 3;
            if (rc == 0)
                atomic_store(&rd_shm_seg_info(&s, i + 1)->probe_addr, 0x100 + (uint64_t)i);
            if (rc == 0)
                rd_shm_seg_close(&s);
            _exit(rc);
        }
    }
    for (int i = 0; i < 2; i++) {
        int st = -1;
        waitpid(kids[i], &st, 0);
        tap_ok(WIFEXITED(st) && WEXITSTATUS(st) == 0, "memfd: local rank %d attached and saw the creator's data", i + 1);
        tap_is_int(atomic_load(&rd_shm_seg_info(&seg, i + 1)->probe_addr), 0x100 + i,
                   "memfd: local rank %d's writes reached the creator", i + 1);
    }
    tap_is_int(atomic_load(&rd_shm_seg_header(&seg)->attached), 3, "memfd: both other local ranks counted in");
    char path[64];
    snprintf(path, sizeof(path), "/proc/self/fd/%d", seg.fd);
    rd_shm_seg_close(&seg);
    tap_ok(access(path, F_OK) != 0, "memfd: close closes the memory file");
    /* a creator killed before anyone attached leaves nothing behind */
    fflush(stdout);
    pid_t c = fork();
    if (c == 0) {
        rd_shm_seg s;
        if (rd_shm_seg_create(&s, nspace, 2, 4096, 1) != RD_OK)
            _exit(1);
        raise(SIGKILL);
        _exit(2);
    }
    int st = 0;
    waitpid(c, &st, 0);
    tap_ok(WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL, "memfd: a creator killed before anyone attached...");
    tap_is_int(leftovers(), 0, "memfd: ...leaves no %s* entry in /dev/shm", prefix);
}

int main(void)
{
    char err[256];
    rd_params_load(err, sizeof(err));
    snprintf(nspace, sizeof(nspace), "test/seg:%ld", (long)getpid());
    snprintf(prefix, sizeof(prefix), "/rdmpi-test_seg_%ld-", (long)getpid());
    test_life_cycle();
    test_memfd();
    test_cma();
    return tap_done();
}

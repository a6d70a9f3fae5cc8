/* memory.c - large node-local collectives leave the program's memory as
 * the program knows it (issue 18: shm_xmap.c used to move a reused
 * buffer's pages into a shared memory file, after which fork shared them
 * with the child, madvise(MADV_DONTNEED) no longer gave zeros, mlock was
 * dropped and freed buffers stayed held by the peers).
 *
 * Every rank, with buffers from malloc (64 KiB: the brk heap; 1 MiB: a
 * mapping of its own), mlock'ed where said, runs each large collective
 * twice on the same buffers (a second use is what moved pages), then:
 *   fork     the child writes over the buffers and over 2000 heap objects
 *            of the parent's, mallocs and frees objects of its own, and
 *            exits; the parent's buffers and objects are as they were
 *   madvise  MADV_DONTNEED on pages of the 1 MiB buffer reads back zeros;
 *            MADV_FREE succeeds
 *   mlock    the pages locked before the collectives are still locked
 *            (VmLck in /proc/self/status)
 *   maps     no mapping of the process names a memory file of rdmpi,
 *            before the buffers are freed and after (every rank's freed
 *            buffers: none is held by a peer) */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "test/mpi/mtest.h"

#define NOBJ 2000
#define SMALL (64 << 10)
#define BIG (1 << 20)

/* A field of /proc/self/status, in kB; -1 if missing. */
static long status_kb(const char *field)
{
    char line[256];
    long v = -1;
    size_t n = strlen(field);
    FILE *f = fopen("/proc/self/status", "r");

    if (f == NULL)
        return -1;
    while (fgets(line, sizeof(line), f))
        if (strncmp(line, field, n) == 0 && line[n] == ':')
            v = atol(line + n + 1);
    fclose(f);
    return v;
}

static int maps_name(const char *what)
{
    char line[4096];
    int found = 0;
    FILE *f = fopen("/proc/self/maps", "r");

    if (f == NULL)
        return -1;
    while (fgets(line, sizeof(line), f))
        found |= strstr(line, what) != NULL;
    fclose(f);
    return found;
}

static void collectives(void *s, void *r, size_t len, int size)
{
    int n = (int)(len / sizeof(int));

    for (int use = 0; use < 2; use++) {
        MPI_Allreduce(s, r, n, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
        MPI_Bcast(s, n, MPI_INT, 0, MPI_COMM_WORLD);
        MPI_Allgather(s, n / size, MPI_INT, r, n / size, MPI_INT, MPI_COMM_WORLD);
        MPI_Alltoall(s, n / size, MPI_INT, r, n / size, MPI_INT, MPI_COMM_WORLD);
        MPI_Reduce(s, r, n, MPI_INT, MPI_MAX, 0, MPI_COMM_WORLD);
    }
}

int main(int argc, char **argv)
{
    int size;
    long page = sysconf(_SC_PAGESIZE);

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &mt_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    /* the parent's heap objects, with contents of their own */
    unsigned *obj[NOBJ];
    for (int i = 0; i < NOBJ; i++) {
        obj[i] = malloc(48);
        for (int k = 0; k < 12; k++)
            obj[i][k] = (unsigned)(i * 31 + k);
    }
    int *ss = malloc(SMALL), *sr = malloc(SMALL), *bs = malloc(BIG), *br = malloc(BIG);
    for (size_t i = 0; i < SMALL / sizeof(int); i++)
        ss[i] = (int)i;
    for (size_t i = 0; i < BIG / sizeof(int); i++)
        bs[i] = (int)i;
    /* whole pages inside the 1 MiB buffer, locked before the collectives */
    char *lock_at = (char *)(((uintptr_t)bs + (uintptr_t)page - 1) & ~((uintptr_t)page - 1));
    size_t lock_len = 16 * (size_t)page;
    long lck0 = status_kb("VmLck");
    int locked = mlock(lock_at, lock_len) == 0;
    long lck1 = status_kb("VmLck");

    collectives(ss, sr, SMALL, size);
    collectives(bs, br, BIG, size);

    /* fork: the child's writes and its heap use stay its own */
    memset(sr, 0x5a, SMALL);
    memset(br, 0x5b, BIG);
    pid_t pid = fork();
    if (pid == 0) {
        memset(sr, 0xa5, SMALL);
        memset(br, 0xa6, BIG);
        for (int i = 0; i < NOBJ; i++) {
            memset(obj[i], 0xee, 48);
            free(obj[i]);
        }
        for (int i = 0; i < NOBJ; i++)
            free(malloc((size_t)(16 + i % 200)));
        _exit(0);
    }
    int wst = -1;
    waitpid(pid, &wst, 0);
    mt_ok(pid > 0 && WIFEXITED(wst) && WEXITSTATUS(wst) == 0, "the forked child ran and exited 0");
    int same = 1;
    for (size_t i = 0; i < SMALL; i++)
        same &= ((unsigned char *)sr)[i] == 0x5a;
    mt_ok(same, "fork: the child's writes to a 64 KiB collective buffer do not show in the parent");
    same = 1;
    for (size_t i = 0; i < BIG; i++)
        same &= ((unsigned char *)br)[i] == 0x5b;
    mt_ok(same, "fork: the child's writes to a 1 MiB collective buffer do not show in the parent");
    int objs = 0;
    for (int i = 0; i < NOBJ; i++) {
        int ok = 1;
        for (int k = 0; k < 12; k++)
            ok &= obj[i][k] == (unsigned)(i * 31 + k);
        objs += ok;
    }
    mt_is_int(objs, NOBJ, "fork: the parent's heap objects are untouched by the child's frees");
    for (int i = 0; i < NOBJ; i++)
        free(obj[i]);
    void *fresh[64];
    for (int i = 0; i < 64; i++)
        fresh[i] = malloc(4096);
    for (int i = 0; i < 64; i++)
        free(fresh[i]);
    mt_ok(1, "the parent's heap still works after the child's frees");

    /* madvise */
    char *adv = lock_at + lock_len;
    memset(adv, 0x77, 4 * (size_t)page);
    int rc = madvise(adv, 4 * (size_t)page, MADV_DONTNEED);
    int zero = 1;
    for (size_t i = 0; i < 4 * (size_t)page; i++)
        zero &= adv[i] == 0;
    mt_ok(rc == 0 && zero, "madvise(MADV_DONTNEED) on a collective buffer gives zeros");
#ifdef MADV_FREE
    mt_is_int(madvise(adv + 4 * page, 4 * (size_t)page, MADV_FREE), 0,
              "madvise(MADV_FREE) on a collective buffer succeeds");
#endif

    /* mlock */
    mt_ok(locked, "mlock of 16 pages of the 1 MiB buffer");
    mt_is_int(status_kb("VmLck") - lck0, lck1 - lck0,
              "the pages locked before the collectives are still locked after them");
    munlock(lock_at, lock_len);

    /* maps, and memory given back */
    mt_is_int(maps_name("rdmpi-xmap"), 0, "no mapping of the process is an rdmpi memory file");
    free(ss);
    free(sr);
    free(bs);
    free(br);
    MPI_Barrier(MPI_COMM_WORLD);
    mt_is_int(maps_name("rdmpi-xmap"), 0,
              "once every rank freed its buffers, none is mapped here (no peer holds them)");
    MPI_Finalize();
    return mt_done();
}

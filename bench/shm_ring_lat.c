/* shm_ring_lat.c - one-way latency of the shared-memory ring: two processes
 * pinned to two cores play ping-pong with 8-byte records over a pair of
 * rings; prints the median (and min, p90) of batches, divided by 2.
 *
 *   bench/shm_ring_lat [iterations-per-batch [batches [cpu0 cpu1]]] */
#include "config.h"

#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "transports/shm/shm_ring.h"

#define RING 262144

static void pin(int cpu)
{
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    if (sched_setaffinity(0, sizeof(set), &set) != 0)
        perror("sched_setaffinity");
}

static double now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static void on_rec(void *arg, unsigned id, const void *hdr, size_t hlen, const void *data,
                   size_t len)
{
    *(uint64_t *)arg = *(const uint64_t *)data;
}

int main(int argc, char **argv)
{
    int iters = argc > 1 ? atoi(argv[1]) : 1000;
    int batches = argc > 2 ? atoi(argv[2]) : 2000;
    int cpu0 = argc > 3 ? atoi(argv[3]) : 0, cpu1 = argc > 4 ? atoi(argv[4]) : 1;
    size_t one = 4096 + RING;
    unsigned char *mem = mmap(NULL, 2 * one, PROT_READ | PROT_WRITE,
                              MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (mem == MAP_FAILED)
        return 1;
    /* ring a: parent -> child, ring b: child -> parent */
    rd_shm_ring_ctl *ctl_a = (void *)mem, *ctl_b = (void *)(mem + one);
    void *data_a = mem + 4096, *data_b = mem + one + 4096;
    int warm = iters * 10;
    pid_t pid = fork();
    if (pid == 0) {
        rd_shm_ring_rx rx;
        rd_shm_ring_tx tx;
        uint64_t v = 0;
        pin(cpu1);
        rd_shm_ring_rx_init(&rx, data_a, RING, ctl_a);
        rd_shm_ring_tx_init(&tx, data_b, RING, ctl_b);
        for (long i = 0; i < warm + (long)iters * batches; i++) {
            while (rd_shm_ring_poll(&rx, 1, on_rec, &v) == 0)
                ;
            while (rd_shm_ring_send(&tx, 1, NULL, 0, &v, sizeof(v)) != RD_OK)
                ;
        }
        _exit(0);
    }
    rd_shm_ring_rx rx;
    rd_shm_ring_tx tx;
    uint64_t v = 0, got = 0;
    double *t = malloc(sizeof(double) * (size_t)batches);
    pin(cpu0);
    rd_shm_ring_tx_init(&tx, data_a, RING, ctl_a);
    rd_shm_ring_rx_init(&rx, data_b, RING, ctl_b);
    for (int b = -1; b < batches; b++) {
        int n = b < 0 ? warm : iters;
        double t0 = now_ns();
        for (int i = 0; i < n; i++) {
            v++;
            while (rd_shm_ring_send(&tx, 1, NULL, 0, &v, sizeof(v)) != RD_OK)
                ;
            while (rd_shm_ring_poll(&rx, 1, on_rec, &got) == 0)
                ;
            if (got != v) {
                fprintf(stderr, "bad value %llu != %llu\n", (unsigned long long)got,
                        (unsigned long long)v);
                kill(pid, SIGKILL);
                waitpid(pid, NULL, 0);
                return 1;
            }
        }
        if (b >= 0)
            t[b] = (now_ns() - t0) / n / 2;
    }
    waitpid(pid, NULL, 0);
    qsort(t, (size_t)batches, sizeof(double), cmp);
    printf("shm ring one-way latency, 8-byte records, cpus %d,%d: median %.1f ns, min %.1f ns, "
           "p90 %.1f ns (%d batches of %d round trips)\n",
           cpu0, cpu1, t[batches / 2], t[0], t[batches * 9 / 10], batches, iters);
    free(t);
    return 0;
}

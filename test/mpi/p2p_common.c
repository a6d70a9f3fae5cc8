/* p2p_common.c - helpers shared by the point-to-point test programs
 * (test/mpi/p2p_*.c include this file; it is not a program of its own).
 *
 * Everything here uses point-to-point only (no collective exists yet).
 *   p2p_pat(src, tag, seq, i)   the byte at index i of message (src, tag, seq)
 *   p2p_fill / p2p_check        fill a buffer with / compare it to that pattern
 *   p2p_sync()                  a barrier built on Send/Recv with tag P2P_TAG_SYNC
 *   p2p_wait_flag(...)          poll a Test-like call for a bounded time
 */
#ifndef RD_P2P_COMMON_C
#define RD_P2P_COMMON_C

#include <stdint.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "test/mpi/mtest.h"

/* Tags at or above P2P_TAG_SYNC are the helpers' own (the standard guarantees
 * tags up to 32767). Tests never use a full wildcard receive while such a
 * message may be in flight to the rank. */
#define P2P_TAG_SYNC 32000
#define P2P_TAG_GO 32001

static int p2p_rank, p2p_size;

static inline uint64_t p2p_mix(uint64_t x)
{
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ULL;
    x ^= x >> 33;
    return x;
}

static inline uint64_t p2p_seed(int src, int tag, int seq)
{
    return p2p_mix(((uint64_t)(uint32_t)src << 40) ^ ((uint64_t)(uint32_t)tag << 20) ^ (uint64_t)(uint32_t)seq ^
                   0x5bd1e9955bd1e995ULL);
}

/* (a macro, so that the loops below, which are not instrumented, need no
 * call to an instrumented function per byte: the two cannot be inlined
 * into each other) */
#define P2P_PAT_S(seed, i) \
    ((unsigned char)(((uint64_t)(i) * 0x9E3779B97F4A7C15ULL + (seed)) >> 56 ^ (uint64_t)((i) >> 8)))

static inline unsigned char p2p_pat_s(uint64_t seed, size_t i) { return P2P_PAT_S(seed, i); }

static inline unsigned char p2p_pat(int src, int tag, int seq, size_t i)
{
    return p2p_pat_s(p2p_seed(src, tag, seq), i);
}

/* The pattern's loops stay plain under the sanitizers (no_sanitize): the
 * test's own arithmetic over buffers it sized itself, which instrumented
 * byte by byte were a third to a half of the sanitizer pass's CPU time in
 * p2p_stress, p2p_order and p2p_persist; rdmpi's code that writes these
 * buffers is instrumented as ever. */
#define P2P_PAT_LOOP __attribute__((noinline, unused, optimize("O3"), no_sanitize("address,undefined")))

P2P_PAT_LOOP static void p2p_fill(void *buf, size_t n, int src, int tag, int seq)
{
    unsigned char *b = buf;
    uint64_t s = p2p_seed(src, tag, seq);
    for (size_t i = 0; i < n; i++)
        b[i] = P2P_PAT_S(s, i);
}

/* index of the first byte that differs from the pattern, or -1 */
P2P_PAT_LOOP static long long p2p_check(const void *buf, size_t n, int src, int tag, int seq)
{
    const unsigned char *b = buf;
    uint64_t s = p2p_seed(src, tag, seq);
    for (size_t i = 0; i < n; i++)
        if (b[i] != P2P_PAT_S(s, i))
            return (long long)i;
    return -1;
}

/* index of the first byte of buf[0..n) that is not c, or -1 */
P2P_PAT_LOOP static long long p2p_check_byte(const void *buf, size_t n, unsigned char c)
{
    const unsigned char *b = buf;
    for (size_t i = 0; i < n; i++)
        if (b[i] != c)
            return (long long)i;
    return -1;
}

static inline void p2p_init(int *argc, char ***argv)
{
    if (MPI_Init(argc, argv) != MPI_SUCCESS)
        exit(2);
    MPI_Comm_rank(MPI_COMM_WORLD, &p2p_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &p2p_size);
    mt_rank = p2p_rank;
    setvbuf(stdout, NULL, _IOLBF, 0);
}

/* A barrier on point-to-point: every rank reports to rank 0, which releases
 * them. Only specific (source, tag) receives, so it never takes a test's
 * message, and a test's receive never takes its messages unless it uses
 * MPI_ANY_TAG on a rank that another rank may report to. */
static inline void p2p_sync(void)
{
    char b = 0;
    if (p2p_rank == 0) {
        for (int r = 1; r < p2p_size; r++)
            MPI_Recv(&b, 1, MPI_CHAR, r, P2P_TAG_SYNC, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        for (int r = 1; r < p2p_size; r++)
            MPI_Send(&b, 1, MPI_CHAR, r, P2P_TAG_SYNC, MPI_COMM_WORLD);
    } else {
        MPI_Send(&b, 1, MPI_CHAR, 0, P2P_TAG_SYNC, MPI_COMM_WORLD);
        MPI_Recv(&b, 1, MPI_CHAR, 0, P2P_TAG_SYNC, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
}

static inline double p2p_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static inline void p2p_sleep_ms(int ms)
{
    usleep((useconds_t)ms * 1000);
}

/* Poll *req with MPI_Test until it completes or `seconds` pass; returns the
 * flag. A hang in a test becomes a failed check instead of a timeout. */
static inline int p2p_test_for(MPI_Request *req, MPI_Status *st, double seconds)
{
    int flag = 0;
    double end = p2p_now() + seconds;
    while (!flag && p2p_now() < end)
        MPI_Test(req, &flag, st);
    return flag;
}

/* A small deterministic generator (splitmix64): every rank computes the same
 * sequence from the same seed. */
static inline uint64_t p2p_rand(uint64_t *state)
{
    *state += 0x9E3779B97F4A7C15ULL;
    return p2p_mix(*state);
}

static inline int p2p_rand_below(uint64_t *state, int n)
{
    return (int)(p2p_rand(state) % (uint64_t)n);
}

/* message sizes across every protocol switch: eager, the usual eager limits
 * (4-64 KiB), shared-memory fragments, and large rendezvous messages */
static const size_t p2p_sizes[] = {0,     1,     7,     64,     1000,       4095,          4096,     8191,
                                   8192,  8193,  16384, 32768,  65535,      65536,         65537,    131072,
                                   262143, 262145, 1048576, 1048577, 4194304};
#define P2P_NSIZES ((int)(sizeof(p2p_sizes) / sizeof(p2p_sizes[0])))

#endif

/* tl_harness.h - what the transport unit tests (tl_contract.c, built once
 * per transport) share: forked "ranks" with a stubbed job service (a
 * directory of files stands for PMIx: rd_job_put writes
 * <kvdir>/<rank>.<key>, rd_job_get reads it; the test's own barrier stands
 * for the fences), checks the ranks record in shared memory, which the
 * parent prints as TAP (one point per distinct check, which passes only if
 * every rank that made it passed it), and that barrier.
 *
 * Include it once, in the test's one source file, after defining
 * TL_NRANKS; the test's shared memory starts with a struct tl_shared, and
 * tl_sh points at it before the ranks are forked. */
#ifndef RD_TL_HARNESS_H
#define RD_TL_HARNESS_H

#include <sched.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/base/job.h"
#include "test/tap.h"

/* ---- stub job service */
static char kvdir[256];
static int stub_rank;

rd_status rd_job_put(const char *key, const void *data, size_t len)
{
    char path[512];
    snprintf(path, sizeof(path), "%s/%d.%s", kvdir, stub_rank, key);
    FILE *f = fopen(path, "wb");
    if (!f)
        return RD_ERR_IO;
    size_t n = fwrite(data, 1, len, f);
    fclose(f);
    return n == len ? RD_OK : RD_ERR_IO;
}

rd_status rd_job_get(int rank, const char *key, void **data, size_t *len)
{
    char path[512];
    snprintf(path, sizeof(path), "%s/%d.%s", kvdir, rank, key);
    FILE *f = fopen(path, "rb");
    if (!f)
        return RD_ERR_UNREACH;
    char *buf = malloc(65536);
    size_t n = buf ? fread(buf, 1, 65536, f) : 0;
    fclose(f);
    if (!buf)
        return RD_ERR_NOMEM;
    *data = buf;
    *len = n;
    return RD_OK;
}

/* ---- checks recorded by the ranks, printed by the parent */
#define MAXCHECK 1024

struct tl_shared {
    _Atomic int barrier_count, barrier_gen;
    _Atomic int ncheck;
    struct {
        int ok, rank;
        char desc[160];
        long long got, exp;
    } check[MAXCHECK];
};

static struct tl_shared *tl_sh;
/* put before every check's description (a test running its checks again
 * under other settings names the settings here) */
static const char *tl_check_prefix = "";

static void check(int ok, long long got, long long exp, const char *fmt, ...)
{
    int i = atomic_fetch_add(&tl_sh->ncheck, 1);
    if (i >= MAXCHECK)
        return;
    va_list ap;
    va_start(ap, fmt);
    int n = snprintf(tl_sh->check[i].desc, sizeof(tl_sh->check[i].desc), "%s", tl_check_prefix);
    vsnprintf(tl_sh->check[i].desc + n, sizeof(tl_sh->check[i].desc) - (size_t)n, fmt, ap);
    va_end(ap);
    tl_sh->check[i].rank = stub_rank;
    tl_sh->check[i].got = got;
    tl_sh->check[i].exp = exp;
    tl_sh->check[i].ok = ok;
}
#define CHECK_INT(got, exp, ...)                                                      \
    do {                                                                               \
        long long g_ = (long long)(got), e_ = (long long)(exp);                        \
        check(g_ == e_, g_, e_, __VA_ARGS__);                                          \
    } while (0)
#define CHECK(cond, ...) check((cond) != 0, 1, 1, __VA_ARGS__)

/* The parent, once the ranks have exited: one TAP point per distinct
 * check (its description), in the order first made, naming the ranks that
 * made it; it fails if any of them failed it, and a comment says which
 * rank got what. Returns how many checks were recorded (all ranks). */
static int tl_report(void)
{
    int n = atomic_load(&tl_sh->ncheck);
    if (n > MAXCHECK) {
        printf("# %d checks recorded, only %d kept (MAXCHECK)\n", n, MAXCHECK);
        tap_ok(0, "every check was kept");
        n = MAXCHECK;
    }
    static char seen[MAXCHECK];
    for (int i = 0; i < n; i++) {
        if (seen[i])
            continue;
        int ok = 1, len = 0;
        char ranks[128];
        for (int j = i; j < n; j++) {
            if (seen[j] || strcmp(tl_sh->check[j].desc, tl_sh->check[i].desc) != 0)
                continue;
            seen[j] = 1;
            ok &= tl_sh->check[j].ok != 0;
            if (len < (int)sizeof(ranks) - 12)
                len += snprintf(ranks + len, sizeof(ranks) - (size_t)len, "%s%d", len ? "," : "",
                                tl_sh->check[j].rank);
        }
        tap_ok(ok, "%s [rank %s]", tl_sh->check[i].desc, ranks);
        for (int j = i; j < n; j++)
            if (strcmp(tl_sh->check[j].desc, tl_sh->check[i].desc) == 0 && !tl_sh->check[j].ok)
                printf("# rank %d: got %lld, expected %lld\n", tl_sh->check[j].rank, tl_sh->check[j].got,
                       tl_sh->check[j].exp);
    }
    return n;
}

/* All TL_NRANKS ranks meet; a waiting rank calls tl_barrier_idle (if set)
 * and yields. */
static void (*tl_barrier_idle)(void);

static void barrier(void)
{
    int gen = atomic_load(&tl_sh->barrier_gen);
    if (atomic_fetch_add(&tl_sh->barrier_count, 1) == TL_NRANKS - 1) {
        atomic_store(&tl_sh->barrier_count, 0);
        atomic_fetch_add(&tl_sh->barrier_gen, 1);
    } else {
        while (atomic_load(&tl_sh->barrier_gen) == gen) {
            if (tl_barrier_idle)
                tl_barrier_idle();
            sched_yield();
        }
    }
}

#endif

/* untouched.c - what MPI_Init leaves of the process as it found it.
 *
 *   untouched check [LIB]
 *   untouched segv RANK
 *
 * check: before MPI_Init every rank installs a handler of its own for
 * SIGFPE (a program's handler must survive MPI_Init) and records the
 * handler of each fatal signal. After MPI_Init and a Barrier (the
 * transports are open and connected):
 *   - every fatal signal's handler is the one before (SIGFPE: the
 *     program's; the others: the default, so a crash is a crash and cores
 *     follow ulimit);
 *   - without LIB, no network library is mapped into the process (libucs,
 *     libucp, libuct, libucm, libfabric, libibverbs, librdmacm, libpsm*):
 *     a node-local job does not load them; with LIB (the test forces a
 *     network transport), that library is mapped (so the check above
 *     shows that the handlers they install were put back).
 * segv: rank RANK writes to a page mapped PROT_NONE after a Barrier (the
 * test checks that rrun reports a segfault, not an exit status). */
#include <mpi.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "test/mpi/mtest.h"

static void on_fpe(int sig)
{
    (void)sig;
}

/* Whether /proc/self/maps names a file whose name contains lib. */
static int mapped(const char *lib)
{
    char line[4096];
    int found = 0;
    FILE *f = fopen("/proc/self/maps", "r");

    if (f == NULL)
        return -1;
    while (!found && fgets(line, sizeof(line), f))
        found = strstr(line, lib) != NULL;
    fclose(f);
    return found;
}

int main(int argc, char **argv)
{
    static const int sigs[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGTRAP};
    static const char *const libs[] = {"libucs", "libucp", "libuct", "libucm", "libfabric",
                                       "libibverbs", "librdmacm", "libpsm"};
    const char *mode = argc > 1 ? argv[1] : "check";
    const char *network = argc > 2 ? argv[2] : NULL;
    struct sigaction before[6], sa;

    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = on_fpe;
    sigaction(SIGFPE, &sa, NULL);
    for (int i = 0; i < 6; i++)
        sigaction(sigs[i], NULL, &before[i]);
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &mt_rank);
    MPI_Barrier(MPI_COMM_WORLD);
    if (strcmp(mode, "segv") == 0) {
        if (mt_rank == atoi(network ? network : "0")) {
            /* a page that cannot be written: a real fault (through a null
             * pointer, UBSan reports undefined behaviour first) */
            volatile int *p = mmap(NULL, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

            if (p != MAP_FAILED)
                *p = 1;
        }
        MPI_Barrier(MPI_COMM_WORLD);
        MPI_Finalize();
        return 0;
    }
    for (int i = 0; i < 6; i++) {
        struct sigaction now;

        sigaction(sigs[i], NULL, &now);
        mt_ok(now.sa_handler == before[i].sa_handler,
              "the handler of signal %d (%s) is the one before MPI_Init", sigs[i],
              strsignal(sigs[i]));
    }
    mt_ok(before[2].sa_handler == on_fpe, "the program's SIGFPE handler was in place");
    if (network == NULL) {
        for (size_t i = 0; i < sizeof(libs) / sizeof(libs[0]); i++)
            mt_is_int(mapped(libs[i]), 0, "a node-local job does not load %s", libs[i]);
    } else {
        mt_is_int(mapped(network), 1, "the forced network transport loaded %s", network);
    }
    MPI_Finalize();
    return mt_done();
}

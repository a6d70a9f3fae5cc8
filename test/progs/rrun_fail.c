/* rrun_fail.c - a PMIx client that fails on purpose, for the rrun tests.
 *
 *   rrun_fail MODE [RANK [ARG]]
 *
 * Every rank connects (PMIx_Init), writes its pid to $RRUN_TEST_DIR/pid.<rank>
 * (if RRUN_TEST_DIR is set), and fences, so every rank is up before anything
 * fails. Then rank RANK (-1: every rank) does MODE, and the others block in
 * sleep(60) (rrun must end them) before finalizing:
 *   ok          finalize and exit 0 (every rank)
 *   kill        raise SIGKILL
 *   exit        exit with status ARG without finalizing
 *   nofinalize  exit 0 without PMIx_Finalize
 *   abort       PMIx_Abort(ARG, "rrun_fail abort", NULL, 0), then sleep
 *   abortquiet  PMIx_Abort(ARG, "", NULL, 0), then exit(ARG)
 *   sleep       sleep 60 (for --timeout and signal tests) */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <pmix.h>

static void write_pid_file(unsigned rank)
{
    const char *dir = getenv("RRUN_TEST_DIR");
    char tmp[4096], path[4096];
    FILE *f;

    if (dir == NULL)
        return;
    snprintf(tmp, sizeof(tmp), "%s/.pid.%u", dir, rank);
    snprintf(path, sizeof(path), "%s/pid.%u", dir, rank);
    f = fopen(tmp, "w");
    if (f == NULL)
        return;
    fprintf(f, "%ld\n", (long)getpid());
    fclose(f);
    rename(tmp, path); /* whole file or none: the test polls for it */
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "ok";
    int fail_rank = argc > 2 ? atoi(argv[2]) : -1;
    int arg = argc > 3 ? atoi(argv[3]) : 0;
    pmix_proc_t me, all;
    pmix_status_t rc;

    rc = PMIx_Init(&me, NULL, 0);
    if (rc != PMIX_SUCCESS) {
        fprintf(stderr, "rrun_fail: PMIx_Init: %s\n", PMIx_Error_string(rc));
        return 1;
    }
    write_pid_file(me.rank);
    PMIX_LOAD_PROCID(&all, me.nspace, PMIX_RANK_WILDCARD);
    rc = PMIx_Fence(&all, 1, NULL, 0);
    if (rc != PMIX_SUCCESS) {
        fprintf(stderr, "rrun_fail: PMIx_Fence: %s\n", PMIx_Error_string(rc));
        return 1;
    }

    if (strcmp(mode, "ok") == 0)
        goto finalize;
    if (fail_rank == -1 || (unsigned)fail_rank == me.rank) {
        if (strcmp(mode, "kill") == 0) {
            raise(SIGKILL);
        } else if (strcmp(mode, "exit") == 0) {
            exit(arg);
        } else if (strcmp(mode, "nofinalize") == 0) {
            exit(0);
        } else if (strcmp(mode, "abort") == 0) {
            PMIx_Abort(arg, "rrun_fail abort", NULL, 0);
        } else if (strcmp(mode, "abortquiet") == 0) {
            PMIx_Abort(arg, "", NULL, 0);
            exit(arg);
        }
    }
    sleep(60);
finalize:
    PMIx_Finalize(NULL, 0);
    return 0;
}

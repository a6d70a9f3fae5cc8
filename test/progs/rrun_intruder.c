/* rrun_intruder.c - another local user trying to join a job (test of
 * launcher/rrun/guard.c).
 *
 *   rrun_intruder victim DIR
 *       A rank of the job. Rank R writes the PMIx variables of its
 *       environment to DIR/env.R (readable by all: the intruder gets the
 *       best knowledge it could have, the namespace and the address of the
 *       server that serves R included). Every rank then waits for DIR/go before it connects, so
 *       the intruder can claim ranks that have not joined yet. Then each
 *       rank connects, publishes "value" = 1000 + rank, fences, reads every
 *       rank's value and prints "rank R ok" if all are right.
 *   rrun_intruder intrude DIR RANK UID
 *       Takes DIR/env.RANK, claims rank RANK and uid/gid UID (the
 *       definitions of getuid() and friends below are what libpmix sends),
 *       and tries PMIx_Init. Prints "refused" when it cannot join; if it
 *       joins, prints "joined", reads rank 0's value and calls PMIx_Abort(42),
 *       exiting 1. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

#include <pmix.h>

static long claimed = -1;

/* libpmix's "native" security sends what these return: an intruder lies.
 * (The executable's definitions come first, for libpmix's calls too.) */
uid_t getuid(void) { return claimed >= 0 ? (uid_t)claimed : (uid_t)syscall(SYS_getuid); }
uid_t geteuid(void) { return claimed >= 0 ? (uid_t)claimed : (uid_t)syscall(SYS_geteuid); }
gid_t getgid(void) { return claimed >= 0 ? (gid_t)claimed : (gid_t)syscall(SYS_getgid); }
gid_t getegid(void) { return claimed >= 0 ? (gid_t)claimed : (gid_t)syscall(SYS_getegid); }

static int victim(const char *dir)
{
    const char *rank_s = getenv("PMIX_RANK");
    char path[4096], tmp[4096];
    pmix_proc_t me, all, peer;
    pmix_value_t v, *got;
    pmix_status_t rc;
    uint32_t size = 0;
    int bad = 0;

    if (rank_s != NULL) {
        extern char **environ;
        FILE *f;

        snprintf(tmp, sizeof(tmp), "%s/.env.%s", dir, rank_s);
        snprintf(path, sizeof(path), "%s/env.%s", dir, rank_s);
        f = fopen(tmp, "w");
        if (f == NULL)
            return 1;
        for (char **e = environ; *e; e++)
            if (strncmp(*e, "PMIX_", 5) == 0)
                fprintf(f, "%s\n", *e);
        fclose(f);
        chmod(tmp, 0644);
        rename(tmp, path);
    }
    /* The test says when: the intruder has had its tries. (Bounded.) */
    snprintf(path, sizeof(path), "%s/go", dir);
    for (int i = 0; access(path, F_OK) != 0; i++) {
        struct timespec ts = {0, 10 * 1000 * 1000};

        if (i == 6000) {
            fprintf(stderr, "rank %s: no go file after 60 s\n", rank_s);
            return 1;
        }
        nanosleep(&ts, NULL);
    }
    rc = PMIx_Init(&me, NULL, 0);
    if (rc != PMIX_SUCCESS) {
        fprintf(stderr, "rank %s: PMIx_Init: %s\n", rank_s, PMIx_Error_string(rc));
        return 1;
    }
    PMIX_VALUE_LOAD(&v, &(uint32_t){1000 + me.rank}, PMIX_UINT32);
    PMIx_Put(PMIX_GLOBAL, "value", &v);
    PMIX_VALUE_DESTRUCT(&v);
    PMIx_Commit();
    PMIX_LOAD_PROCID(&all, me.nspace, PMIX_RANK_WILDCARD);
    /* (collect: the ranks of another host are served by another server) */
    pmix_info_t collect;
    PMIX_INFO_LOAD(&collect, PMIX_COLLECT_DATA, &(bool){true}, PMIX_BOOL);
    rc = PMIx_Fence(&all, 1, &collect, 1);
    PMIX_INFO_DESTRUCT(&collect);
    if (rc == PMIX_SUCCESS && PMIx_Get(&all, PMIX_JOB_SIZE, NULL, 0, &got) == PMIX_SUCCESS) {
        size = got->data.uint32;
        PMIX_VALUE_RELEASE(got);
    }
    for (uint32_t r = 0; rc == PMIX_SUCCESS && r < size; r++) {
        PMIX_LOAD_PROCID(&peer, me.nspace, r);
        if (PMIx_Get(&peer, "value", NULL, 0, &got) != PMIX_SUCCESS) {
            bad++;
            continue;
        }
        bad += got->type != PMIX_UINT32 || got->data.uint32 != 1000 + r;
        PMIX_VALUE_RELEASE(got);
    }
    if (rc == PMIX_SUCCESS && size > 0 && bad == 0)
        printf("rank %u ok\n", me.rank);
    else
        printf("rank %u: fence %s, size %u, %d wrong values\n", me.rank, PMIx_Error_string(rc),
               size, bad);
    PMIx_Finalize(NULL, 0);
    return 0;
}

static int intrude(const char *dir, const char *rank, long uid)
{
    char path[4096], line[8192];
    pmix_proc_t me, zero;
    pmix_value_t *got;
    pmix_status_t rc;
    FILE *f;

    snprintf(path, sizeof(path), "%s/env.%s", dir, rank);
    f = fopen(path, "r");
    if (f == NULL) {
        perror(path);
        return 2;
    }
    while (fgets(line, sizeof(line), f)) {
        char *eq = strchr(line, '=');

        line[strcspn(line, "\n")] = '\0';
        if (eq == NULL)
            continue;
        *eq = '\0';
        /* The job's private directories are closed to another user: keep
         * to the server's own store, which needs none of them. */
        if (strstr(line, "DSTORE") || strstr(line, "TMPDIR"))
            continue;
        setenv(line, strcmp(line, "PMIX_GDS_MODULE") == 0 ? "hash" : eq + 1, 1);
    }
    fclose(f);
    setenv("PMIX_RANK", rank, 1);
    claimed = uid;
    rc = PMIx_Init(&me, NULL, 0);
    if (rc != PMIX_SUCCESS) {
        printf("refused\n");
        return 0;
    }
    printf("joined as rank %u\n", me.rank);
    PMIX_LOAD_PROCID(&zero, me.nspace, 0);
    if (PMIx_Get(&zero, PMIX_HOSTNAME, NULL, 0, &got) == PMIX_SUCCESS) {
        printf("read the job's data: rank 0 runs on %s\n", got->data.string);
        PMIX_VALUE_RELEASE(got);
    }
    fflush(stdout);
    PMIx_Abort(42, "the intruder ends the job", NULL, 0);
    return 1;
}

int main(int argc, char **argv)
{
    if (argc == 3 && strcmp(argv[1], "victim") == 0)
        return victim(argv[2]);
    if (argc == 5 && strcmp(argv[1], "intrude") == 0)
        return intrude(argv[2], argv[3], atol(argv[4]));
    fprintf(stderr, "usage: rrun_intruder victim DIR | intrude DIR RANK UID\n");
    return 2;
}

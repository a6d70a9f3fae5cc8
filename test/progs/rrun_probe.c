/* rrun_probe.c - a plain program (no PMIx) that shows what rrun gave it.
 *
 *   rrun_probe affinity      "rank R cpus LIST oversubscribed V"
 *   rrun_probe env VAR...    "rank R VAR=value" or "rank R VAR unset"
 *   rrun_probe lines N       N long lines to stdout and N to stderr, written
 *                            through small stdio buffers so that writes cut
 *                            lines in the middle
 *   rrun_probe partial       "rank R no newline" without the final newline
 *   rrun_probe stdin         copy stdin to stdout, then "rank R stdin done"
 *   rrun_probe exit N        exit with status N
 * The rank comes from PMIX_RANK, which rrun sets for every rank. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *rank;

static void print_affinity(void)
{
    cpu_set_t set;
    char list[1024] = "";
    size_t len = 0;
    const char *ov = getenv("RDMPI_OVERSUBSCRIBED");

    if (sched_getaffinity(0, sizeof(set), &set) != 0) {
        perror("sched_getaffinity");
        exit(1);
    }
    for (int cpu = 0; cpu < CPU_SETSIZE && len < sizeof(list) - 16; cpu++)
        if (CPU_ISSET(cpu, &set))
            len += (size_t)snprintf(list + len, sizeof(list) - len, "%s%d", len ? "," : "", cpu);
    printf("rank %s cpus %s oversubscribed %s\n", rank, list, ov != NULL ? ov : "unset");
}

static void print_lines(int n)
{
    static char outbuf[1000], errbuf[777];
    char payload[301];

    memset(payload, 'a' + atoi(rank) % 26, sizeof(payload) - 1);
    payload[sizeof(payload) - 1] = '\0';
    setvbuf(stdout, outbuf, _IOFBF, sizeof(outbuf));
    setvbuf(stderr, errbuf, _IOFBF, sizeof(errbuf));
    for (int i = 0; i < n; i++) {
        printf("out rank %s line %d %s end\n", rank, i, payload);
        fprintf(stderr, "err rank %s line %d %s end\n", rank, i, payload);
    }
}

int main(int argc, char **argv)
{
    const char *what = argc > 1 ? argv[1] : "";

    rank = getenv("PMIX_RANK");
    if (rank == NULL)
        rank = "?";
    if (strcmp(what, "affinity") == 0) {
        print_affinity();
    } else if (strcmp(what, "env") == 0) {
        for (int i = 2; i < argc; i++) {
            const char *v = getenv(argv[i]);

            if (v != NULL)
                printf("rank %s %s=%s\n", rank, argv[i], v);
            else
                printf("rank %s %s unset\n", rank, argv[i]);
        }
    } else if (strcmp(what, "lines") == 0 && argc > 2) {
        print_lines(atoi(argv[2]));
    } else if (strcmp(what, "partial") == 0) {
        printf("rank %s no newline", rank);
    } else if (strcmp(what, "stdin") == 0) {
        char buf[4096];
        size_t n;

        while ((n = fread(buf, 1, sizeof(buf), stdin)) > 0)
            fwrite(buf, 1, n, stdout);
        printf("rank %s stdin done\n", rank);
    } else if (strcmp(what, "exit") == 0 && argc > 2) {
        return atoi(argv[2]);
    } else {
        fprintf(stderr, "usage: rrun_probe affinity|env VAR...|lines N|partial|stdin|exit N\n");
        return 2;
    }
    return 0;
}

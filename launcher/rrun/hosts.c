/* hosts.c - the hosts of a job (--host, --hostfile) and its ranks on them.
 *
 * --host h1:2,h2:2 gives h1 and h2 two slots each; a name without a count
 * is one slot, and a name given twice adds up (h1,h1 = h1:2). A hostfile
 * has one host per line, "name", "name:N" or "name slots=N", with '#'
 * comments. Ranks fill the slots in order (rank 0 and 1 on h1, 2 and 3 on
 * h2); -np defaults to the number of slots and may not exceed it. Hosts
 * that get no rank are dropped. "localhost" and this machine's own name
 * are this machine. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "launcher/rrun/rrun.h"

#define RRUN_MAX_SLOTS 100000

static int add_host(struct rrun_host **hosts, int *n, const char *name, size_t len, int slots)
{
    struct rrun_host *h;

    for (int i = 0; i < *n; i++)
        if (strlen((*hosts)[i].name) == len && strncmp((*hosts)[i].name, name, len) == 0) {
            (*hosts)[i].slots += slots;
            return 0;
        }
    h = realloc(*hosts, sizeof(**hosts) * (size_t)(*n + 1));
    if (h == NULL)
        return -1;
    *hosts = h;
    h = &h[*n];
    memset(h, 0, sizeof(*h));
    h->name = strndup(name, len);
    if (h->name == NULL)
        return -1;
    h->slots = slots;
    h->to_fd = h->from_fd = -1;
    (*n)++;
    return 0;
}

/* A host name: letters, digits, '-', '.', '_' (what a shell and ssh take
 * as one word). */
static bool valid_name(const char *s, size_t len)
{
    if (len == 0 || len > 255)
        return false;
    for (size_t i = 0; i < len; i++)
        if (!isalnum((unsigned char)s[i]) && s[i] != '-' && s[i] != '.' && s[i] != '_')
            return false;
    return true;
}

static int parse_count(const char *s, size_t len, int *count)
{
    char buf[16], *end;
    long v;

    if (len == 0 || len >= sizeof(buf))
        return -1;
    memcpy(buf, s, len);
    buf[len] = '\0';
    if (!isdigit((unsigned char)buf[0]))
        return -1;
    errno = 0;
    v = strtol(buf, &end, 10);
    if (errno != 0 || *end != '\0' || v < 1 || v > RRUN_MAX_SLOTS)
        return -1;
    *count = (int)v;
    return 0;
}

/* One "name[:N]" entry of --host. */
static int host_entry(struct rrun_host **hosts, int *n, const char *s, size_t len, const char *where)
{
    const char *colon = memchr(s, ':', len);
    size_t nlen = colon ? (size_t)(colon - s) : len;
    int slots = 1;

    if (!valid_name(s, nlen) ||
        (colon != NULL && parse_count(colon + 1, len - nlen - 1, &slots) != 0)) {
        fprintf(stderr, "rrun: %s: bad host entry '%.*s' (expected name or name:N)\n", where,
                (int)len, s);
        return -1;
    }
    return add_host(hosts, n, s, nlen, slots) == 0 ? 0 : -2;
}

static int parse_host_list(const char *list, struct rrun_host **hosts, int *n)
{
    const char *p = list;

    for (;;) {
        size_t len = strcspn(p, ",");
        int rc = host_entry(hosts, n, p, len, "--host");

        if (rc != 0)
            return rc;
        if (p[len] == '\0')
            return 0;
        p += len + 1;
    }
}

static int parse_hostfile(const char *path, struct rrun_host **hosts, int *n)
{
    FILE *f = fopen(path, "r");
    char line[1024];
    int lineno = 0, rc = 0;

    if (f == NULL) {
        fprintf(stderr, "rrun: cannot read hostfile '%s': %s\n", path, strerror(errno));
        return -1;
    }
    while (rc == 0 && fgets(line, sizeof(line), f) != NULL) {
        char *s = line, *hash = strchr(line, '#'), *name, *rest;
        char where[1100];
        size_t len;

        lineno++;
        if (hash != NULL)
            *hash = '\0';
        while (isspace((unsigned char)*s))
            s++;
        len = strlen(s);
        while (len > 0 && isspace((unsigned char)s[len - 1]))
            s[--len] = '\0';
        if (len == 0)
            continue;
        snprintf(where, sizeof(where), "%s:%d", path, lineno);
        name = s;
        rest = s + strcspn(s, " \t");
        if (*rest == '\0') {
            rc = host_entry(hosts, n, name, len, where);
            continue;
        }
        *rest++ = '\0';
        while (isspace((unsigned char)*rest))
            rest++;
        int slots;
        if (strncmp(rest, "slots=", 6) != 0 || parse_count(rest + 6, strlen(rest + 6), &slots) != 0 ||
            !valid_name(name, strlen(name))) {
            fprintf(stderr, "rrun: %s: bad line (expected 'name', 'name:N' or 'name slots=N')\n",
                    where);
            rc = -1;
            continue;
        }
        rc = add_host(hosts, n, name, strlen(name), slots) == 0 ? 0 : -2;
    }
    fclose(f);
    if (rc == 0 && *n == 0) {
        fprintf(stderr, "rrun: hostfile '%s' names no host\n", path);
        rc = -1;
    }
    return rc;
}

static bool is_this_machine(const char *name)
{
    char self[256];
    size_t dot;

    if (strcmp(name, "localhost") == 0 || strcmp(name, "127.0.0.1") == 0)
        return true;
    if (gethostname(self, sizeof(self) - 1) != 0)
        return false;
    self[sizeof(self) - 1] = '\0';
    if (strcmp(name, self) == 0)
        return true;
    dot = strcspn(self, ".");
    return strlen(name) == dot && strncmp(name, self, dot) == 0;
}

void rrun_hosts_free(struct rrun_host *hosts, int nhosts)
{
    for (int i = 0; i < nhosts; i++) {
        free(hosts[i].name);
        rrun_buf_free(&hosts[i].out);
        rrun_buf_free(&hosts[i].fence);
        rrun_chan_in_free(&hosts[i].in);
    }
    free(hosts);
}

int rrun_hosts_parse(struct rrun_options *opt, struct rrun_host **hostsp, int *nhostsp)
{
    struct rrun_host *hosts = NULL;
    int n = 0, rc = 0, slots = 0, rank = 0, kept = 0;

    *hostsp = NULL;
    *nhostsp = 0;
    if (opt->hosts == NULL && opt->hostfile == NULL)
        return 0;
    if (opt->hosts != NULL)
        rc = parse_host_list(opt->hosts, &hosts, &n);
    if (rc == 0 && opt->hostfile != NULL)
        rc = parse_hostfile(opt->hostfile, &hosts, &n);
    if (rc == -2)
        fprintf(stderr, "rrun: out of memory\n");
    if (rc != 0) {
        rrun_hosts_free(hosts, n);
        return rc == -2 ? RRUN_EXIT_INTERNAL : RRUN_EXIT_USAGE;
    }
    for (int i = 0; i < n; i++)
        slots += hosts[i].slots;
    if (opt->np == 0)
        opt->np = slots;
    if (opt->np > slots) {
        fprintf(stderr, "rrun: -np %d is more than the %d slots of the hosts given\n", opt->np,
                slots);
        rrun_hosts_free(hosts, n);
        return RRUN_EXIT_USAGE;
    }
    /* Fill the slots in order; drop the hosts left without a rank. */
    for (int i = 0; i < n; i++) {
        int take = opt->np - rank < hosts[i].slots ? opt->np - rank : hosts[i].slots;

        if (take == 0) {
            free(hosts[i].name);
            continue;
        }
        hosts[i].first_rank = rank;
        hosts[i].nranks = take;
        hosts[i].local = is_this_machine(hosts[i].name);
        if (hosts[i].local && (strcmp(hosts[i].name, "localhost") == 0 ||
                               strcmp(hosts[i].name, "127.0.0.1") == 0)) {
            /* The ranks see the machine's own name, as on one host. */
            char self[256];

            if (gethostname(self, sizeof(self) - 1) == 0) {
                char *copy;

                self[sizeof(self) - 1] = '\0';
                if ((copy = strdup(self)) != NULL) {
                    free(hosts[i].name);
                    hosts[i].name = copy;
                }
            }
        }
        rank += take;
        hosts[kept++] = hosts[i];
    }
    *hostsp = hosts;
    *nhostsp = kept;
    return 0;
}

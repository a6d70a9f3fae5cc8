/* session.c - rrun's private session directory.
 *
 * libpmix keeps its rendezvous socket and data-store files under the
 * directories given by PMIX_SERVER_TMPDIR / PMIX_SYSTEM_TMPDIR. rrun points
 * both at a fresh directory of its own, which teardown.c removes with
 * everything in it on every way out, so a crashed job leaves nothing
 * behind in /tmp. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "launcher/rrun/rrun.h"

char *rrun_session_create(void)
{
    const char *base = getenv("TMPDIR");
    char *dir = NULL;

    if (base == NULL || *base == '\0')
        base = "/tmp";
    if (asprintf(&dir, "%s/rrun.%ld.XXXXXX", base, (long)getpid()) < 0)
        return NULL;
    if (mkdtemp(dir) == NULL) {
        fprintf(stderr, "rrun: cannot create a session directory in %s: %m\n", base);
        free(dir);
        return NULL;
    }
    return dir;
}

size_t rrun_shm_prefix(const char *nspace, char *out, size_t size)
{
    size_t n = (size_t)snprintf(out, size, "rdmpi-%s-", nspace);

    if (n >= size) {
        out[0] = '\0';
        return 0;
    }
    /* the transport's spelling of the namespace in a file name */
    for (char *p = out + 6; *p && p < out + n - 1; p++)
        if (!((*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') ||
              *p == '.' || *p == '_'))
            *p = '_';
    return n;
}

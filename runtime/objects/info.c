/* info.c - info objects (info.h) and MPI_INFO_ENV. */
#include "runtime/objects/info.h"

#include "runtime/base/state.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "runtime/base/job.h"
#include "runtime/objects/comm.h"
#include "runtime/objects/fhandle.h"

struct rd_info_s rd_mpi_info_env = {.magic = RD_INFO_MAGIC, .predefined = 1};

struct rd_info_s *rd_info_new(void)
{
    struct rd_info_s *info = calloc(1, sizeof(*info));
    if (info)
        info->magic = RD_INFO_MAGIC;
    return info;
}

void rd_info_destroy(struct rd_info_s *info)
{
    for (int i = 0; i < info->n; i++) {
        free(info->ent[i].key);
        free(info->ent[i].value);
    }
    free(info->ent);
    info->magic = 0;
    rd_fh_drop(RD_FH_INFO, &info->fidx);
    free(info);
}

int rd_info_find(const struct rd_info_s *info, const char *key)
{
    for (int i = 0; i < info->n; i++)
        if (strcmp(info->ent[i].key, key) == 0)
            return i;
    return -1;
}

int rd_info_set(struct rd_info_s *info, const char *key, const char *value)
{
    char *v = strdup(value);
    if (!v)
        return -1;
    int i = rd_info_find(info, key);
    if (i >= 0) {
        free(info->ent[i].value);
        info->ent[i].value = v;
        return 0;
    }
    char *k = strdup(key);
    if (!k) {
        free(v);
        return -1;
    }
    if (info->n == info->cap) {
        int cap = info->cap ? 2 * info->cap : 8;
        struct rd_info_entry *e = realloc(info->ent, (size_t)cap * sizeof(*e));
        if (!e) {
            free(k);
            free(v);
            return -1;
        }
        info->ent = e;
        info->cap = cap;
    }
    info->ent[info->n].key = k;
    info->ent[info->n].value = v;
    info->n++;
    return 0;
}

void rd_info_delete(struct rd_info_s *info, int index)
{
    free(info->ent[index].key);
    free(info->ent[index].value);
    memmove(&info->ent[index], &info->ent[index + 1], (size_t)(info->n - index - 1) * sizeof(*info->ent));
    info->n--;
}

/* The arguments argv[1..argc) joined by spaces into "argv" (when they fit). */
static int set_args(struct rd_info_s *env, int argc, char **argv)
{
    char buf[MPI_MAX_INFO_VAL + 1];
    size_t at = 0;
    for (int i = 1; i < argc; i++) {
        if (!argv[i])
            return 0;
        size_t n = strlen(argv[i]);
        if (at + (at > 0) + n > MPI_MAX_INFO_VAL)
            return 0; /* does not fit in a value: no "argv" */
        if (at > 0)
            buf[at++] = ' ';
        memcpy(buf + at, argv[i], n);
        at += n;
    }
    buf[at] = '\0';
    return at > 0 ? rd_info_set(env, "argv", buf) : 0;
}

/* MPI_INFO_ENV (MPI-3.1, "Startup") and MPI_Info_create_env: only the
 * keys this process knows for sure: "command" and "argv" (the program and
 * its arguments, space separated: from argc/argv when given, else from
 * /proc/self/cmdline), "maxprocs" (the size of MPI_COMM_WORLD, once MPI
 * is initialized), "wdir" (the working directory) and "host" (this node's
 * name). */
int rd_info_env_build(struct rd_info_s *env, int argc, char **argv)
{
    int r = 0;
    FILE *f = argc > 0 && argv && argv[0] ? NULL : fopen("/proc/self/cmdline", "r");
    if (argc > 0 && argv && argv[0]) {
        if (argv[0][0] && strlen(argv[0]) <= MPI_MAX_INFO_VAL)
            r |= rd_info_set(env, "command", argv[0]);
        r |= set_args(env, argc, argv);
    } else if (f) {
        char buf[MPI_MAX_INFO_VAL + 1];
        size_t len = fread(buf, 1, sizeof(buf) - 1, f);
        int whole = feof(f); /* the command line fits in one value */
        fclose(f);
        buf[len] = '\0';
        if (len > 0 && whole) {
            size_t cmdlen = strlen(buf);
            if (cmdlen > 0)
                r |= rd_info_set(env, "command", buf);
            if (cmdlen + 1 < len) {
                /* the arguments: NULs between them become spaces */
                char *args = buf + cmdlen + 1;
                size_t alen = len - cmdlen - 1;
                if (args[alen - 1] == '\0')
                    alen--;
                for (size_t i = 0; i < alen; i++)
                    if (args[i] == '\0')
                        args[i] = ' ';
                args[alen] = '\0';
                if (alen > 0)
                    r |= rd_info_set(env, "argv", args);
            }
        }
    }
    char num[32];
    if (atomic_load(&rd_state.phase) != RD_PHASE_NONE) { /* the job's size is known */
        snprintf(num, sizeof(num), "%d", rd_mpi_comm_world.size);
        r |= rd_info_set(env, "maxprocs", num);
    }
    char *cwd = getcwd(NULL, 0);
    if (cwd && strlen(cwd) <= MPI_MAX_INFO_VAL)
        r |= rd_info_set(env, "wdir", cwd);
    free(cwd);
    char host[256];
    if (gethostname(host, sizeof(host)) == 0) {
        host[sizeof(host) - 1] = '\0';
        r |= rd_info_set(env, "host", host);
    }
    return r != 0 ? -1 : 0;
}

static void env_fill(void)
{
    (void)rd_info_env_build(&rd_mpi_info_env, 0, NULL); /* what fits in memory */
}

void rd_info_env_fill(void)
{
    /* before MPI_Init (info calls may come then: MPI 4.0) it stays empty:
     * filled once, it would lack "maxprocs" for good */
    if (!rd_ready())
        return;
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, env_fill);
}

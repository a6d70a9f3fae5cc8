/* info.c - info objects (info.h) and MPI_INFO_ENV. */
#include "runtime/objects/info.h"

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

/* MPI_INFO_ENV (MPI-3.1, "Startup"): only the keys this process knows for sure:
 * "command" and "argv" (from /proc/self/cmdline: the program and its
 * arguments, space separated), "maxprocs" (the size of MPI_COMM_WORLD),
 * "wdir" (the working directory) and "host" (this node's name). */
static void env_fill(void)
{
    struct rd_info_s *env = &rd_mpi_info_env;
    FILE *f = fopen("/proc/self/cmdline", "r");
    if (f) {
        char buf[MPI_MAX_INFO_VAL + 1];
        size_t len = fread(buf, 1, sizeof(buf) - 1, f);
        int whole = feof(f); /* the command line fits in one value */
        fclose(f);
        buf[len] = '\0';
        if (len > 0 && whole) {
            size_t cmdlen = strlen(buf);
            if (cmdlen > 0)
                rd_info_set(env, "command", buf);
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
                    rd_info_set(env, "argv", args);
            }
        }
    }
    char num[32];
    snprintf(num, sizeof(num), "%d", rd_mpi_comm_world.size);
    rd_info_set(env, "maxprocs", num);
    char *cwd = getcwd(NULL, 0);
    if (cwd && strlen(cwd) <= MPI_MAX_INFO_VAL)
        rd_info_set(env, "wdir", cwd);
    free(cwd);
    char host[256];
    if (gethostname(host, sizeof(host)) == 0) {
        host[sizeof(host) - 1] = '\0';
        rd_info_set(env, "host", host);
    }
}

void rd_info_env_fill(void)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, env_fill);
}

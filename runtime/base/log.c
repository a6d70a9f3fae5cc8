/* log.c - see log.h */
#include "runtime/base/log.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

int rd_log_threshold = RD_LOG_WARN;
static char rd_log_components[256]; /* ",a,b," or empty for all */
static int rd_log_rank = -1;

static const char *const level_names[] = {"error", "warn", "info", "debug", "trace"};

int rd_log_configure(const char *spec)
{
    const char *colon = strchr(spec, ':');
    size_t n = colon ? (size_t)(colon - spec) : strlen(spec);
    int level = -1;
    for (int i = 0; i <= RD_LOG_TRACE; i++)
        if (strlen(level_names[i]) == n && strncasecmp(spec, level_names[i], n) == 0)
            level = i;
    if (n == 0)
        level = RD_LOG_WARN;
    if (level < 0)
        return -1;
    rd_log_threshold = level;
    rd_log_components[0] = '\0';
    if (colon && colon[1])
        snprintf(rd_log_components, sizeof(rd_log_components), ",%s,", colon + 1);
    return 0;
}

void rd_log_set_rank(int rank)
{
    rd_log_rank = rank;
}

int rd_log_component_enabled(const char *component)
{
    char key[64];
    if (rd_log_components[0] == '\0')
        return 1;
    snprintf(key, sizeof(key), ",%s,", component);
    return strstr(rd_log_components, key) != NULL;
}

void rd_log_write(int level, const char *component, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    rd_log_vwrite(level, component, fmt, ap);
    va_end(ap);
}

void rd_log_vwrite(int level, const char *component, const char *fmt, va_list ap)
{
    char msg[1024];
    vsnprintf(msg, sizeof(msg), fmt, ap);
    if (rd_log_rank >= 0)
        fprintf(stderr, "rdmpi[%d] %s %s: %s\n", rd_log_rank, component, level_names[level], msg);
    else
        fprintf(stderr, "rdmpi %s %s: %s\n", component, level_names[level], msg);
}

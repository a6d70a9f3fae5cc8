/* params.c - reads the parameter table from the environment. */
#include "runtime/base/params.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

extern char **environ;

struct rd_param_values rd_param;

struct rd_param_desc {
    const char *name;
    enum rd_param_type type;
    const char *def;
    const char *doc;
    size_t offset; /* of the value in struct rd_param_values */
};

static const struct rd_param_desc rd_param_table[] = {
#define RD_PARAM(name, type, def, doc) {#name, RD_PT_##type, def, doc, offsetof(struct rd_param_values, name)},
#include "runtime/base/params.def"
#undef RD_PARAM
};

#define RD_NPARAMS (sizeof(rd_param_table) / sizeof(rd_param_table[0]))

static const char *type_name(enum rd_param_type t)
{
    switch (t) {
    case RD_PT_INT: return "int";
    case RD_PT_SIZE: return "size";
    case RD_PT_BOOL: return "bool";
    case RD_PT_STRING: return "string";
    case RD_PT_ENUM: return "enum";
    }
    return "?";
}

static void env_name(const char *name, char *buf, size_t len)
{
    size_t i = 0, n = strlen("RDMPI_");
    memcpy(buf, "RDMPI_", n);
    for (; name[i] && n + i + 1 < len; i++)
        buf[n + i] = (char)toupper((unsigned char)name[i]);
    buf[n + i] = '\0';
}

int rd_param_parse_size(const char *s, long *out)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 0);
    if (end == s || errno || v < 0)
        return -1;
    long mul = 1;
    switch (tolower((unsigned char)*end)) {
    case '\0': break;
    case 'k': mul = 1L << 10; end++; break;
    case 'm': mul = 1L << 20; end++; break;
    case 'g': mul = 1L << 30; end++; break;
    default: return -1;
    }
    if (*end == 'b' || *end == 'B')
        end++;
    if (*end != '\0' || v > LONG_MAX / mul)
        return -1;
    *out = v * mul;
    return 0;
}

int rd_param_parse_bool(const char *s, long *out)
{
    static const char *yes[] = {"1", "yes", "true", "on", "y"};
    static const char *no[] = {"0", "no", "false", "off", "n"};
    for (size_t i = 0; i < sizeof(yes) / sizeof(yes[0]); i++) {
        if (strcasecmp(s, yes[i]) == 0) { *out = 1; return 0; }
        if (strcasecmp(s, no[i]) == 0) { *out = 0; return 0; }
    }
    return -1;
}

/* choices is "a|b|c:rest of doc" or "a|b|c" */
int rd_param_parse_enum(const char *choices, const char *s, long *out)
{
    long idx = 0;
    const char *p = choices;
    size_t slen = strlen(s);
    while (*p && *p != ':') {
        const char *e = p;
        while (*e && *e != '|' && *e != ':')
            e++;
        if ((size_t)(e - p) == slen && strncmp(p, s, slen) == 0) {
            *out = idx;
            return 0;
        }
        idx++;
        p = (*e == '|') ? e + 1 : e;
    }
    return -1;
}

static int parse_one(const struct rd_param_desc *d, const char *s, void *slot)
{
    long v;
    switch (d->type) {
    case RD_PT_STRING:
        *(const char **)slot = s;
        return 0;
    case RD_PT_INT: {
        char *end;
        errno = 0;
        v = strtol(s, &end, 0);
        if (end == s || *end || errno)
            return -1;
        break;
    }
    case RD_PT_SIZE:
        if (rd_param_parse_size(s, &v))
            return -1;
        break;
    case RD_PT_BOOL:
        if (rd_param_parse_bool(s, &v))
            return -1;
        break;
    case RD_PT_ENUM:
        if (rd_param_parse_enum(d->doc, s, &v))
            return -1;
        break;
    default:
        return -1;
    }
    *(long *)slot = v;
    return 0;
}

static void *slot_of(size_t i)
{
    return (char *)&rd_param + rd_param_table[i].offset;
}

int rd_params_load(char *err, size_t errlen)
{
    char name[96];
    int rc = 0;
    if (err && errlen)
        err[0] = '\0';
    for (size_t i = 0; i < RD_NPARAMS; i++) {
        const struct rd_param_desc *d = &rd_param_table[i];
        env_name(d->name, name, sizeof(name));
        const char *s = getenv(name);
        if (parse_one(d, d->def, slot_of(i)) != 0) {
            snprintf(err, errlen, "internal: bad default '%s' for %s", d->def, name);
            return -1;
        }
        if (s && parse_one(d, s, slot_of(i)) != 0) {
            if (d->type == RD_PT_ENUM) {
                const char *colon = strchr(d->doc, ':');
                int clen = colon ? (int)(colon - d->doc) : (int)strlen(d->doc);
                snprintf(err, errlen, "%s='%s' is not one of %.*s", name, s, clen, d->doc);
            } else {
                snprintf(err, errlen, "%s='%s' is not a valid %s", name, s, type_name(d->type));
            }
            return -1;
        }
    }
    /* unknown RDMPI_* variables are most likely typos: report the first */
    for (char **e = environ; e && *e; e++) {
        if (strncmp(*e, "RDMPI_", 6) != 0)
            continue;
        const char *eq = strchr(*e, '=');
        size_t n = eq ? (size_t)(eq - *e) : strlen(*e);
        int known = 0;
        for (size_t i = 0; i < RD_NPARAMS && !known; i++) {
            env_name(rd_param_table[i].name, name, sizeof(name));
            known = strlen(name) == n && strncmp(name, *e, n) == 0;
        }
        if (!known && rc == 0) {
            snprintf(err, errlen, "unknown parameter %.*s (rdmpi_info --params lists them)", (int)n, *e);
            rc = 1;
        }
    }
    return rc;
}

void rd_params_print(FILE *out)
{
    char name[96];
    for (size_t i = 0; i < RD_NPARAMS; i++) {
        const struct rd_param_desc *d = &rd_param_table[i];
        env_name(d->name, name, sizeof(name));
        const char *cur = getenv(name);
        fprintf(out, "%-28s %-6s default=%-8s%s%s%s\n    %s\n", name, type_name(d->type),
                d->def[0] ? d->def : "\"\"", cur ? " current=" : "", cur ? cur : "", "", d->doc);
    }
}

/* params.c - reads the parameter table from the environment. */
#include "runtime/base/params.h"

#include <ctype.h>
#include <pthread.h>
#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

extern char **environ;

struct rd_param_values rd_param;
struct rd_tool_param_values rd_tool_param;

#define RD_PARAM_STR(P, C) #C "|"
#define RD_PARAM_INT(name, def, min, max, doc) \
    {#name, RD_PT_INT, def, min, max, NULL, doc, offsetof(VALUES, name), RD_PARAM_COMPONENT},
#define RD_PARAM_SIZE(name, def, min, max, doc) \
    {#name, RD_PT_SIZE, def, min, max, NULL, doc, offsetof(VALUES, name), RD_PARAM_COMPONENT},
#define RD_PARAM_BOOL(name, def, doc) {#name, RD_PT_BOOL, def, 0, 1, NULL, doc, offsetof(VALUES, name), RD_PARAM_COMPONENT},
#define RD_PARAM_STRING(name, def, doc) \
    {#name, RD_PT_STRING, def, 0, 0, NULL, doc, offsetof(VALUES, name), RD_PARAM_COMPONENT},
#define RD_PARAM_ENUM(name, NAME, def, doc, ...)                                                              \
    {#name, RD_PT_ENUM, def, 0, RD_##NAME##_COUNT - 1, RD_PARAM_EACH(RD_PARAM_STR, _, __VA_ARGS__), doc, \
     offsetof(VALUES, name), RD_PARAM_COMPONENT},
#define VALUES struct rd_param_values
static const struct rd_param_desc lib_table[] = {
#include "runtime/base/params_lib.def"
};
#undef VALUES
#define VALUES struct rd_tool_param_values
static const struct rd_param_desc tool_table[] = {
#include "runtime/base/params_tools.def"
};
#undef VALUES

/* The RD_CVAR declarations (params.h): the library's table only. */
#undef RD_PARAM_INT
#undef RD_PARAM_SIZE
#undef RD_PARAM_BOOL
#undef RD_PARAM_STRING
#undef RD_PARAM_ENUM
#undef RD_CVAR
#define RD_PARAM_INT(name, def, min, max, doc)
#define RD_PARAM_SIZE(name, def, min, max, doc)
#define RD_PARAM_BOOL(name, def, doc)
#define RD_PARAM_STRING(name, def, doc)
#define RD_PARAM_ENUM(name, NAME, def, doc, ...)
#define RD_CVAR(name, scope, when) {#name, RD_PS_##scope, RD_CVAR_##when},
enum { RD_CVAR_INIT, RD_CVAR_LIVE };
static const struct {
    const char *name;
    enum rd_param_scope scope;
    int live;
} cvar_decls[] = {
#include "runtime/base/params_lib.def"
    {NULL, RD_PS_ALL_EQ, 0}};
#undef RD_CVAR
#define RD_CVAR(name, scope, when)

static const struct {
    const struct rd_param_desc *desc;
    size_t n;
    void *values;
} tables[] = {
    {lib_table, sizeof(lib_table) / sizeof(lib_table[0]), &rd_param},
    {tool_table, sizeof(tool_table) / sizeof(tool_table[0]), &rd_tool_param},
};
#define NTABLES (sizeof(tables) / sizeof(tables[0]))

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

/* choices is "a|b|c" (a trailing '|' allowed; a ':' also ends it) */
int rd_param_parse_enum(const char *choices, const char *s, long *out)
{
    long idx = 0;
    const char *p = choices;
    size_t slen = strlen(s);
    while (*p && *p != ':') {
        const char *e = p;
        while (*e && *e != '|' && *e != ':')
            e++;
        if (e > p && (size_t)(e - p) == slen && strncasecmp(p, s, slen) == 0) {
            *out = idx;
            return 0;
        }
        idx++;
        p = (*e == '|') ? e + 1 : e;
    }
    return -1;
}

/* The choices of an ENUM as users write them: "a|b|c" in lower case. */
static void choices_text(const struct rd_param_desc *d, char *buf, size_t len)
{
    size_t n = 0;
    for (const char *c = d->choices; *c && n + 1 < len; c++)
        buf[n++] = (char)tolower((unsigned char)*c);
    if (n > 0 && buf[n - 1] == '|')
        n--;
    buf[n] = '\0';
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
        if (rd_param_parse_enum(d->choices, s, &v))
            return -1;
        break;
    default:
        return -1;
    }
    if ((d->type == RD_PT_INT || d->type == RD_PT_SIZE) && (v < d->min || v > d->max))
        return -2;
    *(long *)slot = v;
    return 0;
}

/* The declaration whose variable is the n bytes at var (NULL: none). */
static const struct rd_param_desc *find_n(const char *var, size_t n)
{
    char name[96];
    for (size_t t = 0; t < NTABLES; t++)
        for (size_t i = 0; i < tables[t].n; i++) {
            env_name(tables[t].desc[i].name, name, sizeof(name));
            if (strlen(name) == n && strncmp(name, var, n) == 0)
                return &tables[t].desc[i];
        }
    return NULL;
}

const struct rd_param_desc *rd_param_find(const char *var)
{
    return find_n(var, strlen(var));
}

static int load_table(size_t t, char *err, size_t errlen)
{
    char name[96];
    int rc = 0;
    if (err && errlen)
        err[0] = '\0';
    for (size_t i = 0; i < tables[t].n; i++) {
        const struct rd_param_desc *d = &tables[t].desc[i];
        void *slot = (char *)tables[t].values + d->offset;
        env_name(d->name, name, sizeof(name));
        const char *s = getenv(name);
        if (parse_one(d, d->def, slot) != 0) {
            snprintf(err, errlen, "internal: bad default '%s' for %s", d->def, name);
            return -1;
        }
        /* a bad value keeps the default (and the first one is reported):
         * every value is set whatever the outcome (MPI_T reads them all) */
        int prc = s ? parse_one(d, s, slot) : 0;
        if (prc != 0 && rc < 0)
            continue;
        if (prc == -2) {
            snprintf(err, errlen, "%s='%s' is not in [%ld, %ld]", name, s, d->min, d->max);
            rc = -1;
        } else if (prc != 0) {
            if (d->type == RD_PT_ENUM) {
                char c[256];
                choices_text(d, c, sizeof(c));
                snprintf(err, errlen, "%s='%s' is not one of %s", name, s, c);
            } else {
                snprintf(err, errlen, "%s='%s' is not a valid %s", name, s, type_name(d->type));
            }
            rc = -1;
        }
    }
    if (rc < 0)
        return rc;
    /* unknown RDMPI_* variables are most likely typos: report the first */
    for (char **e = environ; e && *e; e++) {
        if (strncmp(*e, "RDMPI_", 6) != 0)
            continue;
        const char *eq = strchr(*e, '=');
        size_t n = eq ? (size_t)(eq - *e) : strlen(*e);
        if (!find_n(*e, n) && rc == 0) {
            snprintf(err, errlen, "unknown parameter %.*s (rdmpi_info --params lists them)", (int)n, *e);
            rc = 1;
        }
    }
    return rc;
}

int rd_params_load(char *err, size_t errlen)
{
    return load_table(0, err, errlen);
}

int rd_params_load_tools(char *err, size_t errlen)
{
    return load_table(1, err, errlen);
}

/* once: the first load's outcome; frozen: the library has started
 * reading the values (rd_params_freeze), so only LIVE ones may change */
static pthread_mutex_t once_lock = PTHREAD_MUTEX_INITIALIZER;
static int once_done, once_rc, frozen;
static char once_msg[512];

int rd_params_load_once(char *err, size_t errlen)
{
    pthread_mutex_lock(&once_lock);
    if (!once_done) {
        /* both tables whatever the first says (every value is set: a bad
         * one keeps its default), the first problem reported */
        char terr[512];
        once_rc = load_table(0, once_msg, sizeof(once_msg));
        int trc = load_table(1, terr, sizeof(terr));
        if (trc < 0 && once_rc >= 0) {
            snprintf(once_msg, sizeof(once_msg), "%s", terr);
            once_rc = trc;
        }
        once_done = 1;
    }
    snprintf(err, errlen, "%s", once_msg);
    int rc = once_rc;
    pthread_mutex_unlock(&once_lock);
    return rc;
}

void rd_params_freeze(void)
{
    pthread_mutex_lock(&once_lock);
    frozen = 1;
    pthread_mutex_unlock(&once_lock);
}

size_t rd_params_count(int table)
{
    return table >= 0 && (size_t)table < NTABLES ? tables[table].n : 0;
}

const struct rd_param_desc *rd_param_at(int table, size_t i)
{
    return i < rd_params_count(table) ? &tables[table].desc[i] : NULL;
}

static size_t table_of(const struct rd_param_desc *d)
{
    for (size_t t = 0; t < NTABLES; t++)
        if (d >= tables[t].desc && d < tables[t].desc + tables[t].n)
            return t;
    return NTABLES;
}

void *rd_param_slot(const struct rd_param_desc *d)
{
    size_t t = table_of(d);
    return t < NTABLES ? (char *)tables[t].values + d->offset : NULL;
}

enum rd_param_scope rd_param_scope_of(const struct rd_param_desc *d, int *live)
{
    *live = 0;
    if (table_of(d) != 0)
        return RD_PS_READONLY;
    for (size_t i = 0; cvar_decls[i].name; i++)
        if (strcmp(cvar_decls[i].name, d->name) == 0) {
            *live = cvar_decls[i].live;
            return cvar_decls[i].scope;
        }
    return RD_PS_ALL_EQ;
}

/* The strings MPI_T wrote: kept for the process's life (the library may
 * hold any of them until it ends). */
static struct kept {
    struct kept *next;
    char s[];
} *kept;

int rd_param_set(const struct rd_param_desc *d, long v, const char *s, int live)
{
    void *slot = rd_param_slot(d);
    if (!slot)
        return -1;
    int rc = 0;
    pthread_mutex_lock(&once_lock);
    if (frozen && !live) {
        rc = -2;
    } else if (d->type == RD_PT_STRING) {
        size_t n = strlen(s) + 1;
        struct kept *k = malloc(sizeof(*k) + n);
        if (k) {
            memcpy(k->s, s, n);
            k->next = kept;
            kept = k;
            __atomic_store_n((const char **)slot, k->s, __ATOMIC_RELEASE);
        } else {
            rc = -1;
        }
    } else if (d->type == RD_PT_BOOL ? (v != 0 && v != 1) : (v < d->min || v > d->max)) {
        rc = -1;
    } else {
        __atomic_store_n((long *)slot, v, __ATOMIC_RELAXED);
    }
    pthread_mutex_unlock(&once_lock);
    return rc;
}

void rd_params_print(FILE *out)
{
    char name[96], c[256];
    for (size_t t = 0; t < NTABLES; t++)
        for (size_t i = 0; i < tables[t].n; i++) {
            const struct rd_param_desc *d = &tables[t].desc[i];
            env_name(d->name, name, sizeof(name));
            const char *cur = getenv(name);
            c[0] = '\0';
            if (d->type == RD_PT_ENUM)
                choices_text(d, c, sizeof(c));
            char range[64] = "";
            if ((d->type == RD_PT_INT || d->type == RD_PT_SIZE) && (d->min != 0 || d->max != LONG_MAX))
                snprintf(range, sizeof(range), " range=%ld..%ld", d->min, d->max);
            fprintf(out, "%-28s %-6s default=%-8s%s%s%s\n    %s%s%s\n", name, type_name(d->type),
                    d->def[0] ? d->def : "\"\"", range, cur ? " current=" : "", cur ? cur : "", c,
                    c[0] ? ": " : "", d->doc);
        }
}

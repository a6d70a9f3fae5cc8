/* params.h - the parameters (RDMPI_* variables).
 *
 * Each component declares its own beside its code, in a params.def of its
 * folder (runtime/base, runtime/p2p, transports/shm, transports/verbs,
 * transports/ofi, collectives: the library's; launcher: the tools'), in
 * one of these forms:
 *
 *   RD_PARAM_INT(name, default, min, max, doc)
 *   RD_PARAM_SIZE(name, default, min, max, doc)  bytes; k/m/g suffixes
 *   RD_PARAM_BOOL(name, default, doc)            0/1/yes/no/true/false/on/off
 *   RD_PARAM_STRING(name, default, doc)
 *   RD_PARAM_ENUM(name, NAME, default, doc, CHOICE...)
 *
 * The variable is RDMPI_<NAME> (name in upper case); the value lands in
 * rd_param.<name> (the library's) or rd_tool_param.<name> (the tools'):
 * long for INT, SIZE, BOOL and ENUM, const char * for STRING. A value out
 * of [min, max] or not one of the choices is refused with a message
 * naming the variable. An ENUM's choices are written in upper case and
 * become the constants RD_<NAME>_<CHOICE> (0, 1, ...); users write them in
 * lower case (case-blind). The build joins the fragments into
 * runtime/base/params_lib.def and params_tools.def (runtime/local.mk),
 * each fragment preceded by `#define RD_PARAM_COMPONENT "<folder>"`.
 *
 * MPI_T makes every parameter a control variable (runtime/api/mpit.c).
 * Who may write one, and when, is declared beside it:
 *
 *   RD_CVAR(name, SCOPE, WHEN)
 *
 * SCOPE: ALL_EQ (every rank of the job must hold the same value: the
 * default for a parameter not listed), LOCAL (each rank its own) or
 * READONLY (never written through MPI_T); WHEN: INIT (written only
 * before the library is up, i.e. between MPI_T_init_thread and
 * MPI_Init / the first session: the default) or LIVE (the code reads it
 * at each use, so a write takes effect from the next use on).
 * `rdmpi_info --params` lists both tables. */
#ifndef RD_PARAMS_H
#define RD_PARAMS_H

#include <limits.h>
#include <stdio.h>

enum rd_param_type { RD_PT_INT, RD_PT_SIZE, RD_PT_BOOL, RD_PT_STRING, RD_PT_ENUM };
enum rd_param_scope { RD_PS_ALL_EQ, RD_PS_LOCAL, RD_PS_READONLY };

#define RD_CVAR(name, scope, when)
#define RD_PARAM_COMPONENT "base"

/* ---- calling a macro on each of up to 12 choices */
#define RD_PARAM_NARGS(...) RD_PARAM_NARGS_(__VA_ARGS__, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0)
#define RD_PARAM_NARGS_(a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, n, ...) n
#define RD_PARAM_CAT(a, b) RD_PARAM_CAT_(a, b)
#define RD_PARAM_CAT_(a, b) a##b
#define RD_PARAM_EACH(m, P, ...) RD_PARAM_CAT(RD_PARAM_EACH_, RD_PARAM_NARGS(__VA_ARGS__))(m, P, __VA_ARGS__)
#define RD_PARAM_EACH_1(m, P, a) m(P, a)
#define RD_PARAM_EACH_2(m, P, a, ...) m(P, a) RD_PARAM_EACH_1(m, P, __VA_ARGS__)
#define RD_PARAM_EACH_3(m, P, a, ...) m(P, a) RD_PARAM_EACH_2(m, P, __VA_ARGS__)
#define RD_PARAM_EACH_4(m, P, a, ...) m(P, a) RD_PARAM_EACH_3(m, P, __VA_ARGS__)
#define RD_PARAM_EACH_5(m, P, a, ...) m(P, a) RD_PARAM_EACH_4(m, P, __VA_ARGS__)
#define RD_PARAM_EACH_6(m, P, a, ...) m(P, a) RD_PARAM_EACH_5(m, P, __VA_ARGS__)
#define RD_PARAM_EACH_7(m, P, a, ...) m(P, a) RD_PARAM_EACH_6(m, P, __VA_ARGS__)
#define RD_PARAM_EACH_8(m, P, a, ...) m(P, a) RD_PARAM_EACH_7(m, P, __VA_ARGS__)
#define RD_PARAM_EACH_9(m, P, a, ...) m(P, a) RD_PARAM_EACH_8(m, P, __VA_ARGS__)
#define RD_PARAM_EACH_10(m, P, a, ...) m(P, a) RD_PARAM_EACH_9(m, P, __VA_ARGS__)
#define RD_PARAM_EACH_11(m, P, a, ...) m(P, a) RD_PARAM_EACH_10(m, P, __VA_ARGS__)
#define RD_PARAM_EACH_12(m, P, a, ...) m(P, a) RD_PARAM_EACH_11(m, P, __VA_ARGS__)

/* ---- the values, and the ENUMs' constants */
#define RD_PARAM_INT(name, def, min, max, doc) long name;
#define RD_PARAM_SIZE(name, def, min, max, doc) long name;
#define RD_PARAM_BOOL(name, def, doc) long name;
#define RD_PARAM_STRING(name, def, doc) const char *name;
#define RD_PARAM_ENUM(name, NAME, def, doc, ...) long name;
struct rd_param_values {
#include "runtime/base/params_lib.def"
};
struct rd_tool_param_values {
#include "runtime/base/params_tools.def"
};
#undef RD_PARAM_INT
#undef RD_PARAM_SIZE
#undef RD_PARAM_BOOL
#undef RD_PARAM_STRING
#undef RD_PARAM_ENUM

#define RD_PARAM_CONST(NAME, C) RD_##NAME##_##C,
#define RD_PARAM_INT(name, def, min, max, doc)
#define RD_PARAM_SIZE(name, def, min, max, doc)
#define RD_PARAM_BOOL(name, def, doc)
#define RD_PARAM_STRING(name, def, doc)
#define RD_PARAM_ENUM(name, NAME, def, doc, ...) \
    enum { RD_PARAM_EACH(RD_PARAM_CONST, NAME, __VA_ARGS__) RD_##NAME##_COUNT };
#include "runtime/base/params_lib.def"
#include "runtime/base/params_tools.def"
#undef RD_PARAM_INT
#undef RD_PARAM_SIZE
#undef RD_PARAM_BOOL
#undef RD_PARAM_STRING
#undef RD_PARAM_ENUM

/* Current values; valid after rd_params_load(). */
extern struct rd_param_values rd_param;
extern struct rd_tool_param_values rd_tool_param;

/* One declared parameter. */
struct rd_param_desc {
    const char *name;
    enum rd_param_type type;
    const char *def;
    long min, max;       /* INT, SIZE */
    const char *choices; /* ENUM: "A|B|C|" as declared */
    const char *doc;
    size_t offset;       /* of the value in its values struct */
    const char *component; /* the folder that declares it: "p2p", "shm", ... */
};

/* Read the library's table (the tools': rd_params_load_tools) from the
 * environment. On a bad value, writes a message naming the variable into
 * err (errlen bytes) and returns -1; 0 on success. An RDMPI_* name that
 * neither table declares is reported in err as a warning, returning 1. */
int rd_params_load(char *err, size_t errlen);
int rd_params_load_tools(char *err, size_t errlen);

/* rd_params_load and rd_params_load_tools once for the process (MPI_T
 * and MPI_Init both ask; what MPI_T wrote before MPI_Init stays): later
 * calls return the first call's result and message. */
int rd_params_load_once(char *err, size_t errlen);
/* The library starts reading the values (rd_init): from here on only the
 * LIVE ones may be written (rd_param_set). */
void rd_params_freeze(void);

/* The tables, for MPI_T: table 0 the library's, 1 the tools'. */
size_t rd_params_count(int table);
const struct rd_param_desc *rd_param_at(int table, size_t i);
/* Where d's value lives (long, or const char *). */
void *rd_param_slot(const struct rd_param_desc *d);
/* d's RD_CVAR declaration: its scope, and *live 1 for LIVE. The tools'
 * parameters are READONLY (they are read by rrun and the wrappers). */
enum rd_param_scope rd_param_scope_of(const struct rd_param_desc *d, int *live);
/* Set d's value: v for INT, SIZE, BOOL and ENUM (checked against the
 * range / the choices), s for STRING (copied; kept for the process's
 * life); live: d is declared LIVE. 0; -1 refused (out of range, no
 * memory); -2 not now (the library has frozen the values, d is not LIVE). */
int rd_param_set(const struct rd_param_desc *d, long v, const char *s, int live);

/* Print both tables (name, type, default, current value, doc). */
void rd_params_print(FILE *out);

/* The declaration of the parameter RDMPI_<NAME> (NULL: none). */
const struct rd_param_desc *rd_param_find(const char *env_name);

/* Parse helpers, exposed for tests. Return 0 on success, -1 on bad input.
 * choices: "a|b|c" (a trailing '|' allowed), compared case-blind. */
int rd_param_parse_size(const char *s, long *out);
int rd_param_parse_bool(const char *s, long *out);
int rd_param_parse_enum(const char *choices, const char *s, long *out);

#endif

/* options.c - rrun's command line.
 *
 * Options come first and stop at the first word that is not an option (the
 * program); everything after it belongs to the program. A usage error prints
 * one line and a pointer to --help, and rrun exits 2 without starting
 * anything. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "launcher/rrun/rrun.h"

/* More ranks than this on one node is a typo, not a job. */
#define RRUN_MAX_NP 100000

static const char usage_text[] =
    "Usage: rrun -np N [options] program [args...]\n"
    "\n"
    "Start N processes of program as one MPI job, on this node (served by a\n"
    "PMIx server inside rrun) or on several hosts (one rrun daemon per host).\n"
    "\n"
    "Options (they stop at the first word that is not an option):\n"
    "  -np N, -n N, --np N    number of processes (ranks) to start; required\n"
    "                         unless hosts are given (default: their slots)\n"
    "  --host H1[:N],H2[:N]   run on these hosts, N slots each (default 1; a\n"
    "                         name given twice adds up); ranks fill the slots\n"
    "                         in order\n"
    "  --hostfile F           the hosts from file F: one per line, 'name',\n"
    "                         'name:N' or 'name slots=N'; '#' starts a comment\n"
    "  --launch-agent CMD     how to start rrun's daemon on another host:\n"
    "                         CMD HOST rrun --daemon (default: ssh); the job\n"
    "                         talks to it over CMD's stdin and stdout\n"
    "  --bind-to core|none    core: bind rank i to core i of the cores rrun may\n"
    "                         use, wrapping around (i modulo the cores) when\n"
    "                         ranks outnumber them; none: do not bind. The\n"
    "                         default: core, unless ranks outnumber cores; then\n"
    "                         none. With more ranks than cores every rank gets\n"
    "                         RDMPI_OVERSUBSCRIBED=1 (its waits yield the core).\n"
    "  -x VAR=value           set VAR in the environment of every rank\n"
    "  -x VAR                 copy rrun's own value of VAR to every rank\n"
    "  --pset NAME=RANKS      a process set for MPI sessions (repeatable): RANKS a\n"
    "                         comma list of ranks and ranges, like 0-3,6; every\n"
    "                         rank lists the sets after mpi://WORLD and mpi://SELF,\n"
    "                         in the order given (MPI_Session_get_nth_pset). NAME:\n"
    "                         not starting with mpi://, no ',', at most 255 chars\n"
    "  --tag-output           prefix each line of output with [rank]\n"
    "  --timeout S            end the job when it runs longer than S seconds, after\n"
    "                         printing what every rank is waiting for\n"
    "                         (default: $MPIEXEC_TIMEOUT, as mpiexec reads it;\n"
    "                         0 or unset: no limit)\n"
    "  --oversubscribe        accepted for compatibility; rrun always allows it\n"
    "  -h, --help             show this help and exit\n"
    "  --version              show the version and exit\n"
    "\n"
    "Output: each rank's stdout and stderr go to rrun's stdout and stderr, whole\n"
    "lines at a time. Rank 0 reads rrun's stdin (on any host); the others read\n"
    "/dev/null.\n"
    "\n"
    "The job ends early when a rank is killed by a signal, exits with a non-zero\n"
    "status, exits without calling MPI_Finalize after it connected, or calls\n"
    "MPI_Abort: rrun then sends SIGTERM to the other ranks, SIGKILL shortly\n"
    "after, and prints one message saying which rank failed and why.\n"
    "SIGINT, SIGTERM and SIGHUP sent to rrun are forwarded to every rank.\n"
    "\n"
    "A job that hangs: SIGUSR1 to rrun, or `rrun --report-pending PID` (from\n"
    "another shell, PID being rrun's), prints what every rank is waiting for:\n"
    "its MPI call, the receives, sends and collectives it waits on (peer, tag,\n"
    "communicator, bytes), the messages nobody received, and the cycles among\n"
    "the waits. The job goes on. The same report comes before a --timeout ends\n"
    "a job.\n"
    "\n"
    "Exit status:\n"
    "  0        every rank exited with status 0\n"
    "  N        the first failing rank exited with status N\n"
    "  128+S    the first failing rank was killed by signal S, or rrun itself\n"
    "           received signal S\n"
    "  1        a rank exited without calling MPI_Finalize, or rrun failed\n"
    "  C        a rank called MPI_Abort with code C (codes outside 0..255 are\n"
    "           taken modulo 256, and one that would become 0 exits 1)\n"
    "  124      the --timeout (or MPIEXEC_TIMEOUT) expired\n"
    "  127      the program cannot be found or executed (nothing started)\n"
    "  2        usage error (nothing started)\n";

static int usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* One line on stderr, with the pointer to --help. */
static int usage_error(const char *fmt, ...)
{
    va_list ap;

    fputs("rrun: ", stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputs(" (see 'rrun --help')\n", stderr);
    return RRUN_EXIT_USAGE;
}

/* Parse a whole decimal number in 1..RRUN_MAX_NP. */
static int parse_np(const char *s, int *np)
{
    char *end;
    long v;

    if (s == NULL || *s < '0' || *s > '9')
        return -1;
    errno = 0;
    v = strtol(s, &end, 10);
    if (errno != 0 || *end != '\0' || v < 1 || v > RRUN_MAX_NP)
        return -1;
    *np = (int)v;
    return 0;
}

static int parse_timeout(const char *s, double *t)
{
    char *end;
    double v;

    if (s == NULL || *s == '\0')
        return -1;
    errno = 0;
    v = strtod(s, &end);
    if (errno != 0 || *end != '\0' || !(v > 0) || v > 1e9)
        return -1;
    *t = v;
    return 0;
}

/* The longest name of a --pset: what fits in the MPI library's
 * MPI_MAX_PSET_NAME_LEN (256) with its terminating NUL. */
#define RRUN_MAX_PSET_NAME 255

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/* Parse --pset NAME=RANKS into *ps (the ranks sorted); 0, or the usage
 * error's status after printing it. Ranks below np are checked later
 * (rrun_psets_check): -np may come after --pset, or from the hosts. */
static int parse_pset(const char *spec, const struct rrun_options *opt, struct rrun_pset *ps)
{
    const char *eq = strchr(spec, '='), *s;
    size_t cap = 0;

    if (eq == NULL || eq == spec || eq[1] == '\0')
        return usage_error("--pset needs NAME=RANKS (ranks and ranges like 0-3,6), got '%s'", spec);
    if ((size_t)(eq - spec) > RRUN_MAX_PSET_NAME)
        return usage_error("--pset: the name '%.20s...' is longer than %d characters", spec,
                           RRUN_MAX_PSET_NAME);
    if (strncasecmp(spec, "mpi://", 6) == 0)
        return usage_error("--pset: the name '%.*s' may not start with 'mpi://' (the MPI library's own "
                           "process sets)", (int)(eq - spec), spec);
    if (memchr(spec, ',', (size_t)(eq - spec)) != NULL)
        return usage_error("--pset: the name '%.*s' may not contain ','", (int)(eq - spec), spec);
    /* (names are compared without regard to case, as the MPI library does) */
    for (int k = 0; k < opt->n_psets; k++)
        if (strlen(opt->psets[k].name) == (size_t)(eq - spec) &&
            strncasecmp(opt->psets[k].name, spec, (size_t)(eq - spec)) == 0)
            return usage_error("--pset: the process set '%.*s' is given twice", (int)(eq - spec), spec);
    ps->name = strndup(spec, (size_t)(eq - spec));
    if (ps->name == NULL) {
        perror("rrun");
        return RRUN_EXIT_INTERNAL;
    }
    ps->ranks = NULL;
    ps->n = 0;
    for (s = eq + 1;;) {
        const char *tok = s;
        long a, b;
        char *end;

        if (*s < '0' || *s > '9')
            goto bad;
        errno = 0;
        a = b = strtol(s, &end, 10);
        if (*end == '-') {
            s = end + 1;
            if (*s < '0' || *s > '9')
                goto bad;
            b = strtol(s, &end, 10);
        }
        if (errno != 0 || a >= RRUN_MAX_NP || b >= RRUN_MAX_NP)
            return usage_error("--pset %s: '%.*s' is too large (ranks are below %d)", ps->name,
                               (int)(end - tok), tok, RRUN_MAX_NP);
        if (b < a)
            return usage_error("--pset %s: the range %ld-%ld runs backwards", ps->name, a, b);
        if ((size_t)ps->n + (size_t)(b - a + 1) > cap) {
            size_t ncap = (size_t)ps->n + (size_t)(b - a + 1) + 16;
            int *r = realloc(ps->ranks, ncap * sizeof(*r));

            if (r == NULL) {
                perror("rrun");
                return RRUN_EXIT_INTERNAL;
            }
            ps->ranks = r;
            cap = ncap;
        }
        for (long r = a; r <= b; r++)
            ps->ranks[ps->n++] = (int)r;
        if (*end == '\0')
            break;
        if (*end != ',')
            goto bad;
        s = end + 1;
    }
    qsort(ps->ranks, (size_t)ps->n, sizeof(*ps->ranks), cmp_int);
    for (int k = 1; k < ps->n; k++)
        if (ps->ranks[k] == ps->ranks[k - 1])
            return usage_error("--pset %s: rank %d is given twice", ps->name, ps->ranks[k]);
    return 0;
bad:
    return usage_error("--pset %s: RANKS must be ranks and ranges like 0-3,6, got '%s'", ps->name, eq + 1);
}

int rrun_psets_check(const struct rrun_options *opt)
{
    for (int k = 0; k < opt->n_psets; k++) {
        const struct rrun_pset *ps = &opt->psets[k];

        if (ps->ranks[ps->n - 1] >= opt->np)
            return usage_error("--pset %s: rank %d is not in the job (ranks 0 to %d)", ps->name,
                               ps->ranks[ps->n - 1], opt->np - 1);
    }
    return 0;
}

/* A -x argument is NAME or NAME=value with a non-empty NAME. */
static int valid_env_spec(const char *s)
{
    return s != NULL && *s != '\0' && *s != '=';
}

/* If arg is the long option `name`, either alone or as name=value, set
 * *value (NULL when it came alone) and return 1. */
static int match_opt(const char *arg, const char *name, const char **value)
{
    size_t n = strlen(name);

    if (strncmp(arg, name, n) != 0)
        return 0;
    if (arg[n] == '\0') {
        *value = NULL;
        return 1;
    }
    if (arg[n] == '=') {
        *value = arg + n + 1;
        return 1;
    }
    return 0;
}

int rrun_parse_options(int argc, char **argv, struct rrun_options *opt)
{
    int i;
    bool have_np = false;

    memset(opt, 0, sizeof(*opt));
    opt->bind = RRUN_BIND_DEFAULT;
    opt->env_specs = calloc((size_t)argc, sizeof(*opt->env_specs));
    opt->psets = calloc((size_t)argc, sizeof(*opt->psets));
    if (opt->env_specs == NULL || opt->psets == NULL) {
        perror("rrun");
        return RRUN_EXIT_INTERNAL;
    }

    for (i = 1; i < argc; i++) {
        const char *arg = argv[i];
        const char *val = NULL;
        /* Options that take a value accept it as the next word or after '='. */
#define TAKE_VALUE(optname)                                                      \
    do {                                                                         \
        if (val == NULL) {                                                       \
            if (i + 1 >= argc)                                                   \
                return usage_error("option '%s' needs a value", optname);        \
            val = argv[++i];                                                     \
        }                                                                        \
    } while (0)

        if (arg[0] != '-' || arg[1] == '\0')
            break;                          /* the program */
        if (strcmp(arg, "--") == 0) {
            i++;
            break;
        }
        if (strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0) {
            fputs(usage_text, stdout);
            return -1;
        }
        if (strcmp(arg, "--version") == 0) {
            printf("rrun (%s) %s\n", PACKAGE_NAME, PACKAGE_VERSION);
            return -1;
        }
        if (match_opt(arg, "-np", &val) || match_opt(arg, "--np", &val) ||
            match_opt(arg, "-n", &val)) {
            TAKE_VALUE("-np");
            if (parse_np(val, &opt->np) != 0)
                return usage_error("-np needs a positive whole number, got '%s'", val);
            have_np = true;
        } else if (match_opt(arg, "--bind-to", &val) || match_opt(arg, "-bind-to", &val)) {
            TAKE_VALUE("--bind-to");
            if (strcmp(val, "core") == 0)
                opt->bind = RRUN_BIND_CORE;
            else if (strcmp(val, "none") == 0)
                opt->bind = RRUN_BIND_NONE;
            else
                return usage_error("--bind-to takes 'core' or 'none', got '%s'", val);
        } else if (strcmp(arg, "-x") == 0) {
            TAKE_VALUE("-x");
            if (!valid_env_spec(val))
                return usage_error("-x needs VAR or VAR=value, got '%s'", val);
            opt->env_specs[opt->n_env_specs++] = val;
        } else if (match_opt(arg, "--pset", &val)) {
            TAKE_VALUE("--pset");
            int st = parse_pset(val, opt, &opt->psets[opt->n_psets]);
            opt->n_psets++; /* (what it allocated, freed with the options) */
            if (st != 0)
                return st;
        } else if (match_opt(arg, "--tag-output", &val) && val == NULL) {
            opt->tag_output = true;
        } else if (match_opt(arg, "--timeout", &val)) {
            TAKE_VALUE("--timeout");
            if (parse_timeout(val, &opt->timeout) != 0)
                return usage_error("--timeout needs a positive number of seconds, got '%s'",
                                   val);
            opt->timeout_text = val;
            opt->timeout_from = "--timeout";
        } else if (match_opt(arg, "--host", &val) || match_opt(arg, "-host", &val) ||
                   match_opt(arg, "-H", &val)) {
            TAKE_VALUE("--host");
            opt->hosts = val;
        } else if (match_opt(arg, "--hostfile", &val) || match_opt(arg, "-hostfile", &val) ||
                   match_opt(arg, "--machinefile", &val)) {
            TAKE_VALUE("--hostfile");
            opt->hostfile = val;
        } else if (match_opt(arg, "--launch-agent", &val) || match_opt(arg, "-launch-agent", &val)) {
            TAKE_VALUE("--launch-agent");
            if (val[strspn(val, " \t")] == '\0')
                return usage_error("%s", "--launch-agent needs a command");
            opt->launch_agent = val;
        } else if (match_opt(arg, "--report-pending", &val) && i == 1) {
            /* Ask a running rrun what its ranks wait for: nothing else. */
            TAKE_VALUE("--report-pending");
            if (i + 1 != argc)
                return usage_error("%s", "--report-pending PID takes nothing else");
            opt->report_pending = val;
            return 0;
        } else if (match_opt(arg, "--daemon", &val) && val == NULL && i == 1 && argc == 2) {
            /* Started by a head: everything else comes over stdin. */
            opt->daemon = true;
            return 0;
        } else if (match_opt(arg, "--oversubscribe", &val) && val == NULL) {
            /* Always allowed: accepted so mpirun command lines work. */
        } else {
            return usage_error("unknown option '%s'", arg);
        }
#undef TAKE_VALUE
    }

    /* The limit mpiexec reads from the environment (Open MPI's and MPICH's
     * launchers), when --timeout is not given: the option wins. */
    const char *env = getenv("MPIEXEC_TIMEOUT");
    if (opt->timeout_from == NULL && env != NULL && *env != '\0') {
        double v;
        char *end;
        errno = 0;
        v = strtod(env, &end);
        if (errno != 0 || end == env || *end != '\0' || !(v >= 0) || v > 1e9)
            return usage_error("MPIEXEC_TIMEOUT needs a number of seconds (0: no limit), got '%s'", env);
        if (v > 0) {
            opt->timeout = v;
            opt->timeout_text = env;
            opt->timeout_from = "MPIEXEC_TIMEOUT";
        }
    }

    if (!have_np && opt->hosts == NULL && opt->hostfile == NULL)
        return usage_error("%s", "the number of processes is missing: give -np N");
    if (i >= argc)
        return usage_error("%s", "no program to run was given");
    opt->argv = &argv[i];
    /* (with hosts and no -np, the hosts give np: main.c checks then) */
    return have_np ? rrun_psets_check(opt) : 0;
}

void rrun_options_free(struct rrun_options *opt)
{
    free(opt->env_specs);
    opt->env_specs = NULL;
    for (int k = 0; k < opt->n_psets; k++) {
        free(opt->psets[k].name);
        free(opt->psets[k].ranks);
    }
    free(opt->psets);
    opt->psets = NULL;
    opt->n_psets = 0;
}

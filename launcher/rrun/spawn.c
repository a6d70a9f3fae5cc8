/* spawn.c - finding the program and starting one process per rank.
 *
 * Everything a child needs (path, argv, environment, CPU mask, fds) is
 * prepared in the parent: between fork and exec the child of this
 * multithreaded process (libpmix runs a thread) only makes async-signal-safe
 * system calls.
 *
 * Process groups: the ranks get a process group of their own, so rrun can
 * signal the whole job, helpers the ranks started included, without hitting
 * itself or the shell pipeline it runs in. Exception: when rrun's stdin is
 * the terminal and rrun is in its foreground group, the ranks stay in rrun's
 * group so rank 0 may read the terminal (a background group would be
 * stopped by SIGTTIN) and Ctrl-C reaches them as it reaches any program. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>
#ifdef HAVE_SYS_PRCTL_H
#include <sys/prctl.h>
#endif

#include "launcher/rrun/rrun.h"

extern char **environ;

/* ------------------------------------------------------ program lookup */

/* 0 if path is an executable regular file, else -1 with errno set. */
static int check_executable(const char *path)
{
    struct stat st;

    if (stat(path, &st) != 0)
        return -1;
    if (!S_ISREG(st.st_mode) || access(path, X_OK) != 0) {
        errno = EACCES;
        return -1;
    }
    return 0;
}

int rrun_check_capacity(int nranks, char *why, size_t n)
{
    long pid_max = 0;
    struct rlimit rl;
    FILE *f = fopen("/proc/sys/kernel/pid_max", "r");

    if (f != NULL) {
        if (fscanf(f, "%ld", &pid_max) != 1)
            pid_max = 0;
        fclose(f);
    }
    if (pid_max > 0 && nranks >= pid_max) {
        snprintf(why, n, "cannot start %d ranks on this host: it runs at most %ld processes "
                 "(kernel.pid_max)", nranks, pid_max - 1);
        return -1;
    }
    /* (root is not held to RLIMIT_NPROC) */
    if (geteuid() != 0 && getrlimit(RLIMIT_NPROC, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY &&
        (rlim_t)nranks >= rl.rlim_cur) {
        snprintf(why, n, "cannot start %d ranks on this host: this user may run at most %llu "
                 "processes (ulimit -u)", nranks, (unsigned long long)rl.rlim_cur);
        return -1;
    }
    return 0;
}

char *rrun_find_program(const char *prog)
{
    const char *path = getenv("PATH");
    const char *p;
    int saved = ENOENT;

    if (*prog == '\0') {
        errno = ENOENT;
        return NULL;
    }
    if (strchr(prog, '/') != NULL)
        return check_executable(prog) == 0 ? strdup(prog) : NULL;
    if (path == NULL)
        path = "/bin:/usr/bin"; /* execvp's default */
    for (p = path;; p++) {
        const char *end = strchrnul(p, ':');
        char *cand = NULL;
        int len = (int)(end - p);

        /* An empty PATH entry means the current directory. */
        if (asprintf(&cand, "%.*s%s%s", len, p, len > 0 ? "/" : "", prog) < 0)
            return NULL;
        if (check_executable(cand) == 0)
            return cand;
        if (errno == EACCES)
            saved = EACCES; /* found, but cannot run: say so, as execvp does */
        free(cand);
        p = end;
        if (*end == '\0')
            break;
    }
    errno = saved;
    return NULL;
}

/* --------------------------------------------------------- environment */

/* A malloc'd copy of environ with malloc'd strings, as
 * PMIx_server_setup_fork needs (it replaces and appends entries). */
static char **env_copy(void)
{
    size_t n = 0;
    char **env;

    while (environ[n] != NULL)
        n++;
    env = calloc(n + 1, sizeof(*env));
    if (env == NULL)
        return NULL;
    for (size_t i = 0; i < n; i++)
        if ((env[i] = strdup(environ[i])) == NULL) {
            rrun_env_free(env);
            return NULL;
        }
    return env;
}

/* Set "name=value" (entry given whole) in *envp, replacing a previous one. */
static int env_put(char ***envp, const char *entry)
{
    size_t namelen = strcspn(entry, "=");
    char **env = *envp, *copy = strdup(entry);
    size_t n;

    if (copy == NULL)
        return -1;
    for (n = 0; env[n] != NULL; n++)
        if (strncmp(env[n], entry, namelen) == 0 && env[n][namelen] == '=') {
            free(env[n]);
            env[n] = copy;
            return 0;
        }
    env = realloc(env, (n + 2) * sizeof(*env));
    if (env == NULL) {
        free(copy);
        return -1;
    }
    env[n] = copy;
    env[n + 1] = NULL;
    *envp = env;
    return 0;
}

/* -x VAR=val sets VAR; -x VAR copies rrun's value (nothing if unset). */
static int apply_env_spec(char ***envp, const char *spec)
{
    const char *value;
    char *entry;
    int rc;

    if (strchr(spec, '=') != NULL)
        return env_put(envp, spec);
    value = getenv(spec);
    if (value == NULL)
        return 0;
    if (asprintf(&entry, "%s=%s", spec, value) < 0)
        return -1;
    rc = env_put(envp, entry);
    free(entry);
    return rc;
}

int rrun_spawn_prepare_env(struct rrun_job *job)
{
    const struct rrun_options *opt = job->opt;

    for (int i = 0; i < job->np; i++) {
        struct rrun_rank *r = &job->ranks[i];

        r->env = env_copy();
        if (r->env == NULL)
            goto nomem;
        for (int k = 0; k < opt->n_env_specs; k++)
            if (apply_env_spec(&r->env, opt->env_specs[k]) != 0)
                goto nomem;
        /* The runtime makes its waits yield the core when ranks share cores. */
        if (job->oversubscribed && env_put(&r->env, "RDMPI_OVERSUBSCRIBED=1") != 0)
            goto nomem;
        /* Where the rank answers rrun's questions (report.c). */
        char *rep = rrun_report_env(i);
        if (rep != NULL) {
            int rc = env_put(&r->env, rep);
            free(rep);
            if (rc != 0)
                goto nomem;
        }
        /* Last, so the PMIx variables cannot be overridden by -x. */
        if (rrun_server_setup_fork(job, i, &r->env) != 0)
            return -1;
    }
    return 0;
nomem:
    fprintf(stderr, "rrun: out of memory while building the environment\n");
    return -1;
}

/* ---------------------------------------------------------------- spawn */

/* Write to the child's stderr (async-signal-safe). */
static void child_say(const char *s)
{
    ssize_t w = write(2, s, strlen(s));

    (void)w;
}

static void child_say_int(int v)
{
    char buf[16];
    int n = (int)sizeof(buf);

    buf[--n] = '\0';
    do
        buf[--n] = (char)('0' + v % 10);
    while ((v /= 10) > 0 && n > 0);
    child_say(&buf[n]);
}

/* Runs in the child: async-signal-safe calls only. Never returns. */
static void exec_rank(const struct rrun_job *job, const struct rrun_rank *r, int stdin_fd,
                      int out_fd, int err_fd, pid_t pgid, pid_t parent,
                      const sigset_t *child_mask)
{
    const char *why;
    int err;

    if (pgid >= 0)
        setpgid(0, pgid);
#ifdef HAVE_SYS_PRCTL_H
    /* No rank outlives rrun; if rrun died before prctl took effect, stop. */
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent)
        _exit(RRUN_EXIT_NOEXEC);
#endif
    signal(SIGPIPE, SIG_DFL);
    sigprocmask(SIG_SETMASK, child_mask, NULL);
    if ((stdin_fd != 0 && dup2(stdin_fd, 0) < 0) || dup2(out_fd, 1) < 0 || dup2(err_fd, 2) < 0)
        _exit(RRUN_EXIT_NOEXEC);
    if (r->cpuset != NULL && sched_setaffinity(0, r->cpuset_size, r->cpuset) != 0) {
        why = " cannot bind to its core: ";
        goto fail;
    }
    execve(job->exe_path, job->opt->argv, r->env);
    why = " cannot run the program: ";
fail:
    err = errno;
    child_say("rrun: rank ");
    child_say_int(r->rank);
    child_say(why);
    child_say(strerror(err));
    child_say("\n");
    _exit(RRUN_EXIT_NOEXEC);
}

/* Should the ranks share rrun's process group (see the top of the file)? */
static bool share_terminal_group(void)
{
    pid_t fg = tcgetpgrp(0);

    return fg > 0 && fg == getpgrp();
}

int rrun_spawn_all(struct rrun_job *job, const sigset_t *child_mask)
{
    pid_t parent = getpid();
    pid_t pgid = share_terminal_group() ? -1 : 0; /* -1: keep rrun's; 0: new */
    int devnull = open("/dev/null", O_RDONLY | O_CLOEXEC);
    int rc = -1;

    if (devnull < 0) {
        perror("rrun: /dev/null");
        return -1;
    }
    for (int i = 0; i < job->np; i++) {
        struct rrun_rank *r = &job->ranks[i];
        int out[2], err[2];
        pid_t pid;

        if (pipe2(out, O_CLOEXEC) != 0)
            goto fail_errno;
        if (pipe2(err, O_CLOEXEC) != 0) {
            close(out[0]);
            close(out[1]);
            goto fail_errno;
        }
        /* Rank 0 reads rrun's stdin: directly on one host, through the
         * head's channel (a pipe fed by the daemon) across hosts. */
        int in[2] = {-1, -1}, stdin_fd = devnull;
        if (r->rank == 0 && job->mode == RRUN_SOLO)
            stdin_fd = 0;
        if (r->rank == 0 && job->mode == RRUN_DAEMON && pipe2(in, O_CLOEXEC) == 0)
            stdin_fd = in[0];
        pid = fork();
        if (pid == 0)
            exec_rank(job, r, stdin_fd, out[1], err[1], pgid, parent, child_mask);
        close(out[1]);
        close(err[1]);
        if (in[0] >= 0) {
            close(in[0]);
            if (pid > 0) {
                job->stdin_wr = in[1];
                fcntl(in[1], F_SETFL, O_NONBLOCK);
            } else {
                close(in[1]);
            }
        }
        if (pid < 0) {
            close(out[0]);
            close(err[0]);
            goto fail_errno;
        }
        /* Also in the parent, so the group exists before we signal it. */
        if (pgid >= 0) {
            setpgid(pid, pgid);
            if (pgid == 0)
                pgid = pid;
        }
        r->pid = pid;
        r->out_fd = out[0];
        r->err_fd = err[0];
        fcntl(r->out_fd, F_SETFL, O_NONBLOCK);
        fcntl(r->err_fd, F_SETFL, O_NONBLOCK);
    }
    rc = 0;
    goto out;
fail_errno:
    fprintf(stderr, "rrun: cannot start all %d ranks: %s\n", job->np, strerror(errno));
out:
    job->pgid = pgid > 0 ? pgid : 0;
    close(devnull);
    return rc;
}

void rrun_signal_ranks(struct rrun_job *job, int sig)
{
    bool any = false;

    for (int i = 0; i < job->np; i++) {
        struct rrun_rank *r = &job->ranks[i];

        if (r->pid > 0 && !r->reaped) {
            kill(r->pid, sig);
            any = true;
        }
    }
    /* The group too: whatever the ranks started goes with them. */
    if (any && job->pgid > 0)
        kill(-job->pgid, sig);
}

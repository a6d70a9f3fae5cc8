/* daemon.c - `rrun --daemon`: one host of a job that spans several.
 *
 * Started by the head (head.c) through the launch agent, with the channel
 * on stdin (from the head) and stdout (to the head). It reads the job from
 * the first frame, then does what rrun does on one host — binding plan,
 * private session directory, PMIx server for its ranks, spawn, supervise,
 * clean up — except that it decides nothing about the job's end: it
 * reports output, starts, exits and aborts to the head and sends the
 * signals the head asks for. If the head goes away, it kills its ranks.
 * Its own stdout becomes its stderr, so nothing it prints can corrupt the
 * channel. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#ifdef HAVE_SYS_PRCTL_H
#include <sys/prctl.h>
#endif

#include "launcher/rrun/rrun.h"
#include "runtime/base/params.h"

/* A frame to the head (main thread only). */
static void send_head(struct rrun_job *job, uint32_t type, const struct rrun_buf *payload)
{
    /* A failed write means the head is gone; reading fd 0 will say so. */
    if (job->to_head >= 0 && rrun_chan_send(job->to_head, type, payload) != 0) {
        close(job->to_head);
        job->to_head = -1;
    }
}

/* Hand the head the pending fence contribution, if any. */
static void fence_out(struct rrun_job *job)
{
    struct rrun_buf copy = {0};
    bool send = false;

    pthread_mutex_lock(&job->lock);
    if (job->fence_pending && !job->fence_sent) {
        job->fence_sent = true;
        send = true;
        rrun_buf_raw(&copy, job->fence_data.data, job->fence_data.len); /* already bytes() */
    }
    pthread_mutex_unlock(&job->lock);
    if (send)
        send_head(job, RRUN_MSG_FENCE, &copy);
    rrun_buf_free(&copy);
}

/* Write what is queued for rank 0's stdin; ask for more when it is all
 * taken. */
static void feed_stdin(struct rrun_job *job)
{
    if (job->stdin_wr < 0)
        return;
    if (rrun_chan_flush(&job->stdin_q, job->stdin_wr) != 0) {
        /* Rank 0 closed its stdin or exited: the rest is not wanted. */
        job->stdin_q.len = job->stdin_q.pos = 0;
        job->stdin_eof = true;
    }
    if (job->stdin_q.len > job->stdin_q.pos)
        return; /* the pipe is full: the main loop waits until it is not */
    if (job->stdin_eof) {
        close(job->stdin_wr);
        job->stdin_wr = -1;
        return;
    }
    send_head(job, RRUN_MSG_STDIN_MORE, NULL);
}

/* The head sent something / went away; returns 1 when it is gone. */
static int read_head(struct rrun_job *job)
{
    struct rrun_buf p = {0};
    uint32_t type;
    int eof = rrun_chan_fill(&job->from_head, 0), got;

    while ((got = rrun_chan_next(&job->from_head, &type, &p)) == 1) {
        if (type == RRUN_MSG_SIGNAL) {
            uint32_t sig = rrun_buf_get_u32(&p);

            if (!p.bad && sig > 0 && sig < 65)
                rrun_signal_ranks(job, (int)sig);
        } else if (type == RRUN_MSG_STDIN) {
            size_t n;
            const char *data = rrun_buf_get_bytes(&p, &n);

            if (p.bad)
                continue;
            if (n == 0)
                job->stdin_eof = true;
            else if (job->stdin_wr >= 0)
                rrun_buf_raw(&job->stdin_q, data, n);
            feed_stdin(job);
        } else if (type == RRUN_MSG_FENCE_DONE) {
            size_t n;
            const char *data = rrun_buf_get_bytes(&p, &n);

            if (!p.bad)
                rrun_server_fence_done(job, data, n);
        } else if (type == RRUN_MSG_REPORT_ASK) {
            rrun_report_ask(job, RRUN_REPORT_ASKED);
        }
    }
    rrun_buf_free(&p);
    return eof || got < 0;
}

static void fail(struct rrun_job *job, int status, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Tell the head why this host cannot run its ranks. */
static void fail(struct rrun_job *job, int status, const char *fmt, ...)
{
    struct rrun_buf b = {0};
    char text[600];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(text, sizeof(text), fmt, ap);
    va_end(ap);
    rrun_buf_u32(&b, (uint32_t)status);
    rrun_buf_str(&b, text);
    send_head(job, RRUN_MSG_FAIL, &b);
    rrun_buf_free(&b);
}

/* The first frame: the job. Fills opt (pointing into strings it
 * allocates, freed with *strings) and the hosts. */
static int read_job(struct rrun_chan_in *in, struct rrun_options *opt, struct rrun_host **hostsp,
                    int *nhostsp, int *my_host, char **nspace, char ***strings, int *nstrings)
{
    struct rrun_buf p = {0};
    uint32_t type = 0, size, nhosts, argc, nenv;
    int got, n = 0;
    char **keep;
    struct rrun_host *hosts;

    while ((got = rrun_chan_next(in, &type, &p)) == 0) {
        struct pollfd pf = {.fd = 0, .events = POLLIN};

        if (poll(&pf, 1, -1) < 0 && errno != EINTR)
            break;
        if (rrun_chan_fill(in, 0) && (got = rrun_chan_next(in, &type, &p)) != 1)
            break;
        if (got == 1)
            break;
    }
    if (got != 1 || type != RRUN_MSG_JOB) {
        rrun_buf_free(&p);
        return -1;
    }
    *nspace = rrun_buf_get_str(&p);
    size = rrun_buf_get_u32(&p);
    *my_host = (int)rrun_buf_get_u32(&p);
    nhosts = rrun_buf_get_u32(&p);
    if (p.bad || nhosts == 0 || nhosts > 100000 || *my_host < 0 || *my_host >= (int)nhosts) {
        rrun_buf_free(&p);
        return -1;
    }
    hosts = calloc(nhosts, sizeof(*hosts));
    if (hosts == NULL)
        return -1;
    for (uint32_t h = 0; h < nhosts; h++) {
        hosts[h].name = rrun_buf_get_str(&p);
        hosts[h].first_rank = (int)rrun_buf_get_u32(&p);
        hosts[h].nranks = (int)rrun_buf_get_u32(&p);
        hosts[h].slots = hosts[h].nranks;
        hosts[h].to_fd = hosts[h].from_fd = -1;
    }
    *hostsp = hosts;
    *nhostsp = (int)nhosts;
    opt->bind = (enum rrun_bind)rrun_buf_get_u32(&p);
    char *cwd = rrun_buf_get_str(&p);
    argc = rrun_buf_get_u32(&p);
    if (p.bad || argc == 0 || argc > 100000) {
        free(cwd);
        rrun_buf_free(&p);
        return -1;
    }
    keep = calloc((size_t)argc + 1 + 1, sizeof(char *));
    opt->argv = calloc((size_t)argc + 1, sizeof(char *));
    if (keep == NULL || opt->argv == NULL) {
        free(cwd);
        free(keep);
        rrun_buf_free(&p);
        return -1;
    }
    keep[n++] = cwd;
    for (uint32_t i = 0; i < argc; i++)
        opt->argv[i] = keep[n++] = rrun_buf_get_str(&p);
    nenv = rrun_buf_get_u32(&p);
    if (!p.bad && nenv < 100000) {
        char **k2 = realloc(keep, sizeof(char *) * ((size_t)n + nenv + 1));

        opt->env_specs = calloc((size_t)nenv + 1, sizeof(char *));
        if (k2 != NULL)
            keep = k2;
        for (uint32_t i = 0; k2 != NULL && opt->env_specs != NULL && i < nenv; i++)
            opt->env_specs[opt->n_env_specs++] = keep[n++] = rrun_buf_get_str(&p);
    }
    *strings = keep;
    *nstrings = n;
    /* the --pset sets (each name, its count, its ranks: ascending, each
     * below the job's size) */
    uint32_t npsets = rrun_buf_get_u32(&p);
    if (p.bad || npsets > 100000 || (npsets > 0 && (opt->psets = calloc(npsets, sizeof(*opt->psets))) == NULL)) {
        rrun_buf_free(&p);
        return -1;
    }
    for (uint32_t k = 0; k < npsets; k++) {
        struct rrun_pset *ps = &opt->psets[opt->n_psets++];
        uint32_t np = 0;

        ps->name = rrun_buf_get_str(&p);
        np = rrun_buf_get_u32(&p);
        if (p.bad || ps->name == NULL || np == 0 || np > size || (ps->ranks = calloc(np, sizeof(int))) == NULL) {
            rrun_buf_free(&p);
            return -1;
        }
        for (uint32_t i = 0; i < np; i++) {
            uint32_t r = rrun_buf_get_u32(&p);

            if (p.bad || r >= size || (i > 0 && (int)r <= ps->ranks[i - 1])) {
                rrun_buf_free(&p);
                return -1;
            }
            ps->ranks[ps->n++] = (int)r;
        }
    }
    rrun_buf_free(&p);
    if (chdir(cwd) != 0)
        fprintf(stderr, "rrun daemon: cannot change to '%s': %s; staying in %s\n", cwd,
                strerror(errno), getenv("HOME") ? getenv("HOME") : "/");
    return 0;
}

/* What the job's end, the report and the main loop ask of a daemon. */
static const struct rrun_mode_ops daemon_ops = {
    .signal = rrun_signal_ranks,
    .send_head = send_head,
    .read_head = read_head,
    .feed_stdin = feed_stdin,
    .fence_out = fence_out,
};

int rrun_daemon_main(void)
{
    struct rrun_options opt;
    struct rrun_job job;
    struct rrun_chan_in in = {0};
    struct rrun_buf done = {0};
    struct rrun_host *hosts = NULL;
    char *nspace = NULL, **strings = NULL, *exe = NULL;
    int nhosts = 0, my_host = -1, nstrings = 0, sig_fd = -1, status = RRUN_EXIT_INTERNAL;
    int to_head;
    sigset_t child_mask;

    memset(&opt, 0, sizeof(opt));
    memset(&job, 0, sizeof(job));
#ifdef HAVE_SYS_PRCTL_H
    /* The head set SIGKILL-on-parent-death for its agent, and an agent that
     * execs us (nsenter, a script) passes it on: a lost head must instead
     * show up as the end of the channel, so the ranks are ended and this
     * host cleaned up. */
    prctl(PR_SET_PDEATHSIG, 0);
#endif
    job.to_head = -1;
    /* The channel: in on fd 0, out on a private copy of fd 1; fd 1 itself
     * becomes stderr. */
    to_head = fcntl(1, F_DUPFD_CLOEXEC, 3);
    if (to_head < 0 || dup2(2, 1) < 0) {
        perror("rrun daemon");
        return RRUN_EXIT_INTERNAL;
    }
    fcntl(0, F_SETFD, FD_CLOEXEC);
    fcntl(0, F_SETFL, O_NONBLOCK);
    if (read_job(&in, &opt, &hosts, &nhosts, &my_host, &nspace, &strings, &nstrings) != 0) {
        fprintf(stderr, "rrun daemon: no job from the head\n");
        close(to_head);
        rrun_chan_in_free(&in);
        goto out_strings;
    }
    char perr[256];
    if (rd_params_load(perr, sizeof(perr)) < 0)
        fprintf(stderr, "rrun daemon on %s: %s\n", hosts[my_host].name, perr);
    if (rrun_job_init(&job, &opt, RRUN_DAEMON, &daemon_ops, hosts, nhosts, my_host, nspace) != 0) {
        perror("rrun daemon");
        close(to_head);
        rrun_chan_in_free(&in);
        rrun_job_fini(&job);
        goto out_strings;
    }
    job.to_head = to_head;
    job.from_head = in; /* what arrived after the job frame stays queued */

    exe = rrun_find_program(opt.argv[0]);
    if (exe == NULL) {
        fail(&job, RRUN_EXIT_NOEXEC, "cannot run '%s': %s", opt.argv[0], strerror(errno));
        goto out;
    }
    char why[256];
    if (rrun_check_capacity(job.np, why, sizeof(why)) != 0) {
        fail(&job, RRUN_EXIT_USAGE, "%s", why);
        goto out;
    }
    job.exe_path = exe;
    sig_fd = rrun_signals_setup(&child_mask);
    if (sig_fd < 0 || rrun_binding_plan(&job, opt.bind) != 0) {
        fail(&job, RRUN_EXIT_INTERNAL, "cannot set up signals or binding");
        goto out;
    }
    job.session_dir = rrun_session_create();
    if (job.session_dir != NULL)
        rrun_crash_guard(&job);
    if (job.session_dir == NULL || rrun_report_setup(&job) != 0 || rrun_server_start(&job) != 0 ||
        rrun_spawn_prepare_env(&job) != 0) {
        fail(&job, RRUN_EXIT_INTERNAL, "cannot set up the PMIx server for its ranks");
        goto out;
    }
    if (rrun_spawn_all(&job, &child_mask) != 0) {
        fail(&job, RRUN_EXIT_INTERNAL, "cannot start all %d of its ranks", job.np);
        rrun_signal_ranks(&job, SIGKILL);
    }
    for (int i = 0; i < job.np; i++) {
        struct rrun_buf b = {0};

        if (job.ranks[i].pid <= 0)
            continue;
        rrun_buf_u32(&b, (uint32_t)job.ranks[i].rank);
        rrun_buf_u32(&b, (uint32_t)job.ranks[i].pid);
        send_head(&job, RRUN_MSG_STARTED, &b);
        rrun_buf_free(&b);
    }
    feed_stdin(&job); /* ask the head for rank 0's first input */
    rrun_supervise(&job, sig_fd);
    status = 0;
out:
    /* the last word, once every rank is reaped and everything is cleaned
     * up: made here, written by the teardown (which allocates nothing) */
    rrun_chan_frame(&done, RRUN_MSG_DONE, NULL);
    rrun_teardown(&job, status, done.bad ? -1 : job.to_head, &done);
out_strings:
    for (int i = 0; i < nstrings; i++)
        free(strings[i]);
    free(strings);
    free(opt.argv);
    rrun_options_free(&opt); /* (the -x specs and the process sets) */
    free(nspace);
    return status;
}

/* head.c - rrun over several hosts: start a daemon per host, coordinate.
 *
 * The head runs no rank and no PMIx server of its own. For every host that
 * has ranks it starts `rrun --daemon`: forked directly for this machine,
 * else as `AGENT HOST /path/to/rrun --daemon` (AGENT: --launch-agent, ssh
 * by default; the same path to rrun on every host, as with other MPIs'
 * launchers). The daemon's stdin and stdout are the channel (chan.c), so
 * the head needs no address that every host can reach: whatever the agent
 * can reach works. The first frame tells the daemon the whole job.
 *
 * Then one poll() loop, on this thread only: frames from the daemons
 * (output, starts, exits, aborts, fence contributions), rrun's own signals
 * and the deadlines. The same failure policy as on one host: the first
 * failure ends the job (SIGNAL frames: SIGTERM, then SIGKILL after the
 * grace time); a daemon that goes away before its ranks ended, or that
 * cannot start them, ends it too. A daemon whose head goes away (the
 * agent's pipe closes) kills its ranks, so nothing outlives a lost head.
 *
 * Fences: each daemon's libpmix hands over its host's contribution; when
 * every host has contributed, the head sends the concatenation (in host
 * order) back to all of them, which is the all-gather libpmix asks of its
 * host servers. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#ifdef HAVE_SYS_PRCTL_H
#include <sys/prctl.h>
#endif

#include "launcher/rrun/rrun.h"

extern char **environ;

/* After the SIGKILL frames, how long daemons get to report before the
 * head kills the agents themselves. */
#define RRUN_DAEMON_GRACE_MS 3000

/* ------------------------------------------------------------ the job */

/* What a daemon's ranks get in their environment from the head: the -x
 * variables (resolved here, so `-x VAR` means the head's value) and the
 * head's RDMPI_* parameters. */
static void put_env(struct rrun_buf *b, const struct rrun_options *opt, uint32_t *count)
{
    for (int i = 0; i < opt->n_env_specs; i++) {
        const char *spec = opt->env_specs[i];

        if (strchr(spec, '=') != NULL) {
            rrun_buf_str(b, spec);
            (*count)++;
        } else if (getenv(spec) != NULL) {
            char *entry;

            if (asprintf(&entry, "%s=%s", spec, getenv(spec)) < 0) {
                b->bad = true;
                return;
            }
            rrun_buf_str(b, entry);
            free(entry);
            (*count)++;
        }
    }
    for (char **e = environ; *e != NULL; e++)
        if (strncmp(*e, "RDMPI_", 6) == 0) {
            rrun_buf_str(b, *e);
            (*count)++;
        }
}

static void queue_job(struct rrun_job *job, int h)
{
    const struct rrun_options *opt = job->opt;
    struct rrun_buf b = {0}, env = {0};
    char cwd[4096];
    uint32_t nenv = 0;
    int argc = 0;

    if (getcwd(cwd, sizeof(cwd)) == NULL)
        snprintf(cwd, sizeof(cwd), "/");
    rrun_buf_str(&b, job->nspace);
    rrun_buf_u32(&b, (uint32_t)job->size);
    rrun_buf_u32(&b, (uint32_t)h);
    rrun_buf_u32(&b, (uint32_t)job->nhosts);
    for (int i = 0; i < job->nhosts; i++) {
        rrun_buf_str(&b, job->hosts[i].name);
        rrun_buf_u32(&b, (uint32_t)job->hosts[i].first_rank);
        rrun_buf_u32(&b, (uint32_t)job->hosts[i].nranks);
    }
    rrun_buf_u32(&b, (uint32_t)opt->bind);
    rrun_buf_str(&b, cwd);
    while (opt->argv[argc] != NULL)
        argc++;
    rrun_buf_u32(&b, (uint32_t)argc);
    for (int i = 0; i < argc; i++)
        rrun_buf_str(&b, opt->argv[i]);
    put_env(&env, opt, &nenv);
    rrun_buf_u32(&b, nenv);
    rrun_buf_raw(&b, env.data, env.len); /* entries already encoded */
    if (env.bad)
        b.bad = true;
    /* the --pset sets: every daemon defines them all (server.c) */
    rrun_buf_u32(&b, (uint32_t)opt->n_psets);
    for (int k = 0; k < opt->n_psets; k++) {
        rrun_buf_str(&b, opt->psets[k].name);
        rrun_buf_u32(&b, (uint32_t)opt->psets[k].n);
        for (int i = 0; i < opt->psets[k].n; i++)
            rrun_buf_u32(&b, (uint32_t)opt->psets[k].ranks[i]);
    }
    rrun_chan_frame(&job->hosts[h].out, RRUN_MSG_JOB, &b);
    rrun_buf_free(&env);
    rrun_buf_free(&b);
}

/* ------------------------------------------------------------ daemons */

/* Split the launch agent command on blanks. */
static char **agent_argv(const char *agent, const char *host, const char *self)
{
    char *copy = strdup(agent), *save = NULL;
    size_t n = 0;
    char **av = calloc(strlen(agent) / 2 + 5, sizeof(char *));

    if (copy == NULL || av == NULL) {
        free(copy);
        free(av);
        return NULL;
    }
    for (char *w = strtok_r(copy, " \t", &save); w != NULL; w = strtok_r(NULL, " \t", &save))
        av[n++] = w; /* points into copy, which av[0] owns */
    av[n++] = (char *)host;
    av[n++] = (char *)self;
    av[n++] = "--daemon";
    av[n] = NULL;
    return av;
}

static int start_daemon(struct rrun_job *job, int h, const char *self, const sigset_t *child_mask)
{
    struct rrun_host *host = &job->hosts[h];
    const char *agent = job->opt->launch_agent ? job->opt->launch_agent : "ssh";
    char *local_av[] = {(char *)self, "--daemon", NULL};
    char **av = host->local ? local_av : agent_argv(agent, host->name, self);
    int to[2] = {-1, -1}, from[2] = {-1, -1};
    pid_t parent = getpid(), pid;

    if (av == NULL || pipe2(to, O_CLOEXEC) != 0 || pipe2(from, O_CLOEXEC) != 0) {
        fprintf(stderr, "rrun: cannot start the daemon for host %s: %s\n", host->name,
                strerror(errno));
        goto fail;
    }
    pid = fork();
    if (pid == 0) {
        /* Its own group: the terminal's Ctrl-C reaches rrun, which decides. */
        setpgid(0, 0);
#ifdef HAVE_SYS_PRCTL_H
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (getppid() != parent)
            _exit(RRUN_EXIT_NOEXEC);
#endif
        sigprocmask(SIG_SETMASK, child_mask, NULL);
        if (dup2(to[0], 0) < 0 || dup2(from[1], 1) < 0)
            _exit(RRUN_EXIT_NOEXEC);
        execvp(av[0], av);
        {
            const char *m = "rrun: cannot run the launch agent: ";
            ssize_t w = write(2, m, strlen(m));

            w = write(2, av[0], strlen(av[0]));
            w = write(2, "\n", 1);
            (void)w;
        }
        _exit(RRUN_EXIT_NOEXEC);
    }
    if (pid < 0) {
        fprintf(stderr, "rrun: cannot start the daemon for host %s: %s\n", host->name,
                strerror(errno));
        goto fail;
    }
    close(to[0]);
    close(from[1]);
    host->pid = pid;
    host->to_fd = to[1];
    host->from_fd = from[0];
    fcntl(host->to_fd, F_SETFL, O_NONBLOCK);
    fcntl(host->from_fd, F_SETFL, O_NONBLOCK);
    if (av != local_av) {
        free(av[0]);
        free(av);
    }
    queue_job(job, h);
    return 0;
fail:
    for (int i = 0; i < 2; i++) {
        if (to[i] >= 0)
            close(to[i]);
        if (from[i] >= 0)
            close(from[i]);
    }
    if (av != NULL && av != local_av) {
        free(av[0]);
        free(av);
    }
    return -1;
}

/* Ask every daemon for its ranks' report (report.c); how many were asked. */
static int report_ask(struct rrun_job *job)
{
    int asked = 0;

    for (int h = 0; h < job->nhosts; h++) {
        struct rrun_host *host = &job->hosts[h];

        if (host->to_fd < 0 || host->done)
            continue;
        rrun_chan_frame(&host->out, RRUN_MSG_REPORT_ASK, NULL);
        if (rrun_chan_flush(&host->out, host->to_fd) != 0) {
            close(host->to_fd);
            host->to_fd = -1;
            continue;
        }
        asked++;
    }
    return asked;
}

/* Tell every daemon to send sig to its ranks. */
static void head_signal(struct rrun_job *job, int sig)
{
    struct rrun_buf b = {0};

    rrun_buf_u32(&b, (uint32_t)sig);
    for (int h = 0; h < job->nhosts; h++) {
        struct rrun_host *host = &job->hosts[h];

        if (host->to_fd < 0 || host->done)
            continue;
        rrun_chan_frame(&host->out, RRUN_MSG_SIGNAL, &b);
        if (rrun_chan_flush(&host->out, host->to_fd) != 0) {
            close(host->to_fd);
            host->to_fd = -1;
        }
    }
    rrun_buf_free(&b);
}

/* A host's daemon failed or went away: end the job, naming it. */
static void host_failed(struct rrun_job *job, int h, const char *text, int status)
{
    if (job->cause == RRUN_END_NONE) {
        job->cause_host = h;
        snprintf(job->cause_text, sizeof(job->cause_text), "%s", text);
    }
    rrun_job_end(job, RRUN_END_DAEMON, -1, status);
}

/* Every host still in the job has contributed: answer them all. */
static void fence_check(struct rrun_job *job)
{
    struct rrun_buf all = {0}, b = {0};

    for (int h = 0; h < job->nhosts; h++)
        if (!job->hosts[h].lost && !job->hosts[h].fence_in)
            return;
    for (int h = 0; h < job->nhosts; h++) {
        struct rrun_host *host = &job->hosts[h];

        rrun_buf_raw(&all, host->fence.data, host->fence.len);
        host->fence.len = 0;
        host->fence_in = false;
    }
    rrun_buf_bytes(&b, all.data, all.len);
    for (int h = 0; h < job->nhosts; h++) {
        struct rrun_host *host = &job->hosts[h];

        if (host->to_fd < 0)
            continue;
        rrun_chan_frame(&host->out, RRUN_MSG_FENCE_DONE, &b);
    }
    if (all.bad || b.bad)
        host_failed(job, 0, "out of memory while gathering the fence data", 1);
    rrun_buf_free(&all);
    rrun_buf_free(&b);
}

/* An abort reported by a daemon becomes the cause once its wait is over,
 * unless a failure reported meanwhile already is (force: decide now). */
static void abort_decide(struct rrun_job *job, bool force)
{
    if (!job->abort_called || job->abort_decided || (!force && rrun_now_ms() < job->abort_wait_until))
        return;
    job->abort_decided = true;
    job->abort_wait_until = 0;
    rrun_job_end(job, RRUN_END_ABORT, job->abort_rank, job->abort_code);
    /* the exits of the ranks that aborted, held back until now */
    for (int i = 0; i < job->np; i++) {
        struct rrun_rank *r = &job->ranks[i];

        if (r->held) {
            r->held = false;
            rrun_rank_ended(job, r, r->wait_status, false);
        }
    }
}

static void handle_frame(struct rrun_job *job, int h, uint32_t type, struct rrun_buf *p)
{
    struct rrun_host *host = &job->hosts[h];
    struct rrun_rank *r;
    uint32_t rank, a, c;
    const char *bytes;
    size_t n;

    switch (type) {
    case RRUN_MSG_STARTED:
        rank = rrun_buf_get_u32(p);
        a = rrun_buf_get_u32(p);
        if (!p->bad && (r = rrun_rank_of(job, (int)rank)) != NULL && r->host == h)
            r->pid = (pid_t)a;
        return;
    case RRUN_MSG_OUT:
        rank = rrun_buf_get_u32(p);
        a = rrun_buf_get_u32(p);
        bytes = rrun_buf_get_bytes(p, &n);
        if (!p->bad && (r = rrun_rank_of(job, (int)rank)) != NULL && r->host == h)
            rrun_iof_push(a == 2 ? &r->err_buf : &r->out_buf, a == 2 ? 2 : 1, r->rank,
                          job->opt->tag_output, bytes, n);
        return;
    case RRUN_MSG_EXITED:
        rank = rrun_buf_get_u32(p);
        a = rrun_buf_get_u32(p);
        c = rrun_buf_get_u32(p);
        if (!p->bad && (r = rrun_rank_of(job, (int)rank)) != NULL && r->host == h && !r->reaped) {
            host->exited++;
            if (r->aborted && !job->abort_decided) {
                /* an aborting rank's exit follows its abort (abort_decide):
                 * the first abort is the cause, not this exit */
                r->reaped = true;
                r->held = true;
                r->wait_status = (int)a;
                return;
            }
            rrun_rank_ended(job, r, (int)a, c != 0);
        }
        return;
    case RRUN_MSG_ABORT:
        rank = rrun_buf_get_u32(p);
        a = rrun_buf_get_u32(p);
        bytes = rrun_buf_get_bytes(p, &n);
        if (p->bad || (r = rrun_rank_of(job, (int)rank)) == NULL || r->host != h)
            return;
        /* Every abort comes, before its rank's exit; the first is the
         * cause (the others' exits then change nothing). */
        r->aborted = true;
        if (job->abort_called)
            return;
        /* The first cause is the one reported: a rank that lost a peer on
         * another host aborts, and that host's report of the death may
         * come a little later. Any failure reported within
         * RRUN_HEAD_ABORT_WAIT_MS goes first (abort_decide). */
        job->abort_called = true;
        job->abort_rank = (int)rank;
        job->abort_code = (int)a;
        snprintf(job->abort_msg, sizeof(job->abort_msg), "%.*s", (int)n, bytes);
        job->abort_wait_until = rrun_now_ms() + RRUN_HEAD_ABORT_WAIT_MS;
        return;
    case RRUN_MSG_REPORT:
        rrun_report_add(job, p);
        return;
    case RRUN_MSG_FENCE:
        bytes = rrun_buf_get_bytes(p, &n);
        if (p->bad || host->fence_in)
            break;
        host->fence.len = 0;
        rrun_buf_raw(&host->fence, bytes, n);
        if (host->fence.bad)
            host_failed(job, h, "out of memory while gathering the fence data", 1);
        host->fence_in = true;
        fence_check(job);
        return;
    case RRUN_MSG_FAIL: {
        char *text;

        a = rrun_buf_get_u32(p);
        text = rrun_buf_get_str(p);
        host->failed = true;
        host_failed(job, h, text != NULL ? text : "its daemon failed", (int)a);
        free(text);
        return;
    }
    case RRUN_MSG_DONE:
        host->done = true;
        return;
    case RRUN_MSG_STDIN_MORE:
        if (!job->stdin_done)
            job->stdin_want = h;
        return;
    default:
        break;
    }
    host_failed(job, h, "its daemon sent something rrun does not understand", 1);
}

/* One chunk of rrun's stdin to rank 0's daemon (which asked for it); an
 * empty frame at end of file. One chunk per request bounds what is in
 * flight whatever rank 0 does with its stdin. */
static void forward_stdin(struct rrun_job *job)
{
    static char buf[65536];
    struct rrun_host *host = &job->hosts[job->stdin_want];
    struct rrun_buf b = {0};
    ssize_t n = read(0, buf, sizeof(buf));

    if (n < 0 && (errno == EINTR || errno == EAGAIN))
        return;
    if (n <= 0) {
        n = 0;
        job->stdin_done = true;
    }
    rrun_buf_bytes(&b, buf, (size_t)n);
    if (host->to_fd >= 0)
        rrun_chan_frame(&host->out, RRUN_MSG_STDIN, &b);
    rrun_buf_free(&b);
    job->stdin_want = -1;
}

/* The daemon's channel closed. */
static void host_closed(struct rrun_job *job, int h)
{
    struct rrun_host *host = &job->hosts[h];

    close(host->from_fd);
    host->from_fd = -1;
    if (host->to_fd >= 0) {
        close(host->to_fd);
        host->to_fd = -1;
    }
    if (host->done)
        return;
    /* Its ranks will not be heard of again. */
    host->lost = true;
    for (int i = 0; i < host->nranks; i++) {
        struct rrun_rank *r = rrun_rank_of(job, host->first_rank + i);

        if (r != NULL)
            r->reaped = true;
    }
    if (!host->failed)
        host_failed(job, h, "its daemon ended before its ranks did", 1);
    fence_check(job); /* the others need not wait for it */
}

static void reap_agents(struct rrun_job *job)
{
    for (int h = 0; h < job->nhosts; h++) {
        struct rrun_host *host = &job->hosts[h];
        int st;

        if (host->pid > 0 && !host->agent_reaped && waitpid(host->pid, &st, WNOHANG) == host->pid) {
            host->agent_reaped = true;
            host->agent_status = st;
        }
    }
}

static bool all_closed(const struct rrun_job *job)
{
    for (int h = 0; h < job->nhosts; h++)
        if (job->hosts[h].from_fd >= 0)
            return false;
    return true;
}

static bool all_agents_reaped(const struct rrun_job *job)
{
    for (int h = 0; h < job->nhosts; h++)
        if (job->hosts[h].pid > 0 && !job->hosts[h].agent_reaped)
            return false;
    return true;
}

static void kill_agents(struct rrun_job *job)
{
    for (int h = 0; h < job->nhosts; h++) {
        struct rrun_host *host = &job->hosts[h];

        if (host->pid > 0 && !host->agent_reaped)
            kill(-host->pid, SIGKILL);
    }
}

/* What the job's end, the report and the main loop ask of the head. */
static const struct rrun_mode_ops head_ops = {
    .signal = head_signal,
    .report_ask_hosts = report_ask,
};

static int head_run(struct rrun_job *job, int sig_fd, const sigset_t *child_mask)
{
    struct pollfd *fds = calloc((size_t)job->nhosts * 2 + 1, sizeof(*fds));
    int *fd_host = calloc((size_t)job->nhosts * 2 + 1, sizeof(*fd_host));
    char self[4096];
    long long timeout_at = 0, give_up_at = 0;
    ssize_t len = readlink("/proc/self/exe", self, sizeof(self) - 1);

    if (fds == NULL || fd_host == NULL || len <= 0) {
        fprintf(stderr, "rrun: cannot set up the job's hosts\n");
        free(fds);
        free(fd_host);
        return RRUN_EXIT_INTERNAL;
    }
    self[len] = '\0';
    /* A launch agent that cannot run is a usage error, found before any
     * host is tried. */
    for (int h = 0; h < job->nhosts; h++) {
        const char *agent = job->opt->launch_agent ? job->opt->launch_agent : "ssh";
        char *word = strndup(agent + strspn(agent, " \t"), strcspn(agent + strspn(agent, " \t"), " \t"));
        char *path = job->hosts[h].local || word == NULL ? NULL : rrun_find_program(word);

        if (!job->hosts[h].local && path == NULL) {
            fprintf(stderr, "rrun: cannot run the launch agent '%s' for host %s: %s\n",
                    word ? word : agent, job->hosts[h].name, strerror(errno));
            free(word);
            free(fds);
            free(fd_host);
            return RRUN_EXIT_NOEXEC;
        }
        free(word);
        free(path);
    }
    for (int h = 0; h < job->nhosts; h++)
        if (start_daemon(job, h, self, child_mask) != 0) {
            host_failed(job, h, "cannot start its daemon", RRUN_EXIT_INTERNAL);
            break;
        }
    if (job->opt->timeout > 0)
        timeout_at = rrun_now_ms() + (long long)(job->opt->timeout * 1000.0 + 0.5);

    /* Until every daemon's channel has closed, then until the agents exit. */
    while (!all_closed(job) || !all_agents_reaped(job)) {
        struct signalfd_siginfo si;
        long long now = rrun_now_ms(), next = -1;
        int nfds = 0, wait_ms;

        if (all_closed(job) && give_up_at == 0)
            give_up_at = now + RRUN_DAEMON_GRACE_MS;
        fds[nfds++] = (struct pollfd){.fd = sig_fd, .events = POLLIN};
        /* rrun's stdin, when rank 0's daemon asked for more */
        int stdin_k = -1;
        if (job->stdin_want >= 0 && !job->stdin_done) {
            stdin_k = nfds;
            fd_host[nfds] = job->stdin_want;
            fds[nfds++] = (struct pollfd){.fd = 0, .events = POLLIN};
        }
        for (int h = 0; h < job->nhosts; h++) {
            struct rrun_host *host = &job->hosts[h];

            if (host->from_fd >= 0) {
                fd_host[nfds] = h;
                fds[nfds++] = (struct pollfd){.fd = host->from_fd, .events = POLLIN};
            }
            if (host->to_fd >= 0 && host->out.len > host->out.pos) {
                fd_host[nfds] = h;
                fds[nfds++] = (struct pollfd){.fd = host->to_fd, .events = POLLOUT};
            }
        }
        if (timeout_at > 0 && job->cause == RRUN_END_NONE)
            next = timeout_at;
        if (job->kill_at_ms > 0 && (next < 0 || job->kill_at_ms < next))
            next = job->kill_at_ms;
        if (give_up_at > 0 && (next < 0 || give_up_at < next))
            next = give_up_at;
        if (job->abort_wait_until > 0 && (next < 0 || job->abort_wait_until < next))
            next = job->abort_wait_until;
        int rep_ms = rrun_report_wait_ms();
        if (rep_ms >= 0 && (next < 0 || now + rep_ms < next))
            next = now + rep_ms;
        wait_ms = next < 0 ? -1 : next <= now ? 0 : (int)(next - now);
        if (poll(fds, (nfds_t)nfds, wait_ms) < 0 && errno != EINTR) {
            perror("rrun: poll");
            break;
        }

        while (read(sig_fd, &si, sizeof(si)) == (ssize_t)sizeof(si)) {
            if (si.ssi_signo == SIGUSR1)
                rrun_report_ask(job, RRUN_REPORT_ASKED);
            else if (si.ssi_signo != SIGCHLD)
                rrun_job_end(job, RRUN_END_RRUN_SIGNAL, -1, (int)si.ssi_signo);
        }
        reap_agents(job);
        if (stdin_k >= 0 && (fds[stdin_k].revents & (POLLIN | POLLHUP | POLLERR | POLLNVAL)))
            forward_stdin(job);
        for (int k = 1; k < nfds; k++) {
            int h = fd_host[k];
            struct rrun_host *host = &job->hosts[h];

            if (k == stdin_k)
                continue;
            if (fds[k].events == POLLOUT) {
                if ((fds[k].revents & (POLLOUT | POLLERR | POLLHUP)) && host->to_fd >= 0 &&
                    rrun_chan_flush(&host->out, host->to_fd) != 0) {
                    close(host->to_fd);
                    host->to_fd = -1;
                }
                continue;
            }
            if (!(fds[k].revents & (POLLIN | POLLHUP | POLLERR)) || host->from_fd < 0)
                continue;
            {
                int eof = rrun_chan_fill(&host->in, host->from_fd);
                struct rrun_buf p = {0};
                uint32_t type;
                int got;

                while ((got = rrun_chan_next(&host->in, &type, &p)) == 1)
                    handle_frame(job, h, type, &p);
                rrun_buf_free(&p);
                if (got < 0) {
                    host_failed(job, h, "its daemon's stream is corrupt", 1);
                    eof = 1;
                }
                if (eof)
                    host_closed(job, h);
            }
        }
        /* Frames queued while handling others (fence answers) go out now. */
        for (int h = 0; h < job->nhosts; h++) {
            struct rrun_host *host = &job->hosts[h];

            if (host->to_fd >= 0 && host->out.len > host->out.pos &&
                rrun_chan_flush(&host->out, host->to_fd) != 0) {
                close(host->to_fd);
                host->to_fd = -1;
            }
        }

        abort_decide(job, all_closed(job));
        now = rrun_now_ms();
        /* the timeout: first the report of what every rank waits for,
         * then the end (rrun_report_check ends the job) */
        if (timeout_at > 0 && job->cause == RRUN_END_NONE && now >= timeout_at) {
            timeout_at = 0;
            rrun_report_timeout(job);
        }
        rrun_report_check(job);
        if (job->kill_at_ms > 0 && now >= job->kill_at_ms) {
            head_signal(job, SIGKILL);
            job->kill_at_ms = 0;
            give_up_at = now + RRUN_DAEMON_GRACE_MS;
        }
        if (give_up_at > 0 && now >= give_up_at) {
            /* Daemons that still have not answered: end them the hard way
             * (their ranks die with them: a daemon that loses its head
             * kills its ranks, and each rank dies with its daemon). */
            kill_agents(job);
            for (int h = 0; h < job->nhosts; h++)
                if (job->hosts[h].from_fd >= 0)
                    host_closed(job, h);
            give_up_at = now + RRUN_DAEMON_GRACE_MS;
            if (all_closed(job) && !all_agents_reaped(job)) {
                /* Reap what can be reaped; never hang on an agent. */
                reap_agents(job);
                if (!all_agents_reaped(job))
                    break;
            }
        }
    }
    for (int i = 0; i < job->np; i++) {
        rrun_iof_flush(&job->ranks[i].out_buf, 1, job->ranks[i].rank, job->opt->tag_output);
        rrun_iof_flush(&job->ranks[i].err_buf, 2, job->ranks[i].rank, job->opt->tag_output);
    }
    /* A lost daemon: say what became of its agent, if known. */
    if (job->cause == RRUN_END_DAEMON && job->hosts[job->cause_host].lost &&
        job->hosts[job->cause_host].agent_reaped) {
        int st = job->hosts[job->cause_host].agent_status;
        size_t l = strlen(job->cause_text);

        if (WIFEXITED(st))
            snprintf(job->cause_text + l, sizeof(job->cause_text) - l,
                     " (launch agent exit status %d)", WEXITSTATUS(st));
        else if (WIFSIGNALED(st))
            snprintf(job->cause_text + l, sizeof(job->cause_text) - l,
                     " (launch agent killed by signal %d)", WTERMSIG(st));
    }
    free(fds);
    free(fd_host);
    return job->exit_status;
}

int rrun_head_main(const struct rrun_options *opt, struct rrun_host *hosts, int nhosts)
{
    struct rrun_job job;
    sigset_t child_mask;
    int sig_fd, status = RRUN_EXIT_INTERNAL;

    if (rrun_job_init(&job, opt, RRUN_HEAD, &head_ops, hosts, nhosts, -1, NULL) != 0) {
        perror("rrun");
        rrun_job_fini(&job);
        return status;
    }
    sig_fd = rrun_signals_setup(&child_mask);
    if (sig_fd >= 0) {
        status = head_run(&job, sig_fd, &child_mask);
        rrun_job_say_end(&job);
        close(sig_fd);
    }
    rrun_job_fini(&job);
    return status;
}

/* supervise.c - the main loop: output, exits, upcalls, signals, timeout.
 *
 * One poll() waits on everything: the ranks' stdout/stderr pipes, a
 * signalfd (SIGCHLD and the signals rrun forwards) and the self-pipe the
 * PMIx upcalls write to. Nothing sleeps or polls on a timer except the two
 * deadlines (--timeout, and SIGKILL after the SIGTERM grace).
 *
 * Failure policy: the first of these ends the job: a rank killed by a
 * signal, a rank exiting non-zero, a rank exiting after it connected to the
 * PMIx server without calling PMIx_Finalize, PMIx_Abort, the timeout, or a
 * signal to rrun. Ending (rrun_job_end, job.c) = signal every rank, SIGKILL
 * the survivors after RRUN_KILL_GRACE_MS; this loop reaps them all, then
 * the caller prints one message. A daemon's loop decides none of it: it
 * passes output, exits and aborts to the head, and serves the head's
 * channel, through job->ops (daemon.c fills them). */
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
#include <unistd.h>

#include "launcher/rrun/rrun.h"

/* Signals rrun forwards to the ranks (unless they were ignored at start,
 * e.g. SIGHUP under nohup: then they stay ignored, ranks included). */
static const int forwarded_signals[] = {SIGINT, SIGTERM, SIGHUP};

int rrun_signals_setup(sigset_t *orig)
{
    sigset_t block, handled;
    int fd;

    sigemptyset(&handled);
    sigaddset(&handled, SIGCHLD);
    sigaddset(&handled, SIGUSR1); /* print what the ranks wait for (report.c) */
    for (size_t i = 0; i < sizeof(forwarded_signals) / sizeof(forwarded_signals[0]); i++) {
        struct sigaction sa;

        if (sigaction(forwarded_signals[i], NULL, &sa) == 0 && sa.sa_handler == SIG_IGN)
            continue;
        sigaddset(&handled, forwarded_signals[i]);
    }
    /* SIGPIPE is blocked too (not handled): a closed stdout then shows up as
     * EPIPE from write instead of killing rrun with its ranks orphaned. */
    block = handled;
    sigaddset(&block, SIGPIPE);
    /* Before libpmix starts its thread, so that thread inherits the mask. */
    if (sigprocmask(SIG_BLOCK, &block, orig) != 0)
        goto fail;
    fd = signalfd(-1, &handled, SFD_NONBLOCK | SFD_CLOEXEC);
    if (fd < 0)
        goto fail;
    return fd;
fail:
    perror("rrun: cannot set up signal handling");
    return -1;
}

/* A rank of this host that is dying or dead but not yet reaped: a zombie,
 * or a process whose flags say PF_EXITING (set as soon as it starts to
 * die, before its memory goes: before a peer's single copy from it fails). */
static bool rank_dying(const struct rrun_rank *r)
{
    char path[64], buf[512];
    unsigned long flags = 0;
    char state = '?';
    ssize_t n;
    int fd;

    if (r->pid <= 0 || r->reaped)
        return false;
    snprintf(path, sizeof(path), "/proc/%ld/stat", (long)r->pid);
    fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return false;
    n = read(fd, buf, sizeof(buf) - 1);
    close(fd);
    if (n <= 0)
        return false;
    buf[n] = '\0';
    /* "pid (comm) state ppid pgrp session tty_nr tpgid flags ..." */
    const char *p = strrchr(buf, ')');
    if (p == NULL || sscanf(p + 1, " %c %*d %*d %*d %*d %*d %lu", &state, &flags) != 2)
        return false;
    return state == 'Z' || state == 'X' || (flags & 0x4 /* PF_EXITING */) != 0;
}

static void send_abort(struct rrun_job *job, struct rrun_rank *r);

/* One reaped rank: report it (daemon) or judge it. */
static void rank_reaped(struct rrun_job *job, struct rrun_rank *r, int status)
{
    bool skipped_finalize;

    pthread_mutex_lock(&job->lock);
    skipped_finalize = r->connected && !r->finalized;
    pthread_mutex_unlock(&job->lock);
    if (job->mode == RRUN_DAEMON) {
        struct rrun_buf b = {0};

        send_abort(job, r); /* its abort, if any, before its exit */
        r->reaped = true;
        r->wait_status = status;
        rrun_buf_u32(&b, (uint32_t)r->rank);
        rrun_buf_u32(&b, (uint32_t)status);
        rrun_buf_u32(&b, skipped_finalize);
        job->ops->send_head(job, RRUN_MSG_EXITED, &b);
        rrun_buf_free(&b);
    } else {
        rrun_rank_ended(job, r, status, skipped_finalize);
    }
}

/* Daemon: rank r's abort to the head, once, and before its exit. Every
 * abort goes (the head keeps the first as the cause, and the others so
 * that those ranks' exits are not taken for causes). */
static void send_abort(struct rrun_job *job, struct rrun_rank *r)
{
    struct rrun_buf b = {0};
    bool aborted;
    int code;
    const char *msg;

    if (r == NULL)
        return;
    pthread_mutex_lock(&job->lock);
    aborted = r->aborted;
    code = r->abort_code;
    msg = r->abort_msg;
    pthread_mutex_unlock(&job->lock);
    if (!aborted || r->abort_sent)
        return;
    r->abort_sent = true;
    if (msg == NULL) /* no memory for its copy */
        msg = job->abort_rank == r->rank ? job->abort_msg : "";
    rrun_buf_u32(&b, (uint32_t)r->rank);
    rrun_buf_u32(&b, (uint32_t)code);
    rrun_buf_str(&b, msg);
    job->ops->send_head(job, RRUN_MSG_ABORT, &b);
    rrun_buf_free(&b);
}

/* Look at what the upcalls recorded. Called before reaping, so an abort is
 * seen before the exit of the rank that called it. A daemon passes the
 * aborts on to the head, which decides.
 *
 * The first cause is the one reported. A rank whose peer died finds out
 * when its next transfer fails and aborts; its abort can reach us before
 * the dead rank can be reaped. So while another rank of this host is
 * dying, the abort waits (at most RRUN_ABORT_WAIT_MS): once that rank is
 * reaped, its death is the cause. A rank that aborted too is not waited
 * for: both ends of a failed connection abort at once, and the one that
 * came second dies of its own abort, after the first. Until the decision
 * the exits of the ranks that aborted are held (reap), then judged: after
 * the cause, so they change nothing. no_wait: decide now. */
static void check_upcalls(struct rrun_job *job, bool no_wait)
{
    bool aborted;
    int rank, code;

    pthread_mutex_lock(&job->lock);
    aborted = job->abort_called;
    rank = job->abort_rank;
    code = job->abort_code;
    pthread_mutex_unlock(&job->lock);
    if (!aborted)
        return;
    if (job->abort_decided) {
        /* later aborts (daemon: to the head, before those ranks' exits) */
        if (job->mode == RRUN_DAEMON)
            for (int i = 0; i < job->np; i++)
                send_abort(job, &job->ranks[i]);
        return;
    }
    if (job->cause == RRUN_END_NONE && !no_wait) {
        long long now = rrun_now_ms();
        bool dying = false;

        for (int i = 0; i < job->np && !dying; i++) {
            struct rrun_rank *o = &job->ranks[i];
            bool o_aborted;

            pthread_mutex_lock(&job->lock);
            o_aborted = o->aborted;
            pthread_mutex_unlock(&job->lock);
            dying = o->rank != rank && !o_aborted && rank_dying(o);
        }
        if (dying && job->abort_wait_until == 0)
            job->abort_wait_until = now + RRUN_ABORT_WAIT_MS;
        if (dying && now < job->abort_wait_until)
            return;
    }
    job->abort_decided = true;
    job->abort_wait_until = 0;
    if (job->mode == RRUN_DAEMON) {
        send_abort(job, rrun_rank_of(job, rank));
        for (int i = 0; i < job->np; i++)
            send_abort(job, &job->ranks[i]);
    } else {
        rrun_job_end(job, RRUN_END_ABORT, rank, code);
    }
    /* the exits of the ranks that aborted, held back until now (see reap) */
    for (int i = 0; i < job->np; i++) {
        struct rrun_rank *r = &job->ranks[i];

        if (r->held) {
            r->held = false;
            rank_reaped(job, r, r->wait_status);
        }
    }
}

static struct rrun_rank *rank_of_pid(struct rrun_job *job, pid_t pid)
{
    for (int i = 0; i < job->np; i++)
        if (job->ranks[i].pid == pid)
            return &job->ranks[i];
    return NULL;
}

/* Reap every exited child; returns how many ranks were reaped. The exit
 * of a rank that aborted is judged only once its abort is (it follows the
 * abort, which may itself wait for another rank's death: check_upcalls). */
static int reap(struct rrun_job *job)
{
    int n = 0, status;
    pid_t pid;

    while ((pid = waitpid(-1, &status, WNOHANG)) > 0) {
        struct rrun_rank *r = rank_of_pid(job, pid);
        bool is_aborter;

        if (r == NULL || r->reaped)
            continue;
        n++;
        pthread_mutex_lock(&job->lock);
        is_aborter = r->aborted;
        pthread_mutex_unlock(&job->lock);
        if (is_aborter && !job->abort_decided) {
            r->reaped = true;
            r->held = true;
            r->wait_status = status;
            continue;
        }
        rank_reaped(job, r, status);
    }
    /* An abort recorded since the last look happened before the exit of
     * the rank that called it (the client waits in PMIx_Abort for it). */
    check_upcalls(job, false);
    return n;
}

/* Read what one pipe has; at end of file flush and close it. */
static void forward(struct rrun_job *job, struct rrun_rank *r, bool is_err)
{
    static char buf[65536];
    int *fd = is_err ? &r->err_fd : &r->out_fd;
    struct rrun_linebuf *lb = is_err ? &r->err_buf : &r->out_buf;
    int out = is_err ? 2 : 1;
    ssize_t n = read(*fd, buf, sizeof(buf));

    if (n > 0 && job->mode == RRUN_DAEMON) {
        /* The head puts lines together and tags them. */
        struct rrun_buf b = {0};

        rrun_buf_u32(&b, (uint32_t)r->rank);
        rrun_buf_u32(&b, (uint32_t)out);
        rrun_buf_bytes(&b, buf, (size_t)n);
        job->ops->send_head(job, RRUN_MSG_OUT, &b);
        rrun_buf_free(&b);
        return;
    }
    if (n > 0) {
        rrun_iof_push(lb, out, r->rank, job->opt->tag_output, buf, (size_t)n);
        return;
    }
    if (n < 0 && (errno == EAGAIN || errno == EINTR))
        return;
    if (job->mode != RRUN_DAEMON)
        rrun_iof_flush(lb, out, r->rank, job->opt->tag_output);
    close(*fd);
    *fd = -1;
}

/* After the last rank is reaped: forward what is left in the pipes without
 * waiting for end of file (a helper a rank left behind may hold them). */
static void drain(struct rrun_job *job)
{
    for (int i = 0; i < job->np; i++) {
        struct rrun_rank *r = &job->ranks[i];

        for (int k = 0; k < 2; k++) {
            int *fd = k ? &r->err_fd : &r->out_fd;

            for (int rounds = 0; *fd >= 0 && rounds < 1024; rounds++) {
                struct pollfd p = {.fd = *fd, .events = POLLIN};

                if (poll(&p, 1, 0) <= 0)
                    break;
                forward(job, r, k == 1);
            }
            if (*fd >= 0) {
                if (job->mode != RRUN_DAEMON)
                    rrun_iof_flush(k ? &r->err_buf : &r->out_buf, k ? 2 : 1, r->rank,
                                   job->opt->tag_output);
                close(*fd);
                *fd = -1;
            }
        }
    }
}

static void handle_signals(struct rrun_job *job, int sig_fd, bool *child_exited)
{
    struct signalfd_siginfo si;

    while (read(sig_fd, &si, sizeof(si)) == (ssize_t)sizeof(si)) {
        if (si.ssi_signo == SIGCHLD)
            *child_exited = true;
        else if (si.ssi_signo == SIGUSR1)
            rrun_report_ask(job, RRUN_REPORT_ASKED);
        else
            rrun_job_end(job, RRUN_END_RRUN_SIGNAL, -1, (int)si.ssi_signo);
    }
}

/* Milliseconds until the next deadline, or -1. */
static int next_timeout(const struct rrun_job *job, long long timeout_at)
{
    long long now = rrun_now_ms(), next = -1;

    if (timeout_at > 0 && job->cause == RRUN_END_NONE)
        next = timeout_at;
    if (job->kill_at_ms > 0 && (next < 0 || job->kill_at_ms < next))
        next = job->kill_at_ms;
    /* an abort waiting for a dying rank: look again soon (the death shows
     * as SIGCHLD; this only bounds the wait if it never comes) */
    if (job->abort_wait_until > 0 && (next < 0 || job->abort_wait_until < next))
        next = job->abort_wait_until;
    int rep = rrun_report_wait_ms();
    if (rep >= 0 && (next < 0 || now + rep < next))
        next = now + rep;
    if (next < 0)
        return -1;
    return next <= now ? 0 : (int)(next - now);
}

void rrun_supervise(struct rrun_job *job, int sig_fd)
{
    long long timeout_at = 0;
    int live = 0, nfds = 0;
    struct pollfd *fds = calloc((size_t)job->np * 2 + 4, sizeof(*fds));
    struct rrun_rank **owner = calloc((size_t)job->np * 2 + 4, sizeof(*owner));
    int first_rank_fd = 2, stdin_k = -1;
    bool head_gone = job->mode != RRUN_DAEMON;

    if (fds == NULL || owner == NULL) {
        /* Without memory, still end the job and reap it, output lost. */
        rrun_job_end(job, RRUN_END_SPAWN, -1, 0);
    }
    if (job->opt->timeout > 0)
        timeout_at = rrun_now_ms() + (long long)(job->opt->timeout * 1000.0 + 0.5);
    for (int i = 0; i < job->np; i++)
        live += job->ranks[i].pid > 0;

    while (live > 0) {
        bool child_exited = false;
        int rc;

        nfds = 0;
        if (fds != NULL && owner != NULL) {
            fds[nfds++] = (struct pollfd){.fd = sig_fd, .events = POLLIN};
            fds[nfds++] = (struct pollfd){.fd = job->wake_rd, .events = POLLIN};
            /* A daemon listens to its head (stdin) too. */
            if (!head_gone)
                fds[nfds++] = (struct pollfd){.fd = 0, .events = POLLIN};
            /* ... and to rank 0's stdin, while something waits to go in */
            stdin_k = -1;
            if (job->stdin_wr >= 0 && job->stdin_q.len > job->stdin_q.pos) {
                stdin_k = nfds;
                fds[nfds++] = (struct pollfd){.fd = job->stdin_wr, .events = POLLOUT};
            }
            first_rank_fd = nfds;
            for (int i = 0; i < job->np; i++) {
                struct rrun_rank *r = &job->ranks[i];

                if (r->out_fd >= 0) {
                    owner[nfds] = r;
                    fds[nfds++] = (struct pollfd){.fd = r->out_fd, .events = POLLIN};
                }
                if (r->err_fd >= 0) {
                    owner[nfds] = r;
                    fds[nfds++] = (struct pollfd){.fd = r->err_fd, .events = POLLIN};
                }
            }
            rc = poll(fds, (nfds_t)nfds, next_timeout(job, timeout_at));
        } else {
            struct pollfd p = {.fd = sig_fd, .events = POLLIN};

            rc = poll(&p, 1, next_timeout(job, timeout_at));
        }
        if (rc < 0 && errno != EINTR) {
            perror("rrun: poll");
            rrun_job_end(job, RRUN_END_SPAWN, -1, 0);
        }

        if (nfds > 0 && (fds[1].revents & POLLIN)) {
            char junk[64];

            while (read(job->wake_rd, junk, sizeof(junk)) > 0)
                ;
        }
        check_upcalls(job, false);
        if (job->mode == RRUN_DAEMON)
            job->ops->fence_out(job);
        if (!head_gone && nfds > 2 && (fds[2].revents & (POLLIN | POLLHUP | POLLERR)) &&
            job->ops->read_head(job)) {
            /* The head is gone: nobody is left to report to. */
            head_gone = true;
            rrun_job_end(job, RRUN_END_RRUN_SIGNAL, -1, SIGKILL);
        }
        if (stdin_k >= 0 && (fds[stdin_k].revents & (POLLOUT | POLLERR | POLLHUP)))
            job->ops->feed_stdin(job);
        handle_signals(job, sig_fd, &child_exited);
        if (child_exited)
            live -= reap(job);

        for (int k = first_rank_fd; k < nfds; k++) {
            struct rrun_rank *r = owner[k];

            if (!(fds[k].revents & (POLLIN | POLLHUP | POLLERR)))
                continue;
            forward(job, r, fds[k].fd == r->err_fd);
        }

        /* the timeout: first the report of what every rank waits for,
         * then the end (rrun_report_check ends the job) */
        if (timeout_at > 0 && job->cause == RRUN_END_NONE && rrun_now_ms() >= timeout_at) {
            timeout_at = 0;
            /* (a daemon has no timeout of its own: the head decides) */
            rrun_report_timeout(job);
        }
        rrun_report_check(job);
        if (job->kill_at_ms > 0 && rrun_now_ms() >= job->kill_at_ms) {
            rrun_signal_ranks(job, SIGKILL);
            job->kill_at_ms = 0;
        }
    }
    /* every rank is reaped: an abort still waiting has waited enough */
    check_upcalls(job, true);
    /* A failed job takes along what its ranks started, SIGTERM or not.
     * (After a clean end, helpers left in the group are the user's.) */
    if (job->cause != RRUN_END_NONE && job->pgid > 0)
        kill(-job->pgid, SIGKILL);
    drain(job);
    free(fds);
    free(owner);
}

/* job.c - the job's state and how it ends, whatever the mode.
 *
 * Everything here works on struct rrun_job alone: setting it up and
 * freeing it, finding a rank, waking the main loop, and the failure
 * policy (the first cause ends the job: its exit status, the signals to
 * the ranks, the one message that says why). What differs between the
 * three modes (one host, head, daemon) is reached through job->ops, the
 * table the mode's own file fills (main.c, head.c, daemon.c), so that
 * this file and the ones that serve every mode (supervise, report, spawn,
 * server) never call up into a mode's file: rrun's files form layers
 * (rrun.h lists them; test/tools/cycles.sh checks). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "config.h"

#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "launcher/rrun/rrun.h"

long long rrun_now_ms(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* ------------------------------------------------------------ state */

int rrun_job_init(struct rrun_job *job, const struct rrun_options *opt, enum rrun_mode mode,
                  const struct rrun_mode_ops *ops, struct rrun_host *hosts, int nhosts, int my_host,
                  const char *nspace)
{
    struct timespec ts;
    int wake[2];

    memset(job, 0, sizeof(*job));
    job->opt = opt;
    job->mode = mode;
    job->ops = ops;
    job->cause_rank = -1;
    job->wake_rd = job->wake_wr = job->to_head = job->stdin_wr = -1;
    job->stdin_want = -1;
    job->hosts = hosts;
    job->nhosts = nhosts;
    job->my_host = my_host;
    pthread_mutex_init(&job->lock, NULL);
    if (gethostname(job->hostname, sizeof(job->hostname) - 1) != 0)
        snprintf(job->hostname, sizeof(job->hostname), "localhost");
    if (nspace != NULL) {
        snprintf(job->nspace, sizeof(job->nspace), "%s", nspace);
    } else {
        /* Unique per run and unguessable: the pid (the tests and the shm
         * sweep recognise a job's files by it), then 128 random bits. The
         * job is not protected by this alone (guard.c checks who connects),
         * but nobody outside it can name it either. */
        uint64_t r[2] = {0, 0};

        if (getrandom(r, sizeof(r), 0) != (ssize_t)sizeof(r)) {
            /* no entropy source: the clock still keeps runs apart */
            clock_gettime(CLOCK_REALTIME, &ts);
            r[0] = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
        }
        snprintf(job->nspace, sizeof(job->nspace), "rrun.%ld.%016llx%016llx", (long)getpid(),
                 (unsigned long long)r[0], (unsigned long long)r[1]);
    }
    /* The head keeps every rank (output, pid, exit); a host server its own. */
    job->size = 0;
    for (int h = 0; h < nhosts; h++)
        job->size += hosts[h].nranks;
    job->first_rank = my_host >= 0 ? hosts[my_host].first_rank : 0;
    job->np = my_host >= 0 ? hosts[my_host].nranks : job->size;
    job->ranks = calloc((size_t)job->np, sizeof(*job->ranks));
    if (job->ranks == NULL)
        return -1;
    for (int i = 0; i < job->np; i++) {
        struct rrun_rank *r = &job->ranks[i];

        r->rank = job->first_rank + i;
        r->out_fd = r->err_fd = -1;
        r->host = my_host;
        for (int h = 0; my_host < 0 && h < nhosts; h++)
            if (r->rank >= hosts[h].first_rank && r->rank < hosts[h].first_rank + hosts[h].nranks)
                r->host = h;
    }
    if (pipe2(wake, O_CLOEXEC | O_NONBLOCK) != 0)
        return -1;
    job->wake_rd = wake[0];
    job->wake_wr = wake[1];
    return 0;
}

void rrun_env_free(char **env)
{
    if (env == NULL)
        return;
    for (char **e = env; *e != NULL; e++)
        free(*e);
    free(env);
}

void rrun_ranks_free(struct rrun_job *job)
{
    if (job->ranks == NULL)
        return;
    for (int i = 0; i < job->np; i++) {
        struct rrun_rank *r = &job->ranks[i];

        rrun_env_free(r->env);
        if (r->cpuset != NULL)
            CPU_FREE(r->cpuset);
        rrun_iof_free(&r->out_buf);
        rrun_iof_free(&r->err_buf);
        free(r->abort_msg);
        if (r->out_fd >= 0)
            close(r->out_fd);
        if (r->err_fd >= 0)
            close(r->err_fd);
    }
    free(job->ranks);
    job->ranks = NULL;
}

void rrun_job_fini(struct rrun_job *job)
{
    rrun_ranks_free(job);
    if (job->wake_rd >= 0)
        close(job->wake_rd);
    if (job->wake_wr >= 0)
        close(job->wake_wr);
    pthread_mutex_destroy(&job->lock);
    rrun_buf_free(&job->fence_data);
    rrun_buf_free(&job->stdin_q);
    if (job->stdin_wr >= 0)
        close(job->stdin_wr);
    rrun_chan_in_free(&job->from_head);
    rrun_hosts_free(job->hosts, job->nhosts);
    job->hosts = NULL;
    job->nhosts = 0;
}

struct rrun_rank *rrun_rank_of(struct rrun_job *job, int rank)
{
    if (rank < job->first_rank || rank >= job->first_rank + job->np)
        return NULL;
    return &job->ranks[rank - job->first_rank];
}

void rrun_wake(struct rrun_job *job)
{
    ssize_t w = write(job->wake_wr, "", 1); /* full pipe: already awake */

    (void)w;
}

/* ------------------------------------------------------------ the end */

void rrun_job_end(struct rrun_job *job, enum rrun_end_cause cause, int rank, int value)
{
    if (job->cause != RRUN_END_NONE) {
        /* A second signal to rrun while ending: stop waiting. */
        if (cause == RRUN_END_RRUN_SIGNAL) {
            job->ops->signal(job, SIGKILL);
            job->kill_at_ms = 0;
        }
        return;
    }
    job->cause = cause;
    job->cause_rank = rank;
    job->cause_value = value;
    switch (cause) {
    case RRUN_END_SIGNALED:
    case RRUN_END_RRUN_SIGNAL:
        job->exit_status = 128 + value;
        break;
    case RRUN_END_EXIT:
        job->exit_status = value;
        break;
    case RRUN_END_ABORT:
        /* The code as given; the OS keeps 8 bits, and a failure must not
         * turn into success by truncation (256 -> 0): then 1. */
        job->exit_status = value & 0xff;
        if (value != 0 && job->exit_status == 0)
            job->exit_status = 1;
        break;
    case RRUN_END_TIMEOUT:
        job->exit_status = RRUN_EXIT_TIMEOUT;
        break;
    case RRUN_END_DAEMON:
        job->exit_status = value > 0 && value < 256 ? value : 1;
        break;
    default:
        job->exit_status = 1;
        break;
    }
    job->ops->signal(job, cause == RRUN_END_RRUN_SIGNAL ? value : SIGTERM);
    job->kill_at_ms = rrun_now_ms() + RRUN_KILL_GRACE_MS;
}

void rrun_rank_ended(struct rrun_job *job, struct rrun_rank *r, int status, bool skipped_finalize)
{
    r->reaped = true;
    r->wait_status = status;
    if (WIFSIGNALED(status))
        rrun_job_end(job, RRUN_END_SIGNALED, r->rank, WTERMSIG(status));
    else if (WEXITSTATUS(status) != 0)
        rrun_job_end(job, RRUN_END_EXIT, r->rank, WEXITSTATUS(status));
    else if (skipped_finalize)
        rrun_job_end(job, RRUN_END_NOFINALIZE, r->rank, 0);
}

void rrun_job_say_end(const struct rrun_job *job)
{
    const struct rrun_rank *r = rrun_rank_of((struct rrun_job *)job, job->cause_rank);
    long pid = r != NULL ? (long)r->pid : 0;
    int rank = job->cause_rank;
    char who[400];

    /* "rank 3 (pid 1234)", and " on HOST" when the job spans hosts. */
    if (job->mode == RRUN_HEAD && r != NULL)
        snprintf(who, sizeof(who), "rank %d (pid %ld on %s)", rank, pid, job->hosts[r->host].name);
    else
        snprintf(who, sizeof(who), "rank %d (pid %ld)", rank, pid);
    switch (job->cause) {
    case RRUN_END_SIGNALED:
        fprintf(stderr, "rrun: %s was killed by signal %d (%s); ending the job\n", who,
                job->cause_value, strsignal(job->cause_value));
        break;
    case RRUN_END_EXIT:
        fprintf(stderr, "rrun: %s exited with status %d; ending the job\n", who, job->cause_value);
        break;
    case RRUN_END_NOFINALIZE:
        fprintf(stderr, "rrun: %s exited without calling MPI_Finalize; ending the job\n", who);
        break;
    case RRUN_END_ABORT: {
        char msg[sizeof(job->abort_msg)];
        size_t len;

        /* Read under no lock: the first abort is never overwritten. */
        snprintf(msg, sizeof(msg), "%s", job->abort_msg);
        len = strlen(msg);
        while (len > 0 && (msg[len - 1] == '\n' || msg[len - 1] == ' '))
            msg[--len] = '\0';
        if (len > 0)
            fprintf(stderr, "rrun: %s called MPI_Abort with code %d: %s\n", who, job->cause_value,
                    msg);
        else
            fprintf(stderr, "rrun: %s called MPI_Abort with code %d\n", who, job->cause_value);
        break;
    }
    case RRUN_END_TIMEOUT:
        fprintf(stderr, "rrun: job exceeded the %s of %s s; ending it\n", job->opt->timeout_from,
                job->opt->timeout_text);
        break;
    case RRUN_END_RRUN_SIGNAL:
        fprintf(stderr, "rrun: received signal %d (%s); ending the job\n", job->cause_value,
                strsignal(job->cause_value));
        break;
    case RRUN_END_DAEMON:
        fprintf(stderr, "rrun: host %s: %s; ending the job\n", job->hosts[job->cause_host].name,
                job->cause_text);
        break;
    case RRUN_END_SPAWN:
    case RRUN_END_NONE:
        break;
    }
}

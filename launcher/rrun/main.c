/* main.c - rrun: start an MPI job of N ranks on this node and serve it PMIx.
 *
 * The steps, in order; every step that acquires something is undone at
 * `out`, whatever way the run ends (the PMIx session directory included). */
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
#include <time.h>
#include <sys/random.h>
#include <unistd.h>

#include <event2/event.h>

#include "launcher/rrun/rrun.h"
#include "runtime/base/params.h"

/* libpmix runs on libevent, which warns on stderr about races it survives
 * (e.g. "Epoll MOD ... Bad file descriptor" when a killed rank's socket
 * goes away during teardown). Those lines are not the job's output: keep
 * only libevent's errors, and everything under RDMPI_LOG=debug. */
static void libevent_log(int severity, const char *msg)
{
    const char *log = getenv("RDMPI_LOG");
    if (severity >= EVENT_LOG_ERR || (log && strncmp(log, "debug", 5) == 0))
        fprintf(stderr, "rrun: libevent: %s\n", msg);
}

int rrun_job_init(struct rrun_job *job, const struct rrun_options *opt, enum rrun_mode mode,
                  struct rrun_host *hosts, int nhosts, int my_host, const char *nspace)
{
    struct timespec ts;
    int wake[2];

    memset(job, 0, sizeof(*job));
    job->opt = opt;
    job->mode = mode;
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

/* Inside a Slurm allocation (SLURM_JOB_ID set), Slurm starts the ranks:
 * rrun becomes `srun --mpi=pmix -n N --kill-on-bad-exit=1 [--label] PROGRAM
 * ARGS`, the -x variables set in its environment (srun passes the
 * environment on). --kill-on-bad-exit keeps rrun's promise that a failing
 * rank ends the job: without it (Slurm's default) a rank that exits non-zero
 * before it connects to PMIx leaves the others waiting in MPI_Init forever.
 * Returns only if srun cannot be run. */
static int hand_to_srun(const struct rrun_options *opt)
{
    char n[32];
    int k = 0, nargs = 0;
    while (opt->argv[nargs])
        nargs++;
    for (int i = 0; i < opt->n_env_specs; i++) {
        const char *eq = strchr(opt->env_specs[i], '=');
        if (eq) {
            char *name = strndup(opt->env_specs[i], (size_t)(eq - opt->env_specs[i]));
            if (name)
                setenv(name, eq + 1, 1);
            free(name);
        }
    }
    snprintf(n, sizeof(n), "%d", opt->np);
    const char **av = malloc(sizeof(char *) * (size_t)(nargs + 8));
    if (!av)
        return RRUN_EXIT_INTERNAL;
    av[k++] = "srun";
    av[k++] = "--mpi=pmix";
    av[k++] = "-n";
    av[k++] = n;
    av[k++] = "--kill-on-bad-exit=1";
    if (opt->tag_output)
        av[k++] = "--label";
    for (int i = 0; i < nargs; i++)
        av[k++] = opt->argv[i];
    av[k] = NULL;
    if (opt->timeout > 0)
        fprintf(stderr, "rrun: %s is not passed to srun (its limits are in minutes); use srun --time\n",
                opt->timeout_from);
    execvp("srun", (char **)av);
    free(av);
    fprintf(stderr, "rrun: inside Slurm allocation %s, but cannot run srun: %s (RDMPI_RRUN_SRUN=0 launches "
            "here instead)\n", getenv("SLURM_JOB_ID"), strerror(errno));
    return RRUN_EXIT_NOEXEC;
}

/* Several hosts: this process coordinates their daemons (head.c). */
static int run_head(struct rrun_options *opt, struct rrun_host *hosts, int nhosts)
{
    struct rrun_job job;
    sigset_t child_mask;
    int sig_fd, status = RRUN_EXIT_INTERNAL;

    if (rrun_job_init(&job, opt, RRUN_HEAD, hosts, nhosts, -1, NULL) != 0) {
        perror("rrun");
        rrun_job_fini(&job);
        return status;
    }
    sig_fd = rrun_signals_setup(&child_mask);
    if (sig_fd >= 0) {
        status = rrun_head_run(&job, sig_fd, &child_mask);
        rrun_report_end(&job);
        close(sig_fd);
    }
    rrun_job_fini(&job);
    return status;
}

int main(int argc, char **argv)
{
    struct rrun_options opt;
    struct rrun_job job;
    struct rrun_host *hosts = NULL;
    sigset_t child_mask;
    char *exe = NULL;
    int sig_fd = -1, status, nhosts = 0;

    event_set_log_callback(libevent_log);
    status = rrun_parse_options(argc, argv, &opt);
    if (status != 0) {
        rrun_options_free(&opt);
        return status < 0 ? 0 : status;
    }
    if (opt.daemon) {
        rrun_options_free(&opt);
        return rrun_daemon_main();
    }
    if (opt.report_pending) {
        status = rrun_report_pending_main(opt.report_pending);
        rrun_options_free(&opt);
        return status;
    }
    char perr[256];
    if (rd_params_load(perr, sizeof(perr)) < 0 || rd_params_load_tools(perr, sizeof(perr)) < 0) {
        fprintf(stderr, "rrun: %s\n", perr);
        rrun_options_free(&opt);
        return RRUN_EXIT_USAGE;
    }
    status = rrun_hosts_parse(&opt, &hosts, &nhosts);
    if (status != 0) {
        rrun_options_free(&opt);
        return status;
    }
    if (nhosts > 0) {
        /* The daemons look the program up, each on its own host. */
        status = run_head(&opt, hosts, nhosts);
        rrun_options_free(&opt);
        return status;
    }
    if (getenv("SLURM_JOB_ID") && rd_tool_param.rrun_srun) {
        status = hand_to_srun(&opt);
        rrun_options_free(&opt);
        return status;
    }
    /* Before anything starts: a typo in the program name, or a job this
     * host cannot hold, costs nothing. */
    char why[256];
    if (rrun_check_capacity(opt.np, why, sizeof(why)) != 0) {
        fprintf(stderr, "rrun: %s\n", why);
        rrun_options_free(&opt);
        return RRUN_EXIT_USAGE;
    }
    exe = rrun_find_program(opt.argv[0]);
    if (exe == NULL) {
        fprintf(stderr, "rrun: cannot run '%s': %s\n", opt.argv[0], strerror(errno));
        rrun_options_free(&opt);
        return RRUN_EXIT_NOEXEC;
    }

    /* One host: this one, served by this process. */
    status = RRUN_EXIT_INTERNAL;
    hosts = calloc(1, sizeof(*hosts));
    char self[256];
    if (gethostname(self, sizeof(self) - 1) != 0)
        snprintf(self, sizeof(self), "localhost");
    self[sizeof(self) - 1] = '\0';
    if (hosts == NULL || (hosts[0].name = strdup(self)) == NULL) {
        perror("rrun");
        free(hosts);
        free(exe);
        rrun_options_free(&opt);
        return status;
    }
    hosts[0].slots = hosts[0].nranks = opt.np;
    hosts[0].local = true;
    hosts[0].to_fd = hosts[0].from_fd = -1;
    if (rrun_job_init(&job, &opt, RRUN_SOLO, hosts, 1, 0, NULL) != 0) {
        perror("rrun");
        goto out;
    }
    job.exe_path = exe;
    sig_fd = rrun_signals_setup(&child_mask);
    if (sig_fd < 0)
        goto out;
    if (rrun_binding_plan(&job, opt.bind) != 0)
        goto out;
    job.session_dir = rrun_session_create();
    if (job.session_dir == NULL)
        goto out;
    rrun_crash_guard(&job);
    if (rrun_report_setup(&job) != 0)
        goto out;
    if (rrun_server_start(&job) != 0 || rrun_spawn_prepare_env(&job) != 0)
        goto out;

    if (rrun_spawn_all(&job, &child_mask) != 0)
        rrun_job_end(&job, RRUN_END_SPAWN, -1, 0);
    rrun_supervise(&job, sig_fd);
    rrun_report_end(&job);
    status = job.exit_status;
out:
    rrun_teardown(&job, status, NULL);
}

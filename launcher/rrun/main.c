/* main.c - rrun: start an MPI job of N ranks on this node and serve it PMIx.
 *
 * The top of rrun's layers (rrun.h): the command line decides what this
 * process is: a daemon of a multi-host job (daemon.c), a report asked of
 * another rrun (report.c), the head of a job over several hosts (head.c),
 * srun inside a Slurm allocation, or, here, the one host's server of its
 * ranks. The steps of that one, in order; every step that acquires
 * something is undone at `out`, whatever way the run ends (the PMIx
 * session directory included). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "config.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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

/* One host, served by this process: its ranks are signalled here. */
static const struct rrun_mode_ops solo_ops = {.signal = rrun_signal_ranks};

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
    /* (the hosts gave np when -np was not: the --pset ranks are checked now) */
    if (nhosts > 0 && (status = rrun_psets_check(&opt)) != 0) {
        rrun_hosts_free(hosts, nhosts);
        rrun_options_free(&opt);
        return status;
    }
    if (nhosts > 0) {
        /* The daemons look the program up, each on its own host. */
        status = rrun_head_main(&opt, hosts, nhosts);
        rrun_options_free(&opt);
        return status;
    }
    if (getenv("SLURM_JOB_ID") && rd_tool_param.rrun_srun) {
        if (opt.n_psets > 0) { /* (srun has no such option: the job would run without its sets) */
            fprintf(stderr, "rrun: inside Slurm allocation %s, --pset cannot be passed to srun "
                    "(RDMPI_RRUN_SRUN=0 launches here instead)\n", getenv("SLURM_JOB_ID"));
            rrun_options_free(&opt);
            return RRUN_EXIT_USAGE;
        }
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
    if (rrun_job_init(&job, &opt, RRUN_SOLO, &solo_ops, hosts, 1, 0, NULL) != 0) {
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
    rrun_job_say_end(&job);
    status = job.exit_status;
out:
    rrun_teardown(&job, status, -1, NULL);
}

/* rrun.h - the pieces of rrun, the job launcher, and the state they share.
 *
 * rrun is a PMIx server built on libpmix's server API. main.c runs the
 * steps in order: options -> program lookup -> signals -> binding plan ->
 * session directory -> PMIx server -> spawn -> supervise -> clean up.
 *
 * Threads: libpmix calls the upcalls in server.c on its own progress thread.
 * They only record facts in struct rrun_job under job->lock and wake the
 * main thread through job->wake_fd; everything else runs on the main thread. */
#ifndef RRUN_H
#define RRUN_H

#include <pthread.h>
#include <sched.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* Exit statuses of rrun itself (rank failures use the rank's own code). */
#define RRUN_EXIT_USAGE 2      /* bad command line: nothing was started */
#define RRUN_EXIT_INTERNAL 1   /* rrun could not set the job up */
#define RRUN_EXIT_NOEXEC 127   /* the program cannot be found or run */
#define RRUN_EXIT_TIMEOUT 124  /* --timeout expired (as timeout(1) does) */

/* Milliseconds between SIGTERM and SIGKILL when rrun ends a job. */
#define RRUN_KILL_GRACE_MS 1000
/* Upper bound for each wait on a libpmix callback. */
#define RRUN_PMIX_WAIT_MS 5000
/* Upper bound for the deregistration waits at the end. */
#define RRUN_PMIX_FINI_WAIT_MS 1000

/* ------------------------------------------------------------ options.c */
enum rrun_bind { RRUN_BIND_DEFAULT, RRUN_BIND_CORE, RRUN_BIND_NONE };

struct rrun_options {
    int np;
    enum rrun_bind bind;
    bool tag_output;
    double timeout;            /* seconds; 0: none */
    const char *timeout_text;  /* as typed, for the message */
    const char **env_specs;    /* the -x arguments: "VAR" or "VAR=val" */
    int n_env_specs;
    char **argv;               /* program and its arguments (points into argv) */
};

/* Parse the command line. Returns 0 to run a job, -1 when --help or
 * --version was printed (exit 0), or RRUN_EXIT_USAGE after printing the
 * error. */
int rrun_parse_options(int argc, char **argv, struct rrun_options *opt);
void rrun_options_free(struct rrun_options *opt);

/* ---------------------------------------------------------------- iof.c */
/* Bytes of one rank's stream that do not yet end a line. */
struct rrun_linebuf {
    char *data;
    size_t len, cap;
};

/* Forward what is in buf[0..n) for `rank` to out_fd, complete lines only,
 * each prefixed with "[rank] " when tag is set. */
void rrun_iof_push(struct rrun_linebuf *lb, int out_fd, int rank, bool tag,
                   const char *buf, size_t n);
/* At end of stream: write a last line that has no newline. */
void rrun_iof_flush(struct rrun_linebuf *lb, int out_fd, int rank, bool tag);
void rrun_iof_free(struct rrun_linebuf *lb);

/* -------------------------------------------------------------- job state */
enum rrun_end_cause {
    RRUN_END_NONE,
    RRUN_END_SIGNALED,    /* a rank was killed by a signal */
    RRUN_END_EXIT,        /* a rank exited with a non-zero status */
    RRUN_END_NOFINALIZE,  /* a rank exited without PMIx_Finalize */
    RRUN_END_ABORT,       /* a rank called PMIx_Abort */
    RRUN_END_TIMEOUT,     /* --timeout expired */
    RRUN_END_RRUN_SIGNAL, /* rrun itself got SIGINT/SIGTERM/SIGHUP */
    RRUN_END_SPAWN,       /* rrun could not start every rank */
};

struct rrun_rank {
    int rank;
    pid_t pid;              /* 0: not started */
    bool reaped;
    int wait_status;
    int out_fd, err_fd;     /* read ends of the rank's stdout/stderr pipes; -1: closed */
    struct rrun_linebuf out_buf, err_buf;
    cpu_set_t *cpuset;      /* binding, or NULL */
    size_t cpuset_size;
    char **env;             /* environment for execve (malloc'd) */
    /* Set by upcalls under job->lock. */
    bool connected, finalized;
};

struct rrun_job {
    const struct rrun_options *opt;
    int np;
    struct rrun_rank *ranks;
    char nspace[256];
    char hostname[256];
    const char *exe_path;       /* resolved program path */
    bool oversubscribed;
    pid_t pgid;                 /* the job's own process group, or 0 */
    char *session_dir;

    /* Shared with libpmix's thread. */
    pthread_mutex_t lock;
    int wake_rd, wake_wr;       /* self-pipe: upcalls -> main loop */
    bool abort_called;
    int abort_rank, abort_code;
    char abort_msg[512];

    /* Main-thread only: how the job ends. */
    enum rrun_end_cause cause;
    int cause_rank, cause_value; /* rank and its status / signal / rrun's signal */
    int exit_status;
    long long kill_at_ms;        /* monotonic time of the SIGKILL; 0: none */
};

/* ------------------------------------------------------------ session.c */
/* Make a private directory under $TMPDIR (or /tmp); NULL on error. */
char *rrun_session_create(void);
/* Remove it with everything in it. */
void rrun_session_remove(char *dir);
void rrun_shm_sweep(const char *nspace);

/* ------------------------------------------------------------ binding.c */
/* Decide binding and oversubscription; fills rank->cpuset for bound ranks.
 * Returns 0, or -1 with a message printed. */
int rrun_binding_plan(struct rrun_job *job, enum rrun_bind mode);
/* The hwloc topology (hwloc_topology_t), for libpmix; NULL if not loaded. */
void *rrun_binding_topology(void);
/* Release it, after PMIx_server_finalize. */
void rrun_binding_fini(void);

/* ------------------------------------------------------------- server.c */
int rrun_server_start(struct rrun_job *job);           /* init + nspace + clients */
int rrun_server_setup_fork(struct rrun_job *job, int rank, char ***env);
void rrun_server_stop(struct rrun_job *job);           /* deregister + finalize */

/* -------------------------------------------------------------- spawn.c */
/* Find prog as execvp would; returns a malloc'd path or NULL with errno set. */
char *rrun_find_program(const char *prog);
/* Build every rank's environment (environ, -x, PMIx variables). */
int rrun_spawn_prepare_env(struct rrun_job *job);
/* fork/exec every rank; 0, or -1 if some rank could not be started. */
int rrun_spawn_all(struct rrun_job *job, const sigset_t *child_mask);
/* Send sig to every rank still running. */
void rrun_signal_ranks(struct rrun_job *job, int sig);
/* Free the per-rank state (environments, masks, buffers, fds). */
void rrun_ranks_free(struct rrun_job *job);

/* ---------------------------------------------------------- supervise.c */
/* Block the signals rrun handles and return a signalfd for them; the
 * original mask goes to *orig for the ranks. -1 on error. */
int rrun_signals_setup(sigset_t *orig);
/* The main loop: forward output, react to exits, upcalls, signals and the
 * timeout until every rank is reaped. Sets job->exit_status. */
void rrun_supervise(struct rrun_job *job, int sig_fd);
/* Start ending the job for `cause` (the first cause wins): signal every
 * rank (SIGTERM, or rrun's own signal), SIGKILL after the grace time. */
void rrun_job_end(struct rrun_job *job, enum rrun_end_cause cause, int rank, int value);
/* Print the one message that says why the job ended, if any. */
void rrun_report_end(const struct rrun_job *job);

/* Wake the main loop (async-signal and thread safe). */
void rrun_wake(struct rrun_job *job);

#endif

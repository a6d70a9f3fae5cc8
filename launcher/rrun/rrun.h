/* rrun.h - the pieces of rrun, the job launcher, and the state they share.
 *
 * rrun is a PMIx server built on libpmix's server API. main.c runs the
 * steps in order: options -> program lookup -> signals -> binding plan ->
 * session directory -> report file -> PMIx server -> spawn -> supervise ->
 * clean up and exit (teardown.c).
 *
 * Several hosts (--host/--hostfile): rrun becomes the head (head.c). It
 * starts one daemon per host that has ranks (`rrun --daemon`, through the
 * launch agent for other hosts, forked directly for this one) and talks
 * to each over the agent's stdin/stdout (chan.c). A daemon (daemon.c) runs
 * the single-host steps above for its own ranks, and instead of deciding
 * anything reports to the head: output, starts, exits, aborts and its
 * fence contributions; the head all-gathers the fences, decides how the
 * job ends and tells the daemons which signal to send.
 *
 * Layers: a file calls only files of its own layer or below, and no files
 * call each other round a circle (test/tools/cycles.sh, run by
 * test/unit/layers.sh), bottom first:
 *   1 options, iof, chan, hosts, session, binding, guard, teardown: pieces
 *     that know no mode (teardown and binding take the job's state only)
 *   2 job.c: the job's state and its end (rrun_job_end: exit status,
 *     signals), whatever the mode
 *   3 report, server, spawn: what every mode needs (spawn asks server and
 *     report for each rank's environment)
 *   4 supervise: one host's main loop (one host, or a daemon)
 *   5 head.c, daemon.c: the two sides of a job over several hosts
 *   6 main.c: the command line, then one host's job itself, or the head,
 *     or the daemon, or the report of another rrun
 * Where a lower file needs what a mode does its own way (the head signals
 * its ranks through the daemons; a daemon reports to its head), it calls
 * through job->ops (struct rrun_mode_ops), which the mode's file fills.
 *
 * Threads: libpmix calls the upcalls in server.c on its own progress thread.
 * They only record facts in struct rrun_job under job->lock and wake the
 * main thread through the job's self-pipe (rrun_wake), or (queries) read
 * the options, fixed before the server starts; everything else runs on the
 * main thread. */
#ifndef RRUN_H
#define RRUN_H

#include <pthread.h>
#include <sched.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
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
/* How long an abort waits for the death of another rank that it may be
 * the consequence of (a rank that sees its peer gone aborts): a rank of
 * this host found dying, or (head) any rank's failure reported meanwhile. */
#define RRUN_ABORT_WAIT_MS 1000
#define RRUN_HEAD_ABORT_WAIT_MS 300
/* How long the ranks have to answer a request for a report. */
#define RRUN_REPORT_WAIT_MS 1000

/* ------------------------------------------------------------ options.c */
enum rrun_bind { RRUN_BIND_DEFAULT, RRUN_BIND_CORE, RRUN_BIND_NONE };

/* A process set of --pset NAME=RANKS: defined in the PMIx server for the
 * MPI library's sessions (server.c). */
struct rrun_pset {
    char *name;                /* malloc'd */
    int *ranks;                /* malloc'd, ascending, each once, all below np */
    int n;                     /* at least 1 */
};

struct rrun_options {
    int np;
    enum rrun_bind bind;
    bool tag_output;
    double timeout;            /* seconds; 0: none */
    const char *timeout_text;  /* as typed, for the message */
    const char *timeout_from;  /* "--timeout" or "MPIEXEC_TIMEOUT", for the message */
    const char **env_specs;    /* the -x arguments: "VAR" or "VAR=val" */
    int n_env_specs;
    char **argv;               /* program and its arguments (points into argv) */
    const char *hosts;         /* --host h1[:n],h2[:n],...; NULL: this node only */
    const char *hostfile;      /* --hostfile F */
    const char *launch_agent;  /* --launch-agent CMD (default "ssh") */
    bool daemon;               /* --daemon: serve one host of a head's job */
    const char *report_pending; /* --report-pending PID: ask that rrun for a report */
    struct rrun_pset *psets;   /* the --pset options, in order (malloc'd) */
    int n_psets;
};

/* Parse the command line. Returns 0 to run a job, -1 when --help or
 * --version was printed (exit 0), or RRUN_EXIT_USAGE after printing the
 * error. */
int rrun_parse_options(int argc, char **argv, struct rrun_options *opt);
/* Every --pset rank below opt->np: 0, or RRUN_EXIT_USAGE after printing
 * the error (rrun_parse_options checks when -np was given). */
int rrun_psets_check(const struct rrun_options *opt);
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

/* ---------------------------------------------------------------- chan.c */
/* The head <-> daemon channel: frames of (u32 type, u32 length, payload),
 * payloads built from u32s and byte strings. */
enum rrun_msg {
    /* head -> daemon */
    RRUN_MSG_JOB = 1,      /* the job description (first frame) */
    RRUN_MSG_SIGNAL,       /* u32 signal: send it to every rank */
    RRUN_MSG_FENCE_DONE,   /* bytes: every host's fence contribution */
    RRUN_MSG_STDIN,        /* bytes for rank 0's stdin; empty: end of file */
    RRUN_MSG_REPORT_ASK,   /* ask the ranks what they wait for (report.c) */
    /* daemon -> head */
    RRUN_MSG_STARTED = 16, /* u32 rank, u32 pid */
    RRUN_MSG_OUT,          /* u32 rank, u32 stream (1, 2), bytes */
    RRUN_MSG_EXITED,       /* u32 rank, u32 wait status, u32 skipped finalize */
    RRUN_MSG_ABORT,        /* u32 rank, u32 code, bytes message */
    RRUN_MSG_FENCE,        /* bytes: this host's fence contribution */
    RRUN_MSG_FAIL,         /* bytes: why the daemon could not run its ranks */
    RRUN_MSG_DONE,         /* every rank reaped, everything cleaned up */
    RRUN_MSG_STDIN_MORE,   /* rank 0 took all its stdin so far: send more */
    RRUN_MSG_REPORT,       /* u32 n, then n x (u32 rank, u32 pid, u32 kind, bytes text) */
};

struct rrun_buf {
    char *data;
    size_t len, cap, pos; /* pos: read position */
    bool bad;             /* a put ran out of memory or a get ran past the end */
};

void rrun_buf_u32(struct rrun_buf *b, uint32_t v);
void rrun_buf_bytes(struct rrun_buf *b, const void *p, size_t n); /* u32 length + bytes */
void rrun_buf_raw(struct rrun_buf *b, const void *p, size_t n);   /* bytes only */
void rrun_buf_str(struct rrun_buf *b, const char *s);
uint32_t rrun_buf_get_u32(struct rrun_buf *b);
/* Points into the buffer; *n its length. */
const char *rrun_buf_get_bytes(struct rrun_buf *b, size_t *n);
/* A malloc'd NUL-terminated copy. */
char *rrun_buf_get_str(struct rrun_buf *b);
void rrun_buf_free(struct rrun_buf *b);

/* Incoming frames: read() what is there, then take whole frames. */
struct rrun_chan_in {
    char *data;
    size_t len, cap;
};
/* Read what fd has (non-blocking); 1 at end of file or error, else 0. */
int rrun_chan_fill(struct rrun_chan_in *in, int fd);
/* The next whole frame, copied into *payload (reset first); 1 if there
 * was one, 0 if not yet, -1 if the stream is corrupt. */
int rrun_chan_next(struct rrun_chan_in *in, uint32_t *type, struct rrun_buf *payload);
void rrun_chan_in_free(struct rrun_chan_in *in);
/* Append one frame to an outgoing byte queue. */
void rrun_chan_frame(struct rrun_buf *out, uint32_t type, const struct rrun_buf *payload);
/* Write as much of out as fd takes now (non-blocking fd); -1 on error. */
int rrun_chan_flush(struct rrun_buf *out, int fd);
/* Write one frame completely (blocking fd); -1 on error. */
int rrun_chan_send(int fd, uint32_t type, const struct rrun_buf *payload);

/* --------------------------------------------------------------- hosts.c */
struct rrun_host {
    char *name;
    int slots;
    int first_rank, nranks;  /* the ranks mapped here, by slot, in order */
    bool local;              /* this machine: its daemon is forked directly */
    /* Head only: the daemon. */
    pid_t pid;               /* the launch agent (or the local daemon) */
    int to_fd, from_fd;      /* its stdin and stdout; -1: closed */
    struct rrun_buf out;     /* frames not yet written to it */
    struct rrun_chan_in in;
    int exited;              /* its ranks whose end it reported */
    bool done, failed, lost;
    bool fence_in;           /* it contributed to the pending fence */
    struct rrun_buf fence;
    int agent_status;
    bool agent_reaped;
};

/* The hosts of --host or --hostfile (NULL, 0 when neither was given).
 * Sets opt->np to the slot count when -np was not given. 0, or an exit
 * status after printing the error. */
int rrun_hosts_parse(struct rrun_options *opt, struct rrun_host **hosts, int *nhosts);
void rrun_hosts_free(struct rrun_host *hosts, int nhosts);

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
    RRUN_END_DAEMON,      /* a host's daemon failed or was lost */
};

enum rrun_mode {
    RRUN_SOLO,   /* one host, served by this process */
    RRUN_HEAD,   /* several hosts: this process only coordinates daemons */
    RRUN_DAEMON, /* one host of a head's job */
};

struct rrun_rank {
    int rank;               /* in the job */
    int host;               /* index in job->hosts */
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
    /* It called PMIx_Abort (any abort, not only the job's first): its exit
     * follows its abort, and is never a cause of its own. (Head: an abort
     * a daemon reported.) */
    bool aborted;
    int abort_code;
    char *abort_msg;            /* malloc'd; NULL: none or no memory */
    /* Main thread. */
    bool abort_sent;            /* daemon: its abort went to the head */
    bool held;                  /* reaped before the job's abort was decided:
                                 * judged then, with wait_status */
};

struct rrun_mode_ops;

struct rrun_job {
    const struct rrun_options *opt;
    enum rrun_mode mode;
    const struct rrun_mode_ops *ops; /* what the mode does its own way */
    int np;                     /* ranks in ranks[] (this host's, or all for the head) */
    int size;                   /* ranks in the job */
    int first_rank;             /* ranks[i].rank == first_rank + i */
    struct rrun_rank *ranks;
    struct rrun_host *hosts;    /* every host of the job (SOLO: this one) */
    int nhosts;
    int my_host;                /* the host this process serves; -1: head */
    char nspace[256];
    char hostname[256];
    const char *exe_path;       /* resolved program path */
    bool oversubscribed;
    pid_t pgid;                 /* the job's own process group, or 0 */
    char *session_dir;

    /* Shared with libpmix's thread. */
    pthread_mutex_t lock;
    int wake_rd, wake_wr;       /* self-pipe: upcalls -> main loop */
    bool abort_called;          /* the job's first abort (each rank's: rrun_rank) */
    int abort_rank, abort_code;
    char abort_msg[512];
    /* Daemon: the pending fence (from libpmix's thread). */
    bool fence_pending, fence_sent;
    struct rrun_buf fence_data;
    void *fence_cbfunc, *fence_cbdata;
    int to_head;                /* daemon: the channel to the head (from it: fd 0) */
    struct rrun_chan_in from_head;
    /* Main thread: an abort seen but not yet taken as the cause, because
     * another rank was dying (until this monotonic time; 0: none). The
     * exits of ranks that aborted wait for the decision (rrun_rank.held). */
    long long abort_wait_until;
    bool abort_decided;
    /* Daemon with rank 0: its stdin, fed from the head's, 64 KiB at a time. */
    int stdin_wr;               /* -1: none or closed */
    struct rrun_buf stdin_q;
    bool stdin_eof;
    /* Head: the host that asked for stdin (-1: none yet / pending). */
    int stdin_want;
    bool stdin_done;

    /* Main-thread only: how the job ends. */
    enum rrun_end_cause cause;
    int cause_rank, cause_value; /* rank and its status / signal / rrun's signal */
    int cause_host;              /* RRUN_END_DAEMON: which host */
    char cause_text[512];        /* RRUN_END_DAEMON: what its daemon said */
    int exit_status;
    long long kill_at_ms;        /* monotonic time of the SIGKILL; 0: none */
};

/* What the three modes do each their own way, filled by the mode's own
 * file: main.c (one host), head.c, daemon.c. The files that serve every
 * mode (job, report, spawn, server, supervise) call these instead of
 * calling up into a mode's file; a member a mode has no use for is NULL,
 * and is only called in the mode it names. */
struct rrun_mode_ops {
    /* Send sig to every rank of the job: one host and a daemon signal this
     * host's ranks (rrun_signal_ranks); the head tells every daemon. */
    void (*signal)(struct rrun_job *job, int sig);
    /* Head: send RRUN_MSG_REPORT_ASK to every daemon; how many were asked. */
    int (*report_ask_hosts)(struct rrun_job *job);
    /* Daemon: a frame to the head (main thread only). */
    void (*send_head)(struct rrun_job *job, uint32_t type, const struct rrun_buf *payload);
    /* Daemon, from the main loop: read what the head sent (fd 0) and act
     * on it; 1 when the head is gone. */
    int (*read_head)(struct rrun_job *job);
    /* Daemon, from the main loop: write what is queued for rank 0's stdin;
     * ask the head for more when it is all taken. */
    void (*feed_stdin)(struct rrun_job *job);
    /* Daemon, from the main loop: hand the head the pending fence
     * contribution, if any. */
    void (*fence_out)(struct rrun_job *job);
};

/* ---------------------------------------------------------------- job.c */
/* Set up the job state: mode and its operations, hosts (the job takes them
 * over), the host this process serves (-1: the head) and the namespace
 * (NULL: a new one). */
int rrun_job_init(struct rrun_job *job, const struct rrun_options *opt, enum rrun_mode mode,
                  const struct rrun_mode_ops *ops, struct rrun_host *hosts, int nhosts, int my_host,
                  const char *nspace);
void rrun_job_fini(struct rrun_job *job);
/* Free the per-rank state (environments, masks, buffers, fds). */
void rrun_ranks_free(struct rrun_job *job);
/* Free a NULL-terminated array of malloc'd strings and the array. */
void rrun_env_free(char **env);
/* The job's rank, or NULL. */
struct rrun_rank *rrun_rank_of(struct rrun_job *job, int rank);
/* Wake the main loop (async-signal and thread safe). */
void rrun_wake(struct rrun_job *job);
/* Milliseconds of CLOCK_MONOTONIC. */
long long rrun_now_ms(void);
/* Start ending the job for `cause` (the first cause wins): signal every
 * rank (job->ops->signal: SIGTERM, or rrun's own signal); the main loop
 * sends SIGKILL at kill_at_ms, after the grace time. */
void rrun_job_end(struct rrun_job *job, enum rrun_end_cause cause, int rank, int value);
/* A rank ended with wait status `status` (skipped_finalize: it connected
 * but never finalized): end the job if that is a failure. */
void rrun_rank_ended(struct rrun_job *job, struct rrun_rank *r, int status,
                     bool skipped_finalize);
/* Print the one message that says why the job ended, if any. */
void rrun_job_say_end(const struct rrun_job *job);

/* ------------------------------------------------------------ session.c */
/* Make a private directory under $TMPDIR (or /tmp); NULL on error. */
char *rrun_session_create(void);
/* "rdmpi-<nspace as a file name>-" into out; its length, 0 if too long. */
size_t rrun_shm_prefix(const char *nspace, char *out, size_t size);

/* ----------------------------------------------------------- teardown.c */
/* The end: park rrun's other threads, remove the session directory and
 * the job's shm names, write last (a whole frame, if any) to last_fd and
 * _exit(status). The PMIx server is not finalized (teardown.c says why). */
_Noreturn void rrun_teardown(struct rrun_job *job, int status, int last_fd, const struct rrun_buf *last);
/* From here on a crash of rrun kills the job's ranks and removes the
 * session directory and shm names before rrun dies of its signal. */
void rrun_crash_guard(struct rrun_job *job);

/* ------------------------------------------------------------ binding.c */
/* Decide binding and oversubscription; fills rank->cpuset for bound ranks.
 * Returns 0, or -1 with a message printed. */
int rrun_binding_plan(struct rrun_job *job, enum rrun_bind mode);
/* The hwloc topology (hwloc_topology_t), for libpmix; NULL if not loaded. */
void *rrun_binding_topology(void);

/* ------------------------------------------------------------- report.c */
enum rrun_report_why { RRUN_REPORT_ASKED, RRUN_REPORT_TIMEOUT };
enum rrun_report_kind {
    RRUN_REP_ANSWER = 1, /* text: the rank's answer (runtime/base/report.h lines) */
    RRUN_REP_STATE,      /* text: what it is blocked in, from its slot */
    RRUN_REP_SILENT,     /* text: how it looks from outside */
};
struct rrun_report_entry {
    int rank;
    long pid;
    int kind;
    char *text;
};
/* The ranks' answer file in the session directory (one host's ranks). */
int rrun_report_setup(struct rrun_job *job);
/* "RDMPI_RRUN_REPORT=PATH:SLOT" for a rank's environment (malloc'd). */
char *rrun_report_env(int slot);
/* Ask; the report is printed once the ranks answered (rrun_report_check
 * from the main loop). RRUN_REPORT_TIMEOUT ends the job after it. */
void rrun_report_ask(struct rrun_job *job, enum rrun_report_why why);
/* The time limit passed: the report, then the end. */
void rrun_report_timeout(struct rrun_job *job);
/* Milliseconds until rrun_report_check should look again; -1: idle. */
int rrun_report_wait_ms(void);
void rrun_report_check(struct rrun_job *job);
/* Head: a daemon's RRUN_MSG_REPORT. */
void rrun_report_add(struct rrun_job *job, struct rrun_buf *p);
/* `rrun --report-pending PID`. */
int rrun_report_pending_main(const char *pid);

/* ------------------------------------------------------------- server.c */
int rrun_server_start(struct rrun_job *job);           /* init + nspace + clients */
/* (no stop: rrun exits without finalizing it, teardown.c) */
int rrun_server_setup_fork(struct rrun_job *job, int rank, char ***env);
/* Daemon: the head's answer to the pending fence (main thread). */
void rrun_server_fence_done(struct rrun_job *job, const char *data, size_t len);

/* -------------------------------------------------------------- names.c */
/* The name service (MPI_Publish_name ...): the job whose mode says whether
 * this server answers (one host) or refuses (a daemon); before the
 * server starts. The upcalls are in names.h (libpmix's types). */
void rrun_names_init(const struct rrun_job *job);

/* -------------------------------------------------------------- spawn.c */
/* Can this host start nranks processes at all (kernel.pid_max, ulimit -u)?
 * 0, or -1 with the reason in why. */
int rrun_check_capacity(int nranks, char *why, size_t n);
/* Find prog as execvp would; returns a malloc'd path or NULL with errno set. */
char *rrun_find_program(const char *prog);
/* Build every rank's environment (environ, -x, PMIx variables). */
int rrun_spawn_prepare_env(struct rrun_job *job);
/* fork/exec every rank; 0, or -1 if some rank could not be started. */
int rrun_spawn_all(struct rrun_job *job, const sigset_t *child_mask);
/* Send sig to every rank of this host still running (and their process
 * group). */
void rrun_signal_ranks(struct rrun_job *job, int sig);

/* ---------------------------------------------------------- supervise.c */
/* Block the signals rrun handles and return a signalfd for them; the
 * original mask goes to *orig for the ranks. -1 on error. */
int rrun_signals_setup(sigset_t *orig);
/* The main loop: forward output, react to exits, upcalls, signals and the
 * timeout until every rank is reaped. Sets job->exit_status. */
void rrun_supervise(struct rrun_job *job, int sig_fd);

/* --------------------------------------------------------------- head.c */
/* Run the job over several hosts (this process becomes the head; the job
 * takes the hosts over); returns rrun's exit status. */
int rrun_head_main(const struct rrun_options *opt, struct rrun_host *hosts, int nhosts);

/* ------------------------------------------------------------- daemon.c */
/* `rrun --daemon`: serve one host; returns the daemon's exit status. */
int rrun_daemon_main(void);

#endif

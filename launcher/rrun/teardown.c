/* teardown.c - the end of rrun, bounded in time whatever libpmix does.
 *
 * After the last rank is reaped rrun stops its PMIx server, removes its
 * session directory and sweeps the job's /dev/shm names. libpmix's part can
 * block: after some rank deaths (a SIGKILL landing while the rank connects)
 * PMIx_server_finalize waited forever for a mutex of libpmix's own thread,
 * and rrun never exited, its session directory left behind. So the
 * teardown runs under a watchdog thread: if it has not finished within
 * RRUN_TEARDOWN_MS, the watchdog removes what rrun made, lets the caller
 * say its last word (a daemon tells its head it is done) and exits the
 * process with the job's status.
 *
 * And if rrun itself crashes (a fault in libpmix's thread, say), the crash
 * guard still kills the job's ranks, removes the session directory and the
 * job's /dev/shm names with async-signal-safe calls only, says so, and dies
 * of the same signal. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "launcher/rrun/rrun.h"

static struct {
    pthread_mutex_t lock;
    pthread_cond_t cond;
    bool done;
    struct rrun_job *job;
    int status;
    void (*last)(struct rrun_job *);
} wd = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, false, NULL, 0, NULL};

static void remove_made(struct rrun_job *job)
{
    rrun_session_remove(job->session_dir);
    job->session_dir = NULL;
    if (job->nspace[0])
        rrun_shm_sweep(job->nspace);
}

static void *watchdog(void *arg)
{
    struct timespec deadline;

    (void)arg;
    clock_gettime(CLOCK_MONOTONIC, &deadline);
    deadline.tv_sec += RRUN_TEARDOWN_MS / 1000;
    deadline.tv_nsec += (RRUN_TEARDOWN_MS % 1000) * 1000000L;
    if (deadline.tv_nsec >= 1000000000L) {
        deadline.tv_sec++;
        deadline.tv_nsec -= 1000000000L;
    }
    pthread_mutex_lock(&wd.lock);
    while (!wd.done)
        if (pthread_cond_timedwait(&wd.cond, &wd.lock, &deadline) == ETIMEDOUT)
            break;
    if (!wd.done) {
        /* The main thread is stuck inside libpmix: finish without it. The
         * lock stays held, so it cannot start removing too. */
        const char *log = getenv("RDMPI_LOG");

        if (log && strncmp(log, "debug", 5) == 0)
            fprintf(stderr, "rrun: the PMIx server did not stop within %d ms; exiting without it\n",
                    RRUN_TEARDOWN_MS);
        remove_made(wd.job);
        if (wd.last)
            wd.last(wd.job);
        _exit(wd.status);
    }
    pthread_mutex_unlock(&wd.lock);
    return NULL;
}

void rrun_teardown(struct rrun_job *job, int status, void (*last)(struct rrun_job *))
{
    pthread_condattr_t ca;
    pthread_t t;
    bool watched;

    wd.job = job;
    wd.status = status;
    wd.last = last;
    wd.done = false;
    /* the deadline is on the monotonic clock */
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    pthread_cond_destroy(&wd.cond);
    pthread_cond_init(&wd.cond, &ca);
    pthread_condattr_destroy(&ca);
    watched = pthread_create(&t, NULL, watchdog, NULL) == 0;

    rrun_server_stop(job);
    rrun_binding_fini();

    pthread_mutex_lock(&wd.lock);
    wd.done = true;
    pthread_cond_signal(&wd.cond);
    pthread_mutex_unlock(&wd.lock);
    if (watched)
        pthread_join(t, NULL);
    remove_made(job);
    if (last)
        last(job);
}

/* ------------------------------------------------------------ crash guard */

static struct {
    char session_dir[4096];
    char shm_prefix[300];
    struct rrun_job *job;
    bool armed;
} cg;

static char crash_stack[64 * 1024];

/* Remove name (in dirfd) and everything under it; depth-bounded. */
static void rm_tree(int dirfd, const char *name, int depth)
{
    char buf[4096];
    long n;
    int fd = openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);

    if (fd < 0) {
        unlinkat(dirfd, name, 0);
        return;
    }
    while ((n = syscall(SYS_getdents64, fd, buf, sizeof(buf))) > 0) {
        for (long off = 0; off < n;) {
            struct dirent64 *d = (struct dirent64 *)(buf + off);

            off += d->d_reclen;
            if (strcmp(d->d_name, ".") == 0 || strcmp(d->d_name, "..") == 0)
                continue;
            if (d->d_type == DT_DIR && depth < 8)
                rm_tree(fd, d->d_name, depth + 1);
            else
                unlinkat(fd, d->d_name, 0);
        }
    }
    close(fd);
    unlinkat(dirfd, name, AT_REMOVEDIR);
}

static void sweep_shm(void)
{
    char buf[4096];
    long n;
    size_t plen = strlen(cg.shm_prefix);
    int fd = open("/dev/shm", O_RDONLY | O_DIRECTORY | O_CLOEXEC);

    if (fd < 0 || plen == 0) {
        if (fd >= 0)
            close(fd);
        return;
    }
    while ((n = syscall(SYS_getdents64, fd, buf, sizeof(buf))) > 0) {
        for (long off = 0; off < n;) {
            struct dirent64 *d = (struct dirent64 *)(buf + off);

            off += d->d_reclen;
            if (strncmp(d->d_name, cg.shm_prefix, plen) == 0)
                unlinkat(fd, d->d_name, 0);
        }
    }
    close(fd);
}

static void say(const char *s)
{
    ssize_t w = write(2, s, strlen(s));

    (void)w;
}

static void crashed(int sig)
{
    struct rrun_job *job = cg.job;

    if (cg.armed) {
        cg.armed = false;
        /* the ranks first: nobody is left to serve them (never a pid
         * already reaped, nor the group once all are: numbers get reused) */
        bool live = false;

        for (int i = 0; i < job->np; i++)
            if (job->ranks[i].pid > 0 && !job->ranks[i].reaped) {
                kill(job->ranks[i].pid, SIGKILL);
                live = true;
            }
        if (live && job->pgid > 0)
            kill(-job->pgid, SIGKILL);
        if (cg.session_dir[0])
            rm_tree(AT_FDCWD, cg.session_dir, 0);
        sweep_shm();
        char num[16];
        int k = (int)sizeof(num) - 1, v = sig;

        num[k] = '\0';
        do
            num[--k] = (char)('0' + v % 10);
        while ((v /= 10) > 0 && k > 0);
        say("rrun: internal error: rrun itself got signal ");
        say(num + k);
        say("; the job's ranks were killed\n");
    }
    /* die of it, as the default action would: the status says so */
    signal(sig, SIG_DFL);
    raise(sig);
}

void rrun_crash_guard(struct rrun_job *job)
{
    static const int fatal[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT};
    stack_t ss = {.ss_sp = crash_stack, .ss_size = sizeof(crash_stack)};
    struct sigaction sa;

    cg.job = job;
    snprintf(cg.session_dir, sizeof(cg.session_dir), "%s", job->session_dir ? job->session_dir : "");
    /* the names rrun_shm_sweep removes */
    cg.shm_prefix[0] = '\0';
    if (job->nspace[0])
        rrun_shm_prefix(job->nspace, cg.shm_prefix, sizeof(cg.shm_prefix));
    sigaltstack(&ss, NULL);
    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = crashed;
    sa.sa_flags = SA_ONSTACK | SA_RESETHAND | SA_NODEFER;
    sigemptyset(&sa.sa_mask);
    for (size_t i = 0; i < sizeof(fatal) / sizeof(fatal[0]); i++)
        sigaction(fatal[i], &sa, NULL);
    cg.armed = true;
}

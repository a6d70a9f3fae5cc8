/* teardown.c - the end of rrun, bounded in time whatever libpmix does.
 *
 * Once the last rank is reaped, rrun removes its session directory and
 * sweeps the job's /dev/shm names, says its last word (a daemon tells its
 * head it is done) and exits at once with the job's status (_exit).
 *
 * It does not call PMIx_server_finalize. In a loop of random rank kills,
 * libpmix 4.2.2's finalize deadlocked (its progress thread stuck on its
 * own mutex after a rank died while connecting: 3 in 200 kills) and
 * segfaulted inside libpmix (1 in about 1000 kills under load): rrun then
 * hung for good, or died of a signal instead of exiting with the job's
 * status. Finalizing brings nothing to a process that is about to exit:
 * every client is gone, and every file libpmix made is in the session
 * directory, which rrun removes itself. _exit, not exit: libpmix's thread
 * is still running, and no destructor of libpmix or libevent may run
 * under it.
 *
 * Before it removes anything, rrun parks its other threads (libpmix's and
 * libevent's): each takes a signal whose handler waits for the end. A
 * progress thread still handling a message of a rank that died (a commit,
 * a connection going away) could otherwise create a file in the session
 * directory while it is being removed: one kill in about 200 under the
 * sanitizers left the directory behind. From the park on, rrun calls only
 * async-signal-safe functions (a parked thread may hold a lock of malloc
 * or stdio): the daemon's last word to its head is a frame made before.
 *
 * And if rrun itself crashes before that, the crash guard still kills the
 * job's ranks, removes the session directory and the job's /dev/shm names
 * with async-signal-safe calls only, says so, and dies of the same signal. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "launcher/rrun/rrun.h"
#include "runtime/base/sanitizer.h"

#ifdef RD_ASAN
/* <sanitizer/lsan_interface.h>: the check at exit, now (ends the process
 * with the sanitizer's exit code if something leaked) */
void __lsan_do_leak_check(void);
#endif

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

/* Remove /dev/shm's names that start with prefix. The shared-memory
 * transport names its node segment /dev/shm/rdmpi-<namespace>-<suffix>
 * (when it cannot use an anonymous memory file) and unlinks it as soon as
 * every local rank has attached; if a rank died before that, the name is
 * still there. */
static void sweep_shm(const char *prefix)
{
    char buf[4096];
    long n;
    size_t plen = strlen(prefix);
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
            if (strncmp(d->d_name, prefix, plen) == 0)
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
        /* and wait until they are gone (2 s at most: SIGKILL ends a
         * process only once it leaves the kernel, which on a loaded
         * machine took long enough that a rank outlived rrun) */
        for (int ms = 0; live && ms < 2000; ms++) {
            live = false;
            for (int i = 0; i < job->np; i++) {
                struct rrun_rank *r = &job->ranks[i];

                if (r->pid <= 0 || r->reaped)
                    continue;
                pid_t w = waitpid(r->pid, NULL, WNOHANG);

                if (w == r->pid || (w < 0 && errno != EINTR))
                    r->reaped = true;
                else
                    live = true;
            }
            if (live) {
                struct timespec ts = {0, 1000000};

                nanosleep(&ts, NULL);
            }
        }
        if (cg.session_dir[0])
            rm_tree(AT_FDCWD, cg.session_dir, 0);
        sweep_shm(cg.shm_prefix);
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

/* ------------------------------------------------------------ the end */

static volatile sig_atomic_t parked;

static void park(int sig)
{
    (void)sig;
    __atomic_add_fetch(&parked, 1, __ATOMIC_SEQ_CST);
    for (;;)
        pause();
}

/* Park every thread of rrun but the caller (bounded: a thread that does
 * not answer within 200 ms is left running). */
static void park_other_threads(void)
{
    int sig = SIGRTMAX - 1, sent = 0;
    pid_t me = (pid_t)syscall(SYS_gettid), tids[64];
    struct sigaction sa;

    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = park;
    sigfillset(&sa.sa_mask);
    if (sigaction(sig, &sa, NULL) != 0)
        return;
    /* twice: a thread that a parked one was starting shows the second time */
    for (int pass = 0; pass < 2; pass++) {
        char buf[4096];
        long n;
        int fd = open("/proc/self/task", O_RDONLY | O_DIRECTORY | O_CLOEXEC);

        if (fd < 0)
            return;
        while ((n = syscall(SYS_getdents64, fd, buf, sizeof(buf))) > 0) {
            for (long off = 0; off < n;) {
                struct dirent64 *d = (struct dirent64 *)(buf + off);
                pid_t tid = 0;
                bool known = false;

                off += d->d_reclen;
                for (const char *c = d->d_name; *c >= '0' && *c <= '9'; c++)
                    tid = tid * 10 + (*c - '0');
                for (int i = 0; i < sent; i++)
                    known |= tids[i] == tid;
                if (tid <= 0 || tid == me || known || sent == (int)(sizeof(tids) / sizeof(tids[0])))
                    continue;
                if (syscall(SYS_tgkill, getpid(), tid, sig) == 0)
                    tids[sent++] = tid;
            }
        }
        close(fd);
        for (int ms = 0; ms < 200 && __atomic_load_n(&parked, __ATOMIC_SEQ_CST) < sent; ms++) {
            struct timespec ts = {0, 1000000};

            nanosleep(&ts, NULL);
        }
    }
}

void rrun_teardown(struct rrun_job *job, int status, int last_fd, const struct rrun_buf *last)
{
    char prefix[300];

    prefix[0] = '\0';
    if (job->nspace[0])
        rrun_shm_prefix(job->nspace, prefix, sizeof(prefix));
    fflush(stdout);
    fflush(stderr);
#ifdef RD_ASAN
    /* _exit skips LeakSanitizer's check at exit: a sanitizer build runs it
     * here, so that rrun's own leaks fail its tests (libpmix's are
     * suppressed: runtime/base/lsan.supp, built into rrun too); before the
     * park, as the check takes the allocator's locks, which a parked
     * thread could hold */
    __lsan_do_leak_check();
#endif
    park_other_threads();
    if (job->session_dir != NULL)
        rm_tree(AT_FDCWD, job->session_dir, 0);
    sweep_shm(prefix);
    if (last != NULL && last_fd >= 0)
        for (size_t at = 0; at < last->len;) {
            ssize_t w = write(last_fd, last->data + at, last->len - at);

            if (w < 0 && errno == EINTR)
                continue;
            if (w <= 0)
                break;
            at += (size_t)w;
        }
    _exit(status);
}

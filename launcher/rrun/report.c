/* report.c - what every rank is waiting for, in one report.
 *
 * On --timeout (before the job is ended), on SIGUSR1, and for `rrun
 * --report-pending PID`, rrun asks its ranks what they wait in
 * (runtime/base/report.h: a file in the session directory with one slot per
 * rank; the ranks answer from inside their MPI waits) and prints what they
 * say, rank by rank, then the wait-for cycles it finds ("rank 0 waits to
 * receive from 1, tag 7; rank 1 waits to receive from 0, tag 7") and the
 * ranks everyone waits for that are not waiting in MPI. A rank that does
 * not answer within RRUN_REPORT_WAIT_MS is described from outside: not in
 * MPI yet, done with MPI, stopped, blocked in a PMIx fence (its slot's
 * state), or busy outside MPI. Over several hosts the head asks every
 * daemon, each collects its own ranks and sends them back (chan.c frames),
 * and the head prints. The report is also written to report.txt in the
 * session directory, where `rrun --report-pending` reads it. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <fcntl.h>
#include <glob.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "launcher/rrun/rrun.h"
#include "runtime/base/report.h"

static struct {
    struct rd_report_file *file; /* this host's */
    size_t len;
    char *path;
    /* a collection in progress */
    bool active;
    enum rrun_report_why why;
    long long deadline;
    uint32_t seq;
    /* head: what the daemons sent */
    struct rrun_report_entry *entries;
    int nentries;
    int hosts_left;
} rep;

int rrun_report_setup(struct rrun_job *job)
{
    size_t len = RD_REPORT_HEAD_BYTES + (size_t)job->np * sizeof(struct rd_report_slot);
    int fd;

    if (asprintf(&rep.path, "%s/pending", job->session_dir) < 0)
        return -1;
    fd = open(rep.path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (fd < 0 || ftruncate(fd, (off_t)len) != 0) {
        fprintf(stderr, "rrun: cannot make %s: %s\n", rep.path, strerror(errno));
        if (fd >= 0)
            close(fd);
        return -1;
    }
    rep.file = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    close(fd);
    if (rep.file == MAP_FAILED) {
        rep.file = NULL;
        return -1;
    }
    rep.len = len;
    rep.file->nslots = (uint32_t)job->np;
    return 0;
}

char *rrun_report_env(int slot)
{
    char *e = NULL;

    if (rep.path == NULL || asprintf(&e, "RDMPI_RRUN_REPORT=%s:%d", rep.path, slot) < 0)
        return NULL;
    return e;
}

int rrun_report_wait_ms(void)
{
    if (!rep.active)
        return -1;
    long long left = rep.deadline - rrun_now_ms();
    /* this host's slots are polled; the head only waits for frames */
    int step = rep.file != NULL ? 10 : 1000;
    return left <= 0 ? 0 : left < step ? (int)left : step;
}

/* ------------------------------------------------------------ one host */

/* How a rank that did not answer looks from outside. */
static void describe_silent(struct rrun_job *job, struct rrun_rank *r, int i,
                            struct rrun_report_entry *e)
{
    bool connected, finalized;
    char path[64], buf[512];
    char state = '?';
    int fd;

    pthread_mutex_lock(&job->lock);
    connected = r->connected;
    finalized = r->finalized;
    pthread_mutex_unlock(&job->lock);
    e->kind = RRUN_REP_SILENT;
    if (r->pid <= 0) {
        e->text = strdup("was never started");
        return;
    }
    if (r->reaped) {
        e->text = strdup("has exited");
        return;
    }
    snprintf(path, sizeof(path), "/proc/%ld/stat", (long)r->pid);
    fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd >= 0) {
        ssize_t n = read(fd, buf, sizeof(buf) - 1);
        close(fd);
        const char *p = n > 0 ? (buf[n] = '\0', strrchr(buf, ')')) : NULL;
        if (p != NULL)
            sscanf(p + 1, " %c", &state);
    }
    if (state == 'T' || state == 't') {
        e->text = strdup("is stopped (SIGSTOP, or a debugger): it cannot take part");
        return;
    }
    if (!connected) {
        e->text = strdup("has not reached MPI_Init yet (or does not use MPI)");
        return;
    }
    if (rep.file != NULL && !atomic_load(&rep.file->slot[i].present) && !finalized &&
        !rep.file->slot[i].state[0]) {
        e->text = strdup("is connected to PMIx but not (or not yet) in MPI: a program without "
                         "rdmpi, or one still in MPI_Init");
        return;
    }
    if (finalized) {
        e->text = strdup("has finished MPI (after MPI_Finalize) and not exited yet");
        return;
    }
    if (rep.file != NULL && rep.file->slot[i].state[0]) {
        e->kind = RRUN_REP_STATE;
        if (asprintf(&e->text, "in %.*s", (int)sizeof(rep.file->slot[i].state),
                     rep.file->slot[i].state) < 0)
            e->text = NULL;
        return;
    }
    e->text = strdup("is not waiting in MPI: computing, or blocked outside MPI");
}

/* The answers of this host's ranks (answered or not), as entries. */
static int collect_local(struct rrun_job *job, struct rrun_report_entry **out)
{
    struct rrun_report_entry *es = job->np > 0 ? calloc((size_t)job->np, sizeof(*es)) : NULL;

    *out = NULL;
    if (es == NULL)
        return 0;
    for (int i = 0; i < job->np; i++) {
        struct rrun_rank *r = &job->ranks[i];
        struct rd_report_slot *sl = &rep.file->slot[i];

        es[i].rank = r->rank;
        es[i].pid = (long)r->pid;
        if (!r->reaped && atomic_load_explicit(&sl->answered, memory_order_acquire) == rep.seq) {
            uint32_t len = atomic_load(&sl->len);

            if (len > sizeof(sl->text))
                len = sizeof(sl->text);
            es[i].kind = RRUN_REP_ANSWER;
            es[i].text = strndup(sl->text, len);
        } else {
            describe_silent(job, r, i, &es[i]);
        }
    }
    *out = es;
    return job->np;
}

static bool all_answered(struct rrun_job *job)
{
    for (int i = 0; i < job->np; i++) {
        struct rrun_rank *r = &job->ranks[i];
        bool connected, finalized;

        pthread_mutex_lock(&job->lock);
        connected = r->connected;
        finalized = r->finalized;
        pthread_mutex_unlock(&job->lock);
        /* only a rank inside MPI can answer */
        if (r->pid <= 0 || r->reaped || !connected || finalized ||
            !atomic_load_explicit(&rep.file->slot[i].present, memory_order_acquire) ||
            rep.file->slot[i].state[0])
            continue;
        if (atomic_load_explicit(&rep.file->slot[i].answered, memory_order_acquire) != rep.seq)
            return false;
    }
    return true;
}

/* ------------------------------------------------------------ printing */

struct edge {
    int from, to;
    const char *what; /* the short form: "to receive from 1, tag 7" */
    size_t len;
};

static const struct rrun_report_entry *entry_of(const struct rrun_report_entry *es, int n, int rank)
{
    for (int i = 0; i < n; i++)
        if (es[i].rank == rank)
            return &es[i];
    return NULL;
}

/* The W lines of every answer: "W <to> <short>\t<long>". */
static int edges_of(const struct rrun_report_entry *es, int n, struct edge **out)
{
    int cap = 16, ne = 0;
    struct edge *e = malloc((size_t)cap * sizeof(*e));

    for (int i = 0; e != NULL && i < n; i++) {
        if (es[i].kind != RRUN_REP_ANSWER || es[i].text == NULL)
            continue;
        for (const char *l = es[i].text; *l;) {
            const char *nl = strchr(l, '\n');
            size_t ll = nl ? (size_t)(nl - l) : strlen(l);
            int to, off = 0;

            if (ll > 2 && l[0] == 'W' && sscanf(l, "W %d %n", &to, &off) == 1 && off > 0) {
                const char *tab = memchr(l + off, '\t', ll - (size_t)off);

                if (ne == cap) {
                    struct edge *m = realloc(e, (size_t)(cap *= 2) * sizeof(*e));
                    if (m == NULL)
                        break;
                    e = m;
                }
                e[ne++] = (struct edge){es[i].rank, to, l + off,
                                        tab ? (size_t)(tab - (l + off)) : ll - (size_t)off};
            }
            l += ll + (nl != NULL);
        }
    }
    *out = e;
    return e ? ne : 0;
}

static void say(FILE *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void say(FILE *f, const char *fmt, ...)
{
    va_list ap;

    fputs("rrun: ", f);
    va_start(ap, fmt);
    vfprintf(f, fmt, ap);
    va_end(ap);
    fputc('\n', f);
}

/* Cycles of the wait-for graph: a depth-first search from each rank,
 * following the first edge of each rank that leads on. */
static void print_cycles(FILE *f, const struct rrun_report_entry *es, int n, const struct edge *e,
                         int ne)
{
    int printed = 0;
    int *path = malloc(sizeof(int) * (size_t)(n + 1)), *edge_at = malloc(sizeof(int) * (size_t)(n + 1));
    char *seen = calloc((size_t)ne, 1); /* edges already in a printed cycle */

    for (int start = 0; path && edge_at && seen && start < ne && printed < 4; start++) {
        /* walk from edge `start`, always taking the first edge out of a rank */
        int len = 0, cur = start;

        while (len <= n) {
            int to = e[cur].to, k;

            path[len] = cur;
            len++;
            /* back at a rank already on the path: a cycle from there */
            for (k = 0; k < len; k++)
                if (e[path[k]].from == to)
                    break;
            if (k < len) {
                bool fresh = false;

                for (int q = k; q < len; q++)
                    fresh |= !seen[path[q]];
                if (!fresh)
                    break;
                char line[2048];
                size_t o = 0;

                for (int q = k; q < len && o < sizeof(line) - 200; q++) {
                    const struct edge *x = &e[path[q]];

                    seen[path[q]] = 1;
                    o += (size_t)snprintf(line + o, sizeof(line) - o, "%srank %d waits %.*s",
                                          q > k ? "; " : "", x->from, (int)x->len, x->what);
                }
                say(f, "likely cycle: %s", line);
                printed++;
                break;
            }
            /* on to the first edge out of `to` */
            int next = -1;
            for (int q = 0; q < ne; q++)
                if (e[q].from == to) {
                    next = q;
                    break;
                }
            if (next < 0)
                break;
            cur = next;
        }
    }
    /* ranks waited for that cannot answer */
    for (int q = 0; q < ne; q++) {
        const struct rrun_report_entry *t = entry_of(es, n, e[q].to);

        if (t != NULL && t->kind == RRUN_REP_SILENT) {
            say(f, "rank %d waits %.*s; rank %d %s", e[q].from, (int)e[q].len, e[q].what,
                e[q].to, t->text ? t->text : "did not answer");
            printed++;
        }
    }
    if (printed == 0 && ne > 0)
        say(f, "no cycle among the waits above: a rank may be slow, or waiting on a wildcard");
    free(path);
    free(edge_at);
    free(seen);
}

static void print_report(struct rrun_job *job, FILE *f, const struct rrun_report_entry *es, int n,
                         const char *why)
{
    struct edge *e = NULL;
    int ne;

    say(f, "what the ranks are waiting for (%s):", why);
    for (int i = 0; i < n; i++) {
        const struct rrun_report_entry *x = &es[i];
        char who[320];
        const struct rrun_rank *r = job->mode == RRUN_HEAD ? rrun_rank_of(job, x->rank) : NULL;

        if (r != NULL)
            snprintf(who, sizeof(who), "rank %d (pid %ld on %s)", x->rank, x->pid,
                     job->hosts[r->host].name);
        else
            snprintf(who, sizeof(who), "rank %d (pid %ld)", x->rank, x->pid);
        if (x->kind != RRUN_REP_ANSWER) {
            say(f, "  %s %s", who, x->text ? x->text : "did not answer");
            continue;
        }
        /* "C call" first, then the other lines without their keys */
        const char *call = NULL;
        size_t calllen = 0;
        for (const char *l = x->text; *l;) {
            const char *nl = strchr(l, '\n');
            size_t ll = nl ? (size_t)(nl - l) : strlen(l);

            if (ll > 2 && l[0] == 'C' && l[1] == ' ') {
                call = l + 2;
                calllen = ll - 2;
            }
            l += ll + (nl != NULL);
        }
        if (call != NULL)
            say(f, "  %s in %.*s", who, (int)calllen, call);
        else
            say(f, "  %s waiting in MPI", who);
        int items = 0;
        for (const char *l = x->text; *l;) {
            const char *nl = strchr(l, '\n');
            size_t ll = nl ? (size_t)(nl - l) : strlen(l);
            int off = 0, to;

            if (ll > 2 && l[0] == 'W' && sscanf(l, "W %d %n", &to, &off) == 1 && off > 0) {
                const char *tab = memchr(l + off, '\t', ll - (size_t)off);
                const char *lng = tab ? tab + 1 : l + off;

                say(f, "      %.*s", (int)(ll - (size_t)(lng - l)), lng);
                items++;
            } else if (ll > 2 && l[0] == 'I' && l[1] == ' ') {
                say(f, "      %.*s", (int)ll - 2, l + 2);
                items++;
            }
            l += ll + (nl != NULL);
        }
        if (items == 0)
            say(f, "      nothing pending");
    }
    ne = edges_of(es, n, &e);
    print_cycles(f, es, n, e, ne);
    free(e);
}

static const char *why_text(struct rrun_job *job, enum rrun_report_why why, char *buf, size_t n)
{
    if (why == RRUN_REPORT_TIMEOUT)
        snprintf(buf, n, "the %s of %s s has passed",
                 job->opt->timeout_from ? job->opt->timeout_from : "--timeout", job->opt->timeout_text);
    else
        snprintf(buf, n, "asked for");
    return buf;
}

/* Print to stderr and to report.txt (through a rename: whole or not at all). */
static void publish(struct rrun_job *job, struct rrun_report_entry *es, int n)
{
    char why[128], *tmp = NULL, *final = NULL;

    why_text(job, rep.why, why, sizeof(why));
    print_report(job, stderr, es, n, why);
    if (job->session_dir != NULL && asprintf(&tmp, "%s/.report.txt", job->session_dir) >= 0 &&
        asprintf(&final, "%s/report.txt", job->session_dir) >= 0) {
        FILE *f = fopen(tmp, "w");

        if (f != NULL) {
            print_report(job, f, es, n, why);
            if (fclose(f) == 0)
                rename(tmp, final);
        }
    }
    free(tmp);
    free(final);
}

static void finish(struct rrun_job *job)
{
    rep.active = false;
    if (rep.why == RRUN_REPORT_TIMEOUT && job->mode != RRUN_DAEMON)
        rrun_job_end(job, RRUN_END_TIMEOUT, -1, 0);
}

/* ------------------------------------------------------------ asking */

void rrun_report_ask(struct rrun_job *job, enum rrun_report_why why)
{
    if (rep.active)
        return;
    rep.active = true;
    rep.why = why;
    if (job->mode == RRUN_HEAD) {
        for (int i = 0; i < rep.nentries; i++)
            free(rep.entries[i].text);
        free(rep.entries);
        rep.entries = NULL;
        rep.nentries = 0;
        rep.hosts_left = job->ops->report_ask_hosts(job);
        rep.deadline = rrun_now_ms() + RRUN_REPORT_WAIT_MS + 500;
        if (rep.hosts_left == 0)
            rep.deadline = rrun_now_ms();
        return;
    }
    if (rep.file == NULL) {
        rep.active = false;
        return;
    }
    rep.seq = atomic_load(&rep.file->seq) + 1;
    atomic_store_explicit(&rep.file->seq, rep.seq, memory_order_release);
    rep.deadline = rrun_now_ms() + RRUN_REPORT_WAIT_MS;
}

void rrun_report_timeout(struct rrun_job *job)
{
    /* a report asked for just before: no second one, the end now */
    if (rep.active)
        rrun_job_end(job, RRUN_END_TIMEOUT, -1, 0);
    else
        rrun_report_ask(job, RRUN_REPORT_TIMEOUT);
}

void rrun_report_check(struct rrun_job *job)
{
    if (!rep.active)
        return;
    if (job->mode == RRUN_HEAD) {
        if (rep.hosts_left > 0 && rrun_now_ms() < rep.deadline)
            return;
        /* ranks of hosts that did not answer */
        for (int i = 0; i < job->np; i++) {
            if (entry_of(rep.entries, rep.nentries, job->ranks[i].rank) != NULL)
                continue;
            struct rrun_report_entry *m =
                realloc(rep.entries, sizeof(*m) * (size_t)(rep.nentries + 1));
            if (m == NULL)
                break;
            rep.entries = m;
            rep.entries[rep.nentries++] = (struct rrun_report_entry){
                job->ranks[i].rank, (long)job->ranks[i].pid, RRUN_REP_SILENT,
                strdup(job->ranks[i].reaped ? "has exited" : "did not answer (its host's daemon did not report)")};
        }
        publish(job, rep.entries, rep.nentries);
        finish(job);
        return;
    }
    if (!all_answered(job) && rrun_now_ms() < rep.deadline)
        return;
    struct rrun_report_entry *es = NULL;
    int n = collect_local(job, &es);

    if (job->mode == RRUN_DAEMON) {
        struct rrun_buf b = {0};

        rrun_buf_u32(&b, (uint32_t)n);
        for (int i = 0; i < n; i++) {
            rrun_buf_u32(&b, (uint32_t)es[i].rank);
            rrun_buf_u32(&b, (uint32_t)es[i].pid);
            rrun_buf_u32(&b, (uint32_t)es[i].kind);
            rrun_buf_str(&b, es[i].text ? es[i].text : "");
        }
        job->ops->send_head(job, RRUN_MSG_REPORT, &b);
        rrun_buf_free(&b);
    } else {
        publish(job, es, n);
    }
    for (int i = 0; i < n; i++)
        free(es[i].text);
    free(es);
    finish(job);
}

void rrun_report_add(struct rrun_job *job, struct rrun_buf *p)
{
    uint32_t n = rrun_buf_get_u32(p);

    for (uint32_t i = 0; i < n && !p->bad; i++) {
        struct rrun_report_entry x;

        x.rank = (int)rrun_buf_get_u32(p);
        x.pid = (long)rrun_buf_get_u32(p);
        x.kind = (int)rrun_buf_get_u32(p);
        x.text = rrun_buf_get_str(p);
        if (p->bad || rrun_rank_of(job, x.rank) == NULL ||
            entry_of(rep.entries, rep.nentries, x.rank) != NULL) {
            free(x.text);
            continue;
        }
        struct rrun_report_entry *m = realloc(rep.entries, sizeof(*m) * (size_t)(rep.nentries + 1));
        if (m == NULL) {
            free(x.text);
            break;
        }
        rep.entries = m;
        rep.entries[rep.nentries++] = x;
    }
    if (rep.hosts_left > 0)
        rep.hosts_left--;
}

/* ------------------------------------------------------------ rrun --report-pending PID */

int rrun_report_pending_main(const char *pidtext)
{
    char *end = NULL, comm[64] = "", path[64];
    long pid = strtol(pidtext, &end, 10);
    const char *base = getenv("TMPDIR");
    glob_t g;
    FILE *f;

    if (end == pidtext || *end != '\0' || pid <= 0) {
        fprintf(stderr, "rrun: --report-pending needs the pid of a running rrun, not '%s'\n", pidtext);
        return RRUN_EXIT_USAGE;
    }
    snprintf(path, sizeof(path), "/proc/%ld/comm", pid);
    f = fopen(path, "r");
    if (f == NULL || fgets(comm, sizeof(comm), f) == NULL || strncmp(comm, "rrun", 4) != 0) {
        fprintf(stderr, "rrun: process %ld is not an rrun of yours\n", pid);
        if (f)
            fclose(f);
        return RRUN_EXIT_USAGE;
    }
    fclose(f);
    if (base == NULL || *base == '\0')
        base = "/tmp";
    char pattern[4096], report[4200];
    snprintf(pattern, sizeof(pattern), "%s/rrun.%ld.*", base, pid);
    if (glob(pattern, 0, NULL, &g) != 0 || g.gl_pathc == 0) {
        fprintf(stderr, "rrun: no session directory of rrun %ld under %s (is TMPDIR the same?)\n",
                pid, base);
        return RRUN_EXIT_USAGE;
    }
    snprintf(report, sizeof(report), "%s/report.txt", g.gl_pathv[0]);
    globfree(&g);
    unlink(report);
    if (kill((pid_t)pid, SIGUSR1) != 0) {
        fprintf(stderr, "rrun: cannot signal rrun %ld: %s\n", pid, strerror(errno));
        return RRUN_EXIT_USAGE;
    }
    /* the report takes at most RRUN_REPORT_WAIT_MS (plus the hosts') */
    for (int i = 0; i < (RRUN_REPORT_WAIT_MS + 3000) / 20; i++) {
        f = fopen(report, "r");
        if (f != NULL) {
            char buf[4096];
            size_t n;

            while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
                fwrite(buf, 1, n, stdout);
            fclose(f);
            return 0;
        }
        if (kill((pid_t)pid, 0) != 0)
            break;
        struct timespec ts = {0, 20 * 1000 * 1000};
        nanosleep(&ts, NULL);
    }
    fprintf(stderr, "rrun: rrun %ld wrote no report\n", pid);
    return 1;
}

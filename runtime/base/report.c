/* report.c - answering the launcher's "what are you waiting for?" (report.h). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "config.h"

#include "runtime/base/report.h"

#include <dlfcn.h>
#include <execinfo.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "runtime/base/log.h"
#include "runtime/base/params.h"

struct rd_report_file *rd_report_file;
uint32_t rd_report_answered;
static struct rd_report_slot *slot;
static size_t map_len;
static rd_report_fn fns[8];
static int nfns;

void rd_report_register(rd_report_fn fn)
{
    for (int i = 0; i < nfns; i++)
        if (fns[i] == fn)
            return;
    if (nfns < (int)(sizeof(fns) / sizeof(fns[0])))
        fns[nfns++] = fn;
}

void rd_report_vprintf(struct rd_report_buf *b, const char *fmt, va_list ap)
{
    for (;;) {
        va_list aq;
        va_copy(aq, ap);
        int n = vsnprintf(b->p ? b->p + b->len : NULL, b->p ? b->cap - b->len : 0, fmt, aq);
        va_end(aq);
        if (n < 0)
            return;
        if (b->p && b->len + (size_t)n < b->cap) {
            b->len += (size_t)n;
            return;
        }
        size_t cap = b->cap ? b->cap * 2 : 1024;
        while (cap < b->len + (size_t)n + 1)
            cap *= 2;
        char *p = realloc(b->p, cap);
        if (p == NULL)
            return;
        b->p = p;
        b->cap = cap;
    }
}

void rd_report_printf(struct rd_report_buf *b, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    rd_report_vprintf(b, fmt, ap);
    va_end(ap);
}

void rd_report_init(void)
{
    const char *spec = rd_param.rrun_report;
    const char *colon = spec ? strrchr(spec, ':') : NULL;

    if (spec == NULL || colon == NULL || rd_report_file != NULL)
        return;
    char path[4096];
    long idx = atol(colon + 1);
    snprintf(path, sizeof(path), "%.*s", (int)(colon - spec), spec);
    int fd = open(path, O_RDWR | O_CLOEXEC);
    if (fd < 0) {
        rd_debug("report", "cannot open the launcher's report file %s: %m", path);
        return;
    }
    struct rd_report_file head;
    if (pread(fd, &head, sizeof(head), 0) != (ssize_t)sizeof(head) || idx < 0 ||
        (uint32_t)idx >= head.nslots) {
        close(fd);
        return;
    }
    map_len = RD_REPORT_HEAD_BYTES + (size_t)(idx + 1) * sizeof(struct rd_report_slot);
    void *m = mmap(NULL, map_len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    close(fd);
    if (m == MAP_FAILED)
        return;
    rd_report_file = m;
    slot = &rd_report_file->slot[idx];
    /* questions asked before this rank could answer are not its own */
    rd_report_answered = atomic_load(&rd_report_file->seq);
    atomic_store(&slot->answered, rd_report_answered);
    atomic_store(&slot->present, 1);
}

void rd_report_fini(void)
{
    if (rd_report_file == NULL)
        return;
    atomic_store(&slot->present, 0);
    munmap(rd_report_file, map_len);
    rd_report_file = NULL;
    slot = NULL;
}

void rd_report_state(const char *what)
{
    if (slot != NULL)
        snprintf(slot->state, sizeof(slot->state), "%s", what ? what : "");
}

/* The MPI call this rank is in: the outermost MPI_ or PMPI_ frame. */
static void add_call(struct rd_report_buf *b)
{
    void *frames[64];
    const char *call = NULL;
    int n = backtrace(frames, 64);

    for (int i = 0; i < n; i++) {
        Dl_info d;

        if (dladdr(frames[i], &d) && d.dli_sname &&
            (strncmp(d.dli_sname, "MPI_", 4) == 0 || strncmp(d.dli_sname, "PMPI_", 5) == 0))
            call = d.dli_sname;
    }
    if (call != NULL)
        rd_report_printf(b, "C %s\n", call[0] == 'P' ? call + 1 : call);
}

void rd_report_answer(void)
{
    uint32_t seq = atomic_load_explicit(&rd_report_file->seq, memory_order_acquire);
    struct rd_report_buf b = {0};

    add_call(&b);
    for (int i = 0; i < nfns; i++)
        fns[i](&b);
    size_t len = b.len < sizeof(slot->text) ? b.len : sizeof(slot->text);
    if (b.p != NULL)
        memcpy(slot->text, b.p, len);
    if (b.len > len) {
        /* the end of a cut text says so */
        static const char cut[] = "\nI (more not shown)\n";
        memcpy(slot->text + len - sizeof(cut) + 1, cut, sizeof(cut) - 1);
    }
    free(b.p);
    atomic_store_explicit(&slot->len, (uint32_t)len, memory_order_relaxed);
    atomic_store_explicit(&slot->answered, seq, memory_order_release);
    rd_report_answered = seq;
}

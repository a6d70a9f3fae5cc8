/* iof.c - forwarding the ranks' stdout and stderr, whole lines at a time.
 *
 * Each rank writes into its own pipes; the main loop reads them and hands
 * the bytes here. Only complete lines are written out, each with a single
 * write(2) per batch, so lines of different ranks never mix. A line longer
 * than RRUN_IOF_MAX_LINE is written in pieces rather than buffered without
 * bound; such a piece, and a last line without newline, get a newline so the
 * next line (maybe of another rank) starts on a line of its own. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "launcher/rrun/rrun.h"

#define RRUN_IOF_MAX_LINE (1u << 20)

/* Write everything; give up quietly if the reader has gone (EPIPE): the
 * job still runs to its end and reports through its exit status. */
static void write_all(int fd, const char *p, size_t n)
{
    while (n > 0) {
        ssize_t w = write(fd, p, n);

        if (w < 0) {
            if (errno == EINTR)
                continue;
            return;
        }
        p += w;
        n -= (size_t)w;
    }
}

static int reserve(struct rrun_linebuf *lb, size_t extra)
{
    size_t need = lb->len + extra;
    char *p;

    if (need <= lb->cap)
        return 0;
    if (need < 2 * lb->cap)
        need = 2 * lb->cap;
    if (need < 4096)
        need = 4096;
    p = realloc(lb->data, need);
    if (p == NULL)
        return -1;
    lb->data = p;
    lb->cap = need;
    return 0;
}

/* Write lines data[0..n) (n ends at a newline, or is a forced piece). */
static void emit(int out_fd, int rank, bool tag, const char *data, size_t n)
{
    char prefix[32];
    int plen;
    char *out, *q;
    const char *p = data, *end = data + n;
    size_t nlines = 0;

    if (n == 0)
        return;
    if (!tag && end[-1] == '\n') {
        write_all(out_fd, data, n);
        return;
    }
    plen = tag ? snprintf(prefix, sizeof(prefix), "[%d] ", rank) : 0;
    for (const char *c = data; c < end; c++)
        nlines += *c == '\n';
    if (end[-1] != '\n')
        nlines++;
    out = malloc(n + nlines * (size_t)plen + 1);
    if (out == NULL) {
        write_all(out_fd, data, n);
        return;
    }
    q = out;
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t len = nl != NULL ? (size_t)(nl - p) + 1 : (size_t)(end - p);

        memcpy(q, prefix, (size_t)plen);
        q += plen;
        memcpy(q, p, len);
        q += len;
        p += len;
    }
    if (end[-1] != '\n')
        *q++ = '\n'; /* a piece without newline still ends its line */
    write_all(out_fd, out, (size_t)(q - out));
    free(out);
}

void rrun_iof_push(struct rrun_linebuf *lb, int out_fd, int rank, bool tag,
                   const char *buf, size_t n)
{
    const char *last_nl;
    size_t whole;

    if (reserve(lb, n) != 0) {
        /* No memory to keep a partial line: pass the bytes through. */
        emit(out_fd, rank, tag, lb->data, lb->len);
        lb->len = 0;
        emit(out_fd, rank, tag, buf, n);
        return;
    }
    memcpy(lb->data + lb->len, buf, n);
    lb->len += n;

    last_nl = memrchr(lb->data, '\n', lb->len);
    if (last_nl == NULL) {
        if (lb->len >= RRUN_IOF_MAX_LINE) {
            emit(out_fd, rank, tag, lb->data, lb->len);
            lb->len = 0;
        }
        return;
    }
    whole = (size_t)(last_nl - lb->data) + 1;
    emit(out_fd, rank, tag, lb->data, whole);
    memmove(lb->data, lb->data + whole, lb->len - whole);
    lb->len -= whole;
}

void rrun_iof_flush(struct rrun_linebuf *lb, int out_fd, int rank, bool tag)
{
    if (lb->len > 0)
        emit(out_fd, rank, tag, lb->data, lb->len);
    lb->len = 0;
}

void rrun_iof_free(struct rrun_linebuf *lb)
{
    free(lb->data);
    lb->data = NULL;
    lb->len = lb->cap = 0;
}

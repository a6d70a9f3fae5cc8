/* chan.c - the byte stream between the head and a daemon.
 *
 * The stream is the launch agent's stdin and stdout (ssh carries them to
 * the other host as it carries any program's), so the head needs no
 * address of its own that every host can reach. It carries frames: a u32
 * type, a u32 payload length, the payload; numbers in network order.
 * Payloads are sequences of u32s and byte strings (u32 length + bytes). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "config.h"

#include <arpa/inet.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "launcher/rrun/rrun.h"

/* No frame is larger: a corrupt length stops the stream. */
#define RRUN_FRAME_MAX (256u << 20)

static void buf_reserve(struct rrun_buf *b, size_t more)
{
    size_t cap;
    char *p;

    if (b->bad || b->len + more <= b->cap)
        return;
    cap = b->cap ? b->cap : 256;
    while (cap < b->len + more)
        cap *= 2;
    p = realloc(b->data, cap);
    if (p == NULL) {
        b->bad = true;
        return;
    }
    b->data = p;
    b->cap = cap;
}

void rrun_buf_u32(struct rrun_buf *b, uint32_t v)
{
    v = htonl(v);
    buf_reserve(b, 4);
    if (b->bad)
        return;
    memcpy(b->data + b->len, &v, 4);
    b->len += 4;
}

void rrun_buf_bytes(struct rrun_buf *b, const void *p, size_t n)
{
    rrun_buf_u32(b, (uint32_t)n);
    rrun_buf_raw(b, p, n);
}

void rrun_buf_raw(struct rrun_buf *b, const void *p, size_t n)
{
    buf_reserve(b, n);
    if (b->bad || n == 0)
        return;
    memcpy(b->data + b->len, p, n);
    b->len += n;
}

void rrun_buf_str(struct rrun_buf *b, const char *s)
{
    rrun_buf_bytes(b, s, strlen(s));
}

uint32_t rrun_buf_get_u32(struct rrun_buf *b)
{
    uint32_t v;

    if (b->bad || b->len - b->pos < 4) {
        b->bad = true;
        return 0;
    }
    memcpy(&v, b->data + b->pos, 4);
    b->pos += 4;
    return ntohl(v);
}

const char *rrun_buf_get_bytes(struct rrun_buf *b, size_t *n)
{
    uint32_t len = rrun_buf_get_u32(b);
    const char *p;

    if (b->bad || b->len - b->pos < len) {
        b->bad = true;
        *n = 0;
        return "";
    }
    p = b->data + b->pos;
    b->pos += len;
    *n = len;
    return p;
}

char *rrun_buf_get_str(struct rrun_buf *b)
{
    size_t n;
    const char *p = rrun_buf_get_bytes(b, &n);
    char *s = malloc(n + 1);

    if (s == NULL) {
        b->bad = true;
        return NULL;
    }
    memcpy(s, p, n);
    s[n] = '\0';
    return s;
}

void rrun_buf_free(struct rrun_buf *b)
{
    free(b->data);
    memset(b, 0, sizeof(*b));
}

int rrun_chan_fill(struct rrun_chan_in *in, int fd)
{
    for (;;) {
        ssize_t n;

        if (in->cap - in->len < 65536) {
            size_t cap = in->cap ? in->cap * 2 : 131072;
            char *p = realloc(in->data, cap);

            if (p == NULL)
                return 1;
            in->data = p;
            in->cap = cap;
        }
        n = read(fd, in->data + in->len, in->cap - in->len);
        if (n > 0) {
            in->len += (size_t)n;
            continue;
        }
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0 && errno == EAGAIN)
            return 0;
        return 1; /* end of file or error */
    }
}

int rrun_chan_next(struct rrun_chan_in *in, uint32_t *type, struct rrun_buf *payload)
{
    uint32_t hdr[2], len;

    payload->len = payload->pos = 0;
    payload->bad = false;
    if (in->len < 8)
        return 0;
    memcpy(hdr, in->data, 8);
    *type = ntohl(hdr[0]);
    len = ntohl(hdr[1]);
    if (len > RRUN_FRAME_MAX)
        return -1;
    if (in->len < 8 + (size_t)len)
        return 0;
    buf_reserve(payload, len);
    if (payload->bad)
        return -1;
    if (len > 0)
        memcpy(payload->data, in->data + 8, len);
    payload->len = len;
    memmove(in->data, in->data + 8 + len, in->len - 8 - len);
    in->len -= 8 + (size_t)len;
    return 1;
}

void rrun_chan_in_free(struct rrun_chan_in *in)
{
    free(in->data);
    memset(in, 0, sizeof(*in));
}

void rrun_chan_frame(struct rrun_buf *out, uint32_t type, const struct rrun_buf *payload)
{
    uint32_t hdr[2] = {htonl(type), htonl(payload != NULL ? (uint32_t)payload->len : 0)};

    buf_reserve(out, 8 + (payload != NULL ? payload->len : 0));
    if (out->bad)
        return;
    memcpy(out->data + out->len, hdr, 8);
    out->len += 8;
    if (payload != NULL && payload->len > 0) {
        memcpy(out->data + out->len, payload->data, payload->len);
        out->len += payload->len;
    }
}

int rrun_chan_flush(struct rrun_buf *out, int fd)
{
    while (out->pos < out->len) {
        ssize_t n = write(fd, out->data + out->pos, out->len - out->pos);

        if (n < 0) {
            if (errno == EINTR)
                continue;
            if (errno == EAGAIN)
                return 0;
            return -1;
        }
        out->pos += (size_t)n;
    }
    out->len = out->pos = 0;
    return 0;
}

int rrun_chan_send(int fd, uint32_t type, const struct rrun_buf *payload)
{
    struct rrun_buf frame = {0};
    int rc;

    rrun_chan_frame(&frame, type, payload);
    if (frame.bad || (payload != NULL && payload->bad)) {
        rrun_buf_free(&frame);
        return -1;
    }
    while (frame.pos < frame.len) {
        ssize_t n = write(fd, frame.data + frame.pos, frame.len - frame.pos);

        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        frame.pos += (size_t)n;
    }
    rc = frame.pos == frame.len ? 0 : -1;
    rrun_buf_free(&frame);
    return rc;
}

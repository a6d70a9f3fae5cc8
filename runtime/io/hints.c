/* hints.c - the info keys of a file (io.h; runtime/io/PLAN.md 5): their
 * defaults (ROMIO's where it has one), parsing, and the keys in effect for
 * MPI_File_get_info. Unknown keys and values that do not parse are
 * ignored (the standard lets an implementation ignore any hint). */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "runtime/base/params.h"
#include "runtime/io/io.h"
#include "runtime/objects/info.h"

void rd_io_hints_default(struct rd_io_hints *h)
{
    memset(h, 0, sizeof(*h));
    h->cb_buffer_size = (size_t)rd_param.io_cb_buffer_size; /* RDMPI_IO_CB_BUFFER_SIZE, 2 MiB */
    h->cb_per_node = (int)rd_param.io_cb_per_node;          /* RDMPI_IO_CB_PER_NODE, 0: automatic */
    h->ind_rd_buffer_size = 4194304;
    h->ind_wr_buffer_size = 524288;
    h->file_perm = -1;
}

/* a positive integer (base 10; file_perm: octal with a leading 0) up to max */
static int pos_int(const char *v, long long max, int base, long long *out)
{
    char *end;
    errno = 0;
    long long x = strtoll(v, &end, base);
    while (*end == ' ')
        end++;
    if (errno || end == v || *end || x < 0 || x > max)
        return 0;
    *out = x;
    return 1;
}

/* automatic / enable / disable -> 0 / 1 / -1 (true/false as enable/disable) */
static int tristate(const char *v, int *out)
{
    if (!strcasecmp(v, "automatic"))
        *out = 0;
    else if (!strcasecmp(v, "enable") || !strcasecmp(v, "true"))
        *out = 1;
    else if (!strcasecmp(v, "disable") || !strcasecmp(v, "false"))
        *out = -1;
    else
        return 0;
    return 1;
}

static int boolean(const char *v, int *out)
{
    if (!strcasecmp(v, "true") || !strcmp(v, "1"))
        *out = 1;
    else if (!strcasecmp(v, "false") || !strcmp(v, "0"))
        *out = 0;
    else
        return 0;
    return 1;
}

static const char *const styles[] = {"", "normal", "sequential", "random", "read_once"};
static const int advice[] = {0, POSIX_FADV_NORMAL, POSIX_FADV_SEQUENTIAL, POSIX_FADV_RANDOM, POSIX_FADV_NOREUSE};

void rd_io_hints_parse(struct rd_io_hints *h, MPI_Info info)
{
    if (!rd_info_valid(info))
        return;
    for (int i = 0; i < info->n; i++) {
        const char *k = info->ent[i].key, *v = info->ent[i].value;
        long long x;
        int t;
        if (!strcmp(k, "cb_buffer_size")) {
            if (pos_int(v, 1LL << 40, 10, &x) && x > 0)
                h->cb_buffer_size = (size_t)x;
        } else if (!strcmp(k, "cb_nodes")) {
            if (pos_int(v, INT_MAX, 10, &x) && x > 0)
                h->cb_nodes = (int)x;
        } else if (!strcmp(k, "cb_config_list")) {
            /* "*:k" (host lists are accepted, only "*" is used) */
            const char *c = strstr(v, "*:");
            if (c && pos_int(c + 2, INT_MAX, 10, &x) && x > 0)
                h->cb_per_node = (int)x;
        } else if (!strcmp(k, "romio_cb_read")) {
            if (tristate(v, &t))
                h->cb_read = t;
        } else if (!strcmp(k, "romio_cb_write")) {
            if (tristate(v, &t))
                h->cb_write = t;
        } else if (!strcmp(k, "collective_buffering")) {
            if (boolean(v, &t))
                h->cb_read = h->cb_write = t ? 1 : -1;
        } else if (!strcmp(k, "romio_ds_read")) {
            if (tristate(v, &t))
                h->ds_read = t;
        } else if (!strcmp(k, "romio_ds_write")) {
            if (tristate(v, &t))
                h->ds_write = t;
        } else if (!strcmp(k, "ind_rd_buffer_size")) {
            if (pos_int(v, 1LL << 40, 10, &x) && x > 0)
                h->ind_rd_buffer_size = (size_t)x;
        } else if (!strcmp(k, "ind_wr_buffer_size")) {
            if (pos_int(v, 1LL << 40, 10, &x) && x > 0)
                h->ind_wr_buffer_size = (size_t)x;
        } else if (!strcmp(k, "striping_factor")) {
            if (pos_int(v, INT_MAX, 10, &x) && x > 0)
                h->striping_factor = (int)x;
        } else if (!strcmp(k, "striping_unit")) {
            if (pos_int(v, 1LL << 40, 10, &x) && x > 0)
                h->striping_unit = (size_t)x;
        } else if (!strcmp(k, "access_style")) {
            /* a comma-separated list: the first one we know wins */
            const char *first = NULL;
            for (int s = 1; s < (int)(sizeof(styles) / sizeof(styles[0])); s++) {
                const char *at = strstr(v, styles[s]);
                if (at && (!first || at < first))
                    first = at, h->access_style = s;
            }
        } else if (!strcmp(k, "file_perm")) {
            if (pos_int(v, 07777, 0, &x))
                h->file_perm = (int)x;
        } else if (!strcmp(k, "romio_no_indep_rw")) {
            if (boolean(v, &t))
                h->no_indep_rw = t;
        } else if (!strcmp(k, "rdmpi_direct_io")) {
            if (boolean(v, &t))
                h->direct_io = t;
        }
    }
}

static int put(MPI_Info info, const char *k, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int put(MPI_Info info, const char *k, const char *fmt, ...)
{
    char v[64];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(v, sizeof v, fmt, ap);
    va_end(ap);
    return rd_info_set(info, k, v);
}

static const char *tri_name(int t)
{
    return t > 0 ? "enable" : t < 0 ? "disable" : "automatic";
}

int rd_io_hints_to_info(const struct rd_io_hints *h, MPI_Info info)
{
    int r = 0;
    r |= put(info, "cb_buffer_size", "%zu", h->cb_buffer_size);
    if (h->cb_nodes)
        r |= put(info, "cb_nodes", "%d", h->cb_nodes);
    /* automatic (a count for each direction): no cb_config_list, whose
     * "*:k" has one count for both */
    if (h->cb_per_node > 0)
        r |= put(info, "cb_config_list", "*:%d", h->cb_per_node);
    r |= put(info, "romio_cb_read", "%s", tri_name(h->cb_read));
    r |= put(info, "romio_cb_write", "%s", tri_name(h->cb_write));
    r |= put(info, "romio_ds_read", "%s", tri_name(h->ds_read));
    r |= put(info, "romio_ds_write", "%s", tri_name(h->ds_write));
    r |= put(info, "ind_rd_buffer_size", "%zu", h->ind_rd_buffer_size);
    r |= put(info, "ind_wr_buffer_size", "%zu", h->ind_wr_buffer_size);
    if (h->striping_factor)
        r |= put(info, "striping_factor", "%d", h->striping_factor);
    if (h->striping_unit)
        r |= put(info, "striping_unit", "%zu", h->striping_unit);
    if (h->access_style)
        r |= put(info, "access_style", "%s", styles[h->access_style]);
    if (h->file_perm >= 0)
        r |= put(info, "file_perm", "0%o", (unsigned)h->file_perm);
    r |= put(info, "romio_no_indep_rw", "%s", h->no_indep_rw ? "true" : "false");
    r |= put(info, "rdmpi_direct_io", "%s", h->direct_io ? "true" : "false");
    return r ? -1 : 0;
}

void rd_io_hints_apply(struct rd_io_file *f)
{
    if (f->hints.access_style > 0 && f->fd >= 0)
        (void)posix_fadvise(f->fd, 0, 0, advice[f->hints.access_style]); /* advice only */
}

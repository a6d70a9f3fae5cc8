/* plugin.h - network transports as plug-ins, loaded only when used.
 *
 * verbs, ucx and ofi are built as modules of their own (rdmpi_tl_NAME.so)
 * that librdmpi loads with dlopen when the engine wants them (a peer on
 * another node, or RDMPI_TRANSPORTS names them): a job whose ranks share a
 * node never loads libibverbs, UCX or libfabric, nor their load-time work
 * (libfabric's providers slept ~0.1 s at start-up) and signal handlers (UCX
 * and a libfabric provider turned a segfault into "exit status 1").
 *
 * A plug-in exports one function, rd_tl_plugin_init(). It is handed the
 * services a transport may use (the job's key/value exchange, logging,
 * the parameters) through struct rd_tl_host, since librdmpi exports only
 * the MPI API; transports/plugin.c, linked into each plug-in, turns them
 * back into the rd_job_*, rd_log_* and rd_param the transport's code
 * calls, so the same source builds into the library's tests unchanged. */
#ifndef RD_TL_PLUGIN_H
#define RD_TL_PLUGIN_H

#include <stdarg.h>
#include <stddef.h>

#include "runtime/base/error.h"
#include "runtime/base/params.h"

/* Raised whenever struct rd_tl_host or struct rd_transport changes in a
 * way a plug-in built for the old one would misread. */
#define RD_TL_PLUGIN_ABI 4

struct rd_transport;
struct rd_report_buf;

struct rd_tl_host {
    size_t size; /* sizeof(struct rd_tl_host) of the loader */
    int abi;     /* RD_TL_PLUGIN_ABI of the loader */
    const struct rd_param_values *param;
    int log_threshold;
    int (*log_component_enabled)(const char *component);
    void (*log_vwrite)(int level, const char *component, const char *fmt, va_list ap)
        __attribute__((format(printf, 3, 0)));
    rd_status (*job_put)(const char *key, const void *data, size_t len);
    rd_status (*job_get)(int rank, const char *key, void **data, size_t *len);
    void (*job_abort)(int code, const char *msg) __attribute__((noreturn));
    /* what the transport adds to a hung job's report (runtime/base/report.h) */
    void (*report_register)(void (*fn)(struct rd_report_buf *b));
    void (*report_vprintf)(struct rd_report_buf *b, const char *fmt, va_list ap)
        __attribute__((format(printf, 2, 0)));
};

/* The one symbol of a plug-in: its transport, or NULL when the host's ABI
 * is not its own. */
typedef const struct rd_transport *(*rd_tl_plugin_init_fn)(const struct rd_tl_host *host);
#define RD_TL_PLUGIN_INIT "rd_tl_plugin_init"
/* The entry point itself, in each plug-in (plugin.c). */
const struct rd_transport *rd_tl_plugin_init(const struct rd_tl_host *h);

#endif

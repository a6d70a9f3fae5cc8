/* plugin.c - linked into each transport plug-in (see plugin.h): the
 * services the transport's code calls, forwarded to the library that
 * loaded it. RD_TL_PLUGIN_TRANSPORT names the transport's table. */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "runtime/base/job.h"
#include "runtime/base/log.h"
#include "runtime/base/params.h"
#include "runtime/base/report.h"
#include "transports/plugin.h"
#include "transports/transport.h"

#ifndef RD_TL_PLUGIN_TRANSPORT
#error "RD_TL_PLUGIN_TRANSPORT must name the plug-in's struct rd_transport"
#endif

extern const struct rd_transport RD_TL_PLUGIN_TRANSPORT;

static const struct rd_tl_host *host;

/* The parameters never change after MPI_Init reads them: a copy serves. */
struct rd_param_values rd_param;
int rd_log_threshold;

const struct rd_transport *rd_tl_plugin_init(const struct rd_tl_host *h)
{
    if (h == NULL || h->abi != RD_TL_PLUGIN_ABI || h->size != sizeof(*h))
        return NULL;
    host = h;
    rd_param = *h->param;
    rd_log_threshold = h->log_threshold;
    return &RD_TL_PLUGIN_TRANSPORT;
}

int rd_log_component_enabled(const char *component)
{
    return host->log_component_enabled(component);
}

void rd_log_write(int level, const char *component, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    host->log_vwrite(level, component, fmt, ap);
    va_end(ap);
}

rd_status rd_job_put(const char *key, const void *data, size_t len)
{
    return host->job_put(key, data, len);
}

rd_status rd_job_get(int rank, const char *key, void **data, size_t *len)
{
    return host->job_get(rank, key, data, len);
}

_Noreturn void rd_job_abort(int code, const char *msg)
{
    host->job_abort(code, msg);
}

void rd_report_register(rd_report_fn fn)
{
    host->report_register(fn);
}

void rd_report_printf(struct rd_report_buf *b, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    host->report_vprintf(b, fmt, ap);
    va_end(ap);
}

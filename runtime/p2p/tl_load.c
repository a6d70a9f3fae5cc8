/* tl_load.c - the transports the engine can use: self and shm built into
 * the library, the network ones (verbs, ucx, ofi) loaded from their
 * plug-ins only when the engine wants one (transports/plugin.h). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "config.h"

#include <dlfcn.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "runtime/base/job.h"
#include "runtime/base/log.h"
#include "runtime/base/params.h"
#include "runtime/base/report.h"
#include "runtime/p2p/tl_load.h"
#include "transports/plugin.h"
#include "transports/transport.h"

/* In the order the engine prefers them when nothing is asked for. */
const struct rd_tl_entry rd_tl_entries[] = {
    {"self", &rd_transport_self, 0, 0, RD_TL_REACH_SELF},
    {"shm", &rd_transport_shm, 0, 0, RD_TL_REACH_NODE},
#ifdef RD_HAVE_VERBS
    /* before ucx and ofi: the network transport of choice where a device is */
    {"verbs", NULL, 1, 1, RD_TL_REACH_ALL},
#endif
#ifdef RD_HAVE_UCX
    {"ucx", NULL, 1, 0, RD_TL_REACH_ALL},
#endif
#ifdef RD_HAVE_OFI
    {"ofi", NULL, 1, 0, RD_TL_REACH_ALL},
#endif
};
const int rd_tl_nentries = (int)(sizeof(rd_tl_entries) / sizeof(rd_tl_entries[0]));

static struct rd_tl_host host;

/* dir/rdmpi_tl_NAME.so opened, or NULL. */
static void *open_in(const char *dir, size_t dirlen, const char *name)
{
    char path[PATH_MAX];

    if ((size_t)snprintf(path, sizeof(path), "%.*s/rdmpi_tl_%s.so", (int)dirlen, dir, name) >=
        sizeof(path))
        return NULL;
    void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (h == NULL)
        rd_debug("p2p", "transport plug-in %s: %s", path, dlerror());
    return h;
}

const struct rd_transport *rd_tl_get(const struct rd_tl_entry *e)
{
    Dl_info self;
    void *h = NULL;

    if (e->builtin != NULL)
        return e->builtin;
    if (rd_param.plugin_dir[0]) {
        h = open_in(rd_param.plugin_dir, strlen(rd_param.plugin_dir), e->name);
    } else if (dladdr((void *)rd_tl_get, &self) != 0 && self.dli_fname != NULL) {
        /* installed: <libdir>/rdmpi/; in the build tree: beside the library */
        const char *slash = strrchr(self.dli_fname, '/');
        size_t n = slash ? (size_t)(slash - self.dli_fname) : 1;
        const char *dir = slash ? self.dli_fname : ".";
        char sub[PATH_MAX];

        snprintf(sub, sizeof(sub), "%.*s/rdmpi", (int)n, dir);
        h = open_in(sub, strlen(sub), e->name);
        if (h == NULL)
            h = open_in(dir, n, e->name);
    }
    if (h == NULL) {
        rd_debug("p2p", "transport %s: no plug-in could be loaded", e->name);
        return NULL;
    }
    rd_tl_plugin_init_fn init = (rd_tl_plugin_init_fn)dlsym(h, RD_TL_PLUGIN_INIT);
    host = (struct rd_tl_host){
        .size = sizeof(host),
        .abi = RD_TL_PLUGIN_ABI,
        .param = &rd_param,
        .log_threshold = rd_log_threshold,
        .log_component_enabled = rd_log_component_enabled,
        .log_vwrite = rd_log_vwrite,
        .job_put = rd_job_put,
        .job_get = rd_job_get,
        .job_abort = rd_job_abort,
        .report_register = rd_report_register,
        .report_vprintf = rd_report_vprintf,
    };
    const struct rd_transport *t = init ? init(&host) : NULL;
    if (t == NULL || t->size != sizeof(struct rd_transport) || strcmp(t->name, e->name) != 0) {
        rd_warn("p2p", "transport plug-in %s does not match this library (built from another "
                "version?); not used", e->name);
        dlclose(h);
        return NULL;
    }
    /* (never closed: its libraries may keep threads and hooks to the end) */
    return t;
}

/* The network libraries install handlers for fatal signals when they load
 * or open (UCX prints a backtrace and a libfabric provider writes a .btr
 * file, and the process then exits with status 1: a crash no longer looks
 * like one, and no core is written). rdmpi changes nothing a program can
 * observe: the handlers in place before are put back. */
static const int fatal_signals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGTRAP};
#define NFATAL (sizeof(fatal_signals) / sizeof(fatal_signals[0]))
static struct sigaction saved[NFATAL];

void rd_tl_signals_save(void)
{
    for (size_t i = 0; i < NFATAL; i++)
        sigaction(fatal_signals[i], NULL, &saved[i]);
}

void rd_tl_signals_restore(void)
{
    for (size_t i = 0; i < NFATAL; i++) {
        struct sigaction now;

        if (sigaction(fatal_signals[i], NULL, &now) == 0 && now.sa_handler != saved[i].sa_handler) {
            rd_debug("p2p", "signal %d: a transport's library installed a handler; the one "
                     "before is back", fatal_signals[i]);
            sigaction(fatal_signals[i], &saved[i], NULL);
        }
    }
}

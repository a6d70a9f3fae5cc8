/* The peers the engine tells each transport at open (runtime/p2p/tl_peers.c:
 * rd_tl_peers, rd_tl_claim; the entries of runtime/p2p/tl_load.c): in the
 * engine's order, each transport gets the ranks it can reach that no
 * transport opened before it carries. A job of 6 ranks, this rank 1 on a
 * node with ranks 0, 1 and 4. */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/base/job.h"
#include "runtime/base/report.h"
#include "runtime/p2p/tl_load.h"
#include "test/tap.h"
#include "transports/transport.h"

/* what tl_load.c links against, unused here */
struct rd_job rd_job;
const struct rd_transport rd_transport_self, rd_transport_shm;
rd_status rd_job_put(const char *key, const void *data, size_t len)
{
    (void)key, (void)data, (void)len;
    return RD_OK;
}
rd_status rd_job_get(int rank, const char *key, void **data, size_t *len)
{
    (void)rank, (void)key, (void)data, (void)len;
    return RD_ERR_UNSUPPORTED;
}
_Noreturn void rd_job_abort(int code, const char *msg)
{
    (void)msg;
    exit(code);
}
void rd_report_vprintf(struct rd_report_buf *b, const char *fmt, va_list ap)
{
    (void)b, (void)fmt, (void)ap;
}
void rd_report_register(rd_report_fn fn)
{
    (void)fn;
}

static const struct rd_tl_entry *entry(const char *name)
{
    for (int i = 0; i < rd_tl_nentries; i++)
        if (strcmp(rd_tl_entries[i].name, name) == 0)
            return &rd_tl_entries[i];
    return NULL;
}

/* The ranks in peers, as a string of their numbers. */
static const char *set(const unsigned char *peers)
{
    static char out[64];
    out[0] = 0;
    for (int r = 0; r < rd_job.size; r++)
        if (peers[r])
            snprintf(out + strlen(out), sizeof(out) - strlen(out), "%s%d", out[0] ? " " : "", r);
    return out;
}

/* Open, in this order, the named transports: what each is told. */
static void order(const char *const *names, int n, char told[][64])
{
    unsigned char claimed[6] = {0}, peers[6];
    for (int i = 0; i < n; i++) {
        rd_tl_peers(entry(names[i]), claimed, peers);
        snprintf(told[i], 64, "%s", set(peers));
        rd_tl_claim(claimed, peers);
    }
}

int main(void)
{
    int local[3] = {0, 1, 4};
    rd_job.rank = 1;
    rd_job.size = 6;
    rd_job.local_size = 3;
    rd_job.local_peers = local;
    printf("1..8\n");
    char told[3][64];

    order((const char *const[]){"self", "shm"}, 2, told);
    tap_is_str(told[0], "1", "default order: self carries this rank");
    tap_is_str(told[1], "0 4", "... shm the node's other ranks");
#ifdef RD_HAVE_VERBS
    order((const char *const[]){"self", "shm", "verbs"}, 3, told);
    tap_is_str(told[2], "2 3 5", "... and verbs the other nodes' ranks only");
    order((const char *const[]){"verbs", "self"}, 2, told);
    tap_is_str(told[0], "0 1 2 3 4 5", "RDMPI_TRANSPORTS=verbs: verbs is told every rank (it leaves out its own)");
    tap_is_str(told[1], "", "... and self, last, nothing more");
    order((const char *const[]){"self", "verbs", "shm"}, 3, told);
    tap_is_str(told[1], "0 2 3 4 5", "RDMPI_TRANSPORTS=self,verbs,shm: verbs takes the node's ranks too");
    tap_is_str(told[2], "", "... and shm is left none");
    /* shm could not open: nothing claimed, the next one gets the node's ranks */
    unsigned char claimed[6] = {0}, peers[6];
    rd_tl_peers(entry("self"), claimed, peers);
    rd_tl_claim(claimed, peers);
    rd_tl_peers(entry("verbs"), claimed, peers);
    tap_is_str(set(peers), "0 2 3 4 5", "shm not opened: verbs is told the node's ranks");
#else
    for (int i = 0; i < 6; i++)
        printf("ok %d # SKIP verbs is not built\n", 3 + i);
#endif
    return tap_failed != 0;
}

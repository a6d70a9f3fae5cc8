/* tl_peers.c - the peers the engine tells each transport at open
 * (tl_load.h): in the engine's order, each gets the ranks it can reach
 * that no transport opened before it carries. Apart from tl_load.c (the
 * registry and the plug-ins' loading), so that the engine's unit tests on
 * the fake transport, which stand for the registry, link the same code. */
#include "config.h"

#include "runtime/base/job.h"
#include "runtime/p2p/tl_load.h"

void rd_tl_peers(const struct rd_tl_entry *e, const unsigned char *claimed, unsigned char *peers)
{
    for (int r = 0; r < rd_job.size; r++)
        peers[r] = e->reach == RD_TL_REACH_ALL || (e->reach == RD_TL_REACH_SELF && r == rd_job.rank);
    if (e->reach == RD_TL_REACH_NODE)
        for (int i = 0; i < rd_job.local_size; i++)
            peers[rd_job.local_peers[i]] = 1;
    for (int r = 0; r < rd_job.size; r++)
        peers[r] = peers[r] && !claimed[r];
}

void rd_tl_claim(unsigned char *claimed, const unsigned char *peers)
{
    for (int r = 0; r < rd_job.size; r++)
        claimed[r] |= peers[r];
}

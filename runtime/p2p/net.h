/* net.h - the network transport's direct operations, for the floor above
 * the engine (runtime/rma: windows mapped onto RDMA write, read and
 * atomics). The engine owns the transports; this is the one door through
 * which a floor above reaches the network transport's memory
 * registration, get, put and atomic (transport.h) without choosing a
 * transport itself. Callers hold the big lock and are not inside an
 * active-message handler (a call may progress the engine: RD_ERR_AGAIN
 * from the transport is retried after rd_progress()). Completions (the
 * op's done()) run from the engine's progress, or inside the call. */
#ifndef RD_P2P_NET_H
#define RD_P2P_NET_H

#include <stddef.h>

#include "runtime/base/error.h"
#include "transports/transport.h"

/* The open network transport (verbs, ucx or ofi) when it has get/put
 * (caps.rma), else NULL. */
rd_tl *rd_net_tl(void);

/* The endpoint on the network transport for world rank w: the engine's
 * own when that transport carries w (its choice for w, connected here if
 * not yet); with any != 0 also one the transport reaches beside the
 * engine's choice (a node peer the engine sends by shm, this rank itself:
 * a loopback), connected on first use and kept until close. NULL: the
 * network transport does not reach w. */
rd_ep *rd_net_ep(int w, int any);

/* Registration on the network transport (rkey: at most caps.rkey_max
 * bytes; may be NULL when no key is wanted). */
rd_status rd_net_mem_reg(void *addr, size_t len, rd_mr **mr, void *rkey, size_t *rkey_len);
void rd_net_mem_dereg(rd_mr *mr);

/* Post an RDMA read, write or atomic on ep (from rd_net_ep); op->done()
 * runs once, from progress or inside the call. What done() means at the
 * target is the transport's (transport.h: for put, the data is in place
 * at the peer on every transport). */
rd_status rd_net_get(rd_ep *ep, rd_rma_op *op);
rd_status rd_net_put(rd_ep *ep, rd_rma_op *op);
rd_status rd_net_atomic(rd_ep *ep, rd_atomic_op *op);

/* At close (rd_p2p_finalize): the extra endpoints go with the transport. */
void rd_net_reset(void);

#endif

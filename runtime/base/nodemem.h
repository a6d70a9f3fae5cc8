/* nodemem.h - shared memory of the node for the collectives.
 *
 * A declared contract (struct rd_node_mem): the transport that has the
 * node's memory (shm) carves an arena of slots out of its node segment,
 * describes it and the copies it lends (CMA, direct mapping) in a struct
 * rd_node_mem of its own, and offers it in its capabilities
 * (transports/transport.h: caps.node_mem) once activated; the p2p engine
 * hands it to this service (rd_node_arena_use) after every transport
 * activated, and takes it back before closing them. The collectives read
 * it here (rd_node_arena: the contract plus the geometry derived from it)
 * and never call a transport; the transport never writes here. A communicator whose
 * ranks all live on this node can own one slot (collectives/shmcoll.c):
 * per rank of the communicator, a done word (how far it has read) and
 * RD_NODE_DEPTH areas (collective s uses
 * area s % RD_NODE_DEPTH) of a sequence word followed by data, so that a
 * rank can run that many collectives ahead of the slowest reader; and a
 * stage per rank: `stage` bytes where it leaves larger blocks for the
 * others to copy out (sparse: pages only of communicators that use it). */
#ifndef RD_NODEMEM_H
#define RD_NODEMEM_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "runtime/base/error.h"

#define RD_NODE_LINE 64
#define RD_NODE_DEPTH 64

/* A user buffer a rank exposed to the node's ranks for direct mapping
 * (transports/shm/shm_xmap.h): its pages [addr, addr + len) live in the
 * anonymous file `fd` of that process (inode ino). id 0: none. */
struct rd_node_xkey {
    uint64_t id, addr, len, ino;
    int64_t fd;
};

/* What the transport lends: the arena (zeroed memory of
 * rd_node_arena_bytes(nslots, local_size, data, stage) bytes) and the copies. */
struct rd_node_mem {
    unsigned char *base;
    int nslots;
    int local_size;
    size_t data;
    size_t stage;
    rd_status (*write)(pid_t pid, int peer, const void *local, uint64_t remote, size_t len);
    rd_status (*read)(pid_t pid, int peer, void *local, uint64_t remote, size_t len);
    void (*expose)(const void *buf, size_t len, struct rd_node_xkey *key);
    void *(*attach)(pid_t pid, int peer, const struct rd_node_xkey *key);
};

struct rd_node_arena {
    unsigned char *base; /* NULL: no arena (one rank on the node, or no shm) */
    int nslots;
    int local_size;      /* ranks per slot at most */
    size_t stride;       /* bytes per slot */
    size_t data;         /* data bytes per area */
    size_t stage;        /* stage bytes per rank and slot */
    size_t stage_off;    /* where a slot's stages start */
    /* Single copy of len bytes from local to remote in process pid (world
     * rank peer, for messages): Cross Memory Attach, lent by the shm
     * transport when the kernel permits it between the node's ranks;
     * NULL otherwise. */
    rd_status (*write)(pid_t pid, int peer, const void *local, uint64_t remote, size_t len);
    /* The same, from remote in process pid to local (lent with write). */
    rd_status (*read)(pid_t pid, int peer, void *local, uint64_t remote, size_t len);
    /* Direct mapping (lent with read and write where the module is on,
     * else NULL): expose a buffer of this process; map a peer's. */
    void (*expose)(const void *buf, size_t len, struct rd_node_xkey *key);
    void *(*attach)(pid_t pid, int peer, const struct rd_node_xkey *key);
};
extern struct rd_node_arena rd_node_arena;

/* Expose [buf, buf + len) to the node's ranks if the arena can (key->id
 * 0 otherwise). */
void rd_node_expose(const void *buf, size_t len, struct rd_node_xkey *key);

/* The part [*lo, *hi) of [remote, remote + len) in process pid (world
 * rank peer) that its exposed region `key` covers, mapped here: where *lo
 * appears in this process, or NULL (nothing mapped; *lo = *hi). */
unsigned char *rd_node_mapped(pid_t pid, int peer, const struct rd_node_xkey *key, uint64_t remote, size_t len,
                              uint64_t *lo, uint64_t *hi);

/* Copy len bytes between local and address remote of process pid (world
 * rank peer), which exposed `key` (id 0: nothing): by memcpy where the
 * peer's exposed region covers them, by CMA elsewhere. to_remote: local
 * is the source. */
rd_status rd_node_copy(int to_remote, pid_t pid, int peer, const struct rd_node_xkey *key, void *local,
                       uint64_t remote, size_t len);

/* A slot's header: who owns it, and how many of its ranks let it go. */
struct rd_node_slot_hdr {
    _Alignas(RD_NODE_LINE) _Atomic uint64_t owner; /* 0: free */
    _Atomic uint32_t released;
};

/* One area: the sequence number of the collective whose data follows,
 * and what the rank says of it (its path and byte count: shmcoll.h),
 * written before the sequence number is posted. */
struct rd_node_area {
    _Alignas(RD_NODE_LINE) _Atomic uint64_t seq;
    uint64_t desc;
    unsigned char data[];
};

/* Bytes an arena of nslots for local_size ranks with `data` bytes per
 * area takes (the transport sizes its segment with it). */
size_t rd_node_arena_bytes(int nslots, int local_size, size_t data, size_t stage);
/* The engine hands the collectives the node's memory a transport lends
 * (NULL: none, or no more): rd_node_arena becomes its view. */
void rd_node_arena_use(const struct rd_node_mem *m);

/* A communicator of n ranks lets its slot go; the last rank frees it. */
void rd_node_slot_release(int slot, int n);

static inline struct rd_node_slot_hdr *rd_node_slot(int slot)
{
    return (struct rd_node_slot_hdr *)(void *)(rd_node_arena.base + (size_t)slot * rd_node_arena.stride);
}

/* Rank `rank`'s done word: the highest collective number up to which it
 * has finished reading (its own line, after the slot's header). */
static inline _Atomic uint64_t *rd_node_done(int slot, int rank)
{
    return (_Atomic uint64_t *)(void *)(rd_node_arena.base + (size_t)slot * rd_node_arena.stride +
                                        RD_NODE_LINE * (1 + (size_t)rank));
}

static inline struct rd_node_area *rd_node_area(int slot, int rank, uint64_t seq)
{
    size_t area = RD_NODE_LINE + rd_node_arena.data; /* a multiple of the line */
    size_t idx = (size_t)rank * RD_NODE_DEPTH + (size_t)(seq % RD_NODE_DEPTH);
    return (struct rd_node_area *)(void *)(rd_node_arena.base + (size_t)slot * rd_node_arena.stride +
                                           RD_NODE_LINE * (1 + (size_t)rd_node_arena.local_size) +
                                           idx * area);
}

/* Rank `rank`'s stage in a slot (page-aligned, rd_node_arena.stage bytes). */
static inline unsigned char *rd_node_stage(int slot, int rank)
{
    return rd_node_arena.base + (size_t)slot * rd_node_arena.stride + rd_node_arena.stage_off +
           (size_t)rank * rd_node_arena.stage;
}

#endif

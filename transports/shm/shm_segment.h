/*
 * shm_segment.h - the one shared-memory segment of a node.
 *
 * Local rank 0 creates it as an anonymous memory file (memfd_create) and
 * publishes "/proc/<pid>/fd/<fd>", which the other local ranks open: the
 * segment never has a name, so nothing can be left behind in /dev/shm
 * whoever dies when (a rank killed before every rank attached left a named
 * segment behind under launchers that do not sweep /dev/shm, e.g. Slurm),
 * and the memory goes with the last mapping. Where memfd is missing, or
 * with RDMPI_SHM_MEMFD=0, it is a named segment (shm_open O_CREAT|O_EXCL,
 * mode 0600) "/rdmpi-<nspace>-<random>" instead; every other local rank
 * attaches by name and increments the attach counter; whoever brings it to
 * local_size unlinks the name. Layout:
 *
 *   header        magic, version, local_size, ring_size, total size, counters
 *   rank info     per local rank: pid and the address of its CMA probe word
 *   active lists  per receiver: count of senders that ever sent to it, and
 *                 their local ranks in the order they joined
 *   ring controls per ordered pair (sender, receiver): the consumer's head
 *   rings         per ordered pair: ring_size bytes, page aligned
 *   coll arena    slots for the collectives of node-local communicators
 *                 (runtime/base/nodemem.h), when 2..RD_SHM_COLL_MAX_RANKS ranks
 *
 * The file is sparse: pages of the rings are allocated when first touched,
 * so pairs that never talk cost no memory.
 */
#ifndef RD_SHM_SEGMENT_H
#define RD_SHM_SEGMENT_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "runtime/base/error.h"
#include "transports/shm/shm_ring.h"

#define RD_SHM_SEG_NAME_MAX 256
#define RD_SHM_SEG_PREFIX "/rdmpi-"
/* the collectives' arena: slots, data bytes per area, largest node served */
#define RD_SHM_COLL_SLOTS 32
#define RD_SHM_COLL_DATA 4096
#define RD_SHM_COLL_STAGE (256 * 1024) /* bytes per rank and slot, sparse */
#define RD_SHM_COLL_MAX_RANKS 64

typedef struct rd_shm_seg_hdr {
    uint64_t magic;
    uint32_t version;
    uint32_t local_size;
    uint64_t ring_size;
    uint64_t total_size;
    _Atomic uint32_t attached; /* ranks mapped so far (the creator included) */
    _Atomic uint32_t unlinked; /* the name is gone */
} rd_shm_seg_hdr;

typedef struct rd_shm_rank_info {
    _Alignas(RD_SHM_LINE) _Atomic int32_t pid;
    _Atomic uint64_t probe_addr; /* address of a known word, for the CMA check */
} rd_shm_rank_info;

/* Receiver r's list of senders: written by senders, read by r's progress. */
typedef struct rd_shm_active {
    _Alignas(RD_SHM_LINE) _Atomic uint32_t count;
    char pad[RD_SHM_LINE - sizeof(uint32_t)];
    _Atomic uint32_t slot[]; /* sender local rank + 1 (0: being written) */
} rd_shm_active;

typedef struct rd_shm_seg {
    unsigned char *base;
    size_t size;
    int local_size, local_rank;
    size_t ring_size;
    int creator;
    int fd;                /* the creator's memory file, open while the segment is (-1: named) */
    size_t info_off, active_off, active_stride, ctl_off, ring_off, coll_off;
    int coll_slots;
    char name[RD_SHM_SEG_NAME_MAX];
} rd_shm_seg;

/* Local rank 0: create, size and map the segment; ring_size must be a power
 * of two (rd_shm_ring_size_round). memfd: an anonymous memory file when the
 * kernel has them, else (or 0) a named segment. seg->name is what to
 * publish: the /proc path of the memory file, or the name. */
rd_status rd_shm_seg_create(rd_shm_seg *seg, const char *nspace, int local_size,
                            size_t ring_size, int memfd);
/* Other local ranks: map the published segment and count this rank in. */
rd_status rd_shm_seg_attach(rd_shm_seg *seg, const char *name, int local_rank, int local_size);
/* Unmap; the creator unlinks the name if some rank never attached. */
void rd_shm_seg_close(rd_shm_seg *seg);

static inline rd_shm_seg_hdr *rd_shm_seg_header(const rd_shm_seg *seg)
{
    return (rd_shm_seg_hdr *)(void *)seg->base;
}
static inline rd_shm_rank_info *rd_shm_seg_info(const rd_shm_seg *seg, int lr)
{
    return (rd_shm_rank_info *)(void *)(seg->base + seg->info_off) + lr;
}
static inline rd_shm_active *rd_shm_seg_active(const rd_shm_seg *seg, int receiver)
{
    return (rd_shm_active *)(void *)(seg->base + seg->active_off +
                                     (size_t)receiver * seg->active_stride);
}
static inline rd_shm_ring_ctl *rd_shm_seg_ctl(const rd_shm_seg *seg, int sender, int receiver)
{
    return (rd_shm_ring_ctl *)(void *)(seg->base + seg->ctl_off) +
           ((size_t)sender * (size_t)seg->local_size + (size_t)receiver);
}
static inline void *rd_shm_seg_ring(const rd_shm_seg *seg, int sender, int receiver)
{
    return seg->base + seg->ring_off +
           ((size_t)sender * (size_t)seg->local_size + (size_t)receiver) * seg->ring_size;
}

#endif

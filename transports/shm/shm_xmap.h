/* shm_xmap.h - the node's ranks map each other's large user buffers, so
 * that a collective copies a block with one memcpy instead of a Cross
 * Memory Attach system call (without XPMEM or KNEM in the kernel).
 *
 * A buffer is exposed by moving its whole pages into an anonymous memory
 * file of their own (memfd): its contents are copied into the file, which
 * is then mapped over the same addresses (MAP_FIXED), so the program sees
 * the same memory at the same place. A peer opens the file through
 * /proc/<pid>/fd (the same permission as CMA) and maps it once; later
 * collectives on the same buffer find both mappings in caches. What
 * decides:
 *  - only a page range asked for the second time is moved (a buffer used
 *    once costs one CMA copy, not a move), only private anonymous memory
 *    (heap, mmap, or a range this module moved before), never the stack;
 *  - libucm's memory events (munmap, mremap, MAP_FIXED, madvise) drop a
 *    region whose pages changed, so a freed buffer is never exposed again
 *    under its old file (under AddressSanitizer, whose allocator unmaps by
 *    raw system calls, its free hook as well); without libucm the module
 *    is off and every copy goes through CMA;
 *  - every exposure has a number of its own, so a peer never mistakes a
 *    new buffer at an old address for the old one; its cache of mappings
 *    is bounded (RDMPI_SHM_XMAP_CACHE), least recently used first out.
 * After fork(), a child shares moved pages with its parent instead of
 * copying them on write (RDMPI_SHM_XMAP=0 turns the module off). */
#ifndef RD_SHM_XMAP_H
#define RD_SHM_XMAP_H

#include <stddef.h>
#include <sys/types.h>

#include "runtime/base/nodemem.h"

/* Start the module (min: smallest buffer worth moving, cache: bytes of
 * peers' regions kept mapped). 1: on; 0: off, why says why. */
int rd_shm_xmap_init(size_t min, size_t cache, const char **why);
void rd_shm_xmap_fini(void);

/* Expose the whole pages of [buf, buf + len) when the policy above says
 * so; key->id is 0 when nothing is exposed (the caller copies by CMA). */
void rd_shm_xmap_expose(const void *buf, size_t len, struct rd_node_xkey *key);

/* Where the region `key` of process pid (world rank peer) appears in this
 * process: the address of key->addr, or NULL (the caller uses CMA). */
void *rd_shm_xmap_attach(pid_t pid, int peer, const struct rd_node_xkey *key);

#endif

/* shm_cma.h - single-copy transfers between processes of a node with Cross
 * Memory Attach (process_vm_readv / process_vm_writev). No registration:
 * the remote address is a virtual address in the peer. */
#ifndef RD_SHM_CMA_H
#define RD_SHM_CMA_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "runtime/base/error.h"

/* The word every process publishes the address of, for the probe. */
#define RD_SHM_CMA_MAGIC 0x636d612d70726f62ULL /* "cma-prob" */
extern const volatile uint64_t rd_shm_cma_probe_word;

/* Read the peer's probe word at addr: RD_OK when CMA works with that peer,
 * RD_ERR_UNSUPPORTED when the kernel does not permit it (EPERM, ENOSYS...),
 * RD_ERR_PEER when the peer is gone. Logs at debug level only. */
rd_status rd_shm_cma_probe(pid_t pid, uint64_t addr);

/* Copy len bytes between local and remote_addr in process pid (peer is the
 * world rank, for messages). Loops on partial transfers and chunks lengths
 * beyond what one call moves. */
rd_status rd_shm_cma_read(pid_t pid, int peer, void *local, uint64_t remote_addr, size_t len);
rd_status rd_shm_cma_write(pid_t pid, int peer, const void *local, uint64_t remote_addr,
                           size_t len);

#endif

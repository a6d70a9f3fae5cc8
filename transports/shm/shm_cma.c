/* shm_cma.c - Cross Memory Attach transfers (shm_cma.h). */
#include "config.h"

#include "transports/shm/shm_cma.h"

#include <errno.h>
#include <string.h>
#include <sys/uio.h>

#include "runtime/base/log.h"

const volatile uint64_t rd_shm_cma_probe_word = RD_SHM_CMA_MAGIC;

/* One call moves at most this much (the kernel caps a call near 2 GiB). */
#define RD_SHM_CMA_CHUNK (1UL << 30)

rd_status rd_shm_cma_probe(pid_t pid, uint64_t addr)
{
    uint64_t word = 0;
    struct iovec l = {&word, sizeof(word)};
    struct iovec r = {(void *)(uintptr_t)addr, sizeof(word)};
    ssize_t n = process_vm_readv(pid, &l, 1, &r, 1, 0);
    if (n == (ssize_t)sizeof(word) && word == RD_SHM_CMA_MAGIC)
        return RD_OK;
    if (n < 0) {
        int e = errno;
        rd_debug("shm", "CMA probe of pid %d: %s", (int)pid, strerror(e));
        return e == ESRCH ? RD_ERR_PEER : RD_ERR_UNSUPPORTED;
    }
    rd_debug("shm", "CMA probe of pid %d read %zd bytes, word %#llx", (int)pid, n,
             (unsigned long long)word);
    return RD_ERR_UNSUPPORTED;
}

static rd_status cma_xfer(int write, pid_t pid, int peer, void *local, uint64_t remote_addr,
                          size_t len)
{
    while (len > 0) {
        size_t chunk = len < RD_SHM_CMA_CHUNK ? len : RD_SHM_CMA_CHUNK;
        struct iovec l = {local, chunk};
        struct iovec r = {(void *)(uintptr_t)remote_addr, chunk};
        ssize_t n = write ? process_vm_writev(pid, &l, 1, &r, 1, 0)
                          : process_vm_readv(pid, &l, 1, &r, 1, 0);
        if (n < 0) {
            int e = errno;
            if (e == EINTR)
                continue;
            rd_error("shm", "%s of %zu bytes %s rank %d (pid %d) at %#llx failed: %s%s",
                     write ? "process_vm_writev" : "process_vm_readv", chunk,
                     write ? "to" : "from", peer, (int)pid, (unsigned long long)remote_addr,
                     strerror(e),
                     e == EPERM ? " (Cross Memory Attach is not permitted here: ptrace "
                                  "restrictions; RDMPI_SHM_CMA=0 turns it off)"
                     : e == ESRCH ? " (the peer process is gone)" : "");
            return e == ESRCH ? RD_ERR_PEER : e == EFAULT ? RD_ERR_ARG : e == EPERM ? RD_ERR_UNSUPPORTED : RD_ERR_IO;
        }
        if (n == 0) {
            rd_error("shm", "%s %s rank %d (pid %d) at %#llx moved 0 of %zu bytes",
                     write ? "process_vm_writev" : "process_vm_readv", write ? "to" : "from",
                     peer, (int)pid, (unsigned long long)remote_addr, chunk);
            return RD_ERR_IO;
        }
        local = (char *)local + n;
        remote_addr += (uint64_t)n;
        len -= (size_t)n;
    }
    return RD_OK;
}

rd_status rd_shm_cma_read(pid_t pid, int peer, void *local, uint64_t remote_addr, size_t len)
{
    return cma_xfer(0, pid, peer, local, remote_addr, len);
}

rd_status rd_shm_cma_write(pid_t pid, int peer, const void *local, uint64_t remote_addr,
                           size_t len)
{
    return cma_xfer(1, pid, peer, (void *)(uintptr_t)local, remote_addr, len);
}

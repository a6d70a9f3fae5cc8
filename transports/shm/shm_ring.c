/* shm_ring.c - set-up helpers of the shared-memory ring (shm_ring.h); the
 * send and poll fast paths are inline in the header. */
#include "config.h"

#include "transports/shm/shm_ring.h"

size_t rd_shm_ring_size_round(size_t want)
{
    size_t size = RD_SHM_RING_MIN;
    while (size < want && size < RD_SHM_RING_MAX)
        size <<= 1;
    return size;
}

size_t rd_shm_ring_am_max(size_t size)
{
    size_t max = size / 4 - RD_SHM_REC_HDR;
    return max < RD_SHM_AM_CAP ? max : RD_SHM_AM_CAP;
}

void rd_shm_ring_tx_init(rd_shm_ring_tx *tx, void *data, size_t size, rd_shm_ring_ctl *ctl)
{
    tx->data = data;
    tx->mask = size - 1;
    tx->ctl = ctl;
    tx->tail = atomic_load_explicit(&ctl->head, memory_order_acquire);
    tx->cached_head = tx->tail;
}

void rd_shm_ring_rx_init(rd_shm_ring_rx *rx, void *data, size_t size, rd_shm_ring_ctl *ctl)
{
    rx->data = data;
    rx->mask = size - 1;
    rx->ctl = ctl;
    rx->head = atomic_load_explicit(&ctl->head, memory_order_acquire);
    rx->cleared = rx->head;
    rx->batch = size / 8; /* <= size - the largest record: the producer never starves */
}

/*
 * shm_ring.h - a single-producer / single-consumer ring of variable-size
 * records in shared memory (one per ordered pair of ranks on a node).
 *
 * Layout: `size` bytes of data (a power of two, at least 4 KiB) plus one
 * cache line holding the consumer's head index (rd_shm_ring_ctl), which the
 * producer reads only when its cached copy says the ring is full.
 *
 * A record starts on a 64-byte boundary with one 8-byte header word,
 *
 *     bits  0..31  data length (bytes after the AM header)
 *     bits 32..39  AM header length (<= RD_AM_HDR_MAX)
 *     bits 40..55  AM id
 *     bit  56      VALID: the record is published
 *     bit  57      SKIP:  wrap-around filler; bits 0..31 give its length
 *
 * followed by the AM header and then the data; its length is rounded up to
 * 64 bytes. Invariant: in free space, the first word of every 64-byte line
 * is zero, so the consumer never mistakes stale bytes of an older lap for a
 * header. The producer writes the payload, then publishes the header word
 * with a release store. The consumer polls only the header word at its
 * head, reads the record with acquire ordering, calls the handler with
 * pointers straight into the ring. Consumed space goes back to the
 * producer later, in batches: the consumer zeroes the first word of each
 * consumed line (restoring the invariant), then publishes its head, once a
 * batch (an eighth of the ring) has piled up. The producer never starves:
 * when it finds the ring full, at least three quarters of it are consumed
 * or ready to be.
 * Why the consumer, and why later: the consumer polls the next line while
 * it waits, so a producer store there would make that line cross between
 * the cores twice per message; and a store to a line the peer has cached
 * waits for the peer's acknowledgement, which, stores draining in order
 * (x86), would hold back this rank's next message (its reply in a
 * ping-pong) if it were made right after each record. Neither side locks,
 * allocates or enters the kernel. Positions are absolute byte counts
 * (64-bit, never wrap); offset = position & (size - 1).
 */
#ifndef RD_SHM_RING_H
#define RD_SHM_RING_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "runtime/base/error.h"

#define RD_SHM_LINE 64
#define RD_SHM_RING_MIN 4096
#define RD_SHM_RING_MAX (1UL << 30)
/* Largest hlen + len one record carries: a quarter of the ring, capped. */
#define RD_SHM_AM_CAP (64UL * 1024)

#define RD_SHM_REC_VALID (1ULL << 56)
#define RD_SHM_REC_SKIP (1ULL << 57)
#define RD_SHM_REC_HDR 8 /* bytes of the header word */

/* The consumer's published head; one cache line of its own. */
typedef struct rd_shm_ring_ctl {
    _Alignas(RD_SHM_LINE) _Atomic uint64_t head;
    char pad[RD_SHM_LINE - sizeof(uint64_t)];
} rd_shm_ring_ctl;

/* Producer side (private to the sender). */
typedef struct rd_shm_ring_tx {
    unsigned char *data;
    uint64_t mask;        /* size - 1 */
    uint64_t tail;        /* next position to write */
    uint64_t cached_head; /* last head read from ctl */
    rd_shm_ring_ctl *ctl;
} rd_shm_ring_tx;

/* Consumer side (private to the receiver). */
typedef struct rd_shm_ring_rx {
    unsigned char *data;
    uint64_t mask;
    uint64_t head;    /* next position to read */
    uint64_t cleared; /* consumed space up to here is cleared and published */
    uint64_t batch;   /* clear and publish when this much has piled up */
    rd_shm_ring_ctl *ctl;
} rd_shm_ring_rx;

/* Called for every record, in order; pointers valid during the call only. */
typedef void (*rd_shm_ring_fn)(void *arg, unsigned id, const void *hdr, size_t hlen,
                               const void *data, size_t len);

/* Round a requested ring size to the power of two actually used. */
size_t rd_shm_ring_size_round(size_t want);
/* The largest hlen + len of one record in a ring of this size. */
size_t rd_shm_ring_am_max(size_t size);
/* Attach the two ends to a ring: data (size bytes, 64-byte aligned, zero
 * when new) and its control line (zero when new). */
void rd_shm_ring_tx_init(rd_shm_ring_tx *tx, void *data, size_t size, rd_shm_ring_ctl *ctl);
void rd_shm_ring_rx_init(rd_shm_ring_rx *rx, void *data, size_t size, rd_shm_ring_ctl *ctl);

static inline uint64_t rd_shm_rec_bytes(size_t payload)
{
    return (RD_SHM_REC_HDR + payload + RD_SHM_LINE - 1) & ~(uint64_t)(RD_SHM_LINE - 1);
}

static inline _Atomic uint64_t *rd_shm_rec_word(unsigned char *data, uint64_t off)
{
    return (_Atomic uint64_t *)(void *)(data + off);
}

/* Lines past its tail that the producer claims for writing (PREFETCHW)
 * after each record. Why: the consumer cleared these lines a lap ago, so
 * they sit in the other core's cache and the first store to each waits for
 * the line to cross (an RFO); in a burst of small messages (a window of 64
 * Isends) that wait, not the instructions, set the send rate (bench/p2p's
 * mr test: 12 us per window of 64 when the two vCPUs were far apart, 5.5 us
 * with the lines claimed ahead; claiming 1, 2 or 4 lines measured alike
 * within the noise, 4 covers records of several lines). Only free space is
 * claimed: a line the consumer has yet to read is left alone. */
#define RD_SHM_CLAIM_LINES 4

static inline void rd_shm_prefetch_write(const void *p)
{
#if defined(__x86_64__) || defined(__i386__)
    /* PREFETCHW (a NOP where the processor lacks it); GCC emits it for
     * __builtin_prefetch only with -mprfchw, hence the asm */
    __asm__ volatile("prefetchw %0" ::"m"(*(const char *)p));
#else
    __builtin_prefetch(p, 1, 3);
#endif
}

/* Copy a few bytes (the engine's headers and small payloads) without a
 * call into libc: 8-byte words, then the tail. */
static inline void rd_shm_copy_small(unsigned char *d, const unsigned char *s, size_t n)
{
    for (; n >= 8; n -= 8, d += 8, s += 8) {
        uint64_t v;
        memcpy(&v, s, 8);
        memcpy(d, &v, 8);
    }
    if (n >= 4) {
        uint32_t v;
        memcpy(&v, s, 4);
        memcpy(d, &v, 4);
        n -= 4, d += 4, s += 4;
    }
    while (n--)
        *d++ = *s++;
}

#define RD_SHM_COPY_SMALL 64 /* below this, rd_shm_copy_small */

/* Append one record (hlen + len <= rd_shm_ring_am_max, id < 65536).
 * RD_ERR_AGAIN when the ring has no room now. */
static inline rd_status rd_shm_ring_send(rd_shm_ring_tx *tx, unsigned id, const void *hdr,
                                         size_t hlen, const void *data, size_t len)
{
    uint64_t size = tx->mask + 1;
    uint64_t need = rd_shm_rec_bytes(hlen + len);
    uint64_t off = tx->tail & tx->mask;
    uint64_t skip = off + need > size ? size - off : 0;
    uint64_t total = skip + need;

    if (tx->tail + total - tx->cached_head > size) {
        tx->cached_head = atomic_load_explicit(&tx->ctl->head, memory_order_acquire);
        if (tx->tail + total - tx->cached_head > size)
            return RD_ERR_AGAIN;
    }
    uint64_t roff = skip ? 0 : off;
    unsigned char *rec = tx->data + roff;
    if (hlen + len <= RD_SHM_COPY_SMALL) {
        rd_shm_copy_small(rec + RD_SHM_REC_HDR, hdr, hlen);
        rd_shm_copy_small(rec + RD_SHM_REC_HDR + hlen, data, len);
    } else {
        if (hlen)
            memcpy(rec + RD_SHM_REC_HDR, hdr, hlen);
        if (len)
            memcpy(rec + RD_SHM_REC_HDR + hlen, data, len);
    }
    uint64_t w = RD_SHM_REC_VALID | ((uint64_t)(id & 0xffff) << 40) | ((uint64_t)hlen << 32) |
                 (uint64_t)len;
    atomic_store_explicit(rd_shm_rec_word(tx->data, roff), w, memory_order_release);
    if (skip) /* the consumer sees the record at 0 only through the skip */
        atomic_store_explicit(rd_shm_rec_word(tx->data, off), RD_SHM_REC_VALID | RD_SHM_REC_SKIP | skip,
                              memory_order_release);
    tx->tail += total;
    /* claim the lines up to RD_SHM_CLAIM_LINES past the new tail that the
     * last record did not (one line for a one-line record) */
    uint64_t last = tx->tail + RD_SHM_CLAIM_LINES * RD_SHM_LINE;
    uint64_t pos = last + RD_SHM_LINE - total;
    if (pos < tx->tail + RD_SHM_LINE)
        pos = tx->tail + RD_SHM_LINE;
    for (; pos <= last && pos - tx->cached_head < size; pos += RD_SHM_LINE)
        rd_shm_prefetch_write(tx->data + (pos & tx->mask));
    return RD_OK;
}

/* Whether a record is waiting (one load of the line at the head). */
static inline int rd_shm_ring_ready(const rd_shm_ring_rx *rx)
{
    return (atomic_load_explicit(rd_shm_rec_word(rx->data, rx->head & rx->mask),
                                 memory_order_relaxed) & RD_SHM_REC_VALID) != 0;
}

/* Give consumed space back: clear it (the invariant), then publish. */
static inline void rd_shm_ring_release(rd_shm_ring_rx *rx)
{
    for (uint64_t pos = rx->cleared; pos != rx->head; pos += RD_SHM_LINE)
        atomic_store_explicit(rd_shm_rec_word(rx->data, pos & rx->mask), 0, memory_order_relaxed);
    rx->cleared = rx->head;
    atomic_store_explicit(&rx->ctl->head, rx->head, memory_order_release);
}

/* Deliver up to max records to fn; returns how many were delivered. */
static inline int rd_shm_ring_poll(rd_shm_ring_rx *rx, int max, rd_shm_ring_fn fn, void *arg)
{
    int n = 0;
    while (n < max) {
        /* the line at head held position head - size in the last lap: if
         * that was not released yet its header is stale, not new */
        if (rx->head - rx->cleared > rx->mask)
            rd_shm_ring_release(rx);
        uint64_t off = rx->head & rx->mask;
        uint64_t w = atomic_load_explicit(rd_shm_rec_word(rx->data, off), memory_order_acquire);
        if (!(w & RD_SHM_REC_VALID))
            break;
        if (w & RD_SHM_REC_SKIP) {
            rx->head += w & 0xffffffffu;
            continue;
        }
        size_t len = (size_t)(w & 0xffffffffu);
        size_t hlen = (size_t)((w >> 32) & 0xff);
        const unsigned char *rec = rx->data + off + RD_SHM_REC_HDR;
        fn(arg, (unsigned)((w >> 40) & 0xffff), rec, hlen, rec + hlen, len);
        rx->head += rd_shm_rec_bytes(hlen + len);
        n++;
    }
    if (rx->head - rx->cleared >= rx->batch)
        rd_shm_ring_release(rx);
    return n;
}

#endif

/* nodemem.c - the node's arena for the collectives (nodemem.h). */
#include "config.h"

#include "runtime/base/nodemem.h"

#include <string.h>

struct rd_node_arena rd_node_arena;

/* A slot: header and done lines, the areas, then the stages (pages). */
static size_t stage_off(int local_size, size_t data)
{
    size_t s = RD_NODE_LINE * (1 + (size_t)local_size) +
               (size_t)local_size * RD_NODE_DEPTH * (RD_NODE_LINE + data);
    return (s + 4095) & ~(size_t)4095;
}

static size_t slot_stride(int local_size, size_t data, size_t stage)
{
    return stage_off(local_size, data) + (size_t)local_size * stage;
}

size_t rd_node_arena_bytes(int nslots, int local_size, size_t data, size_t stage)
{
    return (size_t)nslots * slot_stride(local_size, data, stage);
}

void rd_node_arena_use(const struct rd_node_mem *m)
{
    if (!m || !m->base) {
        memset(&rd_node_arena, 0, sizeof(rd_node_arena));
        return;
    }
    rd_node_arena.base = m->base;
    rd_node_arena.nslots = m->nslots;
    rd_node_arena.local_size = m->local_size;
    rd_node_arena.data = m->data;
    rd_node_arena.stage = m->stage;
    rd_node_arena.stage_off = stage_off(m->local_size, m->data);
    rd_node_arena.stride = slot_stride(m->local_size, m->data, m->stage);
    rd_node_arena.write = m->write;
    rd_node_arena.read = m->read;
    rd_node_arena.expose = m->expose;
    rd_node_arena.attach = m->attach;
}

void rd_node_expose(const void *buf, size_t len, struct rd_node_xkey *key)
{
    key->id = 0;
    if (rd_node_arena.expose)
        rd_node_arena.expose(buf, len, key);
}

static rd_status cma(int to_remote, pid_t pid, int peer, void *local, uint64_t remote, size_t len)
{
    if (!len)
        return RD_OK;
    return to_remote ? rd_node_arena.write(pid, peer, local, remote, len)
                     : rd_node_arena.read(pid, peer, local, remote, len);
}

unsigned char *rd_node_mapped(pid_t pid, int peer, const struct rd_node_xkey *key, uint64_t remote, size_t len,
                              uint64_t *lo, uint64_t *hi)
{
    unsigned char *map = key->id && rd_node_arena.attach ? rd_node_arena.attach(pid, peer, key) : NULL;
    *lo = remote > key->addr ? remote : key->addr;
    *hi = remote + len < key->addr + key->len ? remote + len : key->addr + key->len;
    if (!map || *lo >= *hi) {
        *lo = *hi = remote;
        return NULL;
    }
    return map + (*lo - key->addr);
}

rd_status rd_node_copy(int to_remote, pid_t pid, int peer, const struct rd_node_xkey *key, void *local,
                       uint64_t remote, size_t len)
{
    uint64_t lo, hi;
    unsigned char *r = rd_node_mapped(pid, peer, key, remote, len, &lo, &hi);
    if (!r)
        return cma(to_remote, pid, peer, local, remote, len);
    /* the edges outside the region by CMA, the rest by memcpy */
    size_t head = (size_t)(lo - remote), mid = (size_t)(hi - lo);
    unsigned char *l = local;
    rd_status st = cma(to_remote, pid, peer, l, remote, head);
    if (st == RD_OK)
        st = cma(to_remote, pid, peer, l + head + mid, hi, len - head - mid);
    if (st == RD_OK) {
        if (to_remote)
            memcpy(r, l + head, mid);
        else
            memcpy(l + head, r, mid);
    }
    return st;
}

void rd_node_slot_release(int slot, int n)
{
    if (!rd_node_arena.base || slot < 0 || slot >= rd_node_arena.nslots)
        return;
    struct rd_node_slot_hdr *h = rd_node_slot(slot);
    if (atomic_fetch_add_explicit(&h->released, 1, memory_order_acq_rel) + 1 == (uint32_t)n)
        atomic_store_explicit(&h->owner, 0, memory_order_release);
}

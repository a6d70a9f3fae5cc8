/* nodemem.c - the node's arena for the collectives (nodemem.h). */
#include "config.h"

#include "runtime/nodemem.h"

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

void rd_node_arena_register(unsigned char *base, int nslots, int local_size, size_t data, size_t stage)
{
    rd_node_arena.base = base;
    rd_node_arena.nslots = nslots;
    rd_node_arena.local_size = local_size;
    rd_node_arena.data = data;
    rd_node_arena.stage = stage;
    rd_node_arena.stage_off = stage_off(local_size, data);
    rd_node_arena.stride = slot_stride(local_size, data, stage);
}

void rd_node_arena_unregister(void)
{
    rd_node_arena.base = NULL;
    rd_node_arena.nslots = 0;
    rd_node_arena.write = NULL;
    rd_node_arena.read = NULL;
}

void rd_node_slot_release(int slot, int n)
{
    if (!rd_node_arena.base || slot < 0 || slot >= rd_node_arena.nslots)
        return;
    struct rd_node_slot_hdr *h = rd_node_slot(slot);
    if (atomic_fetch_add_explicit(&h->released, 1, memory_order_acq_rel) + 1 == (uint32_t)n)
        atomic_store_explicit(&h->owner, 0, memory_order_release);
}

/* win.c - windows of one-sided communication: ids, creation of every
 * flavour, the per-target path table, shared segments, dynamic regions,
 * info keys and free. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "runtime/base/job.h"
#include "runtime/base/log.h"
#include "runtime/base/params.h"
#include "runtime/objects/comm.h"
#include "runtime/objects/info.h"
#include "runtime/rma/rma_int.h"

/* ------------------------------------------------------------ ids */

/* The windows of this process by id (what the active messages name);
 * ids are reused after free (every operation on a window is done before
 * its closing barrier). */
static struct rd_rma_win **wins;
static uint32_t nwins;

struct rd_rma_win *rma_win(uint32_t id)
{
    return id < nwins ? wins[id] : NULL;
}

static int win_id(struct rd_rma_win *rw)
{
    for (uint32_t i = 0; i < nwins; i++)
        if (!wins[i]) {
            wins[i] = rw;
            rw->id = i;
            return 0;
        }
    struct rd_rma_win **n = realloc(wins, (nwins + 8) * sizeof(*n));
    if (!n)
        return -1;
    memset(n + nwins, 0, 8 * sizeof(*n));
    wins = n;
    wins[nwins] = rw;
    rw->id = nwins;
    nwins += 8;
    return 0;
}

void rd_rma_init(void)
{
    rd_p2p_am_hook = rma_am_handler;
}

/* ------------------------------------------------------------ creation */

static int info_true(MPI_Info info, const char *key)
{
    if (!info || info == MPI_INFO_NULL)
        return 0;
    int i = rd_info_find(info, key);
    return i >= 0 && strcmp(info->ent[i].value, "true") == 0;
}

/* A window over MPI_Alloc_mem memory (mem.c): its pool chunk, for node
 * peers to map (the NODE path), and a line of the pool for its
 * accumulate and lock words; otherwise nothing (CMA, as user memory). */
static void pool_window(struct rd_rma_win *rw, void *base, size_t size, struct rd_rma_info *mine)
{
    int fd, cfd;
    size_t off, len, coff, clen;
    if (!rma_mem_find(base, size, &fd, &off, &len))
        return;
    void *ctl = rma_mem_alloc(64, 64);
    if (!ctl)
        return;
    if (!rma_mem_find(ctl, 64, &cfd, &coff, &clen)) {
        rma_mem_free(ctl);
        return;
    }
    memset(ctl, 0, 64);
    rw->ctl_blk = ctl;
    rw->my_acc = (_Atomic uint32_t *)ctl;
    mine->fd = fd;
    mine->seg_off = off;
    mine->seg_len = len;
    mine->ctl_fd = cfd;
    mine->ctl_off = coff;
    mine->ctl_len = clen;
}

int rd_rma_win_open(MPI_Win w, int flavor, MPI_Info info, struct rd_rma_info *mine, char *why)
{
    memset(mine, 0, sizeof(*mine));
    struct rd_rma_win *rw = calloc(1, sizeof(*rw));
    if (!rw || win_id(rw) != 0) {
        free(rw);
        snprintf(why, RD_RMA_WHY, "out of memory");
        return MPI_ERR_NO_MEM;
    }
    rw->win = w;
    rw->flavor = flavor;
    rw->rank = w->comm->rank;
    rw->size = w->comm->size;
    rw->shm_fd = -1;
    rw->noncontig = info_true(info, "alloc_shared_noncontig");
    if (info && info != MPI_INFO_NULL) {
        rw->info = rd_info_new();
        for (int i = 0; rw->info && i < info->n; i++)
            rd_info_set(rw->info, info->ent[i].key, info->ent[i].value);
    }
    w->rma = rw;
    mine->fd = -1;
    if (flavor == MPI_WIN_FLAVOR_ALLOCATE) {
        /* a node segment: a page of control (the accumulate lock word)
         * then the data, in a memfd the node's other ranks map (NODE
         * path); without one (no memfd), a line-aligned block */
        size_t page = (size_t)sysconf(_SC_PAGESIZE);
        size_t len = page + (((size_t)w->size + page - 1) & ~(page - 1));
        int f = memfd_create("rdmpi-win", MFD_CLOEXEC);
        void *m = MAP_FAILED;
        if (f >= 0 && ftruncate(f, (off_t)len) == 0)
            m = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, f, 0);
        if (m != MAP_FAILED) {
            rw->own = m;
            rw->own_len = len;
            rw->shm_fd = f;
            rw->my_acc = (_Atomic uint32_t *)m;
            w->base = (char *)m + page;
            mine->fd = f;
        } else {
            if (f >= 0)
                close(f);
            if (posix_memalign(&rw->own, 64, w->size ? (size_t)w->size : 1) != 0) {
                snprintf(why, RD_RMA_WHY, "cannot allocate %lld bytes", (long long)w->size);
                return MPI_ERR_NO_MEM;
            }
            rw->own_malloc = 1;
            w->base = rw->own;
        }
    }
    mine->ctl_fd = -1;
    if (flavor == MPI_WIN_FLAVOR_CREATE && w->size > 0 && rd_param.rma_path != RD_RMA_PATH_AM)
        pool_window(rw, w->base, (size_t)w->size, mine);
    mine->node = rd_job_node_of(rd_comm_world_rank(w->comm, w->comm->rank));
    mine->base = (uint64_t)(uintptr_t)w->base;
    mine->size = (uint64_t)w->size;
    mine->disp_unit = w->disp_unit;
    mine->id = rw->id;
    mine->pid = (int32_t)getpid();
    return rma_net_open(rw, mine, why);
}

static const char *path_name[] = {"self", "node", "am", "rdma", "hw-atomic", "cma"};

static void print_table(struct rd_rma_win *rw)
{
    char line[512];
    int n = snprintf(line, sizeof(line), "window %u (flavour %d):", rw->id, rw->flavor);
    for (int t = 0; t < rw->size && n > 0 && (size_t)n < sizeof(line); t++)
        n += snprintf(line + n, sizeof(line) - (size_t)n, " %d:%s%s", t, path_name[rw->peers[t].path],
                      rw->peers[t].path == RMA_PATH_SELF && rw->peers[t].net ? "+hw-atomic" : "");
    rd_debug("rma", "%s", line);
}

/* Map node peer t's allocate segment (its fd through /proc): the NODE
 * path, or 0 (it stays on active messages). */
static int map_peer(struct rd_rma_win *rw, int t, const struct rd_rma_info *in)
{
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    size_t len = page + (((size_t)in->size + page - 1) & ~(page - 1));
    char path[64];
    snprintf(path, sizeof(path), "/proc/%d/fd/%d", in->pid, in->fd);
    int f = open(path, O_RDWR | O_CLOEXEC);
    if (f < 0) {
        rd_debug("rma", "cannot open rank %d's window segment %s: %s", t, path, strerror(errno));
        return 0;
    }
    void *m = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, f, 0);
    close(f);
    if (m == MAP_FAILED)
        return 0;
    struct rma_peer *p = &rw->peers[t];
    p->map = m;
    p->map_len = len;
    p->acc = (_Atomic uint32_t *)m;
    p->mem = (char *)m + page;
    return 1;
}

static void *map_fd(int pid, int fd, size_t len)
{
    char path[64];
    snprintf(path, sizeof(path), "/proc/%d/fd/%d", pid, fd);
    int f = open(path, O_RDWR | O_CLOEXEC);
    if (f < 0) {
        rd_debug("rma", "cannot open %s: %s", path, strerror(errno));
        return NULL;
    }
    void *m = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, f, 0);
    close(f);
    return m == MAP_FAILED ? NULL : m;
}

/* Map node peer t's window over MPI_Alloc_mem memory (its pool chunk and
 * its control words' chunk): the NODE path, or 0 (CMA). */
static int map_pool_peer(struct rd_rma_win *rw, int t, const struct rd_rma_info *in)
{
    struct rma_peer *p = &rw->peers[t];
    char *m = map_fd(in->pid, in->fd, in->seg_len);
    if (!m)
        return 0;
    char *c = m;
    if (in->ctl_fd != in->fd && !(c = map_fd(in->pid, in->ctl_fd, in->ctl_len))) {
        munmap(m, in->seg_len);
        return 0;
    }
    p->map = m;
    p->map_len = in->seg_len;
    if (c != m) {
        p->ctl_map = c;
        p->ctl_map_len = in->ctl_len;
    }
    p->mem = m + in->seg_off;
    p->acc = (_Atomic uint32_t *)(void *)(c + in->ctl_off);
    return 1;
}

int rd_rma_win_table(MPI_Win w, const struct rd_rma_info *all, char *why)
{
    struct rd_rma_win *rw = rma_of(w);
    rw->peers = calloc((size_t)rw->size, sizeof(*rw->peers));
    if (!rw->peers) {
        snprintf(why, RD_RMA_WHY, "out of memory");
        return MPI_ERR_NO_MEM;
    }
    /* RDMPI_RMA_PATH=am: the active-message path to every rank, self
     * included; auto: local memory for this rank, active messages for the
     * others (the direct paths come here: node memory, RDMA, atomics) */
    /* RDMPI_RMA_PATH=am: the active-message path to every rank, self
     * included; auto: in place for this rank, loads and stores for node
     * peers whose memory is a node segment (allocate, allocate_shared:
     * those are set when the segment is mapped), active messages for the
     * others (the network's direct paths come here: RDMA, atomics) */
    int force_am = rd_param.rma_path == RD_RMA_PATH_AM;
    for (int t = 0; t < rw->size; t++) {
        struct rma_peer *p = &rw->peers[t];
        p->world = rd_comm_world_rank(w->comm, t);
        p->id = all[t].id;
        p->size = all[t].size;
        p->disp_unit = all[t].disp_unit;
        p->pid = all[t].pid;
        p->path = t == rw->rank && !force_am ? RMA_PATH_SELF : RMA_PATH_AM;
        if (t == rw->rank)
            p->acc = rw->my_acc; /* its own words (NULL without a segment) */
        /* the network's direct paths (rdma.c): RDMA, HW_ATOMIC, and on
         * a window by the device's atomics this rank's loopback */
        if (rma_net_peer(rw, t, all))
            continue;
        if (!force_am && t != rw->rank && rw->flavor == MPI_WIN_FLAVOR_ALLOCATE && rw->my_acc &&
            all[t].fd >= 0 && all[t].node >= 0 && all[t].node == all[rw->rank].node && map_peer(rw, t, &all[t]))
            p->path = RMA_PATH_NODE;
        /* user memory on the node: Put and Get by single copies; memory
         * of MPI_Alloc_mem (node memory) by loads and stores */
        if (!force_am && t != rw->rank && rw->flavor == MPI_WIN_FLAVOR_CREATE && all[t].node >= 0 &&
            all[t].node == all[rw->rank].node && all[t].size > 0) {
            p->path = RMA_PATH_CMA;
            p->base = all[t].base;
            if (all[t].fd >= 0 && all[t].ctl_fd >= 0 && map_pool_peer(rw, t, &all[t]))
                p->path = RMA_PATH_NODE;
        }
        /* the fast path's view (fast.c; shared windows: rd_rma_shared_map) */
        if (p->path == RMA_PATH_NODE)
            p->fast = p->mem;
        else if (p->path == RMA_PATH_SELF && rw->flavor != MPI_WIN_FLAVOR_DYNAMIC &&
                 rw->flavor != MPI_WIN_FLAVOR_SHARED)
            p->fast = w->base;
    }
    if (rw->flavor != MPI_WIN_FLAVOR_SHARED)
        print_table(rw);
    return MPI_SUCCESS;
}

/* ------------------------------------------------------------ shared windows */

/* One memfd for the window's ranks (they share a node: the caller
 * checked), rank r's part at shoff[r]: back to back (contiguous, the
 * default), or each on its own pages with alloc_shared_noncontig. Nothing
 * in /dev/shm: the file goes with the last mapping. */
static size_t shared_ctrl(struct rd_rma_win *rw)
{
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    return ((size_t)rw->size * 64 + page - 1) & ~(page - 1);
}

static size_t shared_layout(struct rd_rma_win *rw)
{
    size_t off = 0, page = (size_t)sysconf(_SC_PAGESIZE);
    for (int r = 0; r < rw->size; r++) {
        if (rw->noncontig)
            off = (off + page - 1) & ~(page - 1);
        rw->shoff[r] = (MPI_Aint)off;
        off += rw->peers[r].size;
    }
    /* the ranks' accumulate lock words (a line each) come first */
    return shared_ctrl(rw) + (off ? (off + page - 1) & ~(page - 1) : page);
}

int rd_rma_shared_make(MPI_Win w, int *fd, char *why)
{
    struct rd_rma_win *rw = rma_of(w);
    rw->shoff = calloc((size_t)rw->size, sizeof(*rw->shoff));
    if (!rw->shoff) {
        snprintf(why, RD_RMA_WHY, "out of memory");
        return MPI_ERR_NO_MEM;
    }
    size_t len = shared_layout(rw);
    int f = memfd_create("rdmpi-win", MFD_CLOEXEC);
    if (f < 0 || ftruncate(f, (off_t)len) != 0) {
        snprintf(why, RD_RMA_WHY, "cannot make a shared segment of %zu bytes: %s", len, strerror(errno));
        if (f >= 0)
            close(f);
        *fd = -1;
        return MPI_ERR_NO_MEM;
    }
    rw->shm_fd = f;
    *fd = f;
    return MPI_SUCCESS;
}

int rd_rma_shared_map(MPI_Win w, int fd0, char *why)
{
    struct rd_rma_win *rw = rma_of(w);
    if (fd0 < 0) {
        snprintf(why, RD_RMA_WHY, "rank 0 could not make the shared segment");
        return MPI_ERR_NO_MEM;
    }
    if (!rw->shoff) {
        rw->shoff = calloc((size_t)rw->size, sizeof(*rw->shoff));
        if (!rw->shoff) {
            snprintf(why, RD_RMA_WHY, "out of memory");
            return MPI_ERR_NO_MEM;
        }
    }
    size_t len = shared_layout(rw);
    int f = rw->shm_fd;
    if (f < 0) {
        /* the node's other ranks open rank 0's file through /proc, as the
         * shm transport maps its segment */
        char path[64];
        snprintf(path, sizeof(path), "/proc/%d/fd/%d", rw->peers[0].pid, fd0);
        f = open(path, O_RDWR | O_CLOEXEC);
        if (f < 0) {
            snprintf(why, RD_RMA_WHY, "cannot open rank 0's shared segment %s: %s", path, strerror(errno));
            return MPI_ERR_NO_MEM;
        }
        rw->shm_fd = f;
    }
    void *m = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, f, 0);
    if (m == MAP_FAILED) {
        snprintf(why, RD_RMA_WHY, "cannot map the shared segment (%zu bytes): %s", len, strerror(errno));
        return MPI_ERR_NO_MEM;
    }
    rw->own = m;
    rw->own_len = len;
    char *data = (char *)m + shared_ctrl(rw);
    w->base = data + rw->shoff[rw->rank];
    rw->my_acc = (_Atomic uint32_t *)((char *)m + 64 * (size_t)rw->rank);
    int force_am = rd_param.rma_path == RD_RMA_PATH_AM;
    for (int t = 0; t < rw->size; t++) {
        struct rma_peer *p = &rw->peers[t];
        p->mem = data + rw->shoff[t];
        p->acc = (_Atomic uint32_t *)((char *)m + 64 * (size_t)t);
        if (t != rw->rank && !force_am)
            p->path = RMA_PATH_NODE;
        if (!force_am)
            p->fast = p->mem; /* (fast.c) */
    }
    print_table(rw);
    return MPI_SUCCESS;
}

int rd_rma_shared_query(MPI_Win w, int rank, MPI_Aint *size, MPI_Aint *disp_unit, void *baseptr, char *why)
{
    struct rd_rma_win *rw = rma_of(w);
    if (rw->flavor != MPI_WIN_FLAVOR_SHARED) {
        snprintf(why, RD_RMA_WHY, "the window was not made by MPI_Win_allocate_shared");
        return MPI_ERR_RMA_FLAVOR;
    }
    if (rank == MPI_PROC_NULL) {
        /* the first rank with memory (MPI-4.1 12.2.3), else rank 0's empty part */
        rank = 0;
        for (int r = 0; r < rw->size; r++)
            if (rw->peers[r].size) {
                rank = r;
                break;
            }
    } else if (rank < 0 || rank >= rw->size) {
        snprintf(why, RD_RMA_WHY, "rank %d is not in the window's group of %d", rank, rw->size);
        return MPI_ERR_RANK;
    }
    *size = (MPI_Aint)rw->peers[rank].size;
    *disp_unit = (MPI_Aint)rw->peers[rank].disp_unit;
    *(void **)baseptr = rw->peers[rank].mem;
    return MPI_SUCCESS;
}

/* ------------------------------------------------------------ dynamic windows */

int rd_rma_attach(MPI_Win w, void *base, MPI_Aint size, char *why)
{
    struct rd_rma_win *rw = rma_of(w);
    if (rw->flavor != MPI_WIN_FLAVOR_DYNAMIC) {
        snprintf(why, RD_RMA_WHY, "the window was not made by MPI_Win_create_dynamic");
        return MPI_ERR_RMA_FLAVOR;
    }
    uintptr_t b = (uintptr_t)base;
    for (struct rma_region *r = rw->regions; r; r = r->next)
        if (size > 0 && b < r->base + r->len && r->base < b + (size_t)size) {
            snprintf(why, RD_RMA_WHY, "[%p, +%lld) overlaps memory attached already", base, (long long)size);
            return MPI_ERR_RMA_ATTACH;
        }
    struct rma_region *r = malloc(sizeof(*r));
    if (!r) {
        snprintf(why, RD_RMA_WHY, "out of memory");
        return MPI_ERR_NO_MEM;
    }
    r->base = b;
    r->len = (size_t)size;
    r->next = rw->regions;
    rw->regions = r;
    return MPI_SUCCESS;
}

int rd_rma_detach(MPI_Win w, const void *base, char *why)
{
    struct rd_rma_win *rw = rma_of(w);
    if (rw->flavor != MPI_WIN_FLAVOR_DYNAMIC) {
        snprintf(why, RD_RMA_WHY, "the window was not made by MPI_Win_create_dynamic");
        return MPI_ERR_RMA_FLAVOR;
    }
    for (struct rma_region **pr = &rw->regions; *pr; pr = &(*pr)->next)
        if ((*pr)->base == (uintptr_t)base) {
            struct rma_region *r = *pr;
            *pr = r->next;
            free(r);
            return MPI_SUCCESS;
        }
    snprintf(why, RD_RMA_WHY, "%p is not the base of memory attached to the window", base);
    return MPI_ERR_RMA_ATTACH;
}

void *rma_target_ptr(struct rd_rma_win *rw, uint64_t addr, size_t len)
{
    if (rw->flavor == MPI_WIN_FLAVOR_DYNAMIC) {
        for (struct rma_region *r = rw->regions; r; r = r->next)
            if (addr >= r->base && len <= r->len && addr - r->base <= r->len - len)
                return (void *)(uintptr_t)addr;
        return NULL;
    }
    uint64_t size = (uint64_t)rw->win->size;
    if (len > size || addr > size - len)
        return NULL;
    return (char *)rw->win->base + addr;
}

/* ------------------------------------------------------------ info */

int rd_rma_get_info(MPI_Win w, MPI_Info *info, char *why)
{
    struct rd_rma_win *rw = rma_of(w);
    struct rd_info_s *n = rd_info_new();
    if (!n) {
        snprintf(why, RD_RMA_WHY, "out of memory");
        return MPI_ERR_NO_MEM;
    }
    /* the keys in use: the defaults, then what the user set (which the
     * implementation keeps as given: it relies on none of them yet) */
    rd_info_set(n, "no_locks", "false");
    rd_info_set(n, "accumulate_ordering", "rar,raw,war,waw");
    rd_info_set(n, "accumulate_ops", "same_op_no_op");
    rd_info_set(n, "same_size", "false");
    rd_info_set(n, "same_disp_unit", "false");
    if (rw->flavor == MPI_WIN_FLAVOR_SHARED)
        rd_info_set(n, "alloc_shared_noncontig", rw->noncontig ? "true" : "false");
    for (int i = 0; rw->info && i < rw->info->n; i++)
        rd_info_set(n, rw->info->ent[i].key, rw->info->ent[i].value);
    *info = n;
    return MPI_SUCCESS;
}

int rd_rma_set_info(MPI_Win w, MPI_Info info, char *why)
{
    struct rd_rma_win *rw = rma_of(w);
    if (!rw->info && !(rw->info = rd_info_new())) {
        snprintf(why, RD_RMA_WHY, "out of memory");
        return MPI_ERR_NO_MEM;
    }
    for (int i = 0; info && info != MPI_INFO_NULL && i < info->n; i++)
        rd_info_set(rw->info, info->ent[i].key, info->ent[i].value);
    return MPI_SUCCESS;
}

int rd_rma_flavor(MPI_Win w)
{
    return w->rma ? rma_of(w)->flavor : MPI_WIN_FLAVOR_CREATE;
}

/* ------------------------------------------------------------ free */

int rd_rma_win_can_free(MPI_Win w, char *why)
{
    struct rd_rma_win *rw = rma_of(w);
    if (rw->lock_all || rw->nlocks || rw->start || rw->post) {
        snprintf(why, RD_RMA_WHY, "an access or exposure epoch is still open (%s)",
                 rw->lock_all ? "lock_all" : rw->nlocks ? "a lock" : rw->start ? "start" : "post");
        return MPI_ERR_RMA_SYNC;
    }
    rma_flush(rw, -1);
    return MPI_SUCCESS;
}

void rd_rma_win_close(MPI_Win w)
{
    struct rd_rma_win *rw = rma_of(w);
    if (!rw)
        return;
    wins[rw->id] = NULL;
    rma_net_close(rw);
    for (int t = 0; rw->peers && t < rw->size; t++)
        if (rw->peers[t].map)
            munmap(rw->peers[t].map, rw->peers[t].map_len);
    for (int t = 0; rw->peers && t < rw->size; t++)
        if (rw->peers[t].ctl_map)
            munmap(rw->peers[t].ctl_map, rw->peers[t].ctl_map_len);
    if (rw->ctl_blk)
        rma_mem_free(rw->ctl_blk);
    if (rw->own_malloc)
        free(rw->own);
    else if (rw->own)
        munmap(rw->own, rw->own_len);
    if (rw->shm_fd >= 0)
        close(rw->shm_fd);
    while (rw->regions) {
        struct rma_region *r = rw->regions;
        rw->regions = r->next;
        free(r);
    }
    while (rw->wait_head) {
        struct rma_waiter *q = rw->wait_head;
        rw->wait_head = q->next;
        free(q);
    }
    if (rw->info)
        rd_info_destroy(rw->info);
    free(rw->shoff);
    free(rw->start);
    free(rw->post);
    free(rw->peers);
    free(rw);
    w->rma = NULL;
}

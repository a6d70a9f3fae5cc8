/* progress.c - the optional progress thread (RDMPI_RMA_PROGRESS_THREAD):
 * on the active-message path a target answers from its own progress
 * calls, so a target that computes without calling MPI holds up a
 * lock/Put/unlock aimed at it. The thread takes the big lock and makes
 * progress every RDMPI_RMA_PROGRESS_INTERVAL microseconds; with it, every
 * MPI call takes the big lock too (rd_threaded), as under
 * MPI_THREAD_MULTIPLE. Off by default: the lock costs every call. */
#include "config.h"

#include <pthread.h>
#include <stdatomic.h>
#include <time.h>

#include "runtime/base/log.h"
#include "runtime/base/params.h"
#include "runtime/base/state.h"
#include "runtime/p2p/request.h"
#include "runtime/rma/rma.h"

static pthread_t thread;
static _Atomic int running, stop;

static void *loop(void *arg)
{
    (void)arg;
    long us = rd_param.rma_progress_interval;
    struct timespec ts = {us / 1000000, us % 1000000 * 1000};
    while (!atomic_load_explicit(&stop, memory_order_acquire)) {
        nanosleep(&ts, NULL);
        RD_LOCK();
        rd_progress();
        RD_UNLOCK();
    }
    return NULL;
}

void rd_rma_progress_start(void)
{
    if (!rd_param.rma_progress_thread)
        return;
    rd_threaded = 1;
    atomic_store(&stop, 0);
    if (pthread_create(&thread, NULL, loop, NULL) != 0) {
        rd_warn("rma", "cannot start the progress thread; passive targets progress in their own MPI calls");
        return;
    }
    atomic_store(&running, 1);
}

void rd_rma_progress_need(void)
{
    if (atomic_load(&running))
        return;
    if (!rd_threaded) {
        /* the caller is inside its lock region with the lock off: turn it
         * on and take it, so that the caller's RD_UNLOCK releases it */
        rd_threaded = 1;
        pthread_mutex_lock(&rd_big_lock);
    }
    atomic_store(&stop, 0);
    if (pthread_create(&thread, NULL, loop, NULL) != 0) {
        rd_warn("rma", "cannot start the progress thread; passive targets progress in their own MPI calls");
        return;
    }
    atomic_store(&running, 1);
}

void rd_rma_progress_stop(void)
{
    if (!atomic_load(&running))
        return;
    atomic_store_explicit(&stop, 1, memory_order_release);
    pthread_join(thread, NULL);
    atomic_store(&running, 0);
}

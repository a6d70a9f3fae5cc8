/* state.h - the life cycle of the library in this process. */
#ifndef RD_STATE_H
#define RD_STATE_H

#include <pthread.h>
#include <stdatomic.h>

#include "runtime/base/error.h"

enum rd_phase { RD_PHASE_NONE = 0, RD_PHASE_READY, RD_PHASE_FINALIZED };

struct rd_state {
    _Atomic int phase;     /* enum rd_phase */
    int thread_level;      /* provided MPI_THREAD_* */
    pthread_t main_thread; /* the thread that called MPI_Init */
    _Atomic int world;     /* the World Model: 0 not started, 1 MPI_Init'ed, 2 MPI_Finalize'd */
    int sessions;          /* sessions alive (runtime/api/lifecycle.c) */
};

extern struct rd_state rd_state;

/* The big lock: taken only when the application asked for
 * MPI_THREAD_MULTIPLE, so single-threaded codes pay nothing. */
extern int rd_threaded;
extern pthread_mutex_t rd_big_lock;
#define RD_LOCK()                                                                      \
    do {                                                                               \
        if (rd_threaded)                                                               \
            pthread_mutex_lock(&rd_big_lock);                                          \
    } while (0)
#define RD_UNLOCK()                                                                    \
    do {                                                                               \
        if (rd_threaded)                                                               \
            pthread_mutex_unlock(&rd_big_lock);                                        \
    } while (0)

static inline int rd_ready(void)
{
    return atomic_load_explicit(&rd_state.phase, memory_order_acquire) == RD_PHASE_READY;
}

#endif

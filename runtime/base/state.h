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
};

extern struct rd_state rd_state;

static inline int rd_ready(void)
{
    return atomic_load_explicit(&rd_state.phase, memory_order_acquire) == RD_PHASE_READY;
}

/* Bring up / tear down every service (params, log, job, communicators).
 * On failure, err holds the reason. */
rd_status rd_init(int required, int *provided, char *err, size_t errlen);
rd_status rd_finalize(void);

#endif

/* lifecycle.c - bringing the library up and down, floor by floor
 * (lifecycle.h). */
#include "config.h"

#include <mpi.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <string.h>

#include "runtime/io/aio.h"
#include "runtime/rma/rma.h"
#include "collectives/algorithms.h"
#include "runtime/api/lifecycle.h"
#include "runtime/api/topo.h"
#include "runtime/base/hwtopo.h"
#include "runtime/base/job.h"
#include "runtime/base/log.h"
#include "runtime/base/params.h"
#include "runtime/base/report.h"
#include "runtime/base/state.h"
#include "runtime/objects/comm.h"
#include "runtime/p2p/p2p.h"
#include "runtime/p2p/request.h"


rd_status rd_init(int required, int *provided, char *err, size_t errlen)
{
    char perr[256];
    rd_status st;

    rd_params_freeze(); /* (MPI_T writes only LIVE ones from here) */
    int prc = rd_params_load_once(perr, sizeof(perr)); /* (MPI_T may have loaded and written them) */
    if (prc < 0) {
        snprintf(err, errlen, "%s", perr);
        return RD_ERR_PARAM;
    }
    if (rd_log_configure(rd_param.log) != 0) {
        snprintf(err, errlen, "RDMPI_LOG='%s': unknown level (error|warn|info|debug|trace)",
                 rd_param.log);
        return RD_ERR_PARAM;
    }
    st = rd_job_init();
    if (st != RD_OK) {
        snprintf(err, errlen, "cannot join the job: %s", rd_status_string(st));
        return st;
    }
    rd_log_set_rank(rd_job.rank);
    if (prc > 0 && rd_job.rank == 0)
        rd_warn("params", "%s", perr);

    rd_report_init();
    rd_comm_init_predefined();
    /* what the floors above the objects keep on communicators */
    rd_comm_on_free(rd_topo_free);
    rd_coll_init();
    rd_rma_init();
    rd_report_state("MPI_Init: the PMIx fence of the transports' wire-up (every rank must arrive)");
    st = rd_p2p_init();
    rd_report_state(NULL);
    if (st != RD_OK) {
        snprintf(err, errlen, "cannot set up point-to-point communication: %s", rd_status_string(st));
        return st;
    }
    rd_state.thread_level = required < MPI_THREAD_SINGLE ? MPI_THREAD_SINGLE
                            : required > MPI_THREAD_MULTIPLE ? MPI_THREAD_MULTIPLE
                                                              : required;
    rd_state.main_thread = pthread_self();
    rd_threaded = rd_state.thread_level == MPI_THREAD_MULTIPLE;
    rd_rma_progress_start();
    if (provided)
        *provided = rd_state.thread_level;
    atomic_store_explicit(&rd_state.phase, RD_PHASE_READY, memory_order_release);
    return RD_OK;
}

static pthread_mutex_t life = PTHREAD_MUTEX_INITIALIZER;
static pid_t exit_pid; /* the process that registered at_exit (not a child it forked) */

static void at_exit(void)
{
    /* only sessions used it, all of them finalized: the collective end
     * MPI_Finalize would have made (every rank of a job gets here); a
     * child the program forked inherits the handler and must not run it */
    if (getpid() == exit_pid && atomic_load(&rd_state.phase) == RD_PHASE_READY &&
        atomic_load(&rd_state.world) == 0 && rd_state.sessions == 0)
        (void)rd_finalize();
}

int rd_life_up(int world, int required, int *provided, char *err, size_t errlen)
{
    static int exit_hook;
    int rc = MPI_SUCCESS;
    pthread_mutex_lock(&life);
    int phase = atomic_load(&rd_state.phase), w = atomic_load(&rd_state.world);
    if (world && w) {
        snprintf(err, errlen, w == 1 ? "MPI is already initialized"
                                     : "MPI cannot be initialized again after MPI_Finalize");
        rc = MPI_ERR_OTHER;
    } else if (phase == RD_PHASE_FINALIZED) {
        snprintf(err, errlen, "the library was finalized (MPI_Finalize, then the last session): it cannot "
                              "start again in this process");
        rc = MPI_ERR_OTHER;
    } else if (phase == RD_PHASE_NONE) {
        if (rd_init(required, provided, err, errlen) != RD_OK) {
            pthread_mutex_unlock(&life);
            return -1;
        }
        if (!world && !exit_hook) {
            exit_pid = getpid();
            exit_hook = atexit(at_exit) == 0;
        }
    } else {
        /* up already: only this thread is in MPI (the level so far says
         * so), so the lock can be switched on here */
        int level = required < MPI_THREAD_SINGLE ? MPI_THREAD_SINGLE
                    : required > MPI_THREAD_MULTIPLE ? MPI_THREAD_MULTIPLE
                                                      : required;
        if (level > rd_state.thread_level) {
            rd_state.thread_level = level;
            if (level == MPI_THREAD_MULTIPLE) /* (never off again: the RMA thread may have set it) */
                rd_threaded = 1;
        }
        if (world) /* MPI_Is_thread_main: the thread of MPI_Init */
            rd_state.main_thread = pthread_self();
        if (provided)
            *provided = rd_state.thread_level;
    }
    if (rc == MPI_SUCCESS) {
        if (world)
            atomic_store(&rd_state.world, 1);
        else
            rd_state.sessions++;
    }
    pthread_mutex_unlock(&life);
    return rc;
}

rd_status rd_life_down(int world)
{
    rd_status st = RD_OK;
    pthread_mutex_lock(&life);
    if (world)
        atomic_store(&rd_state.world, 2);
    else
        rd_state.sessions--;
    if (rd_state.sessions == 0 && atomic_load(&rd_state.world) == 2)
        st = rd_finalize();
    pthread_mutex_unlock(&life);
    return st;
}

rd_status rd_finalize(void)
{
    /* MPI_Finalize is collective: no rank leaves while another may still
     * need it (later, its transports). The I/O thread goes first: its
     * operations (the program's files are closed by now) never outlive
     * the library. */
    rd_aio_fini();
    rd_rma_progress_stop();
    RD_LOCK();
    rd_io_coll_fini();
    rd_status st = rd_p2p_finalize();
    rd_report_state("MPI_Finalize: the closing PMIx fence (every rank must arrive)");
    if (st == RD_OK)
        st = rd_job_fence(0);
    rd_report_fini();
    rd_rma_mem_close();
    rd_p2p_close();
    rd_comm_fini();
    rd_hwtopo_fini();
    RD_UNLOCK();
    rd_status st2 = rd_job_finalize();
    atomic_store_explicit(&rd_state.phase, RD_PHASE_FINALIZED, memory_order_release);
    return st != RD_OK ? st : st2;
}

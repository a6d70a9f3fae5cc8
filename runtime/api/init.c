/* MPI_Init, MPI_Init_thread, MPI_Finalize, MPI_Initialized, MPI_Finalized,
 * MPI_Query_thread, MPI_Is_thread_main, MPI_Abort. */
#include <mpi.h>
#include <stdio.h>

#include "runtime/api/lifecycle.h"
#include "runtime/base/job.h"
#include "runtime/base/state.h"
#include "runtime/objects/attr.h"
#include "runtime/objects/comm.h"
#include "runtime/objects/errhandler.h"

static int init_common(const char *call, int required, int *provided)
{
    char err[384];
    int rc = rd_life_up(1, required, provided, err, sizeof(err));
    if (rc < 0) {
        fprintf(stderr, "rdmpi: %s: %s\n", call, err);
        rd_job_abort(1, err);
    }
    if (rc > 0)
        return rd_err_raise(MPI_COMM_WORLD, rc, call, "%s", err);
    return MPI_SUCCESS;
}

#pragma weak MPI_Init = PMPI_Init
int PMPI_Init(int *argc, char ***argv)
{
    return init_common("MPI_Init", MPI_THREAD_SINGLE, NULL);
}

#pragma weak MPI_Init_thread = PMPI_Init_thread
int PMPI_Init_thread(int *argc, char ***argv, int required, int *provided)
{
    if (!provided)
        return rd_err_raise(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Init_thread", "provided is NULL");
    if (required < MPI_THREAD_SINGLE || required > MPI_THREAD_MULTIPLE)
        return rd_err_raise(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Init_thread",
                            "required thread level %d is not one of MPI_THREAD_SINGLE..MULTIPLE",
                            required);
    return init_common("MPI_Init_thread", required, provided);
}

#pragma weak MPI_Finalize = PMPI_Finalize
int PMPI_Finalize(void)
{
    if (!rd_ready() || atomic_load(&rd_state.world) != 1)
        return rd_ready() ? rd_err_raise(MPI_COMM_WORLD, MPI_ERR_OTHER, "MPI_Finalize", "%s",
                                         atomic_load(&rd_state.world) == 2
                                             ? "called after MPI_Finalize"
                                             : "MPI_Init was not called (a session ends by MPI_Session_finalize)")
                          : rd_err_not_ready("MPI_Finalize");
    fflush(stdout);
    /* as if MPI_COMM_SELF were freed first: libraries hook their clean-up
     * on its attributes; then the world's */
    rd_attr_delete_all(MPI_COMM_SELF);
    rd_attr_delete_all(MPI_COMM_WORLD);
    rd_status st = rd_life_down(1); /* (the library stays up for the sessions left) */
    if (st != RD_OK) {
        fprintf(stderr, "rdmpi: MPI_Finalize on rank %d: %s\n", rd_job.rank, rd_status_string(st));
        return rd_status_to_mpi(st);
    }
    return MPI_SUCCESS;
}

#pragma weak MPI_Initialized = PMPI_Initialized
int PMPI_Initialized(int *flag)
{
    if (!flag)
        return rd_err_raise(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Initialized", "flag is NULL");
    *flag = atomic_load(&rd_state.world) != 0; /* the World Model's: sessions do not count */
    return MPI_SUCCESS;
}

#pragma weak MPI_Finalized = PMPI_Finalized
int PMPI_Finalized(int *flag)
{
    if (!flag)
        return rd_err_raise(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Finalized", "flag is NULL");
    *flag = atomic_load(&rd_state.world) == 2;
    return MPI_SUCCESS;
}

#pragma weak MPI_Query_thread = PMPI_Query_thread
int PMPI_Query_thread(int *provided)
{
    if (!rd_ready())
        return rd_err_not_ready("MPI_Query_thread");
    if (!provided)
        return rd_err_raise(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Query_thread", "provided is NULL");
    *provided = rd_state.thread_level;
    return MPI_SUCCESS;
}

#pragma weak MPI_Is_thread_main = PMPI_Is_thread_main
int PMPI_Is_thread_main(int *flag)
{
    if (!rd_ready())
        return rd_err_not_ready("MPI_Is_thread_main");
    if (!flag)
        return rd_err_raise(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Is_thread_main", "flag is NULL");
    *flag = pthread_equal(pthread_self(), rd_state.main_thread) != 0;
    return MPI_SUCCESS;
}

#pragma weak MPI_Abort = PMPI_Abort
int PMPI_Abort(MPI_Comm comm, int errorcode)
{
    char msg[MPI_MAX_OBJECT_NAME + 96];
    /* whatever comm is, MPI_Abort ends the job: that is what it is for */
    snprintf(msg, sizeof(msg), "MPI_Abort(%s, %d) called on rank %d",
             rd_comm_valid(comm) ? comm->name : "invalid communicator", errorcode, rd_job.rank);
    rd_job_abort(errorcode, msg);
}

/* MPI_Get_processor_name, MPI_Get_version, MPI_Get_library_version,
 * MPI_Wtime, MPI_Wtick, MPI_Pcontrol. */
#include "config.h"

#include <mpi.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "runtime/base/job.h"
#include "runtime/base/state.h"
#include "runtime/objects/errhandler.h"

#pragma weak MPI_Get_processor_name = PMPI_Get_processor_name
int PMPI_Get_processor_name(char *name, int *resultlen)
{
    if (!rd_ready())
        return rd_err_not_ready("MPI_Get_processor_name");
    if (!name || !resultlen)
        return rd_err_raise(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Get_processor_name", "%s is NULL",
                            name ? "resultlen" : "name");
    int n = snprintf(name, MPI_MAX_PROCESSOR_NAME, "%s", rd_job.hostname);
    *resultlen = n < MPI_MAX_PROCESSOR_NAME ? n : MPI_MAX_PROCESSOR_NAME - 1;
    return MPI_SUCCESS;
}

#pragma weak MPI_Get_version = PMPI_Get_version
int PMPI_Get_version(int *version, int *subversion)
{
    if (!version || !subversion)
        return rd_err_raise(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Get_version", "%s is NULL",
                            version ? "subversion" : "version");
    *version = MPI_VERSION;
    *subversion = MPI_SUBVERSION;
    return MPI_SUCCESS;
}

#pragma weak MPI_Get_library_version = PMPI_Get_library_version
int PMPI_Get_library_version(char *version, int *resultlen)
{
    if (!version || !resultlen)
        return rd_err_raise(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Get_library_version", "%s is NULL",
                            version ? "resultlen" : "version");
    int n = snprintf(version, MPI_MAX_LIBRARY_VERSION_STRING,
                     "rdmpi %s (MPI %d.%d; transports: %s)", RDMPI_VERSION_STRING, MPI_VERSION,
                     MPI_SUBVERSION, RD_CONFIGURED_TRANSPORTS);
    *resultlen = n;
    return MPI_SUCCESS;
}

#pragma weak MPI_Wtime = PMPI_Wtime
double PMPI_Wtime(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

#pragma weak MPI_Wtick = PMPI_Wtick
double PMPI_Wtick(void)
{
    struct timespec ts;
    if (clock_getres(CLOCK_MONOTONIC, &ts) != 0 || (ts.tv_sec == 0 && ts.tv_nsec == 0))
        return 1e-9;
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* MPI_Pcontrol is the program's word to a profiling tool (MPI-3.1 14.2.4:
 * "MPI libraries themselves make no use of this routine, and simply
 * return immediately"); a tool defines MPI_Pcontrol and acts on the
 * level. Like the other calls, only between MPI_Init and MPI_Finalize. */
#pragma weak MPI_Pcontrol = PMPI_Pcontrol
int PMPI_Pcontrol(const int level, ...)
{
    (void)level;
    if (!rd_ready())
        return rd_err_not_ready("MPI_Pcontrol");
    return MPI_SUCCESS;
}

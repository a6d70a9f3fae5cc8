/* The name service: MPI_Publish_name, MPI_Lookup_name, MPI_Unpublish_name
 * (runtime/base/job.h: through the launcher's PMIx server; a singleton's in
 * a table of its own). Names and port names are strings of fewer than
 * MPI_MAX_PORT_NAME characters. The info argument has no keys of ours. */
#include "config.h"

#include <mpi.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/api/check.h"
#include "runtime/base/job.h"
#include "runtime/objects/info.h"

/* the checks the three make: a name (and port) string that fits, a valid
 * info or MPI_INFO_NULL */
static int check_str(const char *call, const char *s, const char *what)
{
    if (!s)
        return rd_err_raise(MPI_COMM_WORLD, MPI_ERR_ARG, call, "%s is NULL", what);
    if (!*s)
        return rd_err_raise(MPI_COMM_WORLD, MPI_ERR_ARG, call, "%s is empty", what);
    if (strnlen(s, MPI_MAX_PORT_NAME) >= MPI_MAX_PORT_NAME)
        return rd_err_raise(MPI_COMM_WORLD, MPI_ERR_ARG, call, "%s is %d characters or longer (MPI_MAX_PORT_NAME)",
                            what, MPI_MAX_PORT_NAME);
    return MPI_SUCCESS;
}

/* the arguments of the three: port_name NULL when the caller checks its own */
static int check_args(const char *call, const char *service_name, MPI_Info info, const char *port_name)
{
    RD_TRY(check_str(call, service_name, "service_name"));
    if (info != MPI_INFO_NULL && !rd_info_valid(info))
        return rd_err_raise(MPI_COMM_WORLD, MPI_ERR_INFO, call, "invalid info");
    return port_name ? check_str(call, port_name, "port_name") : MPI_SUCCESS;
}

#pragma weak MPI_Publish_name = PMPI_Publish_name
int PMPI_Publish_name(const char *service_name, MPI_Info info, const char *port_name)
{
    const char *call = "MPI_Publish_name", *why = "";
    RD_API_READY(call);
    RD_TRY(check_args(call, service_name, info, port_name));
    int err = rd_job_publish(service_name, port_name, &why);
    if (err != MPI_SUCCESS)
        return rd_err_raise(MPI_COMM_WORLD, err, call, "'%s': %s", service_name, why);
    return MPI_SUCCESS;
}

#pragma weak MPI_Lookup_name = PMPI_Lookup_name
int PMPI_Lookup_name(const char *service_name, MPI_Info info, char *port_name)
{
    const char *call = "MPI_Lookup_name", *why = "";
    RD_API_READY(call);
    RD_TRY(check_args(call, service_name, info, NULL));
    if (!port_name)
        return rd_err_raise(MPI_COMM_WORLD, MPI_ERR_ARG, call, "port_name is NULL");
    char *value = NULL;
    int err = rd_job_lookup(service_name, &value, &why);
    if (err != MPI_SUCCESS)
        return rd_err_raise(MPI_COMM_WORLD, err, call, "'%s': %s", service_name, why);
    /* (what this library publishes fits; another's might not) */
    size_t n = strnlen(value, MPI_MAX_PORT_NAME - 1);
    memcpy(port_name, value, n);
    port_name[n] = '\0';
    free(value);
    return MPI_SUCCESS;
}

#pragma weak MPI_Unpublish_name = PMPI_Unpublish_name
int PMPI_Unpublish_name(const char *service_name, MPI_Info info, const char *port_name)
{
    const char *call = "MPI_Unpublish_name", *why = "";
    RD_API_READY(call);
    RD_TRY(check_args(call, service_name, info, port_name));
    int err = rd_job_unpublish(service_name, &why);
    if (err != MPI_SUCCESS)
        return rd_err_raise(MPI_COMM_WORLD, err, call, "'%s': %s", service_name, why);
    return MPI_SUCCESS;
}

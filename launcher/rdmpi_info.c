/*
 * rdmpi_info - what this rdmpi is: its version, the MPI version it speaks,
 * the transports built in and the optional libraries configure found;
 * `--params` lists the parameters: the library's, then the tools'
 * (declared in each component's params.def: runtime/base/params.h).
 */
#include "config.h"

#include <mpi.h>
#include <pmix_version.h>
#include <stdio.h>
#include <string.h>

#include "runtime/base/params.h"

/* Set by launcher/local.mk to the link flags configure found for each
 * optional library: empty when it was not found. */
#ifndef RD_INFO_UCX_LIBS
#define RD_INFO_UCX_LIBS ""
#endif
#ifndef RD_INFO_OFI_LIBS
#define RD_INFO_OFI_LIBS ""
#endif
#ifndef RD_INFO_IBVERBS_LIBS
#define RD_INFO_IBVERBS_LIBS ""
#endif
#ifndef RD_INFO_RDMACM_LIBS
#define RD_INFO_RDMACM_LIBS ""
#endif
#ifndef RD_INFO_UCM_LIBS
#define RD_INFO_UCM_LIBS ""
#endif

static void usage(FILE *out)
{
    fprintf(out,
            "usage: rdmpi_info [--params | --help | --version]\n"
            "  (no option)  the rdmpi version, the MPI version, transports and optional libraries\n"
            "  --params     the RDMPI_* environment parameters: type, default, current value, doc\n"
            "  --version    the rdmpi version only\n"
            "  --help       this text\n");
}

static void print_lib(const char *what, const char *libs)
{
    printf("%-18s %s\n", what, libs[0] ? "yes" : "no");
}

static void print_info(void)
{
    printf("rdmpi %s\n", RDMPI_VERSION_STRING);
    printf("%-18s %d.%d\n", "MPI version:", MPI_VERSION, MPI_SUBVERSION);
    printf("%-18s %s\n", "transports:", RD_CONFIGURED_TRANSPORTS);
    printf("%-18s yes (%ld.%ld.%ld)\n", "PMIx:", (long)PMIX_VERSION_MAJOR, (long)PMIX_VERSION_MINOR,
           (long)PMIX_VERSION_RELEASE);
    printf("%-18s yes\n", "hwloc:");
    print_lib("UCX:", RD_INFO_UCX_LIBS);
    print_lib("libfabric:", RD_INFO_OFI_LIBS);
    print_lib("libibverbs:", RD_INFO_IBVERBS_LIBS);
    print_lib("librdmacm:", RD_INFO_RDMACM_LIBS);
    printf("%-18s %s\n", "libucm:",
           RD_INFO_UCM_LIBS[0] ? "yes (the verbs registration cache and the shm buffer mapping learn of unmapped memory)"
                               : "no (the verbs transport registers memory for every message; "
                                 "node collectives copy by CMA)");
}

static int print_params(void)
{
    char err[512];
    int rc = rd_params_load(err, sizeof(err));
    if (rc >= 0) {
        char terr[512];
        int trc = rd_params_load_tools(terr, sizeof(terr));
        if (trc < 0)
            snprintf(err, sizeof(err), "%s", terr);
        rc = trc < 0 ? trc : rc;
    }
    if (rc != 0)
        fprintf(stderr, "rdmpi_info: %s: %s\n", rc < 0 ? "error" : "warning", err);
    rd_params_print(stdout);
    return rc < 0 ? 1 : 0;
}

int main(int argc, char **argv)
{
    if (argc == 1) {
        print_info();
        return 0;
    }
    if (argc == 2 && strcmp(argv[1], "--params") == 0)
        return print_params();
    if (argc == 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
        usage(stdout);
        return 0;
    }
    if (argc == 2 && strcmp(argv[1], "--version") == 0) {
        printf("rdmpi %s\n", RDMPI_VERSION_STRING);
        return 0;
    }
    fprintf(stderr, "rdmpi_info: unknown argument '%s'\n", argv[1]);
    usage(stderr);
    return 2;
}

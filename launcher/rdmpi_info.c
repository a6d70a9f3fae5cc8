/*
 * rdmpi_info - what this rdmpi is: its version, the MPI version it speaks,
 * the transports built in and the optional libraries configure found;
 * `--params` lists the parameters: the library's, then the tools'
 * (declared in each component's params.def: runtime/base/params.h);
 * `--mpit` lists what a tool sees through MPI_T, by category: the control
 * variables (every parameter, with its value) and the performance
 * variables. It reads them as any tool would, through the library's
 * MPI_T calls (mpi.h), not the library's insides.
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
            "usage: rdmpi_info [--params | --mpit | --help | --version]\n"
            "  (no option)  the rdmpi version, the MPI version, transports and optional libraries\n"
            "  --params     the RDMPI_* environment parameters: type, default, current value, doc\n"
            "  --mpit       the MPI_T control and performance variables, by category\n"
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

static const char *type_name(MPI_Datatype dt)
{
    return dt == MPI_INT                  ? "int"
           : dt == MPI_COUNT              ? "MPI_Count"
           : dt == MPI_UNSIGNED_LONG_LONG ? "unsigned long long"
           : dt == MPI_DOUBLE             ? "double"
           : dt == MPI_CHAR               ? "string"
                                          : "?";
}

static const char *scope_name(int scope)
{
    static const char *const names[] = {"constant", "read only", "local", "group", "group, equal", "all",
                                        "all, equal"};
    return scope >= MPI_T_SCOPE_CONSTANT && scope <= MPI_T_SCOPE_ALL_EQ ? names[scope - MPI_T_SCOPE_CONSTANT] : "?";
}

static const char *class_name(int c)
{
    static const char *const names[] = {"state", "level", "size", "percentage", "highwatermark", "lowwatermark",
                                        "counter", "aggregate", "timer", "generic"};
    return c >= MPI_T_PVAR_CLASS_STATE && c <= MPI_T_PVAR_CLASS_GENERIC ? names[c - MPI_T_PVAR_CLASS_STATE] : "?";
}

/* A control variable's value as text (an enum's item by name). */
static void cvar_value(int i, MPI_Datatype dt, MPI_T_enum en, char *out, size_t n)
{
    MPI_T_cvar_handle h;
    int count;
    snprintf(out, n, "?");
    if (MPI_T_cvar_handle_alloc(i, NULL, &h, &count) != MPI_SUCCESS)
        return;
    union {
        int i;
        MPI_Count c;
        unsigned long long u;
        char s[4096];
    } v;
    if (count <= (int)sizeof(v.s) && MPI_T_cvar_read(h, &v) == MPI_SUCCESS) {
        if (dt == MPI_CHAR)
            snprintf(out, n, "\"%s\"", v.s);
        else if (dt == MPI_COUNT)
            snprintf(out, n, "%lld", (long long)v.c);
        else if (dt == MPI_UNSIGNED_LONG_LONG)
            snprintf(out, n, "%llu", v.u);
        else
            snprintf(out, n, "%d", v.i);
        int items = 0;
        if (en != MPI_T_ENUM_NULL && MPI_T_enum_get_info(en, &items, NULL, NULL) == MPI_SUCCESS)
            for (int k = 0; k < items; k++) {
                int value, len = 64;
                char item[64];
                if (MPI_T_enum_get_item(en, k, &value, item, &len) == MPI_SUCCESS && value == v.i)
                    snprintf(out, n, "%s", item);
            }
    }
    MPI_T_cvar_handle_free(&h);
}

static int print_mpit(void)
{
    int provided, ncat = 0;
    if (MPI_T_init_thread(MPI_THREAD_SINGLE, &provided) != MPI_SUCCESS) {
        fprintf(stderr, "rdmpi_info: MPI_T_init_thread failed\n");
        return 1;
    }
    MPI_T_category_get_num(&ncat);
    for (int c = 0; c < ncat; c++) {
        char name[256], desc[2048], value[4200];
        int nlen = sizeof(name), dlen = sizeof(desc), ncv = 0, npv = 0, idx[512];
        MPI_T_category_get_info(c, name, &nlen, desc, &dlen, &ncv, &npv, NULL);
        printf("category %s: %s\n", name, desc);
        if (ncv > 512)
            ncv = 512;
        MPI_T_category_get_cvars(c, ncv, idx);
        for (int k = 0; k < ncv; k++) {
            MPI_Datatype dt;
            MPI_T_enum en;
            int scope;
            nlen = sizeof(name);
            dlen = sizeof(desc);
            MPI_T_cvar_get_info(idx[k], name, &nlen, NULL, &dt, &en, desc, &dlen, NULL, &scope);
            cvar_value(idx[k], dt, en, value, sizeof(value));
            printf("  cvar %-26s %s (%s, %s)\n      %s\n", name, value, type_name(dt), scope_name(scope), desc);
        }
        if (npv > 512)
            npv = 512;
        MPI_T_category_get_pvars(c, npv, idx);
        for (int k = 0; k < npv; k++) {
            MPI_Datatype dt;
            int klass, ro, cont;
            nlen = sizeof(name);
            dlen = sizeof(desc);
            MPI_T_pvar_get_info(idx[k], name, &nlen, NULL, &klass, &dt, NULL, desc, &dlen, NULL, &ro, &cont, NULL);
            printf("  pvar %-26s %s, %s%s%s\n      %s\n", name, class_name(klass), type_name(dt),
                   ro ? ", read only" : "", cont ? ", continuous" : "", desc);
        }
    }
    MPI_T_finalize();
    return 0;
}

int main(int argc, char **argv)
{
    if (argc == 1) {
        print_info();
        return 0;
    }
    if (argc == 2 && strcmp(argv[1], "--params") == 0)
        return print_params();
    if (argc == 2 && strcmp(argv[1], "--mpit") == 0)
        return print_mpit();
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

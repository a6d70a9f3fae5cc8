/* Unit test: error classes and strings, and what works before MPI_Init. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

#include "test/tap.h"

static const struct { int cls; const char *name; } classes[] = {
#define C(x) {x, #x}
    C(MPI_SUCCESS), C(MPI_ERR_BUFFER), C(MPI_ERR_COUNT), C(MPI_ERR_TYPE), C(MPI_ERR_TAG),
    C(MPI_ERR_COMM), C(MPI_ERR_RANK), C(MPI_ERR_REQUEST), C(MPI_ERR_ROOT), C(MPI_ERR_GROUP),
    C(MPI_ERR_OP), C(MPI_ERR_TOPOLOGY), C(MPI_ERR_DIMS), C(MPI_ERR_ARG), C(MPI_ERR_UNKNOWN),
    C(MPI_ERR_TRUNCATE), C(MPI_ERR_OTHER), C(MPI_ERR_INTERN), C(MPI_ERR_IN_STATUS),
    C(MPI_ERR_PENDING), C(MPI_ERR_ACCESS), C(MPI_ERR_AMODE), C(MPI_ERR_ASSERT),
    C(MPI_ERR_BAD_FILE), C(MPI_ERR_BASE), C(MPI_ERR_CONVERSION), C(MPI_ERR_DISP),
    C(MPI_ERR_DUP_DATAREP), C(MPI_ERR_FILE_EXISTS), C(MPI_ERR_FILE_IN_USE), C(MPI_ERR_FILE),
    C(MPI_ERR_INFO_KEY), C(MPI_ERR_INFO_NOKEY), C(MPI_ERR_INFO_VALUE), C(MPI_ERR_INFO),
    C(MPI_ERR_IO), C(MPI_ERR_KEYVAL), C(MPI_ERR_LOCKTYPE), C(MPI_ERR_NAME), C(MPI_ERR_NO_MEM),
    C(MPI_ERR_NOT_SAME), C(MPI_ERR_NO_SPACE), C(MPI_ERR_NO_SUCH_FILE), C(MPI_ERR_PORT),
    C(MPI_ERR_QUOTA), C(MPI_ERR_READ_ONLY), C(MPI_ERR_RMA_ATTACH), C(MPI_ERR_RMA_CONFLICT),
    C(MPI_ERR_RMA_RANGE), C(MPI_ERR_RMA_SHARED), C(MPI_ERR_RMA_SYNC), C(MPI_ERR_RMA_FLAVOR),
    C(MPI_ERR_SERVICE), C(MPI_ERR_SIZE), C(MPI_ERR_SPAWN), C(MPI_ERR_UNSUPPORTED_DATAREP),
    C(MPI_ERR_UNSUPPORTED_OPERATION), C(MPI_ERR_WIN), C(MPI_T_ERR_MEMORY),
    C(MPI_T_ERR_NOT_INITIALIZED), C(MPI_T_ERR_CANNOT_INIT), C(MPI_T_ERR_INVALID_INDEX),
    C(MPI_T_ERR_INVALID_ITEM), C(MPI_T_ERR_INVALID_HANDLE), C(MPI_T_ERR_OUT_OF_HANDLES),
    C(MPI_T_ERR_OUT_OF_SESSIONS), C(MPI_T_ERR_INVALID_SESSION), C(MPI_T_ERR_CVAR_SET_NOT_NOW),
    C(MPI_T_ERR_CVAR_SET_NEVER), C(MPI_T_ERR_PVAR_NO_STARTSTOP), C(MPI_T_ERR_PVAR_NO_WRITE),
    C(MPI_T_ERR_PVAR_NO_ATOMIC), C(MPI_T_ERR_INVALID_NAME), C(MPI_T_ERR_INVALID),
    C(MPI_ERR_PROC_ABORTED), C(MPI_ERR_VALUE_TOO_LARGE), C(MPI_ERR_SESSION), C(MPI_ERR_ERRHANDLER),
#undef C
};

int main(void)
{
    char s[MPI_MAX_ERROR_STRING];
    int len, cls, flag = -1, v = 0, sv = 0;
    size_t n = sizeof(classes) / sizeof(classes[0]);

    tap_is_int(n, MPI_ERR_LASTCODE, "every class below MPI_ERR_LASTCODE is listed");
    int names_ok = 1, classes_ok = 1, distinct = 1;
    for (size_t i = 0; i < n; i++) {
        len = -1;
        if (MPI_Error_string(classes[i].cls, s, &len) != MPI_SUCCESS || len != (int)strlen(s) ||
            strncmp(s, classes[i].name, strlen(classes[i].name)) != 0 ||
            s[strlen(classes[i].name)] != ':') {
            names_ok = 0;
            printf("# %s: '%s'\n", classes[i].name, s);
        }
        if (MPI_Error_class(classes[i].cls, &cls) != MPI_SUCCESS || cls != classes[i].cls)
            classes_ok = 0;
        for (size_t j = 0; j < i; j++)
            if (classes[j].cls == classes[i].cls)
                distinct = 0;
    }
    tap_ok(names_ok, "MPI_Error_string names each class first, with its length");
    tap_ok(classes_ok, "MPI_Error_class of a class is itself");
    tap_ok(distinct, "class values are distinct");
    tap_ok(MPI_ERR_LASTCODE > MPI_ERR_ERRHANDLER, "MPI_ERR_LASTCODE is above every class");
    MPI_Error_string(MPI_ERR_TRUNCATE, s, &len);
    tap_is_str(s, "MPI_ERR_TRUNCATE: message truncated", "exact text of MPI_ERR_TRUNCATE");

    /* allowed before MPI_Init */
    tap_is_int(MPI_Initialized(&flag), MPI_SUCCESS, "MPI_Initialized before init");
    tap_is_int(flag, 0, "not initialized yet");
    tap_is_int(MPI_Finalized(&flag), MPI_SUCCESS, "MPI_Finalized before init");
    tap_is_int(flag, 0, "not finalized yet");
    tap_is_int(MPI_Get_version(&v, &sv), MPI_SUCCESS, "MPI_Get_version before init");
    tap_ok(v == 3 && sv == 1, "MPI 3.1");
    tap_is_int(MPI_Get_library_version(s, &len), MPI_SUCCESS, "MPI_Get_library_version");
    tap_ok(strncmp(s, "rdmpi " RDMPI_VERSION_STRING " ", strlen("rdmpi " RDMPI_VERSION_STRING " ")) == 0 &&
               len == (int)strlen(s),
           "library version starts with rdmpi %s", RDMPI_VERSION_STRING);

    /* info objects, before MPI_Init too (MPI 4.0, 11.4.1) */
    MPI_Info info = MPI_INFO_NULL;
    char val[64];
    int buflen;
    tap_is_int(MPI_Info_create(&info), MPI_SUCCESS, "MPI_Info_create before init");
    tap_is_int(MPI_Info_set(info, "wdir", "/tmp/run7"), MPI_SUCCESS, "MPI_Info_set before init");
    buflen = (int)sizeof val;
    flag = -1;
    tap_ok(MPI_Info_get_string(info, "wdir", &buflen, val, &flag) == MPI_SUCCESS && flag == 1 &&
               !strcmp(val, "/tmp/run7") && buflen == 10,
           "MPI_Info_get_string: the value and its size with the NUL (10)");
    buflen = 5;
    strcpy(val, "xxxxxxxxx");
    MPI_Info_get_string(info, "wdir", &buflen, val, &flag);
    tap_ok(!strcmp(val, "/tmp") && buflen == 10, "a 5-byte buffer: 4 characters and the NUL, size 10");
    buflen = 0;
    tap_ok(MPI_Info_get_string(info, "wdir", &buflen, NULL, &flag) == MPI_SUCCESS && buflen == 10 && flag,
           "buflen 0, value NULL: only the size");
    buflen = 7;
    strcpy(val, "same");
    MPI_Info_get_string(info, "nokey", &buflen, val, &flag);
    tap_ok(flag == 0 && buflen == 7 && !strcmp(val, "same"), "a missing key: flag false, value and buflen unchanged");
    tap_is_int(MPI_Info_free(&info), MPI_SUCCESS, "MPI_Info_free before init");
    tap_ok(info == MPI_INFO_NULL, "and the handle is MPI_INFO_NULL");
    char *args[] = {"./solver", "-n", "40", NULL};
    tap_is_int(MPI_Info_create_env(3, args, &info), MPI_SUCCESS, "MPI_Info_create_env before init");
    buflen = (int)sizeof val;
    MPI_Info_get_string(info, "command", &buflen, val, &flag);
    tap_ok(flag && !strcmp(val, "./solver"), "its command is argv[0] (got '%s')", flag ? val : "");
    buflen = (int)sizeof val;
    MPI_Info_get_string(info, "argv", &buflen, val, &flag);
    tap_ok(flag && !strcmp(val, "-n 40"), "its argv the rest, space separated (got '%s')", flag ? val : "");
    buflen = (int)sizeof val;
    MPI_Info_get_string(info, "maxprocs", &buflen, val, &flag);
    tap_is_int(flag, 0, "no maxprocs before init (the job's size is not known yet)");
    MPI_Info_free(&info);
    tap_is_int(MPI_Info_create_env(0, NULL, &info), MPI_SUCCESS, "MPI_Info_create_env(0, NULL)");
    buflen = (int)sizeof val;
    MPI_Info_get_string(info, "command", &buflen, val, &flag);
    tap_ok(flag && strstr(val, "errors") != NULL, "its command is this program's (got '%s')", flag ? val : "");
    MPI_Info_free(&info);

    double t0 = MPI_Wtime(), t1 = MPI_Wtime();
    tap_ok(t1 >= t0 && t0 > 0, "MPI_Wtime is monotonic");
    tap_ok(MPI_Wtick() > 0 && MPI_Wtick() <= 1e-6, "MPI_Wtick is at most a microsecond");
    return tap_done();
}

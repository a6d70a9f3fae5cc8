/* Info objects (MPI-3.1 section 9): create, set, get, get_string,
 * delete, dup, free, MPI_Info_create_env, MPI_Get_hw_resource_info, and
 * the predefined MPI_INFO_ENV
 * (read-only here: it describes how the program was started). Errors go
 * to MPI_COMM_WORLD's handler. As MPI 4.0 (11.4.1) allows, every call
 * here works at any time, before MPI_Init and after MPI_Finalize too:
 * nothing here needs the library up, and an info object belongs to the
 * caller (one thread at a time on it, as for any object). */
#include "config.h"

#include <mpi.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "runtime/api/check.h"
#include "runtime/objects/info.h"

#define WORLD MPI_COMM_WORLD

static int check_info(const char *call, MPI_Info info)
{
    if (!rd_info_valid(info))
        return rd_err_raise(WORLD, MPI_ERR_INFO, call, "invalid info object");
    if (info == MPI_INFO_ENV)
        rd_info_env_fill();
    return MPI_SUCCESS;
}

static int check_writable(const char *call, MPI_Info info)
{
    RD_TRY(check_info(call, info));
    if (info->predefined)
        return rd_err_raise(WORLD, MPI_ERR_INFO, call, "MPI_INFO_ENV is predefined and read-only");
    return MPI_SUCCESS;
}

static int check_key(const char *call, const char *key)
{
    if (!key)
        return rd_err_raise(WORLD, MPI_ERR_ARG, call, "key is NULL");
    size_t len = strnlen(key, MPI_MAX_INFO_KEY + 1);
    if (len == 0)
        return rd_err_raise(WORLD, MPI_ERR_INFO_KEY, call, "key is empty");
    if (len > MPI_MAX_INFO_KEY)
        return rd_err_raise(WORLD, MPI_ERR_INFO_KEY, call, "key is longer than MPI_MAX_INFO_KEY (%d)",
                            MPI_MAX_INFO_KEY);
    return MPI_SUCCESS;
}

#pragma weak MPI_Info_create = PMPI_Info_create
int PMPI_Info_create(MPI_Info *info)
{
    if (!info)
        return rd_err_raise(WORLD, MPI_ERR_ARG, "MPI_Info_create", "info is NULL");
    struct rd_info_s *i = rd_info_new();
    if (!i)
        return rd_err_raise(WORLD, MPI_ERR_NO_MEM, "MPI_Info_create", "out of memory");
    *info = i;
    return MPI_SUCCESS;
}

#pragma weak MPI_Info_set = PMPI_Info_set
int PMPI_Info_set(MPI_Info info, const char *key, const char *value)
{
    static const char call[] = "MPI_Info_set";
    RD_TRY(check_writable(call, info));
    RD_TRY(check_key(call, key));
    if (!value)
        return rd_err_raise(WORLD, MPI_ERR_ARG, call, "value is NULL");
    size_t len = strnlen(value, MPI_MAX_INFO_VAL + 1);
    if (len == 0)
        return rd_err_raise(WORLD, MPI_ERR_INFO_VALUE, call, "the value of key '%s' is empty", key);
    if (len > MPI_MAX_INFO_VAL)
        return rd_err_raise(WORLD, MPI_ERR_INFO_VALUE, call,
                            "the value of key '%s' is longer than MPI_MAX_INFO_VAL (%d)", key, MPI_MAX_INFO_VAL);
    if (rd_info_set(info, key, value) != 0)
        return rd_err_raise(WORLD, MPI_ERR_NO_MEM, call, "out of memory");
    return MPI_SUCCESS;
}

#pragma weak MPI_Info_delete = PMPI_Info_delete
int PMPI_Info_delete(MPI_Info info, const char *key)
{
    static const char call[] = "MPI_Info_delete";
    RD_TRY(check_writable(call, info));
    RD_TRY(check_key(call, key));
    int i = rd_info_find(info, key);
    if (i < 0)
        return rd_err_raise(WORLD, MPI_ERR_INFO_NOKEY, call, "key '%s' is not in the info object", key);
    rd_info_delete(info, i);
    return MPI_SUCCESS;
}

#pragma weak MPI_Info_get = PMPI_Info_get
int PMPI_Info_get(MPI_Info info, const char *key, int valuelen, char *value, int *flag)
{
    static const char call[] = "MPI_Info_get";
    RD_TRY(check_info(call, info));
    RD_TRY(check_key(call, key));
    if (valuelen < 0)
        return rd_err_raise(WORLD, MPI_ERR_ARG, call, "valuelen = %d is negative", valuelen);
    if (!value || !flag)
        return rd_err_raise(WORLD, MPI_ERR_ARG, call, "%s is NULL", value ? "flag" : "value");
    int i = rd_info_find(info, key);
    *flag = i >= 0;
    if (i >= 0) {
        /* at most valuelen characters, then the terminating NUL */
        size_t len = strlen(info->ent[i].value);
        if (len > (size_t)valuelen)
            len = (size_t)valuelen;
        memcpy(value, info->ent[i].value, len);
        value[len] = '\0';
    }
    return MPI_SUCCESS;
}

/* MPI 4.0: the value with its length in and out (*buflen: the buffer's
 * size in, the size the value needs, its NUL included, out); a value
 * longer than the buffer is cut, still NUL-terminated; buflen 0: only the
 * size. */
#pragma weak MPI_Info_get_string = PMPI_Info_get_string
int PMPI_Info_get_string(MPI_Info info, const char *key, int *buflen, char *value, int *flag)
{
    static const char call[] = "MPI_Info_get_string";
    RD_TRY(check_info(call, info));
    RD_TRY(check_key(call, key));
    if (!buflen || !flag)
        return rd_err_raise(WORLD, MPI_ERR_ARG, call, "%s is NULL", buflen ? "flag" : "buflen");
    if (*buflen < 0)
        return rd_err_raise(WORLD, MPI_ERR_ARG, call, "*buflen = %d is negative", *buflen);
    if (*buflen > 0 && !value)
        return rd_err_raise(WORLD, MPI_ERR_ARG, call, "value is NULL (with *buflen = %d)", *buflen);
    int i = rd_info_find(info, key);
    *flag = i >= 0;
    if (i < 0)
        return MPI_SUCCESS;
    size_t len = strlen(info->ent[i].value);
    if (*buflen > 0) {
        size_t n = len < (size_t)*buflen - 1 ? len : (size_t)*buflen - 1;
        memcpy(value, info->ent[i].value, n);
        value[n] = '\0';
    }
    *buflen = (int)len + 1;
    return MPI_SUCCESS;
}

/* MPI 4.0: a new info object with MPI_INFO_ENV's keys, from the given
 * command line (argc 0 or argv NULL: this process's own) */
#pragma weak MPI_Info_create_env = PMPI_Info_create_env
int PMPI_Info_create_env(int argc, char *argv[], MPI_Info *info)
{
    static const char call[] = "MPI_Info_create_env";
    if (!info)
        return rd_err_raise(WORLD, MPI_ERR_ARG, call, "info is NULL");
    if (argc < 0)
        return rd_err_raise(WORLD, MPI_ERR_ARG, call, "argc = %d is negative", argc);
    struct rd_info_s *i = rd_info_new();
    if (!i || rd_info_env_build(i, argc, argv) != 0) {
        if (i)
            rd_info_destroy(i);
        return rd_err_raise(WORLD, MPI_ERR_NO_MEM, call, "out of memory");
    }
    *info = i;
    return MPI_SUCCESS;
}

/* MPI 4.1: what the process runs on at the moment of the call, keys of
 * rdmpi's own (the standard leaves them to the implementation):
 * rdmpi_host, the host's name; rdmpi_cpus, the processors it may run on
 * now (its affinity mask, as ranges: "0-3,8"); rdmpi_ncpus, how many. */
#pragma weak MPI_Get_hw_resource_info = PMPI_Get_hw_resource_info
int PMPI_Get_hw_resource_info(MPI_Info *hw_info)
{
    static const char call[] = "MPI_Get_hw_resource_info";
    if (!hw_info)
        return rd_err_raise(WORLD, MPI_ERR_ARG, call, "hw_info is NULL");
    char host[256] = "", cpus[MPI_MAX_INFO_VAL] = "", n[16];
    gethostname(host, sizeof host - 1);
    cpu_set_t set;
    int ncpus = 0;
    if (sched_getaffinity(0, sizeof set, &set) == 0) {
        size_t len = 0;
        for (int c = 0; c < CPU_SETSIZE; c++) {
            if (!CPU_ISSET(c, &set))
                continue;
            int e = c;
            while (e + 1 < CPU_SETSIZE && CPU_ISSET(e + 1, &set))
                e++;
            ncpus += e - c + 1;
            int w = e > c ? snprintf(cpus + len, sizeof cpus - len, "%s%d-%d", len ? "," : "", c, e)
                          : snprintf(cpus + len, sizeof cpus - len, "%s%d", len ? "," : "", c);
            if (w < 0 || (size_t)w >= sizeof cpus - len) { /* (no room: cut at a whole range) */
                cpus[len] = '\0';
                break;
            }
            len += (size_t)w;
            c = e;
        }
    }
    snprintf(n, sizeof n, "%d", ncpus);
    struct rd_info_s *i = rd_info_new();
    if (!i || rd_info_set(i, "rdmpi_host", host) != 0 || rd_info_set(i, "rdmpi_cpus", cpus) != 0 ||
        rd_info_set(i, "rdmpi_ncpus", n) != 0) {
        if (i)
            rd_info_destroy(i);
        return rd_err_raise(WORLD, MPI_ERR_NO_MEM, call, "out of memory");
    }
    *hw_info = i;
    return MPI_SUCCESS;
}

#pragma weak MPI_Info_get_valuelen = PMPI_Info_get_valuelen
int PMPI_Info_get_valuelen(MPI_Info info, const char *key, int *valuelen, int *flag)
{
    static const char call[] = "MPI_Info_get_valuelen";
    RD_TRY(check_info(call, info));
    RD_TRY(check_key(call, key));
    if (!valuelen || !flag)
        return rd_err_raise(WORLD, MPI_ERR_ARG, call, "%s is NULL", valuelen ? "flag" : "valuelen");
    int i = rd_info_find(info, key);
    *flag = i >= 0;
    if (i >= 0)
        *valuelen = (int)strlen(info->ent[i].value);
    return MPI_SUCCESS;
}

#pragma weak MPI_Info_get_nkeys = PMPI_Info_get_nkeys
int PMPI_Info_get_nkeys(MPI_Info info, int *nkeys)
{
    RD_TRY(check_info("MPI_Info_get_nkeys", info));
    if (!nkeys)
        return rd_err_raise(WORLD, MPI_ERR_ARG, "MPI_Info_get_nkeys", "nkeys is NULL");
    *nkeys = info->n;
    return MPI_SUCCESS;
}

#pragma weak MPI_Info_get_nthkey = PMPI_Info_get_nthkey
int PMPI_Info_get_nthkey(MPI_Info info, int n, char *key)
{
    static const char call[] = "MPI_Info_get_nthkey";
    RD_TRY(check_info(call, info));
    if (!key)
        return rd_err_raise(WORLD, MPI_ERR_ARG, call, "key is NULL");
    if (n < 0 || n >= info->n)
        return rd_err_raise(WORLD, MPI_ERR_ARG, call, "n = %d is not in [0, %d) (the number of keys)", n, info->n);
    strcpy(key, info->ent[n].key); /* at most MPI_MAX_INFO_KEY + 1 bytes */
    return MPI_SUCCESS;
}

#pragma weak MPI_Info_dup = PMPI_Info_dup
int PMPI_Info_dup(MPI_Info info, MPI_Info *newinfo)
{
    static const char call[] = "MPI_Info_dup";
    RD_TRY(check_info(call, info));
    if (!newinfo)
        return rd_err_raise(WORLD, MPI_ERR_ARG, call, "newinfo is NULL");
    struct rd_info_s *d = rd_info_new();
    if (!d)
        return rd_err_raise(WORLD, MPI_ERR_NO_MEM, call, "out of memory");
    for (int i = 0; i < info->n; i++)
        if (rd_info_set(d, info->ent[i].key, info->ent[i].value) != 0) {
            rd_info_destroy(d);
            return rd_err_raise(WORLD, MPI_ERR_NO_MEM, call, "out of memory");
        }
    *newinfo = d;
    return MPI_SUCCESS;
}

#pragma weak MPI_Info_free = PMPI_Info_free
int PMPI_Info_free(MPI_Info *info)
{
    static const char call[] = "MPI_Info_free";
    if (!info)
        return rd_err_raise(WORLD, MPI_ERR_ARG, call, "info is NULL");
    RD_TRY(check_writable(call, *info));
    rd_info_destroy(*info);
    *info = MPI_INFO_NULL;
    return MPI_SUCCESS;
}

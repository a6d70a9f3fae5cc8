/* pvar.c - the counters behind MPI_T's performance variables (pvar.h). */
#include "runtime/base/pvar.h"

#include <string.h>
#include <time.h>

struct rd_pv rd_pv = {
    .coll_alg = {[0 ... RD_PV_NCOLL - 1] = -1},
};
int rd_pv_on;

const char *const rd_pv_tl_names[RD_PV_NTL] = {"self", "shm", "verbs", "ucx", "ofi"};

int rd_pv_tl_index(const char *name)
{
    for (int i = 0; i < RD_PV_NTL; i++)
        if (strcmp(rd_pv_tl_names[i], name) == 0)
            return i;
    return RD_PV_NTL;
}

uint64_t rd_pv_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

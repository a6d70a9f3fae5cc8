/* Partitioned communication (MPI 4.0): MPI_Psend_init, MPI_Precv_init,
 * MPI_Pready, MPI_Pready_range, MPI_Pready_list, MPI_Parrived. The
 * requests are started, waited for and freed as every persistent request
 * is (request.c); the work is runtime/p2p/part.c's. */
#include <limits.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "runtime/api/check.h"
#include "runtime/base/report.h"
#include "runtime/objects/info.h"
#include "runtime/p2p/p2p.h"
#include "runtime/p2p/part.h"

static int init_common(const char *call, int send, const void *buf, int partitions, MPI_Count count,
                       MPI_Datatype dt, int peer, int tag, MPI_Comm comm, MPI_Info info, MPI_Request *r)
{
    RD_API_READY(call);
    RD_TRY(rd_check_comm(call, comm));
    if (!r)
        return rd_err_raise(comm, MPI_ERR_ARG, call, "request pointer is NULL");
    if (partitions < 0)
        return rd_err_raise(comm, MPI_ERR_ARG, call, "partitions %d is negative", partitions);
    if (count < 0)
        return rd_err_raise(comm, MPI_ERR_COUNT, call, "count %lld is negative", (long long)count);
    RD_TRY(rd_check_buf(call, comm, buf, count, dt));
    if (info != MPI_INFO_NULL && !rd_info_valid(info))
        return rd_err_raise(comm, MPI_ERR_INFO, call, "invalid info");
    if (send) {
        RD_TRY(rd_check_dest(call, comm, peer, tag));
    } else {
        if (peer == MPI_ANY_SOURCE)
            return rd_err_raise(comm, MPI_ERR_RANK, call, "MPI_ANY_SOURCE is not allowed in a partitioned receive");
        if (tag == MPI_ANY_TAG)
            return rd_err_raise(comm, MPI_ERR_TAG, call, "MPI_ANY_TAG is not allowed in a partitioned receive");
        RD_TRY(rd_check_source(call, comm, peer, tag));
    }
    const char *why = "";
    struct rd_request_s *req = NULL;
    RD_LOCK();
    int err = rd_part_init(send, buf, partitions, count, dt, peer, tag, comm, &req, &why);
    RD_UNLOCK();
    if (err != MPI_SUCCESS)
        return rd_err_raise(comm, err, call, "%s (peer rank %d)", why, peer);
    *r = req;
    return MPI_SUCCESS;
}

#pragma weak MPI_Psend_init = PMPI_Psend_init
int PMPI_Psend_init(const void *buf, int partitions, MPI_Count count, MPI_Datatype dt, int dest, int tag,
                    MPI_Comm comm, MPI_Info info, MPI_Request *r)
{
    return init_common("MPI_Psend_init", 1, buf, partitions, count, dt, dest, tag, comm, info, r);
}

#pragma weak MPI_Precv_init = PMPI_Precv_init
int PMPI_Precv_init(void *buf, int partitions, MPI_Count count, MPI_Datatype dt, int source, int tag,
                    MPI_Comm comm, MPI_Info info, MPI_Request *r)
{
    return init_common("MPI_Precv_init", 0, buf, partitions, count, dt, source, tag, comm, info, r);
}

/* The request of a Pready call: an active partitioned send. */
static int check_send(const char *call, MPI_Request r)
{
    if (!rd_req_valid(r) || rd_part_kind(r) != 1)
        return rd_err_raise(MPI_COMM_WORLD, MPI_ERR_REQUEST, call, "not a partitioned send request");
    if (!r->active)
        return rd_err_raise(r->comm, MPI_ERR_REQUEST, call, "the request is not active (MPI_Start it first)");
    return MPI_SUCCESS;
}

/* Whether partition p of r may be marked ready (lock held): 0, or why
 * not in why[] (raised once the lock is dropped: a handler may call MPI). */
struct why {
    char s[96];
};
static int bad_partition(MPI_Request r, int p, struct why *w)
{
    if (p < 0 || p >= rd_part_count(r))
        snprintf(w->s, sizeof w->s, "partition %d is not in [0, %d)", p, rd_part_count(r));
    else if (rd_part_is_ready(r, p))
        snprintf(w->s, sizeof w->s, "partition %d is already marked ready", p);
    else
        return 0;
    return 1;
}

static int done(const char *call, MPI_Request r, int bad, const struct why *w)
{
    return bad ? rd_err_raise(r->comm, MPI_ERR_ARG, call, "%s", w->s) : MPI_SUCCESS;
}

#pragma weak MPI_Pready = PMPI_Pready
int PMPI_Pready(int partition, MPI_Request r)
{
    struct why w;
    RD_API_READY("MPI_Pready");
    RD_TRY(check_send("MPI_Pready", r));
    RD_LOCK();
    int bad = bad_partition(r, partition, &w);
    if (!bad)
        rd_part_ready(r, partition);
    RD_UNLOCK();
    return done("MPI_Pready", r, bad, &w);
}

#pragma weak MPI_Pready_range = PMPI_Pready_range
int PMPI_Pready_range(int low, int high, MPI_Request r)
{
    struct why w;
    RD_API_READY("MPI_Pready_range");
    RD_TRY(check_send("MPI_Pready_range", r));
    if (low > high)
        return rd_err_raise(r->comm, MPI_ERR_ARG, "MPI_Pready_range", "partition_low %d is above partition_high %d",
                            low, high);
    RD_LOCK();
    int bad = 0;
    for (int p = low; p <= high && !bad; p++)
        bad = bad_partition(r, p, &w);
    for (int p = low; p <= high && !bad; p++)
        rd_part_ready(r, p);
    RD_UNLOCK();
    return done("MPI_Pready_range", r, bad, &w);
}

#pragma weak MPI_Pready_list = PMPI_Pready_list
int PMPI_Pready_list(int length, const int partitions[], MPI_Request r)
{
    struct why w;
    RD_API_READY("MPI_Pready_list");
    RD_TRY(check_send("MPI_Pready_list", r));
    if (length < 0)
        return rd_err_raise(r->comm, MPI_ERR_ARG, "MPI_Pready_list", "length %d is negative", length);
    if (length > 0 && !partitions)
        return rd_err_raise(r->comm, MPI_ERR_ARG, "MPI_Pready_list", "array_of_partitions is NULL");
    /* all checked before any is marked, a partition listed twice included */
    RD_LOCK();
    int bad = 0;
    unsigned char *seen = calloc((size_t)rd_part_count(r) + 1, 1);
    if (!seen) {
        RD_UNLOCK();
        return rd_err_raise(r->comm, MPI_ERR_NO_MEM, "MPI_Pready_list", "out of memory");
    }
    for (int i = 0; i < length && !bad; i++) {
        bad = bad_partition(r, partitions[i], &w);
        if (!bad && seen[partitions[i]]++) {
            snprintf(w.s, sizeof w.s, "partition %d is listed twice", partitions[i]);
            bad = 1;
        }
    }
    for (int i = 0; i < length && !bad; i++)
        rd_part_ready(r, partitions[i]);
    free(seen);
    RD_UNLOCK();
    return done("MPI_Pready_list", r, bad, &w);
}

#pragma weak MPI_Parrived = PMPI_Parrived
int PMPI_Parrived(MPI_Request r, int partition, int *flag)
{
    RD_API_READY("MPI_Parrived");
    if (!rd_req_valid(r) || rd_part_kind(r) != 0)
        return rd_err_raise(MPI_COMM_WORLD, MPI_ERR_REQUEST, "MPI_Parrived", "not a partitioned receive request");
    if (partition < 0 || partition >= rd_part_count(r))
        return rd_err_raise(r->comm, MPI_ERR_ARG, "MPI_Parrived", "partition %d is not in [0, %d)", partition,
                            rd_part_count(r));
    if (!flag)
        return rd_err_raise(r->comm, MPI_ERR_ARG, "MPI_Parrived", "flag is NULL");
    RD_LOCK();
    int f = rd_part_arrived(r, partition);
    if (!f) { /* a program polls it as it polls MPI_Test: progress, and answer a hung-job report */
        rd_report_poll();
        rd_progress();
        f = rd_part_arrived(r, partition);
    }
    RD_UNLOCK();
    *flag = f;
    return MPI_SUCCESS;
}

/* job.h - the job service: who this process is, and the PMIx key/value
 * exchange that transports use for wire-up.
 *
 * Facts come from PMIx (PMIx_Init / PMIx_Get) under any PMIx launcher: rrun,
 * Open MPI's mpirun, Slurm's srun --mpi=pmix. A program started without a
 * launcher runs as a singleton (rank 0 of 1) without touching PMIx. */
#ifndef RD_JOB_H
#define RD_JOB_H

#include <stddef.h>

#include "runtime/base/error.h"

struct rd_job {
    int rank, size;             /* in MPI_COMM_WORLD */
    int local_rank, local_size; /* among the ranks of this node */
    int node_id, num_nodes;
    int universe_size;
    int appnum;
    int singleton;              /* no launcher: rank 0 of 1, no PMIx */
    int oversubscribed;         /* more local ranks than cores: waits yield */
    int *local_peers;           /* world ranks on this node, local_size of them */
    char hostname[256];
    char nspace[256];
};

extern struct rd_job rd_job;

rd_status rd_job_init(void);
rd_status rd_job_finalize(void);

/* Publish a value under key (visible to peers after commit + fence). */
rd_status rd_job_put(const char *key, const void *data, size_t len);
rd_status rd_job_commit(void);
/* Collective over the whole job; collect != 0 gathers every put value. */
rd_status rd_job_fence(int collect);
/* The node of world rank r, as a number the same on every rank (PMIx's
 * node id; RDMPI_COLL_FAKE_NODES overrides it for tests); -1: unknown. */
int rd_job_node_of(int r);

/* Read a peer's value: *data is malloc'd, the caller frees it. */
rd_status rd_job_get(int rank, const char *key, void **data, size_t *len);

/* The name service (MPI_Publish_name ...): names published through the
 * launcher's PMIx server (PMIx_Publish, _Lookup, _Unpublish), or, for a
 * singleton, in a table of this process. Each returns an MPI error class:
 * MPI_ERR_SERVICE (publish: the name is taken; unpublish: not published
 * by this process), MPI_ERR_NAME (lookup: not published; *value NULL),
 * MPI_ERR_UNSUPPORTED_OPERATION (the launcher has no name service),
 * MPI_ERR_NO_MEM, MPI_ERR_OTHER; *why a reason for the message. lookup's
 * *value is malloc'd. Under the caller's lock or not: no state of the
 * engine is touched. */
int rd_job_publish(const char *name, const char *value, const char **why);
int rd_job_lookup(const char *name, char **value, const char **why);
int rd_job_unpublish(const char *name, const char **why);

/* A process set the launcher defined (MPI sessions: runtime/api/session.c
 * lists them after mpi://WORLD and mpi://SELF). */
struct rd_job_pset {
    char *name;
    int *ranks; /* its members' world ranks, ascending, each once */
    int n;      /* at least 1 */
};

/* The launcher's process sets, asked of PMIx now (PMIx_Query_info:
 * PMIX_QUERY_PSET_NAMES, then each set's PMIX_QUERY_PSET_MEMBERSHIP), in
 * the launcher's order: *psets malloc'd (rd_job_psets_free), *n of them.
 * A singleton, a launcher that answers no such query and any PMIx error
 * give none (RD_OK, *n 0); a set with a member of another namespace or a
 * rank beyond the job is left out (RDMPI_LOG=debug:job says why).
 * RD_ERR_NOMEM is the only failure. */
rd_status rd_job_psets(struct rd_job_pset **psets, int *n);
void rd_job_psets_free(struct rd_job_pset *psets, int n);

/* End the whole job with code, after printing nothing (the caller has
 * already said why); msg is passed to the launcher. Does not return. */
_Noreturn void rd_job_abort(int code, const char *msg);

#endif

/* info.h - info objects: (key, value) string pairs in insertion order. */
#ifndef RD_INFO_H
#define RD_INFO_H

#include <mpi.h>
#include <stdint.h>

#define RD_INFO_MAGIC 0x496e666fu /* "Info" */

struct rd_info_entry {
    char *key, *value;
};

struct rd_info_s {
    uint32_t magic;
    int predefined;            /* MPI_INFO_ENV: read-only, never freed */
    _Atomic int32_t fidx;      /* its Fortran handle's index, 0: none (objects/fhandle.h) */
    int n, cap;
    struct rd_info_entry *ent;
};

static inline int rd_info_valid(MPI_Info info)
{
    return info != MPI_INFO_NULL && info->magic == RD_INFO_MAGIC;
}

struct rd_info_s *rd_info_new(void);
void rd_info_destroy(struct rd_info_s *info);
/* The index of key, or -1. */
int rd_info_find(const struct rd_info_s *info, const char *key);
/* Add or replace (a replaced key keeps its place). 0, or -1 out of memory. */
int rd_info_set(struct rd_info_s *info, const char *key, const char *value);
void rd_info_delete(struct rd_info_s *info, int index);
/* Fill MPI_INFO_ENV (once; called by the API before using it). */
void rd_info_env_fill(void);
/* The keys of MPI_INFO_ENV into env (MPI_Info_create_env's argc/argv, or 0, NULL) */
int rd_info_env_build(struct rd_info_s *env, int argc, char **argv); /* -1: out of memory */

#endif

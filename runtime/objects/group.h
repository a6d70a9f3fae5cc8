/* group.h - process groups.
 *
 * A group is an ordered set of processes, stored as the world rank of each
 * member (ranks == NULL: the identity 0..size-1, so that the group of
 * MPI_COMM_WORLD costs nothing however large the job). Groups are immutable
 * and reference counted. Finding a world rank in a group is a linear scan
 * for small groups and a binary search in a sorted index (built on first
 * use, published atomically) for large ones, so that the set operations and
 * rank translation are O(n log n), never quadratic. */
#ifndef RD_GROUP_H
#define RD_GROUP_H

#include <mpi.h>
#include <stdatomic.h>
#include <stdint.h>

#define RD_GROUP_MAGIC 0x47727570u /* "Grup" */

struct rd_group_index {
    int world; /* a member's world rank */
    int rank;  /* its rank in the group */
};

struct rd_group_s {
    uint32_t magic;
    int predefined;                           /* MPI_GROUP_EMPTY: never freed */
    _Atomic int refs;
    _Atomic int32_t fidx;                     /* its Fortran handle's index, 0: none (objects/fhandle.h) */
    int size;
    int *ranks;                               /* group rank -> world rank; NULL: identity */
    _Atomic(struct rd_group_index *) index;   /* sorted by world rank, or NULL */
    struct rd_session_s *session;             /* the session it derives from (a reference), or NULL */
};

static inline int rd_group_valid(MPI_Group g)
{
    return g != MPI_GROUP_NULL && g->magic == RD_GROUP_MAGIC;
}

static inline int rd_group_world(MPI_Group g, int rank)
{
    return g->ranks ? g->ranks[rank] : rank;
}

/* A new group of size members with an uninitialised rank array (size > 0),
 * or NULL when out of memory. */
struct rd_group_s *rd_group_alloc(int size);
/* The identity group 0..size-1 (the group of MPI_COMM_WORLD). */
struct rd_group_s *rd_group_identity(int size);
/* The rank of world rank w in g, or -1 if w is not a member. */
int rd_group_find(MPI_Group g, int world);
/* Drop a reference; the last one frees the group (never a predefined one). */
void rd_group_release(MPI_Group g);

#endif

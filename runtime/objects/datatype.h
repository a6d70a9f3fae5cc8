/* datatype.h - datatypes and the pack/unpack engine.
 *
 * A datatype's data layout is a small tree of nodes (struct rd_dt_node),
 * built once by its constructor and never expanded: a node describes one
 * instance of a type as
 *   LEAF  n basic elements back to back (size bytes at offset 0);
 *   VEC   count blocks, block i at i * stride, each blen copies of a child
 *         node lying cext bytes apart (vector, hvector, contiguous);
 *   IDX   blocks at arbitrary displacements, each blen copies of its own
 *         child (indexed, hindexed, *_block, struct), with the packed offset
 *         of each block (pre) for an O(log n) seek.
 * Children are the nodes of the types a type was built from (it holds
 * references to them), so a vector of a million blocks is one node and
 * nested types share their parts. Adjacent blocks are merged when built,
 * and a node whose packed bytes are one run of memory is marked flat.
 *
 * count elements of a type lie extent bytes apart. contig: the count
 * elements are one run of bytes starting at buf + true_lb, so every path
 * can use a single memcpy or hand the buffer straight to a transport. */
#ifndef RD_DATATYPE_H
#define RD_DATATYPE_H

#include <mpi.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#define RD_DT_MAGIC 0x44747970u /* "Dtyp" */

enum rd_dt_kind { RD_DN_LEAF = 0, RD_DN_VEC, RD_DN_IDX };

struct rd_dt_node;

struct rd_dt_blk {
    MPI_Aint disp;                  /* where the block starts in the instance */
    size_t blen;                    /* copies of child */
    MPI_Aint cext;                  /* distance between the copies */
    size_t pre;                     /* packed bytes before this block */
    MPI_Count epre;                 /* basic elements before this block */
    const struct rd_dt_node *child;
};

struct rd_dt_node {
    int kind;                       /* enum rd_dt_kind */
    int flat;                       /* packed bytes == memory [off, off + size) */
    MPI_Aint off;                   /* flat: where the run starts */
    size_t size;                    /* packed bytes of one instance */
    MPI_Count elems;                /* basic elements of one instance */
    MPI_Aint dlo, dhi;              /* not flat: its data lies in [dlo, dhi) of the instance */
    MPI_Datatype basic;             /* LEAF: the basic type of its elements */
    /* VEC */
    size_t count, blen;
    MPI_Aint stride, cext;
    size_t bsize;                   /* packed bytes of one block: blen * child->size */
    int bflat;                      /* a block is one run of memory */
    const struct rd_dt_node *child;
    /* IDX */
    size_t nblk;
    struct rd_dt_blk *blk;
};

struct rd_attr;

/* a complex of two IEEE binary128 (MPI_COMPLEX32) */
typedef _Complex float __attribute__((mode(TC))) rd_complex128;

struct rd_datatype_s {
    uint32_t magic;
    int predefined;
    int committed;
    _Atomic int refs;            /* derived types only */
    _Atomic int32_t fidx;        /* its Fortran handle's index, 0: none (objects/fhandle.h) */
    size_t size;                 /* bytes of data in one element */
    MPI_Aint lb, extent;
    MPI_Aint true_lb, true_extent;
    int contig;                  /* count elements are one run starting at buf + true_lb */
    _Atomic int opk;             /* predefined types: 1 + the index of their kernels in
                                  * op.c's table, -1 none, 0 not looked up yet */
    MPI_Count elements;          /* basic elements in one element */
    MPI_Datatype basic;          /* the basic type when all elements share one, else NULL */
    MPI_Datatype optype;         /* the predefined type the reduction kernels apply to
                                  * (a basic type or a pair type), NULL if mixed */
    size_t align;                /* largest alignment of its basic types */
    int sticky;                  /* its extent was set by the user (resized): no
                                  * alignment padding in a struct built on it */
    const struct rd_dt_node *dn; /* the layout */
    struct rd_dt_node node;      /* predefined types: their layout */
    struct rd_dt_node *own;      /* derived: the node it allocated (NULL if shared) */
    MPI_Datatype *deps;          /* derived: types whose nodes the layout uses (held) */
    size_t ndeps;
    /* how the type was made (MPI_Type_get_envelope / get_contents): the
     * arguments of its constructor by kind, in the call's order. counts
     * (MPI 4.0's array_of_large_counts) holds the MPI_Count arguments of a
     * _c constructor (its counts, block lengths, strides, displacements,
     * lb and extent); ints and aints those of the int calls, and a _c
     * call's int ones (ndims, order, the darray's ranks and grid). Every
     * _c constructor has one at least: nc > 0 marks a type made by one,
     * which the int MPI_Type_get_envelope / get_contents refuse. */
    int combiner;                /* MPI_COMBINER_*: (NAMED: 0) */
    MPI_Count ni, na, nc, nd;
    int *ints;
    MPI_Aint *aints;
    MPI_Count *counts;
    MPI_Datatype *types;         /* held */
    MPI_Datatype twin;           /* a handle from get_contents: the type it stands for (held) */
    struct rd_attr *attrs;       /* cached attributes (attr.c) */
    char name[MPI_MAX_OBJECT_NAME];
};

static inline int rd_dt_valid(MPI_Datatype dt)
{
    return dt != MPI_DATATYPE_NULL && dt->magic == RD_DT_MAGIC;
}

/* Packed bytes [off, off + len) of (buf, count, dt) to out. */
void rd_dt_pack(const void *buf, MPI_Datatype dt, size_t off, void *out, size_t len);
/* in to packed bytes [off, off + len) of (buf, count, dt). */
void rd_dt_unpack(void *buf, MPI_Datatype dt, size_t off, const void *in, size_t len);

/* Basic elements in bytes of packed data of dt; -1 if not a whole number. */
MPI_Count rd_dt_elements(MPI_Datatype dt, MPI_Count bytes);

/* Packed bytes of the first elements basic elements of dt (the inverse of
 * rd_dt_elements, for MPI_Status_set_elements). */
MPI_Count rd_dt_elements_bytes(MPI_Datatype dt, MPI_Count elements);

/* Calls fn(arg, disp, basic, n) for each run of n basic elements of type
 * basic at buf + disp, back to back, of count elements of dt in type-map
 * order (external32 conversion). */
int rd_dt_leaves(MPI_Datatype dt, size_t count, int (*fn)(void *arg, MPI_Aint disp, MPI_Datatype basic, size_t n),
                 void *arg);

/* Calls fn(arg, disp, n) for each run of atoms of count elements of dt,
 * in type-map order: n atoms at buf + disp, atom->extent bytes apart. The
 * atom is dt->optype (a basic type: runs are contiguous; a pair type: one
 * call per stretch of pairs). Returns the first non-zero fn result. */
int rd_dt_runs(MPI_Datatype dt, size_t count, int (*fn)(void *arg, MPI_Aint disp, size_t n),
               void *arg);

/* Contiguous runs of the data of count elements, in order: fn(arg, disp,
 * bytes); stops at the first non-zero result and returns it. */
int rd_dt_segments(MPI_Datatype dt, size_t count, int (*fn)(void *arg, MPI_Aint disp, size_t len),
                   void *arg);

/* Views (runtime/io/PLAN.md, 4.1): the runs (displacement from buf, length)
 * of the packed bytes [off, off + len) of (buf, count, dt), in order,
 * adjacent runs merged: the seek of rd_dt_pack, O(depth), then one call
 * per run. Stops at the first non-zero fn result and returns it. */
int rd_dt_segments_range(MPI_Datatype dt, size_t off, size_t len,
                         int (*fn)(void *arg, MPI_Aint disp, size_t len), void *arg);

/* The inverse seek: packed bytes of one instance of dt whose displacement
 * is below x (0 .. dt->size), O(depth). Exact for a type whose data runs
 * go up without overlap (rd_dt_monotone); for others meaningless. */
size_t rd_dt_bytes_below(MPI_Datatype dt, MPI_Aint x);

/* 1 when the data runs of one instance of dt, in type-map order, each
 * start at or after the end of the one before (displacements increasing,
 * no byte twice: what a file view needs, MPI-3.1 13.3), else 0. A test on
 * the tree, O(its nodes). Tiled copies (count > 1) also need dt's true
 * extent within its extent: the caller checks that. */
int rd_dt_monotone(MPI_Datatype dt);

/* ---- construction (no argument checks: the API layer has made them).
 * Each returns a new uncommitted type holding references to the types it
 * uses, or NULL when out of memory or when its size or one of its bounds
 * (lb, ub, extent, their true forms) would not fit in an MPI_Aint (*err
 * says which: MPI_ERR_NO_MEM or MPI_ERR_COUNT). Displacements and strides
 * are in bytes. */
MPI_Datatype rd_dt_make_vector(size_t count, size_t blen, MPI_Aint stride, MPI_Datatype old, int *err);
/* n blocks: blen[i] copies of olds[i] (olds[0] for all when one_type) at disp[i];
 * is_struct adds the alignment padding of the extent (epsilon) */
MPI_Datatype rd_dt_make_blocks(size_t n, const size_t *blen, const MPI_Aint *disp,
                               const MPI_Datatype *olds, int one_type, int is_struct, int *err);
MPI_Datatype rd_dt_make_resized(MPI_Datatype old, MPI_Aint lb, MPI_Aint extent, int *err);
/* same layout, new object (MPI_Type_dup, get_contents' handles) */
MPI_Datatype rd_dt_make_copy(MPI_Datatype old, int *err);
/* Records how t was made (copies the arrays, holds the types): ni ints,
 * na aints, nc large counts (a _c constructor's), nd types. */
int rd_dt_set_contents(MPI_Datatype t, int combiner, MPI_Count ni, const int *ints, MPI_Count na,
                       const MPI_Aint *aints, MPI_Count nc, const MPI_Count *counts, MPI_Count nd,
                       const MPI_Datatype *types);

void rd_dt_free(MPI_Datatype dt);

/* Pending operations hold a reference to derived types. */
static inline void rd_dt_retain(MPI_Datatype dt)
{
    if (!dt->predefined)
        atomic_fetch_add(&dt->refs, 1);
}

static inline void rd_dt_release(MPI_Datatype dt)
{
    if (!dt->predefined && atomic_fetch_sub(&dt->refs, 1) == 1)
        rd_dt_free(dt);
}

#endif

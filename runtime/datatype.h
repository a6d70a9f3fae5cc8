/* datatype.h - datatypes and the pack/unpack engine.
 *
 * A datatype describes one element as a list of blocks (offset, length)
 * of basic data; count elements lie extent bytes apart. The common case,
 * where count elements form one run of bytes, is flagged (contig) so that
 * every path can use a single memcpy or hand the buffer straight to a
 * transport. */
#ifndef RD_DATATYPE_H
#define RD_DATATYPE_H

#include <mpi.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#define RD_DT_MAGIC 0x44747970u /* "Dtyp" */

struct rd_dt_block {
    MPI_Aint off;
    size_t len;
};

struct rd_datatype_s {
    uint32_t magic;
    int predefined;
    int committed;
    _Atomic int refs;            /* derived types only */
    size_t size;                 /* bytes of data in one element */
    MPI_Aint lb, extent;
    MPI_Aint true_lb, true_extent;
    int contig;                  /* count elements are one run starting at buf + true_lb */
    size_t nblocks;              /* blocks of one element, in order */
    struct rd_dt_block *blocks;
    MPI_Count elements;          /* basic elements in one element */
    MPI_Datatype basic;          /* the basic type when all elements share one, else NULL */
    struct rd_dt_block inline_blocks[2];
    int combiner;                /* MPI_COMBINER_*: how the type was made (NAMED: 0) */
    int ci;                      /* CONTIGUOUS: its count */
    MPI_Datatype old;            /* CONTIGUOUS, DUP: the type it was made from (held) */
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

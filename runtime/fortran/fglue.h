/* fglue.h - what the generated C glue of the Fortran bindings
 * (fglue.c, from runtime/fortran/gen.awk) uses to convert arguments:
 * special objects known by address, temporary arrays, strings, statuses.
 * Handles go through the MPI_*_f2c / _c2f functions of librdmpi. */
#ifndef RD_FORTRAN_FGLUE_H
#define RD_FORTRAN_FGLUE_H

#include <mpi.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <ISO_Fortran_binding.h>

#include "runtime/api/fspecial.h"

/* A Fortran INTEGER is a C int: integer arguments pass through. */
_Static_assert(sizeof(MPI_Fint) == sizeof(int), "MPI_Fint is not an int");
_Static_assert(sizeof(MPI_Status) == MPI_F_STATUS_SIZE * sizeof(MPI_Fint),
               "a Fortran status does not hold a C status");

/* Arrays of up to RD_FG_STACK handles or statuses are converted on the
 * stack, larger ones on the heap. */
#define RD_FG_STACK 64

/* A choice buffer: the address of MPI_BOTTOM's common block is C's
 * MPI_BOTTOM, MPI_IN_PLACE's C's MPI_IN_PLACE where the argument may be
 * that (inplace), MPI_BUFFER_AUTOMATIC's C's, any other address itself. */
static inline void *rd_fg_buf(void *buf, int inplace)
{
    if (buf == (void *)rd_mpi_f_bottom_)
        return MPI_BOTTOM;
    if (inplace && buf == (void *)rd_mpi_f_in_place_)
        return MPI_IN_PLACE;
    if (buf == (void *)rd_mpi_f_buffer_automatic_) /* (MPI 4.1: only the attach calls take it) */
        return MPI_BUFFER_AUTOMATIC;
    return buf;
}

/* An array of graph weights: the addresses of MPI_UNWEIGHTED's and
 * MPI_WEIGHTS_EMPTY's common blocks are C's constants. */
static inline int *rd_fg_weights(MPI_Fint *w)
{
    if (w == rd_mpi_f_unweighted_)
        return MPI_UNWEIGHTED;
    if (w == rd_mpi_f_weights_empty_)
        return MPI_WEIGHTS_EMPTY;
    return w;
}

/* MPI_CONVERSION_FN_NULL of mpif.h and the modules (runtime/fortran/
 * fcallback.c): a procedure argument with its address is C's
 * MPI_CONVERSION_FN_NULL (mpi.api's null=), so the glue never passes it on. */
void mpi_conversion_fn_null_(void *userbuf, MPI_Fint *datatype, MPI_Fint *count, void *filebuf,
                             MPI_Offset *position, MPI_Aint *extra_state, MPI_Fint *ierr);

/* Is a Fortran status argument MPI_STATUS_IGNORE or MPI_STATUSES_IGNORE? */
static inline int rd_fg_status_ignored(const MPI_Fint *f)
{
    return f == rd_mpi_f_status_ignore_ || f == rd_mpi_f_statuses_ignore_;
}

/* An array length from Fortran, 0 when negative (the C call raises the
 * error). */
static inline int rd_fg_n(MPI_Fint n)
{
    return n > 0 ? n : 0;
}

/* The number of dimensions of a Cartesian communicator (MPI_CART_SUB's
 * remain_dims), 0 for any other: the call itself then raises its error. */
static inline int rd_fg_cartdim(MPI_Comm comm)
{
    int kind = MPI_UNDEFINED, n = 0;

    if (comm == MPI_COMM_NULL || PMPI_Topo_test(comm, &kind) != MPI_SUCCESS || kind != MPI_CART ||
        PMPI_Cartdim_get(comm, &n) != MPI_SUCCESS)
        return 0;
    return n;
}

/* The number of ranks an all-to-all of comm addresses: its size, the
 * remote group's for an intercommunicator; 0 for no communicator (the call
 * raises its error). */
static inline int rd_fg_size(MPI_Comm comm)
{
    int inter = 0, n = 0;

    if (comm == MPI_COMM_NULL || PMPI_Comm_test_inter(comm, &inter) != MPI_SUCCESS)
        return 0;
    if ((inter ? PMPI_Comm_remote_size(comm, &n) : PMPI_Comm_size(comm, &n)) != MPI_SUCCESS)
        return 0;
    return n;
}

/* The in- or out-degree of a communicator with a topology (the neighbour
 * collectives' arrays), 0 for any other. */
static inline int rd_fg_degree(MPI_Comm comm, int out)
{
    int kind = MPI_UNDEFINED, rank, n = 0, in = 0, o = 0, w;

    if (comm == MPI_COMM_NULL || PMPI_Topo_test(comm, &kind) != MPI_SUCCESS)
        return 0;
    if (kind == MPI_CART)
        return PMPI_Cartdim_get(comm, &n) == MPI_SUCCESS ? 2 * n : 0;
    if (kind == MPI_GRAPH)
        return PMPI_Comm_rank(comm, &rank) == MPI_SUCCESS &&
                       PMPI_Graph_neighbors_count(comm, rank, &n) == MPI_SUCCESS
                   ? n
                   : 0;
    if (kind == MPI_DIST_GRAPH)
        return PMPI_Dist_graph_neighbors_count(comm, &in, &o, &w) == MPI_SUCCESS ? (out ? o : in) : 0;
    return 0;
}

static inline int rd_fg_indegree(MPI_Comm comm)
{
    return rd_fg_degree(comm, 0);
}

static inline int rd_fg_outdegree(MPI_Comm comm)
{
    return rd_fg_degree(comm, 1);
}

/* Room for n elements of size bytes: stack (RD_FG_STACK of them) when they
 * fit, else the heap; NULL when out of memory. */
static inline void *rd_fg_tmp(void *stack, size_t size, MPI_Fint n)
{
    if (n <= RD_FG_STACK)
        return stack;
    return malloc(size * (size_t)n);
}

static inline void rd_fg_free(void *p, void *stack)
{
    if (p != stack)
        free(p);
}

/* Out of memory converting arguments: MPI_ERR_NO_MEM through
 * MPI_COMM_WORLD's error handler (fatal by default). */
static inline int rd_fg_nomem(void)
{
    MPI_Comm_call_errhandler(MPI_COMM_WORLD, MPI_ERR_NO_MEM);
    return MPI_ERR_NO_MEM;
}

/* A CHARACTER argument in: its LEN bytes, trailing blanks dropped (and
 * leading ones if lead: info keys and values), as a C string on the heap
 * (NULL when out of memory). */
static inline char *rd_fg_str_in(const char *f, size_t len, int lead)
{
    char *s;

    while (len > 0 && f[len - 1] == ' ')
        len--;
    while (lead && len > 0 && f[0] == ' ') {
        f++;
        len--;
    }
    if (!(s = malloc(len + 1)))
        return NULL;
    memcpy(s, f, len);
    s[len] = '\0';
    return s;
}

/* A CHARACTER argument out: the C string, cut at LEN, blank-padded to LEN. */
static inline void rd_fg_str_out(char *f, size_t len, const char *c)
{
    size_t n = strlen(c);

    if (n > len)
        n = len;
    memcpy(f, c, n);
    memset(f + n, ' ', len - n);
}

/* mpi_f08: a choice buffer given as a descriptor (TYPE(*), DIMENSION(..))
 * as the address, count and datatype the glue passes on (fsection.c):
 * made is the datatype built for a non-contiguous section (freed by
 * rd_fg_sec_done), NULL for none. */
typedef struct rd_fg_sec {
    void *addr;
    MPI_Fint count, type;
    MPI_Datatype made;
    void *tmp;              /* a contiguous copy of the section (or NULL) */
    const CFI_cdesc_t *d;   /* the section of n elements, written back from tmp if back */
    size_t n;
    int back;
} rd_fg_sec;

/* anyshape: only the address counts (MPI_Get_address); async: the call
 * uses the buffer after it returns (nonblocking, persistent, one-sided);
 * back: the call writes the buffer. count and type: the buffer's own (NULL:
 * none, or shared with another buffer). */
int rd_fg_section(rd_fg_sec *s, const CFI_cdesc_t *d, const MPI_Fint *count, const MPI_Fint *type, int anyshape,
                  int async, int back, MPI_Comm comm, MPI_Win win, const char *call, const char *arg);
void rd_fg_sec_done(rd_fg_sec *s);

#endif

/* fileview.c - file views and data representations (runtime/io/PLAN.md
 * 4.1, 4.4, 4.7, 6; stage 2): MPI_File_set_view, MPI_File_set_atomicity,
 * MPI_File_get_atomicity, MPI_Register_datarep (and rd_mpi_f_datarep,
 * the Fortran glue's mark of a registration). The views' checks and
 * mapping are runtime/io/view.c's, the representations runtime/io/
 * datarep.c's; the accesses through a view go the strided path
 * (runtime/io/sieve.c) from rd_io_indep. */
#include <mpi.h>
#include <string.h>

#include "runtime/api/check.h"
#include "runtime/api/fileio.h"
#include "runtime/api/fspecial.h"
#include "runtime/base/error.h"
#include "runtime/base/state.h"
#include "runtime/io/io.h"
#include "runtime/objects/comm.h"
#include "runtime/objects/info.h"

/* Every rank of comm ends a collective call with one class: the lowest
 * failing rank's, and its message (the other ranks' messages name it).
 * cls, why: this rank's. The agreed class, or MPI_SUCCESS; *comm_rc: the
 * class of a failed exchange, MPI_SUCCESS if it went through. */
static int agree_class(MPI_Comm comm, int cls, rd_io_why *why, int *comm_rc)
{
    int n = comm->size, me = comm->rank;
    int bid = cls != MPI_SUCCESS ? n - me : 0, top = 0; /* the max picks the lowest rank */
    *comm_rc = PMPI_Allreduce(&bid, &top, 1, MPI_INT, MPI_MAX, comm);
    if (*comm_rc != MPI_SUCCESS)
        return *comm_rc;
    if (top == 0)
        return MPI_SUCCESS;
    int from = n - top;
    struct {
        int cls;
        char msg[sizeof why->msg];
    } w;
    w.cls = cls;
    memcpy(w.msg, why->msg, sizeof w.msg);
    *comm_rc = PMPI_Bcast(&w, (int)sizeof w, MPI_BYTE, from, comm);
    if (*comm_rc != MPI_SUCCESS)
        return *comm_rc;
    if (me != from) {
        w.msg[sizeof w.msg - 1] = 0;
        rd_io_fail(why, w.cls, "rank %d failed: %s", from, w.msg);
    }
    return w.cls;
}

/* ------------------------------------------------------------ views */

#pragma weak MPI_File_set_view = PMPI_File_set_view
int PMPI_File_set_view(MPI_File fh, MPI_Offset disp, MPI_Datatype etype, MPI_Datatype filetype, const char *datarep,
                       MPI_Info info)
{
    const char *call = "MPI_File_set_view";
    RD_API_READY(call);
    RD_TRY(rd_check_file(call, fh));
    struct rd_io_file *io = rd_file_io(fh);
    rd_io_why why = {""};
    int cls = MPI_SUCCESS;
    struct rd_io_view nv;
    rd_io_view_init(&nv);
    if (info != MPI_INFO_NULL && !rd_info_valid(info))
        cls = rd_io_fail(&why, MPI_ERR_INFO, "invalid info");
    else if (!datarep)
        cls = rd_io_fail(&why, MPI_ERR_ARG, "datarep is NULL");
    else if (atomic_load(&io->inflight) > 0)
        cls = rd_io_fail(&why, MPI_ERR_IO, "%d nonblocking operations on the file are not complete",
                         atomic_load(&io->inflight));
    else if (io->split_op != RD_IO_OP_NONE)
        cls = rd_io_fail(&why, MPI_ERR_IO, "a split collective access is active on the file");
    else {
        /* MPI_DISPLACEMENT_CURRENT (sequential files): the shared pointer's
         * byte offset through the current view */
        MPI_Offset current = 0, pos = 0;
        if (disp == MPI_DISPLACEMENT_CURRENT && (fh->amode & MPI_MODE_SEQUENTIAL) && io->shfp) {
            RD_LOCK(); /* (shfp.c's calls communicate: the big lock held, as fileshared.c's) */
            cls = rd_io_position_shared(io, &pos, &why);
            RD_UNLOCK();
            current = rd_io_view_offset(&io->view, pos * (MPI_Offset)io->view.esize);
        }
        if (cls == MPI_SUCCESS)
            cls = rd_io_view_set(&nv, disp, etype, filetype, datarep,
                             (fh->amode & (MPI_MODE_WRONLY | MPI_MODE_RDWR)) != 0,
                             (fh->amode & MPI_MODE_SEQUENTIAL) != 0, current, &why);
    }
    int comm_rc;
    int agreed = agree_class(fh->comm, cls, &why, &comm_rc);
    if (comm_rc != MPI_SUCCESS || agreed != MPI_SUCCESS) {
        rd_io_view_fini(&nv);
        if (comm_rc != MPI_SUCCESS)
            return rd_err_raise_file(fh, comm_rc, call, "the agreement between the ranks failed");
        return rd_file_raise(fh, agreed, call, &why);
    }
    rd_io_view_fini(&io->view);
    io->view = nv;
    io->fp = 0;
    /* the shared pointer back to 0 too (collective: shfp.c) */
    RD_LOCK();
    int rc = rd_io_shfp_reset(io, &why);
    RD_UNLOCK();
    if (rc != MPI_SUCCESS)
        return rd_file_raise(fh, rc, call, &why);
    /* the hints of info: rank 0's values, as MPI_File_set_info */
    struct rd_io_hints h = io->hints;
    if (fh->comm->rank == 0)
        rd_io_hints_parse(&h, info);
    rc = PMPI_Bcast(&h, (int)sizeof h, MPI_BYTE, 0, fh->comm);
    if (rc != MPI_SUCCESS)
        return rd_err_raise_file(fh, rc, call, "the agreement of the hints failed");
    io->hints = h;
    rd_io_hints_apply(io);
    return MPI_SUCCESS;
}

/* ------------------------------------------------------------ atomic mode */

#pragma weak MPI_File_set_atomicity = PMPI_File_set_atomicity
int PMPI_File_set_atomicity(MPI_File fh, int flag)
{
    const char *call = "MPI_File_set_atomicity";
    RD_API_READY(call);
    RD_TRY(rd_check_file(call, fh));
    /* collective: one allreduce finds whether any rank said true and any
     * false */
    int mine[2] = {flag != 0, flag == 0}, any[2] = {0, 0};
    int rc = PMPI_Allreduce(mine, any, 2, MPI_INT, MPI_MAX, fh->comm);
    if (rc != MPI_SUCCESS)
        return rd_err_raise_file(fh, rc, call, "the agreement between the ranks failed");
    if (any[0] && any[1])
        return rd_err_raise_file(fh, MPI_ERR_NOT_SAME, call, "the ranks gave different flags (this rank: %s)",
                                 flag ? "true" : "false");
    rd_file_io(fh)->atomic = flag != 0;
    return MPI_SUCCESS;
}

#pragma weak MPI_File_get_atomicity = PMPI_File_get_atomicity
int PMPI_File_get_atomicity(MPI_File fh, int *flag)
{
    const char *call = "MPI_File_get_atomicity";
    RD_API_READY(call);
    RD_TRY(rd_check_file(call, fh));
    if (!flag)
        return rd_err_raise_file(fh, MPI_ERR_ARG, call, "flag is NULL");
    *flag = rd_file_io(fh)->atomic;
    return MPI_SUCCESS;
}

/* ------------------------------------------------------------ representations */

/* MPI_Register_datarep and MPI_Register_datarep_c (large: its conversions
 * take an MPI_Count count, datarep.c calls them so) */
static int register_datarep(const char *call, const char *datarep, MPI_Datarep_conversion_function *read_conversion_fn,
                            MPI_Datarep_conversion_function *write_conversion_fn,
                            MPI_Datarep_extent_function *dtype_file_extent_fn, void *extra_state, int large)
{
    RD_API_READY(call);
    /* errors go to MPI_FILE_NULL's handler (MPI-3.1 13.5.3) */
    if (!datarep)
        return rd_err_raise_file(MPI_FILE_NULL, MPI_ERR_ARG, call, "datarep is NULL");
    rd_io_why why = {""};
    RD_LOCK(); /* the list of representations is the library's (MPI_THREAD_MULTIPLE) */
    int cls = rd_io_datarep_register(datarep, read_conversion_fn, write_conversion_fn, dtype_file_extent_fn,
                                     extra_state, &why);
    if (cls == MPI_SUCCESS && large)
        rd_io_datarep_large(datarep);
    RD_UNLOCK();
    if (cls != MPI_SUCCESS)
        return rd_err_raise_file(MPI_FILE_NULL, cls, call, "%s", why.msg);
    return MPI_SUCCESS;
}

#pragma weak MPI_Register_datarep = PMPI_Register_datarep
int PMPI_Register_datarep(const char *datarep, MPI_Datarep_conversion_function *read_conversion_fn,
                          MPI_Datarep_conversion_function *write_conversion_fn,
                          MPI_Datarep_extent_function *dtype_file_extent_fn, void *extra_state)
{
    return register_datarep("MPI_Register_datarep", datarep, read_conversion_fn, write_conversion_fn,
                            dtype_file_extent_fn, extra_state, 0);
}

#pragma weak MPI_Register_datarep_c = PMPI_Register_datarep_c
int PMPI_Register_datarep_c(const char *datarep, MPI_Datarep_conversion_function_c *read_conversion_fn,
                            MPI_Datarep_conversion_function_c *write_conversion_fn,
                            MPI_Datarep_extent_function *dtype_file_extent_fn, void *extra_state)
{
    /* (the pointers travel as the int form's type; datarep.c calls them as what they are) */
    return register_datarep("MPI_Register_datarep_c", datarep,
                            (MPI_Datarep_conversion_function *)(void (*)(void))read_conversion_fn,
                            (MPI_Datarep_conversion_function *)(void (*)(void))write_conversion_fn,
                            dtype_file_extent_fn, extra_state, 1);
}

/* The Fortran glue's MPI_REGISTER_DATAREP: the representation it has just
 * registered has Fortran callbacks, which datarep.c calls with Fortran's
 * arguments (the datatype's Fortran handle). The predefined datatypes get
 * their Fortran indices first (PMPI_Type_c2f does that once), so that a
 * callback never gives one a new index. */
void rd_mpi_f_datarep(const char *datarep)
{
    (void)PMPI_Type_c2f(MPI_DATATYPE_NULL);
    RD_LOCK();
    rd_io_datarep_fortran(datarep);
    RD_UNLOCK();
}

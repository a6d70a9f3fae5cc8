/* view.c - file views: the default view and the stream <-> file mapping
 * (io_int.h; runtime/io/PLAN.md 4.1). */
#include "runtime/io/io_int.h"

#include <string.h>

#include "runtime/objects/datatype.h"

void rd_io_view_init(struct rd_io_view *v)
{
    memset(v, 0, sizeof *v);
    v->etype = MPI_BYTE;
    v->filetype = MPI_BYTE;
    v->esize = 1;
    v->ftsize = 1;
    v->ftext = 1;
    v->contig = 1;
    strcpy(v->datarep, "native");
}

void rd_io_view_fini(struct rd_io_view *v)
{
    rd_dt_release(v->etype);
    rd_dt_release(v->filetype);
    v->etype = v->filetype = MPI_DATATYPE_NULL;
}

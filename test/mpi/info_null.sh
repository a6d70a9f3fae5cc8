#!/bin/bash
# Info arguments: MPI_INFO_NULL where the standard allows it, MPI_ERR_INFO
# where it does not and for handles that are no info object.
. "$RD_SRCDIR/test/tap.sh"
. "$RD_SRCDIR/test/mpi/lib.sh"
for np in 1 3; do
    mpi_check "$np" "$RD_BUILDDIR/test/mpi/info_null"
done
done_testing

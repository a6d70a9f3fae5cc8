#!/bin/bash
# Info objects, MPI_INFO_ENV and MPI_Dims_create on 1 and 2 ranks under rrun.
. "$RD_SRCDIR/test/tap.sh"
. "$RD_SRCDIR/test/mpi/lib.sh"
prog="$RD_BUILDDIR/test/mpi/info"
for np in 1 2; do
    mpi_check "$np" "$prog" "$np"
done
done_testing

#!/bin/bash
# Many MPI_Comm_idup outstanding at once on one and several parents.
. "$RD_SRCDIR/test/tap.sh"
. "$RD_SRCDIR/test/mpi/lib.sh"
for np in 2 3 4; do
    mpi_check "$np" "$RD_BUILDDIR/test/mpi/idup_many"
done
done_testing

#!/bin/bash
# Attributes: predefined, keyvals and callbacks, MPI_COMM_SELF at finalize.
. "$RD_SRCDIR/test/tap.sh"
. "$RD_SRCDIR/test/mpi/lib.sh"
for np in 1 2 3; do
    mpi_check "$np" "$RD_BUILDDIR/test/mpi/attr"
done
done_testing

#!/bin/bash
# Reduction operations (MPI_Reduce_local, MPI_Op_create/free/commutative).
. "$RD_SRCDIR/test/tap.sh"
. "$RD_SRCDIR/test/mpi/lib.sh"
for np in 1 2; do
    mpi_check "$np" "$RD_BUILDDIR/test/mpi/op"
done
done_testing

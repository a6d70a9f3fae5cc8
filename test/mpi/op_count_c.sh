#!/bin/bash
# MPI_Op_create_c and MPI_Reduce_local_c (test/mpi/op_count_c.c) on 1 and 3 ranks.
. "$RD_SRCDIR/test/tap.sh"
. "$RD_SRCDIR/test/mpi/lib.sh"
for np in 1 3; do
    mpi_check "$np" "$RD_BUILDDIR/test/mpi/op_count_c"
done
done_testing

#!/bin/bash
# MPI 4.1's buffers of buffered sends (test/mpi/p2p_buffers.c), 1 to 3 ranks.
. "$RD_SRCDIR/test/tap.sh"
. "$RD_SRCDIR/test/mpi/lib.sh"
for np in 1 2 3; do
    mpi_check "$np" "$RD_BUILDDIR/test/mpi/p2p_buffers"
done
done_testing

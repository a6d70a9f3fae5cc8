#!/bin/bash
# Reductions on MPI_CHAR, and logical/bitwise ops on MPI_AINT, MPI_OFFSET
# and MPI_COUNT (accepted, as by MPICH and Open MPI).
. "$RD_SRCDIR/test/tap.sh"
. "$RD_SRCDIR/test/mpi/lib.sh"
for np in 1 2 3; do
    mpi_check "$np" "$RD_BUILDDIR/test/mpi/op_ext"
done
# the collectives' message path too (not the node's memory)
p2p_check "RDMPI_COLL_SHM=0" 3 "$RD_BUILDDIR/test/mpi/op_ext"
done_testing

#!/bin/bash
# What only persistent collectives do (test/mpi/pcoll.c), on 1 to 4 ranks
# and without the node's memory.
. "$RD_SRCDIR/test/tap.sh"
. "$RD_SRCDIR/test/mpi/lib.sh"
for np in 1 2 3 4; do
    mpi_check "$np" "$RD_BUILDDIR/test/mpi/pcoll"
done
p2p_check "RDMPI_COLL_SHM=0" 3 "$RD_BUILDDIR/test/mpi/pcoll"
done_testing

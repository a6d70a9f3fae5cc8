#!/bin/bash
# Graph and distributed graph topologies on 1 to 4 ranks.
. "$RD_SRCDIR/test/tap.sh"
. "$RD_SRCDIR/test/mpi/lib.sh"
for np in 1 2 3 4; do
    mpi_check "$np" "$RD_BUILDDIR/test/mpi/graph"
done
done_testing

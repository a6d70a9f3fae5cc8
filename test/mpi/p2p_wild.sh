#!/bin/bash
# Wildcards, statuses, counts, MPI_PROC_NULL, ignored statuses.
. "$RD_SRCDIR/test/tap.sh"
. "$RD_SRCDIR/test/mpi/lib.sh"
. "$RD_SRCDIR/test/mpi/p2p_lib.sh"
prog="$RD_BUILDDIR/test/mpi/p2p_wild"
for np in 1 2 3 4; do
    p2p_check "" "$np" "$prog"
done
p2p_check "RDMPI_EAGER_LIMIT=1 RDMPI_RNDV_PROTOCOL=get" 3 "$prog"
p2p_check "RDMPI_EAGER_LIMIT=1 RDMPI_RNDV_PROTOCOL=pipeline" 2 "$prog"
done_testing

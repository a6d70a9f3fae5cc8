#!/bin/bash
# The large-count one-sided calls (test/mpi/rma_count_c.c) on 1 and 2
# ranks, on the default paths and on the active-message path (the fast
# path and the general call take the counts as MPI_Count alike).
. "$RD_SRCDIR/test/tap.sh"
. "$RD_SRCDIR/test/mpi/lib.sh"
prog="$RD_BUILDDIR/test/mpi/rma_count_c"
for np in 1 2; do
    p2p_check "" "$np" "$prog"
done
p2p_check "RDMPI_RMA_PATH=am" 2 "$prog"
done_testing

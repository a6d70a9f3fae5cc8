#!/bin/bash
# Large node-local collectives leave the program's memory as it knows it
# (test/mpi/memory.c): fork, madvise, mlock, mappings, on 2 and 4 ranks,
# with the defaults and with the direct paths taken at every size.
. "$RD_SRCDIR/test/tap.sh"
. "$RD_SRCDIR/test/mpi/lib.sh"
for np in 2 4; do
    mpi_check "$np" "$RD_BUILDDIR/test/mpi/memory"
done
p2p_check "RDMPI_COLL_SHM_DIRECT_MIN=1 RDMPI_COLL_SHM_ALLREDUCE_MIN=1 RDMPI_COLL_SHM_REDUCE_MIN=1 RDMPI_COLL_SHM_STAGED=no" 2 "$RD_BUILDDIR/test/mpi/memory"
done_testing

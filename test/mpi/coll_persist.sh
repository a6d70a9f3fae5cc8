#!/bin/bash
# Persistent collectives (test/mpi/coll_persist.c: coll.c with every
# blocking collective done by MPI_X_init, MPI_Start and MPI_Wait): with
# the selection table on 1 to 5 ranks (the small Allreduce of a node's
# ranks through a slot of its own), without the node's memory, with the
# other algorithms forced, and as if on 2 nodes.
. "$RD_SRCDIR/test/tap.sh"
. "$RD_SRCDIR/test/mpi/lib.sh"
for np in 1 2 3 4 5; do
    mpi_check "$np" "$RD_BUILDDIR/test/mpi/coll_persist"
done
p2p_check "RDMPI_COLL_SHM=0" 3 "$RD_BUILDDIR/test/mpi/coll_persist"
p2p_check "RDMPI_COLL_BARRIER=dissemination RDMPI_COLL_BCAST=binomial RDMPI_COLL_REDUCE=binomial RDMPI_COLL_ALLREDUCE=recursive_doubling RDMPI_COLL_ALLGATHER=recursive_doubling RDMPI_COLL_ALLTOALL=bruck RDMPI_COLL_REDUCE_SCATTER=pairwise RDMPI_COLL_SCAN=recursive_doubling" 4 "$RD_BUILDDIR/test/mpi/coll_persist"
p2p_check "RDMPI_COLL_BCAST=pipeline RDMPI_COLL_SEGMENT=4k RDMPI_COLL_ALLREDUCE=ring RDMPI_COLL_ALLGATHER=ring RDMPI_COLL_ALLTOALL=pairwise" 3 "$RD_BUILDDIR/test/mpi/coll_persist"
p2p_check "RDMPI_COLL_SHM=0 RDMPI_COLL_FAKE_NODES=2" 4 "$RD_BUILDDIR/test/mpi/coll_persist"
done_testing

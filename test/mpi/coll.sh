#!/bin/bash
# Collectives (test/mpi/coll.c): with the selection table on 1 to 8 ranks,
# then with every algorithm of every menu forced in turn on 2 to 8 ranks
# (COLL_SETS below covers each choice of each RDMPI_COLL_* parameter), and
# with the shared-memory path of small collectives off (RDMPI_COLL_SHM=0),
# with every size above zero going through the direct paths (through the
# stage where the blocks fit it, and single copy: by CMA (the default), or
# through mapped buffers from their second use (opt-in RDMPI_SHM_XMAP=1)),
# and with them off; and as if
# the ranks were spread over 2 or 3 nodes (RDMPI_COLL_FAKE_NODES: world
# rank modulo the count), so that the two-level algorithms run, chosen by
# the table and forced.
. "$RD_SRCDIR/test/tap.sh"
. "$RD_SRCDIR/test/mpi/lib.sh"
COLL_SETS=(
    "RDMPI_COLL_BARRIER=dissemination RDMPI_COLL_BCAST=binomial RDMPI_COLL_REDUCE=binomial RDMPI_COLL_ALLREDUCE=recursive_doubling RDMPI_COLL_GATHER=binomial RDMPI_COLL_SCATTER=binomial RDMPI_COLL_ALLGATHER=recursive_doubling RDMPI_COLL_ALLGATHERV=ring RDMPI_COLL_ALLTOALL=bruck RDMPI_COLL_ALLTOALLV=pairwise RDMPI_COLL_REDUCE_SCATTER=pairwise RDMPI_COLL_SCAN=recursive_doubling"
    "RDMPI_COLL_BARRIER=linear RDMPI_COLL_BCAST=scatter_allgather RDMPI_COLL_REDUCE=linear RDMPI_COLL_ALLREDUCE=rabenseifner RDMPI_COLL_GATHER=linear RDMPI_COLL_SCATTER=linear RDMPI_COLL_ALLGATHER=bruck RDMPI_COLL_ALLGATHERV=linear RDMPI_COLL_ALLTOALL=pairwise RDMPI_COLL_ALLTOALLV=linear RDMPI_COLL_REDUCE_SCATTER=reduce_scatterv RDMPI_COLL_SCAN=linear"
    "RDMPI_COLL_BCAST=pipeline RDMPI_COLL_SEGMENT=4k RDMPI_COLL_ALLREDUCE=ring RDMPI_COLL_ALLGATHER=ring RDMPI_COLL_ALLTOALL=linear"
    "RDMPI_COLL_BCAST=linear RDMPI_COLL_ALLREDUCE=reduce_bcast"
    "RDMPI_COLL_SHM=0"
    "RDMPI_COLL_SHM_MAX=0 RDMPI_COLL_SHM_DIRECT_MIN=1 RDMPI_COLL_SHM_ALLREDUCE_MIN=1 RDMPI_COLL_SHM_REDUCE_MIN=1 RDMPI_COLL_SHM_ROOTED_MIN=1 RDMPI_COLL_SHM_STAGED=yes"
    "RDMPI_COLL_SHM_MAX=0 RDMPI_COLL_SHM_DIRECT_MIN=1 RDMPI_COLL_SHM_ALLREDUCE_MIN=1 RDMPI_COLL_SHM_REDUCE_MIN=1 RDMPI_COLL_SHM_ROOTED_MIN=1 RDMPI_COLL_SHM_STAGED=no RDMPI_SHM_XMAP=1"
    "RDMPI_COLL_SHM_MAX=0 RDMPI_COLL_SHM_DIRECT_MIN=1 RDMPI_COLL_SHM_ROOTED_MIN=1 RDMPI_COLL_SHM_STAGED=no RDMPI_SHM_XMAP=0"
    "RDMPI_COLL_SHM_DIRECT_MIN=0 RDMPI_COLL_SHM_ALLREDUCE_MIN=0 RDMPI_COLL_SHM_REDUCE_MIN=0 RDMPI_COLL_SHM_ROOTED_MIN=0"
    "RDMPI_COLL_SHM=0 RDMPI_COLL_FAKE_NODES=2"
    "RDMPI_COLL_SHM=0 RDMPI_COLL_FAKE_NODES=3 RDMPI_COLL_BARRIER=hierarchical RDMPI_COLL_BCAST=hierarchical RDMPI_COLL_REDUCE=hierarchical RDMPI_COLL_ALLREDUCE=hierarchical"
)
for np in ${COLL_NPS:-1 2 3 4 5 6 7 8}; do
    mpi_check "$np" "$RD_BUILDDIR/test/mpi/coll"
done
for envs in "${COLL_SETS[@]}"; do
    for np in ${COLL_FORCED_NPS:-2 3 4 5 7 8}; do
        p2p_check "$envs" "$np" "$RD_BUILDDIR/test/mpi/coll"
    done
done
done_testing

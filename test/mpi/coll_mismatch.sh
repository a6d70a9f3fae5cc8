#!/bin/bash
# Collectives with counts that do not match between ranks (test/mpi/coll_mismatch.c):
# the rank whose buffer is too small gets MPI_ERR_TRUNCATE, nothing is
# written past any buffer, nothing hangs (every run has a timeout), and the
# communicator then works. On 2 to 4 ranks with the selection table, then
# with each path forced in turn: messages only (RDMPI_COLL_SHM=0) and every
# algorithm of the menus; the small shared-memory paths alone; every size
# through the direct paths (through the stage, single copy through mapped
# buffers or by CMA, and CMA only); and as if the ranks were on 2 or 3
# nodes (the two-level algorithms). Then a mismatched Bcast under
# MPI_ERRORS_ARE_FATAL ends the job with one message naming the call, the
# rank and the cause.
. "$RD_SRCDIR/test/tap.sh"
. "$RD_SRCDIR/test/mpi/lib.sh"
prog="$RD_BUILDDIR/test/mpi/coll_mismatch"
P2P_TIMEOUT=${P2P_TIMEOUT:-300}
MISMATCH_SETS=(
    ""
    "RDMPI_COLL_SHM=0"
    "RDMPI_COLL_BCAST=binomial RDMPI_COLL_REDUCE=binomial RDMPI_COLL_ALLREDUCE=recursive_doubling RDMPI_COLL_GATHER=binomial RDMPI_COLL_SCATTER=binomial RDMPI_COLL_ALLGATHER=recursive_doubling RDMPI_COLL_ALLGATHERV=ring RDMPI_COLL_ALLTOALL=bruck RDMPI_COLL_ALLTOALLV=pairwise RDMPI_COLL_REDUCE_SCATTER=pairwise RDMPI_COLL_SCAN=recursive_doubling"
    "RDMPI_COLL_BCAST=scatter_allgather RDMPI_COLL_REDUCE=linear RDMPI_COLL_ALLREDUCE=rabenseifner RDMPI_COLL_GATHER=linear RDMPI_COLL_SCATTER=linear RDMPI_COLL_ALLGATHER=bruck RDMPI_COLL_ALLGATHERV=linear RDMPI_COLL_ALLTOALL=pairwise RDMPI_COLL_ALLTOALLV=linear RDMPI_COLL_REDUCE_SCATTER=reduce_scatterv RDMPI_COLL_SCAN=linear"
    "RDMPI_COLL_BCAST=pipeline RDMPI_COLL_SEGMENT=4k RDMPI_COLL_ALLREDUCE=ring RDMPI_COLL_ALLGATHER=ring RDMPI_COLL_ALLTOALL=linear"
    "RDMPI_COLL_BCAST=linear RDMPI_COLL_ALLREDUCE=reduce_bcast"
    "RDMPI_COLL_SHM_DIRECT_MIN=0 RDMPI_COLL_SHM_ALLREDUCE_MIN=0 RDMPI_COLL_SHM_REDUCE_MIN=0 RDMPI_COLL_SHM_ROOTED_MIN=0 RDMPI_COLL_SHM_BCAST_MAX=0"
    "RDMPI_COLL_SHM_MAX=0 RDMPI_COLL_SHM_DIRECT_MIN=1 RDMPI_COLL_SHM_ALLREDUCE_MIN=1 RDMPI_COLL_SHM_REDUCE_MIN=1 RDMPI_COLL_SHM_ROOTED_MIN=1 RDMPI_COLL_SHM_STAGED=yes"
    "RDMPI_COLL_SHM_MAX=0 RDMPI_COLL_SHM_DIRECT_MIN=1 RDMPI_COLL_SHM_ALLREDUCE_MIN=1 RDMPI_COLL_SHM_REDUCE_MIN=1 RDMPI_COLL_SHM_ROOTED_MIN=1 RDMPI_COLL_SHM_STAGED=no RDMPI_SHM_XMAP=1"
    "RDMPI_COLL_SHM_MAX=0 RDMPI_COLL_SHM_DIRECT_MIN=1 RDMPI_COLL_SHM_ROOTED_MIN=1 RDMPI_COLL_SHM_STAGED=no RDMPI_SHM_XMAP=0"
    "RDMPI_COLL_SHM=0 RDMPI_COLL_FAKE_NODES=2"
    "RDMPI_COLL_SHM=0 RDMPI_COLL_FAKE_NODES=3 RDMPI_COLL_BCAST=hierarchical RDMPI_COLL_REDUCE=hierarchical RDMPI_COLL_ALLREDUCE=hierarchical"
)
for envs in "${MISMATCH_SETS[@]}"; do
    for np in ${MISMATCH_NPS:-2 3 4}; do
        p2p_check "$envs" "$np" "$prog"
    done
done

for envs in "" "RDMPI_COLL_SHM=0" "RDMPI_SHM_XMAP=1"; do
    # shellcheck disable=SC2086 # ENV is a list of words
    err=$(env $envs timeout -k 10 60 rrun -np 2 "$prog" fatal 2>&1 >/dev/null); rc=$?
    is "$rc" 15 "${envs:+$envs: }a mismatched Bcast under MPI_ERRORS_ARE_FATAL ends the job with MPI_ERR_TRUNCATE (15)"
    like "$err" 'rdmpi: MPI_Bcast on rank 1: message truncated: .*1048576 bytes, this rank.s buffer holds 524288' \
        "${envs:+$envs: }the message names the call, the rank and the cause"
    is "$(printf '%s\n' "$err" | grep -c 'rdmpi: MPI_Bcast on rank')" 1 "${envs:+$envs: }said once, by rank 1"
done
is "$(shm_leftovers)" "" "no shared-memory segment is left in /dev/shm"
done_testing

#!/bin/bash
# Truncation (eager and rendezvous) and argument errors under MPI_ERRORS_RETURN.
. "$RD_SRCDIR/test/tap.sh"
. "$RD_SRCDIR/test/mpi/lib.sh"
. "$RD_SRCDIR/test/mpi/p2p_lib.sh"
prog="$RD_BUILDDIR/test/mpi/p2p_trunc"
for np in 1 2 3; do
    p2p_check "" "$np" "$prog"
done
for envs in "${P2P_PROTOCOLS[@]:1}"; do
    p2p_check "$envs" 2 "$prog"
done
done_testing

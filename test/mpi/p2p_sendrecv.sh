#!/bin/bash
# Sendrecv in rings and lines, Sendrecv_replace, across every protocol switch.
. "$RD_SRCDIR/test/tap.sh"
. "$RD_SRCDIR/test/mpi/lib.sh"
. "$RD_SRCDIR/test/mpi/p2p_lib.sh"
prog="$RD_BUILDDIR/test/mpi/p2p_sendrecv"
for np in 1 2 3 4; do
    p2p_check "" "$np" "$prog"
done
for envs in "${P2P_PROTOCOLS[@]:1}"; do
    p2p_check "$envs" 3 "$prog"
done
done_testing

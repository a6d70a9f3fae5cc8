#!/bin/bash
# Wait/Test families, Request_get_status, Request_free of an active send,
# 1000 outstanding receives completed out of order.
. "$RD_SRCDIR/test/tap.sh"
. "$RD_SRCDIR/test/mpi/lib.sh"
. "$RD_SRCDIR/test/mpi/p2p_lib.sh"
prog="$RD_BUILDDIR/test/mpi/p2p_wait"
for np in 1 2 3 4; do
    p2p_check "" "$np" "$prog"
done
for envs in "${P2P_PROTOCOLS[@]:1}"; do
    p2p_check "$envs" 2 "$prog"
done
done_testing

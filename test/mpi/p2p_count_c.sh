#!/bin/bash
# The large-count point-to-point calls (test/mpi/p2p_count_c.c) on 2 ranks,
# under every protocol setting (the engine is the int calls'); a count
# beyond 2^31 is p2p_large.sh's (its first run).
. "$RD_SRCDIR/test/tap.sh"
. "$RD_SRCDIR/test/mpi/lib.sh"
prog="$RD_BUILDDIR/test/mpi/p2p_count_c"
for envs in "${P2P_PROTOCOLS[@]}"; do
    p2p_check "$envs" 2 "$prog"
done
done_testing

#!/bin/bash
# Every rank pair posting 64 receives and 64 sends at once (0 B .. 1 MiB,
# persistent requests, Issend, every completion call: test/mpi/p2p_storm.c),
# on 2 and 3 ranks, under every protocol setting on 2.
. "$RD_SRCDIR/test/tap.sh"
. "$RD_SRCDIR/test/mpi/lib.sh"
. "$RD_SRCDIR/test/mpi/p2p_lib.sh"
prog="$RD_BUILDDIR/test/mpi/p2p_storm"
p2p_check "" 2 "$prog"
p2p_check "" 3 "$prog" 5
for envs in "${P2P_PROTOCOLS[@]:1}"; do
    p2p_check "$envs" 2 "$prog" 5
done
done_testing

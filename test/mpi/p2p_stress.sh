#!/bin/bash
# Random traffic among all ranks (deterministic per seed; 8 rounds of 120
# messages per rank, 0 B .. 1 MiB, every send mode, wildcard receives) under
# every protocol setting.
. "$RD_SRCDIR/test/tap.sh"
. "$RD_SRCDIR/test/mpi/lib.sh"
. "$RD_SRCDIR/test/mpi/p2p_lib.sh"
prog="$RD_BUILDDIR/test/mpi/p2p_stress"
seed=1
for np in 1 2 3 4; do
    p2p_check "" "$np" "$prog" "$seed"
    seed=$((seed + 1))
done
for envs in "${P2P_PROTOCOLS[@]:1}"; do
    p2p_check "$envs" 4 "$prog" "$seed"
    p2p_check "$envs" 3 "$prog" "$((seed + 100))"
    seed=$((seed + 1))
done
done_testing

#!/bin/bash
# Intercommunicators: creation from uneven splits, point-to-point in every
# mode, merge, dup, compare, split/create, errors; 2 to 5 ranks, then 3
# ranks under every point-to-point protocol setting.
. "$RD_SRCDIR/test/tap.sh"
. "$RD_SRCDIR/test/mpi/lib.sh"
p2p_suite intercomm "2 3 4 5" 3
done_testing

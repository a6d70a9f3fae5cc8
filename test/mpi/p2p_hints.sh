#!/bin/bash
# Communicator hints that rule out wildcards (test/mpi/p2p_hints.c): on 1
# to 4 ranks, and on 2 under every protocol setting.
. "$RD_SRCDIR/test/tap.sh"
. "$RD_SRCDIR/test/mpi/lib.sh"
. "$RD_SRCDIR/test/mpi/p2p_lib.sh"
p2p_suite p2p_hints "1 2 3 4" 2
done_testing

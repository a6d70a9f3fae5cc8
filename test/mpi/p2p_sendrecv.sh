#!/bin/bash
# Sendrecv in rings and lines, Sendrecv_replace, across every protocol switch.
. "$RD_SRCDIR/test/tap.sh"
. "$RD_SRCDIR/test/mpi/lib.sh"
. "$RD_SRCDIR/test/mpi/p2p_lib.sh"
p2p_suite p2p_sendrecv "1 2 3 4" 3
done_testing

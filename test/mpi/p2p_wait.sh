#!/bin/bash
# Wait/Test families, Request_get_status, Request_free of an active send,
# 1000 outstanding receives completed out of order; a wait idle for a
# second with RDMPI_WAIT_SLEEP set sleeps rather than spins (its CPU time).
. "$RD_SRCDIR/test/tap.sh"
. "$RD_SRCDIR/test/mpi/lib.sh"
. "$RD_SRCDIR/test/mpi/p2p_lib.sh"
p2p_suite p2p_wait "1 2 3 4" 2
p2p_check "RDMPI_WAIT_SLEEP=1000" 2 "$RD_BUILDDIR/test/mpi/p2p_wait" idle
done_testing

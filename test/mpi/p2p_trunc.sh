#!/bin/bash
# Truncation (eager and rendezvous) and argument errors under MPI_ERRORS_RETURN.
. "$RD_SRCDIR/test/tap.sh"
. "$RD_SRCDIR/test/mpi/lib.sh"
. "$RD_SRCDIR/test/mpi/p2p_lib.sh"
p2p_suite p2p_trunc "1 2 3" 2
done_testing

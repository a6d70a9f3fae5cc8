#!/bin/bash
# Persistent requests of every send mode, Start/Startall, inactive requests.
. "$RD_SRCDIR/test/tap.sh"
. "$RD_SRCDIR/test/mpi/lib.sh"
. "$RD_SRCDIR/test/mpi/p2p_lib.sh"
p2p_suite p2p_persist "1 2 3 4" 2
done_testing

#!/bin/bash
# Non-overtaking across every protocol switch (0 B .. 4 MiB), blocking and
# nonblocking, one tag and several, specific and wildcard sources.
. "$RD_SRCDIR/test/tap.sh"
. "$RD_SRCDIR/test/mpi/lib.sh"
. "$RD_SRCDIR/test/mpi/p2p_lib.sh"
p2p_suite p2p_order "2 3 4" 3
done_testing

#!/bin/bash
# Every predefined C datatype sent and received, sizes, counts, padding.
. "$RD_SRCDIR/test/tap.sh"
. "$RD_SRCDIR/test/mpi/lib.sh"
. "$RD_SRCDIR/test/mpi/p2p_lib.sh"
p2p_suite p2p_types "1 2 3 4" 2
done_testing

#!/bin/bash
# The collectives' large-count `_c` calls (test/mpi/coll_count_c.c): all 63
# on 4 ranks, then a count and a displacement beyond 2^31 on 2 ranks.
. "$RD_SRCDIR/test/tap.sh"
. "$RD_SRCDIR/test/mpi/lib.sh"
mpi_check 4 "$RD_BUILDDIR/test/mpi/coll_count_c"
P2P_TIMEOUT=300
mpi_check 2 "$RD_BUILDDIR/test/mpi/coll_count_c" big
done_testing

#!/bin/bash
# A send that cannot start for want of memory (test/mpi/p2p_nomem.c).
. "$RD_SRCDIR/test/tap.sh"
. "$RD_SRCDIR/test/mpi/lib.sh"
for np in 1 2 3; do
    mpi_check "$np" "$RD_BUILDDIR/test/mpi/p2p_nomem"
done
done_testing

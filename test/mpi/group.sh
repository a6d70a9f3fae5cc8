#!/bin/bash
# Groups on 1, 2, 3 and 4 ranks under rrun.
. "$RD_SRCDIR/test/tap.sh"
. "$RD_SRCDIR/test/mpi/lib.sh"
prog="$RD_BUILDDIR/test/mpi/group"
for np in 1 2 3 4; do
    mpi_check "$np" "$prog" "$np"
done
done_testing

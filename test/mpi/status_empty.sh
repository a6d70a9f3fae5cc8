#!/bin/bash
# The empty status of null and inactive requests, from every completion call.
. "$RD_SRCDIR/test/tap.sh"
. "$RD_SRCDIR/test/mpi/lib.sh"
for np in 1 2; do
    mpi_check "$np" "$RD_BUILDDIR/test/mpi/status_empty"
done
done_testing

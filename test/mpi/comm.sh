#!/bin/bash
# Creating communicators: dup, split, create; isolation; compare; free.
. "$RD_SRCDIR/test/tap.sh"
. "$RD_SRCDIR/test/mpi/lib.sh"
for np in 1 2 3 4; do
    mpi_check "$np" "$RD_BUILDDIR/test/mpi/comm"
done
done_testing

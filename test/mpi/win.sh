#!/bin/bash
# Windows as objects: creation, group, names, attributes, error handlers.
. "$RD_SRCDIR/test/tap.sh"
. "$RD_SRCDIR/test/mpi/lib.sh"
for np in 1 3; do
    mpi_check "$np" "$RD_BUILDDIR/test/mpi/win"
done
done_testing

#!/bin/bash
# Datatype queries: dup, names, extents, envelope and contents.
. "$RD_SRCDIR/test/tap.sh"
. "$RD_SRCDIR/test/mpi/lib.sh"
for np in 1 2; do
    mpi_check "$np" "$RD_BUILDDIR/test/mpi/typeinfo"
done
done_testing

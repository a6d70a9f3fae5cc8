#!/bin/bash
# Derived datatypes: constructors, layouts, packing, external32, attributes, errors.
. "$RD_SRCDIR/test/tap.sh"
. "$RD_SRCDIR/test/mpi/lib.sh"
for np in 1 2; do
    mpi_check "$np" "$RD_BUILDDIR/test/mpi/dtypes"
done
done_testing

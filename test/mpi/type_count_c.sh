#!/bin/bash
# The large-count datatype constructors and decoding (test/mpi/type_count_c.c), 1 rank.
. "$RD_SRCDIR/test/tap.sh"
. "$RD_SRCDIR/test/mpi/lib.sh"
mpi_check 1 "$RD_BUILDDIR/test/mpi/type_count_c"
done_testing

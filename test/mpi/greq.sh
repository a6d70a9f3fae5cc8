#!/bin/bash
# Generalized requests: callbacks, completion by another thread, errors.
. "$RD_SRCDIR/test/tap.sh"
. "$RD_SRCDIR/test/mpi/lib.sh"
mpi_check 1 "$RD_BUILDDIR/test/mpi/greq"
done_testing

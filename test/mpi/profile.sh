#!/bin/bash
# The profiling interface: a tool's MPI_ functions interpose, PMPI_ reach rdmpi.
. "$RD_SRCDIR/test/tap.sh"
. "$RD_SRCDIR/test/mpi/lib.sh"
mpi_check 2 "$RD_BUILDDIR/test/mpi/profile"
done_testing

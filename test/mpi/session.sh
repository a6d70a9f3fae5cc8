#!/bin/bash
# Sessions (test/mpi/session.c): a program that starts without MPI_Init,
# on 1 to 4 ranks.
. "$RD_SRCDIR/test/tap.sh"
. "$RD_SRCDIR/test/mpi/lib.sh"
for np in 1 2 3 4; do
    mpi_check "$np" "$RD_BUILDDIR/test/mpi/session"
done
mpi_check 3 "$RD_BUILDDIR/test/mpi/session" only
is "$(shm_leftovers)" "" "no shared-memory segment is left in /dev/shm (the library went down at MPI_Finalize)"
done_testing

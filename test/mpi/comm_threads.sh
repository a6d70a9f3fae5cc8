#!/bin/bash
# Communicators made by two threads at once (test/mpi/comm_threads.c), on 2
# and 3 ranks.
. "$RD_SRCDIR/test/tap.sh"
. "$RD_SRCDIR/test/mpi/lib.sh"
for np in 2 3; do
    mpi_check "$np" "$RD_BUILDDIR/test/mpi/comm_threads"
done
done_testing

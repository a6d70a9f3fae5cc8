#!/bin/bash
# Nonblocking file access (runtime/io/PLAN.md stage 5) on 2 ranks: progress
# without MPI calls, the individual pointer, mixed waits with p2p,
# Request_free, Cancel, errors; the files' exact bytes.
. "$RD_SRCDIR/test/tap.sh"
. "$RD_SRCDIR/test/mpi/lib.sh"
dir="$RD_BUILDDIR/test/mpi/io_nb.dir"
rm -rf "$dir" && mkdir -p "$dir" || { ok 1 "make $dir"; done_testing; }
mpi_check 2 "$RD_BUILDDIR/test/mpi/io_nb" "$dir"
left=$(ls -A "$dir")
is "$left" "" "no file is left in the test's directory"
rm -rf "$dir"
done_testing

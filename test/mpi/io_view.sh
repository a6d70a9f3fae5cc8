#!/bin/bash
# File views and independent access through them (runtime/io/PLAN.md
# stage 2) on 1-4 ranks: the file's exact bytes for interleaved views with
# holes, under data sieving on, off and automatic; on 2 ranks again under
# MPI_THREAD_MULTIPLE.
. "$RD_SRCDIR/test/tap.sh"
. "$RD_SRCDIR/test/mpi/lib.sh"
dir="$RD_BUILDDIR/test/mpi/io_view.dir"
rm -rf "$dir" && mkdir -p "$dir" || { ok 1 "make $dir"; done_testing; }
for n in 1 2 3 4; do
    mpi_check $n "$RD_BUILDDIR/test/mpi/io_view" "$dir"
done
# under MPI_THREAD_MULTIPLE (the big lock taken by every call)
mpi_check 2 "$RD_BUILDDIR/test/mpi/io_view" "$dir" threaded
left=$(ls -A "$dir")
is "$left" "" "no file is left in the test's directory"
rm -rf "$dir"
done_testing

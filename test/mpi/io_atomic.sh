#!/bin/bash
# Atomic mode (runtime/io/PLAN.md 4.4) on 2 and 4 ranks: overlapping
# strided writes are each one indivisible whole; readers see old or new.
. "$RD_SRCDIR/test/tap.sh"
. "$RD_SRCDIR/test/mpi/lib.sh"
dir="$RD_BUILDDIR/test/mpi/io_atomic.dir"
rm -rf "$dir" && mkdir -p "$dir" || { ok 1 "make $dir"; done_testing; }
mpi_check 2 "$RD_BUILDDIR/test/mpi/io_atomic" "$dir"
mpi_check 4 "$RD_BUILDDIR/test/mpi/io_atomic" "$dir"
left=$(ls -A "$dir")
is "$left" "" "no file is left in the test's directory"
rm -rf "$dir"
done_testing

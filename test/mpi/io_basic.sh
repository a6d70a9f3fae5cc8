#!/bin/bash
# The file object and contiguous access (runtime/io/PLAN.md stage 1) on 1
# and 2 ranks: every call's result and the file's exact bytes.
. "$RD_SRCDIR/test/tap.sh"
. "$RD_SRCDIR/test/mpi/lib.sh"
dir="$RD_BUILDDIR/test/mpi/io_basic.dir"
rm -rf "$dir" && mkdir -p "$dir" || { ok 1 "make $dir"; done_testing; }
mpi_check 1 "$RD_BUILDDIR/test/mpi/io_basic" "$dir"
mpi_check 2 "$RD_BUILDDIR/test/mpi/io_basic" "$dir"
left=$(ls -A "$dir")
is "$left" "" "no file is left in the test's directory"
rm -rf "$dir"
done_testing

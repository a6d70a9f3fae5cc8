#!/bin/bash
# The errors of the file object and contiguous access (runtime/io/PLAN.md
# 6) on 1 and 2 ranks: classes, messages, file error handlers.
. "$RD_SRCDIR/test/tap.sh"
. "$RD_SRCDIR/test/mpi/lib.sh"
dir="$RD_BUILDDIR/test/mpi/io_errors.dir"
rm -rf "$dir" && mkdir -p "$dir" || { ok 1 "make $dir"; done_testing; }
mpi_check 1 "$RD_BUILDDIR/test/mpi/io_errors" "$dir"
mpi_check 2 "$RD_BUILDDIR/test/mpi/io_errors" "$dir"
left=$(ls -A "$dir")
is "$left" "" "no file is left in the test's directory"
rm -rf "$dir"
done_testing

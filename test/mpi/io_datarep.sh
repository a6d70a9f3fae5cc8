#!/bin/bash
# Data representations of files (runtime/io/PLAN.md 4.7) on 1 and 2 ranks:
# external32 bytes, "internal", registered representations, their errors.
. "$RD_SRCDIR/test/tap.sh"
. "$RD_SRCDIR/test/mpi/lib.sh"
dir="$RD_BUILDDIR/test/mpi/io_datarep.dir"
rm -rf "$dir" && mkdir -p "$dir" || { ok 1 "make $dir"; done_testing; }
mpi_check 1 "$RD_BUILDDIR/test/mpi/io_datarep" "$dir"
mpi_check 2 "$RD_BUILDDIR/test/mpi/io_datarep" "$dir"
left=$(ls -A "$dir")
is "$left" "" "no file is left in the test's directory"
rm -rf "$dir"
done_testing

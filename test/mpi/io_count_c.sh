#!/bin/bash
# The large-count file accesses (test/mpi/io_count_c.c) on 1 and 2 ranks:
# every _c form's bytes in place, read back by its twin and by POSIX.
. "$RD_SRCDIR/test/tap.sh"
. "$RD_SRCDIR/test/mpi/lib.sh"
dir="$RD_BUILDDIR/test/mpi/io_count_c.dir"
rm -rf "$dir" && mkdir -p "$dir" || { ok 1 "make $dir"; done_testing; }
mpi_check 1 "$RD_BUILDDIR/test/mpi/io_count_c" "$dir"
mpi_check 2 "$RD_BUILDDIR/test/mpi/io_count_c" "$dir"
left=$(ls -A "$dir")
is "$left" "" "no file is left in the test's directory"
rm -rf "$dir"
done_testing

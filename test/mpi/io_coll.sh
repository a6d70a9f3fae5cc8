#!/bin/bash
# Collective access through MPI_File (runtime/io/coll.c, stage 3) on 1-4
# ranks: two-phase forced (many rounds, one aggregator; default
# aggregators) and automatic, the file's exact bytes (test/mpi/io_coll.c).
. "$RD_SRCDIR/test/tap.sh"
. "$RD_SRCDIR/test/mpi/lib.sh"
dir="$RD_BUILDDIR/test/mpi/io_coll.dir"
rm -rf "$dir" && mkdir -p "$dir" || { ok 1 "make $dir"; done_testing; }
for np in 1 2 3 4; do
    mpi_check $np "$RD_BUILDDIR/test/mpi/io_coll" "$dir"
done
left=$(ls -A "$dir")
is "$left" "" "no file is left in the test's directory"
rm -rf "$dir"
done_testing

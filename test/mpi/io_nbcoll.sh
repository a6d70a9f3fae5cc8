#!/bin/bash
# Nonblocking collective file access (MPI_File_iwrite_all ...; runtime/io/
# coll.c) and split collectives on 1-4 ranks: two phases overlapped with
# communication, the automatic choice, several accesses in flight, a
# request freed, errors at the call and at the wait; the files' exact bytes
# (test/mpi/io_nbcoll.c).
. "$RD_SRCDIR/test/tap.sh"
. "$RD_SRCDIR/test/mpi/lib.sh"
dir="$RD_BUILDDIR/test/mpi/io_nbcoll.dir"
rm -rf "$dir" && mkdir -p "$dir" || { ok 1 "make $dir"; done_testing; }
for np in 1 2 3 4; do
    mpi_check $np "$RD_BUILDDIR/test/mpi/io_nbcoll" "$dir"
done
left=$(ls -A "$dir")
is "$left" "" "no file is left in the test's directory"
rm -rf "$dir"
done_testing

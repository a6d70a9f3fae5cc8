#!/bin/bash
# MPI-IO used by a hostile or unlucky program (test/mpi/io_hostile.c): odd
# paths, different files, huge offsets, garbage hints, foreign handles on 1
# and 2 ranks; a fatal open, MPI_Finalize with a file open, a rank killed
# with a file open.
. "$RD_SRCDIR/test/tap.sh"
. "$RD_SRCDIR/test/mpi/lib.sh"
prog="$RD_BUILDDIR/test/mpi/io_hostile"
dir="$RD_BUILDDIR/test/mpi/io_hostile.dir"
rm -rf "$dir" && mkdir -p "$dir" || { ok 1 "make $dir"; done_testing; }
mpi_check 1 "$prog" "$dir"
mpi_check 2 "$prog" "$dir"
left=$(ls -A "$dir")
is "$left" "" "no file is left in the test's directory"

# MPI_ERRORS_ARE_FATAL on MPI_FILE_NULL: rank 1's failing open ends the job
err=$(timeout 60 rrun -np 2 "$prog" "$dir" fatal 2>&1 >/dev/null); rc=$?
is "$rc" 42 "a fatal open ends the job with MPI_ERR_NO_SUCH_FILE (42) as status"
like "$err" "rdmpi: MPI_File_open on rank 1: cannot open '[^']*/missing.dat': No such file" \
    "the rank says which call, which rank and why"
is "$(pgrep -f "$prog $dir fatal" | wc -l)" 0 "no rank of the job is left running"

# MPI_Finalize with a file still open (erroneous): no crash, the data written
rrun -np 2 "$prog" "$dir" leak >/dev/null 2>&1; rc=$?
is "$rc" 0 "MPI_Finalize with a file open: the job exits 0"
is "$(cat "$dir/leak.dat" 2>&1)" "aaaaaaaabbbbbbbb" "the data written before MPI_Finalize is in the file"
rm -f "$dir/leak.dat"

# a rank killed between a collective open and the collective write and
# close: the job ends, nothing is left running; the file of a
# DELETE_ON_CLOSE open is left behind (no rank reached the deletion)
err=$(timeout 60 rrun -np 2 "$prog" "$dir" kill 2>&1 >/dev/null); rc=$?
ok "$([ "$rc" -ne 0 ] && [ "$rc" -ne 124 ]; echo $?)" "a killed rank ends the job promptly (status $rc)"
like "$err" "rank 1" "rrun names the rank that died"
is "$(pgrep -f "$prog $dir kill" | wc -l)" 0 "no rank of the job is left running"
is "$(ls -A "$dir")" "kill.dat" "the DELETE_ON_CLOSE file is left behind"
is "$(shm_leftovers)" "" "no shared-memory segment is left in /dev/shm"
rm -rf "$dir"
done_testing

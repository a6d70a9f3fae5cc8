#!/bin/bash
# Errors under MPI_ERRORS_ARE_FATAL: one clear message, the job ends, nothing
# left running. Also MPI_Init_thread at every level.
. "$RD_SRCDIR/test/tap.sh"
. "$RD_SRCDIR/test/mpi/lib.sh"
prog="$RD_BUILDDIR/test/mpi/fatal"

for level in 0 1 2 3; do
    mpi_check 2 "$prog" thread "$level"
done

err=$(timeout 60 rrun -np 3 "$prog" comm 2>&1 >/dev/null); rc=$?
is "$rc" 5 "a bad communicator on rank 1 ends the job with MPI_ERR_COMM (5) as status"
like "$err" 'rdmpi: MPI_Comm_rank on rank 1: invalid communicator \(MPI_ERR_COMM: invalid communicator\)' \
    "the rank says which call, which rank and why"
is "$(printf '%s\n' "$err" | grep -c 'rdmpi: MPI_Comm_rank on rank 1')" 1 "said once"
left=$(pgrep -f "$prog comm" | wc -l)
is "$left" 0 "no rank of the job is left running"
is "$(shm_leftovers)" "" "no shared-memory segment is left in /dev/shm"

err=$(timeout 60 rrun -np 2 "$prog" before 2>&1 >/dev/null); rc=$?
ok $([ "$rc" -ne 0 ]; echo $?) "a call before MPI_Init fails the job (status $rc)"
like "$err" 'rdmpi: MPI_Comm_size on rank [01]: called before MPI_Init' "and says so"
done_testing

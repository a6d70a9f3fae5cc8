#!/bin/bash
# Error classes, codes and strings added at run time (test/mpi/errcodes.c),
# and an added code raised under MPI_ERRORS_ARE_FATAL: the job ends with
# the code as status and the program's string in its message.
. "$RD_SRCDIR/test/tap.sh"
. "$RD_SRCDIR/test/mpi/lib.sh"
prog="$RD_BUILDDIR/test/mpi/errcodes"

mpi_check 2 "$prog"

err=$(timeout 60 rrun -np 2 "$prog" fatal 2>&1 >/dev/null); rc=$?
is "$rc" 80 "rank 1's added code (MPI_ERR_LASTCODE + 2 = 80) is the job's status"
like "$err" 'rdmpi: MPI_Comm_call_errhandler on rank 1: error code 80 raised by the program \(the reactor is too hot\)' \
    "the message names the call, the rank, the code and the program's string"
is "$(pgrep -f "$prog fatal" | wc -l)" 0 "no rank of the job is left running"
is "$(shm_leftovers)" "" "no shared-memory segment is left in /dev/shm"
done_testing

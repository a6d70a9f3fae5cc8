#!/bin/sh
# MPI_Abort through librdmpi ends the job: rrun exits with the code, prints
# one message, and no rank is left.
. "$RD_SRCDIR/test/tap.sh"
. "$RD_SRCDIR/test/launcher/rrun_lib.sh"

[ -x "$PROGS/rrun_mpi_abort" ] || skip_all "test/progs/rrun_mpi_abort (librdmpi) is not built"

new_pid_dir abort
run_rrun -np 3 "$PROGS/rrun_mpi_abort" 1 6
is "$RC" 6 "MPI_Abort(6): rrun exits 6"
RRUN_LINE=$(printf '%s\n' "$ERR" | grep '^rrun:')
like "$RRUN_LINE" "^rrun: rank 1 \(pid $(pid_of 1)\) called MPI_Abort with code 6(: .*)?$" \
    "MPI_Abort: the message names rank, pid and code"
is "$(printf '%s\n' "$ERR" | grep -c '^rrun:')" 1 "MPI_Abort: exactly one rrun message"
ok "$([ "$ELAPSED_MS" -lt 10000 ] && echo 0 || echo 1)" \
    "MPI_Abort: the job ended promptly (${ELAPSED_MS} ms) while the other ranks slept"
check_cleanup "MPI_Abort" 3
done_testing

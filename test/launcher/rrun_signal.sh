#!/bin/sh
# SIGINT and SIGTERM sent to rrun are forwarded to every rank; rrun ends the
# job and exits 128+signal, leaving no process and no session directory.
. "$RD_SRCDIR/test/tap.sh"
. "$RD_SRCDIR/test/launcher/rrun_lib.sh"

signal_case() { # SIGNAL NUMBER NAME
    new_pid_dir "sig$2"
    # timeout(1) passes the signal on to rrun and exits with rrun's status.
    timeout "$HANG_GUARD" rrun -np 3 "$PROGS/rrun_fail" sleep >"$T/out" 2>"$T/err" </dev/null &
    bg=$!
    wait_for_pid_files 3
    kill -s "$1" $bg
    wait $bg
    RC=$?
    is "$RC" $((128 + $2)) "SIG$1: rrun exits $((128 + $2))"
    is "$(cat "$T/err")" "rrun: received signal $2 ($3); ending the job" "SIG$1: one message"
    check_cleanup "SIG$1" 3
}
signal_case INT 2 Interrupt
signal_case TERM 15 Terminated
signal_case HUP 1 Hangup
done_testing

#!/bin/sh
# Every way a job fails ends the whole job promptly while the other ranks
# are blocked (sleeping 60 s): rrun's exit status, exactly one message naming
# the rank, its pid and the cause, no process left, no session directory.
. "$RD_SRCDIR/test/tap.sh"
. "$RD_SRCDIR/test/launcher/rrun_lib.sh"

# fail_case NAME STATUS MESSAGE-WITHOUT-PID... : see below. The rank and the
# pid come from the pid files, so the message is checked exactly.
fail_case() { # NAME EXPECTED-STATUS FAILING-RANK MESSAGE-AFTER-PID RRUN-ARGS...
    _name=$1
    _status=$2
    _rank=$3
    _msg=$4
    shift 4
    new_pid_dir "$(echo "$_name" | tr -c 'a-z0-9\n' _)"
    run_rrun "$@"
    is "$RC" "$_status" "$_name: rrun exits $_status"
    is "$ERR" "rrun: rank $_rank (pid $(pid_of "$_rank")) $_msg" "$_name: exactly one message"
    ok "$([ "$ELAPSED_MS" -lt 10000 ] && echo 0 || echo 1)" \
        "$_name: the job ended promptly (${ELAPSED_MS} ms) while the other ranks slept"
    diag "$_name: ended in ${ELAPSED_MS} ms"
    check_cleanup "$_name" "$NP"
}

NP=3
fail_case "rank killed by SIGKILL" 137 1 "was killed by signal 9 (Killed); ending the job" \
    -np $NP "$PROGS/rrun_fail" kill 1
fail_case "rank exits 3" 3 2 "exited with status 3; ending the job" \
    -np $NP "$PROGS/rrun_fail" exit 2 3
fail_case "rank exits 0 without finalize" 1 1 \
    "exited without calling MPI_Finalize; ending the job" \
    -np $NP "$PROGS/rrun_fail" nofinalize 1
fail_case "PMIx_Abort(7) with a message" 7 1 "called MPI_Abort with code 7: rrun_fail abort" \
    -np $NP "$PROGS/rrun_fail" abort 1 7
fail_case "PMIx_Abort(5) without a message, then exit" 5 0 "called MPI_Abort with code 5" \
    -np $NP "$PROGS/rrun_fail" abortquiet 0 5
# Code 0 is passed on as given: the job still ends, with the message.
fail_case "PMIx_Abort(0)" 0 2 "called MPI_Abort with code 0: rrun_fail abort" \
    -np $NP "$PROGS/rrun_fail" abort 2 0
# Codes keep their low 8 bits, but a failure never becomes success.
fail_case "PMIx_Abort(256)" 1 0 "called MPI_Abort with code 256: rrun_fail abort" \
    -np $NP "$PROGS/rrun_fail" abort 0 256
NP=4
fail_case "rank killed, 4 ranks oversubscribed" 137 3 \
    "was killed by signal 9 (Killed); ending the job" \
    -np $NP "$PROGS/rrun_fail" kill 3

# Every rank failing at once still gives one message only.
new_pid_dir allfail
run_rrun -np 3 "$PROGS/rrun_fail" exit -1 4
is "$RC" 4 "all ranks exit 4: rrun exits 4"
like "$ERR" '^rrun: rank [0-2] \(pid [0-9]+\) exited with status 4; ending the job$' \
    "all ranks exit 4: exactly one message"
check_cleanup "all ranks exit 4" 3

# Every rank calls MPI_Abort, then exits with the code (as both ends of a
# failed connection do): the message is an abort, whichever came first,
# never the exit of a rank whose abort was not the first (it was in 6 of
# 20 such jobs, when only the job's first abort was recorded).
for i in 1 2 3 4 5; do
    new_pid_dir "allabort$i"
    run_rrun -np 3 "$PROGS/rrun_fail" abortquiet -1 5
    is "$RC" 5 "all ranks abort with 5 and exit 5 (job $i of 5): rrun exits 5"
    like "$ERR" '^rrun: rank [0-2] \(pid [0-9]+\) called MPI_Abort with code 5$' \
        "all ranks abort with 5 and exit 5 (job $i of 5): exactly one message, an abort"
    check_cleanup "all ranks abort (job $i of 5)" 3
done

# The whole job succeeds: exit 0, no message.
new_pid_dir ok
run_rrun -np 3 "$PROGS/rrun_fail" ok
is "$RC" 0 "finalized job: exit status 0"
is "$ERR" "" "finalized job: no message"
check_cleanup "finalized job" 3

# --timeout: the job sleeps longer than allowed.
new_pid_dir timeout
run_rrun -np 2 --timeout 1 "$PROGS/rrun_fail" sleep
is "$RC" 124 "--timeout 1: rrun exits 124"
is "$(printf '%s\n' "$ERR" | tail -1)" "rrun: job exceeded the --timeout of 1 s; ending it" "--timeout 1: the message, last"
is "$(printf '%s\n' "$ERR" | grep -c "is connected to PMIx but not (or not yet) in MPI")" 2 \
    "--timeout 1: first the report: both ranks are PMIx clients, not in MPI"
ok "$([ "$ELAPSED_MS" -ge 1000 ] && [ "$ELAPSED_MS" -lt 10000 ] && echo 0 || echo 1)" \
    "--timeout 1: ended after the timeout, promptly (${ELAPSED_MS} ms)"
check_cleanup "--timeout" 2

# A job that ends before its timeout is not affected by it.
run_rrun -np 2 --timeout 30 /bin/true
is "$RC" 0 "--timeout 30 on a short job: exit status 0"
is "$ERR" "" "--timeout 30 on a short job: no message"

done_testing

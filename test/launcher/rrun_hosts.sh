#!/bin/sh
# rrun over several hosts (--host, --hostfile, --launch-agent), with a
# launch agent that starts each host's daemon on this machine
# (agent_local.sh): rank placement, output, the job's environment, every
# failure (rank, daemon, head, launch agent) ending the job with one message
# naming the rank and its host, and nothing left behind. The same job over
# hosts that are network namespaces is rrun_netns.sh.
. "$RD_SRCDIR/test/tap.sh"
. "$RD_SRCDIR/test/launcher/rrun_lib.sh"
AGENT="$RD_SRCDIR/test/launcher/agent_local.sh"
# Ranks on different "hosts" talk through a network transport: loopback only.
export FI_PROVIDER=tcp FI_TCP_IFACE=lo UCX_TLS=tcp UCX_NET_DEVICES=lo

# --- placement: slots fill in order; each daemon started through the agent
run_rrun --host a:2,b:2 --launch-agent "$AGENT" "$PROGS/rrun_probe" env RRUN_TEST_HOST
is "$RC" 0 "--host a:2,b:2: exit status"
is "$(printf '%s\n' "$OUT" | sort)" "rank 0 RRUN_TEST_HOST=a
rank 1 RRUN_TEST_HOST=a
rank 2 RRUN_TEST_HOST=b
rank 3 RRUN_TEST_HOST=b" "--host a:2,b:2: ranks 0,1 on a and 2,3 on b (-np defaults to the slots)"
is "$ERR" "" "--host a:2,b:2: nothing on stderr"
check_no_leftovers "--host a:2,b:2"

run_rrun -np 3 --host a,a,b:4 --launch-agent "$AGENT" "$PROGS/rrun_probe" env RRUN_TEST_HOST
is "$(printf '%s\n' "$OUT" | sort)" "rank 0 RRUN_TEST_HOST=a
rank 1 RRUN_TEST_HOST=a
rank 2 RRUN_TEST_HOST=b" "-np 3 --host a,a,b:4: a name given twice adds up; b gets what is left"

cat >"$T/hosts" <<'HF'
# two hosts
b slots=1   # first in the file, first to fill
a:2

HF
run_rrun --hostfile "$T/hosts" --launch-agent "$AGENT" --tag-output "$PROGS/rrun_probe" env RRUN_TEST_HOST
is "$RC" 0 "--hostfile: exit status"
is "$(printf '%s\n' "$OUT" | sort)" "[0] rank 0 RRUN_TEST_HOST=b
[1] rank 1 RRUN_TEST_HOST=a
[2] rank 2 RRUN_TEST_HOST=a" "--hostfile with 'slots=' and ':N' lines, comments, blank lines; --tag-output"

# -x and the head's RDMPI_* parameters reach the ranks on every host
RDMPI_LOG=warn run_rrun --host a:1,b:1 --launch-agent "$AGENT" -x RRUN_T1=x1 -x RRUN_T2 \
    "$PROGS/rrun_probe" env RRUN_T1 RRUN_T2 RDMPI_LOG
is "$(printf '%s\n' "$OUT" | sort)" "rank 0 RDMPI_LOG=warn
rank 0 RRUN_T1=x1
rank 0 RRUN_T2 unset
rank 1 RDMPI_LOG=warn
rank 1 RRUN_T1=x1
rank 1 RRUN_T2 unset" "-x VAR=value, -x VAR (unset at the head) and RDMPI_* go to every host"

# output: long lines of two hosts' ranks are never mixed
run_rrun --host a:1,b:1 --launch-agent "$AGENT" "$PROGS/rrun_probe" lines 50
is "$RC" 0 "lines: exit status"
is "$(printf '%s\n' "$OUT" | grep -cvE '^out rank ([01]) line [0-9]+ (a{300}|b{300}) end$')" 0 \
    "lines: every stdout line arrived whole"
is "$(printf '%s\n' "$OUT" | wc -l)" 100 "lines: 50 lines from each rank on stdout"
is "$(printf '%s\n' "$ERR" | wc -l)" 100 "lines: 50 lines from each rank on stderr"

# rank 0 reads rrun's stdin through its daemon, the others /dev/null
printf 'line one\nline two\n' | timeout "$HANG_GUARD" rrun --host a:1,b:1 --launch-agent "$AGENT" \
    "$PROGS/rrun_probe" stdin >"$T/out" 2>"$T/err"
is "$?" 0 "stdin: exit status"
is "$(sort "$T/out")" "line one
line two
rank 0 stdin done
rank 1 stdin done" "stdin: rank 0 on host a got rrun's stdin once; rank 1 read /dev/null"
head -c 3000000 /dev/urandom >"$T/big.in"
timeout "$HANG_GUARD" rrun --host a:1,b:1 --launch-agent "$AGENT" \
    sh -c 'if [ "$PMIX_RANK" = 0 ]; then cksum; fi' <"$T/big.in" >"$T/out" 2>"$T/err"
is "$(cat "$T/out")" "$(cksum <"$T/big.in")" "stdin: 3 MB arrive intact (checksum)"
timeout "$HANG_GUARD" rrun --host a:1,b:1 --launch-agent "$AGENT" \
    sh -c 'if [ "$PMIX_RANK" = 0 ]; then head -c 10 >/dev/null; fi; echo rank $PMIX_RANK' <"$T/big.in" >"$T/out" 2>"$T/err"
is "$?:$(sort "$T/out")" "0:rank 0
rank 1" "stdin: a rank 0 that reads 10 bytes of 3 MB and exits ends normally"

# this machine by name: its daemon is forked without the agent
run_rrun --host localhost:2 --launch-agent /nonexistent/agent "$PROGS/rrun_probe" env RRUN_TEST_HOST
is "$RC" 0 "--host localhost:2: runs without the launch agent"
is "$(printf '%s\n' "$OUT" | sort)" "rank 0 RRUN_TEST_HOST unset
rank 1 RRUN_TEST_HOST unset" "--host localhost:2: both ranks here"

# --- MPI programs across the hosts (network transports between them)
run_rrun --host a:2,b:2 --launch-agent "$AGENT" "$RD_BUILDDIR/examples/hello"
is "$(printf '%s\n' "$OUT" | sort)" "Hello from rank 0 of 4 on a
Hello from rank 1 of 4 on a
Hello from rank 2 of 4 on b
Hello from rank 3 of 4 on b" "MPI hello: every rank, with its host's name as processor name"
for prog in coll p2p_order; do
    run_rrun --host a:2,b:2 --launch-agent "$AGENT" "$RD_BUILDDIR/test/mpi/$prog"
    is "$RC" 0 "MPI $prog across two hosts: exit status"
    is "$(printf '%s\n' "$OUT" | grep -c '^not ok')" 0 "MPI $prog across two hosts: no failed point"
    ok "$([ "$(printf '%s\n' "$OUT" | grep -c '^ok')" -gt 10 ] && echo 0 || echo 1)" \
        "MPI $prog across two hosts: its points ran"
done

# --- usage errors: nothing starts
run_rrun -np 5 --host a:2,b:2 --launch-agent "$AGENT" "$PROGS/rrun_probe" env X
is "$RC" 2 "-np above the slots: exit 2"
is "$ERR" "rrun: -np 5 is more than the 4 slots of the hosts given" "-np above the slots: message"
run_rrun --host 'a:0' --launch-agent "$AGENT" "$PROGS/rrun_probe" env X
is "$RC" 2 "--host a:0: exit 2"
is "$ERR" "rrun: --host: bad host entry 'a:0' (expected name or name:N)" "--host a:0: message"
printf 'a slots=x\n' >"$T/bad"
run_rrun --hostfile "$T/bad" --launch-agent "$AGENT" "$PROGS/rrun_probe" env X
is "$RC" 2 "bad hostfile line: exit 2"
is "$ERR" "rrun: $T/bad:1: bad line (expected 'name', 'name:N' or 'name slots=N')" "bad hostfile line: message"
run_rrun --host a:1 --launch-agent /nonexistent/agent "$PROGS/rrun_probe" env X
is "$RC" 127 "missing launch agent: exit 127"
is "$ERR" "rrun: cannot run the launch agent '/nonexistent/agent' for host a: No such file or directory" \
    "missing launch agent: message"
run_rrun --host a:1,b:1 --launch-agent "$AGENT" ./no-such-program
is "$RC" 127 "missing program: exit 127"
like "$ERR" "^rrun: host [ab]: cannot run './no-such-program': No such file or directory; ending the job\$" \
    "missing program: one message naming the host that failed first"
check_no_leftovers "missing program"

# --- a failing rank on one host ends the job on all of them
host_fail_case() { # NAME STATUS RANK HOST MESSAGE RRUN_FAIL-ARGS...
    _name=$1 _status=$2 _rank=$3 _host=$4 _msg=$5
    shift 5
    new_pid_dir "$(echo "$_name" | tr -c 'a-z0-9\n' _)"
    run_rrun --host a:2,b:2 --launch-agent "$AGENT" "$PROGS/rrun_fail" "$@"
    is "$RC" "$_status" "$_name: rrun exits $_status"
    is "$ERR" "rrun: rank $_rank (pid $(pid_of "$_rank") on $_host) $_msg" "$_name: exactly one message"
    ok "$([ "$ELAPSED_MS" -lt 10000 ] && echo 0 || echo 1)" \
        "$_name: the job ended promptly (${ELAPSED_MS} ms) while the other ranks slept"
    check_cleanup "$_name" 4
}
host_fail_case "hosts: rank killed" 137 3 b "was killed by signal 9 (Killed); ending the job" kill 3
host_fail_case "hosts: rank exits 3" 3 2 b "exited with status 3; ending the job" exit 2 3
host_fail_case "hosts: no finalize" 1 1 a "exited without calling MPI_Finalize; ending the job" nofinalize 1
host_fail_case "hosts: abort" 7 3 b "called MPI_Abort with code 7: rrun_fail abort" abort 3 7
# every rank aborts, then exits with the code: an abort is the cause, not
# the exit of a rank whose abort reached the head second (it was in 12 of
# 12 such jobs, when the daemons passed on only their host's first abort)
for i in 1 2 3; do
    new_pid_dir "hosts_allabort$i"
    run_rrun --host a:2,b:2 --launch-agent "$AGENT" "$PROGS/rrun_fail" abortquiet -1 5
    is "$RC" 5 "hosts: all ranks abort with 5 and exit 5 (job $i of 3): rrun exits 5"
    like "$ERR" '^rrun: rank [0-3] \(pid [0-9]+ on [ab]\) called MPI_Abort with code 5$' \
        "hosts: all ranks abort with 5 and exit 5 (job $i of 3): exactly one message, an abort"
    check_cleanup "hosts: all ranks abort (job $i of 3)" 4
done

# --timeout and signals to rrun reach every host
new_pid_dir timeout
run_rrun --host a:2,b:2 --launch-agent "$AGENT" --timeout 1 "$PROGS/rrun_fail" sleep
is "$RC" 124 "hosts: --timeout: exit 124"
is "$(printf '%s\n' "$ERR" | tail -1)" "rrun: job exceeded the --timeout of 1 s; ending it" "hosts: --timeout: message"
is "$(printf '%s\n' "$ERR" | grep -c "^rrun:   rank [0-3] (pid [0-9]* on [ab]) is connected to PMIx but not")" 4 \
    "hosts: --timeout: the report names every rank and its host"
check_cleanup "hosts: --timeout" 4

new_pid_dir sigterm
timeout "$HANG_GUARD" rrun --host a:2,b:2 --launch-agent "$AGENT" "$PROGS/rrun_fail" sleep \
    >"$T/out" 2>"$T/err" </dev/null &
bg=$!
wait_for_pid_files 4
kill -s TERM $bg
wait $bg
is "$?" 143 "hosts: SIGTERM to rrun: exit 143"
is "$(cat "$T/err")" "rrun: received signal 15 (Terminated); ending the job" "hosts: SIGTERM: one message"
check_cleanup "hosts: SIGTERM" 4

# A daemon that dies ends the job; the ranks it served die with it.
new_pid_dir daemon
rrun --host a:2,b:2 --launch-agent "$AGENT" "$PROGS/rrun_fail" sleep >"$T/out" 2>"$T/err" </dev/null &
bg=$!
wait_for_pid_files 4
dpid=$(ps -o ppid= -p "$(pid_of 2)" | tr -d ' ')
kill -9 "$dpid"
wait $bg
is "$?" 1 "hosts: daemon of b killed: exit 1"
is "$(cat "$T/err")" "rrun: host b: its daemon ended before its ranks did (launch agent killed by signal 9); ending the job" \
    "hosts: daemon killed: one message naming the host"
# (the killed daemon could not remove its own session directory: take it away)
rm -rf "$RRUN_TMP"/* 
check_cleanup "hosts: daemon killed" 4

# A head that dies: every daemon sees its channel close, ends its ranks and
# cleans up its host.
new_pid_dir head
rrun --host a:2,b:2 --launch-agent "$AGENT" "$PROGS/rrun_fail" sleep >"$T/out" 2>"$T/err" </dev/null &
bg=$!
wait_for_pid_files 4
kill -9 $bg
wait $bg 2>/dev/null
# bounded wait for the daemons to end their ranks (polls, at most 10 s)
for _ in $(seq 200); do
    _alive=0
    for f in "$RRUN_TEST_DIR"/pid.*; do
        _p=$(cat "$f")
        kill -0 "$_p" 2>/dev/null && [ "$(ps -o stat= -p "$_p" | cut -c1)" != Z ] && _alive=1
    done
    [ $_alive = 0 ] && [ -z "$(ls -A "$RRUN_TMP")" ] && break
    sleep 0.05
done
check_cleanup "hosts: head killed" 4
done_testing

#!/bin/bash
# rrun's report of what every rank waits for (launcher/rrun/report.c,
# runtime/base/report.c), on jobs that hang on purpose (test/mpi/hang.c): on
# --timeout and MPIEXEC_TIMEOUT before the job ends, on SIGUSR1 and through
# `rrun --report-pending PID` while the job goes on, on one host and over
# two; a deadlock (its cycle named), a stopped rank, a rank computing
# outside MPI, ranks polling with MPI_Test/Testsome/Iprobe, collectives
# through the node's memory and by messages.
. "$RD_SRCDIR/test/tap.sh"
. "$RD_SRCDIR/test/launcher/rrun_lib.sh"
HANG="$RD_BUILDDIR/test/mpi/hang"
AGENT="$RD_SRCDIR/test/launcher/agent_local.sh"
export FI_PROVIDER=tcp FI_TCP_IFACE=lo UCX_TLS=tcp UCX_NET_DEVICES=lo
# The hung ranks wait for seconds: let their waits sleep 1 ms between polls
# (RDMPI_WAIT_SLEEP) rather than keep both cores busy for nothing (~30 s of
# two cores a run). The report is answered from inside the waits, so this
# also checks that a sleeping wait still answers it.
export RDMPI_WAIT_SLEEP=1000
P='\(pid [0-9]+\)'

# has LINE-REGEX NAME: some whole line of $ERR matches
has() {
    if printf '%s\n' "$ERR" | grep -Eq -- "^$1\$"; then ok 0 "$2"; else
        ok 1 "$2"
        diag "no line matches: ^$1\$" "in: $ERR"
    fi
}

# --- a deadlock, found at the --timeout
new_pid_dir cycle
run_rrun --timeout 3 -np 3 "$HANG" cycle
is "$RC" 124 "cycle: the --timeout ends the job (124)"
has "rrun: what the ranks are waiting for \(the --timeout of 3 s has passed\):" "cycle: the report says why"
has "rrun:   rank 0 $P in MPI_Recv" "cycle: rank 0 is in MPI_Recv"
has "rrun:       receive from rank 1, tag 7, on MPI_COMM_WORLD, up to 4 bytes: no message has matched it" \
    "cycle: rank 0's receive: peer, tag, communicator, bytes"
has "rrun:   rank 1 $P in MPI_Recv" "cycle: rank 1 is in MPI_Recv"
has "rrun:       unexpected: a message from rank 0, tag 3, 8 bytes, on MPI_COMM_WORLD, that no receive has matched" \
    "cycle: rank 1's unexpected message"
has "rrun:       receive from rank 0, tag 7, on MPI_COMM_WORLD, up to 4 bytes: no message has matched it" \
    "cycle: rank 1's receive"
has "rrun:   rank 2 $P in MPI_Barrier" "cycle: rank 2 is in MPI_Barrier"
has "rrun: likely cycle: rank 0 waits to receive from 1, tag 7; rank 1 waits to receive from 0, tag 7" \
    "cycle: the cycle is named"
is "$(printf '%s\n' "$ERR" | tail -1)" "rrun: job exceeded the --timeout of 3 s; ending it" \
    "cycle: then the timeout's message"
check_cleanup "cycle" 3

# the same by messages (no node-local collectives), and MPIEXEC_TIMEOUT
new_pid_dir cycle-msg
MPIEXEC_TIMEOUT=3 RDMPI_COLL_SHM=0 run_rrun -np 3 "$HANG" cycle
is "$RC" 124 "cycle by messages: MPIEXEC_TIMEOUT ends the job"
has "rrun: what the ranks are waiting for \(the MPIEXEC_TIMEOUT of 3 s has passed\):" \
    "cycle by messages: the report names MPIEXEC_TIMEOUT"
has "rrun:       receive from rank [01], a collective's message, on MPI_COMM_WORLD, up to 0 bytes: no message has matched it" \
    "cycle by messages: rank 2's Barrier waits for a collective's message"
has "rrun: likely cycle: rank 0 waits to receive from 1, tag 7; rank 1 waits to receive from 0, tag 7" \
    "cycle by messages: the cycle is named"
check_cleanup "cycle by messages" 3

# --- a stopped rank
new_pid_dir stopped
run_rrun --timeout 3 -np 3 "$HANG" stopped
is "$RC" 124 "stopped: the --timeout ends the job"
has "rrun:   rank [01] $P in MPI_Allreduce" "stopped: the others are in MPI_Allreduce"
has "rrun:       node-local collective #2 on MPI_COMM_WORLD: waits for rank 2 to arrive at it" \
    "stopped: they wait for rank 2 to arrive"
has "rrun:   rank 2 $P is stopped \(SIGSTOP, or a debugger\): it cannot take part" "stopped: rank 2 is stopped"
has "rrun: rank 0 waits for 2 to arrive at node-local collective #2; rank 2 is stopped \(SIGSTOP, or a debugger\): it cannot take part" \
    "stopped: the summary names who everyone waits for"
check_cleanup "stopped" 3

# --- a rank computing outside MPI; a rendezvous Bcast and an Ssend wait for it
new_pid_dir busy
RDMPI_COLL_SHM=0 run_rrun --timeout 3 -np 3 "$HANG" busy
has "rrun:   rank 0 $P in MPI_Ssend" "busy: rank 0 is in MPI_Ssend"
has "rrun:       synchronous send to rank 2, tag 5, on MPI_COMM_WORLD, 4 bytes: the receiver has not taken it yet" \
    "busy: the synchronous send waits for its receiver"
has "rrun:   rank 1 $P in MPI_Bcast" "busy: rank 1 is in MPI_Bcast"
has "rrun:   rank 2 $P is not waiting in MPI: computing, or blocked outside MPI" "busy: rank 2 computes"
has "rrun: rank 0 waits to synchronously send to 2, tag 5; rank 2 is not waiting in MPI: computing, or blocked outside MPI" \
    "busy: the summary"
check_cleanup "busy" 3

# --- ranks that poll: loops on MPI_Test, MPI_Testsome and MPI_Iprobe answer
new_pid_dir testloop
run_rrun --timeout 3 -np 3 "$HANG" testloop
is "$RC" 124 "testloop: the --timeout ends the job"
has "rrun:   rank 0 $P in MPI_Test" "testloop: rank 0 polls in MPI_Test"
has "rrun:       receive from rank 1, tag 9, on MPI_COMM_WORLD, up to 4 bytes: no message has matched it" \
    "testloop: rank 0's receive"
has "rrun:   rank 1 $P in MPI_Testsome" "testloop: rank 1 polls in MPI_Testsome"
has "rrun:   rank 2 $P in MPI_Iprobe" "testloop: rank 2 polls in MPI_Iprobe"
has "rrun: likely cycle: rank 0 waits to receive from 1, tag 9; rank 1 waits to receive from 0, tag 9" \
    "testloop: the cycle is named"
check_cleanup "testloop" 3

# --- on demand, while the job goes on: SIGUSR1, then rrun --report-pending
for how in signal report-pending; do
    new_pid_dir "late-$how"
    rrun -np 3 "$HANG" late 4 >"$T/out" 2>"$T/err" </dev/null &
    rpid=$!
    wait_for_pid_files 3
    _i=0
    while [ "$(ls "$RRUN_TEST_DIR" | grep -c '^ready\.')" -lt 3 ] && [ $_i -lt 600 ]; do
        sleep 0.05
        _i=$((_i + 1))
    done
    if [ $how = signal ]; then
        kill -USR1 $rpid
        asked=""
    else
        asked=$(rrun --report-pending $rpid)
    fi
    wait $rpid
    RC=$?
    ERR=$(cat "$T/err")
    is "$RC" 0 "$how: the job goes on and ends normally"
    is "$(sort "$T/out")" "rank 0 done
rank 1 done
rank 2 done" "$how: every rank finished"
    has "rrun: what the ranks are waiting for \(asked for\):" "$how: the report was printed"
    has "rrun:   rank 2 $P is not waiting in MPI: computing, or blocked outside MPI" "$how: rank 2 was busy"
    has "rrun:   rank 0 $P in MPI_Barrier" "$how: rank 0 waited in MPI_Barrier"
    if [ $how = report-pending ]; then
        like "$asked" "^rrun: what the ranks are waiting for \(asked for\):" \
            "report-pending: the asker gets the report too"
        is "$(printf '%s\n' "$asked" | wc -l)" "$(printf '%s\n' "$ERR" | grep -c '^rrun: ')" \
            "report-pending: the same lines as on rrun's stderr"
    fi
    check_cleanup "$how" 3
done
run_rrun --report-pending 1
is "$RC" 2 "--report-pending of a process that is not rrun: usage error"
is "$ERR" "rrun: process 1 is not an rrun of yours" "--report-pending of a process that is not rrun: message"

# --- over two hosts: each daemon asks its ranks, the head prints
new_pid_dir hosts
run_rrun --timeout 4 --host a:2,b:1 --launch-agent "$AGENT" "$HANG" cycle
is "$RC" 124 "two hosts: the --timeout ends the job"
has "rrun:   rank 0 \(pid [0-9]+ on a\) in MPI_Recv" "two hosts: rank 0 on a is in MPI_Recv"
has "rrun:   rank 2 \(pid [0-9]+ on b\) in MPI_Barrier" "two hosts: rank 2 on b is in MPI_Barrier"
has "rrun: likely cycle: rank 0 waits to receive from 1, tag 7; rank 1 waits to receive from 0, tag 7" \
    "two hosts: the cycle is named"
check_cleanup "two hosts" 3
done_testing

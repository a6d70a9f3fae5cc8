#!/bin/bash
# Random rank deaths: KILL_TRIALS times (default 40; the closing figures
# of issue 18 used 200), a 4-rank job of test/progs/rrun_busy (every kind
# of traffic: eager, rendezvous by single copy, Bcast, Allgather,
# Allreduce) loses one rank to SIGKILL at a random moment from rrun's start
# to the job's end, start-up included (a rank not yet exec'd, connecting
# to PMIx, in MPI_Init). Each time rrun must exit within 2 s of the kill
# with status 137 and the one message naming the killed rank and its pid,
# and leave nothing: no process of the job, no session directory, no
# /dev/shm file. One TAP point per check over all trials; the failures
# are listed.
. "$RD_SRCDIR/test/tap.sh"
. "$RD_SRCDIR/test/launcher/rrun_lib.sh"
TRIALS=${KILL_TRIALS:-40}
BUSY="$PROGS/rrun_busy"
# The job runs about 0.6 s after its start-up; kills land in [0, 0.8 s).
late=0 slow=0 wrong=0 left=0 hung=0 tried=0 worst=0
failures=""
ms() { echo $(( $(date +%s%N) / 1000000 )); }
# The state letter of a process (R, S, T, Z ...; empty once it is gone).
proc_state() { sed -n 's/^[0-9]* (.*) \([A-Za-z]\) .*/\1/p' "/proc/$1/stat" 2>/dev/null; }
for ((i = 0; i < TRIALS; i++)); do
    # half of the kills land in the first 250 ms: start-up (fork, exec,
    # the PMIx connection, MPI_Init)
    if [ $((i % 2)) = 0 ]; then delay=$((RANDOM % 250)); else delay=$((RANDOM % 800)); fi
    rm -f "$T/out" "$T/err"
    t0=$(ms)
    rrun -np 4 "$BUSY" 0.6 >"$T/out" 2>"$T/err" </dev/null &
    rpid=$!
    # A rank (any child of rrun, exec'd or not) at about t0 + delay.
    victim="" rank=""
    while :; do
        kids=$(pgrep -P "$rpid" | sort -n)
        now=$(ms)
        if [ -n "$kids" ] && [ $((now - t0)) -ge "$delay" ]; then
            n=$(printf '%s\n' "$kids" | wc -l)
            k=$((RANDOM % n + 1))
            victim=$(printf '%s\n' "$kids" | sed -n "${k}p")
            # A rank that has already exited stays a zombie until rrun
            # reaps it, and kill succeeds on a zombie: stop the victim
            # first, so that it either stops alive (T: a real kill) or
            # shows as exited (Z or gone: not a trial).
            st=""
            kill -STOP "$victim" 2>/dev/null
            for ((s = 0; s < 200; s++)); do
                st=$(proc_state "$victim")
                case "$st" in T|t|Z|X|"") break ;; esac
                sleep 0.001
            done
            case "$st" in
            T|t) kill -9 "$victim" 2>/dev/null || victim="" ;;
            *) kill -9 "$victim" 2>/dev/null; victim="" ;;
            esac
            tk=$(ms)
            break
        fi
        kill -0 "$rpid" 2>/dev/null || break
        sleep 0.005
    done
    if [ -z "$victim" ]; then
        # the job (or the chosen rank) ended before the chosen moment:
        # not a trial
        wait "$rpid"
        late=$((late + 1))
        continue
    fi
    tried=$((tried + 1))
    # rrun must end by itself; the guard only stops a hang.
    for ((w = 0; w < 200; w++)); do
        kill -0 "$rpid" 2>/dev/null || break
        sleep 0.05
    done
    if kill -0 "$rpid" 2>/dev/null; then
        hung=$((hung + 1))
        failures="$failures
trial $i: rrun still running 10 s after the kill of pid $victim ($(tr '\n' ' ' <"$T/err"))"
        pkill -9 -P "$rpid"
        kill -9 "$rpid"
        wait "$rpid"
        continue
    fi
    wait "$rpid"
    rc=$?
    te=$(ms)
    took=$((te - tk))
    [ $took -gt $worst ] && worst=$took
    [ $took -gt 2000 ] && { slow=$((slow + 1)); failures="$failures
trial $i: rrun took $took ms after the kill"; }
    err=$(cat "$T/err")
    if [ "$rc" != 137 ] || ! printf '%s\n' "$err" | grep -Eq "^rrun: rank [0-3] \(pid $victim\) was killed by signal 9 \(Killed\); ending the job$" ||
        [ "$(printf '%s\n' "$err" | grep -c '^rrun: ')" != 1 ]; then
        wrong=$((wrong + 1))
        failures="$failures
trial $i: killed pid $victim after $delay ms; rrun exited $rc: $(printf '%s' "$err" | head -3 | tr '\n' ' ')"
    fi
    what=""
    [ -n "$(ls -A "$RRUN_TMP")" ] &&
        what="$what session directory ($(cd "$RRUN_TMP" && find . -mindepth 1 | head -8 | tr '\n' ' '));"
    for p in $kids; do
        if kill -0 "$p" 2>/dev/null && [ "$(ps -o stat= -p "$p" | cut -c1)" != Z ]; then
            what="$what process $p;"
            kill -9 "$p"
        fi
    done
    [ "$(shm_list)" != "$SHM_BEFORE" ] && what="$what /dev/shm: $(shm_list | tr '\n' ' ');"
    if [ -n "$what" ]; then
        left=$((left + 1))
        failures="$failures
trial $i: left behind:$what"
        rm -rf "${RRUN_TMP:?}"/*
    fi
done
# rrun itself crashing (as if a library faulted in it): the crash guard
# kills the ranks, removes what rrun made, says so and dies of the signal.
new_pid_dir crash
rrun -np 3 "$PROGS/rrun_fail" sleep >"$T/out" 2>"$T/err" </dev/null &
rpid=$!
wait_for_pid_files 3
kill -SEGV "$rpid"
wait "$rpid"
rc=$?
is "$rc" 139 "rrun crashing: it dies of SIGSEGV (status 139)"
is "$(cat "$T/err")" "rrun: internal error: rrun itself got signal 11; the job's ranks were killed" \
    "rrun crashing: one message"
check_cleanup "rrun crashing" 3

diag "$tried kills ($late jobs ended before their chosen moment); slowest end after a kill: $worst ms"
[ -n "$failures" ] && diag "$failures"
ok $((tried < TRIALS / 2)) "most trials killed a rank ($tried of $TRIALS)"
is "$hung" 0 "no rrun hung after a kill"
is "$slow" 0 "every job ended within 2 s of the kill"
is "$wrong" 0 "every job ended with status 137 and one message naming the killed rank and pid"
is "$left" 0 "no job left a process, a session directory or a /dev/shm file"
done_testing

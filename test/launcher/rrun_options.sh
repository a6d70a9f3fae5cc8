#!/bin/sh
# rrun's command line: --help, --version, the forms of -np, usage errors
# (exit 2, one line, nothing started), a program that does not exist
# (exit 127, nothing started), and MPIEXEC_TIMEOUT (the job time limit that
# Open MPI's and MPICH's launchers read from the environment).
. "$RD_SRCDIR/test/tap.sh"
. "$RD_SRCDIR/test/launcher/rrun_lib.sh"

run_rrun --help
is "$RC" 0 "--help exits 0"
for opt in "-np N" "-n N" "--np N" "--bind-to core|none" "-x VAR=value" "-x VAR" \
           "--tag-output" "--timeout S" "MPIEXEC_TIMEOUT" "--pset NAME=RANKS" "--oversubscribe" "--version" "--help"; do
    case "$OUT" in
    *"$opt"*) ok 0 "--help documents $opt" ;;
    *) ok 1 "--help documents $opt" ;;
    esac
done

run_rrun --version
is "$RC" 0 "--version exits 0"
like "$OUT" '^rrun \(rdmpi\) [0-9]+\.[0-9]+' "--version prints the version"

# Usage errors: exit 2, exactly one line on stderr pointing to --help,
# nothing on stdout, nothing started.
usage_case() { # NAME EXPECTED-MESSAGE ARGS...
    _name=$1
    _msg=$2
    shift 2
    rm -f "$T/started"
    run_rrun "$@"
    is "$RC" 2 "$_name: exit status 2"
    is "$ERR" "rrun: $_msg (see 'rrun --help')" "$_name: one clear message"
    is "$OUT" "" "$_name: nothing on stdout"
    is "$(ls "$T" | grep -c started)" 0 "$_name: nothing started"
}
usage_case "-np 0" "-np needs a positive whole number, got '0'" -np 0 touch "$T/started"
usage_case "-np missing value" "option '-np' needs a value" -np
usage_case "-np not a number" "-np needs a positive whole number, got 'two'" -np two touch "$T/started"
usage_case "-np negative" "-np needs a positive whole number, got '-1'" -np -1 touch "$T/started"
usage_case "no -np" "the number of processes is missing: give -np N" touch "$T/started"
usage_case "unknown option" "unknown option '--frobnicate'" --frobnicate -np 1 touch "$T/started"
usage_case "no program" "no program to run was given" -np 2
usage_case "bad --bind-to" "--bind-to takes 'core' or 'none', got 'socket'" \
    --bind-to socket -np 1 touch "$T/started"
usage_case "bad -x" "-x needs VAR or VAR=value, got '=x'" -x =x -np 1 touch "$T/started"
usage_case "bad --timeout" "--timeout needs a positive number of seconds, got '0'" \
    --timeout 0 -np 1 touch "$T/started"
# --pset NAME=RANKS (process sets for MPI sessions)
usage_case "--pset missing value" "option '--pset' needs a value" -np 1 --pset
for v in even =0 a=; do
    usage_case "--pset '$v'" "--pset needs NAME=RANKS (ranks and ranges like 0-3,6), got '$v'" \
        --pset "$v" -np 1 touch "$T/started"
done
usage_case "--pset named mpi://" "--pset: the name 'MPI://odd' may not start with 'mpi://' (the MPI library's own process sets)" \
    --pset MPI://odd=1 -np 2 touch "$T/started"
usage_case "--pset name with a comma" "--pset: the name 'a,b' may not contain ','" --pset a,b=0 -np 1 touch "$T/started"
long=$(printf '%0256d' 0)
usage_case "--pset name of 256 characters" "--pset: the name '00000000000000000000...' is longer than 255 characters" \
    --pset "$long=0" -np 1 touch "$T/started"
for v in x 0,,1 1- -1 0,x 1-2-3 "0 1" "0," 2a; do
    usage_case "--pset a=$v" "--pset a: RANKS must be ranks and ranges like 0-3,6, got '$v'" \
        --pset "a=$v" -np 4 touch "$T/started"
done
usage_case "--pset backwards range" "--pset a: the range 3-1 runs backwards" --pset a=3-1 -np 4 touch "$T/started"
usage_case "--pset rank twice" "--pset a: rank 1 is given twice" --pset a=0-2,1 -np 4 touch "$T/started"
usage_case "--pset rank too large" "--pset a: '100000' is too large (ranks are below 100000)" \
    --pset a=0,100000 -np 4 touch "$T/started"
usage_case "--pset rank beyond -np" "--pset odd: rank 3 is not in the job (ranks 0 to 2)" \
    -np 3 --pset even=0,2 --pset odd=1,3 touch "$T/started"
usage_case "--pset rank beyond a later -np" "--pset a: rank 5 is not in the job (ranks 0 to 3)" \
    --pset a=0,5 -np 4 touch "$T/started"
usage_case "--pset rank beyond the hosts' slots" "--pset a: rank 2 is not in the job (ranks 0 to 1)" \
    --host x:2 --pset a=2 touch "$T/started"
usage_case "--pset name twice" "--pset: the process set 'EVEN' is given twice" \
    --pset even=0 --pset EVEN=1 -np 2 touch "$T/started"
check_no_leftovers "usage errors"

# --pset accepted, in both forms (what the ranks see: test/mpi/session_pset.sh)
run_rrun -np 2 --pset=a=0-1 --pset b=1 "$PROGS/rrun_probe" env X
is "$RC" 0 "--pset=a=0-1 --pset b=1: the job runs"
is "$(printf '%s\n' "$OUT" | sort)" "rank 0 X unset
rank 1 X unset" "--pset=a=0-1 --pset b=1: both ranks"

# A program that cannot be found or run: 127, one message, nothing started.
run_rrun -np 2 rrun_no_such_program_xyz
is "$RC" 127 "missing program: exit status 127"
is "$ERR" "rrun: cannot run 'rrun_no_such_program_xyz': No such file or directory" \
    "missing program: message"
run_rrun -np 2 "$T/nothere/prog"
is "$RC" 127 "missing path: exit status 127"
is "$ERR" "rrun: cannot run '$T/nothere/prog': No such file or directory" "missing path: message"
printf 'not a program\n' >"$T/notexec"
run_rrun -np 2 "$T/notexec"
is "$RC" 127 "not executable: exit status 127"
is "$ERR" "rrun: cannot run '$T/notexec': Permission denied" "not executable: message"
check_no_leftovers "missing program"

# The forms of -np, and options stop at the program.
for form in "-np 3" "-n 3" "--np 3" "--np=3" "-np=3"; do
    # shellcheck disable=SC2086
    run_rrun $form "$PROGS/rrun_probe" env -np
    is "$RC" 0 "'$form': exit status 0"
    is "$(printf '%s\n' "$OUT" | sort)" "rank 0 -np unset
rank 1 -np unset
rank 2 -np unset" "'$form': 3 ranks, and '-np' after the program is the program's"
done
run_rrun --oversubscribe -np 1 -- "$PROGS/rrun_probe" env X
is "$RC" 0 "--oversubscribe and -- are accepted"
is "$OUT" "rank 0 X unset" "-- ends the options"

# More ranks than this host can run: refused before anything starts (it
# used to register 100000 ranks with libpmix, time out, and now and then
# crash with no message, its session directory left behind).
pid_max=$(cat /proc/sys/kernel/pid_max)
run_rrun -np $((pid_max + 5)) "$PROGS/rrun_probe" env X
is "$RC" 2 "-np beyond kernel.pid_max: exit status 2"
is "$ERR" "rrun: cannot start $((pid_max + 5)) ranks on this host: it runs at most $((pid_max - 1)) processes (kernel.pid_max)" \
    "-np beyond kernel.pid_max: the message says why"
is "$OUT" "" "-np beyond kernel.pid_max: no rank ran"

check_no_leftovers "options"

# MPIEXEC_TIMEOUT sets the time limit when --timeout is not given: the same
# end as --timeout (exit 124, one message naming where the limit came
# from, no rank left); --timeout wins; 0 or empty is no limit; anything
# else that is not a number of seconds is a usage error.
unset MPIEXEC_TIMEOUT
new_pid_dir mpiexec_timeout
MPIEXEC_TIMEOUT=1 run_rrun -np 2 "$PROGS/rrun_fail" sleep
is "$RC" 124 "MPIEXEC_TIMEOUT=1: rrun exits 124, as for --timeout"
is "$(printf '%s\n' "$ERR" | tail -1)" "rrun: job exceeded the MPIEXEC_TIMEOUT of 1 s; ending it" "MPIEXEC_TIMEOUT=1: the message, after the report"
ok "$([ "$ELAPSED_MS" -ge 1000 ] && [ "$ELAPSED_MS" -lt 10000 ] && echo 0 || echo 1)" \
    "MPIEXEC_TIMEOUT=1: ended after the limit, promptly (${ELAPSED_MS} ms)"
check_cleanup "MPIEXEC_TIMEOUT" 2
new_pid_dir mpiexec_timeout_frac
MPIEXEC_TIMEOUT=0.5 run_rrun -np 1 "$PROGS/rrun_fail" sleep
is "$RC" 124 "MPIEXEC_TIMEOUT=0.5: rrun exits 124"
is "$(printf '%s\n' "$ERR" | tail -1)" "rrun: job exceeded the MPIEXEC_TIMEOUT of 0.5 s; ending it" "MPIEXEC_TIMEOUT=0.5: the message, after the report"
check_cleanup "MPIEXEC_TIMEOUT=0.5" 1
new_pid_dir option_wins_short
MPIEXEC_TIMEOUT=30 run_rrun -np 2 --timeout 1 "$PROGS/rrun_fail" sleep
is "$RC" 124 "--timeout 1 with MPIEXEC_TIMEOUT=30: rrun exits 124"
is "$(printf '%s\n' "$ERR" | tail -1)" "rrun: job exceeded the --timeout of 1 s; ending it" "--timeout 1 with MPIEXEC_TIMEOUT=30: the option's limit"
check_cleanup "--timeout over MPIEXEC_TIMEOUT" 2
MPIEXEC_TIMEOUT=1 run_rrun -np 1 --timeout 30 sleep 2
is "$RC" 0 "--timeout 30 with MPIEXEC_TIMEOUT=1: a 2 s job ends normally"
is "$ERR" "" "--timeout 30 with MPIEXEC_TIMEOUT=1: no message"
MPIEXEC_TIMEOUT=abc run_rrun -np 1 --timeout 30 /bin/true
is "$RC" 0 "--timeout given: a bad MPIEXEC_TIMEOUT is not read"
for v in 0 ""; do
    MPIEXEC_TIMEOUT=$v run_rrun -np 1 sleep 1.2
    is "$RC" 0 "MPIEXEC_TIMEOUT='$v': no limit, a 1.2 s job ends normally"
    is "$ERR" "" "MPIEXEC_TIMEOUT='$v': no message"
done
for v in abc -5 1s nan inf; do
    export MPIEXEC_TIMEOUT="$v"
    usage_case "MPIEXEC_TIMEOUT=$v" "MPIEXEC_TIMEOUT needs a number of seconds (0: no limit), got '$v'" \
        -np 1 touch "$T/started"
    unset MPIEXEC_TIMEOUT
done
check_no_leftovers "MPIEXEC_TIMEOUT"
done_testing

# rrun_lib.sh - helpers shared by the rrun_*.sh tests (sourced after tap.sh).
#
# Every test runs rrun with TMPDIR pointing at a private directory, so after
# each run "no session directory left" is simply "that directory is empty".
# Test programs write their pids into $RRUN_TEST_DIR (see rrun_fail.c).

PROGS="$RD_BUILDDIR/test/progs"
tap_tmpdir
T=$TAP_TMP
RRUN_TMP="$T/tmp"
mkdir -p "$RRUN_TMP"
export TMPDIR="$RRUN_TMP"
HANG_GUARD=60

# /dev/shm entries that PMIx or rrun could create, before the test. A
# segment of a job whose rrun is still running (rdmpi-rrun.<pid>.*: another
# test, running at the same time) is not left behind: it is left out.
shm_list() {
    # (segments of Slurm jobs, rdmpi-slurm.*, belong to the Slurm tests)
    ls -A /dev/shm 2>/dev/null | grep -E 'pmix|rrun' | grep -v '^rdmpi-slurm\.' | sort | while read -r _e; do
        _p=$(printf '%s\n' "$_e" | sed -n 's/^rdmpi-rrun\.\([0-9]*\)\..*/\1/p')
        if [ -n "$_p" ] && kill -0 "$_p" 2>/dev/null; then continue; fi
        printf '%s\n' "$_e"
    done
}
SHM_BEFORE=$(shm_list)

# run_rrun ARGS...: rrun under the hang guard; sets RC, OUT, ERR, ELAPSED_MS.
run_rrun() {
    _t0=$(date +%s%N)
    timeout "$HANG_GUARD" rrun "$@" >"$T/out" 2>"$T/err" </dev/null
    RC=$?
    _t1=$(date +%s%N)
    ELAPSED_MS=$(( (_t1 - _t0) / 1000000 ))
    OUT=$(cat "$T/out")
    ERR=$(cat "$T/err")
}

# A fresh pid directory for the next run.
new_pid_dir() {
    RRUN_TEST_DIR="$T/pids.$1"
    rm -rf "$RRUN_TEST_DIR"
    mkdir -p "$RRUN_TEST_DIR"
    export RRUN_TEST_DIR
}

# wait_for_pid_files N: until N pid files exist (bounded: 30 s).
wait_for_pid_files() {
    _i=0
    while [ "$(ls "$RRUN_TEST_DIR" | grep -c '^pid\.')" -lt "$1" ] && [ $_i -lt 600 ]; do
        sleep 0.05
        _i=$((_i + 1))
    done
}

# The pid a rank wrote.
pid_of() { cat "$RRUN_TEST_DIR/pid.$1" 2>/dev/null; }

# check_cleanup NAME NPIDS: every rank wrote its pid, none is alive, no
# session directory and no PMIx shared-memory file is left.
check_cleanup() {
    _n=$(ls "$RRUN_TEST_DIR" | grep -c '^pid\.')
    is "$_n" "$2" "$1: all $2 ranks started"
    _alive=""
    for _f in "$RRUN_TEST_DIR"/pid.*; do
        [ -e "$_f" ] || continue
        _p=$(cat "$_f")
        # (a zombie is dead: it only waits for its new parent, init, to reap it)
        if kill -0 "$_p" 2>/dev/null && [ "$(ps -o stat= -p "$_p" | cut -c1)" != Z ]; then
            _alive="$_alive $_p"
            kill -9 "$_p" 2>/dev/null
        fi
    done
    is "$_alive" "" "$1: no process of the job is left"
    check_no_leftovers "$1"
}

check_no_leftovers() {
    is "$(ls -A "$RRUN_TMP")" "" "$1: no session directory left"
    # (entries that were there before may go away: other tests' jobs end)
    printf '%s\n' "$SHM_BEFORE" >"$T/shm.before"
    shm_list >"$T/shm.after"
    is "$(comm -13 "$T/shm.before" "$T/shm.after" | grep -v '^$')" "" "$1: no /dev/shm file left"
}

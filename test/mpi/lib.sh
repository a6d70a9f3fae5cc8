# lib.sh - run MPI test programs under rrun and turn their lines into TAP.
# Source after test/tap.sh.

# mpi_check NP PROG [ARGS...]: runs PROG on NP ranks; every "ok"/"not ok"
# line becomes a TAP test point; then checks that each of the NP ranks said
# "done" with no failure and that rrun exited 0.
mpi_check() {
    local np=$1; shift
    local out rc line done_lines
    out=$(timeout 120 rrun -np "$np" "$@" 2>&1); rc=$?
    while IFS= read -r line; do
        case "$line" in
        "ok "*) ok 0 "np=$np ${line#ok }" ;;
        "not ok "*) ok 1 "np=$np ${line#not ok }" ;;
        "#"*) echo "$line" ;;
        esac
    done <<<"$out"
    done_lines=$(printf '%s\n' "$out" | grep -c '^done \[rank [0-9]*\] [0-9]* checks, 0 failed$')
    is "$done_lines" "$np" "np=$np: all $np ranks of $(basename "$1") finished their checks"
    is "$rc" 0 "np=$np: rrun exit status of $(basename "$1")"
    [ "$rc" -eq 0 ] || diag "$out"
}

# Shared-memory segments of jobs whose rrun has exited: none may be left.
# (rdmpi-rrun.<pid>.*: a segment of a job still running is not counted.)
shm_leftovers() {
    ls -A /dev/shm 2>/dev/null | grep '^rdmpi-' | while read -r _e; do
        _p=$(printf '%s\n' "$_e" | sed -n 's/^rdmpi-rrun\.\([0-9]*\)\..*/\1/p')
        if [ -n "$_p" ] && kill -0 "$_p" 2>/dev/null; then continue; fi
        printf '%s ' "$_e"
    done
}

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

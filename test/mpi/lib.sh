# lib.sh - run MPI test programs under rrun and turn their lines into TAP.
# Source after test/tap.sh.

# mpi_check NP PROG [ARGS...]: runs PROG on NP ranks under rrun; every
# "ok"/"not ok" line becomes a TAP test point; then checks that each of the
# NP ranks said "done" with no failure and that rrun exited 0. (The
# implementation is p2p_check, which can also set the environment.)
. "$RD_SRCDIR/test/mpi/p2p_lib.sh"
mpi_check() { p2p_check "" "$@"; }

# Shared-memory segments of jobs whose rrun has exited: none may be left.
# (rdmpi-rrun.<pid>.*: a segment of a job still running is not counted.)
shm_leftovers() {
    ls -A /dev/shm 2>/dev/null | grep '^rdmpi-' | while read -r _e; do
        _p=$(printf '%s\n' "$_e" | sed -n 's/^rdmpi-rrun\.\([0-9]*\)\..*/\1/p')
        if [ -n "$_p" ] && kill -0 "$_p" 2>/dev/null; then continue; fi
        printf '%s ' "$_e"
    done
}

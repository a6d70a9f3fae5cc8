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
    # (rdmpi-slurm.*: segments of Slurm jobs, checked by the Slurm tests)
    ls -A /dev/shm 2>/dev/null | grep '^rdmpi-' | grep -v '^rdmpi-slurm\.' | while read -r _e; do
        _p=$(printf '%s\n' "$_e" | sed -n 's/^rdmpi-rrun\.\([0-9]*\)\..*/\1/p')
        if [ -n "$_p" ] && kill -0 "$_p" 2>/dev/null; then continue; fi
        printf '%s ' "$_e"
    done
}

# SUITE_PROGS: the point-to-point, datatype, communicator and collective
# test programs that every multi-host setup (and the verbs suite, once)
# must pass.
SUITE_PROGS="p2p_order p2p_wild p2p_probe p2p_wait p2p_sync p2p_trunc p2p_cancel p2p_persist
    p2p_sendrecv p2p_part p2p_types p2p_dtypes p2p_stress p2p_large p2p_threads coll intercoll comm
    intercomm cart graph attr dtypes win"
# The size-sensitive ones, run again under each rendezvous protocol.
SUITE_SIZED_PROGS="p2p_sync p2p_types p2p_dtypes p2p_large"
# transport_suite NAME "ENV": what a network transport (ucx, ofi) changes at
# the MPI level, with every rank pair forced through transport NAME
# (RDMPI_TRANSPORTS=NAME plus ENV): the size-sensitive programs under each
# rendezvous protocol (get, put, pipelined active messages, the transport's
# own where it has one: ucx), a collective job on 3 ranks (every pair
# connecting at once), and connections on first use only. What the
# transport itself does is its contract test's (test/unit/tl_contract_NAME),
# and the rest of SUITE_PROGS runs over shm: the engine and the layers above
# it are the same code whatever the transport (test/README.md).
# Skips everything when this build has no such transport.
transport_suite() {
    local name=$1 base="RDMPI_TRANSPORTS=$1 $2" prog proto
    "$RD_BUILDDIR/launcher/rdmpi_info" | grep -q "^transports:.* $name\( \|\$\)" ||
        skip_all "the $name transport is not built (configure did not find its library)"
    for proto in get put pipeline transport; do
        for prog in $SUITE_SIZED_PROGS; do
            # p2p_large with 20 MiB and 24 MiB: a transport's get, put and
            # own rendezvous beyond 2 GiB are its contract test's
            # (test/unit/tl_contract.c, "beyond 2 GiB": once per backend,
            # not once per protocol of the engine; 2 GiB by TCP took 13-21
            # s a job), and the engine's offsets beyond 2 GiB are
            # p2p_large.sh's, over shm
            local args=
            [ "$prog" != p2p_large ] || args="20 24"
            # shellcheck disable=SC2086 # the program's arguments, words
            p2p_check "$base RDMPI_EAGER_LIMIT=1 RDMPI_RNDV_PROTOCOL=$proto" 2 "$RD_BUILDDIR/test/mpi/$prog" $args
        done
    done
    p2p_check "$base" 3 "$RD_BUILDDIR/test/mpi/coll"
    lazy_connect_check "$base"
}

# lazy_connect_check "ENV": 4 ranks that each talk only to their partner
# (rank ^ 1, test/mpi/p2p_pairs) connect to that peer and no other: the
# engine logs each connection it makes (RDMPI_LOG=debug:p2p).
lazy_connect_check() {
    local out rc r peers
    # shellcheck disable=SC2086 # ENV is a list of words
    out=$(env $1 RDMPI_LOG=debug:p2p timeout -k 10 "${P2P_TIMEOUT:-120}" rrun -np 4 \
        "$RD_BUILDDIR/test/mpi/p2p_pairs" 2>&1); rc=$?
    is "$rc" 0 "$1: p2p_pairs on 4 ranks exits 0"
    is "$(printf '%s\n' "$out" | grep -c '^done \[rank [0-3]\] [46] checks, 0 failed$')" 4 \
        "$1: p2p_pairs: every rank passed its checks"
    for r in 0 1 2 3; do
        peers=$(printf '%s\n' "$out" | sed -n "s/^rdmpi\[$r\] p2p debug: rank \([0-9]*\) via .*/\1/p" | sort -n | tr '\n' ' ')
        is "$peers" "$((r ^ 1)) " "$1: rank $r connected to its partner only (lazy connections)"
    done
}

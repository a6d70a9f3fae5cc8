# p2p_lib.sh - helpers for the point-to-point test scripts (source after
# test/tap.sh and test/mpi/lib.sh).
#
# p2p_check "ENV" NP PROG [ARGS...]: as mpi_check, with the environment
#   settings ENV ("VAR=val VAR2=val", may be empty) given to every rank and
#   named in each test point. The job's whole output stays in P2P_OUT; a
#   comment gives the job's wall time.
# P2P_PROTOCOLS: the settings under which the size-sensitive programs run:
#   the defaults; every message above 1 byte by rendezvous with each
#   protocol (RDMA get, RDMA put, pipelined active messages); the eager limit
#   moved to 64 KiB; shared memory without single copy (CMA); and the
#   transports named explicitly.
# RD_P2P_LAUNCHER (default "rrun -np") runs the programs: setting it to
#   "mpirun.openmpi --allow-run-as-root --oversubscribe -np" with RD_BUILDDIR
#   pointing at Open MPI builds of the programs checks the tests themselves.
P2P_PROTOCOLS=(
    ""
    "RDMPI_EAGER_LIMIT=1 RDMPI_RNDV_PROTOCOL=get"
    "RDMPI_EAGER_LIMIT=1 RDMPI_RNDV_PROTOCOL=put"
    "RDMPI_EAGER_LIMIT=1 RDMPI_RNDV_PROTOCOL=pipeline"
    "RDMPI_EAGER_LIMIT=1 RDMPI_RNDV_PROTOCOL=split"
    "RDMPI_EAGER_LIMIT=65536"
    "RDMPI_SHM_CMA=0"
    "RDMPI_TRANSPORTS=shm"
)

p2p_check() {
    local envs=$1 np=$2; shift 2
    local out rc line done_lines label t0=$SECONDS
    label="np=$np${envs:+ $envs}"
    # shellcheck disable=SC2086 # ENV is a list of words
    out=$(env $envs timeout -k 10 "${P2P_TIMEOUT:-120}" ${RD_P2P_LAUNCHER:-rrun -np} "$np" "$@" 2>&1); rc=$?
    P2P_OUT=$out
    echo "# $label $(basename "$1"): $((SECONDS - t0)) s" # (where the time goes)
    while IFS= read -r line; do
        case "$line" in
        "ok "*) ok 0 "$label ${line#ok }" ;;
        "not ok "*) ok 1 "$label ${line#not ok }" ;;
        "#"*) echo "$line" ;;
        esac
    done <<<"$out"
    done_lines=$(printf '%s\n' "$out" | grep -c '^done \[rank [0-9]*\] [0-9]* checks, 0 failed$')
    is "$done_lines" "$np" "$label: all $np ranks of $(basename "$1") finished their checks"
    is "$rc" 0 "$label: exit status of $(basename "$1")"
    [ "$rc" -eq 0 ] || diag "$(printf '%s\n' "$out" | grep -Ev '^(not )?ok |^#|^rrun:  ' | tail -n 30)"
    # a job rrun ended at its time limit: what every rank waited in, and
    # what the transports said (the lines of single requests left out)
    if [ "$rc" -ne 0 ] && printf '%s\n' "$out" | grep -q '^rrun: what the ranks are waiting for'; then
        diag "$(printf '%s\n' "$out" | grep -E '^rrun:   rank |^rrun:       (verbs|[0-9]+ messages? to)' | head -n 40)"
    fi
}

# p2p_suite NAME "NPS" NP: test/mpi/NAME with the default settings on each
# rank count of NPS, then under every other setting of P2P_PROTOCOLS on NP.
p2p_suite() {
    local prog="$RD_BUILDDIR/test/mpi/$1" np envs
    for np in $2; do
        p2p_check "" "$np" "$prog"
    done
    for envs in "${P2P_PROTOCOLS[@]:1}"; do
        p2p_check "$envs" "$3" "$prog"
    done
}

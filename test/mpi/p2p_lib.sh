# p2p_lib.sh - helpers for the point-to-point test scripts (source after
# test/tap.sh and test/mpi/lib.sh).
#
# p2p_check "ENV" NP PROG [ARGS...]: as mpi_check, with the environment
#   settings ENV ("VAR=val VAR2=val", may be empty) given to every rank and
#   named in each test point. One point per distinct check (the text after
#   "ok [rank R] "), which passes only if every rank that made it passed it
#   every time (the point names those ranks; a comment the ranks that
#   failed it); then one point that every rank said "done" with no failure
#   after printing as many checks as it counted (so a check a rank made but
#   whose line went missing fails it, and a comment names the rank), and
#   one for rrun's exit status. The job's whole output stays in P2P_OUT; a
#   comment gives the job's wall time.
# P2P_PROTOCOLS: the settings under which the size-sensitive programs run:
#   the defaults; every message above 1 byte by rendezvous with each
#   protocol (RDMA get, RDMA put, pipelined active messages); the eager limit
#   moved to 64 KiB; shared memory without single copy (CMA); and the
#   transports named explicitly.
# RRUN_OPTS: options for the launcher, after "-np N" and before the program
#   (words, e.g. "--pset even=0,2"), named in each test point; default none.
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
    local out rc line done_lines label t0=$SECONDS res desc ranks bad
    label="np=$np${RRUN_OPTS:+ $RRUN_OPTS}${envs:+ $envs}"
    # shellcheck disable=SC2086 # ENV and RRUN_OPTS are lists of words
    out=$(env $envs timeout -k 10 "${P2P_TIMEOUT:-120}" ${RD_P2P_LAUNCHER:-rrun -np} "$np" ${RRUN_OPTS:-} "$@" 2>&1); rc=$?
    P2P_OUT=$out
    echo "# $label $(basename "$1"): $((SECONDS - t0)) s" # (where the time goes)
    printf '%s\n' "$out" | grep '^#'
    # one point per distinct check (p2p_points; a here-string, not a
    # process substitution: the RDMA VM has no /dev/fd)
    local points=0
    while IFS=$'\t' read -r res desc ranks bad; do
        [ -n "$res" ] || continue
        ok "$res" "$label $desc [rank $ranks]"
        [ -z "$bad" ] || diag "not ok on rank $bad"
        points=$((points + 1))
    done <<<"$(printf '%s\n' "$out" | p2p_points)"
    # (checks printed, but no point made of them: this function is broken)
    [ "$points" -gt 0 ] || ! printf '%s\n' "$out" | grep -qE '^(not )?ok \[rank [0-9]+\] ' ||
        ok 1 "$label: the checks of $(basename "$1") became test points"
    done_lines=$(printf '%s\n' "$out" | p2p_done_check "$np")
    is "$done_lines" "$np" "$label: all $np ranks of $(basename "$1") finished their checks, every one reported"
    [ "$done_lines" = "$np" ] || diag "$(printf '%s\n' "$out" | p2p_done_check "$np" explain)"
    is "$rc" 0 "$label: exit status of $(basename "$1")"
    [ "$rc" -eq 0 ] || diag "$(printf '%s\n' "$out" | grep -Ev '^(not )?ok |^#|^rrun:  ' | tail -n 30)"
    # a job rrun ended at its time limit: what every rank waited in, and
    # what the transports said (the lines of single requests left out)
    if [ "$rc" -ne 0 ] && printf '%s\n' "$out" | grep -q '^rrun: what the ranks are waiting for'; then
        diag "$(printf '%s\n' "$out" | grep -E '^rrun:   rank |^rrun:       (verbs|[0-9]+ messages? to)' | head -n 40)"
    fi
}

# p2p_points: the "ok [rank R] CHECK" / "not ok [rank R] CHECK (file:line:
# cond)" lines of a job (stdin) as one line per distinct CHECK, in the
# order first seen: "STATUS<TAB>CHECK<TAB>RANKS<TAB>FAILED-RANKS", STATUS 0
# when every line of that check, on every rank that made it, was "ok".
p2p_points() {
    awk '
    match($0, /^(not )?ok \[rank [0-9]+\] /) {
        bad = ($0 ~ /^not /)
        head = substr($0, 1, RLENGTH)
        d = substr($0, RLENGTH + 1)
        r = head; sub(/^.*\[rank /, "", r); sub(/\] $/, "", r)
        if (bad) sub(/ \([^ ]*\.[ch]:[0-9]+: .*\)$/, "", d)
        if (!(d in seen)) { seen[d] = 1; order[++n] = d }
        if (!((d, r) in had)) { had[d, r] = 1; ranks[d] = ranks[d] (ranks[d] == "" ? "" : ",") r }
        if (bad && !((d, r) in hadbad)) { hadbad[d, r] = 1; fail[d] = fail[d] (fail[d] == "" ? "" : ",") r }
    }
    END { for (i = 1; i <= n; i++) { d = order[i]; printf "%d\t%s\t%s\t%s\n", (fail[d] != ""), d, ranks[d], fail[d] } }'
}

# p2p_done_check NP [explain]: how many of the NP ranks said "done [rank R]
# N checks, 0 failed" having printed exactly N "ok"/"not ok" lines (stdin:
# the job's output); with explain, what is wrong with each other rank.
p2p_done_check() {
    awk -v np="$1" -v explain="${2:-}" '
    match($0, /^(not )?ok \[rank [0-9]+\] /) { r = substr($0, 1, RLENGTH); sub(/^.*\[rank /, "", r); sub(/\] $/, "", r); lines[r]++ }
    /^done \[rank [0-9]+\] [0-9]+ checks, [0-9]+ failed$/ { r = $3; sub(/\]$/, "", r); said[r] = $4; failed[r] = $6; done_n[r]++ }
    END {
        good = 0
        for (r = 0; r < np; r++) {
            if (done_n[r] == 1 && failed[r] == 0 && said[r] == lines[r] + 0) { good++; continue }
            if (explain == "") continue
            if (done_n[r] != 1) printf "rank %d: %d done lines\n", r, done_n[r]
            else if (failed[r] != 0) printf "rank %d: %d of its checks failed\n", r, failed[r]
            else printf "rank %d: said %d checks, printed %d\n", r, said[r], lines[r]
        }
        if (explain == "") print good
    }'
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

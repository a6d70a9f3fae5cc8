#!/bin/bash
# run.sh - one-sided communication benchmarks of rdmpi against Open MPI and
# MPICH, side by side in one run, on 2 ranks of one node, with the physical
# floor (a cache-line hand-off between the two cores) measured by the same
# program in the same run (a benchmark, not a test). See bench/rma/README.md.
#
#   bench/rma/run.sh [options] [BUILD_DIR]      (BUILD_DIR default: ./build)
#
#   --quick          bandwidth sizes 1K,64K,1M,4M, 3 rounds, 3 repetitions of ~5 ms
#   --sizes LIST     bandwidth sizes (putbw, getbw): 1K,1M or ranges 1K-4M
#   --tests LIST     put,get,acc,fop,cas,fence,lock,putbw,getbw,putpp (default:
#                    all but putpp, the ping-pong run-vm.sh sets beside
#                    ib_write_lat)
#   --libs LIST      rdmpi,openmpi,ompi-sm,mpich (default: all; ompi-sm is
#                    Open MPI forced onto its shared-memory windows, --mca osc sm)
#   --rounds N       interleaved rounds; the tables show medians over them
#   --reps N         timed repetitions per figure within one run (median)
#   --time MS        target duration of one timed repetition
#   --raw FILE       also write every run's result lines to FILE
#   --no-summary     leave out the table of issue 20's shm done-when cells
#                    (run-vm.sh: the figures are not shm's there)
#
# Until rdmpi has one-sided communication, rdmpicc cannot compile rma.c:
# the rdmpi column then reads n/a, a note says why, and the peers run.
#
# rdmpi parameters pass through the environment (rrun's ranks inherit it).
# Extra launcher flags: RMA_RRUN_FLAGS, RMA_OMPI_FLAGS (both Open MPI
# columns), RMA_MPICH_FLAGS; compiler flags: RMA_CFLAGS (default -O2); time
# limit of one run in seconds: RMA_TIMEOUT (default 300). The peers' tools:
# RMA_OMPI_MPICC, RMA_OMPI_MPIRUN, RMA_MPICH_MPICC, RMA_MPICH_MPIEXEC
# (default: the Debian names mpicc.openmpi, mpirun.openmpi, mpicc.mpich,
# mpiexec.hydra).
set -u

# shellcheck source=bench/lib.sh
. "$(dirname "$0")/../lib.sh"

all_tests=put,get,acc,fop,cas,fence,lock,putbw,getbw,putpp
quick=0 sizes='' tests=${all_tests%,putpp} libs=rdmpi,openmpi,ompi-sm,mpich
rounds='' reps='' tgt='' raw='' builddir='' summary=1
own_option() { [ "$1" = --no-summary ] && summary=0; }
bench_options "$@"
if [ "$quick" = 1 ]; then
    : "${sizes:=1K,64K,1M,4M}" "${rounds:=3}" "${reps:=3}" "${tgt:=5}"
else
    : "${sizes:=1K-4M}" "${rounds:=5}" "${reps:=5}" "${tgt:=10}"
fi
for t in ${tests//,/ }; do
    case ",$all_tests," in *",$t,"*) ;; *) echo "run.sh: unknown test $t" >&2; exit 2 ;; esac
done
for l in ${libs//,/ }; do
    case $l in rdmpi | openmpi | ompi-sm | mpich) ;; *) echo "run.sh: unknown library $l" >&2; exit 2 ;; esac
done
bench_setup rma RMA 300

# ------------------------------------------------------------------ build
# rma.c is built once per compiler (rma_COMPILER): both Open MPI columns run
# the same program
build_hint=' (no one-sided calls yet?)'
smoke='-t put,putbw -s 1K -r 1 -T 1'
# shellcheck disable=SC2086 # flags are lists of words
{
    bench_lib rdmpi rdmpi &&
        bench_try rdmpi "$rdmpicc" "$srcdir/rma.c" "$tmp/rma_rdmpicc" "$smoke" "$rrun" ${RMA_RRUN_FLAGS:-} -np 2
    bench_lib openmpi "Open MPI" &&
        bench_try openmpi "$ompi_cc" "$srcdir/rma.c" "$tmp/rma_$(basename "$ompi_cc")" "$smoke" "$ompi_run" \
            --allow-run-as-root --bind-to core ${RMA_OMPI_FLAGS:-} -np 2
    bench_lib ompi-sm "OMPI sm" &&
        bench_try ompi-sm "$ompi_cc" "$srcdir/rma.c" "$tmp/rma_$(basename "$ompi_cc")" "$smoke" "$ompi_run" \
            --allow-run-as-root --bind-to core --mca osc sm ${RMA_OMPI_FLAGS:-} -np 2
    bench_lib mpich MPICH &&
        bench_try mpich "$mpich_cc" "$srcdir/rma.c" "$tmp/rma_$(basename "$mpich_cc")" "$smoke" "$mpich_run" \
            -bind-to core ${RMA_MPICH_FLAGS:-} -n 2
}
# the floor: rma -F of the first library's program that compiled, whether
# or not its smoke run passed (no MPI, no launcher)
floor_bin=''
for n in rdmpi openmpi ompi-sm mpich; do
    [ -z "$floor_bin" ] && [ -n "${bin[$n]:-}" ] && floor_bin=${bin[$n]}
done
[ -n "$floor_bin" ] || notes+=("floor: n/a: no library compiled rma.c")

# ------------------------------------------------------------------- runs
echo "# one-sided benchmark: 2 ranks, one per core, windows from MPI_Win_allocate, on $(hostname) ($(nproc) cores), $(date '+%F %T')"
echo "# tests $tests; bandwidth sizes $sizes; $rounds rounds, libraries interleaved in each;"
echo "# each run reports the median of $reps repetitions of ~$tgt ms; tables show the median over rounds"
bench_commands rma
[ -z "$floor_bin" ] || echo "# floor:   ${floor_bin#"$tmp"/} -F -r 5   (no MPI: two processes, fork, MAP_SHARED)"
bench_env

# the launches of one round: each latency test alone, putbw and getbw with
# every size (a library that crashes in one test keeps its other figures)
runs=()
for t in ${tests//,/ }; do runs+=("$t"); done

check_idle "before the run"
: >"$tmp/all"
for ((r = 1; r <= rounds; r++)); do
    echo "# round $r/$rounds" >&2
    if [ -n "$floor_bin" ]; then
        timeout 60 "$floor_bin" -F -r 5 2>/dev/null | sed -n "s/^floor /floor $r /p" >>"$tmp/all"
    fi
    ti=0
    for t in "${runs[@]}"; do
        # rotate the order of the libraries from round to round and test to test
        bench_each "$r" "$t" $((r + ti))
        ti=$((ti + 1))
    done
done
bench_raw "lib round test size median min max iters window | floor round cacheline_us median min max"

# ----------------------------------------------------------------- tables
check_idle "after the run"
bench_notes
awk -v tests="$tests" -v summary="$summary" "$bench_awk"'
function fmt(v, bw) {
    if (v == "") return "n/a"
    if (bw) return sprintf("%.0f", v)
    return v < 100 ? sprintf("%.3f", v) : sprintf("%.1f", v)
}
# the figure of LIB for TEST at SIZE (median over rounds), or ""
function fig(lib, t, s) { return ((lib, t, s) in v) ? median(v[lib, t, s]) : "" }
# the better peer: lowest latency or highest bandwidth, or ""
function bestpeer(t, s, bw,   k, p, x) {
    p = ""
    for (k = 1; k <= 3; k++) {
        x = fig(PEER[k], t, s)
        if (x != "" && (p == "" || (bw ? x + 0 > p + 0 : x + 0 < p + 0))) p = x
    }
    return p
}
function row(t, s, bw,   r, p, k, line) {
    r = fig("rdmpi", t, s); p = bestpeer(t, s, bw)
    line = sprintf("%-6s | %6s | %10s", t, human(s), fmt(r, bw))
    for (k = 1; k <= 3; k++) line = line sprintf(" | %10s", fmt(fig(PEER[k], t, s), bw))
    RATIO = (r != "" && p != "" && p > 0) ? r / p : ""
    return line sprintf(" | %10s", RATIO == "" ? "n/a" : sprintf("%.2f", RATIO))
}
$1 == "floor" { fl = fl " " $4; next }    # floor ROUND cacheline_us MEDIAN MIN MAX
{
    # lib round test size median min max iters window
    v[$1, $3, $4] = v[$1, $3, $4] " " $5
    if (!(($3, $4) in seen)) { seen[$3, $4] = 1; sz[$3] = sz[$3] " " $4 }
}
END {
    split("openmpi ompi-sm mpich", PEER, " ")
    cl = fl != "" ? median(fl) : ""
    printf "\n# floor (no MPI; median over rounds, then the range of the rounds):\n"
    if (cl != "")
        printf "#   cache-line hand-off between the two cores (two processes, MAP_SHARED): %.3f us one-way (%s)\n", cl, range(fl, "%.3f")
    else
        printf "#   cache-line hand-off: n/a\n"
    hdr = sprintf("%-6s | %6s | %10s | %10s | %10s | %10s | %10s", "test", "size", "rdmpi", "Open MPI", "OMPI sm", "MPICH", "rdmpi/best")
    nt = split(tests, T, ",")
    printf "\n## latency, us per operation (lower is better); ratio = rdmpi / min(peers)\n"
    printf "## put/get: 8 B + MPI_Win_flush in a lock_all epoch; acc: 8 B SUM + flush; fop, cas: 8 B + flush;\n"
    printf "## fence: an empty MPI_Win_fence; lock: MPI_Win_lock(EXCLUSIVE) + MPI_Win_unlock, no operations;\n"
    printf "## putpp: half the round trip of a ping-pong of 8-byte Put + flush, each rank polling its window\n"
    printf "## floor: cache-line hand-off %s us one-way (an 8-byte operation and its completion cross it at least twice)\n", cl == "" ? "n/a" : sprintf("%.3f", cl)
    print hdr
    for (k = 1; k <= nt; k++) {
        t = T[k]
        if (t == "putbw" || t == "getbw") continue
        s = (t == "fence" || t == "lock") ? 0 : 8
        print row(t, s, 0)
    }
    first = 1
    for (k = 1; k <= nt; k++) {
        t = T[k]
        if (t != "putbw" && t != "getbw" || !(t in sz)) continue
        if (first) {
            printf "\n## bandwidth, MB/s (10^6 B/s; a window of operations to distinct offsets, then one flush; higher is better); ratio = rdmpi / max(peers)\n"
            print hdr
            first = 0
        }
        ns = split(sz[t], S, " ")
        sortn(S, ns)
        for (i = 1; i <= ns; i++) print row(t, S[i], 1)
    }
    # the done-when cells of issue 20 (shm, 2 ranks)
    if (!summary) exit
    printf "\n## summary: issue 20 done-when cells (shm, 2 ranks)\n"
    printf "## met: put, get, fop at most 0.8 x the better peer, or within 1.15 x the floor where the better peer is\n"
    printf "## near it (0.5-2 x the floor); getbw 1 MiB at least 1.2 x the better peer\n"
    printf "%-6s | %6s | %10s | %10s | %10s | %11s | %s\n", "test", "size", "rdmpi", "best peer", "rdmpi/best", "rdmpi/floor", "verdict"
    split("put get fop", L, " ")
    for (k = 1; k <= 3; k++) {
        t = L[k]; r = fig("rdmpi", t, 8); p = bestpeer(t, 8, 0)
        rf = (r != "" && cl != "" && cl > 0) ? r / cl : ""
        pf = (p != "" && cl != "" && cl > 0) ? p / cl : ""
        # the floor counts where a peer is near it (0.5 to 2 x); a peer
        # far below the "floor" says the floor run was disturbed
        near = pf != "" && pf >= 0.5 && pf <= 2
        if (r == "" || p == "") verdict = "n/a"
        else if (r / p <= 0.8) verdict = "met (<= 0.8 x the better peer)"
        else if (near && rf <= 1.15) verdict = "met (within 1.15 x the floor, the peer is near it)"
        else if (pf != "" && pf < 0.5) verdict = "not met (wants <= 0.8 x peer; the floor is above the peer: disturbed?)"
        else verdict = sprintf("not met (wants <= 0.8 x peer%s)", near ? ", or <= 1.15 x the floor" : "")
        printf "%-6s | %6s | %10s | %10s | %10s | %11s | %s\n", t, "8", fmt(r, 0), fmt(p, 0),
            r != "" && p != "" ? sprintf("%.2f", r / p) : "n/a", rf != "" ? sprintf("%.2f", rf) : "n/a", verdict
    }
    r = fig("rdmpi", "getbw", 1048576); p = bestpeer("getbw", 1048576, 1)
    if (r == "" || p == "") verdict = "n/a"
    else verdict = r / p >= 1.2 ? "met (>= 1.2 x the better peer)" : "not met (wants >= 1.2 x the better peer)"
    printf "%-6s | %6s | %10s | %10s | %10s | %11s | %s\n", "getbw", "1M", fmt(r, 1), fmt(p, 1),
        r != "" && p != "" ? sprintf("%.2f", r / p) : "n/a", "-", verdict
}' "$tmp/all"
exit 0

#!/bin/bash
# run.sh - point-to-point benchmarks of rdmpi against Open MPI and MPICH, side
# by side in one run, with the machine's physical floor (a benchmark, not a
# test). See bench/p2p/README.md.
#
#   bench/p2p/run.sh [options] [BUILD_DIR]      (BUILD_DIR default: ./build)
#
#   --quick          12 sizes, 3 rounds, 3 repetitions (well under a minute)
#   --sizes LIST     message sizes: 0,8,4K,1M or ranges 0-16M (powers of two)
#   --tests LIST     lat,bw,bibw,rate,mr (default: all)
#   --libs LIST      rdmpi,openmpi,mpich (default: all)
#   --rounds N       interleaved rounds; the table shows medians over them
#   --reps N         timed repetitions per size within one run (median)
#   --time MS        target duration of one timed repetition
#   --best           show the best figure seen (lowest latency, highest
#                    bandwidth and rate, over all repetitions) instead of medians
#   --raw FILE       also write every run's result lines to FILE
#
# rdmpi parameters pass through the environment (rrun's ranks inherit it):
#   RDMPI_EAGER_LIMIT=4096 RDMPI_SHM_CMA=0 bench/p2p/run.sh
# Extra launcher flags: P2P_RRUN_FLAGS, P2P_OMPI_FLAGS, P2P_MPICH_FLAGS;
# compiler flags: P2P_CFLAGS (default -O2); time limit of one run in
# seconds: P2P_TIMEOUT (default 600). The peers' tools: P2P_OMPI_MPICC,
# P2P_OMPI_MPIRUN, P2P_MPICH_MPICC, P2P_MPICH_MPIEXEC (default: the Debian
# names mpicc.openmpi, mpirun.openmpi, mpicc.mpich, mpiexec.hydra).
set -u

# shellcheck source=bench/lib.sh
. "$(dirname "$0")/../lib.sh"

quick=0 sizes='' tests=lat,bw,bibw,rate,mr libs=rdmpi,openmpi,mpich
rounds='' reps='' tgt='' raw='' builddir='' best=0
own_option() { [ "$1" = --best ] && best=1; }
bench_options "$@"
if [ "$quick" = 1 ]; then
    : "${sizes:=0,1,8,64,512,4K,32K,64K,256K,1M,4M,16M}" "${rounds:=3}" "${reps:=3}" "${tgt:=5}"
else
    : "${sizes:=0-16M}" "${rounds:=5}" "${reps:=5}" "${tgt:=10}"
fi
bench_setup p2p P2P 600

# ------------------------------------------------------------------ build
cc_floor=$(command -v cc || command -v gcc || command -v clang)
# shellcheck disable=SC2086 # flags are lists of words
$cc_floor $cflags -pthread "$srcdir/floor.c" -o "$tmp/floor" || exit 1

smoke='-t lat -s 0,1K -r 1 -T 1'
# shellcheck disable=SC2086 # flags are lists of words
{
    bench_lib rdmpi rdmpi &&
        bench_try rdmpi "$rdmpicc" "$srcdir/p2p.c" "$tmp/p2p_rdmpi" "$smoke" "$rrun" ${P2P_RRUN_FLAGS:-} -np 2
    bench_lib openmpi "Open MPI" &&
        bench_try openmpi "$ompi_cc" "$srcdir/p2p.c" "$tmp/p2p_openmpi" "$smoke" "$ompi_run" --allow-run-as-root \
            --bind-to core ${P2P_OMPI_FLAGS:-} -np 2
    bench_lib mpich MPICH &&
        bench_try mpich "$mpich_cc" "$srcdir/p2p.c" "$tmp/p2p_mpich" "$smoke" "$mpich_run" -bind-to core \
            ${P2P_MPICH_FLAGS:-} -n 2
}

# ------------------------------------------------------------------- runs
echo "# p2p benchmark: 2 ranks, one per core, on $(hostname) ($(nproc) cores), $(date '+%F %T')"
echo "# tests $tests, sizes $sizes; $rounds rounds, libraries interleaved in each;"
if [ "$best" = 1 ]; then
    echo "# each run: $reps repetitions of ~$tgt ms; tables show the BEST repetition of all rounds (--best)"
else
    echo "# each run reports the median of $reps repetitions of ~$tgt ms; tables show the median over rounds"
fi
bench_commands p2p
bench_env

check_idle "before the run"
: >"$tmp/all"
for ((r = 1; r <= rounds; r++)); do
    echo "# round $r/$rounds" >&2
    "$tmp/floor" -r 5 | sed -n "s/^floor /floor $r /p" >>"$tmp/all"
    for t in ${tests//,/ }; do
        bench_each "$r" "$t" "$r" # the order of the libraries rotates each round
    done
done
bench_raw "lib round test size median min max iters window | floor round what [size] median min max"

# ----------------------------------------------------------------- tables
check_idle "after the run"
bench_notes
awk -v tests="$tests" -v best="$best" "$bench_awk"'
BEGIN { best = best + 0 }   # 1: --best
function fmt(v, t) {
    if (v == "") return "n/a"
    if (t == "lat") return v < 100 ? sprintf("%.3f", v) : sprintf("%.1f", v)
    if (t == "rate" || t == "mr") return v < 1 ? sprintf("%.4f", v) : sprintf("%.3f", v)
    return sprintf("%.0f", v)
}
$1 == "floor" {
    key = ($3 == "memcpy") ? "memcpy" $4 : $3
    if ($3 == "memcpy") fl[key] = fl[key] " " (best ? $7 : $5)
    else fl[key] = fl[key] " " (best ? $5 : $4)
    next
}
{
    v[$1, $3, $4] = v[$1, $3, $4] " " (best ? ($3 == "lat" ? $6 : $7) : $5)
    if (!(($3, $4) in seen)) { seen[$3, $4] = 1; sz[$3] = sz[$3] " " $4 }
}
END {
    title["lat"] = "latency, us (half round trip; lower is better); ratio = rdmpi / min(peers)"
    title["bw"] = "bandwidth, MB/s (one direction, window of messages in flight); ratio = rdmpi / max(peers)"
    title["bibw"] = "bidirectional bandwidth, MB/s (both directions summed); ratio = rdmpi / max(peers)"
    title["rate"] = "message rate, Mmsg/s (window of 64 messages); ratio = rdmpi / max(peers)"
    title["mr"] = "message rate, osu_bw pattern, Mmsg/s (64 Isend, Waitall, 4-byte reply); ratio = rdmpi / max(peers)"
    cl = ("cacheline_us" in fl) ? sprintf("%.3f", agg(fl["cacheline_us"])) : "n/a"
    m1 = ("memcpy1048576" in fl) ? sprintf("%.0f", agg(fl["memcpy1048576"], 1)) : "n/a"
    m16 = ("memcpy16777216" in fl) ? sprintf("%.0f", agg(fl["memcpy16777216"], 1)) : "n/a"
    printf "\n# floor (no MPI; %s over rounds, then the range of the rounds):\n", best ? "best" : "median"
    if (cl != "n/a")
        printf "#   cache-line hand-off between the two cores: %s us one-way (%s)\n", cl, range(fl["cacheline_us"], "%.3f")
    if (m1 != "n/a")
        printf "#   memcpy on one core: 1 MiB (in cache) %s MB/s (%s), 16 MiB (memory) %s MB/s (%s)\n", \
            m1, range(fl["memcpy1048576"], "%.0f"), m16, range(fl["memcpy16777216"], "%.0f")
    floor["lat"] = "floor: cache-line hand-off " cl " us one-way"
    floor["bw"] = "floor: memcpy 1 MiB " m1 " MB/s, 16 MiB " m16 " MB/s (a single copy is at most this fast)"
    floor["bibw"] = "floor: memcpy on one core 1 MiB " m1 " MB/s, 16 MiB " m16 " MB/s (here both cores copy at once)"
    floor["rate"] = "floor: none (pipelined messages are bound by per-message CPU work, not by the hand-off)"
    floor["mr"] = floor["rate"]
    nt = split(tests, T, ",")
    for (k = 1; k <= nt; k++) {
        t = T[k]
        if (!(t in sz)) continue
        printf "\n## %s\n## %s\n", title[t], floor[t]
        printf "%8s | %10s | %10s | %10s | %10s\n", "size", "rdmpi", "Open MPI", "MPICH", "rdmpi/best"
        ns = split(sz[t], S, " ")
        sortn(S, ns)
        for (i = 1; i <= ns; i++) {
            s = S[i]
            r = (("rdmpi", t, s) in v) ? agg(v["rdmpi", t, s], t != "lat") : ""
            o = (("openmpi", t, s) in v) ? agg(v["openmpi", t, s], t != "lat") : ""
            m = (("mpich", t, s) in v) ? agg(v["mpich", t, s], t != "lat") : ""
            peer = ""
            if (o != "") peer = o
            if (m != "" && (peer == "" || (t == "lat" ? m + 0 < peer + 0 : m + 0 > peer + 0))) peer = m
            ratio = (r != "" && peer != "" && peer > 0) ? sprintf("%.2f", r / peer) : "n/a"
            printf "%8s | %10s | %10s | %10s | %10s\n", human(s), fmt(r, t), fmt(o, t), fmt(m, t), ratio
        }
    }
}' "$tmp/all"

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

usage() {
    sed -n '2,/^set -u/p' "$0" | sed '$d; s/^# \{0,1\}//'
    exit "${1:-0}"
}

quick=0 sizes='' tests=lat,bw,bibw,rate,mr libs=rdmpi,openmpi,mpich
rounds='' reps='' tgt='' raw='' builddir='' best=0
while [ $# -gt 0 ]; do
    case $1 in
    --quick) quick=1 ;;
    --sizes) sizes=${2:?--sizes needs a list}; shift ;;
    --sizes=*) sizes=${1#*=} ;;
    --tests) tests=${2:?--tests needs a list}; shift ;;
    --tests=*) tests=${1#*=} ;;
    --libs) libs=${2:?--libs needs a list}; shift ;;
    --libs=*) libs=${1#*=} ;;
    --rounds) rounds=${2:?}; shift ;;
    --rounds=*) rounds=${1#*=} ;;
    --reps) reps=${2:?}; shift ;;
    --reps=*) reps=${1#*=} ;;
    --time) tgt=${2:?}; shift ;;
    --time=*) tgt=${1#*=} ;;
    --best) best=1 ;;
    --raw) raw=${2:?}; shift ;;
    --raw=*) raw=${1#*=} ;;
    -h | --help) usage 0 ;;
    -*) echo "run.sh: unknown option $1" >&2; usage 2 >&2 ;;
    *) [ -z "$builddir" ] || usage 2 >&2; builddir=$1 ;;
    esac
    shift
done
if [ "$quick" = 1 ]; then
    : "${sizes:=0,1,8,64,512,4K,32K,64K,256K,1M,4M,16M}" "${rounds:=3}" "${reps:=3}" "${tgt:=5}"
else
    : "${sizes:=0-16M}" "${rounds:=5}" "${reps:=5}" "${tgt:=10}"
fi
builddir=${builddir:-build}
srcdir=$(cd "$(dirname "$0")" && pwd) || exit 1
cflags=${P2P_CFLAGS:--O2}
tmo=${P2P_TIMEOUT:-600}
ompi_cc=${P2P_OMPI_MPICC:-mpicc.openmpi} ompi_run=${P2P_OMPI_MPIRUN:-mpirun.openmpi}
mpich_cc=${P2P_MPICH_MPICC:-mpicc.mpich} mpich_run=${P2P_MPICH_MPIEXEC:-mpiexec.hydra}
case ",$libs," in *,rdmpi,*) want_rdmpi=1 ;; *) want_rdmpi=0 ;; esac

tmp=$(mktemp -d "${TMPDIR:-/tmp}/rdmpi-p2p.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
notes=() # printed with the results

# ------------------------------------------------------------------ build
cc_floor=$(command -v cc || command -v gcc || command -v clang)
# shellcheck disable=SC2086 # flags are lists of words
$cc_floor $cflags -pthread "$srcdir/floor.c" -o "$tmp/floor" || exit 1

names=() # libraries that built
declare -A cmd label
# try NAME LABEL COMPILER LAUNCHER...: build p2p with COMPILER, smoke-test it
try() {
    local n=$1 lab=$2 mpicc=$3
    shift 3
    label[$n]=$lab
    # shellcheck disable=SC2086
    if ! "$mpicc" $cflags "$srcdir/p2p.c" -o "$tmp/p2p_$n" 2>"$tmp/$n.build"; then
        notes+=("$lab: n/a: '$mpicc $srcdir/p2p.c' failed: $(grep -m1 -iE "error|undefined" "$tmp/$n.build" || head -n1 "$tmp/$n.build")")
        return
    fi
    cmd[$n]="$* $tmp/p2p_$n"
    # shellcheck disable=SC2086
    if ! timeout 60 ${cmd[$n]} -t lat -s 0,1K -r 1 -T 1 >"$tmp/$n.smoke" 2>&1; then
        notes+=("$lab: n/a: the smoke run '${cmd[$n]} -t lat -s 0,1K' failed: $(grep -v '^#' "$tmp/$n.smoke" | tail -n 3 | tr '\n' ' ')")
        return
    fi
    names+=("$n")
}

if [ "$want_rdmpi" = 1 ]; then
    rdmpicc="$builddir/launcher/rdmpicc"
    rrun="$builddir/launcher/rrun/rrun"
    if [ ! -x "$rdmpicc" ] || [ ! -x "$rrun" ]; then
        label[rdmpi]=rdmpi
        notes+=("rdmpi: n/a: $rdmpicc or $rrun is missing (build rdmpi: make -C $builddir)")
    else
        rrun=$(cd "$(dirname "$rrun")" && pwd)/rrun
        # shellcheck disable=SC2086
        try rdmpi rdmpi "$rdmpicc" "$rrun" ${P2P_RRUN_FLAGS:-} -np 2
    fi
fi
case ",$libs," in *,openmpi,*)
    if command -v "$ompi_cc" >/dev/null && command -v "$ompi_run" >/dev/null; then
        # shellcheck disable=SC2086
        try openmpi "Open MPI" "$ompi_cc" "$ompi_run" --allow-run-as-root --bind-to core \
            ${P2P_OMPI_FLAGS:-} -np 2
    else
        label[openmpi]="Open MPI"
        notes+=("Open MPI: n/a: $ompi_cc or $ompi_run not found")
    fi ;;
esac
case ",$libs," in *,mpich,*)
    if command -v "$mpich_cc" >/dev/null && command -v "$mpich_run" >/dev/null; then
        # shellcheck disable=SC2086
        try mpich MPICH "$mpich_cc" "$mpich_run" -bind-to core ${P2P_MPICH_FLAGS:-} -n 2
    else
        label[mpich]=MPICH
        notes+=("MPICH: n/a: $mpich_cc or $mpich_run not found")
    fi ;;
esac

# busy, check_idle
# shellcheck source=bench/lib.sh
. "$srcdir/../lib.sh"

# ------------------------------------------------------------------- runs
echo "# p2p benchmark: 2 ranks, one per core, on $(hostname) ($(nproc) cores), $(date '+%F %T')"
echo "# tests $tests, sizes $sizes; $rounds rounds, libraries interleaved in each;"
if [ "$best" = 1 ]; then
    echo "# each run: $reps repetitions of ~$tgt ms; tables show the BEST repetition of all rounds (--best)"
else
    echo "# each run reports the median of $reps repetitions of ~$tgt ms; tables show the median over rounds"
fi
for n in "${names[@]}"; do
    lib=$(sed -n 's/^# p2p .* library=//p' "$tmp/$n.smoke" | head -n1)
    printf '# %-8s %s   [%s]\n' "$n:" "${cmd[$n]/$tmp\//}" "$lib"
done
envs=$(env | grep -E '^(RDMPI_|OMPI_MCA_|MPIR_CVAR_|UCX_|FI_|HYDRA_)' | sort | tr '\n' ' ')
[ -z "$envs" ] || echo "# environment: $envs"

check_idle "before the run"
failed=" " # "lib:test" pairs that failed once and are not run again
: >"$tmp/all"
for ((r = 1; r <= rounds; r++)); do
    echo "# round $r/$rounds" >&2
    "$tmp/floor" -r 5 | sed -n "s/^floor /floor $r /p" >>"$tmp/all"
    for t in ${tests//,/ }; do
        # rotate the order of the libraries each round
        order=()
        for ((i = 0; i < ${#names[@]}; i++)); do
            order+=("${names[(i + r) % ${#names[@]}]}")
        done
        for n in "${order[@]}"; do
            case $failed in *" $n:$t "*) continue ;; esac
            # shellcheck disable=SC2086
            if timeout "$tmo" ${cmd[$n]} -t "$t" -s "$sizes" -r "$reps" -T "$tgt" \
                >"$tmp/out" 2>"$tmp/err"; then
                grep -v '^#' "$tmp/out" | sed "s/^/$n $r /" >>"$tmp/all"
            else
                rc=$?
                [ $rc = 124 ] && why="timed out after $tmo s" || why="exit status $rc"
                notes+=("${label[$n]}: $t failed in round $r ($why), not run again: $( (grep -v '^#' "$tmp/out"; cat "$tmp/err") | tail -n 3 | tr '\n' ' ')")
                failed="$failed$n:$t "
                # keep what it printed before failing
                grep -v '^#' "$tmp/out" | sed "s/^/$n $r /" >>"$tmp/all"
            fi
        done
    done
done
[ -z "$raw" ] || { echo "# lib round test size median min max iters window | floor round what [size] median min max" >"$raw"; cat "$tmp/all" >>"$raw"; }

# ----------------------------------------------------------------- tables
check_idle "after the run"
for note in "${notes[@]}"; do echo "# note: $note"; done
awk -v tests="$tests" -v best="$best" '
BEGIN { best = best + 0 }   # 1: --best
# agg: the median of a list, or with --best its lowest (LOW) or highest value
function agg(list, low,   n, a, i, x) {
    if (!best) return median(list)
    n = split(list, a, " "); x = a[1]
    for (i = 2; i <= n; i++) if (low ? a[i] + 0 < x + 0 : a[i] + 0 > x + 0) x = a[i]
    return x
}
function median(list,   n, a, i, j, t) {
    n = split(list, a, " ")
    for (i = 2; i <= n; i++)            # insertion sort, n is small
        for (j = i; j > 1 && a[j - 1] + 0 > a[j] + 0; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
    return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}
function range(list, f,   n, a, i, lo, hi) {    # "lo..hi" over the rounds
    n = split(list, a, " "); lo = hi = a[1]
    for (i = 2; i <= n; i++) { if (a[i] + 0 < lo + 0) lo = a[i]; if (a[i] + 0 > hi + 0) hi = a[i] }
    return sprintf(f "..." f, lo, hi)
}
function human(s) {
    if (s >= 1048576 && s % 1048576 == 0) return (s / 1048576) "M"
    if (s >= 1024 && s % 1024 == 0) return (s / 1024) "K"
    return s
}
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
    cl = ("cacheline_us" in fl) ? sprintf("%.3f", agg(fl["cacheline_us"], 1)) : "n/a"
    m1 = ("memcpy1048576" in fl) ? sprintf("%.0f", agg(fl["memcpy1048576"], 0)) : "n/a"
    m16 = ("memcpy16777216" in fl) ? sprintf("%.0f", agg(fl["memcpy16777216"], 0)) : "n/a"
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
        for (i = 2; i <= ns; i++)
            for (j = i; j > 1 && S[j - 1] + 0 > S[j] + 0; j--) { x = S[j]; S[j] = S[j - 1]; S[j - 1] = x }
        for (i = 1; i <= ns; i++) {
            s = S[i]
            r = (("rdmpi", t, s) in v) ? agg(v["rdmpi", t, s], t == "lat") : ""
            o = (("openmpi", t, s) in v) ? agg(v["openmpi", t, s], t == "lat") : ""
            m = (("mpich", t, s) in v) ? agg(v["mpich", t, s], t == "lat") : ""
            peer = ""
            if (o != "") peer = o
            if (m != "" && (peer == "" || (t == "lat" ? m + 0 < peer + 0 : m + 0 > peer + 0))) peer = m
            ratio = (r != "" && peer != "" && peer > 0) ? sprintf("%.2f", r / peer) : "n/a"
            printf "%8s | %10s | %10s | %10s | %10s\n", human(s), fmt(r, t), fmt(o, t), fmt(m, t), ratio
        }
    }
}' "$tmp/all"

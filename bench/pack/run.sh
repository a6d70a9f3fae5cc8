#!/bin/bash
# run.sh - packing benchmark of rdmpi against Open MPI and MPICH in one run
# (a benchmark, not a test): MPI_Pack / MPI_Unpack of 1 MiB of doubles at
# stride 2 against memcpy of 1 MiB, one process per library. See
# bench/pack/README.md.
#
#   bench/pack/run.sh [options] [BUILD_DIR]      (BUILD_DIR default: ./build)
#
#   --rounds N     interleaved rounds (default 5); the table shows medians
#   --reps N       timed repetitions in one run (default 21)
#   --time MS      duration of one timed repetition (default 20)
#   --libs LIST    rdmpi,openmpi,mpich (default: all)
#   -- ARGS        passed to pack (e.g. -- -b 4 -s 3: blocks of 4 doubles,
#                  stride 3 blocks)
#
# The peers' tools: PACK_OMPI_MPICC, PACK_OMPI_MPIRUN, PACK_MPICH_MPICC,
# PACK_MPICH_MPIEXEC (default: mpicc.openmpi, mpirun.openmpi, mpicc.mpich,
# mpiexec.hydra); compiler flags PACK_CFLAGS (default -O2); time limit of
# one run in seconds: PACK_TIMEOUT (default 300).
set -u

# shellcheck source=bench/lib.sh
. "$(dirname "$0")/../lib.sh"

rounds=5 reps=21 tgt=20 libs=rdmpi,openmpi,mpich builddir='' extra=()
while [ $# -gt 0 ]; do
    case $1 in
    --rounds) rounds=${2:?}; shift ;;
    --reps) reps=${2:?}; shift ;;
    --time) tgt=${2:?}; shift ;;
    --libs) libs=${2:?}; shift ;;
    --) shift; extra=("$@"); break ;;
    -h | --help) bench_usage 0 ;;
    -*) echo "run.sh: unknown option $1" >&2; exit 2 ;;
    *) builddir=$1 ;;
    esac
    shift
done
bench_setup pack PACK 300

smoke_tmo=120
bench_lib rdmpi rdmpi &&
    bench_try rdmpi "$rdmpicc" "$srcdir/pack.c" "$tmp/pack_rdmpi" "-r 1 -T 1" "$rrun" -np 1
bench_lib openmpi "Open MPI" &&
    bench_try openmpi "$ompi_cc" "$srcdir/pack.c" "$tmp/pack_openmpi" "-r 1 -T 1" "$ompi_run" \
        --allow-run-as-root --bind-to core -np 1
bench_lib mpich MPICH &&
    bench_try mpich "$mpich_cc" "$srcdir/pack.c" "$tmp/pack_mpich" "-r 1 -T 1" "$mpich_run" -bind-to core -n 1

echo "# pack benchmark on $(hostname) ($(nproc) cores), $(date '+%F %T'); $rounds rounds, libraries interleaved"
echo "# load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
for n in "${names[@]}"; do
    printf '# %-8s %s\n' "$n:" "$(sed -n 's/^# pack: //p' "$tmp/$n.smoke" | head -n 1)"
done
: >"$tmp/all"
for ((r = 1; r <= rounds; r++)); do
    bench_order "$r"
    for n in "${order[@]}"; do
        if bench_run "${cmd[$n]}" -r "$reps" -T "$tgt" "${extra[@]}"; then
            bench_keep "$n $r"
        else
            notes+=("${label[$n]}: round $r failed: $(cat "$tmp/out" "$tmp/err" | tail -n 2 | tr '\n' ' ')")
        fi
    done
done
echo "# load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
bench_notes
# lines: lib round what bytes median min max gbps
awk "$bench_awk"'
{ v[$1, $3] = v[$1, $3] " " $5; bytes = $4 }
END {
    printf "\n## %d bytes of data; microseconds per call, median over rounds (GB/s of data)\n", bytes
    printf "%-8s | %18s | %18s | %18s | %12s | %12s\n", "", "rdmpi", "Open MPI", "MPICH", "rdmpi/OMPI", "rdmpi/MPICH"
    split("pack unpack memcpy", W, " ")
    split("rdmpi openmpi mpich", L, " ")
    for (k = 1; k <= 3; k++) {
        w = W[k]
        line = sprintf("%-8s", w)
        for (l = 1; l <= 3; l++) {
            m[l] = ((L[l], w) in v) ? median(v[L[l], w]) : ""
            line = line sprintf(" | %18s", m[l] == "" ? "n/a" : sprintf("%8.1f (%5.2f)", m[l], bytes / m[l] / 1e3))
        }
        for (l = 2; l <= 3; l++)
            line = line sprintf(" | %12s", m[1] != "" && m[l] != "" ? sprintf("%.2f", m[1] / m[l]) : "n/a")
        print line
        for (l = 1; l <= 3; l++) med[L[l], w] = m[l]
    }
    printf "\n## time relative to memcpy of the same bytes in the same run (lower is better)\n"
    printf "%-8s | %10s | %10s | %10s\n", "", "rdmpi", "Open MPI", "MPICH"
    for (k = 1; k <= 2; k++) {
        w = W[k]
        line = sprintf("%-8s", w)
        for (l = 1; l <= 3; l++) {
            a = med[L[l], w]; b = med[L[l], "memcpy"]
            line = line sprintf(" | %10s", a != "" && b != "" && b > 0 ? sprintf("%.2f", a / b) : "n/a")
        }
        print line
    }
}' "$tmp/all"

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
# mpiexec.hydra); compiler flags PACK_CFLAGS (default -O2).
set -u
rounds=5 reps=21 tgt=20 libs=rdmpi,openmpi,mpich builddir='' extra=()
while [ $# -gt 0 ]; do
    case $1 in
    --rounds) rounds=${2:?}; shift ;;
    --reps) reps=${2:?}; shift ;;
    --time) tgt=${2:?}; shift ;;
    --libs) libs=${2:?}; shift ;;
    --) shift; extra=("$@"); break ;;
    -h | --help) sed -n '2,/^set -u/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    -*) echo "run.sh: unknown option $1" >&2; exit 2 ;;
    *) builddir=$1 ;;
    esac
    shift
done
builddir=${builddir:-build}
srcdir=$(cd "$(dirname "$0")" && pwd) || exit 1
cflags=${PACK_CFLAGS:--O2}
ompi_cc=${PACK_OMPI_MPICC:-mpicc.openmpi} ompi_run=${PACK_OMPI_MPIRUN:-mpirun.openmpi}
mpich_cc=${PACK_MPICH_MPICC:-mpicc.mpich} mpich_run=${PACK_MPICH_MPIEXEC:-mpiexec.hydra}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/rdmpi-pack.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
names=() notes=()
declare -A cmd label

# try NAME LABEL COMPILER LAUNCHER...: build pack.c, smoke-test it
try() {
    local n=$1 lab=$2 cc=$3
    shift 3
    label[$n]=$lab
    # shellcheck disable=SC2086
    if ! "$cc" $cflags "$srcdir/pack.c" -o "$tmp/pack_$n" 2>"$tmp/$n.build"; then
        notes+=("$lab: n/a: the build failed: $(head -n 2 "$tmp/$n.build" | tr '\n' ' ')")
        return
    fi
    cmd[$n]="$* $tmp/pack_$n"
    # shellcheck disable=SC2086
    if ! timeout 120 ${cmd[$n]} -r 1 -T 1 >"$tmp/$n.smoke" 2>&1; then
        notes+=("$lab: n/a: the smoke run failed: $(tail -n 3 "$tmp/$n.smoke" | tr '\n' ' ')")
        return
    fi
    names+=("$n")
}

case ",$libs," in *,rdmpi,*)
    if [ -x "$builddir/launcher/rdmpicc" ] && [ -x "$builddir/launcher/rrun/rrun" ]; then
        try rdmpi rdmpi "$builddir/launcher/rdmpicc" "$(cd "$builddir/launcher/rrun" && pwd)/rrun" -np 1
    else
        label[rdmpi]=rdmpi
        notes+=("rdmpi: n/a: no rdmpicc/rrun in $builddir (build rdmpi first)")
    fi ;;
esac
case ",$libs," in *,openmpi,*)
    if command -v "$ompi_cc" >/dev/null && command -v "$ompi_run" >/dev/null; then
        try openmpi "Open MPI" "$ompi_cc" "$ompi_run" --allow-run-as-root --bind-to core -np 1
    else
        label[openmpi]="Open MPI"; notes+=("Open MPI: n/a: $ompi_cc or $ompi_run not found")
    fi ;;
esac
case ",$libs," in *,mpich,*)
    if command -v "$mpich_cc" >/dev/null && command -v "$mpich_run" >/dev/null; then
        try mpich MPICH "$mpich_cc" "$mpich_run" -bind-to core -n 1
    else
        label[mpich]=MPICH; notes+=("MPICH: n/a: $mpich_cc or $mpich_run not found")
    fi ;;
esac

echo "# pack benchmark on $(hostname) ($(nproc) cores), $(date '+%F %T'); $rounds rounds, libraries interleaved"
echo "# load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
for n in "${names[@]}"; do
    printf '# %-8s %s\n' "$n:" "$(sed -n 's/^# pack: //p' "$tmp/$n.smoke" | head -n 1)"
done
: >"$tmp/all"
for ((r = 1; r <= rounds; r++)); do
    for ((i = 0; i < ${#names[@]}; i++)); do
        n=${names[(i + r) % ${#names[@]}]}
        # shellcheck disable=SC2086
        if timeout 300 ${cmd[$n]} -r "$reps" -T "$tgt" "${extra[@]}" >"$tmp/out" 2>&1; then
            grep -v '^#' "$tmp/out" | sed "s/^/$n $r /" >>"$tmp/all"
        else
            notes+=("${label[$n]}: round $r failed: $(tail -n 2 "$tmp/out" | tr '\n' ' ')")
        fi
    done
done
echo "# load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
for note in "${notes[@]}"; do echo "# note: $note"; done
# lines: lib round what bytes median min max gbps
awk '
function median(list,   n, a, i, j, t) {
    n = split(list, a, " ")
    for (i = 2; i <= n; i++)
        for (j = i; j > 1 && a[j - 1] + 0 > a[j] + 0; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
    return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}
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

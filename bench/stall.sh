#!/bin/bash
# stall.sh - an oversubscribed application beside another program: how
# steadily an 8-rank hydrodynamics proxy (examples/hydro3d.c) advances on a
# machine it shares, with rdmpi (its default: unbound when oversubscribed,
# and bound, --bind-to core), Open MPI and MPICH (a benchmark, not a test).
#
#   bench/stall.sh [BUILDDIR]              (default: the current directory)
#   ROUNDS=6 NP=8 SIZE=14 STEPS=300 HOG=0 bench/stall.sh build
#
# HOG: the CPU a busy loop is pinned to, in a session of its own, for the
# whole benchmark ("none": no hog). The program prints its progress every
# 10 steps; for each run the script takes the wall time and the longest gap
# between two progress lines over the run's median gap (1 would be perfectly
# steady; a stall shows as a long gap). Rounds run the libraries one after
# the other (interleaved). Prints per library the median wall time, the
# median and worst gap ratio and the worst gap in seconds, and rdmpi's
# ratios to Open MPI and MPICH.
set -u

. "$(dirname "$0")/lib.sh"
rounds=${ROUNDS:-6}
np=${NP:-8}
size=${SIZE:-14}
steps=${STEPS:-300}
hogcpu=${HOG:-0}

hog=
bench_cleanup() { [ -n "$hog" ] && kill "$hog" 2>/dev/null; }
bench_start stall.sh "${1:-.}"

args="-s $size -i $steps -p 10"
declare -A cmd exe=([openmpi]=hydro_ompi [mpich]=hydro_mpich)
bench_build "$srcdir/examples/hydro3d.c" hydro -lm
names=(rdmpi rdmpi-bound "${peers[@]}")
cmd[rdmpi]="$rrun -np $np ./hydro_rdmpi $args"
cmd[rdmpi-bound]="$rrun --bind-to core -np $np ./hydro_rdmpi $args"
for p in "${peers[@]}"; do cmd[$p]="${launch[$p]} $np ./${exe[$p]} $args"; done

if [ "$hogcpu" != none ]; then
    setsid taskset -c "$hogcpu" sh -c 'while :; do :; done' &
    hog=$!
fi

# run NAME: one run; appends "wall_s gap_ratio max_gap_s" to $tmp/NAME.runs
run() {
    local t0 t1 out=$tmp/$1.out
    t0=${EPOCHREALTIME/[.,]/}
    # shellcheck disable=SC2086 # the command is a list of words
    if ! timeout -k 10 900 ${cmd[$1]} >"$out" 2>&1; then
        echo "stall.sh: '${cmd[$1]}' failed:" >&2
        tail -20 "$out" >&2
        exit 1
    fi
    t1=${EPOCHREALTIME/[.,]/}
    # the program's own elapsed seconds at each progress line
    awk -v wall=$(((t1 - t0) / 1000)) '
        /^step / { t[++n] = $NF }
        END {
            for (i = 2; i <= n; i++) g[i - 1] = t[i] - t[i - 1]
            m = n - 1; if (m < 1) { print wall / 1e3, 0, 0; exit }
            # median gap (insertion sort: a few dozen values)
            for (i = 2; i <= m; i++) { v = g[i]; for (j = i - 1; j >= 1 && g[j] > v; j--) g[j + 1] = g[j]; g[j + 1] = v }
            med = (m % 2) ? g[(m + 1) / 2] : (g[m / 2] + g[m / 2 + 1]) / 2
            printf "%.2f %.2f %.2f\n", wall / 1e3, (med > 0 ? g[m] / med : 0), g[m]
        }' "$out" >>"$tmp/$1.runs"
}

for n in "${names[@]}"; do : >"$tmp/$n.runs"; done
for ((r = 0; r < rounds; r++)); do
    for n in "${names[@]}"; do run "$n"; done
done

# median of column C of a file
median() {
    awk -v c="$2" '{ print $c }' "$1" | sort -n | awk '{ v[NR] = $1 }
        END { printf "%.2f\n", (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
worst() { awk -v c="$2" '$c > m { m = $c } END { printf "%.2f\n", m }' "$1"; }

beside="nothing started"
[ -n "$hog" ] && beside="a busy loop pinned to CPU $hogcpu"
echo "# examples/hydro3d -s $size -i $steps on $np ranks, $rounds interleaved rounds, $(nproc) cores on $(hostname), beside: $beside"
printf '%-12s %9s %11s %10s %10s  %s\n' library wall_med gapratio_med gapratio_max maxgap_s command
declare -A wall gmed
for n in "${names[@]}"; do
    wall[$n]=$(median "$tmp/$n.runs" 1)
    gmed[$n]=$(median "$tmp/$n.runs" 2)
    printf '%-12s %9s %11s %10s %10s  %s\n' "$n" "${wall[$n]}" "${gmed[$n]}" \
        "$(worst "$tmp/$n.runs" 2)" "$(worst "$tmp/$n.runs" 3)" "${cmd[$n]}"
done
for n in rdmpi-bound openmpi mpich; do
    [ -n "${wall[$n]:-}" ] || continue
    awk -v a="${wall[rdmpi]}" -v b="${wall[$n]}" -v ga="${gmed[rdmpi]}" -v gb="${gmed[$n]}" -v n="$n" \
        'BEGIN { printf "ratio rdmpi/%s: wall (median) %.3f, gap ratio (median) %.3f\n", n, a / b, ga / gb }'
done

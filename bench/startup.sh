#!/bin/bash
# startup.sh - how long a 4-rank hello takes from launch to exit, with rrun
# against Open MPI's mpirun and MPICH's mpiexec.hydra, and a singleton (the
# same program started without a launcher: MPI_Init and MPI_Finalize alone)
# of each library (a benchmark, not a test).
#
#   bench/startup.sh [BUILDDIR]        (default: the current directory)
#   ROUNDS=20 NP=4 bench/startup.sh ...
#
# One hello source (examples/hello.c) is built with rdmpicc, mpicc.openmpi and
# mpicc.mpich; then ROUNDS rounds each run the three launchers one after the
# other (interleaved, so that a slow moment of the machine hurts all alike),
# output to /dev/null. Prints median and min wall time per launcher and the
# ratios of rdmpi's median to the others'. A launcher whose tools are missing
# is left out; a failed run is reported and stops the benchmark.
set -u

. "$(dirname "$0")/lib.sh"
rounds=${ROUNDS:-20}
np=${NP:-4}
bench_start startup.sh "${1:-.}"

declare -A cmd exe=([rdmpi]=hello_rdmpi [openmpi]=hello_ompi [mpich]=hello_mpich)
bench_build "$srcdir/examples/hello.c" hello
names=(rdmpi rdmpi-1)
cmd[rdmpi]="$rrun -np $np ./hello_rdmpi"
cmd[rdmpi-1]="./hello_rdmpi"
for p in "${peers[@]}"; do
    names+=("$p" "$p-1")
    cmd[$p]="${launch[$p]} $np ./${exe[$p]}"
    cmd[$p-1]="./${exe[$p]}"
done

# Nanoseconds since the epoch, without a fork when bash has EPOCHREALTIME.
now_ns() {
    if [ -n "${EPOCHREALTIME:-}" ]; then
        local t=${EPOCHREALTIME/[.,]/}
        echo "${t}000"
    else
        date +%s%N
    fi
}

# run NAME: one timed run, its time (ns) appended to $tmp/NAME.times
run() {
    local t0 t1
    t0=$(now_ns)
    # shellcheck disable=SC2086 # the command is a list of words
    if ! timeout -k 10 60 ${cmd[$1]} >/dev/null 2>"$tmp/$1.err"; then
        echo "startup.sh: '${cmd[$1]}' failed:" >&2
        cat "$tmp/$1.err" >&2
        exit 1
    fi
    t1=$(now_ns)
    echo $((t1 - t0)) >>"$tmp/$1.times"
}

# one warm-up run each (page cache, first-time setup), not counted
for n in "${names[@]}"; do run "$n"; done
for n in "${names[@]}"; do : >"$tmp/$n.times"; done
for ((r = 0; r < rounds; r++)); do
    for n in "${names[@]}"; do run "$n"; done
done

# median and min of a times file, in ms with 2 decimals
stats() {
    sort -n "$1" | awk '{ v[NR] = $1 }
        END { m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2;
              printf "%.2f %.2f\n", m / 1e6, v[1] / 1e6 }'
}

echo "# startup of $np ranks of examples/hello.c, $rounds interleaved rounds, $(nproc) cores on $(hostname)"
printf '%-10s %10s %10s  %s\n' launcher median_ms min_ms command
declare -A median
for n in "${names[@]}"; do
    read -r med min < <(stats "$tmp/$n.times")
    median[$n]=$med
    printf '%-10s %10s %10s  %s\n' "$n" "$med" "$min" "${cmd[$n]}"
done
for s in "" -1; do
    for n in openmpi mpich; do
        [ -n "${median[$n$s]:-}" ] || continue
        awk -v a="${median[rdmpi$s]}" -v b="${median[$n$s]}" -v n="$n$s" -v r="rdmpi$s" \
            'BEGIN { printf "ratio %s/%s (median): %.3f\n", r, n, a / b }'
    done
done
echo "# (-1: a singleton, started without a launcher)"

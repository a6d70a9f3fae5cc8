# shellcheck shell=bash
# lib.sh - shell helpers shared by the benchmark scripts (source it).

# busy: percentage of the machine's CPU time used (by anything) over 1 s
busy() {
    local a b
    read -r -a a < <(grep '^cpu ' /proc/stat 2>/dev/null) || { echo "?"; return; }
    sleep 1
    read -r -a b < <(grep '^cpu ' /proc/stat)
    local total=0 i
    for ((i = 1; i < ${#a[@]}; i++)); do total=$((total + b[i] - a[i])); done
    local idle=$((b[4] - a[4] + b[5] - a[5]))
    [ "$total" -gt 0 ] && echo $((100 - 100 * idle / total)) || echo "?"
}

# check_idle WHEN: say how busy the machine is, and warn when something
# else uses the cores (the figures would be noise)
check_idle() {
    local pct
    pct=$(busy)
    echo "# machine $pct% busy $1 (load average $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null))"
    case $pct in
    [0-9] | '?') ;;
    *) echo "# WARNING: other processes use the cores ($pct% busy $1): the figures are not trustworthy" ;;
    esac
}

# bench_start NAME [BUILDDIR]: the built tree to measure (default: the
# current directory) or exit with a message; sets builddir, srcdir, rdmpicc
# and rrun, and makes a scratch directory $tmp the working directory. At
# exit, bench_cleanup (if the script defines one) runs, then $tmp goes.
bench_start() {
    bench_name=$1
    builddir=$(cd "${2:-.}" && pwd) || exit 1
    srcdir=$(cd "$(dirname "${BASH_SOURCE[1]}")/.." && pwd)
    rdmpicc="$builddir/launcher/rdmpicc"
    rrun="$builddir/launcher/rrun/rrun"
    local f
    for f in "$rdmpicc" "$rrun"; do
        [ -x "$f" ] || { echo "$bench_name: $f is missing: build rdmpi first (make -C $builddir)" >&2; exit 1; }
    done
    tmp=$(mktemp -d "${TMPDIR:-/tmp}/rdmpi-bench.XXXXXX") || exit 1
    trap bench_exit EXIT
    trap 'exit 1' INT TERM
    cd "$tmp" || exit 1
}
bench_exit() {
    declare -F bench_cleanup >/dev/null && bench_cleanup
    rm -rf "$tmp"
}

# bench_build SRC BASE [LDFLAGS...]: SRC built with -O2 by rdmpicc into
# BASE_rdmpi, and by each peer's compiler (BASE_ompi, BASE_mpich) when its
# compiler and launcher are installed; sets peers to those built (openmpi,
# mpich) and says which were left out. A failed build exits.
bench_build() {
    local src=$1 base=$2
    shift 2
    "$rdmpicc" -O2 "$src" -o "${base}_rdmpi" "$@" || exit 1
    peers=()
    if command -v mpicc.openmpi >/dev/null && command -v mpirun.openmpi >/dev/null; then
        mpicc.openmpi -O2 "$src" -o "${base}_ompi" "$@" || exit 1
        peers+=(openmpi)
    else
        echo "# Open MPI (mpicc.openmpi, mpirun.openmpi) not found: left out"
    fi
    if command -v mpicc.mpich >/dev/null && command -v mpiexec.hydra >/dev/null; then
        mpicc.mpich -O2 "$src" -o "${base}_mpich" "$@" || exit 1
        peers+=(mpich)
    else
        echo "# MPICH (mpicc.mpich, mpiexec.hydra) not found: left out"
    fi
}

# The peers' launchers, for NP ranks: "${launch[openmpi]} NP ./prog".
declare -A launch=(
    [openmpi]="mpirun.openmpi --allow-run-as-root --oversubscribe -np"
    [mpich]="mpiexec.hydra -n"
)

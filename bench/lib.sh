# shellcheck shell=bash disable=SC2034,SC2154
# (SC2034, SC2154: the variables are the scripts' that source it)
# lib.sh - shell helpers shared by the benchmark scripts (source it).

# busy: percentage of the machine's CPU time used (by anything) over 1 s
busy() {
    local t0 t1
    read -r -a t0 < <(grep '^cpu ' /proc/stat 2>/dev/null) || { echo "?"; return; }
    sleep 1
    read -r -a t1 < <(grep '^cpu ' /proc/stat)
    local total=0 i
    for ((i = 1; i < ${#t0[@]}; i++)); do total=$((total + t1[i] - t0[i])); done
    local idle=$((t1[4] - t0[4] + t1[5] - t0[5]))
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

# ------------------------------------------------------------------------
# The frame of the comparison scripts (p2p/, coll/, rma/, pack/ run.sh):
# each builds one program with every library's compiler, runs the libraries
# interleaved round by round, and prints medians over the rounds. What they
# share is here, so that all compare the libraries the same way.

# bench_usage [STATUS]: the script's header comment (from its second line to
# `set -u`) as its usage, then exit STATUS (default 0)
bench_usage() {
    sed -n '2,/^set -u/p' "$0" | sed '$d; s/^# \{0,1\}//'
    exit "${1:-0}"
}

# bench_options ARGS...: the whole command line. A script's own options
# go to its function own_option (when it defines one): it takes the head
# of ARGS when it returns 0, and sets bench_shift when that is 2 words;
# the rest to bench_option.
bench_options() {
    while [ $# -gt 0 ]; do
        bench_shift=1
        if ! declare -F own_option >/dev/null || ! own_option "$@"; then
            bench_option "$@"
        fi
        shift "$bench_shift"
    done
}

# bench_option ARGS...: the options the comparison scripts share, at the
# head of ARGS: --quick, and with a value (--opt V or --opt=V) --sizes,
# --tests, --libs, --rounds, --reps, --time (into tgt), --raw; -h/--help;
# else an unknown option (usage, exit 2) or the build directory (one at
# most). Sets bench_shift to the number of words it took.
bench_option() {
    local opt=${1%%=*} val
    bench_shift=1
    case $1 in
    --quick) quick=1; return ;;
    -h | --help) bench_usage 0 ;;
    --sizes | --tests | --libs | --rounds | --reps | --time | --raw)
        [ $# -ge 2 ] || { echo "run.sh: $1 needs a value" >&2; exit 2; }
        val=$2 bench_shift=2 ;;
    --sizes=* | --tests=* | --libs=* | --rounds=* | --reps=* | --time=* | --raw=*) val=${1#*=} ;;
    -*) echo "run.sh: unknown option $1" >&2; bench_usage 2 >&2 ;;
    *) [ -z "$builddir" ] || bench_usage 2 >&2; builddir=$1; return ;;
    esac
    opt=${opt#--}
    [ "$opt" = time ] && opt=tgt
    printf -v "$opt" '%s' "$val"
}

# bench_setup NAME PREFIX TIMEOUT: after the options. builddir (default
# ./build), srcdir (the script's folder); from the environment under
# PREFIX (P2P, COLL, RMA, PACK): cflags (PREFIX_CFLAGS, default -O2), tmo
# (PREFIX_TIMEOUT, default TIMEOUT: seconds one run may take) and the
# peers' tools ompi_cc, ompi_run, mpich_cc, mpich_run (PREFIX_OMPI_MPICC,
# PREFIX_OMPI_MPIRUN, PREFIX_MPICH_MPICC, PREFIX_MPICH_MPIEXEC; default the
# Debian names). A scratch directory $tmp, removed at exit; empty notes
# (printed with the results), names (the libraries that built and passed
# the smoke run), failed, and the maps label, cmd and bin (by library).
bench_setup() {
    local p=$2 v
    builddir=${builddir:-build}
    srcdir=$(cd "$(dirname "${BASH_SOURCE[1]}")" && pwd) || exit 1
    v=${p}_CFLAGS; cflags=${!v:--O2}
    v=${p}_TIMEOUT; tmo=${!v:-$3}
    v=${p}_OMPI_MPICC; ompi_cc=${!v:-mpicc.openmpi}
    v=${p}_OMPI_MPIRUN; ompi_run=${!v:-mpirun.openmpi}
    v=${p}_MPICH_MPICC; mpich_cc=${!v:-mpicc.mpich}
    v=${p}_MPICH_MPIEXEC; mpich_run=${!v:-mpiexec.hydra}
    bench_tmp "$1"
    notes=() names=()
    failed=" " # "lib:test" pairs whose run failed: not run again
    declare -gA label=() cmd=() bin=()
}

# bench_tmp NAME: a scratch directory $tmp (rdmpi-NAME.XXXXXX), removed at exit
bench_tmp() {
    tmp=$(mktemp -d "${TMPDIR:-/tmp}/rdmpi-$1.XXXXXX") || exit 1
    trap 'rm -rf "$tmp"' EXIT
}

# bench_lib NAME LABEL: whether library NAME (rdmpi, openmpi or an Open MPI
# variant ompi-*, mpich) is in --libs and its compiler and launcher are
# there (rdmpi: in $builddir; sets rdmpicc, and rrun as an absolute path);
# one that is not gets a note. Sets label[NAME].
bench_lib() {
    local n=$1 c r
    case ",$libs," in *",$n,"*) ;; *) return 1 ;; esac
    label[$n]=$2
    case $n in
    rdmpi)
        rdmpicc="$builddir/launcher/rdmpicc"
        rrun="$builddir/launcher/rrun/rrun"
        if [ -x "$rdmpicc" ] && [ -x "$rrun" ]; then
            rrun=$(cd "$(dirname "$rrun")" && pwd)/rrun
            return 0
        fi
        notes+=("rdmpi: n/a: $rdmpicc or $rrun is missing (build rdmpi: make -C $builddir)")
        return 1 ;;
    mpich) c=$mpich_cc r=$mpich_run ;;
    *) c=$ompi_cc r=$ompi_run ;;
    esac
    command -v "$c" >/dev/null && command -v "$r" >/dev/null && return 0
    notes+=("$2: n/a: $c or $r not found")
    return 1
}

# bench_compile NAME CC SRC EXE: SRC built by CC with $cflags into EXE
# (kept if it is there already: libraries sharing a compiler share it);
# a failure gets the note "LABEL: n/a: 'CC SRC' failed$build_hint: ..."
bench_compile() {
    local n=$1 c=$2 src=$3 exe=$4
    [ -x "$exe" ] && return 0
    # shellcheck disable=SC2086 # flags are lists of words
    "$c" $cflags "$src" -o "$exe" 2>"$tmp/$n.build" && return 0
    notes+=("${label[$n]}: n/a: '$c $src' failed${build_hint:-}: $(grep -m1 -iE "error|undefined" "$tmp/$n.build" || head -n1 "$tmp/$n.build")")
    return 1
}

# bench_smoke KEY WHO COMMAND ARGS...: a short run of COMMAND (a list of
# words) with ARGS, at most $smoke_tmo seconds (default 60), its output in
# $tmp/KEY.smoke; a failure gets the note "WHO: the smoke run '...' failed: ..."
bench_smoke() {
    local key=$1 who=$2 c=$3
    shift 3
    # shellcheck disable=SC2086 # the command is a list of words
    timeout -k 10 "${smoke_tmo:-60}" $c "$@" >"$tmp/$key.smoke" 2>&1 && return 0
    notes+=("$who: the smoke run '${c//$tmp\//} $*' failed: $(grep -v '^#' "$tmp/$key.smoke" | tail -n 3 | tr '\n' ' ')")
    return 1
}

# bench_try NAME CC SRC EXE SMOKE LAUNCHER...: bench_compile, then
# cmd[NAME]="LAUNCHER... EXE" (bin[NAME]=EXE) and bench_smoke with the
# options SMOKE (a list of words); NAME joins names when both pass.
bench_try() {
    local n=$1 c=$2 src=$3 exe=$4 smoke=$5
    shift 5
    bench_compile "$n" "$c" "$src" "$exe" || return 0
    bin[$n]=$exe
    cmd[$n]="$* $exe"
    # shellcheck disable=SC2086
    bench_smoke "$n" "${label[$n]}: n/a" "${cmd[$n]}" $smoke && names+=("$n")
    return 0
}

# bench_commands PROG: the header lines "# NAME: COMMAND   [LIBRARY]" of
# the libraries in names (the library as PROG's smoke run named it)
bench_commands() {
    local n lib
    for n in "${names[@]}"; do
        lib=$(sed -n "s/^# $1 .* library=//p" "$tmp/$n.smoke" | head -n1)
        printf '# %-8s %s   [%s]\n' "$n:" "${cmd[$n]//$tmp\//}" "$lib"
    done
}

# bench_env: the header line naming the libraries' settings in the
# environment (none: no line)
bench_env() {
    local envs
    envs=$(env | grep -E '^(RDMPI_|OMPI_MCA_|MPIR_CVAR_|UCX_|FI_|HYDRA_)' | sort | tr '\n' ' ')
    [ -z "$envs" ] || echo "# environment: $envs"
}

# bench_order OFFSET: order=(the libraries of names, rotated by OFFSET):
# OFFSET is the round (plus the test's index where a script rotates per
# test too), so that each library takes each place in turn
bench_order() {
    local i
    order=()
    for ((i = 0; i < ${#names[@]}; i++)); do
        order+=("${names[(i + $1) % ${#names[@]}]}")
    done
}

# bench_each ROUND TEST OFFSET: TEST's runs of round ROUND, one for every
# library of names (-t TEST -s $sizes -r $reps -T $tgt), in the order
# rotated by OFFSET (bench_order); a library whose run of TEST fails is
# not run with TEST again
bench_each() {
    local r=$1 t=$2 n
    bench_order "$3"
    for n in "${order[@]}"; do
        case $failed in *" $n:$t "*) continue ;; esac
        bench_launch "$n $r" "${label[$n]}: $t" "$r" "${cmd[$n]}" -t "$t" -s "$sizes" -r "$reps" -T "$tgt" ||
            failed="$failed$n:$t "
    done
}

# bench_run COMMAND ARGS...: one timed run (at most $tmo seconds; COMMAND
# is a list of words), output in $tmp/out and $tmp/err; its exit status
bench_run() {
    local c=$1
    shift
    # shellcheck disable=SC2086 # the command is a list of words
    timeout -k 10 "$tmo" $c "$@" >"$tmp/out" 2>"$tmp/err"
}

# bench_keep PREFIX: the result lines of the last run (not the '#'
# comments; also those a failed run printed) to $tmp/all, after PREFIX
bench_keep() {
    grep -v '^#' "$tmp/out" | sed "s/^/$1 /" >>"$tmp/all"
}

# bench_failed WHAT ROUND STATUS: the note that the last run (WHAT, in
# round ROUND) failed with STATUS, with the last lines it printed (not the
# launchers' banners)
bench_failed() {
    local why
    [ "$3" = 124 ] && why="timed out after $tmo s" || why="exit status $3"
    notes+=("$1 failed in round $2 ($why), not run again: $( (grep -v '^#' "$tmp/out"; grep -v '^\[' "$tmp/err") | grep -v '^[- ]*$' | tail -n 3 | tr '\n' ' ')")
}

# bench_launch PREFIX WHAT ROUND COMMAND ARGS...: bench_run, bench_keep
# PREFIX, and bench_failed WHAT ROUND on a failure (then returns 1)
bench_launch() {
    local pre=$1 what=$2 round=$3 rc
    shift 3
    bench_run "$@"
    rc=$?
    bench_keep "$pre"
    [ $rc = 0 ] && return 0
    bench_failed "$what" "$round" $rc
    return 1
}

# bench_raw COLUMNS: with --raw FILE, every run's result lines ($tmp/all)
# to FILE under the header line "# COLUMNS"
bench_raw() {
    [ -z "$raw" ] || { echo "# $1" >"$raw"; cat "$tmp/all" >>"$raw"; }
}

# bench_notes: the notes, one "# note:" line each
bench_notes() {
    local note
    for note in "${notes[@]}"; do echo "# note: $note"; done
}

# bench_awk: awk functions for the tables; a script's program starts with
# it: awk "$bench_awk"'...'. With best set (-v best=1: --best), agg gives
# the best figure of a list instead of its median.
bench_awk='
function median(list,   n, a, i, j, t) {
    n = split(list, a, " ")
    for (i = 2; i <= n; i++)            # insertion sort, n is small
        for (j = i; j > 1 && a[j - 1] + 0 > a[j] + 0; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
    return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}
# the median of a list, or with best its lowest value (its highest: HIGH)
function agg(list, high,   n, a, i, x) {
    if (!best) return median(list)
    n = split(list, a, " "); x = a[1]
    for (i = 2; i <= n; i++) if (high ? a[i] + 0 > x + 0 : a[i] + 0 < x + 0) x = a[i]
    return x
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
# A[1..N] in increasing numeric order
function sortn(A, n,   i, j, x) {
    for (i = 2; i <= n; i++)
        for (j = i; j > 1 && A[j - 1] + 0 > A[j] + 0; j--) { x = A[j]; A[j] = A[j - 1]; A[j - 1] = x }
}
'

# ------------------------------------------------------------------------
# The device scripts (verbs/run.sh, rma/run-vm.sh): perftest beside rdmpi
# on one verbs device, medians of runs and ratios in shell.

# bench_device_start SCRIPT [BUILDDIR]: src (the source tree) and builddir
# (BUILDDIR, default ./build, absolute; exit 2 where there is none); where
# this machine has no verbs device, SCRIPT runs in the RDMA VM instead
# (test/tools/rdma-vm.sh) and this does not return
bench_device_start() {
    local script
    script=$(cd "$(dirname "$1")" && pwd)/$(basename "$1") || exit 1
    src=$(cd "$(dirname "$script")/../.." && pwd) || exit 1
    builddir=$(cd "${2:-build}" && pwd) || { echo "$(basename "$1"): no build directory ${2:-build}" >&2; exit 2; }
    # shellcheck source=test/tools/rdma-vm.sh
    . "$src/test/tools/rdma-vm.sh"
    rdma_vm_unless_device "$src" "$builddir" "$script"
}

# bench_rdma_dev DEV GID IP: dev, gid, ip and cmflag for perftest on DEV.
# iWARP connects through rdma_cm only (cmflag -R; the VM's siw device has
# an address of its own), RoCE and InfiniBand by GID index (GID, default:
# the VM's RDMA_VM_RXE_GID_INDEX, else 1). IP, the server's address for
# perftest's handshake, defaults to the VM's device's.
bench_rdma_dev() {
    dev=$1 gid=${2:-${RDMA_VM_RXE_GID_INDEX:-1}} ip=${3:-${RDMA_VM_RXE_IP:-}}
    case $(cat "/sys/class/infiniband/$dev/node_type" 2>/dev/null) in
    4:*) cmflag=-R; [ "$dev" = "${RDMA_VM_SIW_DEV:-}" ] && ip=${3:-${RDMA_VM_SIW_IP:-}} ;;
    *) cmflag="-x $gid" ;;
    esac
    return 0
}

# bench_rdma_header WHAT: the first lines of the output (WHAT benchmark on
# the device; inside the VM, that its figures are emulation's)
bench_rdma_header() {
    echo "# $1 benchmark on $dev ($(cat "/sys/class/infiniband/$dev/node_type" 2>/dev/null)), $(hostname), $(nproc) cores, $(date '+%F %T')"
    [ "${RDMA_VM:-}" != 1 ] ||
        echo "# inside the RDMA VM: QEMU software emulation (TCG), soft-RoCE; figures comparable only within this run"
}

# bench_perftest TOOL ARGS...: one perftest server and client pair on $dev
# with ARGS (the client gets the server's address $ip last); the client's
# output in $tmp/client, the server's in $tmp/server
bench_perftest() {
    local tool=$1 sp
    shift
    # shellcheck disable=SC2086 # $cmflag: -R or "-x GID"
    "$tool" -d "$dev" $cmflag -F "$@" >"$tmp/server" 2>&1 &
    sp=$!
    # the server listens on perftest's TCP port before the client may start
    for _ in $(seq 1 200); do
        ss -ltn 2>/dev/null | grep -q ':18515 ' && break
        sleep 0.05
    done
    # shellcheck disable=SC2086
    "$tool" -d "$dev" $cmflag -F "$@" "$ip" >"$tmp/client" 2>&1
    wait $sp
}

# bench_median: the median of the numbers on stdin, one a line (nothing
# when there are none)
bench_median() {
    sort -g | awk '{ a[NR] = $1 } END { if (NR) print (NR % 2 ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2) }'
}

# bench_ratio R P [F]: R / (F x P) to two places (F default 1), n/a
# without both
bench_ratio() {
    awk -v r="$1" -v p="$2" -v f="${3:-1}" 'BEGIN { if (r != "" && p > 0) printf "%.2f", r / (f * p); else print "n/a" }'
}

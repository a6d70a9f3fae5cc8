#!/bin/bash
# run.sh - MPI-IO benchmarks of rdmpi against Open MPI (its default io
# component, and ROMIO inside it) and MPICH, side by side in one run, on 2
# and 4 ranks of one node, beside the file system's floor (one process,
# plain pwrite/pread of the same bytes) measured by the same program in the
# same rounds (a benchmark, not a test). See bench/io/README.md.
#
#   bench/io/run.sh [options] [BUILD_DIR]       (BUILD_DIR default: ./build)
#
#   --quick          N = 256 (128 MiB), 3 rounds
#   --n N            the data: N^3 doubles (default 512: 1 GiB)
#   --np LIST        rank counts (default 2,4)
#   --dir DIR        where the files live (default BUILD_DIR; /dev/shm shows
#                    the libraries' own cost without the disk); a scratch
#                    folder in it is removed at the end
#   --tests LIST     bt,contig,strided,floor (default: all)
#   --libs LIST      rdmpi,openmpi,ompi-romio,mpich (default: all; ompi-romio
#                    is Open MPI with --mca io romioNNN, when ompi_info lists
#                    such a component)
#   --sizes LIST     the strided block sizes (default 4K,256)
#   --rounds N       interleaved rounds; the tables show medians over them
#                    (default 3)
#   --raw FILE       also write every run's result lines to FILE
#   --no-summary     leave out the table of issue 22's done-when cells
#
# Until rdmpi has the MPI_File calls, rdmpicc cannot build io.c: the
# rdmpi column then reads n/a, a note says why, and the peers run.
#
# rdmpi parameters pass through the environment (rrun's ranks inherit it).
# Extra launcher flags: IO_RRUN_FLAGS, IO_OMPI_FLAGS (both Open MPI
# columns), IO_MPICH_FLAGS; compiler flags: IO_CFLAGS (default -O2); time
# limit of one run in seconds: IO_TIMEOUT (default 900). The peers' tools:
# IO_OMPI_MPICC, IO_OMPI_MPIRUN, IO_OMPI_INFO, IO_MPICH_MPICC,
# IO_MPICH_MPIEXEC (default: the Debian names mpicc.openmpi,
# mpirun.openmpi, ompi_info, mpicc.mpich, mpiexec.hydra).
set -u

# shellcheck source=bench/lib.sh
. "$(dirname "$0")/../lib.sh"

all_tests=bt,contig,strided,floor
quick=0 sizes='' tests=$all_tests libs=rdmpi,openmpi,ompi-romio,mpich
rounds='' reps='' tgt='' raw='' builddir='' summary=1 n='' nps=2,4 dir=''
own_option() {
    local val
    case $1 in
    --no-summary) summary=0; return 0 ;;
    --reps | --reps=* | --time | --time=*)
        echo "run.sh: ${1%%=*} is not used by bench/io (one figure per run; rounds give the median)" >&2
        exit 2 ;;
    --n | --np | --dir)
        [ $# -ge 2 ] || { echo "run.sh: $1 needs a value" >&2; exit 2; }
        val=$2 bench_shift=2 ;;
    --n=* | --np=* | --dir=*) val=${1#*=} ;;
    *) return 1 ;;
    esac
    case ${1%%=*} in
    --n) n=$val ;;
    --np) nps=$val ;;
    --dir) dir=$val ;;
    esac
    return 0
}
bench_options "$@"
if [ "$quick" = 1 ]; then
    : "${n:=256}" "${rounds:=3}"
else
    : "${n:=512}" "${rounds:=3}"
fi
: "${sizes:=4K,256}"
for t in ${tests//,/ }; do
    case ",$all_tests," in *",$t,"*) ;; *) echo "run.sh: unknown test $t" >&2; exit 2 ;; esac
done
for l in ${libs//,/ }; do
    case $l in rdmpi | openmpi | ompi-romio | mpich) ;; *) echo "run.sh: unknown library $l" >&2; exit 2 ;; esac
done
for p in ${nps//,/ }; do
    case $p in [1-9] | [1-9][0-9]) ;; *) echo "run.sh: --np wants rank counts, not $p" >&2; exit 2 ;; esac
done
[[ $n =~ ^[1-9][0-9]*$ ]] || { echo "run.sh: --n wants a number, not $n" >&2; exit 2; }
bench_setup io IO 900
: "${dir:=$builddir}"
data=$(mktemp -d "$dir/rdmpi-io.XXXXXX") || { echo "run.sh: cannot make a folder in $dir" >&2; exit 2; }
data=$(cd "$data" && pwd)
trap 'rm -rf "$tmp" "$data"' EXIT
trap 'exit 1' INT TERM
ompi_info=${IO_OMPI_INFO:-ompi_info}

# ------------------------------------------------------------------ build
# io.c is built once per compiler (io_COMPILER): both Open MPI columns run
# the same program. The smoke run is small and on 2 ranks; cmd[NAME] then
# holds NP where the rank count goes.
build_hint=' (no MPI_File calls yet?)'
smoke="-t contig -n 16 -d $data"
# the ROMIO component Open MPI has, if any (Debian's 4.1: romio321)
romio=''
if command -v "$ompi_info" >/dev/null; then
    romio=$("$ompi_info" 2>/dev/null | sed -n 's/.*MCA io: \(romio[0-9]*\).*/\1/p' | head -n1)
fi
# try NAME LABEL CCVAR NPFLAG RUNVAR FLAGS...: bench_lib, then bench_try on 2
# ranks with the compiler and launcher in the variables CCVAR and RUNVAR
# (bench_lib sets rdmpi's)
try() {
    local nm=$1 lb=$2 cc npf=$4 run
    bench_lib "$nm" "$lb" || return 0
    cc=${!3} run=${!5}
    shift 5
    bench_try "$nm" "$cc" "$srcdir/io.c" "$tmp/io_$(basename "$cc")" "$smoke" "$run" "$@" "$npf" 2
    cmd[$nm]="$run $* $npf NP ${bin[$nm]:-}"
}
# shellcheck disable=SC2086 # flags are lists of words
{
    try rdmpi rdmpi rdmpicc -np rrun --bind-to none ${IO_RRUN_FLAGS:-}
    try openmpi "Open MPI" ompi_cc -np ompi_run --allow-run-as-root --oversubscribe \
        --bind-to none ${IO_OMPI_FLAGS:-}
    if [ -n "$romio" ]; then
        try ompi-romio "OMPI romio" ompi_cc -np ompi_run --allow-run-as-root --oversubscribe \
            --bind-to none --mca io "$romio" ${IO_OMPI_FLAGS:-}
    elif [[ ",$libs," == *,ompi-romio,* ]]; then
        label[ompi-romio]="OMPI romio"
        notes+=("OMPI romio: n/a: '$ompi_info' lists no io romio component")
    fi
    try mpich MPICH mpich_cc -n mpich_run ${IO_MPICH_FLAGS:-}
}
# the floor: io -F of the first library's program that compiled (no MPI)
floor_bin=''
case ",$tests," in
*,floor,*)
    for l in rdmpi openmpi ompi-romio mpich; do
        [ -z "$floor_bin" ] && [ -n "${bin[$l]:-}" ] && floor_bin=${bin[$l]}
    done
    [ -n "$floor_bin" ] || notes+=("floor: n/a: no library compiled io.c") ;;
esac
mpi_tests=${tests//floor/}

# ------------------------------------------------------------------- runs
echo "# MPI-IO benchmark on $(hostname) ($(nproc) cores), $(date '+%F %T %Z'); files in $dir ($(df -PT "$data" | awk 'NR == 2 { print $2 }'))"
echo "# N=$n: $((8 * n * n * n)) bytes a file; ranks ${nps//,/ }; tests $tests; strided blocks $sizes;"
echo "# $rounds rounds, libraries interleaved in each (order rotated by round, rank count and test); tables show medians over rounds"
for l in "${names[@]}"; do
    lib=$(sed -n 's/^# io .* library=//p' "$tmp/$l.smoke" | head -n1)
    printf '# %-11s %s   [%s]\n' "$l:" "${cmd[$l]//$tmp\//}" "$lib"
done
[ -z "$floor_bin" ] || echo "# floor:      ${floor_bin#"$tmp"/} -F -n $n -d DIR -s 16M   (no MPI: one process, pwrite/pread of 16 MiB)"
bench_env

# warnings WHO: the run's "# warning:" lines (pages the drop left cached) as notes
warnings() {
    local w
    while IFS= read -r w; do notes+=("$1: ${w#\# warning: }"); done < <(grep '^# warning:' "$tmp/out")
}

check_idle "before the run"
: >"$tmp/all"
for ((r = 1; r <= rounds; r++)); do
    echo "# round $r/$rounds" >&2
    if [ -n "$floor_bin" ]; then
        if bench_run "$floor_bin" -F -n "$n" -d "$data" -s 16M; then
            grep -v '^#' "$tmp/out" | sed "s/^/floor 1 $r /" >>"$tmp/all"
            warnings "floor, round $r"
        else
            notes+=("floor failed in round $r: $(tail -n 2 "$tmp/err" | tr '\n' ' ')")
        fi
    fi
    ti=0
    for p in ${nps//,/ }; do
        for t in ${mpi_tests//,/ }; do
            bench_order $((r + ti))
            ti=$((ti + 1))
            for l in "${order[@]}"; do
                case $failed in *" $l:$p:$t "*) continue ;; esac
                bench_launch "$l $p $r" "${label[$l]}: $t on $p ranks" "$r" "${cmd[$l]/ NP / $p }" \
                    -t "$t" -n "$n" -d "$data" -s "$sizes" || failed="$failed$l:$p:$t "
                warnings "${label[$l]}, $p ranks, round $r"
            done
        done
    done
done
bench_raw "lib np round test block kind MB/s seconds bytes (floor: lib floor, np 1)"

# ----------------------------------------------------------------- tables
check_idle "after the run"
bench_notes
awk -v nps="$nps" -v summary="$summary" -v romio="$romio" "$bench_awk"'
# LIB (floor included) at NP, TEST BLOCK KIND: the median MB/s over rounds, or ""
function fig(lib, np, t, b, k) { return ((lib, np, t, b, k) in v) ? median(v[lib, np, t, b, k]) : "" }
function cell(lib, np, t, b, k) {
    if (!((lib, np, t, b, k) in v)) return "n/a"
    return sprintf("%.0f (%s)", median(v[lib, np, t, b, k]), range(v[lib, np, t, b, k], "%.0f"))
}
# the best peer MB/s, or ""
function bestpeer(np, t, b, k,   i, p, x) {
    p = ""
    for (i = 1; i <= 3; i++) {
        x = fig(PEER[i], np, t, b, k)
        if (x != "" && (p == "" || x + 0 > p + 0)) p = x
    }
    return p
}
# the floor of a test row: buffered (floor_w / floor_r), O_DIRECT (direct_w / direct_r)
function floorname(t, direct) { return (direct ? "direct_" : "floor_") substr(t, length(t)) }
function tratio(ref, r) { return (r != "" && ref != "" && r > 0) ? sprintf("%.2f", ref / r) : "n/a" }
function row(np, t, b, k,   r, p, line, i) {
    line = sprintf("%-9s | %5s | %-5s", t, b ? human(b) : "-", k)
    for (i = 1; i <= 4; i++) line = line sprintf(" | %-15s", cell(LIB[i], np, t, b, k))
    line = line sprintf(" | %-15s | %-15s", cell("floor", 1, floorname(t, 0), FB, k),
                        cell("floor", 1, floorname(t, 1), FB, k))
    r = fig("rdmpi", np, t, b, k); p = bestpeer(np, t, b, k)
    return line sprintf(" | %s", tratio(p, r))
}
$1 == "floor" && $6 != "" { FB = $5 }
NF >= 8 {
    # lib np round test block kind MB/s seconds bytes
    v[$1, $2, $4, $5, $6] = v[$1, $2, $4, $5, $6] " " $7
    if ($1 != "floor" && !(($4, $5) in seen)) { seen[$4, $5] = 1; blocks[$4] = blocks[$4] " " $5 }
}
END {
    split("rdmpi openmpi ompi-romio mpich", LIB, " ")
    split("openmpi ompi-romio mpich", PEER, " ")
    split("bt_w bt_r contig_w contig_r strided_w strided_r", T, " ")
    nn = split(nps, NP, ",")
    for (j = 1; j <= nn; j++) {
        np = NP[j]
        printf "\n## %d ranks: MB/s (10^6 B/s of the whole file over the slowest rank; higher is better), median (range over rounds)\n", np
        printf "## write: cache = open + set_view + write + close, disk = the same + MPI_File_sync; read: cold = after fsync +\n"
        printf "## DONTNEED, warm = again; floor: one process, the same bytes in pwrite/pread of %s, buffered and O_DIRECT;\n", FB != "" ? human(FB) : "n/a"
        printf "## time ratio = best peer MB/s / rdmpi MB/s (rdmpi time / best peer time, at most 1 is rdmpi at least as fast)\n"
        printf "%-9s | %5s | %-5s | %-15s | %-15s | %-15s | %-15s | %-15s | %-15s | %s\n", "test", "block", "kind",
            "rdmpi", "Open MPI", "OMPI " (romio != "" ? romio : "romio"), "MPICH", "floor", "floor O_DIRECT", "time ratio"
        for (i = 1; i <= 6; i++) {
            t = T[i]
            if (!(t in blocks)) continue
            nb = split(blocks[t], B, " ")
            sortn(B, nb)
            for (q = nb; q >= 1; q--) {
                if (t ~ /_w$/) { print row(np, t, B[q], "cache"); print row(np, t, B[q], "disk") }
                else { print row(np, t, B[q], "cold"); print row(np, t, B[q], "warm") }
            }
        }
    }
    if (!summary) exit
    printf "\n## summary: issue 22 done-when cells, as time ratios (rdmpi time / reference time = reference MB/s / rdmpi MB/s)\n"
    printf "## bt_w, bt_r: reference the best peer, met at <= 1.00; contig_w: reference the floor (buffered for cache,\n"
    printf "## the better of buffered + fsync and O_DIRECT + fsync for disk), met at <= 1.25\n"
    printf "%-9s | %5s | %-5s | %10s | %10s | %10s | %s\n", "test", "ranks", "kind", "rdmpi", "reference", "time ratio", "verdict"
    for (j = 1; j <= nn; j++) {
        np = NP[j]
        split("bt_w cache|bt_w disk|bt_r cold|bt_r warm|contig_w cache|contig_w disk", S, "|")
        for (i = 1; i <= 6; i++) {
            split(S[i], a, " "); t = a[1]; k = a[2]
            r = fig("rdmpi", np, t, 0, k)
            if (t ~ /^bt/) { ref = bestpeer(np, t, 0, k); lim = 1.0 }
            else {
                ref = fig("floor", 1, "floor_w", FB, k); lim = 1.25
                if (k == "disk") { x = fig("floor", 1, "direct_w", FB, k); if (x != "" && (ref == "" || x + 0 > ref + 0)) ref = x }
            }
            tr = tratio(ref, r)
            verdict = tr == "n/a" ? "n/a" : (tr + 0 <= lim ? "met" : "not met") sprintf(" (wants <= %.2f)", lim)
            printf "%-9s | %5s | %-5s | %10s | %10s | %10s | %s\n", t, np, k, r == "" ? "n/a" : sprintf("%.0f", r),
                ref == "" ? "n/a" : sprintf("%.0f", ref), tr, verdict
        }
    }
}' "$tmp/all"
exit 0

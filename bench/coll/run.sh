#!/bin/bash
# run.sh - collective benchmarks of rdmpi against Open MPI and MPICH, side by
# side in one run, on 2 and 4 ranks (a benchmark, not a test). See
# bench/coll/README.md.
#
#   bench/coll/run.sh [options] [BUILD_DIR]     (BUILD_DIR default: ./build)
#
#   --quick          sizes 8,64K,1M, 3 rounds, 3 repetitions of ~5 ms
#   --sizes LIST     message sizes: 8,64K,1M or ranges 4-4M (powers of two)
#   --colls LIST     barrier,bcast,reduce,allreduce,allgather,alltoall,gather,
#                    scatter,reduce_scatter_block,iallreduce (default: all), and
#                    pallreduce (persistent: on request only)
#   --libs LIST      rdmpi,openmpi,mpich (default: all)
#   --np LIST        rank counts (default: 2,4)
#   --rounds N       interleaved rounds; the tables show medians over them
#   --reps N         timed repetitions per size within one run (median)
#   --time MS        target duration of one timed repetition
#   --best           show the best repetition seen over all rounds (lowest
#                    time) instead of medians
#   --raw FILE       also write every run's result lines to FILE
#
# Allgather and Alltoall also get the copy floor (floor.c, no MPI: every
# block copied once by memcpy into shared memory, then a barrier), run in
# each round beside the libraries: a cell where 0.9 x the better peer is
# below the floor cannot reach 0.9 on this machine (marked ! in the tables).
#
# On 2 ranks, a last table compares the libraries within the same host
# state (coll.c probes a bare cache-line round trip around every
# repetition; README.md says why).
#
# rdmpi parameters pass through the environment (rrun's ranks inherit it).
# Extra launcher flags: COLL_RRUN_FLAGS, COLL_OMPI_FLAGS, COLL_MPICH_FLAGS;
# compiler flags: COLL_CFLAGS (default -O2); time limit of one run in
# seconds: COLL_TIMEOUT (default 600). The peers' tools: COLL_OMPI_MPICC,
# COLL_OMPI_MPIRUN, COLL_MPICH_MPICC, COLL_MPICH_MPIEXEC (default: the Debian
# names mpicc.openmpi, mpirun.openmpi, mpicc.mpich, mpiexec.hydra).
set -u

# shellcheck source=bench/lib.sh
. "$(dirname "$0")/../lib.sh"

all_colls=barrier,bcast,reduce,allreduce,allgather,alltoall,gather,scatter,reduce_scatter_block,iallreduce
known_colls=$all_colls,pallreduce # (pallreduce: on request only)
quick=0 sizes='' tests=$all_colls libs=rdmpi,openmpi,mpich nps=2,4
rounds='' reps='' tgt='' raw='' builddir='' best=0
own_option() {
    case $1 in
    --colls) tests=${2:?--colls needs a list}; bench_shift=2 ;;
    --colls=*) tests=${1#*=} ;;
    --np) nps=${2:?--np needs a list}; bench_shift=2 ;;
    --np=*) nps=${1#*=} ;;
    --best) best=1 ;;
    *) return 1 ;;
    esac
}
bench_options "$@"
if [ "$quick" = 1 ]; then
    : "${sizes:=8,64K,1M}" "${rounds:=3}" "${reps:=3}" "${tgt:=5}"
else
    : "${sizes:=4-4M}" "${rounds:=5}" "${reps:=5}" "${tgt:=10}"
fi
colls=$tests
for c in ${colls//,/ }; do
    case ",$known_colls," in *",$c,"*) ;; *) echo "run.sh: unknown collective $c" >&2; exit 2 ;; esac
done
for n in ${nps//,/ }; do
    case $n in '' | *[!0-9]* | 0 | 1) echo "run.sh: --np wants rank counts of at least 2" >&2; exit 2 ;; esac
done
bench_setup coll COLL 600
cores=$(nproc 2>/dev/null || echo 1)

# ------------------------------------------------------------------ build
declare -A ok # "lib,np": the smoke run on np ranks passed
# launch NAME NP: the command line that starts NP ranks of library NAME.
# Binding one rank per core only when the ranks fit the cores; beyond that
# the peers run as shipped, not bound (Open MPI needs --oversubscribe to
# start at all, MPICH's -bind-to core would stack ranks), and rrun does what
# it does by default: it leaves them unbound too (COLL_RRUN_FLAGS='--bind-to
# core' puts rank i on core i modulo the cores).
launch() {
    local n=$1 np=$2
    case $n in
    rdmpi) echo "$rrun ${COLL_RRUN_FLAGS:-} -np $np" ;;
    openmpi)
        if [ "$np" -le "$cores" ]; then
            echo "$ompi_run --allow-run-as-root --bind-to core ${COLL_OMPI_FLAGS:-} -np $np"
        else
            echo "$ompi_run --allow-run-as-root --oversubscribe --bind-to none ${COLL_OMPI_FLAGS:-} -np $np"
        fi ;;
    mpich)
        if [ "$np" -le "$cores" ]; then
            echo "$mpich_run -bind-to core ${COLL_MPICH_FLAGS:-} -n $np"
        else
            echo "$mpich_run ${COLL_MPICH_FLAGS:-} -n $np"
        fi ;;
    esac
}
# try NAME COMPILER: build coll with COMPILER, smoke-test it on each rank count
try() {
    local n=$1 np
    bench_compile "$n" "$2" "$srcdir/coll.c" "$tmp/coll_$n" || return
    names+=("$n")
    for np in ${nps//,/ }; do
        cmd[$n,$np]="$(launch "$n" "$np") $tmp/coll_$n"
        bench_smoke "$n.$np" "${label[$n]}: n/a on $np ranks" "${cmd[$n,$np]}" -t barrier,allreduce -s 8 -r 1 -T 1 &&
            ok[$n,$np]=1
    done
}

bench_lib rdmpi rdmpi && try rdmpi "$rdmpicc"
bench_lib openmpi "Open MPI" && try openmpi "$ompi_cc"
bench_lib mpich MPICH && try mpich "$mpich_cc"

# the copy floor of Allgather and Alltoall (no MPI)
floor_colls=
for c in allgather alltoall; do
    case ",$colls," in *",$c,"*) floor_colls="$floor_colls${floor_colls:+,}$c" ;; esac
done
if [ -n "$floor_colls" ] && ! ${CC:-cc} -O2 "$srcdir/floor.c" -o "$tmp/floor" 2>"$tmp/floor.build"; then
    notes+=("floor: n/a: '${CC:-cc} $srcdir/floor.c' failed: $(head -n1 "$tmp/floor.build")")
    floor_colls=
fi

# ------------------------------------------------------------------- runs
echo "# collectives benchmark on $(hostname) ($cores cores), $(date '+%F %T'); ranks: $nps"
echo "# collectives $colls; sizes $sizes; $rounds rounds, libraries interleaved in each;"
if [ "$best" = 1 ]; then
    echo "# each run: $reps repetitions of ~$tgt ms; tables show the BEST repetition of all rounds (--best)"
else
    echo "# each run reports the median of $reps repetitions of ~$tgt ms; tables show the median over rounds"
fi
echo "# time per operation = the slowest rank's loop time / iterations, in us"
for np in ${nps//,/ }; do
    if [ "$np" -le "$cores" ]; then
        echo "# $np ranks <= $cores cores: one rank per core, every library binds (rrun by default)"
    else
        echo "# $np ranks > $cores cores: OVERSUBSCRIBED (rrun leaves them unbound and sets RDMPI_OVERSUBSCRIBED=1;"
        echo "#   Open MPI gets --oversubscribe --bind-to none, MPICH no -bind-to): figures depend on the scheduler"
    fi
done
echo "# Open MPI and MPICH run as shipped (Debian packages, no MCA/CVAR tuning); the commands:"
for n in "${names[@]}"; do
    lib=''
    for np in ${nps//,/ }; do
        [ -n "$lib" ] || lib=$(sed -n 's/^# coll .* library=//p' "$tmp/$n.$np.smoke" 2>/dev/null | head -n1)
    done
    printf '#   %-8s [%s]\n' "$n:" "$lib"
    for np in ${nps//,/ }; do
        printf '#     %s\n' "${cmd[$n,$np]/$tmp\//}"
    done
done
bench_env

# snap: the machine's CPU jiffies (all cores), their non-idle part (steal
# included: the host ran something else) and the CPU time of this shell's
# reaped children (the launchers and, through them, the ranks)
snap() {
    local a f st t=0 i
    read -r -a a < <(grep '^cpu ' /proc/stat 2>/dev/null) || { S_TOTAL=0 S_BUSY=0 S_CHILD=0; return; }
    for ((i = 1; i <= 8 && i < ${#a[@]}; i++)); do t=$((t + a[i])); done
    S_TOTAL=$t S_BUSY=$((t - a[4] - a[5]))
    read -r st <"/proc/$$/stat"
    read -r -a f <<<"${st##*) }"
    S_CHILD=$((f[13] + f[14]))
}
# run_one LIB NP COLL ROUND: one launch; appends its lines to $tmp/all.
# A run during which other processes used more than 25% of a core (CPU time
# not spent by the run itself) is run once more, and the second one kept.
runs=0 disturbed=0 reruns=0
run_one() {
    local n=$1 np=$2 c=$3 r=$4 attempt rc t0 b0 c0 foreign
    for attempt in 1 2; do
        snap; t0=$S_TOTAL b0=$S_BUSY c0=$S_CHILD
        bench_run "${cmd[$n,$np]}" -t "$c" -s "$sizes" -r "$reps" -T "$tgt"
        rc=$?
        snap
        foreign=0
        [ $((S_TOTAL - t0)) -le 0 ] ||
            foreign=$((100 * (S_BUSY - b0 - S_CHILD + c0) * cores / (S_TOTAL - t0)))
        [ "$foreign" -ge 0 ] || foreign=0
        echo "$n $np $r $c $attempt $foreign" >>"$tmp/runs"
        runs=$((runs + 1))
        [ "$foreign" -gt 25 ] && disturbed=$((disturbed + 1))
        if [ $rc = 0 ] && [ "$foreign" -gt 25 ] && [ $attempt = 1 ]; then
            reruns=$((reruns + 1))
            continue
        fi
        break
    done
    if [ $rc != 0 ]; then
        bench_failed "${label[$n]}: $c on $np ranks" "$r" $rc
        failed="$failed$n:$np:$c "
    fi
    bench_keep "$n $np $r" # (what a failed run printed before failing is kept)
    sed -n "s/^# state /$n $np $r /p" "$tmp/out" >>"$tmp/state"
}

check_idle "before the run"
# failed: "lib:np:coll" triples whose run failed, not run again
: >"$tmp/all"
: >"$tmp/runs"
: >"$tmp/state"
for ((r = 1; r <= rounds; r++)); do
    echo "# round $r/$rounds" >&2
    for np in ${nps//,/ }; do
        ci=0
        for c in ${colls//,/ }; do
            # rotate the order of the libraries from round to round and
            # from collective to collective
            bench_order $((r + ci))
            ci=$((ci + 1))
            for n in "${order[@]}"; do
                [ -n "${ok[$n,$np]:-}" ] || continue
                case $failed in *" $n:$np:$c "*) continue ;; esac
                run_one "$n" "$np" "$c" "$r"
            done
        done
        if [ -n "$floor_colls" ]; then
            timeout "$tmo" "$tmp/floor" -n "$np" -t "$floor_colls" -s "$sizes" -r "$reps" -T "$tgt" 2>/dev/null |
                sed -n "s/^floor /floor $np $r /p" >>"$tmp/all"
        fi
    done
done
if [ -n "$raw" ]; then
    {
        echo "# lib np round coll size median min max iters (us per operation)"
        cat "$tmp/all"
        echo "# runs: lib np round coll attempt foreign (CPU % of one core used by other processes)"
        sed 's/^/# run /' "$tmp/runs"
        echo "# host state (2 ranks): lib np round coll size, then per repetition: us per operation, probe round trip in us"
        sed 's/^/# state /' "$tmp/state"
    } >"$raw"
fi

# ----------------------------------------------------------------- tables
check_idle "after the run"
echo "# other processes used more than 25% of a core during $disturbed of $runs runs; $reruns of them were run again"
[ "$disturbed" = 0 ] || echo "#   (per lib: $(awk '$6 > 25 { d[$1]++ } END { for (l in d) printf " %s %d", l, d[l] }' "$tmp/runs"))"
bench_notes
# what both tables' awk programs share
awk_lib=$bench_awk'
function fmt(v) {
    if (v == "") return "n/a"
    return v < 1 ? sprintf("%.3f", v) : v < 100 ? sprintf("%.2f", v) : v < 10000 ? sprintf("%.1f", v) : sprintf("%.0f", v)
}
'
awk -v colls="$colls" -v nps="$nps" -v best="$best" "$awk_lib"'
BEGIN { best = best + 0 }
# the figures of one cell: sets R, O, M, F (the copy floor), RATIO;
# returns the row. "!": 0.9 x the better peer is below the floor.
function row(np, c, s,   peer) {
    R = ((np, "rdmpi", c, s) in v) ? agg(v[np, "rdmpi", c, s]) : ""
    O = ((np, "openmpi", c, s) in v) ? agg(v[np, "openmpi", c, s]) : ""
    M = ((np, "mpich", c, s) in v) ? agg(v[np, "mpich", c, s]) : ""
    F = ((np, "floor", c, s) in v) ? agg(v[np, "floor", c, s]) : ""
    peer = O
    if (M != "" && (peer == "" || M + 0 < peer + 0)) peer = M
    RATIO = (R != "" && peer != "" && peer > 0) ? R / peer : ""
    return sprintf("%10s | %10s | %10s | %8s%s | %10s%s", fmt(R), fmt(O), fmt(M),
                   RATIO == "" ? "n/a" : sprintf("%.2f", RATIO), RATIO != "" && RATIO > 0.9 ? " *" : "  ",
                   F == "" ? "-" : fmt(F), F != "" && peer != "" && 0.9 * peer < F + 0 ? " !" : "")
}
{
    # lib np round coll size median min max iters
    v[$2, $1, $4, $5] = v[$2, $1, $4, $5] " " (best ? $7 : $6)
    if (!(($2, $4, $5) in seen)) { seen[$2, $4, $5] = 1; sz[$2, $4] = sz[$2, $4] " " $5 }
}
END {
    hdr = sprintf("%-20s | %6s | %10s | %10s | %10s | %s | %10s", "collective", "size", "rdmpi", "Open MPI", "MPICH", "rdmpi/best", "floor")
    nc = split(colls, C, ",")
    nn = split(nps, NP, ",")
    for (k = 1; k <= nn; k++) {
        np = NP[k]
        printf "\n## %d ranks: us per operation (%s over rounds; lower is better); ratio = rdmpi / min(peers), * above 0.9;\n", \
            np, best ? "best" : "median"
        printf "## floor: every block copied once by memcpy into shared memory (no MPI), ! where 0.9 x the better peer is below it\n"
        print hdr
        for (q = 1; q <= nc; q++) {
            c = C[q]
            if (!((np, c) in sz)) { printf "%-20s | %6s | %10s | %10s | %10s | %8s\n", c, "-", "n/a", "n/a", "n/a", "n/a"; continue }
            ns = split(sz[np, c], S, " ")
            sortn(S, ns)
            for (i = 1; i <= ns; i++)
                printf "%-20s | %6s | %s\n", c, c == "barrier" ? "-" : human(S[i]), row(np, c, S[i])
        }
    }
    # the "done when" cells
    split("barrier bcast allreduce allgather alltoall", D, " ")
    split("8 65536 1048576", DS, " ")
    printf "\n## summary: the done-when cells (ratio = rdmpi / min(peers); * above 0.9; ! 0.9 x the better peer below the copy floor)\n"
    printf "%5s | %s\n", "ranks", hdr
    cells = met = below = 0
    for (k = 1; k <= nn; k++) {
        np = NP[k]
        if (np != 2 && np != 4) continue
        for (q = 1; q <= 5; q++)
            for (i = 1; i <= 3; i++) {
                c = D[q]; s = c == "barrier" ? 0 : DS[i]
                if (c == "barrier" && i > 1) continue
                line = row(np, c, s)
                cells++
                if (RATIO != "" && RATIO <= 0.9) met++
                else if (line ~ / !$/) below++
                printf "%5s | %-20s | %6s | %s\n", np, c, c == "barrier" ? "-" : human(s), line
            }
    }
    if (cells) printf "## %d of %d cells at or below 0.9; of the others, %d cannot be: 0.9 x the better peer is below the copy floor\n", met, cells, below
}' "$tmp/all"

# ------------------------------------------------- by host state (2 ranks)
# coll.c times a bare cache-line round trip between the 2 ranks around
# every repetition. A repetition is "fast" when its probe took at most
# STATE_FACTOR x the 10th percentile of the probes of the whole run (every
# library, every round), else "slow"; each library's repetitions of a cell are pooled over
# the rounds per state, and compared with the peers' in the same state.
[ -s "$tmp/state" ] && awk -v best="$best" "$awk_lib"'
BEGIN { STATE_FACTOR = 2; best = best + 0 }
{
    # lib np round coll size T1 P1 T2 P2 ...
    line[NR] = $0
    for (i = 7; i <= NF; i += 2) probes = probes " " $i
}
END {
    # the reference: the 10th percentile of all probes (the minimum alone
    # may be one lucky repetition)
    np_ = split(probes, P, " ")
    sortn(P, np_)
    pmin = np_ ? P[int((np_ - 1) / 10) + 1] + 0 : 0
    if (pmin <= 0) exit
    for (k = 1; k <= NR; k++) {
        n = split(line[k], f, " ")
        key = f[4] SUBSEP f[5]
        if (!(key in seen)) { seen[key] = 1; order[++nk] = key }
        for (i = 6; i < n; i += 2) {
            st = f[i + 1] + 0 <= STATE_FACTOR * pmin ? "fast" : "slow"
            v[f[1], key, st] = v[f[1], key, st] " " f[i]
            cnt[f[1], key, st]++
        }
    }
    printf "\n## 2 ranks by host state: a bare cache-line round trip between the ranks took %.3f us or less in 10%% of the probes;\n", pmin
    printf "## repetitions whose probes took at most %g x that are \"fast\", the others \"slow\"; per state, every library'"'"'s repetitions of all rounds\n", STATE_FACTOR
    printf "## (median; n = repetitions rdmpi/Open MPI/MPICH); ratio = rdmpi / min(peers) in the same state, * above 0.9\n"
    printf "%-20s | %6s | %5s | %11s | %10s | %10s | %10s | %s\n", "collective", "size", "state", "n", "rdmpi", "Open MPI", "MPICH", "rdmpi/best"
    for (q = 1; q <= nk; q++) {
        split(order[q], cs, SUBSEP)
        for (t = 1; t <= 2; t++) {
            st = t == 1 ? "fast" : "slow"
            R = cnt["rdmpi", order[q], st] ? agg(v["rdmpi", order[q], st]) : ""
            O = cnt["openmpi", order[q], st] ? agg(v["openmpi", order[q], st]) : ""
            M = cnt["mpich", order[q], st] ? agg(v["mpich", order[q], st]) : ""
            if (R == "" && O == "" && M == "") continue
            peer = O
            if (M != "" && (peer == "" || M + 0 < peer + 0)) peer = M
            ratio = (R != "" && peer != "" && peer > 0) ? R / peer : ""
            printf "%-20s | %6s | %5s | %3d/%3d/%3d | %10s | %10s | %10s | %8s%s\n", cs[1], cs[1] == "barrier" ? "-" : human(cs[2]), st,
                cnt["rdmpi", order[q], st], cnt["openmpi", order[q], st], cnt["mpich", order[q], st], fmt(R), fmt(O), fmt(M),
                ratio == "" ? "n/a" : sprintf("%.2f", ratio), (ratio != "" && ratio > 0.9) ? " *" : ""
        }
    }
}' "$tmp/state"
exit 0

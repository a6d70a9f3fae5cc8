#!/bin/bash
# run-vm.sh - rdmpi's one-sided operations over the verbs transport beside
# the device's own limit (perftest's ib_write_lat, ib_read_lat and
# ib_atomic_lat), on one device in one run (a benchmark, not a test). Where
# this machine has no verbs device, the whole run goes into the RDMA VM
# (soft-RoCE rxe0: software emulation, so the figures are the VM's,
# comparable only with each other).
#
#   bench/rma/run-vm.sh [BUILD_DIR]            (default ./build)
#
# In one run, on device RMA_VM_DEV (default rxe0; the VM's RoCE device):
#   perftest  ib_write_lat -s 8, ib_read_lat -s 8, ib_atomic_lat (FETCH_AND_ADD
#             and CMP_AND_SWAP, 8 bytes), server and client on this host
#   rma       bench/rma/run.sh --libs rdmpi,openmpi with RDMPI_TRANSPORTS=verbs
#             RDMPI_VERBS_DEVICE=DEV RDMPI_RMA_PATH=rdma (both ranks share the
#             VM, a node: without it one-sided calls take the node's shared
#             memory, not the device), and Open MPI's UCX one-sided component
#             forced onto DEV (--mca pml ucx --mca osc ucx, UCX_TLS=rc_v); a
#             library that cannot run there is reported n/a with its error
#   rounds    RMA_VM_ROUNDS of them, perftest and rma interleaved (one of
#             each per round), medians over the rounds
#   ratios    rdmpi's put / ib_write_lat, get / ib_read_lat, fop and cas /
#             ib_atomic_lat (to perftest's mean, t_avg, like rdmpi's figure)
#
# What the perftest figures are: ib_write_lat is a ping-pong of writes and
# reports half the round trip; ib_read_lat and ib_atomic_lat report the
# whole operation, a round trip (request out, data or old value back). A
# Put + MPI_Win_flush is a write and its acknowledgement: a round trip too,
# so the put row also shows rdmpi / (2 x ib_write_lat). The putpp row is
# ib_write_lat's own measure made with MPI calls: a ping-pong of 8-byte
# Puts (each flushed), each rank polling its window, half the round trip.
#
# Settings: RMA_VM_DEV, RMA_VM_GID (GID index for perftest, default: the
# VM's RDMA_VM_RXE_GID_INDEX, else 1), RMA_VM_IP (the device's address for
# perftest's handshake; default: the VM's RDMA_VM_RXE_IP), RMA_VM_ROUNDS
# (default 5), RMA_VM_ARGS (more bench/rma/run.sh options for each
# round's run; default "--reps 3 --time 100 --sizes 4K,64K,1M"),
# RDMPI_TEST_RDMA_VM (the VM runner; default test/tools/run-in-rdma-vm.sh).
# Needs perftest (and, for the VM, what test/mpi/verbs.sh lists).
set -u
# shellcheck source=bench/lib.sh
. "$(dirname "$0")/../lib.sh"
case ${1:-} in -h | --help) bench_usage 0 ;; esac
bench_device_start "$0" "${1:-}"

bench_rdma_dev "${RMA_VM_DEV:-rxe0}" "${RMA_VM_GID:-}" "${RMA_VM_IP:-}"
rounds=${RMA_VM_ROUNDS:-5}
bench_tmp rma-vm
[ -n "$ip" ] || { echo "run-vm.sh: RMA_VM_IP: the address of $dev's network device is needed" >&2; exit 2; }
command -v ib_atomic_lat >/dev/null || { echo "run-vm.sh: perftest is missing (apt-get install perftest)" >&2; exit 2; }

bench_rdma_header one-sided

# perftest TOOL ARGS...: one server + client pair of 8-byte operations;
# prints the client's result line (bytes iterations t_min t_max t_typical t_avg ...)
perftest() {
    bench_perftest "$1" -s 8 -n 2000 "${@:2}"
    awk '$1 == 8 && NF >= 6 { print; exit }' "$tmp/client"
}

# perftest and rdmpi interleaved, round by round: under the VM's software
# emulation the speed of everything drifts between minutes (perftest's own
# figures moved 1.5-2 x between runs), so ratios of medians taken in
# separate phases meant little
echo "# $rounds rounds, each: perftest's four tools once (t_avg: the mean, t_typical: the median of one run), then"
echo "# rdmpi (RDMPI_TRANSPORTS=verbs) and Open MPI (UCX pml and osc on $dev) through bench/rma/run.sh --rounds 1;"
echo "# the tables at the end are medians over the rounds"
declare -A avgs typs rv pa pt
lat_tests="putpp put get acc fop cas fence lock"
# the rdmpi figure of a row of run.sh's latency table: "test | size | rdmpi | ..."
row_of() { awk -v t="$1" '$1 == t && $2 == "|" && $4 == "|" { print ($5 == "n/a" ? "" : $5); exit }' "$2"; }
for r in $(seq 1 "$rounds"); do
    for what in write read fadd cas; do
        case $what in
        write) set -- ib_write_lat ;;
        read) set -- ib_read_lat ;;
        fadd) set -- ib_atomic_lat -A FETCH_AND_ADD ;;
        cas) set -- ib_atomic_lat -A CMP_AND_SWAP ;;
        esac
        line=$(perftest "$@")
        a=$(echo "$line" | awk '{ print $6 }') t=$(echo "$line" | awk '{ print $5 }')
        [ -n "$a" ] && avgs[$what]="${avgs[$what]:-}$a"$'\n'
        [ -n "$t" ] && typs[$what]="${typs[$what]:-}$t"$'\n'
        [ -n "$a" ] || echo "# note: round $r: $* gave no figure: $(tail -n 2 "$tmp/client" | tr '\n' ' ')"
        echo "# round $r: $* ${a:-n/a} / ${t:-n/a} us"
    done
    # shellcheck disable=SC2086 # RMA_VM_ARGS is a list of options
    RDMPI_TRANSPORTS=verbs RDMPI_VERBS_DEVICE=$dev RDMPI_RMA_PATH=rdma \
        RMA_OMPI_FLAGS="--mca pml ucx --mca osc ucx -x UCX_NET_DEVICES=$dev:1 -x UCX_TLS=rc_v -x UCX_IB_GID_INDEX=$gid" \
        RMA_TIMEOUT=300 bash "$src/bench/rma/run.sh" --libs rdmpi,openmpi --no-summary \
        --tests put,get,acc,fop,cas,fence,lock,putbw,getbw,putpp \
        ${RMA_VM_ARGS:---reps 3 --time 100 --sizes 4K,64K,1M} --rounds 1 "$builddir" 2>/dev/null >"$tmp/rma.$r"
    [ "$r" = "$rounds" ] && cat "$tmp/rma.$r" # (the last round's tables: its notes and bandwidths)
    for t in $lat_tests; do
        v=$(row_of "$t" "$tmp/rma.$r")
        [ -n "$v" ] && rv[$t]="${rv[$t]:-}$v"$'\n'
        echo "# round $r: rdmpi $t ${v:-n/a} us"
    done
done
for what in write read fadd cas; do
    pa[$what]=$(printf '%s' "${avgs[$what]:-}" | bench_median)
    pt[$what]=$(printf '%s' "${typs[$what]:-}" | bench_median)
done
# rdmpi's median over the rounds
row() { printf '%s' "${rv[$1]:-}" | bench_median; }

echo
echo "## 8-byte one-sided operations on $dev, us, medians over the $rounds interleaved rounds; perftest: t_avg (its"
echo "## mean, like rdmpi's figure) / t_typical (its median). ib_write_lat is half a round trip, the others a whole one"
printf '%-6s | %10s | %-27s | %19s | %10s | %10s\n' test rdmpi "perftest" "avg / typ" "rdmpi/avg" "rdmpi/typ"
for pair in putpp:write:ib_write_lat put:write:ib_write_lat get:read:ib_read_lat fop:fadd:"ib_atomic_lat FETCH_AND_ADD" cas:cas:"ib_atomic_lat CMP_AND_SWAP"; do
    t=${pair%%:*} rest=${pair#*:}
    w=${rest%%:*} tool=${rest#*:}
    r=$(row "$t")
    printf '%-6s | %10s | %-27s | %19s | %10s | %10s\n' "$t" "${r:-n/a}" "$tool" \
        "${pa[$w]:-n/a} / ${pt[$w]:-n/a}" "$(bench_ratio "$r" "${pa[$w]}")" "$(bench_ratio "$r" "${pt[$w]}")"
done
r=$(row put)
echo "## put (Put + flush: a write and its acknowledgement) against a whole round trip of writes: rdmpi / (2 x ib_write_lat avg) = $(bench_ratio "$r" "${pa[write]}" 2)"
echo "## putpp is ib_write_lat's own measure at the MPI level: half the round trip of a ping-pong of writes"
echo "## issue 20 asks: put and fop within 1.3 x perftest's on the same device"

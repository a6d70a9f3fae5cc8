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
#             and CMP_AND_SWAP, 8 bytes), RMA_VM_ROUNDS times each (median),
#             server and client on this host
#   rma       bench/rma/run.sh --libs rdmpi,openmpi with RDMPI_TRANSPORTS=verbs
#             RDMPI_VERBS_DEVICE=DEV, and Open MPI's UCX one-sided component
#             forced onto DEV (--mca pml ucx --mca osc ucx, UCX_TLS=rc_v); a
#             library that cannot run there is reported n/a with its error
#   ratios    rdmpi's put / ib_write_lat, get / ib_read_lat, fop and cas /
#             ib_atomic_lat (to perftest's mean, t_avg, like rdmpi's figure)
#
# What the perftest figures are: ib_write_lat is a ping-pong of writes and
# reports half the round trip; ib_read_lat and ib_atomic_lat report the
# whole operation, a round trip (request out, data or old value back). A
# Put + MPI_Win_flush is a write and its acknowledgement: a round trip too,
# so the put row also shows rdmpi / (2 x ib_write_lat).
#
# Settings: RMA_VM_DEV, RMA_VM_GID (GID index for perftest, default: the
# VM's RDMA_VM_RXE_GID_INDEX, else 1), RMA_VM_IP (the device's address for
# perftest's handshake; default: the VM's RDMA_VM_RXE_IP), RMA_VM_ROUNDS
# (default 5), RMA_VM_ARGS (more bench/rma/run.sh options; default
# "--rounds ROUNDS --reps 3 --time 100 --sizes 4K,64K,1M"),
# RDMPI_TEST_RDMA_VM (the VM runner; default test/tools/run-in-rdma-vm.sh).
# Needs perftest (and, for the VM, what test/mpi/verbs.sh lists).
set -u
src=$(cd "$(dirname "$0")/../.." && pwd) || exit 1
case ${1:-} in -h | --help) sed -n '2,/^set -u/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;; esac
builddir=$(cd "${1:-build}" && pwd) || { echo "run-vm.sh: no build directory ${1:-build}" >&2; exit 2; }

# shellcheck source=test/tools/rdma-vm.sh
. "$src/test/tools/rdma-vm.sh"
rdma_vm_unless_device "$src" "$builddir" "$src/bench/rma/run-vm.sh"

dev=${RMA_VM_DEV:-rxe0}
gid=${RMA_VM_GID:-${RDMA_VM_RXE_GID_INDEX:-1}}
ip=${RMA_VM_IP:-${RDMA_VM_RXE_IP:-}}
rounds=${RMA_VM_ROUNDS:-5}
# iWARP connects through rdma_cm only (perftest -R); RoCE/IB: the GID index
case $(cat "/sys/class/infiniband/$dev/node_type" 2>/dev/null) in
4:*) cmflag=-R; [ "$dev" = "${RDMA_VM_SIW_DEV:-}" ] && ip=${RMA_VM_IP:-$RDMA_VM_SIW_IP} ;;
*) cmflag="-x $gid" ;;
esac
tmp=$(mktemp -d "${TMPDIR:-/tmp}/rdmpi-rma-vm.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
[ -n "$ip" ] || { echo "run-vm.sh: RMA_VM_IP: the address of $dev's network device is needed" >&2; exit 2; }
command -v ib_atomic_lat >/dev/null || { echo "run-vm.sh: perftest is missing (apt-get install perftest)" >&2; exit 2; }

echo "# one-sided benchmark on $dev ($(cat "/sys/class/infiniband/$dev/node_type" 2>/dev/null)), $(hostname), $(nproc) cores, $(date '+%F %T')"
[ "${RDMA_VM:-}" = 1 ] && echo "# inside the RDMA VM: QEMU software emulation (TCG), soft-RoCE; figures comparable only within this run"

# perftest TOOL ARGS...: one server + client pair of 8-byte operations;
# prints the client's result line (bytes iterations t_min t_max t_typical t_avg ...)
perftest() {
    local tool=$1
    shift
    # shellcheck disable=SC2086 # $cmflag: -R or "-x GID"
    "$tool" -d "$dev" $cmflag -F -s 8 -n 2000 "$@" >"$tmp/server" 2>&1 &
    local sp=$!
    # the server listens on perftest's TCP port before the client may start
    for _ in $(seq 1 200); do
        ss -ltn 2>/dev/null | grep -q ':18515 ' && break
        sleep 0.05
    done
    # shellcheck disable=SC2086
    "$tool" -d "$dev" $cmflag -F -s 8 -n 2000 "$@" "$ip" >"$tmp/client" 2>&1
    wait $sp
    awk '$1 == 8 && NF >= 6 { print; exit }' "$tmp/client"
}
median() { sort -g | awk '{ a[NR] = $1 } END { if (NR) print (NR % 2 ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2) }'; }
ratio() { awk -v r="$1" -v p="$2" -v f="${3:-1}" 'BEGIN { if (r != "" && p > 0) printf "%.2f", r / (f * p); else print "n/a" }'; }

echo "# perftest: $rounds runs per figure, median of the runs (t_avg: the mean, t_typical: the median of one run)"
declare -A pa pt
for what in write read fadd cas; do
    case $what in
    write) set -- ib_write_lat ;;
    read) set -- ib_read_lat ;;
    fadd) set -- ib_atomic_lat -A FETCH_AND_ADD ;;
    cas) set -- ib_atomic_lat -A CMP_AND_SWAP ;;
    esac
    avgs='' typs=''
    for _ in $(seq 1 "$rounds"); do
        line=$(perftest "$@")
        a=$(echo "$line" | awk '{ print $6 }') t=$(echo "$line" | awk '{ print $5 }')
        [ -n "$a" ] && avgs="$avgs$a"$'\n'
        [ -n "$t" ] && typs="$typs$t"$'\n'
    done
    pa[$what]=$(printf '%s' "$avgs" | median)
    pt[$what]=$(printf '%s' "$typs" | median)
    [ -n "${pa[$what]}" ] || echo "# note: $* gave no figure: $(tail -n 2 "$tmp/client" | tr '\n' ' ')"
done

echo "# rdmpi (RDMPI_TRANSPORTS=verbs) and Open MPI (UCX pml and osc on $dev) through bench/rma/run.sh"
# shellcheck disable=SC2086 # RMA_VM_ARGS is a list of options
RDMPI_TRANSPORTS=verbs RDMPI_VERBS_DEVICE=$dev \
    RMA_OMPI_FLAGS="--mca pml ucx --mca osc ucx -x UCX_NET_DEVICES=$dev:1 -x UCX_TLS=rc_v -x UCX_IB_GID_INDEX=$gid" \
    RMA_TIMEOUT=300 bash "$src/bench/rma/run.sh" --libs rdmpi,openmpi --no-summary \
    ${RMA_VM_ARGS:---rounds "$rounds" --reps 3 --time 100 --sizes 4K,64K,1M} "$builddir" 2>/dev/null | tee "$tmp/rma"

# the rdmpi figure of a row of run.sh's latency table: "test | size | rdmpi | ..."
row() { awk -v t="$1" '$1 == t && $2 == "|" && $4 == "|" { print ($5 == "n/a" ? "" : $5); exit }' "$tmp/rma"; }

echo
echo "## 8-byte one-sided operations on $dev, us; perftest: median of runs of t_avg (its mean, like rdmpi's"
echo "## figure) / t_typical (its median). ib_write_lat is half a round trip, the others a whole one"
printf '%-6s | %10s | %-27s | %19s | %10s | %10s\n' test rdmpi "perftest" "avg / typ" "rdmpi/avg" "rdmpi/typ"
for pair in put:write:ib_write_lat get:read:ib_read_lat fop:fadd:"ib_atomic_lat FETCH_AND_ADD" cas:cas:"ib_atomic_lat CMP_AND_SWAP"; do
    t=${pair%%:*} rest=${pair#*:}
    w=${rest%%:*} tool=${rest#*:}
    r=$(row "$t")
    printf '%-6s | %10s | %-27s | %19s | %10s | %10s\n' "$t" "${r:-n/a}" "$tool" \
        "${pa[$w]:-n/a} / ${pt[$w]:-n/a}" "$(ratio "$r" "${pa[$w]}")" "$(ratio "$r" "${pt[$w]}")"
done
r=$(row put)
echo "## put against a whole round trip of writes: rdmpi / (2 x ib_write_lat avg) = $(ratio "$r" "${pa[write]}" 2)"
echo "## issue 20 asks: put and fop within 1.3 x perftest's on the same device"

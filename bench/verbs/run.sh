#!/bin/bash
# run.sh - rdmpi over the verbs transport beside the device's own limit
# (perftest) and Open MPI's UCX pml, on one device in one run (a benchmark,
# not a test). Where this machine has no verbs device, the whole run goes
# into the RDMA VM (soft-RoCE rxe0: software emulation, so the figures are
# the VM's, comparable only with each other).
#
#   bench/verbs/run.sh [BUILD_DIR]            (default ./build)
#
# In one run, on device VB_BENCH_DEV (default rxe0; the VM's RoCE device):
#   perftest  ib_send_lat, ib_write_lat (half round trip) and ib_write_bw,
#             run ROUNDS times each (median), server and client on this host
#   rdmpi     bench/p2p/run.sh --libs rdmpi,openmpi with RDMPI_TRANSPORTS=verbs
#             RDMPI_VERBS_DEVICE=DEV, and Open MPI forced onto DEV's UCX
#             transports (UCX_TLS=rc_v,tcp: no shared memory); a library that
#             cannot run there is reported n/a with its error
#   ratios    rdmpi / ib_send_lat and / ib_write_lat by size (to perftest's
#             mean, t_avg, like rdmpi's figure; and to its median, t_typical),
#             rdmpi / ib_write_bw
#
# Settings: VB_BENCH_DEV (siw0: iWARP, perftest through rdma_cm), VB_BENCH_GID (GID index for perftest, default: the
# VM's RDMA_VM_RXE_GID_INDEX, else 1), VB_BENCH_IP (the device's address
# for perftest's handshake; default: the VM's RDMA_VM_RXE_IP),
# VB_BENCH_ROUNDS (default 5), RDMPI_TEST_RDMA_VM (the VM runner; default
# test/tools/run-in-rdma-vm.sh). Needs perftest (and, for the VM, what
# test/mpi/verbs.sh lists).
set -u
# shellcheck source=bench/lib.sh
. "$(dirname "$0")/../lib.sh"
bench_device_start "$0" "${1:-}"

bench_rdma_dev "${VB_BENCH_DEV:-rxe0}" "${VB_BENCH_GID:-}" "${VB_BENCH_IP:-}"
rounds=${VB_BENCH_ROUNDS:-5}
lat_sizes="8 64 256 1024 4096 65536"
bw_sizes="4096 65536 1048576"
bench_tmp verbs-bench
[ -n "$ip" ] || { echo "run.sh: VB_BENCH_IP: the address of $dev's network device is needed" >&2; exit 2; }
command -v ib_send_lat >/dev/null || { echo "run.sh: perftest is missing (apt-get install perftest)" >&2; exit 2; }

bench_rdma_header verbs

# perftest TOOL SIZE: one server + client pair; prints the client's result line
perftest() {
    local tool=$1 size=$2 n
    case $tool in *lat) n=2000 ;; *) n=400 ;; esac
    bench_perftest "$tool" -s "$size" -n "$n" --report_gbits
    awk -v s="$size" '$1 == s && NF >= 4 { print; exit }' "$tmp/client"
}

echo "# perftest: $rounds runs per figure, median of the runs"
declare -A pt pa
for tool in ib_send_lat ib_write_lat; do
    for s in $lat_sizes; do
        vals='' avgs=''
        for _ in $(seq 1 "$rounds"); do
            # columns: bytes iterations t_min t_max t_typical t_avg ...
            line=$(perftest "$tool" "$s")
            v=$(echo "$line" | awk '{ print $5 }') a=$(echo "$line" | awk '{ print $6 }')
            [ -n "$v" ] && vals="$vals$v"$'\n'
            [ -n "$a" ] && avgs="$avgs$a"$'\n'
        done
        pt[$tool,$s]=$(printf '%s' "$vals" | bench_median)
        pa[$tool,$s]=$(printf '%s' "$avgs" | bench_median)
    done
done
for s in $bw_sizes; do
    vals=
    for _ in $(seq 1 "$rounds"); do
        # columns: bytes iterations BW-peak BW-average (Gb/s) rate
        v=$(perftest ib_write_bw "$s" | awk '{ printf "%.1f", $4 * 125 }')
        [ -n "$v" ] && vals="$vals$v"$'\n'
    done
    pt[ib_write_bw,$s]=$(printf '%s' "$vals" | bench_median)
done

echo "# rdmpi (RDMPI_TRANSPORTS=verbs) and Open MPI (UCX pml on $dev) through bench/p2p/run.sh"
sizes=$(echo "$lat_sizes $bw_sizes" | tr ' ' '\n' | sort -n -u | tr '\n' ',' | sed 's/,$//')
RDMPI_TRANSPORTS=verbs RDMPI_VERBS_DEVICE=$dev \
    P2P_OMPI_FLAGS="--mca pml ucx -x UCX_NET_DEVICES=$dev:1 -x UCX_TLS=rc_v,tcp -x UCX_IB_GID_INDEX=$gid" \
    P2P_TIMEOUT=300 bash "$src/bench/p2p/run.sh" --libs rdmpi,openmpi --tests lat,bw --sizes "$sizes" \
    --rounds "$rounds" --reps 3 --time 100 "$builddir" 2>/dev/null | tee "$tmp/p2p"

# the p2p tables' rows: "size | rdmpi | Open MPI | MPICH | ratio"
row() { # row TABLE SIZE: the rdmpi figure of that row
    awk -v t="$1" -v s="$2" '
        /^## latency/ { cur = "lat" } /^## bandwidth/ { cur = "bw" }
        cur == t && $1 == s && $2 == "|" { print $3; exit }' "$tmp/p2p"
}
human() { awk -v s="$1" 'BEGIN { if (s >= 1048576) print s / 1048576 "M"; else if (s >= 1024) print s / 1024 "K"; else print s }'; }

echo
echo "## latency on $dev, us (half round trip), medians of runs. rdmpi's figure is a mean (loop time /"
echo "## iterations), so the like-for-like ratios are to perftest's t_avg (its mean); t_typical is its median"
printf '%8s | %10s | %17s | %17s | %10s | %10s | %10s\n' size rdmpi "send_lat avg/typ" "write_lat avg/typ" \
    "/send avg" "/send typ" "/write avg"
for s in $lat_sizes; do
    r=$(row lat "$(human "$s")")
    a=${pt[ib_send_lat,$s]:-} aa=${pa[ib_send_lat,$s]:-} b=${pt[ib_write_lat,$s]:-} ba=${pa[ib_write_lat,$s]:-}
    printf '%8s | %10s | %17s | %17s | %10s | %10s | %10s\n' "$(human "$s")" "${r:-n/a}" "${aa:-n/a} / ${a:-n/a}" \
        "${ba:-n/a} / ${b:-n/a}" "$(bench_ratio "$r" "$aa")" "$(bench_ratio "$r" "$a")" "$(bench_ratio "$r" "$ba")"
done
echo
echo "## bandwidth on $dev, MB/s (10^6 B/s); perftest: ib_write_bw BW average, median of runs"
printf '%8s | %10s | %11s | %12s\n' size rdmpi ib_write_bw "rdmpi/write"
for s in $bw_sizes; do
    r=$(row bw "$(human "$s")")
    a=${pt[ib_write_bw,$s]:-}
    printf '%8s | %10s | %11s | %12s\n' "$(human "$s")" "${r:-n/a}" "${a:-n/a}" \
        "$(bench_ratio "$r" "$a")"
done

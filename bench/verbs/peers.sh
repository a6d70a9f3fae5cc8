#!/bin/bash
# peers.sh - the verbs transport's memory cost per peer, measured (a
# benchmark, not a test): rank 0 of an NP-rank job (bench/verbs/peer_mem.c)
# reads its resident, pinned and malloc'd memory after MPI_Init and after
# talking to each further peer.
#   rdma_cm wire-up: a connection (QP + its share of receive buffers) is
#     made on first use, so the cost shows per connected peer;
#   PMIx wire-up: every QP exists after MPI_Init, so the cost shows as the
#     difference between a 2-rank and an NP-rank job's start-up figures.
# Where this machine has no verbs device, it runs in the RDMA VM.
#
#   bench/verbs/peers.sh [BUILD_DIR]       (VB_BENCH_DEV default rxe0, VB_PEERS_NP default 8)
set -u
# shellcheck source=bench/lib.sh
. "$(dirname "$0")/../lib.sh"
bench_device_start "$0" "${1:-}"
dev=${VB_BENCH_DEV:-rxe0}
np=${VB_PEERS_NP:-8}
bench_tmp peers
"$builddir/launcher/rdmpicc" -O2 "$src/bench/verbs/peer_mem.c" -o "$tmp/peer_mem" || exit 1
run() { # run CM NP: rank 0's lines "peers P rss_kb R pin_kb P heap_kb H"
    RDMPI_TRANSPORTS=verbs RDMPI_VERBS_DEVICE=$dev RDMPI_VERBS_CM=$1 \
        "$builddir/launcher/rrun/rrun" --bind-to none -np "$2" "$tmp/peer_mem" | grep '^peers '
}
field() { awk -v k="$1" '{ for (i = 1; i < NF; i++) if ($i == k) print $(i + 1) }'; }
echo "# rank 0's memory on $dev, $np ranks; RDMPI_VERBS_CREDITS=${RDMPI_VERBS_CREDITS:-16} RDMPI_VERBS_BUF_SIZE=${RDMPI_VERBS_BUF_SIZE:-8k} RDMPI_VERBS_SQ_DEPTH=${RDMPI_VERBS_SQ_DEPTH:-64}"
for cm in rdmacm pmix; do
    out=$(run $cm "$np")
    echo "## $cm wire-up: after MPI_Init (peers 0) and after talking to each further peer"
    printf '%6s | %10s | %10s | %10s\n' peers "RSS KiB" "pinned KiB" "malloc KiB"
    printf '%s\n' "$out" | awk '{ printf "%6s | %10s | %10s | %10s\n", $2, $4, $6, $8 }'
    if [ $cm = rdmacm ]; then
        first=$(printf '%s\n' "$out" | awk '$2 == 1'); last=$(printf '%s\n' "$out" | awk -v p=$((np - 1)) '$2 == p')
        for k in rss_kb pin_kb heap_kb; do
            a=$(echo "$first" | field $k); b=$(echo "$last" | field $k)
            echo "#   per connected peer ($k, peers 1..$((np - 1))): $(awk -v a="$a" -v b="$b" -v n=$((np - 2)) 'BEGIN { printf "%.0f KiB", (b - a) / n }')"
        done
    else
        two=$(run pmix 2 | awk '$2 == 0'); all=$(printf '%s\n' "$out" | awk '$2 == 0')
        for k in rss_kb pin_kb heap_kb; do
            a=$(echo "$two" | field $k); b=$(echo "$all" | field $k)
            echo "#   per peer in the job ($k at start-up, 2 vs $np ranks): $(awk -v a="$a" -v b="$b" -v n=$((np - 2)) 'BEGIN { printf "%.0f KiB", (b - a) / n }')"
        done
    fi
done

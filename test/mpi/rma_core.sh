#!/bin/bash
# One-sided communication, every call once with exact values
# (test/mpi/rma_core.c): 1-4 ranks on the default paths, the
# active-message path forced everywhere (RDMPI_RMA_PATH=am), shm named
# explicitly, and every rank pair through UCX and libfabric over the
# loopback device where this build has them, on the active-message path
# and on the network's direct paths (RDMA, the device's atomics);
# passive-target progress on a computing target with the progress thread
# (rma_core_progress.c).
. "$RD_SRCDIR/test/tap.sh"
. "$RD_SRCDIR/test/mpi/lib.sh"
. "$RD_SRCDIR/test/mpi/p2p_lib.sh"
prog="$RD_BUILDDIR/test/mpi/rma_core"
for np in 1 2 3 4; do
    p2p_check "" "$np" "$prog"
done
p2p_check "RDMPI_RMA_PATH=am" 1 "$prog"
p2p_check "RDMPI_RMA_PATH=am" 4 "$prog"
p2p_check "RDMPI_TRANSPORTS=self,shm" 3 "$prog"
# passive-target progress while the target computes: on a node by the
# lock word and loads and stores (no target CPU), on the active-message
# path by the progress thread
for np in 2 4; do
    p2p_check "" "$np" "$RD_BUILDDIR/test/mpi/rma_core_progress"
    p2p_check "RDMPI_RMA_PATH=am RDMPI_RMA_PROGRESS_THREAD=yes" "$np" "$RD_BUILDDIR/test/mpi/rma_core_progress"
done
p2p_check "RDMPI_RMA_PROGRESS_THREAD=yes RDMPI_RMA_PROGRESS_INTERVAL=50" 3 "$prog"
tls=$("$RD_BUILDDIR/launcher/rdmpi_info" | grep '^transports:')
P2P_TIMEOUT=300
# (the active-message path forced: node peers would otherwise share memory)
case "$tls" in *" ucx"*) p2p_check "RDMPI_RMA_PATH=am RDMPI_TRANSPORTS=ucx UCX_TLS=tcp UCX_NET_DEVICES=lo" 3 "$prog" ;; esac
case "$tls" in *" ofi"*) p2p_check "RDMPI_RMA_PATH=am RDMPI_TRANSPORTS=ofi FI_PROVIDER=tcp FI_TCP_IFACE=lo" 3 "$prog" ;; esac
# The network's direct paths (runtime/rma/rdma.c), forced for node peers
# (RDMPI_RMA_PATH=rdma): Put and Get by the transport's put/get, and where
# it has atomics, accumulates on 8-byte elements and the locks by them
# (every rank reaches every rank, itself included, over loopback), then
# with them turned off (RDMPI_RMA_HW_ATOMICS=no); the table says which
# (RDMPI_LOG=debug:rma). The exact-value atomicity test
# (test/mpi/rma_atomic.c: 4 x 10,000 Fetch_and_op, 2,000 with the device's
# atomics off, a CAS lock, derived accumulates) on each, and rma_ops and rma_sync (every op and type, every
# synchronisation mode). Over tcp a put needs the target's progress, so the
# busy-target test runs with the progress thread here (without it in the
# VM, test/mpi/verbs_suite.sh, part rma).
net_paths() { # NAME ENVS
    local name=$1 envs="RDMPI_RMA_PATH=rdma $2" row atom exp
    p2p_check "$envs RDMPI_LOG=debug:rma" 3 "$prog"
    row=$(printf '%s\n' "$P2P_OUT" | grep -m1 'rdmpi\[0\] rma debug: window 0 (flavour 2)')
    atom=$(printf '%s\n' "$P2P_OUT" | grep -m1 "rdmpi\[0\] rma debug: window 0: RDMA by $name (atomics: " |
        sed 's/.*(atomics: \([a-z]*\)).*/\1/')
    ok $([ -n "$atom" ]; echo $?) "$name: rdma forced: the window's line names $name and its atomics ($atom)"
    if [ "$atom" = yes ]; then exp='0:self[+]hw-atomic 1:hw-atomic 2:hw-atomic$'; else exp='0:self 1:rdma 2:rdma$'; fi
    like "$row" "$exp" "$name: rdma forced: rank 0 reaches ranks 1 and 2 by $([ "$atom" = yes ] && echo "RDMA and the device's atomics" || echo RDMA)"
    row=$(printf '%s\n' "$P2P_OUT" | grep -m1 'rdmpi\[1\] rma debug: window 0 (flavour 1)')
    like "$row" "0:$([ "$atom" = yes ] && echo hw-atomic || echo rdma) 1:self" "$name: rdma forced: Win_create's window too"
    # (MPI_Alloc_mem's chunk is registered once, whole, when made; the
    # Win_create window over it uses that registration on every rank)
    is "$(printf '%s\n' "$P2P_OUT" | grep -c "rma debug: MPI_Alloc_mem: a chunk of [0-9]* bytes registered on $name\$")" 3 \
        "$name: rdma forced: MPI_Alloc_mem's chunk registered with the transport when made, on each of the 3 ranks"
    is "$(printf '%s\n' "$P2P_OUT" | grep -c "rma debug: window [0-9]*: its memory is MPI_Alloc_mem's, registered with its chunk\$")" 3 \
        "$name: rdma forced: the window over MPI_Alloc_mem memory registers nothing again, on each of the 3 ranks"
    p2p_check "$envs" 4 "$RD_BUILDDIR/test/mpi/rma_atomic"
    if [ "$atom" = yes ]; then
        p2p_check "$envs RDMPI_RMA_HW_ATOMICS=no RDMPI_LOG=debug:rma" 4 "$RD_BUILDDIR/test/mpi/rma_atomic" 2000
        like "$(printf '%s\n' "$P2P_OUT" | grep -m1 'rdmpi\[0\] rma debug: window 0 (flavour 2)')" '0:self 1:rdma 2:rdma 3:rdma$' \
            "$name: RDMPI_RMA_HW_ATOMICS=no: RDMA for Put and Get, accumulates and locks by active messages"
    fi
    p2p_check "$envs RDMPI_RMA_PROGRESS_THREAD=yes" 3 "$RD_BUILDDIR/test/mpi/rma_core_progress"
    # every op and type, every synchronisation mode, on these paths
    p2p_check "$envs" 3 "$RD_BUILDDIR/test/mpi/rma_ops"
    p2p_check "$envs" 3 "$RD_BUILDDIR/test/mpi/rma_sync"
}
case "$tls" in *" ucx"*) net_paths ucx "RDMPI_TRANSPORTS=ucx UCX_TLS=tcp UCX_NET_DEVICES=lo" ;; esac
case "$tls" in *" ofi"*) net_paths ofi "RDMPI_TRANSPORTS=ofi FI_PROVIDER=tcp FI_TCP_IFACE=lo" ;; esac
# the per-window path table (RDMPI_LOG=debug:rma): Win_allocate's first
# window on 2 ranks of one node, by loads and stores, and forced to
# active messages; Win_create's window over MPI_Alloc_mem memory (node
# memory) by loads and stores too (over malloc'd memory by CMA:
# rma_allocmem.sh)
out=$(RDMPI_LOG=debug:rma timeout -k 10 120 rrun -np 2 "$prog" 2>&1)
like "$(printf '%s\n' "$out" | grep -m1 'rdmpi\[0\] rma debug: window 0 (flavour 2)')" '0:self 1:node$' \
    "auto: rank 0 reaches rank 1's allocated window by loads and stores"
like "$(printf '%s\n' "$out" | grep -m1 'rdmpi\[1\] rma debug: window 0 (flavour 1)')" '0:node 1:self$' \
    "auto: a node peer's window over MPI_Alloc_mem memory (Win_create) by loads and stores"
out=$(RDMPI_RMA_PATH=am RDMPI_LOG=debug:rma timeout -k 10 120 rrun -np 2 "$prog" 2>&1)
like "$(printf '%s\n' "$out" | grep -m1 'rdmpi\[0\] rma debug: window 0 (flavour 2)')" '0:am 1:am$' \
    "RDMPI_RMA_PATH=am: active messages to every rank, itself included"
done_testing

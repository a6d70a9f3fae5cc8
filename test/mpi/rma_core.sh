#!/bin/bash
# One-sided communication, every call once with exact values
# (test/mpi/rma_core.c): 1-4 ranks on the default paths, the
# active-message path forced everywhere (RDMPI_RMA_PATH=am), shm named
# explicitly, and every rank pair through UCX and libfabric over the
# loopback device where this build has them; passive-target progress on
# a computing target with the progress thread (rma_core_progress.c).
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

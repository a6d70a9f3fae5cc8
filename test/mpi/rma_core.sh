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
# passive-target progress while the target computes: the progress thread
for np in 2 4; do
    p2p_check "RDMPI_RMA_PROGRESS_THREAD=yes" "$np" "$RD_BUILDDIR/test/mpi/rma_core_progress"
done
p2p_check "RDMPI_RMA_PROGRESS_THREAD=yes RDMPI_RMA_PROGRESS_INTERVAL=50" 3 "$prog"
tls=$("$RD_BUILDDIR/launcher/rdmpi_info" | grep '^transports:')
P2P_TIMEOUT=300
case "$tls" in *" ucx"*) p2p_check "RDMPI_TRANSPORTS=ucx UCX_TLS=tcp UCX_NET_DEVICES=lo" 3 "$prog" ;; esac
case "$tls" in *" ofi"*) p2p_check "RDMPI_TRANSPORTS=ofi FI_PROVIDER=tcp FI_TCP_IFACE=lo" 3 "$prog" ;; esac
done_testing

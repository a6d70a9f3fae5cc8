#!/bin/bash
# run.sh - the point-to-point benchmarks (bench/p2p) over the network
# transports, each against Open MPI on the same network path, over loopback
# TCP on this machine (a benchmark, not a test):
#   rdmpi RDMPI_TRANSPORTS=ucx (UCX_TLS=tcp on lo)  vs  Open MPI's UCX pml, same UCX settings
#   rdmpi RDMPI_TRANSPORTS=ofi (tcp;ofi_rxm on lo)  vs  Open MPI's tcp btl on lo
#
#   bench/net/run.sh [bench/p2p/run.sh options] [BUILD_DIR]
#
# Options go to bench/p2p/run.sh (default here: --quick --tests lat,bw).
set -u
here=$(cd "$(dirname "$0")" && pwd) || exit 1
args=("$@")
[ ${#args[@]} -gt 0 ] || args=(--quick --tests "lat,bw")

echo "######## UCX: rdmpi RDMPI_TRANSPORTS=ucx vs Open MPI --mca pml ucx (UCX_TLS=tcp, UCX_NET_DEVICES=lo)"
RDMPI_TRANSPORTS=ucx UCX_TLS=tcp UCX_NET_DEVICES=lo \
    P2P_OMPI_FLAGS="--mca pml ucx --mca pml_ucx_tls any --mca pml_ucx_devices any -x UCX_TLS=tcp -x UCX_NET_DEVICES=lo" \
    bash "$here/../p2p/run.sh" --libs rdmpi,openmpi "${args[@]}"

echo
echo "######## libfabric: rdmpi RDMPI_TRANSPORTS=ofi (tcp;ofi_rxm on lo) vs Open MPI --mca btl tcp,self on lo"
RDMPI_TRANSPORTS=ofi FI_PROVIDER=tcp FI_TCP_IFACE=lo \
    P2P_OMPI_FLAGS="--mca pml ob1 --mca btl tcp,self --mca btl_tcp_if_include lo" \
    bash "$here/../p2p/run.sh" --libs rdmpi,openmpi "${args[@]}"

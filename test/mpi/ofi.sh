#!/bin/bash
# The libfabric transport at the MPI level: what it changes there, with
# every rank pair going through the tcp;ofi_rxm provider on the loopback
# device only (transport_suite, lib.sh). The transport itself, in both
# registration modes: test/unit/tl_contract_ofi.
. "$RD_SRCDIR/test/tap.sh"
. "$RD_SRCDIR/test/mpi/lib.sh"
# (a job over loopback TCP beside the verbs VM can take minutes on a
# loaded host: the limit p2p_large.sh has)
P2P_TIMEOUT=300
transport_suite ofi "FI_PROVIDER=tcp FI_TCP_IFACE=lo"
# Providers that need local buffers registered (FI_MR_LOCAL, as verbs;ofi_rxm
# does): the same path forced on tcp, with the rendezvous protocols.
mrl="RDMPI_TRANSPORTS=ofi FI_PROVIDER=tcp FI_TCP_IFACE=lo RDMPI_OFI_MR_LOCAL=1"
p2p_check "$mrl" 3 "$RD_BUILDDIR/test/mpi/coll"
for proto in get put; do
    p2p_check "$mrl RDMPI_EAGER_LIMIT=1 RDMPI_RNDV_PROTOCOL=$proto" 2 "$RD_BUILDDIR/test/mpi/p2p_large" 20 24
done
done_testing

#!/bin/bash
# The libfabric transport: the point-to-point, datatype, communicator and
# collective test programs with every rank pair going through libfabric
# (RDMPI_TRANSPORTS=ofi; the tcp;ofi_rxm provider on the loopback device only), and
# the size-sensitive ones under each rendezvous protocol (get, put, and
# pipelined active messages).
. "$RD_SRCDIR/test/tap.sh"
. "$RD_SRCDIR/test/mpi/lib.sh"
"$RD_BUILDDIR/launcher/rdmpi_info" | grep -q '^transports:.* ofi' ||
    skip_all "the libfabric transport is not built (configure found no libfabric: apt-get install libfabric-dev)"
base="RDMPI_TRANSPORTS=ofi FI_PROVIDER=tcp FI_TCP_IFACE=lo"
for prog in p2p_order p2p_wild p2p_probe p2p_wait p2p_sync p2p_trunc p2p_cancel p2p_persist \
    p2p_sendrecv p2p_types p2p_dtypes p2p_stress p2p_large coll intercoll comm intercomm; do
    p2p_check "$base" 3 "$RD_BUILDDIR/test/mpi/$prog"
done
for proto in get put pipeline; do
    for prog in p2p_sync p2p_types p2p_dtypes p2p_large; do
        p2p_check "$base RDMPI_EAGER_LIMIT=1 RDMPI_RNDV_PROTOCOL=$proto" 2 "$RD_BUILDDIR/test/mpi/$prog"
    done
done
done_testing

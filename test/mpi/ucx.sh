#!/bin/bash
# The UCX transport: the point-to-point, datatype, communicator and
# collective test programs with every rank pair going through UCX
# (RDMPI_TRANSPORTS=ucx; UCX_TLS=tcp on the loopback device only), and
# the size-sensitive ones under each rendezvous protocol (get, put, and
# pipelined active messages).
. "$RD_SRCDIR/test/tap.sh"
. "$RD_SRCDIR/test/mpi/lib.sh"
"$RD_BUILDDIR/launcher/rdmpi_info" | grep -q '^transports:.* ucx' ||
    skip_all "the UCX transport is not built (configure found no UCX: apt-get install libucx-dev)"
base="RDMPI_TRANSPORTS=ucx UCX_TLS=tcp UCX_NET_DEVICES=lo"
for prog in p2p_order p2p_wild p2p_probe p2p_wait p2p_sync p2p_trunc p2p_cancel p2p_persist \
    p2p_sendrecv p2p_types p2p_dtypes p2p_stress p2p_large coll intercoll comm intercomm; do
    p2p_check "$base" 3 "$RD_BUILDDIR/test/mpi/$prog"
done
for proto in get put pipeline; do
    for prog in p2p_sync p2p_types p2p_dtypes p2p_large; do
        p2p_check "$base RDMPI_EAGER_LIMIT=1 RDMPI_RNDV_PROTOCOL=$proto" 2 "$RD_BUILDDIR/test/mpi/$prog"
    done
done
# UCX's own choice of wire (shared memory between local ranks here)
p2p_check "RDMPI_TRANSPORTS=ucx UCX_NET_DEVICES=lo" 4 "$RD_BUILDDIR/test/mpi/coll"
done_testing

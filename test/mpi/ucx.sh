#!/bin/bash
# The UCX transport: the test programs with every rank pair going through
# UCX over TCP on the loopback device only (transport_suite, lib.sh), and
# once with UCX's own choice of wire between local ranks.
. "$RD_SRCDIR/test/tap.sh"
. "$RD_SRCDIR/test/mpi/lib.sh"
transport_suite ucx "UCX_TLS=tcp UCX_NET_DEVICES=lo"
p2p_check "RDMPI_TRANSPORTS=ucx UCX_NET_DEVICES=lo" 4 "$RD_BUILDDIR/test/mpi/coll"
done_testing

#!/bin/bash
# The UCX transport at the MPI level: what it changes there, with every
# rank pair going through UCX over TCP on the loopback device only
# (transport_suite, lib.sh: the sized programs under each rendezvous
# protocol, UCX's own included; a collective job; lazy connections), and a
# collective job with UCX's own choice of wire between local ranks. The
# transport itself: test/unit/tl_contract_ucx.
. "$RD_SRCDIR/test/tap.sh"
. "$RD_SRCDIR/test/mpi/lib.sh"
# (a job over loopback TCP beside the verbs VM can take minutes on a
# loaded host: the limit p2p_large.sh has)
P2P_TIMEOUT=300
transport_suite ucx "UCX_TLS=tcp UCX_NET_DEVICES=lo"
p2p_check "RDMPI_TRANSPORTS=ucx UCX_NET_DEVICES=lo" 4 "$RD_BUILDDIR/test/mpi/coll"
done_testing

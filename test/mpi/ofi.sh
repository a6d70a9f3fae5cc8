#!/bin/bash
# The libfabric transport: the test programs with every rank pair going
# through the tcp;ofi_rxm provider on the loopback device only
# (transport_suite, lib.sh).
. "$RD_SRCDIR/test/tap.sh"
. "$RD_SRCDIR/test/mpi/lib.sh"
transport_suite ofi "FI_PROVIDER=tcp FI_TCP_IFACE=lo"
done_testing

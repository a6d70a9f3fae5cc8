#!/bin/bash
# Objects (ops, datatypes, communicators, error handlers) freed while
# operations that use them are pending.
. "$RD_SRCDIR/test/tap.sh"
. "$RD_SRCDIR/test/mpi/lib.sh"
for np in 2 3 4; do
    mpi_check "$np" "$RD_BUILDDIR/test/mpi/lifetime"
done
# rendezvous for every message, by each protocol
for envs in "RDMPI_EAGER_LIMIT=1 RDMPI_RNDV_PROTOCOL=get" "RDMPI_EAGER_LIMIT=1 RDMPI_RNDV_PROTOCOL=pipeline"; do
    p2p_check "$envs" 2 "$RD_BUILDDIR/test/mpi/lifetime"
done
done_testing

#!/bin/bash
# Collectives on intercommunicators (test/mpi/intercoll.c), on 2 to 7 ranks,
# and with the eager limit moved so that the blocks go by rendezvous.
. "$RD_SRCDIR/test/tap.sh"
. "$RD_SRCDIR/test/mpi/lib.sh"
for np in 2 3 4 5 7; do
    mpi_check "$np" "$RD_BUILDDIR/test/mpi/intercoll"
done
p2p_check "RDMPI_EAGER_LIMIT=1" 4 "$RD_BUILDDIR/test/mpi/intercoll"
done_testing

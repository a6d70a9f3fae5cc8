#!/bin/bash
# Every RMA communication call under every synchronisation mode, derived types, every predefined op.
# RMA_STRICT=1 (the default here): the hints and error classes the standard
# leaves to the implementation are checked too, as issue 20 asks of rdmpi;
# RMA_STRICT=0 with RD_P2P_LAUNCHER (test/mpi/p2p_lib.sh) checks the program
# itself against Open MPI or MPICH, which leave some of them out.
. "$RD_SRCDIR/test/tap.sh"
. "$RD_SRCDIR/test/mpi/lib.sh"
for np in 1 2 3 4; do
    p2p_check "RMA_STRICT=${RMA_STRICT:-1}" "$np" "$RD_BUILDDIR/test/mpi/rma_ops"
done
done_testing

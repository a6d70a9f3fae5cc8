#!/bin/bash
# Every RMA communication call under every synchronisation mode, derived types, every predefined op.
# (RMA_STRICT=1: the hints and error classes the standard leaves to the
# implementation are checked too; rdmpi promises them, issue 20.)
. "$RD_SRCDIR/test/tap.sh"
. "$RD_SRCDIR/test/mpi/lib.sh"
for np in 1 2 3 4; do
    p2p_check "RMA_STRICT=1" "$np" "$RD_BUILDDIR/test/mpi/rma_ops"
done
done_testing

#!/bin/bash
# Derived datatypes through point-to-point, under every protocol setting.
. "$RD_SRCDIR/test/tap.sh"
. "$RD_SRCDIR/test/mpi/lib.sh"
. "$RD_SRCDIR/test/mpi/p2p_lib.sh"
p2p_suite p2p_dtypes "1 2 3" 2
done_testing

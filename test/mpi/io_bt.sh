#!/bin/bash
# Collective I/O: a block-distributed 3-D array by subarray views on 2, 3
# and 4 ranks (two-phase forced with many rounds and one aggregator, forced
# with the default aggregators, automatic), read back in another
# decomposition; interleaved vector views with holes (test/mpi/io_bt.c).
. "$RD_SRCDIR/test/tap.sh"
. "$RD_SRCDIR/test/mpi/lib.sh"
for np in 2 3 4; do
    mpi_check $np "$RD_BUILDDIR/test/mpi/io_bt" "$RD_BUILDDIR/test/mpi"
done
done_testing

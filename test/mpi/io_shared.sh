#!/bin/bash
# The shared file pointer (runtime/io/shfp.c) on 1-4 ranks: write_shared
# records, read_shared blocks, the ordered calls and their split forms,
# seek_shared, APPEND, SEQUENTIAL. With RDMPI_RMA_PATH=am the pointer's
# fetch-and-adds go to rank 0 by active messages, answered by the progress
# thread the pointer starts there while rank 0 computes without MPI calls.
. "$RD_SRCDIR/test/tap.sh"
. "$RD_SRCDIR/test/mpi/lib.sh"
dir="$RD_BUILDDIR/test/mpi/io_shared.dir"
rm -rf "$dir"
for np in 1 2 3 4; do
    mkdir -p "$dir"
    mpi_check "$np" "$RD_BUILDDIR/test/mpi/io_shared" "$dir"
    is "$(ls -A "$dir")" "" "io_shared on $np ranks: the test's files are gone"
    rm -rf "$dir"
done
for np in 2 4; do
    mkdir -p "$dir"
    p2p_check "RDMPI_RMA_PATH=am" "$np" "$RD_BUILDDIR/test/mpi/io_shared" "$dir"
    rm -rf "$dir"
done
done_testing

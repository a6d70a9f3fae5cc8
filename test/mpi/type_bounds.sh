#!/bin/bash
# Bounds of types around explicit lower/upper bounds (negative extents
# too), and structs of indexed types with empty first blocks: values and
# the bytes they move.
. "$RD_SRCDIR/test/tap.sh"
. "$RD_SRCDIR/test/mpi/lib.sh"
for np in 1 2; do
    mpi_check "$np" "$RD_BUILDDIR/test/mpi/type_bounds"
done
for envs in "RDMPI_EAGER_LIMIT=1 RDMPI_RNDV_PROTOCOL=get" "RDMPI_EAGER_LIMIT=1 RDMPI_RNDV_PROTOCOL=pipeline"; do
    p2p_check "$envs" 2 "$RD_BUILDDIR/test/mpi/type_bounds"
done
done_testing

#!/bin/bash
# MPI_T (test/mpi/mpit.c) on 1 and 2 ranks under rrun: the program is told
# how many parameters the build declares (one control variable each).
. "$RD_SRCDIR/test/tap.sh"
. "$RD_SRCDIR/test/mpi/lib.sh"
prog="$RD_BUILDDIR/test/mpi/mpit"
ncvars=$(cat "$RD_BUILDDIR"/runtime/base/params_{lib,tools}.def | grep -c '^RD_PARAM_')
for np in 1 2; do
    p2p_check "RDMPI_EAGER_LIMIT=4096 RDMPI_COLL_ALLREDUCE=ring RDMPI_COLL_SHM=0" "$np" "$prog" "$ncvars"
done
done_testing

#!/bin/bash
# MPI_THREAD_MULTIPLE: several threads per rank sending and receiving at once.
. "$RD_SRCDIR/test/tap.sh"
. "$RD_SRCDIR/test/mpi/lib.sh"
. "$RD_SRCDIR/test/mpi/p2p_lib.sh"
p2p_suite p2p_threads "1 2 3" 2
done_testing

#!/bin/bash
# A message beyond 2 GiB (count in 1 MiB units) and one of 256 MiB, between
# two ranks, under each rendezvous protocol: the default (split: both sides
# copy), get, pipelined and put. (Without single copy, RDMPI_SHM_CMA=0, the
# engine pipelines: the same protocol as the third run, as RDMPI_LOG=debug:p2p
# says, so that configuration is not run again here; the shm transport
# without CMA is its contract test's.)
. "$RD_SRCDIR/test/tap.sh"
. "$RD_SRCDIR/test/mpi/lib.sh"
. "$RD_SRCDIR/test/mpi/p2p_lib.sh"
prog="$RD_BUILDDIR/test/mpi/p2p_large"
P2P_TIMEOUT=300
p2p_check "" 2 "$prog" 2049 256 c # (and back by MPI_Send_c / MPI_Recv_c: a count beyond 2^31)
p2p_check "RDMPI_RNDV_PROTOCOL=get" 2 "$prog"
p2p_check "RDMPI_RNDV_PROTOCOL=pipeline" 2 "$prog"
p2p_check "RDMPI_RNDV_PROTOCOL=put" 2 "$prog"
done_testing

# Network transports, tested on one machine by forcing every rank pair
# through them (RDMPI_TRANSPORTS).
TESTS += test/mpi/ucx.sh test/mpi/ofi.sh
EXTRA_DIST += test/mpi/ucx.sh test/mpi/ofi.sh

# A job whose ranks each talk to one partner (lazy connections: lib.sh).
check_PROGRAMS += test/mpi/p2p_pairs
test_mpi_p2p_pairs_SOURCES = test/mpi/p2p_pairs.c
test_mpi_p2p_pairs_LDADD = $(RD_MPI_TEST_LIBS)
test_mpi_p2p_pairs_LDFLAGS = $(RD_MPI_TEST_LINKFLAGS)

# Network transports, tested on one machine by forcing every rank pair
# through them (RDMPI_TRANSPORTS).
TESTS += test/mpi/ucx.sh test/mpi/ofi.sh
EXTRA_DIST += test/mpi/ucx.sh test/mpi/ofi.sh

# Intercommunicators (runtime/api/intercomm.c): test/mpi/intercomm on 2 to 5
# ranks (uneven groups), and on 3 ranks under every point-to-point protocol.
check_PROGRAMS += test/mpi/intercomm
test_mpi_intercomm_SOURCES = test/mpi/intercomm.c
test_mpi_intercomm_LDADD = $(RD_MPI_TEST_LIBS)
test_mpi_intercomm_LDFLAGS = $(RD_MPI_TEST_LINKFLAGS)
TESTS += test/mpi/intercomm.sh
EXTRA_DIST += test/mpi/intercomm.sh

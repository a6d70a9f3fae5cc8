# Conformance tests (issue 18, point 8): each program checks one kind of
# answer that an outside conformance suite found wrong.
check_PROGRAMS += test/mpi/lifetime
test_mpi_lifetime_SOURCES = test/mpi/lifetime.c
test_mpi_lifetime_LDADD = $(RD_MPI_TEST_LIBS)
test_mpi_lifetime_LDFLAGS = $(RD_MPI_TEST_LINKFLAGS)
TESTS += test/mpi/lifetime.sh
EXTRA_DIST += test/mpi/lifetime.sh
check_PROGRAMS += test/mpi/status_empty
test_mpi_status_empty_SOURCES = test/mpi/status_empty.c
test_mpi_status_empty_LDADD = $(RD_MPI_TEST_LIBS)
test_mpi_status_empty_LDFLAGS = $(RD_MPI_TEST_LINKFLAGS)
TESTS += test/mpi/status_empty.sh
EXTRA_DIST += test/mpi/status_empty.sh
check_PROGRAMS += test/mpi/info_null
test_mpi_info_null_SOURCES = test/mpi/info_null.c
test_mpi_info_null_LDADD = $(RD_MPI_TEST_LIBS)
test_mpi_info_null_LDFLAGS = $(RD_MPI_TEST_LINKFLAGS)
TESTS += test/mpi/info_null.sh
EXTRA_DIST += test/mpi/info_null.sh
check_PROGRAMS += test/mpi/idup_many
test_mpi_idup_many_SOURCES = test/mpi/idup_many.c
test_mpi_idup_many_LDADD = $(RD_MPI_TEST_LIBS)
test_mpi_idup_many_LDFLAGS = $(RD_MPI_TEST_LINKFLAGS)
TESTS += test/mpi/idup_many.sh
EXTRA_DIST += test/mpi/idup_many.sh

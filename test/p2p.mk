# Point-to-point MPI tests: programs run under rrun by their .sh scripts,
# most of them under every protocol setting (test/mpi/p2p_lib.sh).
EXTRA_DIST += test/mpi/p2p_common.c test/mpi/p2p_lib.sh
RD_P2P_TESTS = p2p_order p2p_wild p2p_probe p2p_wait p2p_sync p2p_trunc
check_PROGRAMS += test/mpi/p2p_order test/mpi/p2p_wild test/mpi/p2p_probe \
	test/mpi/p2p_wait test/mpi/p2p_sync test/mpi/p2p_trunc
test_mpi_p2p_order_SOURCES = test/mpi/p2p_order.c
test_mpi_p2p_order_LDADD = $(RD_MPI_TEST_LIBS)
test_mpi_p2p_order_LDFLAGS = $(RD_MPI_TEST_LINKFLAGS)
test_mpi_p2p_wild_SOURCES = test/mpi/p2p_wild.c
test_mpi_p2p_wild_LDADD = $(RD_MPI_TEST_LIBS)
test_mpi_p2p_wild_LDFLAGS = $(RD_MPI_TEST_LINKFLAGS)
test_mpi_p2p_probe_SOURCES = test/mpi/p2p_probe.c
test_mpi_p2p_probe_LDADD = $(RD_MPI_TEST_LIBS)
test_mpi_p2p_probe_LDFLAGS = $(RD_MPI_TEST_LINKFLAGS)
test_mpi_p2p_wait_SOURCES = test/mpi/p2p_wait.c
test_mpi_p2p_wait_LDADD = $(RD_MPI_TEST_LIBS)
test_mpi_p2p_wait_LDFLAGS = $(RD_MPI_TEST_LINKFLAGS)
test_mpi_p2p_sync_SOURCES = test/mpi/p2p_sync.c
test_mpi_p2p_sync_LDADD = $(RD_MPI_TEST_LIBS)
test_mpi_p2p_sync_LDFLAGS = $(RD_MPI_TEST_LINKFLAGS)
test_mpi_p2p_trunc_SOURCES = test/mpi/p2p_trunc.c
test_mpi_p2p_trunc_LDADD = $(RD_MPI_TEST_LIBS)
test_mpi_p2p_trunc_LDFLAGS = $(RD_MPI_TEST_LINKFLAGS)
TESTS += test/mpi/p2p_order.sh test/mpi/p2p_wild.sh test/mpi/p2p_probe.sh \
	test/mpi/p2p_wait.sh test/mpi/p2p_sync.sh test/mpi/p2p_trunc.sh
EXTRA_DIST += test/mpi/p2p_order.sh test/mpi/p2p_wild.sh test/mpi/p2p_probe.sh \
	test/mpi/p2p_wait.sh test/mpi/p2p_sync.sh test/mpi/p2p_trunc.sh

# test/p2p.mk: point-to-point MPI tests (test/mpi/p2p_*), run under rrun by their
# .sh scripts on 1-4 ranks and under every protocol setting (test/mpi/p2p_lib.sh).
# The programs include test/mpi/p2p_common.c (shared helpers, not a program).
EXTRA_DIST += test/mpi/p2p_common.c test/mpi/p2p_lib.sh

check_PROGRAMS += test/mpi/p2p_order
test_mpi_p2p_order_SOURCES = test/mpi/p2p_order.c
test_mpi_p2p_order_LDADD = $(RD_MPI_TEST_LIBS)
test_mpi_p2p_order_LDFLAGS = $(RD_MPI_TEST_LINKFLAGS)
TESTS += test/mpi/p2p_order.sh
EXTRA_DIST += test/mpi/p2p_order.sh

check_PROGRAMS += test/mpi/p2p_wild
test_mpi_p2p_wild_SOURCES = test/mpi/p2p_wild.c
test_mpi_p2p_wild_LDADD = $(RD_MPI_TEST_LIBS)
test_mpi_p2p_wild_LDFLAGS = $(RD_MPI_TEST_LINKFLAGS)
TESTS += test/mpi/p2p_wild.sh
EXTRA_DIST += test/mpi/p2p_wild.sh

check_PROGRAMS += test/mpi/p2p_probe
test_mpi_p2p_probe_SOURCES = test/mpi/p2p_probe.c
test_mpi_p2p_probe_LDADD = $(RD_MPI_TEST_LIBS)
test_mpi_p2p_probe_LDFLAGS = $(RD_MPI_TEST_LINKFLAGS)
TESTS += test/mpi/p2p_probe.sh
EXTRA_DIST += test/mpi/p2p_probe.sh

check_PROGRAMS += test/mpi/p2p_wait
test_mpi_p2p_wait_SOURCES = test/mpi/p2p_wait.c
test_mpi_p2p_wait_LDADD = $(RD_MPI_TEST_LIBS)
test_mpi_p2p_wait_LDFLAGS = $(RD_MPI_TEST_LINKFLAGS)
TESTS += test/mpi/p2p_wait.sh
EXTRA_DIST += test/mpi/p2p_wait.sh

check_PROGRAMS += test/mpi/p2p_sync
test_mpi_p2p_sync_SOURCES = test/mpi/p2p_sync.c
test_mpi_p2p_sync_LDADD = $(RD_MPI_TEST_LIBS)
test_mpi_p2p_sync_LDFLAGS = $(RD_MPI_TEST_LINKFLAGS)
TESTS += test/mpi/p2p_sync.sh
EXTRA_DIST += test/mpi/p2p_sync.sh

check_PROGRAMS += test/mpi/p2p_trunc
test_mpi_p2p_trunc_SOURCES = test/mpi/p2p_trunc.c
test_mpi_p2p_trunc_LDADD = $(RD_MPI_TEST_LIBS)
test_mpi_p2p_trunc_LDFLAGS = $(RD_MPI_TEST_LINKFLAGS)
TESTS += test/mpi/p2p_trunc.sh
EXTRA_DIST += test/mpi/p2p_trunc.sh

check_PROGRAMS += test/mpi/p2p_cancel
test_mpi_p2p_cancel_SOURCES = test/mpi/p2p_cancel.c
test_mpi_p2p_cancel_LDADD = $(RD_MPI_TEST_LIBS)
test_mpi_p2p_cancel_LDFLAGS = $(RD_MPI_TEST_LINKFLAGS)
TESTS += test/mpi/p2p_cancel.sh
EXTRA_DIST += test/mpi/p2p_cancel.sh

check_PROGRAMS += test/mpi/p2p_persist
test_mpi_p2p_persist_SOURCES = test/mpi/p2p_persist.c
test_mpi_p2p_persist_LDADD = $(RD_MPI_TEST_LIBS)
test_mpi_p2p_persist_LDFLAGS = $(RD_MPI_TEST_LINKFLAGS)
TESTS += test/mpi/p2p_persist.sh
EXTRA_DIST += test/mpi/p2p_persist.sh

check_PROGRAMS += test/mpi/p2p_sendrecv
test_mpi_p2p_sendrecv_SOURCES = test/mpi/p2p_sendrecv.c
test_mpi_p2p_sendrecv_LDADD = $(RD_MPI_TEST_LIBS)
test_mpi_p2p_sendrecv_LDFLAGS = $(RD_MPI_TEST_LINKFLAGS)
TESTS += test/mpi/p2p_sendrecv.sh
EXTRA_DIST += test/mpi/p2p_sendrecv.sh

check_PROGRAMS += test/mpi/p2p_types
test_mpi_p2p_types_SOURCES = test/mpi/p2p_types.c
test_mpi_p2p_types_LDADD = $(RD_MPI_TEST_LIBS)
test_mpi_p2p_types_LDFLAGS = $(RD_MPI_TEST_LINKFLAGS)
TESTS += test/mpi/p2p_types.sh
EXTRA_DIST += test/mpi/p2p_types.sh

check_PROGRAMS += test/mpi/p2p_large
test_mpi_p2p_large_SOURCES = test/mpi/p2p_large.c
test_mpi_p2p_large_LDADD = $(RD_MPI_TEST_LIBS)
test_mpi_p2p_large_LDFLAGS = $(RD_MPI_TEST_LINKFLAGS)
TESTS += test/mpi/p2p_large.sh
EXTRA_DIST += test/mpi/p2p_large.sh

check_PROGRAMS += test/mpi/p2p_stress
test_mpi_p2p_stress_SOURCES = test/mpi/p2p_stress.c
test_mpi_p2p_stress_LDADD = $(RD_MPI_TEST_LIBS)
test_mpi_p2p_stress_LDFLAGS = $(RD_MPI_TEST_LINKFLAGS)
TESTS += test/mpi/p2p_stress.sh
EXTRA_DIST += test/mpi/p2p_stress.sh

# every rank pair posting 64 receives and 64 sends at once, 0 B .. 1 MiB,
# completed by every completion call (the verbs suite runs it on each device)
check_PROGRAMS += test/mpi/p2p_storm
test_mpi_p2p_storm_SOURCES = test/mpi/p2p_storm.c
test_mpi_p2p_storm_LDADD = $(RD_MPI_TEST_LIBS)
test_mpi_p2p_storm_LDFLAGS = $(RD_MPI_TEST_LINKFLAGS)
TESTS += test/mpi/p2p_storm.sh
EXTRA_DIST += test/mpi/p2p_storm.sh

check_PROGRAMS += test/mpi/p2p_threads
test_mpi_p2p_threads_SOURCES = test/mpi/p2p_threads.c
test_mpi_p2p_threads_LDADD = $(RD_MPI_TEST_LIBS)
test_mpi_p2p_threads_LDFLAGS = $(RD_MPI_TEST_LINKFLAGS)
TESTS += test/mpi/p2p_threads.sh
EXTRA_DIST += test/mpi/p2p_threads.sh

# memory freed and taken again between large messages (registration caches)
check_PROGRAMS += test/mpi/p2p_reuse
test_mpi_p2p_reuse_SOURCES = test/mpi/p2p_reuse.c
test_mpi_p2p_reuse_LDADD = $(RD_MPI_TEST_LIBS)
test_mpi_p2p_reuse_LDFLAGS = $(RD_MPI_TEST_LINKFLAGS)
TESTS += test/mpi/p2p_reuse.sh
EXTRA_DIST += test/mpi/p2p_reuse.sh

# connections: ranks in pairs, or everyone at once (the verbs test counts
# connections in its debug log)
check_PROGRAMS += test/mpi/p2p_peers
test_mpi_p2p_peers_SOURCES = test/mpi/p2p_peers.c
test_mpi_p2p_peers_LDADD = $(RD_MPI_TEST_LIBS)
test_mpi_p2p_peers_LDFLAGS = $(RD_MPI_TEST_LINKFLAGS)

# ranks 0 and 1 exchanging messages for a while (the verbs test removes the
# device underneath)
check_PROGRAMS += test/mpi/p2p_loop
test_mpi_p2p_loop_SOURCES = test/mpi/p2p_loop.c
test_mpi_p2p_loop_LDADD = $(RD_MPI_TEST_LIBS)
test_mpi_p2p_loop_LDFLAGS = $(RD_MPI_TEST_LINKFLAGS)

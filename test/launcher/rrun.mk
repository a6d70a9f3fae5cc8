# Tests of rrun, the launcher: shell scripts (TAP) and the programs they run.
RRUN_TESTS = \
	test/launcher/rrun_options.sh \
	test/launcher/rrun_basic.sh \
	test/launcher/rrun_bind.sh \
	test/launcher/rrun_fail.sh \
	test/launcher/rrun_signal.sh \
	test/launcher/rrun_mpi_abort.sh \
	test/launcher/rrun_hosts.sh \
	test/launcher/rrun_netns.sh \
	test/launcher/rrun_intruder.sh \
	test/launcher/rrun_kill.sh \
	test/launcher/rrun_report.sh
TESTS += $(RRUN_TESTS)
EXTRA_DIST += $(RRUN_TESTS) test/launcher/rrun_lib.sh test/launcher/agent_local.sh \
	test/launcher/agent_netns.sh test/netns.sh

# A plain PMIx client (Init/Get/Put/Commit/Fence/Get/Finalize).
check_PROGRAMS += test/progs/rrun_hello test/progs/rrun_fail test/progs/rrun_probe \
	test/progs/rrun_mpi_abort
test_progs_rrun_hello_SOURCES = test/progs/rrun_hello.c
test_progs_rrun_hello_CFLAGS = $(AM_CFLAGS) $(PMIX_CFLAGS)
test_progs_rrun_hello_LDADD = $(PMIX_LIBS)
# A PMIx client that fails on purpose (signal, exit, no finalize, abort).
test_progs_rrun_fail_SOURCES = test/progs/rrun_fail.c
test_progs_rrun_fail_CFLAGS = $(AM_CFLAGS) $(PMIX_CFLAGS)
test_progs_rrun_fail_LDADD = $(PMIX_LIBS)
# No PMIx: shows its binding, environment, and writes output patterns.
test_progs_rrun_probe_SOURCES = test/progs/rrun_probe.c
test_progs_rrun_probe_LDADD =
# MPI_Abort through librdmpi.
test_progs_rrun_mpi_abort_SOURCES = test/progs/rrun_mpi_abort.c
test_progs_rrun_mpi_abort_LDADD = librdmpi.la
test_progs_rrun_mpi_abort_LDFLAGS = -no-install $(AM_LDFLAGS)
# Another user trying to join a job (launcher/rrun/guard.c).
check_PROGRAMS += test/progs/rrun_intruder
test_progs_rrun_intruder_SOURCES = test/progs/rrun_intruder.c
test_progs_rrun_intruder_CFLAGS = $(AM_CFLAGS) $(PMIX_CFLAGS)
test_progs_rrun_intruder_LDADD = $(PMIX_LIBS)
# Every kind of traffic until told to stop, for killing ranks at random.
RD_MPI_PROGS += test/progs/rrun_busy
# Jobs that hang on purpose, for rrun's report of what every rank waits for.
RD_MPI_PROGS += test/mpi/hang

# test/sanitizers.mk: `make check-sanitizers`, the tests a sanitizer build
# (configure --enable-sanitizers=address,undefined) runs; ./quickstart check
# runs it in a second build directory (build-san), after the normal build's
# tests (test/streams.mk).
#
# Which tests: what runs rdmpi's own code the most, in a few minutes under
# AddressSanitizer and UBSan (2-3 times slower than a normal build):
#  - the shared-memory and self transports alone (test/unit/shm_*, self_*),
#    the buffer mapping (shm_xmap) included;
#  - the point-to-point engine: every p2p_*.sh test, each protocol forced;
#    its unit tests on the fake transport (p2p_match, p2p_rndv, and
#    coll_sched for the collectives' schedules, io_aio for the I/O
#    engine's thread);
#  - collectives: coll.sh on 1-4 ranks and every forced set on 3 and 4
#    (the mapped-buffer set, RDMPI_SHM_XMAP=1, included), coll_mismatch.sh
#    on 3 ranks, intercoll.sh; communicators: comm, intercomm, idup_many,
#    split_hw (MPI_Comm_split_type's hardware splits, hwloc's topology);
#  - one-sided communication: rma_core.sh (every path, the progress
#    thread, UCX and libfabric over loopback: UBSan found the accumulates'
#    unaligned loads there; the network's direct paths, RDMA and the
#    device's atomics, over both) and the rma_*.sh programs;
#  - parallel I/O: every io_*.sh test (blocking, split and nonblocking
#    collectives through coll.c's schedules and the I/O thread, views and
#    data sieving, datareps, atomic mode's locks, the shared file pointer,
#    hostile use, io_view once under MPI_THREAD_MULTIPLE) and the unit
#    tests ioview, iosieve, iocoll: ~2,400 points, ~30 s of the pass on 2
#    cores (~40 CPU-seconds; 55 s beside other sessions' builds);
#  - lifetime.sh, memory.sh, untouched.sh (the network plug-ins loaded:
#    ucx and ofi, built with the sanitizers too);
#  - rrun: every rrun_*.sh test but the network-namespace one, rrun_kill
#    with 10 kills; rrun_hosts and rrun_report run ranks on two hosts,
#    so through the UCX plug-in;
#  - test/launcher/sanitizers.sh: the sanitizers' own set-up.
# Not here: the verbs suite (a VM), the UCX and libfabric suites (minutes
# each over TCP; the plug-ins are loaded and used above), Slurm, and tests
# of behaviour rather than code (the wrappers, CMake, Open MPI's mpirun,
# rdmpi_info, the datatype and conformance tests).
#
# The reports: the tests' environment (Makefile.am) makes any finding end
# its program with status 1; reports are written unsymbolized (a leak check
# that symbolizes costs about a second at every exit), and the logs of the
# tests that fail are symbolized afterwards (test/symbolize.sh).
if RD_SANITIZE
TESTS += test/launcher/sanitizers.sh
endif
# (the longest first: make -j starts them in this order, and a long test
# started last leaves the other core idle at the end)
rd_san_tests = \
	test/mpi/coll_mismatch.sh test/mpi/p2p_large.sh test/mpi/coll.sh \
	test/mpi/coll_persist.sh test/mpi/pcoll.sh \
	test/mpi/coll_count_c.sh test/mpi/typeinfo.sh test/mpi/pack_count_c.sh test/mpi/names.sh \
	test/mpi/rma_core.sh test/mpi/rma_count_c.sh test/mpi/rma_ops.sh test/mpi/rma_sync.sh \
	test/mpi/rma_atomic.sh test/mpi/rma_errors.sh test/mpi/rma_win.sh \
	test/mpi/rma_allocmem.sh test/mpi/io_shared.sh \
	test/launcher/rrun_report.sh test/mpi/p2p_stress.sh test/mpi/p2p_order.sh \
	test/mpi/p2p_persist.sh test/mpi/p2p_sync.sh test/launcher/rrun_hosts.sh \
	test/mpi/intercomm.sh test/launcher/rrun_options.sh test/mpi/idup_many.sh \
	test/launcher/rrun_kill.sh \
	test/unit/symbols.sh \
	test/unit/shm_ring test/unit/shm_segment test/unit/tl_contract_shm \
	test/unit/tl_contract_self test/unit/shm_xmap \
	test/unit/p2p_match test/unit/p2p_rndv test/unit/coll_sched test/unit/io_aio \
	test/mpi/p2p_wild.sh test/mpi/p2p_probe.sh \
	test/mpi/p2p_wait.sh test/mpi/p2p_trunc.sh \
	test/mpi/p2p_cancel.sh test/mpi/p2p_sendrecv.sh test/mpi/p2p_buffers.sh test/mpi/p2p_part.sh test/mpi/p2p_hints.sh test/mpi/p2p_count_c.sh \
	test/mpi/p2p_types.sh \
	test/mpi/p2p_threads.sh test/mpi/p2p_reuse.sh test/mpi/p2p_dtypes.sh test/mpi/greq.sh \
	test/mpi/intercoll.sh \
	test/mpi/io_view.sh test/mpi/io_bt.sh test/mpi/io_coll.sh test/mpi/io_hostile.sh \
	test/mpi/io_atomic.sh test/mpi/io_nb.sh test/mpi/io_nbcoll.sh test/mpi/io_datarep.sh test/mpi/io_basic.sh \
	test/mpi/io_errors.sh test/mpi/io_count_c.sh test/unit/ioview test/unit/iosieve test/unit/iocoll \
	test/mpi/comm.sh test/mpi/split_hw.sh test/mpi/session.sh test/mpi/session_pset.sh test/mpi/mpit.sh test/mpi/op_count_c.sh test/mpi/type_count_c.sh \
	test/mpi/lifetime.sh test/mpi/memory.sh test/mpi/untouched.sh \
	test/launcher/rrun_basic.sh \
	test/launcher/rrun_bind.sh test/launcher/rrun_fail.sh \
	test/launcher/rrun_signal.sh test/launcher/rrun_mpi_abort.sh \
	test/launcher/rrun_intruder.sh \
	test/launcher/sanitizers.sh
# the programs they run
rd_san_progs = \
	test/unit/shm_ring test/unit/shm_segment test/unit/tl_contract_shm \
	test/unit/tl_contract_self test/unit/shm_xmap \
	test/unit/p2p_match test/unit/p2p_rndv test/unit/coll_sched test/unit/io_aio \
	test/mpi/p2p_order test/mpi/p2p_wild test/mpi/p2p_probe test/mpi/p2p_wait \
	test/mpi/p2p_sync test/mpi/p2p_trunc test/mpi/p2p_cancel test/mpi/p2p_persist \
	test/mpi/p2p_sendrecv test/mpi/p2p_buffers test/mpi/p2p_part test/mpi/p2p_hints test/mpi/p2p_count_c test/mpi/p2p_types test/mpi/p2p_large test/mpi/p2p_stress \
	test/mpi/p2p_threads test/mpi/p2p_reuse test/mpi/p2p_dtypes test/mpi/greq \
	test/mpi/coll test/mpi/coll_mismatch test/mpi/intercoll test/mpi/comm test/mpi/split_hw test/mpi/session test/mpi/session_pset test/mpi/mpit test/mpi/op_count_c \
	test/mpi/type_count_c \
	test/mpi/coll_persist test/mpi/pcoll \
	test/mpi/coll_count_c test/mpi/typeinfo test/mpi/pack_count_c test/mpi/names \
	test/mpi/intercomm test/mpi/idup_many test/mpi/lifetime test/mpi/memory \
	test/mpi/untouched test/mpi/hang \
	test/mpi/io_basic test/mpi/io_errors test/mpi/io_count_c test/mpi/io_hostile test/mpi/io_view test/mpi/io_datarep \
	test/mpi/io_atomic test/mpi/io_coll test/mpi/io_bt test/mpi/io_shared test/mpi/io_nb test/mpi/io_nbcoll \
	test/unit/ioview test/unit/iosieve test/unit/iocoll \
	test/mpi/rma_core test/mpi/rma_count_c test/mpi/rma_core_progress test/mpi/rma_ops test/mpi/rma_sync \
	test/mpi/rma_atomic test/mpi/rma_errors test/mpi/rma_win test/mpi/rma_allocmem \
	test/progs/rrun_hello test/progs/rrun_fail test/progs/rrun_probe \
	test/progs/rrun_mpi_abort test/progs/rrun_intruder test/progs/rrun_busy
# fewer rank counts and kills than make check
rd_san_knobs = COLL_NPS='1 2 3 4' COLL_FORCED_NPS='3 4' MISMATCH_NPS=3 KILL_TRIALS=10

# ./quickstart check runs each test configuration once (test/README.md,
# "Check time"): those above under the sanitizers, so its make check of the
# normal build (test/streams.mk's host stream) leaves out the tests this
# pass runs whole (rd_san_tests but rd_san_partial and rd_san_both), and
# runs the three this pass runs in part with the rest of their rank counts
# and kills (rd_san_host_knobs; the two together make the defaults). Run in
# both builds: symbols.sh (the exports of the library users get) and the
# tests of what a program sees outside MPI (lifetime, memory, untouched),
# which the sanitizers' runtime changes (ASan has its own malloc and
# intercepts fork, madvise and signals). `make check` alone still runs
# everything on the normal build.
rd_san_partial = test/mpi/coll.sh test/mpi/coll_mismatch.sh test/launcher/rrun_kill.sh
rd_san_both = test/unit/symbols.sh test/mpi/lifetime.sh test/mpi/memory.sh test/mpi/untouched.sh \
	test/launcher/sanitizers.sh
rd_san_host_knobs = COLL_NPS='5 6 7 8' COLL_FORCED_NPS='2 5 7 8' MISMATCH_NPS='2 4' KILL_TRIALS=30

# the programs the pass runs, built beforehand (quickstart's sanitizer
# build, test/streams.mk, so that building is not part of the pass's time)
.PHONY: sanitizer-progs
# In a sanitizer build the test programs themselves compile at -O1 (the
# library, built before them by `make`, stays at the configured -O2):
# compiling them under the sanitizers took ~95 CPU-seconds at -O2, about 40%
# less at -O1; their run time is the library's (their pattern loops are
# plain and -O3 whatever the flags: p2p_common.c, coll_mismatch.c).
if RD_SANITIZE
rd_san_progs_cflags = $(CFLAGS:-O2=-O1)
sanitizer-progs:
	$(MAKE) $(AM_MAKEFLAGS) CFLAGS='$(rd_san_progs_cflags)' $(rd_san_progs)
else
sanitizer-progs: $(rd_san_progs)
endif

check-sanitizers:
	@if test -z '$(RD_SAN_FLAGS)'; then \
	  echo "check-sanitizers: this build has no sanitizers (configure --enable-sanitizers=address,undefined)" >&2; \
	  exit 1; fi
	@rm -f $(TEST_LOGS) $(TEST_LOGS:.log=.trs) test/launcher/sanitizers.log \
	  test/launcher/sanitizers.trs $(TEST_SUITE_LOG)
	@status=0; env $(rd_san_knobs) $(MAKE) $(AM_MAKEFLAGS) check TESTS='$(rd_san_tests)' \
	  check_PROGRAMS='$(rd_san_progs)' || status=$$?; \
	for trs in `find test -name '*.trs'`; do \
	  if grep -qE '^:global-test-result: (FAIL|ERROR|XPASS)' "$$trs"; then \
	    $(SHELL) $(srcdir)/test/symbolize.sh "$${trs%.trs}.log"; fi; \
	done; \
	exit $$status
.PHONY: check-sanitizers
EXTRA_DIST += test/sanitizers.mk test/symbolize.sh test/launcher/sanitizers.sh test/streams.mk \
	test/qs-configure.sh

# Tests of the transports (transports/): one-process unit tests that link the
# transport sources directly (librdmpi.so exports only MPI symbols).
RD_TL_TEST_CFLAGS = $(AM_CFLAGS) $(PMIX_CFLAGS)
RD_TL_TEST_LIBS = librdutil.la -lpthread

check_PROGRAMS += test/unit/shm_ring test/unit/shm_segment test/unit/tl_contract_shm \
	test/unit/tl_contract_self test/unit/shm_xmap
TESTS += test/unit/shm_ring test/unit/shm_segment test/unit/tl_contract_shm \
	test/unit/tl_contract_self test/unit/shm_xmap
EXTRA_DIST += test/unit/tl_harness.h

# buffers mapped between two processes, and copies through the mappings
test_unit_shm_xmap_SOURCES = test/unit/shm_xmap.c transports/shm/shm_xmap.c transports/shm/shm_cma.c \
	runtime/base/nodemem.c
test_unit_shm_xmap_CFLAGS = $(RD_TL_TEST_CFLAGS)
test_unit_shm_xmap_LDADD = $(RD_TL_TEST_LIBS) $(UCM_LIBS)

test_unit_shm_ring_SOURCES = test/unit/shm_ring.c transports/shm/shm_ring.c
test_unit_shm_ring_CFLAGS = $(RD_TL_TEST_CFLAGS)
test_unit_shm_ring_LDADD = $(RD_TL_TEST_LIBS)

# segment life cycle and CMA between forked processes
test_unit_shm_segment_SOURCES = test/unit/shm_segment.c transports/shm/shm_ring.c \
	transports/shm/shm_segment.c transports/shm/shm_cma.c runtime/base/nodemem.c
test_unit_shm_segment_CFLAGS = $(RD_TL_TEST_CFLAGS)
test_unit_shm_segment_LDADD = $(RD_TL_TEST_LIBS)

# the transport contract test (test/unit/tl_contract.c), one program per
# transport: forked "ranks", rd_job_put/get stubbed by the test (a key/value
# directory); the network ones are in transports_net.mk and verbs.mk
test_unit_tl_contract_shm_SOURCES = test/unit/tl_contract.c $(RD_TL_SHM_SOURCES) runtime/base/error.c
test_unit_tl_contract_shm_CFLAGS = $(RD_TL_TEST_CFLAGS) -DTL_SHM
test_unit_tl_contract_shm_LDADD = $(RD_TL_TEST_LIBS) $(UCM_LIBS)

test_unit_tl_contract_self_SOURCES = test/unit/tl_contract.c $(RD_TL_SELF_SOURCES) runtime/base/error.c
test_unit_tl_contract_self_CFLAGS = $(RD_TL_TEST_CFLAGS) -DTL_SELF
test_unit_tl_contract_self_LDADD = $(RD_TL_TEST_LIBS)

# micro-benchmark: one-way latency of a ring between two pinned processes
noinst_PROGRAMS += bench/shm_ring_lat
bench_shm_ring_lat_SOURCES = bench/shm_ring_lat.c transports/shm/shm_ring.c
bench_shm_ring_lat_CFLAGS = $(AM_CFLAGS)
bench_shm_ring_lat_LDADD = -lpthread

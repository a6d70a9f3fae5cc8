# The verbs transport's tests (transports/verbs/).
if HAVE_VERBS
# the registration cache alone, with fake registrations: runs anywhere
check_PROGRAMS += test/unit/verbs_rcache
TESTS += test/unit/verbs_rcache
test_unit_verbs_rcache_SOURCES = test/unit/verbs_rcache.c transports/verbs/verbs_rcache.c \
	transports/verbs/verbs_rcache.h
test_unit_verbs_rcache_CFLAGS = $(RD_TL_TEST_CFLAGS)
test_unit_verbs_rcache_LDADD = $(RD_TL_TEST_LIBS) $(UCM_LIBS)
endif

# the transport on real devices, or in a VM with soft-RoCE and soft-iWARP
TESTS += test/mpi/verbs.sh
EXTRA_DIST += test/mpi/verbs.sh test/mpi/verbs_suite.sh test/tools/run-in-rdma-vm.sh

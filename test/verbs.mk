# The verbs transport's tests (transports/verbs/).

# the transport on real devices, or in a VM with soft-RoCE and soft-iWARP
# (the first test of all: Makefile.am includes this file first)
TESTS += test/mpi/verbs.sh
EXTRA_DIST += test/mpi/verbs.sh test/mpi/verbs_suite.sh test/tools/run-in-rdma-vm.sh test/tools/rdma-vm.sh

if HAVE_VERBS
# the registration cache alone, with fake registrations: runs anywhere
check_PROGRAMS += test/unit/verbs_rcache
TESTS += test/unit/verbs_rcache
test_unit_verbs_rcache_SOURCES = test/unit/verbs_rcache.c transports/verbs/verbs_rcache.c \
	transports/verbs/verbs_rcache.h
test_unit_verbs_rcache_CFLAGS = $(RD_TL_TEST_CFLAGS)
test_unit_verbs_rcache_LDADD = $(RD_TL_TEST_LIBS) $(UCM_LIBS)

# the choices that need no device: RDMPI_VERBS_DEVICE, device, GID index
check_PROGRAMS += test/unit/verbs_select
TESTS += test/unit/verbs_select
test_unit_verbs_select_SOURCES = test/unit/verbs_select.c transports/verbs/verbs_dev.c
test_unit_verbs_select_CFLAGS = $(RD_TL_TEST_CFLAGS) $(IBVERBS_CFLAGS) $(RDMACM_CFLAGS) $(HWLOC_CFLAGS)
test_unit_verbs_select_LDADD = $(RD_TL_TEST_LIBS) $(IBVERBS_LIBS) $(RDMACM_LIBS) $(HWLOC_LIBS)

# the transport contract test (test/unit/tl_contract.c) on verbs, two forked
# ranks, a stubbed job service: run by test/mpi/verbs_suite.sh where a device is
check_PROGRAMS += test/unit/tl_contract_verbs
test_unit_tl_contract_verbs_SOURCES = test/unit/tl_contract.c $(RD_TL_VERBS_SOURCES) runtime/base/error.c \
	runtime/base/report.c
test_unit_tl_contract_verbs_CFLAGS = $(RD_TL_TEST_CFLAGS) $(IBVERBS_CFLAGS) $(RDMACM_CFLAGS) $(HWLOC_CFLAGS) -DTL_VERBS
test_unit_tl_contract_verbs_LDADD = $(RD_TL_TEST_LIBS) $(IBVERBS_LIBS) $(RDMACM_LIBS) $(HWLOC_LIBS) $(UCM_LIBS)
endif

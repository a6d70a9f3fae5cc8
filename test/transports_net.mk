# Network transports, tested on one machine by forcing every rank pair
# through them (RDMPI_TRANSPORTS).
RD_SH_TESTS += test/mpi/ucx.sh test/mpi/ofi.sh

# A job whose ranks each talk to one partner (lazy connections: lib.sh).
RD_MPI_PROGS += test/mpi/p2p_pairs

# The transport contract test (test/unit/tl_contract.c) on UCX over loopback
# TCP and on libfabric's tcp provider (the program sets UCX_TLS=tcp
# UCX_NET_DEVICES=lo, FI_PROVIDER=tcp FI_TCP_IFACE=lo unless set).
if HAVE_UCX
check_PROGRAMS += test/unit/tl_contract_ucx
TESTS += test/unit/tl_contract_ucx
test_unit_tl_contract_ucx_SOURCES = test/unit/tl_contract.c transports/ucx/ucx.c runtime/base/error.c
test_unit_tl_contract_ucx_CFLAGS = $(RD_TL_TEST_CFLAGS) $(UCX_CFLAGS) -DTL_UCX
test_unit_tl_contract_ucx_LDADD = $(RD_TL_TEST_LIBS) $(UCX_LIBS)
endif
if HAVE_OFI
check_PROGRAMS += test/unit/tl_contract_ofi
TESTS += test/unit/tl_contract_ofi
test_unit_tl_contract_ofi_SOURCES = test/unit/tl_contract.c transports/ofi/ofi.c runtime/base/error.c
test_unit_tl_contract_ofi_CFLAGS = $(RD_TL_TEST_CFLAGS) $(OFI_CFLAGS) -DTL_OFI
test_unit_tl_contract_ofi_LDADD = $(RD_TL_TEST_LIBS) $(OFI_LIBS)
endif

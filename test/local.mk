# test/: unit tests (one process) and MPI tests (several ranks under rrun).
# Launcher and wrapper tests have their own fragments in test/launcher/.
EXTRA_DIST += test/README.md test/tap.sh test/tap.h test/mpi/mtest.h test/mpi/iotest.h test/mpi/lib.sh

# ---- unit tests
RD_MPI_PROGS += test/unit/errors test/unit/f2c
check_PROGRAMS += test/unit/params test/unit/cxx_header
test_unit_params_SOURCES = test/unit/params.c
test_unit_params_LDADD = librdutil.la
test_unit_cxx_header_SOURCES = test/unit/cxx_header.cc
test_unit_cxx_header_LDADD = librdmpi.la
test_unit_cxx_header_LDFLAGS = -no-install $(AM_LDFLAGS)
TESTS += test/unit/params test/unit/errors test/unit/f2c test/unit/cxx_header test/unit/symbols.sh test/unit/layers.sh test/unit/coverage.sh
EXTRA_DIST += test/unit/symbols.sh test/unit/layers.sh test/unit/coverage.sh runtime/api/mpi41.functions test/tools/layers.sh \
	test/tools/cycles.sh

# ---- MPI tests: programs run by the .sh scripts under rrun, registered in
# one line each (Makefile.am: RD_MPI_TESTS); a program with sources or
# flags of its own links the same way with these
RD_MPI_TEST_LIBS = librdmpi.la -lpthread
RD_MPI_TEST_LINKFLAGS = -no-install $(AM_LDFLAGS)
RD_MPI_TESTS += test/mpi/core
RD_MPI_TESTS += test/mpi/profile
RD_MPI_TESTS += test/mpi/fatal
RD_MPI_TESTS += test/mpi/errcodes
RD_MPI_TESTS += test/mpi/comm
# MPI_Comm_split_type's hardware and resource splits; the test works out
# the groups to expect from hwloc itself
RD_MPI_TESTS += test/mpi/split_hw
test_mpi_split_hw_CFLAGS = $(AM_CFLAGS) $(HWLOC_CFLAGS)
test_mpi_split_hw_LDADD = $(LDADD) $(HWLOC_LIBS)
RD_MPI_TESTS += test/mpi/session
RD_MPI_TESTS += test/mpi/names
# the launcher's process sets in sessions (rrun --pset)
RD_MPI_TESTS += test/mpi/session_pset
RD_MPI_TESTS += test/mpi/comm_threads
# the tool information interface (MPI_T)
RD_MPI_TESTS += test/mpi/mpit
RD_MPI_TESTS += test/mpi/attr
RD_MPI_TESTS += test/mpi/greq
RD_MPI_TESTS += test/mpi/cart
RD_MPI_TESTS += test/mpi/op
RD_MPI_TESTS += test/mpi/graph
RD_MPI_TESTS += test/mpi/typeinfo
# the large-count packing calls (MPI_Pack_c ...)
RD_MPI_TESTS += test/mpi/pack_count_c
RD_MPI_TESTS += test/mpi/op_count_c
# the large-count datatype constructors and MPI_Type_get_envelope_c / _contents_c
RD_MPI_TESTS += test/mpi/type_count_c
# the MPI-1 functions removed in MPI-3.0 (and their hiding by a macro)
RD_MPI_TESTS += test/mpi/mpi1

# One-sided communication (runtime/rma/): every call once, on each path
# and transport (the larger programs are test/mpi/rma_*.c)
RD_MPI_TESTS += test/mpi/rma_core
# the large-count calls (MPI_Put_c ..., MPI_Win_create_c ...)
RD_MPI_TESTS += test/mpi/rma_count_c
RD_MPI_PROGS += test/mpi/rma_core_progress
# the one-sided programs written ahead of the implementation (test/README.md)
RD_MPI_TESTS += test/mpi/rma_win
RD_MPI_TESTS += test/mpi/rma_ops
RD_MPI_TESTS += test/mpi/rma_atomic
RD_MPI_TESTS += test/mpi/rma_sync
RD_MPI_TESTS += test/mpi/rma_errors
# MPI_Alloc_mem in node memory, windows over it on the node path
RD_MPI_TESTS += test/mpi/rma_allocmem

# What MPI_Init leaves untouched: signal handlers, the network libraries.
RD_MPI_TESTS += test/mpi/untouched

# Large node-local collectives leave the program's memory alone (fork,
# madvise, mlock, mappings).
RD_MPI_TESTS += test/mpi/memory

# An application's loop, oversubscribed beside a CPU hog: every run ends by
# itself with the checksum of one rank (examples/hydro3d; issue 18 point 10)
RD_SH_TESTS += test/mpi/hydro_stall.sh

# test/: unit tests (one process) and MPI tests (several ranks under rrun).
# Launcher and wrapper tests have their own fragments in test/launcher/.
EXTRA_DIST += test/tap.sh test/tap.h test/mpi/mtest.h test/mpi/lib.sh

# ---- unit tests
check_PROGRAMS += test/unit/params test/unit/errors test/unit/cxx_header
test_unit_params_SOURCES = test/unit/params.c
test_unit_params_LDADD = librdutil.la
test_unit_errors_SOURCES = test/unit/errors.c
test_unit_errors_LDADD = librdmpi.la
test_unit_errors_LDFLAGS = -no-install $(AM_LDFLAGS)
test_unit_cxx_header_SOURCES = test/unit/cxx_header.cc
test_unit_cxx_header_LDADD = librdmpi.la
test_unit_cxx_header_LDFLAGS = -no-install $(AM_LDFLAGS)
TESTS += test/unit/params test/unit/errors test/unit/cxx_header test/unit/symbols.sh test/unit/layers.sh
EXTRA_DIST += test/unit/symbols.sh test/unit/layers.sh test/tools/layers.sh \
	test/tools/cycles.sh

# ---- MPI tests: programs run by the .sh scripts under rrun
RD_MPI_TEST_LIBS = librdmpi.la -lpthread
RD_MPI_TEST_LINKFLAGS = -no-install $(AM_LDFLAGS)
check_PROGRAMS += test/mpi/core test/mpi/profile test/mpi/fatal test/mpi/comm test/mpi/attr test/mpi/cart test/mpi/op test/mpi/graph test/mpi/typeinfo
test_mpi_core_SOURCES = test/mpi/core.c
test_mpi_core_LDADD = $(RD_MPI_TEST_LIBS)
test_mpi_core_LDFLAGS = $(RD_MPI_TEST_LINKFLAGS)
test_mpi_profile_SOURCES = test/mpi/profile.c
test_mpi_profile_LDADD = $(RD_MPI_TEST_LIBS)
test_mpi_profile_LDFLAGS = $(RD_MPI_TEST_LINKFLAGS)
test_mpi_fatal_SOURCES = test/mpi/fatal.c
test_mpi_fatal_LDADD = $(RD_MPI_TEST_LIBS)
test_mpi_fatal_LDFLAGS = $(RD_MPI_TEST_LINKFLAGS)
test_mpi_comm_SOURCES = test/mpi/comm.c
test_mpi_comm_LDADD = $(RD_MPI_TEST_LIBS)
test_mpi_comm_LDFLAGS = $(RD_MPI_TEST_LINKFLAGS)
test_mpi_typeinfo_SOURCES = test/mpi/typeinfo.c
test_mpi_typeinfo_LDADD = $(RD_MPI_TEST_LIBS)
test_mpi_typeinfo_LDFLAGS = $(RD_MPI_TEST_LINKFLAGS)
test_mpi_graph_SOURCES = test/mpi/graph.c
test_mpi_graph_LDADD = $(RD_MPI_TEST_LIBS)
test_mpi_graph_LDFLAGS = $(RD_MPI_TEST_LINKFLAGS)
test_mpi_op_SOURCES = test/mpi/op.c
test_mpi_op_LDADD = $(RD_MPI_TEST_LIBS)
test_mpi_op_LDFLAGS = $(RD_MPI_TEST_LINKFLAGS)
test_mpi_cart_SOURCES = test/mpi/cart.c
test_mpi_cart_LDADD = $(RD_MPI_TEST_LIBS)
test_mpi_cart_LDFLAGS = $(RD_MPI_TEST_LINKFLAGS)
test_mpi_attr_SOURCES = test/mpi/attr.c
test_mpi_attr_LDADD = $(RD_MPI_TEST_LIBS)
test_mpi_attr_LDFLAGS = $(RD_MPI_TEST_LINKFLAGS)
TESTS += test/mpi/core.sh test/mpi/profile.sh test/mpi/fatal.sh test/mpi/comm.sh test/mpi/attr.sh test/mpi/cart.sh test/mpi/op.sh test/mpi/graph.sh test/mpi/typeinfo.sh
EXTRA_DIST += test/mpi/core.sh test/mpi/profile.sh test/mpi/fatal.sh test/mpi/comm.sh test/mpi/attr.sh test/mpi/cart.sh test/mpi/op.sh test/mpi/graph.sh test/mpi/typeinfo.sh

# What MPI_Init leaves untouched: signal handlers, the network libraries.
check_PROGRAMS += test/mpi/untouched
test_mpi_untouched_SOURCES = test/mpi/untouched.c
test_mpi_untouched_LDADD = $(RD_MPI_TEST_LIBS)
test_mpi_untouched_LDFLAGS = $(RD_MPI_TEST_LINKFLAGS)
TESTS += test/mpi/untouched.sh
EXTRA_DIST += test/mpi/untouched.sh

# Large node-local collectives leave the program's memory alone (fork,
# madvise, mlock, mappings).
check_PROGRAMS += test/mpi/memory
test_mpi_memory_SOURCES = test/mpi/memory.c
test_mpi_memory_LDADD = $(RD_MPI_TEST_LIBS)
test_mpi_memory_LDFLAGS = $(RD_MPI_TEST_LINKFLAGS)
TESTS += test/mpi/memory.sh
EXTRA_DIST += test/mpi/memory.sh

# An application's loop, oversubscribed beside a CPU hog: every run ends by
# itself with the checksum of one rank (examples/hydro3d; issue 18 point 10)
TESTS += test/mpi/hydro_stall.sh
EXTRA_DIST += test/mpi/hydro_stall.sh

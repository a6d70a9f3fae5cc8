# test/datatype.mk: derived datatypes, the pack engine, packing, datatype
# attributes, and non-contiguous point-to-point (see ARCHITECTURE.md,
# "Datatypes").

# the engine, one process, linked directly (librdmpi exports only MPI_*)
check_PROGRAMS += test/unit/dtengine
test_unit_dtengine_SOURCES = test/unit/dtengine.c runtime/objects/datatype.c
TESTS += test/unit/dtengine

# constructors, layouts, packing, external32, attributes, errors
check_PROGRAMS += test/mpi/dtypes
test_mpi_dtypes_SOURCES = test/mpi/dtypes.c
test_mpi_dtypes_LDADD = $(RD_MPI_TEST_LIBS)
test_mpi_dtypes_LDFLAGS = $(RD_MPI_TEST_LINKFLAGS)
TESTS += test/mpi/dtypes.sh
EXTRA_DIST += test/mpi/dtypes.sh

# derived datatypes through point-to-point, under every protocol
check_PROGRAMS += test/mpi/p2p_dtypes
test_mpi_p2p_dtypes_SOURCES = test/mpi/p2p_dtypes.c
test_mpi_p2p_dtypes_LDADD = $(RD_MPI_TEST_LIBS)
test_mpi_p2p_dtypes_LDFLAGS = $(RD_MPI_TEST_LINKFLAGS)
TESTS += test/mpi/p2p_dtypes.sh
EXTRA_DIST += test/mpi/p2p_dtypes.sh

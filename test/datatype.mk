# test/datatype.mk: derived datatypes, the pack engine, packing, datatype
# attributes, and non-contiguous point-to-point (see runtime/objects/README.md,
# "Datatypes", and runtime/p2p/README.md, "Non-contiguous data").

# the engine, one process, linked directly (librdmpi exports only MPI_*)
check_PROGRAMS += test/unit/dtengine
test_unit_dtengine_SOURCES = test/unit/dtengine.c runtime/objects/datatype.c runtime/objects/fhandle.c
test_unit_dtengine_LDADD =
TESTS += test/unit/dtengine

# constructors, layouts, packing, external32, attributes, errors
RD_MPI_TESTS += test/mpi/dtypes

# derived datatypes through point-to-point, under every protocol
RD_MPI_TESTS += test/mpi/p2p_dtypes

# test/datatype.mk: derived datatypes, the pack engine, packing, datatype
# attributes, and non-contiguous point-to-point (see runtime/objects/README.md,
# "Datatypes", and runtime/p2p/README.md, "Non-contiguous data").

# the engine, one process, linked directly (librdmpi exports only MPI_*)
check_PROGRAMS += test/unit/dtengine
test_unit_dtengine_SOURCES = test/unit/dtengine.c runtime/objects/datatype.c runtime/objects/fhandle.c
test_unit_dtengine_LDADD =
TESTS += test/unit/dtengine

# the walkers of file views (runtime/io/PLAN.md, 4.1): runs of a byte
# range, bytes below a displacement, the monotone test; external32 sizes
check_PROGRAMS += test/unit/dtview
test_unit_dtview_SOURCES = test/unit/dtview.c runtime/objects/datatype.c runtime/objects/dtx32.c \
	runtime/objects/fhandle.c
test_unit_dtview_LDADD =
TESTS += test/unit/dtview

# constructors, layouts, packing, external32, attributes, errors
RD_MPI_TESTS += test/mpi/dtypes

# derived datatypes through point-to-point, under every protocol
RD_MPI_TESTS += test/mpi/p2p_dtypes

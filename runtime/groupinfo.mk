# groups, info objects and Dims_create (runtime/objects/group.c, runtime/objects/info.c) and their tests
librdmpi_la_SOURCES += \
	runtime/objects/group.c runtime/objects/group.h \
	runtime/objects/info.c runtime/objects/info.h \
	runtime/api/group.c runtime/api/info.c runtime/api/topo.c

# unit test of the group index (large groups), built from the source itself
check_PROGRAMS += test/unit/group_index
test_unit_group_index_SOURCES = test/unit/group_index.c runtime/objects/group.c runtime/objects/fhandle.c runtime/objects/session.c
test_unit_group_index_LDADD =
TESTS += test/unit/group_index

# MPI tests
RD_MPI_TESTS += test/mpi/group
RD_MPI_TESTS += test/mpi/info

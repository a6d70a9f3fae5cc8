# groups, info objects and Dims_create (runtime/objects/group.c, runtime/objects/info.c) and their tests
librdmpi_la_SOURCES += \
	runtime/objects/group.c runtime/objects/group.h \
	runtime/objects/info.c runtime/objects/info.h \
	runtime/api/group.c runtime/api/info.c runtime/api/topo.c

# unit test of the group index (large groups), built from the source itself
check_PROGRAMS += test/unit/group_index
test_unit_group_index_SOURCES = test/unit/group_index.c runtime/objects/group.c
TESTS += test/unit/group_index

# MPI tests
check_PROGRAMS += test/mpi/group test/mpi/info
test_mpi_group_SOURCES = test/mpi/group.c
test_mpi_group_LDADD = $(RD_MPI_TEST_LIBS)
test_mpi_group_LDFLAGS = $(RD_MPI_TEST_LINKFLAGS)
test_mpi_info_SOURCES = test/mpi/info.c
test_mpi_info_LDADD = $(RD_MPI_TEST_LIBS)
test_mpi_info_LDFLAGS = $(RD_MPI_TEST_LINKFLAGS)
TESTS += test/mpi/group.sh test/mpi/info.sh
EXTRA_DIST += test/mpi/group.sh test/mpi/info.sh

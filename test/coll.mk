# Collectives tests.
RD_MPI_TESTS += test/mpi/coll
RD_MPI_TESTS += test/mpi/coll_persist
RD_MPI_TESTS += test/mpi/coll_count_c
RD_MPI_TESTS += test/mpi/pcoll
RD_MPI_TESTS += test/mpi/coll_mismatch
RD_MPI_TESTS += test/mpi/intercoll
RD_MPI_TESTS += test/mpi/win
check_PROGRAMS += test/unit/coll_menu
# the menus match their RDMPI_COLL_* parameters (built from the library's objects)
test_unit_coll_menu_SOURCES = test/unit/coll_menu.c collectives/select.c
test_unit_coll_menu_CPPFLAGS = $(AM_CPPFLAGS) -DRD_COLL_NAMES_ONLY
test_unit_coll_menu_LDADD = librdutil.la
TESTS += test/unit/coll_menu
RD_SH_TESTS += test/mpi/heat2d.sh
EXTRA_DIST += test/mpi/affine.h

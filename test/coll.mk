# Collectives tests.
check_PROGRAMS += test/mpi/coll test/mpi/coll_mismatch test/unit/coll_menu test/mpi/intercoll test/mpi/win
test_mpi_win_SOURCES = test/mpi/win.c
test_mpi_win_LDADD = $(RD_MPI_TEST_LIBS)
test_mpi_win_LDFLAGS = $(RD_MPI_TEST_LINKFLAGS)
test_mpi_intercoll_SOURCES = test/mpi/intercoll.c
test_mpi_intercoll_LDADD = $(RD_MPI_TEST_LIBS)
test_mpi_intercoll_LDFLAGS = $(RD_MPI_TEST_LINKFLAGS)
test_mpi_coll_SOURCES = test/mpi/coll.c
test_mpi_coll_LDADD = $(RD_MPI_TEST_LIBS)
test_mpi_coll_LDFLAGS = $(RD_MPI_TEST_LINKFLAGS)
test_mpi_coll_mismatch_SOURCES = test/mpi/coll_mismatch.c
test_mpi_coll_mismatch_LDADD = $(RD_MPI_TEST_LIBS)
test_mpi_coll_mismatch_LDFLAGS = $(RD_MPI_TEST_LINKFLAGS)
# the menus match their RDMPI_COLL_* parameters (built from the library's objects)
test_unit_coll_menu_SOURCES = test/unit/coll_menu.c collectives/select.c
test_unit_coll_menu_CPPFLAGS = $(AM_CPPFLAGS) -DRD_COLL_NAMES_ONLY
test_unit_coll_menu_LDADD = librdutil.la
TESTS += test/mpi/coll.sh test/mpi/coll_mismatch.sh test/unit/coll_menu test/mpi/heat2d.sh test/mpi/intercoll.sh test/mpi/win.sh
EXTRA_DIST += test/mpi/affine.h test/mpi/coll.sh test/mpi/coll_mismatch.sh test/mpi/heat2d.sh test/mpi/intercoll.sh test/mpi/win.sh

# Tests of parallel I/O (runtime/io/, issue 22): one section per part.

# ---- the file object, open/close, contiguous access (PLAN stage 1)
RD_MPI_TESTS += test/mpi/io_basic
RD_MPI_TESTS += test/mpi/io_errors
# the large-count accesses (MPI_File_read_c ...)
RD_MPI_TESTS += test/mpi/io_count_c
# hostile and unlucky use: odd paths, different files, huge offsets, garbage hints
RD_MPI_TESTS += test/mpi/io_hostile
# the Fortran programs (run by test/fortran/fortran.sh)
EXTRA_DIST += test/fortran/io.f90 test/fortran/io08.f90

# ---- views, strided independent access, data sieving, locks, datareps (stage 2)
# the view's mapping and set_view's checks, one process, linked directly
check_PROGRAMS += test/unit/ioview
test_unit_ioview_SOURCES = test/unit/ioview.c test/unit/dtmake.h runtime/io/view.c runtime/io/datarep.c \
	runtime/objects/datatype.c runtime/objects/dtx32.c runtime/objects/fhandle.c
test_unit_ioview_LDADD =
TESTS += test/unit/ioview
# the strided path (data sieving, locks, atomic mode's span lock, datareps) on a real
# file, one process (and a forked one for the locks), linked directly
check_PROGRAMS += test/unit/iosieve
test_unit_iosieve_SOURCES = test/unit/iosieve.c test/unit/dtmake.h runtime/io/sieve.c runtime/io/lock.c runtime/io/view.c \
	runtime/io/datarep.c runtime/objects/datatype.c runtime/objects/dtx32.c runtime/objects/fhandle.c
test_unit_iosieve_LDADD =
TESTS += test/unit/iosieve
# views, independent access through them, sieving on and off (1-4 ranks)
RD_MPI_TESTS += test/mpi/io_view
# external32, internal, registered datareps (1, 2 ranks)
RD_MPI_TESTS += test/mpi/io_datarep
# its Fortran binding: use mpi, mpif.h, mpi_f08 (run by test/fortran/fortran.sh)
EXTRA_DIST += test/fortran/io_datarep.f90 test/fortran/io_datarep08.f90
# atomic mode: overlapping strided writes, a reader beside a writer (2, 4 ranks)
RD_MPI_TESTS += test/mpi/io_atomic


# ---- two-phase collective access (stage 3)
# the pieces without messages (runtime/io/coll.h), linked directly: a whole
# two-phase access of simulated ranks on a real file
check_PROGRAMS += test/unit/iocoll
test_unit_iocoll_SOURCES = test/unit/iocoll.c runtime/io/coll_plan.c runtime/io/view.c \
	runtime/io/datarep.c runtime/objects/datatype.c runtime/objects/dtx32.c runtime/objects/fhandle.c \
	runtime/base/state.c
test_unit_iocoll_LDADD = -lpthread
TESTS += test/unit/iocoll
# the _all and _at_all forms through MPI_File on the default view, 1-4 ranks
RD_MPI_TESTS += test/mpi/io_coll
# the BT-IO pattern: a 3-D array written by subarray views with write_all,
# read back with another decomposition by read_all; strided views with holes
RD_MPI_TESTS += test/mpi/io_bt


# ---- the shared file pointer and the ordered calls (stage 4)
# read/write_shared, the ordered calls and their split forms, seek_shared,
# APPEND, SEQUENTIAL; the pointer moving while rank 0 computes
RD_MPI_TESTS += test/mpi/io_shared


# ---- nonblocking I/O: the I/O engine (stage 5)
# the engine alone, over the fake transport (test/unit.mk)
check_PROGRAMS += test/unit/io_aio
test_unit_io_aio_SOURCES = test/unit/io_aio.c runtime/io/aio.c runtime/io/aio.h
test_unit_io_aio_LDADD = $(RD_FAKETL_LIBS)
TESTS += test/unit/io_aio
RD_MPI_TESTS += test/mpi/io_nb
# ---- nonblocking collective access (MPI_File_iwrite_all ...) and split
# collectives, as schedules (runtime/io/coll.c)
RD_MPI_TESTS += test/mpi/io_nbcoll


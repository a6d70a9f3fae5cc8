# runtime/io/: parallel I/O (MPI_File), floor 7 (runtime/io/PLAN.md), and
# its entry points in runtime/api/. One section per part of the floor.

librdmpi_la_SOURCES += runtime/io/io_int.h runtime/io/view.c

# ---- the file object, open/close, contiguous access (PLAN stage 1)
librdmpi_la_SOURCES += runtime/objects/file.h runtime/io/io.h runtime/io/file.c runtime/io/hints.c \
	runtime/io/indep.c runtime/api/fileio.h runtime/api/file.c runtime/api/fileio.c

# ---- views, strided independent access, data sieving, locks, datareps (stage 2)
librdmpi_la_SOURCES += runtime/io/datarep.c runtime/io/sieve.c runtime/io/lock.c runtime/api/fileview.c


# ---- two-phase collective access (stage 3)
librdmpi_la_SOURCES += runtime/io/coll.h runtime/io/coll_plan.c runtime/io/coll.c


# ---- the shared file pointer and the ordered calls (stage 4)
librdmpi_la_SOURCES += runtime/io/shfp.c runtime/api/fileshared.c


# ---- nonblocking I/O: the I/O engine (stage 5)
librdmpi_la_SOURCES += runtime/io/aio.c runtime/io/aio.h runtime/api/fileasync.c


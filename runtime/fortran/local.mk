# runtime/fortran/: the Fortran bindings (runtime/fortran/README.md).
# gen.awk reads the API description (runtime/api/mpi.api) and mpi.h and
# writes, in the build tree: mpif.h (installed), mpi.f90 (the mpi module,
# compiled into mpi.mod, installed; mpi_f08_types.f90, mpi_f08.f90 and
# pmpi_f08.f90 likewise: the mpi_f08 modules), fglue.c (the C glue, librdmpifort)
# and fhandles.c (a check of mpif.h's handle values,
# test/fortran/). librdmpifort is C only: no Fortran compiler builds it.
EXTRA_DIST += runtime/api/mpi.api runtime/fortran/gen.awk runtime/fortran/README.md \
	runtime/fortran/PLAN.md runtime/fortran/fglue.h rdmpi-fort.pc.in

rd_fort_gen = runtime/fortran/mpif.h runtime/fortran/fglue.c runtime/fortran/fhandles.c \
	runtime/fortran/mpi.f90 runtime/fortran/mpi_f08_types.f90 runtime/fortran/mpi_f08.f90 \
	runtime/fortran/pmpi_f08.f90
rd_fort_gen_in = $(srcdir)/runtime/api/mpi.api $(srcdir)/include/mpi.h $(srcdir)/runtime/fortran/gen.awk
CLEANFILES += $(rd_fort_gen) runtime/fortran/gen.stamp

# One run writes the three files (as .tmp, moved when it succeeds); the
# stamp stands for them (and is older than them). A file lost since is
# made again.
runtime/fortran/gen.stamp: $(rd_fort_gen_in)
	$(AM_V_GEN)$(MKDIR_P) runtime/fortran && \
	$(AWK) -v outdir=runtime/fortran -f $(srcdir)/runtime/fortran/gen.awk \
		$(srcdir)/runtime/api/mpi.api $(srcdir)/include/mpi.h && \
	for f in $(rd_fort_gen); do mv -f $$f.tmp $$f || exit 1; done && \
	touch $@ && touch $(rd_fort_gen)
$(rd_fort_gen): runtime/fortran/gen.stamp
	@test -f $@ || { rm -f runtime/fortran/gen.stamp && $(MAKE) $(AM_MAKEFLAGS) runtime/fortran/gen.stamp; }

# The mpi module: mpi.f90 compiled by $(FC) into runtime/fortran/mpi.mod
# (automake knows no Fortran modules: an explicit rule). rdmpifort's -I
# finds it beside mpif.h, in the build tree and in $(includedir). It holds
# interfaces, constants and common blocks only: its object file has no code
# (MPI_SIZEOF's specifics are C functions of the glue) and is not linked.
# It uses mpi_f08_types (TYPE(MPI_Status), MPI_STATUS_F2F08's), built first.
# gfortran leaves an unchanged .mod alone: the touch dates it.
CLEANFILES += runtime/fortran/mpi.mod runtime/fortran/mpi-mod.o
runtime/fortran/mpi.mod: runtime/fortran/mpi.f90 runtime/fortran/mpi_f08_types.mod
	$(AM_V_GEN)$(FC) -c -J runtime/fortran -o runtime/fortran/mpi-mod.o runtime/fortran/mpi.f90 && \
	touch $@

# The mpi_f08 modules (runtime/fortran/README.md, "mpi_f08"): mpi_f08_types
# (handle and status types, constants, special objects as BIND(C)
# variables of librdmpi, == and /=, callback interfaces), then mpi_f08 and
# pmpi_f08 over it (generics; their specifics bind to librdmpifort's C),
# which make -j2 compiles side by side. No code in their objects either.
rd_fort_mods = runtime/fortran/mpi.mod runtime/fortran/mpi_f08_types.mod \
	runtime/fortran/mpi_f08.mod runtime/fortran/pmpi_f08.mod
CLEANFILES += runtime/fortran/mpi_f08_types.mod runtime/fortran/mpi_f08.mod runtime/fortran/pmpi_f08.mod \
	runtime/fortran/mpi_f08_types-mod.o runtime/fortran/mpi_f08-mod.o runtime/fortran/pmpi_f08-mod.o
runtime/fortran/mpi_f08_types.mod: runtime/fortran/mpi_f08_types.f90
	$(AM_V_GEN)$(FC) -c -J runtime/fortran -o runtime/fortran/mpi_f08_types-mod.o runtime/fortran/mpi_f08_types.f90 && \
	touch $@
runtime/fortran/mpi_f08.mod: runtime/fortran/mpi_f08.f90 runtime/fortran/mpi_f08_types.mod
	$(AM_V_GEN)$(FC) -c -J runtime/fortran -o runtime/fortran/mpi_f08-mod.o runtime/fortran/mpi_f08.f90 && \
	touch $@
runtime/fortran/pmpi_f08.mod: runtime/fortran/pmpi_f08.f90 runtime/fortran/mpi_f08_types.mod
	$(AM_V_GEN)$(FC) -c -J runtime/fortran -o runtime/fortran/pmpi_f08-mod.o runtime/fortran/pmpi_f08.f90 && \
	touch $@

if RD_FORTRAN
BUILT_SOURCES += $(rd_fort_gen) $(rd_fort_mods)
nodist_include_HEADERS = runtime/fortran/mpif.h $(rd_fort_mods)
lib_LTLIBRARIES += librdmpifort.la
pkgconfig_DATA += rdmpi-fort.pc
librdmpifort_la_SOURCES = runtime/fortran/fglue.h runtime/fortran/fcallback.c runtime/fortran/fsection.c
nodist_librdmpifort_la_SOURCES = runtime/fortran/fglue.c
# librdmpi handed to the linker past libtool (-Wl,): a libtool library
# that depends on another of the package, or on a library in a directory
# of the build tree, is relinked at install, which libtool refuses into any
# libdir but configure's (`make install prefix=...`, as
# test/launcher/wrappers.sh does). The linker still records librdmpi.so.0
# as needed, found through the run path $ORIGIN: the two libraries are
# always in one directory (the build tree's .libs, $(libdir)). Programs
# link both (rdmpifort, rdmpi-fort.pc: -lrdmpifort -lrdmpi), but the
# compiler may link with --as-needed (gfortran on Debian 12 does), which
# drops librdmpi from a program that calls only Fortran names.
librdmpifort_la_LIBADD = $(RD_FORT_LIBRDMPI)
EXTRA_librdmpifort_la_DEPENDENCIES = librdmpi.la
# Only the Fortran names leave it: pmpi_x_ and mpi_x_ (and mpi_f08's
# _f08 and _f08ts specifics), mpi_f08's == and /= (rd_mpi_f08_KIND_eq_ ...).
librdmpifort_la_LDFLAGS = $(AM_LDFLAGS) -version-info 0:0:0 -no-undefined \
	-export-symbols-regex '^(p?mpi|rd_mpi_f08)_[a-z0-9_]*_$$'
endif

# examples/: small programs for users; built with the library, run by ./quickstart.
noinst_PROGRAMS += examples/hello
examples_hello_SOURCES = examples/hello.c
examples_hello_LDADD = librdmpi.la
examples_hello_LDFLAGS = -no-install $(AM_LDFLAGS)

# the 2-D heat-equation stencil (Cartesian grid, halo exchange with vector
# types, Allreduce): `./quickstart` runs it as its demo
noinst_PROGRAMS += examples/heat2d
examples_heat2d_SOURCES = examples/heat2d.c
examples_heat2d_LDADD = librdmpi.la
examples_heat2d_LDFLAGS = -no-install $(AM_LDFLAGS)

# a proxy of a 3-D Lagrangian hydrodynamics code (LULESH's communication:
# 26-neighbour halo exchanges by Irecv/Isend/Wait, an Allreduce per step);
# its checksum is the same on any cube of ranks (test/mpi/hydro_stall.sh)
noinst_PROGRAMS += examples/hydro3d
examples_hydro3d_SOURCES = examples/hydro3d.c
examples_hydro3d_LDADD = librdmpi.la -lm
examples_hydro3d_LDFLAGS = -no-install $(AM_LDFLAGS)

# the same kind of solver in Fortran (Poisson's equation by Jacobi sweeps,
# a Cartesian grid, halos of a vector type, subarrays to gather; `use mpi`),
# built only with the Fortran bindings, by the build tree's rdmpifort as a
# user would (automake knows no Fortran here: configure.ac says why), with
# configure's compiler and -Werror where the C code has it
EXTRA_DIST += examples/jacobi.f90
if RD_FORTRAN
noinst_SCRIPTS += examples/jacobi
CLEANFILES += examples/jacobi
examples/jacobi: $(srcdir)/examples/jacobi.f90 launcher/rdmpifort runtime/fortran/mpi.mod \
		librdmpifort.la librdmpi.la
	$(AM_V_GEN)$(MKDIR_P) examples && w= && \
	case ' $(RD_CFLAGS) ' in *' -Werror '*) w=-Werror ;; esac && \
	RDMPI_FC='$(FC)' launcher/rdmpifort -O2 -Wall $$w -o $@ $(srcdir)/examples/jacobi.f90
endif

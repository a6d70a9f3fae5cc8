# bench/: benchmarks. They measure and are never part of `make check`.
EXTRA_DIST += bench/README.md bench/startup.sh bench/stall.sh

# `make bench`: the startup benchmark (rrun vs Open MPI's and MPICH's launchers).
bench: all
	bash $(srcdir)/bench/startup.sh '$(abs_top_builddir)'
.PHONY: bench

# bench/io/: the MPI-IO benchmarks (`make bench-io`)
include $(top_srcdir)/bench/io/local.mk

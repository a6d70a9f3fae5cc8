# bench/pack/: MPI_Pack / MPI_Unpack of strided doubles against memcpy, for
# rdmpi, Open MPI and MPICH. Never built by `make` nor run by `make check`:
# run.sh compiles pack.c itself with each library's wrapper.
EXTRA_DIST += bench/pack/README.md bench/pack/run.sh bench/pack/pack.c

# `make bench-pack [PACK_ARGS='--rounds 3']`: builds rdmpi first, then runs it.
bench-pack: all
	PACK_OMPI_MPICC='$(OMPI_MPICC)' PACK_OMPI_MPIRUN='$(OMPI_MPIRUN)' \
	PACK_MPICH_MPICC='$(MPICH_MPICC)' PACK_MPICH_MPIEXEC='$(MPICH_MPIEXEC)' \
	bash $(srcdir)/bench/pack/run.sh $(PACK_ARGS) '$(abs_top_builddir)'
.PHONY: bench-pack

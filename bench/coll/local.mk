# bench/coll/: collective benchmarks (Barrier, Bcast, Reduce, Allreduce,
# Allgather, Alltoall, Gather, Scatter, Reduce_scatter_block, Iallreduce) of
# rdmpi against Open MPI and MPICH on 2 and 4 ranks. Never built by `make`
# nor run by `make check`: run.sh compiles coll.c itself with each
# library's wrapper.
EXTRA_DIST += bench/coll/README.md bench/coll/run.sh bench/coll/coll.c bench/coll/floor.c

# `make bench-coll [COLL_ARGS='--quick']`: builds rdmpi first, then runs it.
# The peers' tools found by configure are passed on (when found).
bench-coll: all
	COLL_OMPI_MPICC='$(OMPI_MPICC)' COLL_OMPI_MPIRUN='$(OMPI_MPIRUN)' \
	COLL_MPICH_MPICC='$(MPICH_MPICC)' COLL_MPICH_MPIEXEC='$(MPICH_MPIEXEC)' \
	bash $(srcdir)/bench/coll/run.sh $(COLL_ARGS) '$(abs_top_builddir)'
.PHONY: bench-coll

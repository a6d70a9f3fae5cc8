# bench/p2p/: point-to-point benchmarks (latency, bandwidth, bidirectional
# bandwidth, message rate) of rdmpi against Open MPI and MPICH, with the
# machine's physical floor. Never built by `make` nor run by `make check`:
# run.sh compiles the programs itself with each library's wrapper.
EXTRA_DIST += bench/base.h bench/common.h bench/lib.sh bench/p2p/README.md bench/p2p/run.sh bench/p2p/p2p.c bench/p2p/floor.c

# `make bench-p2p [P2P_ARGS='--quick']`: builds rdmpi first, then runs it.
# The peers' tools found by configure are passed on (when found).
bench-p2p: all
	P2P_OMPI_MPICC='$(OMPI_MPICC)' P2P_OMPI_MPIRUN='$(OMPI_MPIRUN)' \
	P2P_MPICH_MPICC='$(MPICH_MPICC)' P2P_MPICH_MPIEXEC='$(MPICH_MPIEXEC)' \
	bash $(srcdir)/bench/p2p/run.sh $(P2P_ARGS) '$(abs_top_builddir)'
.PHONY: bench-p2p

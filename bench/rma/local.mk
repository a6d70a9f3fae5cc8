# bench/rma/: one-sided benchmarks (Put/Get latency with flush and bandwidth,
# Accumulate, Fetch_and_op and Compare_and_swap latency, fence and lock cost)
# of rdmpi against Open MPI and MPICH on 2 ranks, with a cache-line floor;
# run-vm.sh: the same beside perftest on rxe0 in the RDMA VM. Never built by
# `make` nor run by `make check`: run.sh compiles rma.c itself with each
# library's wrapper.
EXTRA_DIST += bench/rma/README.md bench/rma/run.sh bench/rma/run-vm.sh bench/rma/rma.c

# `make bench-rma [RMA_ARGS='--quick']`: builds rdmpi first, then runs it.
# The peers' tools found by configure are passed on (when found).
bench-rma: all
	RMA_OMPI_MPICC='$(OMPI_MPICC)' RMA_OMPI_MPIRUN='$(OMPI_MPIRUN)' \
	RMA_MPICH_MPICC='$(MPICH_MPICC)' RMA_MPICH_MPIEXEC='$(MPICH_MPIEXEC)' \
	bash $(srcdir)/bench/rma/run.sh $(RMA_ARGS) '$(abs_top_builddir)'
# `make bench-rma-vm`: run-vm.sh (in the RDMA VM where there is no device).
bench-rma-vm: all
	bash $(srcdir)/bench/rma/run-vm.sh '$(abs_top_builddir)'
.PHONY: bench-rma bench-rma-vm

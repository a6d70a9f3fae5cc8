# bench/verbs/: rdmpi over the verbs transport beside perftest and Open MPI's
# UCX pml on the same device (in the RDMA VM where there is no device).
# Never part of `make check`.
EXTRA_DIST += bench/verbs/run.sh bench/verbs/peers.sh bench/verbs/peer_mem.c
bench-verbs: all
	bash $(srcdir)/bench/verbs/run.sh '$(abs_top_builddir)'
.PHONY: bench-verbs

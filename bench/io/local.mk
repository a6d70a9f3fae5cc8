# bench/io/: MPI-IO benchmarks (issue 22): a 3-D block-distributed array
# through a subarray view with write_all/read_all (bt), one contiguous block
# per rank with write_at_all/read_at_all (contig) and independent access
# through a vector view (strided), on 2 and 4 ranks, of rdmpi against Open
# MPI (OMPIO and ROMIO) and MPICH, beside the file system's floor (one
# process, pwrite/pread). Never built by `make` nor run by `make check`:
# run.sh compiles io.c itself with each library's wrapper.
EXTRA_DIST += bench/io/README.md bench/io/run.sh bench/io/io.c

# `make bench-io [IO_ARGS='--quick']`: builds rdmpi first, then runs it
# (the files go to the build directory unless IO_ARGS has --dir). The
# peers' tools found by configure are passed on (when found).
bench-io: all
	IO_OMPI_MPICC='$(OMPI_MPICC)' IO_OMPI_MPIRUN='$(OMPI_MPIRUN)' \
	IO_MPICH_MPICC='$(MPICH_MPICC)' IO_MPICH_MPIEXEC='$(MPICH_MPIEXEC)' \
	bash $(srcdir)/bench/io/run.sh $(IO_ARGS) '$(abs_top_builddir)'
.PHONY: bench-io

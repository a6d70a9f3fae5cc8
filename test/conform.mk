# Conformance tests (issue 18, point 8): each program checks one kind of
# answer that an outside conformance suite found wrong.
RD_MPI_TESTS += test/mpi/lifetime
RD_MPI_TESTS += test/mpi/status_empty
RD_MPI_TESTS += test/mpi/info_null
RD_MPI_TESTS += test/mpi/idup_many
RD_MPI_TESTS += test/mpi/type_bounds
RD_MPI_TESTS += test/mpi/op_ext

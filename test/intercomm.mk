# Intercommunicators (runtime/api/intercomm.c): test/mpi/intercomm on 2 to 5
# ranks (uneven groups), and on 3 ranks under every point-to-point protocol.
RD_MPI_TESTS += test/mpi/intercomm

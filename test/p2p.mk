# test/p2p.mk: point-to-point MPI tests (test/mpi/p2p_*), run under rrun by their
# .sh scripts on 1-4 ranks and under every protocol setting (test/mpi/p2p_lib.sh).
# The programs include test/mpi/p2p_common.c (shared helpers, not a program).
EXTRA_DIST += test/mpi/p2p_common.c test/mpi/p2p_lib.sh

RD_MPI_TESTS += test/mpi/p2p_order
RD_MPI_TESTS += test/mpi/p2p_wild
RD_MPI_TESTS += test/mpi/p2p_probe
RD_MPI_TESTS += test/mpi/p2p_wait
RD_MPI_TESTS += test/mpi/p2p_sync
RD_MPI_TESTS += test/mpi/p2p_trunc
RD_MPI_TESTS += test/mpi/p2p_cancel
RD_MPI_TESTS += test/mpi/p2p_persist
RD_MPI_TESTS += test/mpi/p2p_sendrecv
RD_MPI_TESTS += test/mpi/p2p_nomem
RD_MPI_TESTS += test/mpi/p2p_buffers
RD_MPI_TESTS += test/mpi/p2p_part
RD_MPI_TESTS += test/mpi/p2p_hints
# the large-count calls (MPI_Send_c ...)
RD_MPI_TESTS += test/mpi/p2p_count_c
RD_MPI_TESTS += test/mpi/p2p_types
RD_MPI_TESTS += test/mpi/p2p_large
RD_MPI_TESTS += test/mpi/p2p_stress

# every rank pair posting 64 receives and 64 sends at once, 0 B .. 1 MiB,
# completed by every completion call (the verbs suite runs it on each device)
RD_MPI_TESTS += test/mpi/p2p_storm
RD_MPI_TESTS += test/mpi/p2p_threads

# memory freed and taken again between large messages (registration caches)
RD_MPI_TESTS += test/mpi/p2p_reuse

# connections: ranks in pairs, or everyone at once (the verbs test counts
# connections in its debug log)
RD_MPI_PROGS += test/mpi/p2p_peers

# ranks 0 and 1 exchanging messages for a while (the verbs test removes the
# device underneath)
RD_MPI_PROGS += test/mpi/p2p_loop

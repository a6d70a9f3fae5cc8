# test/launcher/tools.mk: the compiler wrappers, rdmpi_info, and rdmpi programs
# under other tools (CMake's FindMPI, Open MPI's mpirun, Slurm's srun on one
# node and across two network-namespace hosts).
rd_tools_tests = \
	test/launcher/wrappers.sh \
	test/launcher/cmake.sh \
	test/launcher/ompi_mpirun.sh \
	test/launcher/slurm.sh \
	test/launcher/slurm_netns.sh \
	test/launcher/info.sh
TESTS += $(rd_tools_tests)
EXTRA_DIST += $(rd_tools_tests)

# A rank that exits without MPI_Finalize (the Slurm tests' failing rank).
RD_MPI_PROGS += test/progs/mpi_exit

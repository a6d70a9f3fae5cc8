# test/launcher/tools.mk: the compiler wrappers, rdmpi_info, and rdmpi programs
# under other tools (CMake's FindMPI, Open MPI's mpirun, Slurm's srun).
rd_tools_tests = \
	test/launcher/wrappers.sh \
	test/launcher/cmake.sh \
	test/launcher/ompi_mpirun.sh \
	test/launcher/slurm.sh \
	test/launcher/info.sh
TESTS += $(rd_tools_tests)
EXTRA_DIST += $(rd_tools_tests)

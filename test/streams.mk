# test/streams.mk - the work of `./quickstart check` as one make run, so
# that one jobserver (make -jJOBS) hands the machine's cores to whatever
# work is ready: quickstart runs `make -f test/streams.mk -jJOBS` with the
# variables below. Not part of the automake build.
#
#   vm         the verbs suite (test/mpi/verbs.sh: a VM, one core's worth,
#              make check's longest test): started first, it holds one slot
#   host       every other test of make check; it runs one test at a time
#              while the VM holds its slot, two (JOBS) once the VM has ended
#   san-build  the sanitizer build (configure, the library, the programs
#              its tests run): whenever a slot is free, so beside the host
#              tests once the VM has ended, or beside the VM once the host
#              tests have
#   san-check  the sanitizer pass's tests (make check-sanitizers), after
#              the host tests: never beside them (a third stream of work
#              beside the host tests, which include timed ones, made them
#              fail under load), but beside the VM if it still runs
#
# Each recipe records its status in a file and succeeds, so that one
# failing stream does not stop the others; quickstart reads the files and
# reports. Variables: BUILD (build tree), SAN (sanitizer build tree;
# empty: no sanitizer pass), SRC (source tree), VM_TESTS, HOST_TESTS,
# HOST_KNOBS (the host tests' environment: test/sanitizers.mk's
# rd_san_host_knobs when the sanitizer pass runs the other configurations),
# SAN_CONFIGURE (configure flags of the sanitizer build), and CONFIGURE
# (1: configure the sanitizer build again).
.PHONY: all vm host san-build san-check
all: vm $(if $(SAN),san-check,host)

vm:
	@echo "quickstart: make check: $(VM_TESTS) (beside the rest)"
	@s=0; $(MAKE) -C $(BUILD) check TESTS='$(VM_TESTS)' TEST_SUITE_LOG=test-suite-vm.log \
	  >$(BUILD)/check-vm.out 2>&1 || s=$$?; echo $$s >$(BUILD)/check-vm.status; \
	echo "quickstart: the verbs suite ended ($$(( $$(date +%s) - $(T0) )) s)"

host:
	@echo "quickstart: make check: the other tests"
	@s=0; env $(HOST_KNOBS) $(MAKE) -C $(BUILD) check TESTS='$(HOST_TESTS)' >$(BUILD)/check.out 2>&1 || s=$$?; \
	echo $$s >$(BUILD)/check-host.status; \
	echo "quickstart: make check's other tests ended ($$(( $$(date +%s) - $(T0) )) s)"

# configure (when needed) and build the library and the pass's programs
san-build:
	@s=0; QS_RECONFIGURE=$(CONFIGURE) $(SRC)/test/qs-configure.sh $(SAN) $(SAN_CONFIGURE) \
	  >$(SAN)/configure.log 2>&1 || s=$$?; \
	if [ $$s -eq 0 ]; then \
	  grep '^quickstart: configure' $(SAN)/configure.log || true; \
	  echo "quickstart: make (in $(notdir $(SAN)))"; \
	  { $(MAKE) -C $(SAN) && $(MAKE) -C $(SAN) sanitizer-progs; } >$(SAN)/make.out 2>&1 || s=$$?; \
	else tail -40 $(SAN)/configure.log >$(SAN)/make.out; fi; \
	echo $$s >$(SAN)/build.status; \
	echo "quickstart: the sanitizer build ended ($$(( $$(date +%s) - $(T0) )) s)"

san-check: host san-build
	@s=0; if [ "$$(cat $(SAN)/build.status)" = 0 ]; then \
	  echo "quickstart: make check-sanitizers (in $(notdir $(SAN)))"; \
	  $(MAKE) -C $(SAN) check-sanitizers >$(SAN)/check.out 2>&1 || s=$$?; \
	else s=1; fi; echo $$s >$(SAN)/check.status; \
	echo "quickstart: the sanitizer pass's tests ended ($$(( $$(date +%s) - $(T0) )) s)"

# Unit tests of the point-to-point engine and the collectives' schedules on
# a fake transport (test/unit/fake_tl.h): one process, the engine as rank 0
# of a small world whose other ranks the test plays. The engine and what it
# needs are linked from their sources (librdmpi exports only MPI_*), the
# engine through $(RD_P2P_SOURCES) (runtime/local.mk); fake_tl.c stubs the
# job service and stands for the transport registry (runtime/p2p/tl_load.c).
check_LTLIBRARIES += test/unit/libfaketl.la
test_unit_libfaketl_la_SOURCES = test/unit/fake_tl.c test/unit/fake_tl.h test/unit/fake_check.h \
	$(RD_P2P_SOURCES) $(RD_TL_SELF_SOURCES) \
	runtime/base/error.c runtime/base/state.c runtime/base/report.c runtime/base/nodemem.c \
	runtime/objects/comm.c runtime/objects/errhandler.c runtime/objects/errcode.c runtime/objects/datatype.c runtime/objects/fhandle.c runtime/objects/session.c \
	collectives/sched.c collectives/util.c collectives/bcast.c collectives/reduce.c
test_unit_libfaketl_la_CFLAGS = $(AM_CFLAGS)
RD_FAKETL_LIBS = test/unit/libfaketl.la librdop.la librdutil.la -ldl -lpthread

check_PROGRAMS += test/unit/p2p_match test/unit/p2p_rndv test/unit/coll_sched
test_unit_p2p_match_SOURCES = test/unit/p2p_match.c
test_unit_p2p_match_LDADD = $(RD_FAKETL_LIBS)
test_unit_p2p_rndv_SOURCES = test/unit/p2p_rndv.c
test_unit_p2p_rndv_LDADD = $(RD_FAKETL_LIBS)
test_unit_coll_sched_SOURCES = test/unit/coll_sched.c
test_unit_coll_sched_LDADD = $(RD_FAKETL_LIBS)
TESTS += test/unit/p2p_match test/unit/p2p_rndv test/unit/coll_sched

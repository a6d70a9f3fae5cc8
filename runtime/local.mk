# runtime/: the floors of the library (ARCHITECTURE.md, "Layers"): base/
# services, objects/, p2p/, api/ (the MPI_* entry points). Each has a README.
EXTRA_DIST += runtime/base/README.md runtime/objects/README.md \
	runtime/p2p/README.md runtime/rma/README.md runtime/api/README.md \
	runtime/io/README.md runtime/io/PLAN.md

# Services that the launcher tools share with the library.
noinst_LTLIBRARIES += librdutil.la
librdutil_la_SOURCES = \
	runtime/base/params.c runtime/base/params.h \
	runtime/base/log.c runtime/base/log.h runtime/base/pvar.c runtime/base/pvar.h

# The parameters: each component declares its own in a params.def of its
# folder (runtime/base/params.h); the build joins the library's and the
# tools' into one list each.
EXTRA_DIST += runtime/base/params.def runtime/p2p/params.def transports/shm/params.def \
	transports/verbs/params.def transports/ofi/params.def collectives/params.def runtime/rma/params.def launcher/params.def \
	runtime/io/params.def
rd_params_lib = $(srcdir)/runtime/base/params.def $(srcdir)/runtime/p2p/params.def \
	$(srcdir)/transports/shm/params.def $(srcdir)/transports/verbs/params.def \
	$(srcdir)/transports/ofi/params.def $(srcdir)/collectives/params.def \
	$(srcdir)/runtime/rma/params.def $(srcdir)/runtime/io/params.def
rd_params_tools = $(srcdir)/launcher/params.def
nodist_librdutil_la_SOURCES = runtime/base/params_lib.def runtime/base/params_tools.def
BUILT_SOURCES += runtime/base/params_lib.def runtime/base/params_tools.def
CLEANFILES += runtime/base/params_lib.def runtime/base/params_tools.def
runtime/base/params_lib.def: $(rd_params_lib)
	$(AM_V_GEN)$(MKDIR_P) runtime/base && for f in $(rd_params_lib); do d=$${f%/params.def}; \
	  printf '#undef RD_PARAM_COMPONENT\n#define RD_PARAM_COMPONENT "%s"\n' "$${d##*/}"; cat $$f; done > $@.tmp$$$$ && mv -f $@.tmp$$$$ $@
runtime/base/params_tools.def: $(rd_params_tools)
	$(AM_V_GEN)$(MKDIR_P) runtime/base && for f in $(rd_params_tools); do d=$${f%/params.def}; \
	  printf '#undef RD_PARAM_COMPONENT\n#define RD_PARAM_COMPONENT "%s"\n' "$${d##*/}"; cat $$f; done > $@.tmp$$$$ && mv -f $@.tmp$$$$ $@

# The point-to-point engine (runtime/p2p/ but the transport loader,
# tl_load.c: transports/local.mk): one list, for the library and for the
# engine's unit tests on the fake transport (test/unit.mk).
RD_P2P_SOURCES = \
	runtime/p2p/request.c runtime/p2p/request.h \
	runtime/p2p/p2p.h runtime/p2p/wire.h runtime/p2p/engine.h runtime/p2p/engine.c \
	runtime/p2p/peers.c runtime/p2p/match.c runtime/p2p/rndv.c runtime/p2p/progress.c \
	runtime/p2p/bsend.c runtime/p2p/bsend.h runtime/p2p/pair.c runtime/p2p/pair.h runtime/p2p/tl_peers.c \
	runtime/p2p/net.c runtime/p2p/net.h runtime/p2p/part.c runtime/p2p/part.h

lib_LTLIBRARIES += librdmpi.la
include_HEADERS += include/mpi.h
librdmpi_la_SOURCES = \
	runtime/base/error.c runtime/base/error.h \
	runtime/base/state.h runtime/base/state.c runtime/api/lifecycle.c runtime/api/lifecycle.h \
	runtime/base/job.c runtime/base/job.h runtime/base/hwtopo.c runtime/base/hwtopo.h \
	runtime/base/report.c runtime/base/report.h \
	runtime/objects/comm.c runtime/objects/comm.h \
	runtime/objects/errhandler.c runtime/objects/errhandler.h runtime/objects/errcode.c \
	runtime/objects/datatype.c runtime/objects/datatype.h runtime/objects/dtx32.c runtime/objects/dtx32.h \
	runtime/objects/fhandle.c runtime/objects/fhandle.h runtime/api/f2c.c \
	$(RD_P2P_SOURCES) \
	runtime/api/check.h runtime/api/init.c runtime/api/comm.c runtime/api/splittype.c runtime/api/errors.c \
	runtime/api/misc.c runtime/api/names.c runtime/api/p2p.c runtime/api/request.c runtime/api/bsend.c runtime/api/part.c runtime/api/session.c \
	runtime/objects/session.h runtime/objects/session.c \
	runtime/api/greq.c runtime/api/greq.h \
	runtime/api/datatype.c runtime/api/attr.c runtime/objects/attr.h runtime/api/win.c runtime/objects/win.h \
	runtime/api/cart.c runtime/api/graph.c runtime/api/topo.h runtime/api/op.c runtime/objects/op.h \
	runtime/api/mpit.c
# one-sided communication (runtime/rma/) and its entry points
librdmpi_la_SOURCES += runtime/rma/rma.h runtime/rma/rma_int.h runtime/rma/win.c runtime/rma/am.c \
	runtime/rma/ops.c runtime/rma/sync.c runtime/rma/progress.c runtime/rma/rdma.c runtime/rma/counter.c \
	runtime/api/rma.c
# the node fast path and CPU atomics of one-sided communication
librdmpi_la_SOURCES += runtime/rma/fast.c runtime/rma/mem.c
# intercommunicators
librdmpi_la_SOURCES += runtime/api/intercomm.c runtime/api/intercomm.h
# the Fortran special objects MPI_BOTTOM, MPI_IN_PLACE (runtime/fortran/)
librdmpi_la_SOURCES += runtime/api/fspecial.c runtime/api/fspecial.h
# (hwloc: the hardware splits of MPI_Comm_split_type, runtime/base/hwtopo.c)
librdmpi_la_CFLAGS = $(AM_CFLAGS) $(PMIX_CFLAGS) $(HWLOC_CFLAGS)
librdmpi_la_LIBADD = librdop.la librdutil.la $(PMIX_LIBS) $(HWLOC_LIBS) -lpthread
# Only the MPI API and its predefined objects leave the library (and, in a
# sanitizer build, LeakSanitizer's suppressions: below).
librdmpi_la_LDFLAGS = $(AM_LDFLAGS) -version-info 0:0:0 -no-undefined \
	-export-symbols-regex '$(rd_lib_exports)'

# The reduction kernels: plain loops that the compiler must vectorise
# (explicit -f flags win over the -O level of CFLAGS).
noinst_LTLIBRARIES += librdop.la
librdop_la_SOURCES = runtime/objects/op.c runtime/objects/op.h
librdop_la_CFLAGS = $(AM_CFLAGS) -ftree-vectorize -fvect-cost-model=dynamic

# Derived datatypes and packing (the layouts and the engine are in runtime/objects/datatype.c).
librdmpi_la_SOURCES += runtime/api/dtype.h runtime/api/typector.c runtime/api/pack.c

# Sanitizer builds: librdmpi carries LeakSanitizer's suppressions for the
# third-party libraries (runtime/base/lsan.supp, made into a C string), and
# exports the one function through which LeakSanitizer reads them.
EXTRA_DIST += runtime/base/lsan.supp
if RD_SANITIZE
librdmpi_la_SOURCES += runtime/base/sanitizer.c
nodist_librdmpi_la_SOURCES = runtime/base/lsan_supp.h
BUILT_SOURCES += runtime/base/lsan_supp.h
CLEANFILES += runtime/base/lsan_supp.h
rd_lib_exports = ^(P?MPI_|rd_mpi_|__lsan_default_suppressions$$)
else
rd_lib_exports = ^(P?MPI_|rd_mpi_)
endif
runtime/base/lsan_supp.h: $(srcdir)/runtime/base/lsan.supp
	$(AM_V_GEN)$(MKDIR_P) runtime/base && sed -e '/^[[:space:]]*#/d' -e '/^[[:space:]]*$$/d' \
		-e 's/[\\"]/\\&/g' -e 's/.*/"&\\n"/' $(srcdir)/runtime/base/lsan.supp > $@.tmp$$$$ && mv -f $@.tmp$$$$ $@

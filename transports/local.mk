# transports/: the contract (transport.h) and its backends.
# self: a rank to itself; shm: ranks of one node (rings + Cross Memory Attach).
RD_TL_SELF_SOURCES = transports/transport.h transports/self/self.c
RD_TL_SHM_SOURCES = \
	transports/shm/shm.c \
	transports/shm/shm_ring.c transports/shm/shm_ring.h \
	transports/shm/shm_segment.c transports/shm/shm_segment.h \
	transports/shm/shm_cma.c transports/shm/shm_cma.h \
	transports/shm/shm_xmap.c transports/shm/shm_xmap.h \
	runtime/base/nodemem.c runtime/base/nodemem.h
librdmpi_la_SOURCES += $(RD_TL_SELF_SOURCES) $(RD_TL_SHM_SOURCES)
EXTRA_DIST += transports/README.md

# The network transports are plug-ins (transports/plugin.h): modules that
# librdmpi loads only when the engine wants one, installed in
# $(pkglibdir) (<libdir>/rdmpi/). Each is its transport's code plus
# plugin.c, which forwards the services it calls to the loading library.
RD_TL_PLUGIN_SOURCES = transports/plugin.c transports/plugin.h runtime/base/error.c
RD_TL_PLUGIN_LDFLAGS = $(AM_LDFLAGS) -module -avoid-version -shared -no-undefined \
	-export-symbols-regex '^rd_tl_plugin_init$$'
librdmpi_la_SOURCES += runtime/p2p/tl_load.c runtime/p2p/tl_load.h
librdmpi_la_LIBADD += -ldl

# ucx: UCP active messages and RMA (when configure found UCX)
if HAVE_UCX
pkglib_LTLIBRARIES += rdmpi_tl_ucx.la
rdmpi_tl_ucx_la_SOURCES = transports/ucx/ucx.c $(RD_TL_PLUGIN_SOURCES)
rdmpi_tl_ucx_la_CPPFLAGS = $(AM_CPPFLAGS) -DRD_TL_PLUGIN_TRANSPORT=rd_transport_ucx
rdmpi_tl_ucx_la_CFLAGS = $(AM_CFLAGS) $(UCX_CFLAGS)
rdmpi_tl_ucx_la_LIBADD = $(UCX_LIBS)
rdmpi_tl_ucx_la_LDFLAGS = $(RD_TL_PLUGIN_LDFLAGS)
endif

# ofi: libfabric RDM endpoints (when configure found libfabric)
if HAVE_OFI
pkglib_LTLIBRARIES += rdmpi_tl_ofi.la
rdmpi_tl_ofi_la_SOURCES = transports/ofi/ofi.c $(RD_TL_PLUGIN_SOURCES)
rdmpi_tl_ofi_la_CPPFLAGS = $(AM_CPPFLAGS) -DRD_TL_PLUGIN_TRANSPORT=rd_transport_ofi
rdmpi_tl_ofi_la_CFLAGS = $(AM_CFLAGS) $(OFI_CFLAGS)
rdmpi_tl_ofi_la_LIBADD = $(OFI_LIBS)
rdmpi_tl_ofi_la_LDFLAGS = $(RD_TL_PLUGIN_LDFLAGS)
endif

# verbs: libibverbs RC queue pairs, librdmacm for iWARP (when configure found
# rdma-core); hwloc picks the nearest device; libucm invalidates the
# registration cache
RD_TL_VERBS_SOURCES = \
	transports/verbs/verbs.c transports/verbs/verbs.h \
	transports/verbs/verbs_dev.c transports/verbs/verbs_wire.c \
	transports/verbs/verbs_data.c transports/verbs/verbs_data.h \
	transports/verbs/verbs_buf.c transports/verbs/verbs_sq.c \
	transports/verbs/verbs_am.c transports/verbs/verbs_rma.c \
	transports/verbs/verbs_report.c \
	transports/verbs/verbs_rcache.c transports/verbs/verbs_rcache.h
if HAVE_VERBS
pkglib_LTLIBRARIES += rdmpi_tl_verbs.la
rdmpi_tl_verbs_la_SOURCES = $(RD_TL_VERBS_SOURCES) $(RD_TL_PLUGIN_SOURCES)
rdmpi_tl_verbs_la_CPPFLAGS = $(AM_CPPFLAGS) -DRD_TL_PLUGIN_TRANSPORT=rd_transport_verbs
rdmpi_tl_verbs_la_CFLAGS = $(AM_CFLAGS) $(IBVERBS_CFLAGS) $(RDMACM_CFLAGS) $(HWLOC_CFLAGS)
rdmpi_tl_verbs_la_LIBADD = $(IBVERBS_LIBS) $(RDMACM_LIBS) $(HWLOC_LIBS) $(UCM_LIBS)
rdmpi_tl_verbs_la_LDFLAGS = $(RD_TL_PLUGIN_LDFLAGS)
endif
# (shm_xmap.c loads libucm itself when it is turned on: linked, libucs
# would install its signal handlers in every program)
